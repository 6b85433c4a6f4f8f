"""A load test of ``conll_eval leaderboard serve --workers 2`` on loopback (issue 42's "Must
show"): 50 uploads from 10 teams at once (50 threads through the JSON API), then every
submission scored: none lost (50 ids, each ``done``, each in ``GET /api/leaderboard?all=1``),
none scored twice (each claimed once, its one set of results, one ``done`` line from the
workers).  On SQLite and on PostgreSQL; bounded in count and time; CI's second stage."""
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="the leaderboard extra (Starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="the leaderboard extra (httpx) is not installed")

from sqlalchemy import func, select  # noqa: E402

from conll_eval.leaderboard import db  # noqa: E402
from conll_eval.leaderboard.models import SentenceCounts, Submission, TreebankResult  # noqa: E402
from leaderboard_serve_support import make_task, serving  # noqa: E402
from leaderboard_web_support import EXAMPLES, zip_of  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.ci_stage2]

TEAMS = tuple(f"team-{number:02d}" for number in range(10))
UPLOADS_PER_TEAM = 5
#: seconds for every upload to be answered, then for every submission to be scored
UPLOAD_SECONDS = 120.0
SCORED_SECONDS = 600.0


def _rows(url):
    """Each submission's (status, attempts, claimed_by, result rows, sentence-count rows)."""
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            results = dict(session.execute(select(TreebankResult.submission_id, func.count())
                                           .group_by(TreebankResult.submission_id)).all())
            counts = dict(session.execute(select(SentenceCounts.submission_id, func.count())
                                          .group_by(SentenceCounts.submission_id)).all())
            return {s.id: (s.status, s.attempts, s.claimed_by, results.get(s.id, 0), counts.get(s.id, 0))
                    for s in session.scalars(select(Submission))}
    finally:
        engine.dispose()


def test_fifty_concurrent_uploads_from_ten_teams_are_each_scored_once(tmp_path, database_url):
    tokens = make_task(tmp_path, database_url, TEAMS, None)
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "system.zip").read_bytes()
    with serving(database_url, "--workers", "2") as served, \
            httpx.Client(base_url=served.base, timeout=UPLOAD_SECONDS,
                         limits=httpx.Limits(max_connections=50)) as client:

        def upload(number):
            team = TEAMS[number % len(TEAMS)]
            answer = client.post("/api/submissions", headers={"Authorization": f"Bearer {tokens[team]}"},
                                 files={"archive": ("s.zip", archive)}, data={"label": f"run {number}"})
            return team, answer.status_code, answer.json()

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=len(TEAMS) * UPLOADS_PER_TEAM) as pool:
            answers = list(pool.map(upload, range(len(TEAMS) * UPLOADS_PER_TEAM), timeout=UPLOAD_SECONDS))
        uploaded = time.monotonic() - started
        assert [(status, body.get("status")) for _, status, body in answers] == [(202, "queued")] * 50, answers
        ids = {body["id"]: team for team, _, body in answers}
        assert len(ids) == 50  # no two uploads got one id

        deadline = time.monotonic() + SCORED_SECONDS
        while any(row[0] != "done" for row in _rows(database_url).values()):
            assert time.monotonic() < deadline, _rows(database_url)
            time.sleep(0.5)
        scored = time.monotonic() - started

        for number, team in ids.items():  # each done, as its team's API says
            shown = client.get(f"/api/submissions/{number}", headers={"Authorization": f"Bearer {tokens[team]}"})
            assert (shown.status_code, shown.json()["status"], shown.json()["team"]) == (200, "done", team)
        entries = client.get("/api/leaderboard?all=1").json()["entries"]
        assert sorted(entry["submission"] for entry in entries) == sorted(ids)
        assert {entry["team"] for entry in entries} == set(TEAMS)
        best = client.get("/api/leaderboard").json()["entries"]
        assert sorted(entry["team"] for entry in best) == sorted(TEAMS)  # one per team
        deadline = time.monotonic() + 30
        while len(served.done_lines()) < 50:  # the supervisor's lines may trail the database
            assert time.monotonic() < deadline, served.lines
            time.sleep(0.1)
    rows = _rows(database_url)
    assert sorted(rows) == sorted(ids)  # nothing but what was accepted
    assert {row[:2] for row in rows.values()} == {("done", 1)}  # each claimed once
    assert {row[3:] for row in rows.values()} == {(2, 2)}  # one set of results: 2 treebanks
    assert len({row[2] for row in rows.values()}) == 2  # both workers took a share
    finished = sorted(int(line.split()[1].rstrip(":")) for line in served.lines if line.startswith("submission "))
    assert finished == sorted(ids)  # each finished once, none lost its claim
    assert all(": done (attempt 1, " in line for line in served.done_lines())
    print(f"\n50 uploads from 10 teams: all answered in {uploaded:.2f} s, all scored in {scored:.2f} s "
          f"({database_url.split(':')[0]})")
