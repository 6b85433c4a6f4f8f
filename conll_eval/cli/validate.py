"""``conll_eval validate FILE...``: the UD validator's levels 1-5, incidents on stdout (text,
udtools, json, SARIF or GitHub annotations) and the summary on stderr."""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from itertools import islice
from typing import Dict, Iterator, List, Optional, Set, TextIO, Tuple

from ..errors import ConllEvalError, FormatError, InputError, Location, UsageError, printable
from .common import EXIT_INPUT, EXIT_OK, Parser, add_options, is_terminal
from .messages import program_name


#: validation levels this program implements (4-5 need the UD validator's language data)
VALIDATION_LEVELS = (1, 2, 3, 4, 5)


def build_validate_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=program_name("validate"),
        description="Check CoNLL-U files like the UD validator (udtools' udvalidate) at levels "
                    "1 (CoNLL-U backbone), 2 (UD format and trees), 3 (UD contents), 4-5 (the "
                    "language's lists, --lang), with its test ids.  Every incident is "
                    "reported; files are streamed (bounded memory).  A line longer than "
                    "CONLL_EVAL_MAX_LINE_BYTES (default 1 MiB) is an error of its own "
                    "(line-too-long, not udvalidate's) that ends the file's check.",
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
                        help="1: CoNLL-U backbone; 2: UD format and tree; 3: UD contents "
                             "(universal guidelines); 4: the language's features and "
                             "relations; 5: its auxiliaries and copulas (default: 2)")
    parser.add_argument("--lang", metavar="CODE",
                        help="the language (ISO 639 code, as udvalidate's --lang; 'ud': the "
                             "universal lists only); required from level 4 on, levels 1-3 "
                             "check the universal rules only")
    parser.add_argument("--data", metavar="DIR",
                        help="levels 4-5: the UD validator's language data folder (a UD tools "
                             "checkout's data/); default: that of the installed udtools "
                             "package (pip install 'conll_eval[ud]')")
    parser.add_argument("--max-err", type=int, default=20, metavar="N",
                        help="text output: show at most N incidents per class and severity, "
                             "then one 'suppressing' line (0: all; default: 20)")
    parser.add_argument("--format", default="text",
                        choices=["text", "json", "udtools", "sarif", "github"],
                        help="text: 'path:line: error [L2 syntax head-self-loop] ...'; json: "
                             "one document with every incident and the summary; udtools: "
                             "udvalidate's own lines; sarif: a SARIF 2.1.0 log (code-scanning "
                             "tools); github: GitHub Actions annotations ('::error file=...')")
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
    args = build_validate_parser().parse_args(argv)  # --help ends here
    # the validator loads only for this command, once its arguments are read: it costs
    # start-up time of every other one and of --help (it loads numpy)
    from ..report.validation import Tally
    from ..validate import IMPLEMENTED_IDS, LIMIT_IDS, Validator
    _check_level(args)
    excluded, only = _test_ids(args.exclude, IMPLEMENTED_IDS), _test_ids(args.include_only, IMPLEMENTED_IDS)
    files = args.files or ["-"]
    if files.count("-") > 1:
        raise UsageError("conll_eval validate: stdin ('-') can be given only once")
    if not args.files and is_terminal(sys.stdin):
        raise UsageError("conll_eval validate: no FILE given and standard input is a terminal; "
                         f"give files, or pipe a file into '{program_name('validate')} -'")

    def wanted(inc) -> bool:  # (an incident or a run of them)
        # a file cut short by a limit (LIMIT_IDS) must not pass whatever -e/-i say
        return inc.klass == "INPUT" or inc.testid in LIMIT_IDS or not (
            (args.no_warnings and inc.severity == "warning") or inc.testid in excluded
            or (only and inc.testid not in only))

    if not args.quiet and args.format != "udtools":  # udtools: udvalidate's bytes, both streams
        stderr.write("".join(_repeated_file_warnings(files, args)))
    tally = Tally()
    writer = _Writer(args, files, stdout)
    first = Validator(args.level, args.lang or "ud", args.data)  # a missing data folder: now

    def new_state():
        nonlocal first
        state, first = first or Validator(args.level, args.lang or "ud", args.data), None
        return state

    incidents = _counted(_run(files, args, new_state, stderr, writer), wanted, tally)
    writer.write_all(incidents, tally)
    stdout.flush()
    if not args.quiet:
        stderr.write(tally.summary() + "\n")
    return EXIT_INPUT if tally.errors else EXIT_OK


def _check_level(args) -> None:
    """Refuse the levels this program does not implement, saying what to use instead: level
    6 (coreference) its own way, any other outside 1-5 as not a level at all."""
    if args.level == 6:
        raise UsageError("conll_eval validate: level 6 is not implemented (udvalidate --coref: "
                         "coreference and entities in MISC); use --level 5 or lower")
    if args.level not in VALIDATION_LEVELS:
        raise UsageError(f"conll_eval validate: level {args.level} does not exist: the levels are "
                         f"{VALIDATION_LEVELS[0]}-{VALIDATION_LEVELS[-1]} (default: 2)")
    if args.level >= 4 and not args.lang:
        raise UsageError(f"conll_eval validate: level {args.level} checks a language's lists: "
                         "give its ISO 639 code with --lang (as udvalidate), or --lang ud for "
                         "the universal lists only")


def _file_identity(path: str) -> tuple:
    """What makes two names one file: its device and inode where it can be looked up (a
    link, ``x`` and ``./x``), its absolute path otherwise (a missing file, reported later)."""
    if path == "-":
        return ("stdin",)
    try:
        status = os.stat(path)
    except (OSError, ValueError):  # missing, unreadable directory, a NUL in the name
        return ("path", os.path.abspath(path))
    if not status.st_ino:  # a file system without inode numbers
        return ("path", os.path.abspath(path))
    return ("inode", status.st_dev, status.st_ino)


def _repeated_file_warnings(files: List[str], args) -> List[str]:
    """A warning line for each file given more than once, by any names: its sent_ids would
    otherwise read as duplicates with no word that the file came twice (the incidents stay
    udvalidate's)."""
    names: Dict[tuple, List[str]] = {}
    for path in files:
        names.setdefault(_file_identity(path), []).append(path)
    warnings = []
    for given in (group for group in names.values() if len(group) > 1):
        spelt = list(dict.fromkeys(given))
        also = f" (as {', '.join(map(printable, spelt))})" if len(spelt) > 1 else ""
        why = ("; its sent_ids are reported as duplicates of its own (non-unique-sent-id)"
               if args.level >= 2 and not args.per_file else "")
        warnings.append(f"{program_name('validate')}: warning: {printable(spelt[0])} is given "
                        f"{len(given)} times{also}: it is validated each time{why}\n")
    return warnings


def _run(files: List[str], args, new_state, stderr: TextIO, writer: "_Writer"):
    """The incidents of every file in order, an unreadable file as one INPUT incident, then
    those of the end of the run (once per run: per file with --per-file)."""
    from ..validate import ValidationIncident  # start-up time (as above)
    shared_state = None if args.per_file else new_state()
    for path in files:
        state = shared_state or new_state()
        # a document on the same terminal would be cut by the progress line
        writer.progress = None if args.quiet or (writer.document and is_terminal(writer.stdout)) \
            else _file_progress(stderr, path)
        try:
            yield from _incidents_of(path, args.level, state, writer.progress)
        except InputError as exc:  # unreadable file: say so, count it, go on with the others
            if args.debug:
                raise
            yield ValidationIncident(0, "INPUT", exc.code, path, exc.location.line, None,
                                     _explained(exc, path))
        if shared_state is None:
            yield from state.end_of_run()
    writer.progress = None
    if shared_state is not None:
        yield from shared_state.end_of_run()


class _Writer:
    """Writes the incidents to stdout in the format asked for: lines (text, udtools, github;
    --max-err applies to text and udtools) or one document (json, sarif) streamed."""

    def __init__(self, args, files: List[str], stdout: TextIO):
        self.args, self.files, self.stdout = args, files, stdout
        self.document = args.format in ("json", "sarif")
        self.progress = None

    def write_all(self, found, tally) -> None:
        """Write the incidents and runs of incidents (IncidentRun: each incident is written,
        but --max-err and --quiet take a run whole)."""
        if self.args.quiet:
            for _ in found:
                pass
        elif self.args.format == "json":
            self._json(found, tally)
        elif self.args.format == "sarif":
            self._sarif(found, tally)
        else:
            self._lines(found)

    def _lines(self, incidents) -> None:
        # start-up time (as above)
        from ..report.validation import (format_github, format_incident, format_udtools,
                                         limit_per_class)
        fmt = self.args.format
        explained: Set[str] = set()
        limited = (incidents if fmt == "github"  # an annotation for each, unreadable files too
                   else limit_per_class(self._unlimited(incidents), self.args.max_err))

        def formatted(item) -> str:
            if isinstance(item, tuple):  # past --max-err: a house line or a limit's incident
                item = item[0]
            if isinstance(item, str):  # a house line, or --max-err's marker
                return item
            if fmt == "udtools":
                return format_udtools(item, with_file=len(self.files) > 1, explained=explained)
            return format_github(item) if fmt == "github" else format_incident(item)

        for line in _formatted(limited, formatted, "\n"):
            if self.progress is not None:
                self.progress(None)  # erased before a line of stdout; redrawn later
            self.stdout.write(line + "\n")

    @staticmethod
    def _unlimited(incidents):
        """Incidents, with those --max-err must let through in a tuple: an unreadable
        file's turned into its house line, and a limit's (LIMIT_IDS: the rest of the file was
        not checked)."""
        from ..validate import LIMIT_IDS, IncidentRun  # start-up time (as above)
        for inc in incidents:
            if isinstance(inc, IncidentRun):  # (blank lines: never a limit's or INPUT)
                yield inc
            elif inc.klass == "INPUT":
                where = inc.path if inc.line is None else f"{inc.path}:{inc.line}"
                yield (printable(f"{where}: error [{inc.testid}] {inc.message}"),)
            elif inc.testid in LIMIT_IDS:
                yield (inc,)
            else:
                yield inc

    def _json(self, incidents, tally) -> None:
        from ..report.validation import incident_dict  # start-up time (as above)
        out = self.stdout
        out.write('{"files": %s, "level": %d, "incidents": [' % (
            json.dumps(list(map(printable, self.files)), ensure_ascii=False), self.args.level))
        separator = "\n "
        for text in _formatted(incidents, lambda inc: json.dumps(incident_dict(inc),
                                                                  ensure_ascii=False), ",\n "):
            out.write(separator + text)
            separator = ",\n "
        out.write('\n], "summary": {"errors": %d, "warnings": %d, "by_class": %s, '
                  '"passed": %s}}\n' % (tally.errors, tally.warnings,
                                        json.dumps(tally.by_class), json.dumps(not tally.errors)))

    def _sarif(self, incidents, tally) -> None:
        from .. import __version__  # start-up time (as above)
        from ..report.validation import SARIF_SCHEMA, sarif_result, sarif_tool
        out = self.stdout
        out.write('{"$schema": %s, "version": "2.1.0", "runs": [{"results": [' % json.dumps(
            SARIF_SCHEMA))
        rules: Dict[str, Tuple[int, str]] = {}
        separator = "\n "

        def with_rules(found):
            for item in found:  # (an incident or a run of them)
                for inc in _kinds_of(item):
                    rules.setdefault(inc.testid, (inc.level, inc.klass))
                yield item
        for text in _formatted(with_rules(incidents),
                               lambda inc: json.dumps(sarif_result(inc), ensure_ascii=False),
                               ",\n "):
            out.write(separator + text)
            separator = ",\n "
        invocation = {"executionSuccessful": True, "exitCode": 1 if tally.errors else 0,
                      "arguments": ["--level", str(self.args.level), *map(printable, self.files)]}
        out.write('\n], "tool": %s, "invocations": [%s]}]}\n' % (
            json.dumps(sarif_tool(rules, __version__), ensure_ascii=False),
            json.dumps(invocation, ensure_ascii=False)))


def _formatted(found, format_one, separator: str) -> Iterator[str]:
    """``format_one`` of each incident of ``found`` (incidents and runs of them), a run's
    formatted once per kind (:func:`_run_lines`) and given several at a time, joined by
    ``separator``."""
    from ..validate import IncidentRun  # start-up time (as above)
    for item in found:
        if isinstance(item, IncidentRun):
            yield from _run_lines(item, format_one, separator)
        else:
            yield format_one(item)


def _kinds_of(item) -> Iterator:
    """An incident, or each kind of incident of a run (IncidentRun.templates)."""
    from ..validate import IncidentRun  # start-up time (as above)
    if isinstance(item, IncidentRun):
        for incidents in item.templates:
            yield from incidents
    else:
        yield item


#: line numbers no file has: a run is formatted with each to find where its line number goes
_PROBE_LINES = (918273645546372819, 192837465564738291)
#: lines of a run written at a time
_BATCH = 1000


def _run_lines(run, format_one, separator: str) -> Iterator[str]:
    """``format_one`` of each incident of a run (IncidentRun, whose incidents of a kind
    differ only in their line), a batch at a time joined by ``separator`` (one write each):
    the first of each kind formatted on its own (a format may remember it: udtools'
    explanations), the others by putting their line number into the text of one formatted
    twice, with each of two probe lines, when that text holds the line number once and
    nothing else changes (else each is formatted)."""
    start, kinds, templates = run.start, run.kinds, run.templates
    if len(templates) == 1 and len(templates[0]) == 1:  # one incident a line
        text, split = _line_split(templates[0][0], format_one)
        yield text
        if split is None:
            yield from map(format_one, islice(run, 1, None))
            return
        before, after = split
        lines = range(start + 1, start + len(kinds))
        for at in range(0, len(lines), _BATCH):
            yield separator.join([f"{before}{line}{after}" for line in lines[at:at + _BATCH]])
        return
    splits: Dict[Tuple[int, int], Optional[Tuple[str, str]]] = {}
    batch: List[str] = []
    for k, kind in enumerate(kinds):
        line = start + k
        for i, template in enumerate(templates[kind]):
            if (kind, i) not in splits:
                text, splits[kind, i] = _line_split(replace(template, line=line), format_one)
                batch.append(text)
                continue
            split = splits[kind, i]
            batch.append(format_one(replace(template, line=line)) if split is None
                         else f"{split[0]}{line}{split[1]}")
        if len(batch) >= _BATCH:
            yield separator.join(batch)
            batch = []
    if batch:
        yield separator.join(batch)


def _line_split(inc, format_one):
    """(``format_one(inc)``, (the text before and after the line number in the format of
    ``inc`` on another line), or None when the probes cannot place it)."""
    text = format_one(inc)
    (probe, other), (at_probe, at_other) = map(str, _PROBE_LINES), (
        format_one(replace(inc, line=line)) for line in _PROBE_LINES)
    if at_probe.count(probe) != 1 or at_probe.replace(probe, other) != at_other:
        return text, None
    before, after = at_probe.split(probe)
    return text, (before, after)


def _counted(found, wanted, tally):
    """The incidents and runs of incidents that are ``wanted`` (a run: its wanted incidents),
    each counted (--max-err and --quiet show fewer)."""
    from ..validate import IncidentRun  # start-up time (as above)
    add = tally.add
    for inc in found:
        if isinstance(inc, IncidentRun):
            inc = inc.keep(wanted)
            if inc is None:
                continue
        elif not wanted(inc):
            continue
        add(inc)
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
                    f"files ({program_name('validate')} -e ID -- FILE) or the files first")
        raise UsageError(f"conll_eval validate: unknown test id(s): {', '.join(unknown)}{hint}")
    return ids


def _incidents_of(path: str, level: int, state, progress=None):
    """The incidents of one file; empty input (no byte at all) is an ``empty-file`` input
    error rather than a pass (udvalidate passes it), so a failed pipeline step that left an
    empty file never passes a CI gate."""
    from ..validate import iter_file_findings  # start-up time (as above)
    if _is_empty(path):
        raise FormatError(Location(path, None), "empty-file",
                          "the file is empty: nothing to validate (an empty input is no pass)")
    yield from iter_file_findings(path, level, state, progress)
    if progress is not None:
        progress(None)


def _is_empty(path: str) -> bool:
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        peek = getattr(buffer, "peek", None)
        return peek is not None and peek(1) == b""  # peek consumes nothing
    from ..io.byte_input import open_input  # start-up time (as above)
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
            stderr.write(f"\r\033[K{printable(path)}: {done / 1e6:.0f} MB{of}")
        stderr.flush()
    return show
