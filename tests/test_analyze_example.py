"""The README's worked example (testdata/analyze-example): raw-text parser output analysed
on the CoNLL 2018 word alignment; the stored outputs are what the README shows and explains."""
import io
from pathlib import Path

import pytest

from conll_eval.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "testdata" / "analyze-example"
README = Path(__file__).resolve().parent.parent / "docs" / "analyze.md"  # the README's text moved there


@pytest.mark.parametrize("name, args", [
    ("cpostag", ["--Metric", "LAS;UAS", "--GroupBy", "Cpostag:all"]),
    ("sentence", ["--GroupBy", "Sentence:accuracy|exactmatch|correctcounter|includedtokenscount"
                  "|isparserconnected", "--details", "1"]),
])
def test_worked_example(name, args, monkeypatch):
    monkeypatch.chdir(EXAMPLE)
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["analyze", "-s", "system.conllu", "-g", "gold.conllu", *args, "--header-info", "0"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    expected = (EXAMPLE / f"{name}.out").read_text(encoding="utf-8")
    assert stdout.getvalue() == expected
    assert expected in README.read_text(encoding="utf-8")  # the README shows this very output
