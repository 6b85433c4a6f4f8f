"""The official scorers as test oracles, installed outside the project tree.

The scripts come from PyPI wheels (``make oracles``: ``scripts/get_oracles.py``) and are
loaded as modules at test time; their code is never copied into this repository.

* ``oracle_dir()`` -> the directory holding ``conll18_ud_eval.py`` etc., or None when they
  are not available (neither ``$CONLL_EVAL_ORACLES`` nor ``~/.cache/conll_eval-oracles``
  holds them and PyPI is unreachable).
* ``load_oracle(name)`` -> the module (``conll18_ud_eval``, ``conll17_ud_eval``,
  ``iwpt20_ud_eval``).
* ``load_conll18_released()`` -> conll18_ud_eval with trankit's one-line change reverted.
* ``load_conll18_head()`` -> conll18_ud_eval as ufal/conll2018 has it now (what conll_eval's
  conll18 profile reproduces), emulated on the released v1.2: see its docstring.
* ``load_conll17_v13()`` -> conll17_ud_eval v1.3 (the final 2017 scorer), emulated on v1.0.
* ``require_oracle(name)`` -> the module (also "conll18_released", "conll18_head",
  "conll17_v13"), or ``pytest.skip``.
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


def _module_from_source(name: str, source: str, filename: str):
    module = type(sys)(name)
    module.__file__ = filename
    exec(compile(source, filename, "exec"), module.__dict__)
    return module


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
    module = _module_from_source("_oracle_conll18_released", source.replace(TRANKIT_CHANGE, RELEASED_LINE),
                                 base.__file__)
    module.PATCHED = True
    _modules["conll18_released"] = module
    return module


# ------------------------------------------------------------------------------ conll18 at HEAD
#: UDError texts of v1.2's load_conllu that ufal/conll2018 at HEAD does not end with " at line N"
_UNNUMBERED = ("The CoNLL-U file does not end with empty line",)
_COLUMNS = "The CoNLL-U line does not contain 10 tab-separated columns"
_ROOTS = "There are multiple roots in a sentence"


class _CountedLines:
    """A file's ``readline`` that counts its calls: HEAD's ``line_idx`` is that count (it adds 1
    after every ``readline``, the main loop's and a multi-word token's word lines alike)."""

    def __init__(self, file):
        self._file = file
        self.count = 0

    def readline(self):
        self.count += 1
        return self._file.readline()


def _head_message(exc: Exception, filename: str, line: int) -> str:
    """v1.2's UDError text as HEAD words it: " at line N" after every load_conllu error but the
    end-of-file one and a multi-word token's word line with too few columns; the column error
    has it before its colon; the root error counts the roots ("There are 0 roots ...")."""
    message = str(exc)
    frames = [tb.tb_frame for tb in _tracebacks(exc.__traceback__)
              if tb.tb_frame.f_code.co_name == "load_conllu" and tb.tb_frame.f_code.co_filename == filename]
    if not frames or message in _UNNUMBERED:
        return message
    local = frames[-1].f_locals
    if message == _ROOTS:
        roots = sum(1 for word in local["ud"].words[local["sentence_start"]:] if word.parent is None)
        return f"There are {roots} roots in a sentence at line {line}"
    if message.startswith(_COLUMNS + ": "):
        if len(local["line"].split("\t")) == 10:  # the multi-word token's range line: a word line failed
            return message
        return f"{_COLUMNS} at line {line}{message[len(_COLUMNS):]}"
    return f"{message} at line {line}"


def _tracebacks(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def load_conll18_head():
    """conll18_ud_eval as ufal/conll2018 has it at HEAD (commits after v1.2: line numbers in
    load_conllu's messages, "There are N roots in a sentence"), which conll_eval's conll18
    profile and compat reproduce; no PyPI wheel ships that file, so it is emulated here on
    the released v1.2 (``load_conll18_released``, which runs the same code and reads the same
    lines in the same order): ``load_conllu`` counts the lines it reads and rewords v1.2's
    UDError as HEAD does (``_head_message``).  HEAD's other change, ``main`` printing through
    a new ``build_evaluation_table``, prints the same bytes.  Raises RuntimeError when the
    installed file is not trankit's v1.2 (the one-line change is not found)."""
    if "conll18_head" in _modules:
        return _modules["conll18_head"]
    released = load_conll18_released()
    if not getattr(released, "PATCHED", False):
        raise RuntimeError(f"{released.__file__} is not trankit 1.1.2's conll18_ud_eval.py: run 'make oracles'")
    source = Path(released.__file__).read_text(encoding="utf-8").replace(TRANKIT_CHANGE, RELEASED_LINE)
    module = _module_from_source("_oracle_conll18_head", source, released.__file__)
    released_load = module.load_conllu

    def load_conllu(file):
        counted = _CountedLines(file)
        try:
            return released_load(counted)
        except module.UDError as exc:
            raise module.UDError(_head_message(exc, module.__file__, counted.count)) from None

    module.load_conllu = load_conllu  # what load_conllu_file, main and TestAlignment call
    _modules["conll18_head"] = module
    return module


# ------------------------------------------------------------------------------ conll17 v1.3
#: the 2017 CLAS weights (v1.1 on): function words and punctuation weigh 0, the rest 1
CLAS17_WEIGHTS = PROJECT / "testdata" / "golden" / "clas17-weights.txt"
#: v1.1's change to main: the verbose table lists CLAS after LAS
_V10_METRICS = '"UAS", "LAS"]'


class _Padded(list):
    """A character list that gives ``sentinel`` past its end (see ``load_conll17_v13``)."""

    def __init__(self, items, sentinel):
        super().__init__(items)
        self._sentinel = sentinel

    def __getitem__(self, index):
        if isinstance(index, int) and index >= len(self):
            return self._sentinel
        return super().__getitem__(index)


def load_conll17_v13():
    """conll17_ud_eval v1.3, the final 2017 scorer, emulated on the installed v1.0 (no PyPI
    wheel ships v1.1 or later).  Its changes since v1.0 are: CLAS (v1.1: ``CLAS_weights``, and
    ``evaluate``'s CLAS is the WeightedLAS computation under those weights, listed after LAS
    in the dict and in ``main``'s verbose table), and v1.2: a file whose characters are a
    strict prefix of the other's raises the UDError "concatenation ... differ" instead of
    v1.0's IndexError.  The emulation runs v1.0's code for every number and message:
    ``evaluate`` runs it a second time with ``CLAS_weights`` (read from the module at each
    call, as v1.3 does) for CLAS, and pads the shorter character list with a character that
    matches nothing while it compares them; ``main``'s metric list gets "CLAS" in memory."""
    if "conll17_v13" in _modules:
        return _modules["conll17_v13"]
    base = load_oracle("conll17_ud_eval")
    source = Path(base.__file__).read_text(encoding="utf-8")
    if hasattr(base, "CLAS_weights") or source.count(_V10_METRICS) != 1:
        raise RuntimeError(f"{base.__file__} is not uuparser 2.4's conll17_ud_eval.py v1.0: run 'make oracles'")
    module = _module_from_source("_oracle_conll17_v13", source.replace(_V10_METRICS, '"UAS", "LAS", "CLAS"]'),
                                 base.__file__)
    with open(CLAS17_WEIGHTS, encoding="utf-8") as weights:
        module.CLAS_weights = module.load_deprel_weights(weights)
    v10_evaluate = module.evaluate

    def evaluate(gold_ud, system_ud, deprel_weights=None):
        originals = gold_ud.characters, system_ud.characters
        gold_ud.characters = _Padded(originals[0], object())
        system_ud.characters = _Padded(originals[1], object())
        try:
            result = v10_evaluate(gold_ud, system_ud, deprel_weights)
            clas = v10_evaluate(gold_ud, system_ud, module.CLAS_weights)["WeightedLAS"]
        finally:
            gold_ud.characters, system_ud.characters = originals
        ordered = {metric: score for metric, score in result.items() if metric != "WeightedLAS"}
        ordered["CLAS"] = clas
        if "WeightedLAS" in result:
            ordered["WeightedLAS"] = result["WeightedLAS"]
        return ordered

    module.evaluate = evaluate  # what evaluate_wrapper, main and TestAlignment call
    _modules["conll17_v13"] = module
    return module


_EMULATED = {"conll18_released": load_conll18_released, "conll18_head": load_conll18_head,
             "conll17_v13": load_conll17_v13}


def require_oracle(name: str):
    """``load_oracle`` for tests: skips with a clear reason when the oracle cannot be had."""
    import pytest

    try:
        return _EMULATED[name]() if name in _EMULATED else load_oracle(name)
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
