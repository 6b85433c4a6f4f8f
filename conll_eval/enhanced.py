"""Enhanced dependencies (the DEPS column): ELAS and EULAS as the IWPT 2020 scorer and udtools'
``udeval`` compute them (REFERENCE.md b.4), and as sets of edges.

A treebank's enhanced graph is kept in edge arrays (:class:`EnhancedGraph`): the word each
edge belongs to, its head (a global word index, :data:`ROOT` for 0) and its label path as a
vocabulary code (``conj:en>obl:voor``, steps joined by ``>``; the universal path cuts each step
at its first ``:``).  Each *distinct* DEPS string is parsed once; words only index into that
table.  The ``--enhancements`` switches (turning enhancement types off in both files) are the
scripts' per-word rules, applied only when asked for.

Counting (:func:`enhanced_counts`): ``official`` is the scripts' nested count -- for each
aligned pair, every gold edge against every system edge, so a duplicated system edge counts
twice -- with no aligned accuracy (counted in O(E log E): an edge key found on both sides counts
the product of its multiplicities); ``set`` scores each side's distinct edges (no
over-counting) and has an aligned accuracy (correct / distinct gold edges of aligned words).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

from .compiled import cenhanced as _cenhanced  # None: the numpy path (the reference)
from .errors import FormatError, Location
from .enhancements import ENHANCEMENT_DIGITS, EnhancedOptions
from .io.columns import NEWLINE
from .io.lazy_fields import LazyCodes, read_unchanged
from .stats import Counts
from .treebank import Treebank

__all__ = ["ROOT", "ENHANCEMENT_DIGITS", "EnhancedOptions", "EnhancedGraph", "enhanced_graph",
           "enhanced_counts", "check_empty_nodes", "deps_all_underscore", "edge_keys",
           "first_occurrences", "key_in", "partner_edges"]

ROOT = -1
#: the head of an edge the scripts give the basic parent of a root word (None there): never
#: matches anything, not even another such edge
NO_PARENT = -3
#: a system head with no gold partner (never equal to a gold head)
UNMATCHED = -2
#: a DEPS head naming an empty node (``8.1``): skipped, or an error with --no-empty-nodes
EMPTY_REF = -4

CASE_DEPRELS = frozenset({"obl", "nmod", "conj", "advcl"})
UNIVERSAL_DEPREL_EXTENSIONS = frozenset({"pass", "relcl", "xsubj"})


@dataclass(frozen=True)
class EnhancedGraph:
    """Edges of one treebank, in file order (word, then DEPS order)."""

    word: np.ndarray   # int64 global word index
    head: np.ndarray   # int64 global word index, ROOT or NO_PARENT
    label: np.ndarray  # int64 vocab code of the label path as written
    ulabel: np.ndarray  # int64 vocab code of the universal label path


class _BadDeps(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _parse_deps(text: str) -> List[Tuple[int, str]]:
    """``2:nsubj|4:conj:en>obl:voor`` -> [(2, 'nsubj'), (4, 'conj:en>obl:voor')]; ``_`` and
    empty -> []; a head naming an empty node -> EMPTY_REF.  Raises _BadDeps."""
    if text in ("", "_"):
        return []
    edges = []
    for item in text.split("|"):
        head, colon, path = item.partition(":")
        if not colon:
            raise _BadDeps("invalid-deps", f"DEPS item {item!r} has no ':' between head and "
                           "relation (the official scripts crash here)")
        if "" in path.split(">"):  # the scripts score ``3:`` with an empty relation
            raise _BadDeps("invalid-deps", f"DEPS item {item!r} has an empty relation")
        if "." in head:
            edges.append((EMPTY_REF, path))
            continue
        try:
            number = int(head)
        except ValueError:
            raise _BadDeps("invalid-deps-head", f"DEPS head {head!r} is not a word ID (the "
                           "official scripts crash here)") from None
        if number >= 2 ** 31:
            raise _BadDeps("deps-head-out-of-range", f"DEPS head {head!r} points outside the "
                           "sentence (the official scripts crash here)")
        if number < 0:
            raise _BadDeps("deps-head-out-of-range", f"DEPS head {head!r} is negative (the "
                           "official scripts take a word of another sentence)")
        edges.append((number, path))
    return edges


def _universal_path(path: str) -> str:
    return ">".join(step.split(":")[0] for step in path.split(">"))


def _error(tb: Treebank, word: int, code: str, message: str) -> FormatError:
    return FormatError(Location(tb.path, int(tb.word_line[word])), code, message, official=None)


def enhanced_graph(tb: Treebank, options: EnhancedOptions = EnhancedOptions()) -> EnhancedGraph:
    """The enhanced graph of ``tb`` (see :class:`EnhancedGraph`); malformed DEPS raise
    :class:`~conll_eval.errors.FormatError` at the first bad word's line."""
    edges = _compiled_edges(tb) if _cenhanced is not None else None
    if edges is None:
        edges = _reference_edges(tb)
    word, rel_head, label, ulabel, first_bad, bad_exc = edges
    sentence = tb.word_sent[word]
    sent_start = tb.sent_word_start[sentence].astype(np.int64)
    sent_len = tb.sent_word_start[sentence + 1].astype(np.int64) - sent_start
    del sentence
    out_of_range = rel_head > sent_len
    if out_of_range.any():
        at = int(np.argmax(out_of_range))
        w = int(word[at])
        if first_bad is None or tb.word_line[w] < tb.word_line[first_bad]:
            raise _error(tb, w, "deps-head-out-of-range",
                         f"DEPS head {int(rel_head[at])} points outside the sentence of "
                         f"{int(sent_len[at])} words (the official scripts crash here)")
    if first_bad is not None:
        raise _error(tb, first_bad, bad_exc.code, bad_exc.message)
    del out_of_range, sent_len
    empty_ref = rel_head == EMPTY_REF
    if options.no_empty_nodes and empty_ref.any():
        sentence = int(tb.word_sent[word[np.argmax(empty_ref)]])
        line = int(tb.sent_end_line[sentence])
        raise FormatError(Location(tb.path, line), "empty-node-reference",
                          "DEPS of this sentence name an empty node though --no-empty-nodes "
                          "says they are collapsed",
                          official="The collapsed CoNLL-U file still contains references to "
                                   f"empty nodes at line {line}: ")
    head = np.where(rel_head == 0, ROOT, sent_start + rel_head - 1)
    if empty_ref.any():
        keep = ~empty_ref
        word, head, label, ulabel = word[keep], head[keep], label[keep], ulabel[keep]
    graph = EnhancedGraph(word, head, label.astype(np.int64), ulabel.astype(np.int64))
    if any(options.off(d) for d in "12456"):
        graph = _switch_off(tb, graph, options)
    return graph


_Edges = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Optional[int], Optional[_BadDeps]]


def _reference_edges(tb: Treebank) -> _Edges:
    """(word, head as written, label code, universal label code) of every edge in file order,
    and the first word whose DEPS are malformed with its error (None, None if none): each
    distinct DEPS string parsed once by :func:`_parse_deps` (the compiled parser's reference)."""
    vocab = tb.vocab
    distinct, inverse = np.unique(tb.deps, return_inverse=True)
    inverse = inverse.reshape(-1)
    parsed: List[List[Tuple[int, str]]] = []
    bad: Dict[int, _BadDeps] = {}
    for k, code in enumerate(distinct.tolist()):
        try:
            parsed.append(_parse_deps(vocab.strings[code]))
        except _BadDeps as exc:
            bad[k] = exc
            parsed.append([])
    n_edges = np.array([len(p) for p in parsed], dtype=np.int64)
    table_head = np.array([h for p in parsed for h, _ in p], dtype=np.int64)
    paths = [path for p in parsed for _, path in p]
    table_label = vocab.encode(paths).astype(np.int64) if paths else np.zeros(0, np.int64)
    universal = {path: _universal_path(path) for path in set(paths)}  # once per distinct path
    table_ulabel = (vocab.encode([universal[p] for p in paths]).astype(np.int64)
                    if paths else np.zeros(0, np.int64))
    table_start = np.concatenate([[0], np.cumsum(n_edges)[:-1]]) if len(n_edges) else n_edges
    per_word = n_edges[inverse] if len(inverse) else np.zeros(0, np.int64)
    word = np.repeat(np.arange(tb.n_words, dtype=np.int64), per_word)
    within = np.arange(len(word), dtype=np.int64) - np.repeat(np.cumsum(per_word) - per_word, per_word)
    entry = table_start[inverse[word]] + within if len(word) else np.zeros(0, np.int64)
    bad_words = np.flatnonzero(np.isin(inverse, np.array(list(bad), dtype=np.int64)))
    first_bad = int(bad_words[0]) if len(bad_words) else None
    return (word, table_head[entry], table_label[entry], table_ulabel[entry], first_bad,
            bad[int(inverse[first_bad])] if first_bad is not None else None)


def _deps_bytes(tb: Treebank) -> Optional[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(bytes, start, end): word ``w``'s ``DEPS<TAB>MISC`` is ``bytes[start[w]:end[w]]``, read
    from the reader's lazy DEPS column without materialising it (the file is read again
    if the reader kept only its ranges); None when DEPS were interned already."""
    lazy = tb.columns.get("deps")
    if not isinstance(lazy, LazyCodes) or lazy.part != 0:
        return None
    tails = lazy.tails
    if tails.joined is None:
        source = tails.source if tails.file is None else read_unchanged(tails.file)
        return (source, *tails.ranges(source))
    joined = tails.joined  # newline-terminated fields
    end = np.flatnonzero(joined == NEWLINE).astype(np.int64)
    start = np.concatenate([np.zeros(min(1, len(end)), np.int64), end[:-1] + 1])
    return joined, start, end


def _compiled_edges(tb: Treebank) -> Optional[_Edges]:
    """What :func:`_reference_edges` gives, parsed by the compiled core straight from the
    words' DEPS bytes (no Python object per word or edge; labels interned from their byte
    ranges); None when the DEPS column is not the reader's lazy one (then the reference runs).
    Words the compiled parser leaves (irregular items) are parsed by :func:`_parse_deps`."""
    found = _deps_bytes(tb)
    if found is None:
        return None
    vocab = tb.vocab
    fields, field_start, field_end = found
    word, head, path, (path_start, path_end), irregular, underscores = \
        _cenhanced.parse_deps(fields, field_start, field_end)
    _ALL_UNDERSCORE[tb] = tb.n_words > 0 and underscores == tb.n_words
    del field_start, field_end
    # the distinct paths only (hundreds) become strings
    codes = vocab.encode([fields[a:b].tobytes().decode("utf-8")
                          for a, b in zip(path_start.tolist(), path_end.tolist())])
    label = codes[path] if len(codes) else np.zeros(len(path), np.int32)
    del path
    first_bad = first_exc = None
    extra_word, extra_head, extra_paths = [], [], []
    for w, a, b in irregular:
        try:
            edges = _parse_deps(fields[a:b].tobytes().decode("utf-8"))
        except _BadDeps as exc:
            if first_bad is None:
                first_bad, first_exc = w, exc
            continue
        extra_word += [w] * len(edges)
        extra_head += [h for h, _ in edges]
        extra_paths += [p for _, p in edges]
    if extra_word:  # merged in word order (each word's own edges stay in DEPS order)
        word = np.concatenate([word, np.array(extra_word, dtype=np.int64)])
        head = np.concatenate([head, np.array(extra_head, dtype=np.int64)])
        label = np.concatenate([label, vocab.encode(extra_paths)])
        order = np.argsort(word, kind="stable")
        word, head, label = word[order], head[order], label[order]
    ulabel = vocab.map_codes(_UNIVERSAL_PATH, _universal_path, label)
    return word, head, label, ulabel, first_bad, first_exc


def deps_all_underscore(tb: Treebank) -> bool:
    """Whether the DEPS of every word of ``tb`` are ``_`` (False for a file without words);
    the compiled core reads the DEPS bytes without interning them (usually the first word's
    DEPS decide)."""
    if tb in _ALL_UNDERSCORE:  # the compiled parser counted them
        return _ALL_UNDERSCORE[tb]
    found = _deps_bytes(tb) if _cenhanced is not None else None
    if found is not None:
        return bool(_cenhanced.all_underscore(*found))
    underscore = tb.vocab.find("_")
    codes = tb.deps
    return bool(len(codes)) and underscore >= 0 and bool(np.all(codes == underscore))


#: treebank -> whether all its DEPS are _, noted by the compiled parser (saves reading again)
_ALL_UNDERSCORE: "weakref.WeakKeyDictionary[Treebank, bool]" = weakref.WeakKeyDictionary()

#: the key of the universal paths' table in the vocabulary (Vocab.map_codes)
_UNIVERSAL_PATH = "enhanced:universal-path"


def check_empty_nodes(tb: Treebank, text_of_line) -> None:
    """--no-empty-nodes: an empty node line is an error (the scripts' message needs the line,
    ``text_of_line(number)``)."""
    if len(tb.empty_line):
        line = int(tb.empty_line[0])
        raise FormatError(Location(tb.path, line), "empty-node",
                          "an empty node, though --no-empty-nodes says they are collapsed",
                          official="The collapsed CoNLL-U line still contains empty nodes at "
                                   f"line {line}: {text_of_line(line)}")


def _switch_off(tb: Treebank, graph: EnhancedGraph, options: EnhancedOptions) -> EnhancedGraph:
    """The scripts' ``--enhancements`` rules, applied to every word's edges in their order
    (1, 2, 4, 5, 6; 3 changes nothing: the scripts compare a word with a string); only run
    when asked for.  Each rule is a pass over the edge arrays; string tests run once per
    distinct label.  Quirks kept: 1 and 5 give a root word's replacement edge no parent (it
    never matches); 5 drops edges from an ``acl*`` parent whose HEAD equals the word's
    0-based position."""
    vocab = tb.vocab
    word, head, label = graph.word, graph.head, graph.label
    basic = tb.head.astype(np.int64)
    parent = np.where(basic >= 0, basic, NO_PARENT)
    udeprel = vocab.map_codes("enhanced:udeprel", _first_part, tb.deprel).astype(np.int64)
    if options.off("1"):  # a path (elided predicate) becomes the basic relation
        word, head, label = _no_gapping(vocab, word, head, label, parent, udeprel, tb.n_words)
    if options.off("2"):  # a word with a conj edge keeps only its last conj edge
        keep = _only_last_conj(vocab, word, label, tb.n_words)
        word, head, label = word[keep], head[keep], label[keep]
    if options.off("4"):  # no nsubj* edge from an xcomp parent
        xcomp = vocab.flags("enhanced:xcomp", lambda s: _first_part(s) == "xcomp", tb.deprel)
        subject = vocab.flags("enhanced:nsubj-step",
                              lambda s: any(x.startswith("nsubj") for x in s.split(">")), label)
        keep = ~((head >= 0) & xcomp[np.maximum(head, 0)] & subject)
        word, head, label = word[keep], head[keep], label[keep]
    if options.off("5"):
        word, head, label = _no_relative_arguments(tb, vocab, word, head, label, parent, udeprel)
    if options.off("6"):
        label = vocab.map_codes("enhanced:no-case",
                                lambda s: ">".join(_no_case(x) for x in s.split(">")), label)
    label = np.asarray(label, dtype=np.int64)
    ulabel = vocab.map_codes(_UNIVERSAL_PATH, _universal_path, label).astype(np.int64)
    return EnhancedGraph(word, head, label, ulabel)


def _first_part(label: str) -> str:
    return label.split(":")[0]


def _no_gapping(vocab, word, head, label, parent, udeprel, n_words):
    """Rule 1: an edge with a path gets the word's basic parent and universal relation; a
    one-step edge equal to an earlier edge of the word (after that) is dropped."""
    path = vocab.flags("enhanced:path", lambda s: ">" in s, label)
    head = np.where(path, parent[word], head)
    label = np.where(path, udeprel[word], label)
    if not len(word):
        return word, head, label
    keys = edge_keys(word, head, label, n_words, len(vocab))
    _, first, inverse = np.unique(keys, axis=0 if keys.ndim == 2 else None, return_index=True,
                                  return_inverse=True)
    keep = path | (first[inverse.reshape(-1)] == np.arange(len(word)))
    return word[keep], head[keep], label[keep]


def _only_last_conj(vocab, word, label, n_words) -> np.ndarray:
    """Rule 2: the mask keeping, for words with a one-step ``conj*`` edge, only the last one."""
    conj = vocab.flags("enhanced:conj-step", lambda s: ">" not in s and s.startswith("conj"), label)
    at = np.flatnonzero(conj)
    last = at[np.append(word[at][1:] != word[at][:-1], True)] if len(at) else at
    has_conj = np.zeros(n_words, bool)
    has_conj[word[at]] = True
    keep = ~has_conj[word]
    keep[last] = True
    return keep


def _no_relative_arguments(tb, vocab, word, head, label, parent, udeprel):
    """Rule 5: a ``ref`` edge becomes the basic edge; an edge from an ``acl*`` parent whose
    HEAD (1-based in its sentence, 0 for the root) equals the word's 0-based position goes."""
    sent_start = tb.sent_word_start.astype(np.int64)[tb.word_sent]
    acl = vocab.flags("enhanced:acl", lambda s: _first_part(s).startswith("acl"), tb.deprel)
    basic = tb.head.astype(np.int64)
    local_head = np.where(basic >= 0, basic - sent_start + 1, 0)
    ref = vocab.flags("enhanced:ref-first", lambda s: s.split(">")[0] == "ref", label)
    safe = np.maximum(head, 0)
    relative = (head >= 0) & acl[safe] & (local_head[safe] == word - sent_start[word])
    keep = ref | ~relative
    head = np.where(ref, parent[word], head)
    label = np.where(ref, udeprel[word], label)
    return word[keep], head[keep], label[keep]


def _no_case(step: str) -> str:
    parts = step.split(":")
    if parts[0] in CASE_DEPRELS and len(parts) == 2 and parts[1] not in UNIVERSAL_DEPREL_EXTENSIONS:
        return parts[0]
    return step


def edge_keys(word: np.ndarray, head: np.ndarray, label: np.ndarray, n_words: int,
              label_range: int) -> np.ndarray:
    """One int64 key per edge (word, head, label; labels below ``label_range``); rows of a
    2-D array if that would overflow (keys built with the same ranges compare)."""
    # int64 whatever the inputs: alignment indices are int32, and int32 keys would wrap
    word, head, label = (np.asarray(a, dtype=np.int64) for a in (word, head, label))
    head_range = n_words + 4  # heads are >= -4
    if (n_words + 1) * head_range * label_range < 2 ** 62:
        return (word * head_range + (head + 4)) * label_range + label
    return np.stack([word, head, label], axis=1)


def partner_edges(graph: EnhancedGraph, sys_to_gold: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """A system graph's edges in gold word indices: (the partner of each edge's word, -1
    without one; its head's partner, :data:`ROOT` for the root and :data:`UNMATCHED` for a
    head without partner or without parent, which match no gold edge)."""
    if not len(graph.word):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    head = graph.head
    head_partner = sys_to_gold[np.maximum(head, 0)]
    mapped = np.where(head == ROOT, ROOT, np.where((head >= 0) & (head_partner >= 0), head_partner,
                                                   UNMATCHED))
    return sys_to_gold[graph.word], mapped


def first_occurrences(keys: np.ndarray) -> np.ndarray:
    """The mask of each edge key's first occurrence (a repeated edge counts once)."""
    first = np.zeros(len(keys), dtype=bool)
    if len(keys):
        first[_unique(keys)[1]] = True
    return first


def key_in(keys: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Per key of ``keys``, whether ``others`` (built with the same ranges) holds it."""
    if keys.ndim == 2:
        as_rows = lambda a: np.ascontiguousarray(a).view([("", a.dtype)] * 3).reshape(-1)  # noqa: E731
        return np.isin(as_rows(keys), as_rows(others.reshape(-1, 3)))
    return np.isin(keys, others)


def _unique(keys: np.ndarray):
    if keys.ndim == 2:
        return np.unique(keys, axis=0, return_index=True, return_counts=True)
    return np.unique(keys, return_index=True, return_counts=True)


def enhanced_counts(universal: bool, gold: Treebank, system: Treebank, gold_graph: EnhancedGraph,
                    system_graph: EnhancedGraph, sys_to_gold: np.ndarray, sys_word_sent: np.ndarray,
                    mode: str = "official") -> Counts:
    """Per-gold-sentence counts of ELAS (``universal`` False) or EULAS; ``mode`` ``official``
    (nested count, no aligned accuracy) or ``set`` (distinct edges, aligned accuracy)."""
    n = gold.n_sentences
    g_label = gold_graph.ulabel if universal else gold_graph.label
    s_label = system_graph.ulabel if universal else system_graph.label
    if mode == "official" and _cenhanced is not None:  # no per-edge temporaries
        as64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
        by_sentence = _cenhanced.official_counts(
            as64(gold_graph.word), as64(gold_graph.head), as64(g_label), gold.n_words,
            as64(system_graph.word), as64(system_graph.head), as64(s_label), system.n_words,
            as64(sys_to_gold), as64(gold.word_sent), as64(sys_word_sent), n, ROOT, UNMATCHED)
        total = tuple(int(t) for t in by_sentence[:, :3].sum(axis=0)) + (None,)
        return Counts(by_sentence, total, has_aligned=False, has_aligned_accuracy=False)
    partner, mapped_head = partner_edges(system_graph, sys_to_gold)
    s_head = system_graph.head
    aligned = partner >= 0
    labels = len(gold.vocab)
    g_keys = edge_keys(gold_graph.word, gold_graph.head, g_label, gold.n_words, labels)
    s_keys = edge_keys(partner[aligned], mapped_head[aligned], s_label[aligned], gold.n_words, labels)
    g_sent_all = gold.word_sent[gold_graph.word].astype(np.int64)
    s_sent_all = sys_word_sent[system_graph.word].astype(np.int64)
    if mode == "set":
        g_u, g_first, _ = _unique(g_keys)
        sys_u, _, _ = _unique(s_keys)
        _, g_at, _ = _intersect(g_u, sys_u)
        g_sent = g_sent_all[g_first]
        gold_word_aligned = np.zeros(gold.n_words, bool)
        gold_word_aligned[sys_to_gold[sys_to_gold >= 0]] = True
        a_sent = g_sent[gold_word_aligned[gold_graph.word[g_first]]]
        own = edge_keys(system_graph.word, s_head, s_label, system.n_words, labels)
        _, s_first, _ = _unique(own)
        return Counts.from_parts(n, g_sent[g_at], g_sent, s_sent_all[s_first], a_sent)
    # every gold edge against every system edge of its word: an edge key on both sides counts
    # the product of its multiplicities (summed per sentence, not repeated: that is quadratic)
    g_u, g_first, g_count = _unique(g_keys)
    s_u, _, s_count = _unique(s_keys)
    _, g_at, s_at = _intersect(g_u, s_u)
    correct = np.zeros(n, dtype=np.int64)
    np.add.at(correct, g_sent_all[g_first][g_at], g_count[g_at].astype(np.int64) * s_count[s_at])
    counts = Counts.from_parts(n, np.zeros(0, np.int64), g_sent_all, s_sent_all,
                               has_aligned_accuracy=False)
    counts.by_sentence[:, Counts.CORRECT] = correct
    _, gold_total, system_total, _ = counts.total
    return Counts(counts.by_sentence, (int(correct.sum()), gold_total, system_total, None),
                  has_aligned=False, has_aligned_accuracy=False)


def _intersect(a: np.ndarray, b: np.ndarray):
    """(common, index in a, index in b) of two arrays of distinct keys (1-D or rows)."""
    if a.ndim == 2:
        a_view = np.ascontiguousarray(a).view([("", a.dtype)] * a.shape[1]).reshape(-1)
        b_view = np.ascontiguousarray(b).view([("", b.dtype)] * b.shape[1]).reshape(-1)
        return np.intersect1d(a_view, b_view, assume_unique=True, return_indices=True)
    return np.intersect1d(a, b, assume_unique=True, return_indices=True)
