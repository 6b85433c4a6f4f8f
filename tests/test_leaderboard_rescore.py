"""``leaderboard rescore`` while workers may run (issue 42): without ``--queue`` it scores every
submission in its own process but through the queue's claim (each claimed in turn, written under
that claim), so that a worker's stale claim on one writes nothing over it and none is scored
twice; with ``--queue`` (what ``submit --queue`` means: for the workers) it puts every submission
back in the queue, as the organiser page's Rescore all does, and the workers score each once.
Both record the gold files anew.  On SQLite, and on PostgreSQL where tests/pg_support.py finds
a server."""
import shutil
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from sqlalchemy import select  # noqa: E402

from conll_eval.leaderboard import db, queue, workers  # noqa: E402
from conll_eval.leaderboard.models import Submission, TreebankResult  # noqa: E402
from conll_eval.leaderboard.scoring import score_directory  # noqa: E402
from leaderboard_support import run  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STALE_WORKER = "elsewhere:99:worker-0"


@pytest.fixture
def task(tmp_path, database_url):
    """Two submissions scored, a third queued and claimed by a worker, then a gold file changed."""
    gold = tmp_path / "gold"
    shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    status, _, err = run("init", "--db", database_url, "--name", "Toy task", "--gold", str(gold),
                         "--store", str(tmp_path / "store"))
    assert (status, err) == (0, ""), err
    for team in ("ACME", "Bravo"):
        assert run("team", "add", "--db", database_url, team)[0] == 0
    for team in ("ACME", "Bravo"):
        assert run("submit", "--db", database_url, "--team", team, str(EXAMPLES / "SYSTEM_DIR"))[0] == 0
    assert run("submit", "--db", database_url, "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR"), "--queue")[0] == 0
    engine = db.open_engine(database_url)
    try:
        stale = queue.claim_next(engine, STALE_WORKER, 600)
    finally:
        engine.dispose()
    assert stale is not None and stale.submission_id == 3
    changed = gold / "en_cats.conllu"
    text = changed.read_text(encoding="utf-8")
    assert "\t2\tdet\t" in text
    changed.write_text(text.replace("\t2\tdet\t", "\t2\tnmod\t", 1), encoding="utf-8")  # LAS moves
    assert "[gold-changed]" in run("rank", "--db", database_url)[2]
    return database_url, stale, gold


def _rows(url):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            rows = []
            for submission in session.scalars(select(Submission).order_by(Submission.id)):
                results = session.scalars(select(TreebankResult.record).where(
                    TreebankResult.submission_id == submission.id).order_by(TreebankResult.position)).all()
                rows.append((submission.id, submission.status, submission.attempts, submission.claimed_by,
                             submission.error, submission.macro, [dict(r, system=None) for r in results]))
            return rows
    finally:
        engine.dispose()


def _stale_worker_writes(url, stale, gold, directory):
    """What the stale worker's finish, fail and renew do now: all must be refused."""
    engine = db.open_engine(url)
    try:
        scored = score_directory(str(gold), directory, "conll18", 0, ["LAS"], "LAS")
        return queue.finish(engine, stale, scored), queue.fail(engine, stale, "x"), queue.renew(engine, stale, 60)
    finally:
        engine.dispose()


def test_rescore_scores_through_claims_and_a_stale_worker_writes_nothing_over_it(task, tmp_path):
    url, stale, gold = task
    before = _rows(url)
    status, out, err = run("rescore", "--db", url)
    assert (status, out, err) == (0, "3 submission(s) scored again\n", "")
    after = _rows(url)
    assert [row[1] for row in after] == ["done"] * 3
    # each claimed once more by rescore: the synchronous ones' first claim, the worker's replaced
    assert [row[2] for row in after] == [1, 1, 2]
    assert all(row[3].endswith(":rescore") for row in after)
    assert before[0][5] != after[0][5]  # scored against the changed gold: its numbers moved
    assert after[0][5] == after[1][5] == after[2][5] and after[2][6] == after[0][6]
    directory = str(tmp_path / "store" / "submission-3")
    assert _stale_worker_writes(url, stale, gold, directory) == (False, False, False)
    assert _rows(url) == after
    assert run("rank", "--db", url)[0] == 0  # the gold files recorded anew
    for _ in range(3):  # rescoring again and again never counts towards the queue's give-up
        assert run("rescore", "--db", url)[1] == "3 submission(s) scored again\n"
    assert [row[1:3] for row in _rows(url)] == [("done", 1)] * 3
    # the same numbers a synchronous submit gives against the new gold files
    status, out, _ = run("submit", "--db", url, "--team", "Bravo", str(EXAMPLES / "SYSTEM_DIR"))
    assert status == 0 and _rows(url)[3][5] == after[0][5]


def test_rescore_fails_a_submission_whose_files_are_gone_and_drops_its_results(task, tmp_path):
    url, _, _ = task
    shutil.rmtree(tmp_path / "store" / "submission-2")
    status, out, err = run("rescore", "--db", url)
    assert (status, err) == (0, "") and out == "3 submission(s) scored again\n"
    second = _rows(url)[1]
    assert second[1] == "failed" and second[4].startswith("its files are gone (")
    assert second[5] is None and second[6] == []


def test_rescore_queue_puts_every_submission_back_for_the_workers_which_score_each_once(task, tmp_path):
    url, stale, gold = task
    status, out, err = run("rescore", "--db", url, "--queue")
    assert (status, out, err) == (0, "3 submission(s) queued for the workers\n", "")
    assert [row[1:5] for row in _rows(url)] == [("queued", 0, None, None)] * 2 + [("queued", 1, None, None)]
    directory = str(tmp_path / "store" / "submission-3")
    assert _stale_worker_writes(url, stale, gold, directory) == (False, False, False)
    lines = []
    assert workers.run_workers(workers.WorkSettings(url, once=True, poll=0.1), lines.append) == 0
    done = sorted(int(line.split()[1].rstrip(":")) for line in lines if ": done (attempt" in line)
    assert done == [1, 2, 3], lines
    rows = _rows(url)
    assert [row[1] for row in rows] == ["done"] * 3 and rows[0][5] == rows[2][5]
    assert run("rank", "--db", url)[0] == 0
