"""``conll_eval leaderboard work`` (issue 42, section 2's workers): submissions queued with
``submit --queue`` are scored by K worker processes that claim them from the database; 20
submissions of 4 teams with 2 workers are each scored exactly once; a worker killed by SIGKILL
while scoring leaves its submission to another after the lease, which scores it once, as a
synchronous run does; a stale worker's writes are refused; the time and memory limits fail a
submission with its reason; the per-team daily limit refuses a submission at submit.  On SQLite,
and on PostgreSQL where tests/pg_support.py finds a server.  Every worker runs as ``python -m
conll_eval leaderboard work`` in a session of its own, killed as a group in ``finally``."""
import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from alembic import command as alembic_command  # noqa: E402
from sqlalchemy import func, select, text  # noqa: E402

from conll_eval.leaderboard import db, queue  # noqa: E402
from conll_eval.leaderboard.models import SentenceCounts, Submission, Task, TreebankResult, utcnow  # noqa: E402
from conll_eval.leaderboard.scoring import score_directory  # noqa: E402
from conll_eval.leaderboard.workers import TEST_DELAY_VARIABLE  # noqa: E402
from leaderboard_support import run  # noqa: E402
from pg_support import dying_with_parent  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TEAMS = ("ACME", "Bravo", "Charlie", "Delta")




def _init(url, tmp_path, *options):
    status, _, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(EXAMPLES / "GOLD_DIR"),
                         "--store", str(tmp_path / "store"), *options)
    assert (status, err) == (0, ""), err
    for team in (*TEAMS, "Echo"):
        assert run("team", "add", "--db", url, team)[0] == 0
    return url


def stage_two_only(test):
    """The three longest worker tests (7-14 s each) run in CI's second stage only, on both
    databases: the default run keeps near 5 minutes and tests the claims with quicker ones."""
    return pytest.mark.slow(pytest.mark.ci_stage2(test))


#: the longest worker tests run on SQLite by default and on PostgreSQL in CI's second stage (the
#: default run stays short; the database's claim path is tested on both by the quicker ones)
POSTGRES_IN_STAGE_TWO = pytest.mark.parametrize(
    "database_url", ["sqlite", pytest.param("postgresql", marks=[pytest.mark.slow, pytest.mark.ci_stage2])],
    indirect=True)


@pytest.fixture
def task(tmp_path, database_url):
    return _init(database_url, tmp_path)


def _queue(url, team="ACME", system=EXAMPLES / "SYSTEM_DIR"):
    status, out, err = run("submit", "--db", url, "--team", team, str(system), "--queue")
    assert (status, err) == (0, ""), err
    assert out.startswith("submission ") and out.endswith(": queued\n")
    return int(out.split()[1].rstrip(":"))


def _submissions(url):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            rows = session.scalars(select(Submission).order_by(Submission.id)).all()
            return [(s.id, s.status, s.attempts, s.error, s.claimed_by, s.macro) for s in rows]
    finally:
        engine.dispose()


def _results(url, submission_id):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            records = session.scalars(select(TreebankResult.record).where(
                TreebankResult.submission_id == submission_id).order_by(TreebankResult.position)).all()
            counts = session.scalar(select(func.count(SentenceCounts.id)).where(
                SentenceCounts.submission_id == submission_id))
            # each record names its submission's own copy of the file ("system"): the rest is compared
            return [{key: value for key, value in record.items() if key != "system"} for record in records], counts
    finally:
        engine.dispose()


def _work_command(url, *options):
    return [sys.executable, "-m", "conll_eval", "leaderboard", "work", "--db", url, *options]


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


def _work_once(url, *options, delay=None, timeout=180):
    """Run ``work --once`` to its end (killed as a group if it overruns); (exit code, stdout)."""
    env = dict(os.environ)
    env.pop(TEST_DELAY_VARIABLE, None)
    if delay is not None:
        env[TEST_DELAY_VARIABLE] = str(delay)
    process = subprocess.Popen(_work_command(url, "--once", *options), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                               preexec_fn=dying_with_parent(signal.SIGTERM))
    try:
        out, err = process.communicate(timeout=timeout)
        assert err == "", err
        return process.returncode, out
    finally:
        _kill_group(process)


@contextmanager
def _working(url, *options, delay):
    """``work`` running in the background (its own session), killed as a group at the end."""
    env = dict(os.environ, **{TEST_DELAY_VARIABLE: str(delay)})
    process = subprocess.Popen(_work_command(url, *options), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env, start_new_session=True,
                               preexec_fn=dying_with_parent(signal.SIGTERM))
    try:
        yield process
    finally:
        _kill_group(process)


def _synchronous(url):
    """A synchronous run's results for examples/SYSTEM_DIR (a submission of team Echo)."""
    status, out, err = run("submit", "--db", url, "--team", "Echo", str(EXAMPLES / "SYSTEM_DIR"))
    assert (status, err) == (0, ""), err
    number = int(out.split()[1].rstrip(":"))
    macro = [row[5] for row in _submissions(url) if row[0] == number][0]
    return macro, _results(url, number)


@stage_two_only
def test_twenty_submissions_of_four_teams_are_scored_once_each_by_two_workers(task, tmp_path):
    perfect = tmp_path / "perfect"
    shutil.copytree(EXAMPLES / "GOLD_DIR", perfect)
    queued = [_queue(task, team, perfect if number % 2 else EXAMPLES / "SYSTEM_DIR")
              for number in range(5) for team in TEAMS]
    assert [row[1] for row in _submissions(task)] == ["queued"] * 20
    assert run("rank", "--db", task, "--format", "json")[1].startswith('{"entries": []')
    status, out = _work_once(task, "--workers", "2")
    assert status == 0
    lines = out.splitlines()
    assert sorted(int(line.split()[1].rstrip(":")) for line in lines) == queued
    assert all(": done (attempt 1, " in line for line in lines), out
    rows = _submissions(task)
    assert [(row[1], row[2]) for row in rows] == [("done", 1)] * 20  # each claimed and scored once
    system_macro, system_results = _synchronous(task)
    for number, row in enumerate(rows):
        records, counts = _results(task, row[0])
        assert len(records) == 2 and counts == 2
        if number // len(TEAMS) % 2 == 0:
            assert (row[5], (records, counts)) == (system_macro, system_results)
        else:
            assert row[5]["LAS"]["f1"] == 1.0
    assert _work_once(task) == (0, "")  # nothing left: a second run finds an empty queue


@stage_two_only
def test_a_worker_killed_while_scoring_leaves_it_to_another_which_scores_it_once(task):
    number = _queue(task)
    with _working(task, "--lease", "4", delay=60) as working:
        deadline = time.monotonic() + 90
        while _submissions(task)[0][1] != "scoring":
            assert time.monotonic() < deadline and working.poll() is None, "never scored"
            time.sleep(0.2)
        killed_at = time.monotonic()
        worker = int(_submissions(task)[0][4].split(":")[1])
        os.kill(worker, signal.SIGKILL)  # the worker that holds the claim, mid-scoring
        _kill_group(working)  # and the rest of that run: its supervisor would start another
    assert _submissions(task)[0][1:3] == ("scoring", 1)
    assert _results(task, number) == ([], 0)
    if time.monotonic() - killed_at < 2:  # the lease still holds: nobody takes it
        assert _work_once(task) == (0, "")
        assert _submissions(task)[0][2] == 1
    time.sleep(max(0.0, 4.5 - (time.monotonic() - killed_at)))
    status, out = _work_once(task, "--lease", "4")
    assert status == 0 and out.startswith(f"submission {number}: done (attempt 2, "), out
    id_, status, attempts, error, _, macro = _submissions(task)[0]
    assert (status, attempts, error) == ("done", 2, None)
    assert (macro, _results(task, number)) == _synchronous(task)


@stage_two_only
def test_work_starts_a_killed_worker_again_and_sigterm_stops_every_process(task):
    """Without --once, the supervisor starts a worker again when one dies (the new one takes
    the submission after its lease); SIGTERM stops the run and leaves no process behind."""
    number = _queue(task)
    with _working(task, "--lease", "2", delay=2) as working:
        deadline = time.monotonic() + 90
        while _submissions(task)[0][1] != "scoring":
            assert time.monotonic() < deadline and working.poll() is None, "never scored"
            time.sleep(0.05)
        first = int(_submissions(task)[0][4].split(":")[1])
        os.kill(first, signal.SIGKILL)
        while _submissions(task)[0][1] != "done":
            assert time.monotonic() < deadline and working.poll() is None, "never scored again"
            time.sleep(0.2)
        row = _submissions(task)[0]
        assert row[2] == 2 and int(row[4].split(":")[1]) != first
        working.send_signal(signal.SIGTERM)
        assert working.wait(timeout=30) == 0
        with pytest.raises(ProcessLookupError):  # no worker nor scoring child is left in its group
            for _ in range(50):
                os.killpg(working.pid, 0)
                time.sleep(0.1)
    assert len(_results(task, number)[0]) == 2


def test_a_stale_worker_cannot_write_over_the_claim_that_replaced_it(task):
    number = _queue(task)
    engine = db.open_engine(task)
    try:
        stale = queue.claim_next(engine, "host:1:stale", lease_seconds=1)
        assert stale == queue.Claim(number, "host:1:stale", 1)
        assert queue.claim_next(engine, "host:2:fresh", 60) is None  # none other queued
        time.sleep(1.1)  # the stale lease is over
        fresh = queue.claim_next(engine, "host:2:fresh", 60)
        assert fresh == queue.Claim(number, "host:2:fresh", 2)
        scored = score_directory(str(EXAMPLES / "GOLD_DIR"), str(EXAMPLES / "SYSTEM_DIR"), "conll18", 0,
                                 ["LAS"], "LAS")
        assert not queue.renew(engine, stale, 60)
        assert not queue.advance(engine, stale, "scoring", 60)
        assert not queue.finish(engine, stale, scored)
        assert not queue.fail(engine, stale, "stale")
        assert _submissions(task)[0][1:5] == ("validating", 2, None, "host:2:fresh")
        assert _results(task, number) == ([], 0)
        same_worker_older_attempt = queue.Claim(number, "host:2:fresh", 1)
        assert not queue.finish(engine, same_worker_older_attempt, scored)
        assert queue.finish(engine, fresh, scored)
        assert not queue.finish(engine, fresh, scored)  # done: written once
        assert not queue.fail(engine, stale, "stale")
    finally:
        engine.dispose()
    assert _submissions(task)[0][1:4] == ("done", 2, None)
    assert len(_results(task, number)[0]) == 2


def _past(**delta):
    return utcnow() - dt.timedelta(**delta)


def test_a_submission_whose_workers_keep_dying_fails_after_three_attempts(task):
    number = _queue(task)
    engine = db.open_engine(task)
    try:
        for attempt in (1, 2, 3):  # each claim's worker "dies": its lease runs out
            assert queue.claim_next(engine, f"host:{attempt}:dying", 0.2) == \
                queue.Claim(number, f"host:{attempt}:dying", attempt)
            time.sleep(0.3)
        assert queue.claim_next(engine, "host:4:next", 60) is None
    finally:
        engine.dispose()
    assert _submissions(task)[0][1:4] == ("failed", 3, "its scoring was interrupted 3 times (the worker "
                                          "died or lost its lease): scoring it is given up")


def test_a_queued_submission_that_pairs_with_no_gold_treebank_fails_when_validated(task, tmp_path):
    stray = tmp_path / "stray"
    stray.mkdir()
    shutil.copyfile(EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu", stray / "xx_unknown.conllu")
    number = _queue(task, system=stray)
    status, out = _work_once(task)
    assert status == 0 and out.startswith(f"submission {number}: failed: no file pairs with a gold "
                                          "treebank"), out
    assert _submissions(task)[0][1:3] == ("failed", 1) and _results(task, number) == ([], 0)


@POSTGRES_IN_STAGE_TWO
def test_a_submission_over_the_time_limit_fails_with_its_reason(task):
    _queue(task)
    started = time.monotonic()
    status, out = _work_once(task, "--time-limit", "1", delay=30)
    assert status == 0 and time.monotonic() - started < 25
    row = _submissions(task)[0]
    assert row[1] == "failed" and row[2] == 1
    assert row[3].startswith("[time-limit] scoring it took more than 1 s"), row[3]
    assert "failed: [time-limit]" in out


def test_a_submission_over_the_memory_limit_fails_with_its_reason(tmp_path):
    url = _init(f"sqlite:///{tmp_path / 'lb.db'}", tmp_path)
    _queue(url)
    status, out = _work_once(url, "--memory-limit", "64")
    row = _submissions(url)[0]
    assert status == 0 and row[1] == "failed"
    assert row[3].startswith("[memory-limit] scoring it needed more than 67108864 bytes"), row[3]


def test_the_daily_limit_refuses_a_submission_at_submit_and_keeps_nothing(tmp_path, database_url):
    url = _init(database_url, tmp_path, "--daily-limit", "2")
    _queue(url)
    assert run("submit", "--db", url, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"))[0] == 0
    status, out, err = run("submit", "--db", url, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"), "--queue")
    assert (status, out) == (1, "")
    assert err == ("conll_eval leaderboard: error [daily-limit] team 'ACME' made 2 submissions in the "
                   "last 24 hours, the task's limit (2): submit again later\n")
    assert len(_submissions(url)) == 2 and sorted(os.listdir(tmp_path / "store")) == \
        ["submission-1", "submission-2"]
    assert _queue(url, "Bravo") == 3  # another team's count is its own
    engine = db.open_engine(url)
    with engine.begin() as connection:  # a day later, the first one no longer counts
        connection.execute(text("UPDATE submission SET created_at = :when WHERE id = 1"),
                           {"when": _past(days=1, seconds=10)})
    engine.dispose()
    assert _queue(url) == 4
    assert run("init", "--db", f"sqlite:///{tmp_path / 'other.db'}", "--name", "T", "--gold",
               str(EXAMPLES / "GOLD_DIR"), "--store", "x", "--daily-limit", "-1")[0] == 2


def test_upgrade_from_0001_gives_the_queue_columns_and_keeps_the_data(task):
    assert run("submit", "--db", task, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"))[0] == 0
    engine = db.open_engine(task)
    with engine.begin() as connection:
        alembic_command.downgrade(db._config(connection), "0001")
    status, _, err = run("rank", "--db", task)
    assert status == 1 and "error [old-schema]" in err
    status, out, err = run("upgrade", "--db", task)
    assert (status, out, err) == (0, f"schema 0001 -> {db.head_revision()}\n", "")
    with db.session_scope(engine) as session:
        assert session.scalars(select(Task.daily_limit)).all() == [5]
    engine.dispose()
    assert [row[1:3] for row in _submissions(task)] == [("done", 0)]


@pytest.mark.parametrize("option", [["--workers", "0"], ["--workers", "65"], ["--lease", "inf"],
                                    ["--lease", "nan"], ["--time-limit", "0"], ["--memory-limit", "8"]])
def test_work_refuses_options_out_of_range_as_usage_errors(tmp_path, option):
    status, out, err = run("work", "--db", f"sqlite:///{tmp_path / 'none.db'}", "--once", *option)
    assert (status, out) == (2, "")
    assert err.startswith(f"conll_eval leaderboard: error [usage] conll_eval leaderboard work: error: "
                          f"argument {option[0]}: {option[1]!r}: give a number from "), err
