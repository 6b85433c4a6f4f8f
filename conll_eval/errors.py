"""Locations, incidents and the one exception tree of conll_eval.

::

    ConllEvalError(Exception)
     |- InputError(ConllEvalError, ValueError)      .location, .code, .official
     |   |- FormatError                             level 1: columns, IDs, empty FORM, MWT ranges, blank lines
     |   |- TreeError                               level 2: cycle, 0 or >1 roots, HEAD out of range
     |   `- LabelError                              level 3 (opt-in): label not in the UD inventory
     |- ValidationFailed(ConllEvalError)            --strict: .count validator errors, .incidents (each class's first)
     |- AlignmentError(ConllEvalError, ValueError)  texts differ: both locations and token context
     |   `- EmptyFileError(AlignmentError, InputError)  one file of the pair has no words
     `- UsageError(ConllEvalError)                  unknown metric or profile, incompatible options

Every input error carries a stable kebab-case ``code`` (the names of the files in
``testdata/invalid/``) and a :class:`Location`; ``str(error)`` is
``path:line: error [code] message (sent_id=...)``.  ``official`` holds the text the
selected profile's official script would have put in its ``UDError`` (used by
:mod:`conll_eval.compat`), or ``None`` where the official script crashes instead.
Callers branch on the class or the code, never on the message text.

Input text reaches messages only through :func:`printable`: control characters, bidi
overrides and undecodable bytes are spelt out (``\\x1b``, ``\\t``, ``\\u202e``), so a file can
never drive the terminal that shows its errors.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Optional

__all__ = [
    "printable", "Location", "Incident", "ConllEvalError", "InputError", "FormatError", "TreeError",
    "LabelError", "ValidationFailed", "AlignmentError", "EmptyFileError", "UsageError",
    "InputWarning",
]


#: what a terminal would act on instead of showing: C0 and C1 controls and DEL, the bidi
#: embeddings, overrides and isolates, line/paragraph separators, and the lone surrogates that
#: stand for undecodable bytes (``surrogateescape``); ordinary letters of any script pass
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\udc80-\udcff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: "re.Match[str]") -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, read with surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every character a terminal would act on spelt out: ``\\x1b`` for ESC,
    ``\\t``, ``\\r``, ``\\n`` (kept as line breaks with ``keep_newlines``), ``\\x85`` for C1
    controls, ``\\u202e`` for bidi overrides and isolates, ``\\xff`` for an undecodable byte
    read with ``surrogateescape``; everything else (``é``, ``中``) is unchanged.

    >>> printable("a\\tb\\x1b[31m\\u202eé")
    'a\\\\tb\\\\x1b[31m\\\\u202eé'
    """
    if _UNPRINTABLE.search(text) is None:  # the usual case: nothing to do
        return text
    if keep_newlines:
        return "\n".join(_UNPRINTABLE.sub(_escape, line) for line in text.split("\n"))
    return _UNPRINTABLE.sub(_escape, text)


@dataclass(frozen=True)
class Location:
    """A place in an input file; ``str()`` gives ``gold.conllu:41``, the path spelt out
    (:func:`printable`: a path is one line in every message, whatever its name holds)."""

    path: str
    line: Optional[int] = None
    sent_id: Optional[str] = None

    def __str__(self) -> str:
        path = printable(self.path)
        return path if self.line is None else f"{path}:{self.line}"


@dataclass(frozen=True)
class Incident:
    """One finding of a check: where, which stable code, what."""

    location: Location
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        suffix = f" (sent_id={self.location.sent_id})" if self.location.sent_id else ""
        return printable(f"{self.location}: {self.severity} [{self.code}] {self.message}{suffix}")


class ConllEvalError(Exception):
    """Root of every error conll_eval raises on purpose."""


class InputError(ConllEvalError, ValueError):
    """An input file is not acceptable; names ``path:line`` and a stable ``code``."""

    def __init__(self, location: Location, code: str, message: str,
                 official: Optional[str] = None):
        self.location = location
        self.code = code
        self.message = message
        self.official = official
        super().__init__(str(self))

    def __reduce__(self):  # picklable across processes despite the custom __init__
        return (self.__class__, (self.location, self.code, self.message, self.official))

    @property
    def incident(self) -> Incident:
        return Incident(self.location, self.code, self.message)

    def __str__(self) -> str:
        return str(self.incident)


class FormatError(InputError):
    """Level 1: the CoNLL-U backbone is broken (columns, IDs, blank lines, encoding)."""


class TreeError(InputError):
    """Level 2: the basic dependency tree is broken (cycle, roots, HEAD range)."""


class LabelError(InputError):
    """Level 3 (opt-in): a label is not in the UD inventory."""


class ValidationFailed(ConllEvalError):
    """Raised after both files were validated (``--strict``).  ``count`` is how many error
    incidents they had; ``incidents`` a read-only sequence of them (the validator's
    :class:`conll_eval.validate.ValidationIncident` objects), in the order found: from
    ``evaluate_files(strict=...)`` a :class:`conll_eval.validate.KeptIncidents`, which keeps
    the first 1,000 of each class (:data:`conll_eval.validate.KEPT_PER_GROUP`) and counts the
    rest, so that a file of a million broken or blank lines does not take a million objects
    (``conll_eval.validate.iter_validate_file`` streams them all).

    ``incidents`` is kept as given when it is a read-only sequence, else copied into a list;
    ``count`` defaults to its length."""

    def __reduce__(self):
        return (self.__class__, (self.incidents, self.count))

    def __init__(self, incidents: Iterable[object], count: Optional[int] = None):
        self.incidents: Sequence[object] = (
            incidents if isinstance(incidents, Sequence) and not isinstance(incidents, MutableSequence)
            else list(incidents))
        self.count = len(self.incidents) if count is None else count
        first = str(self.incidents[0]) if self.incidents else "no incidents"
        super().__init__(f"{self.count} error(s); first: {first}")


class AlignmentError(ConllEvalError, ValueError):
    """Gold and system texts differ; the message shows both places and their context."""

    def __init__(self, gold: Location, system: Location, message: str,
                 official: Optional[str] = None, code: str = "text-mismatch"):
        self.gold_location = gold
        self.system_location = system
        self.location = system
        self.code = code
        self.message = message
        self.official = official
        super().__init__(message)

    def __reduce__(self):
        return (self.__class__, (self.gold_location, self.system_location, self.message,
                                 self.official, self.code))

    def __str__(self) -> str:
        return printable(f"{self.system_location}: error [{self.code}] {self.message}",
                         keep_newlines=True)


class EmptyFileError(AlignmentError, InputError):
    """One file of a pair has no words (it is empty, or holds only comments and blank lines)
    while the other has some: ``system.conllu: error [empty-file] the system file has no words``.

    The official scorers read such a file without complaint and then fail on the text check,
    so this is also an :class:`AlignmentError` whose ``official`` is that text-mismatch message;
    ``side`` is ``"gold"`` or ``"system"`` and ``location`` points at that file (no line).
    """

    def __init__(self, side: str, gold: Location, system: Location,
                 official: Optional[str] = None):
        self.side = side
        self.gold_location = gold
        self.system_location = system
        self.location = gold if side == "gold" else system
        self.code = "empty-file"
        self.message = f"the {side} file has no words"
        self.official = official
        Exception.__init__(self, str(self))

    def __reduce__(self):
        return (self.__class__, (self.side, self.gold_location, self.system_location, self.official))

    __str__ = InputError.__str__


class InputWarning(UserWarning):
    """An input file was read as the official tools read it, with a loss they only warn
    about (issued with :func:`warnings.warn`, once per file); ``str()`` is its problem line
    ``path:line: warning [code] message``, which the command line prints on stderr."""

    def __init__(self, location: Location, code: str, message: str):
        self.location = location
        self.code = code
        self.message = message
        super().__init__(str(self))

    def __reduce__(self):  # picklable across processes despite the custom __init__
        return (self.__class__, (self.location, self.code, self.message))

    @property
    def incident(self) -> Incident:
        return Incident(self.location, self.code, self.message, severity="warning")

    def __str__(self) -> str:
        return str(self.incident)


class UsageError(ConllEvalError):
    """The caller asked for something that does not exist or does not fit together; the
    command line shows it as ``conll_eval <command>: error [usage] <message>`` (exit 2)."""

    code = "usage"
