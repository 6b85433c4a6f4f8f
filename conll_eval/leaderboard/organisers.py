"""Who holds a token (a team or an organiser) and what organisers do: add an organiser,
freeze or unfreeze the phase, hide or show a submission, queue every submission again.  Also
the web app's session-signing key, made once and kept in the database; library code: raises,
never prints."""
from __future__ import annotations

import secrets
from typing import List, Optional, Union

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..errors import UsageError
from .db import session_scope
from .models import Organiser, Submission, Team
from .service import _record_gold, add_token_holder, gold_files, the_task
from .tokens import token_hint, token_matches

__all__ = ["add_organiser", "token_holder", "session_secret", "set_frozen", "set_hidden", "requeue_all",
           "SECRET_BYTES"]

#: the session-signing key's length
SECRET_BYTES = 32
#: the longest token looked up (a real one is 43 characters)
_TOKEN_LIMIT = 200


def add_organiser(engine: Engine, name: str) -> str:
    """Add an organiser; return its token (only its salted hash and hint are stored)."""
    return add_token_holder(engine, Organiser, name, "organiser")


def token_holder(session: Session, token: str) -> Optional[Union[Team, Organiser]]:
    """The team or organiser whose token ``token`` is, or None.  The hint finds the rows to
    check (one scrypt each, compared in constant time); teams made before revision 0003 have
    no hint and are checked one by one, and the one that matches gets its hint."""
    if not token or len(token) > _TOKEN_LIMIT:
        return None
    hint = token_hint(token)
    holders: List[Union[Team, Organiser]] = [*session.scalars(select(Team).where(Team.token_hint == hint)),
                                             *session.scalars(select(Organiser).where(Organiser.token_hint == hint))]
    for holder in holders:
        if token_matches(token, holder.token_salt, holder.token_hash):
            return holder
    for team in session.scalars(select(Team).where(Team.token_hint.is_(None)).order_by(Team.id)):
        if token_matches(token, team.token_salt, team.token_hash):
            team.token_hint = hint
            return team
    return None


def session_secret(engine: Engine) -> bytes:
    """The key the web app signs sessions with: made at random the first time, then kept in
    the task's row (so that every process serving the database agrees on it)."""
    with session_scope(engine) as session:
        task = the_task(session)
        session.execute(update(type(task)).where(type(task).id == task.id, type(task).session_secret.is_(None))
                        .values(session_secret=secrets.token_bytes(SECRET_BYTES)))
    with session_scope(engine) as session:
        secret = the_task(session).session_secret
    assert secret is not None
    return secret


def set_frozen(engine: Engine, frozen: bool) -> None:
    """Freeze the task's phase (no more submissions: ``phase-frozen``) or unfreeze it."""
    with session_scope(engine) as session:
        the_task(session).frozen = frozen


def set_hidden(engine: Engine, submission_id: int, hidden: bool) -> None:
    """Hide a submission from the public leaderboard (its team still sees it) or show it."""
    with session_scope(engine) as session:
        submission = session.get(Submission, submission_id)
        if submission is None:
            raise UsageError(f"no submission {submission_id}")
        submission.hidden = hidden


def requeue_all(engine: Engine) -> int:
    """``rescore`` through the workers: record the gold files as they are now and put every
    submission back in the queue (a worker scoring one loses its claim and writes nothing);
    how many were queued.  Those not being scored start their attempts afresh."""
    with session_scope(engine) as session:
        task = the_task(session)
        _record_gold(session, task, gold_files(task.gold_dir))
        connection = session.connection()
        connection.execute(update(Submission).where(Submission.status.not_in(("validating", "scoring")))
                           .values(attempts=0))
        queued = connection.execute(update(Submission).values(
            status="queued", claimed_by=None, lease_until=None, error=None, finished_at=None)).rowcount
    return queued
