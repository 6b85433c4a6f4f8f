"""Where the LAS points go by relation (Nivre and Fang 2017, the CLAS paper): the five groups of
its Table 1, LAS restricted to each group, LAS without a group or a single relation, and CLAS.

Every number is a labelled F1 (relations compared as ``--deprel`` says: universal, subtypes
cut, by default) computed as the CoNLL 2018 scorer computes CLAS: gold words whose gold relation passes the filter are the recall base,
system words whose system relation passes it the precision base, and an aligned gold word that
passes is correct when its head and relation are right.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Mapping, Optional, Tuple

import numpy as np

from ..enhanced import (CASE_DEPRELS, UNIVERSAL_DEPREL_EXTENSIONS, edge_keys, enhanced_graph,
                        first_occurrences, key_in, partner_edges)
from ..evaluate import Settings
from ..metrics import METRICS, EvaluationContext, compute_counts, profile_metrics
from ..stats import Score
from .relation_groups import (ENHANCED_COLUMNS, FUN_RELATIONS, RELATION_GROUPS,  # noqa: F401 (this API)
                              TABLE2_COLUMNS, TABLE3_COLUMNS)

__all__ = ["RELATION_GROUPS", "FUN_RELATIONS", "TABLE2_COLUMNS", "TABLE3_COLUMNS",
           "ENHANCED_COLUMNS", "RelationRow", "relation_row", "enhanced_row", "average_rows",
           "averaged_over"]


@dataclass(frozen=True)
class RelationRow:
    """One treebank's scores: ``scores`` maps ``LAS``, ``CLAS``, a group name (LAS within the
    group) and ``without:<group or relation>`` (LAS without it) to a :class:`Score`.
    :meth:`value` gives a table column in percent: the F1, or for ``LAS-X`` the difference
    LAS without X minus LAS, and for ``CLAS-LAS`` CLAS minus LAS; None where the column
    means nothing: an F1 over no gold and no system word, or ``LAS-X`` when no word (gold
    or system) has X, so that leaving it out changes nothing."""

    scores: Mapping[str, Score]
    #: columns that mean nothing whatever the counts (the enhanced ones of a gold file
    #: without DEPS: n/a, never 0.00)
    unannotated: FrozenSet[str] = frozenset()

    def _f1(self, key: str) -> Optional[float]:
        score = self.scores[key]
        return None if score.gold + score.system == 0 else score.f1

    def value(self, column: str) -> Optional[float]:
        if column in self.unannotated:
            return None
        las = self._f1("LAS") if "LAS" in self.scores else None
        if column == "CLAS-LAS":
            clas = self._f1("CLAS")
            return None if clas is None or las is None else 100 * (clas - las)
        if column.startswith("LAS-"):
            key = "without:" + column[4:]
            without, everything = self.scores[key], self.scores["LAS"]
            if (without.gold, without.system) == (everything.gold, everything.system):
                return None  # nothing has X: nothing was left out
            rest = self._f1(key)
            return None if rest is None or las is None else 100 * (rest - las)
        f1 = self._f1(column)
        return None if f1 is None else 100 * f1


def _score(gold_in: np.ndarray, sys_in: np.ndarray, correct: np.ndarray) -> Score:
    """F1 counts over the words passing the filter on each side; ``correct`` per gold word."""
    return Score(int(np.count_nonzero(correct & gold_in)), int(np.count_nonzero(gold_in)),
                 int(np.count_nonzero(sys_in)))


def relation_row(gold, system, alignment, settings: Optional[Settings] = None) -> RelationRow:
    """Every score of Tables 2 and 3 for one aligned pair (treebanks and their alignment),
    under ``settings`` (default: the UD scorers'): ``--deprel`` decides when a relation is
    right, ``--punct`` which words count (as in LAS), the profile how CLAS is scored; the
    groups are those of the universal relation (UD v1 names renamed under ``--deprel v1``)."""
    settings = settings or Settings()
    ctx = EvaluationContext(gold, system, alignment, None, settings.punct, settings.deprel)
    gold_parent, sys_parent = ctx.mapped_parent()
    gold_correct = np.zeros(gold.n_words, dtype=bool)  # aligned, head and relation right
    gold_correct[ctx.ga] = (gold_parent == sys_parent) & ctx.pair_equal("udeprel")
    gold_uni, sys_uni = ctx.column("gold", "uni"), ctx.column("system", "uni")
    gold_scored, sys_scored = ctx.column("gold", "scored"), ctx.column("system", "scored")
    vocab = gold.vocab

    def members(relations) -> Tuple[np.ndarray, np.ndarray]:
        codes = np.array([c for c in (vocab.find(r) for r in relations) if c >= 0],
                         dtype=np.int64)
        return np.isin(gold_uni, codes), np.isin(sys_uni, codes)

    clas = next(m for m in profile_metrics(settings.profile) if m.startswith("CLAS"))
    scores: Dict[str, Score] = {"LAS": _score(gold_scored, sys_scored, gold_correct),
                                "CLAS": compute_counts(METRICS[clas], ctx).score()}
    for name, relations in RELATION_GROUPS.items():
        gold_in, sys_in = members(relations)
        scores[name] = _score(gold_in & gold_scored, sys_in & sys_scored, gold_correct)
        scores["without:" + name] = _score(~gold_in & gold_scored, ~sys_in & sys_scored,
                                           gold_correct)
    for relation in FUN_RELATIONS:
        gold_in, sys_in = members([relation])
        scores["without:" + relation] = _score(~gold_in & gold_scored, ~sys_in & sys_scored,
                                               gold_correct)
    return RelationRow(scores)


def average_rows(rows: List[Optional[RelationRow]], columns) -> Dict[str, Optional[float]]:
    """The unweighted mean of each column over the treebanks where it means something (a
    failed treebank, None, and a column's None are left out); None when there is none."""
    average: Dict[str, Optional[float]] = {}
    for column in columns:
        values = [v for v in (row.value(column) for row in rows if row is not None)
                  if v is not None]
        average[column] = sum(values) / len(values) if values else None
    return average


def averaged_over(rows: List[Optional[RelationRow]], columns) -> Dict[str, int]:
    """How many treebanks each column's average is over (see :func:`average_rows`)."""
    return {column: sum(1 for row in rows if row is not None and row.value(column) is not None)
            for column in columns}


# ---- enhanced dependencies (the DEPS graphs) ------------------------------------------------

def _first_step_universal(text: str) -> str:
    return text.split(">")[0].split(":")[0]


def _case_marked(text: str) -> bool:
    return any(len(parts) > 1 and parts[0] in CASE_DEPRELS and parts[1] not in UNIVERSAL_DEPREL_EXTENSIONS
               for parts in (step.split(":") for step in text.split(">")))


def _edge_groups(graph, tb, vocab) -> Dict[str, np.ndarray]:
    """Per enhanced column its membership mask over ``graph``'s edges (see :func:`enhanced_row`);
    each string test runs once per distinct label."""
    label = graph.label
    universal = vocab.map_codes("breakdown:first-step-universal", _first_step_universal, label)
    groups = {f"E-{name}": vocab.flags(f"breakdown:first-step-in:{name}",
                                       lambda text, members=RELATION_GROUPS[name]:
                                       _first_step_universal(text) in members, label)
              for name in ("CORE", "NON-CORE", "FUN")}
    groups["E-REF"] = vocab.flags("breakdown:first-step-ref",
                                  lambda text: _first_step_universal(text) == "ref", label)
    # the basic tree's edge of the word: same head and same universal relation
    basic_udeprel = vocab.map_codes("breakdown:first-step-universal", _first_step_universal,
                                    tb.deprel)
    word = graph.word
    is_basic = (graph.head == tb.head[word]) & (universal == basic_udeprel[word])
    conj = vocab.flags("breakdown:basic-conj", lambda text: text.split(":")[0] == "conj", tb.deprel)
    head_conj = np.zeros(len(word), dtype=bool)
    real_head = graph.head >= 0
    head_conj[real_head] = conj[graph.head[real_head]]
    groups["E-CONJ"] = ~is_basic & (conj[word] | head_conj)
    groups["E-CASE"] = vocab.flags("breakdown:case-marked", _case_marked, label)
    return groups


def enhanced_row(gold, system, alignment, settings: Optional[Settings] = None) -> RelationRow:
    """ELAS and ELAS within groups of enhanced edges, for one aligned pair (the DEPS graphs,
    with ``settings``' enhanced switches).  Edges are scored as sets (a duplicated edge
    counts once, whatever the profile): a gold edge is correct when the aligned system word
    has an edge with the same label path to the partner of its head (or both to the root).
    A gold edge's group decides the recall base and the correct count, a system edge's the
    precision base, each by its own side's label and basic tree (a gold file with no DEPS
    edge: every column n/a, ``unannotated``):

    - ``E-CORE``, ``E-NON-CORE``, ``E-FUN``: the first label step's universal relation in
      Table 1's group; ``E-REF``: ``ref`` (relative pronouns, enhanced only);
    - ``E-CONJ``: edges propagated through coordination: not the word's basic edge (head and
      universal relation), and the word or its enhanced head is a ``conj`` in the basic tree
      (shared parents and shared dependents);
    - ``E-CASE``: a step of the path carries case information (``obl``, ``nmod``, ``conj``,
      ``advcl`` with a subtype other than ``pass``, ``relcl``, ``xsubj``: what
      ``--enhancements 6`` strips)."""
    settings = settings or Settings()
    options = settings.enhanced_options
    g_graph, s_graph = enhanced_graph(gold, options), enhanced_graph(system, options)
    sys_to_gold = alignment.sys_to_gold
    partner, mapped = partner_edges(s_graph, sys_to_gold)
    keep = partner >= 0
    labels = len(gold.vocab)  # the pair shares one vocabulary
    gold_keys = edge_keys(g_graph.word, g_graph.head, g_graph.label, gold.n_words, labels)
    aligned_keys = edge_keys(partner[keep], mapped[keep], s_graph.label[keep], gold.n_words, labels)
    gold_first = first_occurrences(gold_keys)  # distinct gold edges (a duplicate counts once)
    correct = key_in(gold_keys, aligned_keys) & gold_first
    sys_first = first_occurrences(edge_keys(s_graph.word, s_graph.head, s_graph.label,
                                            system.n_words, labels))
    gold_groups = _edge_groups(g_graph, gold, gold.vocab)
    sys_groups = _edge_groups(s_graph, system, system.vocab)
    scores = {"ELAS": _score(gold_first, sys_first, correct)}
    for column in ENHANCED_COLUMNS[1:]:
        scores[column] = _score(gold_groups[column] & gold_first, sys_groups[column] & sys_first,
                                correct)
    # a gold file without DEPS (every one _) annotates no enhanced graph: n/a, never 0.00
    return RelationRow(scores, frozenset(ENHANCED_COLUMNS) if not len(gold_keys) else frozenset())
