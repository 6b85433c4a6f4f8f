"""Sufficient statistics (:class:`Counts`) and the scores derived from them (:class:`Score`).

Counts are kept per gold sentence (a system word belongs to the gold sentence holding its
first character), so totals, bootstrap resamples and breakdowns are all sums of one array.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple, Union

import numpy as np

__all__ = ["Score", "Counts"]

Number = Union[int, float]


@dataclass(frozen=True)
class Score:
    """Precision, recall, F1 and aligned accuracy of one metric, computed like the official scorer.

    ``aligned`` is the number of aligned word pairs considered (for ``Words`` the aligned
    words themselves, which are its correct count); it is None for Tokens and Sentences.
    ``aligned_accuracy`` is None where the official scorer leaves the cell blank (Tokens,
    Sentences, Words) and 0 (not None) when no aligned word was considered.
    """

    correct: Number
    gold: Number
    system: Number
    aligned: Optional[Number] = None
    has_aligned_accuracy: bool = True

    @property
    def precision(self) -> float:
        return self.correct / self.system if self.system else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        total = self.system + self.gold
        return 2 * self.correct / total if total else 0.0

    @property
    def aligned_accuracy(self) -> Optional[float]:
        if not self.has_aligned_accuracy or self.aligned is None:
            return None
        return self.correct / self.aligned if self.aligned else self.aligned

    # Names of the official Score attributes, for code written against the official module.
    @property
    def gold_total(self) -> Number:
        return self.gold

    @property
    def system_total(self) -> Number:
        return self.system

    @property
    def aligned_total(self) -> Optional[Number]:
        return self.aligned if self.has_aligned_accuracy else None

    def as_dict(self) -> dict:
        return {"correct": self.correct, "gold": self.gold, "system": self.system,
                "aligned": self.aligned, "precision": self.precision, "recall": self.recall,
                "f1": self.f1, "aligned_accuracy": self.aligned_accuracy}


@dataclass(frozen=True, eq=False)
class Counts:
    """Per-gold-sentence counts of one metric: columns correct, gold, system, aligned.

    ``total`` holds the corpus totals exactly as the official scorer sums them (for float
    weights, left to right over words); for integer counts it equals ``by_sentence.sum(0)``.
    """

    by_sentence: np.ndarray
    total: Tuple[Number, Number, Number, Optional[Number]]
    has_aligned: bool = True
    has_aligned_accuracy: bool = True

    CORRECT, GOLD, SYSTEM, ALIGNED = range(4)

    def score(self) -> Score:
        correct, gold, system, aligned = self.total
        return Score(correct, gold, system, aligned if self.has_aligned else None,
                     self.has_aligned_accuracy)

    def exact_match(self) -> Tuple[int, int]:
        """(gold sentences whose words all count as right -- every gold word correct and no
        other system word in it --, gold sentences): the CoNLL-X exact-match practice."""
        correct = self.by_sentence[:, self.CORRECT]
        gold = self.by_sentence[:, self.GOLD]
        system = self.by_sentence[:, self.SYSTEM]
        return int(np.count_nonzero((correct == gold) & (system == gold))), len(self.by_sentence)

    def score_of(self, sentences: np.ndarray) -> Score:
        """Score of a subset (or a resample, with repetitions) of gold sentences."""
        correct, gold, system, aligned = self.by_sentence[sentences].sum(axis=0).tolist()
        return Score(correct, gold, system, aligned if self.has_aligned else None,
                     self.has_aligned_accuracy)

    @classmethod
    def from_parts(cls, n_sentences: int, correct_sent: np.ndarray, gold_sent: np.ndarray,
                   system_sent: np.ndarray, aligned_sent: Optional[np.ndarray] = None,
                   correct_w: Optional[np.ndarray] = None, gold_w: Optional[np.ndarray] = None,
                   system_w: Optional[np.ndarray] = None, aligned_w: Optional[np.ndarray] = None,
                   has_aligned_accuracy: bool = True, cache: Optional[dict] = None) -> "Counts":
        """Build from the gold-sentence index of each counted item (optionally weighted).

        ``*_sent`` are sentence indices of counted items; ``*_w`` their weights (None = 1).
        ``cache`` (a dict kept by the caller) reuses the tallies of index arrays passed before.
        """
        def tally(idx, w):
            if w is None:
                key = id(idx)
                if cache is not None and key in cache:
                    return cache[key][1]
                result = np.bincount(idx, minlength=n_sentences).astype(np.int64)
                if cache is not None:
                    cache[key] = (idx, result)  # keeps idx alive, so its id stays unique
                return result
            return np.bincount(idx, weights=w, minlength=n_sentences)

        def exact_total(idx, w):
            if w is None:
                return int(len(idx))
            return float(np.add.accumulate(w)[-1]) if len(w) else 0

        has_aligned = aligned_sent is not None
        aligned_sent = aligned_sent if has_aligned else np.zeros(0, dtype=np.int64)
        parts = [(correct_sent, correct_w), (gold_sent, gold_w), (system_sent, system_w),
                 (aligned_sent, aligned_w)]
        weighted = any(w is not None for _, w in parts)
        columns = [tally(i, w) for i, w in parts]
        dtype = np.float64 if weighted else np.int64
        by_sentence = np.stack([c.astype(dtype) for c in columns], axis=1) if n_sentences else \
            np.zeros((0, 4), dtype=dtype)
        total = tuple(exact_total(i, w) for i, w in parts)
        if not has_aligned:
            total = total[:3] + (None,)
        return cls(by_sentence, total, has_aligned, has_aligned_accuracy)
