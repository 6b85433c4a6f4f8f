"""Byte-level input: files, standard input and gzip/bzip2/xz streams as bytes, and bytes as lines.

Missing, unreadable or closed inputs, corrupt compressed data and invalid UTF-8 become
:class:`~conll_eval.errors.InputError` here, before any parser sees a line.
"""
from __future__ import annotations

import codecs
import errno
import io
import sys
from typing import BinaryIO, List, Optional, Tuple

from .. import limits
from ..errors import FormatError, InputError, Location

__all__ = ["os_error", "open_binary", "stdin_binary", "read_stdin", "read_bytes", "COMPRESSIONS",
           "MAGIC_BYTES", "compression_of", "Decompressed", "Prefixed", "Recorded", "decompress", "open_bytes",
           "open_input", "check_utf8", "read_lines", "split_lines"]


def os_error(path: str, exc: OSError, what: str = "a CoNLL-U file") -> FormatError:
    """The input error for an OSError met while opening or reading ``path``, ``what`` the
    kind of file it was to be (for a directory's message)."""
    loc = Location(path)
    if isinstance(exc, FileNotFoundError):
        return FormatError(loc, "file-not-found", "no such file or directory", official=None)
    if isinstance(exc, IsADirectoryError):
        return FormatError(loc, "not-a-file", f"is a directory, not {what}")
    if isinstance(exc, PermissionError):
        return FormatError(loc, "unreadable", "permission denied")
    return FormatError(loc, "unreadable", f"cannot read: {exc.strerror or exc}")


def open_binary(path: str) -> io.BufferedReader:
    """``open(path, "rb")``; missing, unreadable or non-regular files raise FormatError."""
    try:
        return open(path, "rb")
    except OSError as exc:
        raise os_error(path, exc) from exc


def _stdin_closed() -> FormatError:
    return FormatError(Location("-"), "unreadable", "standard input is closed: pipe or redirect "
                       "a file into it, or give a file name instead of '-'")


def stdin_binary() -> BinaryIO:
    """Standard input as a binary stream; a closed one (``<&-``: ``sys.stdin`` is None) raises
    FormatError ``unreadable`` naming '-'."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", False):
        raise _stdin_closed()
    return getattr(stream, "buffer", stream)


def _read_stream(stream, path: str, size: int = -1) -> bytes:
    """``stream.read(size)`` with read errors as InputErrors (and text streams encoded)."""
    try:
        data = stream.read(size)
    except InputError:  # from a stream of ours (corrupt compressed data)
        raise
    except ValueError as exc:  # I/O operation on closed file
        if path == "-":
            raise _stdin_closed() from exc
        raise
    except OSError as exc:
        if path == "-" and exc.errno == errno.EBADF:
            raise _stdin_closed() from exc
        raise os_error(path, exc) from exc
    return data.encode("utf-8") if isinstance(data, str) else data


def read_stdin() -> bytes:
    """All of standard input as bytes, as they come (see :func:`decompress`); a closed or
    unreadable standard input raises InputError naming '-'."""
    return _read_stream(stdin_binary(), "-")


def read_bytes(path: str) -> bytes:
    """Whole file as bytes, as they come ('-' = stdin); missing, unreadable or non-regular
    files raise InputError."""
    if path == "-":
        return read_stdin()
    with open_binary(path) as handle:
        return _read_stream(handle, path)


# ---------------------------------------------------------------------------------------------
# Compressed input (gzip, bzip2, xz: read transparently, recognised by their magic numbers)

#: magic number -> compression read transparently (Python's standard library)
COMPRESSIONS = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"))
#: bytes needed to recognise every magic number of COMPRESSIONS
MAGIC_BYTES = 6


def compression_of(head: bytes) -> Optional[str]:
    """``gzip``, ``bzip2`` or ``xz`` when ``head`` (a file's first bytes) starts with that
    format's magic number, else None.  (``BZh`` must be followed by a block size digit.)"""
    for magic, name in COMPRESSIONS:
        if head.startswith(magic) and (name != "bzip2" or (len(head) > 3 and 49 <= head[3] <= 57)):
            return name
    return None


def _decompressor(kind: str, stream) -> BinaryIO:
    # here: only compressed input needs these modules (start-up time of the rest)
    if kind == "gzip":
        import gzip
        return gzip.GzipFile(fileobj=stream, mode="rb")
    if kind == "bzip2":
        import bz2
        return bz2.BZ2File(stream, mode="rb")
    import lzma
    return lzma.LZMAFile(stream, mode="rb")


def _decompression_error(path: str, kind: str, exc: BaseException) -> InputError:
    """The input error for a failure while decompressing (corrupt data, or a read error)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return os_error(path, exc)  # the file itself could not be read
    return FormatError(Location(path), "corrupt-compressed-file",
                       f"the {kind} data is corrupt or truncated ({exc}); check the file with "
                       f"{_TEST_COMMAND[kind]}")


_TEST_COMMAND = {"gzip": "gzip -t", "bzip2": "bzip2 -t", "xz": "xz -t"}


def _decompression_errors():
    # here: only compressed input needs these modules (start-up time of the rest)
    import lzma
    import zlib
    return (OSError, EOFError, zlib.error, lzma.LZMAError)


class _Counted:
    """A binary stream that counts the bytes read from it (a decompressor's compressed input)."""

    def __init__(self, stream):
        self.stream, self.count = stream, 0

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.count += len(data)
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        position = self.stream.seek(offset, whence)
        self.count = position  # a decompressor rewinds to the start
        return position


#: bytes a whole-stream read of a decompressed stream takes at a time (each checked on the limits)
_WHOLE_READ_BYTES = 1 << 20


class Decompressed:
    """A decompressing binary stream whose corrupt data raises
    :class:`~conll_eval.errors.FormatError` (``corrupt-compressed-file``) instead of
    zlib/lzma/EOF errors, and whose output is bounded (:mod:`conll_eval.limits`): more than
    MAX_DECOMPRESSED_BYTES out raises ``decompressed-too-large``, more than
    MAX_COMPRESSION_RATIO times the compressed bytes read (once RATIO_CHECK_FROM_BYTES came
    out) ``compression-ratio``.  Every decompression goes through this class, a bounded
    ``read(size)`` at a time, so a bomb is refused after at most the limit's bytes, none of
    them kept here."""

    def __init__(self, stream, kind: str, path: str):
        self.kind, self.path = kind, path
        self._compressed = _Counted(stream)
        self._stream = _decompressor(kind, self._compressed)
        self._errors = _decompression_errors()
        self.produced = 0  # decompressed bytes given out so far

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:  # whole: in bounded reads, each checked
            parts: List[bytes] = []
            while True:
                part = self.read(_WHOLE_READ_BYTES)
                if not part:
                    return b"".join(parts)
                parts.append(part)
        try:
            data = self._stream.read(size)
        except self._errors as exc:
            raise _decompression_error(self.path, self.kind, exc) from exc
        self.produced += len(data)
        self._check()
        return data

    def _check(self) -> None:
        produced, compressed = self.produced, self._compressed.count
        if produced > limits.MAX_DECOMPRESSED_BYTES:
            raise FormatError(Location(self.path), "decompressed-too-large",
                              f"the {self.kind} data expands to more than "
                              f"{limits.MAX_DECOMPRESSED_BYTES:,} bytes, the limit; to read it, "
                              f"raise CONLL_EVAL_MAX_DECOMPRESSED_BYTES or decompress it first")
        if produced >= limits.RATIO_CHECK_FROM_BYTES and \
                produced > limits.MAX_COMPRESSION_RATIO * max(compressed, 1):
            raise FormatError(Location(self.path), "compression-ratio",
                              f"the {self.kind} data expands more than "
                              f"{limits.MAX_COMPRESSION_RATIO} times ({compressed:,} bytes gave "
                              f"{produced:,} so far; CoNLL-U compresses about 5-12 times), the "
                              f"limit; to read it, raise CONLL_EVAL_MAX_COMPRESSION_RATIO")

    def seek(self, offset: int) -> int:
        if offset != 0:
            raise ValueError("a decompressed stream seeks only to its start")
        try:
            position = self._stream.seek(0)
        except self._errors as exc:
            raise _decompression_error(self.path, self.kind, exc) from exc
        self.produced = 0
        return position

    def close(self) -> None:
        self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


class Prefixed:
    """A binary stream whose first bytes were already read (``head``), then the rest;
    ``close()`` closes ``closing`` (the streams this one owns, innermost last)."""

    def __init__(self, head: bytes, stream, path: str, closing=()):
        self.head, self.stream, self.path, self.closing = head, stream, path, closing

    def read(self, size: int = -1) -> bytes:
        if self.head:
            if size is None or size < 0:
                data, self.head = self.head + _read_stream(self.stream, self.path), b""
            else:
                data, self.head = self.head[:size], self.head[size:]
            return data
        return _read_stream(self.stream, self.path, size)

    def close(self) -> None:
        for stream in self.closing:
            stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


class Recorded:
    """A stream that can be read only once (standard input, a pipe, a device), its bytes kept
    as they are read, so that :meth:`replay` reads it again from its start: the scan reads it
    first, and the exact parser, if the scan hands over, reads what the scan read and then
    the rest, which is not kept.  (Compressed input is kept compressed.)"""

    def __init__(self, stream, path: str):
        self.stream, self.path = stream, path
        self.kept: Optional[List[bytes]] = []

    def read(self, size: int = -1) -> bytes:
        data = _read_stream(self.stream, self.path, size)
        if self.kept is not None:
            self.kept.append(data)
        return data

    def replay(self) -> "_Replayed":
        """A stream of the bytes read so far, then of the rest (read once, not kept)."""
        kept, self.kept = self.kept or [], None
        return _Replayed(kept, self.stream, self.path)


class _Replayed:
    """``blocks`` read again (each given out once, then dropped), then the rest of ``stream``."""

    def __init__(self, blocks: List[bytes], stream, path: str):
        self.blocks, self.stream, self.path = blocks[::-1], stream, path  # popped from the end
        self.at = 0  # bytes of the last block given out already

    def read(self, size: int = -1) -> bytes:
        if not self.blocks:
            return _read_stream(self.stream, self.path, size)
        block = self.blocks[-1]
        if size is None or size < 0 or self.at + size >= len(block):
            self.blocks.pop()
            data, self.at = block[self.at:], 0
            return data if data or not self.blocks else self.read(size)
        data = block[self.at:self.at + size]
        self.at += size
        return data

    def close(self) -> None:
        pass  # the stream it reads is its owner's


def open_bytes(data: bytes, path: str) -> BinaryIO:
    """A stream of ``data`` (a file's bytes already in memory), decompressed when it is
    gzip, bzip2 or xz (bounded, see :class:`Decompressed`)."""
    kind = compression_of(data[:MAGIC_BYTES])
    return io.BytesIO(data) if kind is None else Decompressed(io.BytesIO(data), kind, path)  # type: ignore[return-value]


def decompress(data: bytes, path: str) -> bytes:
    """``data`` decompressed when it starts with a gzip, bzip2 or xz magic number (several
    concatenated streams too), else ``data`` itself; corrupt data raises FormatError, and so
    does data beyond the limits of :class:`Decompressed`.  (Whole in memory: readers that can
    stream read :func:`open_bytes` or :func:`open_input` instead.)"""
    kind = compression_of(data[:MAGIC_BYTES])
    if kind is None:
        return data
    with Decompressed(io.BytesIO(data), kind, path) as stream:
        return stream.read()


def open_input(path: str, sniff: int = 0) -> Tuple[BinaryIO, bytes]:
    """A binary stream of a file's CoNLL-U bytes ('-' = stdin), decompressed when the file is
    gzip, bzip2 or xz (by its magic number, whatever its name), and its first ``sniff``
    (decompressed) bytes, which the stream still returns.  Missing, unreadable or non-regular
    files raise InputError; corrupt compressed data raises it while reading."""
    raw = stdin_binary() if path == "-" else open_binary(path)
    owned = () if path == "-" else (raw,)  # standard input stays open
    try:
        head = _read_stream(raw, path, max(MAGIC_BYTES, sniff))
        kind = compression_of(head[:MAGIC_BYTES])
        if kind is None:
            return Prefixed(head, raw, path, owned), head[:sniff]
        stream = Decompressed(Prefixed(head, raw, path), kind, path)
        head = stream.read(sniff) if sniff else b""
        return Prefixed(head, stream, path, (stream,) + owned), head
    except BaseException:
        for stream in owned:
            stream.close()
        raise


def check_utf8(data: bytes, path: str, keep: bool = False) -> Optional[str]:
    """Validate UTF-8 (in slices, to bound memory), returning the text when ``keep``.

    Invalid UTF-8 raises InputError naming line, column and byte.
    """
    try:
        if keep:
            return data.decode("utf-8")
        decoder = codecs.getincrementaldecoder("utf-8")()
        view = memoryview(data)
        for offset in range(0, len(data), _UTF8_SLICE):
            decoder.decode(view[offset:offset + _UTF8_SLICE])
        decoder.decode(b"", final=True)
        return None
    except UnicodeDecodeError:
        pass
    try:  # find the exact position
        data.decode("utf-8")
        raise AssertionError("incremental and whole UTF-8 decoding disagree")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(Location(path, line), "invalid-utf8",
                          f"invalid UTF-8 byte 0x{data[exc.start]:02x} at column {column} "
                          f"(byte offset {exc.start}); the file must be UTF-8") from exc


_UTF8_SLICE = 1 << 24


def read_lines(data: bytes, path: str) -> List[str]:
    """Decode UTF-8 and split into lines the way Python's universal-newline readline does."""
    return split_lines(check_utf8(data, path, keep=True))


def split_lines(text: str) -> List[str]:
    """The lines of ``text`` as universal newlines split them (LF, CRLF, CR; a final line end
    ends the last line, it starts no empty one)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines

