"""Issue 41, section 4: ``--format latex`` (booktabs tabulars for papers) wherever Markdown is
offered: exact snippets on small inputs, hostile names escaped in every cell, the output
compiled with pdflatex where it is installed, and no command offering one format without
the other."""
import os
import re
import shutil
import subprocess

import pytest

from conll_eval import __version__
from conll_eval.cli.completion import command_specs
from conll_eval.report.escape import latex_text
from conll_eval.report.latex import latex_table
from conll_eval.report.tables import Num

from helpers import document, run_cli, sentence

#: the ten characters TeX acts on, and what the escaping writes for each
HOSTILE = "x_&%$#{}\\^~"
HOSTILE_LATEX = ("x\\_\\&\\%\\$\\#\\{\\}\\textbackslash{}\\textasciicircum{}"
                 "\\textasciitilde{}")
#: every escape :func:`latex_text` writes: what is left of a cell without them holds no
#: character TeX would act on
ESCAPES = re.compile(r"\\textbackslash\{\}|\\textasciicircum\{\}|\\textasciitilde\{\}|"
                     r"\\textless\{\}|\\textgreater\{\}|\\textbar\{\}|\\[{}$&#_%]|\{\[\}|\{\]\}")
SIGNATURE_START = f"% conll_eval:{__version__}|profile:conll18|"


def _pair(write):
    gold = document(
        sentence("1 Cats 2 nsubj NOUN", "2 sleep 0 root VERB", "3 . 2 punct PUNCT",
                 comments=["# sent_id = s1", "# text = Cats sleep."]),
        sentence("1 Dogs 2 nsubj NOUN", "2 bark 0 root VERB",
                 comments=["# sent_id = s2", "# text = Dogs bark"]))
    system = document(sentence("1 Cats 2 obj NOUN", "2 sleep 0 root VERB", "3 . 2 punct PUNCT"),
                      sentence("1 Dogs 2 nsubj VERB", "2 bark 0 root VERB"))
    return write("gold.conllu", gold), write("system.conllu", system)


def _cells(line: str):
    """The cells of a tabular row (an escaped ``\\&`` stays in its cell)."""
    assert line.endswith(" \\\\"), line
    return re.split(r"(?<!\\) & ", line[:-3])


def _assert_safe(cell: str):
    left = ESCAPES.sub("", cell)
    assert not set(left) & set("\\{}$&#^_~%[]"), (cell, left)


def test_latex_text_escapes_every_special_character():
    assert latex_text(HOSTILE) == HOSTILE_LATEX
    assert latex_text("[a]<b>|c") == "{[}a{]}\\textless{}b\\textgreater{}\\textbar{}c"
    # control characters spelt out first (then their backslash escaped); UTF-8 letters kept
    assert latex_text("a\nb\x1bc") == "a\\textbackslash{}nb\\textbackslash{}x1bc"
    assert latex_text("čeština_ü") == "čeština\\_ü"


def test_score_latex_is_the_verbose_table_with_n_a_and_the_signature(write):
    gold, system = _pair(write)
    code, out, _ = run_cli(gold, system, "--format", "latex", "--metrics", "LAS,UPOS,XPOS")
    assert code == 0
    lines = out.splitlines()
    assert lines[:-1] == [
        "\\begin{tabular}{lrrrr}",
        "\\toprule",
        "Metric & Precision & Recall & F1 Score & AligndAcc \\\\",
        "\\midrule",
        "LAS & 80.00 & 80.00 & 80.00 & 80.00 \\\\",
        "UPOS & 80.00 & 80.00 & 80.00 & 80.00 \\\\",
        "XPOS & n/a & n/a & n/a & n/a \\\\",  # the gold file has no XPOS
        "\\bottomrule",
        "\\end{tabular}",
    ]
    assert lines[-1].startswith(SIGNATURE_START) and out.endswith("\n")


def test_latex_table_rules_alignment_and_row_starts():
    lines = latex_table(["Treebank", "LAS", "Status"],
                        [["*a", Num("75.00"), "ok"], ["[b]", Num("0.00", "!"), "failed"],
                         ["Macro (2)", Num("37.50"), ""]],
                        left=(0, 2), rules_before=[2])
    assert lines == [
        "\\begin{tabular}{lrl}", "\\toprule", "Treebank & LAS & Status \\\\", "\\midrule",
        # after '\\' a '*' or '[' would be read as the row end's star or optional argument
        "{}*a & 75.00 & ok \\\\", "{[}b{]} & 0.00! & failed \\\\", "\\midrule",
        "Macro (2) & 37.50 &  \\\\", "\\bottomrule", "\\end{tabular}"]


def _suite_dirs(tmp_path, name: str, gold_text: str, system_text: str):
    gold_dir, system_dir = tmp_path / "gold", tmp_path / "system"
    gold_dir.mkdir()
    system_dir.mkdir()
    for directory, text in ((gold_dir, gold_text), (system_dir, system_text)):
        (directory / f"{name}.conllu").write_text(text, encoding="utf-8")
        (directory / "en_ok.conllu").write_text(gold_text, encoding="utf-8")
    return str(gold_dir), str(system_dir)


def test_suite_latex_escapes_a_hostile_treebank_name(tmp_path, write):
    gold, system = _pair(write)
    with open(gold, encoding="utf-8") as f:
        gold_text = f.read()
    with open(system, encoding="utf-8") as f:
        system_text = f.read()
    name = HOSTILE + "\x1b[31m"
    gold_dir, system_dir = _suite_dirs(tmp_path, name, gold_text, system_text)
    code, out, err = run_cli("suite", gold_dir, system_dir, "--format", "latex", "--metrics", "LAS,UPOS")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.endswith("\\\\")]
    assert rows == [
        "Treebank & LAS & UPOS & Status \\\\",
        "en\\_ok & 100.00 & 100.00 & ok \\\\",
        HOSTILE_LATEX + "\\textbackslash{}x1b{[}31m & 80.00 & 80.00 & ok \\\\",
        "Macro (2) & 90.00 & 90.00 &  \\\\"]
    for row in rows:
        for cell in _cells(row):
            _assert_safe(cell)
    assert "\x1b" not in out and out.splitlines()[-1].startswith(SIGNATURE_START)


def test_suite_latex_leaderboard_and_notes_are_comments(tmp_path, write):
    gold, system = _pair(write)
    with open(gold, encoding="utf-8") as f:
        gold_text = f.read()
    gold_dir, system_dir = _suite_dirs(tmp_path, "fr_x", gold_text, "not conllu\n")
    other = tmp_path / "other"
    other.mkdir()
    for name in ("fr_x", "en_ok"):
        (other / f"{name}.conllu").write_text(gold_text, encoding="utf-8")
    code, out, err = run_cli("suite", gold_dir, system_dir, str(other), "--format", "latex",
                             "--metrics", "LAS")
    assert code == 1  # a treebank failed
    blocks = out.split("\n\n")
    assert blocks[0].splitlines()[0] == "% Ranked by macro LAS F1 over 2 treebanks"
    assert "1 & other & 100.00 & 0 \\\\" in blocks[0].splitlines()
    assert "2 & system & 50.00 & 1 \\\\" in blocks[0].splitlines()
    assert blocks[1].splitlines()[0] == "% LAS F1 per treebank"
    assert "fr\\_x & 100.00 & 0.00! \\\\" in blocks[1].splitlines()  # ranked: other first
    for line in out.splitlines():  # every line is a comment or a line of a tabular
        assert line.startswith(("% ", "\\")) or line.endswith(" \\\\") or not line, line
    assert any(line.startswith("% system: Failed treebanks") for line in out.splitlines())


def test_compare_breakdown_tagger_latex(write):
    gold, system = _pair(write)
    code, out, err = run_cli("compare", gold, system, gold, "--names", "a_1,b&2", "--format",
                             "latex", "--metrics", "LAS", "--resamples", "20")
    assert code == 0, err
    assert "system & LAS \\\\" in out
    assert any(line.startswith("b\\&2 & 100.00 {[}") for line in out.splitlines())
    assert "a\\_1 - b\\&2 & -20.00 & " in out
    assert out.splitlines()[0].startswith("% warning: only 2 gold sentence(s)")
    code, out, err = run_cli("breakdown", gold, system, "--format", "latex")
    assert code == 0, err
    assert out.startswith("% Table 2: LAS by relation group")
    assert "\\begin{tabular}{lrrrrrrrr}" in out and out.count("\\bottomrule") == 2
    code, out, err = run_cli("tagger", gold, system, "--format", "latex")
    assert code == 0, err
    assert "UPOS & 4 & 5 & 5 & 5 & 80.00 & 80.00 & 80.00 & 80.00 \\\\" in out
    assert "XPOS & 5 & 5 & 5 & 5 & n/a & n/a & n/a & n/a \\\\" in out


def test_alignment_latex(write):
    gold = write("gold.naacl", "1 1 1 S\n1 2 2 P\n")
    system = write("system.naacl", "1 1 1\n1 2 1\n")
    code, out, err = run_cli("alignment", gold, system, "--format", "latex", "--per-sentence")
    assert code == 0, err
    assert out.startswith("% Word alignment against ")
    assert out.count("\\begin{tabular}") == 2  # the scores and the per-sentence counts
    assert "% Per sentence: system" in out


def test_every_command_offering_markdown_offers_latex():
    offering = {}
    for name, spec in command_specs().items():
        for option in spec.options:
            if "markdown" in option.choices:
                offering.setdefault(name, set()).update(option.choices)
    # the commands known to have Markdown today: the discovery above must find them all
    assert {"score", "suite", "breakdown", "compare", "tagger", "alignment"} <= set(offering)
    assert [name for name, choices in offering.items() if "latex" not in choices] == []


@pytest.mark.skipif(shutil.which("pdflatex") is None,
                    reason="pdflatex is not installed (the LaTeX output is then checked by "
                           "its exact text and escaping only)")
def test_pdflatex_compiles_the_outputs(tmp_path, write):
    gold, system = _pair(write)
    snippets = [run_cli(gold, system, "--format", "latex")[1]]
    with open(gold, encoding="utf-8") as f:
        gold_text = f.read()
    gold_dir, system_dir = _suite_dirs(tmp_path, HOSTILE + "[*]<|>", gold_text, gold_text)
    snippets.append(run_cli("suite", gold_dir, system_dir, "--format", "latex")[1])
    snippets.append(run_cli("compare", gold, system, gold, "--format", "latex", "--names",
                            "*a,[b]", "--resamples", "20")[1])
    for k, snippet in enumerate(snippets):
        (tmp_path / f"t{k}.tex").write_text(snippet, encoding="utf-8")
    body = "\n\n".join(f"\\input{{t{k}.tex}}" for k in range(len(snippets)))
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        f"{body}\n\\end{{document}}\n", encoding="utf-8")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    assert os.path.exists(tmp_path / "paper.pdf")

