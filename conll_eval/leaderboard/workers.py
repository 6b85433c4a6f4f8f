"""The leaderboard's workers: K processes that take submissions from the database's queue
(:mod:`conll_eval.leaderboard.queue`) and score each in a child process of their own, under
a memory limit (RLIMIT_AS) and a wall-clock limit, renewing the submission's lease meanwhile.

Processes are started with ``spawn``, never ``fork``: a forked worker would share its
parent's database connections (a PostgreSQL socket, a SQLite handle), which must never cross
a fork, and ``spawn`` behaves the same on Linux, macOS and Windows.  Library code: what
happens is handed to the caller's ``report`` as lines, never printed."""
from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, List, Optional

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from .. import limits
from ..errors import ConllEvalError, printable
from ..pairing import find_pairs
from . import queue
from .db import LeaderboardError, open_engine, require_current, session_scope
from .scoring import score_directory
from .service import require_gold_unchanged, scoring_job, the_task

try:
    import resource
except ImportError:  # not on Windows: no memory limit there
    resource = None  # type: ignore[assignment]

__all__ = ["WorkSettings", "run_workers", "TEST_DELAY_VARIABLE"]

#: TEST ONLY: seconds the scoring child sleeps before it scores (the crash and time-limit tests
#: use it to catch a submission while it is being scored); never set it in production
TEST_DELAY_VARIABLE = "CONLL_EVAL_TEST_SCORING_DELAY"
_CONTEXT = multiprocessing.get_context("spawn")


@dataclass(frozen=True)
class WorkSettings:
    """How workers run: the database, how many, whether they stop once the queue is empty,
    the lease (seconds; renewed every third of it), the limits per submission, and how long
    an idle worker waits before it looks at the queue again.  A worker that died is started
    again after ``restart_delay`` seconds, doubled at each death up to ``restart_delay_max``
    and back to ``restart_delay`` once a worker has lived ``settled`` seconds."""
    url: str
    workers: int = 1
    once: bool = False
    lease: float = 60.0
    time_limit: float = float(limits.SCORING_SECONDS)
    memory_limit: int = limits.SCORING_MEMORY_BYTES
    poll: float = 1.0
    restart_delay: float = 1.0
    restart_delay_max: float = 60.0
    settled: float = 60.0


def _exit_with(parent: int) -> None:
    """In the scoring child: end it when its worker dies (SIGKILL leaves no one to kill it)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _score_child(connection, parent: int, memory_limit: int, arguments: tuple) -> None:
    """The scoring child: limits itself, scores, and sends ``(kind, value)`` back: ``ok`` and
    the scored submission, or ``failed`` and the reason.  Never raises."""
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    try:
        if resource is not None and memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        delay = os.environ.get(TEST_DELAY_VARIABLE)
        if delay:
            time.sleep(float(delay))
        outcome: tuple = ("ok", score_directory(*arguments))
    except MemoryError:
        outcome = ("failed", f"[memory-limit] scoring it needed more than {memory_limit} bytes "
                             "(CONLL_EVAL_SCORING_MEMORY_BYTES, leaderboard work --memory-limit)")
    except ConllEvalError as exc:
        outcome = ("failed", printable(str(exc)))
    except BaseException as exc:  # an internal error: the submission fails, the worker goes on
        outcome = ("failed", f"[internal] {type(exc).__name__}: {printable(str(exc))}")
    try:
        connection.send(outcome)
    except BaseException:
        os._exit(3)


def _run_child(engine, claim: queue.Claim, settings: WorkSettings, arguments: tuple) -> Optional[tuple]:
    """Score in a child, renewing the lease; the child's outcome, or ``("failed", reason)``
    past the time limit or when it died; None when the claim was lost."""
    receiver, sender = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_score_child, args=(sender, os.getpid(), settings.memory_limit,
                                                        arguments), daemon=True)
    deadline = time.monotonic() + settings.time_limit
    child.start()
    sender.close()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return ("failed", f"[time-limit] scoring it took more than {settings.time_limit:g} s "
                                  "(CONLL_EVAL_SCORING_SECONDS, leaderboard work --time-limit)")
            if receiver.poll(min(settings.lease / 3, left)):
                try:
                    return receiver.recv()
                except EOFError:
                    child.join(5)
                    return ("failed", f"[internal] the scoring process ended without a result "
                                      f"(exit code {child.exitcode})")
            if not queue.renew(engine, claim, settings.lease):
                return None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def _invalid(gold_dir: str, directory: str, unpaired: str) -> Optional[str]:
    """Why a submission's files cannot be scored (gone, or none pairs with a gold treebank)."""
    if not os.path.isdir(directory):
        return f"its files are gone ({printable(directory)})"
    try:
        if not any(entry.system and os.path.isfile(entry.system)
                   for entry in find_pairs(gold_dir, directory).entries):
            return unpaired
    except ConllEvalError as exc:  # e.g. the gold directory cannot be read any more
        return printable(str(exc))
    return None


def _process(engine, claim: queue.Claim, settings: WorkSettings) -> str:
    """Validate, score and store one claimed submission; what became of it, as a line."""
    job = scoring_job(engine, claim.submission_id)
    arguments = job.arguments
    error = _invalid(job.gold_dir, job.directory, job.unpaired)
    if error is None and not queue.advance(engine, claim, "scoring", settings.lease):
        return f"submission {claim.submission_id}: lost its claim"
    outcome = ("failed", error) if error else _run_child(engine, claim, settings, arguments)
    if outcome is None:
        return f"submission {claim.submission_id}: lost its claim while scoring"
    kind, value = outcome
    if kind == "ok" and not value.paired:  # as a synchronous submit rules (its files changed meanwhile)
        kind, value = "failed", job.unpaired
    written = queue.finish(engine, claim, value) if kind == "ok" else queue.fail(engine, claim, value)
    if not written:
        return f"submission {claim.submission_id}: lost its claim; its results were not written"
    detail = "done" if kind == "ok" else f"failed: {value}"
    return f"submission {claim.submission_id}: {detail} (attempt {claim.attempt}, {claim.worker})"


def _problem(code: str, message: str) -> str:
    return f"conll_eval leaderboard: error [{code}] {message}"


def _gold_state(engine) -> tuple:
    """What a change of the gold files would change, cheaply: the checksums recorded in the
    database and each gold file's size and modification time (no file is read)."""
    with session_scope(engine) as session:
        task = the_task(session)
        recorded = tuple(sorted((gold.treebank, gold.path, gold.sha256) for gold in task.gold_files))
        gold_dir = task.gold_dir
    try:
        names = tuple(sorted(os.listdir(gold_dir)))
    except OSError:
        names = ()
    stats: List[Optional[tuple]] = []
    for _, path, _ in recorded:
        try:
            status = os.stat(path)
            stats.append((status.st_size, status.st_mtime_ns))
        except OSError:
            stats.append(None)
    return recorded, names, tuple(stats)


def _gold_problem(engine) -> Optional[LeaderboardError]:
    """The ``gold-changed`` error when the task's gold files are no longer those recorded."""
    with session_scope(engine) as session:
        try:
            require_gold_unchanged(the_task(session))
        except LeaderboardError as exc:
            return exc
    return None


def _work(engine, number: int, settings: WorkSettings, events) -> None:
    """Claim, process, repeat (``once``: until the queue is empty).  An idle worker lets its
    connections go, so that the next poll connects again and a lost database is noticed.
    A claimed submission is scored only while the gold files are those recorded: otherwise
    it goes back to the queue, the worker reports ``gold-changed`` once and claims nothing
    until the gold files or their records change (``rescore``); with ``once`` it ends."""
    name = f"{socket.gethostname()}:{os.getpid()}:worker-{number}"
    paused: Optional[tuple] = None  # the gold state seen when the gold files were found changed
    while True:
        if paused is not None and _gold_state(engine) == paused:
            claim = None
        else:
            paused = None
            claim = queue.claim_next(engine, name, settings.lease)
        if claim is not None:
            problem = _gold_problem(engine)
            if problem is not None:
                queue.release(engine, claim)
                if settings.once:
                    raise problem
                paused = _gold_state(engine)
                events.put(_problem(problem.code, f"worker {number}: {printable(str(problem))}"
                                    "; the submissions stay queued"))
                claim = None
        if claim is None:
            if settings.once:
                return
            engine.dispose()
            time.sleep(settings.poll)
            continue
        events.put(_process(engine, claim, settings))


def _worker(settings: WorkSettings, number: int, events) -> None:
    """One worker process.  A database it cannot reach (or a schema it cannot work on) ends
    it with one problem line on ``events`` and exit code 1, an internal error with exit code
    3: never a traceback.  Its claimed submission is claimed again after its lease."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops its workers itself
    try:
        try:
            engine = open_engine(settings.url)
        except LeaderboardError as exc:  # run_workers opened it: it was lost since (a file removed)
            raise LeaderboardError(str(exc), "database-unreachable") from exc
        try:
            _work(engine, number, settings, events)
        finally:
            engine.dispose()
    except DBAPIError as exc:
        reason = printable(str(exc.orig).splitlines()[0] if exc.orig else str(exc).splitlines()[0])
        events.put(_problem("database-unreachable", f"worker {number}: the database "
                            f"{printable(make_url(settings.url).render_as_string(hide_password=True))} cannot be used: {reason}"))
        sys.exit(1)
    except LeaderboardError as exc:
        events.put(_problem(exc.code, f"worker {number}: {printable(str(exc))}"))
        sys.exit(1)
    except Exception as exc:  # a bug: said in one line, the worker is started again
        events.put(_problem("internal", f"worker {number}: {type(exc).__name__}: {printable(str(exc))}"))
        sys.exit(3)


def _start(settings: WorkSettings, number: int, events) -> Any:
    process = _CONTEXT.Process(target=_worker, args=(settings, number, events), name=f"worker-{number}")
    process.start()
    return process


def _drain(events, report: Callable[[str], None], wait: float) -> None:
    try:
        report(events.get(timeout=wait))
        while True:
            report(events.get_nowait())
    except queue_module.Empty:
        pass


class _Stopped(Exception):
    """SIGTERM reached run_workers: it stops its workers and returns."""


def _stop(signum, frame) -> None:
    raise _Stopped()


class _Restarts:
    """When each worker may be started again: a worker that died waits a delay doubled at
    each death (``restart_delay`` .. ``restart_delay_max``), reset once one has lived
    ``settled`` seconds, so that a lost database costs a restart a minute, not one a poll."""

    def __init__(self, settings: WorkSettings):
        self.settings = settings
        self.delays = [settings.restart_delay] * settings.workers
        self.started = [time.monotonic()] * settings.workers
        self.due: List[Optional[float]] = [None] * settings.workers

    def died(self, number: int) -> float:
        """Schedule worker ``number``'s restart; its delay in seconds."""
        now = time.monotonic()
        if now - self.started[number] >= self.settings.settled:
            self.delays[number] = self.settings.restart_delay
        delay = self.delays[number]
        self.delays[number] = min(2 * delay, self.settings.restart_delay_max)
        self.due[number] = now + delay
        return delay

    def ready(self, number: int) -> bool:
        """Is worker ``number``'s restart due now (it is then counted as started)?"""
        due = self.due[number]
        if due is None or time.monotonic() < due:
            return False
        self.due[number], self.started[number] = None, time.monotonic()
        return True

    def wait(self, longest: float) -> float:
        """How long the supervisor may wait for events before a restart is due."""
        dues = [due - time.monotonic() for due in self.due if due is not None]
        return max(0.0, min([longest, *dues]))


def run_workers(settings: WorkSettings, report: Callable[[str], None]) -> int:
    """Run ``settings.workers`` worker processes; ``report`` gets a line per submission
    processed, a worker's problem line when one ends on an error, and one line per restart
    with its delay.  With ``once`` they stop when the queue is empty and this returns how
    many workers failed; otherwise it runs until stopped (SIGINT, SIGTERM: it returns 0),
    starting a worker that died again after a growing delay (:class:`_Restarts`).  Every
    worker is stopped however it ends (a submission it was scoring is claimed again once its
    lease expires)."""
    engine = open_engine(settings.url)
    try:
        require_current(engine)
    finally:
        engine.dispose()
    events = _CONTEXT.Queue()
    processes: List[Any] = [_start(settings, number, events) for number in range(settings.workers)]
    restarts = _Restarts(settings)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        while any(process.is_alive() for process in processes) or not settings.once:
            _drain(events, report, restarts.wait(settings.poll))
            if settings.once:
                continue
            for number, process in enumerate(processes):
                if process.is_alive() or process.exitcode is None:
                    continue
                if restarts.due[number] is None:
                    _drain(events, report, 0)  # its last line before the restart's
                    delay = restarts.died(number)
                    report(f"worker {number} ended (exit code {process.exitcode}); starting it again "
                           f"in {delay:g} s")
                elif restarts.ready(number):
                    process.join()
                    processes[number] = _start(settings, number, events)
        _drain(events, report, 0)
        return sum(process.exitcode != 0 for process in processes)
    except (_Stopped, KeyboardInterrupt):  # a stopped worker's submission is claimed again after its lease
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        for process in processes:
            if process.is_alive():
                process.kill()
            process.join()
