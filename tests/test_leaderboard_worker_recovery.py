"""Leaderboard workers when the database goes away (issue 42, section 2's workers): a worker
that loses its database ends with one ``conll_eval leaderboard: error [database-unreachable]``
line and a non-zero exit code, never a traceback; ``run_workers`` starts it again after a delay
doubled at each death (up to a cap, reset once a worker has lived a while), and the workers
score again once the database is back.  ``run_workers`` runs in the test's own process (its
workers are spawned children it kills when it returns), with short delays."""
import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from conll_eval.leaderboard import db, workers  # noqa: E402
from leaderboard_support import run  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: no test waits longer than this for what it expects
PATIENCE = 60.0


def _task(tmp_path):
    url = f"sqlite:///{tmp_path / 'lb.db'}"
    status, _, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(EXAMPLES / "GOLD_DIR"),
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


@pytest.mark.slow
@pytest.mark.ci_stage2
def test_a_lost_sqlite_file_ends_workers_cleanly_restarts_them_with_a_backoff_and_they_recover(tmp_path, capfd):
    url = _task(tmp_path)
    first = _queue(url)
    path = tmp_path / "lb.db"
    away = tmp_path / "lb.db.away"
    lines = []
    marks = {}

    def first_scored(lines):
        _until(lines, lambda ls: any(line.startswith(f"submission {first}: done") for line in ls), "scoring")
        os.rename(path, away)
        marks["lost"] = len(lines)

    def restarted_four_times(lines):
        _until(lines, lambda ls: sum("starting it again" in line for line in ls) >= 4, "four restarts")
        os.rename(away, path)
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
    assert all("lb.db" in line and "Traceback" not in line for line in problems)
    # one problem line and one restart line per death, the restarts' delays doubled up to the cap
    assert len(problems) in (len(restarts), len(restarts) + 1), lost
    delays = [float(line.split(" in ")[1].split()[0]) for line in restarts]
    assert delays[:4] == [0.2, 0.4, 0.8, 0.8], restarts
    assert all("ended (exit code 1); starting it again in " in line for line in restarts), restarts
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
    assert db.current_revision(db.open_engine(url)) == db.head_revision()


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
