"""Word-alignment evaluation (``conll_eval alignment``): hand-worked scores of sure/possible
links, both file formats, input errors with file:line, PTS and significance tests.

Notation in the comments: S = gold sure links, P = gold possible links (S included),
A = system links; links written (source, target), 1-based as in the NAACL format.
"""
import io
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from conll_eval.analyze.word_alignment import (AlignmentScores, LinkFileError, compare_alignments,
                                               count_links, evaluate_alignments, gold_sentences,
                                               parse_weights, read_links)
from conll_eval.cli import main
from conll_eval.errors import UsageError

DATA = Path(__file__).resolve().parent.parent / "testdata" / "word-alignment"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def scores_of(write, gold: str, system: str) -> AlignmentScores:
    """Score two NAACL texts (one sentence, numbered 1)."""
    run_ = evaluate_alignments(write("gold.naacl", gold), [write("system.naacl", system)])
    return run_.systems[0].scores


def pct(fraction) -> str:
    return f"{100 * float(fraction):.2f}"


# ---------------------------------------------------------------------------------------------
# Scores

GOLD_ONE = "1 1 1 S\n1 2 2 S\n1 2 3 P\n1 3 3 P\n"  # S = {11, 22}; P = {11, 22, 23, 33}


def test_perfect_system_has_aer_zero(write):
    # A = S = {11, 22}: |P&A| = 2, |S&A| = 2, AER = 1 - (2 + 2) / (2 + 2) = 0
    scores = scores_of(write, GOLD_ONE, "1 1 1\n1 2 2\n")
    assert (scores.sure_hits, scores.possible_hits, scores.sure, scores.system) == (2, 2, 2, 2)
    assert scores.aer == 0
    assert scores.precision == 1 and scores.recall == 1


def test_adding_only_possible_links_keeps_aer_zero(write):
    # A = {11, 22, 23}: |P&A| = 3, |S&A| = 2; AER = 1 - (3 + 2) / (3 + 2) = 0;
    # precision 3/3, recall 2/2, but sure precision |S&A|/|A| = 2/3
    scores = scores_of(write, GOLD_ONE, "1 1 1\n1 2 2\n1 2 3\n")
    assert scores.aer == 0 and scores.precision == 1 and scores.recall == 1
    assert scores.sure_precision == pytest.approx(2 / 3)
    # the chapter's "possible" scores: recall |P&A|/|P| = 3/4, F1 = 2*3 / (3 + 4) = 6/7
    assert scores.possible_recall == pytest.approx(3 / 4)
    assert scores.possible_f1 == pytest.approx(6 / 7)


def test_system_equal_to_p_with_s_a_proper_subset(write):
    # A = P = {11, 22, 23, 33}: |P&A| = 4, |S&A| = 2, |A| = 4, |S| = 2:
    # AER = 1 - (4 + 2) / (4 + 2) = 0; sure P = 2/4, sure R = 2/2, sure F1 = 2*2 / (4 + 2)
    scores = scores_of(write, GOLD_ONE, "1 1 1\n1 2 2\n1 2 3\n1 3 3\n")
    assert scores.aer == 0
    assert scores.sure_precision == pytest.approx(1 / 2) and scores.sure_recall == 1
    assert scores.sure_f1 == pytest.approx(2 / 3)
    assert scores.possible_precision == 1 and scores.possible_recall == 1


def test_wrong_and_missing_links(write):
    # A = {11, 23, 31}: 31 is no gold link; |P&A| = 2 (11, 23), |S&A| = 1 (11);
    # precision 2/3, recall 1/2, AER = 1 - (2 + 1) / (3 + 2) = 2/5
    scores = scores_of(write, GOLD_ONE, "1 1 1\n1 2 3\n1 3 1\n")
    assert scores.precision == pytest.approx(2 / 3) and scores.recall == pytest.approx(1 / 2)
    assert scores.aer == pytest.approx(2 / 5)


def test_empty_system(write):
    # A = {}: precision |P&A|/|A| = 0/0, reported 0 (wa_eval_align.pl); recall 0/2 = 0;
    # AER = 1 - (0 + 0) / (0 + 2) = 1 (wa_eval_align.pl prints 0 here: we do not)
    gold, empty = write("gold.naacl", GOLD_ONE), write("empty.naacl", "")
    code, out, err = run("alignment", "--format", "json", gold, empty)
    assert code == 0
    assert "no system links: precision is undefined and reported as 0, AER is 1" in err
    record = json.loads(out)
    assert record["systems"][0]["och_ney"] == {"precision": 0.0, "recall": 0.0, "aer": 1.0}


def test_nothing_to_find_and_nothing_proposed():
    # |A| + |S| = 0: no error was made, AER 0; the undefined ratios are 0
    scores = AlignmentScores(sure_hits=0, possible_hits=0, sure=0, possible=0, system=0)
    assert scores.aer == 0 and scores.precision == 0 and scores.recall == 0
    assert scores.sure_f1 == 0


def test_sure_links_count_as_possible(write):
    # gold: 11 marked S only, 22 marked P; the system proposes 11 and 22.
    # P = {11, 22} although 11 has no P line: |P&A| = 2, precision 2/2, possible recall 2/2
    scores = scores_of(write, "1 1 1 S\n1 2 2 P\n", "1 1 1\n1 2 2\n")
    assert (scores.sure, scores.possible, scores.possible_hits) == (1, 2, 2)
    assert scores.precision == 1 and scores.possible_recall == 1
    # AER = 1 - (2 + 1) / (2 + 1) = 0
    assert scores.aer == 0


def test_link_marked_sure_and_possible_is_sure_once(write):
    # 11 is listed as P (line 1) and as S (line 2): merged into one sure link, with a warning
    gold = write("gold.naacl", "1 1 1 P\n1 1 1 S\n1 2 2 S\n")
    code, out, err = run("alignment", gold, write("system.naacl", "1 1 1\n"))
    assert code == 0 and out.startswith("Word alignment against ")
    assert f"{gold}:2: warning [duplicate-link] link 1 1 of sentence 1 repeats line 1" in err
    links = read_links(gold)
    assert len(links) == 2 and links.sure.tolist() == [True, True]
    # |S| = 2 (11, 22), |P| = 2: the repeated line is not a third link
    scores = evaluate_alignments(gold, [write("s.naacl", "1 1 1\n")]).systems[0].scores
    assert (scores.sure, scores.possible, scores.recall) == (2, 2, 0.5)


def test_repeated_system_link_counts_once(write):
    # A = {11} although written twice: precision 1/1 (not 2/2 nor 1/2)
    system = write("system.pharaoh", "0-0 0-0\n")
    scores = evaluate_alignments(write("gold.pharaoh", "0-0 1-1\n"), [system]).systems[0].scores
    assert (scores.system, scores.precision, scores.recall) == (1, 1.0, 0.5)
    assert [w.code for w in read_links(system).warnings] == ["duplicate-link"]


def test_system_markers_are_ignored_with_a_note(write):
    # the system marks 22 possible: it is in A all the same, |S&A| = 2
    gold, system = write("gold.naacl", GOLD_ONE), write("system.naacl", "1 1 1 S\n1 2 2 P\n")
    code, _, err = run("alignment", gold, system)
    assert code == 0 and "S/P markers are ignored" in err
    assert evaluate_alignments(gold, [system]).systems[0].scores.sure_hits == 2


def test_null_links_kept_or_dropped(write):
    # gold: 11 S and 0-2 (source NULL) S; system 11 and 0-2.
    gold = write("gold.naacl", "1 1 1 S\n1 0 2 S\n")
    system = write("system.naacl", "1 1 1\n1 0 2\n1 3 0\n")
    # keep: |A| = 3, |S&A| = 2: precision 2/3
    kept = evaluate_alignments(gold, [system]).systems[0].scores
    assert (kept.system, kept.sure_hits) == (3, 2)
    # drop: only 11 on either side: precision 1/1, recall 1/1
    dropped = evaluate_alignments(gold, [system], null="drop").systems[0].scores
    assert (dropped.system, dropped.sure, dropped.sure_hits) == (1, 1, 1)


def test_per_sentence_counts(write):
    # sentence 1: S = {11}, A = {11, 22}; sentence 2: S = {11, 22}, P-only = {21}, A = {21}
    gold = write("gold.naacl", "1 1 1\n2 1 1\n2 2 2\n2 2 1 P\n")
    system = write("system.naacl", "1 1 1\n1 2 2\n2 2 1\n")
    counts = evaluate_alignments(gold, [system]).systems[0].counts
    assert counts.sentences.tolist() == [1, 2]
    assert counts.sure.tolist() == [1, 2] and counts.possible.tolist() == [1, 3]
    assert counts.system.tolist() == [2, 1]
    assert counts.sure_hits.tolist() == [1, 0] and counts.possible_hits.tolist() == [1, 1]
    # sentence 2 alone: AER = 1 - (1 + 0) / (1 + 2) = 2/3
    assert counts.sentence(1).aer == pytest.approx(2 / 3)


# ---------------------------------------------------------------------------------------------
# Formats

# testdata/word-alignment: 3 sentences; gold S = 3 + 2 + 4 = 9, P = 4 + 5 + 4 = 13;
# the system proposes 4 links per sentence, |A| = 12:
#   sentence 1: 11 22 33 44        |S&A| = 3 (44 is possible), |P&A| = 4
#   sentence 2: 11 32 43 23        |S&A| = 2 (11, 43),         |P&A| = 4 (32, 23 possible)
#   sentence 3: 11 22 34 43        |S&A| = 2 (11, 22),         |P&A| = 2
# |S&A| = 7, |P&A| = 10: precision 10/12, recall 7/9, AER = 1 - 17/21 = 4/21
DATA_COUNTS = (9, 13, 12, 7, 10)
DATA_AER = Fraction(4, 21)


@pytest.mark.parametrize("gold", ["gold.naacl", "gold.pharaoh"])
@pytest.mark.parametrize("system", ["system.naacl", "system.pharaoh"])
def test_both_formats_give_identical_results(gold, system):
    # NAACL positions are 1-based, Pharaoh's 0-based: "2 3 4 P" is "2?3" on line 2
    run_ = evaluate_alignments(str(DATA / gold), [str(DATA / system)])
    scores = run_.systems[0].scores
    assert (scores.sure, scores.possible, scores.system, scores.sure_hits,
            scores.possible_hits) == DATA_COUNTS
    assert scores.aer == pytest.approx(float(DATA_AER))
    assert run_.formats == (gold.split(".")[1], system.split(".")[1])


def test_format_detection_and_forcing(write):
    assert read_links(str(DATA / "gold.naacl")).format == "naacl"
    assert read_links(str(DATA / "poor.pharaoh")).format == "pharaoh"
    # "1 2 3" forced to Pharaoh is not a link line
    path = write("links.txt", "1 2 3\n")
    with pytest.raises(LinkFileError) as info:
        read_links(path, "pharaoh")
    assert info.value.code == "bad-link" and str(info.value.location) == f"{path}:1"


def test_empty_system_file_takes_the_gold_format(write):
    # an empty line is one Pharaoh sentence without links, so both formats read it alike
    empty = write("empty.txt", "\n\n\n")
    run_ = evaluate_alignments(str(DATA / "gold.pharaoh"), [empty])
    assert run_.formats == ("pharaoh", "pharaoh")
    assert run_.systems[0].scores.system == 0


def test_gold_sentences():
    # Pharaoh: one sentence a line (poor.pharaoh has 3 lines, the last one empty)
    assert gold_sentences(read_links(str(DATA / "poor.pharaoh"))).tolist() == [1, 2, 3]
    # NAACL: the numbers it uses; declared (--source): 1..n
    assert gold_sentences(read_links(str(DATA / "gold.naacl"))).tolist() == [1, 2, 3]
    assert gold_sentences(read_links(str(DATA / "gold.naacl")), 5).tolist() == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------------------
# Input errors: file:line, a code, exit 1 and no traceback

@pytest.mark.parametrize("text, line, code", [
    ("1 1 1 S\n1 2\n", 2, "bad-field-count"),
    ("1 1 1 S\n1 2 2 S 0.5 x\n", 2, "bad-field-count"),
    ("1 1 1 S\n1 x 2 S\n", 2, "bad-number"),
    ("1 1 1 S\n1 -1 2 S\n", 2, "bad-number"),
    ("1 1 1 S\n1 1 2 Q\n", 2, "bad-link-mark"),
    ("1 1 1 S\n1 1 2 S P\n", 2, "bad-link-mark"),
    ("1 1 1 S\n1 1 2 0.5 0.7\n", 2, "bad-link-mark"),
])
def test_malformed_naacl_lines(write, text, line, code):
    gold = write("gold.naacl", text)
    status, out, err = run("alignment", gold, str(DATA / "system.naacl"))
    assert status == 1 and out == ""
    assert err.startswith(f"{gold}:{line}: error [{code}] ")
    assert "Traceback" not in err


@pytest.mark.parametrize("text, line, code", [
    ("0-0 1-1\n0-0 1_1\n", 2, "bad-link"),
    ("0-0\n0-0 1-1 2x2\n", 2, "bad-link"),
    ("\n\nhello world\n", 3, "unknown-format"),
])
def test_malformed_pharaoh_lines(write, text, line, code):
    system = write("system.pharaoh", text)
    status, out, err = run("alignment", str(DATA / "gold.pharaoh"), system)
    assert status == 1 and out == ""
    assert err.startswith(f"{system}:{line}: error [{code}] ")


def test_invalid_utf8(write_bytes):
    system = write_bytes("system.naacl", b"1 1 1\n1 2 2 \xff\n")
    status, _, err = run("alignment", str(DATA / "gold.naacl"), system)
    assert status == 1 and err.startswith(f"{system}:2: error [invalid-utf8] ")


def test_missing_file(tmp_path):
    missing = tmp_path / "nowhere.naacl"
    status, _, err = run("alignment", str(DATA / "gold.naacl"), missing)
    assert status == 1 and err == f"{missing}: error [file-not-found] no such file or directory\n"


def test_system_sentence_absent_from_gold(write):
    # NAACL gold uses sentences 1-3; the system's sentence 7 (line 2) is none of them
    system = write("system.naacl", "1 1 1\n7 1 1\n")
    status, _, err = run("alignment", str(DATA / "gold.naacl"), system)
    assert status == 1
    assert err.startswith(f"{system}:2: error [unknown-sentence] sentence 7 of the system "
                          "file is not a gold sentence (gold sentences: 1-3")


def test_pharaoh_system_with_more_lines_than_gold(write):
    system = write("system.pharaoh", "0-0\n\n\n1-1\n")  # line 4: a fourth sentence
    status, _, err = run("alignment", str(DATA / "gold.pharaoh"), system)
    assert status == 1 and err.startswith(f"{system}:4: error [unknown-sentence] ")


def test_pharaoh_system_with_fewer_lines_has_a_note(write):
    # 2 lines for 3 gold sentences: sentence 3 has no system links (|A| = 1)
    system = write("system.pharaoh", "0-0\n\n")
    status, _, err = run("alignment", str(DATA / "gold.pharaoh"), system)
    assert status == 0 and "2 line(s) for 3 gold sentence(s)" in err


# ---------------------------------------------------------------------------------------------
# --source / --target: positions in range

def ranges(*extra):
    return ("alignment", "--source", DATA / "source.txt", "--target", DATA / "target.txt", *extra)


def test_positions_in_range():
    status, out, err = run(*ranges(DATA / "gold.naacl", DATA / "system.pharaoh", "--signature"))
    assert status == 0 and err == ""
    assert "|positions:source+target" in out


@pytest.mark.parametrize("name, text, line, message", [
    # Pharaoh, 0-based: sentence 2 has 4 tokens, positions 0-3; "0-4" (line 2) is too far
    ("system.pharaoh", "0-0\n0-0 0-4\n", 2,
     "target position 4 is out of range: sentence 2 ({target}:2) has 4 token(s), positions 0-3"),
    # NAACL, 1-based: source position 5 of a 4-token sentence
    ("system.naacl", "1 1 1\n3 5 1\n", 2,
     "source position 5 is out of range: sentence 3 ({source}:3) has 4 token(s), positions 1-4"),
])
def test_position_out_of_range(write, name, text, line, message):
    system = write(name, text)
    status, _, err = run(*ranges(DATA / "gold.naacl", system))
    assert status == 1
    assert err == (f"{system}:{line}: error [position-out-of-range] "
                   + message.format(source=DATA / "source.txt", target=DATA / "target.txt")
                   + "\n")


def test_null_position_is_in_range(write):
    system = write("system.naacl", "1 0 1\n1 1 0\n")  # NULL on either side: no token needed
    status, _, err = run(*ranges(DATA / "gold.naacl", system))
    assert status == 0 and err == ""


def test_sentence_out_of_range(write):
    gold = write("gold.naacl", "1 1 1\n4 1 1\n")  # source.txt has 3 lines
    status, _, err = run(*ranges(gold, DATA / "system.naacl"))
    assert status == 1 and err.startswith(f"{gold}:2: error [sentence-out-of-range] ")


def test_source_and_target_line_counts_differ(write):
    target = write("target.txt", "le chat dort .\n")
    status, _, err = run("alignment", "--source", DATA / "source.txt", "--target", target,
                         DATA / "gold.naacl", DATA / "system.naacl")
    assert status == 1 and err.startswith(f"{target}: error [sentence-count-mismatch] ")


def test_declared_sentences_allow_system_links_where_gold_has_none(write):
    # NAACL gold without links in sentence 3: unknown without --source, scored with it
    gold = write("gold.naacl", "1 1 1\n2 1 1\n")
    system = write("system.naacl", "3 1 1\n")
    assert run("alignment", gold, system)[0] == 1
    status, out, _ = run("alignment", "--source", DATA / "source.txt", "--format", "json",
                         gold, system)
    assert status == 0 and json.loads(out)["gold"]["sentences"] == 3


# ---------------------------------------------------------------------------------------------
# PTS

PTS_FILES = [DATA / f"{side}-{kind}.conllu" for side in ("source", "target")
             for kind in ("gold", "system")]
# UAS with --punct unicode (the final "." of sentence 1 left out: 11 scored words a side):
# source: one head wrong ("a"; the "." head error does not count) -> 10/11
# target: two heads wrong ("ne", "pas") -> 9/11
UAS_SOURCE, UAS_TARGET = Fraction(10, 11), Fraction(9, 11)


def pts_record(*extra):
    status, out, err = run("alignment", "--format", "json", "--pts", *PTS_FILES, *extra,
                           DATA / "gold.naacl", DATA / "system.pharaoh")
    assert status == 0, err
    return json.loads(out)


def test_pts_default_weights():
    pts = pts_record()["pts"]
    # PTS = 1/3 * 10/11 + 1/3 * 9/11 + 1/3 * (1 - 4/21)
    expected = (UAS_SOURCE + UAS_TARGET + (1 - DATA_AER)) / 3
    assert pts["uas_source"] == pytest.approx(float(UAS_SOURCE))
    assert pts["uas_target"] == pytest.approx(float(UAS_TARGET))
    assert pts["one_minus_aer"] == pytest.approx(float(1 - DATA_AER))
    assert pts["pts"] == pytest.approx(float(expected))
    assert pts["punct"] == "unicode"
    assert pts["weights"] == {"source": "1/3", "target": "1/3", "alignment": "1/3"}


def test_pts_custom_weights_text():
    status, out, _ = run("alignment", "--pts", *PTS_FILES, "--pts-weights", "0.5,0.25,0.25",
                         DATA / "gold.naacl", DATA / "system.pharaoh", "--signature")
    # PTS = 1/2 * 10/11 + 1/4 * 9/11 + 1/4 * 17/21
    expected = Fraction(1, 2) * UAS_SOURCE + Fraction(1, 4) * UAS_TARGET \
        + Fraction(1, 4) * (1 - DATA_AER)
    assert status == 0
    lines = out.splitlines()
    assert f"PTS         {pct(expected)}" in lines
    assert f"UAS source  {pct(UAS_SOURCE)}     1/2" in lines
    assert "|pts:1/2,1/4,1/4|punct:unicode" in lines[-1]


def test_pts_punct_include():
    # every word scored: source 10/12 (the "." head is wrong too), target 10/12
    pts = pts_record("--punct", "include")["pts"]
    assert pts["uas_source"] == pytest.approx(10 / 12)
    assert pts["uas_target"] == pytest.approx(10 / 12)


@pytest.mark.parametrize("weights", ["0.5,0.5,0.5", "1/3,1/3", "a,b,c", "-1,1,1", "1/0,0,1"])
def test_pts_bad_weights_are_usage_errors(weights):
    status, _, err = run("alignment", "--pts", *PTS_FILES, f"--pts-weights={weights}",
                         DATA / "gold.naacl", DATA / "system.pharaoh")
    assert status == 2 and err.startswith("conll_eval alignment: error [usage] --pts-weights: ")


def test_pts_weights_are_exact():
    # decimals read as fractions: 0.2 + 0.3 + 0.5 is exactly 1
    assert parse_weights("0.2,0.3,0.5") == (Fraction(1, 5), Fraction(3, 10), Fraction(1, 2))
    with pytest.raises(UsageError):
        parse_weights("0.333,0.333,0.333")


@pytest.mark.parametrize("option", [["--pts-weights", "1,0,0"], ["--punct", "deprel"]])
def test_pts_options_need_pts(option):
    status, _, err = run("alignment", *option, DATA / "gold.naacl", DATA / "system.pharaoh")
    assert status == 2 and "give --pts too" in err


def test_pts_conllu_errors_exit_1(write):
    broken = write("broken.conllu", "1\tthe\n\n")
    status, _, err = run("alignment", "--pts", broken, *PTS_FILES[1:], DATA / "gold.naacl",
                         DATA / "system.pharaoh")
    assert status == 1 and err.startswith(f"{broken}:1: error [")


# ---------------------------------------------------------------------------------------------
# Significance

def counts_of(gold_text: str, system_text: str, write, name: str):
    gold = write("gold.pharaoh", gold_text)
    return evaluate_alignments(gold, [write(name, system_text)]).systems[0].counts


def test_identical_systems_have_p_one():
    # the same file twice: every shuffle and every resample gives difference 0
    run_ = evaluate_alignments(str(DATA / "gold.naacl"),
                               [str(DATA / "system.pharaoh"), str(DATA / "system.naacl")])
    result = compare_alignments(["a", "b"], [s.counts for s in run_.systems], resamples=200)
    for score in result.pairs:
        (pair,) = result.pairs[score]
        assert pair.p == {"bootstrap": 1.0, "randomization": 1.0}
        assert pair.difference.value == 0


def test_perfect_against_empty_is_significant(write):
    # 20 sentences of 2 sure links; the perfect system finds them all, the other none.
    # AER 0 against 1 in every bootstrap resample; a shuffle reaches the observed difference
    # only by swapping all 20 sentences or none (2 in 2^20): p = (0 + 1) / (R + 1)
    resamples = 199
    gold = "0-0 1-1\n" * 20
    perfect = counts_of(gold, gold, write, "perfect.pharaoh")
    empty = counts_of(gold, "\n" * 20, write, "empty.pharaoh")
    result = compare_alignments(["perfect", "empty"], [perfect, empty], resamples=resamples)
    (pair,) = result.pairs["AER"]
    assert pair.p["randomization"] == pytest.approx(1 / (resamples + 1))
    assert pair.p["bootstrap"] == pytest.approx(1 / (resamples + 1))
    # AER difference perfect - empty = 0 - 1, interval [-1, -1]
    assert (pair.difference.value, pair.difference.low, pair.difference.high) == (-1, -1, -1)
    assert result.intervals["AER"][1].value == 1 and result.intervals["AER"][0].value == 0


def test_compare_cli_signature_and_p(write):
    gold = write("gold.pharaoh", "0-0 1-1\n" * 20)
    perfect = write("perfect.pharaoh", "0-0 1-1\n" * 20)
    empty = write("empty.pharaoh", "\n" * 20)
    status, out, err = run("alignment", "--compare", empty, "--resamples", "99", "--seed", "7",
                           "--format", "json", gold, perfect)
    assert status == 0 and "no system links" in err
    record = json.loads(out)
    assert record["signature"].endswith("|test:bootstrap+randomization|resamples:99|seed:7|"
                                        "alpha:0.05|correction:holm")
    aer = record["significance"]["scores"]["AER"]
    assert aer["lower_is_better"] is True
    (pair,) = aer["pairs"]
    assert (pair["first"], pair["second"]) == ("perfect", "empty")  # one naming rule
    assert pair["p"]["randomization"] == pytest.approx(1 / 100)
    assert pair["significant"] is True


def test_tested_scores_match_the_scores():
    # the observed bootstrap values are the scores themselves (AER via 1 - AER)
    run_ = evaluate_alignments(str(DATA / "gold.naacl"),
                               [str(DATA / "system.pharaoh"), str(DATA / "poor.pharaoh")])
    result = compare_alignments([s.name for s in run_.systems], [s.counts for s in run_.systems],
                                resamples=50)
    for k, system in enumerate(run_.systems):
        scores = system.scores
        expected = {"AER": scores.aer, "precision": scores.precision, "recall": scores.recall,
                    "sure-precision": scores.sure_precision, "sure-F1": scores.sure_f1}
        for name, value in expected.items():
            assert result.intervals[name][k].value == pytest.approx(value)


def test_compare_systems_need_the_same_sentences(write):
    a = counts_of("0-0\n", "0-0\n", write, "a.pharaoh")
    b = counts_of("0-0\n0-0\n", "0-0\n", write, "b.pharaoh")
    with pytest.raises(ValueError):
        compare_alignments(["a", "b"], [a, b])


def test_same_file_twice_needs_names():
    system = DATA / "system.pharaoh"
    status, _, err = run("alignment", DATA / "gold.naacl", system, "--compare", system)
    assert status == 2 and "--names" in err
    status, _, _ = run("alignment", "--names", "x,y", "--resamples", "20", DATA / "gold.naacl",
                       system, "--compare", system)
    assert status == 0


# ---------------------------------------------------------------------------------------------
# Output

def test_text_report():
    status, out, err = run("alignment", DATA / "gold.naacl", DATA / "system.pharaoh", "--signature")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Word alignment against ") and "|S| = 9" in lines[0]
    rows = {line.split("  ")[0].strip(): line.split()[-1] for line in lines[2:-2] if line.strip()
            and not line.startswith("-")}
    assert rows["Precision"] == pct(Fraction(10, 12))
    assert rows["Recall"] == pct(Fraction(7, 9))
    assert rows["AER"] == pct(DATA_AER)
    assert rows["Possible F1"] == pct(Fraction(2 * 10, 12 + 13))
    assert lines[-1] == "conll_eval:0.1.0|alignment|gold:naacl|system:pharaoh|null:keep"


def test_json_structure():
    status, out, _ = run("alignment", "--format", "json", "--per-sentence",
                         DATA / "gold.pharaoh", DATA / "system.naacl")
    assert status == 0
    record = json.loads(out)
    assert set(record) == {"gold", "systems", "pts", "significance", "warnings", "notes",
                           "signature"}
    assert record["gold"] == {"path": str(DATA / "gold.pharaoh"), "format": "pharaoh",
                              "sentences": 3, "sure": 9, "possible": 13}
    (system,) = record["systems"]
    assert system["counts"] == {"sure": 9, "possible": 13, "system": 12, "sure_hits": 7,
                                "possible_hits": 10}
    assert set(system) == {"name", "path", "format", "counts", "och_ney", "sure", "possible",
                           "sentences"}
    assert system["och_ney"]["aer"] == pytest.approx(float(DATA_AER))
    assert system["sure"]["f1"] == pytest.approx(2 * 7 / (12 + 9))
    # sentence 3: |S&A| = 2, |P&A| = 2, |A| = 4, |S| = 4: AER = 1 - 4/8
    third = system["sentences"][2]
    assert third["sentence"] == 3 and third["och_ney"]["aer"] == pytest.approx(0.5)
    assert record["pts"] is None and record["significance"] is None
    per_sentence_sum = np.sum([s["counts"]["sure_hits"] for s in system["sentences"]])
    assert per_sentence_sum == system["counts"]["sure_hits"]


def test_output_file(tmp_path):
    target = tmp_path / "report.txt"
    status, out, _ = run("alignment", "-o", target, DATA / "gold.naacl", DATA / "system.naacl")
    assert status == 0 and out == ""
    assert target.read_text(encoding="utf-8").startswith("Word alignment against ")


def test_help():
    status, out, _ = run("help", "alignment")
    assert status == 0 and out.startswith("usage: conll_eval alignment")


def test_many_duplicates_are_summarised(write):
    system = write("system.pharaoh", "0-0 " * 13 + "\n")  # 12 repetitions on line 1
    status, _, err = run("alignment", DATA / "gold.pharaoh", system)
    assert status == 0
    assert err.count("[duplicate-link]") == 10
    assert "conll_eval: warning: 2 more repeated link(s), each counted once" in err


def test_count_links_api_rejects_unknown_sentences(write):
    gold = read_links(str(DATA / "gold.naacl"))
    system = read_links(write("system.naacl", "1 1 1\n3 1 1\n4 1 1\n2 2 2\n"))
    with pytest.raises(LinkFileError) as info:
        count_links(gold, system, gold_sentences(gold))
    assert info.value.code == "unknown-sentence"
    assert str(info.value.location) == f"{system.path}:3"
    # the gold file is checked too: sentence 3 (line 10) is outside 1-2
    with pytest.raises(LinkFileError) as info:
        count_links(gold, gold, np.array([1, 2], dtype=np.int64))
    assert str(info.value.location) == f"{gold.path}:10"
