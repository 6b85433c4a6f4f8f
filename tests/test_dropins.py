"""The drop-in command names (issue 32): ``malteval``, ``mooteval``, ``conll18_ud_eval``,
``conll17_ud_eval``, ``iwpt20_ud_eval`` and ``conll-eval-udvalidate`` are console scripts of
the package, and each gives what the tool it replaces gives: MaltEval's reference outputs and
mooteval's (../shared, read at run time), the official scorers' outputs kept as goldens and
udvalidate's lines.  ``conll-eval-validate`` has one meaning (issue 41): ``conll_eval
validate``, as the pre-commit hook of that name."""
import configparser
import importlib
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SHARED, TESTDATA
from oracles import oracle_dir

PROJECT = Path(__file__).resolve().parent.parent
GOLDEN = TESTDATA / "golden"
DROPINS = {"malteval": "malteval", "mooteval": "mooteval", "conll18_ud_eval": "conll18_ud_eval",
           "conll17_ud_eval": "conll17_ud_eval", "iwpt20_ud_eval": "iwpt20_ud_eval",
           "conll-eval-udvalidate": "udvalidate", "conll-eval-validate": "validate"}


def run_dropin(name, argv, cwd):
    """The drop-in's function in a fresh interpreter (it ends the process, as a console
    script does), with ``argv`` as its command line."""
    code = f"import sys; from conll_eval.cli import dropins; dropins.{name}(sys.argv[1:])"
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, capture_output=True)


def test_every_dropin_is_a_console_script():
    config = configparser.ConfigParser()
    config.read(PROJECT / "setup.cfg")
    scripts = dict(line.split(" = ") for line in
                   config["options.entry_points"]["console_scripts"].strip().splitlines())
    for name, function_name in DROPINS.items():
        module, function = scripts[name].split(":")
        assert function == function_name
        assert callable(getattr(importlib.import_module(module), function)), name


def _cases(tool, names):
    folder = SHARED / tool / "cases"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return [folder / name for name in names]


@pytest.mark.parametrize("case", ["004-metric-LAS", "001-default-en_ewt"])
def test_malteval(case):
    case_dir, = _cases("malteval", [case])
    argv = shlex.split((case_dir / "cmd.txt").read_text(encoding="utf-8"))
    done = run_dropin("malteval", argv, case_dir.parent.parent / "data")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (case_dir / "output.txt").read_bytes()


@pytest.mark.parametrize("case", ["001-en_ewt-upos-tt-default", "003-en_ewt-upos-tt-v1"])
def test_mooteval(case):
    case_dir, = _cases("mooteval", [case])
    argv = shlex.split((case_dir / "cmd.txt").read_text(encoding="utf-8"))
    done = run_dropin("mooteval", argv, case_dir.parent.parent / "data")
    assert done.returncode == int((case_dir / "exit.txt").read_text().strip())
    assert done.stdout == (case_dir / "stdout.txt").read_bytes()


@pytest.mark.parametrize("name,options,expected", [
    ("conll18_ud_eval", ["-v"], "expected-conll18-v.txt"),
    ("conll18_ud_eval", ["-c"], "expected-conll18-c.txt"),
    ("conll17_ud_eval", ["-v"], "expected-conll17-v.txt"),
])
@pytest.mark.parametrize("pair", ["identical", "mwt-case"])
def test_official_scorers(name, options, expected, pair):
    folder = GOLDEN / pair
    done = run_dropin(name, [*options, "gold.conllu", "system.conllu"], folder)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    if name == "conll17_ud_eval":  # the final 2017 scorer's CLAS row; the golden is v1.0's
        # (testdata/README.md, "The conll17 v1.0 CLAS caveat")
        rows = out.splitlines(keepends=True)
        assert any(r.startswith(b"CLAS ") for r in rows)
        out = b"".join(r for r in rows if not r.startswith(b"CLAS "))
    assert out == (folder / expected).read_bytes()


def test_iwpt20_ud_eval_scores_elas():
    folder = GOLDEN / "identical"
    done = run_dropin("iwpt20_ud_eval", ["-v", "gold.conllu", "system.conllu"], folder)
    assert done.returncode == 0, done.stderr
    assert b"\nELAS       |" in done.stdout and b"\nEULAS      |" in done.stdout


def test_a_scorer_error_is_the_official_last_line():
    folder = GOLDEN / "identical"
    done = run_dropin("conll18_ud_eval", ["gold.conllu", "no-such-file.conllu"], folder)
    assert done.returncode == 1 and b"Traceback" not in done.stderr


BROKEN = PROJECT / "examples" / "broken.conllu"  # a head self-loop (line 4), an unknown UPOS (13)


def test_conll_eval_udvalidate_writes_udvalidates_lines_on_stderr():
    done = run_dropin("udvalidate", ["--level", "2", "--lang", "ud", str(BROKEN)], TESTDATA)
    assert done.returncode == 1 and done.stdout == b""
    lines = done.stderr.decode("utf-8").splitlines()
    assert lines[0] == "[Line 4 Sent example-1]: [L2 SYNTAX head-self-loop] HEAD == ID for 2"
    assert lines[-1] == "*** FAILED *** with 2 errors"


@pytest.mark.parametrize("name", ["broken.conllu", "a.conllu"])
def test_conll_eval_udvalidate_is_udvalidate(name):
    directory = oracle_dir()
    udvalidate = directory / "venv" / "bin" / "udvalidate" if directory else None
    if udvalidate is None or not udvalidate.exists():
        pytest.skip("udvalidate (udtools) is not installed (make oracles)")
    folder = PROJECT / "examples"
    argv = ["--level", "2", "--lang", "ud", name]
    theirs = subprocess.run([str(udvalidate), *argv], cwd=folder, capture_output=True)
    ours = run_dropin("udvalidate", argv, folder)
    assert (ours.returncode, ours.stdout, ours.stderr) == (theirs.returncode, theirs.stdout,
                                                           theirs.stderr)


def test_conll_eval_validate_is_conll_eval_validate_as_the_hook():
    """The console script ``conll-eval-validate`` prints what ``conll_eval validate`` prints
    (conll_eval's lines on stdout), the meaning the pre-commit hook of that name has."""
    hooks = (PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: conll-eval-validate\n" in hooks
    assert "  entry: conll_eval validate --per-file\n" in hooks
    argv = ["--level", "2", str(BROKEN)]
    done = run_dropin("validate", argv, TESTDATA)
    house = subprocess.run([sys.executable, "-m", "conll_eval", "validate", *argv], cwd=TESTDATA,
                           capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (house.returncode, house.stdout,
                                                           house.stderr)
    assert done.returncode == 1 and done.stdout.startswith(
        f"{BROKEN}:4: error [L2 syntax head-self-loop] ".encode())


# --- issue 41: each drop-in speaks under the name it was invoked as ------------------------

MOOT = TESTDATA / "tagger" / "gold.tt"
PAIR = [str(TESTDATA / "example" / "gold.conllu"), str(TESTDATA / "example" / "system.conllu")]


@pytest.mark.parametrize("function, argv, stream, expected", [
    ("mooteval", ["--help"], "stdout", "Usage: mooteval [OPTIONS]... SYSTEM GOLD "),
    ("mooteval", ["--conllu", "--help"], "stdout", "usage: mooteval [OPTIONS] GOLD SYSTEM "),
    ("mooteval", ["--conllu", "--bogus", *PAIR], "stderr",
     "mooteval: error [usage] unrecognized arguments: --bogus\n"),
    ("mooteval", [PAIR[0], str(MOOT)], "stderr", "mooteval: error [mixed-formats] "),
    ("malteval", ["--help"], "stdout", "usage: malteval -s SYSTEM... -g GOLD... "),
    ("malteval", [], "stderr", "malteval: error [usage] no MaltEval arguments given"),
    ("udvalidate", ["--help"], "stdout", "usage: conll-eval-udvalidate [-h] "),
    ("udvalidate", ["--level", "9", PAIR[0]], "stderr",
     "conll-eval-udvalidate: error [usage] level 9 does not exist"),
    ("validate", ["--level", "9", PAIR[0]], "stderr",
     "conll-eval-validate: error [usage] level 9 does not exist"),
    ("validate", [PAIR[0], PAIR[0]], "stderr", "conll-eval-validate: warning: "),
])
def test_a_drop_in_names_itself_in_its_usage_help_and_lines(function, argv, stream, expected):
    done = run_dropin(function, argv, TESTDATA)
    # udvalidate's drop-in writes everything on stderr, as udvalidate does
    text = (done.stderr if stream == "stderr" or function == "udvalidate" else done.stdout).decode()
    assert ("\n" + expected) in ("\n" + text), text  # at the start of a line
    assert "conll_eval tagger" not in text and "conll_eval analyze" not in text
    assert "conll_eval validate:" not in text and "usage: conll_eval" not in text


def test_the_subcommands_keep_their_own_names():
    """In-process, without a drop-in, the lines name ``conll_eval <command>`` as before."""
    from helpers import run_cli
    assert run_cli("tagger", "--conllu", "--bogus", *PAIR)[2].startswith(
        "conll_eval tagger: error [usage] unrecognized arguments: --bogus")
    assert run_cli("analyze")[2].startswith("conll_eval analyze: error [usage] ")


@pytest.mark.parametrize("module", ["conll_eval.compat", "conll_eval.compat.conll17",
                                    "conll_eval.compat.iwpt20", "conll_eval.compat.udeval"])
def test_python_m_stand_ins_name_themselves(module):
    done = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"usage: python -m {module} [-h]"), done.stderr
    assert f"\npython -m {module}: error: the following arguments are required" in done.stderr
    assert ".py" not in done.stderr


def test_a_program_calling_main_keeps_argparses_name(tmp_path):
    """Code that vendored the scorer and calls ``main()`` gets its own script's name, as the
    official module gives it."""
    script = tmp_path / "evaluate_parser.py"
    script.write_text("from conll_eval.compat import main\nmain()\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert done.stderr.startswith("usage: evaluate_parser.py [-h]"), done.stderr
