"""conll_eval: exact, fast scoring of CoNLL-U dependency parses.

>>> import conll_eval
>>> ev = conll_eval.evaluate_files("gold.conllu", "system.conllu", profile="conll18")  # doctest: +SKIP
>>> round(100 * ev.scores["LAS"].f1, 2)  # doctest: +SKIP
89.66
"""
__version__ = "0.1.0"

from .errors import (AlignmentError, ConllEvalError, FormatError, InputError, LabelError,  # noqa: E402
                     TreeError, UsageError, ValidationFailed)
from .evaluate import Evaluation, Settings, evaluate, evaluate_files  # noqa: E402
from .reader import load  # noqa: E402
from .suite import SuiteEvaluation, evaluate_suite, find_pairs  # noqa: E402
from .stats import Counts, Score  # noqa: E402
from .treebank import Treebank, Vocab  # noqa: E402

__all__ = [
    "__version__", "load", "evaluate", "evaluate_files", "Evaluation", "Settings", "Score", "Counts",
    "Treebank", "Vocab", "ConllEvalError", "InputError", "FormatError", "TreeError", "LabelError",
    "ValidationFailed", "AlignmentError", "UsageError", "evaluate_suite", "SuiteEvaluation",
    "find_pairs",
]
