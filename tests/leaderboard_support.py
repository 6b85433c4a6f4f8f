"""What the leaderboard tests share: ``run(*argv)`` runs ``conll_eval leaderboard`` in-process,
and the ``database_url`` fixture gives each test a new database on SQLite and on PostgreSQL
(where tests/pg_support.py finds a server; skipped, saying how to enable it, without one); the
PostgreSQL runs are in CI's second stage (``--ci-stage 2``), not in the default run."""
import io

import pytest

from conll_eval.cli import main
from pg_support import drop_database, fresh_database


def run(*argv):
    """``conll_eval leaderboard ARGV...``: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["leaderboard", *argv], out, err)
    return status, out.getvalue(), err.getvalue()


#: the PostgreSQL runs are CI's second stage (the default run stays near 5 minutes; SQLite there)
POSTGRESQL = pytest.param("postgresql", marks=[pytest.mark.slow, pytest.mark.ci_stage2])


@pytest.fixture(params=["sqlite", POSTGRESQL])
def database_url(request, tmp_path):
    """A new database's URL: a SQLite file in tmp_path, or a new PostgreSQL database on the
    server of tests/pg_support.py, dropped after."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lb.db'}"
        return
    base_url = request.getfixturevalue("postgres_url")
    url = fresh_database(base_url)
    yield url
    drop_database(base_url, url)
