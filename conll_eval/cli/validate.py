"""``conll_eval validate FILE...``: the UD validator's levels 1-2, incidents on stdout and the
summary on stderr."""
from __future__ import annotations

import argparse
import json
from typing import List, TextIO

from ..errors import InputError, UsageError
from .common import EXIT_INPUT, EXIT_OK, Parser


#: validation levels this program implements (the UD validator's 3-5 need its language data)
VALIDATION_LEVELS = (1, 2)


def build_validate_parser() -> argparse.ArgumentParser:
    parser = Parser(
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


def validate_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    # the validator loads only for this command (it costs start-up time of every other one)
    from ..report.validation import Tally, format_incident, format_udtools, incident_dict, limit_per_class
    from ..validate import IMPLEMENTED_IDS, ValidationIncident, Validator, iter_validate_file
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


def _counting(incidents, tally):
    """Pass incidents through, counting every one (--max-err and --quiet show fewer)."""
    for inc in incidents:
        tally.add(inc)
        yield inc


