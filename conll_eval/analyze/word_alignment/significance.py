"""Significance tests between word aligners on the same gold sentences: paired bootstrap
intervals and approximate randomization (stratified shuffling of whole sentences, as Bikel's
``compare.pl``), through the F1-shaped resampling of :mod:`conll_eval.analyze.resampling`.

Every tested score is 2c / (g + s) of per-sentence counts: 1 - AER with c = (|P∩A| + |S∩A|)/2,
g = |S|, s = |A|; a precision c/s with g = s and a recall c/g with s = g; the scores are
turned back (AER = 1 - that) before they are reported.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, Sequence, Tuple

import numpy as np

from ..comparison import Comparison, PairResult, SentenceTable, compare_table
from ..resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, Interval
from .scoring import SentenceCounts

__all__ = ["TESTED_SCORES", "LOWER_IS_BETTER", "tested_counts", "compare_alignments"]

#: tested score -> its (correct, gold, system) counts; the chapter tests "only on sure
#: links" (sure precision, recall and F1), AER and Och and Ney's precision come with them
TESTED_SCORES = ("AER", "precision", "recall", "sure-precision", "sure-F1")
#: scores where a smaller value is the better system
LOWER_IS_BETTER = frozenset({"AER"})


def tested_counts(counts: SentenceCounts) -> np.ndarray:
    """Per sentence, per score of :data:`TESTED_SCORES`: (correct, gold, system) whose
    2c / (g + s) is the score (1 - AER for AER): shape (sentences, scores, 3)."""
    a, s = counts.system.astype(np.float64), counts.sure.astype(np.float64)
    sure_hits, possible_hits = counts.sure_hits, counts.possible_hits
    columns = {
        "AER": ((possible_hits + sure_hits) / 2, s, a),
        "precision": (possible_hits, a, a),
        "recall": (sure_hits, s, s),
        "sure-precision": (sure_hits, a, a),
        "sure-F1": (sure_hits, s, a),
    }
    return np.stack([np.stack(columns[name], axis=-1) for name in TESTED_SCORES],
                    axis=1).astype(np.float64)


def _flipped(interval: Interval) -> Interval:
    """The interval of 1 - x from that of x."""
    return Interval(1 - interval.value, 1 - interval.high, 1 - interval.low)


def _negated(interval: Interval) -> Interval:
    return Interval(-interval.value, -interval.high, -interval.low)


def compare_alignments(names: Sequence[str], counts: Sequence[SentenceCounts],
                       resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                       alpha: float = 0.05, correction: str = "holm") -> Comparison:
    """Every pair of systems (``counts[k]``: system k on the same gold sentences), on every
    score of :data:`TESTED_SCORES`: each system's score with its paired bootstrap interval,
    and per pair the difference (first - second; for AER, too, an AER difference) with its
    interval, the bootstrap and the approximate-randomization p-values and those corrected
    over the pairs.  Seeded: the same call gives the same numbers."""
    if len(names) != len(counts) or len(counts) < 2:
        raise ValueError("give one name per system and at least two systems")
    sizes = {len(c.sentences) for c in counts}
    if len(sizes) != 1 or not all(np.array_equal(c.sentences, counts[0].sentences)
                                  for c in counts):
        raise ValueError("the systems must be counted on the same gold sentences")
    table = SentenceTable(tuple(names), TESTED_SCORES, [[tested_counts(c)] for c in counts],
                          np.ones((1, len(TESTED_SCORES)), dtype=bool))
    raw = compare_table(table, resamples, seed, alpha, correction)
    intervals: Dict[str, Tuple[Interval, ...]] = dict(raw.intervals)
    pairs: Dict[str, Tuple[PairResult, ...]] = dict(raw.pairs)
    # AER was tested as 1 - AER: same p-values, mirrored values and intervals
    intervals["AER"] = tuple(_flipped(i) for i in raw.intervals["AER"])
    pairs["AER"] = tuple(replace(r, difference=_negated(r.difference)) for r in raw.pairs["AER"])
    return replace(raw, intervals=intervals, pairs=pairs)
