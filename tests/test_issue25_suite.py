"""Issue 25, the suite's part: n/a averages stay n/a (points 1, 2), the rank-by column is shown
(21a), --tira only where the wrapper existed (21b), suite's path messages (15, 19).

testdata/issue25-suite/ (hand-written, see testdata/README.md): four treebanks, two whose
gold files annotate XPOS and two that do not, one of each kind failing:

    treebank  gold XPOS  system                          XPOS    LAS
    de_d      all _      a cycle (fails)                 n/a     0.00
    en_a      annotated  XPOS of 'cat' wrong             75.00 100.00  (official: 75.00, 100.00)
    en_b      all _      the '.' attached to 'Dogs'      n/a    66.67  (official: XPOS 100.00)
    fr_c      annotated  missing (fails)                 0.00    0.00

Hand-worked: macro XPOS = (75 + 0) / 2 = 37.50 over 2 of 4; micro XPOS = 2*3 / (8 gold + 4
system words) = 50.00; macro LAS = (0 + 100 + 66.67 + 0) / 4 = 41.67; per language XPOS: de
n/a, en 75.00, fr 0.00.
"""
import json
import shutil
from pathlib import Path

import pytest

from conll_eval.errors import FormatError, UsageError
from conll_eval.evaluate import evaluate_files, gold_unannotated
from conll_eval.metrics import PROFILES
from conll_eval.suite import (MISSING_FILE, Pairing, SuiteEntry, evaluate_suite, find_pairs,
                              missing_system_file, pair_directories, rank, read_pair_list)
from helpers import run_cli
from oracles import require_oracle

ROOT = Path(__file__).resolve().parent.parent
MIXED = ROOT / "testdata" / "issue25-suite"
MIXED_GOLD, MIXED_SYSTEM = str(MIXED / "gold"), str(MIXED / "system")
SUITE = ROOT / "testdata" / "suite"
GOLD, SYSTEM = str(SUITE / "gold"), str(SUITE / "system")  # no gold file annotates XPOS, UFeats
SCORES = ("precision", "recall", "f1", "aligned_accuracy")


def by_name(suite):
    return {r.entry.name: r for r in suite.results}


def json_suite(*argv):
    code, out, err = run_cli("suite", *argv, "--format", "json")
    return code, json.loads(out), err


# ---------------------------------------------------------------------------------------------
# Point 1: the gold file decides what is n/a, with or without --strict, in every path

@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("jobs", [1, 2])
def test_unannotated_tags_stay_na_whatever_failed(strict, jobs):
    suite = evaluate_suite(pair_directories(MIXED_GOLD, MIXED_SYSTEM), jobs=jobs, strict=strict)
    results = by_name(suite)
    assert not results["de_d"].ok and not results["fr_c"].ok
    assert results["de_d"].failure.code == ("non-tree" if strict else "cycle")
    for name in ("de_d", "en_b"):  # their gold files have no XPOS, failed or not
        assert "XPOS" in results[name].unannotated
    for name in ("en_a", "fr_c"):
        assert "XPOS" not in results[name].unannotated
    xpos = suite.macro["XPOS"]
    assert (xpos.count, xpos.f1) == (2, pytest.approx(0.375))  # fr_c counts 0, de_d is left out
    assert suite.macro["UFeats"].count == 0 and suite.macro["UFeats"].f1 is None
    assert suite.macro["LAS"].count == 4 and suite.macro["LAS"].f1 == pytest.approx((1 + 2 / 3) / 4)
    assert suite.micro["XPOS"].f1 == pytest.approx(0.5) and suite.micro["UFeats"] is None
    languages = suite.by_language()
    assert languages["de"]["XPOS"].f1 is None and languages["fr"]["XPOS"].f1 == 0.0
    assert languages["en"]["XPOS"].f1 == pytest.approx(0.75)


@pytest.mark.parametrize("oracle_name", ["conll18_ud_eval"])
def test_treebanks_that_scored_match_the_official_scorer(oracle_name):
    oracle = require_oracle(oracle_name)
    suite = evaluate_suite(pair_directories(MIXED_GOLD, MIXED_SYSTEM))
    for result in suite.results:
        if not result.ok:
            continue
        official = oracle.evaluate(oracle.load_conllu_file(result.entry.gold),
                                   oracle.load_conllu_file(result.entry.system))
        for metric in ("XPOS", "LAS", "UPOS"):
            assert result.scores[metric].f1 == pytest.approx(official[metric].f1, abs=1e-12)


def test_strict_no_longer_turns_na_into_zero():
    """The issue's case: fr_oiseaux (gold XPOS and FEATS all _) fails only under --strict."""
    for extra in ([], ["--strict"]):
        code, out, _ = run_cli("suite", GOLD, SYSTEM, "--metrics", "XPOS,UFeats,LAS", "-j", "1", *extra)
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:1].isalpha()}
        assert rows["fr_oiseaux"][:2] == ["n/a", "n/a"], extra
        assert rows["Macro"][1:3] == ["n/a", "n/a"]  # "Macro (5)": the count, then the cells
        assert "averaged over 0 of 5 treebanks" in out and "over 1 of 5" not in out


def test_a_failed_treebank_whose_gold_cannot_be_read_counts_zero(tmp_path):
    """Its annotation is unknown: it counts 0 in every average, as in the shared tasks."""
    broken = tmp_path / "broken.conllu"
    broken.write_text("1\tx\n\n")
    listing = tmp_path / "pairs.txt"
    listing.write_text(f"{MIXED_GOLD}/en_a.conllu {MIXED_SYSTEM}/en_a.conllu\n"
                       f"{broken} {MIXED_SYSTEM}/en_b.conllu xx_broken\n")
    suite = evaluate_suite(read_pair_list(str(listing)))
    assert by_name(suite)["xx_broken"].failure.side == "gold"
    assert by_name(suite)["xx_broken"].unannotated == ()
    assert suite.macro["XPOS"].count == 2 and suite.macro["XPOS"].f1 == pytest.approx(0.375)


def test_gold_unannotated_looks_at_the_gold_file_only():
    evaluation = evaluate_files(f"{MIXED_GOLD}/en_b.conllu", f"{MIXED_SYSTEM}/en_b.conllu")
    assert gold_unannotated(evaluation.gold, evaluation.counts) == {
        name: why for name, why in evaluation.unannotated().items() if why.startswith("not annotated")}
    assert set(gold_unannotated(evaluation.gold, evaluation.counts)) == {"XPOS", "UFeats"}


@pytest.mark.parametrize("extra", [[], ["--strict"]])
def test_every_format_shows_na_where_the_gold_has_no_tag(extra):
    argv = [MIXED_GOLD, MIXED_SYSTEM, "--metrics", "XPOS,LAS", "--micro", "--by-language", *extra]
    _, out, _ = run_cli("suite", *argv)
    cells = {line.split()[0]: line.split()[1] for line in out.splitlines()
             if line.startswith(("de_d", "en_b", "fr_c", "Micro"))}
    assert cells == {"de_d": "n/a", "en_b": "n/a", "fr_c": "0.00", "Micro": "50.00"}
    assert "Lang de (1)    n/a" in out and "Macro (4)    37.50" in out
    _, out, _ = run_cli("suite", *argv, "--format", "tsv")
    rows = {row.split("\t")[2]: row.split("\t")[6] for row in out.splitlines()[1:]}
    assert rows == {"de_d": "n/a", "en_a": "75.00", "en_b": "n/a", "fr_c": "0.00", "macro": "37.50",
                    "micro": "50.00", "lang:de": "n/a", "lang:en": "75.00", "lang:fr": "0.00"}
    _, out, _ = run_cli("suite", *argv, "--format", "markdown")
    cells = {row.split("|")[1].strip(): row.split("|")[2].strip() for row in out.splitlines()
             if row.startswith("| ")}
    assert (cells["de_d"], cells["en_b"], cells["fr_c"], cells["**Macro (4)**"]) == \
        ("n/a", "n/a", "0.00", "**37.50**")


@pytest.mark.parametrize("extra", [[], ["--strict"]])
def test_json_nulls_every_na_number_of_treebanks_and_averages(extra):
    _, document, _ = json_suite(MIXED_GOLD, MIXED_SYSTEM, "--micro", "--by-language", *extra)
    treebanks = {t["name"]: t["metrics"] for t in document["treebanks"]}
    for name in ("de_d", "en_b"):
        record = treebanks[name]["XPOS"]
        assert record["annotated"] is False and all(record[k] is None for k in SCORES), name
    assert treebanks["en_b"]["XPOS"]["gold"] == 3  # the counts stay
    assert treebanks["fr_c"]["XPOS"]["f1"] == 0.0 and treebanks["en_a"]["XPOS"]["f1"] == 0.75
    assert document["macro"]["XPOS"]["treebanks"] == 2
    assert document["macro"]["XPOS"]["f1"] == pytest.approx(0.375)
    for average in (document["macro"]["UFeats"], document["micro"]["UFeats"],
                    document["by_language"]["de"]["XPOS"]):
        assert average["treebanks"] == 0 and all(average[k] is None for k in SCORES)
    assert document["micro"]["XPOS"]["treebanks"] == 2
    assert document["micro"]["XPOS"]["f1"] == pytest.approx(0.5)


def test_workers_and_one_process_give_the_same_documents():
    outputs = {jobs: run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, "--format", "json", "--micro",
                             "--by-language", "--strict", "-j", jobs)[1] for jobs in (1, 3)}
    assert outputs[1] == outputs[3]


def test_leaderboards_significance_and_html_leave_na_tags_alone(tmp_path):
    html = tmp_path / "report.html"
    code, out, err = run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, MIXED_GOLD, "--metrics", "UFeats,LAS",
                             "--significance", "--resamples", "50", "--html", html)
    assert code == 1
    assert "--significance leaves out UFeats" in err
    assert "UFeats: differences" not in out and "LAS: differences" in out
    ranking = out.splitlines()[1:5]
    assert ranking[0].split() == ["Rank", "System", "UFeats", "LAS", "Failed"]
    assert all(line.split()[2] == "n/a" for line in ranking[2:])
    assert "n/a" in html.read_text()
    code, _, err = run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, MIXED_GOLD, "--metrics", "UFeats",
                           "--significance")
    assert code == 2 and "nothing to test" in err and "UFeats" in err


def test_ranking_by_a_tag_no_gold_file_annotates_is_a_usage_error():
    code, out, err = run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, MIXED_GOLD, "--rank-by", "UFeats")
    assert (code, out) == (2, "")
    assert err.startswith("conll_eval suite: ") and "--rank-by UFeats" in err and "n/a" in err
    suites = [evaluate_suite(pair_directories(MIXED_GOLD, MIXED_SYSTEM))]
    with pytest.raises(UsageError, match="nothing to rank by"):
        rank(suites, "UFeats")
    assert rank(suites, "XPOS")[0][0] == 1  # annotated somewhere: ranks


# ---------------------------------------------------------------------------------------------
# Point 2: a bar on an n/a number is a usage error; a plain bar checks where the tag exists

@pytest.mark.parametrize("bar", ["macro:UFeats=50", "UFeats=50", "micro:UFeats=50"])
def test_a_bar_on_an_na_average_is_a_usage_error(bar):
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", bar)
    assert (code, out) == (2, "")
    assert "UFeats" in err and "annotates" in err and "0.00" not in err


def test_a_plain_bar_checks_only_the_treebanks_that_annotate_the_tag():
    code, _, err = run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, "--fail-under", "XPOS=50")
    below = sorted(line for line in err.splitlines() if "error [fail-under]" in line)
    assert code == 1 and below == ["conll_eval suite: error [fail-under] fr_c: XPOS 0.00 < 50",
                                   "conll_eval suite: error [fail-under] macro-average: XPOS 37.50 < 50"]
    _, _, err = run_cli("suite", MIXED_GOLD, MIXED_SYSTEM, "--fail-under", "micro:XPOS=50.01")
    assert "conll_eval suite: error [fail-under] micro-average: XPOS 50.00 < 50.01" in err


def test_a_plain_bar_passes_when_every_annotating_treebank_is_above(tmp_path):
    for name in ("en_a", "en_b"):  # en_b has no XPOS: not checked, not failed
        for side in ("gold", "system"):
            (tmp_path / side).mkdir(exist_ok=True)
            shutil.copy(MIXED / side / f"{name}.conllu", tmp_path / side)
    code, _, err = run_cli("suite", tmp_path / "gold", tmp_path / "system", "--fail-under", "XPOS=75")
    assert (code, err) == (0, "")


def test_pair_bar_on_a_tag_the_gold_does_not_annotate_is_a_usage_error(tmp_path):
    output = tmp_path / "out.txt"
    code, out, err = run_cli("--fail-under", "XPOS=50", "-o", output,
                             f"{MIXED_GOLD}/en_b.conllu", f"{MIXED_SYSTEM}/en_b.conllu")
    assert (code, out) == (2, "") and "XPOS" in err and "annotate" in err
    assert not output.exists()  # nothing written: the request itself is wrong
    code, _, _ = run_cli("--fail-under", "XPOS=50", f"{MIXED_GOLD}/en_a.conllu",
                         f"{MIXED_SYSTEM}/en_a.conllu")
    assert code == 0


def test_pair_json_nulls_the_scores_of_a_tag_the_gold_does_not_annotate():
    code, out, _ = run_cli("--format", "json", f"{MIXED_GOLD}/en_b.conllu", f"{MIXED_SYSTEM}/en_b.conllu")
    metrics = json.loads(out)["metrics"]
    xpos = metrics["XPOS"]
    assert xpos["annotated"] is False and all(xpos[k] is None for k in SCORES)
    assert (xpos["correct"], xpos["gold"]) == (3, 3) and xpos["exact_match"]["share"] is None
    assert metrics["LAS"]["f1"] == pytest.approx(2 / 3) and metrics["LAS"]["annotated"] is True
    assert metrics["UPOS"]["exact_match"]["share"] == 1.0


# ---------------------------------------------------------------------------------------------
# Point 21: the rank-by column is shown; --tira only with the wrappers' profiles

@pytest.mark.parametrize("fmt", ["text", "markdown", "tsv"])
def test_the_rank_by_metric_is_a_column_of_the_leaderboard(fmt):
    _, out, _ = run_cli("suite", GOLD, SYSTEM, GOLD, "--rank-by", "UAS", "--metrics", "LAS",
                        "--format", fmt)
    header = next(line for line in out.splitlines() if "LAS" in line)
    assert "UAS" in header and header.index("UAS") < header.index("LAS")


def test_the_rank_by_metric_is_not_added_for_one_system():
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--rank-by", "UAS", "--metrics", "LAS")
    assert out.splitlines()[0].split() == ["Treebank", "LAS", "Status"]


@pytest.mark.parametrize("profile", [p for p in PROFILES if p not in ("conll17", "conll18")])
def test_tira_refuses_profiles_without_a_wrapper(tmp_path, profile):
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--tira", tmp_path / "out", "--profile", profile)
    assert (code, out) == (2, "") and "conll17 or conll18" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("option", [["--punct", "upos"], ["--deprel", "full"], ["--strict"]])
def test_tira_refuses_what_would_change_its_numbers_without_a_trace(tmp_path, option):
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--tira", tmp_path / "out", *option)
    assert (code, out) == (2, "") and option[0] in err and "error [usage]" in err
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------------------------
# Points 15 and 19: paths that do not exist, a file with a directory

def test_every_missing_path_is_named_as_an_input_error(tmp_path):
    one, two = tmp_path / "nonexist1", tmp_path / "nonexist2"
    code, out, err = run_cli("suite", one, two)
    assert (code, out) == (1, "")
    assert err.startswith(f"{one}: error [file-not-found] ") and str(two) in err
    code, _, err = run_cli("suite", one, SYSTEM)
    assert code == 1 and err.startswith(f"{one}: error [file-not-found] ")
    code, _, err = run_cli("suite", GOLD, SYSTEM, two)
    assert code == 1 and err.startswith(f"{two}: error [file-not-found] ")
    with pytest.raises(FormatError) as caught:
        find_pairs(str(one), SYSTEM)
    assert caught.value.code == "file-not-found"


@pytest.mark.parametrize("paths", [(f"{GOLD}/en_cats.conllu", SYSTEM), (GOLD, f"{SYSTEM}/en_cats.conllu")])
def test_a_file_with_a_directory_is_a_suite_usage_error(paths):
    code, out, err = run_cli("suite", *paths)
    assert (code, out) == (2, "")
    assert err.startswith("conll_eval suite: ") and "give two directories or two files" in err


def test_a_system_file_absent_from_the_system_directory_is_missing_file(tmp_path):
    suite = evaluate_suite(pair_directories(GOLD, SYSTEM))
    assert by_name(suite)["de_kuehe"].failure.code == MISSING_FILE == "missing-file"
    entry = SuiteEntry("en_x", f"{GOLD}/en_cats.conllu", str(tmp_path / "en_x.conllu"), "en")
    failure = missing_system_file(entry)
    assert failure.code == MISSING_FILE and failure.side == "system"
    assert failure.message.startswith(f"{tmp_path / 'en_x.conllu'}: error [missing-file] ")
    assert missing_system_file(SuiteEntry("en_cats", f"{GOLD}/en_cats.conllu",
                                          f"{SYSTEM}/en_cats.conllu", "en")) is None
    listed = evaluate_suite(Pairing((entry,)))
    assert listed.results[0].failure.code == MISSING_FILE


@pytest.mark.parametrize("fmt, separator", [("tsv", "\t"), ("csv", ","), ("markdown", "|")])
def test_pair_tables_print_na_for_a_tag_the_gold_does_not_annotate(fmt, separator):
    _, out, _ = run_cli("--format", fmt, f"{MIXED_GOLD}/en_b.conllu", f"{MIXED_SYSTEM}/en_b.conllu")
    rows = {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip("|").split(separator)] for line in out.splitlines())}
    assert rows["XPOS"][-4:] == ["n/a"] * 4 and rows["LAS"][-4:] == ["66.67"] * 4
    _, out, _ = run_cli("--format", fmt, f"{MIXED_GOLD}/en_a.conllu", f"{MIXED_SYSTEM}/en_a.conllu")
    rows = {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip("|").split(separator)] for line in out.splitlines())}
    assert rows["XPOS"][-4:] == ["75.00"] * 4  # annotated: a number
