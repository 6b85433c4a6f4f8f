"""The validator's fast path: blocks of whole sentences go through the compiled screen
(:mod:`conll_eval._cvalidate`), which proves most sentences free of level 1-2 incidents in one
pass over the bytes; those skip the line-by-line checks (their run state is replayed, and from
level 3 on their content checks run as usual), every other sentence takes the line-by-line path.

The screen only ever passes a sentence the line-by-line path would pass too: the field values it
interns are judged here once per distinct value by the line-by-line path's own findings, and the
cross-sentence rules (unique sent_ids, enhanced graphs all or none, SpaceAfter=No before a new
paragraph, delayed feature errors) send a sentence back to that path whenever they could fire.
Incidents, their order and the state left for later files are therefore those of
:class:`conll_eval.validate.backbone.Validator` alone (the tests compare the two paths).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable, Iterator, List, Optional, Tuple

import numpy as np

from ..compiled import cscan, cvalidate
from .backbone import SentenceSplitter, Validator
from .contents import Words
from .screen_content import ContentScreen
from .blocks import TOO_LONG, WHOLE, Cutter
from .incidents import Found, ValidationIncident
from .patterns import UPOS_TAGS, _RE_EHEAD, _RE_PARALLELID, _deps_list
from .tree import _deprel_findings, _deps_findings, _feats_findings, _misc_findings

#: whether the compiled screen is there (else every sentence takes the line-by-line path)
AVAILABLE = cvalidate is not None and cscan is not None
#: bytes read at a time; a block is cut after its last empty line
BLOCK_BYTES = 1 << 20
#: the most of one sentence of mostly word lines held for the screen (a huge sentence: the
#: line-by-line path took 9.2 s and 800 MB on a 1M-word one, 34 MB; the screen 0.4 s and
#: 170 MB); a longer one, or one of mostly comments, goes line by line
SENTENCE_BYTES = 64 << 20
#: distinct values kept per column before its table starts afresh (bounded memory: a column
#: of unique values, such as MISC with a gloss per word, keeps at most a few MB)
TABLE_LIMIT = 1 << 16

if AVAILABLE:
    _FLAG = cvalidate.SENTENCE_FLAGS
    UNCLEAN, HAS_FEATS, HAS_DEPS = _FLAG["unclean"], _FLAG["has_feats"], _FLAG["has_deps"]
    NEWDOC_NEWPAR, SPACEAFTER_NO = _FLAG["newdoc_newpar"], _FLAG["spaceafter_no"]


def _upos_ok(value: str) -> bool:
    return value in UPOS_TAGS


def _feats_ok(value: str) -> bool:
    if value == "_":
        return True
    findings, safe = _feats_findings(value)
    return safe and not findings


def _deprel_ok(value: str) -> bool:
    # judged as before any DEPS ('ref' unknown): the screen never depends on that quirk
    return not _deprel_findings(value, False)


def _deps_ok(value: str) -> bool:
    if value == "_":
        return True
    items = _deps_list(value)
    if items is None or not all(_RE_EHEAD.fullmatch(head) for head, _ in items):
        return False
    order, _heads, relations = _deps_findings(value)
    return not order and not relations


def _misc_ok(value: str) -> bool:
    return value == "_" or not _misc_findings(value)


#: per interned column (the screen's CODE_COLUMNS order): is a value free of findings; None:
#: not judged here (lemmas matter from level 3 on, in screen_content)
_JUDGES: List[Optional[Callable[[str], bool]]] = [_upos_ok, _feats_ok, _deprel_ok, _deps_ok,
                                                  _misc_ok, None]


class _Verdicts:
    """The distinct values of one interned column and, for each, whether it is free of
    findings; index 0 of :attr:`ok` stands for "no such field" (code -1)."""

    def __init__(self, judge: Optional[Callable[[str], bool]]):
        self.judge = judge
        self.table = cscan.StringTable()
        self.ok = np.ones(1 << 10, dtype=bool)
        self.count = 0
        self.values: List[str] = []  # decoded, by code

    def update(self) -> None:
        """Judge the values the last block added."""
        new = self.table.decoded(self.count)
        if not new:
            return
        self.values.extend(new)
        if self.judge is None:
            self.count += len(new)
            return
        end = self.count + 1 + len(new)
        if end > self.ok.shape[0]:
            grown = np.ones(max(end, 2 * self.ok.shape[0]), dtype=bool)
            grown[:self.count + 1] = self.ok[:self.count + 1]
            self.ok = grown
        self.ok[self.count + 1:end] = [self.judge(value) for value in new]
        self.count += len(new)

    def restart_if_full(self) -> None:
        if self.count > TABLE_LIMIT:
            self.table = cscan.StringTable()
            self.count = 0
            self.values = []  # a new list: screen_content sees new codes


#: a code point from U+0300 on (its UTF-8 lead byte); every code point below is in NFC
#: (NFC_Quick_Check=Yes), whatever comes before or after it
_BEYOND_U02FF = re.compile(rb"[\xcc-\xff]")


def _normalized(data: bytes) -> bool:
    """Whether every line of valid UTF-8 text is in NFC.  Line by line, and only the lines
    that may need it: ``unicodedata.is_normalized`` normalizes a whole string as soon as one
    character is a "maybe" (a combining mark), which over a 1 MB block of Finnish took 25 ms."""
    search = _BEYOND_U02FF.search
    found = search(data)
    while found is not None:
        start = data.rfind(b"\n", 0, found.start()) + 1
        end = data.find(b"\n", found.start())
        end = len(data) if end < 0 else end
        if not unicodedata.is_normalized("NFC", data[start:end].decode("utf-8")):
            return False
        found = search(data, end)
    return True


class Screen:
    """Screens the blocks of one file for :func:`validate_blocks`; the tables of distinct
    values live as long as the object."""

    def __init__(self, validator: Validator, splitter: SentenceSplitter):
        self.v = validator
        self.splitter = splitter
        self.verdicts = [_Verdicts(judge) for judge in _JUDGES]
        self.scratch: dict = {}
        self.content = (ContentScreen(validator, lambda k: self.verdicts[k].values)
                        if validator.level >= 3 else None)

    def block(self, data: bytes) -> Iterator[ValidationIncident]:
        """The incidents of ``data``: whole sentences, each ending with an empty line."""
        found = self._screen(data)
        if found is None:
            yield from self.splitter.feed([data.decode("utf-8", "replace")])
            return
        base = self.splitter.lineno
        n_lines = data.count(b"\n")
        bad = self._bad_sentences(found)
        silent = self.content.silent(found, ~bad) if self.content is not None else None
        # lists: a numpy scalar per sentence costs more than the line-by-line path's checks
        # of a sentence with one error (issue 40: files with an error on every line)
        starts, ends = found["start"].tolist(), found["end"].tolist()
        first_lines = found["first_line"]
        n_sentence_lines = np.diff(first_lines, append=n_lines).tolist()
        first_lines = first_lines.tolist()
        bad = bad.tolist()
        silent = silent.tolist() if silent is not None else None
        for s in range(found["n_sentences"]):
            first = base + first_lines[s] + 1
            text = data[starts[s]:ends[s]]
            if not bad[s]:
                if silent is not None and silent[s]:  # no level 3-5 finding: only the state
                    last_word_line = first + n_sentence_lines[s] - 2
                else:
                    last_word_line = None
                incidents = self._screened(found, s, text, first, base, last_word_line)
                if incidents is not None:
                    yield from incidents
                    continue
            lines = text.decode("utf-8").split("\n")[:-1]
            yield from self.v.sentence(lines, first, first + len(lines) - 1)
        self.splitter.lineno = base + n_lines
        for verdicts in self.verdicts:
            verdicts.restart_if_full()

    def _screen(self, data: bytes) -> Optional[dict]:
        """The screen's arrays, or None when the block takes the line-by-line path."""
        if b"\r" in data:
            return None
        if not data.isascii():
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                return None
            if not _normalized(data):
                return None
        tables = tuple(verdicts.table for verdicts in self.verdicts)
        found = cvalidate.screen_block(data, tables, self.scratch)
        if found is not None:
            for verdicts in self.verdicts:
                verdicts.update()
        return found

    def _bad_sentences(self, found: dict) -> np.ndarray:
        """Per sentence: unclean, or a token line with a value that has findings."""
        bad = (found["flags"] & UNCLEAN).astype(bool)
        codes = found["codes"]
        token_bad = np.zeros(codes.shape[1], dtype=bool)
        for k, verdicts in enumerate(self.verdicts):
            if verdicts.judge is not None:
                token_bad |= ~verdicts.ok[codes[k] + 1]
        bad[found["token_sentence"][token_bad]] = True
        return bad

    def _screened(self, found: dict, s: int, text: bytes, first: int, base: int,
                  last_word_line: Optional[int]) -> Optional[List[ValidationIncident]]:
        """The incidents of a clean sentence (from level 3 on), its run state replayed; None
        when a cross-sentence rule could fire (then the line-by-line path decides).
        ``last_word_line``: the sentence has no level 3-5 finding (only the state they keep
        is set)."""
        v = self.v
        flags = int(found["flags"][s])
        sid = text[found["sid_start"][s] - found["start"][s]:
                   found["sid_end"][s] - found["start"][s]].decode("utf-8")
        n_comments = int(found["n_comments"][s])
        sentence_line = first + n_comments
        if v.level >= 2:
            deps = bool(flags & HAS_DEPS)
            if (sid in v.known_sent_ids or sid.count("/") > 1
                    or (flags & NEWDOC_NEWPAR and v.spaceafterno_in_effect)
                    or (deps and not v.seen_enhanced_graph
                        and v.seen_tree_without_enhanced_graph)
                    or (not deps and not v.seen_tree_without_enhanced_graph
                        and v.seen_enhanced_graph)
                    or (flags & HAS_FEATS and not v.seen_morpho_feature and v.delayed)):
                return None
            if found["parallel_start"][s] >= 0:
                v.sentence_line, v.sent_id = sentence_line, sid  # as the check expects
                if not self._parallel_id(found, s, text):
                    return None
            v.known_sent_ids.add(sid)
            if deps:
                v.ref_is_udeprel = True
                if not v.seen_enhanced_graph:
                    v.seen_enhanced_graph = sentence_line
            elif not v.seen_tree_without_enhanced_graph:
                v.seen_tree_without_enhanced_graph = sentence_line
            if found["enhanced_line"][s] >= 0:
                v.seen_enhancement = base + int(found["enhanced_line"][s]) + 1
            if flags & HAS_FEATS and not v.seen_morpho_feature:
                v.seen_morpho_feature = base + int(found["feats_line"][s]) + 1
            v.spaceafterno_in_effect = bool(flags & SPACEAFTER_NO)
        v.sent_id = sid
        v.out = []
        if v.level >= 3 and last_word_line is not None:
            v.last_node_line = last_word_line
        elif v.level >= 3:
            v.sentence_line = sentence_line
            v.n_comments = n_comments
            lines = text.decode("utf-8").split("\n")
            v.table = [line.split("\t") for line in lines[n_comments:-2]]
            words = Words(v.table, sentence_line)
            v._level3_nodes(words)
            v._level3_tree(words)
        return v.out


    def _parallel_id(self, found: dict, s: int, text: bytes) -> bool:
        """Run the parallel_id check of a clean sentence, which keeps its own run state;
        False (the state as before) when it finds something: the sentence then takes the
        line-by-line path, which runs it again."""
        v = self.v
        start = found["start"][s]
        line = text[found["parallel_start"][s] - start:found["parallel_end"][s] - start]
        line = line.decode("utf-8")
        m = _RE_PARALLELID.fullmatch(line)
        if m is None:
            return False
        pid, sid = m.group(1), m.group(2) + "/" + m.group(3)
        known = pid in v.known_parallel_ids
        alt, part = v.parallel_lastalt.get(sid, _ABSENT), v.parallel_lastpart.get(sid, _ABSENT)
        saved, v.out = v.out, []
        v._parallel_id([line])
        found_nothing, v.out = not v.out, saved
        if not found_nothing:
            if not known:
                v.known_parallel_ids.discard(pid)
            for last, before in ((v.parallel_lastalt, alt), (v.parallel_lastpart, part)):
                if before is _ABSENT:
                    last.pop(sid, None)
                else:
                    last[sid] = before
        return found_nothing


_ABSENT = object()  # no entry in a dict


#: blank lines at a sentence start, with the same line end: each is a sentence of its own (a
#: CR before an LF is half of a CRLF, not a line end of its own); empty ones first (a repeated
#: character is matched fast: 1.6 ms for a MB of LFs, where a repeated group takes 50-80)
_LEADING_BLANK_LINES = (re.compile(rb"\n+|(?:\r\n)+|(?:\r(?!\n))+"),
                        re.compile(rb"(?:[ \t]*+\n)+|(?:[ \t]*+\r\n)+|(?:[ \t]*+\r(?!\n))+"))
#: a line end, a blank line (which ends the sentence), then more blank lines (sentences of
#: their own) with the same line end: empty ones, or ones of spaces and tabs too; with CR
#: line ends or without.  Each branch starts with its literal line end, which re searches for
#: fast: 0.8 ms a MB of a treebank, 0.3 for a MB of LFs, 34 for one of lines of a space (an
#: alternation of repeats such as (?:\r\n){3,} took 40 for the treebank)
_BLANK_LINES = {
    False: re.compile(rb"\n(?:\n\n+|(?:[ \t]*+\n){2,})"),
    True: re.compile(rb"\n(?:\n\n+|(?:[ \t]*+\n){2,})"
                     rb"|\r\n(?:\r\n\r\n(?:\r\n)*|(?:[ \t]*+\r\n){2,})"
                     rb"|\r(?!\n)(?:\r\r+(?!\n)|(?:[ \t]*+\r(?!\n)){2,})")}
LF = 10


def validate_blocks(blocks: Iterable[bytes], path: str,
                    validator: Validator) -> Iterator[Found]:
    """The incidents of a file given as raw bytes in pieces of any size, a run of blank lines'
    as one :class:`IncidentRun` (the caller adds the run's end, :meth:`Validator.end_of_run`).
    A line longer than :data:`conll_eval.limits.MAX_LINE_BYTES` ends the file with a
    ``line-too-long`` incident, as :mod:`.blocks` cuts the stream there."""
    validator.path = path
    splitter = SentenceSplitter(validator, path)
    screen = Screen(validator, splitter) if AVAILABLE else None
    cutter = Cutter(BLOCK_BYTES, SENTENCE_BYTES if screen is not None else 0)
    for kind, data in cutter.pieces(blocks):
        if kind == TOO_LONG:  # the bytes before the line, which is dropped
            cut = data.rfind(b"\n\n") + 2  # after its last empty line (1: none)
            if cut >= 2:
                yield from _piece(data[:cut], True, screen, splitter)
                data = data[cut:]
            yield from _piece(data, False, screen, splitter)
            yield splitter.line_too_long(cutter.limit)
        else:
            yield from _piece(data, kind == WHOLE, screen, splitter)
    yield from splitter.finish()


def _piece(data: bytes, whole: bool, screen: Optional[Screen],
           splitter: SentenceSplitter) -> Iterator[Found]:
    """The incidents of a piece (``whole``: it ends with an empty line), each run of blank
    sentences as one IncidentRun (:meth:`SentenceSplitter.blank_run`) and the text between
    line by line, or, for the whole sentences of a whole piece, through the screen."""
    start = 0
    if whole and splitter.sentence:  # the rest of a sentence, up to its first possible end
        # (the piece before ended with a line end, so a first LF is an empty line)
        start = 1 if data[:1] == b"\n" else data.find(b"\n\n") + 2
        yield from splitter.feed([data[:start].decode("utf-8", "replace")])
    while not splitter.sentence:
        lead = (_LEADING_BLANK_LINES[0].match(data, start)
                or _LEADING_BLANK_LINES[1].match(data, start))
        if lead is None:
            break
        yield splitter.blank_run(*_blank_lines(lead.group()))
        start = lead.end()
    for run in _BLANK_LINES[b"\r" in data].finditer(data, start):
        found = run.group()
        lead = 2 if found[:2] == b"\r\n" else 1  # the line end before the blank lines
        end = found[:lead]
        first = found.index(end, lead) + len(end)  # the first blank line ends a sentence
        yield from _text(data[start:run.start() + first], whole, screen, splitter)
        yield splitter.blank_run(*_blank_lines(found[first:]))
        start = run.end()
    if start < len(data):
        yield from _text(data[start:], whole, screen, splitter)


def _blank_lines(run: bytes) -> Tuple[str, bytes]:
    """(line end, kinds) of blank lines with the same line end: a byte per line, 0 for an
    empty one, 1 for one of spaces and tabs."""
    at = len(run) - len(run.lstrip(b" \t"))  # the first line end
    end = b"\n" if run[at] == LF else b"\r\n" if run[at + 1:at + 2] == b"\n" else b"\r"
    lines = run.count(end)
    if lines * len(end) == len(run):  # empty lines only
        return end.decode(), bytes(lines)
    return end.decode(), bytes(map(bool, run.split(end)[:-1]))


def _text(data: bytes, whole: bool, screen: Optional[Screen],
          splitter: SentenceSplitter) -> Iterator[ValidationIncident]:
    """``whole``: whole sentences from a sentence start, each ending with an empty line."""
    if whole and screen is not None:
        return screen.block(data)
    return splitter.feed([data.decode("utf-8", "replace")])


def validate_byte_stream(blocks: Iterable[bytes], path: str, level: int = 2,
                         state: Optional[Validator] = None, lang: str = "ud",
                         data_dir: Optional[str] = None) -> Iterator[Found]:
    """Like :func:`conll_eval.validate.backbone.validate_lines` for raw bytes (UTF-8; bad
    bytes become U+FFFD, see ``invalid-utf``), through the screen when it is built; a run of
    blank sentences comes as one :class:`IncidentRun`."""
    v = state if state is not None else Validator(level, lang, data_dir)
    yield from validate_blocks(blocks, path, v)
    if state is None:  # this file is the whole run
        yield from v.end_of_run()
