"""Reports, signatures and gates of issue 11: aligned text/Markdown tables, ``strict`` in the
signature, pair mode's --metrics/--fail-under/csv/markdown/--signature, ``macro:``/``micro:``
bars and the fraction warning, pairing by treebank code, and a CSV without comment lines.

testdata/suite/ (see tests/test_suite.py): macro LAS 35.00 over five treebanks, three of
them failed; micro UAS 50.00.  testdata/golden/mwt-resplit/: LAS 50.00, UAS 56.25.
"""
import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from conll_eval.errors import UsageError
from conll_eval.evaluate import Settings
from conll_eval.report.escape import markdown_text
from conll_eval.suite import evaluate_suite, pair_directories, treebank_code
from helpers import run_cli, without_identical

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "testdata" / "suite"
GOLD, SYSTEM = str(SUITE / "gold"), str(SUITE / "system")
CASE = ROOT / "testdata" / "golden" / "mwt-resplit"
PAIR = [str(CASE / "gold.conllu"), str(CASE / "system.conllu")]
SIGNATURE = Settings().signature()
NUMBER = re.compile(r"\d+\.\d\d|(?<= )n/a(?=[ !|]|$)")  # an n/a cell is aligned as a number


# ---------------------------------------------------------------------------------------------
# Bug 3: every row's numbers end in the same columns

def number_ends(line):
    return [m.end() for m in NUMBER.finditer(line)]


def tables(text):
    """Runs of consecutive lines holding 2-decimal numbers (rules and headers break no run)."""
    blocks, current = [], []
    for line in text.splitlines():
        if number_ends(line):
            current.append(line)
        elif not set(line.replace("|", "").replace(" ", "")) <= set("-:") or not line:
            if current:
                blocks.append(current)
            current = []
    return blocks + ([current] if current else [])


def assert_aligned(text, expected_tables):
    blocks = tables(text)
    assert len(blocks) == expected_tables, text
    for block in blocks:  # a blank cell (no aligned accuracy) leaves out one number
        columns = max((number_ends(line) for line in block), key=len)
        assert all(set(number_ends(line)) <= set(columns) for line in block), "\n".join(block)


LEADERBOARD = [GOLD, SYSTEM, GOLD, "--names", "parser,oracle"]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("extra", [[], ["--micro"], ["--by-language"], ["--micro", "--by-language"]])
def test_leaderboard_average_rows_line_up_with_the_treebank_rows(fmt, extra):
    code, out, _ = run_cli("suite", *LEADERBOARD, "--format", fmt, "--metrics", "LAS,UAS", *extra)
    assert code == 1  # the parser's treebanks failed: the '!' marks are there
    assert "0.00!" in out
    assert_aligned(out, 3)  # the ranking, then LAS and UAS per treebank
    if fmt == "text":
        table = out.split("LAS F1 per treebank\n", 1)[1]
        lines = table.splitlines()
        fische = next(line for line in lines if line.startswith("de_fische"))
        macro = next(line for line in lines if line.startswith("Macro (5)"))
        assert fische.index("0.00!") + 4 == macro.index("35.00") + 5  # the decimal points meet
        assert fische.endswith("0.00!") and macro.endswith("35.00")


@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("extra", [[], ["--micro", "--by-language"]])
def test_single_system_rows_line_up(fmt, extra):
    code, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", fmt, "--metrics", "UAS,LAS,CLAS", *extra)
    assert code == 1
    assert_aligned(out, 1)
    rows = tables(out)[0]
    assert len(rows) == 5 + 1 + (4 if extra else 0)


def test_markdown_source_is_a_grid():
    _, out, _ = run_cli("suite", *LEADERBOARD, "--format", "markdown", "--micro", "--by-language")
    blocks = [[line for line in chunk.splitlines() if line.startswith("|")] for chunk in out.split("\n\n")]
    blocks = [block for block in blocks if block]
    assert len(blocks) == 4  # the ranking, then LAS, MLAS and BLEX per treebank
    for block in blocks:
        pipes = {tuple(m.start() for m in re.finditer(r"(?<!\\)\|", line)) for line in block}
        assert len(pipes) == 1 and block[0].endswith("|"), "\n".join(block)


# ---------------------------------------------------------------------------------------------
# Bug 4: --strict is in the signature

def test_strict_is_in_the_settings_signature():
    assert Settings(strict=2).signature() == SIGNATURE + "|strict:L2"
    assert Settings("conll18", "w.txt", 1).signature() == SIGNATURE + "|weights:file|strict:L1"
    assert Settings(strict=True) == Settings(strict=2) and Settings(strict=False) == Settings()
    assert "strict" not in SIGNATURE  # signatures without --strict are unchanged
    with pytest.raises(UsageError):
        Settings(strict=3)


def test_suite_strict_signature_in_every_format():
    suffix = "|strict:L2|treebanks:5|average:macro"
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--strict", "-j", "1", "--signature")
    assert out.splitlines()[-1] == SIGNATURE + suffix
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--strict", "--format", "json")
    assert json.loads(out)["signature"] == SIGNATURE + suffix
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--strict", "--format", "tsv", "--signature")
    assert out.splitlines()[0] == "# " + SIGNATURE + suffix
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--strict", "--format", "markdown")
    assert f"`{SIGNATURE + suffix}`" in out
    _, _, err = run_cli("suite", GOLD, SYSTEM, "--strict", "--format", "csv", "--signature")
    assert err.splitlines()[-1] == SIGNATURE + suffix
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--signature")
    assert out.splitlines()[-1] == SIGNATURE + "|treebanks:5|average:macro"


def test_evaluate_suite_strict_reaches_the_results_settings():
    suite = evaluate_suite(pair_directories(GOLD, SYSTEM), strict=True)
    assert suite.settings.strict == 2 and "|strict:L2|" in suite.signature
    assert evaluate_suite(pair_directories(GOLD, SYSTEM), Settings(strict=2)).signature == suite.signature


def test_pair_strict_signature():
    _, out, _ = run_cli("--strict", "--signature", *PAIR)
    assert out.splitlines()[-1] == SIGNATURE + "|strict:L2"
    _, out, _ = run_cli("--strict", "--format", "json", *PAIR)
    document = json.loads(out)
    assert document["signature"] == SIGNATURE + "|strict:L2" and document["settings"]["strict"] is True


@pytest.mark.parametrize("switch", [["--micro"], ["--by-language"], ["--rank-by", "UAS"],
                                    ["--metrics", "LAS"], ["-j", "1"]])
def test_switches_that_change_no_printed_score_leave_the_signature(switch):
    """--micro/--by-language add labelled rows, --rank-by orders systems, --metrics chooses
    columns, -j never matters: the signature names what changes numbers, not these."""
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", "json", *switch)
    assert json.loads(out)["signature"] == SIGNATURE + "|treebanks:5|average:macro"


# ---------------------------------------------------------------------------------------------
# Point 13: pair mode's --metrics, --fail-under, csv, markdown, --signature

@pytest.mark.parametrize("argv, expected", [([], "expected-conll18.txt"),
                                            (["-v"], "expected-conll18-v.txt"),
                                            (["-c"], "expected-conll18-c.txt")])
def test_pair_defaults_stay_the_official_output(argv, expected):
    _, out, err = run_cli(*argv, *PAIR)
    assert out == (CASE / expected).read_text(encoding="utf-8") and err == ""


def test_pair_metrics_choose_the_rows_of_every_format():
    official = (CASE / "expected-conll18-v.txt").read_text(encoding="utf-8").splitlines()
    _, out, _ = run_cli("--metrics", "UAS,LAS", *PAIR)  # implies -v
    assert out.splitlines() == official[:2] + [next(line for line in official if line.startswith(m + " "))
                                               for m in ("UAS", "LAS")]
    _, out, _ = run_cli("--metrics", "LAS", "-c", *PAIR)
    assert [line.split("|")[0].strip() for line in out.splitlines()[2:]] == ["LAS"]
    _, out, _ = run_cli("--metrics", "LAS,Tokens", "--format", "json", *PAIR)
    assert list(json.loads(out)["metrics"]) == ["LAS", "Tokens"]
    for fmt, delimiter in (("tsv", "\t"), ("csv", ",")):
        _, out, _ = run_cli("--metrics", "LAS,UAS", "--format", fmt, *PAIR)
        rows = list(csv.DictReader(io.StringIO(out), delimiter=delimiter))
        assert [(r["metric"], r["f1"]) for r in rows] == [("LAS", "50.00"), ("UAS", "56.25")]
    _, out, _ = run_cli("--metrics", "UAS", "--format", "markdown", *PAIR)
    assert [line.split("|")[1].strip() for line in out.splitlines() if line.startswith("|")] == \
        ["Metric", "------", "UAS"]


def test_pair_markdown_and_csv():
    code, out, err = run_cli("--format", "markdown", *PAIR)
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert re.sub(" +", " ", lines[0]) == "| Metric | Precision | Recall | F1 Score | AligndAcc |"
    las = next(line for line in lines if line.startswith("| LAS "))
    assert [c.strip() for c in las.split("|")[1:-1]] == ["LAS", "53.33", "47.06", "50.00", "61.54"]
    tokens = next(line for line in lines if line.startswith("| Tokens "))
    assert tokens.split("|")[-2].strip() == ""  # no aligned accuracy for Tokens
    assert_aligned(out, 1)
    assert lines[-1] == f"<sub>`{SIGNATURE}`</sub>"
    code, out, _ = run_cli("--format", "csv", *PAIR)
    rows = list(csv.reader(io.StringIO(out), strict=True))
    assert rows[0][:2] == ["metric", "correct"] and len(rows) == 1 + 13


def test_pair_signature_in_every_format_or_on_stderr():
    _, text, _ = run_cli("--signature", *PAIR)
    assert text.splitlines()[-1] == SIGNATURE
    _, out, _ = run_cli("--signature", "--format", "json", *PAIR)
    assert json.loads(out)["signature"] == SIGNATURE
    _, out, _ = run_cli("--signature", "--format", "tsv", *PAIR)
    assert out.splitlines()[0] == "# " + SIGNATURE and out.splitlines()[1].startswith("metric\t")
    _, plain, _ = run_cli("--format", "csv", *PAIR)
    _, out, err = run_cli("--signature", "--format", "csv", *PAIR)
    assert out == plain and err == SIGNATURE + "\n"
    _, out, _ = run_cli("--signature", "--format", "markdown", *PAIR)
    assert out.splitlines()[-1] == f"<sub>`{SIGNATURE}`</sub>"
    _, out, _ = run_cli("--format", "tsv", *PAIR)
    assert out.startswith("metric\t")  # no comment line without --signature


def test_pair_fail_under():
    code, out, err = run_cli("--fail-under", "LAS=50,UAS=56.26", *PAIR)
    assert code == 1 and out.startswith("LAS F1 Score: 50.00")
    assert err == "conll_eval: error [fail-under] UAS 56.25 < 56.26\n"  # LAS 50.00 is not below 50
    code, out, err = run_cli("--fail-under", "LAS=50,UAS=56.25", "--format", "json", *PAIR)
    assert code == 0 and err == ""
    # the bar is compared with the printed value: 56.25 (of 0.5625) is not below 56.25
    code, _, err = run_cli("--fail-under", "BLEX=36.37", "--metrics", "LAS", *PAIR)
    assert code == 1 and "BLEX 36.36 < 36.37" in err  # a bar may name a metric not shown


@pytest.mark.parametrize("command, prog", [([], "conll_eval"), (["suite"], "conll_eval suite")])
@pytest.mark.parametrize("option", [["--metrics", "Nope"], ["--fail-under", "LASS=80"],
                                    ["--fail-under", "LAS=x"], ["--fail-under", "LAS=101"]])
def test_usage_errors_name_the_command(command, prog, option):
    paths = PAIR if not command else [GOLD, SYSTEM]
    code, out, err = run_cli(*command, *option, *paths)
    assert code == 2 and out == "" and err.startswith(f"{prog}: error [usage] {option[0]}: ")


# ---------------------------------------------------------------------------------------------
# Point 14: fraction warning, macro: and micro: bars

WARNING = ("conll_eval: warning: --fail-under bars are percentages; LAS=0.8 means 0.8 %, did "
           "you mean LAS=80?\n")


@pytest.mark.parametrize("command", [PAIR, ["suite", GOLD, GOLD]])
def test_bars_that_look_like_fractions_are_warned_about(command):
    code, _, err = run_cli(*command, "--fail-under", "LAS=0.8")
    assert code == 0 and without_identical(err) == WARNING
    _, _, err = run_cli(*command, "--fail-under", "LAS=0.8,UAS=0.755")
    assert err.splitlines()[0] == ("conll_eval: warning: --fail-under bars are percentages; LAS=0.8 "
                                   "means 0.8 % and UAS=0.755 means 0.755 %, did you mean LAS=80,UAS=75.5?")
    for quiet in (["--fail-under", "LAS=0.8,UAS=80"], ["--fail-under", "LAS=0"]):
        assert "warning" not in without_identical(run_cli(*command, *quiet)[2])


def test_macro_bars_check_only_the_macro_average():
    code, _, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", "macro:LAS=35,macro:UAS=40")
    below = [line for line in err.splitlines() if "error [fail-under]" in line]
    assert code == 1 and below == ["conll_eval suite: error [fail-under] macro-average: UAS 35.00 < 40"]
    _, _, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", "LAS=35")
    assert "conll_eval suite: error [fail-under] de_fische: LAS 0.00 < 35" in err  # plain: every treebank


def test_micro_bars_need_no_micro_option():
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", "micro:UAS=50.01", "--format", "json")
    assert code == 1 and "micro" not in json.loads(out)
    assert "conll_eval suite: error [fail-under] micro-average: UAS 50.00 < 50.01" in err.splitlines()
    code, _, err = run_cli("suite", GOLD, GOLD, "--fail-under", "micro:UAS=100,macro:LAS=100")
    assert (code, without_identical(err)) == (0, "")


def test_leaderboard_bars_name_the_system():
    _, _, err = run_cli("suite", *LEADERBOARD, "--fail-under", "macro:LAS=50")
    assert "conll_eval suite: error [fail-under] parser macro-average: LAS 35.00 < 50" in err.splitlines()
    assert "oracle" not in without_identical(err)


@pytest.mark.parametrize("bar, fragment", [("avg:LAS=80", "the prefix can be macro: or micro:"),
                                           ("macro:Nope=80", "expected METRIC=PERCENT")])
def test_bad_bar_prefixes_are_usage_errors(bar, fragment):
    code, _, err = run_cli("suite", GOLD, SYSTEM, "--fail-under", bar)
    assert code == 2 and fragment in err


@pytest.mark.parametrize("bar", ["macro:LAS=80", "micro:LAS=80"])
def test_one_pair_has_no_average_bars(bar):
    code, out, err = run_cli("--fail-under", bar, *PAIR)
    assert (code, out) == (2, "")
    assert err == (f"conll_eval: error [usage] --fail-under: '{bar}': one pair has no averages, "
                   "its bars take no prefix\n")


def test_the_help_documents_the_bars():
    from conll_eval.cli import build_suite_parser
    text = " ".join(build_suite_parser().format_help().split())
    assert "macro:LAS=80 checks the macro-average only" in text and "LAS=0.8 is 0.8 %" in text


# ---------------------------------------------------------------------------------------------
# Point 16: pairing by treebank code

def make_suite(tmp_path, gold_names, system_names):
    """Directories of copies of testdata/suite/gold/en_dogs.conllu (a perfect system)."""
    source = SUITE / "gold" / "en_dogs.conllu"
    for side, names in (("gold", gold_names), ("system", system_names)):
        (tmp_path / side).mkdir()
        for name in names:
            shutil.copy(source, tmp_path / side / name)
    return str(tmp_path / "gold"), str(tmp_path / "system")


def test_treebank_code():
    assert treebank_code("en_ewt-ud-test.pred.conllu") == "en_ewt"
    assert treebank_code("dir/en_ewt.conllu") == "en_ewt"
    assert treebank_code("en_ewt") == "en_ewt"


def test_pairs_by_treebank_code_when_the_names_differ(tmp_path):
    gold, system = make_suite(
        tmp_path, ["en_ewt-ud-test.conllu", "fr_gsd-ud-test.conllu", "de_gsd-ud-test.conllu", "cs_pdt.conllu"],
        ["en_ewt-ud-test.pred.conllu", "fr_gsd.conllu", "de_gsd-ud-test-sys.conllu", "cs_pdt.conllu",
         "cs_pdt-old.conllu"])
    pairing = pair_directories(gold, system)
    found = {e.name: (Path(e.system).name, e.by_code) for e in pairing.entries}
    assert found == {"en_ewt-ud-test": ("en_ewt-ud-test.pred.conllu", True),
                     "fr_gsd-ud-test": ("fr_gsd.conllu", True),
                     "de_gsd-ud-test": ("de_gsd-ud-test-sys.conllu", True),
                     "cs_pdt": ("cs_pdt.conllu", False)}  # the exact name first
    assert [Path(p).name for p in pairing.unpaired_system] == ["cs_pdt-old.conllu"]
    assert [e.language for e in pairing.entries] == ["cs", "de", "en", "fr"]


def test_ambiguous_codes_are_not_paired_and_the_candidates_are_named(tmp_path):
    gold, system = make_suite(tmp_path, ["en_ewt-ud-test.conllu", "fr_gsd-ud-dev.conllu", "fr_gsd-ud-test.conllu"],
                              ["en_ewt-a.conllu", "en_ewt-b.conllu", "fr_gsd.conllu"])
    pairing = pair_directories(gold, system)
    assert all(not e.by_code and e.candidates for e in pairing.entries)
    ewt = pairing.entries[0]
    assert [Path(c).name for c in ewt.candidates] == ["en_ewt-a.conllu", "en_ewt-b.conllu"]
    assert len(pairing.unpaired_system) == 3
    code, out, _ = run_cli("suite", gold, system, "--metrics", "LAS")
    assert code == 1
    a, b = (str(Path(system) / f"en_ewt-{x}.conllu") for x in "ab")
    assert (f"not paired by its treebank code en_ewt, which is ambiguous: candidates {a}, {b} "
            "(rename the files, or name the pairs with --pairs)") in out
    assert f"{a} (likely for en_ewt-ud-test)" in out
    assert f"{Path(system) / 'fr_gsd.conllu'} (likely for fr_gsd-ud-dev or fr_gsd-ud-test)" in out


def test_near_names_are_suggested(tmp_path):
    gold, system = make_suite(tmp_path, ["en_ewt.conllu", "de_kuehe.conllu"],
                              ["en_ewtt.conllu", "zz_extra.conllu"])
    code, out, _ = run_cli("suite", gold, system, "--format", "json")
    document = json.loads(out)
    ewt = next(t for t in document["treebanks"] if t["name"] == "en_ewt")
    assert ewt["candidates"] == [str(Path(system) / "en_ewtt.conllu")]
    assert ewt["status"].endswith(f"no system file for this treebank; did you mean {Path(system) / 'en_ewtt.conllu'}?")
    kuehe = next(t for t in document["treebanks"] if t["name"] == "de_kuehe")
    assert kuehe["candidates"] == [] and kuehe["status"].endswith("no system file for this treebank")


def test_pairs_by_code_are_named_in_every_output(tmp_path):
    gold, system = make_suite(tmp_path, ["en_ewt-ud-test.conllu", "fr_gsd.conllu"],
                              ["en_ewt-ud-test.pred.conllu", "fr_gsd.conllu"])
    gold_file, system_file = Path(gold) / "en_ewt-ud-test.conllu", Path(system) / "en_ewt-ud-test.pred.conllu"
    note = f"en_ewt-ud-test: {gold_file} with {system_file}"
    code, out, err = run_cli("suite", gold, system)
    assert code == 0 and without_identical(err) == ""  # the text output says it
    assert f"Paired by treebank code (the file names differ):\n  {note}\n" in out
    code, out, err = run_cli("suite", gold, system, "--format", "json")
    assert without_identical(err) == f"conll_eval suite: note: paired by treebank code: {note}\n"
    record = json.loads(out)["treebanks"][0]
    assert (record["gold"], record["system"], record["paired_by_code"]) == (str(gold_file), str(system_file), True)
    _, out, _ = run_cli("suite", gold, system, "--format", "markdown")
    assert f"- {markdown_text(note)}" in out  # escaped, not in a code span (issue 40)
    _, out, err = run_cli("suite", gold, system, "-o", tmp_path / "out.txt")
    assert note in err and note in (tmp_path / "out.txt").read_text()
    _, _, err = run_cli("suite", gold, system, "-q")
    assert err == ""


# ---------------------------------------------------------------------------------------------
# Point 19: CSV without comment lines

def strict_table(text, delimiter=","):
    """Parse as a strict CSV reader does; every row as long as the header (the first row)."""
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))
    assert rows and all(len(row) == len(rows[0]) for row in rows), rows
    assert not any(line.startswith("#") for line in text.splitlines())
    return rows


@pytest.mark.parametrize("argv", [
    ["suite", GOLD, SYSTEM], ["suite", GOLD, SYSTEM, "--micro", "--by-language", "--strict"],
    ["suite", *LEADERBOARD, "--micro"], PAIR, ["--metrics", "LAS", *PAIR]])
def test_csv_is_a_plain_rectangular_table(argv):
    _, out, err = run_cli(*argv, "--format", "csv")
    rows = strict_table(out)
    assert rows[0][0] in ("system", "metric") and "signature" not in out
    assert not without_identical(err).strip()
    _, with_signature, err = run_cli(*argv, "--format", "csv", "--signature")
    err = without_identical(err)
    assert with_signature == out and err.startswith("conll_eval:") and len(err.splitlines()) == 1


def test_suite_csv_rows():
    _, out, _ = run_cli("suite", GOLD, SYSTEM, "--format", "csv", "--metrics", "LAS", "--micro")
    rows = strict_table(out)
    assert rows[0] == ["system", "rank", "treebank", "language", "status", "error_code", "LAS"]
    assert [r[2] for r in rows[1:]] == ["de_fische", "de_kuehe", "en_cats", "en_dogs", "fr_oiseaux",
                                        "macro", "micro"]


def test_library_strict_evaluation_carries_strict_in_its_signature():
    from conll_eval import evaluate_files
    pair = ("testdata/golden/identical/gold.conllu", "testdata/golden/identical/system.conllu")
    assert evaluate_files(*pair, strict=True).signature == SIGNATURE + "|strict:L2"
    assert evaluate_files(*pair).signature == SIGNATURE
