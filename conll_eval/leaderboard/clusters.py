"""The ranking's significance clusters: the ranked submissions' per-sentence counts of the
primary metric (kept per submission and treebank) resampled by one paired bootstrap
stratified by treebank, as ``conll_eval compare`` and ``suite --significance`` resample them.
Walking down the ranking, a submission joins the cluster above unless it is significantly
worse than that cluster's best (:func:`conll_eval.analyze.comparison.ranked_clusters`'s rule),
the correction counting the n - 1 tests that walk makes (:func:`walk_clusters`)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..analyze.defaults import CORRECTIONS, DEFAULT_RESAMPLES, DEFAULT_SEED
from ..analyze.resampling import Resampled, f1_of, macro_of
from ..errors import printable
from .db import LeaderboardError
from .models import SentenceCounts
from .scoring import metric_counts

__all__ = ["Significance", "MAX_DEFAULT_RESAMPLES", "Walk", "sentence_strata", "cluster_numbers",
           "cluster_walk", "walk_clusters", "stratified_bootstrap", "pair_p_value", "pair_p_values"]

#: submissions whose counts one query reads: the ORM buffers a query's rows, and a submission
#: of 82 treebanks of 300 sentences keeps ~3 MB of them (every metric's counts), so reading
#: 100 teams' at once held 300 MB
_BATCH = 16
#: resamples whose weights one matrix product takes, as analyze.resampling's bootstrap: the
#: generator draws block by block, so the same block size gives the same draws
_BLOCK = 64
#: float32 adds integers exactly below this: a treebank whose resampled counts stay below it
#: is resampled in float32, whose matrix products take a third of float64's time
_EXACT_FLOAT32 = 2 ** 24
#: the most resamples the default takes: more would make rank's work grow as the teams
#: squared (resamples x teams); past 250 teams at alpha 0.05 the default stops growing, and
#: past 500 no test can pass with it (the note says so; give --resamples)
MAX_DEFAULT_RESAMPLES = 10_000
#: the default resamples leave room for this many resampled differences beyond the observed
#: one in a test that still passes after the correction (see Significance.resamples_for)
_HEADROOM = 2


@dataclass(frozen=True)
class Significance:
    """How the clusters are tested: the shared resampling options of ``compare``.
    ``resamples`` None: enough for the number of ranked entries (:meth:`resamples_for`)."""
    resamples: Optional[int] = None
    seed: int = DEFAULT_SEED
    alpha: float = 0.05
    correction: str = "holm"

    @staticmethod
    def tests(entries: int) -> int:
        """The tests the walk makes: one per entry below the first."""
        return max(0, entries - 1)

    def _factor(self, entries: int) -> int:
        """What the correction multiplies the smallest p-value by (Holm's first step)."""
        return 1 if self.correction == "none" else max(1, self.tests(entries))

    def resamples_for(self, entries: int) -> int:
        """The resamples given, else compare's default (1000), raised by thousands for many
        entries until a test whose every resampled difference is nearer 0 than the observed
        one, or all but one, passes after the correction (100 teams at alpha 0.05: 4000), up
        to :data:`MAX_DEFAULT_RESAMPLES`."""
        if self.resamples is not None:
            return self.resamples
        needed = _HEADROOM * self._factor(entries) / self.alpha
        return min(MAX_DEFAULT_RESAMPLES, max(DEFAULT_RESAMPLES, 1000 * math.ceil(needed / 1000)))

    def separable(self, entries: int) -> bool:
        """Can any of ``entries`` ranked submissions be significantly worse than another?  No
        bootstrap p-value is below 1 / (resamples + 1), and the correction's first step
        multiplies the smallest by the number of tests: too few resamples for many teams
        make one cluster whatever the scores."""
        return entries < 2 or self._factor(entries) / (self.resamples_for(entries) + 1) < self.alpha

    def record(self, entries: int = 0) -> dict:
        return {"test": "paired-bootstrap", "stratified": "treebank", "rule": "cluster-best",
                "resamples": self.resamples_for(entries), "seed": self.seed, "alpha": self.alpha,
                "correction": self.correction, "tests": self.tests(entries),
                "separable": self.separable(entries)}


def sentence_strata(session: Session, entries: Sequence[dict],
                    metric: str) -> Tuple[List[np.ndarray], np.ndarray]:
    """Per treebank (the entries' order of treebanks) the ``(sentences, entries, 3)`` counts of
    ``metric``, and ``included`` ``(treebanks, 1)``: the treebank counts in the macro-average
    (its gold file annotates the metric).  A submission that failed on a treebank gets
    (0, gold, 0) rows there (:func:`conll_eval.analyze.comparison.suite_table`'s rule); a
    treebank every submission failed has no rows (0 for all)."""
    names = [record["name"] for record in entries[0]["treebanks"]] if entries else []
    column = {entry["submission"]: k for k, entry in enumerate(entries)}
    found: Dict[Tuple[int, str], np.ndarray] = {}
    ids = list(column)
    for start in range(0, len(ids), _BATCH):
        rows = session.execute(select(SentenceCounts.submission_id, SentenceCounts.treebank,
                                      SentenceCounts.counts)
                               .where(SentenceCounts.submission_id.in_(ids[start:start + _BATCH])))
        for submission_id, treebank, blob in rows:
            counts = metric_counts(blob, metric)
            if counts is not None:
                found[(column[submission_id], treebank)] = counts
    strata: List[np.ndarray] = []
    included = np.ones((len(names), 1), dtype=bool)
    for t, name in enumerate(names):
        present = [(k, found[(k, name)]) for k in range(len(entries)) if (k, name) in found]
        included[t, 0] = not any(_unannotated(entry["treebanks"][t], metric) for entry in entries)
        sentences = present[0][1].shape[0] if present else 0
        stratum = np.zeros((sentences, len(entries), 3), dtype=np.float64)
        if present:
            stratum[:, :, 1] = present[0][1][:, 1][:, None]  # the gold counts, for failed ones
        for k, counts in present:
            if counts.shape[0] != sentences:
                raise LeaderboardError(f"{printable(name)}: the submissions' gold sentences differ "
                                       f"({sentences} and {counts.shape[0]}): run 'conll_eval "
                                       "leaderboard rescore'", "counts-mismatch")
            stratum[:, k, :] = counts
        strata.append(stratum)
    return strata, included


def _unannotated(record: dict, metric: str) -> bool:
    score = record["metrics"].get(metric) or {}
    return score.get("annotated") is False or (record["status"] == "ok" and score.get("f1") is None)


def _p_of(d, spread, resamples: int):
    """difference_test's p: the resampled differences at least as far from the observed
    ``d`` as ``d`` is from 0 (a tolerance for rounding), plus one, over resamples + 1."""
    extreme = np.count_nonzero(np.abs(spread - d) >= np.abs(d) - 1e-15, axis=0)
    return np.minimum(1.0, (extreme + 1) / (resamples + 1))


def pair_p_value(observed: np.ndarray, samples: np.ndarray, i: int, j: int) -> float:
    """The bootstrap p-value of F1_i - F1_j, as
    :func:`conll_eval.analyze.resampling.difference_test` gives it."""
    return float(_p_of(observed[i] - observed[j], samples[:, i] - samples[:, j], samples.shape[0]))


def pair_p_values(observed: np.ndarray, samples: np.ndarray) -> Dict[Tuple[int, int], float]:
    """Per pair (i < j) :func:`pair_p_value`, computed for every pair of a column at once."""
    out: Dict[Tuple[int, int], float] = {}
    for i in range(len(observed) - 1):
        p = _p_of(observed[i] - observed[i + 1:], samples[:, i:i + 1] - samples[:, i + 1:], samples.shape[0])
        out.update({(i, i + 1 + j): float(v) for j, v in enumerate(p)})
    return out


@dataclass(frozen=True)
class Walk:
    """The clusters' outcome: ``numbers`` each entry's cluster (1, 2, ...), ``tests`` the
    walk's (entry, the best of the cluster above it, raw p, separated), ``factor`` what the
    correction multiplied each p by in the walk kept (1: none; n - 1: Bonferroni and Holm's
    first step; Holm's later passes less)."""
    numbers: List[int]
    tests: List[Tuple[int, int, float, bool]]
    factor: int


def _walk_once(order: Sequence[int], p_value: Callable[[int, int], float], alpha: float,
               factor: int) -> Walk:
    numbers = [0] * len(order)
    tests = []
    best, number = order[0], 1
    numbers[best] = 1
    for k in order[1:]:
        p = p_value(best, k)
        separated = p * factor < alpha
        tests.append((k, best, p, separated))
        if separated:
            best, number = k, number + 1
        numbers[k] = number
    return Walk(numbers, tests, factor)


def walk_clusters(order: Sequence[int], p_value: Callable[[int, int], float], alpha: float,
                  correction: str) -> Walk:
    """The clusters of the entries ``order`` lists best first: walking down, an entry starts
    a new cluster when its p-value against the best (first) of the cluster above, times the
    correction's factor, is below ``alpha`` (``p_value(best, entry)``); else it joins.  The
    walk makes m = n - 1 tests; ``none`` multiplies by 1, ``bonferroni`` by m, ``holm`` is
    Holm's step-down over the walk's tests: a first walk at factor m; a walk that separated
    r entries is followed by one at factor m - r, until one separates no more than the walk
    before it, whose clusters are kept.  With the same tests in every walk that is exactly
    Holm's procedure; here the tests below a new boundary change (they compare with the new
    cluster's best), and stopping at the first walk that does not separate more keeps every
    separation justified by the count of separations before it."""
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}")
    if not order:
        return Walk([], [], 1)
    tests = len(order) - 1
    known: Dict[Tuple[int, int], float] = {}

    def cached(best: int, k: int) -> float:
        if (best, k) not in known:
            known[(best, k)] = p_value(best, k)
        return known[(best, k)]

    walk = _walk_once(order, cached, alpha, 1 if correction == "none" else max(1, tests))
    while correction == "holm":
        separated = sum(test[3] for test in walk.tests)
        if separated == 0 or separated == tests:
            break
        following = _walk_once(order, cached, alpha, tests - separated)
        if sum(test[3] for test in following.tests) <= separated:
            break
        walk = following
    return walk


def _weights(size: int, rows: int, rng: np.random.Generator, dtype) -> np.ndarray:
    """``rows`` bootstrap weight rows over ``size`` sentences (how often each is drawn), from
    the same draws as :func:`conll_eval.analyze.resampling.bootstrap_scores` makes."""
    index = np.int32 if rows * size < 2 ** 31 else np.int64
    draws: np.ndarray = rng.integers(0, size, size=(rows, size), dtype=index)
    offsets: np.ndarray = np.arange(rows, dtype=index) * size  # row r's draws land in slots r*size...
    flat = (draws + offsets[:, None]).ravel()
    return np.bincount(flat, minlength=rows * size).reshape(rows, size).astype(dtype)


def _compact(counts: np.ndarray) -> Tuple[np.ndarray, bool]:
    """A stratum's ``(sentences, Q, 3)`` counts as the matrix its resamples multiply: the Q
    correct columns, the Q system columns and one gold column when every entry has the same
    gold counts (always, for counts of the same gold file: a third fewer columns), else
    every entry's three columns; float32 when a resample's sums stay exact in it."""
    counts = np.asarray(counts, dtype=np.float64)[..., :3]
    shared = counts.shape[1] > 0 and bool(np.all(counts[:, :, 1] == counts[:, :1, 1]))
    matrix = (np.concatenate([counts[:, :, 0], counts[:, :, 2], counts[:, :1, 1]], axis=1) if shared
              else counts.reshape(counts.shape[0], counts.shape[1] * 3))
    exact = matrix.size == 0 or matrix.max(initial=0) * matrix.shape[0] < _EXACT_FLOAT32
    return matrix.astype(np.float32 if exact else np.float64), shared


def _f1_of_resampled(resampled: np.ndarray, columns: int, shared: bool) -> np.ndarray:
    """F1 per resample and entry from a product of :func:`_compact`'s matrix, by f1_of
    (the same arithmetic as the scorer's bootstrap)."""
    if not shared:
        return f1_of(resampled.reshape(resampled.shape[0], columns, 3))
    full = np.empty((resampled.shape[0], columns, 3))
    full[:, :, 0] = resampled[:, :columns]
    full[:, :, 1] = resampled[:, 2 * columns:]
    full[:, :, 2] = resampled[:, columns:2 * columns]
    return f1_of(full)


def stratified_bootstrap(strata: Sequence[np.ndarray], resamples: int, seed: int,
                         included: np.ndarray) -> Resampled:
    """:func:`conll_eval.analyze.resampling.bootstrap_scores` of ``Q`` entries, the same
    draws and so the same numbers (a test compares them with ``suite --significance``'s
    p-values), faster for a ranking (:func:`_compact`): the entries' shared gold counts
    multiplied once, in float32 where every sum of integers is still exact."""
    rng = np.random.default_rng(seed)
    columns = strata[0].shape[1] if strata else 0
    compact = [_compact(counts) for counts in strata]
    observed = np.stack([f1_of(np.asarray(counts, dtype=np.float64)[..., :3].sum(axis=0)) for counts in strata]) \
        if strata else np.zeros((0, columns))
    blocks = []
    for done in range(0, resamples, _BLOCK):
        rows = min(_BLOCK, resamples - done)
        f1 = np.zeros((rows, len(strata), columns))
        for t, (matrix, shared) in enumerate(compact):
            if matrix.shape[0]:
                resampled = _weights(matrix.shape[0], rows, rng, matrix.dtype) @ matrix
                f1[:, t, :] = _f1_of_resampled(resampled, columns, shared)
        blocks.append(macro_of(f1, included))
    return Resampled(macro_of(observed, included),
                     np.concatenate(blocks) if blocks else np.zeros((0, columns)))


def cluster_walk(strata: Sequence[np.ndarray], included: np.ndarray, ranked: Sequence[float],
                 options: Significance) -> Walk:
    """The clusters and their tests: one stratified bootstrap of every entry at once (the
    same resamples for every pair, ``options.resamples_for`` the entries), then
    :func:`walk_clusters` down the entries by ``ranked`` (their stored macro F1s: the
    ranking's order, ties in the given order).  The metric n/a everywhere: no test, one
    cluster."""
    if options.correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}")
    n = len(ranked)
    order = sorted(range(n), key=lambda k: -ranked[k])
    if n < 2 or not included.any():
        return Walk([1] * n, [], 1)
    boot = stratified_bootstrap(strata, options.resamples_for(n), options.seed, np.tile(included, (1, n)))
    return walk_clusters(order, lambda i, j: pair_p_value(boot.observed, boot.samples, i, j),
                         options.alpha, options.correction)


def cluster_numbers(strata: Sequence[np.ndarray], included: np.ndarray, ranked: Sequence[float],
                    options: Significance) -> List[int]:
    """Each entry's cluster (1, 2, ...) by :func:`cluster_walk`."""
    return cluster_walk(strata, included, ranked, options).numbers
