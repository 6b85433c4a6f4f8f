"""Command line: ``conll_eval [options] GOLD SYSTEM``, ``conll_eval suite GOLD SYSTEM...`` and
``conll_eval validate FILE...``.
The only place that prints or exits.

Exit codes: 0 scored / valid, 1 invalid input, 2 usage error, 3 internal error (traceback
only with ``--debug``).
"""
from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import tempfile
from typing import List, Optional, TextIO

from . import __version__
from .errors import ConllEvalError, InputError, UsageError, ValidationFailed
from .evaluate import Settings, evaluate_files
from .metrics import PROFILES, display_name, load_weights, profile_metrics
from .report import counts_table, default_lines, to_json, to_tsv, verbose_table
from .report.suite import (percent, suite_delimited, suite_json, suite_markdown, suite_text,
                           tira_prototext, tira_stderr, tira_stdout)
from .suite import SuiteEvaluation, find_pairs, rank, read_pair_list, score_entries
from .workers import usable_cpus

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


def _add_scoring_options(parser: argparse.ArgumentParser, weights_note: str = "") -> None:
    """--profile, -w and -o, the same for one pair and for a suite."""
    parser.add_argument("--profile", default="conll18", choices=list(PROFILES),
                        help="official behaviour to reproduce (default: conll18)")
    parser.add_argument("-w", "--weights", metavar="FILE",
                        help="add WeightedLAS with 'deprel weight' lines (conll17 semantics)"
                             + weights_note)
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the output to FILE (atomically) instead of stdout")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="conll_eval",
        description="Score a CoNLL-U system file against a gold file with the official CoNLL "
                    "2017/2018 shared-task metrics, exactly.",
        epilog="Many treebanks, the macro-average, leaderboards and CI gates: conll_eval suite "
               "GOLD_DIR SYSTEM_DIR... (see conll_eval suite --help).  To check files against "
               "the UD validator's levels 1-2 instead: conll_eval validate FILE... (see "
               "conll_eval validate --help).  Exit codes: 0 scored, 1 invalid input, 2 usage "
               "error, 3 internal error.")
    parser.add_argument("gold", help="gold-standard CoNLL-U file ('-' for stdin)")
    parser.add_argument("system", help="system CoNLL-U file ('-' for stdin)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the table of all metrics (precision, recall, F1, aligned accuracy)")
    parser.add_argument("-c", "--counts", action="store_true",
                        help="print the table of raw counts (takes precedence over -v)")
    parser.add_argument("--format", default="text", choices=["text", "json", "tsv"],
                        help="output format (default: text, the official layout)")
    parser.add_argument("--signature", action="store_true",
                        help="print the settings signature after the text output")
    _add_scoring_options(parser, weights_note="; implies -v")
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
    # the validator loads only for this command (it costs start-up time of every other one)
    from .report.validation import Tally, format_incident, format_udtools, incident_dict, limit_per_class
    from .validate import IMPLEMENTED_IDS, ValidationIncident, Validator, iter_validate_file
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
    """Write ``text`` to ``path`` via a temporary file renamed over it (a reader never sees
    half a report; a failed write leaves the old file).  The file gets the mode an ordinary
    ``open`` would give it (an existing file's mode, else 0666 less the umask).  Devices and
    pipes (``/dev/stdout``, a FIFO) are written directly: renaming over them would replace
    the device node."""
    target = os.path.realpath(path)
    for name in inputs:
        if name != "-" and os.path.exists(name) and os.path.realpath(name) == target:
            raise UsageError(f"refusing to write the output into the input file {name}")
    try:
        existing = os.stat(path)  # follows links: /dev/stdout may be a pipe with no path
    except OSError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    if existing is not None:
        mode = stat.S_IMODE(existing.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    directory = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=".conll_eval-", dir=directory)
    try:
        os.fchmod(fd, mode)
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


def build_suite_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="conll_eval suite",
        description="Score a treebank suite: every gold/system pair, a failed or missing system "
                    "file scoring 0 with its reason, and the macro-average over all treebanks "
                    "(the shared tasks' ranking).  Several systems give a ranked leaderboard.",
        epilog="Pairs come from GOLD/metadata.json (2017 'ltcode' or 2018 'lcode'+'tcode' "
               "form; or --metadata), from two directories (*.conllu paired by name), from two "
               "files, or from --pairs lists.  Exit codes: 0 all scored and above the bars, 1 a "
               "treebank failed or a --fail-under bar was missed (with --tira: only the bars "
               "count, as the official wrapper exits 0), 2 usage error, 3 internal error.")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="GOLD SYSTEM [SYSTEM ...]: directories (or files); several SYSTEMs "
                             "make a leaderboard")
    parser.add_argument("--metadata", metavar="FILE",
                        help="shared-task metadata.json naming the pairs (default: "
                             "GOLD/metadata.json when present)")
    parser.add_argument("--pairs", action="append", default=[], metavar="FILE",
                        help="a list of 'GOLD SYSTEM [NAME]' lines, one system; repeat for a "
                             "leaderboard (no PATHs then)")
    parser.add_argument("--names", metavar="A,B,...",
                        help="names of the systems, in order (default: the SYSTEM paths' names)")
    _add_scoring_options(parser)
    parser.add_argument("--metrics", metavar="M,M,...",
                        help="columns of the text, Markdown and TSV/CSV tables (default: all "
                             "metrics for one system, the profile's headline metrics for a "
                             "leaderboard)")
    parser.add_argument("--rank-by", default="LAS", metavar="METRIC",
                        help="leaderboard order: macro F1 of this metric (default: LAS)")
    parser.add_argument("--micro", action="store_true",
                        help="also the micro-average (counts summed over treebanks)")
    parser.add_argument("--by-language", action="store_true",
                        help="also macro-averages per language (the part of the name before '_')")
    parser.add_argument("--format", default="text", choices=list(SUITE_FORMATS),
                        help="output format (default: text)")
    parser.add_argument("--tira", metavar="OUTPUT_DIR",
                        help="behave like the shared-task wrapper: its stdout and stderr lines "
                             "and OUTPUT_DIR/evaluation.prototext (one system)")
    parser.add_argument("--fail-under", metavar="M=PCT,...",
                        help="exit 1 when a treebank or the macro-average scores below the bar, "
                             "in percent as printed, e.g. LAS=80,CLAS=75")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only failures (failed treebanks, missed bars) on stderr")
    parser.add_argument("-j", "--jobs", type=int, default=usable_cpus(), metavar="N",
                        help="score in N worker processes (default: the cores this process may use)")
    parser.add_argument("--strict", action="store_true",
                        help="validate each pair first (UD levels 1-2); an invalid file scores 0")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    return parser


#: the --format choices of the suite command
SUITE_FORMATS = ("text", "json", "tsv", "csv", "markdown")


def _metric_list(text: str, known: List[str], option: str) -> List[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise UsageError(f"conll_eval suite: {option}: unknown metric(s) {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(known)}")
    return list(dict.fromkeys(names))  # a metric named twice is one column


def _thresholds(text: str, known: List[str]) -> List[tuple]:
    bars = []
    for item in text.split(","):
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in known:
            raise UsageError(f"conll_eval suite: --fail-under: expected METRIC=PERCENT with METRIC "
                             f"one of {', '.join(known)}, got {item.strip()!r}")
        try:
            bar = float(value)
        except ValueError:
            raise UsageError(f"conll_eval suite: --fail-under: {value.strip()!r} is not a number") from None
        if not 0 <= bar <= 100:
            raise UsageError(f"conll_eval suite: --fail-under: {name}={bar:g} is not a percentage")
        bars.append((name, bar))
    return bars


def _below_bars(ranked, bars) -> List[str]:
    """A message for each treebank and macro-average below its bar (compared as printed)."""
    messages = []
    for _, suite in ranked:
        owner = f"{suite.system_name} " if len(ranked) > 1 else ""
        rows = [(r.entry.name, r.scores) for r in suite.results]
        macro = suite.macro
        for metric, bar in bars:
            for name, scores in rows:
                shown = percent(scores[metric].f1)
                if float(shown) < bar:
                    messages.append(f"{owner}{name}: {metric} {shown} < {bar:g}")
            shown = percent(macro[metric].f1)
            if float(shown) < bar:
                messages.append(f"{owner}macro-average: {metric} {shown} < {bar:g}")
    return messages


def _system_names(args, count: int, paths: List[str]) -> List[str]:
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != count or len(set(names)) != count or not all(names):
            raise UsageError(f"conll_eval suite: --names needs {count} distinct names")
        return names
    bases = [os.path.basename(os.path.normpath(p)) for p in paths]
    bases = [os.path.splitext(b)[0] if os.path.isfile(p) else b for b, p in zip(bases, paths)]
    return bases if len(set(bases)) == count else [os.path.normpath(p) for p in paths]


def _progress(stderr: TextIO):
    """A one-line progress indicator on a terminal; None when stderr is piped."""
    if not (hasattr(stderr, "isatty") and stderr.isatty()):
        return None

    def show(done: int, total: int, entry) -> None:
        stderr.write(f"\r\033[K[{done}/{total}] {entry.name}")
        if done == total:
            stderr.write("\r\033[K")
        stderr.flush()
    return show


def _suite_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_suite_parser().parse_args(argv)
    settings = Settings(args.profile, args.weights)
    if args.weights is not None:
        load_weights(args.weights)  # a bad weights file stops here, not once per treebank
    known = [display_name(n) for n in profile_metrics(args.profile, weights=args.weights is not None)]
    if args.jobs < 1:
        raise UsageError("conll_eval suite: --jobs must be at least 1")
    if args.pairs:
        if args.paths or args.metadata:
            raise UsageError("conll_eval suite: give either --pairs lists or GOLD SYSTEM paths")
        pairings = [read_pair_list(p) for p in args.pairs]
        system_paths = args.pairs
    else:
        if len(args.paths) < 2:
            raise UsageError("conll_eval suite: give GOLD and at least one SYSTEM (or --pairs)")
        gold, system_paths = args.paths[0], args.paths[1:]
        pairings = [find_pairs(gold, s, args.metadata) for s in system_paths]
    names = _system_names(args, len(pairings), system_paths)
    if args.tira and len(pairings) > 1:
        raise UsageError("conll_eval suite: --tira scores one system")
    rank_by = _metric_list(args.rank_by, known, "--rank-by")[0]
    default_metrics = known if len(pairings) == 1 else \
        [m for m, _ in PROFILES[args.profile].default_lines]
    metrics = _metric_list(args.metrics, known, "--metrics") if args.metrics else default_metrics
    bars = _thresholds(args.fail_under, known) if args.fail_under else []
    if not pairings[0].entries:
        if args.tira:  # the official wrapper divides by zero here
            stderr.write("Internal error (uncaught exception) in the evaluation script.\n"
                         "Please contact straka@ufal.mff.cuni.cz so that we can fix it together.\n")
            return EXIT_INPUT
        raise UsageError(f"conll_eval suite: no treebanks found ({' '.join(args.paths or args.pairs)}: "
                         "no *.conllu gold files, or an empty metadata/pair list)")

    if len({tuple(e.name for e in p.entries) for p in pairings}) > 1:
        raise UsageError("conll_eval suite: the systems do not cover the same treebanks; "
                         "give the same gold set to each")
    entries = [entry for pairing in pairings for entry in pairing.entries]
    inputs = [e.gold for e in entries] + [e.system for e in entries if e.system]  # never overwritten
    results = score_entries(entries, settings, args.jobs, args.strict,
                            None if args.quiet else _progress(stderr), args.debug)
    suites, start = [], 0
    for name, pairing in zip(names, pairings):
        stop = start + len(pairing.entries)
        suites.append(SuiteEvaluation(name, tuple(results[start:stop]), settings, pairing.unpaired_system))
        start = stop
    ranked = rank(suites, rank_by) if len(suites) > 1 else [(1, suites[0])]

    if args.tira:
        os.makedirs(args.tira, exist_ok=True)
        _write_atomically(os.path.join(args.tira, "evaluation.prototext"), tira_prototext(suites[0]),
                          inputs)
        text, tira_errors = tira_stdout(suites[0]), tira_stderr(suites[0])
    else:
        tira_errors = ""
        flags = dict(micro=args.micro, by_language=args.by_language)
        if args.format == "json":
            text = suite_json(ranked, {"profile": args.profile, "weights_file": args.weights,
                                       "rank_by": rank_by, "strict": args.strict}, rank_by, **flags)
        elif args.format in ("tsv", "csv"):
            text = suite_delimited(ranked, metrics, "\t" if args.format == "tsv" else ",", **flags)
        elif args.format == "markdown":
            text = suite_markdown(ranked, metrics, rank_by, **flags)
        else:
            text = suite_text(ranked, metrics, rank_by, **flags)
    if args.output:
        _write_atomically(args.output, text, inputs)
    elif not args.quiet:
        stdout.write(text)
        stdout.flush()
    if tira_errors and not args.quiet:
        stderr.write(tira_errors)
    failed = [(s, r) for s in suites for r in s.results if not r.ok]
    if args.quiet:
        for suite, r in failed:
            owner = f"{suite.system_name} " if len(suites) > 1 else ""
            stderr.write(f"{owner}{r.entry.name}: {r.failure.message}\n")
    below = _below_bars(ranked, bars)
    for message in below:
        stderr.write(f"conll_eval: below --fail-under: {message}\n")
    if any(r.failure.code == "internal-error" for _, r in failed):
        return EXIT_INTERNAL
    if below or (failed and not args.tira):
        return EXIT_INPUT
    return EXIT_OK


#: subcommand name -> function(argv, stdout, stderr) -> exit code; scoring is the default
COMMANDS = {"validate": _validate_command, "suite": _suite_command}


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
        from .report.validation import format_incident, limit_per_class
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
    except OSError as exc:  # reading errors are FormatErrors by now: this is a failed write
        if debug:
            raise
        stderr.write(_write_failed(exc))
        return EXIT_INPUT
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
    """Console-script (and ``python -m conll_eval``) entry point: run, flush, exit.

    Ends with ``os._exit`` once stdout and stderr are flushed: the interpreter's teardown
    (freeing numpy and every module, ~30 ms) would add to every call and does nothing a
    finished command needs; the worker pools are shut down inside :func:`main` and nothing
    here registers atexit work.  A reader that went away (``| head``) is not an error; a
    failed write of the results (disk full) is, with exit code 1.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
        except OSError as exc:
            if stream is sys.stdout:
                status = status or EXIT_INPUT
                try:
                    sys.stderr.write(_write_failed(exc))
                except OSError:
                    pass
    os._exit(status)


def _write_failed(exc: OSError) -> str:
    return f"conll_eval: error [write-failed] cannot write the results: {exc}\n"
