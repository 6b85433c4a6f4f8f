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

from ..evaluate import Settings
from ..metrics import METRICS, EvaluationContext, compute_counts, profile_metrics
from ..stats import Score

__all__ = ["RELATION_GROUPS", "FUN_RELATIONS", "TABLE2_COLUMNS", "TABLE3_COLUMNS",
           "RelationRow", "relation_row", "average_rows", "averaged_over"]

#: Table 1 of the paper: the 37 UD relations in five disjoint groups, in its order
RELATION_GROUPS: Dict[str, FrozenSet[str]] = {
    "FUN": frozenset({"aux", "case", "cc", "clf", "cop", "det", "mark"}),
    "MWE": frozenset({"compound", "fixed", "flat", "goeswith"}),
    "CORE": frozenset({"ccomp", "csubj", "iobj", "nsubj", "obj", "xcomp"}),
    "NON-CORE": frozenset({"acl", "advcl", "advmod", "amod", "appos", "conj", "dep", "discourse",
                           "dislocated", "expl", "list", "nmod", "nummod", "obl", "orphan",
                           "parataxis", "reparandum", "root", "vocative"}),
    "PUNCT": frozenset({"punct"}),
}
#: Table 3's order of the FUN relations (nominal first, then clausal)
FUN_RELATIONS = ("det", "clf", "case", "aux", "cop", "mark", "cc")

#: the columns of Table 2 and Table 3 (``LAS-X``: LAS without X; ``CLAS-LAS``: the difference)
TABLE2_COLUMNS = ("LAS", "CORE", "NON-CORE", "FUN", "MWE", "LAS-PUNCT", "LAS-FUN", "LAS-MWE")
TABLE3_COLUMNS = ("LAS", "CLAS", "CLAS-LAS") + tuple(f"LAS-{r}" for r in FUN_RELATIONS)


@dataclass(frozen=True)
class RelationRow:
    """One treebank's scores: ``scores`` maps ``LAS``, ``CLAS``, a group name (LAS within the
    group) and ``without:<group or relation>`` (LAS without it) to a :class:`Score`.
    :meth:`value` gives a table column in percent: the F1, or for ``LAS-X`` the difference
    LAS without X minus LAS, and for ``CLAS-LAS`` CLAS minus LAS; None where the column
    means nothing: an F1 over no gold and no system word, or ``LAS-X`` when no word (gold
    or system) has X, so that leaving it out changes nothing."""

    scores: Mapping[str, Score]

    def _f1(self, key: str) -> Optional[float]:
        score = self.scores[key]
        return None if score.gold + score.system == 0 else score.f1

    def value(self, column: str) -> Optional[float]:
        las = self._f1("LAS")
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
