"""Issue 41, 3.16: what a command needs, and no more, loads at start-up.  ``--version``, the
help, ``help COMMAND``, ``completion`` and ``man`` build parsers only: numpy and the scoring
stack (the evaluation, the reader, the metrics' counting, the analyses, the report
formatters) load when a command scores."""
import os
import subprocess
import sys

import pytest

import conll_eval
from conll_eval.compiled import core_description

#: modules that only scoring (or an analysis) needs
HEAVY = ("numpy", "conll_eval.evaluate", "conll_eval.metrics", "conll_eval.treebank",
         "conll_eval.io.read", "conll_eval.report.official", "conll_eval.analyze.groupings")

#: commands that print without scoring: (argv, a line of what they print)
LIGHT = [
    (["--version"], "conll_eval "),
    (["--help"], "usage: conll_eval"),
    ([], "usage: conll_eval"),
    (["help"], "usage: conll_eval"),
    (["score", "--help"], "usage: conll_eval"),
    (["suite", "--help"], "usage: conll_eval suite"),
    (["validate", "--help"], "usage: conll_eval validate"),
    (["compare", "--help"], "usage: conll_eval compare"),
    (["help", "compare"], "usage: conll_eval compare"),
    (["report", "--help"], "usage: conll_eval report"),
    (["analyze", "--help"], "usage: conll_eval analyze"),
    (["tagger", "--help"], "Usage: conll_eval tagger"),
    (["breakdown", "--help"], "usage: conll_eval breakdown"),
    (["alignment", "--help"], "usage: conll_eval alignment"),
    (["help", "completion"], "usage: conll_eval completion"),
    (["help", "man"], "usage: conll_eval man"),
    (["completion", "bash"], "complete -"),
    (["completion", "zsh"], "#compdef"),
    (["man"], ".TH"),
    (["man", "suite"], ".TH"),
]


def _loaded_after(argv, env=None):
    """(exit status, stdout, the HEAVY modules loaded) of ``main(argv)`` in a fresh interpreter."""
    code = ("import io, sys\n"
            "from conll_eval.cli import main\n"
            "out = io.StringIO()\n"
            f"status = main({argv!r}, out, io.StringIO())\n"
            "print(status)\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
            "print(out.getvalue())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    status, loaded, printed = done.stdout.split("\n", 2)
    return int(status), loaded.split(), printed


@pytest.mark.parametrize("argv, shown", LIGHT, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_printing_commands_load_no_scoring_stack(argv, shown):
    status, loaded, printed = _loaded_after(argv)
    assert status == 0 and shown in printed
    assert loaded == []


def test_scoring_still_loads_what_it_needs(testdata):
    pair = testdata / "golden" / "mwt-resplit"
    status, loaded, printed = _loaded_after([str(pair / "gold.conllu"), str(pair / "system.conllu")])
    assert status == 0 and "LAS F1 Score" in printed
    assert {"numpy", "conll_eval.evaluate", "conll_eval.report.official"} <= set(loaded)


def test_the_console_command_prints_its_version_without_numpy():
    """The real process path (``python -m conll_eval --version``, ``-X importtime`` lists
    every module imported): no numpy, and the core named as before."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "conll_eval", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "conll_eval.cli.score" in imported  # the listing is real
    assert not imported & set(HEAVY)
    assert done.stdout == f"conll_eval {conll_eval.__version__} (core: {core_description()})\n"


def test_version_names_the_numpy_path_when_asked_for():
    status, loaded, printed = _loaded_after(["--version"], {"CONLL_EVAL_PURE": "1"})
    assert printed.strip().endswith("(core: numpy (CONLL_EVAL_PURE is set))") and loaded == []


def test_the_installed_core_is_the_loaded_one_here():
    assert core_description(loaded=False) == core_description()


def test_lazy_public_names_are_the_functions_and_classes():
    """``import conll_eval`` loads no numpy; the public names load their modules on first use,
    and ``conll_eval.evaluate`` stays the function when its module is imported first."""
    code = ("import sys, conll_eval\n"
            "print('numpy' in sys.modules)\n"
            "import conll_eval.evaluate\n"
            "module = sys.modules['conll_eval.evaluate']\n"
            "from conll_eval.stats import Score\n"
            "from conll_eval import evaluate, load, Vocab\n"
            "print(conll_eval.evaluate is module.evaluate is evaluate, callable(evaluate))\n"
            "print(conll_eval.Score is Score, conll_eval.load.__module__, Vocab.__module__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[:3] == ["False", "True True", "True conll_eval.io.conllu conll_eval.treebank"], \
        done.stderr
