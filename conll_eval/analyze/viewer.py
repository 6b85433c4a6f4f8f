"""What the HTML report's tree viewer shows, computed from the columns of a scored pair:
each gold word's status against a system, per-label counts and confusions, and where each
system word stands under the gold sentence that holds its first character.

Arrays in, arrays out (no per-word Python object); :mod:`conll_eval.report.html` turns them
into the page's data with string tables.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np

from ..enhanced import EnhancedGraph, edge_keys, key_in, partner_edges
from .counting import AnalysisPair, Agreement, group_counts
from .groupings import grouping_keys

__all__ = ["STATUS_NAMES", "UPOS_WRONG", "sentence_offsets", "local_heads", "gold_status",
           "label_rows", "label_confusion", "system_placement", "enhanced_arcs"]

#: a gold word's status against one system (``& 7``); ``| 8``: aligned, UPOS wrong
STATUS_NAMES = ("right", "wrong label", "wrong head", "wrong head and label", "no partner")
UPOS_WRONG = 8


def sentence_offsets(treebank) -> np.ndarray:
    """Word offsets of the sentences, CSR style (n + 1 entries)."""
    starts = np.asarray(treebank.sent_word_start, dtype=np.int64)
    if len(starts) == treebank.n_sentences:
        starts = np.append(starts, treebank.n_words)
    return starts[:treebank.n_sentences + 1]


def local_heads(head: np.ndarray, word_sent: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Heads as 0-based positions in the word's own sentence, -1 for the root."""
    own = starts[word_sent]
    return np.where(head >= 0, head - own, -1)


def gold_status(pair: AnalysisPair, gold_upos: np.ndarray, sys_upos: np.ndarray) -> np.ndarray:
    """Per gold word: 0 right, 1 wrong label, 2 wrong head, 3 both, 4 no partner; ``| 8``
    when aligned with another UPOS."""
    alignment = pair.alignment
    agreement = Agreement(pair)
    head, label = agreement["head"], agreement["label"]
    status = np.full(len(pair.gold.head), 4, dtype=np.int64)
    kind = np.where(head, np.where(label, 0, 1), np.where(label, 2, 3))
    upos_wrong = gold_upos[alignment.gold_idx] != sys_upos[alignment.sys_idx]
    status[alignment.gold_idx] = kind | np.where(upos_wrong, UPOS_WRONG, 0)
    return status


def label_rows(pair: AnalysisPair, grouping: str, correct) -> List[list]:
    """Rows [label code (vocab), gold words, gold correct, system words, system correct]."""
    keys = grouping_keys(grouping, pair)
    gold_ok, sys_ok = correct(keys)
    counts = group_counts(keys, gold_ok, sys_ok)
    return [list(row) for row in zip(counts.keys.tolist(), counts.treebank_total.tolist(),
                                     counts.treebank_correct.tolist(),
                                     counts.parser_total.tolist(),
                                     counts.parser_correct.tolist())]


def label_confusion(gold_codes: np.ndarray, sys_codes: np.ndarray) -> List[list]:
    """[gold code, system code, count] of every pair of aligned words' labels."""
    if not len(gold_codes):
        return []
    pairs, counts = np.unique(np.stack([gold_codes, sys_codes], axis=1), axis=0,
                              return_counts=True)
    return [[g, s, n] for (g, s), n in zip(pairs.tolist(), counts.tolist())]


def system_placement(evaluation, gold_starts: np.ndarray) -> Dict[str, np.ndarray]:
    """One system's words grouped by the gold sentence holding their first character:
    ``start`` (first word of each gold sentence's group, n + 1 entries), ``head`` (0-based in
    the group, -1 root, -2 / -3 a head in an earlier / later gold sentence), ``align`` (the
    partner's position in the gold sentence, else -(position of the gold word the word's
    characters start in) - 1), ``breaks`` (system words that begin a system sentence), and
    per word ``group`` (its gold sentence) and ``local`` (its position in the group)."""
    gold, system, alignment = evaluation.gold, evaluation.system, evaluation.alignment
    n_sent = gold.n_sentences
    sent_of = np.asarray(gold.sentence_of_chars(system.word_start), dtype=np.int64)
    starts = np.searchsorted(sent_of, np.arange(n_sent + 1), side="left").astype(np.int64)
    index = np.arange(system.n_words, dtype=np.int64)
    local = index - starts[sent_of] if system.n_words else index
    head = np.asarray(system.head, dtype=np.int64)
    head_sent = sent_of[np.maximum(head, 0)] if system.n_words else head
    local_head = np.where(head < 0, -1,
                          np.where(head_sent == sent_of, local[np.maximum(head, 0)] if
                                   system.n_words else head,
                                   np.where(head_sent < sent_of, -2, -3)))
    partner = np.asarray(alignment.sys_to_gold, dtype=np.int64)
    gold_sent = np.asarray(gold.word_sent, dtype=np.int64)
    gold_local = np.arange(gold.n_words, dtype=np.int64) - gold_starts[gold_sent]
    aligned = partner >= 0
    same = aligned.copy()
    same[aligned] = gold_sent[partner[aligned]] == sent_of[aligned]
    # a word without partner stands under the gold word whose characters it starts in
    anchor = np.searchsorted(np.asarray(gold.word_start), system.word_start, side="right") - 1
    first, last = gold_starts[sent_of], gold_starts[sent_of + 1] - 1
    anchor = np.clip(anchor, first, np.maximum(last, first)) - first
    align = np.where(same, gold_local[np.maximum(partner, 0)], -(anchor + 1))
    sys_sent = np.asarray(system.word_sent, dtype=np.int64)
    breaks = np.flatnonzero(np.diff(sys_sent, prepend=-1) != 0) if system.n_words else index
    return {"start": starts, "head": local_head, "align": align, "breaks": breaks,
            "local": local, "group": sent_of}


def _offsets(graph: EnhancedGraph, n_words: int) -> np.ndarray:
    """Per word the first of its edges (CSR, n + 1 entries; edges are in word order)."""
    return np.searchsorted(graph.word, np.arange(n_words + 1, dtype=np.int64)).astype(np.int64)


def enhanced_arcs(evaluation, gold_graph: EnhancedGraph, system_graph: EnhancedGraph,
                  gold_starts: np.ndarray, placement: Dict[str, np.ndarray]
                  ) -> Tuple[Dict[str, np.ndarray], Dict[str, np.ndarray]]:
    """The enhanced edges the viewer draws, gold and one system's: per word CSR ``offsets``,
    per edge ``head`` (as the basic heads: 0-based in the word's gold sentence or group, -1
    the root or no parent, -2 / -3 an earlier / later gold sentence) and ``label`` (vocab
    code of the label path); for the system ``right``: the gold graph has the edge (the
    partners of word and head, the same label path; edges as sets, as ``elas:set``)."""
    gold, system = evaluation.gold, evaluation.system
    gold_sent = np.asarray(gold.word_sent, dtype=np.int64)
    g_head = gold_graph.head
    gold_local = np.where(g_head >= 0, g_head - gold_starts[gold_sent[gold_graph.word]], -1)
    gold_arcs = {"offsets": _offsets(gold_graph, gold.n_words), "head": gold_local,
                 "label": gold_graph.label}
    word, head = system_graph.word, system_graph.head
    group, local = placement["group"], placement["local"]
    real = head >= 0
    safe = np.maximum(head, 0)
    placed = np.where(~real, -1, np.where(group[safe] == group[word], local[safe],
                                          np.where(group[safe] < group[word], -2, -3)))
    partner, mapped = partner_edges(system_graph, np.asarray(evaluation.alignment.sys_to_gold))
    labels = len(gold.vocab)  # the pair shares one vocabulary
    right = key_in(edge_keys(partner, mapped, system_graph.label, gold.n_words, labels),
                   edge_keys(gold_graph.word, gold_graph.head, gold_graph.label, gold.n_words, labels))
    right &= partner >= 0
    system_arcs = {"offsets": _offsets(system_graph, system.n_words), "head": placed,
                   "label": system_graph.label, "right": right}
    return gold_arcs, system_arcs
