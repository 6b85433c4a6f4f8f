"""The columns a CoNLL-U parser produces (Columns, and a scanned piece's Piece), and the metadata comments.

Both parsers (the scan of regular files and the exact parser) fill a :class:`Columns`, which
:func:`conll_eval.reader.load` freezes into a Treebank; nothing here reads bytes.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

__all__ = ["NEWLINE", "TAB", "HASH", "DASH", "DOT", "COLUMN_INDEX", "EMPTY_COLUMN_INDEX", "LAZY_COLUMNS",
           "Columns", "Piece", "metadata"]

NEWLINE, TAB, HASH, DASH, DOT = 10, 9, 35, 45, 46
#: string columns kept per word: name -> CoNLL-U column index
COLUMN_INDEX = {"form": 1, "lemma": 2, "upos": 3, "xpos": 4, "feats": 5, "deprel": 7,
                "deps": 8, "misc": 9}
EMPTY_COLUMN_INDEX = {"id": 0, **COLUMN_INDEX}
#: interned on first use (basic scoring never looks at them), in this order: the last two
#: columns, kept together as one compact copy (see LazyCodes)
LAZY_COLUMNS = ("deps", "misc")


class Columns:
    """Plain arrays/lists produced by a parser; ``reader._build`` freezes them.

    String columns are lists of ``str`` (to intern), int32 code arrays or
    :class:`LazyCodes`; ``mwt_form`` (codes of the FORMs of words inside
    multi-word tokens, -1 elsewhere) may be None when ``cols`` has ``form``.
    ``spaced_tok`` (ascending token indices) and ``spaced_tok_form`` (their FORMs as
    written: codes or ``str``) list the tokens whose FORM lost the profile's spaces, usually
    none; both may be left unset.
    """

    __slots__ = ("text", "tok_len", "tok_line", "tok_is_mwt", "word_tok", "word_is_mwt", "mwt_form",
                 "word_line", "word_sent", "head", "cols", "sent_word_start", "sent_char_start",
                 "sent_char_end", "sent_first_line", "sent_end_line", "metadata",
                 "empty_sent", "empty_after", "empty_line", "empty_cols",
                 "spaced_tok", "spaced_tok_form")
    # for type checkers (the parsers fill them with arrays, lists or lazy columns)
    text: str
    tok_len: Any
    tok_line: Any
    tok_is_mwt: Any
    word_tok: Any
    word_is_mwt: Any
    mwt_form: Any
    word_line: Any
    word_sent: Any
    head: Any
    cols: dict
    sent_word_start: Any
    sent_char_start: Any
    sent_char_end: Any
    sent_first_line: Any
    sent_end_line: Any
    metadata: Any
    empty_sent: Any
    empty_after: Any
    empty_line: Any
    empty_cols: dict
    spaced_tok: Any
    spaced_tok_form: Any


def metadata(comment: str) -> Optional[Tuple[str, str]]:
    """``# sent_id = X`` / ``# text = Y`` -> (key, value); None for other comments."""
    body = comment[1:].strip()
    for key in ("sent_id", "text"):
        if body.startswith(key):
            rest = body[len(key):].lstrip()
            if rest.startswith("="):
                return key, rest[1:].strip() if key == "sent_id" else rest[1:].lstrip(" ")
    return None



class Piece:
    """What a scan found in one piece of a file; indices local to it (lines absolute).

    ``in_file``: the compiled scan wrote the token and word columns straight into the file's
    (:data:`~conll_eval.io.scan_compiled.INTO_FILE`: their indices are the file's, and
    ``columns.cols`` is empty); the piece's columns of them are views of the file's."""

    __slots__ = ("columns", "tails", "comments", "comment_sentence", "comment_lines", "text_utf8",
                 "n_lines", "n_sent", "n_words", "n_tokens", "n_chars", "in_file")

    def __init__(self):
        self.in_file = False
