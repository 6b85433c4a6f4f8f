"""``conll_eval leaderboard serve``'s pages (issue 42, section 2) through Starlette's TestClient:
log in with a token (the session cookie's flags), the team's page (upload form, its submissions
with their state and first errors, the leaderboard), log out; the organiser's page (freeze,
hide, rescore); CSRF missing, wrong or another session's is 403 and changes nothing; a team
cannot act as an organiser; names escaped; the security headers on every page."""
import re
import warnings

import pytest

pytest.importorskip("starlette", reason="the leaderboard extra (Starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2, which is not installed
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from leaderboard_support import run  # noqa: E402
from leaderboard_web_support import (EXAMPLES, assert_secure_headers, build_zip, last_line, make_web, score_queue,  # noqa: E402,F401
                                     served, zip_of)

#: the pages run on SQLite by default and on PostgreSQL in CI's second stage too (their queries
#: are the API's, which test_leaderboard_web.py runs on both by default)
pytestmark = [pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`"),
              pytest.mark.parametrize("database_url", [
                  "sqlite", pytest.param("postgresql", marks=[pytest.mark.slow, pytest.mark.ci_stage2])],
                  indirect=True)]


@pytest.fixture
def web(tmp_path, database_url):
    """A task with teams ACME and Bravo and organiser Chair, served by a TestClient."""
    yield from served(tmp_path, database_url)


def _csrf(page):
    found = re.findall(r'name="csrf" value="([0-9a-f]{64})"', page.text)
    assert found, page.text[-500:]
    return found[0]


def _log_in(client, token):
    """Log in through the form; the response of the POST (not followed)."""
    page = client.get("/login")
    assert page.status_code == 200
    return client.post("/login", data={"token": token, "csrf": _csrf(page)}, follow_redirects=False)


def _upload(web, client, csrf, label="mine"):
    with open(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"), "rb") as handle:
        return client.post("/team/submissions", data={"csrf": csrf, "label": label},
                           files={"archive": ("s.zip", handle)}, follow_redirects=False)


def test_a_team_logs_in_uploads_sees_its_submission_and_the_ranking_then_logs_out(web):
    client = web.client
    assert client.get("/team", follow_redirects=False).headers["location"] == "/login"
    response = _log_in(client, web.tokens["ACME"])
    assert response.status_code == 303 and response.headers["location"] == "/team"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("session=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie  # plain http on loopback only
    page = client.get("/team")
    assert page.status_code == 200 and "<form" in page.text
    for field in ('type="file" name="archive"', 'name="label"', 'name="csrf"', 'action="/team/submissions"',
                  'enctype="multipart/form-data"'):
        assert field in page.text, field
    posted = _upload(web, client, _csrf(page))
    assert posted.status_code == 303 and posted.headers["location"].startswith("/team")
    assert ">queued<" in client.get("/team").text
    score_queue(web.url)
    page = client.get("/team")
    assert ">done<" in page.text and 'id="ranking"' in page.text and ">ACME<" in page.text
    logged_out = client.post("/logout", data={"csrf": _csrf(page)}, follow_redirects=False)
    assert logged_out.status_code == 303 and 'session=""' in logged_out.headers["set-cookie"]
    assert client.get("/team", follow_redirects=False).status_code == 303


def test_a_failed_submission_shows_its_first_errors_on_the_team_page(web):
    _log_in(web.client, web.tokens["ACME"])
    good = b"# sent_id = 1\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n"
    broken = build_zip(web.tmp / "b.zip", {"en_cats.conllu": good,
                                           "en_dogs.conllu": good + b"1\tHi\thi\tINTJ\t_\t_\t0\troot\n\n"})
    assert web.upload(broken).status_code == 202
    score_queue(web.url)
    page = web.client.get("/team").text
    assert "en_dogs: " in page and str(web.store) not in page


def test_secure_cookies_off_loopback(tmp_path, database_url):
    secure = make_web(tmp_path, database_url, secure=True)
    with secure.client:
        cookie = secure.client.get("/login").headers["set-cookie"]
        assert cookie.startswith("__Host-session=") and "Secure" in cookie and "Path=/" in cookie
        assert _log_in(secure.client, secure.tokens["ACME"]).headers["location"] == "/team"
        assert secure.client.get("/team").status_code == 200
    secure.app.state.web.engine.dispose()


def test_a_post_without_the_right_csrf_token_is_403_and_does_nothing(web):
    client = web.client
    page = client.get("/login")
    for data in ({"token": web.tokens["ACME"]}, {"token": web.tokens["ACME"], "csrf": "0" * 64},
                 {"token": web.tokens["ACME"], "csrf": _csrf(page)[:-1]}):
        response = client.post("/login", data=data, follow_redirects=False)
        assert response.status_code == 403 and "[csrf]" in response.text
        assert_secure_headers(response)
    assert _log_in(client, web.tokens["ACME"]).status_code == 303
    csrf = _csrf(client.get("/team"))
    assert _upload(web, client, "").status_code == 403
    other = TestClient(web.app)  # another browser, logged in as the same team: its own token
    _log_in(other, web.tokens["ACME"])
    assert _csrf(other.get("/team")) != csrf
    assert _upload(web, client, _csrf(other.get("/team"))).status_code == 403
    assert client.post("/logout", data={}, follow_redirects=False).status_code == 403
    assert client.get("/api/submissions/1", headers=web.bearer()).status_code == 404  # nothing was queued
    assert _upload(web, client, csrf).status_code == 303


def test_a_wrong_token_is_401_on_the_login_form(web):
    page = web.client.get("/login")
    response = web.client.post("/login", data={"token": "nope", "csrf": _csrf(page)}, follow_redirects=False)
    assert response.status_code == 401 and "[bad-token]" in response.text


def test_a_team_cannot_use_the_organisers_page_or_actions(web):
    _log_in(web.client, web.tokens["ACME"])
    csrf = _csrf(web.client.get("/team"))
    assert web.client.get("/organiser", follow_redirects=False).headers["location"] == "/login"
    for path, data in (("/organiser/freeze", {"frozen": "1"}), ("/organiser/hide", {"submission": "1", "hidden": "1"}),
                       ("/organiser/rescore", {})):
        response = web.client.post(path, data={"csrf": csrf, **data}, follow_redirects=False)
        assert response.status_code == 403 and "[not-logged-in]" in response.text, path
    anonymous = TestClient(web.app)
    csrf = _csrf(anonymous.get("/login"))
    assert anonymous.post("/organiser/freeze", data={"csrf": csrf, "frozen": "1"}).status_code == 403


def test_the_organiser_freezes_hides_and_rescores(web):
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"), label="acme")
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip", only={"en_cats.conllu"}), team="Bravo")
    score_queue(web.url)
    response = _log_in(web.client, web.tokens["Chair"])
    assert response.headers["location"] == "/organiser"
    page = web.client.get("/organiser")
    assert page.status_code == 200 and ">acme<" in page.text and "Freeze" in page.text
    csrf = _csrf(page)
    assert web.client.post("/organiser/freeze", data={"csrf": csrf, "frozen": "1"},
                           follow_redirects=False).status_code == 303
    refused = web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "phase-frozen"
    assert "Unfreeze" in web.client.get("/organiser").text
    web.client.post("/organiser/freeze", data={"csrf": csrf, "frozen": "0"})
    assert web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip")).status_code == 202
    score_queue(web.url)
    web.client.post("/organiser/hide", data={"csrf": csrf, "submission": "1", "hidden": "1"})
    assert [e["submission"] for e in web.client.get("/api/leaderboard?all=1").json()["entries"]] == [3, 2]
    assert "(hidden)" in web.client.get("/organiser").text
    public = TestClient(web.app).get("/").text
    assert ">#1<" not in public and ">#3<" in public
    for bad in ({"submission": "x", "hidden": "1"}, {"submission": "1", "hidden": "2"}):
        assert web.client.post("/organiser/hide", data={"csrf": csrf, **bad}).status_code == 400
    assert web.client.post("/organiser/hide", data={"csrf": csrf, "submission": "99", "hidden": "1"}).status_code == 404
    assert web.client.post("/organiser/rescore", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    statuses = [web.client.get(f"/api/submissions/{k}", headers=web.bearer("Chair")).json()["status"] for k in (1, 2, 3)]
    assert statuses == ["queued"] * 3  # back in the queue: the workers score them again
    assert score_queue(web.url) == 3


def test_names_from_input_are_escaped_on_every_page(tmp_path, database_url):
    hostile = make_web(tmp_path, database_url)
    status, out, _ = run("team", "add", "--db", hostile.url, '<script>alert(1)</script>"&')
    assert status == 0
    token = last_line(out)
    with hostile.client:
        response = hostile.client.post("/api/submissions", headers={"Authorization": f"Bearer {token}"},
                                       files={"archive": ("s.zip", zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "s.zip").read_bytes())},
                                       data={"label": "<img src=x onerror=alert(1)>"})
        assert response.status_code == 202
        score_queue(hostile.url)
        _log_in(hostile.client, token)
        pages = [hostile.client.get("/").text, hostile.client.get("/team").text]
        _log_in(hostile.client, hostile.tokens["Chair"])
        pages.append(hostile.client.get("/organiser").text)
    hostile.app.state.web.engine.dispose()
    for page in pages:
        assert "<script>alert" not in page and "<img src=x" not in page and "\x1b" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[1]


def test_every_page_and_error_carries_the_security_headers(web):
    _log_in(web.client, web.tokens["ACME"])
    responses = [web.client.get(path) for path in ("/", "/login", "/team", "/organiser", "/nowhere",
                                                   "/api/leaderboard", "/api/submissions/1")]
    responses.append(web.client.post("/team", data={}))  # 405
    responses.append(web.client.post("/logout", data={}))  # 403, no CSRF token
    for response in responses:
        assert_secure_headers(response)
        assert response.headers["x-frame-options"] == "DENY"
        if response.headers["content-type"].startswith("text/html"):
            assert "form-action 'self'" in response.text  # the page's own meta policy lets forms post here
