"""``conll_eval leaderboard``'s core (issue 42, section 1) on SQLite in a temporary directory:
init and upgrade, refusal of a database without the schema, of another program's, of an older
and of an unknown revision; team tokens (only a salted hash stored); submit -> rank, whose JSON
entries equal a real ``conll_eval suite GOLD DIR --format json`` run digit for digit; a missing
or invalid treebank 0 with its reason; a changed gold file noticed, and rescore; usage errors.
Skipped when SQLAlchemy (the leaderboard extra) is not installed.  The tests that do not look
into SQLite's file run on PostgreSQL too, each in a new database, on the server of
tests/pg_support.py (``CONLL_EVAL_TEST_POSTGRES_URL``, else a throwaway cluster from Debian's
packaged binaries; skipped without either)."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from sqlalchemy import inspect, select, text  # noqa: E402

from conll_eval.leaderboard import db  # noqa: E402
from conll_eval.leaderboard.models import GoldFile, SentenceCounts, Submission, Team, TreebankResult  # noqa: E402
from conll_eval.leaderboard.scoring import counts_from_bytes, file_sha256  # noqa: E402
from conll_eval.leaderboard.tokens import token_matches  # noqa: E402
from leaderboard_support import run  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"




@pytest.fixture
def task(tmp_path, database_url):
    """A task on a copy of examples/GOLD_DIR (two treebanks), a team ACME; (url, gold dir)."""
    gold = tmp_path / "gold"
    shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    url = database_url
    status, out, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(gold),
                           "--store", str(tmp_path / "store"))
    assert (status, err) == (0, ""), err
    assert run("team", "add", "--db", url, "ACME")[0] == 0
    return url, gold


def _rows(url, model):
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            return list(session.scalars(select(model)))
    finally:
        engine.dispose()


def _suite_json(gold, system):
    done = subprocess.run([sys.executable, "-m", "conll_eval", "suite", str(gold), str(system),
                           "--format", "json"], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr  # 1: a treebank failed (scored 0)
    return json.loads(done.stdout)


def _rank_json(url, *options):
    status, out, err = run("rank", "--db", url, "--format", "json", *options)
    assert (status, err) == (0, ""), err
    return json.loads(out)


def _submit(url, path, label="", team="ACME"):
    return run("submit", "--db", url, "--team", team, str(path), *(["--label", label] if label else []))


# init, upgrade, schema refusals --------------------------------------------------------------

def test_init_records_the_task_and_the_gold_checksums(task):
    url, gold = task
    engine = db.open_engine(url)
    assert db.current_revision(engine) == db.head_revision()
    engine.dispose()
    files = {g.treebank: g.sha256 for g in _rows(url, GoldFile)}
    assert files == {"en_cats": file_sha256(str(gold / "en_cats.conllu")),
                     "en_dogs": file_sha256(str(gold / "en_dogs.conllu"))}
    status, _, err = run("init", "--db", url, "--name", "again", "--gold", str(gold), "--store", "x")
    assert status == 1 and "error [task-exists]" in err


def test_the_migrations_make_the_models_schema(task):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from conll_eval.leaderboard.models import Base
    engine = db.open_engine(task[0])
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    engine.dispose()


def test_a_database_without_the_schema_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'none.db'}"
    status, _, err = run("team", "add", "--db", url, "X")
    assert status == 1
    assert err.startswith("conll_eval leaderboard: error [not-a-leaderboard] ") and "leaderboard init" in err


def test_another_programs_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    for argv in (["init", "--name", "T", "--gold", str(EXAMPLES / "GOLD_DIR")], ["upgrade"], ["rank"]):
        status, _, err = run(*argv[:1], "--db", f"sqlite:///{path}", *argv[1:])
        assert status == 1 and "error [not-a-leaderboard]" in err and "another program" in err, argv
    assert path.read_bytes() == before


def _stamp(url, revision):
    engine = db.open_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :revision"), {"revision": revision})
    engine.dispose()


def test_an_unknown_revision_is_refused_by_every_command(task):
    url, gold = task
    _stamp(url, "9999")
    for argv in (["upgrade"], ["team", "add", "B"], ["rank"], ["rescore"],
                 ["submit", "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR")]):
        status, _, err = run(*argv, "--db", url)
        assert status == 1 and "error [unknown-schema]" in err and "9999" in err, argv
    engine = db.open_engine(url)
    assert db.current_revision(engine) == "9999"  # never rewritten
    engine.dispose()


def test_an_older_revision_is_refused_until_upgrade_migrates_it(task, tmp_path, monkeypatch):
    """A newer conll_eval (here: the shipped migrations plus a revision 0002 that adds a
    column) refuses the database at 0001 naming 'leaderboard upgrade', which migrates it
    keeping its data."""
    url, _ = task
    newer = tmp_path / "migrations"
    shutil.copytree(db.MIGRATIONS, newer, ignore=shutil.ignore_patterns("__pycache__"))
    head = db.head_revision()  # the newer revision follows the shipped newest one
    (newer / "versions" / "9999_note.py").write_text(
        '"""Teams get a note."""\nimport sqlalchemy as sa\nfrom alembic import op\n\n'
        f'revision = "9999"\ndown_revision = "{head}"\nbranch_labels = None\ndepends_on = None\n\n\n'
        'def upgrade():\n    op.add_column("team", sa.Column("note", sa.Text, nullable=True))\n\n\n'
        'def downgrade():\n    op.drop_column("team", "note")\n')
    monkeypatch.setattr(db, "MIGRATIONS", str(newer))
    status, _, err = run("team", "add", "--db", url, "B")
    assert status == 1 and "error [old-schema]" in err and "'conll_eval leaderboard upgrade'" in err
    status, _, err = run("init", "--db", url, "--name", "T", "--gold", str(EXAMPLES / "GOLD_DIR"), "--store", "x")
    assert status == 1 and "error [old-schema]" in err  # init migrates nothing either
    assert run("rank", "--db", url)[0] == 1
    status, out, err = run("upgrade", "--db", url)
    assert (status, err) == (0, "") and out == f"schema {head} -> 9999\n"
    engine = db.open_engine(url)
    assert "note" in [column["name"] for column in inspect(engine).get_columns("team")]
    engine.dispose()
    assert run("team", "add", "--db", url, "B")[0] == 0
    assert [t.name for t in _rows(url, Team)] == ["ACME", "B"]


# teams ----------------------------------------------------------------------------------------

def test_a_team_token_is_printed_once_and_only_its_salted_hash_kept(task, tmp_path):
    url, _ = task
    status, out, err = run("team", "add", "--db", url, "Bravo")
    assert (status, err) == (0, "")
    token = out.splitlines()[-1]
    assert len(token) >= 40
    team = [t for t in _rows(url, Team) if t.name == "Bravo"][0]
    if url.startswith("sqlite"):
        assert token.encode() not in (tmp_path / "lb.db").read_bytes()
    assert token_matches(token, team.token_salt, team.token_hash)
    assert not token_matches(token[:-1] + ("A" if token[-1] != "A" else "B"), team.token_salt, team.token_hash)
    other = run("team", "add", "--db", url, "Charlie")[1].splitlines()[-1]
    salts = {t.token_salt for t in _rows(url, Team)}
    assert other != token and len(salts) == 3
    status, _, err = run("team", "add", "--db", url, "Bravo")
    assert status == 1 and "error [team-exists]" in err


# submit and rank ------------------------------------------------------------------------------

def test_rank_json_is_suites_json_digit_for_digit(task, tmp_path):
    url, gold = task
    partial = tmp_path / "partial"
    partial.mkdir()
    shutil.copy(EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu", partial)
    assert _submit(url, EXAMPLES / "SYSTEM_DIR", "full")[0] == 0
    assert run("team", "add", "--db", url, "Bravo")[0] == 0
    assert _submit(url, partial, "partial", team="Bravo")[0] == 0
    document = _rank_json(url)
    directories = {s.id: s.directory for s in _rows(url, Submission)}
    assert [(e["team"], e["submission"], e["label"], e["rank"]) for e in document["entries"]] == [
        ("ACME", 1, "full", 1), ("Bravo", 2, "partial", 2)]
    for entry in document["entries"]:
        expected = _suite_json(gold, directories[entry["submission"]])
        assert entry["macro"] == expected["macro"]
        assert entry["treebanks"] == expected["treebanks"]
        assert json.dumps(entry["macro"]) == json.dumps(expected["macro"])  # digit for digit


def test_a_missing_or_invalid_treebank_counts_0_with_its_reason(task, tmp_path):
    url, gold = task
    broken = tmp_path / "broken"
    broken.mkdir()
    shutil.copy(EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu", broken)
    (broken / "en_dogs.conllu").write_text("1\tDogs\n\n", encoding="utf-8")
    status, out, err = _submit(url, broken)
    assert (status, err) == (0, "")
    assert "en_dogs scored 0:" in out
    results = {r.treebank: r for r in _rows(url, TreebankResult)}
    assert results["en_cats"].status == "ok" and results["en_cats"].reason is None
    assert results["en_dogs"].reason is not None and results["en_dogs"].status.startswith(str(broken.parent))
    assert results["en_dogs"].record["metrics"]["LAS"]["f1"] == 0.0
    entry = _rank_json(url)["entries"][0]
    cats_las = results["en_cats"].record["metrics"]["LAS"]["f1"]
    assert entry["macro"]["LAS"]["f1"] == cats_las / 2 and entry["macro"]["LAS"]["treebanks"] == 2
    status, out, _ = run("rank", "--db", url)
    assert "0.00!" in out and "! the treebank scored 0" in out
    assert entry["treebanks"] == _suite_json(gold, _rows(url, Submission)[0].directory)["treebanks"]


def test_the_per_sentence_counts_are_kept_for_the_significance_tests(task):
    url, _ = task
    assert _submit(url, EXAMPLES / "SYSTEM_DIR")[0] == 0
    kept = {c.treebank: counts_from_bytes(c.counts) for c in _rows(url, SentenceCounts)}
    assert set(kept) == {"en_cats", "en_dogs"}
    for result in _rows(url, TreebankResult):
        las = kept[result.treebank]["LAS"]
        assert las.shape[1] == 3 and las.dtype.kind == "i"
        record = result.record["metrics"]["LAS"]
        assert list(las.sum(axis=0)) == [record["correct"], record["gold"], record["system"]]


def test_best_per_team_by_default_every_submission_with_all(task, tmp_path):
    url, _ = task
    partial = tmp_path / "partial"
    partial.mkdir()
    shutil.copy(EXAMPLES / "SYSTEM_DIR" / "en_dogs.conllu", partial)
    assert _submit(url, partial, "weak")[0] == 0
    assert _submit(url, EXAMPLES / "SYSTEM_DIR", "strong")[0] == 0
    assert _submit(url, EXAMPLES / "SYSTEM_DIR", "same")[0] == 0
    best = _rank_json(url)["entries"]
    assert [(e["label"], e["rank"]) for e in best] == [("strong", 1)]
    every = _rank_json(url, "--all")["entries"]
    assert [(e["label"], e["rank"]) for e in every] == [("strong", 1), ("same", 1), ("weak", 3)]
    assert _rank_json(url, "--best")["entries"] == best


def test_rank_formats(task):
    url, _ = task
    assert _submit(url, EXAMPLES / "SYSTEM_DIR", "base_line")[0] == 0
    outputs = {fmt: run("rank", "--db", url, "--format", fmt) for fmt in ("text", "markdown", "latex")}
    assert all(status == 0 and err == "" for status, _, err in outputs.values())
    assert "ACME" in outputs["text"][1] and "base_line" in outputs["text"][1] and "87.50" in outputs["text"][1]
    assert "|    1 |       1 | ACME |" in outputs["markdown"][1]
    assert "base\\_line" in outputs["latex"][1] and "\\begin{tabular}" in outputs["latex"][1]


def test_rank_output_file(task, tmp_path):
    url, _ = task
    assert _submit(url, EXAMPLES / "SYSTEM_DIR")[0] == 0
    target = tmp_path / "ranking.json"
    status, out, err = run("rank", "--db", url, "--format", "json", "-o", str(target))
    assert (status, out, err) == (0, "", "")
    assert json.loads(target.read_text())["entries"][0]["team"] == "ACME"


# changed gold, rescore ------------------------------------------------------------------------

def test_a_changed_gold_file_is_noticed_and_rescore_scores_again(task):
    url, gold = task
    assert _submit(url, EXAMPLES / "SYSTEM_DIR")[0] == 0
    before = _rank_json(url)["entries"][0]
    path = gold / "en_dogs.conllu"
    path.write_text(path.read_text().replace("\tnsubj\t", "\tobj\t"))
    for argv in (["rank"], ["submit", "--team", "ACME", str(EXAMPLES / "SYSTEM_DIR")]):
        status, _, err = run(*argv, "--db", url)
        assert status == 1 and "error [gold-changed]" in err and "en_dogs changed" in err, argv
        assert "'conll_eval leaderboard rescore'" in err
    assert len(_rows(url, Submission)) == 1  # the refused submission is not kept
    status, out, err = run("rescore", "--db", url)
    assert (status, out, err) == (0, "1 submission(s) scored again\n", "")
    after = _rank_json(url)["entries"][0]
    assert after["macro"]["LAS"]["f1"] < before["macro"]["LAS"]["f1"]
    expected = _suite_json(gold, _rows(url, Submission)[0].directory)
    assert (after["macro"], after["treebanks"]) == (expected["macro"], expected["treebanks"])
    assert {g.treebank: g.sha256 for g in _rows(url, GoldFile)}["en_dogs"] == file_sha256(str(path))


# usage and input errors -----------------------------------------------------------------------

def test_usage_and_input_errors(task, tmp_path):
    url, gold = task
    status, _, err = _submit(url, tmp_path / "nowhere")
    assert status == 2 and "no such file or directory" in err
    text = tmp_path / "notes.txt"
    text.write_text("x")
    status, _, err = _submit(url, text)
    assert status == 2 and "give a directory of <treebank>.conllu files" in err
    status, _, err = _submit(url, EXAMPLES / "SYSTEM_DIR", team="Nobody")
    assert status == 1 and "error [unknown-team]" in err
    status, _, err = _submit(url, tmp_path)  # nothing pairs with a gold treebank
    assert status == 1 and "error [submission-failed]" in err
    assert [s.status for s in _rows(url, Submission)] == ["failed"]
    assert _rank_json(url)["entries"] == []
    status, _, err = run("init", "--db", f"sqlite:///{tmp_path / 'b.db'}", "--name", "T", "--gold",
                         str(gold), "--primary", "NOPE")
    assert status == 2 and "--primary: unknown metric(s) NOPE" in err
    status, _, err = run("rank", "--db", "nosuchdialect://x")
    assert status == 2 and err.startswith("conll_eval leaderboard: error [usage] --db nosuchdialect://x")
    status, _, err = run("team", "add", "--db", url, "bad\nname")
    assert status == 2 and "\n" not in err.rstrip("\n")
    status, _, err = run()
    assert status == 2 and "conll_eval leaderboard" in err


def test_an_archive_goes_through_the_archive_module(task, tmp_path):
    pytest.importorskip("conll_eval.leaderboard.archive", reason="the archive module is not there yet")
    import zipfile
    url, gold = task
    archive = tmp_path / "run.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for name in ("en_cats.conllu", "en_dogs.conllu"):
            bundle.write(EXAMPLES / "SYSTEM_DIR" / name, name)
    assert _submit(url, archive)[0] == 0
    entry = _rank_json(url)["entries"][0]
    assert entry["treebanks"] == _suite_json(gold, _rows(url, Submission)[0].directory)["treebanks"]


def test_scoring_never_imports_the_leaderboards_dependencies():
    code = ("import sys, io; from conll_eval.cli import main; "
            f"main(['suite', {str(EXAMPLES / 'GOLD_DIR')!r}, {str(EXAMPLES / 'SYSTEM_DIR')!r}], io.StringIO(), io.StringIO()); "
            "from conll_eval.cli.leaderboard import build_leaderboard_parser; build_leaderboard_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic', 'starlette')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout == "[]\n", done.stderr


def test_level_n_asks_the_validator_as_suite_strict_does(tmp_path, database_url):
    """--level 2: a file the official reader accepts but the validator does not (no ``# text``)
    scores 0 with the validator's reason, as in ``suite --strict``; level 0 scores it."""
    gold = EXAMPLES / "GOLD_DIR"
    system = tmp_path / "system"
    system.mkdir()
    shutil.copy(EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu", system)
    dogs = (EXAMPLES / "SYSTEM_DIR" / "en_dogs.conllu").read_text(encoding="utf-8")
    (system / "en_dogs.conllu").write_text("".join(line for line in dogs.splitlines(True)
                                                   if not line.startswith("# text")), encoding="utf-8")
    status, _, err = run("init", "--db", database_url, "--name", "T", "--gold", str(gold), "--level", "2",
                         "--store", str(tmp_path / "store"))
    assert (status, err) == (0, "")
    assert run("team", "add", "--db", database_url, "ACME")[0] == 0
    status, out, _ = _submit(database_url, system)
    assert status == 0 and "en_dogs scored 0:" in out and "[missing-text]" in out
    entry = _rank_json(database_url)["entries"][0]
    directory = _rows(database_url, Submission)[0].directory
    done = subprocess.run([sys.executable, "-m", "conll_eval", "suite", str(gold), directory, "--strict",
                           "--format", "json"], capture_output=True, text=True, timeout=300)
    expected = json.loads(done.stdout)
    assert (entry["macro"], entry["treebanks"]) == (expected["macro"], expected["treebanks"])
    assert entry["treebanks"][1]["error"]["code"] == "missing-text"


def test_a_directory_past_the_limits_or_with_a_link_is_refused_and_not_kept(task, tmp_path, monkeypatch):
    from conll_eval import limits
    url, _ = task
    monkeypatch.setattr(limits, "MAX_SUBMISSION_FILES", 1)
    status, _, err = _submit(url, EXAMPLES / "SYSTEM_DIR")
    assert status == 1 and "error [archive-too-many-files]" in err and "CONLL_EVAL_MAX_SUBMISSION_FILES" in err
    monkeypatch.setattr(limits, "MAX_SUBMISSION_FILES", 1000)
    monkeypatch.setattr(limits, "MAX_SUBMISSION_BYTES", 100)
    status, _, err = _submit(url, EXAMPLES / "SYSTEM_DIR")
    assert status == 1 and "error [archive-too-large]" in err
    monkeypatch.setattr(limits, "MAX_SUBMISSION_BYTES", 1 << 30)
    linked = tmp_path / "linked"
    linked.mkdir()
    shutil.copy(EXAMPLES / "SYSTEM_DIR" / "en_cats.conllu", linked)
    (linked / "en_dogs.conllu").symlink_to(EXAMPLES / "SYSTEM_DIR" / "en_dogs.conllu")
    status, _, err = _submit(url, linked)
    assert status == 1 and "error [archive-link]" in err
    assert _rows(url, Submission) == [] and not (tmp_path / "store").exists()
    assert _submit(url, EXAMPLES / "SYSTEM_DIR")[0] == 0
