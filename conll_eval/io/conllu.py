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
(:func:`~conll_eval.io.diagnoses.describe_non_conllu`); this is only worked out once a file
has failed.  A closed standard input is an ``unreadable`` error naming ``-``.

Other modules read treebanks through :func:`conll_eval.io.read.read_treebank`, the one door
for every treebank format; :mod:`conll_eval.reader` keeps this module's names importable.
"""
from __future__ import annotations

import io
import os
from typing import Any, BinaryIO, Callable, Dict, Optional, Union

import numpy as np

from ..errors import InputError
from ..treebank import Treebank, Vocab
from .byte_input import (MAGIC_BYTES, Decompressed, Prefixed, Recorded, check_utf8, compression_of,
                         open_binary, open_bytes, os_error, stdin_binary)
from .columns import Columns
from .lazy_fields import LazyCodes, file_identity
from .lines import LineReader
from .profiles import check_profile, space_pattern
from .scan_pieces import scan, scan_stream
from .utf8 import utf8_valid

__all__ = ["load", "load_source", "load_collapsed", "load_text", "parse_bytes", "parse_exact",
           "parse_exact_stream", "build_treebank"]


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
    check_profile(profile)
    if vocab is None:
        return _with_own_vocab(load, source, profile, trees, multiple_roots)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path != "-" and os.path.isfile(path):
            return _load_regular_file(path, profile, vocab, trees, multiple_roots)
        if path == "-":
            return _load_once(stdin_binary(), path, profile, vocab, trees, multiple_roots)
        with open_binary(path) as handle:  # a pipe, a device: read once
            return _load_once(handle, path, profile, vocab, trees, multiple_roots)
    path = getattr(source, "name", "<stream>")
    path = path if isinstance(path, str) else "<stream>"
    return _load_once(source, path, profile, vocab, trees, multiple_roots)


def _with_own_vocab(read: Callable[..., Treebank], source, profile: str, trees: bool,
                    multiple_roots: bool) -> Treebank:
    """``read`` into a vocabulary of its own, whose reader tables go once it is read (no later
    file is read into it)."""
    vocab = Vocab()
    treebank = read(source, profile, vocab, trees, multiple_roots)
    vocab.drop_reader_state()
    return treebank


def load_source(source: Union[str, os.PathLike, BinaryIO], profile: str = "conll18",
                vocab: Optional[Vocab] = None, *args, collapse: bool = False,
                **kwargs) -> Treebank:
    """:func:`load`, or with ``collapse`` (``--collapse-empty-nodes``)
    :func:`load_collapsed`: the empty nodes collapsed first."""
    if not collapse:
        return load(source, profile, vocab, *args, **kwargs)
    return load_collapsed(os.fspath(source) if isinstance(source, os.PathLike) else source,
                          profile, vocab, *args, **kwargs)


def load_collapsed(source: Union[str, BinaryIO], profile: str = "conll18",
                   vocab: Optional[Vocab] = None, trees: bool = True,
                   multiple_roots: bool = False) -> Treebank:
    """Like :func:`load` (the same further arguments), with the empty nodes collapsed first;
    line numbers (of the Treebank and of any error) are the original file's.

    The collapsed text streams into the reader (:class:`~conll_eval.empty_nodes.CollapsedStream`):
    memory is the treebank's and a sentence's, never the collapsed file's.  As the UD tools
    collapse a whole file before the scorer reads it, an error of the collapse anywhere in the
    file comes before the reader's: if the scan hands over, the collapse runs to the end of the
    file before the exact parser reads it again (a regular file is read again; a stream read
    once is kept as it came, see :class:`Recorded`).  Empty nodes in a cycle give one
    :class:`~conll_eval.errors.InputWarning` (``empty-node-cycle``) for the file, issued with
    :func:`warnings.warn` once it is read (see :mod:`conll_eval.empty_nodes`)."""
    check_profile(profile)
    if vocab is None:
        return _with_own_vocab(load_collapsed, source, profile, trees, multiple_roots)
    if isinstance(source, str) and source != "-" and os.path.isfile(source):
        with open_binary(source) as handle:
            def rewound() -> BinaryIO:  # a regular file: read again from its start
                handle.seek(0)
                return handle
            try:
                return _read_collapsed(rewound, source, profile, vocab, trees, multiple_roots)
            except OSError as exc:
                raise os_error(source, exc) from exc
    if isinstance(source, str):
        raw = stdin_binary() if source == "-" else open_binary(source)  # a pipe, a device
        path = source
    else:
        raw = source
        name = getattr(source, "name", "<stream>")
        path = name if isinstance(name, str) else "<stream>"
    recorded = Recorded(raw, path)
    passes = iter((lambda: recorded, recorded.replay))  # read as it is kept, then the copy
    try:
        return _read_collapsed(lambda: next(passes)(), path, profile, vocab, trees,
                               multiple_roots)
    finally:
        if isinstance(source, str) and source != "-":
            raw.close()


def _read_collapsed(start: Callable[[], Any], path: str, profile: str, vocab: Vocab,
                    trees: bool, multiple_roots: bool) -> Treebank:
    """:func:`load_collapsed`'s reading; ``start()`` gives the raw stream from its start
    (called once a pass: the scan's, then the exact parser's if the scan hands over)."""
    # here: only --collapse-empty-nodes needs the collapsing (start-up time of the rest)
    from ..empty_nodes import CollapsedStream, remap_lines, remapped_error, warn_of_cycles
    first = CollapsedStream(_decompressing(start(), path).read, path)
    columns = scan_stream(first.read, space_pattern(profile), vocab, utf8_valid)
    if columns is None:
        first.drain()  # the collapse's errors, anywhere in the file, before the reader's
        second = CollapsedStream(_decompressing(start(), path).read, path)
        try:
            columns = parse_exact_stream(second.read, path, profile, trees, multiple_roots)
        except InputError as exc:
            raise remapped_error(exc, path, first.line_map) from exc
    treebank = remap_lines(build_treebank(columns, path, vocab), first.line_map)
    warn_of_cycles(first.cyclic)  # once per file, read without error (the first pass's count)
    return treebank


def _decompressing(raw: Any, path: str) -> Any:
    """A stream of ``raw``'s text from where it is: decompressed when it starts with a gzip,
    bzip2 or xz magic number (bounded, see :class:`Decompressed`)."""
    head = Prefixed(b"", raw, path).read(MAGIC_BYTES)
    kind = compression_of(head)
    stream = Prefixed(head, raw, path)
    return stream if kind is None else Decompressed(stream, kind, path)


def _load_regular_file(path: str, profile: str, vocab: Vocab, trees: bool = True,
                       multiple_roots: bool = False) -> Treebank:
    """A file on disk, scanned piece by piece (bounded memory); if it is not regular, read
    again line by line by the exact parser (which reports every error).  A gzip, bzip2 or xz
    file (by its magic number) is decompressed on the fly, twice if need be (bounded, see
    :class:`~conll_eval.io.byte_input.Decompressed`); its DEPS, MISC and comments are then
    kept in memory instead of being read again from the file."""
    with open_binary(path) as handle:
        try:
            kind = compression_of(handle.peek(MAGIC_BYTES)[:MAGIC_BYTES])
            if kind is None:
                identity = file_identity(path, handle)
                columns = scan_stream(handle.read, space_pattern(profile), vocab, utf8_valid,
                                      identity, handle.readinto, identity[1])
            else:
                columns = scan_stream(Decompressed(handle, kind, path).read, space_pattern(profile),
                                      vocab, utf8_valid)
            if columns is None:
                handle.seek(0)
                stream = handle if kind is None else Decompressed(handle, kind, path)
                columns = parse_exact_stream(stream.read, path, profile, trees, multiple_roots)
        except OSError as exc:
            raise os_error(path, exc) from exc
    return build_treebank(columns, path, vocab)


def _load_once(raw: BinaryIO, path: str, profile: str, vocab: Vocab, trees: bool = True,
               multiple_roots: bool = False) -> Treebank:
    """A stream that can be read only once (standard input, a pipe, a device, a file object):
    scanned as it is read, its bytes kept as they come (:class:`Recorded`; compressed ones
    compressed), and read again by the exact parser from them and then from the stream if
    the scan hands over, so that the parser's first error (or an over-long line) ends the
    reading: an endless stream ends too."""
    recorded = Recorded(raw, path)
    head = recorded.read(MAGIC_BYTES)
    kind = compression_of(head)

    def stream(raw_stream):
        return raw_stream if kind is None else Decompressed(raw_stream, kind, path)

    columns = scan_stream(stream(Prefixed(head, recorded, path)).read, space_pattern(profile),
                          vocab, utf8_valid)
    if columns is None:
        columns = parse_exact_stream(stream(recorded.replay()).read, path, profile, trees,
                                     multiple_roots)
    return build_treebank(columns, path, vocab)


def parse_exact(data: bytes, path: str, profile: str, trees: bool = True,
                multiple_roots: bool = False) -> Columns:
    """:func:`parse_exact_stream` of a file's bytes in memory (not compressed)."""
    return parse_exact_stream(io.BytesIO(data).read, path, profile, trees, multiple_roots)


def parse_exact_stream(read: Callable[[int], bytes], path: str, profile: str, trees: bool = True,
                       multiple_roots: bool = False) -> Columns:
    """The exact parser, which decides every error, over the lines of the stream ``read``
    (``file.read``; decompressed), read as it needs them (:class:`LineReader`, which says
    where UTF-8 is invalid or a line too long); in a file that is obviously not CoNLL-U the
    error says what the file looks like instead (:func:`explain_error`).  ``trees``: see
    :func:`load`."""
    # here: a regular file is scanned; only an irregular one needs the exact parser and the
    # diagnoses of a failed file (start-up time of scoring)
    from .diagnoses import SNIFF_BYTES, explain_error
    from .exact_parser import ExactParser
    lines = LineReader(read, path, SNIFF_BYTES)
    try:
        return ExactParser(lines, path, profile, trees, multiple_roots).run()
    except InputError as exc:
        clearer = explain_error(exc, lines.head, lines.whole)
        if clearer is None:
            raise
        raise clearer from exc


def load_text(text: str, profile: str = "conll18", path: str = "<string>",
              vocab: Optional[Vocab] = None, trees: bool = True) -> Treebank:
    """Like :func:`load` for a string holding a whole CoNLL-U file."""
    check_profile(profile)
    return parse_bytes(text.encode("utf-8"), path, profile, vocab, trees)


def parse_bytes(data: bytes, path: str, profile: str, vocab: Optional[Vocab] = None,
                trees: bool = True, multiple_roots: bool = False) -> Treebank:
    """Bytes of a CoNLL-U file -> Treebank: the vectorised scan first, the exact parser if
    irregular (the scan only accepts valid trees, so ``trees`` only matters there)."""
    vocab = Vocab() if vocab is None else vocab
    if compression_of(data[:MAGIC_BYTES]) is not None:  # decompressed as read, never whole
        columns = scan_stream(open_bytes(data, path).read, space_pattern(profile), vocab, utf8_valid)
        if columns is None:
            columns = parse_exact_stream(open_bytes(data, path).read, path, profile, trees,
                                         multiple_roots)
        return build_treebank(columns, path, vocab)
    try:
        check_utf8(data, path)  # the scan relies on valid UTF-8
    except InputError:
        columns = None  # the exact parser reports it, explained (see _parse_exact)
    else:
        columns = scan(data, space_pattern(profile), vocab)
    if columns is None:
        columns = parse_exact(data, path, profile, trees, multiple_roots)
    return build_treebank(columns, path, vocab)


def _codes(vocab: Vocab, values) -> np.ndarray:
    return values if isinstance(values, np.ndarray) else vocab.encode(values)


def build_treebank(c: Columns, path: str, vocab: Vocab) -> Treebank:
    # character offsets: int32 unless the text is too long (half the memory of int64)
    offset_type = np.int32 if len(c.text) < 2 ** 31 else np.int64
    # the tokens' text is their FORMs one after another: a token starts where the one before
    # it ends, so starts and ends are two views of one array of bounds
    bounds = np.zeros(len(c.tok_len) + 1, dtype=offset_type)
    np.cumsum(c.tok_len, dtype=offset_type, out=bounds[1:])
    tok_start, tok_end = bounds[:-1], bounds[1:]
    columns: Dict[str, Any] = {name: values if isinstance(values, LazyCodes) else _codes(vocab, values)
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


