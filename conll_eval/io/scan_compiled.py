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
                new = table.decoded(len(self.codes[k]))
                self.codes[k] = np.concatenate([self.codes[k], vocab.encode(new, distinct=True)])
        return self.codes


def scan_piece_compiled(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                         vocab: Vocab, known: dict) -> Optional[Piece]:
    """:func:`~conll_eval.io.scan_numpy.scan_piece_numpy`'s result from the compiled pass (``_cscan.scan_piece``)."""
    shared = known.setdefault("vocabulary", {})  # what stays with ``vocab`` (see _LocalCodes)
    local = shared.get("compiled")
    if local is None:
        local = shared["compiled"] = _LocalCodes()
    scratch = known.setdefault("scratch", {})  # the scan's working arrays, for the file's pieces
    unicode_spaces = {r"\p{Zs}": True, " ": False}.get(space.pattern)
    if unicode_spaces is None:  # a space pattern the compiled scan does not know
        return scan_piece_numpy(arr, lo, hi, line_offset, space, vocab, known)
    # a file's first piece owns its arrays (a file of one piece keeps them as its columns);
    # later ones are views of the scratch arrays, copied into the file's before the next scan
    own = not known.get("scanned")
    known["scanned"] = True
    found = _cscan.scan_piece(arr, lo, hi, line_offset, local.tables, unicode_spaces, scratch,
                              local.tag_combos, own)
    if found is None:
        return None
    tok_len = found["tok_char_len"]
    codes = local.update(vocab)
    spaced_tok = found["spaced_tok"]
    spaced_tok_form = codes[_cscan.TABLES.index("spaced_tok_form")][found["spaced_tok_form"]]
    n_sent, n_words, n_tokens = found["n_sent"], found["n_words"], found["n_tokens"]
    word_sent = found["word_sent"]
    sent_word_start = found["sent_word_start"]
    head = found["head"]
    c = Columns()
    c.text = None  # decoded once per file (_WholeFile): the UTF-8 is ``piece.text_utf8``
    c.tok_len = tok_len
    c.tok_line = found["tok_line"]
    c.tok_is_mwt = found["tok_is_mwt"]
    c.word_tok = found["word_tok"]
    c.spaced_tok, c.spaced_tok_form = spaced_tok, spaced_tok_form
    c.word_is_mwt = found["word_is_mwt"]
    c.word_line = found["word_line"]
    c.word_sent = word_sent
    c.head = head  # word indices in the piece (-1: the root), as the numpy scan's
    mwt_form = found["mwt_form"]  # the piece's own array, or a view of the scan's: rewritable
    if not _cscan.remap_in_place(mwt_form, codes[_cscan.TABLES.index("mwt_form")]):
        raise AssertionError("the scan gave an id its table does not have")
    c.mwt_form = mwt_form
    word_cols, word_codes = found["word_cols"], tuple(codes[:len(_cscan.WORD_COLUMNS)])
    # a file's first piece translates its ids (a file of one piece keeps them as they are);
    # a later one leaves them to the file, which translates them into its columns
    c.cols = dict(zip(_cscan.WORD_COLUMNS, _cscan.translate(word_cols, word_codes))) if own else {}
    tok_end = np.cumsum(tok_len)
    first_tok = found["sent_first_tok"]
    last_tok = np.append(first_tok[1:], n_tokens) - 1
    c.sent_word_start = sent_word_start
    c.sent_char_start = tok_end[first_tok] - tok_len[first_tok]
    c.sent_char_end = tok_end[last_tok]
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
    if not own:
        piece.word_ids = (word_cols, word_codes)
    piece.tails = (found["tail_start"], found["tail_end"])
    piece.comments = (found["comment_start"], found["comment_end"])
    piece.comment_sentence = found["comment_sent"]
    piece.text_utf8 = found["text"]
    piece.n_lines, piece.n_sent, piece.n_words = found["n_lines"], n_sent, n_words
    piece.n_tokens, piece.n_chars = n_tokens, int(tok_end[-1]) if n_tokens else 0
    return piece
