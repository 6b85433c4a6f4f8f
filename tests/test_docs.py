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


def _readme_examples(readme: Path, directory: Path) -> Path:
    """The README's "One example per command" section as a page of its own."""
    text = readme.read_text(encoding="utf-8")
    start = text.index("## One example per command\n")
    end = text.find("\n## ", start + 1)
    page = directory / "readme-examples.md"
    page.write_text(text[start:end if end >= 0 else len(text)], encoding="utf-8")
    return page


def test_the_readme_examples_run_as_printed_in_the_examples_folder(tmp_path):
    """``cd examples`` in a clone, then every command of the README's examples as printed: they
    run in a copy of the shipped folder alone (no ``testdata`` beside it), nothing made for
    them."""
    page = _readme_examples(PAGES[0], tmp_path)
    folder = make_sandbox(tmp_path / "examples", testdata=False)
    ran, skipped = check_page(page, folder)
    assert ran >= 8 and skipped == []
    assert "(`cd examples`)" in page.read_text(encoding="utf-8")


def test_a_file_the_readme_examples_need_missing_from_the_folder_fails(tmp_path):
    page = _readme_examples(PAGES[0], tmp_path)
    folder = make_sandbox(tmp_path / "examples", testdata=False)
    (folder / "parser-b.conllu").unlink()
    with pytest.raises(ExampleFailure):
        check_page(page, folder)


#: the files of examples/ that are copies of testdata/ files (the tests' own), kept equal
COPIES = {"gold.conllu": "example/gold.conllu", "system.conllu": "example/system.conllu",
          "parser-a.conllu": "example/system.conllu", "tb.conllu": "example/gold.conllu",
          "raw/parser-a.conllu": "example/system.conllu", "raw/parser-b.conllu": None,
          "GOLD_DIR/en_cats.conllu": "suite/gold/en_cats.conllu",
          "GOLD_DIR/en_dogs.conllu": "suite/gold/en_dogs.conllu",
          "SYSTEM_DIR/en_cats.conllu": "suite/system/en_cats.conllu",
          "SYSTEM_DIR/en_dogs.conllu": "suite/system/en_dogs.conllu",
          "parser-a/en_cats.conllu": "suite/system/en_cats.conllu",
          "parser-a/en_dogs.conllu": "suite/system/en_dogs.conllu",
          "parser-b/en_cats.conllu": "suite/gold/en_cats.conllu",
          "parser-b/en_dogs.conllu": "suite/gold/en_dogs.conllu",
          "gold.wd": "tagger/gold.wd", "system.wd": "tagger/system.wd", "gold.tt": "tagger/gold.tt",
          "system.tt": "tagger/system-short.tt", "gold.naacl": "word-alignment/gold.naacl",
          "system.pharaoh": "word-alignment/system.pharaoh",
          "poor.pharaoh": "word-alignment/poor.pharaoh", "source.txt": "word-alignment/source.txt",
          "target.txt": "word-alignment/target.txt"}


def test_the_examples_folder_is_listed_and_its_copies_are_equal():
    """Every file of examples/ is in its README's table, and the copies of testdata/ files
    are byte for byte the files the tests use (``raw/parser-b.conllu``: ``parser-b.conllu``)."""
    folder = PROJECT / "examples"
    listing = (folder / "README.md").read_text(encoding="utf-8")
    for path in folder.rglob("*"):
        if path.is_file() and path.name != "README.md":
            name = path.relative_to(folder).as_posix()
            assert f"`{name.split('/')[0] + '/' if '/' in name else name}`" in listing, name
    for name, source in COPIES.items():
        original = folder / "parser-b.conllu" if source is None else PROJECT / "testdata" / source
        assert (folder / name).read_bytes() == original.read_bytes(), name


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
