"""MaltEval's groupings by where a word stands in its sentence: RelativeWordPosition (a plain key)
and PreAndPost, Clustering and Clustering2, which group every word on its own and then fold
that one-row-per-word table into a few rows (MaltEval's ``postProcess``).

Key functions take one :class:`~conll_eval.analyze.counting.Side`; :func:`post_process` takes
the per-word table (rows in key order, before any sort or cut) and returns the folded one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Union

import numpy as np

__all__ = [
    "RELATIVE_POSITION_BUCKETS", "POST_PROCESSED_ROW_TITLES", "ACCURACY_WARNING",
    "EMPTY_TABLE_ABORT", "PostProcessed", "relative_word_position", "sentence_and_token",
    "needs_accuracy_warning", "post_process",
]

#: RelativeWordPosition cuts every sentence into this many equal parts (keys 1..15: the last
#: word of a sentence always lands in bucket 15 on its own)
RELATIVE_POSITION_BUCKETS = 14

#: groupings whose per-word table MaltEval folds, and the heading of their row-label column
POST_PROCESSED_ROW_TITLES: Dict[str, str] = {
    "PreAndPost": "Type",
    "Clustering": "Relative token position",
    "Clustering2": "Relative token position",
}

#: printed on stdout, before anything else, once per evaluation of PreAndPost or Clustering2
#: whose columns lack ``accuracy``
ACCURACY_WARNING = 'Warning: attribute "accuracy" should be specified.'

#: MaltEval's abort message when Clustering2 gets a table without rows (every word excluded)
EMPTY_TABLE_ABORT = "Array index out of range: 0"

#: how far Clustering looks on either side of a correct word
_CLUSTERING_REACH = 10

Cell = Union[int, float]


# ---- keys -------------------------------------------------------------------------------------

def relative_word_position(side) -> np.ndarray:
    """``1 + floor(14 * position / sentence length)`` with the 1-based position and the length
    of the word's own sentence, in double arithmetic as MaltEval does: keys 1..15."""
    share = RELATIVE_POSITION_BUCKETS * side.position.astype(np.float64) / side.own_length
    return 1 + np.floor(share).astype(np.int64)


def sentence_and_token(side) -> np.ndarray:
    """MaltEval's SentenceAndToken key, one per word (Vocab codes): the 1-based number of the
    word's own sentence and its 0-based index there, each zero-padded to nine digits and joined
    by ``_`` (``000000002_000000000``), so string order is sentence-then-word order."""
    sentence = np.asarray(side.treebank.word_sent, dtype=np.int64) + 1
    index = side.position - 1
    # every word has its own key, so one string per word is the least there can be
    keys = [f"{s:09d}_{i:09d}" for s, i in zip(sentence.tolist(), index.tolist())]
    return side.vocab.encode(keys).astype(np.int64)


# ---- post-processing --------------------------------------------------------------------------

@dataclass(frozen=True)
class PostProcessed:
    """A folded table: the row-label heading, row labels in their own key order, and column
    name -> cells (floats, NaN for 0/0; ints for counters).  MaltEval keeps no Row mean / Row
    count for it (they print as ``-`` and ``0``); sort and cut apply to these rows."""

    row_title: str
    labels: List[str]
    columns: Dict[str, List[Cell]]


def needs_accuracy_warning(grouping: str, column_names: Sequence[str]) -> bool:
    """Whether MaltEval prints :data:`ACCURACY_WARNING` for this evaluation."""
    return grouping in ("PreAndPost", "Clustering2") and "accuracy" not in column_names


def post_process(grouping: str, labels: Sequence[str], column_names: Sequence[str],
                 columns: Dict[str, Sequence[Cell]]) -> Optional[PostProcessed]:
    """Fold the per-word table of ``grouping`` (``labels``: SentenceAndToken keys in key order;
    ``columns``: the evaluation's columns, ``column_names`` in their order) as MaltEval does;
    ``None`` for a grouping that is not folded.

    A word counts as correct when the *first* column's value, truncated to an int (NaN: 0), is
    1 -- for ``accuracy`` that is the system side's verdict; MaltEval reads whatever column
    comes first, so ``counter`` first makes every counted word "correct".  Raises ValueError
    (:data:`EMPTY_TABLE_ABORT`) for Clustering2 on a table without rows, where MaltEval aborts.
    """
    if grouping not in POST_PROCESSED_ROW_TITLES:
        return None
    correct = _first_column_says_correct(columns[column_names[0]])
    sentence = _sentence_runs(labels)
    title = POST_PROCESSED_ROW_TITLES[grouping]
    if grouping == "PreAndPost":
        row_labels, totals, rights = _pre_and_post(correct, sentence)
    elif grouping == "Clustering":
        row_labels, totals, rights = _clustering(correct, sentence)
        with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 is NaN, as Java's float
            share = rights.astype(np.float32) / totals.astype(np.float32)
        # one float column whatever was asked for; its value widened to double for printing
        return PostProcessed(title, row_labels, {"accuracy": [float(v) for v in share.tolist()]})
    else:
        if not len(labels):
            raise ValueError(EMPTY_TABLE_ABORT)
        row_labels, totals, rights = _clustering2(correct, sentence)
    return PostProcessed(title, row_labels, _counter_cells(column_names, totals, rights))


def _first_column_says_correct(values: Sequence[Cell]) -> np.ndarray:
    """Java's ``Number.intValue() == 1``: a double is truncated toward zero, NaN gives 0."""
    array = np.asarray(values, dtype=np.float64)
    return np.trunc(np.nan_to_num(array, nan=0.0)) == 1


def _sentence_runs(labels: Sequence[str]) -> np.ndarray:
    """Per row, the number of its run of rows with the same sentence part (before ``_``)."""
    if not len(labels):
        return np.zeros(0, dtype=np.int64)
    sentence = np.char.partition(np.asarray(labels, dtype=str), "_")[:, 0]
    starts = np.concatenate([[True], sentence[1:] != sentence[:-1]])
    return np.cumsum(starts) - 1


def _counter_cells(column_names: Sequence[str], totals: np.ndarray, rights: np.ndarray
                   ) -> Dict[str, List[Cell]]:
    """accuracy = right / total (NaN for 0/0), counter = total, correctcounter = right."""
    with np.errstate(divide="ignore", invalid="ignore"):
        share = rights / totals.astype(np.float64)
    available = {"accuracy": [float(v) for v in share.tolist()],
                 "counter": [int(v) for v in totals.tolist()],
                 "correctcounter": [int(v) for v in rights.tolist()]}
    unknown = [name for name in column_names if name not in available]
    if unknown:
        raise ValueError(f"no folded values for the columns {unknown}")
    return {name: available[name] for name in column_names}


def _pre_and_post(correct: np.ndarray, sentence: np.ndarray):
    """First: words of a sentence up to and including its first wrong one; Follow: the rest."""
    wrong = (~correct).astype(np.int64)
    wrong_before = np.cumsum(wrong) - wrong  # wrong rows before this one, whole table
    if len(sentence):
        first_row = np.searchsorted(sentence, sentence)  # runs are contiguous and increasing
        wrong_before = wrong_before - wrong_before[first_row]
    follow = wrong_before > 0
    totals = np.array([np.sum(~follow), np.sum(follow)], dtype=np.int64)
    rights = np.array([np.sum(correct & ~follow), np.sum(correct & follow)], dtype=np.int64)
    return ["First", "Follow"], totals, rights


def _clustering(correct: np.ndarray, sentence: np.ndarray):
    """For each offset -10..10: among the words at that offset from a correct word in the same
    sentence, how many are correct (offset 0 never counts: 0/0)."""
    offsets = list(range(-_CLUSTERING_REACH, _CLUSTERING_REACH + 1))
    n = len(correct)
    totals, rights = [], []
    for offset in offsets:  # 21 array passes
        if offset == 0 or abs(offset) >= n:
            totals.append(0)
            rights.append(0)
            continue
        centre = np.arange(max(0, -offset), n - max(0, offset))
        other = centre + offset
        counted = correct[centre] & (sentence[centre] == sentence[other])
        totals.append(int(counted.sum()))
        rights.append(int((counted & correct[other]).sum()))
    return ([str(o) for o in offsets], np.array(totals, dtype=np.int64),
            np.array(rights, dtype=np.int64))


def _clustering2(correct: np.ndarray, sentence: np.ndarray):
    """Distance of each word to the previous anchor in its sentence -- a correct word, or the
    place just before the sentence's first word -- counted per distance, with how many of the
    words at that distance are correct.  MaltEval starts its walk *on* the table's first row,
    so that word is an anchor whatever its correctness and is never counted itself."""
    n = len(correct)
    rows = np.arange(n)
    anchor = correct.copy()
    anchor[0] = True
    last_anchor = np.maximum.accumulate(np.where(anchor, rows, -1))
    previous = np.concatenate([[-1], last_anchor[:-1]])  # last anchor strictly before the row
    sentence_start = np.searchsorted(sentence, sentence)
    distance = rows - np.maximum(previous, sentence_start - 1)
    distance, counted_correct = distance[1:], correct[1:]
    size = int(distance.max()) + 1 if len(distance) else 1
    totals = np.bincount(distance, minlength=size)
    rights = np.bincount(distance, weights=counted_correct, minlength=size).astype(np.int64)
    seen = np.flatnonzero(totals)  # a TreeMap holds only the distances met
    return [str(d) for d in seen.tolist()], totals[seen].astype(np.int64), rights[seen]
