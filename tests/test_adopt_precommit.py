"""Issue 32 part 3: the ``conll-eval-validate`` pre-commit hook, run by the ``pre-commit`` package.

A temporary git repository whose ``.pre-commit-config.yaml`` names this repository at its
committed HEAD (what a user gets: pre-commit clones the repository and installs the package
from it into its own environment) passes with a good ``.conllu`` and fails with a broken one,
naming ``file:line``.  Slow: pre-commit builds the package (its compiled core) into a venv.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
MANIFEST = ".pre-commit-hooks.yaml"
GOOD = PROJECT / "testdata" / "example" / "gold.conllu"

pytestmark = pytest.mark.slow


def _pre_commit() -> list:
    """How to run pre-commit: this interpreter's package, else one on PATH, else skip."""
    if find_spec("pre_commit") is not None:
        return [sys.executable, "-m", "pre_commit"]
    found = shutil.which("pre-commit")
    if found is None:
        pytest.skip("the pre-commit package is not installed (pip install 'conll_eval[dev]')")
    return [found]


def _git(*args: str, cwd: Path, env: dict) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout


def _broken(text: str) -> str:
    """``text`` with the first word's HEAD pointing at a word its sentence lacks (line 3)."""
    lines = text.split("\n")
    columns = lines[2].split("\t")
    assert len(columns) == 10 and columns[0] == "1", "the example's first word is on line 3"
    columns[6] = "99"
    lines[2] = "\t".join(columns)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def environment(tmp_path_factory) -> dict:
    env = dict(os.environ, GIT_AUTHOR_NAME="test", GIT_AUTHOR_EMAIL="test@example.org",
               GIT_COMMITTER_NAME="test", GIT_COMMITTER_EMAIL="test@example.org",
               PRE_COMMIT_HOME=str(tmp_path_factory.mktemp("pre-commit-home")),
               PRE_COMMIT_COLOR="never")
    env.pop("GIT_DIR", None)
    env.pop("GIT_INDEX_FILE", None)
    return env


@pytest.fixture(scope="module")
def treebank_repo(tmp_path_factory, environment) -> Path:
    """A git repository with the example file and a config naming this repository's HEAD."""
    changed = subprocess.run(["git", "status", "--porcelain", "--", MANIFEST], cwd=PROJECT,
                             capture_output=True, text=True, env=environment)
    if changed.returncode != 0:
        pytest.skip(f"{PROJECT} is not a git checkout: pre-commit clones the hook's repository")
    assert changed.stdout == "", f"commit {MANIFEST} first: pre-commit uses the committed one"
    head = _git("rev-parse", "HEAD", cwd=PROJECT, env=environment).strip()
    repo = tmp_path_factory.mktemp("treebank")
    _git("init", "-q", cwd=repo, env=environment)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {PROJECT}\n  rev: {head}\n  hooks:\n  - id: conll-eval-validate\n",
        encoding="utf-8")
    shutil.copyfile(GOOD, repo / "good.conllu")
    _git("add", ".", cwd=repo, env=environment)
    return repo


def _run(repo: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([*_pre_commit(), "run", "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=1800)


def test_a_good_file_passes(treebank_repo, environment):
    result = _run(treebank_repo, environment)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "conll_eval validate" in result.stdout and "Passed" in result.stdout


def test_a_broken_file_fails_with_its_line(treebank_repo, environment):
    broken = treebank_repo / "sub" / "broken.conllu"
    broken.parent.mkdir()
    broken.write_text(_broken(GOOD.read_text(encoding="utf-8")), encoding="utf-8")
    _git("add", ".", cwd=treebank_repo, env=environment)
    try:
        result = _run(treebank_repo, environment)
    finally:
        _git("rm", "-q", "--cached", "sub/broken.conllu", cwd=treebank_repo, env=environment)
        broken.unlink()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Failed" in result.stdout
    assert f"sub{os.sep}broken.conllu:3: error [L2 syntax unknown-head]" in result.stdout, \
        result.stdout
    assert "good.conllu:" not in result.stdout  # only the broken file has a finding


def test_the_hooks_level_and_language_arguments(treebank_repo, environment):
    """``args: [--level, "3", ...]`` reach ``conll_eval validate``: level 3 finds what 2 does not."""
    config = treebank_repo / ".pre-commit-config.yaml"
    original = config.read_text(encoding="utf-8")
    retagged = treebank_repo / "retagged.conllu"
    text = GOOD.read_text(encoding="utf-8")
    # a determiner tagged NOUN: well-formed (level 2), against the guidelines (level 3)
    retagged.write_text(text.replace("\tDET\t", "\tNOUN\t", 1), encoding="utf-8")
    _git("add", ".", cwd=treebank_repo, env=environment)
    try:
        passed = _run(treebank_repo, environment)
        config.write_text(original + '    args: [--level, "3", --lang, en]\n', encoding="utf-8")
        _git("add", ".", cwd=treebank_repo, env=environment)
        failed = _run(treebank_repo, environment)
    finally:
        config.write_text(original, encoding="utf-8")
        _git("rm", "-q", "--cached", "retagged.conllu", cwd=treebank_repo, env=environment)
        _git("add", ".", cwd=treebank_repo, env=environment)
        retagged.unlink()
    assert passed.returncode == 0, passed.stdout
    assert failed.returncode == 1 and "retagged.conllu:3: error [L3 " in failed.stdout, failed.stdout
