"""String interning (:class:`Vocab`) and the columnar :class:`Treebank`.

A Treebank holds one CoNLL-U file as numpy arrays: no per-word Python object survives
reading.  String columns are int32 codes into a :class:`Vocab` shared by gold and system,
so equal codes mean equal strings and comparing columns is an integer ``==``.
"""
from __future__ import annotations

import itertools
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Callable, Collection, Dict, Iterable, Iterator, List, Optional, Sequence

import numpy as np

from .compiled import calign as _calign  # None: the numpy path
from .compiled import ccount as _ccount  # None: the numpy path
from .compiled import cscan as _cscan  # None: the numpy path

__all__ = ["Vocab", "Treebank", "WORD_COLUMNS", "same_offset_type"]

#: String columns stored per word, in CoNLL-U order (ID and HEAD are numeric).
WORD_COLUMNS = ("form", "lemma", "upos", "xpos", "feats", "deprel", "deps", "misc")


def same_offset_type(*arrays: np.ndarray) -> List[np.ndarray]:
    """Character-offset arrays as contiguous arrays of one type, as the compiled passes take
    them: int32 when every one is (the usual case: no copy), else int64."""
    kind = np.int32 if all(a.dtype == np.int32 for a in arrays) else np.int64
    return [np.ascontiguousarray(a, dtype=kind) for a in arrays]


def _distinct(codes: np.ndarray, more: Optional[np.ndarray] = None) -> np.ndarray:
    """The distinct values of non-negative codes (of ``codes`` and ``more``), sorted, as
    int64 (a counting pass, no hashing)."""
    more = _no_codes() if more is None else more
    if _ccount is not None and len(codes) and all(a.dtype == np.int32 and a.flags.c_contiguous
                                                  for a in (codes, more)):
        return _ccount.distinct_codes(codes, more)  # int32 columns: the compiled passes
    codes = np.concatenate([codes, more]) if len(more) else codes
    if len(codes) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.bincount(codes))


class _BytesIndex(dict):
    """bytes -> code; a missing key is decoded and interned on first lookup."""

    def __init__(self, vocab: "Vocab"):
        super().__init__()
        self.vocab = vocab

    def __missing__(self, key: bytes) -> int:
        code = self[key] = self.vocab.code(key.decode("utf-8"))
        return code


class Vocab:
    """Interns strings to dense int32 codes; codes are stable once given."""

    def __init__(self) -> None:
        self._index: Dict[str, int] = {}
        self._bytes_index: Dict[bytes, int] = _BytesIndex(self)
        self.strings: List[str] = []
        self._derived: Dict[object, np.ndarray] = {}
        self._reader_state: dict = {}  # see reader_state
        self._reader_lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.strings)

    def __getstate__(self):  # only the strings travel between processes; indexes are rebuilt
        return {"strings": self.strings}

    def __setstate__(self, state):
        self.__init__()
        for string in state["strings"]:
            self.code(string)

    @contextmanager
    def reader_state(self) -> Iterator[dict]:
        """A dict the reader keeps with this vocabulary while one file is read into it (the
        compiled scan's string tables: a system file read into the gold's vocabulary then
        finds the gold's strings already interned).  One reader at a time: another thread
        reading into this vocabulary meanwhile gets a fresh dict of its own."""
        if not self._reader_lock.acquire(blocking=False):
            yield {}
            return
        try:
            yield self._reader_state
        finally:
            self._reader_lock.release()

    def drop_reader_state(self) -> None:
        """Free what :meth:`reader_state` kept (when no more files will be read into this
        vocabulary: a pair's, once both files are read)."""
        with self._reader_lock:
            self._reader_state = {}

    def code(self, string: str) -> int:
        """The code of one string (interned if new)."""
        index = self._index
        if string not in index:
            index[string] = len(self.strings)
            self.strings.append(string)
        return index[string]

    def find(self, string: str) -> int:
        """The code of ``string`` if it was interned, else -1 (never interns)."""
        return self._index.get(string, -1)

    def encode(self, strings: Sequence[str], distinct: bool = False) -> np.ndarray:
        """Codes of many strings as an int32 array (new strings are interned in order).
        ``distinct``: no string is there twice (saves a pass)."""
        index = self._index
        if distinct:
            return self._encode_distinct(strings)
        # the loops run in C (filterfalse, update, fromiter): a file's new strings are many
        unseen = itertools.filterfalse(index.__contains__, strings)
        new: Collection[str] = dict.fromkeys(unseen)
        first = len(self.strings)
        if new:
            index.update(zip(new, range(first, first + len(new))))
            self.strings.extend(new)
            if len(new) == len(strings):  # all new and distinct: codes in order
                return np.arange(first, first + len(new), dtype=np.int32)
        return np.fromiter(map(index.__getitem__, strings), dtype=np.int32, count=len(strings))

    def _encode_distinct(self, strings: Sequence[str]) -> np.ndarray:
        """:meth:`encode` of strings none of which is there twice: one lookup each (in C),
        then the missing ones interned in order."""
        codes = np.fromiter(map(self._index.get, strings, itertools.repeat(-1)), dtype=np.int32,
                            count=len(strings))
        missing = np.flatnonzero(codes < 0)
        if len(missing):
            first = len(self.strings)
            new = list(strings) if len(missing) == len(strings) else \
                [strings[k] for k in missing.tolist()]
            self._index.update(zip(new, range(first, first + len(new))))
            self.strings.extend(new)
            codes[missing] = np.arange(first, first + len(new), dtype=np.int32)
        return codes

    def encode_table(self, table, since: int = 0) -> np.ndarray:
        """:meth:`encode` (``distinct``) of the strings of a compiled string table
        (``_cscan.StringTable``: distinct) from local id ``since`` on, decoded and interned
        in one compiled loop."""
        if _cscan is None:  # tables come from the compiled scan; the contract holds without it
            return self.encode(table.decoded(since), distinct=True)
        return _cscan.encode_strings(table, since, self._index, self.strings)

    def encode_bytes(self, items: Sequence[bytes]) -> np.ndarray:
        """Codes of UTF-8 byte strings (decoded once per distinct value)."""
        return np.fromiter(map(self._bytes_index.__getitem__, items), dtype=np.int32, count=len(items))

    def map_codes(self, key: object, function: Callable[[str], str], codes: np.ndarray) -> np.ndarray:
        """``code(function(string))`` for each of ``codes``; ``function`` runs once per distinct code.

        Results are cached per ``key`` across calls (gold and system share them).
        """
        return self.mapping(key, function, codes)[codes]

    def mapping(self, key: object, function: Callable[[str], str], codes: np.ndarray) -> np.ndarray:
        """The table behind :meth:`map_codes`: ``table[c]`` is ``code(function(strings[c]))``
        for every one of ``codes`` (other entries may be -1); it covers every code so far."""
        table = self._grow(key, -1, np.int32)
        distinct = _distinct(codes)
        missing = distinct[table[distinct] < 0].tolist()
        if missing:
            strings = self.strings
            values = [self.code(function(strings[c])) for c in missing]
            table = self._grow(key, -1, np.int32)
            table[missing] = values
        return table

    def flags(self, key: object, predicate: Callable[[str], bool], codes: np.ndarray) -> np.ndarray:
        """``predicate(string)`` for each of ``codes``, as a boolean array (cached per ``key``)."""
        table = self._grow(key, -1, np.int8)
        distinct = _distinct(codes)
        missing = distinct[table[distinct] < 0].tolist()
        if missing:
            strings = self.strings
            table[missing] = [1 if predicate(strings[c]) else 0 for c in missing]
        return table[codes] == 1

    def _grow(self, key: object, fill: int, dtype) -> np.ndarray:
        """The cache table for ``key``, extended with ``fill`` to the vocabulary's size."""
        table = self._derived.get(key)
        n = len(self.strings)
        if table is None or len(table) < n:
            grown = np.full(max(n, 1) + 1024, fill, dtype=dtype)
            if table is not None:
                grown[:len(table)] = table
            self._derived[key] = table = grown
        return table


def _no_codes() -> np.ndarray:
    return np.zeros(0, dtype=np.int32)


def _column_property(name: str):
    def get(self) -> np.ndarray:
        return self.column(name)
    get.__doc__ = f"int32 codes of the {name.upper()} column (one per word)."
    return property(get)


class _StringColumns:
    """A Treebank's string columns: the codes of each column (some computed or read on first
    use: FORM from the text, ``written_form``, DEPS and MISC, the ``sent_id``/``text``
    comments), and their strings.  Apart from :class:`Treebank`'s core arrays, which it reads."""

    # the core arrays of Treebank these methods read (declared for type checkers)
    vocab: "Vocab"
    text: str
    columns: Dict[str, object]
    metadata: object
    word_is_mwt: np.ndarray
    mwt_form: np.ndarray
    spaced_tok: np.ndarray
    spaced_tok_form: np.ndarray
    tok_is_mwt: np.ndarray
    tok_start: np.ndarray
    tok_end: np.ndarray
    word_tok: np.ndarray

    @property
    def sent_ids(self) -> List[Optional[str]]:
        """``# sent_id`` of each sentence (None where absent)."""
        return self._metadata()[0]

    @property
    def sent_texts(self) -> List[Optional[str]]:
        """``# text`` of each sentence (None where absent)."""
        return self._metadata()[1]

    def _metadata(self):
        if callable(self.metadata):
            object.__setattr__(self, "metadata", self.metadata())
        return self.metadata

    form = _column_property("form")
    lemma = _column_property("lemma")
    upos = _column_property("upos")
    xpos = _column_property("xpos")
    feats = _column_property("feats")
    deprel = _column_property("deprel")
    deps = _column_property("deps")
    misc = _column_property("misc")

    def column(self, name: str) -> np.ndarray:
        """Codes of one string column, computing a lazy one on first use.

        ``name`` is one of :data:`WORD_COLUMNS` or ``"written_form"`` (see the class docstring).
        """
        value = self.columns.get(name)
        if value is None and name == "form":
            value = self.columns["form"] = self._forms()
        elif value is None and name == "written_form":
            value = self.columns["written_form"] = self._written_forms()
        if not isinstance(value, np.ndarray):
            if value is None:
                raise KeyError(name)
            value = self.columns[name] = value(self.vocab)  # type: ignore[operator]  # a LazyCodes
        return value

    def _forms(self) -> np.ndarray:
        """FORM codes: token text for plain words, ``mwt_form`` inside multi-word tokens."""
        plain = ~self.word_is_mwt
        forms = self.word_forms(np.flatnonzero(plain))
        codes = self.mwt_form.astype(np.int32, copy=True)
        codes[plain] = self.vocab.encode(forms)
        return codes

    def _written_forms(self) -> np.ndarray:
        """FORM codes as written: ``form`` itself when no FORM lost a space (the usual file),
        else a copy with each such plain word's FORM as written (words inside multi-word
        tokens already keep theirs)."""
        forms = self.column("form")
        spaced_tok = np.asarray(self.spaced_tok, dtype=np.int64)
        if len(spaced_tok) == 0:
            return forms
        plain = ~self.tok_is_mwt[spaced_tok]
        # a plain token has exactly one word: the first one of that token (word_tok ascends)
        words = np.searchsorted(self.word_tok, spaced_tok[plain])
        written = forms.copy()
        written[words] = np.asarray(self.spaced_tok_form, dtype=np.int32)[plain]
        return written

    def word_forms(self, words: np.ndarray) -> List[str]:
        """FORM strings of the given words (official semantics, see the class docstring)."""
        words = np.asarray(words, dtype=np.int64)
        starts = self.tok_start[self.word_tok[words]].tolist()
        ends = self.tok_end[self.word_tok[words]].tolist()
        mwt = self.mwt_form[words].tolist()
        strings, text = self.vocab.strings, self.text
        return [text[a:b] if m < 0 else strings[m] for a, b, m in zip(starts, ends, mwt)]

    def strings(self, column: str, words: Optional[Iterable[int]] = None) -> List[str]:
        """Decoded strings of a column (for reports and messages, not the hot path)."""
        codes = self.column(column)
        if words is not None:
            codes = codes[np.asarray(list(words), dtype=np.int64)]
        table = self.vocab.strings
        return [table[c] for c in codes.tolist()]

    def token_forms(self, start: int, stop: int) -> List[str]:
        """FORMs (space-stripped) of tokens ``start:stop``."""
        starts = self.tok_start[start:stop].tolist()
        ends = self.tok_end[start:stop].tolist()
        return [self.text[a:b] for a, b in zip(starts, ends)]


@dataclass(frozen=True, eq=False)
class Treebank(_StringColumns):
    """One CoNLL-U file in columns.

    Characters: ``text`` is the concatenation of all token FORMs with spaces removed as the
    profile says; token ``i`` covers ``text[tok_start[i]:tok_end[i]]``.  Words (empty nodes
    excluded) carry ``word_tok`` (their token), ``word_is_mwt``, the string columns of
    :data:`WORD_COLUMNS` as codes (attributes ``form``, ``lemma``, ...; some are computed on
    first use), ``head`` (global word index, -1 for the root), ``word_sent`` and
    ``word_line``.  ``form`` follows the official scorers: the space-stripped token FORM for
    plain words, the FORM as written for words inside a multi-word token (``mwt_form``, -1
    for plain words).  ``column("written_form")`` (for MaltEval-style analyses, never for
    scoring) is each word's FORM exactly as in the file: ``form`` with the removed spaces
    put back, from the sparse ``spaced_tok`` (ascending indices of the tokens whose FORM lost
    characters; usually none) and ``spaced_tok_form`` (their FORMs as written, as codes).
    Sentence ``s`` has words ``sent_word_start[s]:sent_word_start[s+1]``
    and characters ``sent_char_start[s]:sent_char_end[s]``.  Empty nodes are kept in
    ``empty_*`` arrays for enhanced-dependency scoring; they never take part in basic scoring.
    ``sent_ids`` and ``sent_texts`` come from the comments (read on first use).
    """

    path: str
    vocab: Vocab
    text: str
    tok_start: np.ndarray
    tok_end: np.ndarray
    tok_line: np.ndarray
    tok_is_mwt: np.ndarray
    word_tok: np.ndarray
    word_is_mwt: np.ndarray
    word_line: np.ndarray
    word_sent: np.ndarray
    head: np.ndarray
    mwt_form: np.ndarray
    columns: Dict[str, object]
    sent_word_start: np.ndarray
    sent_char_start: np.ndarray
    sent_char_end: np.ndarray
    sent_first_line: np.ndarray
    sent_end_line: np.ndarray
    metadata: object  # (sent_ids, sent_texts), or a callable computing them on first use
    empty_sent: np.ndarray
    empty_after: np.ndarray
    empty_line: np.ndarray
    empty_columns: Dict[str, np.ndarray] = field(default_factory=dict)
    spaced_tok: np.ndarray = field(default_factory=_no_codes)
    spaced_tok_form: np.ndarray = field(default_factory=_no_codes)

    @property
    def n_words(self) -> int:
        return len(self.head)

    @property
    def n_tokens(self) -> int:
        return len(self.tok_start)

    @property
    def n_sentences(self) -> int:
        return len(self.sent_char_start)

    @property
    def word_start(self) -> np.ndarray:
        """Character start of each word's token."""
        return self.tok_start[self.word_tok]

    @property
    def word_end(self) -> np.ndarray:
        """Character end of each word's token."""
        return self.tok_end[self.word_tok]

    def sentence_of_chars(self, chars: np.ndarray) -> np.ndarray:
        """The sentence holding each character offset (int32; 0 for an offset before the
        first sentence or in a file without sentences)."""
        starts = self.sent_char_start
        if len(starts) == 0:
            return np.zeros(len(chars), dtype=np.int32)
        if _calign is not None and len(chars) > 1 and chars.dtype == starts.dtype and \
                chars.dtype in (np.int32, np.int64) and bool(np.all(chars[1:] >= chars[:-1])):
            return _calign.sorted_bins(starts, np.ascontiguousarray(chars))  # one merge
        found = np.searchsorted(starts, chars, side="right").astype(np.int32)
        return np.maximum(found - 1, 0, out=found)

    def rebased(self, vocab: "Vocab", in_place: bool = False) -> "Treebank":
        """The same treebank with its string codes moved into ``vocab`` (lazy columns stay lazy).

        ``in_place``: the code arrays are rewritten where they are instead of copied (for a
        treebank nobody else holds, as one just read: the copies would double them for a
        moment); ``self`` must not be used afterwards."""
        if vocab is self.vocab:
            return self
        # the table ends with -1, so that index -1 (no MWT form) stays -1
        table = np.append(vocab.encode(self.vocab.strings, distinct=True),  # a Vocab's are
                          np.array([-1], dtype=np.int32))

        def moved(codes: np.ndarray) -> np.ndarray:
            if not in_place or not codes.flags.writeable:
                return table[codes]
            if _cscan is not None and codes.dtype == np.int32 and codes.flags.c_contiguous and \
                    _cscan.remap_in_place(codes, table):
                return codes
            step = 1 << 16  # in slices: the temporaries stay small
            for lo in range(0, len(codes), step):
                codes[lo:lo + step] = table[codes[lo:lo + step]]
            return codes

        return replace(
            self, vocab=vocab,
            columns={name: moved(codes) if isinstance(codes, np.ndarray) else codes
                     for name, codes in self.columns.items()},
            mwt_form=moved(self.mwt_form),
            spaced_tok_form=moved(self.spaced_tok_form),
            empty_columns={name: moved(codes) for name, codes in self.empty_columns.items()})
