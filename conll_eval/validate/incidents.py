"""The validator's findings (:class:`ValidationIncident`), udtools' test classes and the test ids
each level implements.  Hints in plain words (BOM, CRLF, not UTF-8) are attached here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Iterable, Iterator, Optional, Union

from ..errors import Incident, Location


#: udtools' TestClass order (used to sort the summary)
CLASS_ORDER = ("INTERNAL", "UNICODE", "FORMAT", "MORPHO", "SYNTAX", "ENHANCED", "COREF",
               "METADATA")

LEVEL1_IDS = frozenset("""
    invalid-utf unicode-normalization non-unix-newline invalid-line pseudo-empty-line
    misplaced-comment extra-empty-line empty-sentence missing-empty-line number-of-columns
    empty-column invalid-whitespace invalid-whitespace-mwt leading-whitespace
    trailing-whitespace repeated-whitespace invalid-word-id word-id-sequence
    misplaced-word-interval reversed-word-interval word-interval-out overlapping-word-intervals
    misplaced-empty-node""".split())
LEVEL2_IDS = frozenset("""
    invalid-head unknown-head invalid-deps invalid-ehead unknown-ehead head-self-loop
    multiple-roots non-tree mwt-nonempty-field empty-node-nonempty-field unknown-upos
    empty-string-in-xpos unsorted-features invalid-feature repeated-feature-value
    unsorted-feature-values invalid-feature-value repeated-feature invalid-deprel
    unknown-udeprel unsorted-deps unsorted-deps-2 repeated-deps deps-self-loop invalid-edeprel
    unknown-eudeprel empty-misc empty-misc-key misc-extra-space misc-attr-typo repeated-misc
    edeps-only-sometimes invalid-sent-id missing-sent-id multiple-sent-id non-unique-sent-id
    slash-in-sent-id invalid-parallel-id multiple-parallel-id non-unique-parallel-id
    parallel-id-alt parallel-id-part multiple-newdoc multiple-newpar spaceafter-newdocpar
    missing-text multiple-text empty-text text-trailing-whitespace nospaceafter-yes
    spaceafter-value spaceafter-empty-node spaceafter-mwt-node text-form-mismatch
    missing-spaceafter text-extra-chars unconnected-egraph""".split())
LEVEL3_IDS = frozenset("""
    0-is-not-root root-is-not-0 enhanced-0-is-not-root enhanced-root-is-not-0
    empty-node-after-eorphan eorphan-after-empty-node pron-det-without-prontype
    verbform-fin-without-mood fixed-without-extpos rel-upos-det rel-upos-nummod rel-upos-advmod
    rel-upos-expl rel-upos-aux rel-upos-cop rel-upos-case rel-upos-mark rel-upos-cc
    rel-upos-punct upos-rel-punct rel-upos-fixed flat-foreign-upos-feats right-to-left-conj
    right-to-left-fixed right-to-left-flat right-to-left-goeswith right-to-left-appos
    too-many-subjects too-many-objects obl-should-be-nmod orphan-parent leaf-mark-case
    leaf-aux-cop leaf-det leaf-clf leaf-cc leaf-fixed leaf-goeswith leaf-punct fixed-gap
    goeswith-gap goeswith-nospace goeswith-missing-typo goeswith-lemma goeswith-upos
    goeswith-feats goeswith-edeps punct-causes-nonproj punct-is-nonproj
    edeps-identical-to-basic-trees""".split())
LEVEL4_IDS = frozenset("""
    invalid-word-with-space mwt-typo-repeated-at-word feature-unknown feature-not-permitted
    feature-value-unknown feature-upos-not-permitted feature-value-upos-not-permitted
    unknown-lang unknown-deprel unknown-edeprel""".split())
LEVEL5_IDS = frozenset(["aux-lemma", "cop-lemma"])
#: every udtools test id this package implements
IMPLEMENTED_IDS = LEVEL1_IDS | LEVEL2_IDS | LEVEL3_IDS | LEVEL4_IDS | LEVEL5_IDS
#: conll_eval's own findings at level 1, which udtools does not have: a line longer than
#: :data:`conll_eval.limits.MAX_LINE_BYTES` (udtools reads any line whole, an endless one until
#: memory runs out), after which the rest of the file is not checked.  The command line shows
#: and counts them whatever -e, -i or --max-err say: a file cut short must not pass.
LIMIT_IDS = frozenset(["line-too-long"])


@dataclass(frozen=True)
class ValidationIncident:
    """One finding of the validator, with udtools' level, class and test id.

    ``message`` is udtools' text; ``hint`` (not compared) says in plain words what a
    surprising incident usually means, where udtools' text does not: a byte-order mark,
    CRLF line ends, a file that is not UTF-8 or not CoNLL-U at all.  ``explanation`` (not
    compared) is the longer text udtools prints after the message the first time it occurs.
    """

    level: int
    klass: str
    testid: str
    path: str
    line: Optional[int]
    sent_id: Optional[str]
    message: str
    severity: str = "error"
    hint: Optional[str] = field(default=None, compare=False)
    explanation: Optional[str] = field(default=None, compare=False, repr=False)

    @property
    def location(self) -> Location:
        return Location(self.path, self.line, self.sent_id)

    @property
    def code(self) -> str:
        return self.testid

    @property
    def incident(self) -> Incident:
        return Incident(self.location, self.testid, self.message, self.severity)

    def __str__(self) -> str:
        return str(self.incident) + (f" (hint: {self.hint})" if self.hint else "")


_FIELDS = ("level", "klass", "testid", "path", "line", "sent_id", "message", "severity", "hint",
           "explanation")
assert _FIELDS == tuple(f.name for f in fields(ValidationIncident)), "new_incident sets each"
_NEW = object.__new__


def new_incident(level: int, klass: str, testid: str, path: str, line: Optional[int],
                 sent_id: Optional[str], message: str,
                 severity: str = "error") -> ValidationIncident:
    """``ValidationIncident(...)`` (no hint or explanation) at 40 % of its cost: the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, and the
    validator makes one per finding (a file with an error on every line)."""
    inc = _NEW(ValidationIncident)
    inc.__dict__.update({"level": level, "klass": klass, "testid": testid, "path": path,
                         "line": line, "sent_id": sent_id, "message": message,
                         "severity": severity, "hint": None, "explanation": None})
    return inc


#: hints (see ValidationIncident.hint)
BOM_HINT = "the file starts with a byte-order mark (U+FEFF); remove it"
NEWLINE_HINTS = {"\r\n": "line ends are CRLF (Windows), the first one on line {line}; convert "
                          "with dos2unix",
                 "\r": "line ends are CR (classic Mac OS), the first one on line {line}; convert "
                        "with mac2unix"}


def _with_hint(incidents: Iterable[Found], hint: Optional[str],
               last_line: Optional[int] = None) -> Iterator[Found]:
    """``incidents`` (and runs) with ``hint`` given to the first error (if it has none and is
    on or before ``last_line``; a later first error has a cause of its own)."""
    for inc in incidents:
        if hint is not None and inc.severity == "error":
            if isinstance(inc, IncidentRun):  # the hint goes to the run's first incident
                first = inc.first
                yield from _with_hint([first], hint, last_line)
                if inc.count > 1:
                    yield IncidentRun(replace(first, line=inc.start + 1), inc.count - 1)
                hint = None
                continue
            if inc.hint is None and (last_line is None or inc.line is None
                                     or inc.line <= last_line):
                inc = replace(inc, hint=hint)
            hint = None
        yield inc


class IncidentRun:
    """``count`` incidents equal to ``first`` but each on the line after the one before (the
    first on ``first.line``): the validator's findings on a run of empty lines, one
    ``empty-sentence`` per line, given as one object so that 100 MB of blank lines cost per
    run, not per line (issue 40).  Iterating gives the incidents; ``severity``, ``klass``,
    ``testid`` and ``level`` are the first incident's (a filter or a count by them takes the
    run whole)."""

    __slots__ = ("first", "count")

    def __init__(self, first: ValidationIncident, count: int):
        if first.line is None or count < 1:
            raise ValueError("an incident run needs a line and at least one incident")
        self.first, self.count = first, count

    severity = property(lambda self: self.first.severity)
    klass = property(lambda self: self.first.klass)
    testid = property(lambda self: self.first.testid)
    level = property(lambda self: self.first.level)
    line = property(lambda self: self.first.line)

    @property
    def start(self) -> int:
        """The first incident's line."""
        assert self.first.line is not None  # (checked in __init__)
        return self.first.line
    hint = property(lambda self: self.first.hint)

    def head(self, count: int) -> "IncidentRun":
        """The run's first ``count`` incidents (1 <= count <= self.count)."""
        return IncidentRun(self.first, count)

    def __iter__(self) -> Iterator[ValidationIncident]:
        first = self.first
        yield first
        fields = dict(first.__dict__)
        make = object.__new__
        for line in range(self.start + 1, self.start + self.count):
            # ValidationIncident's own __init__ costs 2.5x this: these are a run's copies
            inc = make(ValidationIncident)
            state = inc.__dict__
            state.update(fields)
            state["line"] = line
            yield inc

    def __len__(self) -> int:
        return self.count

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, IncidentRun) and self.first == other.first
                and self.count == other.count)

    def __repr__(self) -> str:
        return f"IncidentRun({self.first!r}, {self.count})"


#: what the validator's streams give: incidents, and runs of them (:class:`IncidentRun`)
Found = Union[ValidationIncident, IncidentRun]


def expand_runs(found: Iterable[Found]) -> Iterator[ValidationIncident]:
    """The incidents of ``found``, each run's one by one."""
    for item in found:
        if isinstance(item, IncidentRun):
            yield from item
        else:
            yield item
