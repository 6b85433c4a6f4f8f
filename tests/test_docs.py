"""The docs' examples run and print what the pages show (README and docs/*.md); the extractor's
conventions (tests/docs_examples.py); the mkdocs site builds with --strict."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docs_examples import (PROJECT, Block, ExampleFailure, check_page, doc_pages, extract_blocks,
                           lines_match, make_sandbox, parse_console, parse_sh)

PAGES = doc_pages()


@pytest.fixture
def sandbox(tmp_path):
    return make_sandbox(tmp_path / "sandbox")


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_example_of_the_page_does_what_it_shows(page, sandbox):
    ran, skipped = check_page(page, sandbox)
    blocks = [b for b in extract_blocks(page.read_text(encoding="utf-8"))
              if b.language in ("console", "sh", "python", "pycon")]
    assert ran + len(skipped) == len(blocks)
    assert len(skipped) <= max(1, len(blocks) // 3), skipped  # skipping stays rare


def test_the_readme_under_test_is_short_and_keeps_the_quick_start():
    readme = PAGES[0]
    text = readme.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260
    assert "## Quick start\n" in text


def test_every_docs_page_is_in_the_site_navigation():
    nav = (PROJECT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (PROJECT / "docs").glob("*.md"):
        assert page.name in nav, page.name


def test_a_wrong_expected_output_in_a_copy_of_a_page_fails(tmp_path, sandbox):
    page = PROJECT / "docs" / "score.md"
    text = page.read_text(encoding="utf-8")
    assert "LAS F1 Score: 73.68\n" in text
    copy = tmp_path / "score.md"
    copy.write_text(text.replace("LAS F1 Score: 73.68\n", "LAS F1 Score: 73.69\n", 1), encoding="utf-8")
    with pytest.raises(ExampleFailure, match="73.69"):
        check_page(copy, sandbox)


def test_a_wrong_exit_status_or_stderr_fails(tmp_path, sandbox):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ conll_eval gold.conllu nonexistent.conllu\n```\n")
    with pytest.raises(ExampleFailure, match="exit 1, expected 0"):
        check_page(page, sandbox)
    page.write_text("```console\n$ conll_eval gold.conllu nonexistent.conllu  # exit 1\n"
                    "[stderr] conll_eval: no such thing\n```\n")
    with pytest.raises(ExampleFailure, match="expected stderr"):
        check_page(page, sandbox)


def test_a_failing_sh_or_python_or_pycon_example_fails(tmp_path, sandbox):
    page = tmp_path / "page.md"
    for body in ("```sh\nconll_eval nonexistent.conllu gold.conllu\n```\n",
                 "```python\nraise ValueError('no')\n```\n",
                 "```pycon\n>>> 1 + 1\n3\n```\n"):
        page.write_text(body)
        with pytest.raises(ExampleFailure):
            check_page(page, sandbox)


def test_right_examples_pass_and_skips_are_counted(tmp_path, sandbox):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ printf 'a\\nb\\nc\\n'\na\n...\nc\n$ echo x >&2; exit 3  # exit 3\n"
                    "[stderr] x\n```\n\n```sh\ntest -f gold.conllu\nfalse  # exit 1\n```\n\n"
                    "```python\nx = 2\n```\n\n```pycon\n>>> x * 3\n6\n```\n\n"
                    "<!-- docs-test: skip (needs a browser) -->\n```sh\nfirefox report.html\n```\n"
                    "\n```yaml\nnot: run\n```\n")
    ran, skipped = check_page(page, sandbox)
    assert ran == 4
    assert [reason.split(":", 2)[2] for reason in skipped] == [" needs a browser"]


def test_extract_blocks_reads_fences_languages_and_skip_marks():
    blocks = extract_blocks("text\n<!-- docs-test: skip (why) -->\n```sh\nls\n```\n\n````console\n"
                            "$ a\n```\n````\n```\nplain\n```\n")
    assert [(b.language, b.body, b.line, b.skip_reason) for b in blocks] == [
        ("sh", "ls\n", 4, "why"), ("console", "$ a\n```\n", 8, None), ("", "plain\n", 12, None)]
    with pytest.raises(ValueError, match="not closed"):
        extract_blocks("```sh\nls\n")


def test_a_skip_mark_applies_only_to_the_next_block():
    blocks = extract_blocks("<!-- docs-test: skip (why) -->\nsome text\n```sh\nls\n```\n")
    assert blocks[0].skip_reason is None


def test_parse_console_splits_commands_outputs_stderr_and_exit():
    commands = parse_console(Block("console", "$ a  # exit 2\nout\n[stderr] err\n$ b\n", 5))
    assert [(c.command, c.stdout, c.stderr, c.status, c.line) for c in commands] == [
        ("a", ["out"], ["err"], 2, 5), ("b", [], [], 0, 8)]
    with pytest.raises(ValueError, match="before the first"):
        parse_console(Block("console", "out\n$ a\n", 1))


def test_parse_sh_skips_comments_joins_continuations_and_reads_exit():
    block = Block("sh", "# a comment\n\nls -l \\\n  gold.conllu   # list it\nfalse # exit 1\n", 1)
    assert parse_sh(block) == [("ls -l    gold.conllu   # list it", 0, 3), ("false", 1, 5)]


@pytest.mark.parametrize("expected, actual, verdict", [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a", "..."], ["a"], True),
    (["a", "..."], ["a", "b", "c"], True),
    (["...", "c"], ["a", "b", "c"], True),
    (["a", "...", "c"], ["a", "c"], True),
    (["a", "...", "c"], ["a", "b"], False),
    (["a"], ["a", "b"], False),
])
def test_lines_match_with_ellipsis(expected, actual, verdict):
    assert lines_match(expected, actual) is verdict


def test_mkdocs_builds_the_site_strictly(tmp_path):
    mkdocs = shutil.which("mkdocs") or shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    result = subprocess.run([mkdocs, "build", "--strict", "-q", "-f", str(PROJECT / "mkdocs.yml"),
                             "-d", str(tmp_path / "site")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "site" / "index.html").exists()
