"""Metric definitions (:class:`MetricSpec`, the ``METRICS`` registry) and the profiles.

A metric is the official ``(key_fn, filter_fn)`` pair made explicit: which word columns must
match on an aligned pair, whether the head must match, which words count (CLAS content
words, conll17 zero weights), and extras (MLAS functional children, the gold ``_`` lemma
rule).  :func:`compute_counts` turns a spec into per-sentence :class:`~conll_eval.stats.Counts`
with array operations only; it is the reference for
:mod:`~conll_eval.compiled_counts`, which counts
Tokens, Words and the attribute metrics of a pair in one compiled pass when the compiled
core is built (profiling: the numpy metrics took a quarter of a million-word run's time and
added ~120 MB of per-word temporaries to its peak).
"""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Dict, Mapping, Optional, Tuple

import numpy as np

from .align import Alignment, span_matches
from .enhancements import ENHANCEMENT_DIGITS, EnhancedOptions  # noqa: F401  (part of this API)
from .errors import FormatError, Location
from .io.byte_input import os_error, read_lines
from .io.lines import read_config
from .io.profiles import LazyRegex
from .metric_specs import (DEPREL_POLICIES, DISPLAY_NAME, ENHANCED_METRICS, EXTRA_METRICS,  # noqa: F401
                           METRICS, PROFILES, PUNCT_POLICIES, MetricSpec, Profile, display_name,
                           profile_metrics, register_metric, register_profile)
from .stats import Counts
from .treebank import Treebank, Vocab

if TYPE_CHECKING:  # the enhanced graphs are built only when ELAS/EULAS are scored
    from .enhanced import EnhancedGraph

__all__ = [
    "UNIVERSAL_FEATURES", "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "CLAS17_ZERO_WEIGHT",
    "MetricSpec", "Profile", "METRICS", "PROFILES", "register_metric", "register_profile",
    "EvaluationContext", "compute_counts", "load_weights",
]

UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number",
    "Case", "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident",
    "Polarity", "Person", "Polite"})
CONTENT_DEPRELS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl", "dislocated",
    "advcl", "advmod", "discourse", "nmod", "appos", "nummod", "acl", "amod", "conj", "fixed",
    "flat", "compound", "list", "parataxis", "orphan", "goeswith", "reparandum", "root", "dep"})
FUNCTIONAL_DEPRELS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
#: conll17 CLAS: every relation weighs 1 except these.
CLAS17_ZERO_WEIGHT = frozenset({"aux", "case", "cc", "clf", "cop", "det", "mark", "punct"})

NOT_ALIGNED = -2  # parent of a system word whose parent has no gold partner
ROOT = -1


#: UD v1 relation names -> their v2 names (``--deprel v1``)
UD_V1_TO_V2 = {"dobj": "obj", "nsubjpass": "nsubj:pass", "csubjpass": "csubj:pass",
               "auxpass": "aux:pass", "name": "flat:name", "mwe": "fixed", "neg": "advmod",
               "remnant": "orphan", "foreign": "flat:foreign"}
_PUNCTUATION_FORM = LazyRegex(r"^\p{P}+$")


def load_weights(path: str) -> Dict[str, float]:
    """Read a ``deprel weight`` file like conll17's ``-w`` (comments ``#`` and blank lines skipped).
    It is read whole within the limits of a small file (:func:`~conll_eval.io.lines.read_config`:
    ``line-too-long``, ``file-too-large``)."""

    weights: Dict[str, float] = {}
    try:
        data = read_config(path, "a weights file")
    except OSError as exc:
        raise os_error(path, exc, "a weights file") from exc
    for number, line in enumerate(read_lines(data, path), 1):
        if line.startswith("#") or not line.strip():
            continue
        columns = line.split()
        if len(columns) != 2:
            raise FormatError(Location(path, number), "invalid-weights",
                              f"expected two columns 'deprel weight', found {len(columns)}",
                              official=f"Expected two columns in the UD Relations weights file on line '{line}\n'")
        try:
            weights[columns[0]] = float(columns[1])
        except ValueError as exc:
            raise FormatError(Location(path, number), "invalid-weights",
                              f"weight {columns[1]!r} is not a number",
                              official=f"could not convert string to float: '{columns[1]}'") from exc
    return weights


# ---------------------------------------------------------------------------------------------
# Computation

def _ufeats(feats: str) -> str:
    kept = [f for f in feats.split("|") if f.partition("=")[0] in UNIVERSAL_FEATURES]
    kept.sort()
    return "|".join(kept)


def universal_deprel(deprel: str) -> str:
    """The universal part of a relation, as the UD scorers compare it: ``acl:relcl`` -> ``acl``."""
    return deprel.split(":")[0]


_udeprel = universal_deprel


#: the universal relation of each v1 name's v2 relation (nsubjpass -> nsubj)
_V1_UNIVERSAL = {v1: universal_deprel(v2) for v1, v2 in UD_V1_TO_V2.items()}


def _udeprel_v1(deprel: str) -> str:
    """The universal relation of a UD v1 or v2 label, v1 names renamed (``dobj`` -> ``obj``;
    ``name:x`` is ``name``'s: the v1 names have no subtype)."""
    universal = universal_deprel(deprel)
    return _V1_UNIVERSAL.get(universal, universal)


class _DerivedColumns:
    """The per-word columns an evaluation derives from a side's own columns (the universal
    relation, content and functional words, the words scored under ``--punct``, the weights
    of ``--weights``), each computed once into the context's cache."""

    gold: Treebank
    system: Treebank
    vocab: Vocab
    weights: Optional[Mapping[str, float]]
    punct: str
    deprel: str
    _cache: Dict[Tuple[str, str], np.ndarray]

    def column(self, side: str, name: str) -> np.ndarray:
        """Derived per-word column (``side`` = ``gold`` or ``system``)."""
        key = (side, name)
        if key not in self._cache:
            tb = {"gold": self.gold, "system": self.system}[side]  # another side: KeyError
            vocab = self.vocab
            if name in ("upos", "xpos", "feats", "lemma", "form", "deprel"):
                value = getattr(tb, name)
            elif name == "ufeats":
                value = vocab.map_codes("ufeats", _ufeats, tb.feats)
            elif name == "udeprel":  # the relation as compared (--deprel)
                if self.deprel == "full":
                    value = tb.deprel
                elif self.deprel == "v1":
                    value = self.column(side, "uni")
                else:
                    value = vocab.map_codes("udeprel", _udeprel, tb.deprel)
            elif name == "uni":  # the universal relation, v1 names renamed under --deprel v1
                if self.deprel == "v1":
                    value = vocab.map_codes("udeprel-v1", _udeprel_v1, tb.deprel)
                else:
                    value = vocab.map_codes("udeprel", _udeprel, tb.deprel)
            elif name == "content":
                value = vocab.flags("content", CONTENT_DEPRELS.__contains__, self.column(side, "uni"))
            elif name == "functional":
                value = vocab.flags("functional", FUNCTIONAL_DEPRELS.__contains__, self.column(side, "uni"))
            elif name == "clas17":
                value = (~vocab.flags("clas17", CLAS17_ZERO_WEIGHT.__contains__, self.column(side, "uni"))
                         ).astype(np.int64)
            elif name == "scored":  # words the attachment metrics score (--punct)
                value = self._scored(side, tb)
            elif name == "file":
                weights = self.weights or {}
                codes = self.column(side, "uni")
                distinct, inverse = np.unique(codes, return_inverse=True)
                table = np.array([weights.get(vocab.strings[c], 1.0) for c in distinct.tolist()],
                                 dtype=np.float64)
                value = table[inverse.reshape(-1)]
            else:
                raise KeyError(name)
            self._cache[key] = value
        return self._cache[key]

    def _scored(self, side: str, tb: Treebank) -> np.ndarray:
        """Per word: does the punctuation policy keep it (each side on its own words)?"""
        vocab = self.vocab
        if self.punct == "deprel":
            return ~vocab.flags("is-punct-deprel", "punct".__eq__, self.column(side, "uni"))
        if self.punct == "upos":
            return ~vocab.flags("is-punct-upos", "PUNCT".__eq__, tb.upos)
        if self.punct == "unicode":  # on the FORM as written: ": )" is no punctuation
            return ~vocab.flags("is-punct-form", lambda s: bool(_PUNCTUATION_FORM.match(s)),
                                tb.column("written_form"))
        return np.ones(tb.n_words, dtype=bool)


class EvaluationContext(_DerivedColumns):
    """Gold, system and their alignment, with derived columns computed once."""

    def __init__(self, gold: Treebank, system: Treebank, alignment: Alignment,
                 weights: Optional[Mapping[str, float]] = None, punct: str = "include",
                 deprel: str = "universal"):
        if gold.vocab is not system.vocab:
            raise ValueError("gold and system must share one Vocab")
        self.gold = gold
        self.system = system
        self.alignment = alignment
        self.weights = weights
        self.punct = punct
        self.deprel = deprel
        self.vocab = gold.vocab
        self._cache: Dict[Tuple[str, str], np.ndarray] = {}
        self.n_sentences = gold.n_sentences
        self.tallies: dict = {}  # shared per-sentence tallies of the index arrays below
        #: how ELAS/EULAS count (``official`` or ``set``) and the enhanced switches
        self.enhanced_mode = "set"
        self.enhanced_options = EnhancedOptions()

    def enhanced_graph(self, side: str) -> "EnhancedGraph":
        """The enhanced graph of one side (parsed once for ELAS and EULAS)."""
        from .enhanced import enhanced_graph  # only when ELAS/EULAS are scored (start-up time)
        if (side, "enhanced") not in self._cache:
            self._cache[(side, "enhanced")] = enhanced_graph(
                self.gold if side == "gold" else self.system, self.enhanced_options)
        return self._cache[(side, "enhanced")]

    @property
    def ga(self) -> np.ndarray:
        """The gold word of each aligned pair."""
        return self.alignment.gold_idx

    @property
    def sa(self) -> np.ndarray:
        """The system word of each aligned pair."""
        return self.alignment.sys_idx

    @cached_property
    def sys_word_sent(self) -> np.ndarray:
        """The gold sentence of each system word: the one holding its first character."""
        return self.gold.sentence_of_chars(self.system.word_start)

    @cached_property
    def aligned_sent(self) -> np.ndarray:
        """The gold sentence of each aligned pair."""
        return self.gold.word_sent[self.ga]

    def content_sentences(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sentence indices of gold, system and aligned content words (cached arrays)."""
        if ("content", "sentences") not in self._cache:
            g_keep = self.column("gold", "content")
            s_keep = self.column("system", "content")
            self._cache[("content", "sentences")] = (
                self.gold.word_sent[g_keep], self.sys_word_sent[s_keep], self.aligned_sent[g_keep[self.ga]])
        return self._cache[("content", "sentences")]

    def mapped_parent(self) -> Tuple[np.ndarray, np.ndarray]:
        """For aligned pairs: gold parent vs the gold partner of the system parent.

        Root is -1 on both sides; a system parent without partner is -2 (never equal).
        """
        if ("pair", "parent") not in self._cache:
            gold_parent = self.gold.head[self.ga]
            sys_parent = self.system.head[self.sa]
            partner = np.where(sys_parent < 0, ROOT,
                               self.alignment.sys_to_gold[np.maximum(sys_parent, 0)])
            partner = np.where((sys_parent >= 0) & (partner < 0), NOT_ALIGNED, partner)
            self._cache[("pair", "parent")] = gold_parent
            self._cache[("pair", "sysparent")] = partner
        return self._cache[("pair", "parent")], self._cache[("pair", "sysparent")]

    def pair_equal(self, name: str) -> np.ndarray:
        """Boolean per aligned pair: does the derived column ``name`` agree?"""
        if name == "lemma18":
            lemma_g = self.column("gold", "lemma")[self.ga]
            lemma_s = self.column("system", "lemma")[self.sa]
            underscore = self.vocab.code("_")
            return (lemma_g == underscore) | (lemma_g == lemma_s)
        return self.column("gold", name)[self.ga] == self.column("system", name)[self.sa]

    def functional_children_equal(self) -> np.ndarray:
        """Per aligned pair: do the MLAS functional-children lists agree element-wise?"""
        gold_lists = self._children("gold")
        sys_lists = self._children("system")
        g_off, g_child = gold_lists
        s_off, s_child = sys_lists
        ga, sa = self.ga, self.sa
        g_n = g_off[ga + 1] - g_off[ga]
        s_n = s_off[sa + 1] - s_off[sa]
        equal = g_n == s_n
        todo = np.flatnonzero(equal & (g_n > 0))
        if len(todo) == 0:
            return equal
        n = g_n[todo]
        pair_of_item = np.repeat(todo, n)
        within = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
        gc = g_child[g_off[ga[pair_of_item]] + within]
        sc = s_child[s_off[sa[pair_of_item]] + within]
        partner = self.alignment.sys_to_gold[sc]
        ok = partner == gc  # unaligned system child (-1) never equals a gold index
        for name in ("udeprel", "upos", "ufeats"):
            ok &= self.column("gold", name)[gc] == self.column("system", name)[sc]
        bad = np.bincount(pair_of_item[~ok], minlength=len(ga)) > 0
        return equal & ~bad

    def _children(self, side: str) -> Tuple[np.ndarray, np.ndarray]:
        """CSR lists of functional children per word (children in word order)."""
        key = (side, "fchildren")
        if key not in self._cache:
            tb = self.gold if side == "gold" else self.system
            child = np.flatnonzero(self.column(side, "functional") & (tb.head >= 0))
            parent = tb.head[child]
            order = np.argsort(parent, kind="stable")
            child = child[order].astype(np.int32)
            offsets = np.zeros(tb.n_words + 1, dtype=np.int32)
            np.cumsum(np.bincount(parent, minlength=tb.n_words), out=offsets[1:])
            self._cache[key] = (offsets, child)
            self._cache[(side, "fchildren-list")] = child
        return self._cache[key]


def compute_counts(spec: MetricSpec, ctx: EvaluationContext) -> Counts:
    """Per-gold-sentence counts of one metric."""
    gold, system = ctx.gold, ctx.system
    n = ctx.n_sentences
    if spec.kind == "tokens":
        gi, _ = span_matches(gold.tok_start, gold.tok_end, system.tok_start, system.tok_end)
        g_sent = gold.sentence_of_chars(gold.tok_start)
        s_sent = gold.sentence_of_chars(system.tok_start)
        return Counts.from_parts(n, g_sent[gi], g_sent, s_sent, has_aligned_accuracy=False)
    if spec.kind == "sentences":
        gi, _ = span_matches(gold.sent_char_start, gold.sent_char_end,
                             system.sent_char_start, system.sent_char_end)
        s_sent = gold.sentence_of_chars(system.sent_char_start)
        return Counts.from_parts(n, gi, np.arange(n), s_sent, has_aligned_accuracy=False)
    ga = ctx.ga
    g_sent = gold.word_sent
    s_sent = ctx.sys_word_sent
    a_sent = ctx.aligned_sent
    cache = ctx.tallies
    if spec.kind == "words":
        return Counts.from_parts(n, a_sent, g_sent, s_sent, a_sent, has_aligned_accuracy=False, cache=cache)
    if spec.kind == "enhanced":
        from .enhanced import enhanced_counts  # only when ELAS/EULAS are scored (start-up time)
        return enhanced_counts(spec.universal, gold, system, ctx.enhanced_graph("gold"),
                               ctx.enhanced_graph("system"), ctx.alignment.sys_to_gold,
                               ctx.sys_word_sent, ctx.enhanced_mode)

    if ctx.punct != "include" and (spec.head or "udeprel" in spec.columns):
        return _policy_counts(spec, ctx)
    correct = _correct_pairs(spec, ctx)
    if spec.weights is not None:
        g_w = ctx.column("gold", spec.weights)
        s_w = ctx.column("system", spec.weights)
        a_w = g_w[ga]
        if spec.weights == "clas17":  # integer 0/1 weights: plain counts of weight-1 words
            g_keep, s_keep, a_keep = g_w > 0, s_w > 0, a_w > 0
            c_keep = a_keep & correct
            return Counts.from_parts(n, a_sent[c_keep], g_sent[g_keep], s_sent[s_keep], a_sent[a_keep])
        return Counts.from_parts(n, a_sent[correct], g_sent, s_sent, a_sent,
                                 correct_w=a_w[correct], gold_w=g_w, system_w=s_w, aligned_w=a_w)
    if spec.word_filter == "content":
        g_sel, s_sel, a_sel = ctx.content_sentences()
        return Counts.from_parts(n, a_sent[ctx.column("gold", "content")[ga] & correct], g_sel, s_sel,
                                 a_sel, cache=cache)
    return Counts.from_parts(n, a_sent[correct], g_sent, s_sent, a_sent, cache=cache)


def _correct_pairs(spec: MetricSpec, ctx: EvaluationContext) -> np.ndarray:
    """Per aligned pair: does the metric hold?"""
    correct = np.ones(len(ctx.ga), dtype=bool)
    if spec.head:
        gold_parent, sys_parent = ctx.mapped_parent()
        correct &= gold_parent == sys_parent
    for name in spec.columns:
        correct &= ctx.pair_equal(name)
    if spec.functional_children:
        correct &= ctx.functional_children_equal()
    return correct


def _policy_counts(spec: MetricSpec, ctx: EvaluationContext) -> Counts:
    """An attachment metric under a punctuation policy: gold words the policy drops leave the
    gold and aligned counts (and the correct ones), system words it drops the system count --
    each side judged on its own words, as CLAS filters them."""
    gold, n = ctx.gold, ctx.n_sentences
    ga = ctx.ga
    g_keep = ctx.column("gold", "scored")
    s_keep = ctx.column("system", "scored")
    correct = _correct_pairs(spec, ctx)
    if spec.word_filter == "content":
        g_keep = g_keep & ctx.column("gold", "content")
        s_keep = s_keep & ctx.column("system", "content")
    g_sent, s_sent, a_sent = gold.word_sent, ctx.sys_word_sent, ctx.aligned_sent
    if spec.weights is not None:
        g_w = ctx.column("gold", spec.weights) * g_keep
        s_w = ctx.column("system", spec.weights) * s_keep
        a_w = g_w[ga]
        if spec.weights == "clas17":
            g_k, s_k, a_k = g_w > 0, s_w > 0, a_w > 0
            return Counts.from_parts(n, a_sent[a_k & correct], g_sent[g_k], s_sent[s_k], a_sent[a_k])
        return Counts.from_parts(n, a_sent[correct], g_sent, s_sent, a_sent,
                                 correct_w=a_w[correct], gold_w=g_w, system_w=s_w, aligned_w=a_w)
    a_keep = g_keep[ga]
    return Counts.from_parts(n, a_sent[a_keep & correct], g_sent[g_keep], s_sent[s_keep],
                             a_sent[a_keep])
