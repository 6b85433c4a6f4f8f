"""conll_eval: exact, fast scoring of CoNLL-U dependency parses.

>>> import conll_eval
>>> ev = conll_eval.evaluate_files("gold.conllu", "system.conllu", profile="conll18")  # doctest: +SKIP
>>> round(100 * ev.scores["LAS"].f1, 2)  # doctest: +SKIP
89.66

The public submodules (``errors``, ``validate``, ``compat``, ``report``, ``cli``, ...) are
attributes of the package, imported on first access (PEP 562):
``conll_eval.validate.iter_validate_file(...)`` and ``conll_eval.compat`` work after a plain
``import conll_eval``, which itself loads only what scoring needs.
``conll_eval.evaluate`` is the function; its module is ``conll_eval.evaluate`` in
``sys.modules`` (``importlib.import_module("conll_eval.evaluate")``).
"""
__version__ = "0.1.0"

from .errors import (AlignmentError, ConllEvalError, FormatError, InputError, LabelError,  # noqa: E402
                     TreeError, UsageError, ValidationFailed)
from .evaluate import Evaluation, Settings, evaluate, evaluate_files  # noqa: E402
from .reader import load  # noqa: E402
from .stats import Counts, Score  # noqa: E402
from .treebank import Treebank, Vocab  # noqa: E402

__all__ = [
    "__version__", "load", "evaluate", "evaluate_files", "Evaluation", "Settings", "Score", "Counts",
    "Treebank", "Vocab", "ConllEvalError", "InputError", "FormatError", "TreeError", "LabelError",
    "ValidationFailed", "AlignmentError", "UsageError", "evaluate_suite", "SuiteEvaluation",
    "find_pairs",
]

# Public submodules, reachable as attributes without importing them first.  They are not in
# __all__, so ``from conll_eval import *`` does not import them all.
_SUBMODULES = ("errors", "workers", "treebank", "scan", "reader", "validate", "align", "stats",
               "metrics", "evaluate", "suite", "analyze", "report", "compat", "cli", "compiled")


#: public names whose module loads on first use (scoring a pair never needs the suite's)
_LAZY_NAMES = {"SuiteEvaluation": "suite", "evaluate_suite": "suite", "find_pairs": "suite"}


def __getattr__(name: str):
    """Import a public submodule (or the module of a public name) on first attribute access
    (module ``__getattr__``, PEP 562)."""
    if name in _SUBMODULES or name in _LAZY_NAMES:
        import importlib

        module = importlib.import_module(f"{__name__}.{_LAZY_NAMES.get(name, name)}")
        return getattr(module, name) if name in _LAZY_NAMES else module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_LAZY_NAMES))
