"""Treebank suites: pairing, failure statuses, macro/micro/language averages, leaderboards,
output formats, TIRA layouts and --fail-under gating (conll_eval/suite.py, report/suite.py).

testdata/suite/ (hand-written, see testdata/README.md): five gold treebanks; the system side
has en_cats (LAS 3/4), en_dogs (perfect), fr_oiseaux (a cycle), de_fische (empty), no
de_kuehe, and zz_extra without a gold file.  Hand-worked macro LAS = (75 + 100 + 0 + 0 + 0) / 5
= 35.00; micro UAS = 2*6 / (17 gold + 7 system words) = 50.00.
"""
import csv
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conll_eval import evaluate_files
from conll_eval.errors import FormatError, UsageError
from conll_eval.evaluate import Settings
from conll_eval import suite as suite_module
from conll_eval.suite import (TIRA_CYCLE, TIRA_EMPTY, TIRA_FORMAT, TIRA_GOLD, TIRA_OPEN,
                              TIRA_ROOTS, Pairing, SuiteEntry, evaluate_suite, find_pairs,
                              pair_directories, rank, read_metadata, read_pair_list, tira_status)
from helpers import document, run_cli, sentence, without_identical

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "testdata" / "suite"
GOLD, SYSTEM = str(SUITE / "gold"), str(SUITE / "system")
NAMES = ["en_cats", "en_dogs", "fr_oiseaux", "de_fische", "de_kuehe"]
SORTED = sorted(NAMES)


def by_name(suite):
    return {r.entry.name: r for r in suite.results}


# ---------------------------------------------------------------------------------------------
# Pairing

def test_directories_pair_by_name_sorted_and_report_the_unpaired():
    pairing = pair_directories(GOLD, SYSTEM)
    assert [e.name for e in pairing.entries] == SORTED
    assert [e.language for e in pairing.entries] == ["de", "de", "en", "en", "fr"]
    kuehe = next(e for e in pairing.entries if e.name == "de_kuehe")
    assert kuehe.system == os.path.join(SYSTEM, "de_kuehe.conllu") and not os.path.exists(kuehe.system)
    assert pairing.unpaired_system == (os.path.join(SYSTEM, "zz_extra.conllu"),)


@pytest.mark.parametrize("form", ["2017", "2018"])
def test_both_metadata_forms_give_the_same_suite(form):
    pairing = read_metadata(str(SUITE / f"metadata-{form}.json"), SYSTEM)
    assert pairing.source == "metadata"
    assert [e.name for e in pairing.entries] == NAMES  # metadata order, not sorted
    assert [e.language for e in pairing.entries] == ["en", "en", "fr", "de", "de"]
    assert [e.gold for e in pairing.entries] == [str(SUITE / "gold" / f"{n}.conllu") for n in NAMES]
    assert pairing.unpaired_system == (os.path.join(SYSTEM, "zz_extra.conllu"),)


def test_metadata_json_in_the_gold_directory_is_used(tmp_path):
    gold = tmp_path / "truth"
    shutil.copytree(GOLD, gold)
    (gold / "metadata.json").write_text(json.dumps(
        [{"lcode": "en", "tcode": "dogs", "goldfile": "en_dogs.conllu", "outfile": "en_dogs.conllu"}]))
    pairing = find_pairs(str(gold), SYSTEM)
    assert [(e.name, e.language) for e in pairing.entries] == [("en_dogs", "en")]


@pytest.mark.parametrize("content, fragment", [
    ('{"ltcode": "x"}', "JSON list"),
    ('[{"goldfile": "a", "outfile": "b"}]', "neither 'ltcode'"),
    ('[{"ltcode": "x", "outfile": "b"}]', "no 'goldfile'"),
    ('[{"ltcode": "x", "goldfile": "a", "outfile": "b"}, {"ltcode": "x", "goldfile": "a", "outfile": "b"}]',
     "listed twice"),
    ('[{"ltcode": ', "not valid JSON"),
])
def test_bad_metadata_is_a_clear_error(write, content, fragment):
    path = write("metadata.json", content)
    with pytest.raises(FormatError) as info:
        read_metadata(path, SYSTEM)
    assert info.value.code == "bad-metadata" and fragment in str(info.value)
    assert str(info.value).startswith(path)


def test_pair_list_resolves_paths_against_its_directory():
    pairing = read_pair_list(str(SUITE / "pairs.txt"))
    assert [e.name for e in pairing.entries] == NAMES
    assert pairing.entries[0].gold == str(SUITE / "gold" / "en_cats.conllu")


def test_pair_list_errors_name_the_line(write):
    path = write("pairs.txt", "# comment\na.conllu\n")
    with pytest.raises(FormatError) as info:
        read_pair_list(path)
    assert info.value.location.line == 2 and info.value.code == "bad-pair-list"


def test_two_files_make_a_one_treebank_suite():
    pairing = find_pairs(str(SUITE / "gold" / "en_cats.conllu"), str(SUITE / "system" / "en_cats.conllu"))
    assert [(e.name, e.language) for e in pairing.entries] == [("en_cats", "en")]
    with pytest.raises(UsageError):
        find_pairs(GOLD, str(SUITE / "system" / "en_cats.conllu"))


# ---------------------------------------------------------------------------------------------
# Scores and statuses

@pytest.fixture(scope="module")
def sample():
    return evaluate_suite(pair_directories(GOLD, SYSTEM))


def test_failed_treebanks_score_zero_with_file_line_and_code(sample):
    results = by_name(sample)
    assert [r.ok for r in sample.results] == [False, False, True, True, False]
    cycle = results["fr_oiseaux"].failure
    assert (cycle.side, cycle.code, cycle.official) == ("system", "cycle", TIRA_CYCLE)
    assert cycle.location.path.endswith("fr_oiseaux.conllu") and cycle.location.line == 7
    assert cycle.message.startswith(f"{cycle.location.path}:7: error [cycle]")
    empty = results["de_fische"].failure
    assert (empty.code, empty.official) == ("empty-file", TIRA_EMPTY)
    missing = results["de_kuehe"].failure
    assert (missing.code, missing.official) == ("missing-file", TIRA_OPEN)
    for name in ("fr_oiseaux", "de_fische", "de_kuehe"):
        assert all(score.f1 == 0 and score.correct == 0 for score in results[name].scores.values())
        assert results[name].status == results[name].failure.message


def test_scored_treebanks_equal_the_single_pair_scorer(sample):
    for name in ("en_cats", "en_dogs"):
        single = evaluate_files(str(SUITE / "gold" / f"{name}.conllu"), str(SUITE / "system" / f"{name}.conllu"))
        assert by_name(sample)[name].scores == single.scores
        assert by_name(sample)[name].status == "ok"


def test_macro_average_counts_failed_treebanks_as_zero(sample):
    macro = sample.macro
    assert macro["LAS"].f1 == pytest.approx(0.35, abs=1e-15)
    assert macro["LAS"].count == 5
    for metric, average in sample.official_macro.items():
        assert average.f1 == pytest.approx(sum(r.scores[metric].f1 for r in sample.results) / 5, abs=1e-15)
    for metric, average in macro.items():  # tags: over the treebanks that annotate them
        kept = [r.scores[metric].f1 for r in sample.results if metric not in r.unannotated]
        assert average.count == len(kept)
        if kept:
            assert average.f1 == pytest.approx(sum(kept) / len(kept), abs=1e-15)
        else:  # over no treebank: n/a, never 0
            assert average.f1 is average.precision is average.recall is None
    assert macro["Tokens"].aligned_accuracy is None
    assert macro["UAS"].aligned_accuracy == pytest.approx((0.75 + 1.0) / 5)


def test_micro_average_keeps_the_gold_words_of_failed_system_files(sample):
    uas = sample.micro["UAS"]
    assert (uas.correct, uas.gold, uas.system) == (6, 17, 7)
    assert uas.f1 == pytest.approx(0.5)


def test_per_language_averages(sample):
    languages = sample.by_language()
    assert list(languages) == ["de", "en", "fr"]
    assert languages["en"]["LAS"].f1 == pytest.approx(0.875)
    assert languages["de"]["LAS"].f1 == 0 and languages["de"]["LAS"].count == 2


def test_process_pool_gives_the_same_results_in_the_same_order(sample):
    pooled = evaluate_suite(pair_directories(GOLD, SYSTEM), jobs=2)
    assert [r.entry for r in pooled.results] == [r.entry for r in sample.results]
    assert [r.scores for r in pooled.results] == [r.scores for r in sample.results]
    assert [r.failure for r in pooled.results] == [r.failure for r in sample.results]


def test_zero_treebanks_is_an_error():
    with pytest.raises(UsageError):
        evaluate_suite(Pairing(()))


def test_invalid_gold_file_fails_that_treebank(write):
    gold = write("gold.conllu", "1\tbad\n\n")
    system = str(SUITE / "system" / "en_dogs.conllu")
    result = evaluate_suite(Pairing((SuiteEntry("xx_bad", gold, system, "xx"),))).results[0]
    assert result.failure.side == "gold" and result.failure.official == TIRA_GOLD
    assert result.failure.location.path == gold and result.failure.location.line == 1
    assert all(s.gold == 0 for s in result.scores.values())  # nothing known about the gold side


def test_text_mismatch_status_gives_the_character_ratio(write):
    system = write("system.conllu", document(sentence("1 Dogs 0 root")))
    result = evaluate_suite(Pairing((SuiteEntry("en_dogs", str(SUITE / "gold" / "en_dogs.conllu"),
                                                 system, "en"),))).results[0]
    assert result.failure.code == "text-mismatch"
    # gold "Dogsbark." has 9 non-space characters, the system 4: int(100 * 4 / 9) = 44
    assert result.failure.official == ("Error: The concatenation of tokens in gold file and in system "
                                       "file differ, system file has 4 nonspace characters, which is "
                                       "approximately 44% of the gold file")


@pytest.mark.parametrize("profile, status", [("conll17", TIRA_ROOTS), ("conll18", TIRA_FORMAT)])
def test_multiple_roots_status_follows_each_wrappers_text_test(write, profile, status):
    # conll18's message ("There are 2 roots ...") no longer starts with the wrapper's
    # "There are multiple roots", so the 2018 wrapper calls it a format error (REFERENCE b.5)
    system = write("system.conllu", document(sentence("1 Dogs 0 root", "2 bark 0 root", "3 . 2 punct")))
    entry = SuiteEntry("en_dogs", str(SUITE / "gold" / "en_dogs.conllu"), system, "en")
    result = evaluate_suite(Pairing((entry,)), Settings(profile)).results[0]
    assert result.failure.official == status


def test_internal_errors_are_recorded_not_raised(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(suite_module, "evaluate", broken)
    suite = evaluate_suite(Pairing((SuiteEntry("en_dogs", str(SUITE / "gold" / "en_dogs.conllu"),
                                                str(SUITE / "system" / "en_dogs.conllu"), "en"),)))
    failure = suite.results[0].failure
    assert failure.code == "internal" and "RuntimeError: boom" in failure.message


def test_rank_orders_by_macro_and_shares_equal_ranks(sample):
    perfect = evaluate_suite(pair_directories(GOLD, GOLD), system_name="gold")
    ranked = rank([sample, perfect, sample], "LAS")
    assert [(position, s.system_name) for position, s in ranked] == [(1, "gold"), (2, "system"), (2, "system")]


def test_tira_success_statuses(sample):
    dogs, cats = by_name(sample)["en_dogs"], by_name(sample)["en_cats"]
    assert tira_status(dogs, "conll17") == "OK: Evaluated non-zero LAS F1 score"
    # the misattached full stop is no content word: MLAS and BLEX stay 100
    assert tira_status(cats, "conll18") == "OK: Result F1 scores rounded to 5% are LAS=75% MLAS=100% BLEX=100%"


# ---------------------------------------------------------------------------------------------
# Command line

def test_cli_text_table(tmp_path):
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--metrics", "UAS,LAS", "-j", "1")
    assert code == 1  # treebanks failed
    lines = out.splitlines()
    assert lines[0].split() == ["Treebank", "UAS", "LAS", "Status"]
    assert lines[2].split() == ["de_fische", "0.00", "0.00", "FAILED", "[empty-file]"]
    assert lines[4].split() == ["en_cats", "75.00", "75.00", "ok"]
    assert lines[8].split() == ["Macro", "(5)", "35.00", "35.00"]
    assert any("fr_oiseaux.conllu:7: error [cycle]" in line for line in lines)
    assert any("zz_extra.conllu" in line for line in lines)
    assert "average:macro" not in out  # the signature only with --signature, as in score
    assert without_identical(err) == ""  # no progress indicator when stderr is not a terminal
    _, signed, _ = run_cli("suite", GOLD, SYSTEM, "--metrics", "UAS,LAS", "-j", "1", "--signature")
    assert signed == out + "\n" + Settings().signature() + "|treebanks:5|average:macro\n"


def test_cli_a_metric_named_twice_is_one_column():
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--metrics", "UAS,LAS,UAS", "-j", "1")
    assert out.splitlines()[0].split() == ["Treebank", "UAS", "LAS", "Status"]


def test_cli_json_document():
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", "json", "--micro", "--by-language")
    document_ = json.loads(out)
    assert [t["name"] for t in document_["treebanks"]] == SORTED
    statuses = {t["name"]: t["status"] for t in document_["treebanks"]}
    assert statuses["en_cats"] == "ok" and "[cycle]" in statuses["fr_oiseaux"]
    cycle = next(t for t in document_["treebanks"] if t["name"] == "fr_oiseaux")["error"]
    assert (cycle["code"], cycle["line"], cycle["side"]) == ("cycle", 7, "system")
    assert document_["macro"]["LAS"]["f1"] == pytest.approx(0.35)
    assert 0 <= document_["treebanks"][2]["metrics"]["LAS"]["f1"] <= 1
    assert document_["micro"]["UAS"]["f1"] == pytest.approx(0.5)
    assert document_["by_language"]["en"]["LAS"]["f1"] == pytest.approx(0.875)
    assert document_["settings"]["profile"] == "conll18"
    assert document_["signature"].endswith("|treebanks:5|average:macro")
    assert document_["failed"] == ["de_fische", "de_kuehe", "fr_oiseaux"]


@pytest.mark.parametrize("fmt, delimiter", [("tsv", "\t"), ("csv", ",")])
def test_cli_delimited(fmt, delimiter):
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", fmt, "--metrics", "LAS,MLAS",
                           "--signature")
    if fmt == "tsv":  # a '# signature' line first; the CSV is a plain table (see tests/test_gates.py)
        first, rest = out.split("\n", 1)
        assert first == "# " + Settings().signature() + "|treebanks:5|average:macro"
    else:
        rest = out
    rows = list(csv.DictReader(io.StringIO(rest), delimiter=delimiter))
    assert [r["treebank"] for r in rows] == SORTED + ["macro"]
    cats = next(r for r in rows if r["treebank"] == "en_cats")
    assert (cats["status"], cats["LAS"], cats["language"]) == ("ok", "75.00", "en")
    assert next(r for r in rows if r["treebank"] == "fr_oiseaux")["error_code"] == "cycle"
    assert rows[-1]["LAS"] == "35.00"


def squeezed(text):
    """Markdown source with its alignment padding folded to one space."""
    return re.sub(" +", " ", text)


def test_cli_markdown():
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", "markdown", "--metrics", "LAS")
    out = squeezed(out)
    assert "| Treebank | LAS | Status |" in out
    assert "| en_cats | 75.00 | ok |" in out
    assert "| **Macro (5)** | **35.00** | |" in out
    assert "- fr_oiseaux: " in out and Settings().signature() in out  # names: no code spans


def test_cli_leaderboard_ranks_systems():
    code, out, _ = run_cli("suite", GOLD, SYSTEM, GOLD, "--names", "parser,oracle", "--format", "json")
    document_ = json.loads(out)
    assert [(s["name"], s["rank"]) for s in document_["systems"]] == [("oracle", 1), ("parser", 2)]
    assert document_["rank_by"] == "LAS"
    assert document_["systems"][1]["macro"]["LAS"]["f1"] == pytest.approx(0.35)
    code, out, _ = run_cli("suite", GOLD, SYSTEM, GOLD, "--names", "parser,oracle")
    lines = out.splitlines()
    assert lines[0] == "Ranked by macro LAS F1 over 5 treebanks"
    assert lines[3].split() == ["1", "oracle", "100.00", "100.00", "100.00", "0"]
    assert lines[4].split() == ["2", "parser", "35.00", "40.00", "40.00", "3"]
    assert "fr_oiseaux 100.00 0.00!" in " ".join(" ".join(line.split()) for line in lines)


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_cli_leaderboard_has_a_per_treebank_table_for_every_metric(fmt):
    _, out, _ = run_cli("suite", GOLD, SYSTEM, GOLD, "--names", "parser,oracle", "--format", fmt,
                        "--metrics", "MLAS,UAS", "--rank-by", "LAS", "-j", "1")
    flat = [" ".join(line.replace("|", " ").replace("*", " ").split()) for line in out.splitlines()]
    if fmt == "text":
        titles = [line for line in flat if line.endswith("F1 per treebank")]
        assert titles == ["LAS F1 per treebank", "MLAS F1 per treebank", "UAS F1 per treebank"]
    else:
        titles = [line for line in flat if line.startswith("Treebank oracle")]
        assert titles == [f"Treebank oracle {m} parser {m}" for m in ("LAS", "MLAS", "UAS")]
    # en_cats: the parser misattaches the full stop, one word of four (LAS, UAS 75), which is
    # not a content word (MLAS 100)
    cats = [line for line in flat if line.startswith("en_cats")]
    assert cats == ["en_cats 100.00 75.00", "en_cats 100.00 100.00", "en_cats 100.00 75.00"]
    assert [line for line in flat if line.startswith("Macro (5)")] == [
        "Macro (5) 100.00 35.00", "Macro (5) 100.00 40.00", "Macro (5) 100.00 35.00"]


def test_cli_leaderboard_from_pair_lists(tmp_path):
    oracle = tmp_path / "oracle.txt"
    oracle.write_text("".join(f"{GOLD}/{n}.conllu {GOLD}/{n}.conllu\n" for n in NAMES))
    code, out, _ = run_cli("suite", "--pairs", SUITE / "pairs.txt", "--pairs", oracle,
                           "--format", "json", "--rank-by", "UAS")
    systems = json.loads(out)["systems"]
    assert [s["name"] for s in systems] == ["oracle", "pairs"] and systems[0]["rank"] == 1


def test_cli_fail_under_names_every_treebank_and_metric_below_the_bar():
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", "LAS=75,UAS=80")
    assert code == 1
    lines = err.splitlines()
    assert "conll_eval suite: error [fail-under] en_cats: UAS 75.00 < 80" in lines
    assert "conll_eval suite: error [fail-under] macro-average: LAS 35.00 < 75" in lines
    assert not any("en_cats: LAS" in line for line in lines)  # 75.00 is not below 75
    assert any(line.startswith("  fr_oiseaux: ") and "[cycle]" in line for line in out.splitlines())
    assert run_cli("suite", GOLD, SYSTEM, "--fail-under", "LAS=75,UAS=80", "-q")[:3] == (1, "", "")


def test_cli_fail_under_passes_when_every_score_is_above():
    code, out, err = run_cli("suite", GOLD, GOLD, "--fail-under", "LAS=99.5", "-q")
    assert (code, out, err) == (0, "", "")


@pytest.mark.parametrize("argv", [
    ["--fail-under", "LASS=80"], ["--fail-under", "LAS=high"], ["--fail-under", "LAS=120"],
    ["--metrics", "Nope"], ["--rank-by", "Feats"], ["-j", "0"], ["--names", "a,b"],
])
def test_cli_usage_errors(argv):
    code, out, err = run_cli("suite", GOLD, SYSTEM, *argv)
    assert code == 2 and out == "" and err.startswith("conll_eval")


def test_cli_zero_treebanks(tmp_path):
    empty = tmp_path / "gold"
    empty.mkdir()
    code, out, err = run_cli("suite", empty, SYSTEM)
    assert code == 2 and "no treebanks" in err
    code, out, err = run_cli("suite", empty, SYSTEM, "--tira", tmp_path / "out")
    assert code == 1 and err.startswith("Internal error (uncaught exception) in the evaluation script.")


def test_cli_tira_conll18(tmp_path):
    code, out, err = run_cli("suite", "--metadata", SUITE / "metadata-2018.json", GOLD, SYSTEM,
                             "--tira", tmp_path / "out")
    assert code == 0  # the wrapper exits 0 although treebanks failed
    assert out.splitlines() == [
        "en_cats       LAS= 75.00% MLAS=100.00% BLEX=100.00% (OK: Result F1 scores rounded to 5% "
        "are LAS=75% MLAS=100% BLEX=100%)",
        "en_dogs       LAS=100.00% MLAS=100.00% BLEX=100.00% (OK: Result F1 scores rounded to 5% "
        "are LAS=100% MLAS=100% BLEX=100%)",
        f"fr_oiseaux    LAS=  0.00% MLAS=  0.00% BLEX=  0.00% ({TIRA_CYCLE})",
        f"de_fische     LAS=  0.00% MLAS=  0.00% BLEX=  0.00% ({TIRA_EMPTY})",
        f"de_kuehe      LAS=  0.00% MLAS=  0.00% BLEX=  0.00% ({TIRA_OPEN})",
    ]
    assert err.splitlines()[2] == f"fr_oiseaux    {TIRA_CYCLE}"
    prototext = (tmp_path / "out" / "evaluation.prototext").read_text()
    blocks = prototext.split("measure{\n")[1:]
    assert blocks[0] == '  key: "total-Tokens-F1"\n  value: "40.00"\n}\n'
    keys = [b.split('"')[1] for b in blocks]
    assert keys[:13] == [f"total-{m}-F1" for m in ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats",
                                                    "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX")]
    assert keys[13:15] == ["en_cats-Status", "en_cats-Tokens-F1"]
    assert '  key: "total-LAS-F1"\n  value: "35.00"\n' in prototext
    assert f'  key: "de_fische-Status"\n  value: "{TIRA_EMPTY}"\n' in prototext
    assert len(keys) == 13 + 5 * 14


def test_cli_tira_conll17(tmp_path):
    code, out, err = run_cli("suite", "--metadata", SUITE / "metadata-2017.json", GOLD, SYSTEM,
                             "--tira", tmp_path / "out", "--profile", "conll17")
    assert out.splitlines()[:3] == [
        "en_cats       LAS: 75.00 (OK: Evaluated non-zero LAS F1 score)",
        "en_dogs       LAS:100.00 (OK: Evaluated non-zero LAS F1 score)",
        f"fr_oiseaux    LAS:  0.00 ({TIRA_CYCLE})",
    ]
    assert '  key: "total-Feats-F1"' in (tmp_path / "out" / "evaluation.prototext").read_text()


def test_cli_output_file_is_written_and_inputs_are_protected(tmp_path):
    target = tmp_path / "scores.json"
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", "json", "-o", target)
    assert out == "" and json.loads(target.read_text())["macro"]["LAS"]["f1"] == pytest.approx(0.35)
    code, _, err = run_cli("suite", GOLD, SYSTEM, "-o", SUITE / "gold" / "en_cats.conllu")
    assert code == 2 and "refusing" in err


def test_cli_progress_only_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    from conll_eval.cli import main
    out, err = io.StringIO(), Terminal()
    main(["suite", GOLD, SYSTEM, "-j", "1"], stdout=out, stderr=err)
    progress, cleared, after = err.getvalue().rpartition("\r\033[K")
    assert "[5/5]" in progress and cleared and without_identical(after) == ""  # warnings come after it


def test_cli_strict_turns_validation_errors_into_failures():
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--strict", "--format", "json")
    statuses = {t["name"]: t["error"] for t in json.loads(out)["treebanks"]}
    assert statuses["en_dogs"] is None
    assert statuses["fr_oiseaux"]["side"] == "system"


def test_readme_suite_example_runs_as_shown(monkeypatch):
    page = (ROOT / "docs" / "suite.md").read_text(encoding="utf-8")  # the README's text moved there
    block = page.split("```console\n$ conll_eval suite testdata/suite/gold", 1)[1].split("```", 1)[0]
    argv_tail, *shown = block.rstrip("\n").split("\n")
    argv_tail = argv_tail.split("#")[0]  # the docs test's '# exit 1' mark
    monkeypatch.chdir(ROOT)
    code, out, _ = run_cli("suite", "testdata/suite/gold", *argv_tail.split())
    assert code == 1
    shown = shown[:shown.index("  ...")]
    assert out.splitlines()[:len(shown)] == shown


def test_cli_missing_system_directory_is_an_input_error(tmp_path):
    code, out, err = run_cli("suite", GOLD, tmp_path / "nowhere")
    assert code == 1 and err == f"{tmp_path / 'nowhere'}: error [file-not-found] no such file or directory\n"


def test_cli_pair_lists_must_cover_the_same_treebanks(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text(f"{GOLD}/en_dogs.conllu {GOLD}/en_dogs.conllu\n")
    code, out, err = run_cli("suite", "--pairs", SUITE / "pairs.txt", "--pairs", other)
    assert code == 2 and "same treebanks" in err


def test_cli_internal_error_exits_3_after_printing_the_rest(monkeypatch):
    original = suite_module.evaluate

    def broken_for_cats(gold, system, *args, **kwargs):
        if gold.path.endswith("en_cats.conllu"):
            raise RuntimeError("boom")
        return original(gold, system, *args, **kwargs)
    monkeypatch.setattr(suite_module, "evaluate", broken_for_cats)
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "-j", "1", "--metrics", "LAS")
    assert code == 3
    assert "en_dogs" in out and "en_cats: " in out and "[internal] RuntimeError: boom" in out


@pytest.mark.parametrize("profile", ["conll17", "conll18"])
def test_golden_cases_as_a_suite_equal_the_single_pair_scorer(tmp_path, profile):
    """Every hand-written golden pair as one suite: each treebank scores what the single-pair
    scorer gives (or fails with the error it raises), in both profiles and with two workers;
    the averages are the plain mean and sums of those scores."""
    from conll_eval import ConllEvalError
    golden = ROOT / "testdata" / "golden"
    cases = sorted(p.name for p in golden.iterdir() if (p / "system.conllu").is_file())
    listing = tmp_path / "pairs.txt"
    listing.write_text("".join(f"{golden / c / 'gold.conllu'} {golden / c / 'system.conllu'} {c}\n"
                               for c in cases))
    suite = evaluate_suite(read_pair_list(str(listing)), Settings(profile), jobs=2)
    expected = {}
    for case in cases:
        try:
            expected[case] = evaluate_files(str(golden / case / "gold.conllu"),
                                            str(golden / case / "system.conllu"), profile=profile).scores
        except ConllEvalError as exc:
            expected[case] = exc
    for result in suite.results:
        wanted = expected[result.entry.name]
        if isinstance(wanted, Exception):
            assert result.failure is not None and result.failure.code == wanted.code
            assert all(score.f1 == 0 for score in result.scores.values())
        else:
            assert result.ok and result.scores == wanted, result.entry.name
    for metric in suite.metrics:
        f1s = [r.scores[metric].f1 for r in suite.results]
        assert suite.official_macro[metric].f1 == pytest.approx(sum(f1s) / len(f1s), abs=1e-15)
        kept = [r.scores[metric].f1 for r in suite.results if metric not in r.unannotated]
        assert suite.macro[metric].count == len(kept)
        if kept:  # our macro: only the treebanks whose gold files annotate the tag
            assert suite.macro[metric].f1 == pytest.approx(sum(kept) / len(kept), abs=1e-15)
        summed = [r.scores[metric] for r in suite.results if metric not in r.unannotated]
        if summed:  # micro: the treebanks whose gold files annotate the tag
            assert suite.micro[metric].correct == sum(s.correct for s in summed)
            assert suite.micro[metric].gold == sum(s.gold for s in summed)
        else:
            assert suite.micro[metric] is None


def test_cli_weights_are_checked_once_before_scoring(write):
    code, out, err = run_cli("suite", GOLD, SYSTEM, "-w", write("w.txt", "nsubj x\n"))
    assert code == 1 and out == "" and "[invalid-weights]" in err
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "-w", write("w2.txt", "nsubj 2\n"), "--profile",
                           "conll17", "--format", "json")
    cats = next(t for t in json.loads(out)["treebanks"] if t["name"] == "en_cats")
    # nsubj weighs 2, det/root/punct 1: the misattached full stop loses 1 of 5
    assert cats["metrics"]["WeightedLAS"]["f1"] == pytest.approx(0.8)


_PARENT = os.getpid()
_ORIGINAL_SCORE_ENTRY = suite_module._score_entry


_SCORED_IN_PARENT = []


def _dies_in_a_worker_on_cats(entry, *args):
    if os.getpid() != _PARENT and entry.name == "en_cats":
        os._exit(1)  # like a worker killed by the OOM killer
    if os.getpid() == _PARENT:
        _SCORED_IN_PARENT.append(entry.name)
    return _ORIGINAL_SCORE_ENTRY(entry, *args)


def test_a_dead_worker_loses_no_result(monkeypatch, sample):
    monkeypatch.setattr(suite_module, "_score_entry", _dies_in_a_worker_on_cats)
    pooled = evaluate_suite(pair_directories(GOLD, SYSTEM), jobs=2)
    assert "en_cats" in _SCORED_IN_PARENT  # the pool broke and the parent took over
    assert [r.scores for r in pooled.results] == [r.scores for r in sample.results]
    assert [r.failure for r in pooled.results] == [r.failure for r in sample.results]


def test_cli_markdown_leaderboard():
    code, out, _ = run_cli("suite", GOLD, SYSTEM, GOLD, "--names", "parser,oracle", "--format",
                           "markdown", "--by-language", "--micro")
    out = squeezed(out)
    assert "| 1 | oracle | 100.00 | 100.00 | 100.00 | 0 |" in out
    assert "| fr_oiseaux | 100.00 | 0.00! |" in out and "(! = the treebank failed and scores 0)" in out
    assert "| Lang en (2) | 100.00 | 87.50 |" in out and "| Micro | 100.00 | 50.00 |" in out
    assert "- parser fr_oiseaux: " in out


def test_directories_pair_compressed_files(tmp_path):
    """Parser pipelines often write .conllu.gz: such files pair by their name without it."""
    import gzip
    from conll_eval.suite import pair_directories
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir(), system.mkdir()
    text = (Path(GOLD) / "en_cats.conllu").read_bytes()
    (gold / "en_cats.conllu").write_bytes(text)
    (system / "en_cats.conllu.gz").write_bytes(gzip.compress(text))
    pairing = pair_directories(str(gold), str(system))
    assert [(e.name, os.path.basename(e.system)) for e in pairing.entries] == [("en_cats", "en_cats.conllu.gz")]
    code, out, _ = run_cli("suite", gold, system, "--metrics", "LAS")
    assert code == 0 and "en_cats    100.00  ok" in out
    (system / "en_cats.conllu").write_bytes(text)
    with pytest.raises(UsageError, match="hold treebank en_cats: keep one"):
        pair_directories(str(gold), str(system))


def test_gold_file_is_read_once_while_unchanged(tmp_path):
    """A leaderboard reads each gold file once: the cached treebank while the file is the
    same, a new read once it changed."""
    from conll_eval import suite as suite_module
    gold = tmp_path / "gold.conllu"
    gold.write_text("1\ta\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    first = suite_module._load_gold(str(gold), "conll18")
    assert suite_module._load_gold(str(gold), "conll18") is first
    assert suite_module._load_gold(str(gold), "conll17") is not first  # another profile
    gold.write_text("1\tab\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
    changed = suite_module._load_gold(str(gold), "conll18")
    assert changed is not first and changed.text == "ab"
