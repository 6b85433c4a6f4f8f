"""Which core reads, aligns and counts: the compiled one (Cython, built at install when a C compiler
is there) or the numpy one, which is always there and is the reference.

``CONLL_EVAL_PURE=1`` in the environment forces the numpy path; :func:`core_description`
says which is active (``conll_eval --version`` prints it).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType
from typing import Optional

__all__ = ["PURE", "cscan", "calign", "ccount", "cenhanced", "cvalidate",
           "core_description"]

#: the numpy path was asked for
PURE = bool(os.environ.get("CONLL_EVAL_PURE"))


def _load(name: str) -> Optional[ModuleType]:
    if PURE:
        return None
    try:
        return importlib.import_module(f"conll_eval.{name}")
    except ImportError:  # not built (no compiler at install): the numpy path
        return None


#: attribute -> the compiled module it holds (None: the numpy path), imported on first use
#: (:func:`__getattr__`): a compiled module loads numpy, which ``conll_eval --version``, the
#: help, completion and man pages do without (start-up time).  ``cscan``: the scan
#: (:mod:`conll_eval._cscan`), ``calign``: the alignment walk, ``ccount``: the counting of the
#: aligned words' metrics, ``cenhanced``: the DEPS parser of the enhanced graphs,
#: ``cvalidate``: the validator's screen of whole sentences.
_MODULES = {"cscan": "_cscan", "calign": "_calign", "ccount": "_ccount", "cenhanced": "_cenhanced",
            "cvalidate": "_cvalidate"}
cscan: Optional[ModuleType]
calign: Optional[ModuleType]
ccount: Optional[ModuleType]
cenhanced: Optional[ModuleType]
cvalidate: Optional[ModuleType]


def __getattr__(name: str) -> Optional[ModuleType]:
    """Load a compiled module on first access (module ``__getattr__``, PEP 562), once."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = globals()[name] = _load(_MODULES[name])
    return module


def core_description(loaded: bool = True) -> str:
    """``compiled (Cython)``, or ``numpy`` with the reason; a core built without one of its
    modules (an optional build that failed) names the missing ones.

    ``loaded`` False (``conll_eval --version``): from the modules installed, found without
    importing them (importing one loads numpy); a module installed but failing to load (built
    against another numpy) then counts as there, where the scoring would take the numpy path.
    """
    if loaded:
        missing = [_MODULES[name] for name in _MODULES
                   if (globals()[name] if name in globals() else __getattr__(name)) is None]
    else:
        missing = [module for module in _MODULES.values()
                   if PURE or importlib.util.find_spec(f"conll_eval.{module}") is None]
    if not missing:
        return "compiled (Cython)"
    if len(missing) < len(_MODULES) and not PURE:
        return f"compiled (Cython), without {', '.join(missing)} (numpy there)"
    if PURE:
        return "numpy (CONLL_EVAL_PURE is set)"
    return "numpy (the compiled core is not built)"
