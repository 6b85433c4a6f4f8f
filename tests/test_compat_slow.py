"""Slow checks of the compat modules with code and data no one here wrote (issue 27).

* the official modules' own ``TestAlignment`` classes, taken from the official modules at
  test time, their module globals (``load_conllu``, ``evaluate``, ``UDError``) rebound to the
  compat module: the same outcome as on the official module, test by test;
* the command lines that ufal/conll2017 and ufal/conll2018 check in their CI (conll17
  ``-v -w weights``, conll18 ``-v`` and ``-c``), run on our golden cases by the official
  ``main`` and the compat ``main``: byte-identical;
* stanza's own scoring code (``ud_scores`` and the ``run_eval_script*`` wrappers of its
  trainers, taken from the stanza wheel on PyPI at test time; stanza itself needs torch, so
  the functions are run alone) with ``udeval`` bound to compat.udeval and to udtools' udeval;
* the ../shared/ud pairs (read at test time) and generated pairs (tests/strategies*.py):
  the same numbers and UDError texts as each official module.
"""
from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import types
import unittest
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compat_support import COMPAT, MODULES, SHARED_UD, Outcome, assert_same, both, official, outcome
from strategies import conllu_pairs, invalid_pairs
from strategies_enhanced import enhanced_pairs

pytestmark = [pytest.mark.slow, pytest.mark.ci_stage2]
GOLDEN = Path(__file__).resolve().parent.parent / "testdata" / "golden"

#: the strategies' profile name for each module
PROFILE = {"conll18": "conll18", "conll17": "conll17", "iwpt20": "iwpt", "udeval": "udeval"}


# ------------------------------------------------------------------------------ TestAlignment
def _rebound(test_class, namespace):
    """A copy of ``test_class`` whose methods read their globals from ``namespace``."""
    attrs = {}
    for key, value in vars(test_class).items():
        function = value.__func__ if isinstance(value, staticmethod) else value
        if isinstance(function, types.FunctionType):
            function = types.FunctionType(function.__code__, namespace, function.__name__,
                                          function.__defaults__, function.__closure__)
            value = staticmethod(function) if isinstance(value, staticmethod) else function
        attrs[key] = value
    return type(test_class.__name__, (unittest.TestCase,), attrs)


def _outcomes(test_class):
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(test_class).run(result)
    outcomes = {test.id().rsplit(".", 1)[-1]: "pass" for test in
                unittest.defaultTestLoader.loadTestsFromTestCase(test_class)}
    for kind, problems in (("failure", result.failures), ("error", result.errors)):
        for test, trace in problems:
            outcomes[test.id().rsplit(".", 1)[-1]] = f"{kind}: {trace.strip().splitlines()[-1].split(':')[0]}"
    return result.testsRun, outcomes


@pytest.mark.parametrize("name", MODULES)
def test_official_test_alignment_on_compat(name):
    module = official(name)
    calls = []
    ours = COMPAT[name]

    def evaluate(*args):
        calls.append(1)
        return ours.evaluate(*args)

    namespace = dict(vars(module))
    namespace.update(load_conllu=ours.load_conllu, evaluate=evaluate, UDError=ours.UDError)
    expected_run, expected = _outcomes(module.TestAlignment)
    run, got = _outcomes(_rebound(module.TestAlignment, namespace))
    assert run == expected_run == 4
    assert got == expected
    if name != "iwpt20":  # its TestAlignment calls load_conllu(file), which the script rejects
        assert set(got.values()) == {"pass"} and len(calls) == 14  # every _test_ok and _test_exception call
    else:
        assert all(v.startswith("error: TypeError") for v in got.values())


# ------------------------------------------------------------------------------ the repositories' CLI checks
#: the command lines ufal/conll2017 and ufal/conll2018 diff against recorded outputs in their CI
#: (their .travis.yml: conll17 ``-v -w weights.clas`` on every test pair, conll18 ``-v`` on every
#: pair and ``-c`` on one): the same options here, the 2017 CLAS weights being ours
CLI_CHECKS = {"conll17": [["-v", "-w", str(GOLDEN / "clas17-weights.txt")]],
              "conll18": [["-v"], ["-c"]]}
#: their pairs test mixed errors, spaces inside FORMs, case inside multi-word tokens and
#: functional children; our golden cases (hand-written, one behaviour each) cover those and more
GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
#: the recorded official outputs (scripts/make_golden.py) of the conll18 checks
RECORDED = {("conll18", "-v"): "expected-conll18-v.txt", ("conll18", "-c"): "expected-conll18-c.txt"}


@pytest.mark.parametrize("name,options", [(n, o) for n in CLI_CHECKS for o in CLI_CHECKS[n]],
                         ids=lambda v: v if isinstance(v, str) else " ".join(Path(a).name for a in v))
@pytest.mark.parametrize("case", GOLDEN_CASES)
def test_the_repositories_cli_checks_on_our_cases(name, options, case, monkeypatch, capsys):
    argv = [*options, str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu")]
    module = official(name)
    monkeypatch.setattr("sys.argv", [f"{name}_ud_eval.py", *argv])
    try:
        module.main()
    except module.UDError as exc:  # a case the 2017 script rejects: the same message
        with pytest.raises(COMPAT[name].UDError) as info:
            COMPAT[name].main(argv)
        assert str(info.value) == str(exc)
        return
    expected = capsys.readouterr().out
    assert expected.count("\n") >= 12  # the verbose or counts table
    COMPAT[name].main(argv)
    assert capsys.readouterr().out == expected
    if (name, options[0]) in RECORDED:
        assert (GOLDEN / case / RECORDED[name, options[0]]).read_text(encoding="utf-8") == expected


# ------------------------------------------------------------------------------ stanza
#: stanza's functions that score (file: names), run as written
STANZA_FUNCTIONS = {"stanza/models/common/utils.py": ("ud_scores",),
                    "stanza/utils/training/common.py": ("run_eval_script", "run_eval_script_tokens",
                                                        "run_eval_script_mwt", "run_eval_script_pos",
                                                        "run_eval_script_depparse")}


@pytest.fixture(scope="module")
def stanza_source(tmp_path_factory):
    """The source of stanza's scoring functions, from the newest stanza wheel on PyPI."""
    directory = tmp_path_factory.mktemp("stanza")
    try:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d",
                               str(directory), "stanza"], capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip("PyPI did not answer")
    wheels = sorted(directory.glob("stanza-*.whl"))
    if done.returncode or not wheels:
        pytest.skip("the stanza wheel cannot be downloaded from PyPI")
    functions = []
    with zipfile.ZipFile(wheels[-1]) as wheel:
        for path, names in STANZA_FUNCTIONS.items():
            tree = ast.parse(wheel.read(path).decode("utf-8"))
            functions += [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names]
    assert len(functions) == sum(len(names) for names in STANZA_FUNCTIONS.values())
    return compile(ast.Module(body=functions, type_ignores=[]), wheels[-1].name, "exec")


def _stanza_with(code, udeval_module):
    namespace = {"udeval": udeval_module, "UDError": udeval_module.UDError,
                 "ud_eval": udeval_module, "build_evaluation_table": udeval_module.build_evaluation_table}
    exec(code, namespace)
    return namespace


@pytest.mark.parametrize("case", ["mwt-resplit", "functional-children", "split-sentences", "merged-tokens"])
def test_stanzas_scoring_code_on_compat(stanza_source, case, tmp_path):
    theirs = _stanza_with(stanza_source, official("udeval"))
    ours = _stanza_with(stanza_source, COMPAT["udeval"])
    gold_path, system_path = GOLDEN / case / "gold.conllu", GOLDEN / case / "system.conllu"
    texts = [gold_path.read_text(encoding="utf-8"), system_path.read_text(encoding="utf-8")]
    for function in STANZA_FUNCTIONS["stanza/utils/training/common.py"]:
        for files in (lambda: [io.StringIO(t) for t in texts], lambda: [str(gold_path), str(system_path)],
                      lambda: [open(gold_path, encoding="utf-8"), open(system_path, encoding="utf-8")]):
            expected = theirs[function](*files())
            assert ours[function](*files()) == expected, function
    bad = io.StringIO("1\ta\n\n")  # stanza's own wrapping of the UDError
    with pytest.raises(COMPAT["udeval"].UDError, match="Could not process gold UD file") as info:
        ours["ud_scores"](bad, io.StringIO(texts[1]))
    assert "10 tab-separated columns" in str(info.value.__cause__)


# ------------------------------------------------------------------------------ ../shared/ud
SHARED_PAIRS = []
if SHARED_UD.is_dir():
    for reference in sorted(SHARED_UD.glob("*/reference.json")):
        for system_name in sorted(json.loads(reference.read_text(encoding="utf-8"))["pairs"]):
            SHARED_PAIRS.append((reference.parent.name, system_name))


def _by_path(module, gold: str, system: str, fields=None) -> Outcome:
    paths = {"gold": gold, "system": system}
    return outcome(lambda side: module.load_conllu_file(paths[side]), module.evaluate, fields)


@pytest.mark.skipif(not SHARED_PAIRS, reason="../shared/ud is not present")
@pytest.mark.parametrize("name", MODULES)
def test_shared_ud_pairs_give_the_official_numbers(name):
    module = official(name)
    for treebank, system_name in SHARED_PAIRS:
        gold, system = str(SHARED_UD / treebank / "gold.conllu"), str(SHARED_UD / treebank / system_name)
        theirs = _by_path(module, gold, system)
        fields = list(next(iter(theirs.scores.values()))) if theirs.scores else None
        ours = _by_path(COMPAT[name], gold, system, fields)
        assert ours == theirs, (name, treebank, system_name)
    assert len(SHARED_PAIRS) >= 10


# ------------------------------------------------------------------------------ generated pairs
HYPOTHESIS = dict(deadline=None, max_examples=150, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", ["conll18", "conll17"])
@settings(**HYPOTHESIS)
@given(data=st.data())
def test_generated_pairs_give_the_official_numbers(name, data):
    gold, system = data.draw(conllu_pairs(PROFILE[name]))
    assert_same(name, gold, system)


@pytest.mark.parametrize("name", ["iwpt20", "udeval"])
@settings(**HYPOTHESIS)
@given(pair=enhanced_pairs())
def test_generated_enhanced_pairs_give_the_official_numbers(name, pair):
    assert_same(name, pair[0], pair[1])


@pytest.mark.parametrize("name", MODULES)
@settings(**{**HYPOTHESIS, "max_examples": 100})
@given(data=st.data())
def test_generated_invalid_pairs_give_the_official_uderror(name, data):
    gold, system, _ = data.draw(invalid_pairs(PROFILE[name]))
    if "\udcff" in gold + system:
        return  # undecodable bytes: no text stream holds them
    theirs, ours = both(name, gold, system)
    if name == "iwpt20" and _EOF_IN_MWT.fullmatch(theirs.error or ""):
        # conll_eval's reader (not compat) names the multi-word token's line where the IWPT
        # scorer names the line after the end of the file
        assert _EOF_IN_MWT.fullmatch(ours.error or ""), ours.error
        return
    if (ours.error or "").endswith(_MWT_HEAD) and (theirs.error or "").startswith("UDError: "):
        # conll_eval's reader (conll_eval/io/exact_checks.py, not compat) parses the HEADs of
        # multi-word-token words before the in-order walk: an earlier word's HEAD error, which
        # the script meets first, is not the one reported
        return
    assert_same(name, gold, system)


_MWT_HEAD = "of a word inside a multi-word token: it must be an integer (the official script crashes here)"
_EOF_IN_MWT = re.compile(r"UDError: The CoNLL-U line does not contain 10 tab-separated columns at line \d+: ''")
