"""MaltEval's facts about its built-in groupings: per grouping (``--GroupBy`` name) whether
its table has plain accuracy or per-side columns, the metric it corresponds to, what ``self``
means for it, whether details and column headers show by default, and whether it can be part
of a complex grouping.

A table of constants with no dependencies: :mod:`conll_eval.analyze.options` (the command
line) and :mod:`conll_eval.analyze.groupings` (the registry) both read it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional

__all__ = ["GroupingInfo", "BUILTIN_GROUPINGS"]


@dataclass(frozen=True)
class GroupingInfo:
    """What MaltEval's grouping class answers: plain accuracy or per-side columns, the metric
    it corresponds to (a ``String.contains`` pattern), the name ``self`` stands for, whether
    details / column headers (Row mean, Row count) show by default, and whether it can be part
    of a complex grouping."""

    name: str
    simple_accuracy: bool
    corresponding_metric: Optional[str]
    self_metric: str
    show_details: bool
    show_table_header: bool
    complex_item: bool


def _info(name, simple, corresponding=None, self_name=None, details=True, header=False,
          complex_item=False) -> GroupingInfo:
    return GroupingInfo(name, simple, corresponding, self_name or name, details, header,
                        complex_item)


_BOTH = "BothRight"
#: every grouping MaltEval knows, keyed by name, in its TreeMap (``String.compareTo``) order;
#: the registry (:mod:`conll_eval.analyze.groupings`) holds them with their key functions,
#: and plugins beside them
BUILTIN_GROUPINGS: Dict[str, GroupingInfo] = {g.name: g for g in (
    _info("ArcDepth", False),
    _info("ArcDirection", False, "DirectionRight"),
    _info("ArcProjectivity", False),
    _info("BranchingFactor", False),
    _info("Clustering", True, self_name="SentenceAndToken"),
    _info("Clustering2", True, self_name="SentenceAndToken"),
    _info("Cpostag", True, self_name=_BOTH, complex_item=True),
    _info("Deprel", False, "LabelRight|LA"),
    _info("EndWordPosition", True, self_name=_BOTH),
    _info("Feats", True, self_name=_BOTH, complex_item=True),
    _info("Frame", False),
    _info("GroupedRelationLength", False, "GroupedHeadToChildDistanceRight"),
    _info("Lemma", True, self_name=_BOTH, complex_item=True),
    _info("Postag", True, self_name=_BOTH, complex_item=True),
    _info("PreAndPost", True),
    _info("RelationLength", False, "HeadToChildDistanceRight"),
    _info("RelativeWordPosition", True, self_name=_BOTH),
    _info("Sentence", False, self_name=_BOTH, details=False, header=True),
    _info("SentenceLength", True, self_name=_BOTH),
    _info("StartWordPosition", True, self_name=_BOTH),
    _info("Token", False, self_name=_BOTH, details=False, header=True),
    _info("Wordform", True, self_name=_BOTH, complex_item=True),
)}
