"""A whole regular CoNLL-U file scanned piece by piece: reading the pieces, and joining their columns.

:func:`scan` (bytes in memory) and :func:`scan_stream` (a file read a piece at a time, so it is
never whole in memory) cut the file after blank lines, scan each piece (compiled or numpy) and
join the pieces' columns as they come; None hands the file over to the exact parser.
"""
from __future__ import annotations

import codecs
import threading
from typing import Callable, List, Optional, Tuple

import numpy as np

from .. import limits
from ..compiled import cscan as _cscan  # None: the numpy path (not built, or CONLL_EVAL_PURE)
from ..reserve import reserve
from ..treebank import Vocab
from .columns import LAZY_COLUMNS, Columns, Piece
from .lazy_fields import FieldBytes, LazyCodes, LazyMetadata, gather
from .lines import comment_counts, has_long_line, mostly_comments
from .scan_compiled import INTO_FILE, scan_piece_compiled
from .scan_numpy import scan_piece_numpy

__all__ = ["SCAN_PIECE_BYTES", "SCAN_BLOCK_MAX_BYTES", "scan", "scan_stream", "scan_piece", "comment_blocks"]


#: bytes per piece of a file scanned at once (cut after a blank line): bounds the temporaries.
#: The compiled scan: 2 MiB (on the 1M-word pair read in two threads, against 1 MiB: 10 % less
#: CPU in the per-piece glue, the same peak memory; 4 MiB pieces added 18 MB to whole3's peak);
#: the numpy scan: 4 MiB (its per-piece cost made 1 MiB pieces ~30 % slower there)
SCAN_PIECE_BYTES = 2 << 20 if _cscan is not None else 4 << 20


#: the longest run of lines without a sentence end a streamed scan holds when most of its
#: lines are comments (one sentence and the comments before it; real ones are a few kB): a
#: longer one goes to the exact parser, which holds no comment and a line at a time, so that
#: a file of comments between a few sentences costs no memory per comment.  A run of mostly
#: word lines (one huge sentence) stays with the scan, whose memory is what its words need.
SCAN_BLOCK_MAX_BYTES = 8 << 20


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
        known: dict = {"vocabulary": shared, "file": whole}
        while lo < len(data):
            cut = data.find(b"\n\n", lo + SCAN_PIECE_BYTES)
            hi = len(data) if cut < 0 else cut + 2
            piece = scan_piece(arr, lo, hi, line_offset, space, vocab, known)
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
                                {"vocabulary": shared, "scratch": workspace.scratch, "file": whole},
                                is_utf8):
                return None
    finally:
        workspace.give_back()
    if not whole.n_pieces:
        return None
    if file is not None:
        return whole.columns(lambda kept: FieldBytes(file=file, start=kept[0] if kept else None,
                                                     end=kept[1] if len(kept) > 1 else None))
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
        piece = scan_piece(arr, 0, size, line_offset, space, vocab, known)
        if piece is None:
            return False
        for name in _WholeFile.KEPT:  # the ranges move into the file (or their bytes are copied)
            start, end = getattr(piece, name)
            if not ranges:
                setattr(piece, name, (gather(arr, start, end)[0],))
            elif name in _WholeFile.FOUND_AGAIN:
                setattr(piece, name, ())
            else:
                setattr(piece, name, ((start + offset).astype(position_type),
                                      (end + offset).astype(position_type)))
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
        """The file is read: keep the workspace for the next one (if small), else free its
        memory now, before the file's columns are joined and its text decoded (the peak)."""
        if self.keep:
            with self._lock:
                if len(self._spare) < self.KEPT:
                    self._spare.append(self)
            return
        self.buffer = bytearray(0)
        self.scratch.clear()  # the dict the scan was given: its arrays go now


class _WholeFile:
    """A file's columns grown piece by piece (indices shifted by the words, tokens, sentences
    and characters before each piece), so a piece's arrays are freed at once instead of all
    of them waiting for a join at the end.  Arrays grow by doubling from a capacity guessed
    from the file's ``size``; the slack is never written and takes no huge page
    (:func:`~conll_eval.reserve.reserve`), so it costs address space, not memory.  What a
    piece keeps of its DEPS/MISC fields and comments (:data:`KEPT`: byte ranges or copies)
    and the UTF-8 of its text from the compiled scan grow the same way: nothing a piece
    leaves behind stays scattered on the heap between the pieces that come after it.  The
    compiled scan writes its token and word columns (the bulk) straight into the file's
    (:meth:`room`), shifted there; only the numpy scan's are copied."""

    #: columns copied as they are, and columns shifted by the count of what comes before
    PLAIN = ("tok_len", "tok_line", "tok_is_mwt", "word_is_mwt", "mwt_form", "word_line",
             "sent_first_line", "sent_end_line", "empty_line", "spaced_tok_form")
    SHIFTED = (("word_tok", "tok"), ("spaced_tok", "tok"), ("word_sent", "sent"),
               ("sent_char_start", "char"), ("sent_char_end", "char"), ("empty_sent", "sent"),
               ("empty_after", "word"))
    #: a piece's attributes holding a tuple of arrays (ranges or bytes) for :class:`FieldBytes`
    KEPT = ("tails", "comments")
    #: those of them that a file read again keeps nothing of: DEPS and MISC, the last fields
    #: of every word line, are found again in it (see :func:`~.lazy_fields.word_tail_starts`)
    FOUND_AGAIN = ("tails",)
    #: bytes per word line, per sentence and per text byte assumed for the first capacity
    BYTES_PER_WORD, BYTES_PER_SENTENCE, BYTES_PER_CHAR = 40, 600, 4

    #: index columns kept as int32 (the treebank's type: word, token and sentence indices
    #: fit), whatever type a scan gives them, so that the file's columns take no more memory
    #: than the treebank's and need no conversion at the end; character offsets too when the
    #: file is known to be shorter than 2**31 bytes (see :meth:`_type`)
    INDEX_COLUMNS = frozenset(("tok_len", "word_tok", "spaced_tok", "word_sent", "empty_sent",
                               "empty_after", "head", "sent_word_start"))
    CHAR_COLUMNS = frozenset(("sent_char_start", "sent_char_end"))
    #: the columns a compiled scan writes straight into (see :data:`INTO_FILE`)
    IN_FILE = frozenset(name for name, _, _ in INTO_FILE)

    def __init__(self, size: Optional[int]):
        self.small = size is not None and size < 2 ** 31 - 1
        size = size or 0
        self.guess = {"word": size // self.BYTES_PER_WORD, "sent": size // self.BYTES_PER_SENTENCE,
                      "char": size // self.BYTES_PER_CHAR}
        self.arrays: dict = {}  # name -> (array, length)
        self.offsets = {"word": 0, "tok": 0, "sent": 0, "char": 0}
        self.texts: List[str] = []  # the numpy scan's text (str); the compiled one's: "text"
        self.comment_sentence: List[np.ndarray] = []
        self.comment_lines: List[np.ndarray] = []
        self.first: Optional[Piece] = None
        self.n_pieces = 0

    def _type(self, name: str, values: np.ndarray, array: Optional[np.ndarray]) -> np.dtype:
        """The type of column ``name``: int32 for :data:`INDEX_COLUMNS` (and
        :data:`CHAR_COLUMNS` of a file under 2 GiB), else wide enough for every piece's."""
        if name in self.INDEX_COLUMNS or (self.small and name in self.CHAR_COLUMNS):
            return np.dtype(np.int32)
        return values.dtype if array is None else np.result_type(array.dtype, values.dtype)

    def _slot(self, name: str, values: np.ndarray, unit: str = "word") -> np.ndarray:
        """Room for ``len(values)`` more items of column ``name`` (grown as needed), for the
        caller to fill: a view of the column's end."""
        array, n = self.arrays.get(name, (None, 0))
        view = self._room(name, len(values), self._type(name, values, array), unit)
        self.arrays[name] = (self.arrays[name][0], n + len(values))
        return view

    def _room(self, name: str, count: int, dtype, unit: str) -> np.ndarray:
        """A view of room for ``count`` more items of column ``name`` after its end (grown as
        needed; its length stays as it is)."""
        array, n = self.arrays.get(name, (None, 0))
        need = n + count
        if array is None or need > len(array) or dtype != array.dtype:
            capacity = max(need, 1024, self.guess.get(unit, 0),
                           2 * len(array) if array is not None else 0)
            grown = reserve(capacity, dtype)  # the slack takes no memory
            if array is not None:
                grown[:n] = array[:n]
            array = grown
        self.arrays[name] = (array, n)
        return array[n:need]

    def room(self, columns, count: int) -> Tuple[np.ndarray, ...]:
        """Room for ``count`` more items of each of ``columns`` ((name, dtype, unit): "tok" or
        "word"), for a compiled scan to write into; the piece it then gives :meth:`add` says
        how many it wrote (``in_file``).  The first capacity is the words' guess for both
        units (a file has about as many tokens as words)."""
        return tuple(self._room(name, count, np.dtype(dtype), "word") for name, dtype, _ in columns)

    def _append(self, name: str, values: np.ndarray, unit: str = "word") -> None:
        self._slot(name, values, unit)[:] = values

    def _column(self, name: str) -> np.ndarray:
        array, n = self.arrays[name]
        return array[:n]

    def add(self, piece: Piece) -> None:
        """Take a piece's columns.  A compiled scan's token and word columns are in the
        file's already (``in_file``); its other arrays are views of its working arrays,
        copied here before the next scan.  A numpy scan's first piece is kept as it is until
        a second one comes (a file of one piece is never copied)."""
        if piece.in_file:
            self._copy(piece)
            self.n_pieces += 1
            return
        if self.n_pieces == 0:
            self.first = piece
            self.n_pieces = 1
            return
        if self.n_pieces == 1:
            self._copy(self.first)
            self.first = None
        self._copy(piece)
        self.n_pieces += 1

    def _copy(self, piece: Piece) -> None:
        c, off = piece.columns, self.offsets
        in_file = self.IN_FILE if piece.in_file else frozenset()
        if piece.in_file:  # written there by the scan: the file's columns grow by them
            for name, _, unit in INTO_FILE:
                array, n = self.arrays[name]
                self.arrays[name] = (array, n + (piece.n_tokens if unit == "tok" else piece.n_words))
        for name in self.PLAIN:
            if name not in in_file:
                self._append(name, getattr(c, name), "sent" if name.startswith("sent") else "word")
        for name, unit in self.SHIFTED:  # written in place: no temporary per column
            if name in in_file:
                continue
            values = getattr(c, name)
            np.add(values, off[unit], out=self._slot(name, values,
                                                     "sent" if name.startswith("sent") else "word"))
        if "head" not in in_file:
            heads = self._slot("head", c.head)
            np.add(c.head, off["word"], out=heads)
            heads[c.head < 0] = -1  # the roots
        starts = c.sent_word_start[:-1]
        np.add(starts, off["word"], out=self._slot("sent_word_start", starts, "sent"))
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
        self.comment_lines.append(piece.comment_lines)
        off["word"] += piece.n_words
        off["tok"] += piece.n_tokens
        off["sent"] += piece.n_sent
        off["char"] += piece.n_chars

    def columns(self, fields: Callable[[tuple], "FieldBytes"]) -> Columns:
        """The file's columns; ``fields`` makes a :class:`FieldBytes` of what the pieces kept
        of their DEPS/MISC fields, and of their comments."""
        if self.first is not None:  # a file of one piece: the piece's own columns
            piece = self.first
            out, n_sent = piece.columns, piece.n_sent
            if out.text is None:
                out.text = decode_text(piece.text_utf8)
            comment_sentence, comment_lines = piece.comment_sentence, piece.comment_lines
            kept = {name: getattr(piece, name) for name in self.KEPT}
        else:
            out, n_sent = self._joined(), self.offsets["sent"]
            comment_sentence = np.concatenate(self.comment_sentence)
            comment_lines = np.concatenate(self.comment_lines)
            kept = {name: tuple(self._column(key) for key in sorted(self.arrays)
                                if key.startswith(f"kept:{name}:"))
                    for name in self.KEPT}
        tails = fields(kept["tails"])
        for part, name in enumerate(LAZY_COLUMNS):
            out.cols[name] = LazyCodes(tails, part)
        out.metadata = LazyMetadata(fields(kept["comments"]), comment_sentence, n_sent, comment_lines)
        return out

    def _joined(self) -> Columns:
        out = Columns()
        if "text" in self.arrays and self.texts:
            raise AssertionError("a file's pieces all come from one scan, compiled or numpy")
        out.text = decode_text(self._column("text")) if "text" in self.arrays \
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


def decode_text(utf8: np.ndarray) -> str:
    """The compiled scan's text (UTF-8 bytes, checked) as ``str``: written once into its final
    size where the compiled core is built (Python's decoder holds up to three widening
    buffers, and a file's text is decoded when its columns are joined: the reading's peak)."""
    text = _cscan.decode_utf8(utf8) if _cscan is not None else None
    return codecs.utf_8_decode(utf8, "strict", True)[0] if text is None else text


def _pieces_read(read: Callable[[int], bytes]):
    """``(buffer, size)``: ``buffer[:size]`` is whole sentences ending with a blank line
    (``size`` None: the end of the file has no blank line, or a line is longer than
    MAX_LINE_BYTES: the exact parser says so), from ``read(n)``."""
    waiting: List[bytes] = []  # blocks read after the last blank line (joined once, when cut)
    waiting_bytes = 0
    waiting_lines = (0, 0)  # (comment lines, lines) of the waiting blocks
    unfinished = 0  # bytes of the last line read so far (no newline yet)
    while True:
        block = read(SCAN_PIECE_BYTES)
        if block:
            last_newline = block.rfind(b"\n")
            unfinished = unfinished + len(block) if last_newline < 0 else len(block) - last_newline - 1
            cut = block.rfind(b"\n\n")
            if cut >= 0:
                cut += waiting_bytes
            elif waiting and waiting[-1].endswith(b"\n") and block.startswith(b"\n"):
                cut = waiting_bytes - 1  # the blank line straddles the two blocks
            else:  # no sentence end yet: read on (a long sentence is copied once, not per block)
                counts = comment_counts(block, 0, len(block))
                waiting_lines = (waiting_lines[0] + counts[0], waiting_lines[1] + counts[1])
                if unfinished > limits.MAX_LINE_BYTES or (waiting_bytes > SCAN_BLOCK_MAX_BYTES
                                                         and mostly_comments(waiting_lines)):
                    yield block, None  # a line too long (never read whole), or a huge block
                    return
                waiting.append(block)
                waiting_bytes += len(block)
                continue
            buffer = b"".join(waiting + [block]) if waiting else block
            if has_long_line(buffer, cut + 2):
                yield buffer, None
                return
            rest = buffer[cut + 2:]
            waiting, waiting_bytes = ([rest], len(rest)) if rest else ([], 0)
            waiting_lines = comment_counts(rest, 0, len(rest))
            yield buffer, cut + 2
        elif waiting:
            buffer = b"".join(waiting)
            ends = buffer.endswith(b"\n\n") and not has_long_line(buffer, len(buffer))
            yield buffer, len(buffer) if ends else None
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
                ends = buffer.endswith(b"\n\n", 0, filled) and not has_long_line(buffer, filled)
                yield buffer, filled if ends else None
            return
        if has_long_line(buffer, filled if cut < 0 else cut + 2):
            yield buffer, None  # a line too long: the exact parser says where, having read no more of it
            return
        if cut < 0:  # no sentence end yet: a bigger block carries all of it
            # counted again at each doubling: geometric, linear in all
            if filled > SCAN_BLOCK_MAX_BYTES and mostly_comments(comment_counts(buffer, 0, filled)):
                yield buffer, None
                return
            carry = filled
            capacity *= 2
            continue
        yield buffer, cut + 2
        carry = filled - (cut + 2)
        buffer[:carry] = buffer[cut + 2:filled]
        capacity = SCAN_PIECE_BYTES


def scan_piece(arr: np.ndarray, lo: int, hi: int, line_offset: int, space,
                vocab: Vocab, known: Optional[dict] = None) -> Optional[Piece]:
    """Scan ``arr[lo:hi]`` (whole sentences); None when it is not regular (see :func:`scan`).
    Lines are numbered from ``line_offset`` + 1.  The compiled scan when it is built (and
    ``CONLL_EVAL_PURE`` is not set), else the numpy one; both give the same columns.

    ``known``: what the pieces of one file share (interned strings), filled here."""
    known = {} if known is None else known
    if _cscan is not None:
        piece = scan_piece_compiled(arr, lo, hi, line_offset, space, vocab, known)
    else:
        piece = scan_piece_numpy(arr, lo, hi, line_offset, space, vocab, known)
    if piece is not None:
        comment_blocks(piece)
    return piece


def comment_blocks(piece: Piece) -> None:
    """A piece's comment lines (``comments``: start and end of each, ``comment_sentence``)
    made one range per sentence, from its first comment to the end of its last
    (``comment_lines``: how many lines each holds).  A sentence's comments are consecutive
    lines (before its first word line), so what the file keeps of them grows with its
    sentences, not with its comment lines (a file of comments would otherwise keep more than
    its own size: two offsets and a sentence a line)."""
    start, end = piece.comments
    sentence = piece.comment_sentence
    if not len(sentence):
        piece.comment_lines = np.zeros(0, dtype=np.int32)
        return
    first = np.flatnonzero(np.diff(sentence, prepend=-1))  # each sentence's first comment
    last = np.append(first[1:], len(sentence)) - 1
    piece.comments = (start[first], end[last])
    piece.comment_sentence = sentence[first]
    piece.comment_lines = (last - first + 1).astype(np.int32)
