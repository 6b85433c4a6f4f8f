"""tests/pg_support.py, the PostgreSQL server of the leaderboard's tests: fresh databases are new
and empty and dropped on request; the throwaway cluster listens on loopback only, and leaves no
server and no directory behind when stopped or when the process that made it is killed by SIGKILL.
Skipped without psycopg or Debian's packaged PostgreSQL binaries."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pg_support

psycopg = pytest.importorskip("psycopg", reason="psycopg (the leaderboard extra) is not installed")

TESTS = Path(__file__).resolve().parent
needs_binaries = pytest.mark.skipif(pg_support.packaged_binaries() is None,
                                    reason="Debian's postgresql package is not installed")


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _databases(base_url: str) -> set:
    with psycopg.connect(_libpq(base_url)) as connection:
        return {row[0] for row in connection.execute("SELECT datname FROM pg_database")}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_fresh_databases_are_new_empty_and_dropped(postgres_url):
    first, second = pg_support.fresh_database(postgres_url), pg_support.fresh_database(postgres_url)
    try:
        assert first != second
        with psycopg.connect(_libpq(first)) as connection:
            connection.execute("CREATE TABLE kept (x int)")
            connection.commit()
        with psycopg.connect(_libpq(second)) as connection:
            tables = connection.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").fetchone()
        assert tables == (0,)
        held_open = psycopg.connect(_libpq(first))  # dropping closes the connections still open
        pg_support.drop_database(postgres_url, first)
        held_open.close()
        names = _databases(postgres_url)
        assert first.rsplit("/", 1)[1] not in names and second.rsplit("/", 1)[1] in names
    finally:
        pg_support.drop_database(postgres_url, first)
        pg_support.drop_database(postgres_url, second)


@needs_binaries
def test_the_throwaway_cluster_listens_on_loopback_only_and_stops_without_a_trace():
    cluster = pg_support.ThrowawayCluster(pg_support.packaged_binaries())
    try:
        cluster.start()
        with psycopg.connect(_libpq(cluster.url)) as connection:
            assert connection.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
            assert connection.execute("SHOW unix_socket_directories").fetchone() == (str(cluster.directory),)
        pid = cluster.process.pid
    finally:
        cluster.stop()
    assert not _alive(pid) and not cluster.directory.exists()


@needs_binaries
def test_a_server_does_not_outlive_a_process_killed_by_sigkill():
    """The server gets SIGQUIT from the kernel when its parent dies: neither teardown nor atexit
    runs after SIGKILL."""
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, pg_support\n"
         "cluster = pg_support.ThrowawayCluster(pg_support.packaged_binaries())\n"
         "cluster.start()\nprint(cluster.process.pid, flush=True)\nsys.stdin.read()\n"],
        cwd=TESTS, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    server = int(child.stdout.readline())
    assert _alive(server)
    child.kill()
    child.wait()
    deadline = time.monotonic() + 30
    while _alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(server)
