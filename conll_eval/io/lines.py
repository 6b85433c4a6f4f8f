"""Text lines of a byte stream read in bounded chunks, and the longest-line check of byte buffers.

:class:`LineBlocks` is the one bounded reader of text input: a stream as blocks of whole lines, a
line longer than :data:`conll_eval.limits.MAX_LINE_BYTES` being the error ``line-too-long``,
found after reading at most that many bytes of it and a chunk (``/dev/zero`` ends).  On it:

* :class:`LineReader` gives the exact parser a file's lines one at a time (split as Python's
  universal newlines split them, as :func:`~conll_eval.io.byte_input.read_lines` does), so
  that memory is one chunk whatever the file's shape: a file of blank lines or comments is
  never held as a list of lines.  Its errors come in line order, when the parser asks for the
  line: invalid UTF-8 (``invalid-utf8``, before the lines of the chunk that has it, as the
  official scripts' reader decodes ahead of the line it parses) and ``line-too-long``;
* :func:`read_checked` reads a file that is kept whole (MaltEval's formats, a tagger's or an
  aligner's files) and :func:`read_config` a small one (weights, pair lists, metadata, rc
  files; also within :data:`~conll_eval.limits.MAX_CONFIG_BYTES`: ``file-too-large``);
* :func:`line_of` fetches one line for an error message, reading only up to it.

:func:`has_long_line` is the same limit for the scan's pieces, in a few ``find`` calls a piece.
"""
from __future__ import annotations

from itertools import chain
from typing import Callable, Iterator, List, Optional, Tuple

from .. import limits
from ..errors import FormatError, Location
from .byte_input import (MAGIC_BYTES, Decompressed, Prefixed, Recorded, compression_of, split_lines,
                         stdin_binary)

__all__ = ["comment_counts", "mostly_comments", "LINE_CHUNK_BYTES", "LineBlocks", "LineReader", "has_long_line", "line_too_long", "line_of",
           "read_checked", "read_config", "read_kept", "file_too_large"]

#: bytes read at a time (at most the line limit and one: then only a line begun in an earlier
#: chunk can be longer than the limit, and only that one is measured)
LINE_CHUNK_BYTES = 1 << 20

LF, CR = 10, 13


def line_too_long(path: str, line: int, what: str = "") -> FormatError:
    """The error for line ``line`` of ``path``, longer than MAX_LINE_BYTES; ``what`` names
    the kind of file when it is not CoNLL-U (``"a weights file"``)."""
    hint = ("CoNLL-U lines are a few kB at most: is this a CoNLL-U file?" if not what
            else f"{what} has short lines: is this the right file?")
    return FormatError(Location(path, line), "line-too-long",
                       f"line longer than {limits.MAX_LINE_BYTES:,} bytes, the limit ({hint}); "
                       f"to read it, raise CONLL_EVAL_MAX_LINE_BYTES")


def has_long_line(buffer, end: int) -> bool:
    """Whether a line of ``buffer[:end]`` (which starts at a line start; its last line may be
    unfinished) has more than MAX_LINE_BYTES bytes before its newline.

    Probes every half limit: the newline after a probe is near unless the probe's line is long,
    and only then is that line measured, so a piece of ordinary lines costs a few ``find``
    calls.  (Every line longer than the limit holds a probe less than half a limit after its
    start, from which its end is more than half a limit away.)"""
    limit = limits.MAX_LINE_BYTES
    step = max(limit // 2, 1)
    at = 0
    while at < end:
        newline = buffer.find(b"\n", at, end)
        stop = end if newline < 0 else newline
        if stop - at > limit - step and stop - (buffer.rfind(b"\n", 0, at) + 1) > limit:
            return True
        if newline < 0:
            return False
        at = max(at + step, newline + 1)
    return False


def comment_counts(data, start: int = 0, end: Optional[int] = None) -> Tuple[int, int]:
    """(comment lines, lines) of ``data[start:end]``, counted by the line ends before a ``#``
    and all LFs: a bound, not a parse (the stretch's first line is not looked at; CR-only line
    ends count as one line)."""
    return data.count(b"\n#", start, end), data.count(b"\n", start, end)


def mostly_comments(counts: Tuple[int, int], let_through: int = 0) -> bool:
    """Whether most of the lines :func:`comment_counts` counted are comments, beyond
    ``let_through`` comments that never count (a sentence's first lines are its own)."""
    comments, lines = counts
    return comments > lines // 2 + let_through


def _line_end_after(data: bytes, start: int = 0) -> int:
    """The first CR or LF at or after ``start`` (-1: none)."""
    lf, cr = data.find(b"\n", start), data.find(b"\r", start)
    return lf if cr < 0 else cr if lf < 0 else min(lf, cr)


def _line_end_before(data: bytes, end: int) -> int:
    """The last CR or LF before ``end`` (-1: none)."""
    return max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))


class LineBlocks:
    """The stream ``read`` (``read(n)`` as ``file.read``) as blocks of whole lines, read a
    bounded chunk at a time: each block ends with a line end (only the stream's last may
    not), and the blocks one after the other are the stream.  ``universal``: a line ends at
    LF, CR or CRLF (Python's universal newlines, the CoNLL-U readers' lines), else at LF only
    (readers that split on LF).

    Iterating raises :class:`~conll_eval.errors.FormatError` ``line-too-long`` in place of the
    block holding a line longer than :data:`conll_eval.limits.MAX_LINE_BYTES`, after the
    blocks before it, having read at most the limit and a chunk of that line; memory is a
    chunk and one line.  ``line_ends`` and ``size``: the line ends and bytes of the blocks
    given out so far; ``what``: the kind of file for the message, when it is not CoNLL-U;
    ``chunk_bytes``: bytes read at a time (at most the limit and one; default
    :data:`LINE_CHUNK_BYTES`).
    Every bounded reader of a text file reads through this class (:class:`LineReader`,
    :func:`read_checked`, :func:`line_of`)."""

    def __init__(self, read: Callable[[int], bytes], path: str, universal: bool = True,
                 what: str = "", chunk_bytes: Optional[int] = None):
        self.read, self.path, self.universal, self.what = read, path, universal, what
        self.chunk_bytes = chunk_bytes  # None: LINE_CHUNK_BYTES
        self.line_ends = 0
        self.size = 0

    def _first_end(self, data: bytes) -> int:
        return _line_end_after(data) if self.universal else data.find(b"\n")

    def _last_end(self, data: bytes, end: int) -> int:
        return _line_end_before(data, end) if self.universal else data.rfind(b"\n", 0, end)

    def _count(self, block: bytes) -> int:
        """The line ends in ``block`` (which never ends in the CR of a CRLF)."""
        ends = block.count(b"\n")
        if self.universal:
            ends += block.count(b"\r") - block.count(b"\r\n")
        return ends

    def __iter__(self) -> Iterator[bytes]:
        limit = limits.MAX_LINE_BYTES
        chunk_size = min(self.chunk_bytes or LINE_CHUNK_BYTES, limit + 1)
        universal = self.universal
        rest = b""  # an unfinished line (or a CR that may be half of a CRLF), from the chunk before
        while True:
            chunk = self.read(chunk_size)
            data = rest + chunk if rest else chunk
            if not chunk:
                cut = len(data)
            else:  # after the last line end (a final CR waits: a LF may follow it)
                cut = self._last_end(data, len(data) - (universal and data[-1] == CR)) + 1
            if cut:
                # only the first line can be too long: rest is within the limit, and a line
                # that starts in this chunk and ends in it is shorter than the chunk
                first_end = self._first_end(data)
                if first_end > limit or (first_end < 0 and cut > limit):
                    raise line_too_long(self.path, self.line_ends + 1, self.what)
                block = data if cut == len(data) else data[:cut]
                self.line_ends += self._count(block)
                self.size += cut
                yield block
            rest = data[cut:]
            if not chunk:
                return
            if len(rest) - (universal and rest[-1:] == b"\r") > limit:
                raise line_too_long(self.path, self.line_ends + 1, self.what)


def read_checked(read: Callable[[int], bytes], path: str, universal: bool = True,
                 max_bytes: Optional[int] = None, what: str = "") -> bytes:
    """All of the stream ``read``, read in bounded chunks (:class:`LineBlocks`: a line longer
    than MAX_LINE_BYTES raises ``line-too-long`` at its line); with ``max_bytes``, more bytes
    than that raise ``file-too-large`` once they are read, so ``/dev/zero`` or an endless pipe
    end either way.  ``what`` names the kind of file in messages (``""``: CoNLL-U).  For files
    that are kept whole."""
    blocks = LineBlocks(read, path, universal, what)
    parts: List[bytes] = []
    for block in blocks:
        if max_bytes is not None and blocks.size > max_bytes:
            raise file_too_large(path, max_bytes, what)
        parts.append(block)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def file_too_large(path: str, max_bytes: int, what: str = "") -> FormatError:
    """The error for ``path`` (``what``: the kind of small file read whole) longer than
    ``max_bytes``."""
    return FormatError(Location(path), "file-too-large",
                       f"larger than {max_bytes:,} bytes, the limit for {what or 'this file'} "
                       f"(is it the right file?); to read it, raise CONLL_EVAL_MAX_CONFIG_BYTES")


def read_config(path: str, what: str, universal: bool = True) -> bytes:
    """The bytes of a small file read whole (a weights file, a pair list, metadata.json, an rc
    file): :func:`read_checked` within MAX_LINE_BYTES a line and MAX_CONFIG_BYTES in all.  A
    missing or unreadable file raises the ``OSError`` of ``open()`` (each caller words its
    own message); ``-`` is standard input."""
    if path == "-":
        return read_checked(stdin_binary().read, path, universal, limits.MAX_CONFIG_BYTES, what)
    with open(path, "rb") as handle:
        return read_checked(handle.read, path, universal, limits.MAX_CONFIG_BYTES, what)


def read_kept(stream, path: str) -> bytes:
    """All of a stream that can be read only once (standard input, a pipe), as it came
    (compressed bytes stay compressed, for the reader that decompresses them), its lines
    checked as they were read (:class:`LineBlocks` over the decompressed text, which
    :class:`~conll_eval.io.byte_input.Decompressed` bounds): an endless or hostile stream
    ends with ``line-too-long`` (or a decompression limit) instead of filling memory."""
    recorded = Recorded(stream, path)
    head = recorded.read(MAGIC_BYTES)
    kind = compression_of(head)
    text = Prefixed(head, recorded, path)
    readable = text if kind is None else Decompressed(text, kind, path)
    for _ in LineBlocks(readable.read, path):
        pass  # checked, and kept by ``recorded``
    return b"".join(recorded.kept or ())


class LineReader:
    """The lines of the stream ``read`` (``read(n)`` as ``file.read``; the bytes of one file,
    already decompressed), as ``str`` without their line ends, read a chunk at a time
    (:class:`LineBlocks`).

    Iterating raises :class:`~conll_eval.errors.FormatError` ``invalid-utf8`` (line, column
    and byte offset of the first invalid byte) before the lines of its chunk, and
    ``line-too-long`` in place of the line that has it, after the lines before it.  ``sniff``: keep the stream's first bytes (``head``,
    ``whole``: they are all of it) for the diagnoses of a failed file; ``n_lines``: the lines
    given out so far."""

    def __init__(self, read: Callable[[int], bytes], path: str, sniff: int = 0):
        self.read, self.path, self.sniff = read, path, sniff
        self.first = b""  # the stream's first bytes (up to sniff + 1)
        self.n_lines = 0

    @property
    def head(self) -> bytes:
        return self.first[:self.sniff]

    @property
    def whole(self) -> bool:
        """Whether :attr:`head` is the whole stream (known once it was read that far)."""
        return len(self.first) <= self.sniff

    def __iter__(self) -> Iterator[str]:
        return chain.from_iterable(self._batches())  # lines in C, batches in Python

    def _read_sniffed(self, size: int) -> bytes:
        chunk = self.read(size)
        if len(self.first) <= self.sniff and chunk:
            self.first += chunk[:self.sniff + 1 - len(self.first)]
        return chunk

    def _batches(self) -> Iterator[List[str]]:
        """The lines, a block's at a time (the errors as :class:`LineReader` says)."""
        offset = 0  # the byte offset of the block in the stream
        for block in LineBlocks(self._read_sniffed, self.path):
            yield self._lines(block, offset)
            offset += len(block)

    def _lines(self, data: bytes, offset: int) -> List[str]:
        """The lines of ``data`` (whole lines, at byte ``offset`` of the stream), all
        decoded before the parser sees the first: invalid UTF-8 anywhere in them is the error,
        as for the official scripts, whose reader decodes ahead of the line it parses."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = exc.start
            line_start = _line_end_before(data, bad) + 1
            line = self.n_lines + len(split_lines(data[:line_start].decode("utf-8"))) + 1
            raise FormatError(Location(self.path, line), "invalid-utf8",
                              f"invalid UTF-8 byte 0x{data[bad]:02x} at column "
                              f"{bad - line_start + 1} (byte offset {offset + bad}); the file "
                              f"must be UTF-8") from exc
        lines = split_lines(text)
        self.n_lines += len(lines)
        return lines


def line_of(read: Callable[[int], bytes], path: str, number: int) -> str:
    """Line ``number`` (1-based; universal newlines) of the stream ``read``, reading only up
    to it in bounded chunks (:class:`LineBlocks`) and decoding only it: IndexError when the
    stream has fewer lines, ``invalid-utf8`` when that line is not UTF-8, ``line-too-long``
    when a line up to it is too long."""
    blocks = LineBlocks(read, path)
    before = 0  # lines before the block
    for block in blocks:
        last = not block.endswith((b"\n", b"\r"))  # the stream's unterminated last line
        if blocks.line_ends >= number or last:
            lines = block.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
            if number - before <= len(lines) - (not last):
                line = lines[number - before - 1]
                try:
                    return line.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise FormatError(Location(path, number), "invalid-utf8",
                                      f"invalid UTF-8 byte 0x{line[exc.start]:02x} at column "
                                      f"{exc.start + 1}; the file must be UTF-8") from exc
        before = blocks.line_ends
    raise IndexError(f"{path} has fewer than {number} lines")
