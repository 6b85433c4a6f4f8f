"""Issue 41, section 3: what the command line says when a new user trips.

- 3.2: a Ctrl-C whenever it comes, also while numpy loads, gives the command's one line and
  exit 130, never a traceback: in ``python -m conll_eval``, the console scripts, the drop-ins
  and ``python -m conll_eval.compat``;
- 3.6: the same file (or the same bytes) as gold and system scores 100.00 with a warning.
"""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conll_eval import _interrupt

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "testdata" / "example" / "gold.conllu"
SYSTEM = ROOT / "testdata" / "example" / "system.conllu"
SCRIPTS = Path(sys.executable).parent
PYTHON_M = [sys.executable, "-m"]

# 3.2 ------------------------------------------------------------------------------------

#: a sitecustomize that sends this process SIGINT at one audit event: ``import:numpy`` (while
#: ``import conll_eval`` loads numpy: the command's code has not started) or ``open:PATH``
#: (the command reads an input: it runs)
_INTERRUPTER = '''\
import os, signal, sys
_at = os.environ.get("INTERRUPT_AT", "")
def _interrupt(event, args):
    global _at
    if _at and event + ":" + str(args[0]) == _at:
        _at = ""
        os.kill(os.getpid(), signal.SIGINT)
sys.addaudithook(_interrupt)
'''

HOUSE = "stopped by an interrupt (Ctrl-C)\n"
#: entry point -> (argv after the program, the one line it writes when interrupted)
ENTRY_POINTS = {
    "python -m conll_eval": (PYTHON_M + ["conll_eval"], [GOLD, SYSTEM], "conll_eval: error [interrupted] " + HOUSE),
    "python -m conll_eval suite": (PYTHON_M + ["conll_eval"], ["suite", GOLD, SYSTEM],
                                   "conll_eval suite: error [interrupted] " + HOUSE),
    "conll_eval": ([SCRIPTS / "conll_eval"], [GOLD, SYSTEM], "conll_eval: error [interrupted] " + HOUSE),
    "conll_eval validate": ([SCRIPTS / "conll_eval"], ["validate", GOLD],
                            "conll_eval validate: error [interrupted] " + HOUSE),
    "malteval": ([SCRIPTS / "malteval"], ["-s", SYSTEM, "-g", GOLD],
                 "malteval: error [interrupted] " + HOUSE),
    "mooteval": ([SCRIPTS / "mooteval"], [GOLD, SYSTEM], "mooteval: error [interrupted] " + HOUSE),
    "conll-eval-validate": ([SCRIPTS / "conll-eval-validate"], [GOLD],
                            "conll-eval-validate: error [interrupted] " + HOUSE),
    "conll-eval-udvalidate": ([SCRIPTS / "conll-eval-udvalidate"], [GOLD],
                              "conll-eval-udvalidate: error [interrupted] " + HOUSE),
    "python -m conll_eval.compat": (PYTHON_M + ["conll_eval.compat"], [GOLD, SYSTEM], "KeyboardInterrupt\n"),
    "python -m conll_eval.compat.conll17": (PYTHON_M + ["conll_eval.compat.conll17"], [GOLD, SYSTEM],
                                            "KeyboardInterrupt\n"),
    "conll18_ud_eval": ([SCRIPTS / "conll18_ud_eval"], [GOLD, SYSTEM], "KeyboardInterrupt\n"),
}


def _run_interrupted(command, at, tmp_path):
    directory = tmp_path / "site"
    directory.mkdir(exist_ok=True)
    (directory / "sitecustomize.py").write_text(_INTERRUPTER)
    env = dict(os.environ, INTERRUPT_AT=at, PYTHONPATH=os.pathsep.join(
        [str(directory), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return subprocess.run([str(part) for part in command], env=env, capture_output=True, timeout=120)


@pytest.mark.parametrize("stage", ["while numpy loads", "while the command runs"])
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_an_interrupt_gives_one_line_and_130_whenever_it_comes(entry, stage, tmp_path):
    program, arguments, line = ENTRY_POINTS[entry]
    if not Path(program[0]).exists():
        pytest.skip(f"{program[0]} is not installed (pip install -e .)")
    at = "import:numpy" if stage == "while numpy loads" else f"open:{GOLD}"
    done = _run_interrupted(program + arguments, at, tmp_path)
    assert (done.returncode, done.stderr.decode()) == (130, line)
    assert done.stdout == b""


def _interrupt_after(command, delay):
    """``command`` reading its system file from a stdin that never ends, sent SIGINT after
    ``delay`` seconds: (exit status, stderr)."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        if delay:
            try:
                process.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                pass
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        return process.returncode, err.decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.mark.parametrize("delay", [0, 0.05, 0.1, 0.2])
@pytest.mark.parametrize("entry", ["python -m conll_eval", "conll_eval"])
def test_a_ctrl_c_at_any_moment_of_a_real_run(entry, delay):
    """What a user sees, with real timing.  Accepted: exit 130 and the one line; or, when the
    signal comes before the interpreter runs any of the package, what Python does then
    (killed by SIGINT without a word before it installs its handler, or its own start-up
    failure: the interpreter's ``site`` is not ours to change).  Never a traceback of ours."""
    program = PYTHON_M + ["conll_eval"] if entry.startswith("python") else [str(SCRIPTS / "conll_eval")]
    if not Path(program[0]).exists():
        pytest.skip(f"{program[0]} is not installed (pip install -e .)")
    status, err = _interrupt_after(program + [str(GOLD), "-"], delay)
    before_python = (status == -signal.SIGINT and err == "") or (
        status == 1 and err.startswith("Fatal Python error: init_import_site"))
    assert before_python or (status, err) == (130, "conll_eval: error [interrupted] " + HOUSE), (status, err)
    if delay >= 0.2:  # the interpreter is up by then (it starts in 20-40 ms), even on a busy machine
        assert (status, err) == (130, "conll_eval: error [interrupted] " + HOUSE)


SUITE_LINE = "conll_eval suite: error [interrupted] " + HOUSE


@pytest.mark.parametrize("argv, orig_argv, line", [
    (["/usr/bin/conll_eval", "gold.conllu", "suite"], None, "conll_eval: error [interrupted] " + HOUSE),
    (["/venv/Scripts/conll_eval.exe", "suite"], None, SUITE_LINE),
    (["/venv/bin/conll-eval-validate", "suite"], None, "conll-eval-validate: error [interrupted] " + HOUSE),
    (["/venv/bin/malteval", "-s", "suite"], None, "malteval: error [interrupted] " + HOUSE),
    (["/venv/bin/iwpt20_ud_eval", "g", "s"], None, "KeyboardInterrupt\n"),
    (["-m", "suite"], ["python", "-m", "conll_eval", "suite"], SUITE_LINE),
    (["-m", "suite"], ["python", "-X", "importtime", "-I", "-mconll_eval", "suite"], SUITE_LINE),
    (["-m", "g", "s"], ["python", "-Im", "conll_eval.compat.iwpt20", "g", "s"], "KeyboardInterrupt\n"),
    (["-m", "suite"], ["python", "-m", "mytool", "suite"], None),  # another -m program imports conll_eval
    (["-m", "conll_eval"], ["python", "-X", "-m", "conll_eval"], None),  # -X's value, not -m
    (["-c"], ["python", "-c", "import conll_eval"], None),
    (["/home/me/conll_eval.py", "suite"], None, None),  # a script of the user's own
    (["/venv/bin/pytest", "suite"], None, None),
])
def test_the_guard_is_only_for_the_packages_command_lines(monkeypatch, argv, orig_argv, line):
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(sys, "orig_argv", orig_argv or ["python", *argv], raising=False)
    assert _interrupt.start_up_line() == line


def test_no_guard_in_a_spawned_worker(monkeypatch):
    import multiprocessing
    monkeypatch.setattr(sys, "argv", ["/venv/bin/conll_eval", "suite"])
    monkeypatch.setattr(multiprocessing, "parent_process", lambda: object())
    assert _interrupt.start_up_line() is None


def test_the_guard_keeps_an_ignored_sigint_and_ends_with_the_default_handler(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/venv/bin/conll_eval", "suite"])
    before = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _interrupt.guard_start_up()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        _interrupt.end_start_up()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _interrupt.guard_start_up()
        assert signal.getsignal(signal.SIGINT) not in (signal.default_int_handler, signal.SIG_IGN)
        _interrupt.end_start_up()
        assert signal.getsignal(signal.SIGINT) is _interrupt.interrupt_while_running
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_program_importing_the_package_keeps_its_sigint():
    done = subprocess.run([sys.executable, "-c", "import signal, conll_eval; "
                           "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"],
                          capture_output=True, timeout=120)
    assert done.stdout == b"True\n", done.stderr


def test_the_guard_knows_every_subcommand():
    from conll_eval.cli import COMMANDS
    assert _interrupt.SUBCOMMANDS == set(COMMANDS) | {"help"}


# 3.6 ------------------------------------------------------------------------------------

from conll_eval.cli.messages import PROBLEM_LINE  # noqa: E402
from conll_eval.io import identical  # noqa: E402
from helpers import run_cli  # noqa: E402

SCORE_WARNING = ("conll_eval: warning: GOLD and SYSTEM are identical ({}): the scores compare a "
                 "file with itself\n")


def _same_size_other_bytes(path, target):
    """``path``'s bytes with one letter of a LEMMA changed: the same size, other bytes."""
    data = path.read_bytes()
    form = data.index(b"\n1\t") + 3
    at = data.index(b"\t", data.index(b"\t", form) + 1) - 1  # the last letter of the first LEMMA
    target.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
    return target


def test_scoring_a_file_against_itself_warns_once_and_changes_no_output(tmp_path):
    copy = tmp_path / "copy.conllu"
    copy.write_bytes(GOLD.read_bytes())
    commented = tmp_path / "commented.conllu"  # other bytes, the same scores
    commented.write_bytes(b"# a comment\n" + GOLD.read_bytes())
    code, out, err = run_cli(GOLD, commented, "-v")
    assert (code, err) == (0, "")
    for system, kind in ((GOLD, "one file"), (copy, "two files, the same bytes")):
        assert run_cli(GOLD, system, "-v") == (0, out, SCORE_WARNING.format(kind))
        assert PROBLEM_LINE.match(SCORE_WARNING)
    os.link(copy, tmp_path / "hard.conllu")
    os.symlink(GOLD, tmp_path / "soft.conllu")
    for system in (tmp_path / "hard.conllu", tmp_path / "soft.conllu"):
        gold = copy if system.name == "hard.conllu" else GOLD
        assert run_cli(gold, system)[2] == SCORE_WARNING.format("one file")
    assert run_cli(GOLD, GOLD, "-q") == (0, "", "")
    assert run_cli(GOLD, GOLD, "--format", "json")[2] == SCORE_WARNING.format("one file")
    other = _same_size_other_bytes(GOLD, tmp_path / "other.conllu")
    assert other.stat().st_size == GOLD.stat().st_size
    assert run_cli(GOLD, other)[2] == ""
    assert run_cli(GOLD, SYSTEM)[2] == ""


def test_an_invalid_file_given_twice_gets_its_error_only():
    invalid = ROOT / "testdata" / "invalid" / "no-root.conllu"
    code, _, err = run_cli(invalid, invalid)
    assert code == 1 and "identical" not in err and len(err.splitlines()) == 1


def test_identical_inputs_compares_bytes_block_by_block(tmp_path, monkeypatch):
    monkeypatch.setattr(identical, "BLOCK_BYTES", 4)
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    first.write_bytes(b"0123456789abc")
    second.write_bytes(b"0123456789abc")
    third.write_bytes(b"0123456789abd")  # differs in the last, short block
    assert identical.identical_inputs(str(first), str(second)) == identical.SAME_BYTES
    assert identical.identical_inputs(str(first), str(third)) is None
    assert identical.identical_inputs(str(first), str(first)) == identical.ONE_FILE
    assert identical.identical_inputs("-", str(first)) is None
    assert identical.identical_inputs(str(first), str(tmp_path / "missing")) is None
    assert identical.identical_inputs(str(tmp_path), str(tmp_path)) is None  # a directory


def test_identical_inputs_reads_only_files_of_equal_size(tmp_path, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    first.write_bytes(b"x" * 10)
    second.write_bytes(b"x" * 11)
    monkeypatch.setattr("builtins.open", lambda *args, **kwargs: pytest.fail("opened a file"))
    assert identical.identical_inputs(str(first), str(second)) is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_identical_inputs_never_opens_a_pipe(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # opening it would wait for a writer: the test would hang
    assert identical.identical_inputs(str(pipe), str(pipe)) is None


def _suite_dirs(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    for name in ("en_a", "en_b", "en_c"):
        (gold / f"{name}.conllu").write_bytes(GOLD.read_bytes())
    (system / "en_a.conllu").write_bytes(GOLD.read_bytes())  # a copy: warned about
    _same_size_other_bytes(GOLD, system / "en_b.conllu")
    (system / "en_c.conllu").write_bytes(b"1\tx\n\n")  # fails: no warning beside its error
    return gold, system


def test_suite_warns_for_each_pair_of_identical_files(tmp_path):
    gold, system = _suite_dirs(tmp_path)
    warning = ("conll_eval suite: warning: {}en_a: gold and system are identical (two files, the "
               "same bytes): its scores compare a file with itself\n")
    code, out, err = run_cli("suite", gold, system, "--format", "json")
    assert code == 1 and [line for line in err.splitlines(keepends=True) if "identical" in line] == [
        warning.format("")]
    assert PROBLEM_LINE.match(warning)
    assert "identical" not in out
    _, _, err = run_cli("suite", gold, system, gold, "--names", "parser,oracle")
    assert [line for line in err.splitlines(keepends=True) if "identical" in line] == [
        warning.format("parser: ")] + [
        warning.format("oracle: ").replace("en_a", name).replace("two files, the same bytes", "one file")
        for name in ("en_a", "en_b", "en_c")]
    assert "identical" not in run_cli("suite", gold, system, "-q")[2]


def test_the_guard_knows_every_drop_in_and_speaks_as_it():
    """The start-up line of each console script is the line its running command writes."""
    from conll_eval.cli.messages import DROP_IN_NAMES
    assert set(_interrupt._CONLL_EVAL_SCRIPTS) == {"conll_eval", *DROP_IN_NAMES}


def test_a_ctrl_c_inside_a_lazy_import_of_a_running_command_exits_with_the_line(tmp_path):
    """The commands import their scoring code after start-up, and CPython may swallow a
    KeyboardInterrupt raised in the import system's locks: there the line and exit 130."""
    (tmp_path / "slow_module.py").write_text(
        "import os, signal, time\nos.kill(os.getpid(), signal.SIGINT)\ntime.sleep(5)\n")
    code = ("import signal, sys; from conll_eval import _interrupt; "
            "_interrupt._line = 'conll_eval: error [interrupted] stopped\\n'; "
            "signal.signal(signal.SIGINT, _interrupt.interrupt_while_running); "
            "sys.path.insert(0, sys.argv[1])\n"
            "try:\n    signal.raise_signal(signal.SIGINT)\nexcept KeyboardInterrupt:\n"
            "    print('outside an import: KeyboardInterrupt', flush=True)\n"
            "import slow_module\nprint('not stopped')\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          timeout=120)
    assert done.returncode == 130
    assert done.stdout == b"outside an import: KeyboardInterrupt\n"
    assert done.stderr == b"conll_eval: error [interrupted] stopped\n"
