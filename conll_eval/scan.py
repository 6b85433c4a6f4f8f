"""Vectorised CoNLL-U reading for regular files: numpy over the raw bytes.

:func:`scan` finds newlines and tabs with numpy, parses IDs and HEADs digit by digit
as arrays, and interns each string column through exact integer keys read from the bytes
(fields of up to 64 bytes; longer ones one bytes object each), so no Python object per field
is created except the distinct strings.  Files are scanned in pieces of about 4 MB cut after
blank lines (:func:`scan_stream` reads them from disk one at a time, so the whole file is
never in memory); DEPS, MISC and the comments, which scoring does not need, are kept as byte
ranges and read on first use.  Only *regular* files are accepted (see :func:`scan`); for
anything else it returns None and the exact parser in :mod:`conll_eval.reader` decides,
including every error message.
(Split out of ``reader.py`` to keep each module readable; ``reader`` is its only user.)
"""
from __future__ import annotations

import codecs
import os
import threading
from typing import Callable, List, Optional, Tuple

import numpy as np

from .errors import FormatError, Location
from .treebank import Vocab

from .compiled import cscan as _cscan  # None: the numpy path (not built, or CONLL_EVAL_PURE)

__all__ = ["Columns", "LazyCodes", "FieldBytes", "scan", "scan_stream", "file_identity",
           "utf8_valid", "metadata"]

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


def metadata(comment: str) -> Optional[Tuple[str, str]]:
    """``# sent_id = X`` / ``# text = Y`` -> (key, value); None for other comments."""
    body = comment[1:].strip()
    for key in ("sent_id", "text"):
        if body.startswith(key):
            rest = body[len(key):].lstrip()
            if rest.startswith("="):
                return key, rest[1:].strip() if key == "sent_id" else rest[1:].lstrip(" ")
    return None


_CHUNK = 1 << 22


def _positions(arr: np.ndarray, byte: int, lo: int = 0, hi: Optional[int] = None) -> np.ndarray:
    """Sorted positions of ``byte`` in ``arr[lo:hi]`` (absolute; int32 when ``arr`` is under
    2 GiB), found slice by slice so no large temporary is needed."""
    hi = len(arr) if hi is None else hi
    position_type = np.int32 if len(arr) < 2 ** 31 - 1 else np.int64
    parts = [np.flatnonzero(arr[a:min(a + _CHUNK, hi)] == byte).astype(position_type) + position_type(a)
             for a in range(lo, hi, _CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=position_type)


def _gather(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
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


def _split(joined: np.ndarray) -> List[bytes]:
    """The fields of a :func:`_gather` result as bytes objects."""
    if len(joined) == 0:
        return []
    return joined[:-1].tobytes().split(b"\n")


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
        joined, _ = _gather(arr, start[rows], end[rows])
        codes[rows] = vocab.encode_bytes(_split(joined))
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


#: bytes per slice in :func:`utf8_valid` (bounds its temporaries)
_UTF8_SLICE = 1 << 20


def utf8_valid(data) -> bool:
    """Whether ``data`` is valid UTF-8, exactly as Python's strict decoder decides (RFC 3629:
    no overlongs, no surrogates, nothing above U+10FFFF), vectorised so that it runs without
    the GIL.  Slices are cut after a newline (ASCII), which never splits a character."""
    arr = np.frombuffer(data, dtype=np.uint8)
    if _cscan is not None:
        return _cscan.utf8_valid(arr) if len(arr) else True
    return utf8_valid_numpy(data if isinstance(data, bytes) else bytes(data), arr)


def utf8_valid_numpy(data: bytes, arr: np.ndarray) -> bool:
    """:func:`utf8_valid` with numpy only (the reference)."""
    lo = 0
    while lo < len(arr):
        hi = min(len(arr), lo + _UTF8_SLICE)
        if hi < len(arr):
            newline = data.rfind(b"\n", lo, hi)
            hi = newline + 1 if newline >= lo else data.find(b"\n", hi) + 1 or len(arr)
        if not _utf8_slice_valid(arr[lo:hi]):
            return False
        lo = hi
    return True


def _utf8_slice_valid(arr: np.ndarray) -> bool:
    high = np.flatnonzero(arr >= 0x80)
    if len(high) == 0:
        return True
    b = arr[high]
    cont = b < 0xC0
    need = np.where(b >= 0xF0, 3, np.where(b >= 0xE0, 2, 1))  # for leads; conts ignored
    if np.any((b == 0xC0) | (b == 0xC1) | (b > 0xF4)):
        return False
    lead = np.flatnonzero(~cont)
    k = need[lead]
    if len(lead) and np.any(lead + k >= len(high)):
        return False
    # each lead is followed, at the next positions, by exactly its continuation bytes
    for j in (1, 2, 3):
        at = lead[k >= j]
        if len(at) and not np.all((high[at + j] == high[at] + j) & cont[at + j]):
            return False
    # ... and no continuation byte is left over (the leads' ranges cannot overlap)
    if np.count_nonzero(cont) != int(k.sum()):
        return False
    first, second = b[lead], b[lead + 1] if len(lead) else b[:0]
    bad = ((first == 0xE0) & (second < 0xA0)) | ((first == 0xED) & (second > 0x9F)) | \
        ((first == 0xF0) & (second < 0x90)) | ((first == 0xF4) & (second > 0x8F))
    return not bad.any()


class FieldBytes:
    """Byte ranges ``[start, end)`` of fields, materialised on demand as newline-terminated
    fields (see :func:`_gather`).

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
            source = self.source if self.file is None else _read_unchanged(self.file)
            self.joined = _gather(source, self.start, self.end)[0]
            self.source = self.start = self.end = self.file = None
        return self.joined

    def __reduce__(self):
        return (FieldBytes, (self(),))


def file_identity(path: str, handle) -> tuple:
    """What :class:`FieldBytes` checks before reading ``path`` again."""
    st = os.fstat(handle.fileno())
    return (path, st.st_size, st.st_mtime_ns, st.st_ino)


def _read_unchanged(file: tuple) -> np.ndarray:
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
        return vocab.encode_bytes([line.split(b"\t", 1)[part] for line in _split(self.tails())])

    def __reduce__(self):
        return (LazyCodes, (self.tails, self.part))


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


class _LazyMetadata:
    """``(sent_ids, sent_texts)`` read from the comment lines when first asked for.

    Holds the comment lines (:class:`FieldBytes`) and the sentence each belongs to.
    """

    def __init__(self, comments: "FieldBytes", sentence: np.ndarray, n_sent: int):
        self.args = (comments, sentence, n_sent)

    def __call__(self):
        comments, sentence, n_sent = self.args
        sent_ids, sent_texts = [None] * n_sent, [None] * n_sent
        if len(sentence):
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
        joined, _ = _gather(arr, start[rows] + width, end[rows])
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


#: bytes per piece of a file scanned at once (cut after a blank line): bounds the temporaries.
#: 1 MiB: on the 1M-word pair read in two threads, 4 MiB pieces left ~15 MB more at the peak
#: and ~15 % more page faults, for no less time
SCAN_PIECE_BYTES = 1 << 20


def scan(data: bytes, space, vocab: Vocab) -> Optional[Columns]:
    """Columns of a regular file, or None to hand over to the exact parser.

    Regular: LF line ends, every blank line ends a non-empty sentence, comments only
    before a sentence's first word line, 10 columns everywhere, ASCII-digit IDs and HEADs
    in sequence, each multi-word token range ``a-b`` (a <= b) followed by exactly b-a+1
    integer word lines, one root and no cycle per sentence, no empty FORM.
    ``space`` is the profile's regex of characters removed from FORM.

    The file is scanned in pieces of about :data:`SCAN_PIECE_BYTES` cut after blank lines
    (so no sentence is split), which bounds the temporaries; their columns are joined as
    they come (:class:`_WholeFile`).
    """
    if not data or not data.endswith(b"\n\n") or b"\r" in data:
        return None
    arr = np.frombuffer(data, dtype=np.uint8)
    whole = _WholeFile(len(data))
    lo = line_offset = 0
    with vocab.reader_state() as shared:
        known: dict = {"vocabulary": shared}
        while lo < len(data):
            cut = data.find(b"\n\n", lo + SCAN_PIECE_BYTES)
            hi = len(data) if cut < 0 else cut + 2
            piece = _scan_piece(arr, lo, hi, line_offset, space, vocab, known)
            if piece is None:
                return None
            whole.add(piece)
            line_offset += piece.n_lines
            lo = hi
    # the lazy columns and the comments point into ``data``, which they keep alive
    return whole.columns(lambda kept: FieldBytes(source=arr, start=kept[0], end=kept[1]))


def scan_stream(read: Callable[[int], bytes], space, vocab: Vocab,
                is_utf8: Callable[[bytes], bool], file: Optional[tuple] = None,
                readinto: Optional[Callable] = None, size: Optional[int] = None
                ) -> Optional[Columns]:
    """:func:`scan` reading the file piece by piece (``read(n)`` as ``file.read``, or
    ``readinto`` as ``file.readinto``, which saves a copy of every piece; ``size``: the file's
    size if known, so that a small file gets a buffer of its size), so the whole file is never
    in memory at once; None when a piece is not regular or not valid UTF-8
    (``is_utf8``), and then the caller reads the file again the exact way.

    With ``file`` (see :func:`file_identity`) the DEPS/MISC columns and the comments are read
    again from the file when first used; without, compact copies of them are kept.
    """
    whole = _WholeFile(size)
    # places in the file: int32 when they fit (half the memory of the kept ranges)
    position_type = np.int32 if file is not None and file[1] < 2 ** 31 - 1 else np.int64
    workspace = _Workspace.take(size)
    try:
        blocks = (_pieces_read_into(readinto, size, workspace.buffer) if readinto is not None
                  else _pieces_read(read))
        with vocab.reader_state() as shared:
            if not _scan_blocks(blocks, whole, position_type, file is not None, space, vocab,
                                {"vocabulary": shared, "scratch": workspace.scratch}, is_utf8):
                return None
    finally:
        workspace.give_back()
    if not whole.n_pieces:
        return None
    if file is not None:
        return whole.columns(lambda kept: FieldBytes(start=kept[0], end=kept[1], file=file))
    return whole.columns(lambda kept: FieldBytes(joined=kept[0]))


def _scan_blocks(blocks, whole: "_WholeFile", position_type, ranges: bool, space, vocab: Vocab,
                 known: dict, is_utf8: Callable[[bytes], bool]) -> bool:
    """:func:`scan_stream`'s loop: each block of ``blocks`` scanned into ``whole``; False as
    soon as one is not regular.  ``ranges``: keep byte ranges of the DEPS/MISC fields and
    comments (the file is read again), else copies of their bytes."""
    line_offset = offset = 0  # lines and bytes before the piece
    for buffer, size in blocks:
        if size is None:
            return False  # the file does not end with a blank line
        data = memoryview(buffer)[:size]
        if buffer.find(b"\r", 0, size) >= 0 or not is_utf8(data):
            return False
        arr = np.frombuffer(data, dtype=np.uint8)
        piece = _scan_piece(arr, 0, size, line_offset, space, vocab, known)
        if piece is None:
            return False
        for name in _WholeFile.KEPT:  # the ranges move into the file (or their bytes are copied)
            start, end = getattr(piece, name)
            setattr(piece, name, ((start + offset).astype(position_type),
                                  (end + offset).astype(position_type))
                    if ranges else (_gather(arr, start, end)[0],))
        whole.add(piece)  # the piece's columns go into the file's: pieces never pile up
        line_offset += piece.n_lines
        offset += size
    return True


class _Workspace:
    """What reading a file needs besides its columns: the buffer its pieces are read into
    and the compiled scan's working arrays.  The workspace of a small file is kept for the
    next one (a few at most, whatever the threads): their memory is then already mapped,
    where fresh buffers cost a page fault every 4 KiB (~10 % of reading a small file).  A
    large file's workspace is freed with it."""

    #: files of up to this many bytes leave their workspace for the next (it holds about
    #: 4x that: the buffer and ~200 bytes of working arrays per line)
    KEPT_FILE_BYTES = 4 << 20
    #: workspaces kept (one per reading thread: gold and system)
    KEPT = 2
    _spare: List["_Workspace"] = []
    _lock = threading.Lock()

    def __init__(self):
        self.buffer = bytearray(0)
        self.scratch: dict = {}
        self.keep = False

    @classmethod
    def take(cls, size: Optional[int]) -> "_Workspace":
        """A workspace for a file of ``size`` bytes (None: unknown)."""
        keep = size is not None and size <= cls.KEPT_FILE_BYTES
        workspace = None
        if keep:
            with cls._lock:
                workspace = cls._spare.pop() if cls._spare else None
        workspace = workspace or cls()
        # a piece, or the whole file and one byte more, which tells its end
        want = min(size, SCAN_PIECE_BYTES) + 1 if keep else 0
        if keep and len(workspace.buffer) < want:
            workspace.buffer = bytearray(max(want, 2 * len(workspace.buffer)))
        workspace.keep = keep
        return workspace

    def give_back(self) -> None:
        """The file is read: keep the workspace for the next one (if small)."""
        if self.keep:
            with self._lock:
                if len(self._spare) < self.KEPT:
                    self._spare.append(self)


class _WholeFile:
    """A file's columns grown piece by piece (indices shifted by the words, tokens, sentences
    and characters before each piece), so a piece's arrays are freed at once instead of all
    of them waiting for a join at the end.  Arrays grow by
    doubling from a capacity guessed from the file's ``size``; the slack is never written,
    so it costs address space, not memory.  What a piece keeps of its DEPS/MISC fields and
    comments (:data:`KEPT`: byte ranges or copies) and the UTF-8 of its text from the
    compiled scan grow the same way: nothing a piece leaves behind stays scattered on the
    heap between the pieces that come after it."""

    #: columns copied as they are, and columns shifted by the count of what comes before
    PLAIN = ("tok_len", "tok_line", "tok_is_mwt", "word_is_mwt", "mwt_form", "word_line",
             "sent_first_line", "sent_end_line", "empty_line", "spaced_tok_form")
    SHIFTED = (("word_tok", "tok"), ("spaced_tok", "tok"), ("word_sent", "sent"),
               ("sent_char_start", "char"), ("sent_char_end", "char"), ("empty_sent", "sent"),
               ("empty_after", "word"))
    #: a piece's attributes holding a tuple of arrays (ranges or bytes) for :class:`FieldBytes`
    KEPT = ("tails", "comments")
    #: bytes per word line, per sentence and per text byte assumed for the first capacity
    BYTES_PER_WORD, BYTES_PER_SENTENCE, BYTES_PER_CHAR = 40, 600, 4

    def __init__(self, size: Optional[int]):
        size = size or 0
        self.guess = {"word": size // self.BYTES_PER_WORD, "sent": size // self.BYTES_PER_SENTENCE,
                      "char": size // self.BYTES_PER_CHAR}
        self.arrays: dict = {}  # name -> (array, length)
        self.offsets = {"word": 0, "tok": 0, "sent": 0, "char": 0}
        self.texts: List[str] = []  # the numpy scan's text (str); the compiled one's: "text"
        self.comment_sentence: List[np.ndarray] = []
        self.first: Optional[_Piece] = None
        self.n_pieces = 0

    def _append(self, name: str, values: np.ndarray, unit: str = "word") -> None:
        array, n = self.arrays.get(name, (None, 0))
        need = n + len(values)
        dtype = values.dtype if array is None else np.result_type(array.dtype, values.dtype)
        if array is None or need > len(array) or dtype != array.dtype:
            capacity = max(need, 1024, self.guess.get(unit, 0),
                           2 * len(array) if array is not None else 0)
            grown = np.empty(capacity, dtype=dtype)
            if array is not None:
                grown[:n] = array[:n]
            array = grown
        array[n:need] = values
        self.arrays[name] = (array, need)

    def _column(self, name: str) -> np.ndarray:
        array, n = self.arrays[name]
        return array[:n]

    def add(self, piece: "_Piece") -> None:
        """Take a piece's columns; the first is kept as it is until a second one comes (a file
        of one piece, most treebanks, is never copied)."""
        if self.n_pieces == 0:
            self.first = piece
            self.n_pieces = 1
            return
        if self.n_pieces == 1:
            self._copy(self.first)
            self.first = None
        self._copy(piece)
        self.n_pieces += 1

    def _copy(self, piece: "_Piece") -> None:
        c, off = piece.columns, self.offsets
        for name in self.PLAIN:
            self._append(name, getattr(c, name), "sent" if name.startswith("sent") else "word")
        for name, unit in self.SHIFTED:
            self._append(name, getattr(c, name) + off[unit],
                         "sent" if name.startswith("sent") else "word")
        self._append("head", np.where(c.head >= 0, c.head + off["word"], -1))
        self._append("sent_word_start", c.sent_word_start[:-1] + off["word"], "sent")
        for name, values in c.cols.items():
            self._append("cols:" + name, values)
        for name, values in c.empty_cols.items():
            self._append("empty:" + name, values, "empty")
        for name in self.KEPT:
            for k, values in enumerate(getattr(piece, name)):
                self._append(f"kept:{name}:{k}", values)
        if c.text is None:  # the compiled scan's UTF-8, decoded once for the whole file
            self._append("text", piece.text_utf8, "char")
        else:
            self.texts.append(c.text)
        self.comment_sentence.append(piece.comment_sentence + off["sent"])
        off["word"] += piece.n_words
        off["tok"] += piece.n_tokens
        off["sent"] += piece.n_sent
        off["char"] += piece.n_chars

    def columns(self, fields: Callable[[tuple], "FieldBytes"]) -> Columns:
        """The file's columns; ``fields`` makes a :class:`FieldBytes` of what the pieces kept
        of their DEPS/MISC fields, and of their comments."""
        if self.n_pieces == 1:  # the piece's own columns
            piece = self.first
            out, n_sent = piece.columns, piece.n_sent
            if out.text is None:
                out.text = codecs.utf_8_decode(piece.text_utf8)[0]
            comment_sentence = piece.comment_sentence
            kept = {name: getattr(piece, name) for name in self.KEPT}
        else:
            out, n_sent = self._joined(), self.offsets["sent"]
            comment_sentence = np.concatenate(self.comment_sentence)
            kept = {name: tuple(self._column(key) for key in sorted(self.arrays)
                                if key.startswith(f"kept:{name}:"))
                    for name in self.KEPT}
        tails = fields(kept["tails"])
        for part, name in enumerate(LAZY_COLUMNS):
            out.cols[name] = LazyCodes(tails, part)
        out.metadata = _LazyMetadata(fields(kept["comments"]), comment_sentence, n_sent)
        return out

    def _joined(self) -> Columns:
        out = Columns()
        if "text" in self.arrays and self.texts:
            raise AssertionError("a file's pieces all come from one scan, compiled or numpy")
        out.text = codecs.utf_8_decode(self._column("text"))[0] if "text" in self.arrays \
            else "".join(self.texts)
        self.texts = []
        self.arrays.pop("text", None)
        for name in self.PLAIN + tuple(name for name, _ in self.SHIFTED) + ("head",):
            setattr(out, name, self._column(name))
        out.sent_word_start = np.append(self._column("sent_word_start"), self.offsets["word"])
        out.cols = {name[5:]: self._column(name) for name in self.arrays
                    if name.startswith("cols:")}
        out.empty_cols = {name[6:]: self._column(name) for name in self.arrays
                          if name.startswith("empty:")}
        return out


def _pieces_read(read: Callable[[int], bytes]):
    """``(buffer, size)``: ``buffer[:size]`` is whole sentences ending with a blank line
    (``size`` None: the end of the file has no blank line), from ``read(n)``."""
    waiting: List[bytes] = []  # blocks read after the last blank line (joined once, when cut)
    waiting_bytes = 0
    while True:
        block = read(SCAN_PIECE_BYTES)
        if block:
            cut = block.rfind(b"\n\n")
            if cut >= 0:
                cut += waiting_bytes
            elif waiting and waiting[-1].endswith(b"\n") and block.startswith(b"\n"):
                cut = waiting_bytes - 1  # the blank line straddles the two blocks
            else:  # no sentence end yet: read on (a long sentence is copied once, not per block)
                waiting.append(block)
                waiting_bytes += len(block)
                continue
            buffer = b"".join(waiting + [block]) if waiting else block
            rest = buffer[cut + 2:]
            waiting, waiting_bytes = ([rest], len(rest)) if rest else ([], 0)
            yield buffer, cut + 2
        elif waiting:
            buffer = b"".join(waiting)
            yield buffer, len(buffer) if buffer.endswith(b"\n\n") else None
            return
        else:
            return


def _pieces_read_into(readinto: Callable, size: Optional[int] = None,
                      spare: Optional[bytearray] = None):
    """:func:`_pieces_read` with ``readinto``: each block is read straight into the piece
    buffer after the few bytes carried over from the block before (a file of known ``size``
    smaller than a piece: a buffer at least one byte larger, which tells its end; ``spare``
    if it is large enough).  The buffer is reused from piece to piece (nothing keeps a view
    of it once the next piece is asked for): a new one for every piece would leave the heap
    scattered with freed ones."""
    carry = 0  # bytes at the buffer's start carried over from the block before
    capacity = SCAN_PIECE_BYTES if size is None else max(1, min(SCAN_PIECE_BYTES, size + 1))
    buffer = spare if spare is not None and len(spare) >= capacity else bytearray(capacity)
    while True:
        if len(buffer) - carry < capacity // 2:  # little room after the carry: grow
            grown = bytearray(carry + capacity)
            grown[:carry] = buffer[:carry]
            buffer = grown
        view = memoryview(buffer)
        filled = carry
        while filled < len(buffer):
            n = readinto(view[filled:])
            if not n:
                break
            filled += n
        view.release()
        at_end = filled < len(buffer)
        cut = buffer.rfind(b"\n\n", 0, filled)
        if at_end:
            if filled:
                yield buffer, filled if buffer.endswith(b"\n\n", 0, filled) else None
            return
        if cut < 0:  # no sentence end yet: a bigger block carries all of it
            carry = filled
            capacity *= 2
            continue
        yield buffer, cut + 2
        carry = filled - (cut + 2)
        buffer[:carry] = buffer[cut + 2:filled]
        capacity = SCAN_PIECE_BYTES


class _Piece:
    """What :func:`_scan_piece` found in one piece; indices local to it (lines absolute)."""

    __slots__ = ("columns", "tails", "comments", "comment_sentence", "text_utf8",
                 "n_lines", "n_sent", "n_words", "n_tokens", "n_chars")


def _token_text(arr: np.ndarray, form_start: np.ndarray, form_end: np.ndarray, space,
                vocab: Vocab, known: dict):
    """The tokens' text (FORMs joined, the profile's ``space`` characters removed), their
    lengths in characters, and the tokens that lost characters with their FORMs as written;
    None when a FORM is empty or all space."""
    joined, byte_len = _gather(arr, form_start, form_end)
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


def _scan_piece(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                vocab: Vocab, known: Optional[dict] = None) -> Optional["_Piece"]:
    """Scan ``arr[lo:hi]`` (whole sentences); None when it is not regular (see :func:`scan`).
    Lines are numbered from ``line_offset`` + 1.  The compiled scan when it is built (and
    ``CONLL_EVAL_PURE`` is not set), else the numpy one; both give the same columns.

    ``known``: what the pieces of one file share (interned strings), filled here."""
    known = {} if known is None else known
    if _cscan is not None:
        return _scan_piece_compiled(arr, lo, hi, line_offset, space, vocab, known)
    return _scan_piece_numpy(arr, lo, hi, line_offset, space, vocab, known)


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


def _scan_piece_compiled(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                         vocab: Vocab, known: dict) -> Optional["_Piece"]:
    """:func:`_scan_piece_numpy`'s result from the compiled pass (``_cscan.scan_piece``)."""
    shared = known.setdefault("vocabulary", {})  # what stays with ``vocab`` (see _LocalCodes)
    local = shared.get("compiled")
    if local is None:
        local = shared["compiled"] = _LocalCodes()
    scratch = known.setdefault("scratch", {})  # the scan's working arrays, for the file's pieces
    unicode_spaces = {r"\p{Zs}": True, " ": False}.get(space.pattern)
    if unicode_spaces is None:  # a space pattern the compiled scan does not know
        return _scan_piece_numpy(arr, lo, hi, line_offset, space, vocab, known)
    found = _cscan.scan_piece(arr, lo, hi, line_offset, local.tables, unicode_spaces, scratch,
                              local.tag_combos)
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
    mwt_form = found["mwt_form"]
    mwt_codes = codes[_cscan.TABLES.index("mwt_form")]
    c.mwt_form = (np.where(mwt_form >= 0, mwt_codes[np.maximum(mwt_form, 0)], -1).astype(np.int32)
                  if len(mwt_codes) else mwt_form)
    word_cols = found["word_cols"]
    c.cols = dict(zip(_cscan.WORD_COLUMNS,
                      _cscan.translate(word_cols, tuple(codes[:len(_cscan.WORD_COLUMNS)]))))
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
    piece = _Piece()
    piece.columns = c
    piece.tails = (found["tail_start"], found["tail_end"])
    piece.comments = (found["comment_start"], found["comment_end"])
    piece.comment_sentence = found["comment_sent"]
    piece.text_utf8 = found["text"]
    piece.n_lines, piece.n_sent, piece.n_words = found["n_lines"], n_sent, n_words
    piece.n_tokens, piece.n_chars = n_tokens, int(tok_end[-1]) if n_tokens else 0
    return piece


def _scan_piece_numpy(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                      vocab: Vocab, known: dict) -> Optional["_Piece"]:
    """The reference scan of a piece, numpy over the bytes (see :func:`_scan_piece`)."""
    newline = _positions(arr, NEWLINE, lo, hi)
    n_lines = len(newline)
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

    def field(k: int) -> Tuple[np.ndarray, np.ndarray]:
        start = cs if k == 0 else tab_at[:, k - 1] + 1
        end = ce if k == 9 else tab_at[:, k]
        return start, end

    id_start, id_end = field(0)
    shape = _id_shape(arr, id_start, id_end)
    if shape is None:
        return None
    is_empty_node, n_dash, first_dash = shape
    is_range = (n_dash > 0) & ~is_empty_node

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
        if np.any(content_idx[ends - 1] - content_idx[range_pos] != span):
            return None
        mwt_word = covered == 1
        del covered
        if np.any(mwt_word & (is_empty_node | is_range)):
            return None
    is_word = ~is_empty_node & ~is_range
    is_token = ~is_empty_node & ~mwt_word
    del n_dash, first_dash

    # sentences (each blank line closes one)
    sent_blocks, sent_of_body = np.unique(block[content_idx], return_inverse=True)
    sent_of_body = sent_of_body.astype(np.int32)
    n_sent = len(sent_blocks)
    if n_sent != len(blank_at):
        return None

    word_body = np.flatnonzero(is_word).astype(np.int32)
    n_words = len(word_body)
    if n_words == 0:
        return None
    word_sent = sent_of_body[word_body]
    sent_word_start = np.searchsorted(word_sent, np.arange(n_sent + 1))
    position = np.arange(1, n_words + 1, dtype=np.int32) - sent_word_start[word_sent].astype(np.int32)
    plain = ~mwt_word[word_body]
    plain_body = word_body[plain]
    word_ids = _parse_uint(arr, id_start[plain_body], id_end[plain_body])
    if word_ids is None or np.any(word_ids != position[plain]):
        return None
    head_start, head_end = field(6)
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
    del position, word_ids, head, sent_len, plain_body

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
    piece = _Piece()
    piece.columns = c
    # DEPS and MISC together (adjacent: the end of each word line), and the comment lines:
    # byte ranges in ``arr``; the caller decides how to keep their bytes
    piece.tails = (tab_at[word_body, 7] + 1, ce[word_body])
    comment_lines = np.flatnonzero(hashed)
    comment_lines = comment_lines[comment_lines < blank_at[-1]]  # after the last sentence: ignored
    piece.comments = (line_start[comment_lines], line_end[comment_lines])
    piece.comment_sentence = np.searchsorted(blank_at, comment_lines)
    piece.n_lines, piece.n_sent, piece.n_words = n_lines, n_sent, n_words
    piece.n_tokens, piece.n_chars = len(tok_len), len(text)
    return piece
