"""The metrics a client's own relation and feature sets change (UFeats, AllTags, CLAS, MLAS,
BLEX), rescored on the official per-word objects over conll_eval's alignment.

Only a client that edited ``CONTENT_DEPRELS``, ``FUNCTIONAL_DEPRELS`` or ``UNIVERSAL_FEATURES``
before loading comes here (the official scripts read them while loading); everyone else is
scored on the columns."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Dict, List, Optional

from ..align import Alignment
from ..stats import Score
from ._columns import DEPREL, FEATS, LEMMA, UPOS, XPOS

if TYPE_CHECKING:  # the official objects, for the annotations only (they are built in _base)
    from ._base import UDRepresentation, UDWord

#: the metrics the sets reach: (filter on content words, key of a word given the gold-side map)
_KEYS: Dict[str, tuple] = {
    "UFeats": (False, lambda w, ga: w.columns[FEATS]),
    "AllTags": (False, lambda w, ga: (w.columns[UPOS], w.columns[XPOS], w.columns[FEATS])),
    "CLAS": (True, lambda w, ga: (ga(w.parent), w.columns[DEPREL])),
    "MLAS": (True, lambda w, ga: (ga(w.parent), w.columns[DEPREL], w.columns[UPOS], w.columns[FEATS],
                                  [(ga(c), c.columns[DEPREL], c.columns[UPOS], c.columns[FEATS])
                                   for c in w.functional_children])),
    "BLEX": (True, lambda w, ga: (ga(w.parent), w.columns[DEPREL],
                                  w.columns[LEMMA] if ga(w).columns[LEMMA] != "_" else "_")),
}


def rescore(gold_ud: UDRepresentation, system_ud: UDRepresentation, alignment: Alignment,
            names: List[str]) -> Dict[str, Score]:
    """Scores of those of ``names`` the sets change, each word judged with the sets its file
    was loaded with (a gold word of a metric filtered to content words counts when its own
    relation is a content relation)."""
    gold, system = gold_ud.words, system_ud.words
    pairs = list(zip(alignment.gold_idx.tolist(), alignment.sys_idx.tolist()))
    gold_of_system = {id(system[s]): gold[g] for g, s in pairs}

    def on_gold(word: Optional[UDWord]):
        return word

    def on_system(word: Optional[UDWord]):
        return None if word is None else gold_of_system.get(id(word), "NotAligned")

    scores = {}
    for name in names:
        if name not in _KEYS:
            continue
        content, key = _KEYS[name]
        keep: Callable[[UDWord], bool] = (lambda w: w.is_content_deprel) if content else (lambda w: True)
        aligned = [(gold[g], system[s]) for g, s in pairs if keep(gold[g])]
        correct = sum(1 for g, s in aligned if key(g, on_gold) == key(s, on_system))
        scores[name] = Score(correct, sum(1 for w in gold if keep(w)), sum(1 for w in system if keep(w)),
                             len(aligned))
    return scores
