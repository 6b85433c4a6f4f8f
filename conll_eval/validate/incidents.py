"""The validator's findings (:class:`ValidationIncident`), udtools' test classes and the test ids
each level implements.  Hints in plain words (BOM, CRLF, not UTF-8) are attached here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Optional

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


#: hints (see ValidationIncident.hint)
BOM_HINT = "the file starts with a byte-order mark (U+FEFF); remove it"
NEWLINE_HINTS = {"\r\n": "line ends are CRLF (Windows), the first one on line {line}; convert "
                          "with dos2unix",
                 "\r": "line ends are CR (classic Mac OS), the first one on line {line}; convert "
                        "with mac2unix"}


def _with_hint(incidents: Iterable[ValidationIncident], hint: Optional[str],
               last_line: Optional[int] = None) -> Iterator[ValidationIncident]:
    """``incidents`` with ``hint`` given to the first error (if it has none and is on or
    before ``last_line``; a later first error has a cause of its own)."""
    for inc in incidents:
        if hint is not None and inc.severity == "error":
            if inc.hint is None and (last_line is None or inc.line is None
                                     or inc.line <= last_line):
                inc = replace(inc, hint=hint)
            hint = None
        yield inc
