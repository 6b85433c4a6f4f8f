"""conll_eval.compat as a drop-in for the official ``conll18_ud_eval`` module.

The first part needs no oracle: the representation's objects on small files, laziness (scoring
never builds per-word objects), the constants, ``main()`` against the golden expected outputs,
errors.  The second part compares with the official module (``tests/oracles.py``; skips when it
is unavailable): the representation of every golden file, object by object; the official
``evaluate`` run on our representations; the public names and constants; ``main()``'s output.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from conll_eval import compat, metrics
from conll_eval.errors import UsageError

from helpers import document, row, sentence

try:
    from tests import oracles
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import oracles

GOLDEN = Path(__file__).resolve().parent.parent / "testdata" / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
FILES = [(case, side) for case in CASES for side in ("gold.conllu", "system.conllu")]
LAZY = ("characters", "tokens", "words", "sentences")

# "vámonos al mar": an MWT (vamos + nos), a second MWT (a + el), a plain word; then "Sí ."
MWT_TEXT = document(
    "\n".join([
        row("1-2", "vámonos"),
        row("1", "vamos", "0", "root", upos="VERB", lemma="ir", feats="Mood=Imp|Number=Plur|Person=1"),
        row("2", "nos", "1", "obj", upos="PRON", lemma="nosotros", feats="PronType=Prs|Case=Acc|Foo=Bar"),
        row("3-4", "al"),
        row("3", "a", "5", "case", upos="ADP", lemma="a"),
        row("4", "el", "5", "det", upos="DET", lemma="el", feats="Definite=Def"),
        row("5", "mar", "1", "obl:arg", upos="NOUN", lemma="mar", misc="SpaceAfter=No"),
    ]) + "\n\n",
    sentence("1 Sí 0 root", "2 . 1 punct"),
)


@pytest.fixture
def mwt(write):
    return compat.load_conllu_file(write("mwt.conllu", MWT_TEXT))


def _spans(spans):
    return [(s.start, s.end) for s in spans]


# ------------------------------------------------------------------------------ the representation
def test_representation_of_multiword_tokens(mwt):
    assert mwt.characters == list("vámonosalmarSí.") and isinstance(mwt.characters, list)
    assert _spans(mwt.tokens) == [(0, 7), (7, 9), (9, 12), (12, 14), (14, 15)]
    assert _spans(mwt.sentences) == [(0, 12), (12, 15)]
    words = mwt.words
    assert len(words) == len(mwt) == 7
    assert [w.columns[compat.FORM] for w in words] == ["vamos", "nos", "a", "el", "mar", "Sí", "."]
    assert [w.is_multiword for w in words] == [True, True, True, True, False, False, False]
    # a word of a multi-word token has the span of the whole token: the object in ``tokens``
    assert words[0].span is words[1].span is mwt.tokens[0]
    assert words[2].span is words[3].span is mwt.tokens[1]
    assert words[4].span is mwt.tokens[2] and words[5].span is mwt.tokens[3]
    assert [w.columns[compat.ID] for w in words] == ["1", "2", "3", "4", "5", "1", "2"]
    assert [w.columns[compat.HEAD] for w in words] == ["0", "1", "5", "5", "1", "0", "1"]
    vamos, nos, a, el, mar, si, dot = words
    assert vamos.parent is None and nos.parent is vamos and a.parent is mar and mar.parent is vamos
    assert si.parent is None and dot.parent is si  # heads are resolved within the sentence
    assert mar.functional_children == [a, el] and vamos.functional_children == []
    assert (mar.is_content_deprel, mar.is_functional_deprel) == (True, False)
    assert (el.is_content_deprel, el.is_functional_deprel) == (False, True)
    assert (dot.is_content_deprel, dot.is_functional_deprel) == (False, False)  # punct is neither
    # official column values: universal features sorted, subtypes dropped, the rest as written
    assert mar.columns == ["5", "mar", "mar", "NOUN", "_", "", "1", "obl", "_", "SpaceAfter=No"]
    assert nos.columns[compat.FEATS] == "Case=Acc|PronType=Prs"
    assert vamos.columns[compat.FEATS] == "Mood=Imp|Number=Plur|Person=1"
    assert vamos.columns[compat.LEMMA] == "ir" and vamos.columns[compat.UPOS] == "VERB"


def test_conll17_profile_keeps_raw_feats_and_strips_only_ascii_spaces(write):
    # a no-break space (Zs, not U+0020) in FORM; FEATS with a non-universal feature, unsorted
    path = write("nbsp.conllu", row("1", "a\u00a0b", "0", "root", feats="Z=1|Case=Nom") + "\n\n")
    ud17 = compat.load_conllu_file(path, profile="conll17")
    ud18 = compat.load_conllu_file(path)
    assert ud17.characters == list("a\u00a0b") and ud18.characters == list("ab")
    assert ud17.words[0].columns[compat.FEATS] == "Z=1|Case=Nom"
    assert ud18.words[0].columns[compat.FEATS] == "Case=Nom"


def test_words_inside_a_multiword_token_keep_their_form(write):
    text = "1-2\tde l\t_\t_\t_\t_\t_\t_\t_\t_\n" + row("1", "de l", "0", "root") + "\n" \
           + row("2", "x", "1", "dep") + "\n\n"
    ud = compat.load_conllu_file(write("spaces.conllu", text))
    assert ud.characters == list("del") and _spans(ud.tokens) == [(0, 3)]
    assert [w.columns[compat.FORM] for w in ud.words] == ["de l", "x"]


def test_empty_file_and_empty_nodes(write):
    empty = compat.load_conllu(io.StringIO(""))
    assert (empty.characters, empty.tokens, empty.words, empty.sentences) == ([], [], [], [])
    text = sentence("1 a 0 root", "1.1 e _ _", "2 b 1 dep")
    ud = compat.load_conllu(io.StringIO(text))
    assert [w.columns[compat.FORM] for w in ud.words] == ["a", "b"]  # empty nodes are skipped


def test_evaluate_builds_no_per_word_objects(write, monkeypatch):
    def forbidden(*args):
        raise AssertionError("per-word objects built while scoring")

    monkeypatch.setattr(compat._base, "build_words", forbidden)
    gold = compat.load_conllu_file(write("g.conllu", MWT_TEXT))
    system = compat.load_conllu(io.StringIO(MWT_TEXT))
    evaluation = compat.evaluate(gold, system)
    compat.build_evaluation_table(evaluation, True, False)
    assert evaluation["MLAS"].f1 == 1.0
    for ud in (gold, system):
        for name in LAZY:
            assert name not in vars(ud), f"{name} was materialised"


def test_lazy_attributes_are_built_once(mwt):
    assert mwt.words is mwt.words and mwt.tokens is mwt.tokens
    assert all(name in vars(mwt) for name in ("words", "tokens"))


# ------------------------------------------------------------------------------ module API
def test_constants():
    names = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"]
    assert [getattr(compat, name) for name in names] == list(range(10))
    assert compat.UNIVERSAL_FEATURES == metrics.UNIVERSAL_FEATURES and len(compat.UNIVERSAL_FEATURES) == 21
    assert compat.CONTENT_DEPRELS == metrics.CONTENT_DEPRELS and len(compat.CONTENT_DEPRELS) == 29
    assert compat.FUNCTIONAL_DEPRELS == {"aux", "cop", "mark", "det", "clf", "case", "cc"}
    for name in compat.__all__:
        assert hasattr(compat, name), name


def test_score_has_the_official_fields(mwt):
    evaluation = compat.evaluate(mwt, mwt)
    assert list(evaluation)[:3] == ["Tokens", "Sentences", "Words"] and list(evaluation)[-1] == "BLEX"
    las = evaluation["LAS"]
    assert (las.correct, las.gold_total, las.system_total, las.aligned_total) == (7, 7, 7, 7)
    assert (las.precision, las.recall, las.f1, las.aligned_accuracy) == (1.0, 1.0, 1.0, 1.0)
    assert evaluation["Tokens"].aligned_total is None and evaluation["Tokens"].aligned_accuracy is None


@pytest.mark.parametrize("options,expected", [([], "expected-conll18.txt"), (["-v"], "expected-conll18-v.txt"),
                                              (["-c"], "expected-conll18-c.txt"),
                                              (["-v", "-c"], "expected-conll18-c.txt")])
@pytest.mark.parametrize("case", ["mwt-resplit", "functional-children", "split-sentences"])
def test_main_prints_the_official_output(capsys, case, options, expected):
    directory = GOLDEN / case
    compat.main([str(directory / "gold.conllu"), str(directory / "system.conllu"), *options])
    assert capsys.readouterr().out == (directory / expected).read_text(encoding="utf-8")


def test_main_reads_sys_argv(capsys, monkeypatch):
    directory = GOLDEN / "mwt-resplit"
    monkeypatch.setattr("sys.argv", ["conll18_ud_eval.py", "-c", str(directory / "gold.conllu"),
                                     str(directory / "system.conllu")])
    compat.main()
    assert capsys.readouterr().out == (directory / "expected-conll18-c.txt").read_text(encoding="utf-8")


def test_main_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        compat.main(["only-one-file.conllu"])
    assert info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_main_lets_errors_propagate(write):
    bad = write("bad.conllu", sentence("1 a 0 root", "2 b 0 root"))
    with pytest.raises(compat.UDError, match="roots"):
        compat.main([bad, bad])


def test_build_evaluation_table(mwt):
    evaluation = compat.evaluate(mwt, mwt)
    default = compat.build_evaluation_table(evaluation, False, False)
    assert default == "LAS F1 Score: 100.00\nMLAS Score: 100.00\nBLEX Score: 100.00"  # no final newline
    assert compat.build_evaluation_table(evaluation, True, False, "conll18") == \
        compat.build_evaluation_table(evaluation, True, False, False, profile="conll18")
    with pytest.raises(UsageError, match="ELAS"):
        compat.build_evaluation_table(evaluation, True, False, True)


def test_build_evaluation_table_infers_conll17(write):
    path = write("g.conllu", MWT_TEXT)
    ud = compat.load_conllu_file(path, profile="conll17")
    evaluation = compat.evaluate(ud, ud)
    assert "Feats" in evaluation and "UFeats" not in evaluation
    assert compat.build_evaluation_table(evaluation, True, False).startswith("Metrics    | Precision")
    assert compat.build_evaluation_table(evaluation, False, False) == "LAS F1 Score: 100.00"


def test_files_that_cannot_be_opened_raise_oserror(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        compat.load_conllu_file(str(tmp_path / "missing.conllu"))
    assert info.value.__cause__.code == "file-not-found"
    with pytest.raises(IsADirectoryError):
        compat.load_conllu_file(str(tmp_path))


def test_invalid_file_raises_uderror_with_the_error():
    with pytest.raises(compat.UDError) as info:
        compat.load_conllu(io.StringIO("1\ta\n\n"))
    assert info.value.error.code == "wrong-column-count"
    assert info.value.__cause__ is info.value.error


# ------------------------------------------------------------------------------ against the official module
@pytest.fixture(scope="module")
def official():
    return oracles.require_oracle("conll18_ud_eval")


def _official_load(official, path):
    with open(path, mode="r", encoding="utf-8") as f:
        return official.load_conllu(f)


def _structure(ud):
    """Everything of a representation, with object references as indices."""
    token_index = {id(t): i for i, t in enumerate(ud.tokens)}
    word_index = {id(w): i for i, w in enumerate(ud.words)}
    words = [dict(span=(w.span.start, w.span.end), token=token_index.get(id(w.span)), columns=w.columns,
                  is_multiword=w.is_multiword,
                  parent=None if w.parent is None else word_index[id(w.parent)],
                  functional_children=[word_index[id(c)] for c in w.functional_children],
                  content=w.is_content_deprel, functional=w.is_functional_deprel)
             for w in ud.words]
    return dict(characters=ud.characters, tokens=_spans(ud.tokens), sentences=_spans(ud.sentences),
                words=words)


@pytest.mark.parametrize("case,side", FILES, ids=[f"{c}/{s}" for c, s in FILES])
def test_representation_equals_official(official, case, side):
    path = str(GOLDEN / case / side)
    theirs = _structure(_official_load(official, path))
    ours = _structure(compat.load_conllu_file(path))
    for key in ("characters", "tokens", "sentences"):
        assert ours[key] == theirs[key], key
    assert len(ours["words"]) == len(theirs["words"])
    for i, (mine, expected) in enumerate(zip(ours["words"], theirs["words"])):
        assert mine == expected, f"word {i}"


@pytest.mark.parametrize("case", CASES)
def test_official_evaluate_accepts_our_representation(official, case):
    """The official scorer run on our objects gives its own numbers: the objects are a drop-in."""
    gold, system = str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu")
    on_ours = official.evaluate(compat.load_conllu_file(gold), compat.load_conllu_file(system))
    on_theirs = official.evaluate(_official_load(official, gold), _official_load(official, system))
    ours = compat.evaluate(compat.load_conllu_file(gold), compat.load_conllu_file(system))
    assert list(ours) == list(on_theirs)
    for metric, expected in on_theirs.items():
        fields = vars(expected)  # the official Score's attributes
        assert {k: getattr(on_ours[metric], k) for k in fields} == fields, metric
        assert {k: getattr(ours[metric], k) for k in fields} == fields, metric


def test_public_names_and_constants_equal_official(official):
    public = {name for name, value in vars(official).items()
              if not name.startswith("_") and not isinstance(value, type(io))
              and getattr(value, "__module__", official.__name__) == official.__name__}
    public -= {"TestAlignment", "division", "print_function"}  # its unit tests; __future__ flags
    missing = sorted(name for name in public if not hasattr(compat, name))
    assert not missing
    for name in ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
                 "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "UNIVERSAL_FEATURES"):
        assert getattr(compat, name) == getattr(official, name), name


@pytest.mark.parametrize("options", [[], ["-v"], ["-c"], ["-c", "-v"]], ids=" ".join)
@pytest.mark.parametrize("case", ["mwt-resplit", "merged-tokens", "features", "empty-nodes"])
def test_main_output_equals_official(official, capsys, monkeypatch, case, options):
    argv = [str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu"), *options]
    monkeypatch.setattr("sys.argv", ["conll18_ud_eval.py", *argv])
    official.main()
    expected = capsys.readouterr().out
    compat.main(argv)
    assert capsys.readouterr().out == expected
    assert expected  # the official script did print


@pytest.mark.parametrize("field", ["mwt", "id", "head"])
def test_a_carriage_return_around_an_integer_field_of_a_text_stream_is_read_as_int_reads_it(
        official, field):
    """A text stream splits lines at "\\n" only, so a carriage return stays inside a field;
    the scripts' int() ignores it around an ID or HEAD (found by the generated invalid pairs)."""
    mwt = "1-2\r" if field == "mwt" else "1-2"
    word = "2\r" if field == "id" else "2"
    head = "1\r" if field == "head" else "1"
    text = (f"{mwt}\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n"
            f"{word}\tb\tb\tX\t_\t_\t{head}\tdep\t_\t_\n3\tc\tc\tX\t_\t_\t1\tdep\t_\t_\n\n")
    system = text.replace("1\tdep\t_\t_\n\n", "2\tdep\t_\t_\n\n")
    theirs = official.evaluate(official.load_conllu(io.StringIO(text)),
                               official.load_conllu(io.StringIO(system)))
    ours = compat.evaluate(compat.load_conllu(io.StringIO(text)), compat.load_conllu(io.StringIO(system)))
    assert ours["LAS"].correct == theirs["LAS"].correct == 2
    assert ours["Words"].gold_total == theirs["Words"].gold_total == 3
