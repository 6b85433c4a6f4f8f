"""The official scorers as test oracles, installed outside the project tree.

The scripts come from PyPI wheels (``make oracles``: ``scripts/get_oracles.py``) and are
loaded as modules at test time; their code is never copied into this repository.

* ``oracle_dir()`` -> the directory holding ``conll18_ud_eval.py`` etc., or None when they
  are not available (neither ``$CONLL_EVAL_ORACLES`` nor ``~/.cache/conll_eval-oracles``
  holds them and PyPI is unreachable).
* ``load_oracle(name)`` -> the module (``conll18_ud_eval``, ``conll17_ud_eval``,
  ``iwpt20_ud_eval``).
* ``load_conll18_released()`` -> conll18_ud_eval with trankit's one-line change reverted.
* ``require_oracle(name)`` -> the module (also "conll18_released"), or ``pytest.skip``.
* ``score17(oracle, gold_ud, system_ud, weights)`` -> the conll17 results *with* counts: the
  2017 script's Score keeps only the ratios, so its constructor arguments are recorded.
"""
from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from typing import Dict, Optional

ORACLE_NAMES = ("conll18_ud_eval", "conll17_ud_eval", "iwpt20_ud_eval")
PROJECT = Path(__file__).resolve().parent.parent
#: the project's fetcher (``make oracles``), which holds the one oracle lookup
GET_ORACLES = PROJECT / "scripts" / "get_oracles.py"
#: where ``make oracles`` puts them by default
DEFAULT_DEST = Path.home() / ".cache" / "conll_eval-oracles"

#: the official scripts resolve heads recursively (one frame per chain link and a few more);
#: test data keeps chains short, this only gives headroom
RECURSION_LIMIT = 5000

_UNSET = object()
_dir_cache = _UNSET
_modules: Dict[str, object] = {}
_lock = threading.Lock()


def _oracle_lookup():
    """``scripts/get_oracles.py`` as a module: the lookup ``make golden`` and the benchmarks use."""
    spec = importlib.util.spec_from_file_location("_conll_eval_get_oracles", GET_ORACLES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def oracle_dir() -> Optional[Path]:
    """The oracle directory, or None if unavailable (looked up once per session).

    ``$CONLL_EVAL_ORACLES``, then ``~/.cache/conll_eval-oracles``, where they hold the
    scripts; else they are fetched from PyPI into the latter (``make oracles``).
    """
    global _dir_cache
    with _lock:
        if _dir_cache is _UNSET:
            _dir_cache = _oracle_lookup().find_oracles(install=True)
        return _dir_cache


def load_oracle(name: str):
    """Import one official script as a module (cached); raises FileNotFoundError when unavailable."""
    if name not in ORACLE_NAMES:
        raise ValueError(f"unknown oracle {name!r}; choose one of {', '.join(ORACLE_NAMES)}")
    if name in _modules:
        return _modules[name]
    directory = oracle_dir()
    if directory is None or not (directory / f"{name}.py").is_file():
        raise FileNotFoundError(f"official scorer {name}.py is not available")
    spec = importlib.util.spec_from_file_location(f"_oracle_{name}", directory / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    _modules[name] = module
    return module


#: trankit's one-line change to conll18_ud_eval.py v1.2 (a sentence without words passes)
TRANKIT_CHANGE = "if sentence_start < len(ud.words) and len("
RELEASED_LINE = "if len("


def load_conll18_released():
    """conll18_ud_eval as released (v1.2): the trankit copy with its one-line change reverted
    in memory, so a sentence without words (double blank line, blank line after comments,
    only empty nodes, an MWT with range ``1-0``) raises UDError at that sentence again.
    Falls back to the unchanged module if the line is not found (then tests must emulate)."""
    if "conll18_released" in _modules:
        return _modules["conll18_released"]
    base = load_oracle("conll18_ud_eval")
    source = Path(base.__file__).read_text(encoding="utf-8")
    if source.count(TRANKIT_CHANGE) != 1:
        _modules["conll18_released"] = base
        return base
    module = type(sys)("_oracle_conll18_released")
    module.__file__ = base.__file__
    code = compile(source.replace(TRANKIT_CHANGE, RELEASED_LINE), base.__file__, "exec")
    exec(code, module.__dict__)
    module.PATCHED = True
    _modules["conll18_released"] = module
    return module


def require_oracle(name: str):
    """``load_oracle`` for tests: skips with a clear reason when the oracle cannot be had."""
    import pytest

    try:
        return load_conll18_released() if name == "conll18_released" else load_oracle(name)
    except FileNotFoundError:
        pytest.skip(f"official scorer {name} unavailable: run 'make oracles' (downloads the "
                    "official scorers from PyPI into ~/.cache/conll_eval-oracles) or set "
                    "$CONLL_EVAL_ORACLES to a directory holding them")


def score17(oracle, gold_ud, system_ud, weights=None):
    """Run the 2017 ``evaluate`` and return ``{metric: (correct, gold, system, aligned, score)}``.

    Its ``Score`` stores only precision/recall/f1/aligned_accuracy, so the constructor
    arguments are captured with a profile hook (matched by object identity, not order).
    """
    filename = oracle.__file__
    captured = {}

    def hook(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "__init__" \
                and frame.f_code.co_filename == filename and "gold_total" in frame.f_code.co_varnames:
            loc = frame.f_locals
            captured[id(loc["self"])] = (loc["self"], loc["correct"], loc["gold_total"],
                                         loc["system_total"], loc.get("aligned_total"))

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        result = oracle.evaluate(gold_ud, system_ud, weights)
    finally:
        sys.setprofile(previous)
    out = {}
    for metric, score in result.items():
        _, correct, gold, system, aligned = captured[id(score)]
        out[metric] = (correct, gold, system, aligned, score)
    return out
