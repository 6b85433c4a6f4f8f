"""Issue 41, 3.1: a suite's averages are means of the unrounded F1 scores (the shared tasks'
wrapper's ``total-*-F1``), so averaging the printed column again can be 0.01 off; the text and
Markdown tables say so in a line under the table, and no output that must match the wrapper
byte for byte gets that line."""
import json
from pathlib import Path

import pytest

from conll_eval.report.suite import AVERAGE_NOTE

from helpers import document, run_cli, sentence

SUITE = Path(__file__).resolve().parent.parent / "testdata" / "suite"


@pytest.fixture
def halves_and_thirds(tmp_path):
    """Two treebanks whose LAS is 1/2 (50.00) and 1/3 (33.33): their mean, 5/12, prints as
    41.67, the mean of the printed numbers is 41.665."""
    files = {"a": (sentence("1 a 0 root", "2 b 1 dep"), sentence("1 a 0 root", "2 b 1 obj")),
             "b": (sentence("1 a 0 root", "2 b 1 dep", "3 c 1 dep"),
                   sentence("1 a 0 root", "2 b 1 obj", "3 c 1 obj"))}
    for side, index in (("gold", 0), ("system", 1)):
        (tmp_path / side).mkdir()
        for name, pair in files.items():
            (tmp_path / side / f"xx_{name}.conllu").write_text(document(pair[index]), encoding="utf-8")
    return tmp_path / "gold", tmp_path / "system"


def test_the_macro_average_is_the_mean_of_the_unrounded_scores(halves_and_thirds):
    gold, system = halves_and_thirds
    code, out, _ = run_cli("suite", gold, system, "--metrics", "LAS")
    lines = out.splitlines()
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(("xx_", "Macro"))}
    assert (rows["xx_a"][1], rows["xx_b"][1], rows["Macro"][2]) == ("50.00", "33.33", "41.67")
    assert (50.00 + 33.33) / 2 == pytest.approx(41.665)  # what re-averaging the column gives
    macro_row = next(i for i, line in enumerate(lines) if line.startswith("Macro"))
    assert lines[macro_row + 1] == AVERAGE_NOTE and code == 0
    record = json.loads(run_cli("suite", gold, system, "--metrics", "LAS", "--format", "json")[1])
    assert record["macro"]["LAS"]["f1"] == pytest.approx(5 / 12, abs=1e-12)


def test_the_note_is_under_the_text_and_markdown_tables_only(halves_and_thirds):
    gold, system = halves_and_thirds
    markdown = run_cli("suite", gold, system, "--metrics", "LAS", "--format", "markdown")[1]
    assert f"| **Macro (2)** | **41.67** |        |\n\n{AVERAGE_NOTE}\n" in markdown
    board = run_cli("suite", gold, system, system, "--names", "p,q", "--metrics", "LAS")[1].splitlines()
    assert board[0] == "Ranked by macro LAS F1 over 2 treebanks"
    assert [row.split()[1:] for row in board[3:5]] == [["p", "41.67", "0"], ["q", "41.67", "0"]]
    assert board[5] == AVERAGE_NOTE and board.count(AVERAGE_NOTE) == 1
    for fmt in ("tsv", "csv", "json"):
        assert AVERAGE_NOTE not in run_cli("suite", gold, system, "--format", fmt)[1], fmt


def test_the_wrappers_layout_stays_byte_for_byte(tmp_path):
    code, out, err = run_cli("suite", "--metadata", SUITE / "metadata-2018.json", SUITE / "gold",
                             SUITE / "system", "--tira", tmp_path / "out")
    written = (tmp_path / "out" / "evaluation.prototext").read_text(encoding="utf-8")
    assert code == 0 and "unrounded" not in out + err + written
    assert out.splitlines()[0] == ("en_cats       LAS= 75.00% MLAS=100.00% BLEX=100.00% (OK: "
                                   "Result F1 scores rounded to 5% are LAS=75% MLAS=100% BLEX=100%)")


def test_an_average_of_one_treebank_needs_no_note(tmp_path):
    code, out, _ = run_cli("suite", SUITE / "gold" / "en_cats.conllu", SUITE / "system" / "en_cats.conllu")
    assert code == 0 and "Macro (1)" in out and AVERAGE_NOTE not in out


def test_the_suite_page_says_how_the_average_is_computed():
    page = (Path(__file__).resolve().parent.parent / "docs" / "suite.md").read_text(encoding="utf-8")
    assert "unrounded F1 scores" in page and "can differ from it by\n0.01" in page
