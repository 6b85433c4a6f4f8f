"""What the tests of the real ``conll_eval leaderboard serve`` share (the browser, load and crash
tests): a task made by the CLI (init on a copy of examples/GOLD_DIR, teams, an organiser, their
tokens), and :func:`serving`, ``serve --port 0`` in a subprocess on 127.0.0.1 in a session of
its own, ready once it answers, its stdout (the workers' lines, one per submission processed)
collected, and its whole process group stopped at the end, also when the test fails.

The processes of one ``serve`` (its workers' supervisor, the workers, their scoring children)
share its process group: :func:`serve_processes` lists them through /proc."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional

from leaderboard_support import run
from leaderboard_web_support import EXAMPLES, last_line
from pg_support import dying_with_parent

#: seconds serve is given to answer its first request, and to stop once told to
START_SECONDS = 60.0
STOP_SECONDS = 30.0


def make_task(tmp_path: Path, url: str, teams=("ACME", "Bravo"), organiser: Optional[str] = "Chair",
              *init_options: str) -> Dict[str, str]:
    """``init`` (gold: a copy of examples/GOLD_DIR, no daily limit), ``team add`` for each
    of ``teams`` and ``organiser add``: their tokens by name."""
    gold = tmp_path / "gold"
    if not gold.exists():
        shutil.copytree(EXAMPLES / "GOLD_DIR", gold)
    status, _, err = run("init", "--db", url, "--name", "Toy task", "--gold", str(gold),
                         "--store", str(tmp_path / "store"), "--daily-limit", "0", *init_options)
    assert (status, err) == (0, ""), err
    tokens = {}
    for team in teams:
        status, out, err = run("team", "add", "--db", url, team)
        assert status == 0, err
        tokens[team] = last_line(out)
    if organiser:
        status, out, err = run("organiser", "add", "--db", url, organiser)
        assert status == 0, err
        tokens[organiser] = last_line(out)
    return tokens


@dataclass
class Served:
    """A running ``serve``: its base URL (``http://127.0.0.1:PORT/``), its process, and the
    lines it printed after the first (its workers' reports), as they come."""
    base: str
    process: subprocess.Popen
    lines: List[str] = field(default_factory=list)

    def done_lines(self) -> List[str]:
        return [line for line in self.lines if ": done (attempt " in line]


def _collect(stream, lines: List[str]) -> None:
    for line in stream:
        lines.append(line.rstrip("\n"))


def _ready(base: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            with urllib.request.urlopen(base + "api/leaderboard", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        assert process.poll() is None, f"serve ended with {process.returncode}"
        assert time.monotonic() < deadline, f"serve did not answer in {START_SECONDS} s"
        time.sleep(0.1)


@contextmanager
def serving(url: str, *options: str, env: Optional[dict] = None) -> Iterator[Served]:
    """``conll_eval leaderboard serve --db URL --port 0 OPTIONS...`` on 127.0.0.1, once it
    answers; at the end SIGTERM (serve stops its workers), then SIGKILL to the whole group if
    it overran, and a check that no process of its group is left."""
    process = subprocess.Popen(
        [sys.executable, "-m", "conll_eval", "leaderboard", "serve", "--db", url, "--host", "127.0.0.1",
         "--port", "0", *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, start_new_session=True, preexec_fn=dying_with_parent(signal.SIGTERM))
    errors: List[str] = []
    threads = []
    try:
        first = process.stdout.readline()
        assert first.startswith("serving on http://127.0.0.1:"), (first, process.stderr.read())
        served = Served(first.split()[2], process)
        threads = [threading.Thread(target=_collect, args=(process.stdout, served.lines), daemon=True),
                   threading.Thread(target=_collect, args=(process.stderr, errors), daemon=True)]
        for thread in threads:
            thread.start()
        _ready(served.base, process)
        yield served
        process.send_signal(signal.SIGTERM)
        assert process.wait(STOP_SECONDS) == 0
    finally:
        stop_group(process)
        for thread in threads:
            thread.join(5)
        process.stdout.close()
        process.stderr.close()
    assert not [line for line in errors if "Traceback" in line], "\n".join(errors)


def stop_group(process: subprocess.Popen) -> None:
    """SIGKILL ``process``'s group (its session) unless already gone, and wait (bounded) until
    no process of it is left."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(STOP_SECONDS)
    deadline = time.monotonic() + STOP_SECONDS
    while True:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        assert time.monotonic() < deadline, "a process of serve's group outlived it"
        time.sleep(0.1)


def serve_processes(root: int) -> Dict[int, int]:
    """Every descendant of process ``root``, read from /proc: ``{pid: parent pid}``."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                stat = handle.read()
        except OSError:  # ended meanwhile
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold spaces
    found: Dict[int, int] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = ppid
                frontier.append(pid)
    return found
