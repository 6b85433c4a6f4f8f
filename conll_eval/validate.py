"""A strict CoNLL-U validator: levels 1 and 2 of the UD validator (``udvalidate`` from udtools).

``validate_file(path, level=2)`` returns every incident of a file; ``validate_lines(lines, path,
level=2)`` streams them sentence by sentence (memory: the current sentence plus the set of
sent_ids seen).  Incidents are :class:`ValidationIncident` objects: the UD level, class
(FORMAT, UNICODE, MORPHO, SYNTAX, ENHANCED, METADATA), test id (the same ids as udtools, e.g.
``head-self-loop``), line, sent_id, message and severity; ``.incident`` gives the plain
:class:`conll_eval.errors.Incident` (``code`` = the UD test id), and ``.location``/``.code``
make the object usable wherever an Incident is expected.  Library code: nothing is printed.

Example (``bad.conllu`` holds one sentence whose word 1 has HEAD 1)::

    >>> [str(i) for i in validate_file("bad.conllu")]      # doctest: +SKIP
    ['bad.conllu:3: error [head-self-loop] HEAD == ID for 1 (sent_id=s1)']

Implemented test ids: see :data:`IMPLEMENTED_IDS` (all of udtools' level 1 and level 2 checks,
MISC warnings included).  Checks run in udtools' order and with its dependency rules: within a
sentence, lines -> columns -> ID sequence -> MWT overlaps -> [L2] ID references -> tree, each
of which may stop the remaining checks of the sentence; then per-line checks (MWT/empty-node
empty fields, UPOS, XPOS, FEATS, DEPREL, DEPS, MISC; an invalid feature stops the rest), then
enhanced all-or-none, sent_id, parallel_id, text, enhanced connectivity.  ``non-unix-newline``
comes after the last sentence.  Incidents therefore come sentence by sentence in file order and,
within a sentence, in udtools' check order (so the *first* incident is udtools' first one).

Line numbers follow udtools: lines split on LF, CRLF and lone CR (Python's universal
newlines); whole-sentence findings (``word-id-sequence``, ``multiple-roots``, ``non-tree``,
metadata, ``edeps-only-sometimes``) point at the first token line of the sentence.

Deliberate differences from udtools 2 (``udvalidate --level 2 --lang ud``):

* Undecodable UTF-8: udtools crashes with a traceback.  We decode with replacement characters
  and report each affected line with udtools' own id for U+FFFD, ``invalid-utf`` (L1 UNICODE),
  so one incident per line holding bad bytes, and the rest of the file is still checked.
* A sentence made of empty nodes only (no word): udtools passes it to Udapi, whose tree
  building fails an assertion (traceback).  We report the same incidents up to that point and
  go on (e.g. ``unconnected-egraph`` for the unreachable empty nodes).
* sent_id of an incident: udtools prints the most recent ``# sent_id`` seen in the file (so a
  sentence without one is reported under its predecessor's id); we give the sentence's own
  sent_id, or None when it has none.
* udtools sets some line numbers through a class-level default that can leak from an earlier
  check (e.g. ``nospaceafter-yes`` and ``text-extra-chars`` use the first token line); we use
  the line numbers described above, which coincide with udtools' in the cases we tested.
* udtools' check for enhanced relations adds ``ref`` to its set of universal relations in
  place, so after the first non-empty DEPS a basic DEPREL ``ref`` stops being reported as
  ``unknown-udeprel``.  We mirror this (for parity), flagged in the code.
* Empty-node IDs in ``unconnected-egraph`` are compared as written (``1.10`` stays ``1.10``);
  udtools goes through Udapi, whose float ordinals may conflate them.
* The message explanations udtools prints on first occurrence are not reproduced.

Note: ``extra-empty-line`` is implemented but, as in udtools, cannot come from a file: every
empty or whitespace-only line ends a sentence (a second one gives ``empty-sentence``).
"""
from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import BinaryIO, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from .errors import Incident, Location
from .reader import SNIFF_BYTES, decompress, describe_non_conllu, open_input

__all__ = ["ValidationIncident", "Validator", "validate_lines", "validate_bytes", "validate_file",
           "iter_validate_file", "iter_validate_files", "IMPLEMENTED_IDS",
           "CLASS_ORDER", "UPOS_TAGS", "UD_RELATIONS"]

#: udtools' TestClass order (used to sort the summary)
CLASS_ORDER = ("INTERNAL", "UNICODE", "FORMAT", "MORPHO", "SYNTAX", "ENHANCED", "COREF",
               "METADATA")

UPOS_TAGS = frozenset(
    "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split())
UD_RELATIONS = frozenset(
    "acl advcl advmod amod appos aux case cc ccomp clf compound conj cop csubj dep det discourse "
    "dislocated expl fixed flat goeswith iobj list mark nmod nsubj nummod obj obl orphan "
    "parataxis punct reparandum root vocative xcomp".split())

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
#: every udtools test id this module implements
IMPLEMENTED_IDS = LEVEL1_IDS | LEVEL2_IDS

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
COLNAMES = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC".split()

# udtools uses the `regex` module, whose \s is the Unicode White_Space property (unlike
# Python's re, it excludes U+001C..U+001F); str.isspace() is used where udtools uses it.
_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_RE_WS = re.compile(f"[{_WS}]+")
_RE_WS2 = re.compile(f"[{_WS}][{_WS}]")
_RE_WS_START = re.compile(f"[{_WS}]")
_RE_WS_NOT_TAB = re.compile(f"[{_WS[1:]}]")  # _WS without its leading TAB
_RE_WS_END = re.compile(f"[{_WS}]$")
_RE_WORDID = re.compile(r"[1-9][0-9]*")
_RE_MWTID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
_RE_ENODEID = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
_RE_NEWDOC = re.compile(rf"#[{_WS}]*newdoc(?:[{_WS}]+([^{_WS}]+))?")
_RE_NEWPAR = re.compile(rf"#[{_WS}]*newpar(?:[{_WS}]+([^{_WS}]+))?")
_RE_SENTID = re.compile(rf"#[{_WS}]*sent_id[{_WS}]*=[{_WS}]*([^{_WS}]+)")
_RE_PARALLELID = re.compile(
    rf"#[{_WS}]*parallel_id[{_WS}]*=[{_WS}]*(([a-z]+)/([-0-9a-z]+)"
    r"(?:/(alt[1-9][0-9]*|part[1-9][0-9]*|alt[1-9][0-9]*part[1-9][0-9]*))?)")
_RE_ALTPART = re.compile(r"(?:alt([0-9]+))?(?:part([0-9]+))?")
_RE_TEXT = re.compile(rf"#[{_WS}]*text[{_WS}]*=[{_WS}]*(.*)")
_RE_UPOS = re.compile(r"[A-Z]+")
_RE_FEATVAL = re.compile(
    r"([A-Z][A-Za-z0-9]*(?:\[[a-z0-9]+\])?)=(([A-Z0-9][A-Z0-9a-z]*)(,([A-Z0-9][A-Z0-9a-z]*))*)")
_RE_VAL = re.compile(r"[A-Z0-9][A-Za-z0-9]*")
_RE_HEAD = re.compile(r"0|[1-9][0-9]*")
_RE_EHEAD = re.compile(r"(0|[1-9][0-9]*)(\.[1-9][0-9]*)?")
_RE_DEPREL = re.compile(r"[a-z]+(:[a-z]+)?")
_RE_ASCII_LOWER = re.compile(r"[a-z]+")
_MISC_SINGLE = re.compile(r"(SpaceAfter|Lang|Translit|LTranslit|Gloss|LId|LDeriv|Ref)")
_MISC_TYPO = re.compile(rf"[{_WS}]*(spaceafter|lang|translit|ltranslit|gloss|lid|lderiv|ref)"
                        rf"[{_WS}]*", re.IGNORECASE)


@dataclass(frozen=True)
class ValidationIncident:
    """One finding of the validator, with udtools' level, class and test id.

    ``message`` is udtools' text; ``hint`` (not compared) says in plain words what a
    surprising incident usually means, where udtools' text does not: a byte-order mark,
    CRLF line ends, a file that is not UTF-8 or not CoNLL-U at all.
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
            if inc.hint is None and (last_line is None or inc.line is None or inc.line <= last_line):
                inc = replace(inc, hint=hint)
            hint = None
        yield inc


# --- small predicates -------------------------------------------------------------------------

def _is_ws_line(line: str) -> bool:
    return _RE_WS.fullmatch(line) is not None


def _is_word(cols) -> bool:
    return _RE_WORDID.fullmatch(cols[ID]) is not None


def _is_mwt(cols) -> bool:
    return _RE_MWTID.fullmatch(cols[ID]) is not None


def _is_empty(cols) -> bool:
    return _RE_ENODEID.fullmatch(cols[ID]) is not None


def _id_tuple(nodeid: str) -> Tuple[int, int]:
    major, _, minor = nodeid.partition(".")
    return (int(major), int(minor) if minor else 0)


def _deps_list(deps: str) -> Optional[List[List[str]]]:
    """[[head, rel], ...] or None when some item has no colon (udtools: invalid-deps)."""
    if deps == "_":
        return []
    items = [hd.split(":", 1) for hd in deps.split("|")]
    return None if any(len(hd) != 2 for hd in items) else items


def _uni_part(s: str) -> bool:
    """[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+ groups joined by single underscores."""
    for chunk in s.split("_"):
        if not chunk:
            return False
        for ch in chunk:
            cat = unicodedata.category(ch)
            if cat not in ("Ll", "Lm", "Lo") and cat[0] != "M":
                return False
    return True


def _valid_edeprel(rel: str) -> bool:
    """udtools: ^[a-z]+(:[a-z]+)?(:UNI)?(:[a-z]+)?$ (UNI = Unicode letters, see _uni_part)."""
    parts = rel.split(":")
    if not _RE_ASCII_LOWER.fullmatch(parts[0]) or len(parts) > 4:
        return False
    rest = parts[1:]
    slots = (lambda p: _RE_ASCII_LOWER.fullmatch(p) is not None, _uni_part,
             lambda p: _RE_ASCII_LOWER.fullmatch(p) is not None)
    for chosen in combinations(range(3), len(rest)):
        if all(slots[s](p) for s, p in zip(chosen, rest)):
            return True
    return False


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def _shorten(s: str) -> str:
    return s if len(s) < 25 else s[:20] + "[...]"


# --- line splitting ---------------------------------------------------------------------------

_TERMINATOR = re.compile(r"\r\n|\r|\n")


def _lines_with_terminators(chunks: Iterable[str]) -> Iterator[Tuple[str, str]]:
    """(line, terminator) pairs of the concatenated chunks; linear even for huge lines."""
    parts: List[str] = []  # pieces of the unfinished line
    pending_cr = False  # the previous chunk ended with CR, which may be half of a CRLF
    for chunk in chunks:
        if not chunk:
            continue
        start = 0
        if pending_cr:
            pending_cr = False
            crlf = chunk[0] == "\n"
            yield "".join(parts), "\r\n" if crlf else "\r"
            parts = []
            start = 1 if crlf else 0
        for m in _TERMINATOR.finditer(chunk, start):
            parts.append(chunk[start:m.start()])
            start = m.end()
            if m.group() == "\r" and start == len(chunk):
                pending_cr = True
                break
            yield "".join(parts), m.group()
            parts = []
        if start < len(chunk):
            parts.append(chunk[start:])
    if pending_cr:
        yield "".join(parts), "\r"
    elif parts:
        yield "".join(parts), ""


# --- the validator ----------------------------------------------------------------------------

class Validator:
    """Validation state shared by the files of one run (sent_ids must be unique across files,
    as in udtools); create one per run and pass it to :func:`validate_lines` /
    :func:`iter_validate_file`, or use :func:`iter_validate_files`."""

    def __init__(self, level: int = 2):
        self.path = "-"
        self.level = max(1, level)
        self.known_sent_ids: Set[str] = set()
        self.known_parallel_ids: Set[str] = set()
        self.parallel_lastalt: Dict[str, Optional[int]] = {}
        self.parallel_lastpart: Dict[str, Optional[int]] = {}
        self.seen_enhanced_graph: Optional[int] = None
        self.seen_tree_without_enhanced_graph: Optional[int] = None
        self.spaceafterno_in_effect = False
        self.ref_is_udeprel = False  # udtools quirk, see the module docstring
        self.out: List[ValidationIncident] = []
        self.sent_id: Optional[str] = None

    def _add(self, level, klass, testid, line, message, severity="error"):
        self.out.append(ValidationIncident(level, klass, testid, self.path, line, self.sent_id,
                                           message, severity))

    # ---- one sentence (lines without terminators, the final empty line included) ----------
    def sentence(self, lines: List[str], first: int, last: int) -> List[ValidationIncident]:
        self.out = []
        self.sent_id = None
        for line in lines:
            if line.startswith("#"):
                m = _RE_SENTID.fullmatch(line)
                if m:
                    self.sent_id = m.group(1)
        self.sentence_line = first
        ok = self._lines(lines, first, last)
        if ok:
            ok = self._columns(lines)
        if ok:
            ok = self._id_sequence()
        if ok:
            ok = self._range_overlaps()
        if ok and self.level >= 2:
            self._level2(lines)
        return self.out

    def _lines(self, lines, first, last) -> bool:
        seen_non_comment = seen_token = last_empty = False
        ok = True
        n = len(lines)
        for i, line in enumerate(lines):
            lineno = first + i
            if "\ufffd" in line:
                self._utf(line, lineno)
            self._nfc(line, lineno)
            if line[:1] == "#":
                if seen_non_comment:
                    self._add(1, "FORMAT", "misplaced-comment", lineno,
                              "Spurious comment line. Comments are only allowed before a sentence.")
                    ok = False
                continue
            if not seen_non_comment:
                self.sentence_line = lineno
            seen_non_comment = True
            if line and line[0].isdigit():
                seen_token = True
            elif not line or _is_ws_line(line):
                if line:
                    self._add(1, "FORMAT", "pseudo-empty-line", lineno,
                              "Spurious line that appears empty but is not; there are whitespace"
                              " characters.")
                if i != n - 1:
                    self._add(1, "FORMAT", "extra-empty-line", lineno,
                              "Spurious empty line that is not the last line of a sentence.")
                    ok = False
                else:
                    last_empty = True
                    if not seen_token:
                        self._add(1, "FORMAT", "empty-sentence", lineno,
                                  "Sentence must not be empty. Only one empty line is expected"
                                  " after every sentence.")
                        ok = False
            else:
                self._add(1, "FORMAT", "invalid-line", lineno,
                          f"Spurious line: '{line}'. All non-empty lines should start with a"
                          " digit or the # character.")
                ok = False
        if not last_empty:
            self._add(1, "FORMAT", "missing-empty-line", last,
                      "Missing empty line after the sentence.")
            ok = seen_token  # sic: udtools lets a sentence with tokens go on
        self.n_comments = self.sentence_line - first
        return ok

    def _utf(self, line, lineno):
        cols = line.split("\t")
        for i, col in enumerate(cols):
            j = col.find("\ufffd")
            if j >= 0:
                break
        if len(cols) > 1:
            msg = (f"Invalid byte in the UTF-8 encoding: {COLNAMES[i] if i < 10 else i}"
                   f".character[{j}] ('{col}').")
        else:
            msg = f"Invalid byte in the UTF-8 encoding: character[{j}]."
        self._add(1, "UNICODE", "invalid-utf", lineno, msg)

    def _nfc(self, line, lineno):
        if unicodedata.is_normalized("NFC", line):
            return
        norm = unicodedata.normalize("NFC", line)
        tcols, ncols = line.split("\t"), norm.split("\t")
        ci, cj, first, nfc = 0, 0, "", ""
        found = False
        for i, (tc, nc) in enumerate(zip(tcols, ncols)):
            for j, ch in enumerate(tc):
                if j >= len(nc) or ch != nc[j]:
                    ci, cj, found = i, j, True
                    first = _char_name(ch)
                    nfc = _char_name(nc[j]) if j < len(nc) else ""
                    break
            if found:
                break
        where = (f"{COLNAMES[ci] if ci < 10 else ci}.character[{cj}]" if len(tcols) > 1
                 else f"character[{cj}]")
        self._add(1, "UNICODE", "unicode-normalization", lineno,
                  f"Unicode not normalized: {where} is {first}, should be {nfc}.")

    def _columns(self, lines) -> bool:
        end = len(lines) - 1 if (not lines[-1] or _is_ws_line(lines[-1])) else len(lines)
        ok = True
        table = []
        for i, line in enumerate(lines[self.n_comments:end]):
            lineno = self.sentence_line + i
            cols = line.split("\t")
            table.append(cols)
            if len(cols) == 10:
                self._whitespace(cols, lineno, line)
            else:
                self._add(1, "FORMAT", "number-of-columns", lineno,
                          f"The line has {len(cols)} columns but 10 are expected.")
                ok = False
        self.table = table
        return ok

    def _whitespace(self, cols, lineno, line):
        if all(cols) and _RE_WS_NOT_TAB.search(line) is None:
            return  # the usual line: no empty column, no whitespace but the separators
        mwt = _is_mwt(cols)
        for c, val in enumerate(cols):
            has_ws = _RE_WS_START.search(val) is not None
            if mwt and c in (FORM, LEMMA) and has_ws:
                self._add(1, "FORMAT", "invalid-whitespace-mwt", lineno,
                          f"White space not allowed in multi-word token '{val}'. If it contains"
                          " a space, it is not a single surface token.")
            elif c in (ID, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS) and has_ws:
                self._add(1, "FORMAT", "invalid-whitespace", lineno,
                          f"White space not allowed in column {COLNAMES[c]}: '{val}'.")
            elif not val:
                self._add(1, "FORMAT", "empty-column", lineno,
                          f"Empty value in column {COLNAMES[c]}: '{val}'.")
            else:
                if val[0].isspace():
                    self._add(1, "FORMAT", "leading-whitespace", lineno,
                              f"Leading whitespace not allowed in column {COLNAMES[c]}: '{val}'.")
                if val[-1].isspace():
                    self._add(1, "FORMAT", "trailing-whitespace", lineno,
                              f"Trailing whitespace not allowed in column {COLNAMES[c]}:"
                              f" '{val}'.")
                if _RE_WS2.search(val):
                    self._add(1, "FORMAT", "repeated-whitespace", lineno,
                              "Two or more consecutive whitespace characters not allowed in"
                              f" column {COLNAMES[c]}: '{val}'.")

    def _id_sequence(self) -> bool:
        ok = True
        words: List[int] = []
        tokens: List[Tuple[int, int, int]] = []
        current_word, next_empty = 0, 1
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            word, mwt, empty = _is_word(cols), _RE_MWTID.fullmatch(cols[ID]), _is_empty(cols)
            if not (word or mwt or empty):
                self._add(1, "FORMAT", "invalid-word-id", lineno,
                          f"Unexpected ID format '{cols[ID]}'.")
                ok = False
                continue
            if not empty:
                next_empty = 1
            if word:
                t = int(cols[ID])
                current_word = t
                words.append(t)
                if not (tokens and tokens[-1][0] <= t <= tokens[-1][1]):
                    tokens.append((t, t, lineno))
            elif mwt:
                beg, end = int(mwt.group(1)), int(mwt.group(2))
                if not ((not words and beg >= 1) or (words and beg >= words[-1] + 1)):
                    self._add(1, "FORMAT", "misplaced-word-interval", lineno,
                              "Multiword range not before its first word.")
                    ok = False
                    continue
                tokens.append((beg, end, lineno))
            else:
                major, minor = _id_tuple(cols[ID])
                if major != current_word or minor != next_empty:
                    self._add(1, "FORMAT", "misplaced-empty-node", lineno,
                              f"Empty node id {cols[ID]}, expected {current_word}.{next_empty}")
                    ok = False
                next_empty += 1
                if major == current_word and tokens and major < tokens[-1][0]:
                    self._add(1, "FORMAT", "misplaced-empty-node", lineno,
                              f"Empty node id {cols[ID]} must occur before multiword token"
                              f" {tokens[-1][0]}-{tokens[-1][1]}.")
                    ok = False
        expected = ",".join(str(x) for x in range(1, len(words) + 1))
        got = ",".join(str(x) for x in words)
        if got != expected:
            self._add(1, "FORMAT", "word-id-sequence", self.sentence_line,
                      f"Words do not form a sequence. Got '{got}'. Expected '{expected}'.")
            ok = False
        for b, e, lineno in tokens:
            if e < b:
                self._add(1, "FORMAT", "reversed-word-interval", lineno,
                          f"Spurious token interval {b}-{e}")
                ok = False
            elif b < 1 or e > len(words):
                self._add(1, "FORMAT", "word-interval-out", lineno,
                          f"Spurious token interval {b}-{e} (out of range)")
                ok = False
        return ok

    def _range_overlaps(self) -> bool:
        ok = True
        covered: Set[int] = set()
        for i, cols in enumerate(self.table):
            m = _RE_MWTID.fullmatch(cols[ID])
            if not m:
                continue
            span = set(range(int(m.group(1)), int(m.group(2)) + 1))
            if covered & span:
                self._add(1, "FORMAT", "overlapping-word-intervals", self.sentence_line + i,
                          f"Range overlaps with others: {cols[ID]}")
                ok = False
            covered |= span
        return ok

    # ---- level 2 ----------------------------------------------------------------------------
    def _level2(self, lines):
        if not self._id_references() or not self._tree():
            return
        safe = True
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            word, mwt, empty = _is_word(cols), _is_mwt(cols), _is_empty(cols)
            if mwt:
                for c in range(LEMMA, MISC):
                    if not (c == FEATS and cols[c] == "Typo=Yes") and cols[c] != "_":
                        self._add(2, "FORMAT", "mwt-nonempty-field", lineno,
                                  "A multi-word token line must have '_' in the column"
                                  f" {COLNAMES[c]}. Now: '{cols[c]}'.")
            if empty:
                for c in (HEAD, DEPREL):
                    if cols[c] != "_":
                        self._add(2, "FORMAT", "empty-node-nonempty-field", lineno,
                                  f"An empty node must have '_' in the column {COLNAMES[c]}."
                                  f" Now: '{cols[c]}'.")
            if word or empty:
                if not (empty and cols[UPOS] == "_") and (
                        not _RE_UPOS.fullmatch(cols[UPOS]) or cols[UPOS] not in UPOS_TAGS):
                    self._add(2, "MORPHO", "unknown-upos", lineno,
                              f"Unknown UPOS tag: '{cols[UPOS]}'.")
                if cols[XPOS] == "":
                    self._add(2, "MORPHO", "empty-string-in-xpos", lineno,
                              "Unspecified XPOS must be encoded as an underscore ('_'), the field"
                              " must not be empty.")
                safe = self._feats(cols[FEATS], lineno) and safe
                if word:
                    self._deprel(cols[DEPREL], lineno)
                self._deps_format(cols, lineno)
            self._misc(cols[MISC], lineno)
        if not safe:
            return
        self._deps_all_or_none()
        comments = lines[:self.n_comments]
        self._sent_id(comments)
        self._parallel_id(comments)
        self._text(comments)
        self._egraph_connected()

    def _id_references(self) -> bool:
        ok = True
        ids = {cols[ID] for cols in self.table if _is_word(cols) or _is_empty(cols)}
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            if _is_mwt(cols):
                continue
            if not _is_empty(cols):
                if not _RE_HEAD.fullmatch(cols[HEAD]):
                    self._add(2, "FORMAT", "invalid-head", lineno,
                              f"Invalid HEAD: '{cols[HEAD]}'.")
                    ok = False
                if not (cols[HEAD] in ids or cols[HEAD] == "0"):
                    self._add(2, "SYNTAX", "unknown-head", lineno,
                              f"Undefined HEAD (no such ID): '{cols[HEAD]}'.")
                    ok = False
            deps = _deps_list(cols[DEPS])
            if deps is None:
                self._add(2, "FORMAT", "invalid-deps", lineno,
                          f"Failed to parse DEPS: '{cols[DEPS]}'.")
                ok = False
                continue
            for head, _rel in deps:
                if not _RE_EHEAD.fullmatch(head):
                    self._add(2, "FORMAT", "invalid-ehead", lineno,
                              f"Invalid enhanced head reference: '{head}'.")
                    ok = False
                if not (head in ids or head == "0"):
                    self._add(2, "ENHANCED", "unknown-ehead", lineno,
                              f"Undefined enhanced head reference (no such ID): '{head}'.")
                    ok = False
        return ok

    def _tree(self) -> bool:
        children: Dict[int, List[int]] = {}
        n_words = 0
        for i, cols in enumerate(self.table):
            if not _is_word(cols):
                continue
            n_words += 1
            node, head = int(cols[ID]), int(cols[HEAD])
            if head == node:
                self._add(2, "SYNTAX", "head-self-loop", self.sentence_line + i,
                          f"HEAD == ID for {cols[ID]}")
                return False
            children.setdefault(head, []).append(node)
        roots = sorted(set(children.get(0, [])))
        if len(roots) > 1:
            self._add(2, "SYNTAX", "multiple-roots", self.sentence_line,
                      f"Multiple root words: {roots}")
            return False
        reached: Set[int] = set()
        stack = [0]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    stack.append(child)
        unreachable = sorted(set(range(1, n_words + 1)) - reached)
        if unreachable:
            self._add(2, "SYNTAX", "non-tree", self.sentence_line,
                      f"Non-tree structure. Words {','.join(map(str, unreachable))} are not"
                      " reachable from the root 0.")
            return False
        return True

    def _feats(self, feats: str, lineno: int) -> bool:
        if feats == "_":
            return True
        add = lambda tid, msg: self._add(2, "MORPHO", tid, lineno, msg)  # noqa: E731
        flist = feats.split("|")
        lower = [f.lower() for f in flist]
        if lower != sorted(lower):
            add("unsorted-features", f"Morphological features must be sorted: '{feats}'.")
        names = set()
        safe = True
        for f in flist:
            m = _RE_FEATVAL.fullmatch(f)
            if m is None:
                add("invalid-feature", f"Spurious morphological feature: '{f}'. Should be of the"
                    " form Feature=Value and must start with [A-Z] and only contain [A-Za-z0-9].")
                names.add(f)
                safe = False
                continue
            names.add(m.group(1))
            values = m.group(2).split(",")
            if len(values) != len(set(values)):
                add("repeated-feature-value", f"Repeated feature values are disallowed: '{feats}'")
            lv = [v.lower() for v in values]
            if lv != sorted(lv):
                add("unsorted-feature-values",
                    f"If a feature has multiple values, these must be sorted: '{f}'")
            for v in values:
                if not _RE_VAL.fullmatch(v):
                    add("invalid-feature-value", f"Spurious value '{v}' in '{f}'. Must start with"
                        " [A-Z0-9] and only contain [A-Za-z0-9].")
        if len(names) != len(flist):
            add("repeated-feature", f"Repeated features are disallowed: '{feats}'.")
        return safe

    def _deprel(self, deprel: str, lineno: int):
        if not _RE_DEPREL.fullmatch(deprel):
            self._add(2, "SYNTAX", "invalid-deprel", lineno,
                      f"Invalid DEPREL value '{deprel}'. Only lowercase English letters or a colon"
                      " are expected.")
            return
        udep = deprel.split(":", 1)[0]
        if udep not in UD_RELATIONS and not (udep == "ref" and self.ref_is_udeprel):
            self._add(2, "SYNTAX", "unknown-udeprel", lineno,
                      f"Unknown main DEPREL type: '{udep}'.")

    def _deps_format(self, cols, lineno: int):
        if cols[DEPS] == "_":
            return
        edeps = _deps_list(cols[DEPS]) or []
        heads = [_id_tuple(h) for h, _ in edeps]
        if heads != sorted(heads):
            self._add(2, "FORMAT", "unsorted-deps", lineno,
                      f"DEPS not sorted by head index: '{cols[DEPS]}'.")
        else:
            lasth = lastd = None
            for h, d in edeps:
                if h == lasth:
                    if d < lastd:
                        self._add(2, "FORMAT", "unsorted-deps-2", lineno,
                                  f"DEPS pointing to head '{h}' not sorted by relation type:"
                                  f" '{cols[DEPS]}'.")
                    elif d == lastd:
                        self._add(2, "FORMAT", "repeated-deps", lineno,
                                  f"DEPS contain multiple instances of the same relation"
                                  f" '{h}:{d}'.")
                lasth, lastd = h, d
        if _id_tuple(cols[ID]) in heads:
            self._add(2, "ENHANCED", "deps-self-loop", lineno,
                      f"Self-loop in DEPS for '{cols[ID]}'")
        self.ref_is_udeprel = True  # udtools adds 'ref' to its shared relation set here
        for head, rel in edeps:
            if not _valid_edeprel(rel):
                self._add(2, "ENHANCED", "invalid-edeprel", lineno,
                          f"Invalid enhanced relation type: '{cols[DEPS]}'.")
            else:
                udep = rel.split(":", 1)[0]
                if udep not in UD_RELATIONS and udep != "ref":
                    self._add(2, "ENHANCED", "unknown-eudeprel", lineno,
                              f"Unknown main relation type '{udep}' in '{head}:{rel}'.")

    def _misc(self, misc: str, lineno: int):
        if misc == "_":
            return
        warn = lambda tid, msg: self._add(2, "FORMAT", tid, lineno, msg, "warning")  # noqa: E731
        counts: Dict[str, int] = {}
        for item in misc.split("|"):
            ma = item.split("=", 1)
            if ma[0] == "":
                if len(ma) == 1:
                    warn("empty-misc", "Empty attribute in MISC; possible misinterpreted vertical"
                         " bar?")
                else:
                    warn("empty-misc-key", f"Empty MISC attribute name in '{ma[0]}={ma[1]}'.")
            if len(ma) == 1:
                ma.append("")
            key, val = ma
            if _RE_WS_START.match(key):
                warn("misc-extra-space", f"MISC attribute name starts with space in '{key}={val}'.")
            elif _RE_WS_END.search(key):
                warn("misc-extra-space", f"MISC attribute name ends with space in '{key}={val}'.")
            elif _RE_WS_START.match(val):
                warn("misc-extra-space",
                     f"MISC attribute value starts with space in '{key}={val}'.")
            elif _RE_WS_END.search(val):
                warn("misc-extra-space", f"MISC attribute value ends with space in '{key}={val}'.")
            if _MISC_SINGLE.fullmatch(key):
                counts[key] = counts.get(key, 0) + 1
            elif _MISC_TYPO.fullmatch(key):
                warn("misc-attr-typo",
                     f"Possible typo (case or spaces) in MISC attribute '{key}={val}'.")
        for key, n in counts.items():
            if n > 1:
                self._add(2, "FORMAT", "repeated-misc", lineno,
                          f"MISC attribute '{key}' not supposed to occur twice")

    def _deps_all_or_none(self):
        exists = any(_is_empty(c) or c[DEPS] != "_" for c in self.table if not _is_mwt(c))
        line = self.sentence_line
        if exists:
            if not self.seen_enhanced_graph:
                self.seen_enhanced_graph = line
                if self.seen_tree_without_enhanced_graph:
                    self._add(2, "ENHANCED", "edeps-only-sometimes", line,
                              "Enhanced graph must be empty because we saw empty DEPS on line"
                              f" {self.seen_tree_without_enhanced_graph}")
        elif not self.seen_tree_without_enhanced_graph:
            self.seen_tree_without_enhanced_graph = line
            if self.seen_enhanced_graph:
                self._add(2, "ENHANCED", "edeps-only-sometimes", line,
                          "Enhanced graph cannot be empty because we saw non-empty DEPS on line"
                          f" {self.seen_enhanced_graph}")

    def _meta(self, testid, message, line=None):
        self._add(2, "METADATA", testid, self.sentence_line if line is None else line, message)

    def _sent_id(self, comments):
        matched = []
        for c in comments:
            m = _RE_SENTID.fullmatch(c)
            if m:
                matched.append(m.group(1))
            elif c.startswith("# sent_id") or c.startswith("#sent_id"):
                self._meta("invalid-sent-id", f"Spurious sent_id line: '{c}' should look like"
                           " '# sent_id = xxxxx' where xxxxx is not whitespace. Forward slash"
                           " reserved for special purposes.")
        if not matched:
            self._meta("missing-sent-id", "Missing the sent_id attribute.")
        elif len(matched) > 1:
            self._meta("multiple-sent-id", "Multiple sent_id attributes.")
        else:
            sid = matched[0]
            if sid in self.known_sent_ids:
                self._meta("non-unique-sent-id", f"Non-unique sent_id attribute '{sid}'.")
            if sid.count("/") > 1:  # one slash is allowed with --lang ud
                self._meta("slash-in-sent-id", "The forward slash is reserved for special use in"
                           f" parallel treebanks: '{sid}'")
            self.known_sent_ids.add(sid)

    def _parallel_id(self, comments):
        matched = []
        for c in comments:
            m = _RE_PARALLELID.fullmatch(c)
            if m:
                matched.append(m)
            elif c.startswith("# parallel_id") or c.startswith("#parallel_id"):
                self._meta("invalid-parallel-id", f"Spurious parallel_id line: '{c}' should look"
                           " like '# parallel_id = corpus/sentence' where corpus is [a-z]+ and"
                           " sentence is [-0-9a-z]. Optionally, '/alt[1-9][0-9]*' and/or"
                           " 'part[1-9][0-9]*' may follow.")
        if len(matched) > 1:
            self._meta("multiple-parallel-id", "Multiple parallel_id attributes.")
            return
        if not matched:
            return
        m = matched[0]
        pid = m.group(1)
        if pid in self.known_parallel_ids:
            self._meta("non-unique-parallel-id", f"Non-unique parallel_id attribute '{pid}'.")
        else:
            sid = m.group(2) + "/" + m.group(3)
            alt = part = None
            if m.group(4):
                ap = _RE_ALTPART.fullmatch(m.group(4))
                if ap:
                    alt = int(ap.group(1)) if ap.group(1) else None
                    part = int(ap.group(2)) if ap.group(2) else None
            for name, value, last in (("alt", alt, self.parallel_lastalt),
                                      ("part", part, self.parallel_lastpart)):
                tid = f"parallel-id-{name}"
                if sid in last:
                    prev = last[sid]
                    if (prev is None) != (value is None):
                        self._meta(tid, f"Some instances of parallel sentence '{sid}' have the"
                                   f" '{name}' suffix while others do not.")
                    elif value is not None and value != prev + 1:
                        self._meta(tid, f"The {name} suffix of parallel sentence '{sid}' should"
                                   f" be {prev}+1 but it is {value}.")
                elif value is not None and value != 1:
                    self._meta(tid, f"The {name} suffix of parallel sentence '{sid}' should be 1"
                               f" but it is {value}.")
                last[sid] = value
        self.known_parallel_ids.add(pid)

    def _text(self, comments):
        newdoc = [c for c in comments if _RE_NEWDOC.fullmatch(c)]
        newpar = [c for c in comments if _RE_NEWPAR.fullmatch(c)]
        texts = [m.group(1) for m in map(_RE_TEXT.fullmatch, comments) if m]
        if len(newdoc) > 1:
            self._meta("multiple-newdoc", "Multiple newdoc attributes.")
        if len(newpar) > 1:
            self._meta("multiple-newpar", "Multiple newpar attributes.")
        if (newdoc or newpar) and self.spaceafterno_in_effect:
            self._meta("spaceafter-newdocpar", "New document or paragraph starts when the last"
                       " token of the previous sentence says SpaceAfter=No.")
        if not texts:
            self._meta("missing-text", "Missing the text attribute.")
            return
        if len(texts) > 1:
            self._meta("multiple-text", "Multiple text attributes.")
            return
        stext = texts[0]
        if not stext:
            self._meta("empty-text", "The text attribute must not be empty.")
        elif stext[-1].isspace():
            self._meta("text-trailing-whitespace", "The text attribute must not end with"
                       " whitespace.")
        skip: Set[str] = set()
        mismatch_reported = False
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            misc = cols[MISC]
            if "NoSpaceAfter=Yes" in misc:
                self._meta("nospaceafter-yes", "'NoSpaceAfter=Yes' should be replaced with"
                           " 'SpaceAfter=No'.")
            if any(x.startswith("SpaceAfter=") and x != "SpaceAfter=No" for x in misc.split("|")):
                self._meta("spaceafter-value", "Unexpected value of the 'SpaceAfter' attribute in"
                           " MISC. Did you mean 'SpacesAfter'?", lineno)
            if _is_empty(cols):
                if "SpaceAfter=No" in misc:
                    self._meta("spaceafter-empty-node", "'SpaceAfter=No' cannot occur with empty"
                               " nodes.", lineno)
                continue
            if _is_mwt(cols):
                beg, end = cols[ID].split("-")
                skip.update(str(k) for k in range(int(beg), int(end) + 1))
            elif cols[ID] in skip:
                if "SpaceAfter=No" in misc:
                    self._meta("spaceafter-mwt-node", "'SpaceAfter=No' cannot occur with words"
                               " that are part of a multi-word token.", lineno)
                continue
            form = cols[FORM]
            if not stext.startswith(form):
                if not mismatch_reported:
                    extra = (" (perhaps extra SpaceAfter=No at previous token?)"
                             if stext[:1].isspace() else "")
                    self._meta("text-form-mismatch", "Mismatch between the text attribute and the"
                               f" FORM field. Form[{cols[ID]}] is '{form}' but text is"
                               f" '{stext[:len(form) + 20]}...'" + extra, lineno)
                    mismatch_reported = True
            else:
                stext = stext[len(form):]
                if "SpaceAfter=No" in misc.split("|"):
                    self.spaceafterno_in_effect = True
                else:
                    self.spaceafterno_in_effect = False
                    if stext and not stext[0].isspace():
                        self._meta("missing-spaceafter", "'SpaceAfter=No' is missing in the MISC"
                                   f" field of node {cols[ID]} because the text is"
                                   f" '{_shorten(form + stext)}'.", lineno)
                    stext = stext.lstrip()
        if stext:
            self._meta("text-extra-chars", "Extra characters at the end of the text attribute,"
                       f" not accounted for in the FORM fields: '{stext}'")

    def _egraph_connected(self):
        nodes = [c for c in self.table if not _is_mwt(c)]
        exists = False
        children: Dict[str, Set[str]] = {"0": set()}
        ids = []
        lines = {}
        for i, cols in enumerate(self.table):
            if _is_mwt(cols):
                continue
            lines[cols[ID]] = self.sentence_line + i
            parents = [h for h, _ in (_deps_list(cols[DEPS]) or [])]
            if _is_empty(cols) or parents:
                exists = True
            ids.append(cols[ID])
            children.setdefault(cols[ID], set())
            for p in parents:
                children.setdefault(p, set()).add(cols[ID])
        if not exists or not nodes:
            return
        reached: Set[str] = set()
        stack = ["0"]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    stack.append(child)
        unreachable = sorted(set(ids) - reached)
        if unreachable:
            self._add(2, "ENHANCED", "unconnected-egraph", lines[unreachable[0]],
                      f"Enhanced graph is not connected. Nodes {unreachable} are not reachable"
                      " from any root")


def validate_lines(lines: Iterable[str], path: str, level: int = 2,
                   state: Optional[Validator] = None) -> Iterator[ValidationIncident]:
    """Validate CoNLL-U text and yield every incident, sentence by sentence.

    ``lines`` is the text as a stream of strings *with* their line terminators, e.g. a file
    opened with ``newline=""``, ``text.splitlines(keepends=True)`` or arbitrary chunks: the
    items are concatenated and re-split on LF, CRLF and lone CR (udtools reads with Python's
    universal newlines; CR and CRLF also give ``non-unix-newline``).  ``level`` < 1 counts as 1.
    ``state`` carries sent_ids etc. over from earlier files of the same run (its own level is
    used then).  Memory: the current sentence plus the ids seen so far.
    """
    v = state if state is not None else Validator(level)
    v.path = path
    non_unix: Optional[Tuple[int, str]] = None  # the first line not ending in LF, its terminator
    lineno = 0
    sentence: List[str] = []
    first = 1
    bom_hint: Optional[str] = None
    for line, term in _lines_with_terminators(lines):
        lineno += 1
        if term and term != "\n" and non_unix is None:
            non_unix = (lineno, term)
        if lineno == 1 and line.startswith("\ufeff"):
            bom_hint = BOM_HINT
        if not sentence:
            first = lineno
        sentence.append(line)
        if not line or _is_ws_line(line):
            yield from _with_hint(v.sentence(sentence, first, lineno), bom_hint, 1)
            bom_hint = None  # only the first sentence holds line 1
            sentence = []
    if sentence:
        yield from _with_hint(v.sentence(sentence, first, lineno), bom_hint, 1)
    if non_unix is not None:
        yield ValidationIncident(1, "FORMAT", "non-unix-newline", path, lineno, v.sent_id,
                                 "Only the unix-style LF line terminator is allowed.",
                                 hint=NEWLINE_HINTS[non_unix[1]].format(line=non_unix[0]))


def _decoded_chunks(stream: BinaryIO, size: int = 1 << 16,
                    progress: Optional[Callable[[int], None]] = None) -> Iterator[str]:
    """UTF-8 text of a binary stream in chunks (a stream of :func:`conll_eval.reader.open_input`,
    which raises InputErrors); bad bytes become U+FFFD (see invalid-utf).  ``progress`` is
    called with the number of (decompressed) bytes read so far, every 4 MB."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    done = 0
    while True:
        data = stream.read(size)
        if progress is not None:
            done += len(data)
            if done % PROGRESS_BYTES < len(data):
                progress(done)
        if not data:
            tail = decoder.decode(b"", final=True)
            if tail:
                yield tail
            return
        text = decoder.decode(data)
        if text:
            yield text


def _sniffed_hint(head: bytes, whole: bool) -> Tuple[Optional[str], Optional[int]]:
    """(hint, last line it may go to) for a file that is obviously not CoNLL-U (another
    encoding, an archive, Markdown...), from its first bytes; (None, None) otherwise."""
    found = describe_non_conllu(head, whole)
    return (None, None) if found is None else (found[1], found[2])


#: how often (bytes read) :func:`iter_validate_file` reports progress
PROGRESS_BYTES = 4 << 20


def iter_validate_file(path: str, level: int = 2, state: Optional[Validator] = None,
                       progress: Optional[Callable[[int], None]] = None
                       ) -> Iterator[ValidationIncident]:
    """Stream the incidents of a CoNLL-U file ('-' = stdin) in udtools' order.

    gzip, bzip2 and xz files are decompressed on the fly (line numbers count the
    decompressed text).  A missing, unreadable or non-regular file, or a closed standard
    input, raises :class:`conll_eval.errors.FormatError` (codes ``file-not-found``,
    ``not-a-file``, ``unreadable``) before the first incident; corrupt compressed data
    raises ``corrupt-compressed-file`` where it is met.  ``progress(bytes_read)`` is called
    now and then (decompressed bytes) for a progress display.
    """
    stream, head = open_input(path, SNIFF_BYTES)
    with stream:
        hint, last_line = _sniffed_hint(head, len(head) < SNIFF_BYTES)
        chunks = _decoded_chunks(stream, progress=progress)
        yield from _with_hint(validate_lines(chunks, path, level, state), hint, last_line)


def validate_bytes(data: bytes, path: str, level: int = 2, state: Optional[Validator] = None
                   ) -> Iterator[ValidationIncident]:
    """Like :func:`iter_validate_file` for a file's bytes already in memory (e.g. standard
    input, which can be read only once): decompressed when compressed, then validated."""
    data = decompress(data, path)
    hint, last_line = _sniffed_hint(data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES)
    text = data.decode("utf-8", "replace")
    yield from _with_hint(validate_lines([text], path, level, state), hint, last_line)


def iter_validate_files(paths: Sequence[str], level: int = 2) -> Iterator[ValidationIncident]:
    """Stream the incidents of several files validated together (sent_ids unique across them)."""
    state = Validator(level)
    for path in paths:
        yield from iter_validate_file(path, level, state)


def validate_file(path: str, level: int = 2) -> List[ValidationIncident]:
    """Every incident of a CoNLL-U file ('-' = stdin), in udtools' order."""
    return list(iter_validate_file(path, level))
