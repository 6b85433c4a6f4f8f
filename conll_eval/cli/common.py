"""What the subcommands share: the exit codes, an argparse that raises instead of exiting,
the scoring options, metric lists and bars, progress lines and atomic output files.

Nothing here prints except the progress line a subcommand asks for."""
from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile
from typing import List, TextIO

from ..errors import UsageError
from ..metrics import PROFILES

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() stays the only exit point."""

    def error(self, message):
        raise UsageError(f"{self.prog}: error: {message}")

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise Exit(status)


class Exit(Exception):
    def __init__(self, status: int):
        self.status = status


def add_scoring_options(parser: argparse.ArgumentParser, weights_note: str = "") -> None:
    """--profile, -w and -o, the same for one pair and for a suite."""
    parser.add_argument("--profile", default="conll18", choices=list(PROFILES),
                        help="official behaviour to reproduce (default: conll18)")
    parser.add_argument("-w", "--weights", metavar="FILE",
                        help="add WeightedLAS with 'deprel weight' lines (conll17 semantics)"
                             + weights_note)
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the output to FILE (atomically) instead of stdout")


def write_atomically(path: str, text: str, inputs: List[str]) -> None:
    """Write ``text`` to ``path`` via a temporary file renamed over it (a reader never sees
    half a report; a failed write leaves the old file).  The file gets the mode an ordinary
    ``open`` would give it (an existing file's mode, else 0666 less the umask).  Devices and
    pipes (``/dev/stdout``, a FIFO) are written directly: renaming over them would replace
    the device node."""
    target = os.path.realpath(path)
    for name in inputs:
        if name != "-" and os.path.exists(name) and os.path.realpath(name) == target:
            raise UsageError(f"refusing to write the output into the input file {name}")
    try:
        existing = os.stat(path)  # follows links: /dev/stdout may be a pipe with no path
    except OSError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    if existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    directory = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=".conll_eval-", dir=directory)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def metric_list(text: str, known: List[str], option: str) -> List[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise UsageError(f"conll_eval suite: {option}: unknown metric(s) {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(known)}")
    return list(dict.fromkeys(names))  # a metric named twice is one column


def thresholds(text: str, known: List[str]) -> List[tuple]:
    bars = []
    for item in text.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise UsageError(f"conll_eval suite: --fail-under: expected METRIC=PERCENT with METRIC "
                             f"one of {', '.join(known)}, got {item.strip()!r}")
        try:
            bar = float(value)
        except ValueError:
            raise UsageError(f"conll_eval suite: --fail-under: {value.strip()!r} is not a number") from None
        if not 0 <= bar <= 100:
            raise UsageError(f"conll_eval suite: --fail-under: {name}={bar:g} is not a percentage")
        bars.append((name, bar))
    return bars


def progress_reporter(stderr: TextIO):
    """A one-line progress indicator on a terminal; None when stderr is piped."""
    if not (hasattr(stderr, "isatty") and stderr.isatty()):
        return None

    def show(done: int, total: int, entry) -> None:
        stderr.write(f"\r\033[K[{done}/{total}] {entry.name}")
        if done == total:
            stderr.write("\r\033[K")
        stderr.flush()
    return show


def write_failed_message(exc: OSError) -> str:
    return f"conll_eval: error [write-failed] cannot write the results: {exc}\n"
