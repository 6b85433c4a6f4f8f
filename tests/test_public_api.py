"""The public surface: __all__, the documented API, compat, and the module import direction."""
import ast
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import conll_eval
from conll_eval import compat

from helpers import document, sentence

PACKAGE = Path(conll_eval.__file__).resolve().parent
#: modules in the architecture's order; imports may only point to earlier entries
LAYERS = ["errors", "workers", "treebank", "io", "scan", "reader", "validate", "align", "stats", "metric_specs",
          "metrics",
          "evaluate", "pairing", "suite", "analyze", "report", "compat", "leaderboard", "cli"]

GOLD = document(sentence("1 The 2 det", "2 cat 0 root"), sentence("1 Hi 0 root"))
# (the system file also carries DEPS and MISC values, which are read lazily)
SYSTEM = document(sentence("1 The 2 det", "2 cat 0 root", "3 Hi 2 dep")).replace(
    "\t_\t_\n3", "\t2:nsubj\tSpaceAfter=No\n3")


def test_all_holds_strings_that_exist():
    assert all(isinstance(name, str) for name in conll_eval.__all__)
    for name in conll_eval.__all__:
        assert hasattr(conll_eval, name), name
    for name in ("load", "evaluate_files", "evaluate", "Score", "ConllEvalError", "__version__"):
        assert name in conll_eval.__all__


#: every public submodule, reachable as ``conll_eval.<name>`` without importing it first
SUBMODULES = ["errors", "limits", "workers", "background", "treebank", "io", "scan", "reader", "reserve", "compiled_counts", "empty_nodes",
              "validate", "align",
              "stats", "enhancements", "enhanced", "metric_specs", "metrics", "evaluate", "naming", "pairing", "suite", "analyze", "report",
              "compat", "cli", "compiled", "leaderboard"]
#: imported by ``import conll_eval`` only on first attribute access (start-up stays lean)
NOT_AT_STARTUP = ["conll_eval.validate", "conll_eval.compat", "conll_eval.cli", "conll_eval.report",
                  "conll_eval.analyze"]


def _python(code: str) -> str:
    """Run ``code`` in a fresh interpreter (nothing imported yet); its stdout."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_submodules_are_attributes_without_importing_them_first():
    out = _python("import conll_eval\n"
                  "conll_eval.validate.iter_validate_file; conll_eval.compat.evaluate\n"
                  "conll_eval.report.verbose_table; conll_eval.cli.main\n"
                  "import sys\n"
                  f"for name in {SUBMODULES!r}:\n"
                  "    value = getattr(conll_eval, name)\n"
                  "    module = sys.modules['conll_eval.' + name]\n"
                  "    print(name, value is module or value is module.evaluate)\n")
    assert out.split() == [word for name in SUBMODULES for word in (name, "True")]


def test_import_loads_no_optional_submodule():
    out = _python("import sys, conll_eval\n"
                  "print(' '.join(sorted(m for m in sys.modules if m.startswith('conll_eval'))))")
    loaded = set(out.split())
    assert "conll_eval" in loaded
    for name in NOT_AT_STARTUP:
        assert not any(m == name or m.startswith(name + ".") for m in loaded), name


def test_dir_lists_the_submodules():
    listing = dir(conll_eval)
    for name in SUBMODULES + conll_eval.__all__:
        assert name in listing, name
    assert listing == sorted(listing)


def test_unknown_attribute_raises_the_usual_attribute_error():
    with pytest.raises(AttributeError) as info:
        conll_eval.no_such_thing
    assert str(info.value) == "module 'conll_eval' has no attribute 'no_such_thing'"
    assert not hasattr(conll_eval, "__main__")  # never run the CLI by attribute access
    with pytest.raises(ImportError):
        from conll_eval import no_such_thing  # noqa: F401


def test_every_public_module_is_listed():
    found = {p.stem for p in PACKAGE.glob("*.py") if not p.name.startswith("_")}
    found |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert found == set(SUBMODULES), "list a new public module in conll_eval/__init__.py's _SUBMODULES"
    assert set(conll_eval._SUBMODULES) == set(SUBMODULES)


def test_evaluate_files_and_load(write):
    gold, system = write("g.conllu", GOLD), write("s.conllu", SYSTEM)
    evaluation = conll_eval.evaluate_files(gold, system, profile="conll18")
    assert evaluation.scores["Sentences"].correct == 0
    assert evaluation.scores["Sentences"].recall == 0.0
    assert evaluation.scores["Words"].f1 == 1.0
    assert evaluation.scores["UAS"].correct == 2
    treebank = conll_eval.load(gold)
    assert treebank.n_words == 3 and treebank.n_sentences == 2
    assert "profile:conll18" in evaluation.signature


def test_per_sentence_counts_add_up(write):
    evaluation = conll_eval.evaluate_files(write("g.conllu", GOLD), write("s.conllu", SYSTEM))
    for name, counts in evaluation.counts.items():
        total = counts.by_sentence.sum(axis=0)
        correct, gold, system, aligned = counts.total
        assert total[0] == correct and total[1] == gold and total[2] == system, name


def test_compat_is_a_drop_in(write):
    gold = compat.load_conllu_file(write("g.conllu", GOLD))
    system = compat.load_conllu(io.StringIO(SYSTEM))
    evaluation = compat.evaluate(gold, system)
    las = evaluation["LAS"]
    assert (las.correct, las.gold_total, las.system_total, las.aligned_total) == (2, 3, 3, 3)
    assert evaluation["Words"].aligned_total is None and evaluation["Tokens"].aligned_accuracy is None
    table = compat.build_evaluation_table(evaluation, verbose=True, counts=False)
    assert table.startswith("Metric     | Precision |")
    with pytest.raises(compat.UDError) as info:
        compat.load_conllu(io.StringIO(sentence("1 a 0 root", "2 b 0 root")))
    assert str(info.value) == "There are 2 roots in a sentence at line 3"
    assert info.value.error.code == "multiple-roots"


def test_compat_text_mismatch_is_a_uderror():
    gold = compat.load_conllu(io.StringIO(sentence("1 a 0 root")))
    system = compat.load_conllu(io.StringIO(sentence("1 b 0 root")))
    with pytest.raises(compat.UDError) as info:
        compat.evaluate(gold, system)
    assert str(info.value).startswith("The concatenation of tokens in gold file and in system file differ!")


def _imports(path: Path):
    """Package modules imported by a module (relative imports; a subpackage such as
    ``report/`` or ``cli/`` is one layer)."""
    in_subpackage = path.parent != PACKAGE
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module:
            if in_subpackage and node.level == 1:
                continue  # within the subpackage
            yield node.module.split(".")[0]


def _layer(name: str) -> str:
    return name[:-3] if name.endswith(".py") else name


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_downward(path):
    module = path.parent.name if path.parent != PACKAGE else _layer(path.name)
    if module not in LAYERS:
        return  # __init__ / __main__ may import anything
    own = LAYERS.index(module)
    for imported in _imports(path):
        if imported in LAYERS and imported != module:
            assert LAYERS.index(imported) < own, f"{module} imports {imported}"


def test_parallel_loading_gives_the_same_scores(write):
    import sys
    evaluate_module = sys.modules["conll_eval.evaluate"]
    gold, system = write("g.conllu", GOLD), write("s.conllu", SYSTEM)
    results = []
    for parallel in (False, True):
        g, s = evaluate_module.load_pair(gold, system, "conll18", parallel=parallel)
        scores = {k: v.as_dict() for k, v in conll_eval.evaluate(g, s).scores.items()}
        columns = {name: s.strings(name) for name in ("form", "lemma", "deps", "misc")}
        results.append((scores, columns))
    assert results[0] == results[1]


def test_parallel_loading_reports_gold_errors_first(write):
    import sys
    evaluate_module = sys.modules["conll_eval.evaluate"]
    bad = write("bad.conllu", sentence("1 a 0 root", "2 b 0 root"))
    worse = write("worse.conllu", "1\tx\n\n")
    with pytest.raises(conll_eval.InputError) as info:
        evaluate_module.load_pair(bad, worse, "conll18", parallel=True)
    assert info.value.code == "multiple-roots" and info.value.location.path == bad
    with pytest.raises(conll_eval.InputError) as info:
        evaluate_module.load_pair(write("ok.conllu", GOLD), worse, "conll18", parallel=True)
    assert info.value.code == "wrong-column-count"


def test_scoring_a_pair_imports_only_what_scoring_needs(testdata):
    """Start-up: ``conll_eval GOLD SYSTEM`` loads no other command's modules (suite,
    validator, analyses, the other subcommands, the HTML report), nor the enhanced graphs
    and empty-node collapsing that only ELAS/EULAS and --collapse-empty-nodes need."""
    pair = testdata / "golden" / "mwt-resplit"
    out = _python("import io, sys\n"
                  "from conll_eval.cli import main\n"
                  f"main([{str(pair / 'gold.conllu')!r}, {str(pair / 'system.conllu')!r}],"
                  " io.StringIO(), io.StringIO())\n"
                  "print(' '.join(sorted(m for m in sys.modules if m.startswith('conll_eval'))))")
    loaded = set(out.split())
    assert "conll_eval.evaluate" in loaded
    for name in ("conll_eval.suite", "conll_eval.validate", "conll_eval.analyze",
                 "conll_eval.compat", "conll_eval.cli.suite", "conll_eval.cli.validate",
                 "conll_eval.cli.analyze", "conll_eval.cli.compare", "conll_eval.cli.report",
                 "conll_eval.cli.tagger", "conll_eval.report.html", "conll_eval.enhanced",
                 "conll_eval.empty_nodes"):
        assert not any(m == name or m.startswith(name + ".") for m in loaded), name


@pytest.mark.parametrize("argv0, preset, expected", [
    ("-m", None, "1"),                  # python -m conll_eval
    ("/usr/bin/conll_eval", None, "1"),  # the console script
    ("-m", "4", "4"),                   # the user's choice stands
    ("/home/me/notebook.py", None, None),  # a program importing the library: numpy's default
])
def test_command_line_runs_one_blas_thread(argv0, preset, expected):
    """The command (only) asks OpenBLAS for one thread: its spinning threads would take a
    core from the reading threads, and scoring multiplies no matrices."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    code = (f"import sys; sys.argv = [{argv0!r}]; import conll_eval, os; "
            "print(os.environ.get('OPENBLAS_NUM_THREADS'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True)
    assert done.stdout.strip() == str(expected)
