"""Command line: ``conll_eval [options] GOLD SYSTEM``.  The only place that prints or exits.

Exit codes: 0 scored, 1 invalid input, 2 usage error, 3 internal error (traceback only
with ``--debug``).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import List, Optional, TextIO

from . import __version__
from .errors import ConllEvalError, InputError, UsageError
from .evaluate import Settings, evaluate_files
from .metrics import PROFILES
from .report import counts_table, default_lines, to_json, to_tsv, verbose_table

__all__ = ["main", "main_entry", "build_parser"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() stays the only exit point."""

    def error(self, message):
        raise UsageError(f"{self.prog}: error: {message}")

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


class _Exit(Exception):
    def __init__(self, status: int):
        self.status = status


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="conll_eval",
        description="Score a CoNLL-U system file against a gold file with the official CoNLL "
                    "2017/2018 shared-task metrics, exactly.",
        epilog="Exit codes: 0 scored, 1 invalid input, 2 usage error, 3 internal error.")
    parser.add_argument("gold", help="gold-standard CoNLL-U file ('-' for stdin)")
    parser.add_argument("system", help="system CoNLL-U file ('-' for stdin)")
    parser.add_argument("--profile", default="conll18", choices=list(PROFILES),
                        help="official behaviour to reproduce (default: conll18)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the table of all metrics (precision, recall, F1, aligned accuracy)")
    parser.add_argument("-c", "--counts", action="store_true",
                        help="print the table of raw counts (takes precedence over -v)")
    parser.add_argument("-w", "--weights", metavar="FILE",
                        help="add WeightedLAS with 'deprel weight' lines (conll17 semantics); implies -v")
    parser.add_argument("--format", default="text", choices=["text", "json", "tsv"],
                        help="output format (default: text, the official layout)")
    parser.add_argument("--signature", action="store_true",
                        help="print the settings signature after the text output")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the output to FILE (atomically) instead of stdout")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    parser.add_argument("--version", action="version", version=f"conll_eval {__version__}")
    return parser


def _render(args, evaluation) -> str:
    scores = evaluation.scores
    if args.format == "json":
        settings = {"profile": args.profile, "weights_file": args.weights}
        return to_json(scores, settings, evaluation.signature,
                       files={"gold": args.gold, "system": args.system})
    if args.format == "tsv":
        return to_tsv(scores)
    if args.counts:
        text = counts_table(scores)
    elif args.verbose or args.weights is not None:
        text = verbose_table(scores, args.profile)
    else:
        text = default_lines(scores, args.profile)
    if args.signature:
        text += evaluation.signature + "\n"
    return text


def _write_atomically(path: str, text: str, inputs: List[str]) -> None:
    target = os.path.realpath(path)
    for name in inputs:
        if name != "-" and os.path.exists(name) and os.path.realpath(name) == target:
            raise UsageError(f"refusing to write the output into the input file {name}")
    directory = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=".conll_eval-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _score_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_parser().parse_args(argv)
    if args.gold == "-" and args.system == "-":
        raise UsageError("only one of GOLD and SYSTEM can be read from stdin")
    Settings(args.profile, args.weights)
    evaluation = evaluate_files(args.gold, args.system, profile=args.profile, weights=args.weights)
    text = _render(args, evaluation)
    if args.output:
        _write_atomically(args.output, text, [args.gold, args.system])
    else:
        stdout.write(text)
        stdout.flush()
    return EXIT_OK


#: subcommand name -> function(argv, stdout, stderr) -> exit code; scoring is the default
COMMANDS = {}


def main(argv: Optional[List[str]] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command line with ``argv``; return the exit code.

    ``conll_eval GOLD SYSTEM`` scores; ``conll_eval <command> ...`` runs a subcommand.
    """
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    command = COMMANDS.get(argv[0], None) if argv else None
    try:
        if command is not None:
            return command(argv[1:], stdout, stderr)
        return _score_command(argv, stdout, stderr)
    except _Exit as exc:
        return exc.status
    except UsageError as exc:
        stderr.write(f"{exc}\n")
        return EXIT_USAGE
    except (InputError, ConllEvalError) as exc:
        if debug:
            raise
        stderr.write(f"{exc}\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        stderr.write("interrupted\n")
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into exit code 3
        if debug:
            raise
        stderr.write(f"conll_eval: internal error: {type(exc).__name__}: {exc} "
                     f"(run with --debug for a traceback, and please report it)\n")
        return EXIT_INTERNAL


def main_entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
