"""The leaderboard's database: an engine from ``--db URL`` (SQLite with foreign keys and WAL,
or PostgreSQL), sessions, and the schema's revision checked against the shipped migrations.
Only ``init`` and ``upgrade`` run migrations; every other command refuses a database whose
revision is not the newest this package knows (older: run ``upgrade``; unknown: refused)."""
from __future__ import annotations

import os
import urllib.parse
from contextlib import contextmanager
from typing import Iterator, Optional

from alembic import command as alembic_command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..errors import ConllEvalError, UsageError, printable

__all__ = ["DEFAULT_URL", "MIGRATIONS", "LeaderboardError", "SchemaError", "open_engine", "session_scope",
           "head_revision", "current_revision", "require_current", "migrate", "is_empty"]

DEFAULT_URL = "sqlite:///leaderboard.db"
#: the Alembic script directory shipped in the package
MIGRATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations")


class LeaderboardError(ConllEvalError):
    """Bad input to a leaderboard command (exit 1): ``code`` is the stable kebab-case code of
    its ``conll_eval leaderboard: error [code] message`` line."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


class SchemaError(LeaderboardError):
    """The database's schema is not the one this version works on (older, newer, foreign)."""


def _existing_file_only(path: str):
    """A ``do_connect`` listener: open the SQLite file read-write but never make it (``mode=rw``),
    so that a database file removed while a worker runs is an error, not a new empty file."""
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=rw"

    def connect(dialect, record, arguments, parameters) -> None:
        if not parameters.get("uri"):
            arguments[:] = [uri]
            parameters["uri"] = True
    return connect


def _sqlite_pragmas(connection, record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def open_engine(url: str = DEFAULT_URL, create: bool = False) -> Engine:
    """The engine of ``url`` (SQLite: foreign keys on, waits up to 30 s for a lock; the WAL
    journal is switched on by :func:`migrate`, and persists in the file).  A SQLite file
    that does not exist is made only when ``create`` (``init``); otherwise refused
    (:class:`SchemaError`), and one removed later fails to connect (``OperationalError``).  Raises :class:`UsageError` for a URL SQLAlchemy cannot read or
    whose driver is missing."""
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError) as exc:
        raise UsageError(f"--db {printable(url)}: not a database URL SQLAlchemy can open "
                         f"({printable(str(exc).splitlines()[0])}); e.g. sqlite:///leaderboard.db "
                         "or postgresql+psycopg://user@host/name") from exc
    if engine.dialect.name == "sqlite":
        path = engine.url.database
        if not create and path and path != ":memory:" and not os.path.exists(path):
            raise SchemaError(f"{printable(path)}: no such database: make it with "
                              "'conll_eval leaderboard init'", "not-a-leaderboard")
        if not create and path and path != ":memory:":
            event.listen(engine, "do_connect", _existing_file_only(path))
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A session committed at the end of the block, rolled back if it raises."""
    session = sessionmaker(engine, expire_on_commit=False)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def _config(connection=None) -> Config:
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision this package ships."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None, "the leaderboard ships no migration"
    return head


def _unreachable(engine: Engine, exc: OperationalError) -> LeaderboardError:
    reason = printable(str(exc.orig).splitlines()[0] if exc.orig else str(exc))
    return LeaderboardError(f"{_name(engine)}: cannot open the database: {reason}", "database-unreachable")


def current_revision(engine: Engine) -> Optional[str]:
    """The revision the database is at (None: no leaderboard schema in it)."""
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    except OperationalError as exc:
        raise _unreachable(engine, exc) from exc


def is_empty(engine: Engine) -> bool:
    """Does the database hold no table at all?"""
    try:
        with engine.connect() as connection:
            return not inspect(connection).get_table_names()
    except OperationalError as exc:
        raise _unreachable(engine, exc) from exc


def _name(engine: Engine) -> str:
    return printable(engine.url.render_as_string(hide_password=True))


def require_current(engine: Engine) -> None:
    """Refuse a database that is not at the newest revision: no schema (``leaderboard init``
    makes one), an older one (``leaderboard upgrade`` migrates it), an unknown one (a newer
    conll_eval's, or another program's).  Raises :class:`SchemaError`."""
    revision = current_revision(engine)
    head = head_revision()
    if revision == head:
        return
    if revision is None:
        what = "holds tables of another program" if not is_empty(engine) else "has no leaderboard"
        raise SchemaError(f"{_name(engine)}: the database {what}: make one with "
                          "'conll_eval leaderboard init'", "not-a-leaderboard")
    known = {script.revision for script in ScriptDirectory.from_config(_config()).walk_revisions()}
    if revision in known:
        raise SchemaError(f"{_name(engine)}: the database is at schema revision {printable(revision)}, "
                          f"older than this conll_eval's {head}: back it up, then run "
                          "'conll_eval leaderboard upgrade' to migrate it", "old-schema")
    raise SchemaError(f"{_name(engine)}: the database is at schema revision {printable(revision)}, "
                      "which this conll_eval does not know (written by a newer version?): "
                      "use that version, or upgrade conll_eval", "unknown-schema")


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (a new database gets it whole); a database of
    an unknown revision or with foreign tables is refused (:class:`SchemaError`)."""
    revision = current_revision(engine)
    if revision is None and not is_empty(engine):
        require_current(engine)  # raises: another program's tables
    if revision is not None:
        try:
            require_current(engine)
            return
        except SchemaError as exc:
            if exc.code != "old-schema":
                raise
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:  # kept by the file: readers never wait for the writer
            connection.exec_driver_sql("PRAGMA journal_mode=WAL")
    with engine.begin() as connection:
        alembic_command.upgrade(_config(connection), "head")
