"""The metrics and profiles by name: :class:`MetricSpec`, the ``METRICS`` registry, the
``PROFILES``, the metrics outside every profile and the ``--punct``/``--deprel`` policies.

Definitions only, in a module of their own without numpy: the command line's options (their
choices, the help, completion and man pages) read them without loading the scoring stack
(start-up time).  :mod:`conll_eval.metrics` computes the counts and gives these names too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

__all__ = ["MetricSpec", "Profile", "METRICS", "PROFILES", "register_metric", "register_profile",
           "EXTRA_METRICS", "ENHANCED_METRICS", "PUNCT_POLICIES", "DEPREL_POLICIES", "DISPLAY_NAME",
           "display_name", "profile_metrics"]


@dataclass(frozen=True)
class MetricSpec:
    """One row of the official table.

    ``kind``: ``tokens``/``sentences`` (span F1), ``words`` (aligned words), ``attribute``.
    ``columns``: derived columns that must be equal (``upos``, ``xpos``, ``feats``, ``ufeats``,
    ``udeprel``, ``lemma`` or ``lemma18`` = the gold-``_`` rule).  ``head``: parents must
    correspond.  ``word_filter``: ``content`` (2018 content relations) or None.
    ``weights``: ``clas17`` (zero weights of conll17 CLAS) or ``file`` (``-w`` weights).
    ``functional_children``: MLAS's comparison of functional children.
    ``kind`` ``enhanced``: the DEPS graphs' edges (ELAS; ``universal``: each label step cut at
    its first ``:``, EULAS), see :mod:`conll_eval.enhanced`.
    """

    name: str
    description: str
    kind: str = "attribute"
    columns: Tuple[str, ...] = ()
    head: bool = False
    word_filter: Optional[str] = None
    weights: Optional[str] = None
    functional_children: bool = False
    universal: bool = False

    @property
    def has_aligned_accuracy(self) -> bool:
        return self.kind == "attribute"


@dataclass(frozen=True)
class Profile:
    """A set of official behaviours: which metrics in which row order, and the output layout."""

    name: str
    description: str
    metrics: Tuple[str, ...]
    table_header: str
    default_lines: Tuple[Tuple[str, str], ...]
    #: how ELAS/EULAS count: ``official`` (the scripts' nested count) in the profiles that
    #: score them by default; ``set`` (distinct edges) where --metrics asks for them
    enhanced: str = "set"


METRICS: Dict[str, MetricSpec] = {}
PROFILES: Dict[str, Profile] = {}


def register_metric(spec: MetricSpec) -> MetricSpec:
    METRICS[spec.name] = spec
    return spec


def register_profile(profile: Profile) -> Profile:
    PROFILES[profile.name] = profile
    return profile


for _spec in (
    MetricSpec("Tokens", "tokens with identical character spans", "tokens"),
    MetricSpec("Sentences", "sentences with identical character spans", "sentences"),
    MetricSpec("Words", "aligned syntactic words", "words"),
    MetricSpec("UPOS", "universal part-of-speech tag", columns=("upos",)),
    MetricSpec("XPOS", "language-specific part-of-speech tag", columns=("xpos",)),
    MetricSpec("Feats", "FEATS string as written (conll17)", columns=("feats",)),
    MetricSpec("UFeats", "universal features only, sorted (conll18)", columns=("ufeats",)),
    MetricSpec("AllTags", "UPOS, XPOS and FEATS together", columns=("upos", "xpos", "feats")),
    MetricSpec("AllTags18", "UPOS, XPOS and universal FEATS together", columns=("upos", "xpos", "ufeats")),
    MetricSpec("Lemmas", "lemma as written (conll17)", columns=("lemma",)),
    MetricSpec("Lemmas18", "lemma; a gold `_` lemma counts as correct (conll18)", columns=("lemma18",)),
    MetricSpec("UAS", "head", head=True),
    MetricSpec("LAS", "head and universal relation", columns=("udeprel",), head=True),
    MetricSpec("CLAS", "LAS of content words (2018 content relations)", columns=("udeprel",),
               head=True, word_filter="content"),
    MetricSpec("CLAS17", "LAS weighted 0 for aux/case/cc/clf/cop/det/mark/punct (conll17)",
               columns=("udeprel",), head=True, weights="clas17"),
    MetricSpec("MLAS", "CLAS plus UPOS, universal FEATS and functional children",
               columns=("udeprel", "upos", "ufeats"), head=True, word_filter="content",
               functional_children=True),
    MetricSpec("BLEX", "CLAS plus lemma (gold `_` rule)", columns=("udeprel", "lemma18"), head=True,
               word_filter="content"),
    MetricSpec("WeightedLAS", "LAS weighted by relation (-w weights file, conll17 semantics)",
               columns=("udeprel",), head=True, weights="file"),
):
    register_metric(_spec)

#: metrics outside every profile, scored when asked for (``--metrics LA``)
EXTRA_METRICS = ("LA", "ELAS", "EULAS")
register_metric(MetricSpec("LA", "relation only (label accuracy, CoNLL-X eval.pl)",
                           columns=("udeprel",)))
register_metric(MetricSpec("ELAS", "enhanced graph edges: head and whole DEPS relation", "enhanced"))
register_metric(MetricSpec("EULAS", "enhanced graph edges: head and universal DEPS relation",
                           "enhanced", universal=True))
#: the enhanced metrics (dropped from a profile's rows by --no-enhanced)
ENHANCED_METRICS = ("ELAS", "EULAS")

#: ``--punct``: which words the attachment metrics score (include: all, as the UD scorers)
PUNCT_POLICIES = ("include", "deprel", "upos", "unicode")
#: ``--deprel``: how relations compare (universal: subtypes cut, as the UD scorers)
DEPREL_POLICIES = ("universal", "full", "v1")

#: Row name printed for registry entries whose key differs from the official row name.
DISPLAY_NAME = {"AllTags18": "AllTags", "Lemmas18": "Lemmas", "CLAS17": "CLAS"}

_C18_ROWS = ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags18", "Lemmas18",
             "UAS", "LAS", "CLAS", "MLAS", "BLEX")
register_profile(Profile(
    "conll17", "CoNLL 2017 shared task (conll17_ud_eval.py v1.3)",
    ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "Feats", "AllTags", "Lemmas", "UAS", "LAS",
     "CLAS17"),
    "Metrics    | Precision |    Recall |  F1 Score | AligndAcc",
    (("LAS", "LAS F1 Score: {:.2f}"),)))
register_profile(Profile(
    "conll18", "CoNLL 2018 shared task (conll18_ud_eval.py)", _C18_ROWS,
    "Metric     | Precision |    Recall |  F1 Score | AligndAcc",
    (("LAS", "LAS F1 Score: {:.2f}"), ("MLAS", "MLAS Score: {:.2f}"), ("BLEX", "BLEX Score: {:.2f}"))))
_ENHANCED_LINES = (("LAS", "LAS F1 Score: {:.2f}"), ("MLAS", "MLAS Score: {:.2f}"),
                   ("BLEX", "BLEX Score: {:.2f}"), ("ELAS", "ELAS F1 Score: {:.2f}"),
                   ("EULAS", "EULAS F1 Score: {:.2f}"))
register_profile(Profile(
    "iwpt", "IWPT 2020/2021 shared task (iwpt20_ud_eval.py), with ELAS and EULAS",
    _C18_ROWS + ENHANCED_METRICS, "Metric     | Precision |    Recall |  F1 Score | AligndAcc",
    _ENHANCED_LINES, "official"))
register_profile(Profile(
    "udeval", "the UD scorer udeval (udtools 0.2.9), with ELAS and EULAS",
    _C18_ROWS + ENHANCED_METRICS, "Metric     | Precision |    Recall |  F1 Score | AligndAcc",
    _ENHANCED_LINES, "official"))


def display_name(metric: str) -> str:
    """The official row name of a registry entry."""
    return DISPLAY_NAME.get(metric, metric)


def profile_metrics(profile: str, weights: bool = False, enhanced: bool = True) -> List[str]:
    """Registry names of a profile's rows (plus WeightedLAS when weights are given; without
    ELAS and EULAS when not ``enhanced``, --no-enhanced)."""
    names = [m for m in PROFILES[profile].metrics if enhanced or m not in ENHANCED_METRICS]
    if weights:
        names.append("WeightedLAS")
    return names
