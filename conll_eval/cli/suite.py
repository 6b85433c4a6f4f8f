"""``conll_eval suite GOLD SYSTEM...``: treebank suites, leaderboards, the shared-task
wrapper's outputs and CI bars."""
from __future__ import annotations

import argparse
import os
from typing import List, TextIO

from ..errors import UsageError
from ..metrics import PROFILES, load_weights
from ..report.suite import (pairing_notes, suite_delimited, suite_json, suite_markdown,
                            suite_text, tira_prototext, tira_stderr, tira_stdout)
from ..suite import SuiteEvaluation, find_pairs, rank, read_pair_list, score_entries
from ..workers import usable_cpus
from .compare import (DEFAULT_METRICS as SIGNIFICANCE_METRICS, add_resampling_options,
                      check_resampling_options, format_comparison, significance_signature)
from .common import (BAR_SCOPES, DELIMITERS, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK,
                     SIGNATURE_ON_STDERR, Parser, add_report_options, add_scoring_options, below,
                     fraction_warning, known_metrics, metric_list, progress_reporter,
                     scoring_settings, thresholds,
                     write_atomically)


def build_suite_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval suite",
        description="Score a treebank suite: every gold/system pair, a failed or missing system "
                    "file scoring 0 with its reason, and the macro-average over all treebanks "
                    "(the shared tasks' ranking).  Several systems give a ranked leaderboard.",
        epilog="Pairs come from GOLD/metadata.json (2017 'ltcode' or 2018 'lcode'+'tcode' "
               "form; or --metadata), from two directories (*.conllu paired by name, else by "
               "treebank code, the name's part before the first '-' or '.', when only one file "
               "on each side has it: en_ewt-ud-test.conllu with en_ewt-ud-test.pred.conllu or "
               "en_ewt.conllu; a note names such pairs), from two files, or from --pairs lists.  "
               "Exit codes: 0 all scored and above the bars, 1 a treebank failed or a "
               "--fail-under bar was missed (with --tira: only the bars count, as the official "
               "wrapper exits 0), 2 usage error, 3 internal error, 4 the results could not be "
               "written.")
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
    add_scoring_options(parser)
    add_report_options(
        parser,
        metrics="columns of the text, Markdown and TSV/CSV tables (default: all metrics for one "
                "system, the profile's headline metrics for a leaderboard)",
        fail_under="exit 1 when a score is below its bar, in percent as printed (2 decimals; "
                   "LAS=0.8 is 0.8 %%), e.g. LAS=80,CLAS=75: "
                   + "; ".join(f"{scope + ':' if scope else ''}LAS=80 checks {what}"
                               for scope, what in BAR_SCOPES.items()),
        signature="with csv: print the signature on stderr (the CSV stays a plain table); the "
                  "other formats always carry it")
    parser.add_argument("--rank-by", default="LAS", metavar="METRIC",
                        help="leaderboard order: macro F1 of this metric (default: LAS)")
    parser.add_argument("--micro", action="store_true",
                        help="also the micro-average (counts summed over treebanks)")
    parser.add_argument("--by-language", action="store_true",
                        help="also macro-averages per language (the part of the name before '_')")
    parser.add_argument("--significance", action="store_true",
                        help="leaderboard: each system's macro-average with a bootstrap interval "
                             "and, per pair of systems (or against --baseline), the difference "
                             "with its interval and paired p-values (bootstrap, approximate "
                             "randomization), sentences resampled within each treebank, failed "
                             "treebanks 0 in every resample; metrics: --metrics, else "
                             f"{','.join(SIGNIFICANCE_METRICS)}.  With tsv/csv the output is the "
                             "significance table (a row per score and per pair)")
    parser.add_argument("--baseline", metavar="NAME",
                        help="with --significance: test every system against this one only")
    add_resampling_options(parser)
    parser.add_argument("--tira", metavar="OUTPUT_DIR",
                        help="behave like the shared-task wrapper: its stdout and stderr lines "
                             "and OUTPUT_DIR/evaluation.prototext (one system)")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a self-contained HTML report to FILE: the macro-"
                             "averages, then per treebank the summary and the sentence browser "
                             "(as conll_eval report)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print only failures (failed treebanks, missed bars) on stderr")
    parser.add_argument("-j", "--jobs", type=int, default=usable_cpus(), metavar="N",
                        help="score in N worker processes (default: the cores this process may use)")
    parser.add_argument("--strict", action="store_true",
                        help="validate each pair first (UD levels 1-2); an invalid file scores 0")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    return parser


def _below_bars(ranked, bars) -> List[str]:
    """A message for each score below its bar (compared as printed): per bar every treebank
    and the macro-average, or only the macro- or micro-average (``macro:``, ``micro:``)."""
    messages = []
    for _, suite in ranked:
        owner = f"{suite.system_name} " if len(ranked) > 1 else ""
        for bar in bars:
            checked = [(f"{r.entry.name}: ", r.scores) for r in suite.results] if not bar.scope else []
            if bar.scope in ("", "macro"):
                checked.append(("macro-average: ", suite.macro))
            if bar.scope == "micro":
                checked.append(("micro-average: ", suite.micro))
            messages += [owner + m for m in (below(label, bar.metric, scores[bar.metric].f1, bar.value)
                                             for label, scores in checked) if m]
    return messages


def _significance(args, suites, metrics, names):
    """(comparison, signature) of ``suite --significance``."""
    from ..analyze.comparison import compare_suites
    baseline = names.index(args.baseline) if args.baseline is not None else None
    comparison = compare_suites(suites, metrics, args.resamples, args.seed, args.alpha,
                                args.correction, baseline)
    return comparison, significance_signature(suites[0].signature, args, mcnemar=False)


def _with_significance(text: str, significance) -> str:
    """The suite's JSON document with a ``significance`` member."""
    import json
    from ..report.comparison import comparison_record
    document = json.loads(text)
    document["significance"] = comparison_record(*significance)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _system_names(args, count: int, paths: List[str]) -> List[str]:
    if args.names:
        names = [n.strip() for n in args.names.split(",")]
        if len(names) != count or len(set(names)) != count or not all(names):
            raise UsageError(f"conll_eval suite: --names needs {count} distinct names")
        return names
    bases = [os.path.basename(os.path.normpath(p)) for p in paths]
    bases = [os.path.splitext(b)[0] if os.path.isfile(p) else b for b, p in zip(bases, paths)]
    return bases if len(set(bases)) == count else [os.path.normpath(p) for p in paths]


def suite_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_suite_parser()
    args = parser.parse_args(argv)
    requested = metric_list(args.metrics, known_metrics(scoring_settings(args), extra=True),
                            "--metrics", parser.prog) if args.metrics else []
    settings = scoring_settings(args, requested)
    if args.weights is not None:
        load_weights(args.weights)  # a bad weights file stops here, not once per treebank
    known = known_metrics(settings)
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
    check_resampling_options(parser, args)
    if args.significance and (len(pairings) < 2 or args.tira):
        raise UsageError("conll_eval suite: --significance compares two or more systems")
    if args.baseline is not None and (not args.significance or args.baseline not in names):
        raise UsageError(f"conll_eval suite: --baseline needs --significance and one of the "
                         f"system names ({', '.join(names)})")
    rank_by = metric_list(args.rank_by, known, "--rank-by", parser.prog)[0]
    default_metrics = known if len(pairings) == 1 else \
        [m for m, _ in PROFILES[args.profile].default_lines]
    metrics = metric_list(args.metrics, known, "--metrics", parser.prog) if args.metrics else default_metrics
    tested = [] if not args.significance else metrics if args.metrics else \
        [m for m in SIGNIFICANCE_METRICS if m in known]
    bars = thresholds(args.fail_under, known, parser.prog, BAR_SCOPES) if args.fail_under else []
    stderr.write(fraction_warning(bars) or "")
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
    results = score_entries(entries, settings, args.jobs,
                            progress=None if args.quiet else progress_reporter(stderr), debug=args.debug,
                            sentence_metrics=tested)
    suites, start = [], 0
    for name, pairing in zip(names, pairings):
        stop = start + len(pairing.entries)
        suites.append(SuiteEvaluation(name, tuple(results[start:stop]), settings, pairing.unpaired_system))
        start = stop
    ranked = rank(suites, rank_by) if len(suites) > 1 else [(1, suites[0])]

    significance = None
    if args.tira:
        os.makedirs(args.tira, exist_ok=True)
        write_atomically(os.path.join(args.tira, "evaluation.prototext"), tira_prototext(suites[0]),
                          inputs)
        text, tira_errors = tira_stdout(suites[0]), tira_stderr(suites[0])
    else:
        tira_errors = ""
        flags = dict(micro=args.micro, by_language=args.by_language)
        significance = _significance(args, suites, tested, names) if tested else None
        if significance is not None and args.format in DELIMITERS:
            text = format_comparison(*significance, args.format)
        elif args.format == "json":
            text = suite_json(ranked, {"profile": args.profile, "weights_file": args.weights,
                                       "rank_by": rank_by, "strict": args.strict}, rank_by, **flags)
            if significance is not None:
                text = _with_significance(text, significance)
        elif args.format in DELIMITERS:
            text = suite_delimited(ranked, metrics, DELIMITERS[args.format], **flags,
                                   signature=args.format not in SIGNATURE_ON_STDERR)
        elif args.format == "markdown":
            text = suite_markdown(ranked, metrics, rank_by, **flags)
        else:
            text = suite_text(ranked, metrics, rank_by, **flags)
        if significance is not None and args.format in ("text", "markdown"):
            text += "\n" + format_comparison(*significance, args.format)
    if args.output:
        write_atomically(args.output, text, inputs)
    elif not args.quiet:
        stdout.write(text)
        stdout.flush()
    if args.html:
        from .report import suite_html
        write_atomically(args.html, suite_html([s for _, s in ranked], settings, metrics,
                                               "conll_eval suite report"), inputs)
    if tira_errors and not args.quiet:
        stderr.write(tira_errors)
    if args.signature and args.format in SIGNATURE_ON_STDERR and not args.tira:
        stderr.write((significance[1] if significance else suites[0].signature) + "\n")
    if not args.quiet and (args.output or args.tira or args.format not in ("text", "markdown")):
        for suite in suites:  # the text and Markdown outputs name these pairs themselves
            owner = f"{suite.system_name}: " if len(suites) > 1 else ""
            for note in pairing_notes(suite):
                stderr.write(f"conll_eval suite: note: {owner}paired by treebank code: {note}\n")
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


