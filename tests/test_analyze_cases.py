"""``conll_eval analyze``: every MaltEval 1.0 reference case in ../shared/malteval gives
MaltEval's stdout byte for byte; rejected commands exit non-zero with MaltEval's
``Evaluation aborted: <message>`` on stderr.  The cases where we differ on purpose are tested
for what we do instead, next to MaltEval's recorded failure.  Skipped when the reference
folder is absent."""
import io
import shlex
from pathlib import Path

import pytest

from conll_eval.cli import main

MALTEVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "malteval"
CASES = sorted(p for p in (MALTEVAL / "cases").glob("[0-9][0-9][0-9]-*")) if MALTEVAL.is_dir() else []

#: case number -> the deliberate difference, and the test that asserts what we do instead
DELIBERATE = {
    73: "MaltEval crashes (NullPointerException) on ':all' with a multi-offset complex grouping "
        "without Wordform; we print the columns accuracy counter correctcounter "
        "(test_analyze_complex.test_073_all_without_wordform_is_a_deliberate_difference)",
    148: "MaltEval crashes (NullPointerException) on an -e file without Metric; we default to LAS "
         "(test_148_an_evaluation_file_without_metric_scores_las)",
    152: "MaltEval rejects CoNLL-U, we read it "
         "(test_conllu_input_gives_malteval_numbers_of_the_conllx_conversion)",
}
#: rejected cases about the input files (exit 1); every other rejection is a usage error (exit 2)
INPUT_REJECTIONS = {77, 140, 152, 153, 154, 164}


def _number(case: Path) -> int:
    return int(case.name[:3])


def _case(number: int) -> Path:
    return next(p for p in CASES if _number(p) == number)


def _run(argv, monkeypatch):
    monkeypatch.chdir(MALTEVAL / "data")
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["analyze", *argv], stdout, stderr)
    return status, stdout.getvalue(), stderr.getvalue()


@pytest.mark.skipif(not CASES, reason="../shared/malteval is not present")
@pytest.mark.parametrize("case", [case for case in CASES if _number(case) not in DELIBERATE],
                         ids=lambda p: p.name)
def test_malteval_case(case, monkeypatch):
    argv = shlex.split((case / "cmd.txt").read_text(encoding="utf-8"))
    monkeypatch.chdir(MALTEVAL / "data")
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["analyze", *argv], stdout, stderr)
    expected_err = case / "stderr.txt"
    if expected_err.exists():
        message = expected_err.read_text(encoding="utf-8").strip()
        assert status == (1 if _number(case) in INPUT_REJECTIONS else 2), stderr.getvalue()
        assert message in stderr.getvalue()
        assert stdout.getvalue() == ""
    else:
        assert stderr.getvalue() == ""
        assert status == 0
        assert stdout.getvalue() == (case / "output.txt").read_text(encoding="utf-8")


@pytest.mark.skipif(not CASES, reason="../shared/malteval is not present")
def test_every_deliberate_difference_is_a_recorded_malteval_failure():
    for number in DELIBERATE:
        case = _case(number)
        assert (case / "output.txt").read_text(encoding="utf-8") == ""
        assert (case / "stderr.txt").read_text(encoding="utf-8").strip().startswith("Evaluation aborted: ")


@pytest.mark.skipif(not CASES, reason="../shared/malteval is not present")
def test_148_an_evaluation_file_without_metric_scores_las(monkeypatch):
    """Case 148's -e file names a GroupBy (Deprel) and no Metric: MaltEval crashes reading the
    missing value; we score LAS, MaltEval's default: case 037's table (MaltEval itself on
    --GroupBy Deprel), under a header that names no metric, as none was given."""
    case = _case(148)
    assert 'getParameterValue(String)" is null' in (case / "stderr.txt").read_text(encoding="utf-8")
    status, out, err = _run(shlex.split((case / "cmd.txt").read_text(encoding="utf-8")), monkeypatch)
    assert (status, err) == (0, "")
    header, table = out.split("\n\n", 1)
    assert "GroupBy-> Deprel" in header.splitlines() and "Metric->" not in header
    reference = (_case(37) / "output.txt").read_text(encoding="utf-8")
    assert "--GroupBy Deprel" in (_case(37) / "cmd.txt").read_text(encoding="utf-8")
    assert "Metric-> LAS" in reference.split("\n\n", 1)[0]
    assert table == reference.split("\n\n", 1)[1]


@pytest.mark.skipif(not CASES, reason="../shared/malteval is not present")
def test_conllu_input_gives_malteval_numbers_of_the_conllx_conversion(monkeypatch):
    """Case 152 gives MaltEval the CoNLL-U files that en_ewt-*.conll were converted from; it
    rejects them, we read them, and the output is case 001's (MaltEval on the conversion) but
    for the file names."""
    case = _case(152)
    assert "attribute is missing" in (case / "stderr.txt").read_text(encoding="utf-8")
    argv = shlex.split((case / "cmd.txt").read_text(encoding="utf-8"))
    monkeypatch.chdir(MALTEVAL / "data")
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(["analyze", *argv], stdout, stderr) == 0, stderr.getvalue()
    expected = next(p for p in CASES if _number(p) == 1) / "output.txt"
    text = expected.read_text(encoding="utf-8")
    for conllx, conllu in zip(shlex.split((expected.parent / "cmd.txt").read_text()), argv):
        text = text.replace(conllx, conllu)
    assert stdout.getvalue() == text


def test_analyze_is_listed_in_the_usage():
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([], stdout, stderr) == 0  # bare conll_eval: the commands on stdout (issue 25)
    assert "conll_eval analyze ARGS..." in stdout.getvalue()


# ---- hand-worked (no reference data needed) ------------------------------------------------

GOLD_X = ("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n"
          "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n"
          "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n")
# "cat" gets the label obj (head right), "." the head "cat" (label right)
SYSTEM_X = GOLD_X.replace("3\tnsubj", "3\tobj").replace("3\tpunct", "2\tpunct")


def test_hand_worked_token_table_with_exclusion_tab_and_no_header(write):
    gold, system = write("g.conll", GOLD_X), write("s.conll", SYSTEM_X)
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["analyze", "-s", system, "-g", gold, "--GroupBy", "Token:all", "--ExcludeDeprels",
            "punct", "--details", "1", "--tab", "1", "--header-info", "0"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    # column widths (the headers are the widest cells) + 3 per column + the row-label width
    dashes = "-" * (len("accuracy / ") + len("counter / ") + len("correctcounter / ") + 3 * 3
                    + len("Row count"))
    assert stdout.getvalue() == (
        "accuracy / \tcounter / \tcorrectcounter / \tToken\n" + dashes + "\n"
        "0.75\t1\t0.75\tRow mean\n4\t4\t4\tRow count\n" + dashes + "\n"
        # Token numbers go to counted words only: "Hi" (word 5, after the excluded ".") is 4,
        # as MaltEval numbers them (checked with its jar)
        "1\t1\t1\t1\n0\t1\t0\t2\n1\t1\t1\t3\n1\t1\t1\t4\n")


def test_hand_worked_deprel_table_per_side(write):
    gold, system = write("g.conll", GOLD_X), write("s.conll", SYSTEM_X)
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["analyze", "-s", system, "-g", gold, "--GroupBy", "Deprel:parseraccuracy|treebankaccuracy",
            "--header-info", "0", "--pattern", "0.00"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    # nsubj only in gold: parser side NaN; obj only in the system output: treebank side NaN
    assert stdout.getvalue().splitlines()[2:] == [
        "1.00                1.00                  det",
        "-                   0.00                  nsubj",
        "0.00                -                     obj",
        "0.00                0.00                  punct",
        "1.00                1.00                  root"]


def test_different_texts_and_missing_files_exit_1(write):
    gold = write("g.conll", GOLD_X)
    other = write("o.conll", GOLD_X.replace("\tHi\thi", "\tHo\tho"))
    for argv, message in ((["-s", other, "-g", gold], "do not contain the same text. (sentence 1)"),
                          (["-s", other, "-g", gold + ".missing"], "(No such file or directory)")):
        stdout, stderr = io.StringIO(), io.StringIO()
        assert main(["analyze", *argv], stdout, stderr) == 1
        assert stderr.getvalue().startswith("\nEvaluation aborted: ") and message in stderr.getvalue()
        assert stdout.getvalue() == ""
