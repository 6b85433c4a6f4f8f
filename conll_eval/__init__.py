"""conll_eval: exact, fast scoring of CoNLL-U dependency parses.

>>> import conll_eval
>>> ev = conll_eval.evaluate_files("gold.conllu", "system.conllu", profile="conll18")  # doctest: +SKIP
>>> round(100 * ev.scores["LAS"].f1, 2)  # doctest: +SKIP
89.66

The public submodules (``errors``, ``validate``, ``compat``, ``report``, ``cli``, ...) are
attributes of the package, imported on first access (PEP 562):
``conll_eval.validate.iter_validate_file(...)`` and ``conll_eval.compat`` work after a plain
``import conll_eval``, which itself loads neither numpy nor the scoring stack: the public
names (``evaluate_files``, ``load``, ...) load their modules on first use, so the command
line's ``--version``, help, completion and man pages start without them.
``conll_eval.evaluate`` is the function; its module is ``conll_eval.evaluate`` in
``sys.modules`` (``importlib.import_module("conll_eval.evaluate")``).
"""
from ._interrupt import guard_start_up as _guard_start_up  # noqa: E402

_guard_start_up()  # first: a Ctrl-C while numpy loads gets the command's one line, exit 130

from ._version import __version__  # noqa: E402

import os as _os  # noqa: E402
import sys as _sys  # noqa: E402


def _command_line_blas_threads() -> None:
    """One OpenBLAS thread for the ``conll_eval`` command (and ``python -m conll_eval``),
    unless the user chose otherwise.  Why: scoring multiplies no matrices, but OpenBLAS
    starts a thread per core when numpy is imported and they spin, taking a core from the
    reading threads (measured: 0.1 s of CPU and 20-30 ms of wall time on a 20-pair suite).
    A program importing the library keeps numpy's defaults: this runs only before numpy is
    loaded, and only when the process is the command line (``-m`` is ``argv[0]`` while
    ``python -m`` imports its package)."""
    program = _os.path.basename(_sys.argv[0]) if _sys.argv else ""
    if "numpy" not in _sys.modules and program in ("conll_eval", "-m"):
        _os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


_command_line_blas_threads()

from .errors import (AlignmentError, ConllEvalError, FormatError, InputError, LabelError,  # noqa: E402
                     TreeError, UsageError, ValidationFailed)

import types as _types  # noqa: E402
from typing import TYPE_CHECKING as _TYPE_CHECKING  # noqa: E402

if _TYPE_CHECKING:  # the lazy public names (:data:`_LAZY_NAMES`) as type checkers see them
    from .evaluate import Evaluation, Settings, evaluate, evaluate_files
    from .io.conllu import load
    from .stats import Counts, Score
    from .suite import SuiteEvaluation, evaluate_suite, find_pairs
    from .treebank import Treebank, Vocab

__all__ = [
    "__version__", "load", "evaluate", "evaluate_files", "Evaluation", "Settings", "Score", "Counts",
    "Treebank", "Vocab", "ConllEvalError", "InputError", "FormatError", "TreeError", "LabelError",
    "ValidationFailed", "AlignmentError", "UsageError", "evaluate_suite", "SuiteEvaluation",
    "find_pairs",
]

# Public submodules, reachable as attributes without importing them first.  They are not in
# __all__, so ``from conll_eval import *`` does not import them all.
_SUBMODULES = ("errors", "limits", "workers", "background", "treebank", "scan", "io", "reader", "reserve", "empty_nodes", "validate",
               "compiled_counts",
               "align", "stats", "enhancements", "enhanced", "metric_specs", "metrics", "evaluate", "naming", "pairing", "suite",
               "analyze", "report", "compat", "cli", "compiled", "leaderboard")


#: public names whose module loads on first use: the scoring names load numpy and the scoring
#: stack, which ``conll_eval --version``, the help, completion and man pages never need (start-up
#: time); scoring a pair never needs the suite's
_LAZY_NAMES = {"Evaluation": "evaluate", "Settings": "evaluate", "evaluate": "evaluate",
               "evaluate_files": "evaluate", "load": "io.conllu", "Counts": "stats", "Score": "stats",
               "Treebank": "treebank", "Vocab": "treebank",
               "SuiteEvaluation": "suite", "evaluate_suite": "suite", "find_pairs": "suite"}


class _Package(_types.ModuleType):
    """The package's module type: ``conll_eval.evaluate`` stays the function.  Importing the
    submodule ``conll_eval.evaluate`` (from anywhere) binds it as the package's attribute
    ``evaluate`` (the import system's ``setattr``); here the function of that name takes its
    place, as ``from .evaluate import evaluate`` at the top did."""

    def __setattr__(self, name: str, value) -> None:
        if name == "evaluate" and isinstance(value, _types.ModuleType):
            value = value.evaluate
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    """Import a public submodule (or the module of a public name) on first attribute access
    (module ``__getattr__``, PEP 562)."""
    if name in _SUBMODULES or name in _LAZY_NAMES:
        import importlib  # here: only a first access to a lazy submodule needs it

        module = importlib.import_module(f"{__name__}.{_LAZY_NAMES.get(name, name)}")
        if name in _LAZY_NAMES:
            globals()[name] = value = getattr(module, name)
            return value
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_SUBMODULES) | set(_LAZY_NAMES))
