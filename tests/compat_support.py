"""The official scorer modules next to their compat drop-ins, for the compat tests.

Every official module is read at test time, never copied into the project: conll18_ud_eval
(ufal/conll2018 at HEAD, from a local git mirror), conll17_ud_eval v1.3 (from a local git mirror of ufal/conll2017 when
there is one, else the installed v1.0 without CLAS), iwpt20_ud_eval and udtools' udeval
(from the oracle venv).  ``Pair`` runs one of them and its drop-in the same way and returns
either the scores or the UDError text, so the tests compare the two side by side.
"""
from __future__ import annotations

import importlib.util
import io
import os
import subprocess
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

#: where the ``fetch`` tool leaves git mirrors (``owner+name/repo``); $CONLL_EVAL_MIRRORS overrides
MIRRORS = Path(os.environ.get("CONLL_EVAL_MIRRORS", "/work/.mirror"))
SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"

_cache: Dict[str, object] = {}
# the official scripts resolve heads recursively; raised here, not inside a hypothesis test
sys.setrecursionlimit(max(sys.getrecursionlimit(), oracles.RECURSION_LIMIT))


def mirror_file(repo: str, path: str) -> Optional[str]:
    """The text of ``path`` at HEAD of the local mirror of GitHub ``repo``, or None."""
    git_dir = MIRRORS / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        return None
    done = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"],
                          capture_output=True)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


def _module_from_source(name: str, source: str, filename: str):
    module = type(sys)(name)
    module.__file__ = filename
    exec(compile(source, filename, "exec"), module.__dict__)
    return module


def official(name: str):
    """The official module ``conll18``, ``conll17``, ``iwpt20`` or ``udeval`` (skips without it)."""
    if name in _cache:
        return _cache[name]
    if name == "conll18":  # ufal/conll2018 at HEAD (line numbers in messages), as conll_eval's profile
        source = mirror_file("ufal/conll2018", "evaluation_script/conll18_ud_eval.py")
        if source is None:
            pytest.skip("no local mirror of ufal/conll2018 (the installed copy is an older version)")
        module = _module_from_source("_official_conll18_head", source, "conll18_ud_eval.py")
    elif name == "conll17":
        source = mirror_file("ufal/conll2017", "evaluation_script/conll17_ud_eval.py")
        if source is not None:
            module = _module_from_source("_official_conll17_v13", source, "conll17_ud_eval.py")
        else:
            module = oracles.require_oracle("conll17_ud_eval")
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


def has_clas(module) -> bool:
    """Whether this 2017 script scores CLAS (v1.1 on; the installed oracle may be v1.0)."""
    return hasattr(module, "CLAS_weights")


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
    if name == "conll17" and not has_clas(theirs_module) and ours.scores:
        ours.scores.pop("CLAS", None)  # the installed v1.0 has no CLAS
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
