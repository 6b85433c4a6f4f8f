"""What the leaderboard commands do to the database: make the task, add a team, take and
score a submission, notice changed gold files (``rescore`` is in
:mod:`conll_eval.leaderboard.rescoring`).  Library code: it raises
(:class:`~conll_eval.leaderboard.db.LeaderboardError`, ``UsageError``), never prints."""
from __future__ import annotations

import datetime as dt
import importlib.util
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .. import limits
from ..errors import UsageError, printable
from .db import LeaderboardError, current_revision, migrate, require_current, session_scope
from .models import GoldFile, SentenceCounts, Submission, Task, Team, TreebankResult, utcnow
from .scoring import ScoredSubmission, gold_files, score_directory
from .tokens import new_token, token_hint

__all__ = ["init_task", "add_team", "submit", "the_task", "changed_gold", "require_gold_unchanged",
           "store_results", "no_pairs_error", "sentence_metrics", "ARCHIVE_SUFFIXES", "NAME_LIMIT"]

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz")
#: longest team name, task name or label (characters)
NAME_LIMIT = 200


def _checked_name(value: str, what: str) -> str:
    if not value.strip() or len(value) > NAME_LIMIT or not value.isprintable():
        raise UsageError(f"{what} {printable(value)!r}: give 1 to {NAME_LIMIT} printable characters")
    return value


def the_task(session: Session) -> Task:
    """The database's task (one per database)."""
    task = session.scalars(select(Task)).first()
    if task is None:
        raise LeaderboardError("the database has no task: make it with 'conll_eval leaderboard init'",
                               "no-task")
    return task


def init_task(engine: Engine, name: str, gold_dir: str, store_dir: str, profile: str,
              metrics: Sequence[str], primary: str, level: int, phase: str, daily_limit: int = 5) -> Task:
    """Make the schema and the task, with its gold files' checksums.  Refuses a database that
    already holds a task, another program's tables, or a schema not at the newest revision
    (an older one: ``upgrade`` migrates it)."""
    _checked_name(name, "--name")
    found = gold_files(gold_dir)
    if not found:
        raise UsageError(f"--gold {printable(gold_dir)}: no treebanks (no *.conllu files or metadata.json)")
    if current_revision(engine) is not None:
        require_current(engine)  # an older schema is migrated by upgrade only, when asked
    migrate(engine)
    with session_scope(engine) as session:
        if session.scalars(select(Task)).first() is not None:
            raise LeaderboardError("the database already holds a task; use another --db", "task-exists")
        task = Task(name=name, gold_dir=os.path.abspath(gold_dir), store_dir=os.path.abspath(store_dir),
                    profile=profile, metrics=list(metrics), primary_metric=primary, level=level,
                    phase=phase, created_at=utcnow(), daily_limit=daily_limit)
        task.gold_files = [GoldFile(treebank=treebank, path=os.path.abspath(path), sha256=digest)
                           for treebank, (path, digest) in found.items()]
        session.add(task)
    return task


def add_token_holder(engine: Engine, model, name: str, what: str) -> str:
    """Add a ``model`` row (a team or an organiser, ``what`` names it) called ``name``; return
    its new token (only its salted hash and hint are stored)."""
    require_current(engine)
    _checked_name(name, f"{what} name")
    token, salt, digest = new_token()
    with session_scope(engine) as session:
        the_task(session)
        if session.scalars(select(model).where(model.name == name)).first() is not None:
            raise LeaderboardError(f"{what} {printable(name)!r} exists already", f"{what}-exists")
        session.add(model(name=name, token_salt=salt, token_hash=digest, token_hint=token_hint(token),
                          created_at=utcnow()))
    return token


def add_team(engine: Engine, name: str) -> str:
    """Add a team; return its token (only its salted hash is stored)."""
    return add_token_holder(engine, Team, name, "team")


@dataclass(frozen=True)
class ScoringJob:
    """What scoring a stored submission needs, read in one short transaction: the gold and
    submission directories, :func:`~conll_eval.leaderboard.scoring.score_directory`'s
    arguments, and the error for a submission pairing no treebank."""
    gold_dir: str
    directory: str
    arguments: tuple
    unpaired: str


def scoring_job(engine: Engine, submission_id: int) -> ScoringJob:
    with session_scope(engine) as session:
        task = the_task(session)
        submission = session.get(Submission, submission_id)
        assert submission is not None
        arguments = (task.gold_dir, submission.directory, task.profile, task.level,
                     sentence_metrics(task), task.primary_metric)
        return ScoringJob(task.gold_dir, submission.directory, arguments, no_pairs_error(task))


def changed_gold(task: Task) -> List[str]:
    """What changed among the gold files since they were recorded (a file's bytes, a file
    gone or added): one phrase each; empty when nothing did."""
    try:
        now = gold_files(task.gold_dir)
    except (UsageError, OSError) as exc:
        return [f"the gold directory {printable(task.gold_dir)} cannot be read ({printable(str(exc))})"]
    kept = {gold.treebank: gold.sha256 for gold in task.gold_files}
    changes = [f"{printable(name)} changed" for name, digest in kept.items()
               if name in now and now[name][1] != digest]
    changes += [f"{printable(name)} is gone" for name in kept if name not in now]
    changes += [f"{printable(name)} is new" for name in now if name not in kept]
    return changes


def require_gold_unchanged(task: Task) -> None:
    changes = changed_gold(task)
    if changes:
        raise LeaderboardError(f"the gold files changed since they were recorded ({'; '.join(changes)}): "
                               "check them, then run 'conll_eval leaderboard rescore' to score every "
                               "submission against them", "gold-changed")


def _is_archive(path: str) -> bool:
    return path.lower().endswith(ARCHIVE_SUFFIXES)


def _directory_files(path: str) -> List[os.DirEntry]:
    """The ``*.conllu`` files of a submitted directory, by name, within the submission limits
    (:data:`conll_eval.limits.MAX_SUBMISSION_FILES`, ``MAX_SUBMISSION_BYTES``,
    ``MAX_SUBMISSION_FILE_BYTES``); a symbolic link among them is refused, never followed."""
    files = sorted((entry for entry in os.scandir(path) if entry.name.endswith(".conllu")),
                   key=lambda entry: entry.name)
    if len(files) > limits.MAX_SUBMISSION_FILES:
        raise LeaderboardError(f"{printable(path)}: {len(files)} .conllu files, more than the "
                               f"{limits.MAX_SUBMISSION_FILES} a submission may hold "
                               "(CONLL_EVAL_MAX_SUBMISSION_FILES)", "archive-too-many-files")
    total = 0
    for entry in files:
        if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
            raise LeaderboardError(f"{printable(entry.path)}: not a regular file (a link?); give the "
                                   "files themselves", "archive-link")
        size = entry.stat(follow_symlinks=False).st_size
        total += size
        if size > limits.MAX_SUBMISSION_FILE_BYTES or total > limits.MAX_SUBMISSION_BYTES:
            raise LeaderboardError(f"{printable(entry.path)}: the submission is larger than its limits "
                                   f"({limits.MAX_SUBMISSION_FILE_BYTES} bytes a file, "
                                   f"{limits.MAX_SUBMISSION_BYTES} in all; CONLL_EVAL_MAX_SUBMISSION_FILE_BYTES, "
                                   "CONLL_EVAL_MAX_SUBMISSION_BYTES)", "archive-too-large")
    return files


def _take_files(path: str, directory: Path) -> None:
    """Copy the submission's ``*.conllu`` files (a directory's, or an archive's through
    :func:`conll_eval.leaderboard.archive.extract_submission`) into ``directory``."""
    if os.path.isdir(path):
        files = _directory_files(path)
        directory.mkdir(parents=True)
        for entry in files:
            shutil.copyfile(entry.path, directory / entry.name)
        return
    if not os.path.isfile(path) or not _is_archive(path):
        raise UsageError(f"{printable(path)}: give a directory of <treebank>.conllu files "
                         "(or a .zip/.tar.gz of them)")
    if importlib.util.find_spec(f"{__package__}.archive") is None:
        raise UsageError(f"{printable(path)}: this conll_eval cannot unpack archives yet; give the "
                         "directory of <treebank>.conllu files")
    archive = importlib.import_module(f"{__package__}.archive")
    archive.extract_submission(Path(path), directory)


def no_pairs_error(task: Task) -> str:
    """Why a submission none of whose files pairs with a gold treebank failed."""
    return ("no file pairs with a gold treebank: name them <treebank>.conllu as "
            f"the gold files are ({', '.join(gold.treebank for gold in task.gold_files[:5])}...)")


def sentence_metrics(task: Task) -> List[str]:
    """The metrics whose per-sentence counts are kept: the primary one, then those shown."""
    return list(dict.fromkeys([task.primary_metric, *task.metrics]))


def store_results(session: Session, submission: Submission, scored: ScoredSubmission) -> None:
    """Replace ``submission``'s results by ``scored``'s (its status is the caller's)."""
    for result in list(submission.results):
        session.delete(result)
    session.execute(delete(SentenceCounts).where(SentenceCounts.submission_id == submission.id))
    session.flush()
    submission.macro = scored.macro
    for position, treebank in enumerate(scored.treebanks):
        session.add(TreebankResult(submission_id=submission.id, position=position, treebank=treebank.name,
                                   status=treebank.status, reason=treebank.reason, record=treebank.record))
        if treebank.counts is not None:
            session.add(SentenceCounts(submission_id=submission.id, treebank=treebank.name,
                                       counts=treebank.counts))


def _score(session: Session, task: Task, submission: Submission) -> None:
    """Score ``submission`` (its files in its directory), replacing earlier results; it ends
    ``done``, or ``failed`` with its error when no file of it pairs with a gold treebank."""
    submission.status, submission.started_at, submission.error = "scoring", utcnow(), None
    scored = None
    if not os.path.isdir(submission.directory):
        submission.error = f"its files are gone ({printable(submission.directory)})"
    else:
        scored = score_directory(task.gold_dir, submission.directory, task.profile, task.level,
                                 sentence_metrics(task), task.primary_metric)
        if not scored.paired:
            submission.error = no_pairs_error(task)
    submission.finished_at = utcnow()
    if scored is None or submission.error:
        store_results(session, submission, ScoredSubmission({}, (), ()))
        submission.status, submission.macro = "failed", None
        return
    store_results(session, submission, scored)
    submission.status = "done"


def _record_gold(session: Session, task: Task, found: Dict[str, Tuple[str, str]]) -> None:
    """Make the task's gold file rows say ``found`` (treebank -> path, SHA-256)."""
    kept = {gold.treebank: gold for gold in task.gold_files}
    for name, gold in kept.items():
        if name not in found:
            session.delete(gold)
    session.flush()
    for name, (path, digest) in found.items():
        if name in kept:
            kept[name].path, kept[name].sha256 = os.path.abspath(path), digest
        else:
            session.add(GoldFile(task_id=task.id, treebank=name, path=os.path.abspath(path), sha256=digest))
    session.flush()
    session.refresh(task)


def _within_daily_limit(session: Session, task: Task, team: Team) -> None:
    """Refuse a submission past the task's daily limit (``daily-limit``).  The team's row is
    written first, so that two submissions of a team at once are counted one after the other
    (PostgreSQL: its row lock; SQLite: the database's write lock)."""
    session.execute(update(Team).where(Team.id == team.id).values(name=Team.name))
    if not task.daily_limit:
        return
    since = utcnow() - dt.timedelta(days=1)
    made = session.scalar(select(func.count(Submission.id)).where(Submission.team_id == team.id,
                                                                  Submission.created_at > since)) or 0
    if made >= task.daily_limit:
        raise LeaderboardError(f"team {printable(team.name)!r} made {made} submissions in the last 24 "
                               f"hours, the task's limit ({task.daily_limit}): submit again later",
                               "daily-limit")


def submit(engine: Engine, team_name: str, path: str, label: str = "", queue: bool = False) -> Submission:
    """Take ``path`` (a directory, or an archive when the archive module is there) as a new
    submission of ``team_name`` and keep its files; score it now and store the results, or,
    when ``queue``, leave it ``queued`` for the workers (:mod:`conll_eval.leaderboard.workers`).
    Past the task's daily limit it is refused (``daily-limit``) and nothing is kept."""
    require_current(engine)
    if label:
        _checked_name(label, "--label")
    with session_scope(engine) as session:
        task = the_task(session)
        if task.frozen:
            raise LeaderboardError(f"the {task.phase} phase is frozen: no more submissions (an "
                                   "organiser unfreezes it on 'leaderboard serve''s organiser page)",
                                   "phase-frozen")
        require_gold_unchanged(task)
        team = session.scalars(select(Team).where(Team.name == team_name)).first()
        if team is None:
            raise LeaderboardError(f"no team {printable(team_name)!r}: add it with "
                                   "'conll_eval leaderboard team add'", "unknown-team")
        if not os.path.exists(path):
            raise UsageError(f"{printable(path)}: no such file or directory")
        _within_daily_limit(session, task, team)
        submission = Submission(team_id=team.id, label=label, phase=task.phase, status="queued",
                                created_at=utcnow(), hidden=False, directory="", attempts=0)
        session.add(submission)
        session.flush()
        submission.directory = os.path.join(task.store_dir, f"submission-{submission.id}")
        if os.path.exists(submission.directory):
            raise LeaderboardError(f"{printable(submission.directory)} exists already: the store "
                                   "directory holds files this database does not know", "store-clash")
        try:
            _take_files(path, Path(submission.directory))
        except BaseException:
            shutil.rmtree(submission.directory, ignore_errors=True)  # nothing of a refused one kept
            raise
        if not queue:
            submission.status = "validating"
            _score(session, task, submission)
        session.flush()
        session.refresh(submission)
        submission.results  # loaded now: the caller reads them after the session ends
        return submission
