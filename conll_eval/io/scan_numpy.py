"""The numpy scan of one piece of a regular CoNLL-U file: IDs, HEADs and string columns as arrays.

The reference for the compiled scan (:mod:`conll_eval.io.scan_compiled`), and the path when the
core is not built: no Python object per field except the distinct strings it interns.
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from ..treebank import Vocab
from .columns import (COLUMN_INDEX, DASH, DOT, EMPTY_COLUMN_INDEX, HASH, LAZY_COLUMNS, NEWLINE, TAB,
                      Columns, Piece)
from .lazy_fields import gather, split_fields

__all__ = ["scan_piece_numpy", "is_forest_acyclic", "WORD_FIELD_MAX"]

_CHUNK = 1 << 22


def _positions(arr: np.ndarray, byte: int, lo: int = 0, hi: Optional[int] = None) -> np.ndarray:
    """Sorted positions of ``byte`` in ``arr[lo:hi]`` (absolute; int32 when ``arr`` is under
    2 GiB), found slice by slice so no large temporary is needed."""
    hi = len(arr) if hi is None else hi
    position_type = np.int32 if len(arr) < 2 ** 31 - 1 else np.int64
    parts = [np.flatnonzero(arr[a:min(a + _CHUNK, hi)] == byte).astype(position_type) + position_type(a)
             for a in range(lo, hi, _CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=position_type)



def _encode_fields(vocab: Vocab, arr, start, end, known: Optional[dict] = None
                   ) -> np.ndarray:
    """Codes of the fields ``[start, end)``.

    Fields of up to :data:`WORD_FIELD_MAX` bytes become ``W`` 64-bit integers (their bytes,
    zero-padded; ``W`` = 1, 2, 4 or 8, by length) read straight from the file's bytes, and
    are grouped by a hash table whose every hit is verified against the stored integers and
    the length, so a collision can only send a field to the slow path, never give it a wrong
    code.  Longer fields and collisions are interned one bytes object at a time.  ``known``
    (W -> :class:`_KnownKeys`, one dict per column) remembers the codes across the pieces of
    a file (the same strings come back in every piece).
    """
    length = (end - start).astype(np.int64)
    codes = np.empty(len(length), dtype=np.int32)
    slow = np.ones(len(length), dtype=bool)
    size = np.maximum(length, 1)  # an empty field goes with the one-word group
    limit = 0
    for n_words in (1, 2, 4, 8):  # fields of different lengths never match: one group each
        group = (size > limit) & (size <= 8 * n_words) & (start <= len(arr) - 8 * n_words)
        limit = 8 * n_words
        rows = np.flatnonzero(group)
        if len(rows) == 0:
            continue
        group_known = (known.setdefault(n_words, _KnownKeys(n_words)) if known is not None
                       else None)
        word_codes = _intern_words(vocab, arr, start[rows].astype(np.int64), length[rows],
                                   n_words, group_known)
        codes[rows] = word_codes
        slow[rows[word_codes >= 0]] = False
    rows = np.flatnonzero(slow)
    if len(rows):
        joined, _ = gather(arr, start[rows], end[rows])
        codes[rows] = vocab.encode_bytes(split_fields(joined))
    return codes


#: fields up to this many bytes are interned through their integer keys (8 words)
WORD_FIELD_MAX = 64
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_HASH_BITS = 21  # at most 2M buckets
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))


class _KnownKeys:
    """Codes of fields already interned, by their exact keys (length and W integers).

    Kept sorted by a 64-bit mix of the keys; a hit needs the mix, the length and every
    integer equal, so it is exact.  Two keys with the same mix: only one is kept, the other
    is looked up in the Vocab each time (still exact).  One instance per width ``n_words``.
    """

    def __init__(self, n_words: int):
        self.mix = np.zeros(0, dtype=np.uint64)
        self.length = np.zeros(0, dtype=np.int64)
        self.keys = np.zeros((0, n_words), dtype=np.uint64)
        self.code = np.zeros(0, dtype=np.int32)

    def find(self, mix, length, keys) -> np.ndarray:
        """Codes (-1 = unknown)."""
        if len(self.mix) == 0:
            return np.full(len(mix), -1, dtype=np.int32)
        at = np.minimum(np.searchsorted(self.mix, mix), len(self.mix) - 1)
        hit = (self.mix[at] == mix) & (self.length[at] == length) & \
            np.all(self.keys[at] == keys, axis=1)
        return np.where(hit, self.code[at], -1).astype(np.int32)

    def add(self, mix, length, keys, code) -> None:
        mixes = np.concatenate([self.mix, mix])
        order = np.argsort(mixes, kind="stable")
        self.mix = mixes[order]
        self.length = np.concatenate([self.length, length])[order]
        self.keys = np.concatenate([self.keys, keys])[order]
        self.code = np.concatenate([self.code, code])[order]


def _intern_words(vocab: Vocab, arr: np.ndarray, start: np.ndarray, length: np.ndarray,
                  n_words: int, known: Optional[_KnownKeys] = None) -> np.ndarray:
    """Codes of fields of at most ``8 * n_words`` bytes that start at least that many bytes
    before the end of ``arr``; -1 = not decided (a hash collision)."""
    # the field's bytes as n_words little-endian integers, zero-padded (one array per word)
    windows = np.ndarray((len(arr) - 7,), dtype="<u8", buffer=arr, strides=(1,))
    words = []
    mixed = length.astype(np.uint64) * _MIX[0]
    for j in range(n_words):
        word = windows[start + 8 * j]
        rest = length - 8 * j
        if len(rest) and rest.min() < 8:  # some fields end inside this word: keep only theirs
            word &= _LOW_BYTES[np.clip(rest, 0, 8)]
        words.append(word)
        mixed = (mixed ^ word) * _MIX[1]
        mixed ^= mixed >> np.uint64(29)
    bits = min(_HASH_BITS, max(8, int(len(start)).bit_length() + 1))
    bucket = (mixed >> np.uint64(64 - bits)).astype(np.int32)
    owner = np.full(1 << bits, -1, dtype=np.int32)
    owner[bucket] = np.arange(len(start), dtype=np.int32)
    first = owner[bucket]
    # exact: the length and every stored integer must be equal
    same = length[first] == length
    for word in words:
        same &= word[first] == word
    used = np.flatnonzero(np.bincount(first[same], minlength=len(start)))
    code_of_owner = np.full(len(start), -1, dtype=np.int32)
    used_codes = (known.find(mixed[used], length[used], np.stack([w[used] for w in words], 1))
                  if known is not None else np.full(len(used), -1, dtype=np.int32))
    new = np.flatnonzero(used_codes < 0)
    if len(new):
        rows = used[new]
        starts, lengths = start[rows].tolist(), length[rows].tolist()
        used_codes[new] = vocab.encode_bytes([arr[a:a + n].tobytes() for a, n in zip(starts, lengths)])
        if known is not None:
            known.add(mixed[rows], length[rows], np.stack([w[rows] for w in words], 1),
                      used_codes[new])
    code_of_owner[used] = used_codes
    return np.where(same, code_of_owner[first], -1).astype(np.int32)



def _parse_uint(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> Optional[np.ndarray]:
    """Non-empty ASCII-digit fields (at most 9 digits) as int64, else None."""
    length = end - start
    if len(length) == 0:
        return np.zeros(0, dtype=np.int64)
    if length.min() < 1 or length.max() > 9:
        return None
    value = np.zeros(len(length), dtype=np.int64)
    last = len(arr) - 1
    for j in range(int(length.max())):  # digit j from the left, where the field has one
        active = length > j
        digit = arr[np.minimum(start + j, last)].astype(np.int16) - 48
        if np.any(active & ((digit < 0) | (digit > 9))):
            return None
        value = np.where(active, value * 10 + digit, value)
    return value


def _id_shape(arr: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Per ID field: has a '.', number of '-', position of the first '-' (or None if IDs are long)."""
    length = end - start
    width = int(length.max()) if len(length) else 0
    if width > 16:
        return None
    has_dot = np.zeros(len(length), dtype=bool)
    n_dash = np.zeros(len(length), dtype=np.int64)
    first_dash = np.full(len(length), -1, dtype=np.int64)
    last = len(arr) - 1
    for j in range(width):
        active = length > j
        byte = arr[np.minimum(start + j, last)]
        has_dot |= active & (byte == DOT)
        dash = active & (byte == DASH)
        first_dash = np.where(dash & (first_dash < 0), start + j, first_dash)
        n_dash += dash
    return has_dot, n_dash, first_dash


def is_forest_acyclic(parent: np.ndarray) -> bool:
    """True when following ``parent`` (-1 = root) from every word reaches a root."""
    n = len(parent)
    if n == 0:
        return True
    pointer = np.where(parent < 0, np.arange(n), parent)
    is_root = parent < 0
    for _ in range(int(np.ceil(np.log2(n + 1))) + 1):  # pointer doubling
        nxt = pointer[pointer]
        if np.array_equal(nxt, pointer):
            break
        pointer = nxt
    return bool(np.all(is_root[pointer]))



def _token_text(arr: np.ndarray, form_start: np.ndarray, form_end: np.ndarray, space,
                vocab: Vocab, known: dict):
    """The tokens' text (FORMs joined, the profile's ``space`` characters removed), their
    lengths in characters, and the tokens that lost characters with their FORMs as written;
    None when a FORM is empty or all space."""
    joined, byte_len = gather(arr, form_start, form_end)
    if np.any(byte_len == 0):
        return None
    continuation = (joined & 0xC0) == 0x80  # UTF-8 continuation bytes: not characters
    cont_before = np.zeros(len(continuation) + 1, dtype=np.int32 if len(joined) < 2 ** 31 else np.int64)
    np.cumsum(continuation, out=cont_before[1:])
    field_end = np.cumsum(byte_len + 1) - 1  # index of each field's separator
    char_len = byte_len - (cont_before[field_end] - cont_before[field_end - byte_len])
    del continuation, cont_before, field_end
    joined_text = joined.tobytes().decode("utf-8")
    # concurrent: the regex module releases the GIL while matching (the other file's thread runs)
    if not space.search(joined_text, concurrent=True):
        return (joined_text.replace("\n", ""), char_len, np.zeros(0, dtype=np.int32),
                np.zeros(0, dtype=np.int32))
    removed = np.fromiter((m.start() for m in space.finditer(joined_text, concurrent=True)),
                          dtype=np.int64)
    separator_at = np.cumsum(char_len + 1) - 1  # character index of each separator
    tok_len = char_len - np.bincount(np.searchsorted(separator_at, removed), minlength=len(char_len))
    if np.any(tok_len == 0):
        return None
    text = space.sub("", joined_text, concurrent=True).replace("\n", "")
    # the FORMs as written of the tokens that lost characters (for "written_form")
    spaced_tok = np.flatnonzero(tok_len != char_len).astype(np.int32)
    spaced_tok_form = _encode_fields(vocab, arr, form_start[spaced_tok], form_end[spaced_tok],
                                     known.setdefault("spaced_tok_form", {}))
    return text, tok_len, spaced_tok, spaced_tok_form


class _Lines:
    """A piece's lines: where each starts and ends, which are blank, comments or content
    (word, range or empty-node lines), and the nine tabs of each content line."""

    __slots__ = ("n_lines", "line_start", "line_end", "hashed", "block", "blank_at", "content_idx",
                 "cs", "ce", "tab_at")

    def field(self, k: int) -> Tuple[np.ndarray, np.ndarray]:
        """Start and end of column ``k`` (0-9) on every content line."""
        start = self.cs if k == 0 else self.tab_at[:, k - 1] + 1
        end = self.ce if k == 9 else self.tab_at[:, k]
        return start, end


def _piece_lines(arr: np.ndarray, lo: int, hi: int) -> Optional[_Lines]:
    """The lines of ``arr[lo:hi]``; None when a comment follows a word line in its sentence,
    a blank line has no sentence before it, or a content line has not 10 columns."""
    newline = _positions(arr, NEWLINE, lo, hi)
    n_lines = len(newline)
    # a blank first line, or two blank lines in a row (newlines two bytes apart across three):
    # not regular, found before the per-line arrays below (a piece of blank lines would need
    # tens of bytes of them a byte)
    if n_lines and (newline[0] == lo or np.any(newline[2:] - newline[:-2] == 2)):
        return None
    line_start = np.empty(n_lines, dtype=newline.dtype)
    line_start[0] = lo
    line_start[1:] = newline[:-1] + 1
    line_end = newline
    empty = line_start == line_end
    hashed = arr[line_start] == HASH
    content = ~empty & ~hashed
    # a '#' line is a comment iff no content line precedes it in its blank-line block
    block = np.cumsum(empty, dtype=np.int32)
    content_count = np.cumsum(content, dtype=np.int32)
    blank_at = np.flatnonzero(empty)
    block_base = np.zeros(len(blank_at) + 2, dtype=np.int32)
    block_base[1:len(blank_at) + 1] = content_count[blank_at]
    before = content_count - content - block_base[block - empty]
    if np.any(hashed & (before > 0)):
        return None
    previous_is_content = np.concatenate([[False], content[:-1]])
    if not np.all(previous_is_content[blank_at]):
        return None  # blank line without a sentence before it
    del before, content_count, block_base, previous_is_content  # bound peak memory

    content_idx = np.flatnonzero(content).astype(np.int32)
    n_body = len(content_idx)
    if n_body == 0:
        return None
    cs, ce = line_start[content_idx], line_end[content_idx]
    tabs = _positions(arr, TAB, lo, hi)
    if len(tabs) == 9 * n_body:
        # the usual file: no tab outside word lines, so line i owns tabs 9i..9i+8 when each of
        # its ninth and first tab lies inside it (a view, no copy)
        tab_at = tabs.reshape(n_body, 9)
        if np.any(tab_at[:, 0] < cs) or np.any(tab_at[:, 8] >= ce):
            return None
    else:
        first_tab = np.searchsorted(tabs, cs)
        if np.any(np.searchsorted(tabs, ce) - first_tab != 9):
            return None
        tab_at = tabs[first_tab[:, None] + np.arange(9)]
        del first_tab
    del tabs
    lines = _Lines()
    lines.n_lines, lines.line_start, lines.line_end, lines.hashed = n_lines, line_start, line_end, hashed
    lines.block, lines.blank_at, lines.content_idx = block, blank_at, content_idx
    lines.cs, lines.ce, lines.tab_at = cs, ce, tab_at
    return lines


def _multiword_words(arr: np.ndarray, lines: _Lines):
    """Which content lines are empty nodes, range lines and words inside a multi-word token:
    ``(is_empty_node, is_range, mwt_word)``; None unless every range ``a-b`` is followed by
    exactly its b-a+1 plain word lines."""
    id_start, id_end = lines.field(0)
    shape = _id_shape(arr, id_start, id_end)
    if shape is None:
        return None
    is_empty_node, n_dash, first_dash = shape
    is_range = (n_dash > 0) & ~is_empty_node
    n_body = len(lines.content_idx)
    range_pos = np.flatnonzero(is_range)
    mwt_word = np.zeros(n_body, dtype=bool)
    if len(range_pos):
        if np.any(n_dash[range_pos] != 1):
            return None
        dash_at = first_dash[range_pos]
        first = _parse_uint(arr, id_start[range_pos], dash_at)
        last = _parse_uint(arr, dash_at + 1, id_end[range_pos])
        if first is None or last is None:
            return None
        span = last - first + 1
        if np.any(span <= 0):
            return None
        ends = range_pos + 1 + span
        if np.any(ends > n_body):
            return None
        cover = np.zeros(n_body + 1, dtype=np.int32)
        np.add.at(cover, range_pos + 1, 1)
        np.add.at(cover, ends, -1)
        covered = np.cumsum(cover[:-1], dtype=np.int32)
        del cover
        if np.any(covered > 1) or np.any(covered[range_pos] != 0):
            return None
        # consumed lines: the next physical lines, plain word lines
        if np.any(lines.content_idx[ends - 1] - lines.content_idx[range_pos] != span):
            return None
        mwt_word = covered == 1
        del covered
        if np.any(mwt_word & (is_empty_node | is_range)):
            return None
    return is_empty_node, is_range, mwt_word


def _sentence_trees(arr: np.ndarray, lines: _Lines, is_word: np.ndarray, mwt_word: np.ndarray):
    """The words' sentences and parents, checked: ``(sent_of_body, word_body, word_sent,
    sent_word_start, parent)``; None unless each blank line ends one sentence whose plain
    word IDs run 1, 2, ... and whose HEADs make one tree with one root."""
    sent_blocks, sent_of_body = np.unique(lines.block[lines.content_idx], return_inverse=True)
    sent_of_body = sent_of_body.astype(np.int32)
    n_sent = len(sent_blocks)
    if n_sent != len(lines.blank_at):
        return None
    word_body = np.flatnonzero(is_word).astype(np.int32)
    n_words = len(word_body)
    if n_words == 0:
        return None
    word_sent = sent_of_body[word_body]
    sent_word_start = np.searchsorted(word_sent, np.arange(n_sent + 1))
    position = np.arange(1, n_words + 1, dtype=np.int32) - sent_word_start[word_sent].astype(np.int32)
    plain = ~mwt_word[word_body]
    id_start, id_end = lines.field(0)
    plain_body = word_body[plain]
    word_ids = _parse_uint(arr, id_start[plain_body], id_end[plain_body])
    if word_ids is None or np.any(word_ids != position[plain]):
        return None
    head_start, head_end = lines.field(6)
    head = _parse_uint(arr, head_start[word_body], head_end[word_body])
    if head is None:
        return None
    sent_len = np.diff(sent_word_start)
    if np.any(head > sent_len[word_sent]):
        return None
    if np.any(np.bincount(word_sent[head == 0], minlength=n_sent) != 1):
        return None
    parent = np.where(head == 0, -1, sent_word_start[word_sent] + head - 1)
    if not is_forest_acyclic(parent):
        return None
    return sent_of_body, word_body, word_sent, sent_word_start, parent


def scan_piece_numpy(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                     vocab: Vocab, known: dict) -> Optional[Piece]:
    """The reference scan of a piece, numpy over the bytes (see
    :func:`conll_eval.io.scan_pieces.scan_piece`)."""
    lines = _piece_lines(arr, lo, hi)
    if lines is None:
        return None
    kinds = _multiword_words(arr, lines)
    if kinds is None:
        return None
    is_empty_node, is_range, mwt_word = kinds
    is_word = ~is_empty_node & ~is_range
    is_token = ~is_empty_node & ~mwt_word
    trees = _sentence_trees(arr, lines, is_word, mwt_word)
    if trees is None:
        return None
    sent_of_body, word_body, word_sent, sent_word_start, parent = trees
    n_sent, n_words = len(lines.blank_at), len(word_body)
    plain = ~mwt_word[word_body]
    content_idx, blank_at, field = lines.content_idx, lines.blank_at, lines.field

    # tokens: FORMs with the profile's spaces removed
    token_body = np.flatnonzero(is_token).astype(np.int32)
    form_start, form_end = field(1)
    tokens = _token_text(arr, form_start[token_body], form_end[token_body], space, vocab, known)
    if tokens is None:
        return None
    text, tok_len, spaced_tok, spaced_tok_form = tokens
    token_of_body = np.cumsum(is_token, dtype=np.int32) - 1
    word_tok = token_of_body[word_body]

    c = Columns()
    c.text = text
    c.tok_len = tok_len
    c.tok_line = content_idx[token_body] + (line_offset + 1)
    c.tok_is_mwt = is_range[token_body]
    c.word_tok = word_tok
    c.spaced_tok, c.spaced_tok_form = spaced_tok, spaced_tok_form
    c.word_is_mwt = ~plain
    c.word_line = content_idx[word_body] + (line_offset + 1)
    c.word_sent = word_sent
    c.head = parent
    c.mwt_form = np.full(n_words, -1, dtype=np.int32)
    mwt_body = word_body[~plain]
    if len(mwt_body):
        start, end = field(1)
        c.mwt_form[~plain] = _encode_fields(vocab, arr, start[mwt_body], end[mwt_body],
                                            known.setdefault("mwt_form", {}))
    c.cols = {}
    for name, k in COLUMN_INDEX.items():
        if name == "form":
            continue  # derived from the text and mwt_form on first use
        if name not in LAZY_COLUMNS:
            start, end = field(k)
            c.cols[name] = _encode_fields(vocab, arr, start[word_body], end[word_body],
                                          known.setdefault(name, {}))
    tok_end = np.cumsum(tok_len)
    tok_start = tok_end - tok_len
    token_sent = sent_of_body[token_body]
    first_tok = np.searchsorted(token_sent, np.arange(n_sent))
    last_tok = np.searchsorted(token_sent, np.arange(n_sent), side="right") - 1
    c.sent_word_start = sent_word_start
    c.sent_char_start = tok_start[first_tok]
    c.sent_char_end = tok_end[last_tok]
    c.sent_first_line = content_idx[np.searchsorted(sent_of_body, np.arange(n_sent))] + (line_offset + 1)
    c.sent_end_line = blank_at + (line_offset + 1)
    empty_body = np.flatnonzero(is_empty_node)
    c.empty_sent = sent_of_body[empty_body]
    c.empty_after = np.cumsum(is_word)[empty_body]
    c.empty_line = content_idx[empty_body] + (line_offset + 1)
    c.empty_cols = {}
    for name, k in EMPTY_COLUMN_INDEX.items():
        start, end = field(k)
        c.empty_cols[name] = _encode_fields(vocab, arr, start[empty_body], end[empty_body])
    piece = Piece()
    piece.columns = c
    # DEPS and MISC together (adjacent: the end of each word line), and the comment lines:
    # byte ranges in ``arr``; the caller decides how to keep their bytes
    piece.tails = (lines.tab_at[word_body, 7] + 1, lines.ce[word_body])
    comment_lines = np.flatnonzero(lines.hashed)
    comment_lines = comment_lines[comment_lines < blank_at[-1]]  # after the last sentence: ignored
    piece.comments = (lines.line_start[comment_lines], lines.line_end[comment_lines])
    piece.comment_sentence = np.searchsorted(blank_at, comment_lines)
    piece.n_lines, piece.n_sent, piece.n_words = lines.n_lines, n_sent, n_words
    piece.n_tokens, piece.n_chars = len(tok_len), len(text)
    return piece
