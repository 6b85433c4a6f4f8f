"""The JSON API: ``POST /api/submissions`` (a team's token as ``Authorization: Bearer``, the
multipart field ``archive`` and an optional ``label``; 202 with the queued submission's id),
``GET /api/submissions/{id}`` and ``GET /api/leaderboard`` (``?all=1``: every submission).

Errors are ``{"error": {"code", "message"}}`` with the status that fits (:class:`.data.WebError`);
every string is spelt out (:func:`conll_eval.report.escape.json_text`)."""
from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ...report.escape import json_text
from .data import Holder, WebError, accept_upload, submission_view
from .uploads import read_form, use_upload

__all__ = ["json_response", "error_response", "bearer_holder", "post_submission", "get_submission",
           "get_leaderboard"]

_LONGEST_AUTHORIZATION = 300


def json_response(document: Any, status: int = 200) -> Response:
    return Response(json_text(document, allow_nan=False) + "\n", status, media_type="application/json")


def error_response(error: WebError) -> Response:
    response = json_response({"error": {"code": error.code, "message": error.message}}, error.status)
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="conll_eval leaderboard"'
    return response


async def bearer_holder(request: Request) -> Holder:
    """The team or organiser of the request's ``Authorization: Bearer TOKEN`` (401 without
    one, or with one nobody holds)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if len(header) > _LONGEST_AUTHORIZATION or scheme.lower() != "bearer" or not token.strip():
        raise WebError(401, "no-token", "give the team's token as the header 'Authorization: Bearer TOKEN'")
    holder = await run_in_threadpool(request.app.state.web.tokens.holder, token.strip())
    if holder is None:
        raise WebError(401, "bad-token", "no team or organiser holds this token")
    return holder


async def submit_upload(request: Request, holder: Holder, form) -> dict:
    """Queue the form's ``archive`` (and ``label``) as ``holder``'s submission (a team's)."""
    if holder.kind != "team":
        raise WebError(403, "not-a-team", "only a team's token can submit")
    label = form.get("label") or ""
    if not isinstance(label, str):
        raise WebError(400, "bad-form", "the field 'label' is text, not a file")
    engine = request.app.state.web.engine
    submission_id, status = await use_upload(form, "archive",
                                             lambda path: accept_upload(engine, holder, path, label))
    return {"id": submission_id, "status": status}


async def post_submission(request: Request) -> Response:
    holder = await bearer_holder(request)  # before the body is read: a stranger's upload is never read
    form = await read_form(request, request.app.state.web.settings.max_upload_bytes, files=1)
    try:
        return json_response(await submit_upload(request, holder, form), 202)
    finally:
        await form.close()


async def get_submission(request: Request) -> Response:
    holder = await bearer_holder(request)
    text = request.path_params["id"]
    if not text.isdigit() or len(text) > 18:
        raise WebError(404, "not-found", "no such submission")
    view = await run_in_threadpool(submission_view, request.app.state.web.engine, holder, int(text))
    return json_response(view)


async def get_leaderboard(request: Request) -> Response:
    every = request.query_params.get("all", "") in ("1", "true", "yes")
    ranked = await run_in_threadpool(request.app.state.web.cache.ranking, every)
    return Response(await run_in_threadpool(ranked.body), media_type="application/json")
