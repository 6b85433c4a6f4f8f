"""Text lines of a byte stream read in bounded chunks, and the longest-line check of byte buffers.

:class:`LineReader` gives the exact parser a file's lines one at a time (split as Python's
universal newlines split them, as :func:`~conll_eval.io.byte_input.read_lines` does), so that
memory is one chunk whatever the file's shape: a file of blank lines or comments is never held
as a list of lines.  Its errors come in line order, when the parser asks for the line: invalid
UTF-8 (``invalid-utf8``, before the lines of the chunk that has it, as the official scripts'
reader decodes ahead of the line it parses) and a line longer than
:data:`conll_eval.limits.MAX_LINE_BYTES` (``line-too-long``, found after reading at most that
many bytes of it: ``/dev/zero`` ends).
:func:`has_long_line` is the same limit for the scan's pieces, in a few ``find`` calls a piece.
"""
from __future__ import annotations

from itertools import chain
from typing import Callable, Iterator, List

from .. import limits
from ..errors import FormatError, Location

__all__ = ["LINE_CHUNK_BYTES", "LineReader", "has_long_line", "line_too_long"]

#: bytes read at a time (at most the line limit and one: then only a line begun in an earlier
#: chunk can be longer than the limit, and only that one is measured)
LINE_CHUNK_BYTES = 1 << 20

LF, CR = 10, 13


def line_too_long(path: str, line: int) -> FormatError:
    """The error for line ``line`` of ``path``, longer than MAX_LINE_BYTES."""
    return FormatError(Location(path, line), "line-too-long",
                       f"line longer than {limits.MAX_LINE_BYTES:,} bytes, the limit (CoNLL-U "
                       f"lines are a few kB at most: is this a CoNLL-U file?); to read it, "
                       f"raise CONLL_EVAL_MAX_LINE_BYTES")


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


def _line_end_after(data: bytes, start: int = 0) -> int:
    """The first CR or LF at or after ``start`` (-1: none)."""
    lf, cr = data.find(b"\n", start), data.find(b"\r", start)
    return lf if cr < 0 else cr if lf < 0 else min(lf, cr)


def _line_end_before(data: bytes, end: int) -> int:
    """The last CR or LF before ``end`` (-1: none)."""
    return max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))


def _split(text: str) -> List[str]:
    """The lines of ``text`` (universal newlines; a final line end ends the last line)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class LineReader:
    """The lines of the stream ``read`` (``read(n)`` as ``file.read``; the bytes of one file,
    already decompressed), as ``str`` without their line ends, read a chunk at a time.

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

    def _batches(self) -> Iterator[List[str]]:
        """The lines, a chunk's at a time (the errors as :class:`LineReader` says)."""
        limit = limits.MAX_LINE_BYTES
        chunk_size = min(LINE_CHUNK_BYTES, limit + 1)
        rest = b""  # an unfinished line (or a CR that may be half of a CRLF), from the chunk before
        offset = 0  # the byte offset of ``rest`` in the stream
        while True:
            chunk = self.read(chunk_size)
            if len(self.first) <= self.sniff and chunk:
                self.first += chunk[:self.sniff + 1 - len(self.first)]
            data = rest + chunk if rest else chunk
            if not chunk:
                cut = len(data)
            else:  # after the last line end (a final CR waits: a LF may follow it)
                cut = _line_end_before(data, len(data) - (data[-1] == CR)) + 1
            if cut:
                first_end = _line_end_after(data)
                if first_end > limit or (first_end < 0 and cut > limit):
                    raise line_too_long(self.path, self.n_lines + 1)
                yield self._lines(data, cut, offset)
            rest, offset = data[cut:], offset + cut
            if not chunk:
                return
            if len(rest) - (rest[-1:] == b"\r") > limit:
                raise line_too_long(self.path, self.n_lines + 1)

    def _lines(self, data: bytes, cut: int, offset: int) -> List[str]:
        """The lines of ``data[:cut]`` (whole lines, at byte ``offset`` of the stream), all
        decoded before the parser sees the first: invalid UTF-8 anywhere in them is the error,
        as for the official scripts, whose reader decodes ahead of the line it parses."""
        try:
            text = data[:cut].decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = exc.start
            line_start = _line_end_before(data, bad) + 1
            line = self.n_lines + len(_split(data[:line_start].decode("utf-8"))) + 1
            raise FormatError(Location(self.path, line), "invalid-utf8",
                              f"invalid UTF-8 byte 0x{data[bad]:02x} at column "
                              f"{bad - line_start + 1} (byte offset {offset + bad}); the file "
                              f"must be UTF-8") from exc
        lines = _split(text)
        self.n_lines += len(lines)
        return lines
