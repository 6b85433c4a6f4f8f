"""Which core reads, aligns and counts: the compiled one (Cython, built at install when a C compiler
is there) or the numpy one, which is always there and is the reference.

``CONLL_EVAL_PURE=1`` in the environment forces the numpy path; :func:`core_description`
says which is active (``conll_eval --version`` prints it).
"""
from __future__ import annotations

import importlib
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


#: the compiled scan (:mod:`conll_eval._cscan`), alignment walk (:mod:`conll_eval._calign`)
#: and counting of the aligned words' metrics (:mod:`conll_eval._ccount`)
cscan = _load("_cscan")
calign = _load("_calign")
ccount = _load("_ccount")
#: the DEPS parser of the enhanced graphs (:mod:`conll_eval._cenhanced`)
cenhanced = _load("_cenhanced")
#: the validator's screen of whole sentences (:mod:`conll_eval._cvalidate`)
cvalidate = _load("_cvalidate")


def core_description() -> str:
    """``compiled (Cython)``, or ``numpy`` with the reason; a core built without one of its
    modules (an optional build that failed) names the missing ones."""
    modules = {"_cscan": cscan, "_calign": calign, "_ccount": ccount, "_cenhanced": cenhanced,
               "_cvalidate": cvalidate}
    missing = [name for name, module in modules.items() if module is None]
    if not missing:
        return "compiled (Cython)"
    if len(missing) < len(modules) and not PURE:
        return f"compiled (Cython), without {', '.join(missing)} (numpy there)"
    if PURE:
        return "numpy (CONLL_EVAL_PURE is set)"
    return "numpy (the compiled core is not built)"
