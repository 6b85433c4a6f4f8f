"""Where the LAS points go by relation (Nivre and Fang 2017, the CLAS paper): the five groups of
its Table 1, LAS restricted to each group, LAS without a group or a single relation, and CLAS.

Every number is a labelled F1 over universal relations (subtypes cut) computed as the CoNLL 2018
scorer computes CLAS: gold words whose gold relation passes the filter are the recall base,
system words whose system relation passes it the precision base, and an aligned gold word that
passes is correct when its head and relation are right.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Mapping, Optional, Tuple

import numpy as np

from ..stats import Score

__all__ = ["RELATION_GROUPS", "FUN_RELATIONS", "TABLE2_COLUMNS", "TABLE3_COLUMNS",
           "RelationRow", "relation_row", "average_rows"]

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
    LAS without X minus LAS, and for ``CLAS-LAS`` CLAS minus LAS."""

    scores: Mapping[str, Score]

    def value(self, column: str) -> float:
        las = self.scores["LAS"].f1
        if column == "CLAS-LAS":
            return 100 * (self.scores["CLAS"].f1 - las)
        if column.startswith("LAS-"):
            return 100 * (self.scores["without:" + column[4:]].f1 - las)
        return 100 * self.scores[column].f1


def _score(gold_in: np.ndarray, sys_in: np.ndarray, correct: np.ndarray) -> Score:
    """F1 counts over the words passing the filter on each side; ``correct`` per gold word."""
    return Score(int(np.count_nonzero(correct & gold_in)), int(np.count_nonzero(gold_in)),
                 int(np.count_nonzero(sys_in)))


def relation_row(gold, system, alignment) -> RelationRow:
    """Every score of Tables 2 and 3 for one aligned pair (treebanks and their alignment)."""
    from .counting import AnalysisPair, word_correctness
    pair = AnalysisPair.from_treebanks(gold, system, alignment, universal_deprel=True)
    gold_correct, _ = word_correctness("LAS", pair)  # aligned, head and relation right
    vocab = gold.vocab
    gold_rel = pair.gold.string_column("deprel")
    sys_rel = pair.system.string_column("deprel")

    def members(relations) -> Tuple[np.ndarray, np.ndarray]:
        codes = np.array([c for c in (vocab.find(r) for r in relations) if c >= 0],
                         dtype=np.int64)
        return np.isin(gold_rel, codes), np.isin(sys_rel, codes)

    everything = (np.ones(len(gold_rel), dtype=bool), np.ones(len(sys_rel), dtype=bool))
    from ..metrics import CONTENT_DEPRELS
    scores: Dict[str, Score] = {"LAS": _score(*everything, gold_correct),
                                "CLAS": _score(*members(CONTENT_DEPRELS), gold_correct)}
    for name, relations in RELATION_GROUPS.items():
        gold_in, sys_in = members(relations)
        scores[name] = _score(gold_in, sys_in, gold_correct)
        scores["without:" + name] = _score(~gold_in, ~sys_in, gold_correct)
    for relation in FUN_RELATIONS:
        gold_in, sys_in = members([relation])
        scores["without:" + relation] = _score(~gold_in, ~sys_in, gold_correct)
    return RelationRow(scores)


def average_rows(rows: List[Optional[RelationRow]], columns) -> Dict[str, Optional[float]]:
    """The unweighted mean of each column over the treebanks that have a row (a failed one has
    None and is left out); None when none has."""
    present = [row for row in rows if row is not None]
    if not present:
        return {column: None for column in columns}
    return {column: sum(row.value(column) for row in present) / len(present)
            for column in columns}
