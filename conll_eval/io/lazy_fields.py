"""Lazy columns and metadata: DEPS, MISC and the comments kept as byte ranges, read when first used.

Scoring never needs them, so the scan keeps only where they are (:class:`FieldBytes`), and
:class:`LazyCodes` / :class:`LazyMetadata` intern or parse them on first use.
"""
from __future__ import annotations

import os
from typing import List, Optional, Tuple

import numpy as np

from ..compiled import cscan as _cscan  # None: the numpy path (not built, or CONLL_EVAL_PURE)
from ..errors import FormatError, Location
from ..treebank import Vocab
from .columns import DASH, DOT, HASH, NEWLINE, TAB, metadata

__all__ = ["gather", "split_fields", "line_ends", "word_tail_starts", "FieldBytes",
           "file_identity", "read_unchanged", "LazyCodes", "LazyMetadata"]


def gather(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Bytes of fields ``[start, end)``, each followed by its terminator byte, and the lengths.

    In a CoNLL-U line every field is followed by a tab or by the newline, so taking
    ``[start, end]`` keeps the fields apart; the terminators are set to newlines here.
    """
    length = (end - start).astype(np.int64)
    with_end = length + 1
    total = int(with_end.sum())
    index_type = np.int32 if len(arr) < 2 ** 31 - 1 else np.int64
    first = np.cumsum(with_end) - with_end
    if total == 0:
        return np.zeros(0, dtype=np.uint8), length
    # source index of each output byte: +1 inside a field, a jump at each field's first byte
    step = np.ones(total, dtype=index_type)
    step[first[0]] = start[0]
    step[first[1:]] = start[1:] - end[:-1]
    source = np.cumsum(step, dtype=index_type, out=step)  # in place: one index array only
    out = arr[source]
    del step, source
    out[first + length] = NEWLINE
    return out, length


def split_fields(joined: np.ndarray) -> List[bytes]:
    """The fields of a :func:`gather` result as bytes objects."""
    if len(joined) == 0:
        return []
    return joined[:-1].tobytes().split(b"\n")



def line_ends(source: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The first newline at or after each of ``start`` in ``source`` (``len(source)`` where
    none): the end of a field that runs to the end of its line."""
    if _cscan is not None:
        return _cscan.line_ends(source, start)
    newlines = np.flatnonzero(source == NEWLINE)
    found = np.searchsorted(newlines, start)
    return np.append(newlines, len(source))[found]


def word_tail_starts(source: np.ndarray) -> np.ndarray:
    """Where the DEPS field of every word line of a regular CoNLL-U text starts (after its
    eighth TAB), in order: word lines are neither blank nor comments, with an ID that has
    no '-' (multi-word token) and no '.' (empty node)."""
    if _cscan is not None:
        return _cscan.word_tail_starts(source)
    newlines = np.flatnonzero(source == NEWLINE)
    line_start = np.concatenate(([0], newlines[:-1] + 1)) if len(newlines) else newlines
    first_byte = source[np.minimum(line_start, len(source) - 1)]
    line_start = line_start[(newlines > line_start) & (first_byte != HASH)]
    tabs = np.flatnonzero(source == TAB)
    first_tab = np.searchsorted(tabs, line_start)
    marks = np.flatnonzero((source == DASH) | (source == DOT))
    mark = np.append(marks, len(source))[np.searchsorted(marks, line_start)]
    words = mark > tabs[first_tab]  # no '-' or '.' before the line's first TAB
    return tabs[first_tab[words] + 7].astype(np.int64) + 1


class FieldBytes:
    """Byte ranges ``[start, end)`` of fields, materialised on demand as newline-terminated
    fields (see :func:`gather`); ``end`` None: each field runs to the end of its line;
    ``start`` None as well: the fields are the DEPS and MISC of every word line (see
    :func:`word_tail_starts`), found again in the bytes when first used (what the reader
    keeps of them for a file it can read again: nothing per word).

    The bytes come from ``joined`` (already materialised), from an in-memory ``source``
    array, or from a ``file`` = (path, size, mtime_ns, inode) read again on first use: columns
    that scoring never needs then cost neither time nor memory.  A file that changed since it
    was read raises :class:`~conll_eval.errors.FormatError` (code ``file-changed``).
    """

    def __init__(self, joined: Optional[np.ndarray] = None, source: Optional[np.ndarray] = None,
                 start: Optional[np.ndarray] = None, end: Optional[np.ndarray] = None,
                 file: Optional[tuple] = None):
        self.joined, self.source, self.start, self.end, self.file = joined, source, start, end, file

    def __call__(self) -> np.ndarray:
        if self.joined is None:
            source = self.source if self.file is None else read_unchanged(self.file)
            self.joined = gather(source, *self.ranges(source))[0]
            self.source = self.start = self.end = self.file = None
        return self.joined

    def ranges(self, source: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """``(start, end)`` of the fields in ``source`` (the bytes they are ranges of; not
        materialised yet), as int64."""
        start = word_tail_starts(source) if self.start is None else self.start
        end = line_ends(source, start) if self.end is None else self.end
        return np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)

    def __reduce__(self):
        return (FieldBytes, (self(),))


def file_identity(path: str, handle) -> tuple:
    """What :class:`FieldBytes` checks before reading ``path`` again."""
    st = os.fstat(handle.fileno())
    return (path, st.st_size, st.st_mtime_ns, st.st_ino)


def read_unchanged(file: tuple) -> np.ndarray:
    path = file[0]
    try:
        with open(path, "rb") as handle:
            if file_identity(path, handle) != file:
                raise FormatError(Location(path), "file-changed",
                                  "the file changed after it was read; read it again")
            return np.frombuffer(handle.read(), dtype=np.uint8)
    except OSError as exc:
        raise FormatError(Location(path), "file-changed",
                          f"cannot read the file again: {exc.strerror or exc}") from exc


class LazyCodes:
    """A string column interned on first use (columns basic scores do not need).

    ``tails`` holds the words' DEPS and MISC fields together, one ``DEPS<TAB>MISC`` field per
    word (:class:`FieldBytes`); ``part`` says which of the two this column is (0 = DEPS,
    1 = MISC).  Called with the vocabulary to intern into (the treebank's, at that time).
    """

    def __init__(self, tails: "FieldBytes", part: int):
        self.tails, self.part = tails, part

    def __call__(self, vocab: Vocab) -> np.ndarray:
        part = self.part
        return vocab.encode_bytes([line.split(b"\t", 1)[part] for line in split_fields(self.tails())])

    def __reduce__(self):
        return (LazyCodes, (self.tails, self.part))



_CANONICAL = ((b"# sent_id = ", "sent_id"), (b"# text = ", "text"))


def _may_be_metadata(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """False for comments that cannot be ``sent_id``/``text`` lines: the first character after
    '#' and spaces/tabs is an ASCII character other than 's', 't' or another whitespace."""
    last = len(arr) - 1
    first = np.full(len(start), ord("s"), dtype=np.uint8)  # undecided -> keep
    decided = np.zeros(len(start), dtype=bool)
    for k in range(1, 9):
        byte = arr[np.minimum(start + k, last)]
        inside = start + k < end
        blank = (byte == 32) | (byte == 9)
        take = ~decided & inside & ~blank
        first[take] = byte[take]
        decided |= take | ~inside
    ascii_other = (first < 128) & (first != ord("s")) & (first != ord("t")) & \
        ~np.isin(first, np.frombuffer(b"\x0b\x0c\x1c\x1d\x1e\x1f", dtype=np.uint8))
    return ~ascii_other


class LazyMetadata:
    """``(sent_ids, sent_texts)`` read from the comment lines when first asked for.

    Holds the comment lines (:class:`FieldBytes`) and the sentence each belongs to; with
    ``lines``, each of the fields is a block of that many lines, all of ``sentence``'s
    (see :func:`~conll_eval.io.scan_pieces.comment_blocks`).
    """

    def __init__(self, comments: "FieldBytes", sentence: np.ndarray, n_sent: int,
                 lines: Optional[np.ndarray] = None):
        self.args = (comments, sentence, n_sent, lines)

    def has_comments(self) -> bool:
        """Whether the file has a comment line before some sentence (nothing read)."""
        return bool(len(self.args[1]))

    def __call__(self):
        comments, sentence, n_sent, lines = self.args
        sent_ids, sent_texts = [None] * n_sent, [None] * n_sent
        if len(sentence):
            if lines is not None:
                sentence = np.repeat(sentence, lines)
            comments = comments()
            ends = np.flatnonzero(comments == NEWLINE)
            starts = np.empty_like(ends)
            starts[0] = 0
            starts[1:] = ends[:-1] + 1
            _read_metadata(comments.tobytes(), comments, starts, ends, sentence, sent_ids,
                           sent_texts)
        return sent_ids, sent_texts

    def __reduce__(self):
        return (tuple, (self(),))


def _read_metadata(data: bytes, arr: np.ndarray, start: np.ndarray, end: np.ndarray,
                   sentence: np.ndarray, sent_ids: list, sent_texts: list) -> None:
    """Fill ``sent_ids``/``sent_texts`` from comment lines, as :func:`metadata` reads them.

    Lines with the canonical prefixes are cut out in bulk; others go through
    :func:`metadata` one by one.  The last such comment of a sentence wins.
    """
    other = np.ones(len(start), dtype=bool)
    found = []  # (row, key, value) in bulk, per key
    last = len(arr) - 1
    for prefix, key in _CANONICAL:
        width = len(prefix)
        has = (end - start) >= width
        for k, byte in enumerate(prefix):
            has &= arr[np.minimum(start + k, last)] == byte
        rows = np.flatnonzero(has)
        other &= ~has
        if len(rows) == 0:
            continue
        joined, _ = gather(arr, start[rows] + width, end[rows])
        texts = joined.tobytes().decode("utf-8").split("\n")[:-1]
        texts = [t.strip() for t in texts] if key == "sent_id" else [t.lstrip(" ").rstrip() for t in texts]
        found.append((rows, key, texts))
    rest = np.flatnonzero(other & _may_be_metadata(arr, start, end))
    if len(rest):
        metas = [metadata(data[a:b].decode("utf-8")) for a, b in zip(start[rest].tolist(), end[rest].tolist())]
        for key in ("sent_id", "text"):
            keep = [i for i, m in enumerate(metas) if m is not None and m[0] == key]
            if keep:
                found.append((rest[keep], key, [metas[i][1] for i in keep]))
    for key, target in (("sent_id", sent_ids), ("text", sent_texts)):
        parts = [(rows, texts) for rows, k, texts in found if k == key]
        if not parts:
            continue
        rows = np.concatenate([r for r, _ in parts])
        texts = [t for _, ts in parts for t in ts]
        order = np.argsort(rows, kind="stable")
        for s_index, i in zip(sentence[rows[order]].tolist(), order.tolist()):
            target[s_index] = texts[i]
