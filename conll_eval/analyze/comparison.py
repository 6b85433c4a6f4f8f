"""Is system A really better than B: every system scored on the same gold sentences, each
score with its bootstrap interval, and per pair of systems the difference with its interval,
the paired bootstrap and approximate-randomization p-values and (UAS, LAS, one file) McNemar's
test on the gold words, p-values corrected for the number of pairs.

Built on per-gold-sentence counts (:class:`conll_eval.stats.Counts`), so raw-text output
works: a segmentation error is resampled with its sentence.  One file is one stratum; a suite
is one stratum per treebank, scored by the macro-average as the shared tasks rank.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..metrics import display_name
from .counting import AnalysisPair, word_correctness
from .defaults import CORRECTIONS
from .resampling import (DEFAULT_RESAMPLES, DEFAULT_SEED, Interval, bonferroni, bootstrap_scores,
                         difference_test, holm, percentile_interval, randomization_p)
from .significance import mcnemar_p

__all__ = ["CORRECTIONS", "MCNEMAR_METRICS", "MIN_SENTENCES", "SentenceTable", "PairResult", "Comparison",
           "compare", "compare_suites", "compare_table", "ranked_clusters"]

#: metrics whose per-word correctness McNemar's test uses (head, relation)
MCNEMAR_METRICS = {"UAS": "HeadRight", "LAS": "BothRight"}


@dataclass(frozen=True)
class SentenceTable:
    """What the tests resample: ``counts[k][t]`` is system k's per-gold-sentence counts in
    stratum t, ``(n_t, metrics, 3)`` (correct, gold, system), the same sentences for every
    system; ``included[t, m]``: stratum t counts in metric m's macro-average (a treebank
    that does not annotate a tag does not).  A system that failed on a treebank has (0, gold,
    0) rows there, so it scores 0 there in every bootstrap resample."""

    systems: Tuple[str, ...]
    metrics: Tuple[str, ...]
    counts: List[List[np.ndarray]]
    included: np.ndarray
    #: the strata's names (a suite's treebanks; empty for one file)
    names: Tuple[str, ...] = ()

    @property
    def strata(self) -> int:
        return self.included.shape[0]


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
    """Per metric: each system's F1 interval, and the pairs tested.  ``strata``: 1 for a
    file, the number of treebanks for a suite (the scores are then macro-averages)."""

    systems: Tuple[str, ...]
    intervals: Dict[str, Tuple[Interval, ...]]
    pairs: Dict[str, Tuple[PairResult, ...]]
    resamples: int
    seed: int
    alpha: float
    correction: str
    strata: int = 1
    #: gold sentences resampled, per stratum
    sentences: Tuple[int, ...] = ()
    #: the strata's names (a suite's treebanks), when they have any
    strata_names: Tuple[str, ...] = ()
    #: the metrics no stratum annotates (the gold column is ``_`` everywhere): n/a, their
    #: numbers mean nothing and no pair of theirs is ever better than another
    unannotated: Tuple[str, ...] = ()

    def significant(self, result: PairResult) -> bool:
        """Is the pair's difference significant: a corrected p below alpha in every test run
        on it (the outputs' "significant" column)?"""
        return all(p < self.alpha for p in result.corrected.values())

    def not_better(self, system: int) -> List[Tuple[str, PairResult]]:
        """(metric, pair) of every pair tested with ``system`` (an index) in which it is not
        significantly better than the other system: its difference is not positive, or not
        significant.  Empty when it beats every system it was tested against."""
        def better(result: PairResult) -> bool:
            sign = 1 if result.first == system else -1
            return sign * result.difference.value > 0 and self.significant(result)
        return [(metric, result) for metric, results in self.pairs.items() for result in results
                if metric not in self.unannotated and system in (result.first, result.second)
                and not better(result)]

    def small_strata(self) -> List[Tuple[str, int]]:
        """(name, gold sentences) of each stratum with fewer than :data:`MIN_SENTENCES`
        sentences, whose p-values and intervals are unreliable (the name is ``""`` for one
        file)."""
        names = self.strata_names or ("",) * len(self.sentences)
        return [(name, n) for name, n in zip(names, self.sentences)
                if 0 < n < MIN_SENTENCES]  # 0: every system failed there, nothing resampled


#: below this many gold sentences (in a file, or in a treebank of a suite) the tests warn:
#: their p-values are unreliable.  Measured (README, "Is A really better than B"): two
#: systems drawn from one distribution, alpha 0.05, 400-2000 trials per size: the paired
#: bootstrap calls them different in 23 % of the trials with 3 sentences, 13 % with 5, 10 %
#: with 10, 8 % with 15, and 6-7 % from 20 to 60 sentences, where its excess over 5 % stops
#: shrinking; approximate randomization stays at or below 5 % but cannot reach p < 0.05 at
#: all below 6 sentences (2^n distinct shuffles).
MIN_SENTENCES = 20

Correctness = Callable[[int, str], np.ndarray]


def compare_table(table: SentenceTable, resamples: int = DEFAULT_RESAMPLES,
                  seed: int = DEFAULT_SEED, alpha: float = 0.05, correction: str = "holm",
                  baseline: Optional[int] = None,
                  correctness: Optional[Correctness] = None) -> Comparison:
    """Test ``table``'s systems: every pair, or each against ``baseline`` (an index).
    ``correctness(k, metric)``: system k's per-gold-word right/wrong for McNemar's test
    (UAS, LAS), when the words are comparable."""
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}")
    n_systems, n_metrics = len(table.systems), len(table.metrics)
    if baseline is None:
        tested = [(i, j) for i in range(n_systems) for j in range(i + 1, n_systems)]
    else:
        tested = [(baseline, j) for j in range(n_systems) if j != baseline]
    # one bootstrap for every (system, metric) score: column k * n_metrics + m
    strata = [np.concatenate([table.counts[k][t] for k in range(n_systems)], axis=1)
              for t in range(table.strata)]
    boot = bootstrap_scores(strata, resamples, seed, np.tile(table.included, (1, n_systems)))

    def column(k: int, m: int) -> int:
        return k * n_metrics + m

    intervals = {metric: tuple(percentile_interval(boot.observed[column(k, m)],
                                                   boot.samples[:, column(k, m)], alpha)
                               for k in range(n_systems))
                 for m, metric in enumerate(table.metrics)}
    results: Dict[str, List[PairResult]] = {metric: [] for metric in table.metrics}
    for i, j in tested:
        randomization = randomization_p(table.counts[i], table.counts[j], resamples, seed,
                                        table.included)
        for m, metric in enumerate(table.metrics):
            a, b = column(i, m), column(j, m)
            difference, p_boot = difference_test(boot.observed[a] - boot.observed[b],
                                                 boot.samples[:, a] - boot.samples[:, b], alpha)
            p = {"bootstrap": p_boot, "randomization": float(randomization[m])}
            if correctness is not None and metric in MCNEMAR_METRICS:
                p["mcnemar"] = mcnemar_p(correctness(i, metric), correctness(j, metric))
            results[metric].append(PairResult(i, j, difference, p))
    pairs = {metric: tuple(r) for metric, r in results.items()}
    _correct(pairs, correction)
    sentences = tuple(int(table.counts[0][t].shape[0]) for t in range(table.strata))
    unannotated = tuple(metric for m, metric in enumerate(table.metrics)
                        if table.strata and not table.included[:, m].any())
    return Comparison(table.systems, intervals, pairs, resamples, seed, alpha, correction,
                      table.strata, sentences, table.names, unannotated)


def _counts_by_name(evaluation) -> Dict[str, object]:
    return {display_name(k): c for k, c in evaluation.counts.items()}


def compare(names: Sequence[str], evaluations: Sequence, metrics: Sequence[str],
            resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, alpha: float = 0.05,
            correction: str = "holm", baseline: Optional[int] = None) -> Comparison:
    """Compare ``evaluations`` (one per system, all on the same gold file); ``baseline``: test
    every system against that one only, else every pair.  A metric whose gold column the file
    does not annotate (``_`` on every word: ELAS without DEPS) is in the comparison's
    ``unannotated``: n/a, never better."""
    by_name = [_counts_by_name(e) for e in evaluations]
    counts = [[np.stack([c[m].by_sentence[:, :3] for m in metrics], axis=1)] for c in by_name]
    # the gold file alone decides (Evaluation.unannotated's "not annotated" notes)
    unannotated = {metric for metric, why in evaluations[0].unannotated().items()
                   if why.startswith("not annotated")} if evaluations else set()
    table = SentenceTable(tuple(names), tuple(metrics), counts,
                          np.array([[metric not in unannotated for metric in metrics]], dtype=bool))
    cache: Dict[Tuple[int, str], np.ndarray] = {}

    def correctness(k: int, metric: str) -> np.ndarray:
        if (k, metric) not in cache:
            e = evaluations[k]
            pair = AnalysisPair.from_treebanks(e.gold, e.system, e.alignment,
                                               universal_deprel=e.settings.deprel != "full")
            cache[(k, metric)] = word_correctness(MCNEMAR_METRICS[metric], pair)[0]
        return cache[(k, metric)]

    return compare_table(table, resamples, seed, alpha, correction, baseline, correctness)


def suite_table(suites: Sequence, metrics: Sequence[str]) -> SentenceTable:
    """The :class:`SentenceTable` of several systems' :class:`conll_eval.suite.SuiteEvaluation`
    over the same treebanks, scored with ``sentence_metrics`` covering ``metrics``.  A failed
    treebank gets (0, gold, 0) rows (the gold counts of a system that did not fail there; no
    rows when every system failed: 0 for all)."""
    n_treebanks = len(suites[0].results)
    counts: List[List[np.ndarray]] = [[] for _ in suites]
    included = np.ones((n_treebanks, len(metrics)), dtype=bool)
    for t in range(n_treebanks):
        results = [suite.results[t] for suite in suites]
        for m, metric in enumerate(metrics):
            included[t, m] = not any(metric in r.unannotated for r in results)
        scored = [r.sentence_counts for r in results if r.ok and r.sentence_counts is not None]
        shape = None
        if scored:
            gold = np.stack([scored[0][m][:, 1] for m in metrics], axis=1)
            shape = gold.shape
        for k, r in enumerate(results):
            if r.ok and r.sentence_counts is not None:
                rows = np.stack([r.sentence_counts[m] for m in metrics], axis=1)
                if rows.shape[:2] != shape:
                    raise ValueError(f"{r.entry.name}: the systems' gold sentences differ")
            else:
                rows = np.zeros((0, len(metrics), 3))
                if shape is not None:
                    rows = np.zeros(shape + (3,), dtype=np.float64)
                    rows[:, :, 1] = gold
            counts[k].append(rows)
    return SentenceTable(tuple(s.system_name for s in suites), tuple(metrics), counts, included,
                         tuple(r.entry.name for r in suites[0].results))


def compare_suites(suites: Sequence, metrics: Sequence[str],
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                   alpha: float = 0.05, correction: str = "holm",
                   baseline: Optional[int] = None) -> Comparison:
    """Compare systems over a suite by their macro-averages: resampling within each treebank
    (stratified), failed treebanks 0 in every bootstrap resample; no McNemar (a test of one file's
    words, not of a macro-average)."""
    return compare_table(suite_table(suites, metrics), resamples, seed, alpha, correction,
                         baseline)


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
    not every pair was tested (``--baseline``) or the metric is n/a (``unannotated``)."""
    n = len(comparison.systems)
    results = {(r.first, r.second): r for r in comparison.pairs.get(metric, ())}
    if len(results) != n * (n - 1) // 2 or metric in comparison.unannotated:
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
