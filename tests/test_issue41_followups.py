"""Issue 41, follow-ups of 3.8, 3.11 and 4.3: compare prints n/a for a metric whose gold column
is unannotated (every output, and its gate refuses it as --fail-under does), ``-q`` is read from
the parsed arguments (``-qv``, ``--qui``), report takes ``-q``, and the drop-ins' hints name the
program as invoked."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conll_eval.cli import main

#: a gold file without DEPS: ELAS means nothing; two sentences so that LAS is compared
GOLD_NO_DEPS = """\
# sent_id = 1
# text = The cat sat
1	The	the	DET	_	_	2	det	_	_
2	cat	cat	NOUN	_	_	3	nsubj	_	_
3	sat	sit	VERB	_	_	0	root	_	SpaceAfter=No

# sent_id = 2
# text = A dog ran
1	A	a	DET	_	_	2	det	_	_
2	dog	dog	NOUN	_	_	3	nsubj	_	_
3	ran	run	VERB	_	_	0	root	_	SpaceAfter=No

"""


def _system(deprel_2: str, deps: bool) -> str:
    """GOLD_NO_DEPS with word 2's relation ``deprel_2``, DEPS filled in when ``deps``."""
    lines = []
    for line in GOLD_NO_DEPS.splitlines():
        cells = line.split("\t")
        if len(cells) == 10:
            if cells[0] == "2":
                cells[7] = deprel_2
            if deps:
                cells[8] = f"{cells[6]}:{cells[7]}"
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def trio(tmp_path):
    """gold (no DEPS), a system right everywhere with DEPS, one with a wrong relation."""
    paths = [tmp_path / name for name in ("gold.conllu", "good.conllu", "poor.conllu")]
    for path, text in zip(paths, (GOLD_NO_DEPS, _system("nsubj", True), _system("obj", True))):
        path.write_text(text, encoding="utf-8")
    return paths


def _compare(trio, *options):
    return run("compare", *trio, "--metrics", "ELAS,LAS", "--resamples", "50", *options)


# ------------------------------------------------------------- 1: compare's n/a metric
def test_compare_text_prints_na_for_an_unannotated_metric(trio):
    status, out, err = _compare(trio)
    assert status == 0
    assert "0.00 [0.00, 0.00]" not in out
    rows = [line.split() for line in out.splitlines()]
    assert ["good", "n/a", "100.00", "[100.00,", "100.00]"] in rows
    assert ["good", "-", "poor", "n/a", "n/a", "n/a", "n/a", "n/a"] in rows  # the ELAS pair
    assert "conll_eval compare: note: ELAS is n/a: the gold file does not annotate it " \
           "(every gold DEPS is _)" in err


@pytest.mark.parametrize("fmt", ["markdown", "latex"])
def test_compare_markdown_and_latex_print_na(trio, fmt):
    status, out, _ = _compare(trio, "--format", fmt)
    assert status == 0 and "0.00 [0.00, 0.00]" not in out
    separator = "|" if fmt == "markdown" else "&"
    cells = [[c.strip() for c in line.strip("|\\ ").split(separator)] for line in out.splitlines()]
    assert ["good", "n/a", "100.00 [100.00, 100.00]" if fmt == "markdown"
            else "100.00 {[}100.00, 100.00{]}"] in cells
    assert ["good - poor", *["n/a"] * 5] in cells


@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_compare_delimited_says_na_in_every_cell_of_the_metric(trio, fmt):
    status, out, _ = _compare(trio, "--format", fmt)
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t" if fmt == "tsv" else ","))
    elas = [row for row in rows if row["metric"] == "ELAS"]
    assert len(elas) == 3  # two systems, one pair
    for row in elas:
        filled = {k: v for k, v in row.items() if k not in ("metric", "first", "second", "p_mcnemar") and v}
        assert set(filled.values()) == {"n/a"}
    pair = next(row for row in elas if row["second"])
    assert pair["significant"] == "n/a" and pair["p_bootstrap"] == "n/a"
    las = next(row for row in rows if row["metric"] == "LAS" and row["first"] == "good" and not row["second"])
    assert las["value"] == "1.0"


def test_compare_json_has_nulls_and_leaves_the_other_metrics_as_they_were(trio):
    status, out, _ = _compare(trio, "--format", "json")
    record = json.loads(out)
    assert record["unannotated"] == ["ELAS"]
    assert record["scores"]["ELAS"]["good"] == {"value": None, "low": None, "high": None}
    pair = record["pairs"]["ELAS"][0]
    assert pair["significant"] is None and pair["difference"]["value"] is None
    assert set(pair["p"].values()) == {None} and set(pair["corrected"].values()) == {None}
    assert record["clusters"]["ELAS"] is None
    # the n/a metric takes nothing from the others: LAS as compared alone
    _, alone, _ = run("compare", *trio, "--metrics", "LAS", "--resamples", "50", "--format", "json")
    alone = json.loads(alone)
    assert record["scores"]["LAS"] == alone["scores"]["LAS"]
    assert record["pairs"]["LAS"] == alone["pairs"]["LAS"]


def test_the_gate_refuses_an_unannotated_metric_as_fail_under_does(trio):
    status, out, err = _compare(trio, "--fail-unless-better")
    assert status == 2 and out == ""
    assert err == ("conll_eval compare: error [usage] --fail-unless-better: ELAS: the gold file does "
                   "not annotate ELAS (every gold DEPS is _); a bar on it means nothing (drop it, or "
                   "bar another metric)\n")
    # the same words as the score gate's
    status, _, err = run(trio[0], trio[1], "--fail-under", "ELAS=10")
    assert status == 2 and "--fail-under: ELAS=10: the gold file does not annotate ELAS (every gold " \
        "DEPS is _); a bar on it means nothing (drop it, or bar another metric)" in err
    # without it, the gate judges LAS alone: good is better than poor, but not significantly
    status, _, err = run("compare", *trio, "--metrics", "LAS", "--resamples", "50", "--fail-unless-better")
    assert status == 1 and "error [not-better] LAS:" in err and "ELAS" not in err


def test_an_unannotated_metric_is_never_better_nor_clustered(trio):
    from conll_eval.analyze.comparison import compare, ranked_clusters
    from conll_eval.evaluate import Settings, evaluate_files
    evaluations = [evaluate_files(trio[0], path, settings=Settings("iwpt"))
                   for path in (trio[1], trio[2], trio[1])]
    comparison = compare(["a", "b", "c"], evaluations, ["ELAS", "LAS"], resamples=50)
    assert comparison.unannotated == ("ELAS",)
    assert ranked_clusters(comparison, "ELAS") == [] and ranked_clusters(comparison, "LAS")
    assert all(metric == "LAS" for metric, _ in comparison.not_better(0))


def test_report_significance_prints_na_for_the_metric(trio, tmp_path):
    page = tmp_path / "report.html"
    status, _, err = run("report", *trio, "--significance", "--metrics", "ELAS,LAS",
                         "--resamples", "50", "-o", page)
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    row = html[html.index('<td class="l">ELAS</td><td class="l">good</td>'):]
    row = row[:row.index("</tr>")]
    assert row.count("<td>n/a</td>") == 4 and row.endswith('<td class="l">n/a</td>')


# ------------------------------------------------------------- 3: -q as argparse reads it
CYCLES = Path(__file__).resolve().parent.parent / "testdata" / "empty-node-cycles" / "input"
CYCLE_PAIR = ["--profile", "iwpt", "--collapse-empty-nodes",
              CYCLES / "two-cycle-gold.conllu", CYCLES / "two-cycle-system.conllu"]


@pytest.mark.parametrize("quiet", [["-q"], ["--quiet"], ["--qui"], ["--q"], ["-qv"], ["-vq"], ["-cq"]])
def test_every_spelling_argparse_takes_for_quiet_silences_the_input_warnings(quiet):
    status, out, err = run(*quiet, *CYCLE_PAIR)
    assert (status, out, err) == (0, "", "")


def test_not_quiet_still_warns_and_a_file_named_q_is_no_option(tmp_path):
    status, out, err = run(*CYCLE_PAIR)
    assert status == 0 and out and "warning [empty-node-cycle]" in err
    named = tmp_path / "-q"  # after --, '-q' is a file name: nothing asks for quiet
    named.write_bytes((CYCLES / "two-cycle-system.conllu").read_bytes())
    status, out, err = run(*CYCLE_PAIR[:-1], "--", named)
    assert status == 0 and out and "warning [empty-node-cycle]" in err
    # -qv with -o: the file is written, nothing printed
    status, out, err = run("-qvo", tmp_path / "out.txt", *CYCLE_PAIR)
    assert (status, out, err) == (0, "", "") and "ELAS" in (tmp_path / "out.txt").read_text(encoding="utf-8")


def test_quiet_is_read_per_run_in_one_process():
    assert run("-q", *CYCLE_PAIR)[2] == ""
    assert "warning [empty-node-cycle]" in run(*CYCLE_PAIR)[2]  # not carried over


# ------------------------------------------------------------- 4: report -q
def test_report_takes_quiet_as_every_command_does(trio, tmp_path):
    page = tmp_path / "page.html"
    assert run("report", "-q", trio[0], trio[1], "-o", page) == (0, "", "")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert run("report", "--quiet", trio[0], trio[1]) == (0, "", "")  # no page on stdout
    status, out, _ = run("report", trio[0], trio[1])
    assert status == 0 and out.startswith("<!DOCTYPE html>")
    broken = tmp_path / "broken.conllu"
    broken.write_text(GOLD_NO_DEPS.replace("\t0\troot", "\t9\troot", 1), encoding="utf-8")
    assert run("report", "-q", trio[0], broken, "-o", tmp_path / "no.html") == (1, "", "")
    status, _, err = run("report", trio[0], broken, "-o", tmp_path / "no.html")
    assert status == 1 and "error [" in err
    status, _, err = run("report", "-q", "--resamples", "0", "--significance", *trio)
    assert status == 2 and "error [usage]" in err  # usage errors are still printed
    assert not (tmp_path / "no.html").exists()


def test_report_quiet_writes_nothing_even_to_a_terminal(trio):
    from test_issue41_display import _on_pty
    status, terminal, _ = _on_pty(["report", "-q", trio[0], trio[1]], {})
    assert status == 0 and terminal == ""
    status, terminal, _ = _on_pty(["report", trio[0], trio[1]], {})
    assert status == 2 and "not written to a terminal" in terminal


# ------------------------------------------------------------- 5: hints name the program invoked
def _dropin(function: str, argv, stdin=None):
    """The drop-in ``function`` of cli.dropins in a fresh interpreter: (status, stdout + stderr)."""
    code = f"import sys; from conll_eval.cli import dropins; dropins.{function}(sys.argv[1:])"
    done = subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True,
                          stdin=stdin, timeout=120)
    return done.returncode, (done.stdout + done.stderr).decode()


EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gold.conllu"


@pytest.mark.parametrize("function, name", [("validate", "conll-eval-validate"),
                                            ("udvalidate", "conll-eval-udvalidate")])
def test_validate_hints_name_the_drop_in(function, name):
    status, text = _dropin(function, ["-e", "FOO", EXAMPLE])
    assert status == 2 and f"put -- before the files ({name} -e ID -- FILE)" in text, text
    assert "conll_eval validate" not in text
    import pty
    master, slave = pty.openpty()  # stdin a terminal, no FILE
    try:
        status, text = _dropin(function, [], stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert status == 2 and f"pipe a file into '{name} -'" in text, text
    assert "conll_eval validate" not in text


def test_validate_hints_keep_conll_eval_validate_in_process():
    status, _, err = run("validate", "-e", "FOO", EXAMPLE)
    assert status == 2 and "(conll_eval validate -e ID -- FILE)" in err


def test_breakdown_says_why_an_enhanced_column_means_nothing(trio):
    status, out, _ = run("breakdown", trio[0], trio[1], "--tables", "e")
    assert status == 0 and "0.00" not in out  # the system has DEPS, the gold none: '-', not 0.00
    status, out, err = run("breakdown", trio[0], trio[1], "--tables", "e", "--fail-under", "ELAS=10")
    assert status == 2 and out == ""
    assert err == ("conll_eval breakdown: error [usage] --fail-under: ELAS=10: the gold file does not "
                   "annotate ELAS (every gold DEPS is _); a bar on it means nothing (drop it, or bar "
                   "another metric)\n")
    examples = EXAMPLE.parent  # annotated, but no word in E-REF: the other reason
    status, _, err = run("breakdown", examples / "elas-gold.conllu", examples / "elas-system.conllu",
                         "--tables", "e", "--fail-under", "E-REF=10")
    assert status == 2 and "(no gold and no system word in E-REF)" in err
