"""Is system A really better than B: every system scored on the same gold file, each score
with its bootstrap interval, and per pair of systems the difference with its interval, the
paired bootstrap and approximate-randomization p-values and (UAS, LAS) McNemar's test on the
gold words, p-values corrected for the number of pairs.

Built on the per-gold-sentence counts of :class:`conll_eval.evaluate.Evaluation` (so raw-text
output works: a segmentation error is resampled with its sentence).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .resampling import (DEFAULT_RESAMPLES, DEFAULT_SEED, Interval, approximate_randomization,
                         bonferroni, holm, paired_bootstrap)

__all__ = ["CORRECTIONS", "MCNEMAR_METRICS", "PairResult", "Comparison", "compare",
           "ranked_clusters"]

CORRECTIONS = ("holm", "bonferroni", "none")
#: metrics whose per-word correctness McNemar's test uses (head, relation)
MCNEMAR_METRICS = {"UAS": "HeadRight", "LAS": "BothRight"}


@dataclass(frozen=True)
class PairResult:
    """One metric, systems ``first`` and ``second`` (indices): F1 difference and interval,
    raw and corrected p-values by test (``bootstrap``, ``randomization``, ``mcnemar``)."""

    first: int
    second: int
    difference: Interval
    p: Dict[str, float]
    corrected: Dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    """Per metric: each system's F1 interval, and the pairs tested."""

    systems: Tuple[str, ...]
    intervals: Dict[str, Tuple[Interval, ...]]
    pairs: Dict[str, Tuple[PairResult, ...]]
    resamples: int
    seed: int
    alpha: float
    correction: str


def _word_correctness(evaluation, metric: str) -> np.ndarray:
    """Per gold word: right for the metric (UAS/LAS) on the word alignment."""
    from .counting import AnalysisPair, word_correctness
    pair = AnalysisPair.from_treebanks(evaluation.gold, evaluation.system, evaluation.alignment,
                                       universal_deprel=evaluation.settings.deprel != "full")
    return word_correctness(MCNEMAR_METRICS[metric], pair)[0]


def compare(names: Sequence[str], evaluations: Sequence, metrics: Sequence[str],
            resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, alpha: float = 0.05,
            correction: str = "holm", baseline: Optional[int] = None) -> Comparison:
    """Compare ``evaluations`` (one per system, all on the same gold file); ``baseline``: test
    every system against that one only, else every pair."""
    from ..metrics import display_name
    from .significance import mcnemar_p
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}")
    by_name = [{display_name(k): c for k, c in e.counts.items()} for e in evaluations]
    if baseline is None:
        tested = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    else:
        tested = [(baseline, j) for j in range(len(names)) if j != baseline]
    intervals, pairs = {}, {}
    for metric in metrics:
        counts = [counts_of[metric].by_sentence for counts_of in by_name]
        boot = paired_bootstrap(counts, resamples, seed, alpha)
        intervals[metric] = boot.systems
        results = []
        for i, j in tested:
            key = (i, j) if (i, j) in boot.differences else (j, i)
            difference, p_boot = boot.differences[key]
            if key != (i, j):
                difference = Interval(-difference.value, -difference.high, -difference.low)
            p = {"bootstrap": p_boot,
                 "randomization": approximate_randomization(counts[i], counts[j], resamples, seed)}
            if metric in MCNEMAR_METRICS:
                p["mcnemar"] = mcnemar_p(_word_correctness(evaluations[i], metric),
                                         _word_correctness(evaluations[j], metric))
            results.append(PairResult(i, j, difference, p))
        pairs[metric] = tuple(results)
    _correct(pairs, correction)
    return Comparison(tuple(names), intervals, pairs, resamples, seed, alpha, correction)


def _correct(pairs: Dict[str, Tuple[PairResult, ...]], correction: str) -> None:
    """Fill ``corrected``: per metric and test, over the pairs tested."""
    adjust = {"holm": holm, "bonferroni": bonferroni, "none": list}[correction]
    for results in pairs.values():
        if not results:
            continue
        for test in results[0].p:
            values = adjust([r.p[test] for r in results])
            for r, value in zip(results, values):
                r.corrected[test] = value


def ranked_clusters(comparison: Comparison, metric: str) -> List[Tuple[int, int, List[int]]]:
    """Systems by decreasing F1, in clusters: a system joins the cluster of the one above it
    unless it is significantly worse (corrected p below alpha in every test) than the
    cluster's best.  Returns (first rank, last rank, system indices) per cluster; empty when
    not every pair was tested (``--baseline``)."""
    n = len(comparison.systems)
    results = {(r.first, r.second): r for r in comparison.pairs.get(metric, ())}
    if len(results) != n * (n - 1) // 2:
        return []

    def different(i: int, j: int) -> bool:
        r = results.get((i, j)) or results.get((j, i))
        return all(v < comparison.alpha for v in r.corrected.values())

    order = sorted(range(n), key=lambda k: -comparison.intervals[metric][k].value)
    clusters: List[List[int]] = []
    for k in order:
        if clusters and not different(clusters[-1][0], k):
            clusters[-1].append(k)
        else:
            clusters.append([k])
    out, rank = [], 1
    for members in clusters:
        out.append((rank, rank + len(members) - 1, members))
        rank += len(members)
    return out
