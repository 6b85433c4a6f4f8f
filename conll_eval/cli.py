"""Command line: ``conll_eval [options] GOLD SYSTEM`` and ``conll_eval validate FILE...``.
The only place that prints or exits.

Exit codes: 0 scored / valid, 1 invalid input, 2 usage error, 3 internal error (traceback
only with ``--debug``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import List, Optional, TextIO

from . import __version__
from .errors import ConllEvalError, InputError, UsageError, ValidationFailed
from .evaluate import Settings, evaluate_files
from .metrics import PROFILES
from .report import counts_table, default_lines, to_json, to_tsv, verbose_table
from .report.validation import (Tally, format_incident, format_udtools, incident_dict,
                                limit_per_class)
from .validate import IMPLEMENTED_IDS, ValidationIncident, Validator, iter_validate_file

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
        epilog="To check files against the UD validator's levels 1-2 instead: conll_eval "
               "validate FILE... (see conll_eval validate --help).  Exit codes: 0 scored, "
               "1 invalid input, 2 usage error, 3 internal error.")
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
    parser.add_argument("--strict", action="store_true",
                        help="validate both files first (UD validator levels 1-2, as "
                             "'conll_eval validate --level 2'); any error stops before scoring")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    parser.add_argument("--version", action="version", version=f"conll_eval {__version__}")
    return parser


#: --strict shows at most this many validation errors per class
STRICT_MAX_ERR = 20

#: validation levels this program implements (the UD validator's 3-5 need its language data)
VALIDATION_LEVELS = (1, 2)


def build_validate_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="conll_eval validate",
        description="Check CoNLL-U files like the UD validator (udtools' udvalidate) at level 1 "
                    "(CoNLL-U backbone) or 2 (UD format and trees), with its test ids.  Every "
                    "incident is reported; files are streamed (bounded memory).",
        epilog="Incidents go to stdout, the summary to stderr.  Exit codes: 0 no errors "
               "(warnings allowed), 1 errors or unreadable input, 2 usage error.")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="CoNLL-U files, validated together: sent_ids must be unique across "
                             "them ('-' or nothing: stdin)")
    parser.add_argument("--level", type=int, default=2,
                        help="1: CoNLL-U backbone; 2: UD format and tree (default: 2)")
    parser.add_argument("--max-err", type=int, default=20, metavar="N",
                        help="text output: show at most N incidents per class and severity, "
                             "then one 'suppressing' line (0: all; default: 20)")
    parser.add_argument("--format", default="text", choices=["text", "json", "udtools"],
                        help="text: 'path:line: error [L2 syntax head-self-loop] ...'; json: "
                             "one document with every incident and the summary; udtools: "
                             "udvalidate's own lines")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing; only the exit code tells")
    parser.add_argument("--no-warnings", action="store_true",
                        help="neither show nor count warnings")
    parser.add_argument("-e", "--exclude", nargs="+", default=[], metavar="TESTID",
                        help="neither show nor count these test ids")
    parser.add_argument("-i", "--include-only", nargs="+", default=[], metavar="TESTID",
                        help="show and count only these test ids")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    return parser


def _validate_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_validate_parser().parse_args(argv)
    if args.level > max(VALIDATION_LEVELS):
        raise UsageError(f"conll_eval validate: level {args.level} is not implemented (levels "
                         f"3-5 need the UD validator's language data); use --level 1 or 2")
    unknown = sorted(set(args.exclude + args.include_only) - IMPLEMENTED_IDS)
    if unknown:
        raise UsageError(f"conll_eval validate: unknown test id(s): {', '.join(unknown)}")
    files = args.files or ["-"]
    if files.count("-") > 1:
        raise UsageError("conll_eval validate: stdin ('-') can be given only once")
    excluded, only = set(args.exclude), set(args.include_only)

    def wanted(inc) -> bool:
        return not ((args.no_warnings and inc.severity == "warning") or inc.testid in excluded
                    or (only and inc.testid not in only))

    tally = Tally()
    state = Validator(args.level)
    quiet, as_json = args.quiet, args.format == "json"
    if as_json and not quiet:
        stdout.write('{"files": %s, "level": %d, "incidents": [' % (
            json.dumps(files, ensure_ascii=False), args.level))
    separator = "\n "
    for path in files:
        incidents = _counting((inc for inc in iter_validate_file(path, args.level, state)
                               if wanted(inc)), tally)
        try:
            if quiet:
                for _ in incidents:
                    pass
            elif as_json:
                for inc in incidents:
                    stdout.write(separator + json.dumps(incident_dict(inc), ensure_ascii=False))
                    separator = ",\n "
            else:
                for item in limit_per_class(incidents, args.max_err):
                    line = (format_udtools(item, with_file=len(files) > 1)
                            if args.format == "udtools" else format_incident(item))
                    stdout.write(line + "\n")
        except InputError as exc:  # unreadable file: say so, count it, go on with the others
            if args.debug:
                raise
            failure = ValidationIncident(0, "INPUT", exc.code, path, exc.location.line, None,
                                         exc.message)
            tally.add(failure)
            if as_json and not quiet:
                stdout.write(separator + json.dumps(incident_dict(failure), ensure_ascii=False))
                separator = ",\n "
            elif not quiet:
                stdout.write(f"{exc}\n")
    if as_json and not quiet:
        stdout.write('\n], "summary": {"errors": %d, "warnings": %d, "by_class": %s, '
                     '"passed": %s}}\n' % (tally.errors, tally.warnings,
                                           json.dumps(tally.by_class), json.dumps(not tally.errors)))
    stdout.flush()
    if not quiet:
        stderr.write(tally.summary() + "\n")
    return EXIT_INPUT if tally.errors else EXIT_OK


def _counting(incidents, tally: Tally):
    """Pass incidents through, counting every one (--max-err and --quiet show fewer)."""
    for inc in incidents:
        tally.add(inc)
        yield inc


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
    evaluation = evaluate_files(args.gold, args.system, profile=args.profile, weights=args.weights,
                                strict=args.strict)
    text = _render(args, evaluation)
    if args.output:
        _write_atomically(args.output, text, [args.gold, args.system])
    else:
        stdout.write(text)
        stdout.flush()
    return EXIT_OK


#: subcommand name -> function(argv, stdout, stderr) -> exit code; scoring is the default
COMMANDS = {"validate": _validate_command}


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
    except ValidationFailed as exc:
        if debug:
            raise
        for item in limit_per_class(exc.incidents, STRICT_MAX_ERR):
            stderr.write(format_incident(item) + "\n")
        stderr.write(f"conll_eval: --strict: {len(exc.incidents)} validation error(s); "
                     "nothing scored (see 'conll_eval validate')\n")
        return EXIT_INPUT
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
