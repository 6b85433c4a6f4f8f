"""``conll_eval suite GOLD SYSTEM...``: treebank suites, leaderboards, the shared-task
wrapper's outputs and CI bars."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, List, TextIO

from ..errors import UsageError, printable
from ..io.identical import identical_inputs
from ..metric_specs import PROFILES
from ..naming import system_names
from ..background import usable_cpus
from .compare import (DEFAULT_METRICS as SIGNIFICANCE_METRICS,
                      check_resampling_options, format_comparison, significance_signature,
                      small_sample_note)
from .color import red, red_failures, wants_color
from .common import (ENHANCED_OPTIONS, BAR_SCOPES, DELIMITERS, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK,
                     RESAMPLING_OPTIONS, SIGNATURE_ON_STDERR, Parser, add_options, below,
                     fraction_warning, known_metrics, meaningless_bar, metric_list,
                     progress_reporter, scoring_request,
                     named_inputs, refuse_inputs, write_atomically)

if TYPE_CHECKING:  # annotations only: the suite's scoring loads with the command, not its help
    from ..suite import SuiteEvaluation


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
    add_options(parser, "metadata", "pairs", "names", notes={
        "pairs": "repeat for a leaderboard"})
    add_options(parser, "profile", "weights", "punct", "deprel", "strict", notes={
        "strict": "a pair with an invalid file scores 0"})
    add_options(parser, *ENHANCED_OPTIONS)
    add_options(parser, "format", "metrics", "fail_under", "signature", "output", notes={
        "metrics": "the columns of the text, Markdown and TSV/CSV tables (default: all "
                   "metrics for one system, the profile's headline metrics for a leaderboard)",
        "fail_under": "; ".join(f"{scope + ':' if scope else ''}LAS=80 checks {what}"
                                for scope, what in BAR_SCOPES.items())})
    parser.add_argument("--rank-by", default="LAS", metavar="METRIC",
                        help="leaderboard order: macro F1 of this metric, in any case "
                             "(default: LAS)")
    parser.add_argument("--micro", action="store_true",
                        help="also the micro-average (counts summed over treebanks)")
    parser.add_argument("--by-language", action="store_true",
                        help="also macro-averages per language (the part of the name before '_', "
                             "or metadata.json's lcode) and their mean over languages")
    parser.add_argument("--coarse", action="store_true",
                        help="also per language the counts of its treebanks summed (its test sets "
                             "as one file: IWPT 2020's 'coarse' scores) and their mean over "
                             "languages")
    parser.add_argument("--qualitative", action="store_true",
                        help="score each treebank with the enhancement types its metadata.json "
                             "entry lacks ('enhancements': \"12\", digits as --enhancements) "
                             "switched off in both files, and average per language, then over "
                             "languages (IWPT 2020's qualitative LAvgELAS; implies --by-language)")
    add_options(parser, "significance", "baseline", *RESAMPLING_OPTIONS, notes={
        "significance": "a leaderboard: each system's macro-average with its interval and, "
                        "per pair of systems (or against --baseline), the difference with its "
                        "interval and p-values, sentences resampled within each treebank, "
                        "failed treebanks 0 in every resample; metrics: --metrics, else "
                        f"{','.join(SIGNIFICANCE_METRICS)}.  With tsv/csv the output is the "
                        "significance table (a row per score and per pair)",
        "baseline": "with --significance"})
    parser.add_argument("--tira", metavar="OUTPUT_DIR",
                        help="behave like the shared-task wrapper: its stdout and stderr lines "
                             "and OUTPUT_DIR/evaluation.prototext (one system)")
    parser.add_argument("--html", metavar="FILE",
                        help="also write a self-contained HTML report to FILE: the macro-"
                             "averages, then per treebank the summary and the sentence browser "
                             "(as conll_eval report)")
    add_options(parser, "quiet")
    parser.add_argument("-j", "--jobs", type=int, default=usable_cpus(), metavar="N",
                        help="score in N worker processes (default: the cores this process may use)")
    add_options(parser, "debug")
    add_options(parser, "color")
    return parser


#: the profiles whose shared task had the TIRA wrapper --tira reproduces (REFERENCE.md b.5)
TIRA_PROFILES = ("conll17", "conll18")


def _find_pairs(gold: str, system: str, metadata):
    """:func:`find_pairs`, its usage errors in the form of suite's others."""
    from ..suite import find_pairs  # here: see suite_command
    try:
        return find_pairs(gold, system, metadata)
    except UsageError as exc:
        raise UsageError(f"conll_eval suite: {exc}") from exc


def _checked_values(suite: SuiteEvaluation, bar) -> List[tuple]:
    """(label, F1) of each number ``bar`` checks in ``suite`` that means something: without
    a prefix every treebank whose gold file annotates the metric (a failed one whose gold
    file could not be read counts, at 0) and the macro-average; ``macro:``/``micro:`` that
    average.  An n/a number is left out (never compared as 0)."""
    checked = [(f"{printable(r.entry.name)}: ", r.scores[bar.metric].f1) for r in suite.results
               if not bar.scope and bar.metric not in r.unannotated]
    if bar.scope in ("", "macro") and suite.macro[bar.metric].defined:
        checked.append(("macro-average: ", suite.macro[bar.metric].f1))
    if bar.scope == "micro" and suite.micro[bar.metric] is not None:
        checked.append(("micro-average: ", suite.micro[bar.metric].f1))
    return checked


def _check_bars_mean_something(suites, bars, prog: str) -> None:
    """A usage error for a bar with nothing meaningful to check (the tag is n/a where the
    bar looks): it would otherwise pass, or fail against a 0 that is not a score."""
    for suite in suites:
        for bar in bars:
            if not _checked_values(suite, bar):
                owner = f" of {printable(suite.system_name)}" if len(suites) > 1 else ""
                average = f", so its {bar.scope}-average is n/a" if bar.scope else ""
                raise meaningless_bar(prog, bar, f"no gold file{owner} annotates {bar.metric} "
                                      f"(every value is _ in every treebank){average}")


def _testable(suites, tested: List[str], stderr: TextIO, quiet: bool) -> List[str]:
    """The --significance metrics whose macro-average means something for every system; a
    note names those left out (no gold file annotates them), a usage error when none is left."""
    left_out = [m for m in tested if not all(s.macro[m].defined for s in suites)]
    if left_out and len(left_out) == len(tested):
        raise UsageError(f"conll_eval suite: --significance: nothing to test: no gold file "
                         f"annotates {', '.join(left_out)} (every value is _), so the "
                         "macro-averages are n/a; name other --metrics")
    if left_out and not quiet:
        stderr.write(f"conll_eval suite: note: --significance leaves out {', '.join(left_out)}: "
                     "no gold file annotates it (every value is _), its macro-average is n/a\n")
    return [m for m in tested if m not in left_out]


def _below_bars(ranked, bars) -> List[str]:
    """A message for each score below its bar (compared as printed): per bar every treebank
    (that annotates the metric) and the macro-average, or only the macro- or micro-average
    (``macro:``, ``micro:``)."""
    messages = []
    for _, suite in ranked:
        owner = f"{printable(suite.system_name)} " if len(ranked) > 1 else ""
        for bar in bars:
            messages += [owner + m for m in (below(label, bar.metric, f1, bar.value)
                                             for label, f1 in _checked_values(suite, bar)) if m]
    return messages


def _significance(args, suites, metrics, names):
    """(comparison, signature) of ``suite --significance``."""
    from ..analyze.comparison import compare_suites  # here: only --significance needs the analyses
    baseline = names.index(args.baseline) if args.baseline is not None else None
    comparison = compare_suites(suites, metrics, args.resamples, args.seed, args.alpha,
                                args.correction, baseline)
    return comparison, significance_signature(suites[0].signature, args)


def _with_significance(text: str, significance) -> str:
    """The suite's JSON document with a ``significance`` member."""
    # here: only --significance with --format json needs them (start-up time)
    import json
    from ..report.comparison import comparison_record
    from ..report.escape import json_text
    document = json.loads(text)
    document["significance"] = comparison_record(*significance)
    return json_text(document, indent=2) + "\n"


def _system_names(args, count: int, paths: List[str]) -> List[str]:
    return system_names(paths, args.names, "conll_eval suite")  # every command's rule


def _warn_identical(suites: List[SuiteEvaluation], stderr: TextIO) -> None:
    """A warning per treebank scored whose system file is its gold file, or the same bytes;
    a note per treebank whose files look swapped (:mod:`conll_eval.io.swapped`)."""
    from ..io.swapped import swapped_reason  # here: it loads numpy (see suite_command)
    for suite in suites:
        owner = f"{printable(suite.system_name)}: " if len(suites) > 1 else ""
        for result in suite.results:
            entry = result.entry
            same = identical_inputs(entry.gold, entry.system) if entry.system and result.ok else None
            if same:
                stderr.write(f"conll_eval suite: warning: {owner}{printable(entry.name)}: gold and "
                             f"system are identical ({same}): its scores compare a file with itself\n")
            elif result.swapped:
                reason = swapped_reason(result.swapped, "the gold file", "the system file")
                stderr.write(f"conll_eval suite: note: {owner}{printable(entry.name)}: gold and system "
                             f"may be swapped: {reason}\n")


def suite_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_suite_parser()
    args = parser.parse_args(argv)
    # here: the suite's scoring and report load numpy, which the parser (the help, completion
    # and man pages) never needs (start-up time)
    from ..metrics import load_weights
    from ..report.suite import (pairing_notes, suite_delimited, suite_json, suite_markdown,
                                suite_text, tira_prototext, tira_stderr, tira_stdout)
    from ..suite import SuiteEvaluation, rank, read_pair_list, require_paths, score_entries
    settings, requested, bars = scoring_request(args, parser.prog, BAR_SCOPES)
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
        require_paths([gold, *system_paths, *([args.metadata] if args.metadata else [])])
        pairings = [_find_pairs(gold, s, args.metadata) for s in system_paths]
    names = _system_names(args, len(pairings), system_paths)
    if args.tira and len(pairings) > 1:
        raise UsageError("conll_eval suite: --tira scores one system")
    if args.tira and args.profile not in TIRA_PROFILES:
        raise UsageError(f"conll_eval suite: --tira reproduces the CoNLL 2017 and 2018 shared "
                         f"tasks' wrappers (conll17_tira_eval.py, conll18_tira_eval.py), which "
                         f"have no {args.profile} form: use --profile conll17 or conll18")
    changed = [option for option, changes in (("--punct", args.punct != "include"),
                                              ("--deprel", args.deprel != "universal"),
                                              ("--strict", args.strict),
                                              ("--qualitative", args.qualitative)) if changes]
    if args.tira and changed:  # the wrapper's files have no place for the signature
        raise UsageError(f"conll_eval suite: --tira writes the official wrapper's outputs, whose "
                         f"numbers {' and '.join(changed)} would change without a trace; "
                         f"score without them, or without --tira")
    check_resampling_options(parser, args)
    if args.significance and (len(pairings) < 2 or args.tira):
        raise UsageError("conll_eval suite: --significance compares two or more systems")
    if args.baseline is not None and (not args.significance or args.baseline not in names):
        raise UsageError(f"conll_eval suite: --baseline needs --significance and one of the "
                         f"system names ({printable(', '.join(names))})")
    rank_by = metric_list(args.rank_by, known, "--rank-by", parser.prog)[0]
    default_metrics = known if len(pairings) == 1 else \
        [m for m, _ in PROFILES[args.profile].default_lines]
    metrics = metric_list(args.metrics, known, "--metrics", parser.prog) if args.metrics else default_metrics
    tested = [] if not args.significance else metrics if args.metrics else \
        [m for m in SIGNIFICANCE_METRICS if m in known]
    if len(pairings) > 1 and rank_by not in metrics:  # the ranking shows what it ranks by
        metrics = [rank_by, *metrics]
    if not args.quiet:
        stderr.write(fraction_warning(bars) or "")
    if not pairings[0].entries:
        if args.tira:  # the official wrapper divides by zero here
            stderr.write("Internal error (uncaught exception) in the evaluation script.\n"
                         "Please contact straka@ufal.mff.cuni.cz so that we can fix it together.\n")
            return EXIT_INPUT
        raise UsageError(f"conll_eval suite: no treebanks found ({printable(' '.join(args.paths or args.pairs))}: "
                         "no *.conllu gold files, or an empty metadata/pair list)")

    if len({tuple(e.name for e in p.entries) for p in pairings}) > 1:
        raise UsageError("conll_eval suite: the systems do not cover the same treebanks; "
                         "give the same gold set to each")
    if args.qualitative and any(p.source != "metadata" for p in pairings):
        raise UsageError("conll_eval suite: --qualitative takes the enhancement types each "
                         "treebank lacks from metadata.json ('enhancements' per entry): give "
                         "a GOLD directory with one, or --metadata")
    entries = [entry for pairing in pairings for entry in pairing.entries]
    inputs = named_inputs(args, *pairings)  # never overwritten
    results = score_entries(entries, settings, args.jobs,
                            progress=None if args.quiet else progress_reporter(stderr), debug=args.debug,
                            sentence_metrics=tested, qualitative=args.qualitative)
    suites, start = [], 0
    for name, pairing in zip(names, pairings):
        stop = start + len(pairing.entries)
        suites.append(SuiteEvaluation(name, tuple(results[start:stop]), settings,
                                      pairing.unpaired_system, qualitative=args.qualitative))
        start = stop
    _check_bars_mean_something(suites, bars, parser.prog)
    if not args.quiet and not args.tira:  # --tira: the official wrapper's stderr
        _warn_identical(suites, stderr)
    tested = _testable(suites, tested, stderr, quiet=args.quiet)
    try:
        ranked = rank(suites, rank_by) if len(suites) > 1 else [(1, suites[0])]
    except UsageError as exc:
        raise UsageError(f"conll_eval suite: --rank-by {rank_by}: {exc}") from exc

    significance = None
    for output in (args.output, args.html):  # refused before --tira writes anything
        if output:
            refuse_inputs(output, inputs)
    if args.tira:
        os.makedirs(args.tira, exist_ok=True)
        write_atomically(os.path.join(args.tira, "evaluation.prototext"), tira_prototext(suites[0]),
                         inputs, chosen_name=True)
        text, tira_errors = tira_stdout(suites[0]), tira_stderr(suites[0])
    else:
        tira_errors = ""
        flags = dict(micro=args.micro, by_language=args.by_language or args.qualitative,
                     coarse=args.coarse)
        significance = _significance(args, suites, tested, names) if tested else None
        if significance is not None and args.format in DELIMITERS:
            text = format_comparison(*significance, args.format, signed=args.signature)
            stderr.write("" if args.quiet else small_sample_note(significance[0], "suite"))
        elif args.format == "json":
            text = suite_json(ranked, {"profile": args.profile, "weights_file": args.weights,
                                       "rank_by": rank_by, "strict": args.strict,
                                       "qualitative": args.qualitative}, rank_by, **flags)
            if significance is not None:
                text = _with_significance(text, significance)
        elif args.format in DELIMITERS:
            text = suite_delimited(ranked, metrics, DELIMITERS[args.format], **flags,
                                   signature=args.signature and args.format not in SIGNATURE_ON_STDERR)
        elif args.format == "markdown":
            text = suite_markdown(ranked, metrics, rank_by, **flags)
        elif args.format == "latex":
            from ..report.latex_outputs import suite_latex  # here: only LaTeX needs it (start-up time)
            text = suite_latex(ranked, metrics, rank_by, **flags)
        else:
            text = suite_text(ranked, metrics, rank_by, **flags, signature=args.signature)
        if significance is not None and args.format in ("text", "markdown", "latex"):
            text += "\n" + format_comparison(*significance, args.format, signed=args.signature)
    if args.output:
        write_atomically(args.output, text, inputs)
    elif not args.quiet:
        stdout.write(red_failures(text, args.format == "text" and wants_color(args.color, stdout)))
        stdout.flush()
    if args.html:
        from .report import suite_html  # here: only --html builds the page
        write_atomically(args.html, suite_html([s for _, s in ranked], settings, metrics,
                                               "conll_eval suite report", args.html), inputs)
    if tira_errors and not args.quiet:
        stderr.write(tira_errors)
    if args.signature and args.format in SIGNATURE_ON_STDERR and not args.tira and not args.quiet:
        stderr.write((significance[1] if significance else suites[0].signature) + "\n")
    if not args.quiet and (args.output or args.tira or args.format not in ("text", "markdown", "latex")):
        for suite in suites:  # the text, Markdown and LaTeX outputs name these pairs themselves
            owner = f"{printable(suite.system_name)}: " if len(suites) > 1 else ""
            for note in pairing_notes(suite):
                stderr.write(f"conll_eval suite: note: {owner}paired by treebank code: {note}\n")
    failed = [(s, r) for s in suites for r in s.results if not r.ok]
    below = _below_bars(ranked, bars)
    for message in [] if args.quiet else below:  # -q: only the exit status tells
        stderr.write(red(f"conll_eval suite: error [fail-under] {message}", wants_color(args.color, stderr))
                     + "\n")
    if any(r.failure.code == "internal" for _, r in failed):
        return EXIT_INTERNAL
    if below or (failed and not args.tira):
        return EXIT_INPUT
    return EXIT_OK


