"""MaltEval's ``--confusion-matrix 1``: which gold key the system confused with which, as a
frequency table (the 50 most frequent ``gold / system`` pairs) and, for small key sets, a matrix.

A pair is counted for every aligned word kept on both sides whose gold and system keys differ.
The matrix reproduces MaltEval's labelling: rows are the system keys and columns the gold keys,
but the cell at row r, column c counts gold = r, system = c (``Col: gold / Row: system``).
"""
from __future__ import annotations

import math
from typing import List, Optional, Tuple

import numpy as np

from . import java
from .complex import key_layout
from .options import Evaluation, Formatting
from .tables import AnalysisCache, Table, evaluation_keys, kept_words, label_order

__all__ = ["TABLE_ROWS", "MATRIX_CELLS", "confusion_tables"]

#: the table keeps the most frequent pairs; the matrix is made when gold x system keys is less
TABLE_ROWS = 50
MATRIX_CELLS = 2500


def _caption_name(evaluation: Evaluation) -> str:
    """The grouping named in the captions: for a complex grouping the first attribute at the
    first offset, in MaltEval's (HashMap) order."""
    if not evaluation.grouping.is_complex:
        return evaluation.grouping.name
    return key_layout(evaluation.grouping.parts)[0][1][0]


def _optional_flag(value: Optional[bool], default: bool) -> bool:
    return default if value is None else value


def confusion_tables(evaluation: Evaluation, cache: AnalysisCache,
                     formatting: Formatting) -> Tuple[Table, Optional[Table]]:
    """(the confusion table, the matrix or None when there are too many keys)."""
    gold_kept, sys_kept = kept_words(evaluation, cache)
    keys = evaluation_keys(evaluation, cache, (gold_kept, sys_kept))
    alignment = cache.pair.alignment
    ga, sa = alignment.gold_idx, alignment.sys_idx
    both = gold_kept[ga] & sys_kept[sa]
    gold_keys, sys_keys = keys.gold[ga][both], keys.system[sa][both]
    differ = gold_keys != sys_keys
    gold_keys, sys_keys = gold_keys[differ], sys_keys[differ]
    # distinct (gold, system) pairs in order of first occurrence: MaltEval's insertion order
    pairs, first, counts = np.unique(np.stack([gold_keys, sys_keys], axis=1), axis=0,
                                     return_index=True, return_counts=True)
    by_first = np.argsort(first, kind="stable")
    pairs, counts = pairs[by_first].tolist(), counts[by_first].tolist()
    vocab = cache.vocab
    label = {}
    for g, s in pairs:
        label.setdefault(g, keys.label(vocab, g))
        label.setdefault(s, keys.label(vocab, s))
    count_of = {(g, s): c for (g, s), c in zip(pairs, counts)}
    # MaltEval's Pair(system, gold) hashes as the string "system_gold"
    try:
        order = java.hashmap_order([(g, s) for g, s in pairs],
                                   hash_of=lambda p: java.java_string_hash(f"{label[p[1]]}_{label[p[0]]}"))
    except NotImplementedError:  # a tree bin in Java: no reproducible order, keep first seen
        order = [(g, s) for g, s in pairs]
    ranked = sorted(range(len(order)), key=lambda i: -count_of[order[i]])  # stable
    shown = ranked[:TABLE_ROWS]
    name = _caption_name(evaluation)
    details = _optional_flag(formatting.details, True)
    means = _optional_flag(formatting.column_header, False)
    table = Table(
        [], ["frequency"], [[count_of[order[i]] for i in shown]], [(math.nan, 0)],
        "Gold / System", [f"{label[order[i][0]]} / {label[order[i][1]]}" for i in shown],
        means, details, len(ranked) - TABLE_ROWS if len(ranked) > TABLE_ROWS else None,
        # Java sizes the columns on every row, the cut ones too
        all_cells=[[count_of[order[i]] for i in ranked]],
        all_labels=[f"{label[order[i][0]]} / {label[order[i][1]]}" for i in ranked],
        caption=f"Confusion table for {name}")
    gold_set = np.unique(keys.gold[gold_kept])
    sys_set = np.unique(keys.system[sys_kept])
    if len(gold_set) * len(sys_set) >= MATRIX_CELLS:
        return table, None
    gold_labels = _ordered_labels(gold_set, keys, vocab)
    sys_labels = _ordered_labels(sys_set, keys, vocab)
    columns: List[List[float]] = []
    for column_key, _ in gold_labels:
        columns.append([math.nan if row_key == column_key else count_of.get((row_key, column_key), 0)
                        for row_key, _ in sys_labels])
    matrix = Table(
        [], [text for _, text in gold_labels], columns, [(math.nan, 0)] * len(gold_labels),
        "Col: gold / Row: system", [text for _, text in sys_labels], means, details, None,
        caption=f"Confusion matrix for {name}")
    return table, matrix


def _ordered_labels(key_set: np.ndarray, keys, vocab) -> List[Tuple[int, str]]:
    """(key, label) in MaltEval's TreeSet order: numeric or by ``String.compareTo``."""
    pairs = [(int(k), keys.label(vocab, k)) for k in key_set.tolist()]
    order = label_order([text for _, text in pairs], keys.numeric)
    return [pairs[i] for i in order]
