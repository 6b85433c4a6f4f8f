"""Cached verdicts on field values for the validator's node checks: whether a word's values can
give a level 3-5 node finding (zero root, enhanced root and orphan, the language's features and
relations), judged once per distinct combination by running the checks on those values alone.

The checks themselves stay the reference: a word whose verdict is "may find something" goes
through them as usual, and a verdict is only kept for words whose findings depend on nothing else
(no Lang in MISC, no spaces, no Typo at a multiword token).
"""
from __future__ import annotations

from typing import Dict, List

from .patterns import DEPREL, DEPS, FEATS, FORM, HEAD, LEMMA, MISC, UPOS, _RE_WS_START

#: verdicts kept (:meth:`ValueVerdicts._remember`) before the set starts afresh
VALUE_VERDICTS_LIMIT = 1 << 16


class ValueVerdicts:
    """The cached verdicts (a mixin of :class:`conll_eval.validate.backbone.Validator`, whose
    checks it runs; ``_value_verdicts`` is set up by the level-3 state)."""

    _value_verdicts: Dict[tuple, bool]

    def _remember(self, key: tuple, verdict: bool) -> None:
        """Keep a verdict on field values (key: the check's name and the values); the set
        starts afresh when it is full (bounded memory)."""
        if len(self._value_verdicts) > VALUE_VERDICTS_LIMIT:
            self._value_verdicts.clear()
        self._value_verdicts[key] = verdict

    def _plain_edeps(self, deps: str) -> bool:
        """Whether a word's DEPS (not '_') has neither a root mismatch nor an orphan, so that
        the enhanced root and orphan checks find nothing and change no state (cached)."""
        key = ("edeps", deps)
        found = self._value_verdicts.get(key)
        if found is None:
            found = True
            for item in deps.split("|"):
                head, _, rel = item.partition(":")
                udep = rel.split(":", 1)[0]
                if (head == "0") != (udep == "root") or udep == "orphan":
                    found = False
            self._remember(key, found)
        return found

    def _silent_node(self, cols: List[str]) -> bool:
        """Whether the node checks of a word (zero root, enhanced root and orphan, levels 4-5:
        the language's lists) find nothing and change no state: a verdict cached on the
        values they read, for words without a MISC Lang (other lists) or spaces."""
        if "Lang" in cols[MISC]:
            return False
        if self.level >= 4 and (_RE_WS_START.search(cols[FORM]) is not None
                                or _RE_WS_START.search(cols[LEMMA]) is not None):
            return False
        upos, deprel = cols[UPOS], cols[DEPREL]
        lemma = cols[LEMMA] if upos == "AUX" or deprel.startswith("cop") else "_"
        key = ("node", cols[HEAD] == "0", upos, cols[FEATS], deprel, cols[DEPS], lemma)
        found = self._value_verdicts.get(key)
        if found is None:
            found = self._node_verdict(key)
            self._remember(key, found)
        return found

    def _node_verdict(self, key: tuple) -> bool:
        """The node checks run on a word made of ``key``'s values (see _silent_node)."""
        _, at_root, upos, feats, deprel, deps, lemma = key
        if deps != "_" and not self._plain_edeps(deps):
            return False
        cols = ["1", "x", lemma, upos, "_", feats, "0" if at_root else "1", deprel, deps, "_"]
        saved, self.out = self.out, []
        self._zero_root(cols, 0)
        if self.level >= 4:
            self._language_checks(cols, 0, False, {}, {})
        found, self.out = not self.out, saved
        return found

    def _silent_feats(self, upos: str, feats: str) -> bool:
        """Whether a plain word's UPOS and FEATS give no feature finding (cached)."""
        if feats == "_":
            return True
        key = ("feats", upos, feats)
        found = self._value_verdicts.get(key)
        if found is None:
            saved, self.out = self.out, []
            self._feature_values(["1", "x", "_", upos, "_", feats, "0", "_", "_", "_"], 0,
                                 False, {})
            found, self.out = not self.out, saved
            self._remember(key, found)
        return found

    def _silent_deps(self, deps: str) -> bool:
        """Whether every enhanced relation of a plain word's DEPS is the language's (cached)."""
        if deps == "_":
            return True
        key = ("deps", deps)
        found = self._value_verdicts.get(key)
        if found is None:
            allowed = self.data.edeprels_of(self.lang)
            found = all(item.partition(":")[2] in allowed for item in deps.split("|"))
            self._remember(key, found)
        return found
