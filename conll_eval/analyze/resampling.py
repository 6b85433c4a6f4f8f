"""Paired resampling tests on per-gold-sentence counts (:class:`conll_eval.stats.Counts`): the
bootstrap confidence interval of an F1 and of a difference of two F1s, and approximate
randomization (stratified shuffling of whole sentences between two systems).

Every resample is a matrix product of a weight matrix (R resamples x n sentences) with the
counts of every score at once (systems x metrics), done in blocks of resamples to bound
memory; F1 is recomputed from the resampled counts (2c / (g + s)), never averaged over
sentences.  A suite's treebanks are strata: sentences are resampled (or swapped) within
their treebank and the score is the macro-average of the treebanks' F1s.  Systems compared
on the same gold sentences share every resample (paired); the generator is seeded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, List, Optional, Sequence, Tuple

import numpy as np

from .defaults import DEFAULT_RESAMPLES, DEFAULT_SEED

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "f1_of", "macro_of", "Resampled",
           "bootstrap_scores", "randomization_p", "Interval", "percentile_interval",
           "difference_test", "PairedBootstrap", "paired_bootstrap", "approximate_randomization",
           "holm", "bonferroni"]

#: resamples per matrix product: R x n weights of this many rows at a time
_BLOCK = 64


def f1_of(counts: np.ndarray) -> np.ndarray:
    """F1 = 2 correct / (gold + system) of count rows ``[..., (correct, gold, system)]``;
    0 where gold + system is 0, as the official scorers."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts[..., 1] + counts[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, 2 * counts[..., 0] / np.where(total > 0, total, 1), 0.0)


def _stratum_weights(size: int, rows: int, rng: np.random.Generator) -> np.ndarray:
    """``rows`` bootstrap weight rows over ``size`` sentences: how often each is drawn when
    ``size`` sentences are drawn with replacement."""
    index = np.int32 if rows * size < 2 ** 31 else np.int64  # int32 halves the bincount's time
    draws = rng.integers(0, size, size=(rows, size), dtype=index)
    # one bincount for the whole block: row r's draws land in slots r*size...
    flat = (draws + (np.arange(rows, dtype=index) * size)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * size).reshape(rows, size).astype(np.float64)


def _blocks(resamples: int) -> Iterator[int]:
    done = 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        yield rows
        done += rows


def _stacked(strata: Sequence[np.ndarray]) -> List[np.ndarray]:
    """Each stratum's counts as float (n_t, Q * 3) matrices."""
    out = []
    for counts in strata:
        counts = np.asarray(counts, dtype=np.float64)[..., :3]
        out.append(counts.reshape(counts.shape[0], counts.shape[1] * 3))
    return out


def _included(included: Optional[np.ndarray], strata: int, columns: int) -> np.ndarray:
    if included is None:
        return np.ones((strata, columns), dtype=bool)
    included = np.asarray(included, dtype=bool)
    if included.shape != (strata, columns):
        raise ValueError("included must have one row per stratum and one column per score")
    return included


def macro_of(f1: np.ndarray, included: np.ndarray) -> np.ndarray:
    """Mean over strata (axis -2) of per-stratum F1s ``[..., T, Q]``, only over the strata
    ``included[t, q]`` marks; 0 for a score no stratum includes."""
    weight = included.astype(np.float64)
    kept = weight.sum(axis=0)
    return (f1 * weight).sum(axis=-2) / np.where(kept > 0, kept, 1)


@dataclass(frozen=True)
class Resampled:
    """Scores (``Q`` of them, e.g. systems x metrics): the observed macro F1s and one row of
    resampled ones per bootstrap resample."""

    observed: np.ndarray  # (Q,)
    samples: np.ndarray   # (R, Q)


def bootstrap_scores(strata: Sequence[np.ndarray], resamples: int = DEFAULT_RESAMPLES,
                     seed: int = DEFAULT_SEED, included: Optional[np.ndarray] = None) -> Resampled:
    """The stratified bootstrap of ``Q`` scores at once.

    ``strata[t]``: per-sentence counts ``(n_t, Q, 3)`` (correct, gold, system) of stratum t
    (a treebank), the same sentences for every score, so that all scores share every
    resample (paired).  Each resample draws n_t sentences with replacement within each
    stratum; a score is the mean over its ``included`` strata of F1 recomputed from the
    resampled counts (with one stratum: F1 of the resampled file).  A stratum without
    sentences (its gold file failed) scores 0 in every resample.
    """
    rng = np.random.default_rng(seed)
    matrices = _stacked(strata)
    columns = matrices[0].shape[1] // 3 if matrices else 0
    mask = _included(included, len(matrices), columns)
    observed = np.stack([f1_of(m.sum(axis=0).reshape(columns, 3)) for m in matrices]) \
        if matrices else np.zeros((0, columns))
    blocks = []
    for rows in _blocks(resamples):
        f1 = np.zeros((rows, len(matrices), columns))
        for t, m in enumerate(matrices):
            if m.shape[0]:
                resampled = _stratum_weights(m.shape[0], rows, rng) @ m
                f1[:, t, :] = f1_of(resampled.reshape(rows, columns, 3))
        blocks.append(macro_of(f1, mask))
    return Resampled(macro_of(observed, mask),
                     np.concatenate(blocks) if blocks else np.zeros((0, columns)))


def randomization_p(first: Sequence[np.ndarray], second: Sequence[np.ndarray],
                    resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                    included: Optional[np.ndarray] = None) -> np.ndarray:
    """Approximate randomization of two systems over ``M`` scores at once: p per score.

    ``first[t]``, ``second[t]``: the systems' per-sentence counts ``(n_t, M, 3)`` in stratum
    t.  Each shuffle swaps every sentence's counts between the two systems with probability
    1/2 (sentences never leave their stratum); the statistic is the absolute difference of
    the macro F1s (see :func:`bootstrap_scores`), and p = (c + 1) / (R + 1) with c the
    shuffles at least as far apart as observed.  A system that failed on a treebank has
    (0, gold, 0) rows there: its (empty) output is what gets swapped.
    """
    rng = np.random.default_rng(seed)
    a, b = _stacked(first), _stacked(second)
    columns = a[0].shape[1] // 3 if a else 0
    mask = _included(included, len(a), columns)
    a_total = [m.sum(axis=0) for m in a]
    b_total = [m.sum(axis=0) for m in b]

    def difference(a_sums: np.ndarray, b_sums: np.ndarray) -> np.ndarray:
        shape = a_sums.shape[:-1] + (columns, 3)
        return np.abs(macro_of(f1_of(a_sums.reshape(shape)), mask)
                      - macro_of(f1_of(b_sums.reshape(shape)), mask))

    observed = difference(np.stack(a_total), np.stack(b_total)) if a else np.zeros(columns)
    gaps = [bm - am for am, bm in zip(a, b)]
    sizes = [m.shape[0] for m in a]
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    count = np.zeros(columns, dtype=np.int64)
    for rows in _blocks(resamples):
        swap = rng.integers(0, 2, size=(rows, int(offsets[-1]))).astype(np.float64)
        a_sums = np.empty((rows, len(a), 3 * columns))
        b_sums = np.empty_like(a_sums)
        for t, gap in enumerate(gaps):
            moved = swap[:, offsets[t]:offsets[t + 1]] @ gap
            a_sums[:, t] = a_total[t] + moved  # what a swapped sentence moves from b to a
            b_sums[:, t] = b_total[t] - moved
        count += np.count_nonzero(difference(a_sums, b_sums) >= observed - 1e-15, axis=0)
    return (count + 1) / (resamples + 1)


@dataclass(frozen=True)
class Interval:
    """A point estimate and its percentile interval."""

    value: float
    low: float
    high: float


def percentile_interval(value: float, samples: np.ndarray, alpha: float) -> Interval:
    """``value`` with the (alpha/2, 1 - alpha/2) percentiles of ``samples``."""
    low, high = np.percentile(samples, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return Interval(float(value), float(low), float(high))


def difference_test(observed: float, samples: np.ndarray, alpha: float) -> Tuple[Interval, float]:
    """A difference of two scores and its resampled values: the interval, and the bootstrap
    p-value, the share of resampled differences at least as far from the observed d as d is
    from 0, (c + 1) / (R + 1) (the null hypothesis by shifting, Berg-Kirkpatrick et al.
    2012)."""
    extreme = np.count_nonzero(np.abs(samples - observed) >= abs(observed) - 1e-15)
    p = min(1.0, (extreme + 1) / (len(samples) + 1))
    return percentile_interval(observed, samples, alpha), p


@dataclass(frozen=True)
class PairedBootstrap:
    """The bootstrap of several systems on the same gold sentences: each system's F1 interval,
    and per pair (i < j) the difference F1_i - F1_j with its interval and p-value."""

    systems: Tuple[Interval, ...]
    differences: dict  # (i, j) -> (Interval, p)


def paired_bootstrap(counts: Sequence[np.ndarray], resamples: int = DEFAULT_RESAMPLES,
                     seed: int = DEFAULT_SEED, alpha: float = 0.05) -> PairedBootstrap:
    """One metric on one file: ``counts[k]`` is system k's per-sentence (correct, gold,
    system) rows, the same sentences for every system."""
    stacked = np.stack([np.asarray(c, dtype=np.float64)[:, :3] for c in counts], axis=1)
    result = bootstrap_scores([stacked], resamples, seed)
    systems = tuple(percentile_interval(result.observed[k], result.samples[:, k], alpha)
                    for k in range(len(counts)))
    differences = {}
    for i in range(len(counts)):
        for j in range(i + 1, len(counts)):
            differences[(i, j)] = difference_test(
                result.observed[i] - result.observed[j],
                result.samples[:, i] - result.samples[:, j], alpha)
    return PairedBootstrap(systems, differences)


def approximate_randomization(first: np.ndarray, second: np.ndarray,
                              resamples: int = DEFAULT_RESAMPLES,
                              seed: int = DEFAULT_SEED) -> float:
    """One metric on one file: p-value that two systems' F1 differ (see
    :func:`randomization_p`)."""
    a = np.asarray(first, dtype=np.float64)[:, None, :3]
    b = np.asarray(second, dtype=np.float64)[:, None, :3]
    return float(randomization_p([a], [b], resamples, seed)[0])


def holm(p_values: Sequence[float]) -> list:
    """Holm-Bonferroni adjusted p-values (same order as given)."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    m = len(p_values)
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


def bonferroni(p_values: Sequence[float]) -> list:
    return [min(1.0, len(p_values) * p) for p in p_values]
