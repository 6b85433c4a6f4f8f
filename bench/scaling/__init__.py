"""Scaling cases for ``bench/bench_scaling.py``: each module here holds ``CASES``, a list of
:class:`Case`, for one family of input shapes that must cost time and memory linear in their size.

A case writes its input for a size ``n`` into a directory and returns the conll_eval argv to run
on it; the bench runs it at ``n`` and ``2n`` and checks the growth (issue 40: at most 2.5x).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Mapping, Optional, Sequence

__all__ = ["Case", "write_repeated"]

#: bytes written to a file at a time by :func:`write_repeated`
BLOCK = 1 << 20


@dataclass(frozen=True)
class Case:
    """One input shape.  ``build(directory, n)`` writes the input of size ``n`` (words, edges,
    lines: the case's own unit) under ``directory`` and returns the argv after ``python -m
    conll_eval``; ``sizes`` are the smaller sizes, each run also at twice its value.  The run's
    exit code must be in ``exit_codes``.  ``memory``: also check peak memory's growth (for cases
    whose memory, not only time, was quadratic).  ``env``: variables set for the runs (the numpy
    path, a raised limit)."""

    name: str
    issue_point: str
    build: Callable[[str, int], List[str]]
    sizes: Sequence[int]
    exit_codes: Sequence[int] = (0,)
    memory: bool = False
    unit: str = "words"
    note: Optional[str] = None
    env: Optional[Mapping[str, str]] = None


def write_repeated(path: str, first: bytes, middle: bytes, n: int, last: bytes = b"",
                   opener: Callable = open) -> None:
    """Write ``first``, ``middle`` ``n`` times and ``last`` to ``path`` (``opener``:
    ``gzip.open`` for a compressed file), a block at a time: a case's input of gigabytes is
    never held in memory."""
    times = max(1, BLOCK // len(middle)) if middle else 1
    with opener(path, "wb") as out:
        out.write(first)
        for _ in range(n // times):
            out.write(middle * times)
        out.write(middle * (n % times))
        out.write(last)
