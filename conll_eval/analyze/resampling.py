"""Paired resampling tests on per-gold-sentence counts (:class:`conll_eval.stats.Counts`): the
bootstrap confidence interval of an F1 and of a difference of two F1s, and approximate
randomization (stratified shuffling of whole sentences between two systems).

Every resample is a matrix product of a weight matrix (R resamples x n sentences) with the
counts, done in blocks of resamples to bound memory; F1 is recomputed from the resampled
counts (2c / (g + s)), never averaged over sentences.  Systems compared on the same gold file
share the resampled sentences (paired); the random generator is injected (a seed).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Tuple

import numpy as np

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "f1_of", "bootstrap_weights", "Interval",
           "PairedBootstrap", "paired_bootstrap", "approximate_randomization", "holm",
           "bonferroni"]

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
#: resamples per matrix product: R x n weights of this many rows at a time
_BLOCK = 64


def f1_of(counts: np.ndarray) -> np.ndarray:
    """F1 = 2 correct / (gold + system) of count rows ``[..., (correct, gold, system)]``;
    0 where gold + system is 0, as the official scorers."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts[..., 1] + counts[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, 2 * counts[..., 0] / np.where(total > 0, total, 1), 0.0)


def bootstrap_weights(n: int, resamples: int, rng: np.random.Generator,
                      strata: Optional[np.ndarray] = None) -> Iterator[np.ndarray]:
    """Blocks of bootstrap weights (how often each of ``n`` sentences is drawn), one row per
    resample.  ``strata`` (a stratum per sentence, e.g. its treebank): each stratum is
    resampled within itself, keeping its size."""
    done = 0
    groups = None
    if strata is not None:
        strata = np.asarray(strata)
        groups = [np.flatnonzero(strata == s) for s in np.unique(strata)]
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        weights = np.zeros((rows, n), dtype=np.float64)
        for members in (groups if groups is not None else [np.arange(n)]):
            size = len(members)
            if not size:
                continue
            draws = rng.integers(0, size, size=(rows, size))
            # one bincount for the whole block: row r's draws land in slots r*size...
            flat = (draws + (np.arange(rows) * size)[:, None]).ravel()
            weights[:, members] += np.bincount(flat, minlength=rows * size).reshape(rows, size)
        done += rows
        yield weights


@dataclass(frozen=True)
class Interval:
    """A point estimate and its percentile interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class PairedBootstrap:
    """The bootstrap of several systems on the same gold sentences: each system's F1 interval,
    and per pair (i < j) the difference F1_i - F1_j with its interval and p-value."""

    systems: Tuple[Interval, ...]
    differences: dict  # (i, j) -> (Interval, p)


def _percentiles(samples: np.ndarray, alpha: float) -> Tuple[float, float]:
    low, high = np.percentile(samples, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)


def paired_bootstrap(counts: Sequence[np.ndarray], resamples: int = DEFAULT_RESAMPLES,
                     seed: int = DEFAULT_SEED, alpha: float = 0.05,
                     strata: Optional[np.ndarray] = None) -> PairedBootstrap:
    """``counts[k]``: system k's per-sentence (correct, gold, system) rows, the same sentences
    for every system.  The p-value of a difference d is the share of resampled differences
    at least as far from d as d is from 0, (c + 1) / (R + 1) (the bootstrap of the null
    hypothesis by shifting, Berg-Kirkpatrick et al. 2012)."""
    rng = np.random.default_rng(seed)
    matrices = [np.asarray(c, dtype=np.float64)[:, :3] for c in counts]
    n = matrices[0].shape[0]
    samples = [[] for _ in matrices]
    for weights in bootstrap_weights(n, resamples, rng, strata):
        for k, m in enumerate(matrices):
            samples[k].append(f1_of(weights @ m))
    stacked = [np.concatenate(s) for s in samples]
    observed = [float(f1_of(m.sum(axis=0))) for m in matrices]
    systems = tuple(Interval(observed[k], *_percentiles(stacked[k], alpha))
                    for k in range(len(matrices)))
    differences = {}
    for i in range(len(matrices)):
        for j in range(i + 1, len(matrices)):
            delta = observed[i] - observed[j]
            resampled = stacked[i] - stacked[j]
            extreme = np.count_nonzero(np.abs(resampled - delta) >= abs(delta) - 1e-15)
            p = (extreme + 1) / (len(resampled) + 1)
            differences[(i, j)] = (Interval(delta, *_percentiles(resampled, alpha)), min(1.0, p))
    return PairedBootstrap(systems, differences)


def approximate_randomization(first: np.ndarray, second: np.ndarray,
                              resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                              strata: Optional[np.ndarray] = None) -> float:
    """p-value that two systems' F1 differ: each sentence's counts are swapped between them
    with probability 1/2 (within each stratum alike), p = (c + 1) / (R + 1) with c the
    shuffles whose |difference| is at least the observed one."""
    del strata  # swapping sentence by sentence keeps every stratum's sentences in place
    rng = np.random.default_rng(seed)
    a = np.asarray(first, dtype=np.float64)[:, :3]
    b = np.asarray(second, dtype=np.float64)[:, :3]
    observed = abs(float(f1_of(a.sum(axis=0)) - f1_of(b.sum(axis=0))))
    a_total, b_total = a.sum(axis=0), b.sum(axis=0)
    gap = b - a
    count = 0
    done = 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        swap = rng.integers(0, 2, size=(rows, a.shape[0])).astype(np.float64)
        moved = swap @ gap  # what a swapped sentence moves from b to a
        difference = np.abs(f1_of(a_total + moved) - f1_of(b_total - moved))
        count += int(np.count_nonzero(difference >= observed - 1e-15))
        done += rows
    return (count + 1) / (resamples + 1)


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
