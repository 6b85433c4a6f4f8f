"""The compiled DEPS parser (``conll_eval._cenhanced``) against its reference, each distinct DEPS
string parsed by ``enhanced._parse_deps``: the same edges (word, head, label and universal
label as strings), the same first malformed word and error, the same "every DEPS is _"
answer, on generated files with regular and hostile DEPS and on the ../shared/ud gold files.
"""
import gzip
import io
import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conll_eval import ConllEvalError, enhanced
from conll_eval.compiled import cenhanced
from conll_eval.evaluate import Settings, evaluate_files
from conll_eval.reader import load
from conll_eval.scan import LazyCodes
from strategies_enhanced import enhanced_pairs

SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"
pytestmark = pytest.mark.skipif(
    cenhanced is None and not os.environ.get("CONLL_EVAL_REQUIRE_COMPILED"),
    reason="the compiled DEPS parser is not in use here")

LABELS = ("nsubj", "obj", "obl:in", "conj:and>obl:voor", "nmod:poss", "acl:relcl", "ref", "root",
          "nsubj:xsubj", "ccomp", "é:ü", "conj>obj", "obl:arg:in")
#: items the compiled parser leaves to the reference (errors, or what int() also accepts)
ODD_ITEMS = ("1.0:dep", "3:", "x:dep", "nsubj", "-1:dep", "+2:dep", "02:obj", "99999999999:x",
             "٣:obj", "2:a>>b", "2:>a", "2:a>", ":dep", "1_0:x", " 1:x", "12.5:dep",
             "1234567890:x", "2:", "2:dep:")


def _sentence(r: random.Random, odd: float) -> str:
    n = r.randint(1, 8)
    lines = []
    for i in range(1, n + 1):
        head = 0 if i == 1 else r.randint(1, i - 1)
        if r.random() < 0.1:
            deps = r.choice(("_", ""))
        else:
            items = [f"{r.randint(0, n + (1 if r.random() < 0.02 else 0))}:{r.choice(LABELS)}"
                     for _ in range(r.randint(1, 3))]
            if r.random() < odd:
                items[r.randrange(len(items))] = r.choice(ODD_ITEMS)
            if odd and r.random() < 0.01:
                items.append("")
            deps = "|".join(items)
        misc = r.choice(("_", "SpaceAfter=No", "a|b:c"))
        lines.append(f"{i}\tw{i}\tw\tX\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t{deps}\t{misc}")
    return "\n".join(lines) + "\n\n"


def _edges(tb, edges):
    word, head, label, ulabel, first_bad, exc = edges
    strings = tb.vocab.strings
    return (word.tolist(), head.tolist(), [strings[c] for c in label.tolist()],
            [strings[c] for c in ulabel.tolist()], first_bad,
            None if exc is None else (exc.code, exc.message))


def _source(path, how):
    """The file as the reader gets it: a path (DEPS read again from the file), a gzip file
    (a stream: the DEPS bytes kept joined), a binary file object (kept in memory)."""
    if how == "path":
        return str(path)
    if how == "gzip":
        packed = Path(str(path) + ".gz")
        packed.write_bytes(gzip.compress(path.read_bytes()))
        return str(packed)
    return io.BytesIO(path.read_bytes())


def _both(path, how="path"):
    fresh = load(_source(path, how), "iwpt")  # the answer read from the bytes, before any parse
    fresh_underscore = enhanced.deps_all_underscore(fresh)
    assert isinstance(fresh.columns.get("deps"), LazyCodes)
    tb = load(_source(path, how), "iwpt")
    assert isinstance(tb.columns.get("deps"), LazyCodes)
    compiled = _edges(tb, enhanced._compiled_edges(tb))
    compiled_underscore = enhanced.deps_all_underscore(tb)
    assert compiled_underscore == fresh_underscore
    assert isinstance(tb.columns.get("deps"), LazyCodes)  # nothing interned per word
    reference = _edges(tb, enhanced._reference_edges(tb))   # interns the DEPS column
    assert not isinstance(tb.columns.get("deps"), LazyCodes)
    return compiled, reference, compiled_underscore, enhanced.deps_all_underscore(tb)


@pytest.mark.parametrize("how", ["path", "gzip", "memory"])
@pytest.mark.parametrize("seed", range(40))
def test_generated_deps(tmp_path, seed, how):
    r = random.Random(seed)
    path = tmp_path / "f.conllu"
    path.write_text("".join(_sentence(r, odd=0.0 if seed % 4 == 0 else 0.05)
                            for _ in range(r.randint(1, 60))), encoding="utf-8")
    compiled, reference, underscore, reference_underscore = _both(path, how)
    assert compiled == reference
    assert underscore == reference_underscore


@pytest.mark.parametrize("item", ODD_ITEMS)
def test_each_odd_item(tmp_path, item):
    path = tmp_path / "f.conllu"
    path.write_text(f"1\ta\ta\tX\t_\t_\t0\troot\t0:root|{item}\t_\n"
                    f"2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n\n", encoding="utf-8")
    compiled, reference, _, _ = _both(path)
    assert compiled == reference


def test_many_distinct_paths(tmp_path):
    """More distinct paths than the compiled table starts with (it grows)."""
    r = random.Random(5)
    lines = []
    for s in range(700):
        lines.append("1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_")
        lines.append(f"2\tb\tb\tX\t_\t_\t1\tobl\t1:obl:x{r.randrange(5000)}|"
                     f"1:conj:{s}>nmod:y{s % 37}\t_")
        lines.append("")
    path = tmp_path / "f.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    compiled, reference, _, _ = _both(path)
    assert compiled == reference and len(set(compiled[2])) > 1200


@pytest.mark.parametrize("how", ["path", "gzip", "memory"])
@pytest.mark.parametrize("deps", ["_", ""])
def test_all_underscore(tmp_path, deps, how):
    path = tmp_path / "f.conllu"
    path.write_text(f"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t{deps}\tX=1\n\n",
                    encoding="utf-8")
    compiled, reference, underscore, reference_underscore = _both(path, how)
    assert compiled == reference and compiled[0] == []
    assert underscore == reference_underscore == (deps == "_")


def test_graph_and_errors_are_the_reference_s(tmp_path, monkeypatch):
    """enhanced_graph itself (switches included) and its error, compiled and reference."""
    r = random.Random(7)
    good = tmp_path / "good.conllu"
    good.write_text("".join(_sentence(r, 0.0) for _ in range(80)), encoding="utf-8")
    bad = tmp_path / "bad.conllu"
    bad.write_text("".join(_sentence(r, 0.3) for _ in range(80)), encoding="utf-8")
    options = enhanced.EnhancedOptions(enhancements="1456")

    def graph_or_error(path, opts):
        tb = load(str(path), "iwpt")
        try:
            g = enhanced.enhanced_graph(tb, opts)
        except ConllEvalError as exc:
            return str(exc)
        s = tb.vocab.strings
        return (g.word.tolist(), g.head.tolist(), [s[c] for c in g.label.tolist()],
                [s[c] for c in g.ulabel.tolist()])

    for path in (good, bad):
        for opts in (enhanced.EnhancedOptions(), options):
            compiled = graph_or_error(path, opts)
            monkeypatch.setattr(enhanced, "_cenhanced", None)
            reference = graph_or_error(path, opts)
            monkeypatch.undo()
            assert compiled == reference
    assert isinstance(graph_or_error(bad, options), str)


@pytest.mark.parametrize("name", ["en_ewt", "fi_tdt"])
def test_shared_gold_files(name):
    path = SHARED_UD / name / "gold.conllu"
    if not path.is_file():
        pytest.skip(f"{path} not here")
    compiled, reference, underscore, reference_underscore = _both(path)
    assert compiled == reference and len(compiled[0]) > 1000
    assert underscore == reference_underscore is False


def test_scoring_interns_no_deps_column(tmp_path):
    """--profile iwpt (ELAS, EULAS and the 'system predicts no DEPS' note) reads the DEPS
    bytes only: neither file's DEPS column is interned (the cost it had on big files)."""
    r = random.Random(3)
    text = "".join(_sentence(r, 0.0) for _ in range(50))
    (tmp_path / "g.conllu").write_text(text, encoding="utf-8")
    (tmp_path / "s.conllu").write_text(text.replace(":nsubj", ":obj"),
                                       encoding="utf-8")
    evaluation = evaluate_files(str(tmp_path / "g.conllu"), str(tmp_path / "s.conllu"),
                                settings=Settings(profile="iwpt"))
    evaluation.unannotated()
    elas = evaluation["ELAS"]
    assert elas.gold > 0 and elas.system > 0
    for tb in (evaluation.gold, evaluation.system):
        assert isinstance(tb.columns.get("deps"), LazyCodes)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=enhanced_pairs(), enhancements=st.sampled_from(["0", "1", "12", "456"]))
def test_official_counts_are_the_reference_s(tmp_path_factory, pair, enhancements):
    """The compiled nested count of ELAS/EULAS equals the numpy one per sentence (pairs with
    raw-text tokenization, so some words have no partner)."""
    tmp = tmp_path_factory.mktemp("counts")
    (tmp / "g.conllu").write_text(pair[0], encoding="utf-8")
    (tmp / "s.conllu").write_text(pair[1], encoding="utf-8")

    def counts():
        try:
            e = evaluate_files(str(tmp / "g.conllu"), str(tmp / "s.conllu"),
                               settings=Settings(profile="iwpt", enhancements=enhancements))
        except ConllEvalError as exc:
            return str(exc)
        return [(c.by_sentence.tolist(), c.total, c.has_aligned, c.has_aligned_accuracy)
                for c in (e.counts["ELAS"], e.counts["EULAS"])]

    compiled = counts()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(enhanced, "_cenhanced", None)
        assert counts() == compiled


def test_official_counts_need_edges_in_word_order():
    one = np.array([1, 0], dtype=np.int64)
    zero = np.zeros(2, dtype=np.int64)
    with pytest.raises(ValueError):
        cenhanced.official_counts(one, zero, zero, 2, zero, zero, zero, 2, zero, zero, zero, 1,
                                  enhanced.ROOT, enhanced.UNMATCHED)
