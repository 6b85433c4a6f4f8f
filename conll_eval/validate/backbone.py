"""The validator's state and driver: :class:`Validator` runs the checks of each level on one
sentence in udtools' order, and :func:`validate_lines` streams text into sentences.  Memory is
bounded: the current sentence plus the ids seen so far across the files of a run.
"""
from __future__ import annotations

import re
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple

from .format import EMPTY_SENTENCE, PSEUDO_EMPTY_LINE, IdChecks, LineChecks
from .incidents import (BOM_HINT, NEWLINE_HINTS, IncidentRun, ValidationIncident, _with_hint,
                        new_incident)
from .metadata import MetadataChecks
from .contents import ContentChecks, Words
from .relations import RelationChecks, SpanChecks
from .language import LanguageChecks
from .langdata import find_data_dir, load_language_data
from .tree import FieldChecks, TreeChecks
from .verdicts import ValueVerdicts
from .patterns import (COLNAMES, DEPREL, FEATS, HEAD, ID, LEMMA, MISC, UPOS, UPOS_TAGS, XPOS,
                       _RE_SENTID, _id_kind, _is_ws_line)


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

class Validator(LineChecks, IdChecks, TreeChecks, FieldChecks, MetadataChecks, ContentChecks,
                RelationChecks, SpanChecks, LanguageChecks, ValueVerdicts):
    """Validation state shared by the files of one run (sent_ids must be unique across files,
    as in udtools); create one per run and pass it to :func:`validate_lines` /
    :func:`iter_validate_file`, or use :func:`iter_validate_files`.  Levels 4-5 check against
    the lists of ``lang`` (an ISO 639 code, or 'ud' for the universal ones) from the UD
    validator's data folder (``data_dir``, else the installed udtools package's; a missing
    one raises UsageError saying how to get it)."""

    def __init__(self, level: int = 2, lang: str = "ud", data_dir: Optional[str] = None):
        self.path = "-"
        self.level = max(1, level)
        # levels 4-5 read the language's lists; below, udtools checks the universal rules only
        self.lang = lang if self.level >= 4 else "ud"
        self.data = (load_language_data(find_data_dir(data_dir), self.lang) if self.level >= 4
                     else None)
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
        self._level3_init()

    def end_of_run(self) -> List[ValidationIncident]:
        """The incidents of udtools' checks after the last file of a run (level 3:
        ``edeps-identical-to-basic-trees``); call once, after the last file."""
        return self._end_of_run()

    def _add(self, level, klass, testid, line, message, severity="error"):
        self.out.append(new_incident(level, klass, testid, self.path, line, self.sent_id,
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

    def _level2(self, lines):
        if not self._id_references() or not self._tree():
            return
        safe = True
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            kind = _id_kind(cols[ID])
            word, mwt, empty = kind == "w", kind == "m", kind == "e"
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
                # (every tag of UPOS_TAGS matches udtools' [A-Z]+, so membership decides)
                if cols[UPOS] not in UPOS_TAGS and not (empty and cols[UPOS] == "_"):
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
        words = Words(self.table, self.sentence_line) if self.level >= 3 else None
        if words is not None:
            self._level3_nodes(words)
        self._egraph_connected()
        if words is not None:
            self._level3_tree(words)



class SentenceSplitter:
    """The line-by-line path of a file: text is split into sentences as udtools reads it (an
    empty or whitespace-only line ends one) and each goes through :meth:`Validator.sentence`.
    Line numbers and the first line not ending in LF are carried over between calls of
    :meth:`feed`, so text may come in pieces (the screen feeds the blocks it refuses)."""

    def __init__(self, validator: "Validator", path: str):
        self.v = validator
        self.path = path
        self.lineno = 0  # lines read so far
        self.non_unix: Optional[Tuple[int, str]] = None  # first line not ending in LF, its end
        self.sentence: List[str] = []
        self.first = 1
        self.bom_hint: Optional[str] = None  # for the sentence holding line 1

    def feed(self, chunks: Iterable[str]) -> Iterator[ValidationIncident]:
        """The incidents of the sentences the text completes (items with their terminators)."""
        for line, term in _lines_with_terminators(chunks):
            self.lineno += 1
            if term and term != "\n" and self.non_unix is None:
                self.non_unix = (self.lineno, term)
            if self.lineno == 1 and line.startswith("\ufeff"):
                self.bom_hint = BOM_HINT
            if not self.sentence:
                self.first = self.lineno
            self.sentence.append(line)
            if not line or _is_ws_line(line):
                yield from self._sentence_done()

    def _sentence_done(self) -> Iterator[ValidationIncident]:
        yield from _with_hint(self.v.sentence(self.sentence, self.first, self.lineno),
                              self.bom_hint, 1)
        self.bom_hint = None
        self.sentence = []

    def blank_run(self, end: str, kinds: bytes) -> IncidentRun:
        """What blank lines ending with ``end`` (LF, CRLF or CR) at a sentence start give, at
        the cost of one: each is a sentence (as udtools reads them), an empty one (kind 0)
        with one ``empty-sentence``, one of spaces and tabs (kind 1) with
        ``pseudo-empty-line`` first; the validator's state is left as
        :meth:`Validator.sentence` leaves it after the last."""
        assert not self.sentence, "a run of blank sentences starts at a sentence start"
        first = self.lineno + 1
        self.lineno += len(kinds)
        if end != "\n" and self.non_unix is None:
            self.non_unix = (first, end)
        v = self.v
        v.out, v.sent_id, v.sentence_line, v.n_comments = [], None, self.lineno, 0
        empty = new_incident(1, "FORMAT", "empty-sentence", self.path, first, None,
                             EMPTY_SENTENCE)
        spaces = new_incident(1, "FORMAT", "pseudo-empty-line", self.path, first, None,
                              PSEUDO_EMPTY_LINE)
        return IncidentRun([[empty], [spaces, empty]], kinds, first)

    def line_too_long(self, limit: int) -> ValidationIncident:
        """The incident of a line longer than ``limit`` bytes after the lines fed so far
        (conll_eval's own, see :data:`~conll_eval.validate.incidents.LIMIT_IDS`); the
        sentence it is in is dropped unchecked: it was cut short, as is the rest of the file."""
        sent_id = None
        for line in self.sentence:
            found = _RE_SENTID.fullmatch(line) if line.startswith("#") else None
            if found:
                sent_id = found.group(1)
        self.sentence = []
        self.bom_hint = None
        self.lineno += 1
        return ValidationIncident(
            1, "FORMAT", "line-too-long", self.path, self.lineno, sent_id,
            f"Line longer than {limit:,} bytes, the limit (CoNLL-U lines are a few kB at most: is"
            " this a CoNLL-U file?); the rest of the file is not checked (to check it, raise"
            " CONLL_EVAL_MAX_LINE_BYTES).")

    def finish(self) -> Iterator[ValidationIncident]:
        """The incidents of an unfinished last sentence and of a non-LF line end (once)."""
        if self.sentence:
            yield from self._sentence_done()
        if self.non_unix is not None:
            yield ValidationIncident(1, "FORMAT", "non-unix-newline", self.path, self.lineno,
                                     self.v.sent_id,
                                     "Only the unix-style LF line terminator is allowed.",
                                     hint=NEWLINE_HINTS[self.non_unix[1]].format(
                                         line=self.non_unix[0]))


def validate_lines(lines: Iterable[str], path: str, level: int = 2,
                   state: Optional[Validator] = None, lang: str = "ud",
                   data_dir: Optional[str] = None) -> Iterator[ValidationIncident]:
    """Validate CoNLL-U text and yield every incident, sentence by sentence.

    ``lines`` is the text as a stream of strings *with* their line terminators, e.g. a file
    opened with ``newline=""``, ``text.splitlines(keepends=True)`` or arbitrary chunks: the
    items are concatenated and re-split on LF, CRLF and lone CR (udtools reads with Python's
    universal newlines; CR and CRLF also give ``non-unix-newline``).  ``level`` < 1 counts as 1.
    ``state`` carries sent_ids etc. over from earlier files of the same run (its own level is
    used then; the caller calls its ``end_of_run`` after the last file); ``lang`` and
    ``data_dir`` as for :class:`Validator`.  Memory: the current
    sentence plus the ids seen so far.
    """
    v = state if state is not None else Validator(level, lang, data_dir)
    v.path = path
    splitter = SentenceSplitter(v, path)
    yield from splitter.feed(lines)
    yield from splitter.finish()
    if state is None:  # this file is the whole run
        yield from v.end_of_run()
