"""The public surface: __all__, the documented API, compat, and the module import direction."""
import ast
import io
from pathlib import Path

import pytest

import conll_eval
from conll_eval import compat

from helpers import document, sentence

PACKAGE = Path(conll_eval.__file__).resolve().parent
#: modules in the architecture's order; imports may only point to earlier entries
LAYERS = ["errors", "workers", "treebank", "scan", "reader", "validate", "align", "stats", "metrics",
          "groupings", "significance", "evaluate", "suite", "report", "compat", "cli"]

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
