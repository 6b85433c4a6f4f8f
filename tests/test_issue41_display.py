"""Issue 41: what the tables print where a number means nothing (3.8), the hint on swapped
GOLD and SYSTEM files (3.6), and colour on a terminal (4.3)."""
from __future__ import annotations

import io
import json
import re
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


# ---------------------------------------------------------------- 3.6: GOLD and SYSTEM swapped?
#: a gold file as treebanks write them: comments, a multi-word token, lemmas and features
TREEBANK = """\
# sent_id = s1
# text = I don't know.
1	I	I	PRON	PRP	Case=Nom|Number=Sing|Person=1	4	nsubj	_	_
2-3	don't	_	_	_	_	_	_	_	_
2	do	do	AUX	VBP	Mood=Ind|Tense=Pres	4	aux	_	_
3	n't	not	PART	RB	Polarity=Neg	4	advmod	_	_
4	know	know	VERB	VB	VerbForm=Inf	0	root	_	SpaceAfter=No
5	.	.	PUNCT	.	_	4	punct	_	_

"""


def _parser_output(text: str, comments: bool = False, mwt: bool = False, tags: bool = False) -> str:
    """``text`` as a parser that keeps only what is asked for writes it (HEAD and DEPREL
    always, one DEPREL wrong; LEMMA and FEATS ``_`` unless ``tags``)."""
    lines = []
    for line in text.splitlines():
        fields = line.split("\t")
        if line.startswith("#") and not comments or "-" in fields[0] and not mwt:
            continue
        if len(fields) == 10 and not tags and "-" not in fields[0]:
            fields[2] = fields[5] = "_"
        if fields[0] == "5":
            fields[7] = "dep"  # one relation wrong: LAS 80.00
        lines.append("\t".join(fields))
    return "\n".join(lines) + "\n"


def _files(tmp_path, gold: str, system: str):
    paths = tmp_path / "g.conllu", tmp_path / "s.conllu"
    for path, text in zip(paths, (gold, system)):
        path.write_text(text, encoding="utf-8")
    return paths


SWAP_NOTE = "conll_eval: note: GOLD and SYSTEM may be swapped"


def test_a_parser_output_given_as_gold_gets_a_one_line_note(tmp_path):
    parsed, gold = _files(tmp_path, _parser_output(TREEBANK), TREEBANK)
    status, out, err = run(parsed, gold)
    notes = [line for line in err.splitlines() if "swapped" in line]
    assert notes == [f"{SWAP_NOTE} (the gold file comes first): only SYSTEM has comment lines, "
                     "multi-word tokens and LEMMA/FEATS values, as gold files do; GOLD looks like "
                     "parser output"]
    assert status == 0
    from conll_eval.evaluate import evaluate_files
    from conll_eval.report import default_lines
    assert out == default_lines(evaluate_files(str(parsed), str(gold)).scores, "conll18")
    for quiet in (["-q"], ["-q", "--fail-under", "LAS=99"]):  # -q: nothing; the exit code as ever
        status, out, err = run(*quiet, parsed, gold)
        assert (out, err) == ("", "") and status == (1 if len(quiet) > 1 else 0)
    _, out, err = run("--format", "json", parsed, gold)
    assert SWAP_NOTE in err and json.loads(out)["metrics"]["LAS"]["f1"] < 1


def test_the_usual_order_and_near_cases_get_no_note(tmp_path):
    cases = [
        (TREEBANK, _parser_output(TREEBANK)),  # the usual order
        (_parser_output(TREEBANK, comments=True, mwt=True), TREEBANK),  # one sign: the tags
        (_parser_output(TREEBANK, mwt=True, tags=True), TREEBANK),  # one sign: the comments
        # two signs for SYSTEM (comments, tags), one for GOLD (a multi-word token): not swapped
        (_parser_output(TREEBANK, mwt=True), _parser_output(TREEBANK, comments=True, tags=True)),
    ]
    for gold_text, system_text in cases:
        status, _, err = run(*_files(tmp_path, gold_text, system_text))
        assert status == 0 and "swapped" not in err, (gold_text, err)


def test_two_signs_are_enough_and_the_numpy_path_agrees(tmp_path):
    parsed, gold = _files(tmp_path, _parser_output(TREEBANK, tags=True), TREEBANK)
    for pure in ("", "1"):
        done = subprocess.run([sys.executable, "-m", "conll_eval", str(parsed), str(gold)],
                              capture_output=True, text=True, env={**__import__("os").environ,
                                                                    "CONLL_EVAL_PURE": pure})
        assert done.returncode == 0
        assert [line for line in done.stderr.splitlines() if "swapped" in line] == [
            f"{SWAP_NOTE} (the gold file comes first): only SYSTEM has comment lines and "
            "multi-word tokens, as gold files do; GOLD looks like parser output"], done.stderr


def test_the_exact_parsers_metadata_counts_as_comments(tmp_path):
    """A file the exact parser read holds its sent_id/text comments as lists (no lazy
    metadata): they count as comment lines all the same."""
    from dataclasses import replace

    from conll_eval.evaluate import evaluate_files
    from conll_eval.io.swapped import annotation_signs, swapped_evidence
    parsed, gold = _files(tmp_path, _parser_output(TREEBANK, mwt=True), TREEBANK)
    evaluation = evaluate_files(str(parsed), str(gold))
    assert swapped_evidence(evaluation.gold, evaluation.system) == ("comment lines", "LEMMA/FEATS")
    system = replace(evaluation.system, metadata=(["s1"], [None]))
    gold_tb = replace(evaluation.gold, metadata=([None], [None]))
    assert annotation_signs(system)["comment lines"] and not annotation_signs(gold_tb)["comment lines"]
    assert swapped_evidence(gold_tb, system) == ("comment lines", "LEMMA/FEATS")
    assert swapped_evidence(system, gold_tb) == ()


def test_suite_notes_each_swapped_pair_not_with_q_or_tira(tmp_path):
    gold_dir, system_dir = tmp_path / "gold", tmp_path / "system"
    gold_dir.mkdir(), system_dir.mkdir()
    (gold_dir / "en_a.conllu").write_text(_parser_output(TREEBANK), encoding="utf-8")
    (system_dir / "en_a.conllu").write_text(TREEBANK, encoding="utf-8")
    (gold_dir / "en_b.conllu").write_text(TREEBANK, encoding="utf-8")
    (system_dir / "en_b.conllu").write_text(_parser_output(TREEBANK), encoding="utf-8")
    plain = run("suite", gold_dir, system_dir)
    assert [line for line in plain[2].splitlines() if "swapped" in line] == [
        "conll_eval suite: note: en_a: gold and system may be swapped: only the system file has "
        "comment lines, multi-word tokens and LEMMA/FEATS values, as gold files do; the gold "
        "file looks like parser output"]
    assert plain[0] == 0
    assert run("suite", "-j", "2", gold_dir, system_dir)[1:] == plain[1:]  # through the workers
    assert run("suite", "-q", gold_dir, system_dir) == (0, "", "")
    _, _, err = run("suite", "--tira", tmp_path / "tira", gold_dir, system_dir)
    assert "swapped" not in err


# ------------------------------------------------------------------ 4.3: colour on a terminal
SUITE = Path(__file__).resolve().parent.parent / "testdata" / "suite"
RED_ON = "\x1b[31m"


def _on_pty(argv, env_changes, stdout_on_pty=True, stderr_on_pty=True):
    """Run ``python -m conll_eval argv`` with stdout and/or stderr on a pseudo-terminal:
    (exit code, what the terminal got, what the pipes got)."""
    import os
    import pty
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env.update({"TERM": "xterm", **env_changes})
    env = {k: v for k, v in env.items() if v is not None}
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "conll_eval", *map(str, argv)],
                            stdout=slave if stdout_on_pty else subprocess.PIPE,
                            stderr=slave if stderr_on_pty else subprocess.PIPE, env=env)
    os.close(slave)
    terminal = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        terminal += chunk
    os.close(master)
    piped = b"".join(stream.read() for stream in (proc.stdout, proc.stderr) if stream is not None)
    return proc.wait(), terminal.decode(), piped.decode()


SUITE_ARGS = ["suite", "--metrics", "LAS", "--fail-under", "LAS=90", SUITE / "gold", SUITE / "system"]


def test_auto_colours_failed_treebanks_and_missed_bars_on_a_terminal_only():
    status, terminal, piped = _on_pty(SUITE_ARGS, {})
    assert status == 1 and piped == ""
    assert f"{RED_ON}FAILED [cycle]\x1b[0m" in terminal
    assert f"{RED_ON}conll_eval suite: error [fail-under] macro-average: LAS 35.00 < 90\x1b[0m" in terminal
    assert "ok\r\n" in terminal and f"{RED_ON}ok" not in terminal  # only the failures
    # the table on a pipe, the bars on the terminal: each stream decides for itself
    status, terminal, piped = _on_pty(SUITE_ARGS, {}, stdout_on_pty=False)
    assert status == 1 and "\x1b" not in piped and "FAILED [cycle]" in piped
    assert f"{RED_ON}conll_eval suite: error [fail-under]" in terminal


@pytest.mark.parametrize("env, option, colour", [
    ({"NO_COLOR": "1"}, [], False),
    ({"NO_COLOR": ""}, [], True),  # no-color.org: only a non-empty value disables
    ({"TERM": "dumb"}, [], False),
    ({}, ["--color", "never"], False),
    ({"NO_COLOR": "1"}, ["--color", "always"], True),  # the option overrides the variable
])
def test_no_color_dumb_terminals_and_the_option_on_a_terminal(env, option, colour):
    status, terminal, _ = _on_pty([*SUITE_ARGS[:1], *option, *SUITE_ARGS[1:]], env)
    assert status == 1 and "FAILED [cycle]" in terminal
    colours = re.findall(r"\x1b\[[0-9;]*m", terminal)  # SGR only: progress lines erase with \x1b[K
    assert bool(colours) == colour, terminal


def test_score_colours_its_missed_bars_and_nothing_else(tmp_path):
    gold, system = SUITE / "gold" / "en_cats.conllu", SUITE / "system" / "en_cats.conllu"
    status, terminal, _ = _on_pty([gold, system, "--fail-under", "LAS=80,UAS=70"], {})
    assert status == 1
    assert f"{RED_ON}conll_eval: error [fail-under] LAS 75.00 < 80\x1b[0m" in terminal
    assert "LAS F1 Score: 75.00\r\n" in terminal and terminal.count("\x1b[31m") == 1
    status, out, err = run("--color", "always", "--fail-under", "LAS=80", gold, system)
    assert status == 1 and "\x1b" not in out
    assert err.endswith(f"{RED_ON}conll_eval: error [fail-under] LAS 75.00 < 80\x1b[0m\n")
    status, out, err = run("--color", "never", "--fail-under", "LAS=80", gold, system)
    assert status == 1 and "\x1b" not in out + err


def test_always_leaves_files_and_other_formats_plain(tmp_path):
    args = ["suite", "--color", "always", SUITE / "gold", SUITE / "system"]
    status, out, _ = run(*args, "-o", tmp_path / "table.txt")
    assert status == 1 and out == ""
    written = (tmp_path / "table.txt").read_text(encoding="utf-8")
    assert "FAILED [cycle]" in written and "\x1b" not in written
    for fmt in ("json", "tsv", "csv", "markdown"):
        status, out, _ = run(*args, "--format", fmt)
        assert status == 1 and out and "\x1b" not in out, fmt
    status, out, _ = run(*args)  # the same text, coloured, with its columns where they were
    plain = run(*args[:1], "--color", "never", *args[3:])[1]
    assert "\x1b" in out and out.replace(RED_ON, "").replace("\x1b[0m", "") == plain


def test_a_leaderboard_colours_the_failed_cells():
    status, out, _ = run("suite", "--color", "always", "--metrics", "LAS", SUITE / "gold",
                         SUITE / "system", SUITE / "gold")
    assert status == 1
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("de_", "en_", "fr_"))}
    assert rows["fr_oiseaux"].endswith(f"{RED_ON}0.00!\x1b[0m")
    assert RED_ON not in rows["en_cats"]


def test_color_takes_three_values():
    for command in ([], ["suite"]):
        status, _, err = run(*command, "--color", "yes", "a", "b")
        assert status == 2 and "--color" in err and "auto" in err


def test_wants_color_rules():
    from conll_eval.cli.color import wants_color

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Terminal(), io.StringIO()
    assert wants_color("auto", tty, {}) and not wants_color("auto", pipe, {})
    assert not wants_color("auto", tty, {"NO_COLOR": "0"}) and wants_color("auto", tty, {"NO_COLOR": ""})
    assert not wants_color("auto", tty, {"TERM": "dumb"}) and wants_color("auto", tty, {"TERM": "xterm"})
    assert wants_color("always", pipe, {"NO_COLOR": "1", "TERM": "dumb"})
    assert not wants_color("never", tty, {}) and not wants_color("auto", None, {})
