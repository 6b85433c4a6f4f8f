"""``conll_eval compare GOLD SYS_A SYS_B [SYS...]``: each system's scores with bootstrap
intervals, and per pair of systems the difference with its interval and paired p-values."""
from __future__ import annotations

import argparse
from typing import List, Sequence, TextIO

from ..naming import system_names
from .color import red, wants_color
from .common import (quiet_input_errors, ENHANCED_OPTIONS, DELIMITERS, EXIT_INPUT, EXIT_OK, RESAMPLING_OPTIONS,
                     SIGNATURE_ON_STDERR, Parser, add_options, evaluate_systems, known_metrics, meaningless_bar,
                     scoring_request, named_inputs, write_atomically)

DEFAULT_METRICS = ("LAS", "MLAS", "BLEX", "CLAS")


def add_resampling_options(parser: argparse.ArgumentParser) -> None:
    """--resamples, --seed, --alpha, --correction (compare, suite --significance, report,
    alignment --compare): the shared definitions."""
    add_options(parser, *RESAMPLING_OPTIONS)


def check_resampling_options(parser: argparse.ArgumentParser, args) -> None:
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    if not 0 < args.alpha < 1:
        parser.error("--alpha must be between 0 and 1")


def significance_signature(scoring: str, args, tested: Sequence[str] = ()) -> str:
    """The signature of the significance tests: McNemar's test is named when a metric it is
    run on (UAS, LAS, on the gold words of one file) is among ``tested``."""
    from ..analyze.comparison import MCNEMAR_METRICS  # here: the analyses load only when asked
    mcnemar = any(metric in MCNEMAR_METRICS for metric in tested)
    tests = "bootstrap+randomization" + ("+mcnemar" if mcnemar else "")
    return (f"{scoring}|test:{tests}|resamples:{args.resamples}|seed:{args.seed}|"
            f"alpha:{args.alpha}|correction:{args.correction}")


def small_sample_note(comparison, command: str) -> str:
    """The small-sample warning as a stderr line of ``command`` (for the formats that have no
    place for it: TSV, CSV), or ``""``."""
    # here: cli.suite imports this module, and its help needs no report code (start-up time)
    from ..report.comparison import small_sample_warning
    warning = small_sample_warning(comparison)
    return f"conll_eval {command}: {warning}\n" if warning else ""


def format_comparison(comparison, signature: str, output_format: str, signed: bool = True) -> str:
    """The comparison in ``output_format``; not ``signed``: no signature in text and TSV
    (``suite --significance`` without --signature), JSON and Markdown always carry it."""
    # here: cli.suite imports this module for its options; only a comparison formats one
    from ..report.comparison import (comparison_delimited, comparison_markdown,
                                     comparison_record, comparison_text)
    if output_format == "json":  # names spelt out, as in every output
        from ..report.escape import json_text  # here: as the formatters above (start-up time)
        return json_text(comparison_record(comparison, signature), ensure_ascii=True,
                         indent=1) + "\n"
    if output_format in DELIMITERS:
        return comparison_delimited(comparison, signature, DELIMITERS[output_format],
                                    comment=signed and output_format not in SIGNATURE_ON_STDERR)
    if output_format == "markdown":
        return comparison_markdown(comparison, signature)
    if output_format == "latex":
        from ..report.latex_outputs import comparison_latex  # here: only LaTeX needs it
        return comparison_latex(comparison, signature)
    return comparison_text(comparison, signature if signed else None)


def build_compare_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval compare",
        description="Is system A really better than B? Every system against the same gold "
                    "file: its F1 with a paired bootstrap interval, and for every pair of "
                    "systems (or each against --baseline) the difference with its interval "
                    "and p-values: paired bootstrap, approximate randomization (sentences "
                    "swapped between the two systems) and, for UAS and LAS, McNemar on the "
                    "gold words. All resampling is over gold sentences, the same ones for "
                    "every system, so raw-text output works.",
        epilog="Exit codes: 0 compared (and, with --fail-unless-better, the first system "
               "significantly better), 1 invalid input or the first system not significantly "
               "better, 2 usage error, 3 internal error, 4 the results could not be written.")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file")
    parser.add_argument("systems", metavar="SYSTEM", nargs="+", help="two or more system files")
    add_options(parser, "names", "metrics", "baseline", *RESAMPLING_OPTIONS, notes={
        "metrics": f"the metrics compared (default: {','.join(DEFAULT_METRICS)})"})
    add_options(parser, "format", "signature", notes={
        "format": "tsv and csv: one long table, a row per score and per pair"})
    parser.add_argument("--fail-unless-better", action="store_true",
                        help="a CI gate: exit 1 unless the first SYSTEM is significantly better "
                             "(a positive difference, corrected p below --alpha in every test: "
                             "the 'significant' column) than each system it is tested against "
                             "(every other one; with --baseline, the baseline), on every metric "
                             "compared; each miss is an 'error [not-better]' line on stderr")
    add_options(parser, "quiet", "profile", "weights", "output", "punct", "deprel", "strict",
                "debug", "color", notes={"strict": "any error stops before comparing"})
    add_options(parser, *ENHANCED_OPTIONS)
    return parser


def compare_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_compare_parser()
    args = parser.parse_args(argv)  # --help ends here
    # here: cli.suite imports this module (its options), and --help needs no analyses (numpy)
    from ..analyze.comparison import compare
    if len(args.systems) < 2:
        parser.error("give at least two system files")
    check_resampling_options(parser, args)
    names = system_names(args.systems, args.names, parser.prog)
    settings, requested, _ = scoring_request(args, parser.prog)
    known = known_metrics(settings)
    metrics = requested or [m for m in DEFAULT_METRICS if m in known]
    baseline = None
    if args.baseline is not None:
        if args.baseline not in names:
            parser.error(f"--baseline: {args.baseline!r} is none of {', '.join(names)}")
        baseline = names.index(args.baseline)
    with quiet_input_errors(args):
        evaluations = evaluate_systems(args.gold, args.systems, settings)
    unannotated = {metric: why.split(": ", 1)[-1] for metric, why in evaluations[0].unannotated().items()
                   if metric in metrics and why.startswith("not annotated")}
    for metric, why in unannotated.items() if args.fail_unless_better else ():  # before any output
        raise meaningless_bar(parser.prog, metric, f"the gold file does not annotate {metric} ({why})",
                              "--fail-unless-better")
    comparison = compare(names, evaluations, metrics, args.resamples, args.seed, args.alpha,
                         args.correction, baseline)
    signature = significance_signature(settings.signature(), args, metrics)
    text = format_comparison(comparison, signature, args.format, signed=args.signature)
    if args.output:
        write_atomically(args.output, text, named_inputs(args))
    elif not args.quiet:
        stdout.write(text)
    if args.signature and args.format in SIGNATURE_ON_STDERR and not args.quiet:  # a plain CSV
        stderr.write(signature + "\n")
    if args.format in DELIMITERS and not args.quiet:  # a table has no place for the warning
        stderr.write(small_sample_note(comparison, "compare"))
    for metric, why in {} if args.quiet or args.format == "json" else unannotated.items():
        stderr.write(f"conll_eval compare: note: {metric} is n/a: the gold file does not annotate "
                     f"it ({why})\n")
    return _gate(comparison, args, stderr) if args.fail_unless_better else EXIT_OK


def _gate(comparison, args, stderr: TextIO) -> int:
    """--fail-unless-better: EXIT_INPUT, each miss on stderr (not with -q), when the first
    system is not significantly better than each system it was tested against."""
    from ..report.comparison import not_better_lines  # here: see small_sample_note
    missed = not_better_lines(comparison, 0)
    color = wants_color(args.color, stderr)
    for line in [] if args.quiet else missed:
        stderr.write(red(f"conll_eval compare: error [not-better] {line}", color) + "\n")
    return EXIT_INPUT if missed else EXIT_OK
