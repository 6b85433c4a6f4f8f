"""What the subcommands share: the exit codes, an argparse that raises instead of exiting,
the scoring options, metric lists and bars, progress lines and atomic output files.

Nothing here prints except the progress line a subcommand asks for."""
from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Collection, List, NamedTuple, Optional, Sequence, TextIO

from ..errors import UsageError
from ..evaluate import Settings
from ..metrics import (DEPREL_POLICIES, EXTRA_METRICS, PROFILES, PUNCT_POLICIES, display_name,
                       profile_metrics)
from ..report.tables import percent

#: 0 done, 1 invalid input / failed verdict, 2 usage, 3 internal error, 4 the results could not
#: be written (``-o`` path, disk full, closed stdout); 130 interrupted
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL, EXIT_OUTPUT = 0, 1, 2, 3, 4


class OutputFailed(Exception):
    """The results could not be written to ``target`` (what the user named: a path or stdout)."""

    def __init__(self, target: str, reason: str):
        self.target = target
        self.reason = reason
        super().__init__(f"cannot write {target}: {reason}")

    def message(self) -> str:
        return f"conll_eval: error [write-failed] cannot write the results to {self.target}: " \
               f"{self.reason}\n"


def os_reason(exc: OSError) -> str:
    """``No such file or directory`` for an OSError, without errno or file name."""
    return exc.strerror or str(exc)


class GuardedOutput:
    """A text stream whose failures never decide the command's exit code by themselves.

    A reader that goes away (``| head``: EPIPE) only stops the output: the command goes on
    and its verdict (invalid file, missed bar) is its exit code, so ``set -o pipefail`` never
    passes a broken file.  Any other failure (disk full, a closed stdout) stops the output
    too and is kept in ``failure`` for :func:`main` to report (exit 4 if the verdict is
    success).  ``broken`` tells a command that writing further is pointless.
    """

    def __init__(self, stream: Optional[TextIO], name: str = "standard output"):
        self._stream = stream
        self.name = name
        self.broken = False
        self.failure: Optional[OutputFailed] = None

    def write(self, text: str) -> int:
        if self._stream is None:  # started with the descriptor closed (``>&-``)
            self.broken = True
            self.failure = OutputFailed(self.name, "it is closed")
        elif not self.broken:
            try:
                self._stream.write(text)
            except OSError as exc:
                self._failed(exc)
        return len(text)

    def write_raw(self, text: str) -> int:
        """Like :meth:`write`, for text decoded with ``surrogateescape`` (mooteval's files are
        bytes): bytes the stream cannot encode go to its byte buffer as they were read."""
        try:
            return self.write(text)
        except UnicodeEncodeError:
            buffer = getattr(self._stream, "buffer", None)
            if buffer is None:
                return self.write(text.encode("utf-8", "surrogateescape")
                                  .decode("utf-8", "replace"))
            try:
                self._stream.flush()
                buffer.write(text.encode("utf-8", "surrogateescape"))
            except OSError as exc:
                self._failed(exc)
            return len(text)

    def flush(self) -> None:
        if not self.broken and self._stream is not None:
            try:
                self._stream.flush()
            except OSError as exc:
                self._failed(exc)

    def isatty(self) -> bool:
        return not self.broken and is_terminal(self._stream)

    def _failed(self, exc: OSError) -> None:
        self.broken = True
        if not isinstance(exc, BrokenPipeError):
            self.failure = OutputFailed(self.name, os_reason(exc))


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() stays the only exit point, and
    writes help and usage to the streams main() was given (``streams``, set by main)."""

    streams: Optional[tuple] = None  # (stdout, stderr) of the running main()

    def error(self, message):
        raise UsageError(f"{self.prog}: error: {message}")

    def exit(self, status=0, message=None):
        if message:
            self._print_message(message, sys.stderr)
        raise Exit(status)

    def _print_message(self, message, file=None):
        if self.streams is not None:
            file = self.streams[1] if file is sys.stderr else self.streams[0]
        try:  # help for a reader that left (``--help | head``) or a closed stream
            super()._print_message(message, file)
        except (OSError, AttributeError):
            pass


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
    parser.add_argument("--punct", default="include", choices=list(PUNCT_POLICIES),
                        help="which words the attachment metrics (UAS, LAS, CLAS, MLAS, BLEX, "
                             "LA) score: include (default, as the UD scorers), deprel (gold "
                             "punct words out of recall, system punct words out of precision), "
                             "upos (PUNCT, per side), unicode (a FORM of only Unicode "
                             "punctuation, as CoNLL-X eval.pl and MaltEval); in the signature")
    parser.add_argument("--deprel", default="universal", choices=list(DEPREL_POLICIES),
                        help="how relations compare: universal (default: subtypes cut, as the "
                             "UD scorers), full (subtypes kept, as eval.pl and MaltEval), v1 "
                             "(UD v1 names renamed to v2: dobj -> obj, nsubjpass -> "
                             "nsubj:pass, ...); in the signature")


def scoring_settings(args, metrics: Sequence[str] = ()) -> Settings:
    """The Settings of the scoring options; ``metrics`` asked for beyond the profile's (LA)
    are scored too."""
    return Settings(args.profile, args.weights, getattr(args, "strict", 0), args.punct, args.deprel,
                    tuple(m for m in metrics if m in EXTRA_METRICS))


def write_atomically(path: str, text: str, inputs: List[str], errors: str = "strict") -> None:
    """Write ``text`` to ``path`` via a temporary file renamed over it (a reader never sees
    half a report; a failed write leaves the old file).  The file gets the mode an ordinary
    ``open`` would give it (an existing file's mode, else 0666 less the umask).  Devices and
    pipes (``/dev/stdout``, a FIFO) are written directly: renaming over them would replace
    the device node.  Raises :class:`OutputFailed` naming ``path`` as given (never the
    temporary file) when it cannot be written, :class:`UsageError` for an input's path.
    ``errors="surrogateescape"`` writes back the undecodable bytes of text read that way."""
    target = os.path.realpath(path)
    for name in inputs:
        if name != "-" and os.path.exists(name) and os.path.realpath(name) == target:
            raise UsageError(f"refusing to write the output into the input file {name}")
    directory = os.path.dirname(target) or "."
    if not os.path.isdir(directory):
        raise OutputFailed(path, f"the directory {os.path.dirname(path) or '.'} does not exist")
    try:
        _replace_file(path, target, directory, text, errors)
    except OSError as exc:
        raise OutputFailed(path, os_reason(exc)) from exc


def _replace_file(path: str, target: str, directory: str, text: str, errors: str) -> None:
    try:
        existing = os.stat(path)  # follows links: /dev/stdout may be a pipe with no path
    except OSError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "w", encoding="utf-8", errors=errors) as handle:
            handle.write(text)
        return
    if existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile  # here: ~3 ms of start-up that printing to stdout does not need

    fd, tmp = tempfile.mkstemp(prefix=".conll_eval-", dir=directory)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", errors=errors) as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


#: the --format choices of scoring a pair and of a suite
FORMATS = ("text", "json", "tsv", "csv", "markdown")
#: the delimited formats and their delimiters
DELIMITERS = {"tsv": "\t", "csv": ","}
#: formats that print --signature on stderr: a CSV is a plain table (header first, no comment
#: line) that csv.reader and pandas.read_csv take without options; TSV keeps its '# ' line
SIGNATURE_ON_STDERR = ("csv",)


def add_report_options(parser: argparse.ArgumentParser, metrics: str, fail_under: str,
                       signature: str) -> None:
    """--format, --metrics, --fail-under and --signature (the help differs by command)."""
    parser.add_argument("--format", default="text", choices=list(FORMATS),
                        help="output format (default: text)")
    parser.add_argument("--metrics", metavar="M,M,...", help=metrics)
    parser.add_argument("--fail-under", metavar="M=PCT,...", help=fail_under)
    parser.add_argument("--signature", action="store_true", help=signature)


def known_metrics(settings: Settings, extra: bool = False) -> List[str]:
    """The metric names the settings score, as printed (``UFeats``, ``WeightedLAS``); with
    ``extra`` also those that can be asked for (``LA``)."""
    names = [display_name(n) for n in profile_metrics(settings.profile,
                                                      weights=settings.weights_file is not None)]
    names += [m for m in settings.extra_metrics if m not in names]
    if extra:
        names += [m for m in EXTRA_METRICS if m not in names]
    return names


def metric_list(text: str, known: List[str], option: str, prog: str) -> List[str]:
    """``UAS,LAS`` -> the metrics, each once, in the given order; a usage error naming
    ``prog`` (the command) for an unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise UsageError(f"{prog}: {option}: unknown metric(s) {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(known)}")
    return list(dict.fromkeys(names))  # a metric named twice is one column


#: --fail-under scopes: a bar's prefix -> what it is checked against in a suite
BAR_SCOPES = {
    "": "every treebank and the macro-average",
    "macro": "the macro-average only",
    "micro": "the micro-average only (counts summed over treebanks, with or without --micro)",
}


class Bar(NamedTuple):
    """One --fail-under bar: ``macro:LAS=80`` = Bar("macro", "LAS", 80.0)."""

    scope: str
    metric: str
    value: float

    def __str__(self) -> str:
        return f"{self.scope + ':' if self.scope else ''}{self.metric}={self.value:g}"


def thresholds(text: str, known: List[str], prog: str, scopes: Collection[str] = ("",)) -> List[Bar]:
    """``LAS=80,macro:CLAS=75`` -> bars in percent; the prefixes allowed are ``scopes`` (keys
    of :data:`BAR_SCOPES`; one pair has none)."""
    bars = []
    for item in text.split(","):
        spec, sep, value = item.partition("=")
        scope, _, name = spec.strip().rpartition(":")
        if scope not in scopes:
            raise UsageError(f"{prog}: --fail-under: {item.strip()!r}: " + (
                "one pair has no averages, its bars take no prefix" if len(scopes) == 1 else
                f"the prefix can be {' or '.join(s + ':' for s in scopes if s)}"))
        if not sep or name not in known:
            raise UsageError(f"{prog}: --fail-under: expected METRIC=PERCENT with METRIC one of "
                             f"{', '.join(known)}, got {item.strip()!r}")
        try:
            bar = float(value)
        except ValueError:
            raise UsageError(f"{prog}: --fail-under: {value.strip()!r} is not a number") from None
        if not 0 <= bar <= 100:
            raise UsageError(f"{prog}: --fail-under: {name}={bar:g} is not a percentage")
        bars.append(Bar(scope, name, bar))
    return bars


def fraction_warning(bars: Sequence[Bar]) -> Optional[str]:
    """The warning for bars that look like fractions (every one at most 1, not all 0):
    ``LAS=0.8`` is a bar of 0.8 %."""
    if not bars or any(bar.value > 1 for bar in bars) or not any(bar.value for bar in bars):
        return None
    means = " and ".join(f"{bar} means {bar.value:g} %" for bar in bars)
    meant = ",".join(str(bar._replace(value=round(100 * bar.value, 10))) for bar in bars)
    return f"conll_eval: warning: --fail-under bars are percentages; {means}, did you mean {meant}?\n"


def below(label: str, metric: str, f1: float, bar: float) -> Optional[str]:
    """``en_ewt: LAS 79.99 < 80`` when ``f1`` as printed (percent, 2 decimals) is under the
    bar; None otherwise."""
    shown = percent(f1)
    return f"{label}{metric} {shown} < {bar:g}" if float(shown) < bar else None


def is_terminal(stream) -> bool:
    """Is ``stream`` (possibly None: a closed descriptor) a terminal?"""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def progress_reporter(stderr: TextIO):
    """A one-line progress indicator on a terminal; None when stderr is piped."""
    if not is_terminal(stderr):
        return None

    def show(done: int, total: int, entry) -> None:
        stderr.write(f"\r\033[K[{done}/{total}] {entry.name}")
        if done == total:
            stderr.write("\r\033[K")
        stderr.flush()
    return show
