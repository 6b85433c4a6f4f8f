"""The ranking's significance clusters: the ranked submissions' per-sentence counts of the
primary metric (kept per submission and treebank) resampled by one paired bootstrap
stratified by treebank, as ``conll_eval compare`` and ``suite --significance`` resample them.
A submission joins the cluster above it unless it is significantly worse than that
cluster's best (:func:`conll_eval.analyze.comparison.ranked_clusters`'s rule)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..analyze.comparison import Comparison, PairResult, ranked_clusters
from ..analyze.defaults import CORRECTIONS, DEFAULT_RESAMPLES, DEFAULT_SEED
from ..analyze.resampling import Interval, bonferroni, bootstrap_scores, holm
from ..errors import printable
from .db import LeaderboardError
from .models import SentenceCounts

__all__ = ["Significance", "sentence_strata", "cluster_numbers", "pair_p_values"]

#: submissions whose counts one query reads: the ORM buffers a query's rows, and a submission
#: of 82 treebanks of 300 sentences keeps ~3 MB of them (every metric's counts), so reading
#: 100 teams' at once held 300 MB
_BATCH = 16


@dataclass(frozen=True)
class Significance:
    """How the clusters are tested: the shared resampling options of ``compare``."""
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    alpha: float = 0.05
    correction: str = "holm"

    def pairs(self, entries: int) -> int:
        return entries * (entries - 1) // 2

    def separable(self, entries: int) -> bool:
        """Can any pair of ``entries`` ranked submissions be significantly different?  No
        bootstrap p-value is below 1 / (resamples + 1), and Holm's or Bonferroni's smallest
        corrected one is that times the pairs: too few resamples for many teams make one
        cluster whatever the scores."""
        factor = 1 if self.correction == "none" else max(1, self.pairs(entries))
        return entries < 2 or factor / (self.resamples + 1) < self.alpha

    def record(self, entries: int = 0) -> dict:
        return {"test": "paired-bootstrap", "stratified": "treebank", "resamples": self.resamples,
                "seed": self.seed, "alpha": self.alpha, "correction": self.correction,
                "pairs": self.pairs(entries), "separable": self.separable(entries)}


def _metric_counts(blob: bytes, metric: str) -> Optional[np.ndarray]:
    """One metric's (sentences, 3) counts from a kept ``.npz`` blob (no pickle is loaded)."""
    with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
        return archive[metric][:, :3] if metric in archive.files else None


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
            counts = _metric_counts(blob, metric)
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


def pair_p_values(observed: np.ndarray, samples: np.ndarray) -> Dict[Tuple[int, int], float]:
    """Per pair (i < j) the bootstrap p-value of F1_i - F1_j, computed for every pair of a
    column at once; equal to :func:`conll_eval.analyze.resampling.difference_test`'s p."""
    out: Dict[Tuple[int, int], float] = {}
    resamples = samples.shape[0]
    for i in range(len(observed) - 1):
        d = observed[i] - observed[i + 1:]
        spread = samples[:, i:i + 1] - samples[:, i + 1:]
        extreme = np.count_nonzero(np.abs(spread - d) >= np.abs(d) - 1e-15, axis=0)
        p = np.minimum(1.0, (extreme + 1) / (resamples + 1))
        out.update({(i, i + 1 + j): float(v) for j, v in enumerate(p)})
    return out


def cluster_numbers(strata: Sequence[np.ndarray], included: np.ndarray, ranked: Sequence[float],
                    options: Significance) -> List[int]:
    """Each entry's cluster (1, 2, ...): one stratified bootstrap of every entry at once (the
    same resamples for every pair), every pair's p-value corrected over all pairs, then
    :func:`ranked_clusters` walking down the entries by ``ranked`` (their stored macro F1s:
    the ranking's order, ties in the given order)."""
    if options.correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}")
    n = len(ranked)
    if n < 2:
        return [1] * n
    boot = bootstrap_scores(strata, options.resamples, options.seed, np.tile(included, (1, n)))
    raw = pair_p_values(boot.observed, boot.samples)
    adjusters: Dict[str, Callable[[list], list]] = {"holm": holm, "bonferroni": bonferroni, "none": list}
    corrected = adjusters[options.correction](list(raw.values()))
    pairs = tuple(PairResult(i, j, Interval(float(boot.observed[i] - boot.observed[j]), np.nan, np.nan),
                             {"bootstrap": p}, {"bootstrap": c})
                  for ((i, j), p), c in zip(raw.items(), corrected))
    intervals = tuple(Interval(float(v), np.nan, np.nan) for v in ranked)
    comparison = Comparison(tuple(f"#{k}" for k in range(n)), {"primary": intervals}, {"primary": pairs},
                            options.resamples, options.seed, options.alpha, options.correction,
                            len(strata))
    numbers = [1] * n  # the metric n/a everywhere: no test, one cluster
    for number, (_, _, members) in enumerate(ranked_clusters(comparison, "primary"), 1):
        for k in members:
            numbers[k] = number
    return numbers
