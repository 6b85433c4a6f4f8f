"""Where the LAS errors come from: every gold word and every system word gets exactly one kind
(right, right head but wrong label, wrong head, wrong head across a sentence boundary the two
files draw differently, or no partner because of tokenization or of multi-word tokens), so the
parts add up to the word counts; and the gold sentences with the most errors.

On the CoNLL 2018 word alignment with universal relations, as LAS: an aligned pair has one
kind, shared by its two words; a word without a partner counts on its own side only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

import numpy as np

from .counting import Agreement, AnalysisPair

__all__ = ["KINDS", "KIND_NAMES", "Decomposition", "decompose", "WorstSentence",
           "worst_sentences"]

#: the kinds, in report order (codes are their indices)
KINDS = ("correct", "label", "head", "head-split", "unaligned-token", "unaligned-mwt")
KIND_NAMES = {
    "correct": "right (head and relation)",
    "label": "right head, wrong relation",
    "head": "wrong head",
    "head-split": "wrong head across a sentence boundary the files draw differently",
    "unaligned-token": "no partner: tokenization differs",
    "unaligned-mwt": "no partner: a multi-word token is split differently",
}
_CORRECT, _LABEL, _HEAD, _SPLIT, _TOKEN, _MWT = range(len(KINDS))


@dataclass(frozen=True)
class Decomposition:
    """Per word its kind (indices into :data:`KINDS`): ``gold_kind`` for every gold word,
    ``system_kind`` for every system word; ``gold_counts``/``system_counts`` by kind."""

    gold_kind: np.ndarray
    system_kind: np.ndarray

    @property
    def gold_counts(self) -> Dict[str, int]:
        return dict(zip(KINDS, np.bincount(self.gold_kind, minlength=len(KINDS)).tolist()))

    @property
    def system_counts(self) -> Dict[str, int]:
        return dict(zip(KINDS, np.bincount(self.system_kind, minlength=len(KINDS)).tolist()))


def _touches_mwt(side_tb, other_tb, words: np.ndarray) -> np.ndarray:
    """Per word: part of a multi-word token, or overlapping one in the other file."""
    inside = np.asarray(side_tb.word_is_mwt)[words]
    if not len(words) or not other_tb.n_tokens:
        return inside
    start = side_tb.word_start[words]
    end = side_tb.word_end[words]
    other_start = np.asarray(other_tb.tok_start)
    other_mwt = np.asarray(other_tb.tok_is_mwt)
    first = np.maximum(np.searchsorted(other_start, start, side="right") - 1, 0)
    last = np.maximum(np.searchsorted(other_start, end - 1, side="right") - 1, 0)
    # any multi-word token among the other file's tokens first..last
    mwt_before = np.concatenate([[0], np.cumsum(other_mwt)])
    return inside | (mwt_before[last + 1] - mwt_before[first] > 0)


def decompose(gold, system, alignment) -> Decomposition:
    """The kind of every gold and system word of an aligned pair (treebanks, alignment)."""
    pair = AnalysisPair.from_treebanks(gold, system, alignment, universal_deprel=True)
    agreement = Agreement(pair)
    head_right, label_right = agreement["head"], agreement["label"]
    ga = np.asarray(alignment.gold_idx)
    sa = np.asarray(alignment.sys_idx)
    kind = np.where(head_right, np.where(label_right, _CORRECT, _LABEL), _HEAD)
    # a wrong head that crosses a boundary only one file draws: the gold head lies outside the
    # word's system sentence, or the system head outside its gold sentence
    gold_head = np.asarray(gold.head)[ga]
    sys_head = np.asarray(system.head)[sa]
    word_sys_sentence = np.asarray(system.word_sent)[sa]
    word_gold_sentence = np.asarray(gold.word_sent)[ga]
    gold_head_sys_sentence = system.sentence_of_chars(gold.word_start[np.maximum(gold_head, 0)])
    sys_head_gold_sentence = gold.sentence_of_chars(system.word_start[np.maximum(sys_head, 0)])
    crosses = ((gold_head >= 0) & (gold_head_sys_sentence != word_sys_sentence)) | \
              ((sys_head >= 0) & (sys_head_gold_sentence != word_gold_sentence))
    kind = np.where((kind == _HEAD) & crosses, _SPLIT, kind)
    gold_kind = np.full(gold.n_words, _TOKEN, dtype=np.int64)
    system_kind = np.full(system.n_words, _TOKEN, dtype=np.int64)
    gold_kind[ga] = kind
    system_kind[sa] = kind
    for side_tb, other_tb, kinds, partner in ((gold, system, gold_kind, alignment.gold_to_sys),
                                               (system, gold, system_kind, alignment.sys_to_gold)):
        alone = np.flatnonzero(np.asarray(partner) < 0)
        kinds[alone[_touches_mwt(side_tb, other_tb, alone)]] = _MWT
    return Decomposition(gold_kind, system_kind)


@dataclass(frozen=True)
class WorstSentence:
    """A gold sentence with its errors: gold file, index, sent_id, first line, text, gold
    words, errors of its gold words by kind, and system words without a partner in it."""

    path: str
    index: int
    sent_id: Optional[str]
    line: int
    text: str
    words: int
    errors: Dict[str, int]
    extra_system_words: int

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


def worst_sentences(gold, system, decomposition: Decomposition, n: int) -> List[WorstSentence]:
    """The ``n`` gold sentences with the most wrong gold words (ties: the higher share of
    wrong words, then file order)."""
    sentences = gold.n_sentences
    if n <= 0 or not sentences:
        return []
    gold_sent = np.asarray(gold.word_sent)
    by_kind = np.zeros((sentences, len(KINDS)), dtype=np.int64)
    np.add.at(by_kind, (gold_sent, decomposition.gold_kind), 1)
    words = by_kind.sum(axis=1)
    errors = words - by_kind[:, _CORRECT]
    share = errors / np.maximum(words, 1)
    order = np.lexsort((np.arange(sentences), -share, -errors))[:n]
    sys_alone = np.flatnonzero(decomposition.system_kind >= _TOKEN)
    sys_sentence = gold.sentence_of_chars(system.word_start[sys_alone])
    extra = np.bincount(sys_sentence, minlength=sentences)
    ids, texts = gold.sent_ids, gold.sent_texts
    out = []
    for s in order.tolist():
        if errors[s] == 0:
            break
        start, stop = int(gold.sent_word_start[s]), int(
            gold.sent_word_start[s + 1] if s + 1 < sentences else gold.n_words)
        text = texts[s] if texts[s] is not None else " ".join(
            gold.word_forms(np.arange(start, stop)))
        out.append(WorstSentence(
            gold.path, s, ids[s], int(gold.sent_first_line[s]), text, int(words[s]),
            {k: int(by_kind[s, i]) for i, k in enumerate(KINDS) if i != _CORRECT and by_kind[s, i]},
            int(extra[s])))
    return out
