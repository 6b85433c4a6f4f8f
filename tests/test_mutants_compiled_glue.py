"""The Python glue around the compiled core (``align._compiled_walk`` and ``_lower_form_ids``,
``enhanced._compiled_edges``, ``_deps_bytes`` and ``deps_all_underscore``'s compiled branch)
gives the numpy path's alignments and enhanced edges.

The compiled modules are loaded by name and put in place with ``monkeypatch``, so these tests
run also under ``CONLL_EVAL_PURE=1``: there nothing else calls the glue, and ``make mutation``
(which runs on the numpy path) reaches the glue's mutants only through them.  They skip when
the core is not built (``CONLL_EVAL_REQUIRE_COMPILED=1`` makes that a failure).
"""
import importlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conll_eval import align, enhanced
from conll_eval.evaluate import Settings, evaluate
from conll_eval.reader import load, parse_bytes
from conll_eval.treebank import Vocab

from strategies import generate_pair
from test_enhanced_compiled import _edges, _sentence, _source


def _compiled_module(name):
    try:
        return importlib.import_module(f"conll_eval.{name}")
    except ImportError:
        return None


CALIGN = _compiled_module("_calign")
CENHANCED = _compiled_module("_cenhanced")
pytestmark = pytest.mark.skipif(
    (CALIGN is None or CENHANCED is None) and not os.environ.get("CONLL_EVAL_REQUIRE_COMPILED"),
    reason="the compiled core is not built here")


def _pairs(gold_text: str, system_text: str, use_compiled: bool, monkeypatch):
    vocab = Vocab()
    gold = parse_bytes(gold_text.encode(), "gold", "conll18", vocab)
    system = parse_bytes(system_text.encode(), "system", "conll18", vocab)
    monkeypatch.setattr(align, "_calign", CALIGN if use_compiled else None)
    found = align.align_words(gold, system)
    return found.gold_idx.tolist(), found.sys_idx.tolist()


def assert_same_alignment(gold_text, system_text, monkeypatch):
    compiled = _pairs(gold_text, system_text, True, monkeypatch)
    assert compiled == _pairs(gold_text, system_text, False, monkeypatch)
    return compiled


@pytest.mark.parametrize("seed", range(60))
def test_generated_pairs_align_as_the_numpy_walk_does(seed, monkeypatch):
    gold_text, system_text = generate_pair(random.Random(seed))
    assert_same_alignment(gold_text, system_text, monkeypatch)


def _doc(*sentences):
    return "".join(s.strip("\n") + "\n\n" for s in sentences)


def _words(*forms, mwt=None):
    """A sentence of plain words; ``mwt`` = (first, last, FORM) makes one multi-word token."""
    lines = []
    for i, form in enumerate(forms, 1):
        if mwt and mwt[0] == i:
            lines.append(f"{mwt[0]}-{mwt[1]}\t{mwt[2]}\t_\t_\t_\t_\t_\t_\t_\t_")
        head = 0 if i == 1 else 1
        lines.append(f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t_\t_")
    return "\n".join(lines)


def test_spans_in_several_sentences_use_each_word_s_own_lowered_form(monkeypatch):
    # three multi-word spans of different lengths: each span's words get the ids of their own
    # FORMs (the offsets of the second and third spans depend on the first's length)
    gold = _doc(_words("a", "de", "el", "b", mwt=(2, 3, "Del")),
                _words("c", "x", "y", "z", mwt=(1, 3, "cxyz")),
                _words("En", "La", "q", mwt=(1, 2, "Enla")))
    system = _doc(_words("a", "DE", "L", "b", mwt=(2, 3, "Del")),
                  _words("c", "X", "Y", "z", mwt=(1, 3, "cxyz")),
                  _words("EN", "la", "q", mwt=(1, 2, "Enla")))
    gold_idx, sys_idx = assert_same_alignment(gold, system, monkeypatch)
    # case does not matter (both sides lowered), a different FORM does
    assert list(zip(gold_idx, sys_idx)) == [(0, 0), (1, 1), (3, 3), (4, 4), (5, 5), (6, 6),
                                            (7, 7), (8, 8), (9, 9), (10, 10)]


def test_a_span_s_words_from_the_text_and_from_the_token_s_codes(monkeypatch):
    # the gold side has a multi-word token, the system the same characters as plain words:
    # one side's FORMs come from codes, the other's from the text
    gold = _doc(_words("x", "in", "the", "y", mwt=(2, 3, "inthe")))
    system = _doc("1\tx\t_\tX\t_\t_\t0\troot\t_\t_\n"
                  "2\tIN\t_\tX\t_\t_\t1\tdep\t_\tSpaceAfter=No\n"
                  "3\tthe\t_\tX\t_\t_\t1\tdep\t_\t_\n4\ty\t_\tX\t_\t_\t1\tdep\t_\t_")
    gold_idx, sys_idx = assert_same_alignment(gold.replace("inthe", "INthe"), system, monkeypatch)
    assert list(zip(gold_idx, sys_idx)) == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_repeated_multiword_codes_share_their_lowered_ids(monkeypatch):
    # the same token FORM twice (one code) and a different one between
    sentence = _words("a", "de", "el", "b", "de", "el", mwt=(2, 3, "del"))
    again = _words("de", "el", "c", mwt=(1, 2, "del"))
    other = _words("a", "d", "el", "b", mwt=(2, 3, "del"))
    gold_idx, sys_idx = assert_same_alignment(_doc(sentence, again), _doc(other, again), monkeypatch)
    assert (1, 1) not in list(zip(gold_idx, sys_idx)) and (2, 2) in list(zip(gold_idx, sys_idx))


ENHANCED_HOW = ("path", "gzip", "memory")


def _enhanced_file(tmp_path, seed, odd):
    r = random.Random(seed)
    path = tmp_path / f"e{seed}.conllu"
    path.write_text("".join(_sentence(r, odd) for _ in range(r.randint(1, 6))), encoding="utf-8")
    return path


def _graph_and_edges(path, how, use_compiled, monkeypatch):
    monkeypatch.setattr(enhanced, "_cenhanced", CENHANCED if use_compiled else None)
    tb = load(_source(path, how), "iwpt")
    underscore = enhanced.deps_all_underscore(tb)
    edges = enhanced._compiled_edges(tb) if use_compiled else enhanced._reference_edges(tb)
    try:
        fresh = load(_source(path, how), "iwpt")
        graph = enhanced.enhanced_graph(fresh)
        found = {name: getattr(graph, name).tolist() for name in vars(graph)
                 if hasattr(getattr(graph, name), "tolist")}
        for name in found:  # label codes: interned in each path's own order
            if "label" in name:
                found[name] = [fresh.vocab.strings[c] for c in found[name]]
    except Exception as exc:  # a malformed DEPS item: the same error on both paths
        found = (type(exc).__name__, str(exc))
    return underscore, _edges(tb, edges), found


@pytest.mark.parametrize("how", ENHANCED_HOW)
@pytest.mark.parametrize("seed", range(12))
def test_enhanced_edges_and_graph_are_the_numpy_path_s(tmp_path, seed, how, monkeypatch):
    path = _enhanced_file(tmp_path, seed, odd=0.1 if seed % 3 == 0 else 0.0)
    assert (_graph_and_edges(path, how, True, monkeypatch)
            == _graph_and_edges(path, how, False, monkeypatch))


@pytest.mark.parametrize("how", ENHANCED_HOW)
@pytest.mark.parametrize("deps", ["_", "1:dep"])
def test_all_underscore_deps_found_by_the_compiled_reader(tmp_path, how, deps, monkeypatch):
    # the first word's DEPS are _, the second's decide
    path = tmp_path / "u.conllu"
    path.write_text(f"1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t{deps}\t_\n\n",
                    encoding="utf-8")
    compiled = _graph_and_edges(path, how, True, monkeypatch)
    assert compiled == _graph_and_edges(path, how, False, monkeypatch)
    assert compiled[0] is (deps == "_")


#: run in a child, so that a crash fails the test instead of ending pytest: every entry point
#: of every compiled module refuses None in each array argument (the others real) with a
#: TypeError; typed memoryviews take None unless declared ``not None``, then crash on use
_NONE_PROBE = r"""
import importlib, random, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from strategies import generate_pair
from conll_eval import align, enhanced
from conll_eval.reader import load, parse_bytes
from conll_eval.treebank import Vocab

calls = []
def record(module, name):
    real = getattr(module, name)
    def spy(*args):
        calls.append((module.__name__, name, args))
        return real(*args)
    setattr(module, name, spy)

calign, cenhanced = (importlib.import_module(f"conll_eval.{m}") for m in ("_calign", "_cenhanced"))
for name in ("walk", "lcs_pairs", "merge_pairs"):
    record(calign, name)
for name in ("parse_deps", "all_underscore"):
    record(cenhanced, name)
align._calign, enhanced._cenhanced = calign, cenhanced
vocab = Vocab()
gold, system = generate_pair(random.Random(3))
align.align_words(parse_bytes(gold.encode(), "g", "conll18", vocab),
                  parse_bytes(system.encode(), "s", "conll18", vocab))
text = "1\ta\t_\tX\t_\t_\t0\troot\t0:root\t_\n2\tb\t_\tX\t_\t_\t1\tdep\t1:dep\t_\n\n"
enhanced.enhanced_graph(parse_bytes(text.encode(), "e", "iwpt", vocab))
deps = load(sys.argv[2], "iwpt")
enhanced.deps_all_underscore(deps)
names = set()
for module, name, args in calls:
    function = getattr(sys.modules[module], name).__closure__[0].cell_contents
    for k, value in enumerate(args):
        if isinstance(value, (np.ndarray, bytes, memoryview)):
            try:
                function(*args[:k], None, *args[k + 1:])
            except TypeError:
                names.add(name)
                continue
            raise SystemExit(f"{name} took None as argument {k}")
for module_name in ("_calign", "_ccount", "_cenhanced", "_cscan", "_cvalidate"):
    module = importlib.import_module(f"conll_eval.{module_name}")
    for name in dir(module):
        function = getattr(module, name)
        if name.startswith("_") or "cython_function" not in type(function).__name__:
            continue
        required = function.__code__.co_argcount - len(function.__defaults__ or ())
        try:
            function(*[None] * required)
        except (TypeError, ValueError, AttributeError):
            continue
        raise SystemExit(f"{module_name}.{name} took None")
print(" ".join(sorted(names)))
"""


def test_compiled_entry_points_refuse_none_instead_of_crashing(tmp_path):
    deps_file = tmp_path / "deps.conllu"
    deps_file.write_text("1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    child = subprocess.run([sys.executable, "-c", _NONE_PROBE, str(Path(__file__).parent), str(deps_file)],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.split() == ["all_underscore", "lcs_pairs", "merge_pairs", "parse_deps", "walk"]


def _deps_file(tmp_path, *deps):
    path = tmp_path / "d.conllu"
    lines = [f"{i}\tw{i}\t_\tX\t_\t_\t{0 if i == 1 else 1}\t{'root' if i == 1 else 'dep'}\t{d}\t_"
             for i, d in enumerate(deps, 1)]
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("deps, expected", [(("_",), True), (("_", "_"), True),
                                            (("_", "1:dep"), False), (("0:root", "_"), False)])
def test_the_compiled_parser_notes_whether_all_deps_are_underscores(tmp_path, deps, expected,
                                                                    monkeypatch):
    # what the parser noted is what deps_all_underscore answers afterwards for that file
    monkeypatch.setattr(enhanced, "_cenhanced", CENHANCED)
    tb = load(str(_deps_file(tmp_path, *deps)), "iwpt")
    enhanced._compiled_edges(tb)
    assert enhanced.deps_all_underscore(tb) is expected


def test_items_the_compiled_parser_leaves_to_python_keep_every_word_s_edges(tmp_path, monkeypatch):
    # +1 and 1_0-like items are what int() reads but the compiled parser does not: two
    # words' worth of them, merged in word order with the regular edges
    path = _deps_file(tmp_path, "0:root", "+1:dep|1:obj", "+2:nsubj", "1:dep")
    compiled = _graph_and_edges(path, "path", True, monkeypatch)
    assert compiled == _graph_and_edges(path, "path", False, monkeypatch)
    word, head, label = compiled[1][:3]
    assert (word, head, label) == ([0, 1, 1, 2, 3], [0, 1, 1, 2, 1],
                                   ["root", "dep", "obj", "nsubj", "dep"])


def test_deps_interned_before_the_graph_are_read_by_the_reference(tmp_path, monkeypatch):
    monkeypatch.setattr(enhanced, "_cenhanced", CENHANCED)
    tb = load(str(_deps_file(tmp_path, "0:root", "1:dep")), "iwpt")
    tb.deps  # interned: no lazy DEPS bytes left for the compiled parser
    assert enhanced._deps_bytes(tb) is None and enhanced._compiled_edges(tb) is None
    graph = enhanced.enhanced_graph(tb)
    assert graph.word.tolist() == [0, 1] and graph.head.tolist() == [-1, 0]


_ENHANCED_LABELS = ("nsubj", "obj", "obl:in", "conj>obj", "ref", "acl:relcl", "nmod:poss")


def _enhanced_document(r: random.Random, lengths) -> str:
    """Sentences of the given lengths (FORMs w1, w2, ...: two documents of the same lengths
    have the same text) with random DEPS, repeated edges included."""
    sentences = []
    for n in lengths:
        lines = []
        for i in range(1, n + 1):
            items = [f"{r.randint(0, n)}:{r.choice(_ENHANCED_LABELS)}" for _ in range(r.randint(1, 3))]
            head = 0 if i == 1 else r.randint(1, i - 1)
            lines.append(f"{i}\tw{i}\t_\tX\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t"
                         f"{'|'.join(items)}\t_")
        sentences.append("\n".join(lines) + "\n\n")
    return "".join(sentences)


def _enhanced_scores(gold_text, system_text, profile, use_compiled, monkeypatch):
    monkeypatch.setattr(enhanced, "_cenhanced", CENHANCED if use_compiled else None)
    vocab = Vocab()
    gold = parse_bytes(gold_text.encode(), "gold", profile, vocab)
    system = parse_bytes(system_text.encode(), "system", profile, vocab)
    extra = () if profile == "iwpt" else ("ELAS", "EULAS")
    counts = evaluate(gold, system, Settings(profile, extra_metrics=extra)).counts
    return {name: (counts[name].total, counts[name].by_sentence.tolist(), counts[name].has_aligned,
                   counts[name].has_aligned_accuracy) for name in ("ELAS", "EULAS")}


@pytest.mark.parametrize("profile", ["iwpt", "conll18"])  # the nested count, and edges as sets
@pytest.mark.parametrize("seed", range(8))
def test_enhanced_counts_are_the_numpy_path_s(seed, profile, monkeypatch):
    r = random.Random(seed)
    lengths = [r.randint(1, 7) for _ in range(r.randint(1, 5))]
    gold_text, system_text = _enhanced_document(r, lengths), _enhanced_document(r, lengths)
    compiled = _enhanced_scores(gold_text, system_text, profile, True, monkeypatch)
    assert compiled == _enhanced_scores(gold_text, system_text, profile, False, monkeypatch)
    assert compiled["ELAS"][0][1] > 0  # gold edges were counted
