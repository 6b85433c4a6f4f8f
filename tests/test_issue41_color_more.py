"""Issue 41, 4.3 continued: every command that prints a missed gate takes ``--color`` with one
meaning (breakdown's ``error [fail-under]``, compare's ``error [not-better]`` lines in red on a
terminal), plain in pipes, files and machine formats."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.common import shared_options
from test_issue41_display import RED_ON, _on_pty

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RESET = "\x1b[0m"
BREAKDOWN = ["breakdown", EXAMPLES / "gold.conllu", EXAMPLES / "system.conllu", "--fail-under", "LAS=90"]
COMPARE = ["compare", EXAMPLES / "gold.conllu", EXAMPLES / "system.conllu", EXAMPLES / "parser-b.conllu",
           "--metrics", "LAS", "--resamples", "50", "--fail-unless-better"]
#: each command's missed-gate line, as printed without colour
LINES = {"breakdown": "conll_eval breakdown: error [fail-under] examples: LAS 73.68 < 90",
         "compare": "conll_eval compare: error [not-better] LAS: system - parser-b -18.42"}


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [BREAKDOWN, COMPARE], ids=["breakdown", "compare"])
def test_a_missed_gate_is_red_on_a_terminal_and_plain_in_a_pipe(argv):
    line = LINES[argv[0]]
    status, terminal, piped = _on_pty(argv, {})
    assert status == 1 and piped == ""
    assert f"{RED_ON}{line}" in terminal
    assert terminal.count(RED_ON) == terminal.count(f"{RED_ON}conll_eval {argv[0]}: error [")  # the lines only
    status, terminal, piped = _on_pty(argv, {}, stderr_on_pty=False)  # stderr piped: plain
    assert status == 1 and line in piped and "\x1b" not in piped + terminal
    status, terminal, _ = _on_pty(argv, {"NO_COLOR": "1"})
    assert status == 1 and line in terminal and RED_ON not in terminal


@pytest.mark.parametrize("argv", [BREAKDOWN, COMPARE], ids=["breakdown", "compare"])
def test_always_and_never_and_the_outputs_stay_plain(argv, tmp_path):
    line = LINES[argv[0]]
    status, out, err = run(*argv, "--color", "always")
    assert status == 1 and "\x1b" not in out and out
    assert f"{RED_ON}{line}" in err and err.rstrip("\n").endswith(RESET)
    status, out, err = run(*argv, "--color", "never")
    assert status == 1 and line in err and "\x1b" not in out + err
    for fmt in ("json", "tsv", "csv", "markdown", "latex"):
        status, out, _ = run(*argv, "--color", "always", "--format", fmt)
        assert status == 1 and out and "\x1b" not in out, fmt
    status, out, _ = run(*argv, "--color", "always", "-o", tmp_path / "out.txt")
    assert status == 1 and out == "" and "\x1b" not in (tmp_path / "out.txt").read_text(encoding="utf-8")
    status, out, err = run(*argv, "--color", "always", "-q")
    assert status == 1 and out == err == ""


def test_every_command_with_a_gate_has_the_one_color_option():
    from conll_eval.cli.breakdown import build_breakdown_parser
    from conll_eval.cli.compare import build_compare_parser
    from conll_eval.cli.score import build_parser
    from conll_eval.cli.suite import build_suite_parser
    shared = shared_options()["color"]
    for parser in (build_parser(), build_suite_parser(), build_breakdown_parser(), build_compare_parser()):
        action = next(a for a in parser._actions if a.dest == "color")
        assert action.option_strings == list(shared.flags) and action.choices == ["auto", "always", "never"]
        assert action.default == "auto" and action.help.startswith(shared.help)
    for command in ("breakdown", "compare"):
        status, _, err = run(command, "--color", "yes", "a", "b", "c")
        assert status == 2 and "--color" in err and "auto" in err
