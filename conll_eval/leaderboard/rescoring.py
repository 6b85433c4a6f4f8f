"""``leaderboard rescore``: record the gold files as they are now, then score every submission
again through the queue's claims (never twice, never written over by a worker's stale claim),
or put them all back in the queue for the workers (``--queue``, as the organiser's page does).
Library code: it raises, never prints."""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.engine import Engine

from .. import limits
from ..errors import ConllEvalError, printable
from . import queue
from .db import require_current, session_scope
from .models import Submission
from .organisers import requeue_all
from .scoring import score_directory
from .service import _record_gold, gold_files, scoring_job, the_task

__all__ = ["Rescored", "rescore"]


@dataclass(frozen=True)
class Rescored:
    """What ``rescore`` did: submissions scored (done or failed), queued for the workers,
    and taken from it by a worker meanwhile (that worker scores them: they are not lost)."""
    scored: int = 0
    queued: int = 0
    taken: int = 0


def _score_claimed(engine: Engine, claim: queue.Claim) -> bool:
    """Score the claimed submission in this process and write it (done or failed) under the
    claim; False when the claim was lost meanwhile (nothing written)."""
    job = scoring_job(engine, claim.submission_id)
    if not os.path.isdir(job.directory):
        return queue.fail(engine, claim, f"its files are gone ({printable(job.directory)})")
    try:
        scored = score_directory(*job.arguments)
    except ConllEvalError as exc:  # e.g. the gold directory cannot be read
        return queue.fail(engine, claim, printable(str(exc)))
    except BaseException:
        queue.release(engine, claim)  # left to the workers, not failed by our error
        raise
    if not scored.paired:
        return queue.fail(engine, claim, job.unpaired)
    return queue.finish(engine, claim, scored)


def rescore(engine: Engine, queued: bool = False) -> Rescored:
    """Record the gold files as they are now and score every submission again against them:
    each is claimed in turn (a worker holding it loses its claim and writes nothing), scored
    in this process and written under that claim.  With ``queued``, every submission is put
    back in the queue instead (:func:`conll_eval.leaderboard.organisers.requeue_all`), for
    the workers to score."""
    require_current(engine)
    if queued:
        return Rescored(queued=requeue_all(engine))
    with session_scope(engine) as session:
        task = the_task(session)
        _record_gold(session, task, gold_files(task.gold_dir))
        numbers = session.scalars(select(Submission.id).order_by(Submission.id)).all()
    name = f"{socket.gethostname()}:{os.getpid()}:rescore"
    scored = taken = 0
    for number in numbers:
        claim = queue.claim(engine, number, name, float(limits.SCORING_SECONDS))
        if claim is None:
            continue  # deleted meanwhile
        if _score_claimed(engine, claim):
            scored += 1
        else:
            taken += 1
    return Rescored(scored=scored, taken=taken)
