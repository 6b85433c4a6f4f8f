"""Per-sentence link counts of a system alignment against a gold one with sure (S) and
possible (P) links, and the scores made of them: Och and Ney's precision, recall and AER, and
plain precision, recall and F1 over the sure links and over the possible links.

Sure links count as possible too (S is a subset of P, whatever the gold file marks); a ratio
whose denominator is 0 is 0, as the NAACL 2003 scorer ``wa_eval_align.pl`` has it, except
AER, whose only undefined case (no gold sure link and no system link) is 0.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ...errors import Location
from .links import LinkFile, LinkFileError

__all__ = ["SentenceCounts", "AlignmentScores", "gold_sentences", "count_links", "ratio"]


def ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, 0 when the denominator is 0 (wa_eval_align.pl's convention)."""
    return numerator / denominator if denominator else 0.0


@dataclass(frozen=True)
class AlignmentScores:
    """Link totals and every score, as fractions in [0, 1].

    ``sure_hits`` = |S∩A|, ``possible_hits`` = |P∩A|, ``sure`` = |S|, ``possible`` = |P|
    (sure links included), ``system`` = |A|.
    """

    sure_hits: int
    possible_hits: int
    sure: int
    possible: int
    system: int

    @property
    def precision(self) -> float:
        """Och and Ney: |P∩A| / |A|."""
        return ratio(self.possible_hits, self.system)

    @property
    def recall(self) -> float:
        """Och and Ney: |S∩A| / |S|."""
        return ratio(self.sure_hits, self.sure)

    @property
    def aer(self) -> float:
        """1 - (|P∩A| + |S∩A|) / (|A| + |S|); 0 when there is nothing to find and nothing
        proposed (an empty system against sure links is 1, not wa_eval_align.pl's 0)."""
        return 1.0 - ratio(self.possible_hits + self.sure_hits, self.system + self.sure) \
            if self.system + self.sure else 0.0

    @property
    def sure_precision(self) -> float:
        return ratio(self.sure_hits, self.system)

    @property
    def sure_recall(self) -> float:
        return ratio(self.sure_hits, self.sure)

    @property
    def sure_f1(self) -> float:
        """2 |S∩A| / (|A| + |S|): the harmonic mean of the two above, 0 when either is."""
        return ratio(2 * self.sure_hits, self.system + self.sure)

    @property
    def possible_precision(self) -> float:
        return ratio(self.possible_hits, self.system)

    @property
    def possible_recall(self) -> float:
        return ratio(self.possible_hits, self.possible)

    @property
    def possible_f1(self) -> float:
        return ratio(2 * self.possible_hits, self.system + self.possible)


@dataclass(frozen=True)
class SentenceCounts:
    """Per gold sentence (``sentences``: their numbers, ascending): |S∩A|, |P∩A|, |S|, |P|
    and |A|, integer arrays of one length."""

    sentences: np.ndarray
    sure_hits: np.ndarray
    possible_hits: np.ndarray
    sure: np.ndarray
    possible: np.ndarray
    system: np.ndarray

    def total(self) -> AlignmentScores:
        return AlignmentScores(int(self.sure_hits.sum()), int(self.possible_hits.sum()),
                               int(self.sure.sum()), int(self.possible.sum()),
                               int(self.system.sum()))

    def sentence(self, k: int) -> AlignmentScores:
        """The scores of the k-th sentence (an index, not a sentence number)."""
        return AlignmentScores(int(self.sure_hits[k]), int(self.possible_hits[k]),
                               int(self.sure[k]), int(self.possible[k]), int(self.system[k]))


def gold_sentences(gold: LinkFile, declared: Optional[int] = None) -> np.ndarray:
    """The sentence numbers scored: 1..``declared`` (the lines of ``--source``/``--target``),
    else 1..the lines of a Pharaoh gold file, else the numbers a NAACL gold file uses (a
    sentence without any gold link is then unknown)."""
    if declared is not None:
        return np.arange(1, declared + 1, dtype=np.int64)
    if gold.format == "pharaoh":
        return np.arange(1, gold.lines + 1, dtype=np.int64)
    return np.unique(gold.sentence)


def _sentence_index(links: LinkFile, sentences: np.ndarray, role: str) -> np.ndarray:
    """Each link's index in ``sentences``; a link of another sentence is an error at its line."""
    index = np.searchsorted(sentences, links.sentence)
    inside = index < len(sentences)
    known = np.zeros(len(links), dtype=bool)
    known[inside] = sentences[index[inside]] == links.sentence[inside]
    if not known.all():
        k = int(np.flatnonzero(~known)[np.argmin(links.line[~known])])
        span = (f"{sentences[0]}-{sentences[-1]}" if len(sentences) else "none")
        raise LinkFileError(Location(links.path, int(links.line[k])), "unknown-sentence",
                            f"sentence {links.sentence[k]} of the {role} file is not a gold "
                            f"sentence (gold sentences: {span}, {len(sentences)} in all; "
                            "--source/--target declare sentences without gold links)")
    return index


def count_links(gold: LinkFile, system: LinkFile, sentences: np.ndarray) -> SentenceCounts:
    """Count, per sentence of ``sentences``, the system links that are sure and possible gold
    links; the system's own S/P markers play no part (every system link is in A).  Raises
    ``unknown-sentence`` for a link of a sentence outside ``sentences``."""
    gold_index = _sentence_index(gold, sentences, "gold")
    system_index = _sentence_index(system, sentences, "system")
    # one integer per link: (sentence index, source, target) in mixed radix
    width = int(max(gold.source.max(initial=0), gold.target.max(initial=0),
                    system.source.max(initial=0), system.target.max(initial=0))) + 1

    def keys(links: LinkFile, index: np.ndarray) -> np.ndarray:
        return (index * width + links.source) * width + links.target

    gold_keys, system_keys = keys(gold, gold_index), keys(system, system_index)
    sure_hit = np.isin(system_keys, gold_keys[gold.sure])
    possible_hit = np.isin(system_keys, gold_keys)  # every gold link: sure ones are possible
    n = len(sentences)

    def per_sentence(index: np.ndarray) -> np.ndarray:
        return np.bincount(index, minlength=n).astype(np.int64)

    return SentenceCounts(sentences, per_sentence(system_index[sure_hit]),
                          per_sentence(system_index[possible_hit]),
                          per_sentence(gold_index[gold.sure]), per_sentence(gold_index),
                          per_sentence(system_index))
