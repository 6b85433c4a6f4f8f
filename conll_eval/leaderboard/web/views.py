"""The web app's HTML pages in the report's style (:func:`conll_eval.leaderboard.pages.html_page`):
the public leaderboard, log in with a token, the team's page (upload form, its submissions with
their state and first errors, the leaderboard), the organiser's page (freeze, hide, rescore).

Every form posts here with a CSRF token tied to the session (:mod:`.sessions`), checked before
anything is done; every name is escaped (:func:`conll_eval.report.escape.html_text`)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from ...errors import UsageError
from ...report.escape import html_text
from ...report.tables import percent
from .. import organisers
from ..pages import html_page, html_table, ranking_sections
from ..ranking import cluster_note
from .api import submit_upload
from .headers import META_CSP
from .data import Holder, WebError, all_submissions, holder_by_id, task_summary, team_submissions
from .sessions import Session
from .uploads import SMALL_FORM_BYTES, read_form

__all__ = ["ROUTES", "error_page"]


def _nav(session: Optional[Session]) -> List[Tuple[str, str]]:
    kind = session.kind if session else "anonymous"
    own = {"team": [("/team", "Your team")], "organiser": [("/organiser", "Organiser")]}.get(kind, [("/login", "Log in")])
    return [("/", "Leaderboard"), *own]


def _page(title: str, sections: Sequence[str], session: Optional[Session],
          status: int = 200, subtitle: str = "") -> HTMLResponse:
    return HTMLResponse(html_page(title, sections, _nav(session), subtitle, csp=META_CSP), status)


def _section(title: str, body: str, anchor: str = "") -> str:
    name = f' id="{html_text(anchor)}"' if anchor else ""
    return f"<section{name}><h2>{html_text(title)}</h2>{body}</section>"


def _form(action: str, csrf: str, button: str, fields: str = "", multipart: bool = False) -> str:
    enctype = ' enctype="multipart/form-data"' if multipart else ""
    return (f'<form method="post" action="{html_text(action)}"{enctype}>'
            f'<input type="hidden" name="csrf" value="{html_text(csrf)}">{fields}'
            f'<button type="submit">{html_text(button)}</button></form>')


def _sessions(request: Request):
    return request.app.state.web.sessions


def _engine(request: Request):
    return request.app.state.web.engine


def error_page(request: Request, error: WebError) -> HTMLResponse:
    """A refusal as a page: its message and code, a link back."""
    body = (f'<p class="note">{html_text(error.message)} [{html_text(error.code)}]</p>'
            '<p><a href="/">Back to the leaderboard</a></p>')
    return _page("Refused" if error.status < 500 else "Server error", [_section("What happened", body)],
                 _sessions(request).read(request), error.status)


async def _checked_form(request: Request, cap: int = SMALL_FORM_BYTES, files: int = 0,
                        kind: str = "") -> Tuple[Session, FormData]:
    """The posted form, once its CSRF token matches the session's (403 ``csrf`` otherwise);
    with ``kind``, a session of another kind is refused before the body is read (403
    ``not-logged-in``: a stranger's upload is never read)."""
    session = _sessions(request).read(request)
    if kind and (session is None or session.kind != kind):
        raise _not_logged_in(kind)
    form = await read_form(request, cap, files)
    if not _sessions(request).csrf_ok(session, form.get("csrf")):
        await form.close()
        raise WebError(403, "csrf", "the form's CSRF token is missing or wrong (reload the page and try again)")
    assert session is not None
    return session, form


def _not_logged_in(kind: str) -> WebError:
    return WebError(403, "not-logged-in", f"log in as {'a team' if kind == 'team' else 'an organiser'} first")


async def _holder(request: Request, session: Optional[Session], kind: str) -> Optional[Holder]:
    if session is None or session.kind != kind:
        return None
    return await run_in_threadpool(holder_by_id, _engine(request), kind, session.subject)


async def _required(request: Request, session: Session, kind: str) -> Holder:
    holder = await _holder(request, session, kind)
    if holder is None:
        raise _not_logged_in(kind)
    return holder


async def _ranking(request: Request, every: bool = False) -> Tuple[dict, List[str]]:
    summary = await run_in_threadpool(task_summary, _engine(request))
    ranked = await run_in_threadpool(request.app.state.web.cache.ranking, every)
    if not ranked.entries:
        return summary, [_section("Ranking", '<p class="note">No scored submission yet.</p>', "ranking")]
    if ranked.sections is None:  # the same for every visitor until the ranking changes
        ranked.sections = await run_in_threadpool(
            ranking_sections, summary["task"], ranked.entries, ranked.languages, None,
            cluster_note(None, len(ranked.entries)))
    return summary, ranked.sections


def _subtitle(summary: dict) -> str:
    frozen = "; frozen: no more submissions" if summary["frozen"] else ""
    return f"{summary['phase']} phase, ranked by {summary['primary']}{frozen}"


async def home(request: Request) -> Response:
    summary, sections = await _ranking(request)
    return _page(summary["name"], sections, _sessions(request).read(request), subtitle=_subtitle(summary))


async def login_page(request: Request) -> Response:
    sessions = _sessions(request)
    session = sessions.read(request)
    fresh = None
    if session is None:  # an anonymous session: the log-in form's CSRF token needs one
        fresh = sessions.issue("anonymous", 0)
        session = Session("anonymous", 0, fresh)
    fields = ('<p><label>Token <input type="password" name="token" autocomplete="current-password" '
              'required></label></p>')
    body = ('<p class="note">The token a team (or organiser) got when it was added.</p>'
            + _form("/login", sessions.csrf(session), "Log in", fields))
    response = _page("Log in", [_section("Log in", body)], session)
    if fresh:
        sessions.set(response, fresh)
    return response


async def login(request: Request) -> Response:
    _, form = await _checked_form(request)
    token = form.get("token")
    holder = await run_in_threadpool(request.app.state.web.tokens.holder, token) if isinstance(token, str) else None
    if holder is None:
        raise WebError(401, "bad-token", "no team or organiser holds this token")
    response = RedirectResponse("/team" if holder.kind == "team" else "/organiser", 303)
    _sessions(request).set(response, _sessions(request).issue(holder.kind, holder.id))
    return response


async def logout(request: Request) -> Response:
    await _checked_form(request)
    response = RedirectResponse("/", 303)
    _sessions(request).clear(response)
    return response


def _errors_cell(row: dict) -> str:
    return "; ".join(row["errors"]) if row["errors"] else ""


def _submission_rows(rows: Sequence[dict], with_team: bool) -> Tuple[List[str], list]:
    header = ["Submission", *(["Team"] if with_team else []), "Label", "Status", "Submitted", "Macro F1",
              "Errors"]
    table = [[f"#{row['id']}", *([row["team"]] if with_team else []), row["label"],
              row["status"] + (" (hidden)" if row["hidden"] else ""), row["created_at"], row["f1"],
              _errors_cell(row)] for row in rows]
    return header, table


async def team_page(request: Request) -> Response:
    sessions = _sessions(request)
    session = sessions.read(request)
    holder = await _holder(request, session, "team")
    if holder is None or session is None:
        return RedirectResponse("/login", 303)
    csrf = sessions.csrf(session)
    summary, ranking = await _ranking(request)
    rows = await run_in_threadpool(team_submissions, _engine(request), holder.id)
    fields = ('<p><label>Archive (.zip or .tar.gz of &lt;treebank&gt;.conllu files) '
              '<input type="file" name="archive" required></label></p>'
              '<p><label>Label <input type="text" name="label" maxlength="200"></label></p>')
    upload = (f'<p class="note">{"The phase is frozen: no more submissions." if summary["frozen"] else ""}</p>'
              + _form("/team/submissions", csrf, "Upload", fields, multipart=True))
    header, table = _submission_rows(rows, with_team=False)
    sections = [_section("Upload a submission", upload, "upload"),
                _section("Your submissions", html_table(header, table, left=(0, 1, 2, 3, 5)), "submissions"),
                *ranking, _section("Log out", _form("/logout", csrf, "Log out"), "logout")]
    return _page(f"{summary['name']}: {holder.name}", sections, session, subtitle=_subtitle(summary))


async def team_upload(request: Request) -> Response:
    session, form = await _checked_form(request, request.app.state.web.settings.max_upload_bytes, files=1,
                                        kind="team")
    try:
        holder = await _required(request, session, "team")
        await submit_upload(request, holder, form)
    finally:
        await form.close()
    return RedirectResponse("/team#submissions", 303)


def _organiser_table(rows: Sequence[dict], csrf: str) -> str:
    header, table = _submission_rows(rows, with_team=True)
    head = "".join(f"<th>{html_text(name)}</th>" for name in [*header, "Public"])
    body = []
    for row, cells in zip(rows, table):
        shown = [html_text("n/a" if value is None else percent(value) if isinstance(value, float) else value)
                 for value in cells]
        hidden = "0" if row["hidden"] else "1"
        fields = (f'<input type="hidden" name="submission" value="{row["id"]}">'
                  f'<input type="hidden" name="hidden" value="{hidden}">')
        action = _form("/organiser/hide", csrf, "Show" if row["hidden"] else "Hide", fields)
        body.append("<tr>" + "".join(f'<td class="l">{cell}</td>' for cell in shown) + f"<td>{action}</td></tr>")
    return f'<table class="num"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


async def organiser_page(request: Request) -> Response:
    sessions = _sessions(request)
    session = sessions.read(request)
    holder = await _holder(request, session, "organiser")
    if holder is None or session is None:
        return RedirectResponse("/login", 303)
    csrf = sessions.csrf(session)
    summary, ranking = await _ranking(request, every=True)
    rows = await run_in_threadpool(all_submissions, _engine(request))
    state = "frozen: teams cannot submit" if summary["frozen"] else "open: teams can submit"
    freeze = (f'<p class="note">The {html_text(summary["phase"])} phase is {state}.</p>'
              + _form("/organiser/freeze", csrf, "Unfreeze" if summary["frozen"] else "Freeze",
                      f'<input type="hidden" name="frozen" value="{"0" if summary["frozen"] else "1"}">'))
    rescore = ('<p class="note">Records the gold files as they are now and puts every submission back in '
               "the queue; the workers score them again.</p>" + _form("/organiser/rescore", csrf, "Rescore all"))
    sections = [_section("Phase", freeze, "phase"), _section("Rescore", rescore, "rescore"),
                _section("Submissions", _organiser_table(rows, csrf), "submissions"), *ranking,
                _section("Log out", _form("/logout", csrf, "Log out"), "logout")]
    return _page(f"{summary['name']}: organiser {holder.name}", sections, session,
                 subtitle=_subtitle(summary))


async def _organiser_form(request: Request) -> FormData:
    session, form = await _checked_form(request, kind="organiser")
    try:
        await _required(request, session, "organiser")
    except WebError:
        await form.close()
        raise
    return form


def _flag(form: FormData, name: str) -> bool:
    value = form.get(name)
    if value not in ("0", "1"):
        raise WebError(400, "bad-form", f"the field {name!r} is 0 or 1")
    return value == "1"


async def freeze(request: Request) -> Response:
    form = await _organiser_form(request)
    await run_in_threadpool(organisers.set_frozen, _engine(request), _flag(form, "frozen"))
    return RedirectResponse("/organiser#phase", 303)


async def hide(request: Request) -> Response:
    form = await _organiser_form(request)
    number = form.get("submission")
    if not isinstance(number, str) or not number.isdigit() or len(number) > 18:
        raise WebError(400, "bad-form", "the field 'submission' is a submission's number")
    try:
        await run_in_threadpool(organisers.set_hidden, _engine(request), int(number), _flag(form, "hidden"))
    except UsageError as exc:
        raise WebError(404, "not-found", f"no submission {number}") from exc
    return RedirectResponse("/organiser#submissions", 303)


async def rescore(request: Request) -> Response:
    await _organiser_form(request)
    await run_in_threadpool(organisers.requeue_all, _engine(request))
    return RedirectResponse("/organiser#submissions", 303)


ROUTES = [
    Route("/", home, methods=["GET"]),
    Route("/login", login_page, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
    Route("/logout", logout, methods=["POST"]),
    Route("/team", team_page, methods=["GET"]),
    Route("/team/submissions", team_upload, methods=["POST"]),
    Route("/organiser", organiser_page, methods=["GET"]),
    Route("/organiser/freeze", freeze, methods=["POST"]),
    Route("/organiser/hide", hide, methods=["POST"]),
    Route("/organiser/rescore", rescore, methods=["POST"]),
]
