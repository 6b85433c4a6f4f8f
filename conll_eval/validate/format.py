"""Level 1 of the UD validator: the CoNLL-U backbone of a sentence (lines, Unicode, columns,
whitespace, the ID sequence and multiword ranges).  Each check may stop the remaining checks of
the sentence, in udtools' order.
"""
from __future__ import annotations

import unicodedata
from typing import List, Tuple

from .patterns import (COLNAMES, DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, UPOS, XPOS, _RE_MWTID,
                       _RE_WS2, _RE_WS_NOT_TAB, _RE_WS_START, _char_name, _id_tuple, _is_empty,
                       _is_mwt, _is_word, _is_ws_line)


#: udtools' message for an empty line that starts a sentence
EMPTY_SENTENCE = ("Sentence must not be empty. Only one empty line is expected after every"
                  " sentence.")
#: udtools' message for a line of whitespace
PSEUDO_EMPTY_LINE = ("Spurious line that appears empty but is not; there are whitespace"
                     " characters.")


class LineChecks:
    """Level 1 checks of a sentence's lines and columns (a mixin of
    :class:`conll_eval.validate.backbone.Validator`, whose state it uses)."""

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
                    self._add(1, "FORMAT", "pseudo-empty-line", lineno, PSEUDO_EMPTY_LINE)
                if i != n - 1:
                    self._add(1, "FORMAT", "extra-empty-line", lineno,
                              "Spurious empty line that is not the last line of a sentence.")
                    ok = False
                else:
                    last_empty = True
                    if not seen_token:
                        self._add(1, "FORMAT", "empty-sentence", lineno, EMPTY_SENTENCE)
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


class IdChecks:
    """Level 1 checks of the ID column: the word sequence, multiword ranges, empty nodes
    (a mixin of :class:`conll_eval.validate.backbone.Validator`)."""

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
        """udtools' check: each multiword range that shares a word with an earlier one is
        reported.  (Ranges are within the words here, not reversed.)  A range overlaps an
        earlier one when its first word is covered or an earlier range starts after that word
        and within the range: found in a time logarithmic per range and word, where udtools'
        set of every range's words costs ranges x words on a sentence of many long ranges."""
        ranges = []
        for i, cols in enumerate(self.table):
            m = _RE_MWTID.fullmatch(cols[ID])
            if m:
                ranges.append((i, int(m.group(1)), int(m.group(2)), cols[ID]))
        if len(ranges) < 2:
            return True
        size = max(end for _, _, end, _ in ranges) + 2
        starts = [0] * size  # a Fenwick tree of the earlier ranges' first words
        uncovered = list(range(size))  # union-find: the first word from p on not yet covered
        ok = True
        for i, beg, end, text in ranges:
            if (_first_uncovered(uncovered, beg) != beg
                    or _count_upto(starts, end) > _count_upto(starts, beg)):
                self._add(1, "FORMAT", "overlapping-word-intervals", self.sentence_line + i,
                          f"Range overlaps with others: {text}")
                ok = False
            at = beg
            while at < size:
                starts[at] += 1
                at += at & -at
            word = _first_uncovered(uncovered, beg)
            while word <= end:  # each word is covered once
                uncovered[word] = word + 1
                word = _first_uncovered(uncovered, word + 1)
        return ok


def _first_uncovered(uncovered: List[int], word: int) -> int:
    """The root of ``word`` in the union-find ``uncovered``, the paths shortened."""
    root = word
    while uncovered[root] != root:
        root = uncovered[root]
    while uncovered[word] != root:
        uncovered[word], word = root, uncovered[word]
    return root


def _count_upto(tree: List[int], word: int) -> int:
    """The Fenwick tree's count of positions 1..word."""
    total = 0
    while word > 0:
        total += tree[word]
        word -= word & -word
    return total
