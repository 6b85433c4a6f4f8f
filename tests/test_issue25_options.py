"""Issue 25 points 3, 14, 15, 16 and part of 20: one set of shared options with one meaning,
one naming rule for systems and treebanks, breakdown's undefined columns and failed pairs,
no negative zero, the significance tests' small-sample warning."""
import argparse
import io
import json
import shutil
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.alignment import build_alignment_parser
from conll_eval.cli.breakdown import build_breakdown_parser
from conll_eval.cli.common import SCORING_OPTIONS, shared_options
from conll_eval.cli.compare import build_compare_parser
from conll_eval.cli.report import build_report_parser
from conll_eval.cli.score import build_parser
from conll_eval.cli.suite import build_suite_parser
from conll_eval.cli.validate import build_validate_parser
from conll_eval.naming import system_names, treebank_name
from conll_eval.report.tables import fixed, percent

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "testdata" / "suite"
GOLDEN = ROOT / "testdata" / "golden"
EXAMPLE = ROOT / "testdata" / "analyze-example"
ALIGNMENT = ROOT / "testdata" / "word-alignment"

#: command -> its parser (the commands whose options copy another tool's command line,
#: analyze (MaltEval) and tagger's moot mode (mooteval), are not argparse parsers of ours)
PARSERS = {"score": build_parser, "suite": build_suite_parser, "compare": build_compare_parser,
           "breakdown": build_breakdown_parser, "validate": build_validate_parser,
           "alignment": build_alignment_parser, "report": build_report_parser}
#: commands that score CoNLL-U pairs
SCORING = ("score", "suite", "compare", "breakdown", "report")
#: options of one name that mean another thing, on purpose: validate's --format has the UD
#: validator's forms (udtools); alignment's --punct is the PTS's, eval07.pl's default
OWN_MEANING = {("validate", "format"), ("alignment", "punct")}
SHARED = shared_options()


def _options(parser: argparse.ArgumentParser):
    return {a.dest: a for a in parser._actions if a.option_strings and a.dest != "help"}


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


# ---- point 16: one shared option set ------------------------------------------------------------

def test_a_shared_option_is_the_same_everywhere():
    """Every option with a shared name has the shared flags, default, choices, type, action
    and help (a command may only add a sentence to the help)."""
    seen = {}
    for command, build in PARSERS.items():
        for dest, action in _options(build()).items():
            seen.setdefault(dest, []).append(command)
            if dest not in SHARED or (command, dest) in OWN_MEANING:
                continue
            shared = SHARED[dest]
            reference = argparse.ArgumentParser()
            expected = reference.add_argument(*shared.flags, dest=dest, **shared.keywords)
            for field in ("option_strings", "default", "choices", "type", "nargs", "const",
                          "metavar"):
                assert getattr(action, field) == getattr(expected, field), (command, dest, field)
            assert type(action) is type(expected), (command, dest)
            assert action.help.startswith(shared.help.replace("%%", "%")) or \
                action.help.startswith(shared.help), (command, dest)
    twice = {dest for dest, commands in seen.items() if len(commands) > 1}
    own = {dest for _, dest in OWN_MEANING}
    assert twice - set(SHARED) <= own, "an option of several commands is not shared"


def test_every_scoring_command_has_the_scoring_set_and_a_gate_has_quiet():
    for command in SCORING:
        options = _options(PARSERS[command]())
        assert set(SCORING_OPTIONS) <= set(options), command
        if "fail_under" in options:
            assert "quiet" in options, command
    for command in ("score", "suite", "breakdown"):
        assert "fail_under" in _options(PARSERS[command]())
    for command in ("suite", "compare", "breakdown", "report", "alignment"):
        assert "names" in _options(PARSERS[command]()), command


def test_alignment_has_the_formats_of_the_others():
    assert _options(build_alignment_parser())["format"].choices == \
        _options(build_parser())["format"].choices


def test_metric_names_in_any_case_printed_canonically(tmp_path):
    gold = GOLDEN / "identical" / "gold.conllu"
    code, out, _ = _run(gold, gold, "--metrics", "las,uas,la", "--format", "tsv")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()[1:]] == ["LAS", "UAS", "LA"]
    code, out, _ = _run("suite", SUITE / "gold", SUITE / "system", SUITE / "system",
                        "--names", "a,b", "--rank-by", "uas", "--metrics", "clas", "--format",
                        "json", "-j", "1")
    assert json.loads(out)["settings"]["rank_by"] == "UAS"
    code, out, _ = _run("compare", gold, gold, GOLDEN / "identical" / "system.conllu",
                        "--names", "a,b", "--metrics", "blex", "--format", "json",
                        "--resamples", "10")
    assert code == 0 and list(json.loads(out)["scores"]) == ["BLEX"]


def test_fail_under_takes_every_metric_metrics_takes(tmp_path):
    gold = GOLDEN / "identical" / "gold.conllu"
    weights = tmp_path / "weights.txt"
    weights.write_text("nsubj 2\n")
    assert _run(gold, gold, "--fail-under", "la=100")[0] == 0
    assert _run(gold, gold, "--fail-under", "LA=100.01")[0] == 2  # not a percentage
    assert _run(gold, gold, "-w", weights, "--fail-under", "weightedlas=99")[0] == 0
    code, _, err = _run("suite", SUITE / "gold", SUITE / "system", "--fail-under", "macro:la=99",
                        "-j", "1")
    assert "error [fail-under] macro-average: LA " in err


def test_quiet_prints_nothing_everywhere(tmp_path):
    gold, system = GOLDEN / "identical" / "gold.conllu", EXAMPLE / "system.conllu"
    assert _run(gold, gold, "-q", "--fail-under", "LAS=80") == (0, "", "")
    assert _run(EXAMPLE / "gold.conllu", system, "-q", "--fail-under", "LAS=99") == (1, "", "")
    assert _run(gold, tmp_path / "none.conllu", "-q") == (1, "", "")
    # suite: a failed treebank and a missed bar, nothing printed (it used to list failures)
    assert _run("suite", SUITE / "gold", SUITE / "system", "-q", "--fail-under", "LAS=99",
                "-j", "1") == (1, "", "")
    assert _run("breakdown", SUITE / "gold", SUITE / "system", "-q") == (1, "", "")
    assert _run("breakdown", SUITE / "gold" / "fr_oiseaux.conllu",
                SUITE / "system" / "fr_oiseaux.conllu", "-q") == (1, "", "")
    assert _run("validate", SUITE / "system" / "fr_oiseaux.conllu", "-q") == (1, "", "")


def test_strict_in_compare_report_and_breakdown(tmp_path):
    gold = SUITE / "gold" / "fr_oiseaux.conllu"
    cycle = SUITE / "system" / "fr_oiseaux.conllu"
    for argv in (["compare", gold, gold, cycle], ["report", gold, cycle],
                 ["breakdown", gold, cycle]):
        code, out, err = _run(*argv, "--strict")
        assert code == 1 and out == "" and "--strict" in err and "nothing scored" in err, argv[0]
    code, out, _ = _run("compare", gold, gold, gold, "--names", "a,b", "--strict",
                        "--format", "json", "--resamples", "10")
    assert code == 0 and "|strict:L2|" in json.loads(out)["signature"]
    code, out, _ = _run("breakdown", gold, gold, "--strict", "--format", "json")
    assert code == 0 and json.loads(out)["signature"].endswith("|strict:L2|breakdown:"
                                                               "relations-nivre-fang-2017")


def test_strict_reads_a_system_from_stdin_once(monkeypatch):
    """--strict validates stdin and then scores the copy it read (stdin is read only once)."""
    gold = GOLDEN / "mwt-resplit" / "gold.conllu"
    system = GOLDEN / "mwt-resplit" / "system.conllu"
    expected = _run("compare", gold, system, gold, "--format", "json", "--resamples", "10")[1]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(system.read_bytes())))
    code, out, _ = _run("compare", gold, "-", gold, "--strict", "--format", "json",
                        "--resamples", "10")
    record, reference = json.loads(out), json.loads(expected)
    assert code == 0 and record["systems"] == ["stdin", "gold"]
    assert [[v["value"] for v in m.values()] for m in record["scores"].values()] == \
        [[v["value"] for v in m.values()] for m in reference["scores"].values()]
    code, _, err = _run("compare", gold, "-", "-", "--names", "a,b", "--strict")
    assert code == 2 and "stdin" in err


# ---- point 14: one naming rule ------------------------------------------------------------------

def test_system_names_one_rule(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / "runs" / sub).mkdir(parents=True)
        (tmp_path / "runs" / sub / "pred.conllu").write_text("")
    (tmp_path / "runs" / "system-a.conllu.gz").write_text("")
    a, b = (str(tmp_path / "runs" / s / "pred.conllu") for s in ("a", "b"))
    assert system_names([a, str(tmp_path / "runs" / "system-a.conllu.gz")], None, "x") == \
        ["pred", "system-a"]
    clashing = system_names([a, b], None, "x")
    assert [n[-len("runs/a/pred"):] for n in clashing] == ["runs/a/pred", "runs/b/pred"]
    assert system_names([a, b], "x, y", "x") == ["x", "y"]
    for given in ("x", "x,x", "x,"):
        with pytest.raises(Exception, match="--names"):
            system_names([a, b], given, "x")
    with pytest.raises(Exception, match="given twice"):
        system_names([a, a], None, "x")
    assert treebank_name("ud/en_ewt/gold.conllu") == "en_ewt"
    assert treebank_name("x/en_ewt-ud-test.conllu.xz") == "en_ewt-ud-test"


def test_compare_names_as_suite_names_them(tmp_path):
    gold = GOLDEN / "identical" / "gold.conllu"
    for sub in ("a", "b"):
        (tmp_path / "runs" / sub).mkdir(parents=True)
        shutil.copy(gold, tmp_path / "runs" / sub / "pred.conllu")
    shutil.copy(GOLDEN / "identical" / "system.conllu", tmp_path / "system-a.conllu")
    code, out, err = _run("compare", gold, tmp_path / "system-a.conllu", gold,
                          "--baseline", "system-a", "--format", "json", "--resamples", "10")
    assert code == 0, err
    assert json.loads(out)["systems"] == ["system-a", "gold"]
    code, out, err = _run("compare", gold, tmp_path / "runs" / "a" / "pred.conllu",
                          tmp_path / "runs" / "b" / "pred.conllu", "--format", "json",
                          "--resamples", "10")
    assert code == 0, err
    assert [n[-len("runs/a/pred"):] for n in json.loads(out)["systems"]] == \
        ["runs/a/pred", "runs/b/pred"]


def test_breakdown_names_a_single_pair_after_its_gold_file():
    code, out, _ = _run("breakdown", GOLDEN / "identical" / "gold.conllu",
                        GOLDEN / "identical" / "system.conllu", "--format", "json",
                        "--names", "parser")
    record = json.loads(out)
    assert record["treebanks"][0]["treebank"] == "identical" and record["system"] == "parser"
    code, out, _ = _run("suite", GOLDEN / "identical" / "gold.conllu",
                        GOLDEN / "identical" / "system.conllu", "--format", "json", "-j", "1")
    assert [t["treebank"] for t in json.loads(out)["systems"][0]["treebanks"]] == ["identical"] \
        if "systems" in json.loads(out) else "identical" in out


# ---- point 3: undefined breakdown columns -------------------------------------------------------

def test_breakdown_undefined_group_is_na_and_not_averaged():
    code, out, _ = _run("breakdown", SUITE / "gold", SUITE / "system", "--format", "json")
    record = json.loads(out)
    rows = {t["treebank"]: t for t in record["treebanks"]}
    assert rows["en_dogs"]["columns"]["FUN"] is None      # no FUN word in either file
    assert rows["en_dogs"]["columns"]["LAS-FUN"] is None
    assert rows["en_cats"]["columns"]["FUN"] == 100
    assert record["average"]["FUN"] == 100 and record["average_over"]["FUN"] == 1
    assert record["average"]["MWE"] is None and record["average_over"]["MWE"] == 0
    assert record["average_over"]["LAS"] == record["averaged_over"] == 2
    for fmt in ("tsv", "csv"):
        _, out, _ = _run("breakdown", SUITE / "gold", SUITE / "system", "--format", fmt)
        delimiter = "\t" if fmt == "tsv" else ","
        header, *body = [line.split(delimiter) for line in out.splitlines()]
        table = {cells[0]: dict(zip(header, cells)) for cells in body}
        assert table["en_dogs"]["FUN"] == "-" and table["en_dogs"]["MWE"] == "-"
        assert table["Average (2 of 5)"]["FUN"] == "100.00"
    for fmt in ("text", "markdown"):
        _, out, _ = _run("breakdown", SUITE / "gold", SUITE / "system", "--format", fmt,
                         "--tables", "2")
        lines = [line.replace("|", " ").split() for line in out.splitlines()]
        header = next(cells for cells in lines if cells[:1] == ["treebank"])
        dogs = next(cells for cells in lines if cells[:1] == ["en_dogs"])
        assert dict(zip(header, dogs))["FUN"] == "-" and dict(zip(header, dogs))["MWE"] == "-"
        assert "FUN over 1 of 2" in out


@pytest.mark.parametrize("policy", [["--punct", "deprel"], ["--punct", "upos"],
                                    ["--deprel", "full"], ["--deprel", "v1"],
                                    ["--profile", "conll17"]])
def test_breakdown_las_and_clas_are_the_scorers_under_every_policy(policy):
    gold, system = EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu"
    _, out, _ = _run("breakdown", gold, system, "--format", "json", *policy)
    record = json.loads(out)
    _, scored, _ = _run(gold, system, "--format", "json", *policy)
    metrics = json.loads(scored)["metrics"]
    clas = "CLAS" if "CLAS" in metrics else next(m for m in metrics if m.startswith("CLAS"))
    columns = record["treebanks"][0]["columns"]
    assert columns["LAS"] == pytest.approx(100 * metrics["LAS"]["f1"])
    assert columns["CLAS"] == pytest.approx(100 * metrics[clas]["f1"])
    assert all(part in record["signature"] for part in
               json.loads(scored)["signature"].split("|")[1:])


# ---- point 15: a failed single pair, missing files ----------------------------------------------

def test_breakdown_failed_pair_says_it_once_as_scoring_does():
    pair = (SUITE / "gold" / "fr_oiseaux.conllu", SUITE / "system" / "fr_oiseaux.conllu")
    scored = _run(*pair)
    code, out, err = _run("breakdown", *pair)
    assert (code, out) == (1, "") and err == scored[2] and err.count("\n") == 1
    code, out, err = _run("breakdown", pair[0], SUITE / "nowhere.conllu")
    assert (code, out) == (1, "") and err.count("\n") == 1
    assert err.startswith(f"{SUITE / 'nowhere.conllu'}: error [file-not-found] no such file or directory")
    code, out, err = _run("breakdown", SUITE / "gold", SUITE / "system")
    assert "de_kuehe: not scored:" in out and "[missing-file]" in out and err == ""


def test_breakdown_fail_under():
    gold = EXAMPLE / "gold.conllu"
    code, _, err = _run("breakdown", gold, EXAMPLE / "system.conllu", "--fail-under", "las=50")
    assert code == 0 and err == ""
    code, _, err = _run("breakdown", SUITE / "gold", SUITE / "system", "--fail-under",
                        "macro:las=90,FUN=1")
    assert "average: LAS 87.50 < 90" in err and "FUN" not in err  # en_dogs' '-' is not checked
    for bar in ("MWE=50", "macro:MWE=50"):  # '-' in every treebank and in the average
        code, out, err = _run("breakdown", SUITE / "gold", SUITE / "system", "--fail-under", bar)
        assert (code, out) == (2, "") and "error [usage]" in err and "means nothing" in err


# ---- point 20 (part): no negative zero, few sentences -------------------------------------------

def test_no_negative_zero():
    assert fixed(-0.001) == "0.00" and fixed(-0.001, signed=True) == "+0.00"
    assert fixed(-0.006, signed=True) == "-0.01" and percent(-1e-9) == "0.00"
    for fmt in ("text", "markdown", "tsv", "json"):
        code, out, _ = _run("alignment", ALIGNMENT / "gold.naacl", ALIGNMENT / "system.naacl",
                            "--compare", ALIGNMENT / "system.naacl", "--names", "a,b", "--format", fmt,
                            "--resamples", "50")
        assert code == 0 and "-0.00" not in out and "-0.0," not in out and "-0.0\n" not in out


def test_small_sample_warning():
    gold = GOLDEN / "identical" / "gold.conllu"  # 3 sentences
    argv = ("compare", gold, gold, GOLDEN / "identical" / "system.conllu", "--names", "a,b",
            "--resamples", "20")
    code, out, _ = _run(*argv)
    assert out.startswith("warning: only 3 gold sentence(s): below 20")
    code, out, _ = _run(*argv, "--format", "json")
    assert "below 20" in json.loads(out)["small_sample_warning"]
    assert json.loads(out)["sentences"] == 3
    code, out, err = _run(*argv, "--format", "csv")
    assert out.startswith("metric,") and "below 20" in err
    code, out, _ = _run("suite", SUITE / "gold", SUITE / "system", SUITE / "system",
                        "--names", "a,b", "--significance", "--format", "json",
                        "--resamples", "20", "-j", "1")
    warning = json.loads(out)["significance"]["small_sample_warning"]
    assert "few gold sentences in" in warning and "en_cats (" in warning
    code, out, err = _run("suite", SUITE / "gold", SUITE / "system", SUITE / "system",
                          "--names", "a,b", "--significance", "--format", "tsv",
                          "--resamples", "20", "-j", "1", "--signature")
    assert out.splitlines()[1].startswith("metric\t") and "few gold sentences in" in err


def test_the_signature_names_mcnemar_only_where_it_runs():
    """McNemar's test runs on UAS and LAS only: the signature of compare and report says so."""
    gold = GOLDEN / "mwt-resplit" / "gold.conllu"
    system = GOLDEN / "mwt-resplit" / "system.conllu"
    for metrics, named in (("MLAS,BLEX", False), ("LAS", True), ("UAS,CLAS", True)):
        code, out, _ = _run("compare", gold, system, gold, "--metrics", metrics, "--format",
                            "json", "--resamples", "10")
        record = json.loads(out)
        assert code == 0 and ("+mcnemar" in record["signature"]) == named, metrics
        assert all(("mcnemar" in pair["p"]) == (metric in ("UAS", "LAS"))
                   for metric, pairs in record["pairs"].items() for pair in pairs)
