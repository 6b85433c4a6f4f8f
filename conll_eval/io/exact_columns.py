"""What the exact CoNLL-U parser keeps while it reads: one list per column, turned into Columns at the end.

:class:`ColumnLists` only stores (tokens, words, empty nodes, sentence bounds); every check and
every error is the parser's (:mod:`conll_eval.io.exact_parser`).
"""
from __future__ import annotations

from typing import Dict, List, Optional

from .columns import Columns
from .profiles import DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, XPOS

__all__ = ["COLUMN_NAMES", "EMPTY_NAMES", "ColumnLists"]

#: string columns kept per word: name -> CoNLL-U column index
COLUMN_NAMES = {"form": FORM, "lemma": LEMMA, "upos": UPOS, "xpos": XPOS, "feats": FEATS,
                "deprel": DEPREL, "deps": DEPS, "misc": MISC}
#: string columns kept per empty node
EMPTY_NAMES = {"id": ID, **COLUMN_NAMES}


class ColumnLists:
    """The columns read so far, as Python lists (the exact parser handles irregular files only,
    where speed matters less than following the official reader line by line)."""

    def __init__(self):
        self.forms: List[str] = []  # the tokens' FORMs, joined into the text at the end
        self.index = 0  # characters of text so far
        self.tok_len: List[int] = []
        self.tok_line: List[int] = []
        self.tok_is_mwt: List[bool] = []
        self.word_tok: List[int] = []
        self.word_is_mwt: List[bool] = []
        self.word_line: List[int] = []
        self.word_sent: List[int] = []
        self.head_text: List[str] = []  # each word's HEAD as written
        self.heads: List[int] = []
        self.cols: Dict[str, List[str]] = {name: [] for name in COLUMN_NAMES}
        self.empty_cols: Dict[str, List[str]] = {name: [] for name in EMPTY_NAMES}
        self.empty_sent: List[int] = []
        self.empty_after: List[int] = []
        self.empty_line: List[int] = []
        self.sent_word_start: List[int] = []
        self.sent_char_start: List[int] = []
        self.sent_char_end: List[int] = []
        self.sent_first_line: List[int] = []
        self.sent_end_line: List[int] = []
        self.sent_ids: List[Optional[str]] = []
        self.sent_texts: List[Optional[str]] = []
        self.spaced_tok: List[int] = []  # tokens whose FORM lost spaces, and that FORM as written
        self.spaced_tok_form: List[str] = []

    def open_sentence(self, lineno: int, sent_id: Optional[str], text: Optional[str]) -> int:
        """A sentence starts at line ``lineno``; the index of its first word."""
        start = len(self.heads)
        self.sent_word_start.append(start)
        self.sent_char_start.append(self.index)
        self.sent_first_line.append(lineno)
        self.sent_ids.append(sent_id)
        self.sent_texts.append(text)
        return start

    def close_sentence(self, lineno: int) -> None:
        """The sentence read last ends at the blank line ``lineno``."""
        self.sent_char_end.append(self.index)
        self.sent_end_line.append(lineno)

    def add_empty_node(self, columns: List[str], lineno: int) -> None:
        """An empty node's line, kept aside (after the words read so far)."""
        self.empty_sent.append(len(self.sent_word_start) - 1)
        self.empty_after.append(len(self.heads))
        self.empty_line.append(lineno)
        for name, col in EMPTY_NAMES.items():
            self.empty_cols[name].append(columns[col])

    def add_token(self, form: str, written: str, lineno: int, is_mwt: bool) -> int:
        """A token (``form`` without the profile's spaces; ``written``: as in the file); its index."""
        token = len(self.tok_len)
        if form != written:
            self.spaced_tok.append(token)  # this token, as written (for "written_form")
            self.spaced_tok_form.append(written)
        self.forms.append(form)
        self.tok_len.append(len(form))
        self.tok_line.append(lineno)
        self.tok_is_mwt.append(is_mwt)
        self.index += len(form)
        return token

    def add_word(self, token: int, in_mwt: bool, lineno: int, columns: List[str], head: int) -> None:
        """A word of ``token`` (its line split into ``columns``; ``head``: HEAD as an integer,
        0 until resolved inside a multi-word token)."""
        self.word_tok.append(token)
        self.word_is_mwt.append(in_mwt)
        self.word_line.append(lineno)
        self.word_sent.append(len(self.sent_word_start) - 1)
        self.head_text.append(columns[HEAD])
        self.heads.append(head)
        for name, col in COLUMN_NAMES.items():
            self.cols[name].append(columns[col])

    def columns(self) -> Columns:
        """Everything read, as the :class:`~conll_eval.scan.Columns` that the Treebank is built from."""
        c = Columns()
        c.text = "".join(self.forms)
        c.tok_len, c.tok_line, c.tok_is_mwt = self.tok_len, self.tok_line, self.tok_is_mwt
        c.word_tok, c.word_is_mwt = self.word_tok, self.word_is_mwt
        c.word_line, c.word_sent = self.word_line, self.word_sent
        c.head = self.heads
        c.cols = self.cols
        c.sent_word_start = self.sent_word_start + [len(self.heads)]
        c.sent_char_start, c.sent_char_end = self.sent_char_start, self.sent_char_end
        c.sent_first_line, c.sent_end_line = self.sent_first_line, self.sent_end_line
        c.metadata = (self.sent_ids, self.sent_texts)
        c.empty_sent, c.empty_after, c.empty_line = self.empty_sent, self.empty_after, self.empty_line
        c.empty_cols = self.empty_cols
        c.spaced_tok, c.spaced_tok_form = self.spaced_tok, self.spaced_tok_form
        return c
