"""``conll_eval leaderboard serve``'s pages in headless Chromium (issue 42's "Must show"), driven
through tests/browser.py against a real ``serve`` subprocess on 127.0.0.1 (a free port) over a
SQLite task made by the CLI.  The team logs in through the form, uploads an archive through the
file input, sees its submission become ``done`` and itself in the ranking; the organiser freezes
the phase (the team's next upload is refused, on the page), hides a submission (gone from the
public ranking) and rescores (every submission scored again).  No page logs a console error, and
the Content-Security-Policy blocks nothing they need (no ``securitypolicyviolation`` event; a
blocked image shows the check would see one).  Skipped, saying so, without chromium."""
import time

import pytest

pytest.importorskip("starlette", reason="the leaderboard extra (Starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="the leaderboard extra (httpx) is not installed")

from browser import Browser  # noqa: E402
from leaderboard_serve_support import make_task, serving  # noqa: E402
from leaderboard_web_support import EXAMPLES, zip_of  # noqa: E402
from test_report_html import CHROMIUM, needs_browser  # noqa: E402

#: a few seconds with chromium (serve, a browser, three scoring passes): CI's second stage
pytestmark = [needs_browser, pytest.mark.slow, pytest.mark.ci_stage2]

#: seconds a submission is given to be scored (a worker's pass: a spawned child, two treebanks)
SCORED_SECONDS = 120.0
#: recorded in every page before its own content runs (DevTools' scripts are not subject to the CSP)
VIOLATIONS = ("window.cspViolations = []; document.addEventListener('securitypolicyviolation', "
              "function (e) { window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });")
ROWS = ("Array.from(document.querySelectorAll('#submissions tbody tr')).map(function (row) {"
        " return Array.from(row.cells).map(function (cell) { return cell.textContent.trim(); }); })")


def _text(browser, selector="body"):
    return browser.evaluate(f"(document.querySelector({selector!r}) || {{textContent: ''}}).textContent")


def _checked(browser):
    """The page loaded clean: no CSP violation, no console error so far."""
    assert browser.evaluate("window.cspViolations") == [], browser.evaluate("location.href")
    assert browser.console_errors() == []


def _log_in(browser, base, token):
    browser.navigate(base + "login")
    _checked(browser)
    browser.evaluate(f"document.querySelector('input[name=token]').value = {token!r}")
    browser.click_and_wait('form[action="/login"] button')
    _checked(browser)


def _log_out(browser):
    browser.click_and_wait("#logout button")
    assert browser.evaluate("location.pathname") == "/"


def _upload(browser, archive, label):
    browser.set_files('input[type=file][name=archive]', [str(archive)])
    browser.evaluate(f"document.querySelector('input[name=label]').value = {label!r}")
    browser.click_and_wait("#upload button")


def _rows_when(browser, url, settled):
    """Reload ``url`` until its submissions table satisfies ``settled`` (bounded); its rows."""
    deadline = time.monotonic() + SCORED_SECONDS
    while True:
        browser.navigate(url)
        _checked(browser)
        rows = browser.evaluate(ROWS)
        if settled(rows):
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.3)


def _upload_by_api(base, token, archive):
    with open(archive, "rb") as handle:
        answer = httpx.post(base + "api/submissions", headers={"Authorization": f"Bearer {token}"},
                            files={"archive": (archive.name, handle)}, timeout=60)
    assert answer.status_code == 202, answer.text
    return answer.json()["id"]


def test_a_team_and_the_organiser_use_their_pages_in_chromium(tmp_path):
    url = f"sqlite:///{tmp_path / 'lb.db'}"
    tokens = make_task(tmp_path, url)
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "system.zip")
    with serving(url, "--workers", "1") as served, Browser(CHROMIUM) as browser:
        base = served.base
        browser.call("Page.addScriptToEvaluateOnNewDocument", source=VIOLATIONS)
        browser.navigate(base)
        _checked(browser)
        assert "No scored submission yet" in _text(browser, "#ranking")

        # the team: log in, upload through the file input, see it done and ranked
        _log_in(browser, base, tokens["ACME"])
        assert browser.evaluate("location.pathname") == "/team"
        _upload(browser, archive, "first <run>")
        assert browser.evaluate("location.pathname") == "/team"
        rows = browser.evaluate(ROWS)
        assert [row[:3] for row in rows] == [["#1", "first <run>", rows[0][2]]]
        assert rows[0][2] in ("queued", "validating", "scoring", "done")
        rows = _rows_when(browser, base + "team", lambda rows: rows[0][2] not in ("queued", "validating", "scoring"))
        assert rows[0][2] == "done" and rows[0][5] == "", rows  # no errors
        ranking = _text(browser, "#ranking")
        assert "ACME" in ranking and "first <run>" in ranking
        bravo = _upload_by_api(base, tokens["Bravo"], archive)
        _log_out(browser)

        # the organiser: freeze the phase
        _log_in(browser, base, tokens["Chair"])
        assert browser.evaluate("location.pathname") == "/organiser"
        rows = _rows_when(browser, base + "organiser", lambda rows: [row[3] for row in rows] == ["done", "done"])
        assert [row[:2] for row in rows] == [[f"#{bravo}", "Bravo"], ["#1", "ACME"]]  # newest first
        browser.click_and_wait("#phase button")
        assert "frozen: teams cannot submit" in _text(browser, "#phase")
        _log_out(browser)

        # the team's upload is refused, on the page
        _log_in(browser, base, tokens["ACME"])
        assert "The phase is frozen" in _text(browser, "#upload")
        _upload(browser, archive, "too late")
        refused = _text(browser)
        assert "[phase-frozen]" in refused and "Refused" in refused
        assert browser.evaluate("window.cspViolations") == []  # its status is the one error logged:
        assert browser.console_errors() == ["Failed to load resource: the server responded with a status of "
                                            "403 (Forbidden)"]
        browser.events.clear()  # seen: the checks below start afresh
        browser.navigate(base + "team")
        assert [row[0] for row in browser.evaluate(ROWS)] == ["#1"]  # nothing was queued
        _log_out(browser)

        # the organiser hides ACME's submission, then rescores
        _log_in(browser, base, tokens["Chair"])
        browser.click_and_wait('#submissions form[action="/organiser/hide"]:has(input[name=submission][value="1"]) button')
        assert [row[3] for row in browser.evaluate(ROWS)] == ["done", "done (hidden)"]
        done_before = len(served.done_lines())
        browser.click_and_wait("#rescore button")
        rows = _rows_when(browser, base + "organiser",
                          lambda rows: [row[3] for row in rows] == ["done", "done (hidden)"])
        deadline = time.monotonic() + SCORED_SECONDS
        while len(served.done_lines()) < done_before + 2:  # the page can show done before the line comes
            assert time.monotonic() < deadline, served.lines
            time.sleep(0.1)
        rescored = served.done_lines()[done_before:]
        assert sorted(line.split(":")[0] for line in rescored) == ["submission 1", f"submission {bravo}"]
        _log_out(browser)
        public = _text(browser, "#ranking")
        assert "Bravo" in public and "ACME" not in public and "first <run>" not in public
        _checked(browser)

        # the check sees a violation when there is one: an image from elsewhere is blocked
        browser.evaluate("new Promise(function (done) { var image = new Image();"
                         " image.onerror = image.onload = function () { done(true); };"
                         f" image.src = {base + 'x.png'!r}; document.body.appendChild(image); }})")
        assert any(v.startswith("img-src") for v in browser.evaluate("window.cspViolations"))
        assert any("Content Security Policy" in error for error in browser.console_errors())
