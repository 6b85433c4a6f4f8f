"""Issue 41, section 3, point 11: one word for one thing across the commands.

* a missing input is ``error [file-not-found] no such file or directory`` in every command
  (score, validate, suite, alignment), never ``no such file`` in one and the longer form in
  another;
* a bug has one code, ``internal`` (exit 3), in a pair's line and in a suite's failed
  treebank alike;
* docs/score.md names every code the scoring command prints and every option it has.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from conll_eval.cli import build_parser
from helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "testdata" / "example"
GOLD, SYSTEM = EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu"
SCORE_DOC = (ROOT / "docs" / "score.md").read_text(encoding="utf-8")


@pytest.fixture
def missing(tmp_path) -> Path:
    return tmp_path / "nowhere.conllu"


def _commands(missing: Path, tmp_path: Path) -> dict:
    """Each command given a path that does not exist, where it reads an input."""
    links = tmp_path / "gold.naacl"
    links.write_text("1 1 1 S\n", encoding="utf-8")
    return {"score": [GOLD, missing],
            "validate": ["validate", missing],
            "suite": ["suite", GOLD, missing],
            "alignment": ["alignment", links, missing]}


@pytest.mark.parametrize("command", ["score", "validate", "suite", "alignment"])
def test_a_missing_file_has_one_wording_in_every_command(command, missing, tmp_path):
    code, out, err = run_cli(*_commands(missing, tmp_path)[command])
    said = out + err  # validate reports its incidents on stdout
    assert code == 1
    assert f"{missing}: error [file-not-found] no such file or directory" in said, said
    assert said.count("no such file") == 1


def test_the_package_spells_a_missing_file_one_way():
    """No message of the package says ``no such file`` without ``or directory`` (MaltEval's
    and mooteval's own texts, ``No such file or directory``, are the OS's words too)."""
    short = re.compile(r"no such file(?! or directory)", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "conll_eval").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if short.search(line)]
    assert found == []


def test_a_bug_is_internal_in_a_pair_and_in_a_suite(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(importlib.import_module("conll_eval.evaluate"), "evaluate_files", broken)
    code, _, err = run_cli(GOLD, SYSTEM)
    assert code == 3 and err.startswith("conll_eval: error [internal] internal error: RuntimeError: boom")
    monkeypatch.setattr(importlib.import_module("conll_eval.suite"), "evaluate", broken)
    code, out, err = run_cli("suite", GOLD, SYSTEM, "--format", "json", "-j", "1")
    assert code == 3
    assert '"code": "internal"' in out and "[internal] RuntimeError: boom" in out + err
    assert "internal-error" not in out + err


def test_score_md_names_every_code_the_command_prints(tmp_path):
    broken = tmp_path / "broken.conllu"
    broken.write_text(GOLD.read_text(encoding="utf-8").replace("\t4\tnsubj", "\t99\tnsubj", 1),
                      encoding="utf-8")
    code, _, err = run_cli("--strict", GOLD, broken)
    printed = re.findall(r"conll_eval: error \[([a-z-]+)\]", err)
    assert code == 1 and printed == ["validation-failed"], err
    for name in ["validation-failed", "fail-under", "usage", "internal", "interrupted",
                 "write-failed", "file-not-found"]:
        assert f"`{name}`" in SCORE_DOC, name


def test_score_md_names_every_option_of_the_command():
    """Each option in one of its spellings (``-v`` for ``--verbose``)."""
    options = [action.option_strings for action in build_parser()._actions
               if action.option_strings and action.dest not in ("help", "version")]
    assert ["--exact-match"] in options
    assert [flags for flags in options if not any(f"`{flag}" in SCORE_DOC for flag in flags)] == []
