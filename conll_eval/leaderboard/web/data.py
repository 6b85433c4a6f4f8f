"""What the web app reads from and writes to the database, as plain functions run in a thread
(never on the event loop): who holds a token, a team's submissions as the API shows them, the
leaderboard (computed again only when a scored submission changed), and accepting an upload.

Every error a client may see is a :class:`WebError` with an HTTP status and a stable code;
server paths (the store and gold directories) are cut out of the messages a team reads."""
from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import selectinload

from ...errors import ConllEvalError, InputError, UsageError, printable
from ...report.escape import json_text
from .. import ranking, service
from ..db import LeaderboardError, session_scope
from ..models import Organiser, Submission, Task, Team
from ..organisers import token_holder
from ..public import public_treebanks

__all__ = ["WebError", "Holder", "TokenCache", "holder_of_token", "holder_by_id", "submission_view", "team_submissions",
           "all_submissions", "LeaderboardCache", "Ranking", "accept_upload", "task_summary", "FIRST_ERRORS"]

#: how many error lines a failed submission shows
FIRST_ERRORS = 10
#: how long a checked token is remembered (seconds), and how many are
TOKEN_CACHE_SECONDS = 300
TOKEN_CACHE_SIZE = 1024
#: the HTTP status of each library refusal an upload can meet (others: 400)
_STATUS = {"daily-limit": 429, "phase-frozen": 403, "gold-changed": 503, "store-clash": 500,
           "no-task": 503, "database-unreachable": 503}


class WebError(Exception):
    """A refusal the client sees: ``status`` (HTTP), ``code`` (stable, kebab-case), ``message``
    (spelt out, no server path)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Holder:
    """Who is logged in or holds a token: ``kind`` ``team`` or ``organiser``, the row's id and name."""
    kind: str
    id: int
    name: str


def _holder(row: Union[Team, Organiser]) -> Holder:
    return Holder("team" if isinstance(row, Team) else "organiser", row.id, row.name)


def holder_of_token(engine: Engine, token: str) -> Optional[Holder]:
    """The team or organiser of ``token`` (None: nobody's); one scrypt check, or a few."""
    with session_scope(engine) as session:
        row = token_holder(session, token)
        return None if row is None else _holder(row)


class TokenCache:
    """Tokens already checked, for :data:`TOKEN_CACHE_SECONDS`: a keyed digest of the token
    (HMAC-SHA256 under the server's secret: memory holds no token) -> its holder, at most
    :data:`TOKEN_CACHE_SIZE` of them (the oldest dropped).  An API client polling its
    submission costs a dictionary look-up a request, not a scrypt check (tens of ms)."""

    def __init__(self, engine: Engine, secret: bytes):
        self.engine, self.secret = engine, secret
        self.lock = threading.Lock()
        self.kept: "OrderedDict[bytes, Tuple[float, Holder]]" = OrderedDict()

    def holder(self, token: str) -> Optional[Holder]:
        """The team or organiser of ``token`` (None: nobody's)."""
        key = hmac.new(self.secret, token.encode("utf-8", "surrogateescape"), hashlib.sha256).digest()
        with self.lock:
            hit = self.kept.get(key)
            if hit is not None and hit[0] > time.monotonic():
                return hit[1]
        holder = holder_of_token(self.engine, token)
        if holder is not None:
            with self.lock:
                self.kept[key] = (time.monotonic() + TOKEN_CACHE_SECONDS, holder)
                self.kept.move_to_end(key)
                while len(self.kept) > TOKEN_CACHE_SIZE:
                    self.kept.popitem(last=False)
        return holder


def holder_by_id(engine: Engine, kind: str, id_: int) -> Optional[Holder]:
    """The team or organiser a session names, if it still exists."""
    with session_scope(engine) as session:
        row: Optional[Union[Team, Organiser]] = (session.get(Team, id_) if kind == "team"
                                                 else session.get(Organiser, id_))
        return None if row is None else _holder(row)


def _redacted(text: str, task: Task, submission: Submission) -> str:
    """``text`` without the server's directories (a team knows its files by their names)."""
    for directory, shown in ((submission.directory, "submission"), (task.gold_dir, "gold"),
                             (task.store_dir, "store")):
        if directory:
            text = text.replace(os.path.join(directory, ""), f"{shown}/").replace(directory, shown)
    return printable(text)


def _errors(task: Task, submission: Submission) -> List[str]:
    """The first :data:`FIRST_ERRORS` lines that say what went wrong: the submission's error,
    then each treebank that scored 0 and why (the validator's or the reader's first error)."""
    lines = [line for line in (submission.error or "").splitlines() if line.strip()]
    lines += [f"{result.treebank}: {result.status}" for result in submission.results if result.status != "ok"]
    return [_redacted(line, task, submission) for line in lines[:FIRST_ERRORS]]


def _time(value) -> Optional[str]:
    return None if value is None else value.isoformat(timespec="seconds")


def _view(task: Task, submission: Submission, details: bool) -> dict:
    view = {"id": submission.id, "team": submission.team.name, "label": submission.label,
            "phase": submission.phase, "status": submission.status, "hidden": submission.hidden,
            "created_at": _time(submission.created_at), "finished_at": _time(submission.finished_at),
            "errors": _errors(task, submission)}
    if details and submission.status == "done":
        view["macro"] = submission.macro
        view["treebanks"] = public_treebanks([result.record for result in submission.results], task.gold_dir,
                                             submission.directory)
    return view


def submission_view(engine: Engine, holder: Holder, submission_id: int) -> dict:
    """One submission as ``GET /api/submissions/{id}`` gives it; a team sees only its own
    (another's is ``not-found``, as a missing one), an organiser every one."""
    with session_scope(engine) as session:
        task = service.the_task(session)
        submission = session.get(Submission, submission_id)
        if submission is None or (holder.kind == "team" and submission.team_id != holder.id):
            raise WebError(404, "not-found", f"no submission {submission_id} of yours")
        return _view(task, submission, details=True)


def _listed(engine: Engine, team_id: Optional[int]) -> List[dict]:
    with session_scope(engine) as session:
        task = service.the_task(session)
        query = select(Submission).options(selectinload(Submission.team), selectinload(Submission.results))
        if team_id is not None:
            query = query.where(Submission.team_id == team_id)
        return [_view(task, submission, details=False) | {"f1": _f1(task, submission)}
                for submission in session.scalars(query.order_by(Submission.id.desc()))]


def _f1(task: Task, submission: Submission) -> Optional[float]:
    if submission.status != "done":
        return None
    return ((submission.macro or {}).get(task.primary_metric) or {}).get("f1")


def team_submissions(engine: Engine, team_id: int) -> List[dict]:
    """A team's submissions, newest first, with their primary macro F1 (``f1``)."""
    return _listed(engine, team_id)


def all_submissions(engine: Engine) -> List[dict]:
    """Every submission (hidden ones too), newest first: the organiser's list."""
    return _listed(engine, None)


def task_summary(engine: Engine) -> dict:
    """The task's name, phase, primary metric, freeze, and what the ranking tables need."""
    with session_scope(engine) as session:
        task = service.the_task(session)
        task.gold_files  # loaded now: the pages read them after the session ends
        return {"task": task, "name": task.name, "phase": task.phase, "frozen": task.frozen,
                "primary": task.primary_metric}


@dataclass
class Ranking:
    """A computed ranking: the state of the submissions it was computed from (``key``), its
    entries, the per-language rows, and its API body once made (:meth:`body`)."""
    key: tuple
    entries: List[dict]
    languages: list
    _body: Optional[bytes] = None
    #: the pages' ranking sections, made once by :mod:`.views`
    sections: Optional[List[str]] = None

    def body(self) -> bytes:
        """``{"entries": [...]}`` as the API sends it (made once)."""
        if self._body is None:
            self._body = (json_text({"entries": self.entries}, allow_nan=False) + "\n").encode()
        return self._body


class LeaderboardCache:
    """The ranking (:func:`.ranking.ranked_entries`, clusters included), computed again only
    when the scored, visible submissions changed (their count, ids or last finish time): a
    page or ``GET /api/leaderboard`` between two changes costs one small query.  While one
    thread computes a new ranking (seconds, for a hundred teams), the others get the previous
    one without the submissions that are no longer visible (hidden since), never a hidden one."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.computing = threading.Lock()
        self.kept: Dict[bool, Ranking] = {}

    @staticmethod
    def _visible(task: Task):
        return Submission.status == "done", Submission.hidden.is_(False), Submission.phase == task.phase

    def _key(self, session) -> tuple:
        task = service.the_task(session)
        state = session.execute(select(func.count(Submission.id), func.sum(Submission.id),
                                       func.max(Submission.finished_at)).where(*self._visible(task))).one()
        return (task.phase, task.primary_metric, *state)

    def _still_visible(self, session, kept: Ranking) -> Ranking:
        task = service.the_task(session)
        ids = [entry["submission"] for entry in kept.entries]
        visible = set()
        for start in range(0, len(ids), 500):  # bounded IN lists
            visible.update(session.scalars(select(Submission.id).where(Submission.id.in_(ids[start:start + 500]),
                                                                      *self._visible(task))))
        return Ranking(kept.key, [entry for entry in kept.entries if entry["submission"] in visible],
                       kept.languages)

    def ranking(self, every: bool) -> Ranking:
        """The ranking of each team's best submission (``every``: of all of them)."""
        with session_scope(self.engine) as session:
            kept = self.kept.get(every)
            if kept is not None and kept.key == self._key(session):
                return kept
            if kept is not None and not self.computing.acquire(blocking=False):
                return self._still_visible(session, kept)
        if kept is None:
            self.computing.acquire()
        try:
            with session_scope(self.engine) as session:
                key = self._key(session)
                kept = self.kept.get(every)
                if kept is None or kept.key != key:
                    task = service.the_task(session)
                    entries = ranking.ranked_entries(session, task, every=every, public=True)
                    kept = Ranking(key, entries, ranking.language_rows(task, entries))
                    self.kept[every] = kept
                return kept
        finally:
            self.computing.release()


def _refusal(exc: ConllEvalError) -> WebError:
    if isinstance(exc, InputError):  # the archive's refusals: their message, not the temporary path
        return WebError(400, exc.code, f"archive: {printable(exc.message)}")
    if isinstance(exc, LeaderboardError):
        status = _STATUS.get(exc.code, 400)
        message = str(exc) if status < 500 else "the server cannot take submissions now; tell the organisers"
        return WebError(status, exc.code, printable(message))
    if isinstance(exc, UsageError):
        return WebError(400, "bad-request", printable(str(exc)))
    return WebError(400, getattr(exc, "code", "bad-request"), printable(str(exc)))


def accept_upload(engine: Engine, team: Holder, path: str, label: str) -> Tuple[int, str]:
    """Queue the archive at ``path`` as a submission of ``team`` (:func:`.service.submit`
    with ``queue``: unpacked and checked, never scored here); its id and status."""
    try:
        submission = service.submit(engine, team.name, path, label, queue=True)
    except ConllEvalError as exc:
        raise _refusal(exc) from exc
    return submission.id, submission.status

