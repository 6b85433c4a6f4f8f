"""A crash test through ``conll_eval leaderboard serve --workers 2 --lease 3`` (issue 42's "Must
show"): the worker scoring an upload, found among serve's descendants in /proc, is killed with
SIGKILL mid-scoring; its scoring child ends with it, the submission stays ``scoring`` under its
first claim while the lease holds, then another worker claims it and it ends ``done`` exactly
once (attempt 2, one set of results, one ``done`` line, the suite CLI's scores digit for digit),
and the supervisor starts the killed worker again.  On SQLite and on PostgreSQL, in CI's second
stage (the scoring slowed by the test-only CONLL_EVAL_TEST_SCORING_DELAY to be caught); a
lease out of range is a usage error (default run)."""
import datetime as dt
import json
import os
import signal
import time

import pytest

pytest.importorskip("starlette", reason="the leaderboard extra (Starlette) is not installed")
httpx = pytest.importorskip("httpx", reason="the leaderboard extra (httpx) is not installed")

from sqlalchemy import func, select  # noqa: E402

from conll_eval.leaderboard import db  # noqa: E402
from conll_eval.leaderboard.models import SentenceCounts, Submission, TreebankResult, utcnow  # noqa: E402
from conll_eval.leaderboard.workers import TEST_DELAY_VARIABLE  # noqa: E402
from leaderboard_serve_support import make_task, serve_processes, serving  # noqa: E402
from leaderboard_support import run  # noqa: E402
from leaderboard_web_support import EXAMPLES, submission_directory, suite_json, zip_of  # noqa: E402

LEASE = 3
#: seconds the scoring child sleeps before it scores: time enough to catch it at ``scoring``
DELAY = 4
#: bound on each wait (seconds)
WAIT_SECONDS = 120.0


def _row(url, number):
    """The submission's (status, attempts, claimed_by, error, result rows, sentence-count rows)."""
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            submission = session.get(Submission, number)
            results = session.scalar(select(func.count()).select_from(TreebankResult)
                                     .where(TreebankResult.submission_id == number))
            counts = session.scalar(select(func.count()).select_from(SentenceCounts)
                                    .where(SentenceCounts.submission_id == number))
            return submission.status, submission.attempts, submission.claimed_by, submission.error, results, counts
    finally:
        engine.dispose()


def _lease_left(url, number):
    """Seconds left of the submission's lease (SQLite gives its time back without a zone: UTC)."""
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            until = session.get(Submission, number).lease_until
    finally:
        engine.dispose()
    return (until.replace(tzinfo=until.tzinfo or dt.timezone.utc) - utcnow()).total_seconds()


def _gone(pid):
    """The process ended (no longer in /proc, or a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _until(condition, what):
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.parametrize("lease", ["0", "0.05", "nan", "inf", "86401", "x"])
def test_serve_refuses_a_lease_out_of_range_as_a_usage_error(tmp_path, lease):
    status, out, err = run("serve", "--db", f"sqlite:///{tmp_path / 'lb.db'}", "--port", "0", "--lease", lease)
    assert (status, out) == (2, "") and "--lease" in err and "Traceback" not in err
    assert not (tmp_path / "lb.db").exists()  # refused before anything was opened


@pytest.mark.slow
@pytest.mark.ci_stage2
def test_a_worker_of_serve_killed_mid_scoring_leaves_its_submission_scored_once(tmp_path, database_url):
    tokens = make_task(tmp_path, database_url, ("ACME",), None)
    archive = zip_of(EXAMPLES / "SYSTEM_DIR", tmp_path / "system.zip")
    env = dict(os.environ, **{TEST_DELAY_VARIABLE: str(DELAY)})
    with serving(database_url, "--workers", "2", "--lease", str(LEASE), env=env) as served:
        with open(archive, "rb") as handle:
            answer = httpx.post(served.base + "api/submissions", headers={"Authorization": f"Bearer {tokens['ACME']}"},
                                files={"archive": ("system.zip", handle)}, timeout=60)
        assert answer.status_code == 202, answer.text
        number = answer.json()["id"]
        _until(lambda: _row(database_url, number)[0] == "scoring", "never scoring")
        holder = _row(database_url, number)[2]
        assert 0 < _lease_left(database_url, number) <= LEASE  # serve gave its workers --lease
        worker = int(holder.split(":")[1])  # host:pid:worker-N
        family = serve_processes(served.process.pid)
        supervisor = family[worker]
        assert family[supervisor] == served.process.pid  # serve -> the supervisor -> this worker
        scoring_children = [pid for pid, parent in family.items() if parent == worker]
        assert scoring_children, family  # it is scoring, in a child of its own
        os.kill(worker, signal.SIGKILL)
        killed_at = time.monotonic()
        _until(lambda: all(_gone(pid) for pid in scoring_children), "the scoring child outlived its worker")
        status, attempts, claimed_by, *_ = _row(database_url, number)
        if time.monotonic() - killed_at < LEASE - 1:  # the lease still holds: still the first claim's
            assert (status, attempts, claimed_by) == ("scoring", 1, holder)
        _until(lambda: _row(database_url, number)[0] not in ("queued", "validating", "scoring"), "never scored again")
        recovered = time.monotonic() - killed_at
        _until(lambda: served.done_lines(), "no done line")
        _until(lambda: any("ended (exit code -9); starting it again" in line for line in served.lines),
               "the killed worker was not started again")
        entries = httpx.get(served.base + "api/leaderboard?all=1", timeout=30).json()["entries"]
        time.sleep(1)  # a second 'done' would have come by now: the claims' writes are guarded
    status, attempts, claimed_by, error, results, counts = _row(database_url, number)
    assert (status, attempts, error, results, counts) == ("done", 2, None, 2, 2)
    assert int(claimed_by.split(":")[1]) != worker
    done = [line for line in served.lines if line.startswith(f"submission {number}:")]
    assert len(done) == 1 and done[0].startswith(f"submission {number}: done (attempt 2, "), served.lines
    expected = suite_json(tmp_path / "gold", submission_directory(database_url, number))
    assert [entry["submission"] for entry in entries] == [number]
    assert json.dumps(entries[0]["macro"]) == json.dumps(expected["macro"])
    assert json.dumps(entries[0]["treebanks"]) == json.dumps(expected["treebanks"])
    print(f"\nworker {worker} killed mid-scoring; scored again (attempt 2) {recovered:.2f} s later "
          f"(lease {LEASE} s, scoring delay {DELAY} s; {database_url.split(':')[0]})")
