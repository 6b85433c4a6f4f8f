"""The compiled scan's glue: the Cython pass over a piece (``_cscan.scan_piece``) turned into a Piece.

It keeps the compiled string tables with the vocabulary, so that a second file read into the
same vocabulary interns only its new strings; its result equals :mod:`conll_eval.io.scan_numpy`'s.
"""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ..compiled import cscan as _cscan  # None: the numpy path (not built, or CONLL_EVAL_PURE)
from ..treebank import Vocab
from .columns import Columns, Piece
from .scan_numpy import scan_piece_numpy

__all__ = ["scan_piece_compiled"]


class _LocalCodes:
    """Compiled string tables (one per name of ``_cscan.TABLES``) and, per table, the
    vocabulary code of each id.  They stay with the vocabulary (:meth:`Vocab.reader_state`):
    a system file read into the gold's vocabulary finds most of its strings in them, and
    only its new ones go through Python."""

    def __init__(self):
        self.tables = tuple(_cscan.StringTable() for _ in _cscan.TABLES)
        self.tag_combos = _cscan.TagCombos()  # ids in three of ``tables``
        self.codes = [np.zeros(0, dtype=np.int32) for _ in _cscan.TABLES]

    def update(self, vocab: Vocab) -> List[np.ndarray]:
        """Interns the strings added since the last call (table by table, in their order);
        per table: local id -> code."""
        for k, table in enumerate(self.tables):
            if len(table) > len(self.codes[k]):
                self.codes[k] = np.concatenate([self.codes[k],
                                                vocab.encode_table(table, len(self.codes[k]))])
        return self.codes


#: the file's columns (see :class:`~.scan_pieces._WholeFile`) the scan writes straight into,
#: in the order of ``_cscan.INTO_COLUMNS`` and then the word columns: (name, dtype, unit)
INTO_FILE = tuple((name, np.bool_ if name.endswith("is_mwt") else np.int32,
                   "tok" if name.startswith("tok") else "word")
                  for name in _cscan.INTO_COLUMNS) + \
    tuple(("cols:" + name, np.int32, "word") for name in _cscan.WORD_COLUMNS) \
    if _cscan is not None else ()


def scan_piece_compiled(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                         vocab: Vocab, known: dict) -> Optional[Piece]:
    """:func:`~conll_eval.io.scan_numpy.scan_piece_numpy`'s result from the compiled pass
    (``_cscan.scan_piece``).  With ``known["file"]`` (the file's columns being joined) its
    token and word columns (:data:`INTO_FILE`) are written straight into the file's, and the
    piece says so (``in_file``)."""
    shared = known.setdefault("vocabulary", {})  # what stays with ``vocab`` (see _LocalCodes)
    local = shared.get("compiled")
    if local is None:
        local = shared["compiled"] = _LocalCodes()
    scratch = known.setdefault("scratch", {})  # the scan's working arrays, for the file's pieces
    unicode_spaces = {r"\p{Zs}": True, " ": False}.get(space.pattern)
    if unicode_spaces is None:  # a space pattern the compiled scan does not know
        return scan_piece_numpy(arr, lo, hi, line_offset, space, vocab, known)
    whole = known.get("file")
    if whole is None:  # the piece's own arrays
        found = _cscan.scan_piece(arr, lo, hi, line_offset, local.tables, unicode_spaces, scratch,
                                  local.tag_combos, True)
    else:  # the other arrays are views of the scratch ones, copied by the file before the next scan
        newlines = _cscan.count_newlines(arr[lo:hi])
        into = whole.room(INTO_FILE, _cscan.content_lines_bound(hi - lo, newlines))  # a token or word a content line
        offsets = whole.offsets
        found = _cscan.scan_piece(arr, lo, hi, line_offset, local.tables, unicode_spaces, scratch,
                                  local.tag_combos, False, into, offsets["word"], offsets["tok"],
                                  offsets["sent"], newlines)
    if found is None:
        return None
    return _piece(found, local.update(vocab), whole is not None)


def _piece(found: dict, codes: List[np.ndarray], in_file: bool) -> Piece:
    """The Piece of what ``_cscan.scan_piece`` found, its ids turned into vocabulary ``codes``
    (per table: local id -> code) where they are."""
    tok_len = found["tok_char_len"]
    spaced_tok_form = codes[_cscan.TABLES.index("spaced_tok_form")][found["spaced_tok_form"]]
    n_sent, n_words, n_tokens = found["n_sent"], found["n_words"], found["n_tokens"]
    c = Columns()
    c.text = None  # decoded once per file (_WholeFile): the UTF-8 is ``piece.text_utf8``
    c.tok_len = tok_len
    c.tok_line = found["tok_line"]
    c.tok_is_mwt = found["tok_is_mwt"]
    c.word_tok = found["word_tok"]
    c.spaced_tok, c.spaced_tok_form = found["spaced_tok"], spaced_tok_form
    c.word_is_mwt = found["word_is_mwt"]
    c.word_line = found["word_line"]
    c.word_sent = found["word_sent"]
    c.head = found["head"]  # word indices (-1: the root), as the numpy scan's
    for ids, table in zip((found["mwt_form"],) + found["word_cols"],
                          (codes[_cscan.TABLES.index("mwt_form")],) +
                          tuple(codes[:len(_cscan.WORD_COLUMNS)])):
        if not _cscan.remap_in_place(ids, table):  # the piece's or the file's: rewritable
            raise AssertionError("the scan gave an id its table does not have")
    c.mwt_form = found["mwt_form"]
    c.cols = {} if in_file else dict(zip(_cscan.WORD_COLUMNS, found["word_cols"]))
    n_chars = found["n_chars"]
    c.sent_word_start = found["sent_word_start"]
    c.sent_char_start = found["sent_char_start"]  # a sentence ends where the next one starts
    c.sent_char_end = np.append(c.sent_char_start[1:], n_chars)
    c.sent_first_line = found["sent_first_line"]
    c.sent_end_line = found["sent_end_line"]
    c.empty_sent = found["empty_sent"]
    c.empty_after = found["empty_after"]
    c.empty_line = found["empty_line"]
    empty_cols = found["empty_cols"]
    empty_codes = codes[_cscan.TABLES.index("empty")]
    c.empty_cols = {name: empty_codes[empty_cols[k]]
                    for k, name in enumerate(_cscan.EMPTY_COLUMNS)}
    piece = Piece()
    piece.columns = c
    piece.in_file = in_file
    piece.tails = (found["tail_start"], found["tail_end"])
    piece.comments = (found["comment_start"], found["comment_end"])
    piece.comment_sentence = found["comment_sent"]
    piece.text_utf8 = found["text"]
    piece.n_lines, piece.n_sent, piece.n_words = found["n_lines"], n_sent, n_words
    piece.n_tokens, piece.n_chars = n_tokens, int(n_chars)
    return piece
