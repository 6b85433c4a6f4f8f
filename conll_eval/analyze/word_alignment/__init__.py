"""Word-alignment evaluation (``conll_eval alignment``): precision, recall and AER against
gold sure and possible links (Och and Ney 2003), plain precision, recall and F1 over each kind
of link, the parallel treebank score (PTS) and significance tests between aligners.

Modules: :mod:`.links` reads the files, :mod:`.scoring` counts and scores, :mod:`.evaluation`
does both for a gold file and its systems, :mod:`.pts` combines parse and alignment scores,
:mod:`.significance` tests systems against each other.

>>> from conll_eval.analyze.word_alignment import evaluate_alignments
>>> run = evaluate_alignments("gold.naacl", ["system.pharaoh"])  # doctest: +SKIP
>>> run.systems[0].scores.aer  # doctest: +SKIP
0.125
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..._lazy import lazy_names

if TYPE_CHECKING:  # the lazy names as type checkers see them
    from .choices import INPUT_FORMATS, NULL_POLICIES
    from .evaluation import AlignmentEvaluation, SystemAlignment, evaluate_alignments
    from .links import LinkFile, LinkFileError, read_links
    from .pts import DEFAULT_PUNCT, DEFAULT_WEIGHTS, PTSResult, parallel_treebank_score, parse_weights
    from .scoring import AlignmentScores, SentenceCounts, count_links, gold_sentences
    from .significance import LOWER_IS_BETTER, TESTED_SCORES, compare_alignments

__all__ = ["evaluate_alignments", "AlignmentEvaluation", "SystemAlignment", "NULL_POLICIES",
           "INPUT_FORMATS", "LinkFile", "LinkFileError", "read_links", "AlignmentScores",
           "SentenceCounts", "count_links", "gold_sentences", "PTSResult", "DEFAULT_WEIGHTS",
           "DEFAULT_PUNCT", "parallel_treebank_score", "parse_weights", "TESTED_SCORES",
           "LOWER_IS_BETTER", "compare_alignments"]

#: public name -> its module here, imported on first access: the evaluation loads numpy, which
#: the command's help (the option choices in :mod:`.choices`) never needs (start-up time)
_LAZY_NAMES = {**dict.fromkeys(("INPUT_FORMATS", "NULL_POLICIES"), "choices"),
               **dict.fromkeys(("AlignmentEvaluation", "SystemAlignment", "evaluate_alignments"),
                               "evaluation"),
               **dict.fromkeys(("LinkFile", "LinkFileError", "read_links"), "links"),
               **dict.fromkeys(("DEFAULT_PUNCT", "DEFAULT_WEIGHTS", "PTSResult",
                                "parallel_treebank_score", "parse_weights"), "pts"),
               **dict.fromkeys(("AlignmentScores", "SentenceCounts", "count_links",
                                "gold_sentences"), "scoring"),
               **dict.fromkeys(("LOWER_IS_BETTER", "TESTED_SCORES", "compare_alignments"),
                               "significance")}


__getattr__, __dir__ = lazy_names(__name__, _LAZY_NAMES, globals())
