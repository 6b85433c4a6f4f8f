"""The four compat modules against the official modules they replace (issue 27).

conll_eval.compat (conll18_ud_eval), compat.conll17 (conll17_ud_eval v1.3), compat.iwpt20
(iwpt20_ud_eval) and compat.udeval (udtools.udeval): the official signatures and the calls
real callers make (stanza's, with file objects), ``treebank_type``, the same numbers and the
same UDError texts on the golden and invalid test files, udeval's longer mismatch message,
the relation sets a client extends, ``import *``, lone surrogates, and each ``main``.
Every official module is read at test time (``compat_support``); each test skips without it.
"""
from __future__ import annotations

import inspect
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conll_eval import compat
from conll_eval.compat import conll17, iwpt20, udeval

from compat_support import COMPAT, LOAD_ARGS, MODULES, assert_same, both, official
from helpers import row, sentence
from strategies_enhanced import enhanced_pairs

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
GOLDEN = TESTDATA / "golden"
INVALID = TESTDATA / "invalid"
COMPAT_DATA = TESTDATA / "compat"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
INVALID_CASES = sorted(p.stem for p in INVALID.glob("*.conllu") if p.stem not in ("invalid-utf8", "bom"))


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ------------------------------------------------------------------------------ numbers and messages
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", MODULES)
def test_golden_pairs_give_the_official_scores(name, case):
    assert_same(name, _text(GOLDEN / case / "gold.conllu"), _text(GOLDEN / case / "system.conllu"))


@pytest.mark.parametrize("case", INVALID_CASES)
@pytest.mark.parametrize("name", MODULES)
def test_invalid_files_give_the_official_uderror(name, case):
    gold = INVALID / "gold" / f"{case}.conllu"
    gold_text = _text(gold) if gold.exists() else _text(INVALID / f"{case}.conllu")
    system_text = _text(INVALID / f"{case}.conllu")
    if (name, case) == ("iwpt20", "unfinished-mwt"):
        # a deliberate difference: conll_eval's reader (not compat) names the multi-word
        # token's line, the IWPT scorer the line after the end of the file
        theirs, ours = both(name, gold_text, system_text)
        lines = system_text.split("\n")  # the file ends with a newline: one line past its end
        token_line = 1 + max(i for i, line in enumerate(lines) if line.startswith("3-4\t"))
        columns = "UDError: The CoNLL-U line does not contain 10 tab-separated columns at line"
        assert (theirs.error, ours.error) == (f"{columns} {len(lines)}: ''", f"{columns} {token_line}: ''")
        return
    assert_same(name, gold_text, system_text)


def test_most_invalid_files_are_errors_officially():
    """Not vacuous: the official modules reject these files (a few are accepted by some)."""
    for name in MODULES:
        rejected = [case for case in INVALID_CASES
                    if both(name, _text(INVALID / "gold" / f"{case}.conllu"), _text(INVALID / f"{case}.conllu"))[0].error]
        assert len(rejected) >= len(INVALID_CASES) - 4, name


TREEBANK_TYPES = [{}, {"no_gapping": 1, "no_case_info": 1}, {"no_shared_parents_in_coordination": 1},
                  {"no_shared_dependents_in_coordination": True, "no_control": 1},
                  {"no_external_arguments_of_relative_clauses": 1}, {"no_empty_nodes": "yes"},
                  {"multiple_roots_okay": True, "no_gapping": 0}]


@pytest.mark.parametrize("treebank_type", TREEBANK_TYPES, ids=lambda t: ",".join(t) or "none")
@pytest.mark.parametrize("name", ["iwpt20", "udeval"])
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=enhanced_pairs())
def test_treebank_type_is_honoured_as_officially(name, treebank_type, pair):
    assert_same(name, pair[0], pair[1], dict(treebank_type))


def test_treebank_type_switches_change_what_they_change():
    """Not vacuous: the switches do change numbers and errors on these files."""
    rows = [row("1", "a", "0", "root", deps="0:root"), row("2", "b", "1", "obl", deps="1:obl:in"),
            row("3", "c", "0", "root", deps="0:root")]
    text = "\n".join(rows) + "\n\n"
    for name in ("iwpt20", "udeval"):
        assert both(name, text, text)[0].error.endswith("multiple roots in the sentence that ends at 4")
        theirs = assert_same(name, text, text.replace("1:obl:in", "1:obl"), {"multiple_roots_okay": 1})
        assert theirs.scores["ELAS"]["correct"] == 2
        theirs = assert_same(name, text, text.replace("1:obl:in", "1:obl"),
                             {"multiple_roots_okay": 1, "no_case_info": 1})
        assert theirs.scores["ELAS"]["correct"] == 3
        empty = sentence("1 a 0 root", "1.1 e _ _", "2 b 1 dep")
        assert assert_same(name, empty, empty, {"no_empty_nodes": 1}).error.startswith(
            "UDError: The collapsed CoNLL-U line still contains empty nodes at line 2")


# ------------------------------------------------------------------------------ signatures and callers
SIGNATURE_NAMES = {"conll17": ["load_conllu", "load_conllu_file", "evaluate", "load_deprel_weights",
                               "evaluate_wrapper"],
                   "iwpt20": ["load_conllu", "load_conllu_file", "evaluate", "evaluate_wrapper",
                              "build_evaluation_table"],
                   "udeval": ["load_conllu", "load_conllu_file", "evaluate", "evaluate_wrapper",
                              "build_evaluation_table"]}


@pytest.mark.parametrize("name", sorted(SIGNATURE_NAMES))
def test_signatures_are_the_official_ones(name):
    theirs = official(name)
    for function in SIGNATURE_NAMES[name]:
        expected = [(p.name, p.default) for p in inspect.signature(getattr(theirs, function)).parameters.values()]
        ours = [(p.name, p.default) for p in inspect.signature(getattr(COMPAT[name], function)).parameters.values()]
        assert ours == expected, f"{name}.{function}"


def test_conll18_load_conllu_takes_what_real_callers_pass(write):
    path = write("g.conllu", _text(GOLDEN / "mwt-resplit" / "gold.conllu"))
    reference = compat.evaluate(compat.load_conllu_file(path), compat.load_conllu_file(path))
    calls = [lambda f: compat.load_conllu(f), lambda f: compat.load_conllu(f, "", {}),  # stanza
             lambda f: compat.load_conllu(f, {}), lambda f: compat.load_conllu(f, None),  # IWPT style
             lambda f: compat.load_conllu(f, "conll18"), lambda f: compat.load_conllu(f, profile="conll18")]
    for call in calls:
        for opener in (lambda: open(path, encoding="utf-8"), lambda: open(path, "rb"),
                       lambda: io.StringIO(_text(Path(path))), lambda: io.BytesIO(Path(path).read_bytes())):
            with opener() as f:
                ud = call(f)
            assert {k: vars(v) for k, v in compat.evaluate(ud, ud).items()} == \
                {k: vars(v) for k, v in reference.items()}
    assert compat.load_conllu_file(path, None).profile == "conll18"
    assert compat.load_conllu_file(path, {"multiple_roots_okay": 1}).options.multiple_roots_okay
    with pytest.raises(TypeError):
        compat.load_conllu(io.StringIO(""), "", {}, "extra")


class _ReadlineOnly:
    """A file-like object with nothing but ``readline`` (the official scripts need no more)."""

    def __init__(self, text):
        self._lines = io.StringIO(text).readlines()

    def readline(self):
        return self._lines.pop(0) if self._lines else ""


def _stanza_ud_scores(ud_eval, gold, system):
    """stanza's ``ud_scores`` (stanza/models/common/utils.py, 1.11-1.15): file objects through
    ``load_conllu(f, '', {})``, paths through ``load_conllu_file``."""
    def load(f):
        if hasattr(f, "readline") and callable(f.readline):
            return ud_eval.load_conllu(f, "", {})
        return ud_eval.load_conllu_file(f)
    return ud_eval.evaluate(load(gold), load(system))


@pytest.mark.parametrize("module", [compat, udeval], ids=["compat", "compat.udeval"])
def test_stanza_scorer_calls_with_file_objects(module, write):
    """stanza's dev-set scoring, as written, against udtools' udeval (what stanza imports)."""
    theirs_module = official("udeval")
    gold_text = _text(GOLDEN / "mwt-resplit" / "gold.conllu")
    system_text = _text(GOLDEN / "mwt-resplit" / "system.conllu")
    gold, system = write("g.conllu", gold_text), write("s.conllu", system_text)
    expected = _stanza_ud_scores(theirs_module, io.StringIO(gold_text), io.StringIO(system_text))
    for g, s in [(io.StringIO(gold_text), io.StringIO(system_text)), (gold, system),
                 (open(gold, encoding="utf-8"), open(system, encoding="utf-8")),
                 (_ReadlineOnly(gold_text), _ReadlineOnly(system_text))]:
        ours = _stanza_ud_scores(module, g, s)
        for metric in ("Tokens", "Words", "UPOS", "UFeats", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"):
            assert vars(expected[metric]) == {k: getattr(ours[metric], k) for k in vars(expected[metric])}
    table = module.build_evaluation_table(ours, verbose=True, counts=False, enhanced=False)
    assert table == theirs_module.build_evaluation_table(expected, verbose=True, counts=False, enhanced=False)


def test_the_iwpt_and_udeval_call_forms(write):
    path = write("g.conllu", _text(GOLDEN / "mwt-resplit" / "gold.conllu"))
    for module, first in ((iwpt20, lambda f: iwpt20.load_conllu(f, {})),
                          (udeval, lambda f: udeval.load_conllu(f, path, {}))):
        with open(path, encoding="utf-8") as f:
            ud = first(f)
        for loaded in (ud, module.load_conllu_file(path), module.load_conllu_file(path, None),
                       module.load_conllu_file(path, {"no_gapping": 1})):
            assert module.evaluate(loaded, ud)["Words"].f1 == 1.0
        with pytest.raises(TypeError):
            module.load_conllu(io.StringIO(""))  # the treebank_type is required, as officially


# ------------------------------------------------------------------------------ names
def _star(module) -> set:
    namespace: dict = {}
    exec(f"from {module.__name__} import *", namespace) if module.__name__.startswith("conll_eval") \
        else namespace.update({k: v for k, v in vars(module).items() if not k.startswith("_")})
    return {k for k in namespace if not k.startswith("__")}


@pytest.mark.parametrize("name", MODULES)
def test_import_star_gives_what_the_official_module_gives(name):
    theirs = _star(official(name)) - {"TestAlignment"}  # its unit tests: not ours to run in yours
    ours = _star(COMPAT[name])
    assert theirs <= ours, sorted(theirs - ours)
    for constant in ("ID", "FORM", "DEPS", "MISC", "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS",
                     "UNIVERSAL_FEATURES", "CASE_DEPRELS", "UNIVERSAL_DEPREL_EXTENSIONS", "CLAS_weights"):
        if constant in theirs:
            value = getattr(COMPAT[name], constant)
            assert value == getattr(official(name), constant) and type(value) is type(getattr(official(name), constant))


@pytest.mark.parametrize("name", ["conll18", "iwpt20", "udeval"])
@pytest.mark.parametrize("edit", ["content", "functional", "features"])
def test_a_client_extending_the_sets_counts_as_officially(name, edit):
    """The scripts read the sets while loading: an addition before loading changes CLAS, MLAS,
    BLEX, UFeats, AllTags; one after loading changes nothing."""
    gold = _text(GOLDEN / "weighted" / "gold.conllu")
    system = _text(GOLDEN / "weighted" / "system.conllu")
    gold = gold.replace("Number=Sing", "Number=Sing|Foo=Bar", 1)
    system = system.replace("\tPUNCT\t", "\tSYM\t")  # a punct child differs: MLAS, if functional
    target, value = {"content": ("CONTENT_DEPRELS", "punct"), "functional": ("FUNCTIONAL_DEPRELS", "punct"),
                     "features": ("UNIVERSAL_FEATURES", "Foo")}[edit]
    theirs, ours = official(name), COMPAT[name]
    before = assert_same(name, gold, system)
    for module in (theirs, ours):
        getattr(module, target).add(value)
    try:
        after = assert_same(name, gold, system)
        assert after.scores != before.scores  # not vacuous
        args = LOAD_ARGS[name]
        loaded = [m.load_conllu(io.StringIO(t), *args) for m in (theirs, ours) for t in (gold, system)]
    finally:
        for module in (theirs, ours):
            getattr(module, target).discard(value)
    ours_scores = ours.evaluate(loaded[2], loaded[3])  # loaded while extended, scored after
    for metric, score in theirs.evaluate(loaded[0], loaded[1]).items():
        assert {k: getattr(ours_scores[metric], k) for k in vars(score)} == vars(score), metric


def test_conll17_clas_weights_are_read_when_evaluating():
    theirs = official("conll17")
    gold = _text(GOLDEN / "weighted" / "gold.conllu")
    system = _text(GOLDEN / "weighted" / "system.conllu")
    before = assert_same("conll17", gold, system)
    for module in (theirs, conll17):
        module.CLAS_weights["nsubj"] = 0.5
    try:
        after = assert_same("conll17", gold, system)
    finally:
        for module in (theirs, conll17):
            del module.CLAS_weights["nsubj"]
    assert after.scores["CLAS"] != before.scores["CLAS"]


# ------------------------------------------------------------------------------ text streams
@pytest.mark.parametrize("name", MODULES)
def test_a_lone_surrogate_in_a_text_stream_is_a_character(name):
    gold = sentence("1 a\ud800b 0 root", "2 c 1 dep")
    assert_same(name, gold, gold)
    assert_same(name, gold, sentence("1 a\ud800 0 root", "2 bc 1 dep"))
    theirs = assert_same(name, gold, sentence("1 a\udfffb 0 root", "2 c 1 dep"))
    assert "\ud800" in theirs.error  # the message shows the surrogate, as officially
    ud = COMPAT[name].load_conllu(io.StringIO(gold), *LOAD_ARGS[name])
    assert ud.characters[:3] == ["a", "\ud800", "b"] and ud.words[0].columns[1] == "a\ud800b"


# ------------------------------------------------------------------------------ udeval's mismatch message
def _tokens(*forms, mwt=None):
    """One sentence of single-word tokens (``mwt``: index -> words of a multi-word token)."""
    lines, n = [], 0
    for i, form in enumerate(forms):
        if mwt and i in mwt:
            parts = mwt[i]
            lines.append(f"{n + 1}-{n + len(parts)}\t{form}" + "\t_" * 8)
            for part in parts:
                n += 1
                lines.append(row(str(n), part, "0" if n == 1 else "1", "root" if n == 1 else "dep"))
        else:
            n += 1
            lines.append(row(str(n), form, "0" if n == 1 else "1", "root" if n == 1 else "dep"))
    return "# sent_id = 1\n" + "\n".join(lines) + "\n\n"


MISMATCHES = {
    "at-the-start": (_tokens("a", "b"), _tokens("x", "b")),
    "system-a-prefix": (_tokens(*"abcdefghijklmnopqrstuvw"), _tokens(*"abcdefghijklmnop")),
    "gold-a-prefix": (_tokens("ab", "c"), _tokens("ab", "c", "d", "e")),
    "inside-a-token": (_tokens(*[f"t{i}" for i in range(30)]),
                       _tokens(*[f"t{i}" for i in range(14)], "t1x", *[f"t{i}" for i in range(15, 30)])),
    "multi-word-token": (_tokens("a", "vámonos", "b", mwt={1: ["vamos", "nos"]}),
                         _tokens("a", "vámonas", "b", mwt={1: ["vamos", "nas"]})),
    "second-sentence": (_tokens("a", "b") + _tokens("c", "d"), _tokens("a", "b") + _tokens("c", "e")),
}


@pytest.mark.parametrize("case", sorted(MISMATCHES))
def test_udeval_mismatch_message_is_udevals(case):
    gold, system = MISMATCHES[case]
    theirs_module = official("udeval")
    expected = None
    try:
        theirs_module.evaluate(theirs_module.load_conllu(io.StringIO(gold), "gold.conllu", {}),
                               theirs_module.load_conllu(io.StringIO(system), "sys.conllu", {}))
    except theirs_module.UDError as exc:
        expected = str(exc)
    assert expected is not None
    with pytest.raises(udeval.UDError) as info:
        udeval.evaluate(udeval.load_conllu(io.StringIO(gold), "gold.conllu", {}),
                        udeval.load_conllu(io.StringIO(system), "sys.conllu", {}))
    assert str(info.value) == expected
    assert ("Token no." in expected) != (case == "at-the-start")


def test_udeval_mismatch_names_the_paths(write):
    gold, system = MISMATCHES["inside-a-token"]
    g, s = write("gold.conllu", gold), write("sys.conllu", system)
    with pytest.raises(udeval.UDError) as info:
        udeval.evaluate(udeval.load_conllu_file(g), udeval.load_conllu_file(s))
    assert f"File '{g}':\n  Token no. 14 on line no. 15 is the last one" in str(info.value)
    assert f"File '{s}':" in str(info.value)


# ------------------------------------------------------------------------------ conll17
def test_conll17_has_the_2017_metrics_and_weights(write):
    path = str(GOLDEN / "features" / "gold.conllu")
    evaluation = conll17.evaluate(conll17.load_conllu_file(path), conll17.load_conllu_file(path))
    assert "Feats" in evaluation and "UFeats" not in evaluation and "WeightedLAS" not in evaluation
    with open(COMPAT_DATA / "weights.txt", encoding="utf-8") as f:
        weights = conll17.load_deprel_weights(f)
    with open(COMPAT_DATA / "weights.txt", encoding="utf-8") as f:
        assert weights == official("conll17").load_deprel_weights(f)
    assert weights["punct"] == 0.0 and len(weights) >= 3
    bad = write("bad.txt", "nsubj 1\ncase\n")
    for module in (conll17, official("conll17")):
        with open(bad, encoding="utf-8") as f, pytest.raises(ValueError) as info:
            module.load_deprel_weights(f)
        assert str(info.value) == "Expected two columns in the UD Relations weights file on line 'case\n'"
    assert conll17.load_deprel_weights(None) is None


@pytest.mark.parametrize("case", ["functional-children", "mwt-resplit", "features"])
def test_conll17_weighted_las_is_the_official_one(case):
    theirs_module = official("conll17")
    with open(COMPAT_DATA / "weights.txt", encoding="utf-8") as f:
        weights = theirs_module.load_deprel_weights(f)
    gold, system = str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu")
    expected = theirs_module.evaluate(theirs_module.load_conllu_file(gold),
                                      theirs_module.load_conllu_file(system), weights)
    ours = conll17.evaluate(conll17.load_conllu_file(gold), conll17.load_conllu_file(system), weights)
    assert vars(expected["WeightedLAS"]) == {k: getattr(ours["WeightedLAS"], k) for k in vars(expected["WeightedLAS"])}
    if case == "functional-children":  # not vacuous: the weights change the number
        assert expected["WeightedLAS"].f1 != expected["LAS"].f1


# ------------------------------------------------------------------------------ main
MAIN_OPTIONS = {"conll18": [[], ["-v"], ["-c"]],
                "conll17": [[], ["-v"], ["-w", str(COMPAT_DATA / "weights.txt")]],
                "iwpt20": [[], ["-v"], ["-c"], ["--no-enhanced", "-v"], ["--enhancements", "16", "-c"],
                           ["--multiple-roots-okay"], ["--no-empty-nodes", "x", "-c"]],
                "udeval": [[], ["-v"], ["-c"], ["--no-enhanced"], ["--enhancements", "2", "-v"],
                           ["--no-empty-nodes", "1"]]}


def _udeval_main(argv):
    """udtools' ``udeval`` command in-process: its ``parse_args_scorer``, ``evaluate_wrapper``
    and ``build_evaluation_table`` (what ``main_eval`` runs)."""
    module = official("udeval")
    parser_file = Path(module.__file__).with_name("argparser.py")
    namespace: dict = {}
    exec(compile(parser_file.read_text(encoding="utf-8"), str(parser_file), "exec"), namespace)
    args = namespace["parse_args_scorer"](argv)
    print(module.build_evaluation_table(module.evaluate_wrapper(args), args.verbose, args.counts, args.enhanced))


@pytest.mark.parametrize("name,options", [(n, o) for n in MAIN_OPTIONS for o in MAIN_OPTIONS[n]],
                         ids=lambda v: v if isinstance(v, str) else " ".join(Path(a).name for a in v))
@pytest.mark.parametrize("case", ["mwt-resplit", "empty-nodes"])
def test_main_prints_what_the_official_main_prints(name, options, case, monkeypatch, capsys):
    argv = [*options, str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu")]
    module = official(name)
    try:
        if name == "udeval":
            _udeval_main(argv)
        else:
            monkeypatch.setattr("sys.argv", [f"{name}.py", *argv])
            module.main()
    except module.UDError as exc:  # --no-empty-nodes on a file with empty nodes
        with pytest.raises(COMPAT[name].UDError) as info:
            COMPAT[name].main(argv)
        assert str(info.value) == str(exc)
        return
    expected = capsys.readouterr().out
    assert expected
    assert COMPAT[name].main(argv) in (None, 0)
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("name", MODULES)
def test_command_line_reports_the_official_error(name, write, capsys):
    bad = write("bad.conllu", sentence("1 a 0 root", "2 b 0 root"))
    assert COMPAT[name].command_line([bad, bad]) == 1
    err = capsys.readouterr().err
    assert err.startswith("UDError: There are ") and " roots in " in err and "Traceback" not in err


@pytest.mark.parametrize("name", MODULES)
def test_carriage_returns_split_lines_as_the_stream_does(name, write):
    """io.StringIO ends lines at "\\n" only: a lone "\\r" stays inside the line, as officially;
    a file opened with universal newlines ends lines there too."""
    gold = sentence("1 a 0 root", "2 b 1 dep")
    crlf = gold.replace("\n", "\r\n")
    assert_same(name, gold, crlf)
    assert assert_same(name, gold, gold.replace("\n", "\r")).error  # one long line officially
    assert_same(name, gold, sentence("1 a\rx 0 root", "2 b 1 dep"))
    path = write("cr.conllu", gold.replace("\n", "\r"))
    theirs, ours = official(name), COMPAT[name]
    for newline in (None, ""):
        loaded = [m.load_conllu(open(path, encoding="utf-8", newline=newline), *LOAD_ARGS[name])
                  for m in (theirs, ours)]
        assert ours.evaluate(loaded[1], loaded[1])["Words"].f1 == theirs.evaluate(loaded[0], loaded[0])["Words"].f1 == 1.0


@pytest.mark.parametrize("treebank_type", TREEBANK_TYPES[:5], ids=lambda t: ",".join(t) or "none")
@pytest.mark.parametrize("name", ["conll18", "iwpt20", "udeval"])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=enhanced_pairs())
def test_official_evaluate_gives_its_numbers_on_our_objects(name, treebank_type, pair):
    """The official ``evaluate`` run on compat's representations (characters, tokens, words
    with parents, functional children and, in iwpt20/udeval, the switched DEPS) gives what
    it gives on its own: the objects are a drop-in."""
    theirs, ours = official(name), COMPAT[name]
    args = LOAD_ARGS[name][:-1] + (dict(treebank_type),) if LOAD_ARGS[name] else ()
    try:
        expected = theirs.evaluate(*(theirs.load_conllu(io.StringIO(t), *args) for t in pair))
    except Exception:  # noqa: BLE001 - an invalid pair: compared elsewhere
        return
    got = theirs.evaluate(*(ours.load_conllu(io.StringIO(t), *args) for t in pair))
    assert {k: vars(v) for k, v in got.items()} == {k: vars(v) for k, v in expected.items()}


@pytest.mark.parametrize("case", CASES)
def test_udeval_spans_carry_udevals_lines_and_path(case):
    text = _text(GOLDEN / case / "system.conllu")
    theirs = official("udeval").load_conllu(io.StringIO(text), "sys.conllu", {})
    ours = udeval.load_conllu(io.StringIO(text), "sys.conllu", {})
    assert ours.path == theirs.path == "sys.conllu"
    for name in ("tokens", "sentences"):
        assert [(s.start, s.end, s.line) for s in getattr(ours, name)] == \
            [(s.start, s.end, s.line) for s in getattr(theirs, name)], name
