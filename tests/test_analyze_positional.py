"""MaltEval's positional groupings (conll_eval.analyze.positional).

Hand-worked: RelativeWordPosition and SentenceAndToken keys of a tiny CoNLL-X pair, and the
folding of PreAndPost, Clustering and Clustering2 on small per-word tables.  Golden: MaltEval
1.0's own stdout on testdata/malteval/positional (its jar, run once; java is not needed here),
byte for byte.
"""
import dataclasses
import io
import math
import shlex
from pathlib import Path

import numpy as np
import pytest

from conll_eval.align import align_words, check_characters
from conll_eval.analyze import counting
from conll_eval.analyze import run as analyze_run
from conll_eval.analyze import tables
from conll_eval.analyze.counting import AnalysisPair
from conll_eval.analyze.groupings import grouping_keys
from conll_eval.analyze.positional import (ACCURACY_WARNING, EMPTY_TABLE_ABORT,
                                           POST_PROCESSED_ROW_TITLES, needs_accuracy_warning,
                                           post_process, relative_word_position,
                                           sentence_and_token)
from conll_eval.cli import main
from conll_eval.evaluate import load_pair

GOLDEN = Path(__file__).resolve().parent.parent / "testdata" / "malteval" / "positional"

# Two sentences of 5 and 3 words; the system moves the head of "." (head errors do not matter
# to these keys, which depend on positions and sentence lengths only).
GOLD_X = ("1\tThe\tthe\tDET\tDT\t_\t3\tdet\t_\t_\n2\told\told\tADJ\tJJ\t_\t3\tamod\t_\t_\n"
          "3\tman\tman\tNOUN\tNN\t_\t4\tnsubj\t_\t_\n"
          "4\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
          "5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_\n\n"
          "1\tYes\tyes\tINTJ\tUH\t_\t0\troot\t_\t_\n2\t,\t,\tPUNCT\t,\t_\t3\tpunct\t_\t_\n"
          "3\tindeed\tindeed\tADV\tRB\t_\t1\tadvmod\t_\t_\n\n")
SYSTEM_X = GOLD_X.replace("5\t.\t.\tPUNCT\t.\t_\t4", "5\t.\t.\tPUNCT\t.\t_\t3")


@pytest.fixture
def tiny(write):
    gold, system = load_pair(write("gold.conll", GOLD_X), write("sys.conll", SYSTEM_X))
    check_characters(gold, system)
    return AnalysisPair.from_treebanks(gold, system, align_words(gold, system)), gold.vocab


def test_relative_word_position_keys(tiny):
    pair, _ = tiny
    # 1 + floor(14 * position / length): sentence 1 (length 5): 14/5 = 2.8 -> 3, 5.6 -> 6,
    # 8.4 -> 9, 11.2 -> 12, 14 -> 15; sentence 2 (length 3): 4.67 -> 5, 9.33 -> 10, 14 -> 15
    expected = [3, 6, 9, 12, 15, 5, 10, 15]
    assert relative_word_position(pair.gold).tolist() == expected
    assert relative_word_position(pair.system).tolist() == expected
    keys = grouping_keys("RelativeWordPosition", pair)
    assert keys.numeric and keys.gold.tolist() == expected


def test_relative_word_position_is_exact_at_bucket_edges():
    """14 * position / length in doubles, as Java computes it: 14 * p / 7 is exactly 2p."""
    side = type("PositionsOnly", (), {})()  # the key reads only these two arrays
    side.position = np.arange(1, 8, dtype=np.int64)
    side.own_length = np.full(7, 7, dtype=np.int64)
    assert relative_word_position(side).tolist() == [3, 5, 7, 9, 11, 13, 15]


def test_sentence_and_token_keys(tiny):
    pair, vocab = tiny
    # sentence number (1-based) and word index (0-based), both nine digits wide
    expected = [f"00000000{s}_00000000{i}" for s, n in ((1, 5), (2, 3)) for i in range(n)]
    for side in (pair.gold, pair.system):
        assert [vocab.strings[c] for c in sentence_and_token(side).tolist()] == expected


# ---- folding ----------------------------------------------------------------------------------

def _labels(*lengths):
    """SentenceAndToken row labels of consecutive sentences with these word counts."""
    return [f"{s + 1:09d}_{i:09d}" for s, n in enumerate(lengths) for i in range(n)]


# 3 sentences, correct (1) / wrong (0) per word: [1 0 1 1 0] [0 1 1 0 0 1 1 1] [1 0 1]
CORRECT = [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1]
LABELS = _labels(5, 8, 3)


def test_pre_and_post_splits_each_sentence_at_its_first_error():
    counters = {"accuracy": [float(c) for c in CORRECT], "counter": [1] * 16,
                "correctcounter": CORRECT}
    folded = post_process("PreAndPost", LABELS, ["accuracy", "counter", "correctcounter"], counters)
    assert folded.row_title == "Type" and folded.labels == ["First", "Follow"]
    # First: words up to and including the first error: "1 0" + "0" + "1 0" -> 5 words, 2 right
    # Follow: the rest: "1 1 0" + "1 1 0 0 1 1 1" + "1" -> 11 words, 8 right
    assert folded.columns == {"accuracy": [2 / 5, 8 / 11], "counter": [5, 11],
                              "correctcounter": [2, 8]}


def test_clustering_counts_neighbours_of_correct_words():
    folded = post_process("Clustering", LABELS, ["accuracy"], {"accuracy": CORRECT})
    assert folded.row_title == "Relative token position"
    assert folded.labels == [str(o) for o in range(-10, 11)]
    by_offset = dict(zip(folded.labels, folded.columns["accuracy"]))
    # words: s1 The old man sleeps . / s2 She gave him a very nice red book / s3 Yes , indeed
    # +1: 8 correct words have a next word in their sentence (The man sleeps gave him nice red
    # Yes); 4 of those next words are correct (sleeps him red book) -> 0.5
    assert by_offset["1"] == 0.5
    # +5: gave -> red and him -> book, both correct -> 1
    assert by_offset["5"] == 1.0
    # -2: man<-The, sleeps<-old, him<-She, nice<-a, red<-very, book<-nice, indeed<-Yes: 3 of 7
    assert math.isnan(by_offset["0"]) and math.isnan(by_offset["10"])  # 0/0
    # the share is a Java float widened to double, not the double ratio
    assert by_offset["-2"] == float(np.float32(3) / np.float32(7))
    assert by_offset["-2"] != 3 / 7


def test_clustering_always_gives_one_accuracy_column():
    folded = post_process("Clustering", LABELS, ["counter", "accuracy"],
                          {"counter": [1] * 16, "accuracy": CORRECT})
    # the first column decides, and a counter of 1 reads as "correct": every neighbour is
    assert list(folded.columns) == ["accuracy"]
    assert {v for v in folded.columns["accuracy"] if not math.isnan(v)} == {1.0}


def test_clustering2_counts_distances_from_the_last_correct_word():
    folded = post_process("Clustering2", LABELS, ["accuracy", "counter", "correctcounter"],
                          {"accuracy": CORRECT, "counter": [1] * 16, "correctcounter": CORRECT})
    assert folded.labels == ["1", "2", "3"]
    # distance to the previous correct word of the sentence, or to the place before its first
    # word; the very first word of the table is where the walk starts (never counted):
    # s1: old 1 (wrong), man 2, sleeps 1, . 1 (wrong)
    # s2: She 1 (wrong), gave 2, him 1, a 1 (wrong), very 2 (wrong), nice 3, red 1, book 1
    # s3: Yes 1, , 1 (wrong), indeed 2
    assert folded.columns["counter"] == [10, 4, 1]
    assert folded.columns["correctcounter"] == [5, 3, 1]
    assert folded.columns["accuracy"] == [0.5, 0.75, 1.0]


def test_clustering2_first_word_of_the_table_is_an_anchor_even_when_wrong():
    # one sentence "wrong right": MaltEval starts on the wrong word, so "right" is at distance 1
    folded = post_process("Clustering2", _labels(2), ["accuracy"], {"accuracy": [0.0, 1.0]})
    assert folded.labels == ["1"] and folded.columns == {"accuracy": [1.0]}
    # the same sentence second in the table: both words are counted (distances 1 and 2)
    folded = post_process("Clustering2", _labels(1, 2), ["accuracy"],
                          {"accuracy": [1.0, 0.0, 1.0]})
    assert folded.labels == ["1", "2"] and folded.columns == {"accuracy": [0.0, 1.0]}
    with pytest.raises(ValueError, match=EMPTY_TABLE_ABORT):
        post_process("Clustering2", [], ["accuracy"], {"accuracy": []})


def test_a_word_is_correct_only_when_the_first_cell_truncates_to_one():
    # NaN (a word excluded on the system side) and 0.5 are wrong; 1.0 is right
    folded = post_process("PreAndPost", _labels(3), ["accuracy"],
                          {"accuracy": [1.0, math.nan, 1.0]})
    assert folded.columns == {"accuracy": [0.5, 1.0]}
    assert post_process("Deprel", ["x"], ["accuracy"], {"accuracy": [1.0]}) is None


def test_accuracy_warning_rule():
    assert needs_accuracy_warning("PreAndPost", ["counter"])
    assert needs_accuracy_warning("Clustering2", ["correctcounter", "counter"])
    assert not needs_accuracy_warning("Clustering2", ["counter", "accuracy"])
    assert not needs_accuracy_warning("Clustering", ["counter"])  # prints accuracy regardless


# ---- golden: MaltEval's stdout -----------------------------------------------------------------

CASES = sorted(p.stem for p in GOLDEN.glob("*.cmd"))


def _fold_like_malteval(monkeypatch):
    """Until tables.py folds PreAndPost/Clustering/Clustering2 itself: key them by
    SentenceAndToken, fold each per-word result with post_process (rows in key order, before
    sort and cut; no Row mean / Row count) and head the row labels with its title."""
    for name in POST_PROCESSED_ROW_TITLES:
        monkeypatch.setitem(counting.GROUPINGS, name, (sentence_and_token, False))
    evaluate, build_tables = tables.evaluate, tables.build_tables
    titles = {}  # grouping -> heading of its row labels

    def folding_evaluate(evaluation, cache):
        result = evaluate(evaluation, cache)
        grouping = evaluation.grouping
        if grouping.is_complex or grouping.name not in POST_PROCESSED_ROW_TITLES:
            return result
        folded = post_process(evaluation.grouping.name, result.labels,
                              list(evaluation.columns.names), result.columns)
        columns = dataclasses.replace(evaluation.columns, names=tuple(folded.columns))
        evaluation = dataclasses.replace(evaluation, columns=columns)
        new = tables.Result(evaluation, folded.labels, folded.columns,
                            {name: (math.nan, 0) for name in folded.columns})
        new.order, new.more = tables._sort_and_cut(new, evaluation)
        titles[evaluation.grouping.name] = folded.row_title
        return new

    def titled_build_tables(results, formatting, merge):
        built = build_tables(results, formatting, merge)
        for table in built:
            table.row_heading = titles.get(table.row_heading, table.row_heading)
        return built

    monkeypatch.setattr(analyze_run, "evaluate", folding_evaluate)
    monkeypatch.setattr(analyze_run, "build_tables", titled_build_tables)


@pytest.mark.parametrize("case", CASES)
def test_output_equals_malteval(case, monkeypatch):
    argv = shlex.split((GOLDEN / f"{case}.cmd").read_text(encoding="utf-8"))
    expected = (GOLDEN / f"{case}.out").read_text(encoding="utf-8")
    grouping = argv[argv.index("--GroupBy") + 1]
    if any(name in grouping for name in POST_PROCESSED_ROW_TITLES) and \
            "PreAndPost" not in counting.GROUPINGS:
        _fold_like_malteval(monkeypatch)
        # MaltEval warns before anything else (one line per evaluation); nothing prints that
        # line yet, so compare the rest
        warning = ACCURACY_WARNING + "\n"
        name, _, columns = grouping.partition(":")
        warned = expected.count(warning)
        assert expected.startswith(warning * warned)
        asked = columns.split("|") if columns else ["accuracy"]  # the default
        if "all" in asked:
            asked = ["accuracy", "counter", "correctcounter"]
        assert (warned > 0) == needs_accuracy_warning(name, asked)
        expected = expected[len(warning) * warned:]
    monkeypatch.chdir(GOLDEN)
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(["analyze", *argv], stdout, stderr) == 0, stderr.getvalue()
    assert stderr.getvalue() == ""
    assert stdout.getvalue() == expected
