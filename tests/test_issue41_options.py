"""Issue 41, section 3, points 7, 9 and 15: options a new user tripped over.

* 7: a repeated ``--fail-under`` adds its bars (every bar must hold) in every command that
  has the option (score, suite, breakdown); two bars on one metric in one scope, an empty
  bar and ``--metrics ''`` are usage errors (exit 2) in every command that has them.
* 9: ``validate --level`` outside 1-5 is a usage error naming the range; level 6 keeps its
  own message (coreference, ``--coref``).
* 15: a file given to ``validate`` twice (the same path, or two names of one file) gets one
  warning line on stderr naming it; the incidents and the udtools format stay as they are.

testdata/golden/mwt-resplit/: LAS 50.00, UAS 56.25, CLAS 36.36 (breakdown: LAS 50.00,
CLAS 36.36).  The suite of :func:`suite_dirs` (that pair and testdata/example/'s, LAS 73.68,
UAS 73.68): macro LAS 61.84, macro UAS 64.97, micro UAS 68.52, every treebank scored.
"""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.messages import PROBLEM_LINE
from helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "testdata" / "golden" / "mwt-resplit"
PAIR = [str(CASE / "gold.conllu"), str(CASE / "system.conllu")]
EXAMPLE = ROOT / "testdata" / "example" / "gold.conllu"  # valid, four sentences


@pytest.fixture(scope="module")
def suite_dirs(tmp_path_factory) -> list:
    """A suite of two treebanks, both scored (testdata/suite/ has failed ones: exit 1)."""
    root = tmp_path_factory.mktemp("suite")
    pairs = {"en_a": CASE / "gold.conllu", "en_b": EXAMPLE}
    for side in ("gold", "system"):
        (root / side).mkdir()
        for name, gold in pairs.items():
            shutil.copyfile(gold.with_name(f"{side}.conllu"), root / side / f"{name}.conllu")
    return [str(root / "gold"), str(root / "system")]


#: the commands with --fail-under
GATED_COMMANDS = ("score", "suite", "breakdown")


@pytest.fixture
def gated(suite_dirs) -> dict:
    """Each command with --fail-under: its arguments, a bar it misses, bars it meets (on
    two other metrics)."""
    return {
        "score": (PAIR, "LAS=60", ["UAS=50", "CLAS=30"]),
        "suite": (["suite", *suite_dirs], "macro:LAS=70", ["macro:UAS=60", "micro:UAS=68"]),
        "breakdown": (["breakdown", *PAIR], "LAS=60", ["CLAS=30", "CORE=20"]),
    }


def bars(*values):
    return [word for value in values for word in ("--fail-under", value)]


# ---------------------------------------------------------------------------------------------
# Point 7: repeated bars accumulate; empty and duplicate bars, --metrics '': usage errors

@pytest.mark.parametrize("command", GATED_COMMANDS)
def test_repeated_bars_all_hold(gated, command):
    argv, _missed, met = gated[command]
    code, _out, err = run_cli(*argv, *bars(*met))
    assert code == 0, err
    assert "error" not in err


@pytest.mark.parametrize("command", GATED_COMMANDS)
@pytest.mark.parametrize("missed_first", [True, False])
def test_a_missed_bar_fails_wherever_it_comes(gated, command, missed_first):
    """The earlier bar is not dropped (the bug: the last --fail-under alone counted), nor the
    later one."""
    argv, missed, met = gated[command]
    given = [missed, *met] if missed_first else [*met, missed]
    code, _out, err = run_cli(*argv, *bars(*given))
    assert code == 1, err
    failures = [line for line in err.splitlines() if "error [fail-under]" in line]
    metric = missed.partition("=")[0].rpartition(":")[2]
    assert failures and all(f" {metric} " in line for line in failures), failures


@pytest.mark.parametrize("command", GATED_COMMANDS)
@pytest.mark.parametrize("values", [["{bar}", "{bar_lower}"], ["{bar},{bar_lower}"],
                                    ["{strict}", "{lax}"], ["{lax}", "{strict}"]])
def test_two_bars_on_one_metric_are_a_usage_error(gated, command, values):
    """Whichever is stricter and in whatever order or case: which one holds would be a guess."""
    argv, missed, met = gated[command]
    scope_metric, _, value = met[0].partition("=")
    strict, lax = missed, missed.partition("=")[0] + "=1"
    given = [v.format(bar=met[0], bar_lower=f"{scope_metric.lower()}=1", strict=strict, lax=lax)
             for v in values]
    code, out, err = run_cli(*argv, *bars(*given))
    assert code == 2 and out == ""
    assert "error [usage]" in err and "two bars on one metric" in err, err
    assert err.count("\n") == 1 and PROBLEM_LINE.match(err)


def test_bars_on_one_metric_in_different_scopes_are_two_bars(suite_dirs):
    """A suite's ``LAS`` (every treebank and the average) and ``macro:LAS`` are two bars."""
    code, _out, err = run_cli("suite", *suite_dirs, *bars("LAS=40", "macro:LAS=60"))
    assert code == 0, err
    code, _out, err = run_cli("suite", *suite_dirs, *bars("LAS=40", "macro:LAS=70"))
    assert code == 1 and [line for line in err.splitlines() if "[fail-under]" in line] == [
        "conll_eval suite: error [fail-under] macro-average: LAS 61.84 < 70"]


@pytest.mark.parametrize("command", GATED_COMMANDS)
@pytest.mark.parametrize("values", [[""], [" "], ["", "LAS=1"], ["LAS=1", ""], ["LAS=1,,UAS=1"],
                                    ["LAS=1,"]])
def test_an_empty_bar_is_a_usage_error(gated, command, values):
    """An empty --fail-under used to set no bar at all: the gate passed, silently."""
    argv = gated[command][0]
    code, out, err = run_cli(*argv, *bars(*values))
    assert code == 2 and out == "", err
    assert "error [usage]" in err and "--fail-under" in err
    assert err.count("\n") == 1 and PROBLEM_LINE.match(err)


METRICS_COMMANDS = {
    "score": PAIR,
    "suite": ["suite", str(ROOT / "testdata" / "suite" / "gold"), str(ROOT / "testdata" / "suite" / "system")],
    "compare": ["compare", PAIR[0], PAIR[1], PAIR[1], "--resamples", "10"],
    "report": ["report", *PAIR],
}


@pytest.mark.parametrize("command", list(METRICS_COMMANDS))
@pytest.mark.parametrize("value", ["", " ", ",", " , "])
def test_metrics_naming_nothing_is_a_usage_error(command, value, tmp_path):
    """``--metrics ''`` used to mean the default metrics, silently."""
    output = tmp_path / "out"
    code, out, err = run_cli(*METRICS_COMMANDS[command], "--metrics", value, "-o", output)
    assert code == 2 and out == "" and not output.exists()
    assert "error [usage]" in err and "--metrics" in err and "names no metric" in err
    assert err.count("\n") == 1 and PROBLEM_LINE.match(err)


def test_metrics_still_takes_its_names():
    code, out, _err = run_cli(*PAIR, "--metrics", "uas, LAS", "--format", "tsv")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()[1:]] == ["UAS", "LAS"]


# ---------------------------------------------------------------------------------------------
# Point 9: --level outside 1-5

def validate(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(["validate", *map(str, argv)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("level", ["0", "-1", "7", "8", "100"])
def test_a_level_outside_1_to_5_is_a_usage_error_naming_the_range(level):
    code, out, err = validate("--level", level, EXAMPLE)
    assert code == 2 and out == ""
    assert err == f"conll_eval validate: error [usage] level {level} does not exist: the levels are 1-5 (default: 2)\n"


def test_level_6_keeps_its_own_message():
    code, _out, err = validate("--level", "6", EXAMPLE)
    assert code == 2 and err.count("\n") == 1 and PROBLEM_LINE.match(err)
    assert "level 6 is not implemented" in err and "--coref" in err and "--level 5 or lower" in err


@pytest.mark.parametrize("level", ["1", "2", "3"])
def test_levels_1_to_3_still_run(level):
    code, out, err = validate("--level", level, EXAMPLE)
    assert (code, out, err) == (0, "", "*** PASSED ***\n")


# ---------------------------------------------------------------------------------------------
# Point 15: one file given twice

WARNING = "conll_eval validate: warning: "
DUPLICATES = "; its sent_ids are reported as duplicates of its own (non-unique-sent-id)"


def warnings_of(err: str):
    return [line for line in err.splitlines() if line.startswith(WARNING)]


def test_the_same_path_twice_is_named_once(tmp_path):
    path = tmp_path / "gold.conllu"
    shutil.copyfile(EXAMPLE, path)
    code, out, err = validate(path, path)
    assert code == 1
    assert warnings_of(err) == [f"{WARNING}{path} is given 2 times: it is validated each time{DUPLICATES}"]
    assert PROBLEM_LINE.match(warnings_of(err)[0])
    # the incidents are udvalidate's, as before: one duplicate per sentence of the second copy
    assert out.count("non-unique-sent-id") == 4 and WARNING not in out


def test_two_names_of_one_file_are_caught(tmp_path, monkeypatch):
    shutil.copyfile(EXAMPLE, tmp_path / "gold.conllu")
    os.symlink("gold.conllu", tmp_path / "link.conllu")
    monkeypatch.chdir(tmp_path)
    code, _out, err = validate("gold.conllu", "./gold.conllu", "link.conllu")
    assert code == 1
    assert warnings_of(err) == [f"{WARNING}gold.conllu is given 3 times (as gold.conllu, ./gold.conllu, "
                                f"link.conllu): it is validated each time{DUPLICATES}"]


def test_a_copy_is_another_file(tmp_path):
    """Identity, not content: two files with the same bytes are two files (their duplicate
    sent_ids are udvalidate's findings, without the warning)."""
    for name in ("a.conllu", "b.conllu"):
        shutil.copyfile(EXAMPLE, tmp_path / name)
    code, out, err = validate(tmp_path / "a.conllu", tmp_path / "b.conllu")
    assert code == 1 and out.count("non-unique-sent-id") == 4
    assert warnings_of(err) == []


def test_per_file_and_level_1_warn_without_duplicates(tmp_path):
    path = tmp_path / "gold.conllu"
    shutil.copyfile(EXAMPLE, path)
    for option in ("--per-file", "--level=1"):
        code, out, err = validate(option, path, path)
        assert code == 0 and out == ""
        assert err == f"{WARNING}{path} is given 2 times: it is validated each time\n*** PASSED ***\n"


def test_a_missing_file_given_twice_is_named_once(tmp_path):
    missing = tmp_path / "missing.conllu"
    code, _out, err = validate(missing, missing)
    assert code == 1 and len(warnings_of(err)) == 1 and str(missing) in warnings_of(err)[0]


def test_quiet_and_the_udtools_format_stay_as_they_were(tmp_path):
    """-q prints nothing; --format udtools is udvalidate's bytes on both streams (the drop-in
    conll-eval-validate writes them to one), so it carries no warning of ours."""
    path = tmp_path / "gold.conllu"
    shutil.copyfile(EXAMPLE, path)
    assert validate("-q", path, path) == (1, "", "")
    code, out, err = validate("--format", "udtools", path, path)
    assert code == 1 and WARNING not in out + err
    assert err == "METADATA errors: 4\n*** FAILED *** with 4 errors\n"
