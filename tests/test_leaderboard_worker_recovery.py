"""Leaderboard workers when the database goes away (issue 42, section 2's workers): a worker
that loses its database ends with one ``conll_eval leaderboard: error [database-unreachable]``
line and a non-zero exit code, never a traceback; ``run_workers`` starts it again after a delay
doubled at each death (up to a cap, reset once a worker has lived a while), and the workers
score again once the database is back.  A worker never scores against gold files changed
since they were recorded: the submission goes back to the queue, one ``gold-changed`` line is
reported, and scoring resumes after a rescore.  ``run_workers`` runs in the test's own process (its
workers are spawned children it kills when it returns), with short delays."""
import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from sqlalchemy import func, select  # noqa: E402

from conll_eval.leaderboard import db, organisers, workers  # noqa: E402
from conll_eval.leaderboard.models import Submission, TreebankResult  # noqa: E402
from leaderboard_support import run  # noqa: E402
from pg_support import _connect_admin  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: no test waits longer than this for what it expects
PATIENCE = 60.0


def _task(tmp_path, gold=EXAMPLES / "GOLD_DIR", url=None):
    url = url or f"sqlite:///{tmp_path / 'lb.db'}"
    status, _, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(gold),
                         "--store", str(tmp_path / "store"))
    assert (status, err) == (0, ""), err
    assert run("team", "add", "--db", url, "ACME")[0] == 0
    return url


def _queue(url):
    status, out, err = run("submit", "--db", url, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"), "--queue")
    assert (status, err) == (0, ""), err
    return int(out.split()[1].rstrip(":"))


class _Script(threading.Thread):
    """Runs ``steps`` (callables given the lines reported so far, each returning when its
    condition holds) beside run_workers, then stops it with SIGTERM; also past PATIENCE."""

    def __init__(self, lines, steps):
        super().__init__(daemon=True)
        self.lines, self.steps, self.failure = lines, steps, None

    def run(self):
        try:
            for step in self.steps:
                step(self.lines)
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.failure = exc
        finally:
            os.kill(os.getpid(), signal.SIGTERM)


def _until(lines, predicate, what):
    deadline = time.monotonic() + PATIENCE
    while not predicate(list(lines)):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen; lines: {list(lines)}")
        time.sleep(0.05)


class _Outage:
    """Makes the test's database unreachable and back: a SQLite file renamed away and back;
    a PostgreSQL database closed to every connection (ALLOW_CONNECTIONS false, its sessions
    ended) and opened again."""

    def __init__(self, request, tmp_path, url):
        self.url, self.path = url, tmp_path / "lb.db"
        if url.startswith("postgresql"):
            self.base = request.getfixturevalue("postgres_url")
            self.name = url.partition("?")[0].rsplit("/", 1)[1]

    def _allow(self, allowed: bool):
        with _connect_admin(self.base) as connection:
            connection.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS {str(allowed).lower()}')
            if not allowed:
                connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   f"WHERE datname = '{self.name}' AND pid <> pg_backend_pid()")

    def lose(self):
        if self.url.startswith("sqlite"):
            os.rename(self.path, self.path.with_suffix(".away"))
        else:
            self._allow(False)

    def restore(self):
        if self.url.startswith("sqlite"):
            os.rename(self.path.with_suffix(".away"), self.path)
        else:
            self._allow(True)


@pytest.mark.slow
@pytest.mark.ci_stage2
def test_a_lost_database_ends_workers_cleanly_restarts_them_with_a_backoff_and_they_recover(
        request, tmp_path, database_url, capfd):
    url = _task(tmp_path, url=database_url)
    first = _queue(url)
    outage = _Outage(request, tmp_path, url)
    lines = []
    marks = {}

    def first_scored(lines):
        _until(lines, lambda ls: any(line.startswith(f"submission {first}: done") for line in ls), "scoring")
        outage.lose()
        marks["lost"] = len(lines)

    def restarted_four_times(lines):
        _until(lines, lambda ls: sum("starting it again" in line for line in ls) >= 4, "four restarts")
        outage.restore()
        marks["back"] = len(lines)
        marks["second"] = _queue(url)

    def second_scored(lines):
        _until(lines, lambda ls: any(line.startswith(f"submission {marks['second']}: done") for line in ls),
               "scoring after the database came back")

    script = _Script(lines, [first_scored, restarted_four_times, second_scored])
    settings = workers.WorkSettings(url, workers=1, lease=5, poll=0.1, restart_delay=0.2,
                                    restart_delay_max=0.8, settled=PATIENCE)
    script.start()
    assert workers.run_workers(settings, lines.append) == 0
    script.join(5)
    if script.failure:
        raise script.failure
    lost = lines[marks["lost"]:marks["back"]]
    problems = [line for line in lost if " error [" in line]
    restarts = [line for line in lost if "starting it again" in line]
    assert problems and all(line.startswith("conll_eval leaderboard: error [database-unreachable] worker 0: ")
                            for line in problems), lost
    assert all("Traceback" not in line and "password" not in line.lower() for line in problems)
    # one problem line and one restart line per death, the restarts' delays doubled up to the cap
    assert len(problems) in (len(restarts), len(restarts) + 1), lost
    delays = [float(line.split(" in ")[1].split()[0]) for line in restarts]
    assert delays[:4] == [0.2, 0.4, 0.8, 0.8], restarts
    assert all("ended (exit code 1); starting it again in " in line for line in restarts), restarts
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
    engine = db.open_engine(url)
    try:
        assert db.current_revision(engine) == db.head_revision()
    finally:
        engine.dispose()


def test_restarts_wait_longer_at_each_death_and_start_afresh_after_a_worker_lived_long(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(workers.time, "monotonic", lambda: now[0])
    restarts = workers._Restarts(workers.WorkSettings("sqlite://", workers=2, restart_delay=1,
                                                      restart_delay_max=60, settled=120))
    delays = []
    for _ in range(8):
        delays.append(restarts.died(0))
        assert not restarts.ready(0)
        assert restarts.wait(1000) == delays[-1]
        now[0] += delays[-1]
        assert restarts.ready(0) and not restarts.ready(0)
    assert delays == [1, 2, 4, 8, 16, 32, 60, 60]
    assert restarts.due[1] is None and restarts.died(1) == 1  # each worker its own delay
    now[0] += 120  # worker 0 lived long enough: its next death waits the first delay again
    assert restarts.died(0) == 1


def _changed_gold_task(tmp_path):
    """A task on a copy of the example gold, a queued submission, then a gold file changed."""
    gold = tmp_path / "gold"
    shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    url = _task(tmp_path, gold)
    number = _queue(url)
    changed = sorted(gold.glob("*.conllu"))[0]
    changed.write_text("# changed by the organisers\n" + changed.read_text(encoding="utf-8"), encoding="utf-8")
    return url, number, changed.stem


def _state(url, number):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            submission = session.get(Submission, number)
            results = session.scalar(select(func.count(TreebankResult.id))
                                     .where(TreebankResult.submission_id == number))
            return submission.status, submission.attempts, submission.error, submission.claimed_by, results
    finally:
        engine.dispose()


def test_work_once_leaves_a_submission_queued_when_the_gold_files_changed(tmp_path, capfd):
    url, number, treebank = _changed_gold_task(tmp_path)
    lines = []
    assert workers.run_workers(workers.WorkSettings(url, once=True, poll=0.1), lines.append) == 1
    assert len(lines) == 1 and lines[0].startswith("conll_eval leaderboard: error [gold-changed] worker 0: "
                                                   "the gold files changed since they were recorded "
                                                   f"({treebank} changed)"), lines
    assert "leaderboard rescore" in lines[0]
    assert _state(url, number) == ("queued", 0, None, None, 0)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.slow
@pytest.mark.ci_stage2
def test_workers_report_changed_gold_once_keep_the_submission_queued_and_score_it_after_rescore(tmp_path):
    url, number, treebank = _changed_gold_task(tmp_path)
    lines = []
    seen = {}

    def reported_then_idle(lines):
        _until(lines, lambda ls: any("[gold-changed]" in line for line in ls), "the gold-changed line")
        time.sleep(1.0)  # ten polls of the queue at least
        seen["lines"], seen["state"] = list(lines), _state(url, number)
        engine = db.open_engine(url)
        try:
            organisers.requeue_all(engine)  # the organiser's rescore: the gold files recorded anew
        finally:
            engine.dispose()

    def scored(lines):
        _until(lines, lambda ls: any(line.startswith(f"submission {number}: done") for line in ls), "scoring")

    script = _Script(lines, [reported_then_idle, scored])
    script.start()
    assert workers.run_workers(workers.WorkSettings(url, poll=0.1), lines.append) == 0
    script.join(5)
    if script.failure:
        raise script.failure
    assert [line for line in seen["lines"] if "error [" in line] == [
        line for line in seen["lines"] if line.startswith("conll_eval leaderboard: error [gold-changed] worker 0:")]
    assert len([line for line in seen["lines"] if "error [" in line]) == 1, seen["lines"]
    assert seen["state"] == ("queued", 0, None, None, 0)
    assert not any("failed" in line for line in lines), lines
    status, attempts, error, _, results = _state(url, number)
    assert (status, attempts, error) == ("done", 1, None) and results > 0
