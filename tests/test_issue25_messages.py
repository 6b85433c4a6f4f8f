"""Issue 25 (points 10-13, 18-21c): the form of every problem line on stderr, escaped input text,
``score`` as a command name, bare ``conll_eval``, compat's command line, the Quick start
example pair and the analyze section's claims."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.messages import PROBLEM_LINE, problem_line
from conll_eval.errors import printable

from helpers import run_cli

try:
    from tests import oracles
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import oracles

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "testdata" / "example"
GOLD, SYSTEM = EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu"
WORD_ALIGNMENT = ROOT / "testdata" / "word-alignment"
PTS_FILES = [WORD_ALIGNMENT / f"{side}-{kind}.conllu" for side in ("source", "target")
             for kind in ("gold", "system")]
#: udtools' closing lines, which ``validate`` reproduces (its drop-in summary, not a message)
UDTOOLS_SUMMARY = re.compile(r"(Warnings: \d+|[A-Z]+ errors: \d+|\*\*\* (PASSED|FAILED) \*\*\*.*)$")


def run_main(*argv):
    """(exit code, stdout, stderr) of ``conll_eval argv...``, notes kept."""
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def problem_lines_ok(err: str) -> bool:
    """Every line starts in the house form; indented lines continue the message above them
    (a text mismatch's context and hints); ``validate`` ends with udtools' summary."""
    lines = err.splitlines()
    return bool(lines) and all(PROBLEM_LINE.match(line) or (i and line.startswith("  "))
                               or UDTOOLS_SUMMARY.match(line) for i, line in enumerate(lines))


# ---------------------------------------------------------------------------------------------
# point 19: one form for every problem line

def _invocations(tmp: Path):
    bad = tmp / "bad.conllu"
    bad.write_text("1\tDogs\n\n")
    other = tmp / "other.conllu"
    other.write_text(GOLD.read_text().replace("library", "librari"))
    copy = tmp / "gold.conllu"
    copy.write_text(GOLD.read_text())
    missing = tmp / "missing.conllu"
    return [
        # scoring a pair, by default and by name
        [], ["score"], [GOLD], ["--nope", GOLD, SYSTEM], ["-", "-"], [GOLD, missing],
        [GOLD, bad], [GOLD, other], ["--metrics", "Nope", GOLD, SYSTEM],
        ["--fail-under", "LAS=x", GOLD, SYSTEM], ["-o", copy, copy, SYSTEM],
        ["--profile", "conll99", GOLD, SYSTEM], ["--strict", GOLD, bad],
        ["help", "nothing"],
        ["suite"], ["suite", "--jobs", "0", GOLD, SYSTEM], ["suite", GOLD, missing],
        ["suite", "--tira", GOLD, SYSTEM, SYSTEM],
        ["validate", "--level", "9", GOLD], ["validate", "-e", "no-such-test", GOLD],
        ["validate", missing],
        ["analyze"], ["analyze", "-s", SYSTEM, "-g", GOLD, "-f", "selection.txt"],
        ["analyze", "-s", SYSTEM, "-g", GOLD, "--hdr-file", "1"],
        ["breakdown"], ["breakdown", GOLD, missing], ["breakdown", GOLD, bad],
        ["compare"], ["compare", GOLD, SYSTEM], ["compare", GOLD, SYSTEM, missing],
        ["tagger", GOLD, missing], ["tagger", "--columns", "NOPE", GOLD, SYSTEM],
        ["alignment"], ["alignment", "--pts", *PTS_FILES, "--pts-weights=1,1,1",
                        WORD_ALIGNMENT / "gold.naacl", WORD_ALIGNMENT / "system.pharaoh"],
        ["alignment", WORD_ALIGNMENT / "gold.naacl", missing],
        ["report"], ["report", "--resamples", "x", GOLD, SYSTEM],
        ["report", GOLD, missing, "-o", tmp / "r.html"],
        ["report", GOLD, SYSTEM, "-o", GOLD],
    ]


def test_every_problem_line_has_the_house_form(tmp_path):
    """A table of failing invocations of every subcommand: each fails (non-zero) and each of
    its stderr lines is ``conll_eval[ cmd]: error [code] ...`` / ``warning:`` / ``note:`` or a
    located ``path[:line]: error [code] ...``."""
    checked = 0
    for argv in _invocations(tmp_path):
        if argv == []:
            continue  # bare conll_eval is no failure (below)
        code, out, err = run_main(*argv)
        assert code != 0, argv
        assert problem_lines_ok(err), (argv, err)
        checked += 1
    assert checked > 35


def test_the_messages_of_the_issue(tmp_path):
    copy = tmp_path / "gold.conllu"
    copy.write_text(GOLD.read_text())
    expect = {
        ("-o", copy, copy, SYSTEM): "conll_eval: error [usage] refusing to write the output "
                                    "into the input file",
        ("-", "-"): "conll_eval: error [usage] only one of GOLD and SYSTEM can be read from stdin",
        ("analyze",): "conll_eval analyze: error [usage] no MaltEval arguments given",
        ("suite", "--jobs", "0", GOLD, SYSTEM): "conll_eval suite: error [usage] --jobs must be",
        ("validate", "--level", "9", GOLD): "conll_eval validate: error [usage] level 9",
    }
    for argv, start in expect.items():
        code, _, err = run_main(*argv)
        assert code == 2 and err.startswith(start), (argv, err)
    code, _, err = run_main("alignment", "--pts", *PTS_FILES, "--pts-weights=1,1,1",
                            WORD_ALIGNMENT / "gold.naacl", WORD_ALIGNMENT / "system.pharaoh")
    assert code == 2 and err.startswith("conll_eval alignment: error [usage] --pts-weights: ")


def test_interrupts_and_bugs_have_the_form_too(monkeypatch):
    from conll_eval import cli

    def interrupted(*args):
        raise KeyboardInterrupt

    def bug(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "score_command", interrupted)
    code, _, err = run_main(GOLD, SYSTEM)
    assert code == 130 and err == "conll_eval: error [interrupted] stopped by an interrupt (Ctrl-C)\n"
    monkeypatch.setattr(cli, "score_command", bug)
    code, _, err = run_main(GOLD, SYSTEM)
    assert code == 3 and err.startswith("conll_eval: error [internal] internal error: "
                                        "ZeroDivisionError: division by zero (run with --debug")
    with pytest.raises(ZeroDivisionError):
        run_main(GOLD, SYSTEM, "--debug")


@pytest.mark.parametrize("message, expected", [
    ("conll_eval: error: the following arguments are required: system",
     "conll_eval: error [usage] the following arguments are required: system"),
    ("conll_eval suite: --metrics: unknown", "conll_eval suite: error [usage] --metrics: unknown"),
    ("analyze: no arguments", "conll_eval analyze: error [usage] no arguments"),
    ("--pts-weights: bad", "conll_eval analyze: error [usage] --pts-weights: bad"),
    ("bad \x1b[2J name", "conll_eval analyze: error [usage] bad \\x1b[2J name"),
])
def test_problem_line(message, expected):
    assert problem_line("analyze", message, "usage") == expected + "\n"


# ---------------------------------------------------------------------------------------------
# point 12: input text reaches messages escaped

@pytest.mark.parametrize("text, shown", [
    ("\x1b[31m", "\\x1b[31m"), ("a\tb", "a\\tb"), ("\r", "\\r"), ("\x00\x7f", "\\x00\\x7f"),
    ("\x85\x9b", "\\x85\\x9b"), ("\u202eabc\u2066", "\\u202eabc\\u2066"), ("\udcff", "\\xff"),
    ("été 中文 Ελληνικά עברית", "été 中文 Ελληνικά עברית"), ("\u2028", "\\u2028"),
])
def test_printable(text, shown):
    assert printable(text) == shown
    assert printable(shown) == shown  # escaping twice changes nothing


CONTROL_LINE = "\x1b[31mRED\tx\u202e"


def test_validate_escapes_a_spurious_line(tmp_path):
    path = tmp_path / "ctl.conllu"
    path.write_text(f"# sent_id = a\n# text = a\n1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n{CONTROL_LINE}\n\n")
    code, out, err = run_main("validate", path)
    assert code == 1 and "Spurious line: '\\x1b[31mRED\\tx\\u202e'" in out
    code, out, _ = run_main("validate", "--format", "udtools", path)
    assert code == 1 and "'\\x1b[31mRED\\tx\\u202e'" in out
    for text in (out, err):
        assert "\x1b" not in text and "\u202e" not in text
    code, out, _ = run_main("validate", "--format", "json", path)
    message = json.loads(out)["incidents"][0]["message"]
    assert code == 1 and CONTROL_LINE in message  # JSON keeps the text, valid JSON
    assert "\x1b" not in out  # ... escaped as JSON


def test_text_mismatch_context_is_escaped(tmp_path):
    gold = tmp_path / "g.conllu"
    system = tmp_path / "s.conllu"
    gold.write_text("1\tab\tab\tX\t_\t_\t0\troot\t_\t_\n\n")
    system.write_text("1\ta\x1b[2Jb\ta\tX\t_\t_\t0\troot\t_\t_\n\n")
    code, _, err = run_main(gold, system)
    assert code == 1 and "\x1b" not in err and ">>a\\x1b[2Jb<<" in err
    assert problem_lines_ok(err)


def test_input_error_messages_are_escaped(tmp_path):
    path = tmp_path / "h.conllu"
    path.write_text("1\ta\ta\tX\t_\t_\t\x1b\troot\t_\t_\n\n")
    code, _, err = run_main(path, path)
    assert code == 1 and "\x1b" not in err and err.startswith(f"{path}:1: error [")


def test_analyze_abort_is_escaped(tmp_path):
    code, _, err = run_main("analyze", "-s", tmp_path / "no\x1bfile.conllu", "-g", GOLD)
    assert code == 1 and "\x1b" not in err and "no\\x1bfile.conllu" in err


# ---------------------------------------------------------------------------------------------
# points 13 and 21c: the default command by name, bare conll_eval

def test_score_names_the_default_command():
    assert run_main("score", "-v", GOLD, SYSTEM) == run_main("-v", GOLD, SYSTEM)
    code, out, _ = run_main("score", "--help")
    assert code == 0 and "./score" in " ".join(out.split())


def test_a_file_named_score_is_still_scored(tmp_path, monkeypatch):
    (tmp_path / "score").write_text(GOLD.read_text())
    monkeypatch.chdir(tmp_path)
    expected = run_main(GOLD, SYSTEM)[1]
    assert run_main("./score", SYSTEM)[1] == expected
    assert run_main("--", "score", SYSTEM)[1] == expected


def test_bare_conll_eval_lists_the_commands_on_stdout():
    code, out, err = run_main()
    assert (code, err) == (0, "") and out.startswith("usage: conll_eval [score]")
    code, out, err = run_main("nosuchcommand")  # a wrong command (a missing file) still fails
    assert code == 2 and out == ""


# ---------------------------------------------------------------------------------------------
# point 18: compat's command line

def _compat(*argv, **kwargs):
    return subprocess.run([sys.executable, "-m", "conll_eval.compat", *map(str, argv)],
                          capture_output=True, text=True, cwd=ROOT, **kwargs)


def test_compat_invalid_file_has_the_official_last_line_and_status(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tDogs\n\n")
    proc = _compat(GOLD, bad)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("UDError: The CoNLL-U line does not contain 10 tab-separated")
    proc = _compat(GOLD, tmp_path / "missing.conllu")
    assert proc.returncode == 1 and proc.stderr.startswith("FileNotFoundError: [Errno 2]")
    proc = _compat(GOLD, bad, "--debug")
    assert proc.returncode == 1 and "Traceback" in proc.stderr


def test_compat_spells_out_control_bytes_of_the_input(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_bytes(b"x\x1b[31mred\n\n")
    proc = _compat(GOLD, bad)
    assert proc.returncode == 1 and "\x1b" not in proc.stderr
    assert proc.stderr.rstrip("\n").endswith("'x\\x1b[31mred'")


def test_compat_text_mismatch_equals_the_official_script(tmp_path):
    directory = oracles.oracle_dir()
    if directory is None:
        pytest.skip("official scorer unavailable: run 'make oracles'")
    other = tmp_path / "other.conllu"
    other.write_text(SYSTEM.read_text().replace("library", "librari"))
    official = subprocess.run([sys.executable, str(directory / "conll18_ud_eval.py"), GOLD, other],
                              capture_output=True, text=True)
    ours = _compat(GOLD, other)
    assert official.returncode == ours.returncode == 1
    assert "Traceback" in official.stderr and "Traceback" not in ours.stderr
    assert official.stderr.endswith(ours.stderr) and ours.stderr.startswith("UDError: ")


def test_compat_into_a_closed_pipe_has_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "conll_eval.compat", "-v", GOLD, SYSTEM],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # the reader left before the first line (``| head -0``)
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait() == 0 and err == ""


# ---------------------------------------------------------------------------------------------
# point 11: the example pair and the note on meaningless tags

def test_the_example_pair_runs_clean_and_equals_the_official_script():
    code, out, err = run_main("-v", GOLD, SYSTEM)
    assert (code, err) == (0, "")
    scores = {line.split("|")[0].strip(): line.split("|")[3].strip()
              for line in out.splitlines()[2:]}
    assert all(float(f1) < 100 for f1 in scores.values())  # every row shows a mistake
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Quick start")
    quick_start = readme[start:readme.index("\n## ", start)]
    assert "conll_eval -v testdata/example/gold.conllu testdata/example/system.conllu" in quick_start
    assert out in quick_start  # the output shown is the output
    assert "testdata/example/gold.conllu" in (ROOT / "Makefile").read_text()
    code, _, err = run_main("validate", GOLD)
    assert code == 0
    code, _, err = run_main("validate", SYSTEM)
    assert code == 0
    directory = oracles.oracle_dir()
    if directory is not None:
        official = subprocess.run([sys.executable, str(directory / "conll18_ud_eval.py"), "-v",
                                   GOLD, SYSTEM], capture_output=True, text=True)
        assert official.stdout == out


def test_the_note_on_meaningless_tags_is_one_sentence_per_tag(tmp_path):
    gold = tmp_path / "g.conllu"
    system = tmp_path / "s.conllu"
    gold.write_text("1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_\n2\tbark\tbark\tVERB\t_\t_\t0\troot\t_\t_\n\n")
    system.write_text("1\tDogs\t_\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n2\tbark\t_\tVERB\tVBP\t_\t0\troot\t_\t_\n\n")
    code, _, err = run_main("-v", gold, system)
    assert code == 0 and err.splitlines() == [
        "conll_eval: note: the XPOS score means nothing: every gold XPOS is _ (not annotated)",
        "conll_eval: note: the UFeats score means nothing: every gold FEATS is _ (not annotated)",
        "conll_eval: note: the Lemmas score means nothing: the system predicts no LEMMA "
        "(every one is _)"]


# ---------------------------------------------------------------------------------------------
# points 10 and 20b: analyze

def test_analyze_viewer_works_as_the_readme_says(tmp_path):
    page = tmp_path / "trees.html"
    code, out, err = run_main("analyze", "-s", SYSTEM, "-g", GOLD, "-v", "1", "--output", page)
    assert code == 0 and page.is_file() and str(page) in out
    page = (ROOT / "docs" / "analyze.md").read_text()  # the README's section moved there
    section = page[:page.index("## Beyond MaltEval")]
    assert "the tree viewer (`-v 1`), selection" not in section
    assert "`-v 1`" in section and "--confusion-matrix 1" in section


def test_analyze_stat_on_another_tokenization_points_to_compare():
    code, out, err = run_main("analyze", "-g", GOLD, "-s", GOLD, SYSTEM, "--stat", "1")
    assert code == 0 and "McNemar" in out
    assert err == ("conll_eval analyze: note: --stat 1 (McNemar) compares systems word by word "
                   f"and needs the gold tokenization: {SYSTEM} (tokenized differently) get '-'; "
                   "'conll_eval compare GOLD A B' tests systems of any tokenization\n")
    code, out, err = run_main("analyze", "-g", GOLD, "-s", GOLD, GOLD, "--stat", "1")
    assert code == 0 and err == ""  # the same tokenization: nothing to say
