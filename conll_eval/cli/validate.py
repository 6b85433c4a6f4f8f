"""``conll_eval validate FILE...``: the UD validator's levels 1-2, incidents on stdout and the
summary on stderr."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, TextIO

from ..errors import FormatError, InputError, Location, UsageError
from .common import EXIT_INPUT, EXIT_OK, Parser, add_options, is_terminal


#: validation levels this program implements (the UD validator's 3-5 need its language data)
VALIDATION_LEVELS = (1, 2)


def build_validate_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval validate",
        description="Check CoNLL-U files like the UD validator (udtools' udvalidate) at level 1 "
                    "(CoNLL-U backbone) or 2 (UD format and trees), with its test ids.  Every "
                    "incident is reported; files are streamed (bounded memory).",
        epilog="Incidents go to stdout, the summary to stderr.  Exit codes: 0 no errors "
               "(warnings allowed), 1 errors, unreadable or empty input, 2 usage error, 4 the "
               "results could not be written (an early-closing reader, as with | head, is not "
               "an error: the verdict stands).")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="CoNLL-U files, validated together: at level 2 sent_ids must be "
                             "unique across them (see --per-file); '-' or nothing: stdin")
    parser.add_argument("--per-file", action="store_true",
                        help="validate each file on its own: sent_ids need only be unique within "
                             "a file (parser outputs often all number their sentences from 1)")
    parser.add_argument("--level", type=int, default=2,
                        help="1: CoNLL-U backbone; 2: UD format and tree (default: 2)")
    parser.add_argument("--max-err", type=int, default=20, metavar="N",
                        help="text output: show at most N incidents per class and severity, "
                             "then one 'suppressing' line (0: all; default: 20)")
    parser.add_argument("--format", default="text", choices=["text", "json", "udtools"],
                        help="text: 'path:line: error [L2 syntax head-self-loop] ...'; json: "
                             "one document with every incident and the summary; udtools: "
                             "udvalidate's own lines")
    add_options(parser, "quiet")
    parser.add_argument("--no-warnings", action="store_true",
                        help="neither show nor count warnings")
    parser.add_argument("-e", "--exclude", nargs="+", action="extend", default=[],
                        metavar="TESTID", help="neither show nor count these test ids (several, "
                        "or comma-separated; put -- before the FILEs that follow)")
    parser.add_argument("-i", "--include-only", nargs="+", action="extend", default=[],
                        metavar="TESTID", help="show and count only these test ids (as -e)")
    add_options(parser, "debug")
    return parser


def validate_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    # the validator loads only for this command (it costs start-up time of every other one)
    from ..report.validation import Tally, format_incident, format_udtools, incident_dict, limit_per_class
    from ..validate import IMPLEMENTED_IDS, ValidationIncident, Validator
    args = build_validate_parser().parse_args(argv)
    if args.level > max(VALIDATION_LEVELS):
        raise UsageError(f"conll_eval validate: level {args.level} is not implemented (levels "
                         f"3-5 need the UD validator's language data); use --level 1 or 2")
    excluded, only = _test_ids(args.exclude, IMPLEMENTED_IDS), _test_ids(args.include_only, IMPLEMENTED_IDS)
    files = args.files or ["-"]
    if files.count("-") > 1:
        raise UsageError("conll_eval validate: stdin ('-') can be given only once")
    if not args.files and is_terminal(sys.stdin):
        raise UsageError("conll_eval validate: no FILE given and standard input is a terminal; "
                         "give files, or pipe a file into 'conll_eval validate -'")

    def wanted(inc) -> bool:
        return not ((args.no_warnings and inc.severity == "warning") or inc.testid in excluded
                    or (only and inc.testid not in only))

    tally = Tally()
    shared_state = None if args.per_file else Validator(args.level)
    quiet, as_json = args.quiet, args.format == "json"
    if as_json and not quiet:
        stdout.write('{"files": %s, "level": %d, "incidents": [' % (
            json.dumps(files, ensure_ascii=False), args.level))
    separator = "\n "
    for path in files:
        state = shared_state or Validator(args.level)
        # a JSON document on the same terminal would be cut by the progress line
        progress = None if quiet or (as_json and is_terminal(stdout)) else \
            _file_progress(stderr, path)
        incidents = _counting((inc for inc in _incidents_of(path, args.level, state, progress)
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
                    if progress is not None:
                        progress(None)  # erased before a line of stdout; redrawn later
                    stdout.write(line + "\n")
        except InputError as exc:  # unreadable file: say so, count it, go on with the others
            if args.debug:
                raise
            failure = ValidationIncident(0, "INPUT", exc.code, path, exc.location.line, None,
                                         _explained(exc, path))
            tally.add(failure)
            if as_json and not quiet:
                stdout.write(separator + json.dumps(incident_dict(failure), ensure_ascii=False))
                separator = ",\n "
            elif not quiet:
                stdout.write(f"{exc.location}: error [{exc.code}] {failure.message}\n")
    if as_json and not quiet:
        stdout.write('\n], "summary": {"errors": %d, "warnings": %d, "by_class": %s, '
                     '"passed": %s}}\n' % (tally.errors, tally.warnings,
                                           json.dumps(tally.by_class), json.dumps(not tally.errors)))
    stdout.flush()
    if not quiet:
        stderr.write(tally.summary() + "\n")
    return EXIT_INPUT if tally.errors else EXIT_OK


def _counting(incidents, tally):
    """Pass incidents through, counting every one (--max-err and --quiet show fewer)."""
    for inc in incidents:
        tally.add(inc)
        yield inc




def _test_ids(given: List[str], implemented) -> set:
    """The ids of -e/-i (several arguments, or comma-separated); unknown ones are a usage
    error that says how to end the list when a file name was taken for an id."""
    ids = {name.strip() for item in given for name in item.split(",") if name.strip()}
    unknown = sorted(ids - implemented)
    if unknown:
        hint = ""
        if any(os.path.exists(name) or name == "-" or name.endswith((".conllu", ".conll"))
               for name in unknown):
            hint = ("; -e/-i take every following argument as a test id: put -- before the "
                    "files (conll_eval validate -e ID -- FILE) or the files first")
        raise UsageError(f"conll_eval validate: unknown test id(s): {', '.join(unknown)}{hint}")
    return ids


def _incidents_of(path: str, level: int, state, progress=None):
    """The incidents of one file; empty input (no byte at all) is an ``empty-file`` input
    error rather than a pass (udvalidate passes it), so a failed pipeline step that left an
    empty file never passes a CI gate."""
    from ..validate import iter_validate_file
    if _is_empty(path):
        raise FormatError(Location(path, None), "empty-file",
                          "the file is empty: nothing to validate (an empty input is no pass)")
    yield from iter_validate_file(path, level, state, progress)
    if progress is not None:
        progress(None)


def _is_empty(path: str) -> bool:
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        peek = getattr(buffer, "peek", None)
        return peek is not None and peek(1) == b""  # peek consumes nothing
    from ..errors import ConllEvalError
    from ..reader import open_input
    try:
        if not os.path.isfile(path):
            return False
        if os.path.getsize(path) == 0:
            return True
        stream, head = open_input(path, 1)  # a compressed file may hold nothing
        stream.close()
        return head == b""
    except (OSError, ConllEvalError):
        return False  # the validator reports what is wrong with the file


def _explained(exc: InputError, path: str) -> str:
    """The message of an unreadable input, with the usual cause of a missing file named."""
    if exc.code == "file-not-found" and any(c in path for c in "*?["):
        return exc.message + " (a shell pattern that matched no file?)"
    return exc.message


def _file_progress(stderr: TextIO, path: str):
    """A progress line for large files on a terminal (``path: 12 MB of 40 MB``), erased when
    the file is done; None when stderr is not a terminal."""
    if not is_terminal(stderr):
        return None
    try:
        total = os.path.getsize(path) if path != "-" else 0
    except OSError:
        total = 0

    def show(done) -> None:
        if done is None:  # the file is done
            stderr.write("\r\033[K")
        else:  # a compressed file reads more bytes than it has: no percentage then
            of = f" of {total / 1e6:.0f} MB ({100 * done / total:.0f}%)" if done <= total else ""
            stderr.write(f"\r\033[K{path}: {done / 1e6:.0f} MB{of}")
        stderr.flush()
    return show
