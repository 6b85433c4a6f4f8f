"""The exact CoNLL-U parser: a line-by-line state machine that mirrors the official reader, errors included.

Irregular files (and every file the fast scan hands over) are read here, one method per kind of
line (comment, blank line ending a sentence, empty node, multi-word token, word), so that the
first error is the one the profile's official script raises, in the same order.
"""
from __future__ import annotations

from typing import Iterable, List, Optional

from .columns import Columns, metadata
from .exact_checks import TreeChecks
from .exact_columns import ColumnLists
from .profiles import FORM, HEAD, ID, official_int, space_pattern

__all__ = ["ExactParser"]


class ExactParser(TreeChecks):
    """``ExactParser(lines, path, profile).run()``: the file's Columns, or the official
    reader's first error.  ``lines`` are read once, in order, and not kept (a
    :class:`~conll_eval.io.lines.LineReader` reads them from the file as they are needed).  ``trees=False`` and ``multiple_roots``: see :func:`conll_eval.reader.load`."""

    def __init__(self, lines: Iterable[str], path: str, profile: str, trees: bool = True,
                 multiple_roots: bool = False):
        self.multiple_roots = multiple_roots
        self._lines = iter(lines)  # read once, in order (a list, or a LineReader's stream)
        self.path = path
        self.profile = profile
        self.trees = trees  # False: HEAD may be _, no tree checks (see load)
        self.space = space_pattern(profile)

    def _read_line(self) -> Optional[str]:
        """The next line (None at the end of the file); ``next_line`` counts the lines read."""
        line = next(self._lines, None)
        if line is not None:
            self.next_line += 1
            if self.next_line == 1:
                self.starts_with_bom = line.startswith("\ufeff")
        return line

    def run(self) -> Columns:
        self.kept = ColumnLists()
        self.next_line = 0  # lines read so far (a multi-word token reads ahead)
        self.sentence_start = None  # the first word of the sentence being read
        self.pending_sent_id = self.pending_text = None
        self.empty_in_mwt = None
        for line in self._lines:  # (a multi-word token reads its word lines from it too)
            self.next_line += 1
            lineno = self.next_line
            if lineno == 1:
                self.starts_with_bom = line.startswith("\ufeff")
            if self.sentence_start is None:
                if line.startswith("#"):
                    if "=" in line:  # else not metadata (most comments of a file of comments)
                        self._comment(line)
                    continue
                self.sentence_start = self.kept.open_sentence(lineno, self.pending_sent_id, self.pending_text)
            if not line:
                self._sentence_end(lineno)
                continue
            columns = line.split("\t")
            if len(columns) != 10:
                raise self._columns_error(lineno, line)
            if "." in columns[ID]:
                self.kept.add_empty_node(columns, lineno)
            elif "-" in columns[ID]:
                self._multiword_token(columns, lineno)
            else:
                self._word(columns, lineno)
        if self.sentence_start is not None:
            raise self._format_error(self.next_line, "missing-final-blank-line",
                                     "the file does not end with an empty line after the last sentence",
                                     "final")
        return self.kept.columns()

    def _comment(self, line: str) -> None:
        """A comment before a sentence: ``sent_id`` and ``text`` are kept for it."""
        meta = metadata(line)
        if meta is not None:
            if meta[0] == "sent_id":
                self.pending_sent_id = meta[1]
            else:
                self.pending_text = meta[1]

    def _sentence_end(self, lineno: int) -> None:
        """The blank line ``lineno`` ends the sentence: its tree is checked now."""
        self._finish_sentence(self.sentence_start, lineno)
        self.kept.close_sentence(lineno)
        self.sentence_start = None
        self.empty_in_mwt = None
        self.pending_sent_id = self.pending_text = None

    def _token(self, columns: List[str], lineno: int, is_mwt: bool):
        """The token of a word or range line: (its FORM without the profile's spaces, its index)."""
        written = form = columns[FORM]
        if self.space.search(form):
            form = self.space.sub("", form)
        if not form:
            raise self._format_error(lineno, "empty-form",
                                     "FORM is empty" + (" after removing spaces" if written else ""),
                                     "empty-form")
        return form, self.kept.add_token(form, written, lineno, is_mwt)

    def _multiword_token(self, columns: List[str], lineno: int) -> None:
        """A multi-word token's range line, then its word lines (read here, as the official
        reader does: whatever the next lines are, they are taken as its words)."""
        _, token = self._token(columns, lineno, True)
        try:
            first, last = map(official_int, columns[ID].split("-"))
        except ValueError as exc:
            raise self._format_error(lineno, "invalid-mwt-id",
                                     f"cannot parse multi-word token ID {columns[ID]!r}",
                                     "mwt-id", id=columns[ID]) from exc
        needed = last - first + 1
        while needed > 0:
            i = self.next_line
            word_text = self._read_line()
            if self.profile == "udeval" and not word_text:  # the end of the file, or a blank line
                raise self._format_error(
                    i, "unfinished-mwt", f"multi-word token {columns[ID]} (line {lineno}) "
                    f"is not followed by its {last - first + 1} word lines", "unfinished-mwt")
            if word_text is None:
                raise self._format_error(
                    lineno, "unfinished-mwt",
                    f"the file ends inside multi-word token {columns[ID]} "
                    f"(its {last - first + 1} word lines are expected next)",
                    "columns", text="", in_mwt=True)
            i = self.next_line
            word_columns = word_text.split("\t")
            if len(word_columns) != 10:
                raise self._columns_error(i, word_text, in_mwt=True)
            if "." in word_columns[ID] and self.profile == "udeval":
                self.kept.add_empty_node(word_columns, i)  # udeval skips it among the words
                continue
            needed -= 1
            if "." in word_columns[ID] and self.empty_in_mwt is None:
                # Taken as one of the token's words, like the official reader does;
                # an error later in this sentence is blamed on this line (_blame).
                self.empty_in_mwt = (i, f"empty node {word_columns[ID]} between multi-word token "
                                        f"{columns[ID]} and its words: empty nodes must not "
                                        f"interrupt a multi-word token")
            self.kept.add_word(token, True, i, word_columns, 0)

    def _word(self, columns: List[str], lineno: int) -> None:
        """A word line outside multi-word tokens: its ID in sequence, its HEAD an integer."""
        form, token = self._token(columns, lineno, False)
        try:
            word_id = official_int(columns[ID])
        except ValueError as exc:
            raise self._format_error(lineno, "invalid-word-id",
                                     f"cannot parse word ID {columns[ID]!r}",
                                     "word-id", id=columns[ID]) from exc
        expected = len(self.kept.heads) - self.sentence_start + 1
        if word_id != expected:
            raise self._format_error(
                lineno, "unexpected-word-id",
                f"word ID {columns[ID]!r} (FORM {form!r}) is out of sequence, expected {expected}",
                "unexpected-id", id=columns[ID], form=form, expected=expected)
        try:
            head = official_int(columns[HEAD])
        except ValueError as exc:
            if not self.trees and columns[HEAD] == "_":
                head = 0  # no tree: the sentence gets no heads (_finish_sentence)
            else:
                raise self._format_error(
                    lineno, "invalid-head", f"cannot parse HEAD {columns[HEAD]!r}: it must "
                    f"be an integer{'' if self.trees else ' or _'}", "head-parse",
                    head=columns[HEAD]) from exc
        if head < 0:
            raise self._format_error(lineno, "negative-head", f"HEAD {head} is negative",
                                     "head-negative")
        columns[FORM] = form
        self.kept.add_word(token, False, lineno, columns, head)
