"""``conll_eval leaderboard serve``: the web app (:mod:`conll_eval.leaderboard.web`) served by
uvicorn in this process on a socket bound here, and ``--workers K`` scoring workers
(:func:`conll_eval.leaderboard.workers.run_workers`) under a supervisor process of their own.

The supervisor stops its workers when it is told to (SIGTERM, at the end of ``serve``) and
when ``serve`` dies without telling it (it watches its parent), so no worker outlives ``serve``."""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from typing import Optional, TextIO

__all__ = ["add_serve", "serve", "DEFAULT_PORT"]

DEFAULT_PORT = 8000
#: how long serve waits for its workers' supervisor to stop before it kills it (seconds)
_STOP_SECONDS = 15


def add_serve(actions, add_db, within) -> None:
    """The ``serve`` action's options (``add_db`` and ``within`` from cli/leaderboard.py)."""
    serve = actions.add_parser("serve", help="the web app: teams log in, upload and see the ranking; "
                               "organisers freeze, hide, rescore")
    add_db(serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default: %(default)s, this machine only; "
                            "another address serves the network: put an HTTPS proxy in front, the "
                            "session cookies are Secure there)")
    serve.add_argument("--port", type=within(0, 65535, int), default=DEFAULT_PORT, metavar="N",
                       help="the port (0: a free one, printed; default: %(default)s)")
    serve.add_argument("--workers", type=within(0, 64, int), default=1, metavar="K",
                       help="scoring worker processes started with the app (0-64; 0: none, run "
                            "'leaderboard work' beside it; default: %(default)s)")
    serve.add_argument("--lease", type=within(0.1, 86400, float), default=60.0, metavar="SECONDS",
                       help="the workers' lease on a claimed submission, as 'leaderboard work "
                            "--lease': a worker that dies leaves it to another after it (default: %(default)g)")


def _listen(host: str, port: int, error) -> socket.socket:
    """A socket bound to ``host``:``port`` (``error(message)``: the exception to raise)."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                                flags=socket.AI_PASSIVE)[0]
        listener = socket.socket(family, kind, protocol)
    except OSError as exc:
        raise error(f"--host {host!r}: cannot listen there ({exc.strerror or exc})") from exc
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as exc:
        listener.close()
        raise error(f"{host}:{port}: cannot listen there ({exc.strerror or exc})") from exc
    return listener


def _stop_with_parent(parent: int) -> None:
    """In the supervisor: stop (SIGTERM, which run_workers turns into stopping its workers)
    once serve is gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)


def _supervise(settings, parent: int) -> None:
    """The supervisor process: runs the workers, a line on stdout per submission scored."""
    from ..leaderboard import workers  # here: a spawned process imports what it runs
    threading.Thread(target=_stop_with_parent, args=(parent,), daemon=True).start()

    def report(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    workers.run_workers(settings, report)


def _start_supervisor(url: str, count: int, lease: float):
    from ..leaderboard import workers  # here: the leaderboard extra, as in leaderboard_command
    settings = workers.WorkSettings(url, count, lease=lease)
    process = multiprocessing.get_context("spawn").Process(target=_supervise, args=(settings, os.getpid()),
                                                           name="conll_eval-workers")
    process.start()
    return process


def _stop_supervisor(process) -> None:
    if process.is_alive():
        process.terminate()
        process.join(_STOP_SECONDS)
    if process.is_alive():
        process.kill()
    process.join()


def _ignore(signum, frame) -> None:
    """uvicorn raises the signal that stopped it again once it has stopped: it ends here."""


def serve(args: argparse.Namespace, stdout: TextIO, error) -> int:
    """Serve ``args.db`` until SIGINT or SIGTERM; 0 then.  ``error(message)`` makes the
    exception of a refusal (``cannot-listen``)."""
    # here: only serve needs uvicorn and Starlette (the leaderboard extra)
    import uvicorn

    from ..leaderboard.web import WebSettings, create_app, is_loopback
    loopback = is_loopback(args.host)
    listener = _listen(args.host, args.port, error)
    supervisor: Optional[multiprocessing.process.BaseProcess] = None
    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        app = create_app(WebSettings(args.db, secure_cookies=not loopback))
        host, port = listener.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        if not loopback:
            stdout.write(f"note: {shown} is not a loopback address: the app is open to the network; its "
                         "session cookies are Secure, so serve it through an HTTPS proxy\n")
        stdout.write(f"serving on http://{shown}:{port}/ with {args.workers} scoring worker(s); "
                     "stop with Ctrl-C\n")
        stdout.flush()
        if args.workers:
            supervisor = _start_supervisor(args.db, args.workers, args.lease)
        for number in previous:
            signal.signal(number, _ignore)
        config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False,
                                proxy_headers=False, lifespan="off", timeout_keep_alive=5)
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        if supervisor is not None:
            _stop_supervisor(supervisor)
        listener.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0
