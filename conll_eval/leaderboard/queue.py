"""The submission queue kept in the database: a worker claims a queued submission (or one
whose worker's lease expired) atomically, moves it through validating and scoring, renews its
lease, and writes its results and ``done`` (or ``failed``) in one transaction guarded by its
claim, so that a stale worker never writes over a newer one's claim.

Every function commits its own short transaction; none holds a lock while a submission is
scored.  A claim is ``(submission, worker, attempt)``: ``attempts`` counts the claims of a
submission, and each guarded write names the claim it belongs to (``claimed_by`` and
``attempts`` in its ``WHERE``), checked by the rows it changed."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Optional

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Engine

from .db import session_scope
from .models import Submission, utcnow
from .scoring import ScoredSubmission
from .service import store_results

__all__ = ["Claim", "MAX_ATTEMPTS", "ACTIVE", "claim_next", "claim", "advance", "renew", "finish", "fail",
           "release"]

#: the states a claimed submission is in
ACTIVE = ("validating", "scoring")
#: a submission whose workers died this many times while it was claimed fails instead of being
#: claimed again (a submission that kills its workers must not stop the queue)
MAX_ATTEMPTS = 3
#: candidates one claim tries before it reports an empty queue (others took the ones it saw)
_CANDIDATES = 8


@dataclass(frozen=True)
class Claim:
    """A worker's hold on a submission: valid while the row's ``claimed_by`` and ``attempts``
    are still these and its state is one of :data:`ACTIVE`."""
    submission_id: int
    worker: str
    attempt: int


def _lease(seconds: float) -> dt.datetime:
    return utcnow() + dt.timedelta(seconds=seconds)


def _expired(now: dt.datetime):
    return and_(Submission.status.in_(ACTIVE), Submission.lease_until < now)


def claim_next(engine: Engine, worker: str, lease_seconds: float) -> Optional[Claim]:
    """Claim the oldest queued submission, or one whose lease expired: it becomes
    ``validating`` under ``worker`` with a lease of ``lease_seconds`` and one more attempt.
    An expired one already claimed :data:`MAX_ATTEMPTS` times is failed instead.  None when
    nothing is claimable.  PostgreSQL skips rows other workers hold (``FOR UPDATE SKIP
    LOCKED``); on SQLite the conditional ``UPDATE`` decides, by the rows it changed."""
    now = utcnow()
    with engine.begin() as connection:
        # the first write: on SQLite it takes the write lock, so the claim below is serialised
        connection.execute(update(Submission).where(_expired(now), Submission.attempts >= MAX_ATTEMPTS)
                           .values(status="failed", finished_at=now, lease_until=None,
                                   error=f"its scoring was interrupted {MAX_ATTEMPTS} times (the "
                                         "worker died or lost its lease): scoring it is given up"))
        claimable = or_(Submission.status == "queued", _expired(now))
        for _ in range(_CANDIDATES):
            row = connection.execute(select(Submission.id, Submission.attempts).where(claimable)
                                     .order_by(Submission.id).limit(1)
                                     .with_for_update(skip_locked=True)).first()
            if row is None:
                return None
            taken = connection.execute(
                update(Submission).where(Submission.id == row.id, Submission.attempts == row.attempts,
                                         claimable)
                .values(status="validating", claimed_by=worker, lease_until=_lease(lease_seconds),
                        attempts=row.attempts + 1, started_at=now, error=None))
            if taken.rowcount == 1:
                return Claim(row.id, worker, row.attempts + 1)
    return None


def claim(engine: Engine, submission_id: int, worker: str, lease_seconds: float) -> Optional[Claim]:
    """Claim submission ``submission_id`` whatever its state (``rescore``): it becomes
    ``validating`` under ``worker``; a worker's claim on it goes stale (one more attempt, and
    another ``claimed_by``) and writes nothing.  One no worker holds starts its attempts afresh
    (attempt 1), so that rescoring it again and again never counts towards
    :data:`MAX_ATTEMPTS`.  None when there is no such submission."""
    with engine.begin() as connection:
        for _ in range(_CANDIDATES):
            row = connection.execute(select(Submission.attempts, Submission.status)
                                     .where(Submission.id == submission_id).with_for_update()).first()
            if row is None:
                return None
            attempt = row.attempts + 1 if row.status in ACTIVE else 1
            taken = connection.execute(
                update(Submission).where(Submission.id == submission_id, Submission.attempts == row.attempts,
                                         Submission.status == row.status)
                .values(status="validating", claimed_by=worker, lease_until=_lease(lease_seconds),
                        attempts=attempt, started_at=utcnow(), error=None))
            if taken.rowcount == 1:
                return Claim(submission_id, worker, attempt)
    return None


def _held(claim: Claim):
    return and_(Submission.id == claim.submission_id, Submission.claimed_by == claim.worker,
                Submission.attempts == claim.attempt, Submission.status.in_(ACTIVE))


def advance(engine: Engine, claim: Claim, status: str, lease_seconds: float) -> bool:
    """Move the claimed submission to ``status`` (``scoring``), renewing its lease; False
    when the claim is lost (nothing written)."""
    with engine.begin() as connection:
        return connection.execute(update(Submission).where(_held(claim))
                                  .values(status=status, lease_until=_lease(lease_seconds))).rowcount == 1


def renew(engine: Engine, claim: Claim, lease_seconds: float) -> bool:
    """The heartbeat: extend the claim's lease; False when the claim is lost."""
    with engine.begin() as connection:
        return connection.execute(update(Submission).where(_held(claim))
                                  .values(lease_until=_lease(lease_seconds))).rowcount == 1


def finish(engine: Engine, claim: Claim, scored: ScoredSubmission) -> bool:
    """Write ``scored``'s results and ``done`` in one transaction, only while the claim holds;
    False (and nothing written) when another claim replaced it."""
    return _close(engine, claim, scored, {"status": "done"})


def _close(engine: Engine, claim: Claim, results: ScoredSubmission, values: dict) -> bool:
    """Set ``values`` on the claimed submission and store ``results`` in one transaction,
    only while the claim holds; False (and nothing written) when it was lost.  A failed
    submission keeps no results and no macro average."""
    with session_scope(engine) as session:
        changed = session.connection().execute(
            update(Submission).where(_held(claim)).values(finished_at=utcnow(), lease_until=None,
                                                          **values)).rowcount
        if changed != 1:
            session.rollback()
            return False
        submission = session.get(Submission, claim.submission_id)
        assert submission is not None
        store_results(session, submission, results)
        if values["status"] == "failed":
            submission.macro = None
    return True


def fail(engine: Engine, claim: Claim, error: str) -> bool:
    """Fail the claimed submission with ``error``, dropping any earlier results (a failed
    submission has none); False when the claim is lost (nothing written)."""
    return _close(engine, claim, ScoredSubmission({}, (), ()), {"status": "failed", "error": error})


def release(engine: Engine, claim: Claim) -> bool:
    """Give the claimed submission back to the queue unscored and unfailed, as if the claim
    had not been made (its attempt is not counted); False when the claim is lost."""
    with engine.begin() as connection:
        return connection.execute(update(Submission).where(_held(claim))
                                  .values(status="queued", claimed_by=None, lease_until=None,
                                          started_at=None, attempts=claim.attempt - 1)).rowcount == 1
