"""``conll_eval leaderboard serve``'s JSON API (issue 42, section 2) through Starlette's TestClient
on SQLite and PostgreSQL: upload -> 202 queued -> a worker pass -> done, the leaderboard's
entries equal to the suite CLI's JSON digit for digit; bad and missing tokens, a missing field,
hostile archives, the upload cap, a frozen phase, the daily limit, hidden submissions, another
team's submission; the migration to revision 0003; and the real ``serve`` in a subprocess."""
import asyncio
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the leaderboard extra (Starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from alembic import command as alembic_command  # noqa: E402
from sqlalchemy import select  # noqa: E402

import httpx  # noqa: E402

from conll_eval.leaderboard import db, organisers, queue  # noqa: E402
from conll_eval.leaderboard.models import Submission, Task, Team  # noqa: E402
from conll_eval.leaderboard.workers import WorkSettings, run_workers  # noqa: E402
from leaderboard_support import run  # noqa: E402
from leaderboard_web_support import (EXAMPLES, assert_secure_headers, build_zip, last_line, make_web,  # noqa: E402,F401
                                     score_queue, submission_directory, suite_json, served, zip_of)
from pg_support import dying_with_parent  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


@pytest.fixture
def web(tmp_path, database_url):
    """A task with teams ACME and Bravo and organiser Chair, served by a TestClient."""
    yield from served(tmp_path, database_url)
GOOD = (EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu").read_bytes()


def _engine_do(url, action, *arguments):
    engine = db.open_engine(url)
    try:
        return action(engine, *arguments)
    finally:
        engine.dispose()


def _submissions(url):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            return [(s.id, s.status) for s in session.scalars(select(Submission).order_by(Submission.id))]
    finally:
        engine.dispose()


# upload, score, rank ---------------------------------------------------------------------------

def test_an_upload_is_queued_scored_and_ranked_as_suites_json(web):
    full = zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "full.zip")
    partial = zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "partial.zip", only={"en_cats.conllu"})
    first = web.upload(full, label="full")
    assert first.status_code == 202 and first.json() == {"id": 1, "status": "queued"}
    assert_secure_headers(first)
    assert web.upload(partial, team="Bravo", label="partial").json() == {"id": 2, "status": "queued"}
    assert web.upload(partial, label="worse").json() == {"id": 3, "status": "queued"}
    shown = web.client.get("/api/submissions/1", headers=web.bearer())
    assert shown.status_code == 200 and shown.json()["status"] == "queued"
    assert web.client.get("/api/leaderboard").json() == {"entries": []}  # nothing scored yet
    assert score_queue(web.url) == 3
    shown = web.client.get("/api/submissions/1", headers=web.bearer()).json()
    assert (shown["status"], shown["label"], shown["team"], shown["errors"]) == ("done", "full", "ACME", [])
    board = web.client.get("/api/leaderboard")
    assert board.status_code == 200 and board.headers["content-type"] == "application/json"
    entries = board.json()["entries"]
    assert [(e["team"], e["submission"], e["label"], e["rank"]) for e in entries] == [
        ("ACME", 1, "full", 1), ("Bravo", 2, "partial", 2)]
    for entry in entries:
        assert set(entry) == {"team", "submission", "label", "rank", "cluster", "macro", "treebanks"}
        expected = suite_json(web.gold, submission_directory(web.url, entry["submission"]))
        assert entry["macro"] == expected["macro"] and entry["treebanks"] == expected["treebanks"]
        assert json.dumps(entry["macro"]) == json.dumps(expected["macro"])  # digit for digit
        assert json.dumps(entry["treebanks"]) == json.dumps(expected["treebanks"])
    every = web.client.get("/api/leaderboard?all=1").json()["entries"]
    assert [e["submission"] for e in every] == [1, 2, 3]
    assert [e["rank"] for e in every] == [1, 2, 2]


def test_the_leaderboard_equals_suites_json_on_the_testdata_suite(tmp_path, database_url):
    """testdata/suite: five gold treebanks, a system with one missing, one extra and one file
    whose treebank scores 0; the entry's objects are the suite CLI's, digit for digit."""
    suite = EXAMPLES.parent / "testdata" / "suite"
    shutil.copytree(suite / "gold", tmp_path / "gold")
    served = make_web(tmp_path, database_url)
    with served.client:
        assert served.upload(zip_of(suite / "system", tmp_path / "s.zip")).status_code == 202
        assert score_queue(served.url) == 1
        entries = served.client.get("/api/leaderboard").json()["entries"]
    served.app.state.web.engine.dispose()
    expected = suite_json(tmp_path / "gold", submission_directory(served.url, 1))
    assert len(entries) == 1 and len(expected["treebanks"]) == 5
    assert json.dumps(entries[0]["macro"]) == json.dumps(expected["macro"])
    assert json.dumps(entries[0]["treebanks"]) == json.dumps(expected["treebanks"])
    assert {record["status"] for record in entries[0]["treebanks"]} != {"ok"}  # a treebank scored 0


def test_the_api_shows_no_server_path_while_the_database_and_rank_keep_them(tmp_path, database_url):
    """The treebank objects of /api/leaderboard and /api/submissions/{id} name the files as
    suite run on gold/ and submission/ would (every string, the error's too); the database and
    the organiser's rank --format json keep suite's own, with the server's paths."""
    suite = EXAMPLES.parent / "testdata" / "suite"
    shutil.copytree(suite / "gold", tmp_path / "gold")
    served = make_web(tmp_path, database_url)
    with served.client:
        assert served.upload(zip_of(suite / "system", tmp_path / "s.zip")).status_code == 202
        assert score_queue(served.url) == 1
        board = served.client.get("/api/leaderboard").text
        shown = served.client.get("/api/submissions/1", headers=served.bearer())
    served.app.state.web.engine.dispose()
    directory = submission_directory(served.url, 1)
    for server_path in (str(tmp_path), directory, str(tmp_path / "gold")):
        assert server_path not in board and server_path not in shown.text
    treebanks = json.loads(board)["entries"][0]["treebanks"]
    assert json.dumps(shown.json()["treebanks"]) == json.dumps(treebanks)
    assert all(record["gold"].startswith("gold/") for record in treebanks)
    assert {record["system"].split("/")[0] for record in treebanks} == {"submission"}
    failed = [record for record in treebanks if record["error"]]
    assert failed and all(record["status"].startswith("submission/") or "submission/" in record["status"]
                          or record["status"].startswith("gold/") for record in failed), failed
    assert all(record["error"]["file"].split("/")[0] in ("gold", "submission") for record in failed)
    status, out, err = run("rank", "--db", served.url, "--format", "json")
    assert (status, err) == (0, "")
    kept = json.loads(out)["entries"][0]["treebanks"]
    assert [record["system"] for record in kept] == [os.path.join(directory, os.path.basename(record["system"]))
                                                     for record in treebanks]
    assert [record["metrics"] for record in kept] == [record["metrics"] for record in treebanks]


def test_the_status_moves_through_validating_and_scoring(web):
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"))
    engine = db.open_engine(web.url)
    try:
        claim = queue.claim_next(engine, "w", 60)
        assert web.client.get("/api/submissions/1", headers=web.bearer()).json()["status"] == "validating"
        queue.advance(engine, claim, "scoring", 60)
        assert web.client.get("/api/submissions/1", headers=web.bearer()).json()["status"] == "scoring"
        queue.fail(engine, claim, f"[internal] boom in {submission_directory(web.url, 1)}/en_cats.conllu")
    finally:
        engine.dispose()
    shown = web.client.get("/api/submissions/1", headers=web.bearer()).json()
    assert shown["status"] == "failed"
    assert shown["errors"] == ["[internal] boom in submission/en_cats.conllu"]  # no server path shown
    assert str(web.store) not in json.dumps(shown)


@pytest.mark.parametrize("database_url", [  # spawns a worker: PostgreSQL's run in CI's second stage
    "sqlite", pytest.param("postgresql", marks=[pytest.mark.slow, pytest.mark.ci_stage2])], indirect=True)
def test_a_failed_submission_and_an_invalid_treebank_show_their_first_errors(web):
    """A real worker pass (run_workers, one spawned worker): files that pair with no gold
    treebank fail the submission; a broken file scores 0 with the reader's error."""
    unpaired = build_zip(web.tmp / "unpaired.zip", {"xx_none.conllu": GOOD})
    broken = build_zip(web.tmp / "broken.zip", {"en_cats.conllu": GOOD,
                                                "en_dogs.conllu": GOOD + b"1\tHi\thi\tINTJ\t_\t_\t0\troot\n\n"})
    assert web.upload(unpaired).status_code == 202
    assert web.upload(broken).status_code == 202
    assert run_workers(WorkSettings(web.url, 1, once=True, poll=0.1), lambda line: None) == 0
    failed = web.client.get("/api/submissions/1", headers=web.bearer()).json()
    assert failed["status"] == "failed" and "no file pairs with a gold treebank" in failed["errors"][0]
    done = web.client.get("/api/submissions/2", headers=web.bearer()).json()
    assert done["status"] == "done" and len(done["errors"]) == 1
    assert done["errors"][0].startswith("en_dogs: ") and str(web.tmp) not in done["errors"][0]


# refusals -----------------------------------------------------------------------------------

def test_a_missing_or_wrong_token_is_401_and_nothing_is_kept(web):
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip")
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Basic QUNNRTp4"},
                    {"Authorization": "Bearer not-a-token"}, {"Authorization": "Bearer " + "x" * 400}):
        with open(archive, "rb") as handle:
            response = web.client.post("/api/submissions", headers=headers, files={"archive": ("s.zip", handle)})
        assert response.status_code == 401, headers
        assert response.json()["error"]["code"] in ("no-token", "bad-token")
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert_secure_headers(response)
    assert web.client.get("/api/submissions/1").status_code == 401
    organiser = web.upload(archive, team="Chair")
    assert organiser.status_code == 403 and organiser.json()["error"]["code"] == "not-a-team"
    assert _submissions(web.url) == [] and not web.store.exists()


def test_a_checked_token_is_remembered_without_keeping_the_token(web, monkeypatch):
    module = organisers
    checks = []
    real = module.token_matches
    monkeypatch.setattr(module, "token_matches", lambda *args: checks.append(1) or real(*args))
    for _ in range(5):
        assert web.client.get("/api/submissions/9", headers=web.bearer()).status_code == 404
    assert len(checks) == 1  # one scrypt check, then the cache
    for _ in range(2):
        assert web.client.get("/api/submissions/9", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert len(checks) == 1  # no row has a wrong token's hint: no scrypt check at all, never cached
    kept = web.app.state.web.tokens.kept
    assert len(kept) == 1 and web.tokens["ACME"].encode() not in b"".join(kept)


def test_a_missing_field_or_a_bad_label_is_400(web):
    response = web.client.post("/api/submissions", headers=web.bearer(), data={"label": "x"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "missing-field"
    response = web.client.post("/api/submissions", headers=web.bearer(),
                               files={"other": ("s.zip", b"PK")})
    assert response.status_code == 400 and response.json()["error"]["code"] == "missing-field"
    response = web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"), label="x" * 300)
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
    assert _submissions(web.url) == []


HOSTILE = [
    ("path-traversal", {"en_cats.conllu": GOOD, "../../evil.conllu": GOOD}, "archive-path-traversal"),
    ("absolute", {"/tmp/abs.conllu": GOOD}, "archive-absolute-path"),
    ("nested", {"en_cats.conllu.zip": b"PK\x03\x04" + b"\0" * 30}, "archive-nested"),
    ("not-conllu", {"en_cats.conllu": b"\x7fELF\x02\x01\x01" + b"\0" * 100}, "archive-not-conllu"),
    ("not-a-treebank", {"README.txt": b"hello"}, "archive-not-conllu"),
]


@pytest.mark.parametrize("name, files, code", HOSTILE, ids=[case[0] for case in HOSTILE])
def test_hostile_archives_are_400_with_their_code_and_nothing_is_written_outside(web, name, files, code):
    before = {p for p in web.tmp.rglob("*")}
    archive = build_zip(web.tmp / f"{name}.zip", files)
    response = web.upload(archive)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["message"].startswith("archive: ")
    assert "conll_eval-upload-" not in error["message"]  # the temporary path is not shown
    assert {p for p in web.tmp.rglob("*")} - before <= {archive, web.store}
    assert not web.store.exists() or not any(web.store.iterdir())
    assert not (Path("/tmp") / "evil.conllu").exists() and not (Path("/tmp") / "abs.conllu").exists()
    assert _submissions(web.url) == []


def test_a_symlink_and_too_many_files_are_refused(web, monkeypatch):
    link = web.tmp / "link.zip"
    with zipfile.ZipFile(link, "w") as bundle:
        info = zipfile.ZipInfo("en_cats.conllu")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        bundle.writestr(info, "/etc/passwd")
    assert web.upload(link).json()["error"]["code"] == "archive-link"
    monkeypatch.setattr("conll_eval.limits.MAX_SUBMISSION_FILES", 3)
    many = build_zip(web.tmp / "many.zip", {f"t{k}.conllu": GOOD for k in range(5)})
    assert web.upload(many).json()["error"]["code"] == "archive-too-many-files"
    monkeypatch.setattr("conll_eval.limits.RATIO_CHECK_FROM_BYTES", 4096)
    bomb = build_zip(web.tmp / "bomb.zip", {"en_cats.conllu": GOOD + b"# x\n" * 200_000})
    assert web.upload(bomb).json()["error"]["code"] == "archive-ratio"
    assert _submissions(web.url) == []


def _multipart(chunks, boundary=b"b0undary"):
    yield b"--" + boundary + b'\r\nContent-Disposition: form-data; name="archive"; filename="s.zip"\r\n'
    yield b"Content-Type: application/zip\r\n\r\n"
    yield from chunks
    yield b"\r\n--" + boundary + b"--\r\n"


@dataclass
class _Answer:
    status: int = 0
    body: bytes = b""


def _post_endless(app, headers, path="/api/submissions"):
    """POST /api/submissions to the ASGI app a chunk at a time, 80 MB without Content-Length
    (the TestClient reads a body whole before the app sees it); the answer and how many 8 KiB
    chunks the app asked for."""
    chunks = _multipart(b"\0" * 8192 for _ in range(10_000))
    read = [0]
    answer = _Answer()

    async def receive():
        read[0] += 1
        chunk = next(chunks, None)
        return {"type": "http.request", "body": chunk or b"", "more_body": chunk is not None}

    async def send(message):
        if message["type"] == "http.response.start":
            answer.status = message["status"]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")
    raw = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    raw.append((b"content-type", b"multipart/form-data; boundary=b0undary"))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": raw, "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    return answer, read[0]


def test_a_body_past_the_cap_is_413_while_it_streams(tmp_path, database_url):
    small = make_web(tmp_path, database_url, max_upload_bytes=64 << 10)
    with small.client:
        archive = zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "s.zip")
        assert small.upload(archive).status_code == 202  # under the cap
        big = build_zip(tmp_path / "big.zip", {"en_cats.conllu": os.urandom(100 << 10)})
        declared = small.upload(big)  # Content-Length above the cap: refused before reading
        assert declared.status_code == 413 and declared.json()["error"]["code"] == "upload-too-large"
        streamed, chunks_read = _post_endless(small.app, small.bearer())
        assert streamed.status == 413 and json.loads(streamed.body)["error"]["code"] == "upload-too-large"
        assert chunks_read < 20  # it stopped near 64 KiB, never read the 80 MB offered
    small.app.state.web.engine.dispose()
    assert [status for _, status in _submissions(small.url)] == ["queued"]


def test_a_strangers_upload_is_refused_before_its_body_is_read(web):
    """No token (the API) or no team session (the page's form): 401/403 after reading at most
    the first chunk of an endless body."""
    for path, headers, status in (("/api/submissions", {}, 401),
                                  ("/api/submissions", {"Authorization": "Bearer wrong"}, 401),
                                  ("/team/submissions", {}, 403)):
        answer, chunks_read = _post_endless(web.app, headers, path)
        assert answer.status == status and chunks_read <= 1, (path, headers, chunks_read)
    assert _submissions(web.url) == []


def test_a_frozen_phase_is_403_until_unfrozen(web):
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip")
    _engine_do(web.url, organisers.set_frozen, True)
    response = web.upload(archive)
    assert response.status_code == 403 and response.json()["error"]["code"] == "phase-frozen"
    status, _, err = run("submit", "--db", web.url, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"))
    assert status == 1 and "error [phase-frozen]" in err  # the CLI's submit too
    _engine_do(web.url, organisers.set_frozen, False)
    assert web.upload(archive).status_code == 202


def test_the_daily_limit_is_429(tmp_path, database_url):
    limited = make_web(tmp_path, database_url, "--daily-limit", "2")
    with limited.client:
        archive = zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "s.zip")
        assert [limited.upload(archive).status_code for _ in range(2)] == [202, 202]
        response = limited.upload(archive)
        assert response.status_code == 429 and response.json()["error"]["code"] == "daily-limit"
        assert limited.upload(archive, team="Bravo").status_code == 202  # another team's count
    limited.app.state.web.engine.dispose()


def test_a_hidden_submission_is_never_in_the_public_leaderboard(web):
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip")
    web.upload(archive)
    web.upload(archive, team="Bravo")
    score_queue(web.url)
    assert [e["team"] for e in web.client.get("/api/leaderboard").json()["entries"]] == ["ACME", "Bravo"]
    _engine_do(web.url, organisers.set_hidden, 1, True)
    for query in ("", "?all=1"):
        assert [e["team"] for e in web.client.get(f"/api/leaderboard{query}").json()["entries"]] == ["Bravo"]
    own = web.client.get("/api/submissions/1", headers=web.bearer()).json()
    assert own["hidden"] is True and own["status"] == "done"  # its team still sees it
    _engine_do(web.url, organisers.set_hidden, 1, False)
    assert [e["team"] for e in web.client.get("/api/leaderboard").json()["entries"]] == ["ACME", "Bravo"]


def test_while_a_ranking_is_computed_the_previous_one_is_served_without_what_was_hidden(web):
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"))
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "p.zip", only={"en_cats.conllu"}), team="Bravo")
    score_queue(web.url)
    assert [e["submission"] for e in web.client.get("/api/leaderboard").json()["entries"]] == [1, 2]
    cache = web.app.state.web.cache
    _engine_do(web.url, organisers.set_hidden, 1, True)
    with cache.computing:  # another request is computing the new ranking
        stale = web.client.get("/api/leaderboard").json()["entries"]
        assert [(e["submission"], e["rank"]) for e in stale] == [(2, 2)]  # the old one, minus the hidden
        assert ">#1<" not in web.client.get("/").text
    fresh = web.client.get("/api/leaderboard").json()["entries"]
    assert [(e["submission"], e["rank"]) for e in fresh] == [(2, 1)]


def test_another_teams_submission_is_404_as_a_missing_one(web):
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"))
    for path, team in (("/api/submissions/1", "Bravo"), ("/api/submissions/99", "ACME"),
                       ("/api/submissions/x", "ACME"), ("/api/submissions/" + "9" * 40, "ACME")):
        response = web.client.get(path, headers=web.bearer(team))
        assert response.status_code == 404 and response.json()["error"]["code"] == "not-found", path
    assert web.client.get("/api/submissions/1", headers=web.bearer("Chair")).json()["team"] == "ACME"


def test_no_route_serves_a_file(web):
    for path in ("/gold/en_cats.conllu", "/store/submission-1/en_cats.conllu", "/static/../gold",
                 "/api/gold", "/en_cats.conllu"):
        response = web.client.get(path)
        assert response.status_code == 404 and "sent_id" not in response.text, path
        assert_secure_headers(response)


# the schema ---------------------------------------------------------------------------------------

def test_upgrade_from_0002_adds_the_web_columns_and_old_tokens_still_log_in(web):
    web.upload(zip_of(EXAMPLES / "SYSTEM_DIR", web.tmp / "s.zip"))
    engine = db.open_engine(web.url)
    with engine.begin() as connection:
        alembic_command.downgrade(db._config(connection), "0002")
    status, _, err = run("rank", "--db", web.url)
    assert status == 1 and "error [old-schema]" in err
    status, out, err = run("upgrade", "--db", web.url)
    assert (status, out, err) == (0, "schema 0002 -> 0003\n", "")
    with db.session_scope(engine) as session:
        assert session.scalars(select(Task.frozen)).all() == [False]
        assert session.scalars(select(Team.token_hint)).all() == [None, None]  # made before 0003
    assert _submissions(web.url) == [(1, "queued")]
    assert organisers.session_secret(engine) == organisers.session_secret(engine)
    web.app.state.web.tokens.kept.clear()  # as a new serve would: the token is checked in the database
    assert web.client.get("/api/submissions/1", headers=web.bearer()).status_code == 200
    with db.session_scope(engine) as session:  # found by trying each team, then given its hint
        hints = dict(session.execute(select(Team.name, Team.token_hint)).all())
    engine.dispose()
    assert hints["ACME"] is not None and hints["Bravo"] is None


def test_organiser_add_prints_the_token_last_and_keeps_its_hash(web):
    status, out, err = run("organiser", "add", "--db", web.url, "Second")
    token = last_line(out)
    assert status == 0 and len(token) >= 40 and token not in err
    assert web.client.get("/api/submissions/1", headers={"Authorization": f"Bearer {token}"}).status_code == 404
    status, _, err = run("organiser", "add", "--db", web.url, "Second")
    assert status == 1 and "error [organiser-exists]" in err


# the real server ------------------------------------------------------------------------------------

def test_serve_refuses_a_port_in_use_and_an_old_schema(web):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        status, out, err = run("serve", "--db", web.url, "--port", str(taken.getsockname()[1]))
    assert (status, out) == (1, "") and "error [cannot-listen]" in err
    status, _, err = run("serve", "--db", web.url, "--port", "70000")
    assert status == 2 and "--port" in err
    engine = db.open_engine(web.url)
    with engine.begin() as connection:
        alembic_command.downgrade(db._config(connection), "0002")
    engine.dispose()
    status, out, err = run("serve", "--db", web.url, "--port", "0")
    assert (status, out) == (1, "") and "error [old-schema]" in err


@pytest.mark.slow
@pytest.mark.ci_stage2
def test_the_real_serve_answers_on_loopback_scores_an_upload_and_leaves_no_process(tmp_path):
    url = f"sqlite:///{tmp_path / 'lb.db'}"
    gold = tmp_path / "gold"
    shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    assert run("init", "--db", url, "--name", "T", "--gold", str(gold), "--store", str(tmp_path / "st"))[0] == 0
    token = last_line(run("team", "add", "--db", url, "ACME")[1])
    server = subprocess.Popen([sys.executable, "-m", "conll_eval", "leaderboard", "serve", "--db", url,
                               "--port", "0", "--workers", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, start_new_session=True, preexec_fn=dying_with_parent(signal.SIGTERM))
    try:
        line = server.stdout.readline()
        assert line.startswith("serving on http://127.0.0.1:"), (line, server.stderr.read() if server.poll() else "")
        base = line.split()[2]
        deadline = time.monotonic() + 60
        while True:  # ready when it answers
            try:
                if httpx.get(base + "api/leaderboard", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve never answered"
                time.sleep(0.1)
        with open(zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "s.zip"), "rb") as handle:
            response = httpx.post(base + "api/submissions", headers={"Authorization": f"Bearer {token}"},
                                  files={"archive": ("s.zip", handle)}, timeout=30)
        assert response.status_code == 202 and response.json() == {"id": 1, "status": "queued"}
        assert_secure_headers(response)
        while True:
            status = httpx.get(base + "api/submissions/1", headers={"Authorization": f"Bearer {token}"},
                               timeout=10).json()["status"]
            if status == "done":
                break
            assert status != "failed" and time.monotonic() < deadline, status
            time.sleep(0.2)
        entries = httpx.get(base + "api/leaderboard", timeout=10).json()["entries"]
        assert [(e["team"], e["submission"]) for e in entries] == [("ACME", 1)]
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        server.stdout.close()
        server.stderr.close()
    deadline = time.monotonic() + 20
    while True:  # the workers' supervisor and its workers stopped with it
        try:
            os.killpg(server.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "a process of serve's group outlived it"
        time.sleep(0.1)
