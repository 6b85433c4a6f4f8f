"""``conll_eval leaderboard publish DIR`` (issue 42, section 1): a static site of relative
links only, each resolving to a file of the site; every name escaped (a team called
``<script>"'&``); file names made safe; an earlier site replaced whole, any other directory
refused and left alone.  SQLite in a temporary directory, and PostgreSQL where
tests/pg_support.py finds a server; skipped without the leaderboard extra."""
import re
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from browser import Browser, find_chromium  # noqa: E402
from conll_eval.leaderboard.publish import SITE_MARKER, slug  # noqa: E402
from leaderboard_support import run  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HOSTILE = "<script>\"'&/../x"




@pytest.fixture
def board(tmp_path, database_url):
    url = database_url
    assert run("init", "--db", url, "--name", "Toy <b>task</b>", "--gold", str(EXAMPLES / "GOLD_DIR"),
               "--store", str(tmp_path / "store"))[0] == 0
    for team, system in ((HOSTILE, EXAMPLES / "SYSTEM_DIR"), ("Bravo", EXAMPLES / "parser-b")):
        assert run("team", "add", "--db", url, team)[0] == 0
        status, _, err = run("submit", "--db", url, "--team", team, str(system), "--label", "l&<i>")
        assert status == 0, err
    return url


def _links(page: str):
    return re.findall(r'(?:href|src)="([^"]*)"', page)


def test_the_site_has_every_page_and_its_links_resolve_to_its_files(board, tmp_path):
    site = tmp_path / "site"
    status, out, err = run("publish", "--db", board, str(site))
    assert (status, err) == (0, ""), err
    files = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert files == [SITE_MARKER, "index.html", "reports/submission-1.html", "reports/submission-2.html",
                     "teams/bravo-2.html", "teams/script-x-1.html", "treebanks/en-cats-1.html",
                     "treebanks/en-dogs-2.html"]
    checked = 0
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for link in _links(text):
            if link.startswith(("#", "data:")):
                continue
            assert "://" not in link and not link.startswith("/"), (page, link)
            target = (page.parent / unquote(link.split("#")[0])).resolve()
            assert target.is_file() and site.resolve() in target.parents, (page, link)
            checked += 1
    assert checked >= 12  # the index links every team, treebank and report


def test_every_name_is_escaped_and_no_page_runs_a_foreign_script(board, tmp_path):
    site = tmp_path / "site"
    assert run("publish", "--db", board, str(site), "--no-reports")[0] == 0
    assert not (site / "reports").exists()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "Content-Security-Policy" in text and "<script" not in text, page
        assert HOSTILE not in text and "<b>task" not in text and "l&<i>" not in text, page
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;&quot;&#x27;&amp;/../x" in index and "Toy &lt;b&gt;task&lt;/b&gt;" in index
    assert 'href="teams/script-x-1.html"' in index


def test_an_earlier_site_is_replaced_and_another_directory_refused(board, tmp_path):
    site = tmp_path / "site"
    assert run("publish", "--db", board, str(site), "--no-reports")[0] == 0
    (site / "stale.html").write_text("old")
    assert run("publish", "--db", board, str(site), "--no-reports")[0] == 0
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    status, _, err = run("publish", "--db", board, str(other))
    assert status == 1 and "error [not-a-site]" in err
    assert [p.name for p in other.iterdir()] == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".publish-")]  # no staging left
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("publish", "--db", board, str(empty), "--no-reports")[0] == 0
    assert (empty / "index.html").is_file()


def test_slugs_are_safe_file_names_and_unique_by_id():
    assert slug("en_EWT", 3) == "en-ewt-3"
    assert slug("Ünïcödé Team!", 7) == "unicode-team-7"
    assert slug("../..", 2) == "x-2" and slug("", 1) == "x-1"
    assert slug("日本語", 4) == "x-4"
    assert len(slug("a" * 500, 12)) == 40 + len("-12")
    assert re.fullmatch(r"[a-z0-9-]+", slug("<script>\"'&\x00\n", 9))


@pytest.mark.skipif(find_chromium() is None, reason="no Chromium (set CONLL_EVAL_CHROMIUM)")
def test_the_site_works_from_file_urls_in_chromium(board, tmp_path):
    site = tmp_path / "site"
    assert run("publish", "--db", board, str(site))[0] == 0
    with Browser(find_chromium()) as browser:
        browser.navigate((site / "index.html").as_uri())
        assert browser.evaluate("document.querySelector('h1').textContent") == "Toy <b>task</b>: dev phase"
        links = browser.evaluate("[...document.querySelectorAll('#ranking tbody a')].map(a => [a.textContent, a.href])")
        assert [text for text, _ in links] == ["Bravo", "#2", HOSTILE, "#1"]
        team = links[2][1]
        browser.navigate(team)
        assert browser.evaluate("document.querySelector('h1').textContent") == f"Toy <b>task</b>: {HOSTILE}"
        report = browser.evaluate("document.querySelector('#history tbody a[href*=reports]').href")
        browser.navigate(report)
        # the report's own script runs (its hash is in its policy): it fills the sentence browser
        assert browser.evaluate("new Promise(r => setTimeout(() => r(document.getElementById("
                                "'browser-root').children.length), 300))") > 0
        assert browser.console_errors() == []


def test_the_site_shows_no_server_path(tmp_path, database_url):
    """A treebank's status names its files as suite run on gold/ and submission/ would (the
    published site is public): no page holds the gold or the store directory's path."""
    suite = ROOT / "testdata" / "suite"
    gold = tmp_path / "gold"
    shutil.copytree(suite / "gold", gold)
    url = database_url
    assert run("init", "--db", url, "--name", "Toy", "--gold", str(gold), "--store", str(tmp_path / "store"))[0] == 0
    assert run("team", "add", "--db", url, "ACME")[0] == 0
    assert run("submit", "--db", url, "--team", "ACME", str(suite / "system"))[0] == 0
    status, out, err = run("rank", "--db", url, "--format", "json")
    assert str(tmp_path / "store") in out  # the organiser's ranking keeps the real paths
    site = tmp_path / "site"
    assert run("publish", "--db", url, str(site), "--resamples", "10")[0] == 0
    pages = {path: path.read_text(encoding="utf-8") for path in site.rglob("*.html")}
    assert any("submission/" in text for text in pages.values())  # a failed treebank's status, shown
    for path, text in pages.items():
        assert str(tmp_path) not in text and "store/submission-" not in text, path
