"""Issue 41, section 3, point 11: one word for one thing across the commands.

* a missing input is ``error [file-not-found] no such file or directory`` in every command
  (score, validate, suite, alignment), never ``no such file`` in one and the longer form in
  another;
* a bug has one code, ``internal`` (exit 3), in a pair's line and in a suite's failed
  treebank alike;
* docs/score.md names every code the scoring command prints and every option it has;
* ``compare`` has ``-q`` as every command has it, and a gate as ``score`` and ``suite`` have
  theirs: ``--fail-unless-better`` (exit 1 unless the first system is significantly better
  than each system it is tested against, on every metric).
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from conll_eval.cli import build_parser
from helpers import document, run_cli, sentence

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


# --- compare: -q as in every command, and a gate (--fail-unless-better) -------------------

def _compare_files(tmp_path) -> dict:
    """gold (30 sentences of four words), ``good`` = gold, ``bad`` = every sentence's first
    word attached to the wrong head (LAS 75.00), ``alsogood`` = gold too."""
    def one(k: int, head: str) -> str:
        return sentence(f"1 a{k} {head} nsubj", f"2 b{k} 0 root", f"3 c{k} 2 obj", f"4 d{k} 2 punct")
    files = {"gold": document(*(one(k, "2") for k in range(30))),
             "bad": document(*(one(k, "3") for k in range(30)))}
    files["good"] = files["alsogood"] = files["gold"]
    paths = {}
    for name, text in files.items():
        paths[name] = tmp_path / f"{name}.conllu"
        paths[name].write_text(text, encoding="utf-8")
    return paths


def test_fail_unless_better_passes_when_the_first_system_wins_everywhere(tmp_path):
    files = _compare_files(tmp_path)
    code, out, err = run_cli("compare", files["gold"], files["good"], files["bad"],
                             "--fail-unless-better", "--metrics", "LAS,UAS", "--resamples", "200")
    assert code == 0 and "not-better" not in err and out.startswith("F1 in %")


def test_fail_unless_better_fails_on_a_tie_and_on_the_worse_side(tmp_path):
    files = _compare_files(tmp_path)
    code, out, err = run_cli("compare", files["gold"], files["good"], files["alsogood"],
                             files["bad"], "--fail-unless-better", "--metrics", "LAS",
                             "--resamples", "200")
    lines = err.splitlines()
    assert code == 1 and out.startswith("F1 in %")
    assert lines == ["conll_eval compare: error [not-better] LAS: good - alsogood +0.00 "
                     "[+0.00, +0.00]: no better (corrected p: bootstrap 1.0000, randomization "
                     "1.0000, mcnemar 1.0000; alpha 0.05)"], err
    code, _, err = run_cli("compare", files["gold"], files["bad"], files["good"],
                           "--fail-unless-better", "--metrics", "LAS", "--resamples", "200")
    assert code == 1 and err.startswith("conll_eval compare: error [not-better] LAS: bad - good "
                                        "-25.00 [") and "significantly worse" in err


def test_fail_unless_better_with_a_baseline_tests_the_first_system_against_it(tmp_path):
    files = _compare_files(tmp_path)
    argv = ["compare", files["gold"], files["good"], files["alsogood"], files["bad"],
            "--fail-unless-better", "--metrics", "LAS", "--resamples", "200"]
    assert run_cli(*argv, "--baseline", "bad")[0] == 0  # good against bad only
    assert run_cli(*argv, "--baseline", "alsogood")[0] == 1


def test_compare_quiet_prints_nothing_and_keeps_the_status(tmp_path):
    files = _compare_files(tmp_path)
    argv = ["compare", files["gold"], files["bad"], files["good"], "--metrics", "LAS",
            "--resamples", "100", "-q"]
    assert run_cli(*argv) == (0, "", "")
    assert run_cli(*argv, "--fail-unless-better") == (1, "", "")
    assert run_cli(*argv, "--format", "csv") == (0, "", "")  # no signature on stderr either
    missing = tmp_path / "missing.conllu"
    assert run_cli("compare", files["gold"], files["good"], missing, "-q") == (1, "", "")
    output = tmp_path / "out.json"
    assert run_cli(*argv, "--format", "json", "-o", output) == (0, "", "")
    assert '"signature"' in output.read_text(encoding="utf-8")  # -o is still written


# --- the signature: one default and one switch in score and suite -------------------------

@pytest.mark.parametrize("command", [[], ["suite"]])
def test_the_signature_is_printed_on_request_in_score_and_suite_alike(command):
    """Off by default in text and TSV (score's text is the official script's), ``--signature``
    adds it: text a last line, TSV a first '# ' line, CSV on stderr; JSON and Markdown always."""
    argv = [*command, GOLD, SYSTEM, "--metrics", "LAS"]

    def run(*extra):
        code, out, err = run_cli(*argv, *extra)
        assert code == 0, err
        return out, err
    for fmt in ("text", "tsv", "csv"):
        out, err = run("--format", fmt)
        assert "conll_eval:0" not in out + err, fmt
    text, _ = run("--signature")
    assert re.fullmatch(r"conll_eval:0\.[^\n]*\|profile:conll18\|[^\n]*", text.splitlines()[-1])
    assert text.startswith(run()[0].rstrip("\n"))
    tsv, _ = run("--format", "tsv", "--signature")
    assert tsv.startswith("# conll_eval:0.") and tsv.split("\n", 1)[1] == run("--format", "tsv")[0]
    csv_out, csv_err = run("--format", "csv", "--signature")
    assert csv_out == run("--format", "csv")[0] and csv_err.startswith("conll_eval:0.")
    for fmt in ("json", "markdown"):
        assert run("--format", fmt)[0] == run("--format", fmt, "--signature")[0]
        assert "conll_eval:0." in run("--format", fmt)[0]


def test_suite_significance_follows_the_same_switch():
    argv = ["suite", GOLD, SYSTEM, SYSTEM, "--names", "a,b", "--significance", "--metrics",
            "LAS", "--resamples", "20"]
    code, out, _ = run_cli(*argv)
    assert code == 0 and "conll_eval:0" not in out and "bootstrap intervals" in out
    code, out, _ = run_cli(*argv, "--signature")
    assert out.count("\nconll_eval:0.") == 2  # the leaderboard's, then the tests'
    assert out.splitlines()[-1].endswith("|correction:holm")


def test_compare_follows_the_same_switch(tmp_path):
    files = _compare_files(tmp_path)
    argv = ["compare", files["gold"], files["good"], files["bad"], "--metrics", "LAS",
            "--resamples", "50"]
    for fmt in ("text", "tsv", "csv"):
        code, out, err = run_cli(*argv, "--format", fmt)
        assert code == 0 and "conll_eval:0" not in out + err, fmt
    _, text, _ = run_cli(*argv, "--signature")
    assert text.splitlines()[-1].startswith("conll_eval:0.") and text.endswith("|correction:holm\n")
    _, tsv, _ = run_cli(*argv, "--format", "tsv", "--signature")
    assert tsv.startswith("# conll_eval:0.")
    _, csv_out, csv_err = run_cli(*argv, "--format", "csv", "--signature")
    assert csv_out.startswith("metric,") and csv_err.startswith("conll_eval:0.")
    for fmt in ("json", "markdown"):
        assert "conll_eval:0." in run_cli(*argv, "--format", fmt)[1]


@pytest.mark.parametrize("extra", [[], ["--errors"]])
def test_breakdown_follows_the_same_switch(extra):
    argv = ["breakdown", GOLD, SYSTEM, *extra]
    for fmt in ("text", "tsv", "csv"):
        code, out, err = run_cli(*argv, "--format", fmt)
        assert code == 0 and "conll_eval:0" not in out + err, fmt
    code, plain, _ = run_cli(*argv)
    _, text, _ = run_cli(*argv, "--signature")
    assert text.startswith(plain) and re.fullmatch(r"conll_eval:0\.[^\n]*\|breakdown:[^\n]*\n",
                                                   text[len(plain):])
    _, tsv, _ = run_cli(*argv, "--format", "tsv", "--signature")
    assert tsv.startswith("# conll_eval:0.") and tsv.split("\n", 1)[1] == run_cli(*argv, "--format", "tsv")[1]
    _, csv_out, csv_err = run_cli(*argv, "--format", "csv", "--signature")
    assert csv_out == run_cli(*argv, "--format", "csv")[1] and csv_err.startswith("conll_eval:0.")
    for fmt in ("json", "markdown"):
        assert "conll_eval:0." in run_cli(*argv, "--format", fmt)[1]


ALIGNMENT = ROOT / "testdata" / "word-alignment"


def test_alignment_follows_the_same_switch_and_takes_quiet(tmp_path):
    argv = ["alignment", ALIGNMENT / "gold.naacl", ALIGNMENT / "system.pharaoh"]
    for fmt in ("text", "tsv", "csv"):
        code, out, err = run_cli(*argv, "--format", fmt)
        assert code == 0 and "conll_eval:0" not in out + err, fmt
    _, plain, _ = run_cli(*argv)
    _, text, _ = run_cli(*argv, "--signature")
    assert text == plain + "\nconll_eval:0.1.0|alignment|gold:naacl|system:pharaoh|null:keep\n"
    _, tsv, _ = run_cli(*argv, "--format", "tsv", "--signature")
    assert tsv == "# conll_eval:0.1.0|alignment|gold:naacl|system:pharaoh|null:keep\n" + \
        run_cli(*argv, "--format", "tsv")[1]
    _, csv_out, csv_err = run_cli(*argv, "--format", "csv", "--signature")
    assert csv_err == "conll_eval:0.1.0|alignment|gold:naacl|system:pharaoh|null:keep\n"
    assert run_cli(*argv, "-q") == (0, "", "")
    assert run_cli("alignment", ALIGNMENT / "gold.naacl", tmp_path / "none.pharaoh", "-q") == (1, "", "")
    output = tmp_path / "scores.json"
    assert run_cli(*argv, "-q", "--format", "json", "-o", output) == (0, "", "")
    assert '"signature"' in output.read_text(encoding="utf-8")


def test_the_conllu_tagger_takes_quiet(tmp_path):
    assert run_cli("tagger", GOLD, SYSTEM, "-q") == (0, "", "")
    assert run_cli("tagger", "--conllu", GOLD, tmp_path / "none.conllu", "-q") == (1, "", "")
    assert run_cli("tagger", GOLD, SYSTEM, "-q", "--format", "csv", "--signature") == (0, "", "")
    output = tmp_path / "tags.json"
    assert run_cli("tagger", GOLD, SYSTEM, "-q", "--format", "json", "-o", output) == (0, "", "")
    assert '"signature"' in output.read_text(encoding="utf-8")
