"""The input layer: every input format told once per file (``formats``) and read through one door,
:func:`read_treebank` (``read``), with the readers of each format beside it and the scans under it.

``read_treebank``, ``detect_format`` and ``InputFormat`` are importable from here; this package
loads a module only when one of them is first asked for, so ``import conll_eval.io.profiles``
loads only that (see ``docs/architecture.md`` for one line per module).
"""
from __future__ import annotations

import importlib
from typing import Any

__all__ = ["read_treebank", "detect_format", "InputFormat"]

#: name -> the module that defines it
_HOMES = {"read_treebank": ".read", "detect_format": ".formats", "InputFormat": ".formats"}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __name__), name)
