"""What the compiled counter (:mod:`conll_eval._ccount`) counts, in two halves around the alignment.

:class:`CompiledCounter` prepares the vocabulary tables, then counts the tokens and finds each
side's functional children and the gold sentence of each system word, which need no alignment
(compiled, without the GIL: they can run in a thread while the words are aligned), then checks
and tallies the aligned pairs.
:func:`conll_eval.metrics.compute_counts` is the reference and counts what this does not.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

from .align import Alignment
from .compiled import ccount as _ccount  # None: the numpy path (not built, or CONLL_EVAL_PURE)
from .metrics import (CLAS17_ZERO_WEIGHT, CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, METRICS, _udeprel,
                      _udeprel_v1, _ufeats)
from .stats import Counts
from .treebank import Treebank, _distinct, same_offset_type
from .background import InBackground

__all__ = ["CompiledCounter", "compiled_counts", "THREAD_MIN_WORDS"]

#: from this many words (gold + system) the alignment-free half and the pair checks are
#: worth threads: scoring took 4.5 -> 5.0 ms with them on 40k words, 7.6 -> 6.9 ms on 80k,
#: 16 -> 13.5 ms on 200k (2-core machine, 2026-11-26)
THREAD_MIN_WORDS = 60_000


def compiled_counts(names: List[str], gold: Treebank, system: Treebank, alignment: Alignment,
                    punct: str = "include", deprel: str = "universal") -> Dict[str, Counts]:
    """The counts of those of ``names`` the compiled counter does (see :class:`CompiledCounter`),
    in this thread; empty without the compiled core."""
    counter = CompiledCounter(names, gold, system, punct, deprel)
    counter.count_alignment_free()
    return counter.counts(alignment)


class CompiledCounter:
    """Counts of those of ``names`` the compiled counter does: tokens (one merge); words and
    the attribute metrics without weights or with CLAS17's, all in one pass, when every word
    is scored (``punct`` include).  Equal to :func:`~conll_eval.metrics.compute_counts`'s.

    Construction reads the vocabulary (in the caller's thread); :meth:`count_alignment_free`
    touches neither the vocabulary nor the alignment (it may run in another thread);
    :meth:`counts` needs both done (on a large pair it checks the pairs in two threads)."""

    def __init__(self, names: List[str], gold: Treebank, system: Treebank,
                 punct: str = "include", deprel: str = "universal"):
        self.gold, self.system = gold, system
        self.done: Dict[str, Counts] = {}
        self.children: Optional[tuple] = None
        self.functional_of: Optional[np.ndarray] = None  # per relation code: functional (MLAS)
        self.system_sentences: Optional[np.ndarray] = None
        active = _ccount is not None and bool(gold.n_sentences)
        self.token_names = [name for name in names if active and METRICS[name].kind == "tokens"]
        self.specs = [spec for spec in (METRICS[name] for name in names)
                      if spec.kind in ("words", "attribute") and spec.weights in (None, "clas17")
                      and all(column in _ccount.CHECKS for column in spec.columns)] \
            if active and punct == "include" else []
        if self.specs:
            self._tables(deprel)

    @property
    def worth_a_thread(self) -> bool:
        """Whether the pair is large enough for :meth:`count_alignment_free` to run beside the
        alignment and for the pairs to be checked in two threads."""
        return bool(self.token_names or self.specs) and \
            self.gold.n_words + self.system.n_words >= THREAD_MIN_WORDS

    def _tables(self, deprel: str) -> None:
        """Per vocabulary code: the relation as compared, universal features, flags."""
        gold, system = self.gold, self.system
        vocab = gold.vocab
        uni_key, uni_function = ("udeprel-v1", _udeprel_v1) if deprel == "v1" else ("udeprel", _udeprel)
        # both sides' (np.union1d would import numpy.ma: ~13 ms, once)
        relations = _distinct(gold.deprel, system.deprel)
        uni_table = vocab.mapping(uni_key, uni_function, relations)  # as "uni" in the context
        uni = uni_table[relations]
        need = {check for spec in self.specs for check in
                spec.columns + (("head",) if spec.head else ()) +
                (("functional_children",) if spec.functional_children else ())}
        if "ufeats" in need or "functional_children" in need:
            vocab.mapping("ufeats", _ufeats, gold.feats)
            self.ufeats_of = vocab.mapping("ufeats", _ufeats, system.feats)  # covers both
        else:
            self.ufeats_of = np.zeros(len(vocab), dtype=np.int32)
        # the relation as compared: as written (--deprel full), else universal (v1 names renamed)
        self.compared_of = np.arange(len(vocab), dtype=np.int32) if deprel == "full" else uni_table
        size = len(vocab)
        content = vocab.flags("content", CONTENT_DEPRELS.__contains__, uni)
        clas17 = ~vocab.flags("clas17", CLAS17_ZERO_WEIGHT.__contains__, uni)
        self.flags_of = np.zeros(size, dtype=np.uint8)
        self.flags_of[relations] = (np.where(content, _ccount.FLAG_CONTENT, 0) |
                                    np.where(clas17, _ccount.FLAG_CLAS17, 0))
        if "functional_children" in need:
            self.functional_of = np.zeros(size, dtype=np.int8)
            self.functional_of[relations] = vocab.flags("functional", FUNCTIONAL_DEPRELS.__contains__, uni)
        self.underscore = vocab.find("_")

    def count_alignment_free(self) -> None:
        """The tokens' counts and each side's functional children (compiled passes)."""
        gold, system = self.gold, self.system
        for name in self.token_names:
            rows = _ccount.span_counts(*same_offset_type(gold.tok_start, gold.tok_end,
                                                         system.tok_start, system.tok_end,
                                                         gold.sent_char_start))
            correct, gold_total, system_total, _ = (int(x) for x in rows.sum(axis=0))
            self.done[name] = Counts(rows, (correct, gold_total, system_total, None), False, False)
        if self.functional_of is not None:
            self.children = (_ccount.functional_children(gold.head, gold.deprel, self.functional_of) +
                             _ccount.functional_children(system.head, system.deprel, self.functional_of))
        if self.specs:  # the gold sentence of each system word (the tally counts them there)
            self.system_sentences = gold.sentence_of_chars(system.word_start)

    def counts(self, alignment: Alignment) -> Dict[str, Counts]:
        """Every count this counter does, by metric name (after :meth:`count_alignment_free`;
        once: the working arrays go as they are used)."""
        counts = dict(self.done)
        if not self.specs:
            return counts
        mask = self._pair_checks(alignment)
        self.children = None  # their memory goes back before the tally
        checks, specs = _ccount.CHECKS, self.specs
        required = np.array([sum(checks[c] for c in spec.columns) +
                             (checks["head"] if spec.head else 0) +
                             (checks["functional_children"] if spec.functional_children else 0)
                             for spec in specs], dtype=np.uint16)
        filters = np.array([_ccount.FILTERS[spec.word_filter or spec.weights] for spec in specs],
                           dtype=np.uint8)
        by_sentence, totals = self._tally(mask, alignment.gold_idx, required, filters)
        del mask
        self.system_sentences = None  # its memory goes back before the other metrics
        for spec, rows, total in zip(specs, by_sentence, totals.tolist()):
            counts[spec.name] = Counts(rows, tuple(total), True, spec.has_aligned_accuracy)
        return counts

    def _tally(self, mask: np.ndarray, gold_idx: np.ndarray, required: np.ndarray,
               filters: np.ndarray) -> tuple:
        """:func:`conll_eval._ccount.tally` of the checked pairs; on a large pair in two
        threads, each counting the words of its own sentences (the first half of the pairs'
        sentences, the rest): they add to rows of their own."""
        gold, system = self.gold, self.system
        columns = (mask, gold_idx, gold.word_sent, self.system_sentences, gold.deprel,
                   system.deprel, self.flags_of, required, filters)
        n_pairs = len(gold_idx)
        if not self.worth_a_thread or n_pairs < 2:
            return _ccount.tally(*columns, gold.n_sentences)
        word_sent, half = gold.word_sent, n_pairs // 2
        split = int(word_sent[gold_idx[half]])  # the second part's first sentence
        # its first pair: the pairs before are in sentence order, one sentence is short
        start = half
        while True:
            start = max(0, start - 4096)
            before = word_sent[gold_idx[start:half + 1]]
            if before[0] < split or start == 0:
                break
        pair_at = start + int(np.searchsorted(before, split))
        gold_at = int(np.searchsorted(word_sent, split))
        sys_at = int(np.searchsorted(self.system_sentences, split))
        out, per_filter = _ccount.tally_arrays(len(required), gold.n_sentences)
        with InBackground(_tally_range, out, per_filter, columns, pair_at, n_pairs, gold_at,
                          len(word_sent), sys_at, len(self.system_sentences), split,
                          gold.n_sentences) as later:
            first = _tally_range(out, per_filter, columns, 0, pair_at, 0, gold_at, 0, sys_at,
                                 0, split)
        second = later.result()
        if first is None or second is None:  # not in sentence order after all: count again
            return _ccount.tally(*columns, gold.n_sentences)
        return out, first + second

    def _pair_checks(self, alignment: Alignment) -> np.ndarray:
        """:func:`conll_eval._ccount.pair_checks` of every aligned pair; on a large pair the
        second half of the pairs in a thread (the checks of a pair are its own)."""
        gold, system = self.gold, self.system
        columns = (alignment.partners("system"),  # not kept: scoring needs it only here
                   gold.upos, system.upos, gold.xpos, system.xpos, gold.feats, system.feats,
                   gold.lemma, system.lemma, gold.deprel, system.deprel, gold.head, system.head,
                   self.ufeats_of, self.compared_of, self.underscore, self.children)
        gold_idx, sys_idx = alignment.gold_idx, alignment.sys_idx
        if not self.worth_a_thread or len(gold_idx) < 2:
            return _ccount.pair_checks(gold_idx, sys_idx, *columns)
        half = len(gold_idx) // 2
        with InBackground(_ccount.pair_checks, gold_idx[half:], sys_idx[half:], *columns) as later:
            first = _ccount.pair_checks(gold_idx[:half], sys_idx[:half], *columns)
        return np.concatenate((first, later.result()))


def _tally_range(out: np.ndarray, per_filter: np.ndarray, columns: tuple, pair_lo: int,
                 pair_hi: int, gold_lo: int, gold_hi: int, sys_lo: int, sys_hi: int,
                 sent_lo: int, sent_hi: int) -> Optional[np.ndarray]:
    """One thread's part of :meth:`CompiledCounter._tally`: ``_ccount.tally_part`` of its
    pairs and words, then the totals of its sentences (None: a word outside them)."""
    if not _ccount.tally_part(out, per_filter, *columns, pair_lo, pair_hi, gold_lo, gold_hi,
                              sys_lo, sys_hi, sent_lo, sent_hi):
        return None
    return _ccount.tally_totals(out, per_filter, columns[-1], sent_lo, sent_hi)
