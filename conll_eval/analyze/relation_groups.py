"""The relation groups of Nivre and Fang (2017, the CLAS paper) and the columns of the
breakdown's tables, by name: definitions only, without numpy, so the command line's help,
completion and man pages read them without loading the analyses (start-up time).
:mod:`.relations` computes the scores and gives these names too."""
from __future__ import annotations

from typing import Dict, FrozenSet

__all__ = ["RELATION_GROUPS", "FUN_RELATIONS", "TABLE2_COLUMNS", "TABLE3_COLUMNS", "ENHANCED_COLUMNS"]

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
#: the enhanced table (``--tables e``): ELAS, and ELAS within groups of enhanced edges
ENHANCED_COLUMNS = ("ELAS", "E-CORE", "E-NON-CORE", "E-FUN", "E-REF", "E-CONJ", "E-CASE")
