"""MaltEval's metrics and groupings as arrays over the words of an aligned pair.

Each side counts on its own (MaltEval's semantics): a gold word adds to the group of its gold
key (the treebank counters, recall), a system word to the group of its system key (the parser
counters, precision); a word is correct when the metric holds between it and its aligned
partner, and a word without a partner (different tokenization) has neither head nor label
right.  On identical tokenization every word has its partner at the same position and this
is exactly MaltEval's token-by-token comparison.

Nothing here formats: :func:`group_counts` returns per-group counters, from which tables
derive accuracy, precision, recall and the rest.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from ..align import Alignment
from ..metrics import universal_deprel as cut
from ..treebank import Treebank
from . import tree_arrays
from .positional import relative_word_position, sentence_and_token
from .tree_arrays import depth_and_root

__all__ = [
    "METRICS", "METRIC_ALIASES", "GROUPINGS", "Side", "AnalysisPair",
    "Keys", "GroupCounts", "word_correctness", "group_counts",
    "non_projective_arcs", "Agreement",
]

#: MaltEval's metric names (its --help order) and the metrics they are another name for
METRICS = ("LAS", "UAS", "LA", "AnyRight", "AnyWrong", "BothRight", "BothWrong", "HeadRight",
           "HeadWrong", "LabelRight", "LabelWrong", "DirectionRight",
           "HeadToChildDistanceRight", "GroupedHeadToChildDistanceRight", "self")
METRIC_ALIASES = {"LAS": "BothRight", "UAS": "HeadRight", "LA": "LabelRight"}

ROOT = -1


class Side:
    """One file's words with what every grouping needs: 1-based positions in their own
    sentence, the head's position (0 for the root), sentence lengths, and the gold sentence
    each word belongs to (a system word: the gold sentence holding its first character).

    Arrays are the treebank's own where they can be (``head``, codes of ``string_column``)
    and int32 otherwise, made on first use: a million-word pair must fit in the memory the
    scorer needs."""

    def __init__(self, treebank: Treebank, gold_sentence: np.ndarray,
                 universal_deprel: bool = False):
        self.treebank = treebank
        self.vocab = treebank.vocab
        self.head = np.asarray(treebank.head)
        self.gold_sentence = np.asarray(gold_sentence)
        self._deprel = None
        if universal_deprel:  # --deprel universal: subtypes cut as the UD scorers do
            self._deprel = self.vocab.map_codes("udeprel", cut, treebank.column("deprel"))
        self._cache: Dict[str, np.ndarray] = {}

    def _first_word(self) -> np.ndarray:
        starts = np.asarray(self.treebank.sent_word_start, dtype=np.int32)
        return starts[self.treebank.word_sent] if len(self.head) else starts[:0]

    @property
    def position(self) -> np.ndarray:
        if "position" not in self._cache:
            index = np.arange(len(self.head), dtype=np.int32)
            self._cache["position"] = index - self._first_word() + 1
        return self._cache["position"]

    @property
    def own_length(self) -> np.ndarray:
        if "own_length" not in self._cache:
            starts = np.asarray(self.treebank.sent_word_start, dtype=np.int32)
            lengths = np.diff(np.append(starts, np.int32(len(self.head))))
            self._cache["own_length"] = lengths[self.treebank.word_sent] if len(self.head) \
                else lengths[:0]
        return self._cache["own_length"]

    @property
    def head_position(self) -> np.ndarray:
        """The head's 1-based position in the sentence, 0 for the root."""
        if "head_position" not in self._cache:
            self._cache["head_position"] = np.where(
                self.head >= 0, self.head - self._first_word() + 1, 0).astype(np.int32)
        return self._cache["head_position"]

    def string_column(self, name: str) -> np.ndarray:
        """Vocab codes of a string column (form, lemma, upos, xpos, feats, deprel, misc).
        ``form`` is the FORM as written, spaces kept (``1 000``), as MaltEval groups and
        excludes it (the scorer's FORM has them removed)."""
        if name == "deprel" and self._deprel is not None:
            return self._deprel
        if name == "form":
            name = "written_form"
        return np.asarray(self.treebank.column(name))


@dataclass(frozen=True, eq=False)
class AnalysisPair:
    """Gold and system words with their alignment; ``gold_length`` is the length of each
    gold sentence (SentenceLength and the sentence-length window use gold sentences)."""

    gold: Side
    system: Side
    alignment: Alignment
    gold_length: np.ndarray

    @classmethod
    def from_treebanks(cls, gold: Treebank, system: Treebank, alignment: Alignment,
                       universal_deprel: bool = False) -> "AnalysisPair":
        if gold.vocab is not system.vocab:
            raise ValueError("gold and system must share one Vocab")
        # a system word belongs to the gold sentence holding its first character
        sys_sent = gold.sentence_of_chars(system.word_start)
        gold_side = Side(gold, gold.word_sent, universal_deprel)
        gold_length = np.diff(np.append(np.asarray(gold.sent_word_start, dtype=np.int64),
                                         gold.n_words))
        return cls(gold_side, Side(system, sys_sent, universal_deprel), alignment, gold_length)

    @classmethod
    def from_evaluation(cls, evaluation) -> "AnalysisPair":
        return cls.from_treebanks(evaluation.gold, evaluation.system, evaluation.alignment)


@dataclass(frozen=True, eq=False)
class Keys:
    """Group keys of every word of both sides: integers (``numeric``) or Vocab codes of the
    key strings (one code space for both sides, so equal keys are equal integers)."""

    gold: np.ndarray
    system: np.ndarray
    numeric: bool

    def label(self, vocab, key: int) -> str:
        return str(int(key)) if self.numeric else vocab.strings[int(key)]


# ---- groupings ----------------------------------------------------------------------------

def _intern(side: Side, values: np.ndarray, names: List[str]) -> np.ndarray:
    """Vocab codes for small categorical keys ``values`` (indices into ``names``)."""
    codes = np.array([side.vocab.code(name) for name in names], dtype=np.int64)
    return codes[values]


def _relation_length(side: Side) -> np.ndarray:
    return np.where(side.head >= 0, np.abs(side.head_position - side.position), -1)


#: GroupedRelationLength buckets, by relation length (-1 = root)
_GROUPED = ("to_root", "1", "2", "3-6", "7-...")


def _grouped_relation_length(side: Side) -> np.ndarray:
    length = _relation_length(side)
    bucket = np.select([length < 0, length <= 1, length == 2, length <= 6], [0, 1, 2, 3], 4)
    return _intern(side, bucket, list(_GROUPED))


_DIRECTIONS = ("to_root", "left", "right", "self")


def _arc_direction(side: Side) -> np.ndarray:
    hp, pos = side.head_position, side.position
    direction = np.select([side.head < 0, hp < pos, hp > pos], [0, 1, 2], 3)
    return _intern(side, direction, list(_DIRECTIONS))


def _arc_depth(side: Side) -> np.ndarray:
    """Arcs from each word up to the root (the root word: 0)."""
    return depth_and_root(side.head)[0]


def _branching_factor(side: Side) -> np.ndarray:
    head = side.head
    return np.bincount(head[head >= 0], minlength=len(head)).astype(np.int64)


_PROJECTIVITY = ("Proj", "Non-proj")


def non_projective_arcs(side: Side, malteval: bool = False) -> np.ndarray:
    """Per word: 1 when its arc is non-projective -- some word strictly between the word and
    its head is not a descendant of the head -- else 0 (the root word's arc too), in time and
    memory linear in the words (:func:`conll_eval.analyze.tree_arrays.non_projective_arcs`).
    ``malteval=True`` repeats MaltEval's off-by-one: for a head on the left, the word just
    before the dependent is not checked (so its ArcProjectivity differs on some arcs; its
    sentence-level projectivity is right)."""
    return tree_arrays.non_projective_arcs(side.head, malteval)


def _arc_projectivity(side: Side) -> np.ndarray:
    """``Proj`` / ``Non-proj`` per word, as MaltEval's ArcProjectivity decides."""
    return _intern(side, non_projective_arcs(side, malteval=True), list(_PROJECTIVITY))


def _frame(side: Side) -> np.ndarray:
    """The labels of a word's dependents and of the word itself (``*label*``), in sentence
    order, each followed by a space: ``*acl* obl:arg ``.  The frame strings are built per
    word (keys are strings by nature); only this grouping pays for it."""
    head, vocab = side.head, side.vocab
    deprel = side.string_column("deprel")
    n = len(head)
    words = np.arange(n)
    dependents = np.flatnonzero(head >= 0)
    owner = np.concatenate([words, head[dependents]])  # whose frame the entry belongs to
    position = np.concatenate([words, dependents])      # where the entry stands
    is_self = np.concatenate([np.ones(n, dtype=bool), np.zeros(len(dependents), dtype=bool)])
    order = np.lexsort((position, owner))
    labels = [vocab.strings[c] for c in deprel[position[order]].tolist()]
    marks = is_self[order].tolist()
    parts = [f"*{label}* " if mark else f"{label} " for label, mark in zip(labels, marks)]
    bounds = np.searchsorted(owner[order], np.arange(n + 1)).tolist()
    frames = ["".join(parts[bounds[w]:bounds[w + 1]]) for w in range(n)]
    return vocab.encode(frames).astype(np.int64)


def _column(name: str) -> Callable[[Side], np.ndarray]:
    return lambda side: side.string_column(name)


#: grouping name -> (key function of one side, numeric keys?)
GROUPINGS: Dict[str, Tuple[Callable[[Side], np.ndarray], bool]] = {
    "Token": (lambda side: np.arange(1, len(side.head) + 1, dtype=np.int64), True),
    "Wordform": (_column("form"), False),
    "Lemma": (_column("lemma"), False),
    "Cpostag": (_column("upos"), False),
    "Postag": (_column("xpos"), False),
    "Feats": (_column("feats"), False),
    "Deprel": (_column("deprel"), False),
    "Sentence": (lambda side: side.gold_sentence + 1, True),
    "RelationLength": (_relation_length, True),
    "GroupedRelationLength": (_grouped_relation_length, False),
    "SentenceLength": (lambda side: side.own_length, True),
    "StartWordPosition": (lambda side: side.position - 1, True),
    "EndWordPosition": (lambda side: side.own_length - side.position, True),
    "ArcDirection": (_arc_direction, False),
    "ArcDepth": (_arc_depth, True),
    "BranchingFactor": (_branching_factor, True),
    "ArcProjectivity": (_arc_projectivity, False),
    "Frame": (_frame, False),
    "RelativeWordPosition": (relative_word_position, True),
    # one group per word, folded afterwards (conll_eval.analyze.positional.post_process)
    "PreAndPost": (sentence_and_token, False),
    "Clustering": (sentence_and_token, False),
    "Clustering2": (sentence_and_token, False),
}


# ---- metrics ------------------------------------------------------------------------------

class Agreement:
    """Per aligned pair, computed on first use: does the head agree (the system head's
    partner is the gold head, or both are the root), the label, the direction, the (grouped)
    distance?  A metric pays only for what its formula reads."""

    _GROUPINGS = {"direction": "ArcDirection", "distance": "RelationLength",
                  "grouped": "GroupedRelationLength"}

    def __init__(self, pair: AnalysisPair):
        self.pair = pair
        self._values: Dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._values:
            self._values[name] = self._compute(name)
        return self._values[name]

    def _compute(self, name: str) -> np.ndarray:
        pair = self.pair
        ga, sa = pair.alignment.gold_idx, pair.alignment.sys_idx
        if name == "head":
            gold_head, sys_head = pair.gold.head[ga], pair.system.head[sa]
            partner = np.where(sys_head >= 0,
                               pair.alignment.sys_to_gold[np.maximum(sys_head, 0)], ROOT)
            partner = np.where((sys_head >= 0) & (partner < 0), -2, partner)  # no partner
            return gold_head == partner
        if name == "label":
            return pair.gold.string_column("deprel")[ga] == pair.system.string_column("deprel")[sa]
        keys_of = GROUPINGS[self._GROUPINGS[name]][0]  # a built-in: no registry needed
        return keys_of(pair.gold)[ga] == keys_of(pair.system)[sa]


_FORMULAS: Dict[str, Callable[[Dict[str, np.ndarray]], np.ndarray]] = {
    "BothRight": lambda a: a["head"] & a["label"],
    "HeadRight": lambda a: a["head"],
    "LabelRight": lambda a: a["label"],
    "AnyRight": lambda a: a["head"] | a["label"],
    "AnyWrong": lambda a: ~(a["head"] & a["label"]),
    "BothWrong": lambda a: ~a["head"] & ~a["label"],
    "HeadWrong": lambda a: ~a["head"],
    "LabelWrong": lambda a: ~a["label"],
    "DirectionRight": lambda a: a["direction"],
    "HeadToChildDistanceRight": lambda a: a["distance"],
    "GroupedHeadToChildDistanceRight": lambda a: a["grouped"],
}


def word_correctness(metric: str, pair: AnalysisPair, keys: Optional[Keys] = None
                     ) -> Tuple[np.ndarray, np.ndarray]:
    """(gold_correct, system_correct): whether ``metric`` holds for each word of each side.

    A word without a partner is taken as having neither head, label, direction nor
    distance right (so it is wrong for the ``...Right`` metrics and counts for the
    ``...Wrong`` ones).  ``self`` compares the grouping's own ``keys`` (required then).
    """
    metric = METRIC_ALIASES.get(metric, metric)
    n_gold, n_sys = pair.gold.head.shape[0], pair.system.head.shape[0]
    ga, sa = pair.alignment.gold_idx, pair.alignment.sys_idx
    if metric == "self":
        if keys is None:
            raise ValueError("metric self needs the grouping's keys")
        agree = keys.gold[ga] == keys.system[sa]
        unaligned_ok = False  # no key agrees with a missing word
    else:
        try:
            formula = _FORMULAS[metric]
        except KeyError:
            raise KeyError(f"unknown metric {metric!r}") from None
        agree = formula(Agreement(pair))
        nothing_right = {name: np.zeros(1, dtype=bool) for name in
                         ("head", "label", "direction", "distance", "grouped")}
        unaligned_ok = bool(formula(nothing_right)[0])
    gold_ok = np.full(n_gold, unaligned_ok, dtype=bool)
    sys_ok = np.full(n_sys, unaligned_ok, dtype=bool)
    gold_ok[ga] = agree
    sys_ok[sa] = agree
    return gold_ok, sys_ok


# ---- counters per group -------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class GroupCounts:
    """Counters per group, rows in key order (``keys``): treebank (gold) and parser (system)
    word counts and correct counts.  Groups are the union of the keys kept on either side."""

    keys: np.ndarray
    numeric: bool
    treebank_total: np.ndarray
    treebank_correct: np.ndarray
    parser_total: np.ndarray
    parser_correct: np.ndarray


def group_counts(keys: Keys, gold_ok: np.ndarray, sys_ok: np.ndarray,
                 gold_kept: Optional[np.ndarray] = None,
                 sys_kept: Optional[np.ndarray] = None) -> GroupCounts:
    """Count each side's kept words and correct words per key (``np.bincount`` over the
    union of keys); ``*_kept`` (default: all) are the words left after exclusions."""
    gold_keys, sys_keys = keys.gold, keys.system
    if gold_kept is not None:
        gold_keys, gold_ok = gold_keys[gold_kept], gold_ok[gold_kept]
    if sys_kept is not None:
        sys_keys, sys_ok = sys_keys[sys_kept], sys_ok[sys_kept]
    n = len(gold_keys) + len(sys_keys)
    low = min(int(gold_keys.min()) if len(gold_keys) else 0,
              int(sys_keys.min()) if len(sys_keys) else 0)
    high = max(int(gold_keys.max()) if len(gold_keys) else 0,
               int(sys_keys.max()) if len(sys_keys) else 0)
    if high - low < 4 * n + 1024:
        # keys are dense (Vocab codes, positions, lengths): count straight into key slots
        size = high - low + 1

        def count(values, weights=None):
            return np.bincount(values - low, weights, minlength=size).astype(np.int64)

        totals = [count(gold_keys), count(gold_keys, gold_ok), count(sys_keys),
                  count(sys_keys, sys_ok)]
        used = np.flatnonzero(totals[0] + totals[2])
        return GroupCounts(used.astype(np.int64) + low, keys.numeric,
                           *(counts[used] for counts in totals))
    union, inverse = np.unique(np.concatenate([gold_keys, sys_keys]), return_inverse=True)
    inverse = inverse.reshape(-1)
    g_index, s_index = inverse[:len(gold_keys)], inverse[len(gold_keys):]
    size = len(union)

    def count_sparse(index, weights=None):
        return np.bincount(index, weights, minlength=size).astype(np.int64)

    return GroupCounts(union.astype(np.int64), keys.numeric, count_sparse(g_index),
                       count_sparse(g_index, gold_ok), count_sparse(s_index),
                       count_sparse(s_index, sys_ok))
