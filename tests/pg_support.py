"""A PostgreSQL server for the leaderboard's tests: the one ``CONLL_EVAL_TEST_POSTGRES_URL`` names,
else a throwaway cluster made from Debian's packaged binaries (``.ci/run`` installs them), else the
PostgreSQL tests skip saying how to enable them.

``postgres_url`` (a session fixture, registered for every test by tests/conftest.py) yields the
server's base URL; ``fresh_database(base_url)`` makes a new, empty database on it and returns its
URL, ``drop_database(url)`` removes it.  The throwaway cluster lives in a temporary directory,
listens on 127.0.0.1 at a free port and on a unix socket in that directory, trusts local users
only, and is stopped at session teardown, at exit, and by the kernel (a parent-death signal) when
pytest itself is killed, so no server outlives a run.  Run as root, the server runs as the
unprivileged ``postgres`` user (initdb refuses root)."""
import atexit
import ctypes
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator, Optional

import pytest

try:
    import psycopg
except ImportError:  # the leaderboard extra is optional: the PostgreSQL tests skip without it
    psycopg = None

ENV_URL = "CONLL_EVAL_TEST_POSTGRES_URL"
HOW_TO_ENABLE = (f"PostgreSQL: set {ENV_URL} to a server URL whose role may create databases "
                 "(postgresql+psycopg://USER@127.0.0.1:PORT/postgres), or install Debian's "
                 "postgresql package (.ci/run does) for a throwaway cluster")
#: the throwaway cluster's superuser; trusted, on loopback and the private socket only
SUPERUSER = "conll_eval"
#: seconds the server is given to accept connections
START_TIMEOUT = 60.0
#: the user the server runs as when the tests run as root (Debian's package makes it)
UNPRIVILEGED_USER = "postgres"
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
#: the throwaway clusters' directories, under the temporary directory
DIRECTORY_PREFIX = "conll_eval-pg-"
#: a cluster directory left by a killed run is removed once its server is gone and it is this old
STALE_AFTER = 60.0
_database_numbers = itertools.count(1)


def packaged_binaries() -> Optional[Path]:
    """The newest ``/usr/lib/postgresql/*/bin`` holding initdb and postgres, or None."""
    def version(path: str) -> tuple:
        return tuple(int(part) for part in Path(path).parent.name.split(".") if part.isdigit())
    for bindir in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if all(os.access(os.path.join(bindir, name), os.X_OK) for name in ("initdb", "postgres")):
            return Path(bindir)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def remove_stopped_clusters() -> None:
    """Remove the directories of throwaway clusters whose server started and is gone (pytest was
    killed by SIGKILL, so neither teardown nor atexit ran; the server itself stopped on its
    parent-death signal).  A server removes postmaster.pid when it stops and writes it before
    postmaster.opts; another run's cluster being made has neither, a running one both."""
    for directory in Path(tempfile.gettempdir()).glob(DIRECTORY_PREFIX + "*"):
        data = directory / "data"
        try:
            stopped = (data / "postmaster.opts").exists() and not (data / "postmaster.pid").exists()
            if stopped and time.time() - directory.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(directory, ignore_errors=True)
        except OSError:  # another user's directory, or removed meanwhile
            continue


def dying_with_parent(signal_number: int):
    """A Popen ``preexec_fn``: the child receives ``signal_number`` when pytest dies, even by
    SIGKILL, so no server or worker a test started outlives it.  Runs after Popen's setuid (a
    change of user clears the setting)."""
    def preexec() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal_number, 0, 0, 0)
    return preexec


#: the server's: SIGQUIT is PostgreSQL's immediate shutdown
_die_with_parent = dying_with_parent(signal.SIGQUIT)


class ThrowawayCluster:
    """A PostgreSQL cluster in a temporary directory, its postmaster a child of this process."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        remove_stopped_clusters()
        self.directory = Path(tempfile.mkdtemp(prefix=DIRECTORY_PREFIX))
        self.data = self.directory / "data"
        self.port = 0
        self.process: Optional[subprocess.Popen] = None
        self.as_user: Optional[str] = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            self.as_user = UNPRIVILEGED_USER
            account = pwd.getpwnam(UNPRIVILEGED_USER)
            os.chown(self.directory, account.pw_uid, account.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        """initdb, then the postmaster in the foreground of a new session; returns once it
        accepts connections.  Raises RuntimeError with the server's log if it does not."""
        subprocess.run([str(self.bindir / "initdb"), "--pgdata", str(self.data), "--username",
                        SUPERUSER, "--auth", "trust", "--encoding", "UTF8", "--locale", "C",
                        "--no-sync"], user=self.as_user, check=True, capture_output=True,
                       timeout=START_TIMEOUT)
        for _attempt in range(3):  # another process may take the free port before the server
            self.port = _free_port()
            if self._launch():
                return
        raise RuntimeError(f"PostgreSQL did not start:\n{self._log()}")

    def _launch(self) -> bool:
        log = open(self.directory / "server.log", "ab")
        with log:
            self.process = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.directory}",
                 "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
                user=self.as_user, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname=postgres",
                                connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                time.sleep(0.05)
        self.stop()
        return False

    def _log(self) -> str:
        path = self.directory / "server.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        """Immediate shutdown (SIGQUIT, as ``pg_ctl stop -m immediate``), then the directory
        removed.  Safe to call twice."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


def _connect_admin(base_url: str):
    """An autocommit psycopg connection to the maintenance database ``base_url`` names."""
    return psycopg.connect(base_url.replace("postgresql+psycopg://", "postgresql://", 1),
                           autocommit=True)


def _with_database(base_url: str, name: str) -> str:
    head, _, tail = base_url.partition("?")
    head = head.rsplit("/", 1)[0] + "/" + name
    return head + ("?" + tail if tail else "")


def fresh_database(base_url: str) -> str:
    """Create a new, empty database on the server of ``base_url``; its URL (same role, host and
    options).  Its name is unique to this process: conll_eval_test_<pid>_<n>."""
    name = f"conll_eval_test_{os.getpid()}_{next(_database_numbers)}"
    with _connect_admin(base_url) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return _with_database(base_url, name)


def drop_database(base_url: str, url: str) -> None:
    """Drop the database ``url`` (made by fresh_database on ``base_url``'s server), closing any
    connection still open to it."""
    name = url.partition("?")[0].rsplit("/", 1)[1]
    with _connect_admin(base_url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server's base URL (its maintenance database), for fresh_database; skips the
    test, saying how to enable it, when there is none."""
    if psycopg is None:
        pytest.skip("PostgreSQL: psycopg (the leaderboard extra) is not installed")
    if os.environ.get(ENV_URL):
        yield os.environ[ENV_URL]
        return
    bindir = packaged_binaries()
    if bindir is None:
        pytest.skip(HOW_TO_ENABLE)
    cluster = ThrowawayCluster(bindir)
    atexit.register(cluster.stop)  # teardown may not run (an interrupted session)
    try:
        cluster.start()
        yield cluster.url
    finally:
        cluster.stop()
