"""The screen's second stage, for levels 3-5: which sentences the compiled screen passed can have
no content finding at all (zero root, UPOS vs DEPREL, expected features, the basic-tree checks,
the language's lists), so that their level 3-5 checks are skipped too.

Each check is over-approximated by a test on the block's columns (numpy): the values of a word
judged once per distinct combination by the checks themselves (a one-word sentence made of the
values), and the tree checks by conditions every finding implies (two subjects under one head,
a left-headed relation pointing left, a non-projective tree, a function word with a child it
may not have, ...).  A sentence any test flags takes the usual checks, so a wrong guess costs
time, never an incident; the tests compare with the line-by-line path.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence

import numpy as np

from ..compiled import cvalidate
from .backbone import Validator
from .contents import (FUNCTIONAL, LEAF_ALLOWED, LEFT_HEADED, NOMINAL_PARENT_RELS, Finding,
                       Words)

#: the order of the screen's interned columns (conll_eval._cvalidate.CODE_COLUMNS)
UPOS_CODES, FEATS_CODES, DEPREL_CODES, DEPS_CODES, MISC_CODES, LEMMA_CODES = range(6)
_FUNCTIONAL = sorted(FUNCTIONAL)
_NOMINAL_UPOS = frozenset(("NOUN", "PROPN", "PRON"))
#: relations whose words always take the usual checks (rare, with checks of their own)
_SPECIAL_UDEPRELS = frozenset(("orphan", "fixed", "goeswith"))
#: verdicts kept per kind before they start afresh (bounded memory)
VERDICTS_LIMIT = 1 << 16
if cvalidate is not None:
    _NONPROJECTIVE = cvalidate.SENTENCE_FLAGS["nonprojective"]
    _SPACED = cvalidate.TOKEN_FLAGS["spaced"]


class _CodeProperties:
    """Properties of each code of one interned column, as numpy arrays indexed by code + 1
    (index 0: no such field); extended as the column's table grows, rebuilt after it starts
    afresh."""

    def __init__(self, properties: Dict[str, Callable[[str], object]], dtype=bool):
        self.properties = properties
        self.dtype = dtype
        self.arrays: Dict[str, np.ndarray] = {}
        self.count = 0
        self._values: object = None

    def update(self, values: Sequence[str]) -> None:
        if values is not self._values:  # a new table
            self._values = values
            self.count = 0
            self.arrays = {name: np.zeros(1, self.dtype) for name in self.properties}
        if len(values) == self.count:
            return
        new = values[self.count:]
        for name, prop in self.properties.items():
            self.arrays[name] = np.concatenate(
                [self.arrays[name], np.array([prop(v) for v in new], self.dtype)])
        self.count = len(values)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]


class _Identity:
    """Equal when it wraps the very same object (a table's value list: a new list, new
    codes)."""

    __slots__ = ("obj",)

    def __init__(self, obj: object):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class _PairVerdicts:
    """Verdicts on pairs of codes, each pair judged once; forgotten when a table they come
    from starts afresh (its codes change meaning)."""

    def __init__(self, judge: Callable[[int, int], bool]):
        self.judge = judge
        self.known: Dict[int, bool] = {}
        self.tables: tuple = ()

    def __call__(self, first: np.ndarray, second: np.ndarray, tables: tuple) -> np.ndarray:
        """The verdicts of the pairs (codes >= 0, below 2**31); ``tables``: the two columns'
        value lists (new lists: new codes)."""
        if tables != self.tables or len(self.known) > VERDICTS_LIMIT:  # bounded memory
            self.known = {}
            self.tables = tables
        if first.shape[0] == 0:
            return np.ones(0, dtype=bool)
        packed = (first.astype(np.int64) << 32) | second.astype(np.int64)
        unique, inverse = np.unique(packed, return_inverse=True)
        known = self.known
        verdicts = np.empty(unique.shape[0], dtype=bool)
        for k, key in enumerate(unique.tolist()):
            found = known.get(key)
            if found is None:
                found = known[key] = self.judge(key >> 32, key & 0xFFFFFFFF)
            verdicts[k] = found
        return verdicts[inverse]


class ContentScreen:
    """Decides, block by block, which clean sentences have no level 3-5 finding (see the
    module docstring).  ``values`` are the decoded values of the screen's six tables (lists
    that grow, replaced when a table starts afresh)."""

    def __init__(self, validator: Validator, values: Callable[[int], List[str]]):
        self.v = validator
        self.values = values
        self.deprels = _CodeProperties({
            "root": lambda d: d.split(":", 1)[0] == "root",
            "left_headed": lambda d: d.split(":", 1)[0] in LEFT_HEADED,
            "subject": lambda d: "subj" in d.split(":", 1)[0],
            "object": lambda d: d.split(":", 1)[0] == "obj",
            "obl": lambda d: d.split(":", 1)[0] == "obl",
            "nominal_parent": lambda d: d.split(":", 1)[0] in NOMINAL_PARENT_RELS,
            "special": lambda d: d.split(":", 1)[0] in _SPECIAL_UDEPRELS or d == "flat:foreign",
            "auxcop": lambda d: d.startswith("cop"),
            "allowed": lambda d: validator.level < 4 or d in validator.data.deprels_of(
                validator.lang)})
        self.leaves = _CodeProperties(
            {"kind": lambda d: (_FUNCTIONAL.index(d.split(":", 1)[0]) + 1
                                if d.split(":", 1)[0] in FUNCTIONAL else 0)}, np.int8)
        self.leaf_allowed = _CodeProperties(
            {kind: (lambda d, kind=kind: d.split(":", 1)[0] in LEAF_ALLOWED[kind])
             for kind in _FUNCTIONAL})
        self.upos = _CodeProperties({"nominal": lambda u: u in _NOMINAL_UPOS,
                                     "aux": lambda u: u == "AUX"})
        self.misc = _CodeProperties({"plain": lambda m: "Lang" not in m and m != "Empty=Yes"})
        self.deps = _CodeProperties({"plain": self._plain_deps})
        self.feats = _CodeProperties({"extpos": lambda f: "ExtPos" in f})
        self.word_features = _PairVerdicts(self._word_features)
        self.word_relation = _PairVerdicts(self._word_relation)
        self._auxcop_known: Dict[tuple, bool] = {}
        self._auxcop_tables: tuple = ()

    def _plain_deps(self, deps: str) -> bool:
        v = self.v
        return deps == "_" or (v._plain_edeps(deps) and (v.level < 4 or v._silent_deps(deps)))

    def _value(self, column: int, code: int) -> str:
        return self.values(column)[code]

    def _word_findings(self, cols: List[str], check) -> bool:
        """Whether a one-word sentence of these values gets no finding from ``check`` (a
        basic-tree check of the validator)."""
        findings: List[Finding] = []
        check(Words([cols], 1), findings)
        return not findings

    def _word_features(self, upos: int, feats: int) -> bool:
        u, f = self._value(UPOS_CODES, upos), self._value(FEATS_CODES, feats)
        cols = ["1", "x", "_", u, "_", f, "0", "root", "_", "_"]
        return (self._word_findings(cols, self.v._expected_features)
                and (self.v.level < 4 or self.v._silent_feats(u, f)))

    def _word_relation(self, deprel: int, upos: int) -> bool:
        d, u = self._value(DEPREL_CODES, deprel), self._value(UPOS_CODES, upos)
        return self._word_findings(["1", "x", "_", u, "_", "_", "0", d, "_", "_"],
                                   self.v._upos_vs_deprel)

    def _auxcop_verdicts(self, lemma: np.ndarray, upos: np.ndarray, deprel: np.ndarray,
                         tables: tuple) -> np.ndarray:
        """Per auxiliary or copula word (codes): its lemma is on the language's lists."""
        if tables != self._auxcop_tables or len(self._auxcop_known) > VERDICTS_LIMIT:
            self._auxcop_known = {}
            self._auxcop_tables = tables
        known = self._auxcop_known
        out = np.empty(lemma.shape[0], dtype=bool)
        for k, key in enumerate(zip(lemma.tolist(), upos.tolist(), deprel.tolist())):
            found = known.get(key)
            if found is None:
                cols = ["1", "x", self._value(LEMMA_CODES, key[0]),
                        self._value(UPOS_CODES, key[1]), "_", "_", "1",
                        self._value(DEPREL_CODES, key[2]), "_", "_"]
                saved, self.v.out = self.v.out, []
                self.v._aux_cop(cols, 0, False)
                found, self.v.out = not self.v.out, saved
                known[key] = found
            out[k] = found
        return out

    def silent(self, found: dict, clean: np.ndarray) -> np.ndarray:
        """Per sentence of the block: clean and free of any level 3-5 finding."""
        for props, column in ((self.deprels, DEPREL_CODES), (self.leaves, DEPREL_CODES),
                              (self.leaf_allowed, DEPREL_CODES), (self.upos, UPOS_CODES),
                              (self.misc, MISC_CODES), (self.deps, DEPS_CODES),
                              (self.feats, FEATS_CODES)):
            props.update(self.values(column))
        sentence = found["token_sentence"]
        words = np.flatnonzero(clean[sentence] & (found["position"] > 0))
        flagged = self._flagged_words(found, words)
        silent = clean & ~(found["flags"] & _NONPROJECTIVE).astype(bool)
        silent[sentence[words[flagged]]] = False
        silent[sentence[self._crowded_heads(found, words)]] = False
        return silent

    def _flagged_words(self, found: dict, words: np.ndarray) -> np.ndarray:
        """Per word (of clean sentences): a check might find something at or under it."""
        codes = found["codes"][:, words] + 1  # index 0: no such field
        upos, feats, deprel = codes[UPOS_CODES], codes[FEATS_CODES], codes[DEPREL_CODES]
        tables = [_Identity(self.values(k)) for k in range(6)]
        d = self.deprels
        parent = found["parent"][words]
        has_parent = parent >= 0
        parent_codes = found["codes"][:, np.where(has_parent, parent, 0)] + 1
        flagged = (d["special"][deprel] | ~d["allowed"][deprel] | self.feats["extpos"][feats]
                   | ~self.misc["plain"][codes[MISC_CODES]]
                   | ~self.deps["plain"][codes[DEPS_CODES]]
                   | (has_parent == d["root"][deprel]))  # zero root, root not at 0
        if self.v.level >= 4:
            flagged |= (found["token_flags"][words] & _SPACED).astype(bool)
        position = found["position"][words]
        flagged |= d["left_headed"][deprel] & has_parent & (
            position < found["position"][np.where(has_parent, parent, 0)])
        flagged |= (d["obl"][deprel] & has_parent & self.upos["nominal"][parent_codes[UPOS_CODES]]
                    & d["nominal_parent"][parent_codes[DEPREL_CODES]])
        kind = np.where(has_parent, self.leaves["kind"][parent_codes[DEPREL_CODES]], 0)
        for k, name in enumerate(_FUNCTIONAL, 1):
            under = kind == k
            if under.any():
                flagged[under] |= ~self.leaf_allowed[name][deprel[under]]
        flagged |= ~self.word_features(upos - 1, feats - 1, (tables[UPOS_CODES],
                                                             tables[FEATS_CODES]))
        flagged |= ~self.word_relation(deprel - 1, upos - 1, (tables[DEPREL_CODES],
                                                              tables[UPOS_CODES]))
        if self.v.level >= 5:
            auxcop = self.upos["aux"][upos] | d["auxcop"][deprel]
            if auxcop.any():
                flagged[auxcop] |= ~self._auxcop_verdicts(
                    codes[LEMMA_CODES][auxcop] - 1, upos[auxcop] - 1, deprel[auxcop] - 1,
                    (tables[LEMMA_CODES], tables[UPOS_CODES], tables[DEPREL_CODES]))
        return flagged

    def _crowded_heads(self, found: dict, words: np.ndarray) -> np.ndarray:
        """Tokens (of clean sentences) with two subjects or two objects among their children."""
        parent = found["parent"][words]
        deprel = found["codes"][DEPREL_CODES][words] + 1
        crowded = []
        for name in ("subject", "object"):
            under = parent[self.deprels[name][deprel] & (parent >= 0)]
            counts = np.bincount(under, minlength=1)
            crowded.append(np.flatnonzero(counts >= 2))
        return np.concatenate(crowded)

