"""Complex groupings (conll_eval.analyze.complex): the keys of every word of each side.

Hand-worked: a tiny CoNLL-U pair whose tokenization differs, keyed per side on its own values
and sentences.  Against MaltEval 1.0 (../shared/malteval, skipped when absent): the row labels
of the complex-grouping cases are exactly our keys, and case 073, where MaltEval crashes, is
asserted to give our deliberate output instead.
"""
import io
import shlex
from pathlib import Path

import pytest

from conll_eval.align import align_words, check_characters
from conll_eval.analyze.complex import complex_keys, key_layout
from conll_eval.analyze.counting import AnalysisPair
from conll_eval.analyze.groupings import grouping_keys
from conll_eval.analyze.options import parse_grouping
from conll_eval.cli import main
from conll_eval.evaluate import load_pair

MALTEVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "malteval"
CASES = MALTEVAL / "cases"
needs_malteval = pytest.mark.skipif(not MALTEVAL.is_dir(), reason="../shared/malteval is not present")

# Gold: "New York is big." and "Hi!"; the system glues "New York" into one token and tags
# "is" VERB/VBZ.  Each side's keys use its own words, so "is" follows "New York" in gold
# but "NewYork" in the system output.
HI = """\
# text = Hi!
1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\tSpaceAfter=No
2\t!\t!\tPUNCT\t.\t_\t1\tpunct\t_\t_

"""
GOLD = """\
# text = New York is big.
1\tNew\tnew\tPROPN\tNNP\t_\t2\tcompound\t_\t_
2\tYork\tYork\tPROPN\tNNP\t_\t4\tnsubj\t_\t_
3\tis\tbe\tAUX\tVBZ\t_\t4\tcop\t_\t_
4\tbig\tbig\tADJ\tJJ\t_\t0\troot\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_

""" + HI
SYSTEM = """\
# text = NewYork is big.
1\tNewYork\tNewYork\tPROPN\tNNP\t_\t3\tnsubj\t_\t_
2\tis\tbe\tVERB\tVBZ\t_\t3\tcop\t_\t_
3\tbig\tbig\tADJ\tJJ\t_\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

""" + HI


@pytest.fixture
def tiny(write):
    gold, system = load_pair(write("gold.conllu", GOLD), write("system.conllu", SYSTEM))
    check_characters(gold, system)
    return AnalysisPair.from_treebanks(gold, system, align_words(gold, system)), gold.vocab


def _keys(value, pair, vocab):
    keys = complex_keys(parse_grouping(value).parts, pair)
    return ([vocab.strings[k] for k in keys.gold.tolist()],
            [vocab.strings[k] for k in keys.system.tolist()])


HAND_WORKED = {  # GroupBy value: (gold keys, system keys)
    "Cpostag@-1#Cpostag@0": (
        ['^@-1;"PROPN"@0', '"PROPN"@-1;"PROPN"@0', '"PROPN"@-1;"AUX"@0', '"AUX"@-1;"ADJ"@0',
         '"ADJ"@-1;"PUNCT"@0', '^@-1;"INTJ"@0', '"INTJ"@-1;"PUNCT"@0'],
        ['^@-1;"PROPN"@0', '"PROPN"@-1;"VERB"@0', '"VERB"@-1;"ADJ"@0', '"ADJ"@-1;"PUNCT"@0',
         '^@-1;"INTJ"@0', '"INTJ"@-1;"PUNCT"@0']),
    # the sentence end is "$", never the next sentence's first word
    "Wordform@1": (
        ['"York"@1', '"is"@1', '"big"@1', '"."@1', '$@1', '"!"@1', '$@1'],
        ['"is"@1', '"big"@1', '"."@1', '$@1', '"!"@1', '$@1']),
    # HashSet order: Postag before Cpostag, whatever the written order
    "Cpostag,Postag": (
        ['"NNP","PROPN"@0', '"NNP","PROPN"@0', '"VBZ","AUX"@0', '"JJ","ADJ"@0', '".","PUNCT"@0',
         '"UH","INTJ"@0', '".","PUNCT"@0'],
        ['"NNP","PROPN"@0', '"VBZ","VERB"@0', '"JJ","ADJ"@0', '".","PUNCT"@0', '"UH","INTJ"@0',
         '".","PUNCT"@0']),
    # HashMap order of the offsets: -1 before -2
    "Cpostag@-2#Cpostag@-1": (
        ['^@-1;^@-2', '"PROPN"@-1;^@-2', '"PROPN"@-1;"PROPN"@-2', '"AUX"@-1;"PROPN"@-2',
         '"ADJ"@-1;"AUX"@-2', '^@-1;^@-2', '"INTJ"@-1;^@-2'],
        ['^@-1;^@-2', '"PROPN"@-1;^@-2', '"VERB"@-1;"PROPN"@-2', '"ADJ"@-1;"VERB"@-2',
         '^@-1;^@-2', '"INTJ"@-1;^@-2']),
    # -1 before 2 however written; a whole position outside the sentence is one mark
    "Wordform@2#Lemma@-1": (
        ['^@-1;"is"@2', '"new"@-1;"big"@2', '"York"@-1;"."@2', '"be"@-1;$@2', '"big"@-1;$@2',
         '^@-1;$@2', '"hi"@-1;$@2'],
        ['^@-1;"big"@2', '"NewYork"@-1;"."@2', '"be"@-1;$@2', '"big"@-1;$@2', '^@-1;$@2',
         '"hi"@-1;$@2']),
    "Lemma@-1#Cpostag,Postag@0": (
        ['^@-1;"NNP","PROPN"@0', '"new"@-1;"NNP","PROPN"@0', '"York"@-1;"VBZ","AUX"@0',
         '"be"@-1;"JJ","ADJ"@0', '"big"@-1;".","PUNCT"@0', '^@-1;"UH","INTJ"@0',
         '"hi"@-1;".","PUNCT"@0'],
        ['^@-1;"NNP","PROPN"@0', '"NewYork"@-1;"VBZ","VERB"@0', '"be"@-1;"JJ","ADJ"@0',
         '"big"@-1;".","PUNCT"@0', '^@-1;"UH","INTJ"@0', '"hi"@-1;".","PUNCT"@0']),
    "Feats,Cpostag@1": (
        ['"_","PROPN"@1', '"_","AUX"@1', '"_","ADJ"@1', '"_","PUNCT"@1', '$@1',
         '"_","PUNCT"@1', '$@1'],
        ['"_","VERB"@1', '"_","ADJ"@1', '"_","PUNCT"@1', '$@1', '"_","PUNCT"@1', '$@1']),
}


@pytest.mark.parametrize("value", sorted(HAND_WORKED))
def test_hand_worked_keys_on_a_tokenization_mismatch(tiny, value):
    pair, vocab = tiny
    assert parse_grouping(value).is_complex
    assert _keys(value, pair, vocab) == HAND_WORKED[value]


def test_equal_keys_are_equal_codes_across_sides(tiny):
    pair, _ = tiny
    keys = complex_keys(parse_grouping("Cpostag@-1#Cpostag@0").parts, pair)
    assert keys.gold[0] == keys.system[0] and keys.gold[6] == keys.system[5]
    assert keys.gold[1] != keys.system[1] and not keys.numeric


def test_key_layout_is_java_hash_order():
    assert key_layout([(-2, ("Cpostag",)), (-1, ("Cpostag",))]) == [(-1, ["Cpostag"]), (-2, ["Cpostag"])]
    assert key_layout([(0, ("Cpostag", "Postag"))]) == [(0, ["Postag", "Cpostag"])]
    assert key_layout([(0, ("Postag", "Cpostag"))]) == [(0, ["Postag", "Cpostag"])]
    assert key_layout([(2, ("Wordform",)), (-1, ("Lemma",))]) == [(-1, ["Lemma"]), (2, ["Wordform"])]


def test_a_single_offset_zero_attribute_is_the_simple_grouping(tiny):
    pair, vocab = tiny
    assert not parse_grouping("Postag@0").is_complex and parse_grouping("Postag@0").name == "Postag"
    # the complex keys of Postag@0 partition the words as the simple grouping does
    gold, system = _keys("Postag@0", pair, vocab)
    simple = grouping_keys("Postag", pair)
    assert gold == [f'"{vocab.strings[k]}"@0' for k in simple.gold.tolist()]
    assert system == [f'"{vocab.strings[k]}"@0' for k in simple.system.tolist()]


GOLD_X = ("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n"
          "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n"
          "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n")
# "cat" tagged VERB with the label obj; "." attached to "cat"
SYSTEM_X = (GOLD_X.replace("cat\tNOUN\tNN\t_\t3\tnsubj", "cat\tVERB\tVB\t_\t3\tobj")
            .replace("3\tpunct", "2\tpunct"))


def test_hand_worked_complex_table(write):
    gold, system = write("g.conll", GOLD_X), write("s.conll", SYSTEM_X)
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["analyze", "-s", system, "-g", gold, "--GroupBy", "Cpostag@-1#Cpostag@0:all",
            "--header-info", "0"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    # accuracy from the system's keys, counters from gold's; rows in String.compareTo order
    # ('"' before '^'); groups seen on one side only: accuracy '-' or counter 0
    assert [line.split() for line in stdout.getvalue().splitlines()[2:]] == [
        ["-", "1", "0", '"DET"@-1;"NOUN"@0'],
        ["0", "0", "0", '"DET"@-1;"VERB"@0'],
        ["-", "1", "1", '"NOUN"@-1;"VERB"@0'],
        ["0", "1", "0", '"VERB"@-1;"PUNCT"@0'],
        ["1", "0", "0", '"VERB"@-1;"VERB"@0'],
        ["1", "1", "1", '^@-1;"DET"@0'],
        ["1", "1", "1", '^@-1;"INTJ"@0'],
    ]
    assert stdout.getvalue().splitlines()[0].split()[-1] == "Cpostag@-1#Cpostag@0"


# ---- against MaltEval's cases --------------------------------------------------------------

def _case(prefix):
    return next(CASES.glob(prefix + "-*"))


def _run(argv, monkeypatch):
    monkeypatch.chdir(MALTEVAL / "data")
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["analyze", *argv], stdout, stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def _row_labels(output):
    """The row labels of a single merged table (the last column, after the dashes line)."""
    lines = output.splitlines()
    dashes = next(i for i, line in enumerate(lines) if line and set(line) == {"-"} and i > 5)
    return [line.split()[-1] for line in lines[dashes + 1:] if line.strip()]


@needs_malteval
@pytest.mark.parametrize("prefix, value, pair", [
    ("069", "Cpostag@-1#Cpostag@0", "en_ewt"), ("070", "Cpostag,Postag", "en_ewt"),
    ("071", "Wordform@1", "fr_gsd-f1"), ("072", "Cpostag@-2#Cpostag@-1", "en_ewt"),
])
def test_keys_are_malteval_row_labels(prefix, value, pair):
    """Uncut tables: the union of both sides' keys is exactly MaltEval's set of rows."""
    data = MALTEVAL / "data"
    if pair == "en_ewt":
        gold_path, sys_path = data / "en_ewt-gold.conll", data / "en_ewt-sys.conll"
    else:
        gold_path, sys_path = data / "fr_gsd-gold-f1.conll", data / "fr_gsd-sys-f1.conll"
    gold, system = load_pair(str(gold_path), str(sys_path))
    analysis = AnalysisPair.from_treebanks(gold, system, align_words(gold, system))
    keys = complex_keys(parse_grouping(value).parts, analysis)
    ours = {gold.vocab.strings[k] for k in set(keys.gold.tolist()) | set(keys.system.tolist())}
    expected = _row_labels((_case(prefix) / "output.txt").read_text(encoding="utf-8"))
    assert len(expected) == len(set(expected))
    assert ours == set(expected)


@needs_malteval
def test_073_all_without_wordform_is_a_deliberate_difference(monkeypatch):
    """Deliberate difference: MaltEval throws a NullPointerException on ``:all`` with a
    multi-offset complex grouping that has no Wordform (073: "Cannot invoke
    java.util.Collection.toArray() because c is null").  We print the complex groupings' full
    column set, accuracy counter correctcounter, which is case 072's explicit format: the same
    output apart from the echoed arguments."""
    case = _case("073")
    assert 'because "c" is null' in (case / "stderr.txt").read_text(encoding="utf-8")
    status, out, err = _run(shlex.split((case / "cmd.txt").read_text(encoding="utf-8")), monkeypatch)
    assert (status, err) == (0, "")
    expected = (_case("072") / "output.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    first, rest = out.split("\n", 1)
    assert first.endswith("--GroupBy Cpostag@-2#Cpostag@-1:all")
    assert rest == expected
    assert out.splitlines()[10].split() == ["accuracy", "/", "counter", "/", "correctcounter", "/",
                                            "Cpostag@-2#Cpostag@-1"]


@needs_malteval
def test_076_postag_at_0_is_the_simple_postag_table(monkeypatch):
    """``Postag@0`` prints what ``--GroupBy Postag`` prints (033), header lines aside."""
    out76 = _run(["-s", "en_ewt-sys.conll", "-g", "en_ewt-gold.conll", "--GroupBy", "Postag@0"],
                 monkeypatch)[1]
    out33 = _run(["-s", "en_ewt-sys.conll", "-g", "en_ewt-gold.conll", "--GroupBy", "Postag"],
                 monkeypatch)[1]
    assert out76.splitlines()[9:] == out33.splitlines()[9:]
    assert out76 == (_case("076") / "output.txt").read_text(encoding="utf-8")
