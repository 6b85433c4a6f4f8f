"""Issue 41: what the tables print where a number means nothing (3.8), the hint on swapped
GOLD and SYSTEM files (3.6), and colour on a terminal (4.3)."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import oracles
from conll_eval.cli import main

#: a gold file without DEPS (every one _): no enhanced graph, so ELAS/EULAS mean nothing
GOLD_NO_DEPS = """\
# sent_id = 1
# text = The cat sat and slept
1	The	the	DET	_	_	2	det	_	_
2	cat	cat	NOUN	_	_	3	nsubj	_	_
3	sat	sit	VERB	_	_	0	root	_	_
4	and	and	CCONJ	_	_	5	cc	_	_
5	slept	sleep	VERB	_	_	3	conj	_	SpaceAfter=No

"""
#: a system with DEPS (its graph has edges, the gold's has none)
SYSTEM_DEPS = """\
1	The	the	DET	_	_	2	det	2:det	_
2	cat	cat	NOUN	_	_	3	nsubj	3:nsubj|5:nsubj	_
3	sat	sit	VERB	_	_	0	root	0:root	_
4	and	and	CCONJ	_	_	5	cc	5:cc	_
5	slept	sleep	VERB	_	_	3	obj	3:conj:and	_

"""
NA_ROW = "       n/a |       n/a |       n/a |"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def pair(tmp_path):
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold.write_text(GOLD_NO_DEPS, encoding="utf-8")
    system.write_text(SYSTEM_DEPS, encoding="utf-8")
    return gold, system


def _row(out: str, metric: str) -> str:
    return next(line for line in out.splitlines() if line.split("|")[0].strip() == metric)


# ------------------------------------------------------------- 3.8: n/a where no script prints it
@pytest.mark.parametrize("profile", ["conll17", "conll18"])
def test_an_enhanced_row_no_script_prints_is_na_on_gold_without_deps(profile, pair):
    status, out, err = run("--profile", profile, "--metrics", "LAS,ELAS,EULAS", *pair)
    assert status == 0
    assert _row(out, "LAS").split("|")[1].strip() == "80.00"  # the other rows keep numbers
    for metric in ("ELAS", "EULAS"):
        row = _row(out, metric)
        assert row.startswith(f"{metric:11}|{NA_ROW}"), row
        assert "0.00" not in row
    assert "the ELAS score means nothing" in err  # the note stays


@pytest.mark.parametrize("profile", ["conll17", "conll18", "iwpt", "udeval"])
def test_machine_formats_say_na_in_every_profile(profile, pair):
    _, out, _ = run("--profile", profile, "--metrics", "LAS,ELAS", "--format", "json", *pair)
    metrics = json.loads(out)["metrics"]
    assert metrics["ELAS"]["f1"] is None and metrics["ELAS"]["annotated"] is False
    assert metrics["LAS"]["f1"] == pytest.approx(0.8)
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        _, out, _ = run("--profile", profile, "--metrics", "LAS,ELAS", "--format", fmt, *pair)
        elas = next(line for line in out.splitlines() if line.startswith("ELAS"))
        assert elas.split(sep)[5:8] == ["n/a"] * 3, elas
    _, out, _ = run("--profile", profile, "--metrics", "LAS,ELAS", "--format", "markdown", *pair)
    elas = next(line for line in out.splitlines() if line.startswith("| ELAS"))
    assert elas.count("n/a") >= 3 and "0.00" not in elas


def test_exact_match_lines_say_na_for_an_unannotated_metric(pair):
    for profile in ("conll18", "iwpt"):  # no official script prints these lines
        _, out, _ = run("--profile", profile, "--metrics", "LAS,ELAS", "--exact-match", *pair)
        lines = [line for line in out.splitlines() if line.startswith("Exact match")]
        assert lines[0] == "Exact match LAS: 0.00 % (0 of 1 sentences)"
        assert lines[1].startswith("Exact match ELAS: n/a"), lines


def test_rows_the_official_script_prints_keep_its_numbers(tmp_path):
    """XPOS and UFeats on a gold file without them: conll18 prints its numbers, so do we."""
    gold, system = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold.write_text(GOLD_NO_DEPS, encoding="utf-8")
    system.write_text(GOLD_NO_DEPS.replace("\tDET\t_\t_\t", "\tDET\tDT\tDefinite=Def\t"),
                      encoding="utf-8")
    _, out, err = run("-v", gold, system)
    assert "every gold XPOS is _" in err
    assert _row(out, "XPOS").split("|")[1].strip() == "80.00"  # 4 of 5 system XPOS are _
    assert "n/a" not in out


@pytest.mark.parametrize("profile", ["iwpt", "udeval"])
@pytest.mark.parametrize("options", [[], ["-v"], ["-c"], ["--metrics", "LAS,ELAS,EULAS"]])
def test_iwpt_and_udeval_keep_their_scripts_zero(profile, options, pair):
    """Byte for byte the script's stdout, ELAS 0.00 included (tests/oracles.py: the scripts
    from PyPI, in the oracle cache)."""
    directory = oracles.oracle_dir()
    if directory is None:
        pytest.skip("the official scorers are not installed (make oracles)")
    script = ([sys.executable, str(directory / "iwpt20_ud_eval.py")] if profile == "iwpt"
              else [str(directory / "venv" / "bin" / "udeval")])
    if not Path(script[-1]).exists():
        pytest.skip(f"{script[-1]} is not installed")
    script_options = ["-v"] if options and options[0] == "--metrics" else options
    done = subprocess.run(script + script_options + [str(p) for p in pair], capture_output=True,
                          text=True, check=True)
    status, out, _ = run("--profile", profile, *options, *pair)
    assert status == 0
    if options and options[0] == "--metrics":  # the script's rows, those asked for
        expected = done.stdout.splitlines()
        wanted = [line for line in expected[2:] if line.split("|")[0].strip() in ("LAS", "ELAS", "EULAS")]
        assert out.splitlines() == expected[:2] + wanted
    else:
        assert out == done.stdout
    assert "n/a" not in out
