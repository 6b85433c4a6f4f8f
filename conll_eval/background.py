"""One call in a thread of its own (:class:`InBackground`), and how many CPUs this process may use.

Scoring a large pair reads its two files and counts beside the alignment in threads; this
module keeps that apart from :mod:`conll_eval.workers`' process pool, whose imports
(selectors, signal, traceback, pickle) a single pair's start-up does not need.
"""
from __future__ import annotations

import os
import threading
from typing import Any, Callable, Optional

__all__ = ["InBackground", "usable_cpus"]


class InBackground:
    """``function(*args, **kwargs)`` running in a thread of its own from construction on;
    :meth:`result` waits for it and returns its value or raises its exception.  As a context
    manager it is waited for when the block ends, also by an exception, which then goes up
    (no thread outlives the block).  A plain thread: importing :mod:`concurrent.futures`
    (with :mod:`logging`) would add ~4 ms to the start-up of every pair large enough to be
    read in two threads."""

    def __init__(self, function: Callable[..., Any], *args: Any, **kwargs: Any):
        self._outcome: Optional[tuple] = None

        def run() -> None:
            try:
                self._outcome = (True, function(*args, **kwargs))
            except BaseException as exc:  # raised again by result(), in the caller's thread
                self._outcome = (False, exc)

        self._thread = threading.Thread(target=run, name="conll_eval-background", daemon=True)
        self._thread.start()

    def __enter__(self) -> "InBackground":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.wait()

    def wait(self) -> None:
        """Until the function has returned or raised (neither its value nor its exception)."""
        self._thread.join()

    def result(self) -> Any:
        """The function's value, once it has returned (its exception, once it has raised)."""
        self._thread.join()
        assert self._outcome is not None
        done, value = self._outcome
        if done:
            return value
        raise value


def usable_cpus() -> int:
    """The CPUs this process may run on (``taskset``, cpusets), not all the machine has."""
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counter is not None:
        return counter() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity masks here (macOS, Windows)
        return os.cpu_count() or 1
