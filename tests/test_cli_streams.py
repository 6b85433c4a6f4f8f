"""Where the output goes and what the exit code says when it cannot go there: readers that
leave (``| head``), closed or full streams, ``-o`` into a missing directory; bare
``conll_eval`` and ``conll_eval help``."""
import io
import os
import subprocess
import sys

import pytest

from helpers import identical_warning, run_cli

GOOD = ("# sent_id = a\n# text = x y\n"
        "1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_\n"
        "2\ty\ty\tNOUN\t_\t_\t1\tdep\t_\t_\n\n")
# every sentence has a self-loop: many incidents, more than a pipe buffer holds
BAD = "".join(GOOD.replace("= a", f"= s{i}").replace("1\tdep", "2\tdep") for i in range(3000))


def _spawn(*argv, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "conll_eval", *map(str, argv)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def _left_early(*argv):
    """Run with a reader that closes the pipe after the first line: (exit code, stderr)."""
    process = _spawn(*argv)
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    return process.wait(), first.decode(), err


def test_validate_piped_into_head_keeps_its_verdict(write):
    """``conll_eval validate bad.conllu | head -1`` with pipefail: the file is invalid, so
    the exit code is 1, and the summary still reaches stderr."""
    bad = write("bad.conllu", BAD)
    code, first, err = _left_early("validate", "--max-err", "0", bad)
    assert "head-self-loop" in first
    assert code == 1
    assert "*** FAILED *** with 3000 errors" in err and "Traceback" not in err


def test_validate_of_a_valid_file_into_a_closed_pipe_passes(write):
    good = write("good.conllu", GOOD)
    process = _spawn("validate", "--format", "json", good)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait() == 0 and err == "*** PASSED ***\n"


@pytest.mark.parametrize("fmt", ["text", "json", "udtools"])
def test_every_validate_format_keeps_the_verdict_on_a_broken_pipe(write, fmt):
    bad = write("bad.conllu", BAD)
    process = _spawn("validate", "--max-err", "0", "--format", fmt, bad)
    process.stdout.close()  # before anything is written
    err = process.stderr.read().decode()
    assert process.wait() == 1 and "*** FAILED ***" in err


def test_suite_with_a_failed_treebank_keeps_exit_1_on_a_broken_pipe(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir(), system.mkdir()
    for name in ("en_a", "en_b"):
        (gold / f"{name}.conllu").write_text(GOOD, encoding="utf-8")
    (system / "en_a.conllu").write_text(GOOD, encoding="utf-8")  # en_b missing: fails
    process = _spawn("suite", gold, system)
    process.stdout.close()
    process.stderr.read()
    assert process.wait() == 1


def test_scoring_into_a_closed_pipe_is_still_success(write):
    """The pair was scored; the reader chose to stop reading (no 'Exception ignored' noise)."""
    good = write("good.conllu", GOOD)
    process = _spawn("-v", good, good)
    process.stdout.close()
    err = process.stderr.read().decode()
    noise = [line for line in err.splitlines(keepends=True) if not line.startswith("conll_eval: note: ")]
    assert process.wait() == 0 and noise == [identical_warning(good, good)]  # notes on unannotated tags may come


def test_help_into_a_closed_pipe(write):
    process = _spawn("--help")
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait() == 0 and err == ""


def _closed_stdout(*argv):
    """Run with file descriptor 1 closed (``>&-``)."""
    return subprocess.run([sys.executable, "-m", "conll_eval", *map(str, argv)],
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.close(1))


def test_scoring_with_stdout_closed_is_a_write_failure(write):
    good = write("good.conllu", GOOD)
    result = _closed_stdout(good, good)
    assert result.returncode == 4
    assert result.stderr == identical_warning(good, good) + ("conll_eval: error [write-failed] cannot write the results to "
                             "standard output: it is closed\n")


def test_validate_with_stdout_closed(write):
    """Nothing to write for a valid file: its verdict stands; an invalid one keeps exit 1."""
    good, bad = write("good.conllu", GOOD), write("bad.conllu", BAD)
    assert _closed_stdout("validate", good).returncode == 0
    result = _closed_stdout("validate", bad)
    assert result.returncode == 1 and "[write-failed]" in result.stderr


def test_output_into_a_missing_directory_names_the_path_given(write, tmp_path):
    good = write("good.conllu", GOOD)
    target = os.path.join("no-such-dir", "out.txt")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        code, out, err = run_cli(good, good, "-o", target)
    finally:
        os.chdir(cwd)
    assert code == 4 and out == ""
    assert err == identical_warning(good, good) + ("conll_eval: error [write-failed] cannot write the results to "
                                                   f"{target}: the directory no-such-dir does not exist\n")
    assert ".conll_eval-" not in err  # never the temporary file's name


def test_output_into_a_read_only_directory(write, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    good = write("good.conllu", GOOD)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = run_cli(good, good, "-o", locked / "out.txt")
    finally:
        locked.chmod(0o700)
    assert code == 4 and f"cannot write the results to {locked / 'out.txt'}: Permission denied" in err


def test_suite_output_into_a_missing_directory(tmp_path):
    gold = tmp_path / "gold.conllu"
    gold.write_text(GOOD, encoding="utf-8")
    code, _, err = run_cli("suite", gold, gold, "-o", tmp_path / "nowhere" / "x.txt")
    assert code == 4 and "[write-failed]" in err and "nowhere" in err


class _FullStream(io.StringIO):
    def write(self, text):
        raise OSError(28, "No space left on device")


def test_a_failed_write_does_not_hide_a_failed_verdict(write):
    """In-process: an invalid file stays exit 1 even when stdout fails; the failure is named."""
    bad = write("bad.conllu", BAD)
    from conll_eval.cli import main
    err = io.StringIO()
    assert main(["validate", bad], stdout=_FullStream(), stderr=err) == 1
    assert "[write-failed] cannot write the results to standard output: No space left" in err.getvalue()
    err = io.StringIO()
    good = write("good.conllu", GOOD)
    assert main([good, good], stdout=_FullStream(), stderr=err) == 4


def test_bare_conll_eval_prints_the_commands():
    code, out, err = run_cli()
    assert code == 0 and err == ""  # on stdout, exit 0: `conll_eval | less` (issue 25)
    lines = out.splitlines()
    assert lines[0].startswith("usage: conll_eval [score] [options] GOLD SYSTEM")
    for command in ("suite", "validate", "help"):
        assert any(line.split()[1] == command for line in lines[1:]), command


@pytest.mark.parametrize("topic, same_as", [((), ("--help",)), (("score",), ("--help",)),
                                            (("suite",), ("suite", "--help")),
                                            (("validate",), ("validate", "--help"))])
def test_help_command_is_dash_dash_help(topic, same_as):
    code, out, err = run_cli("help", *topic)
    assert code == 0 and err == "" and out.startswith("usage: conll_eval")
    assert (code, out) == run_cli(*same_as)[:2]


def test_help_of_an_unknown_command():
    code, _, err = run_cli("help", "frobnicate")
    assert code == 2 and ("choose from score, validate, suite, leaderboard, analyze, breakdown, compare, "
                          "tagger, alignment, report, codalab, completion, man, help") in err


def test_help_knows_every_command():
    from conll_eval.cli.commands import SUBCOMMANDS
    for command in ("score", *SUBCOMMANDS):
        code, out, err = run_cli("help", command)
        assert (code, err) == (0, ""), command
        assert "usage:" in out.lower() or "Usage" in out, command


def test_help_of_analyze():
    code, out, err = run_cli("help", "analyze")
    assert code == 0 and err == "" and out.startswith("usage: conll_eval analyze -s SYSTEM... -g GOLD")
    assert run_cli("analyze", "--help")[:2] == (0, out)
