"""ELAS and EULAS: ``--profile iwpt`` against the IWPT 2020 scorer and ``--profile udeval``
against udtools' ``udeval``, byte for byte on generated pairs (both run as programs); the set
semantics of ``--metrics ELAS,EULAS`` elsewhere; the switches; hostile DEPS.

The scripts are looked up with ``oracles.oracle_dir()``; the differential tests skip, saying
so, when they are absent.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracles
from conll_eval.cli import main
from conll_eval.evaluate import Settings
from strategies_enhanced import enhanced_pairs

GOLD = """\
1	The	the	DET	_	_	2	det	2:det	_
2	cat	cat	NOUN	_	_	3	nsubj	3:nsubj|5:nsubj	_
3	sat	sit	VERB	_	_	0	root	0:root	_
4	and	and	CCONJ	_	_	5	cc	5:cc	_
5	slept	sleep	VERB	_	_	3	conj	3:conj:and	_

"""
#: nsubj given twice, 5:obj instead of 5:nsubj, conj:or instead of conj:and
SYSTEM = GOLD.replace("3:nsubj|5:nsubj", "3:nsubj|3:nsubj|5:obj").replace("3:conj:and", "3:conj:or")

FAST = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
OPTIONS = st.sampled_from([[], ["-v"], ["-c"], ["--no-enhanced", "-v"], ["--multiple-roots-okay", "-c"],
                           ["--no-empty-nodes", "1", "-c"]]
                          + [["--enhancements", d, "-c"] for d in "123456"]
                          + [["--enhancements", d, "-v"] for d in ("12", "456", "123456", "0", "36")])


def run_ours(args, cwd=None):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), out, err)
    return status, out.getvalue(), err.getvalue()


def _script(profile: str):
    directory = oracles.oracle_dir()
    if directory is None:
        pytest.skip("the official scorers are not installed (make oracles)")
    if profile == "iwpt":
        script = directory / "iwpt20_ud_eval.py"
        command = [sys.executable, str(script)]
    else:
        script = directory / "venv" / "bin" / "udeval"
        command = [str(script)]
    if not script.exists():
        pytest.skip(f"{script} is not installed")
    return command


def run_script(profile: str, args, cwd: Path):
    done = subprocess.run(_script(profile) + list(args), cwd=cwd, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def _write(tmp: Path, gold: str, system: str):
    (tmp / "g.conllu").write_text(gold, encoding="utf-8")
    (tmp / "s.conllu").write_text(system, encoding="utf-8")
    return str(tmp / "g.conllu"), str(tmp / "s.conllu")


def check_against_script(profile, tmp, gold, system, options):
    g, s = _write(tmp, gold, system)
    status, out, err = run_script(profile, [*options, g, s], tmp)
    ours, our_out, our_err = run_ours(["--profile", profile, *options, g, s])
    assert "Traceback" not in our_err
    if status == 0:
        assert (ours, our_out) == (0, out + ""), f"{profile} {options}\n{our_err}"
    else:  # a UDError, or a crash (IndexError, ValueError) where we give a clean input error
        assert ours == 1, f"{profile} {options}: the script failed:\n{err[-600:]}\nours: {our_out}{our_err}"
        assert our_err.startswith(("conll_eval: error", str(tmp))), our_err


@pytest.fixture
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("enhanced")


# ------------------------------------------------------------------------- the worked example
@pytest.mark.parametrize("profile", ["iwpt", "udeval"])
def test_worked_example_matches_the_scripts(profile, workdir):
    for options in ([], ["-v"], ["-c"], ["--no-enhanced"]):
        check_against_script(profile, workdir, GOLD, SYSTEM, options)


def test_worked_example_numbers(workdir):
    """Official: correct 5 (the doubled nsubj counts twice) of gold 6, system 7; as sets:
    correct 4 (det, nsubj, root, cc) of 6 and 6 (the duplicate is one edge); EULAS adds conj."""
    g, s = _write(workdir, GOLD, SYSTEM)
    _, official, _ = run_ours(["--profile", "iwpt", "-c", "--metrics", "ELAS,EULAS", g, s])
    assert official.splitlines()[2:] == [
        "ELAS       |         5 |         6 |         7 |          ",
        "EULAS      |         6 |         6 |         7 |          "]
    _, as_sets, _ = run_ours(["-c", "--metrics", "ELAS,EULAS", g, s])
    assert as_sets.splitlines()[2:] == [
        "ELAS       |         4 |         6 |         6 |         6",
        "EULAS      |         5 |         6 |         6 |         6"]


# ------------------------------------------------------------------------- differential
@settings(max_examples=25, **FAST)
@given(pair=enhanced_pairs(), options=OPTIONS, profile=st.sampled_from(["iwpt", "udeval"]))
def test_profiles_match_the_scripts(workdir, pair, options, profile):
    check_against_script(profile, workdir, *pair, options)


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=100)
@pytest.mark.ci_pure(examples=100)
@settings(max_examples=600, **FAST)
@given(pair=enhanced_pairs(), options=OPTIONS, profile=st.sampled_from(["iwpt", "udeval"]))
def test_profiles_match_the_scripts_slow(workdir, pair, options, profile):
    check_against_script(profile, workdir, *pair, options)


# ------------------------------------------------------------------------- the two profiles
def test_differences_between_the_profiles(workdir):
    """Where udeval and the IWPT scorer differ, each profile follows its script."""
    # 1. an empty node among a multi-word token's words: udeval skips it, IWPT takes it as a word
    mwt = ("1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n"
           "1.1\tz\tz\tX\t_\t_\t_\t_\t1:dep\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t1:dep\t_\n\n")
    for profile in ("iwpt", "udeval"):
        check_against_script(profile, workdir, mwt, mwt, ["-c"])
    # 2. a file ending inside a multi-word token: udeval's own message
    unfinished = "1-2\tab\t_\t_\t_\t_\t_\t_\t_\t_\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n\n"
    g, s = _write(workdir, unfinished, unfinished)
    from conll_eval.compat import load_conllu_file, UDError
    with pytest.raises(UDError, match="ends in an unfinished MWT at line 2"):
        load_conllu_file(g, "udeval")
    with pytest.raises(UDError, match="does not contain 10 tab-separated columns at line 3"):
        load_conllu_file(g, "iwpt")


# ------------------------------------------------------------------------- switches
def test_switches_are_in_the_signature():
    base = Settings("iwpt").signature()
    assert "elas:official" in base
    assert "elas:set" in Settings("conll18", extra_metrics=("ELAS",)).signature()
    assert "elas" not in Settings("conll18").signature()
    assert "enhancements:12" in Settings("udeval", enhancements="21").signature()
    assert "enhanced:off" in Settings("iwpt", enhanced=False).signature()
    assert "empty_nodes:error" in Settings("iwpt", no_empty_nodes=True).signature()
    assert "roots:multiple" in Settings("udeval", multiple_roots_okay=True).signature()


def test_no_empty_nodes_takes_an_optional_value(workdir):
    g, s = _write(workdir, GOLD, SYSTEM)
    flag = run_ours(["--profile", "udeval", g, s, "--no-empty-nodes"])
    assert flag[0] == 0 and flag == run_ours(["--profile", "udeval", "--no-empty-nodes", "yes", g, s])
    # before the files, the flag alone never takes the gold file for its value
    assert flag == run_ours(["--profile", "udeval", "--no-empty-nodes", g, s])
    assert flag == run_ours(["--profile", "udeval", "--no-empty-nodes=1", g, s])
    empty = GOLD.replace("3\tsat", "2.1\tx\tx\tX\t_\t_\t_\t_\t2:dep\t_\n3\tsat")
    g, s = _write(workdir, empty, SYSTEM)
    check_against_script("udeval", workdir, empty, SYSTEM, ["--no-empty-nodes", "1"])
    status, _, err = run_ours(["--profile", "udeval", g, s, "--no-empty-nodes"])
    assert status == 1 and err.startswith(f"{g}:3: error [empty-node]"), err


@pytest.mark.parametrize("command", ["suite", "compare", "report"])
def test_every_scoring_command_takes_the_enhanced_switches(workdir, command):
    g, s = _write(workdir, GOLD, SYSTEM)
    switches = ["--profile", "udeval", "--enhancements", "12", "--multiple-roots-okay",
                "--no-empty-nodes", "1"]
    systems = [s] if command == "suite" else [s, s]
    extra = {"suite": ["--format", "json"], "compare": ["--names", "a,b", "--format", "json",
                                                        "--resamples", "5"],
             "report": ["--names", "a,b", "-o", str(workdir / "r.html")]}[command]
    status, out, err = run_ours([command, *switches, g, *systems, *extra])
    assert status == 0, err
    if command != "report":
        signature = json.loads(out)["signature"]
        assert "enhancements:12" in signature and "roots:multiple" in signature \
            and "empty_nodes:error" in signature


def test_bad_enhancements_is_a_usage_error(workdir):
    g, s = _write(workdir, GOLD, SYSTEM)
    status, _, err = run_ours(["--profile", "iwpt", "--enhancements", "7", g, s])
    assert status == 2 and "--enhancements" in err


def test_machine_formats_and_bars_take_elas(workdir):
    g, s = _write(workdir, GOLD, SYSTEM)
    status, out, err = run_ours(["--metrics", "elas,EULAS", "--format", "tsv", g, s])
    assert status == 0 and "ELAS" in out and "EULAS" in out
    status, out, err = run_ours(["--profile", "iwpt", "--format", "json", g, s])
    assert '"ELAS"' in out and '"aligned_accuracy": null' in out
    status, _, err = run_ours(["--fail-under", "ELAS=70", g, s])
    assert status == 1 and "ELAS 66.67 < 70" in err
    assert run_ours(["--fail-under", "ELAS=60", g, s])[0] == 0


# ------------------------------------------------------------------------- hostile DEPS
HOSTILE = {"1.0:dep": None, "3:": "invalid-deps", "9:dep": "deps-head-out-of-range",
           "99999999999999999999:dep": "deps-head-out-of-range", "x:dep": "invalid-deps-head",
           "nsubj": "invalid-deps", "-1:dep": "deps-head-out-of-range", "2:dep|": "invalid-deps"}


@pytest.mark.parametrize("deps", sorted(HOSTILE))
@pytest.mark.parametrize("profile", ["conll17", "conll18", "iwpt", "udeval"])
def test_hostile_deps(deps, profile, workdir):
    system = SYSTEM.replace("2:det", deps)
    g, s = _write(workdir, GOLD, system)
    metrics = ["--metrics", "ELAS"] if profile.startswith("conll") else []
    status, out, err = run_ours(["--profile", profile, *metrics, g, s])
    assert "Traceback" not in err
    if HOSTILE[deps] is None:  # an empty node's ID: skipped, as the scripts do
        assert status == 0
    else:
        assert status == 1 and err.startswith(f"{s}:1: error [{HOSTILE[deps]}]"), err


def test_cycles_in_the_enhanced_graph_are_scored(workdir):
    """A relative clause makes a cycle by design (acl:relcl down, nsubj/ref back up): scored,
    as the scripts do, never an error."""
    cyclic = GOLD.replace("3:nsubj|5:nsubj", "3:nsubj|5:nsubj|5:ref").replace("3:conj:and", "3:conj:and|2:acl:relcl")
    check_against_script("iwpt", workdir, cyclic, cyclic, ["-c"])


def test_non_utf8_is_a_clean_error(workdir):
    g, s = _write(workdir, GOLD, GOLD)
    Path(s).write_bytes(GOLD.replace("2:det", "2:d\udcffet").encode("utf-8", "surrogateescape"))
    status, _, err = run_ours(["--profile", "udeval", g, s])
    assert status == 1 and "Traceback" not in err and "[invalid-utf8]" in err


def test_a_gold_file_without_deps_makes_elas_meaningless(workdir):
    """DEPS all _ in the gold file: the official layouts keep the scripts' 0.00 (with a note on
    stderr), the other formats say n/a / null, a suite's average is n/a."""
    plain = "\n".join("\t".join(line.split("\t")[:8] + ["_", line.split("\t")[9]])
                      if line and not line.startswith("#") else line
                      for line in GOLD.split("\n"))
    g, s = _write(workdir, plain, SYSTEM)
    status, out, err = run_ours(["--profile", "iwpt", g, s])
    assert status == 0 and "ELAS F1 Score: 0.00" in out
    assert "the ELAS score means nothing: every gold DEPS is _" in err
    status, out, _ = run_ours(["--profile", "udeval", "--format", "json", g, s])
    elas = json.loads(out)["metrics"]["ELAS"]
    assert (elas["f1"], elas["annotated"]) == (None, False)
    status, out, _ = run_ours(["suite", "--metrics", "LAS,ELAS", "--format", "json", g, s])
    assert json.loads(out)["macro"]["ELAS"]["f1"] is None
