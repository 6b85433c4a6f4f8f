"""The official scorer modules next to their compat drop-ins, for the compat tests.

Every official module is read at test time from the oracle cache (``tests/oracles.py``,
filled from PyPI wheels), never copied into the project: conll18_ud_eval as ufal/conll2018 has
it at HEAD (line numbers in messages) and conll17_ud_eval v1.3, both emulated on the released
files the wheels ship (``oracles.load_conll18_head``, ``oracles.load_conll17_v13``: the
versions' documented differences, the rest run as released), iwpt20_ud_eval, and udtools'
udeval (from the oracle venv).  ``Pair`` runs one of them and its drop-in the same way and returns
either the scores or the UDError text, so the tests compare the two side by side.
"""
from __future__ import annotations

import importlib.util
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

from conll_eval import compat
from conll_eval.compat import conll17, iwpt20, udeval

try:
    from tests import oracles
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import oracles

SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"

_cache: Dict[str, object] = {}
# the official scripts resolve heads recursively; raised here, not inside a hypothesis test
sys.setrecursionlimit(max(sys.getrecursionlimit(), oracles.RECURSION_LIMIT))


def official(name: str):
    """The official module ``conll18``, ``conll17``, ``iwpt20`` or ``udeval`` (skips without it)."""
    if name in _cache:
        return _cache[name]
    if name == "conll18":  # ufal/conll2018 at HEAD (line numbers in messages), as conll_eval's profile
        module = oracles.require_oracle("conll18_head")
    elif name == "conll17":  # v1.3, the final 2017 scorer (with CLAS)
        module = oracles.require_oracle("conll17_v13")
    elif name == "iwpt20":
        module = oracles.require_oracle("iwpt20_ud_eval")
    else:
        directory = oracles.oracle_dir()
        found = sorted(directory.glob("venv/lib/python*/site-packages/udtools/udeval.py")) if directory else []
        if not found:
            pytest.skip("udtools' udeval.py is not installed (make oracles)")
        spec = importlib.util.spec_from_file_location("_official_udeval", found[0])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    _cache[name] = module
    return module


#: compat module of each official one
COMPAT = {"conll18": compat, "conll17": conll17, "iwpt20": iwpt20, "udeval": udeval}
#: the extra arguments each module's load_conllu takes after the file
LOAD_ARGS = {"conll18": (), "conll17": (), "iwpt20": ({},), "udeval": ("", {})}
MODULES = tuple(COMPAT)


@dataclass
class Outcome:
    """What a module made of a pair: ``scores`` (metric -> the official Score fields) or
    ``error`` (``UDError: text``, or another exception's type and text)."""

    scores: Optional[Dict[str, Dict[str, object]]] = None
    error: Optional[str] = None


_FIELDS = ("precision", "recall", "f1", "aligned_accuracy", "correct", "gold_total", "system_total",
           "aligned_total")


def outcome(load: Callable, evaluate: Callable, fields=None) -> Outcome:
    """Run ``evaluate(load("gold"), load("system"))``; the Score fields the official Score has."""
    try:
        result = evaluate(load("gold"), load("system"))
    except Exception as exc:  # noqa: BLE001 - every outcome is compared
        return Outcome(error=f"{'UDError' if type(exc).__name__ == 'UDError' else type(exc).__name__}: {exc}")
    scores = {}
    for metric, value in result.items():
        names = fields or [f for f in _FIELDS if hasattr(value, f)]
        scores[metric] = {f: getattr(value, f) for f in names}
    return Outcome(scores=scores)


def both(name: str, gold: str, system: str, treebank_type: Optional[dict] = None):
    """(official outcome, compat outcome) on two texts loaded from StringIO, with the official
    module's own ``load_conllu`` arguments (``treebank_type`` for iwpt20/udeval)."""
    theirs_module, ours_module = official(name), COMPAT[name]
    args = LOAD_ARGS[name]
    if treebank_type is not None and args:
        args = args[:-1] + (treebank_type,)
    texts = {"gold": gold, "system": system}
    theirs = outcome(lambda side: theirs_module.load_conllu(io.StringIO(texts[side]), *args),
                     theirs_module.evaluate)
    fields = list(next(iter(theirs.scores.values()))) if theirs.scores else None
    ours = outcome(lambda side: ours_module.load_conllu(io.StringIO(texts[side]), *args),
                   ours_module.evaluate, fields)
    return theirs, ours


def assert_same(name: str, gold: str, system: str, treebank_type: Optional[dict] = None):
    theirs, ours = both(name, gold, system, treebank_type)
    if theirs.error is not None and not theirs.error.startswith("UDError"):
        # the official module crashed (IndexError, ValueError, ...): compat raises UDError
        assert ours.error is not None and ours.error.startswith("UDError"), (name, theirs.error, ours)
        return theirs
    assert ours.error == theirs.error, name
    if theirs.scores is not None:
        assert list(ours.scores) == list(theirs.scores), name
        for metric, expected in theirs.scores.items():
            assert ours.scores[metric] == expected, (name, metric)
    return theirs
