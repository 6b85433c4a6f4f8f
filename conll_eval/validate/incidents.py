"""The validator's findings (:class:`ValidationIncident`), udtools' test classes and the test ids
each level implements.  Hints in plain words (BOM, CRLF, not UTF-8) are attached here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

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
        if hint is None:
            yield inc
        elif isinstance(inc, IncidentRun):  # the hint goes to an incident of a first line
            run: Optional[IncidentRun] = inc
            while run is not None and hint is not None:
                for one in run.line(0):
                    if hint is not None and one.severity == "error":
                        one, hint = _hinted(one, hint, last_line), None
                    yield one
                run = run.after(1)
            if run is not None:
                yield run
        elif inc.severity == "error":
            yield _hinted(inc, hint, last_line)
            hint = None
        else:
            yield inc


def _hinted(inc: ValidationIncident, hint: str, last_line: Optional[int]) -> ValidationIncident:
    if inc.hint is None and (last_line is None or inc.line is None or inc.line <= last_line):
        return replace(inc, hint=hint)
    return inc


class IncidentRun:
    """The incidents of ``len(kinds)`` consecutive lines from ``start`` on: line ``start + k``
    has those of ``templates[kinds[k]]`` (incidents on line ``start``), moved to it.  The
    validator's findings on a run of blank lines, each a sentence of its own (an empty line
    gives ``empty-sentence``; a line of spaces and tabs ``pseudo-empty-line``, then
    ``empty-sentence``), as one object, so that 100 MB of blank lines cost per run, not per
    line (issue 40).  Iterating gives the incidents in order; :meth:`counts` how many of each
    (severity, class) without iterating; ``len()`` how many in all."""

    __slots__ = ("templates", "kinds", "start")

    def __init__(self, templates: Sequence[Sequence[ValidationIncident]], kinds: bytes,
                 start: int):
        if not kinds or kinds.translate(None, bytes(range(len(templates)))) or any(
                inc.line != start for incidents in templates for inc in incidents):
            raise ValueError("a run needs lines, and templates on its first line")
        self.templates = tuple(tuple(incidents) for incidents in templates)
        self.kinds, self.start = kinds, start

    @classmethod
    def repeated(cls, first: ValidationIncident, lines: int) -> "IncidentRun":
        """``first`` on its line and on each of the ``lines - 1`` lines after it."""
        assert first.line is not None
        return cls(((first,),), bytes(lines), first.line)

    @property
    def lines(self) -> int:
        return len(self.kinds)

    def _kind_counts(self) -> List[int]:
        if len(self.templates) == 1:
            return [len(self.kinds)]
        return [self.kinds.count(kind) for kind in range(len(self.templates))]

    def counts(self) -> Dict[Tuple[str, str], int]:
        """Incidents per (severity, class)."""
        found: Dict[Tuple[str, str], int] = {}
        for incidents, lines in zip(self.templates, self._kind_counts()):
            for inc in incidents if lines else ():
                key = (inc.severity, inc.klass)
                found[key] = found.get(key, 0) + lines
        return found

    def __len__(self) -> int:
        return sum(len(incidents) * lines
                   for incidents, lines in zip(self.templates, self._kind_counts()))

    def line(self, k: int) -> Tuple[ValidationIncident, ...]:
        """The incidents of the run's ``k``-th line."""
        return tuple(_moved(inc, self.start + k) if k else inc
                     for inc in self.templates[self.kinds[k]])

    def after(self, k: int) -> Optional["IncidentRun"]:
        """The run from its ``k``-th line on (None: no line left)."""
        if k >= len(self.kinds):
            return None
        start = self.start + k
        return IncidentRun([[_moved(inc, start) for inc in incidents]
                            for incidents in self.templates], self.kinds[k:], start)

    def keep(self, wanted: Callable[[ValidationIncident], bool]) -> Optional["IncidentRun"]:
        """The run of the incidents ``wanted`` keeps (asked once per template: a run's
        incidents differ only in their line); None when it keeps none."""
        templates = [[inc for inc in incidents if wanted(inc)] for incidents in self.templates]
        if all(len(kept) == len(incidents)
               for kept, incidents in zip(templates, self.templates)):
            return self
        if not any(templates):
            return None
        return IncidentRun(templates, self.kinds, self.start)

    def __iter__(self) -> Iterator[ValidationIncident]:
        templates, start = self.templates, self.start
        fields = [[dict(inc.__dict__) for inc in incidents] for incidents in templates]
        make = _NEW
        for k, kind in enumerate(self.kinds):
            if not k:
                yield from templates[kind]
                continue
            for state in fields[kind]:
                # ValidationIncident's own __init__ costs 2.5x this: these are a run's copies
                inc = make(ValidationIncident)
                inc.__dict__.update(state)
                inc.__dict__["line"] = start + k
                yield inc

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, IncidentRun) and self.start == other.start
                and self.templates == other.templates and self.kinds == other.kinds)

    __hash__ = None  # type: ignore[assignment]  # (mutable-looking, compared by value)

    def __repr__(self) -> str:
        return f"IncidentRun({self.templates!r}, {self.kinds!r}, {self.start})"


def _moved(inc: ValidationIncident, line: int) -> ValidationIncident:
    return replace(inc, line=line)


#: what the validator's streams give: incidents, and runs of them (:class:`IncidentRun`)
Found = Union[ValidationIncident, IncidentRun]


def expand_runs(found: Iterable[Found]) -> Iterator[ValidationIncident]:
    """The incidents of ``found``, each run's one by one."""
    for item in found:
        if isinstance(item, IncidentRun):
            yield from item
        else:
            yield item
