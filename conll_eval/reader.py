"""CoNLL-U files -> :class:`~conll_eval.treebank.Treebank`, with the official scorers' rules.

The reader accepts and rejects exactly the files that the selected profile's official
script (``conll17``: ufal/conll2017 v1.3, ``conll18``: ufal/conll2018, ``iwpt``: the IWPT 2020
scorer) accepts and rejects, and raises :class:`~conll_eval.errors.InputError` with a stable
code and ``path:line`` otherwise.  Where the official script crashes with a Python exception
(recursion on a long head chain, a non-integer HEAD inside a multi-word token) we either
score (well-formed input) or raise a proper error.

Two parsers produce the same columns: a vectorised one for regular files (integer IDs in
sequence, multi-word tokens followed by their word lines, comments only before sentences)
and an exact line-by-line state machine that mirrors the official reader for everything
else, including its error precedence.  The fast one hands over whenever it sees anything
irregular, so the slow one decides every error.

Input the official scripts cannot read at all is read anyway: gzip, bzip2 and xz files
(recognised by their magic numbers, whatever their names; line numbers count the
decompressed text).  A file that is obviously not CoNLL-U (another encoding, an archive,
Markdown, HTML, JSON, plain text) is rejected exactly where the official script rejects it,
with the same official text, but its error says what the file looks like
(:func:`describe_non_conllu`); this is only worked out once a file has failed.  A closed
standard input is an ``unreadable`` error naming ``-``.
"""
from __future__ import annotations

import codecs
import errno
import os
import sys
from typing import BinaryIO, Dict, List, Optional, Tuple, Union

import numpy as np

from .errors import FormatError, InputError, Location, TreeError, UsageError
from .scan import (Columns, LazyCodes, file_identity, metadata, scan, scan_stream,
                   utf8_valid)
from .treebank import Treebank, Vocab

__all__ = ["PROFILE_NAMES", "load", "load_source", "load_text", "read_lines", "official_message", "open_input",
           "stdin_binary", "read_stdin", "read_bytes", "compression_of", "decompress",
           "describe_non_conllu", "explain_error", "SNIFF_BYTES"]

#: Profiles the reader knows; which characters it removes from FORM.
PROFILE_NAMES = ("conll17", "conll18", "iwpt", "udeval")
#: profiles with the IWPT 2020 reader's messages (udeval is its descendant)
_IWPT_READERS = ("iwpt", "udeval")


class LazyRegex:
    """A ``regex`` pattern compiled on first use: ``pattern`` is its text, every other
    attribute (``sub``, ``search``, ...) the compiled pattern's.  Why: importing ``regex``
    costs ~7 ms of start-up, and scoring a regular file on the compiled path only reads the
    space pattern's text."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str):
        self.pattern = pattern
        self._compiled = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            import regex

            self._compiled = regex.compile(self.pattern)
        return getattr(self._compiled, name)


_ZS = LazyRegex(r"\p{Zs}")
_ASCII_SPACE = LazyRegex(" ")

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)


def _space_pattern(profile: str):
    return _ASCII_SPACE if profile == "conll17" else _ZS


def _check_profile(profile: str) -> None:
    if profile not in PROFILE_NAMES:
        raise UsageError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILE_NAMES)}")


# ---------------------------------------------------------------------------------------------
# Official message texts (what the profile's UDError would say)

def official_message(profile: str, kind: str, line: Optional[int], **kw) -> str:
    """The text of the official script's UDError for ``kind`` (see :mod:`conll_eval.compat`)."""
    at = "" if profile == "conll17" or line is None else f" at line {line}"
    if kind == "unfinished-mwt" and profile == "udeval":
        return f"The CoNLL-U file ends in an unfinished MWT at line {line}"
    if kind in ("columns", "unfinished-mwt"):
        if kw.get("in_mwt") and profile == "conll18":
            at = ""
        return f"The CoNLL-U line does not contain 10 tab-separated columns{at}: '{kw['text']}'"
    if kind == "empty-form":
        return f"There is an empty FORM in the CoNLL-U file{at}"
    if kind == "mwt-id":
        return f"Cannot parse multi-word token ID '{kw['id']}'{at}"
    if kind == "word-id":
        return f"Cannot parse word ID '{kw['id']}'{at}"
    if kind == "unexpected-id":
        return f"Incorrect word ID '{kw['id']}' for word '{kw['form']}', expected '{kw['expected']}'{at}"
    if kind == "head-parse":
        return f"Cannot parse HEAD '{kw['head']}'{at}"
    if kind == "head-negative":
        return f"HEAD cannot be negative{at}"
    if kind == "head-range":
        if profile in _IWPT_READERS:
            return f"HEAD '{kw['head']}' points outside of the sentence that ends at line {line}"
        return f"HEAD '{kw['head']}' points outside of the sentence{at}"
    if kind == "cycle":
        if profile in _IWPT_READERS:
            return f"There is a cycle in the sentence that ends at line {line}"
        return f"There is a cycle in a sentence{at}"
    if kind == "roots":
        roots = kw["roots"]
        if profile == "conll17":
            return "There are multiple roots in a sentence"
        if profile in _IWPT_READERS:
            if kw.get("words") == 0:
                return f"There is a sentence with 0 tokens (possibly a double blank line) at line {line}"
            if roots == 0:
                return f"There are no roots in the sentence that ends at {line}"
            return f"There are multiple roots in the sentence that ends at {line}"
        return f"There are {roots} roots in a sentence{at}"
    if kind == "final":
        return "The CoNLL-U file does not end with empty line"
    raise KeyError(kind)


# ---------------------------------------------------------------------------------------------
# Bytes -> lines

def os_error(path: str, exc: OSError) -> FormatError:
    """The input error for an OSError met while opening or reading ``path``."""
    loc = Location(path)
    if isinstance(exc, FileNotFoundError):
        return FormatError(loc, "file-not-found", "no such file", official=None)
    if isinstance(exc, IsADirectoryError):
        return FormatError(loc, "not-a-file", "is a directory, not a CoNLL-U file")
    if isinstance(exc, PermissionError):
        return FormatError(loc, "unreadable", "permission denied")
    return FormatError(loc, "unreadable", f"cannot read: {exc.strerror or exc}")


def open_binary(path: str) -> BinaryIO:
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
    import lzma
    import zlib
    return (OSError, EOFError, zlib.error, lzma.LZMAError)


class _Decompressed:
    """A decompressing binary stream whose corrupt data raises
    :class:`~conll_eval.errors.FormatError` (``corrupt-compressed-file``) instead of
    zlib/lzma/EOF errors."""

    def __init__(self, stream, kind: str, path: str):
        self.kind, self.path = kind, path
        self._stream = _decompressor(kind, stream)
        self._errors = _decompression_errors()

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except self._errors as exc:
            raise _decompression_error(self.path, self.kind, exc) from exc

    def seek(self, offset: int) -> int:
        try:
            return self._stream.seek(offset)
        except self._errors as exc:
            raise _decompression_error(self.path, self.kind, exc) from exc

    def close(self) -> None:
        self._stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


class _Prefixed:
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


def decompress(data: bytes, path: str) -> bytes:
    """``data`` decompressed when it starts with a gzip, bzip2 or xz magic number (several
    concatenated streams too), else ``data`` itself; corrupt data raises FormatError."""
    kind = compression_of(data[:MAGIC_BYTES])
    if kind is None:
        return data
    import io
    with _Decompressed(io.BytesIO(data), kind, path) as stream:
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
            return _Prefixed(head, raw, path, owned), head[:sniff]
        stream = _Decompressed(_Prefixed(head, raw, path), kind, path)
        head = stream.read(sniff) if sniff else b""
        return _Prefixed(head, stream, path, (stream,) + owned), head
    except BaseException:
        for stream in owned:
            stream.close()
        raise


def _check_utf8(data: bytes, path: str, keep: bool = False) -> Optional[str]:
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
    text = _check_utf8(data, path, keep=True)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def load(source: Union[str, os.PathLike, BinaryIO], profile: str = "conll18",
         vocab: Optional[Vocab] = None, trees: bool = True,
         multiple_roots: bool = False) -> Treebank:
    """Read a CoNLL-U file (path, ``-`` for stdin, or a binary file object) into a Treebank.

    Raises :class:`~conll_eval.errors.InputError` (with ``path:line`` and a stable code)
    exactly where the profile's official scorer rejects the file.  With a ``vocab`` of the
    caller's, the reader's string tables stay with it for the next file read into it (see
    :meth:`Vocab.reader_state`); a vocabulary made here does not keep them.

    ``trees=False`` (tagger output, which needs no tree) drops only the tree checks: HEAD
    may be ``_``, and a sentence without exactly one root, with a cycle or a HEAD outside
    it is read with every ``head`` -1 (no tree); everything else is checked as usual.
    ``multiple_roots`` (``--multiple-roots-okay``) accepts a sentence with several roots.
    """
    _check_profile(profile)
    if vocab is None:
        vocab = Vocab()
        treebank = load(source, profile, vocab, trees, multiple_roots)
        vocab.drop_reader_state()
        return treebank
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path != "-" and os.path.isfile(path):
            return _load_regular_file(path, profile, vocab, trees, multiple_roots)
        data = read_bytes(path)
    else:
        path = getattr(source, "name", "<stream>")
        path = path if isinstance(path, str) else "<stream>"
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    return parse_bytes(data, path, profile, vocab, trees, multiple_roots)


def load_source(source: Union[str, os.PathLike, BinaryIO], profile: str = "conll18",
                vocab: Optional[Vocab] = None, *args, collapse: bool = False,
                **kwargs) -> Treebank:
    """:func:`load`, or with ``collapse`` (``--collapse-empty-nodes``)
    :func:`load_collapsed`: the empty nodes collapsed first."""
    if not collapse:
        return load(source, profile, vocab, *args, **kwargs)
    return load_collapsed(source, profile, vocab, *args, **kwargs)


def load_collapsed(source: Union[str, BinaryIO], profile: str = "conll18",
                   vocab: Optional[Vocab] = None, *args, **kwargs) -> Treebank:
    """Like :func:`load` (the same further arguments), with the empty
    nodes collapsed first; line numbers (of the Treebank and of any error) are the original
    file's."""
    # here: only --collapse-empty-nodes needs the collapsing (start-up time of the rest)
    from .empty_nodes import LineMap, iter_collapsed, remap_lines, remapped_error
    if isinstance(source, str):
        path = source
        stream, _ = open_input(path)
    else:
        path = getattr(source, "name", "<stream>")
        path = path if isinstance(path, str) else "<stream>"
        stream = source
    line_map = LineMap()
    try:
        data = b"".join(iter_collapsed(stream.read, path, line_map))
    finally:
        if isinstance(source, str):
            stream.close()
    try:
        treebank = parse_bytes(data, path, profile, vocab, *args, **kwargs)
    except InputError as exc:
        raise remapped_error(exc, path, line_map) from exc
    return remap_lines(treebank, line_map)


def _load_regular_file(path: str, profile: str, vocab: Vocab, trees: bool = True,
                       multiple_roots: bool = False) -> Treebank:
    """A file on disk, scanned piece by piece (bounded memory); if it is not regular, read
    whole and parsed the exact way (which reports every error).  A gzip, bzip2 or xz file
    (by its magic number) is decompressed on the fly; its DEPS, MISC and comments are then
    kept in memory instead of being read again from the file."""
    with open_binary(path) as handle:
        try:
            kind = compression_of(handle.peek(MAGIC_BYTES)[:MAGIC_BYTES])
            stream = handle if kind is None else _Decompressed(handle, kind, path)
            identity = file_identity(path, handle)
            columns = scan_stream(stream.read, _space_pattern(profile), vocab, utf8_valid,
                                  identity if kind is None else None,
                                  getattr(stream, "readinto", None),
                                  identity[1] if kind is None else None)
            if columns is None:
                stream.seek(0)
                data = stream.read()
        except OSError as exc:
            raise os_error(path, exc) from exc
    if columns is None:
        columns = _parse_exact(data, path, profile, trees, multiple_roots)
    return _build(columns, path, vocab)


def _parse_exact(data: bytes, path: str, profile: str, trees: bool = True,
                 multiple_roots: bool = False) -> Columns:
    """The exact parser, which decides every error (read_lines checks the UTF-8 and says
    where it is wrong); in a file that is obviously not CoNLL-U the error says what the file
    looks like instead (:func:`explain_error`).  ``trees``: see :func:`load`."""
    try:
        return _ExactParser(read_lines(data, path), path, profile, trees, multiple_roots).run()
    except InputError as exc:
        clearer = explain_error(exc, data[:SNIFF_BYTES], len(data) <= SNIFF_BYTES)
        if clearer is None:
            raise
        raise clearer from exc


def load_text(text: str, profile: str = "conll18", path: str = "<string>",
              vocab: Optional[Vocab] = None, trees: bool = True) -> Treebank:
    """Like :func:`load` for a string holding a whole CoNLL-U file."""
    _check_profile(profile)
    return parse_bytes(text.encode("utf-8"), path, profile, vocab, trees)


def parse_bytes(data: bytes, path: str, profile: str, vocab: Optional[Vocab] = None,
                trees: bool = True, multiple_roots: bool = False) -> Treebank:
    """Bytes of a CoNLL-U file -> Treebank: the vectorised scan first, the exact parser if
    irregular (the scan only accepts valid trees, so ``trees`` only matters there)."""
    vocab = Vocab() if vocab is None else vocab
    data = decompress(data, path)
    try:
        _check_utf8(data, path)  # the scan relies on valid UTF-8
    except InputError:
        columns = None  # the exact parser reports it, explained (see _parse_exact)
    else:
        columns = scan(data, _space_pattern(profile), vocab)
    if columns is None:
        columns = _parse_exact(data, path, profile, trees, multiple_roots)
    return _build(columns, path, vocab)


# ---------------------------------------------------------------------------------------------
# What a file that is obviously not CoNLL-U looks like (only ever asked after an error)

#: bytes looked at to tell what a rejected file is
SNIFF_BYTES = 4096

_UTF16_32 = ((b"\xff\xfe\x00\x00", "UTF-32", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32", "UTF-32"),
             (b"\xff\xfe", "UTF-16", "UTF-16"), (b"\xfe\xff", "UTF-16", "UTF-16"))
#: (magic number, offset, code, message) of formats we do not read
_FOREIGN = (
    (b"PK\x03\x04", 0, "compressed-file", "a zip archive, not a CoNLL-U file: extract it first (unzip)"),
    (b"PK\x05\x06", 0, "compressed-file", "an (empty) zip archive, not a CoNLL-U file"),
    (b"\x28\xb5\x2f\xfd", 0, "compressed-file", "zstd-compressed file: decompress it first (zstd -d)"),
    (b"7z\xbc\xaf\x27\x1c", 0, "compressed-file", "a 7-Zip archive, not a CoNLL-U file: extract it first (7z x)"),
    (b"ustar", 257, "compressed-file", "a tar archive, not a CoNLL-U file: extract it first (tar -xf)"),
    (b"%PDF-", 0, "not-conllu", "a PDF file, not a CoNLL-U file"),
)


def _nul_pattern(head: bytes) -> Optional[Tuple[str, str]]:
    """(encoding, iconv name) when NUL bytes sit where UTF-16/UTF-32 text without a
    byte-order mark has them (the high bytes of Latin characters)."""
    n = min(len(head), 512) // 4 * 4
    if n < 8:
        return None
    share = [head[r:n:4].count(0) / (n // 4) for r in range(4)]
    high = [x >= 0.5 for x in share]
    low = [x <= 0.1 for x in share]
    for pattern, encoding in (((0, 1, 1, 1), "UTF-32LE"), ((1, 1, 1, 0), "UTF-32BE"),
                              ((0, 1, 0, 1), "UTF-16LE"), ((1, 0, 1, 0), "UTF-16BE")):
        if all(high[r] if nul else low[r] for r, nul in enumerate(pattern)):
            return encoding[:6], encoding
    return None


_ID_LIKE = LazyRegex(r"[0-9]+(?:[-.][0-9]+)?")


def describe_non_conllu(head: bytes, whole: bool = False) -> Optional[Tuple[str, str, Optional[int]]]:
    """What a file that is obviously not CoNLL-U looks like, from its first bytes ``head``
    (``whole``: they are the whole file): ``(code, message, line)``, where ``line`` is the
    line the message is about (None: the whole file), or None when nothing stands out.

    * another encoding: UTF-16/UTF-32 with or without byte-order mark (``wrong-encoding``);
    * an archive or compressed format this package does not read (``compressed-file``):
      zip, zstd, 7-Zip, tar;
    * text whose first line that is neither blank nor a comment has no tab (``not-conllu``),
      with a guess: HTML, XML, JSON, Markdown or plain text.  A line of space-separated
      columns that starts with a word ID is left alone (the columns error says "spaces
      instead of tabs?").

    A UTF-8 byte-order mark is not reported here (the reader's ``bom`` error names it).
    """
    for bom, name, iconv in _UTF16_32:
        if head.startswith(bom):
            return ("wrong-encoding", f"{name} text (with a byte-order mark): CoNLL-U must be UTF-8; "
                    f"convert with iconv -f {iconv} -t UTF-8", None)
    for magic, offset, code, message in _FOREIGN:
        if head[offset:offset + len(magic)] == magic:
            return code, message, None
    nul = _nul_pattern(head)
    if nul is not None:
        name, iconv = nul
        return ("wrong-encoding", f"{name} text: CoNLL-U must be UTF-8; convert with "
                f"iconv -f {iconv} -t UTF-8", None)
    if head.startswith(codecs.BOM_UTF8):
        return None
    lines = head.decode("utf-8", "replace").split("\n")
    if not whole:
        lines.pop()  # may be cut short
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if "\t" in line or (len(fields) >= 6 and _ID_LIKE.fullmatch(fields[0])):
            return None
        return ("not-conllu", f"does not look like CoNLL-U: line {number} has no tab-separated "
                f"columns ({_guess_format(lines)})", number)
    return None


def _guess_format(lines: List[str]) -> str:
    text = "\n".join(lines).lstrip("\ufeff \t\r\n")
    lower = text[:200].lower()
    if lower.startswith(("<!doctype html", "<html")) or "<html" in lower:
        return "an HTML file?"
    if lower.startswith("<?xml"):
        return "an XML file?"
    if lower.startswith("<"):
        return "an HTML or XML file?"
    if lower.startswith(("{", "[")):
        return "a JSON file?"
    if any(line.startswith(("# ", "## ", "```", "- ", "* ", "| ", "> ")) or line.startswith("===")
           for line in lines):
        return "a Markdown file?"
    return "plain text?"


def explain_error(error: InputError, head: bytes, whole: bool = False) -> Optional[InputError]:
    """``error`` (raised for a file whose first bytes are ``head``) said the way the file is
    wrong when it is obviously not CoNLL-U (see :func:`describe_non_conllu`), at the line the
    description is about (line 1 for the whole file), with the same official text; None when
    the file does not stand out or the error comes after that line (it then has a cause of
    its own)."""
    found = describe_non_conllu(head, whole)
    if found is None or error.code == "bom":
        return None
    code, message, line = found
    if line is not None and error.location.line is not None and error.location.line > line:
        return None
    return FormatError(Location(error.location.path, line or 1), code, message, error.official)


def _codes(vocab: Vocab, values) -> np.ndarray:
    return values if isinstance(values, np.ndarray) else vocab.encode(values)


def _build(c: Columns, path: str, vocab: Vocab) -> Treebank:
    # character offsets: int32 unless the text is too long (half the memory of int64)
    offset_type = np.int32 if len(c.text) < 2 ** 31 else np.int64
    tok_len = np.asarray(c.tok_len, dtype=offset_type)
    tok_end = np.cumsum(tok_len, dtype=offset_type)
    tok_start = tok_end - tok_len
    del tok_len
    columns = {name: values if isinstance(values, LazyCodes) else _codes(vocab, values)
               for name, values in c.cols.items()}
    word_is_mwt = np.asarray(c.word_is_mwt, dtype=bool)
    mwt_form = getattr(c, "mwt_form", None)
    if mwt_form is None:
        mwt_form = np.where(word_is_mwt, columns["form"], -1).astype(np.int32)
    spaced_tok = getattr(c, "spaced_tok", None)
    spaced_tok_form = getattr(c, "spaced_tok_form", None)
    if spaced_tok is None:  # a parser that does not say: no FORM lost a space
        spaced_tok = spaced_tok_form = ()
    return Treebank(
        path=path, vocab=vocab, text=c.text,
        tok_start=tok_start, tok_end=tok_end,
        tok_line=np.asarray(c.tok_line, dtype=np.int32),
        tok_is_mwt=np.asarray(c.tok_is_mwt, dtype=bool),
        word_tok=np.asarray(c.word_tok, dtype=np.int32),
        word_is_mwt=word_is_mwt,
        word_line=np.asarray(c.word_line, dtype=np.int32),
        word_sent=np.asarray(c.word_sent, dtype=np.int32),
        head=np.asarray(c.head, dtype=np.int32),
        mwt_form=mwt_form,
        columns=columns,
        sent_word_start=np.asarray(c.sent_word_start, dtype=np.int32),
        sent_char_start=np.asarray(c.sent_char_start, dtype=offset_type),
        sent_char_end=np.asarray(c.sent_char_end, dtype=offset_type),
        sent_first_line=np.asarray(c.sent_first_line, dtype=np.int32),
        sent_end_line=np.asarray(c.sent_end_line, dtype=np.int32),
        metadata=c.metadata,
        empty_sent=np.asarray(c.empty_sent, dtype=np.int32),
        empty_after=np.asarray(c.empty_after, dtype=np.int32),
        empty_line=np.asarray(c.empty_line, dtype=np.int32),
        empty_columns={name: _codes(vocab, values) for name, values in c.empty_cols.items()},
        spaced_tok=np.asarray(spaced_tok, dtype=np.int32),
        spaced_tok_form=np.asarray(_codes(vocab, spaced_tok_form), dtype=np.int32),
    )


_COLUMN_NAMES = {"form": FORM, "lemma": LEMMA, "upos": UPOS, "xpos": XPOS, "feats": FEATS,
                 "deprel": DEPREL, "deps": DEPS, "misc": MISC}
_EMPTY_NAMES = {"id": ID, **_COLUMN_NAMES}


# ---------------------------------------------------------------------------------------------
# Exact line-by-line parser (mirrors the official reader, including error precedence)

class _ExactParser:
    def __init__(self, lines: List[str], path: str, profile: str, trees: bool = True,
                 multiple_roots: bool = False):
        self.multiple_roots = multiple_roots
        self.lines = lines
        self.path = path
        self.profile = profile
        self.trees = trees  # False: HEAD may be _, no tree checks (see load)
        self.space = _space_pattern(profile)

    # errors -------------------------------------------------------------------------------
    def _loc(self, line: Optional[int], sent_id: Optional[str] = None) -> Location:
        return Location(self.path, line, sent_id)

    def _format_error(self, line, code, message, kind=None, **kw):
        official = official_message(self.profile, kind, line, **kw) if kind else None
        return self._blame(FormatError(self._loc(line, self.pending_sent_id), code, message, official))

    def _tree_error(self, line, code, message, kind, **kw):
        return self._blame(TreeError(self._loc(line, self.pending_sent_id), code, message,
                                     official_message(self.profile, kind, line, **kw)))

    def _blame(self, error: InputError) -> InputError:
        """Name the real cause when an empty node inside a multi-word token led to ``error``.

        The official reader takes such a line as one of the token's words and fails later
        (usually on the next word ID); we report the empty node, with the official text.
        """
        if error.location.line == 1 and self.lines and self.lines[0].startswith("\ufeff"):
            return FormatError(error.location, "bom", "the file starts with a UTF-8 byte-order mark "
                               "(BOM), which the official scorers reject: save it without BOM",
                               error.official)
        if self.empty_in_mwt is None:
            return error
        line, message = self.empty_in_mwt
        return FormatError(self._loc(line, self.pending_sent_id), "empty-node-in-mwt", message,
                           error.official)

    def _columns_error(self, lineno: int, text: str, in_mwt: bool = False):
        """Wrong column count; a '#' line only gets here inside a sentence."""
        n = text.count("\t") + 1
        if text.startswith("#") and not in_mwt:
            code, msg = "misplaced-comment", ("comment line inside a sentence: comments are only "
                                              "allowed before the first word line of a sentence")
        else:
            code = "wrong-column-count"
            if text.strip() == "":
                msg = ("line contains only whitespace" if text else "empty line") + \
                    " where a word line with 10 tab-separated columns is expected"
            else:
                msg = f"expected 10 tab-separated columns, found {n}"
                if n == 1 and " " in text:
                    msg += " (columns separated by spaces instead of tabs?)"
            if in_mwt:
                msg += " (inside a multi-word token, whose word lines must follow its range line)"
        return self._format_error(lineno, code, msg, "columns", text=text, in_mwt=in_mwt)

    # main loop ----------------------------------------------------------------------------
    def run(self) -> Columns:
        lines = self.lines
        space = self.space
        n_lines = len(lines)
        forms_chars: List[str] = []
        tok_len: List[int] = []
        tok_line: List[int] = []
        tok_is_mwt: List[bool] = []
        word_tok: List[int] = []
        word_is_mwt: List[bool] = []
        word_line: List[int] = []
        word_sent: List[int] = []
        word_head_text: List[str] = []
        heads: List[int] = []
        cols: Dict[str, List[str]] = {name: [] for name in _COLUMN_NAMES}
        empty_cols: Dict[str, List[str]] = {name: [] for name in _EMPTY_NAMES}
        empty_sent: List[int] = []
        empty_after: List[int] = []
        empty_line: List[int] = []

        def keep_empty_node(columns: List[str], lineno: int) -> None:
            """An empty node's line, kept aside (after the words read so far)."""
            empty_sent.append(len(sent_word_start) - 1)
            empty_after.append(len(heads))
            empty_line.append(lineno)
            for name, col in _EMPTY_NAMES.items():
                empty_cols[name].append(columns[col])

        sent_word_start: List[int] = []
        sent_char_start: List[int] = []
        sent_char_end: List[int] = []
        sent_first_line: List[int] = []
        sent_end_line: List[int] = []
        sent_ids: List[Optional[str]] = []
        sent_texts: List[Optional[str]] = []
        spaced_tok: List[int] = []  # tokens whose FORM lost spaces, and that FORM as written
        spaced_tok_form: List[str] = []

        index = 0
        sentence_start: Optional[int] = None
        self.pending_sent_id = None
        self.empty_in_mwt: Optional[Tuple[int, str]] = None
        pending_text = None
        i = 0
        while i < n_lines:
            line = lines[i]
            lineno = i + 1
            i += 1
            if sentence_start is None:
                if line.startswith("#"):
                    meta = metadata(line)
                    if meta is not None:
                        if meta[0] == "sent_id":
                            self.pending_sent_id = meta[1]
                        else:
                            pending_text = meta[1]
                    continue
                sentence_start = len(heads)
                sent_word_start.append(sentence_start)
                sent_char_start.append(index)
                sent_first_line.append(lineno)
                sent_ids.append(self.pending_sent_id)
                sent_texts.append(pending_text)
            if not line:
                self._finish_sentence(sentence_start, lineno, heads, word_head_text, word_line,
                                      word_is_mwt, cols)
                sent_char_end.append(index)
                sent_end_line.append(lineno)
                sentence_start = None
                self.empty_in_mwt = None
                self.pending_sent_id = None
                pending_text = None
                continue

            columns = line.split("\t")
            if len(columns) != 10:
                raise self._columns_error(lineno, line)
            if "." in columns[ID]:
                keep_empty_node(columns, lineno)
                continue
            form = columns[FORM]
            if space.search(form):
                form = space.sub("", form)
                spaced_tok.append(len(tok_len))  # this token, as written (for "written_form")
                spaced_tok_form.append(columns[FORM])
            if not form:
                raise self._format_error(lineno, "empty-form",
                                         "FORM is empty" + (" after removing spaces" if columns[FORM] else ""),
                                         "empty-form")
            token = len(tok_len)
            forms_chars.append(form)
            tok_len.append(len(form))
            tok_line.append(lineno)
            index += len(form)
            sent_index = len(sent_word_start) - 1

            if "-" in columns[ID]:
                tok_is_mwt.append(True)
                try:
                    first, last = map(int, columns[ID].split("-"))
                except ValueError as exc:
                    raise self._format_error(lineno, "invalid-mwt-id",
                                             f"cannot parse multi-word token ID {columns[ID]!r}",
                                             "mwt-id", id=columns[ID]) from exc
                needed = last - first + 1
                while needed > 0:
                    if self.profile == "udeval" and (i >= n_lines or not lines[i]):
                        raise self._format_error(
                            i, "unfinished-mwt", f"multi-word token {columns[ID]} (line {lineno}) "
                            f"is not followed by its {last - first + 1} word lines", "unfinished-mwt")
                    if i >= n_lines:
                        raise self._format_error(
                            lineno, "unfinished-mwt",
                            f"the file ends inside multi-word token {columns[ID]} "
                            f"(its {last - first + 1} word lines are expected next)",
                            "columns", text="", in_mwt=True)
                    word_text = lines[i]
                    i += 1
                    word_columns = word_text.split("\t")
                    if len(word_columns) != 10:
                        raise self._columns_error(i, word_text, in_mwt=True)
                    if "." in word_columns[ID] and self.profile == "udeval":
                        keep_empty_node(word_columns, i)  # udeval skips it among the words
                        continue
                    needed -= 1
                    if "." in word_columns[ID] and self.empty_in_mwt is None:
                        # Taken as one of the token's words, like the official reader does;
                        # an error later in this sentence is blamed on this line (_blame).
                        self.empty_in_mwt = (i, f"empty node {word_columns[ID]} between multi-word token "
                                                f"{columns[ID]} and its words: empty nodes must not "
                                                f"interrupt a multi-word token")
                    word_tok.append(token)
                    word_is_mwt.append(True)
                    word_line.append(i)
                    word_sent.append(sent_index)
                    word_head_text.append(word_columns[HEAD])
                    heads.append(0)
                    for name, col in _COLUMN_NAMES.items():
                        cols[name].append(word_columns[col])
            else:
                tok_is_mwt.append(False)
                try:
                    word_id = int(columns[ID])
                except ValueError as exc:
                    raise self._format_error(lineno, "invalid-word-id",
                                             f"cannot parse word ID {columns[ID]!r}",
                                             "word-id", id=columns[ID]) from exc
                expected = len(heads) - sentence_start + 1
                if word_id != expected:
                    raise self._format_error(
                        lineno, "unexpected-word-id",
                        f"word ID {columns[ID]!r} (FORM {form!r}) is out of sequence, expected {expected}",
                        "unexpected-id", id=columns[ID], form=form, expected=expected)
                try:
                    head = int(columns[HEAD])
                except ValueError as exc:
                    if not self.trees and columns[HEAD] == "_":
                        head = 0  # no tree: the sentence gets no heads (_finish_sentence)
                    else:
                        raise self._format_error(
                            lineno, "invalid-head", f"cannot parse HEAD {columns[HEAD]!r}: it must "
                            f"be an integer{'' if self.trees else ' or _'}", "head-parse",
                            head=columns[HEAD]) from exc
                if head < 0:
                    raise self._format_error(lineno, "negative-head", f"HEAD {head} is negative",
                                             "head-negative")
                word_tok.append(token)
                word_is_mwt.append(False)
                word_line.append(lineno)
                word_sent.append(sent_index)
                word_head_text.append(columns[HEAD])
                heads.append(head)
                columns[FORM] = form
                for name, col in _COLUMN_NAMES.items():
                    cols[name].append(columns[col])

        if sentence_start is not None:
            raise self._format_error(n_lines, "missing-final-blank-line",
                                     "the file does not end with an empty line after the last sentence",
                                     "final")
        c = Columns()
        c.text = "".join(forms_chars)
        c.tok_len, c.tok_line, c.tok_is_mwt = tok_len, tok_line, tok_is_mwt
        c.word_tok, c.word_is_mwt, c.word_line, c.word_sent = word_tok, word_is_mwt, word_line, word_sent
        c.head = heads
        c.cols = cols
        c.sent_word_start = sent_word_start + [len(heads)]
        c.sent_char_start, c.sent_char_end = sent_char_start, sent_char_end
        c.sent_first_line, c.sent_end_line = sent_first_line, sent_end_line
        c.metadata = (sent_ids, sent_texts)
        c.empty_sent, c.empty_after, c.empty_line, c.empty_cols = empty_sent, empty_after, empty_line, empty_cols
        c.spaced_tok, c.spaced_tok_form = spaced_tok, spaced_tok_form
        return c

    def _finish_sentence(self, start: int, lineno: int, heads: List[int], head_text: List[str],
                         word_line: List[int], word_is_mwt: List[bool], cols) -> None:
        """Resolve the sentence's HEADs (:meth:`_resolve_tree`); without tree checks
        (``trees=False``) a sentence that is no valid tree, or has a HEAD ``_``, gets every
        head -1 instead of an error (a HEAD that is neither ``_`` nor an integer still fails)."""
        end = len(heads)
        if self.trees or start == end:  # an empty sentence is no tree matter: always an error
            self._resolve_tree(start, lineno, heads, head_text, word_line, word_is_mwt, cols)
            return
        texts = head_text[start:end]
        for k, text in enumerate(texts):
            if word_is_mwt[start + k] and text != "_":
                try:
                    int(text)
                except ValueError as exc:
                    raise self._format_error(
                        word_line[start + k], "invalid-head",
                        f"cannot parse HEAD {text!r} of a word inside a multi-word token: it "
                        f"must be an integer or _", None) from exc
        if "_" not in texts:
            try:
                self._resolve_tree(start, lineno, heads, head_text, word_line, word_is_mwt, cols)
                return
            except TreeError:
                pass
        heads[start:end] = [-1] * (end - start)

    def _resolve_tree(self, start: int, lineno: int, heads: List[int], head_text: List[str],
                      word_line: List[int], word_is_mwt: List[bool], cols) -> None:
        """Resolve HEADs to global word indices (in place) with the official checks and order.

        Iterative, so a 100,000-deep chain works; the first error is the one the official
        recursive ``process_word`` would raise.
        """
        profile = self.profile
        end = len(heads)
        n = end - start
        state = bytearray(n)  # 0 = unprocessed, 1 = in progress, 2 = done
        resolved = [0] * n
        for k in range(n):
            if word_is_mwt[start + k]:
                try:
                    resolved[k] = int(head_text[start + k])
                except ValueError as exc:
                    raise self._format_error(
                        word_line[start + k], "invalid-head",
                        f"cannot parse HEAD {head_text[start + k]!r} of a word inside a multi-word "
                        f"token: it must be an integer (the official script crashes here)", None) from exc
            else:
                resolved[k] = heads[start + k]
        parent = [-1] * n
        for k in range(n):
            path = []
            cur = k
            while True:
                if state[cur] == 1:
                    wids = sorted(x + 1 for x in path[path.index(cur):])  # not the way in
                    raise self._tree_error(lineno, "cycle",
                                           f"the basic tree has a cycle through words {_ids(wids)}",
                                           "cycle")
                if state[cur] == 2:
                    break
                h = resolved[cur]
                negative_ok = profile == "conll17" and h < 0
                if (h < 0 and not negative_ok) or h > n:
                    raise self._tree_error(
                        lineno, "head-out-of-range",
                        f"HEAD {head_text[start + cur]} of word {cur + 1} (line {word_line[start + cur]}) "
                        f"points outside the sentence of {n} words", "head-range",
                        head=head_text[start + cur])
                if h == 0:
                    state[cur] = 2
                    parent[cur] = -1
                    break
                target = start + h - 1
                if target < 0:  # conll17 quirk: Python negative indexing into all words read so far
                    target += end
                    if target < 0:
                        raise self._tree_error(
                            lineno, "head-out-of-range",
                            f"HEAD {head_text[start + cur]} of word {cur + 1} (line {word_line[start + cur]}) "
                            f"points before the start of the file", "head-range", head=head_text[start + cur])
                state[cur] = 1
                path.append(cur)
                parent[cur] = target
                if target < start or target >= end:
                    break  # a word of another sentence, already resolved
                cur = target - start
            for x in path:
                state[x] = 2
        roots = [k + 1 for k in range(n) if resolved[k] == 0]
        if len(roots) != 1 and not (self.multiple_roots and len(roots) > 1):
            if n == 0:
                code, msg = "empty-sentence", ("empty sentence: a blank line with no word lines before it "
                                               "(a double blank line, or a blank line after comments)")
            elif not roots:
                code, msg = "no-root", "the sentence has no root word (HEAD 0)"
            else:
                code, msg = "multiple-roots", f"the sentence has {len(roots)} root words (HEAD 0): {_ids(roots)}"
            raise self._tree_error(lineno, code, msg, "roots", roots=len(roots), words=n)
        heads[start:end] = parent


def _ids(ids: List[int], limit: int = 10) -> str:
    shown = ", ".join(map(str, ids[:limit]))
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > limit else "")
