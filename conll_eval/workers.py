"""Run numbered tasks in worker processes, results handed back as they come.

:func:`run_tasks` calls ``function(k)`` for every task number ``k`` in up to ``jobs``
worker processes, giving each worker its next task as soon as it finishes one, and calls
``on_result(k, value)`` in this process as each result arrives.

On Linux the workers are forked children that inherit ``function`` and all it refers to:
only task numbers (8 bytes) go to them over a pipe and pickled results come back.  That
costs ~5 ms per run where :class:`concurrent.futures.ProcessPoolExecutor` costs ~25 ms
(importing multiprocessing, a manager and a feeder thread, every task pickled), which is a
twentieth of scoring a whole treebank suite on two cores.  Elsewhere (Windows has no fork;
on macOS system libraries are not fork-safe) the same contract runs on ProcessPoolExecutor,
which pickles ``function`` (a module-level function or a ``functools.partial`` of one).

A worker that dies (killed, out of memory) loses only the task it was running; the other
tasks go on in the remaining workers.  :func:`run_tasks` returns the task numbers that got
no result that way, for the caller to run itself.  An exception raised by ``function`` in a
worker is raised again here, the worker's traceback attached as its cause.

A forked worker takes SIGINT as its parent does: where the parent has Python's default handler,
Ctrl-C ends the workers at once and the parent reports the interruption; where SIGINT is
ignored (a shell without job control starts ``cmd &`` so, to keep Ctrl-C from reaching it),
the workers ignore it too.
"""
from __future__ import annotations

import os
import pickle
import selectors
import signal
import struct
import sys
import threading
import traceback
from typing import Any, Callable, Dict, List, Optional, Sequence

from .background import InBackground, usable_cpus  # re-exported: they were defined here

__all__ = ["run_tasks", "fork_available", "usable_cpus", "RemoteTraceback", "InBackground"]

_TASK = struct.Struct("<q")
_FRAME = struct.Struct("<Q")
_READ_SIZE = 1 << 16


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (attached as ``__cause__``)."""

    def __str__(self) -> str:
        return self.args[0]


def fork_available() -> bool:
    """Whether workers are forked children here (Linux) rather than a ProcessPoolExecutor."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


def run_tasks(function: Callable[[int], Any], order: Sequence[int], jobs: int,
              on_result: Callable[[int, Any], None], fork: Optional[bool] = None) -> List[int]:
    """Run ``function(k)`` for each ``k`` of ``order`` (handed out in that order) in at most
    ``jobs`` worker processes; ``on_result(k, value)`` is called here as results arrive.

    Returns the task numbers whose worker died before answering, in ``order``'s order.
    ``fork`` forces (True) or avoids (False) forked workers; None: forked where
    :func:`fork_available` and this process runs no other thread.
    """
    if not order:
        return []
    jobs = max(1, min(jobs, len(order)))
    if fork is None:  # forking a process with other threads can copy a lock held by one
        fork = fork_available() and threading.active_count() == 1
    lost = (_run_forked if fork else _run_in_executor)(function, list(order), jobs, on_result)
    position = {k: i for i, k in enumerate(order)}
    return sorted(lost, key=position.__getitem__)


# ---------------------------------------------------------------------------------------------
# Forked workers

class _Worker:
    """The parent's end of one forked worker: its pid, task pipe, result pipe and buffer."""

    def __init__(self, pid: int, tasks_fd: int, results_fd: int):
        self.pid = pid
        self.tasks_fd: Optional[int] = tasks_fd
        self.results_fd = results_fd
        self.buffer = bytearray()
        self.current: Optional[int] = None  # task number it is running

    def give(self, k: Optional[int]) -> bool:
        """Send task ``k`` (None: no more work, the worker then exits); False if it is gone."""
        if self.tasks_fd is None:
            return False
        try:
            if k is None:
                os.close(self.tasks_fd)
                self.tasks_fd = None
            else:
                os.write(self.tasks_fd, _TASK.pack(k))  # 8 bytes: one atomic pipe write
                self.current = k
            return True
        except BrokenPipeError:
            return False

    def frames(self):
        """Complete (task, ok, value) messages received so far, removed from the buffer."""
        while len(self.buffer) >= _FRAME.size:
            (size,) = _FRAME.unpack_from(self.buffer)
            if len(self.buffer) < _FRAME.size + size:
                return
            payload = bytes(self.buffer[_FRAME.size:_FRAME.size + size])
            del self.buffer[:_FRAME.size + size]
            yield pickle.loads(payload)

    def close(self, kill: bool) -> None:
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for fd in (self.tasks_fd, self.results_fd):
            if fd is not None:
                os.close(fd)
        self.tasks_fd = None
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:  # reaped already (SIGCHLD ignored by the embedding program)
            pass


def _run_forked(function, order: List[int], jobs: int, on_result) -> List[int]:
    pending = order[::-1]  # next task at the end
    lost: List[int] = []
    workers: List[_Worker] = []
    selector = selectors.DefaultSelector()
    finished_cleanly = False
    try:
        for _ in range(jobs):
            workers.append(_fork_worker(function, workers))
        for worker in workers:
            selector.register(worker.results_fd, selectors.EVENT_READ, worker)
            _give_next(worker, pending)
        live = len(workers)
        while live:
            for key, _ in selector.select():
                worker = key.data
                chunk = os.read(worker.results_fd, _READ_SIZE)
                if not chunk:  # the worker is gone (done, or died)
                    if worker.current is not None:
                        lost.append(worker.current)
                        worker.current = None
                    selector.unregister(worker.results_fd)
                    live -= 1
                    continue
                worker.buffer += chunk
                for k, ok, value in worker.frames():
                    worker.current = None
                    if not ok:
                        raise _reraised(value)
                    on_result(k, value)
                    _give_next(worker, pending)
        lost.extend(pending)  # every worker died: these never started (run_tasks orders them)
        finished_cleanly = True
    finally:
        selector.close()
        for worker in workers:
            worker.close(kill=not finished_cleanly)
    return lost


def _give_next(worker: _Worker, pending: List[int]) -> None:
    k = pending.pop() if pending else None
    if not worker.give(k) and k is not None:
        pending.append(k)  # never reached the worker: still to do
        worker.give(None)


def _fork_worker(function, siblings: List[_Worker]) -> _Worker:
    tasks_read, tasks_write = os.pipe()
    results_read, results_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns into the caller's code
        status = 1
        try:
            # a sibling holding the parent's ends would keep them open after the parent closes
            for fd in [tasks_write, results_read] + [fd for w in siblings
                                                     for fd in (w.tasks_fd, w.results_fd) if fd is not None]:
                os.close(fd)
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it
            _serve(function, tasks_read, results_write)
            status = 0
        finally:
            os._exit(status)
    os.close(tasks_read)
    os.close(results_write)
    return _Worker(pid, tasks_write, results_read)


def _serve(function, tasks_fd: int, results_fd: int) -> None:
    with os.fdopen(tasks_fd, "rb") as tasks, os.fdopen(results_fd, "wb") as results:
        while True:
            raw = tasks.read(_TASK.size)
            if len(raw) < _TASK.size:
                return  # the parent closed the pipe: no more work
            (k,) = _TASK.unpack(raw)
            try:
                payload = pickle.dumps((k, True, function(k)), pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # noqa: BLE001 - sent to the parent, raised there
                payload = _pickled_failure(k, exc)
            results.write(_FRAME.pack(len(payload)))
            results.write(payload)
            results.flush()


def _pickled_failure(k: int, exc: BaseException) -> bytes:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        return pickle.dumps((k, False, (exc, text)), pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an exception that cannot be pickled
        return pickle.dumps((k, False, (None, text)), pickle.HIGHEST_PROTOCOL)


def _reraised(failure) -> BaseException:
    exc, text = failure
    if exc is None:
        exc = RuntimeError(f"a worker failed:\n{text}")
    exc.__cause__ = RemoteTraceback(f'\n"""\n{text}"""')
    return exc


# ---------------------------------------------------------------------------------------------
# Without fork: ProcessPoolExecutor

def _run_in_executor(function, order: List[int], jobs: int, on_result) -> List[int]:
    from concurrent.futures import ProcessPoolExecutor, as_completed  # only here: ~12 ms
    from concurrent.futures.process import BrokenProcessPool
    lost: List[int] = []
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures: Dict[Any, int] = {pool.submit(function, k): k for k in order}
        for future in as_completed(futures):
            try:
                value = future.result()
            except BrokenProcessPool:  # a worker died: the pool gives up on all it had
                lost.append(futures[future])
                continue
            on_result(futures[future], value)
    except BaseException:  # Ctrl-C or a task's exception: do not wait for the queued tasks
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return lost
