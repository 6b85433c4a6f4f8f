"""``conll_eval compare GOLD SYS_A SYS_B [SYS...]``: each system's scores with bootstrap
intervals, and per pair of systems the difference with its interval and paired p-values."""
from __future__ import annotations

import argparse
import os
from typing import List, TextIO

from .common import (DELIMITERS, EXIT_OK, FORMATS, SIGNATURE_ON_STDERR, Parser,
                     add_scoring_options, known_metrics, metric_list, scoring_settings,
                     write_atomically)

DEFAULT_METRICS = ("LAS", "MLAS", "BLEX", "CLAS")


def add_resampling_options(parser: argparse.ArgumentParser) -> None:
    """--resamples, --seed, --alpha, --correction (compare, suite --significance)."""
    from ..analyze.defaults import CORRECTIONS, DEFAULT_RESAMPLES, DEFAULT_SEED
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="R",
                        help=f"bootstrap resamples and shuffles (default: {DEFAULT_RESAMPLES})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"random seed, in the signature (default: {DEFAULT_SEED})")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level; intervals are 1 - alpha (default: 0.05)")
    parser.add_argument("--correction", default="holm", choices=list(CORRECTIONS),
                        help="p-value correction over the pairs tested (default: holm)")


def check_resampling_options(parser: argparse.ArgumentParser, args) -> None:
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    if not 0 < args.alpha < 1:
        parser.error("--alpha must be between 0 and 1")


def significance_signature(scoring: str, args, mcnemar: bool) -> str:
    tests = "bootstrap+randomization" + ("+mcnemar" if mcnemar else "")
    return (f"{scoring}|test:{tests}|resamples:{args.resamples}|seed:{args.seed}|"
            f"alpha:{args.alpha}|correction:{args.correction}")


def format_comparison(comparison, signature: str, output_format: str) -> str:
    from ..report.comparison import (comparison_delimited, comparison_markdown,
                                     comparison_record, comparison_text)
    if output_format == "json":
        import json
        return json.dumps(comparison_record(comparison, signature), indent=1) + "\n"
    if output_format in DELIMITERS:
        return comparison_delimited(comparison, signature, DELIMITERS[output_format],
                                    comment=output_format not in SIGNATURE_ON_STDERR)
    if output_format == "markdown":
        return comparison_markdown(comparison, signature)
    return comparison_text(comparison, signature)


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
        epilog="Exit codes: 0 compared, 1 invalid input, 2 usage error, 3 internal error, "
               "4 the results could not be written.")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file")
    parser.add_argument("systems", metavar="SYSTEM", nargs="+", help="two or more system files")
    parser.add_argument("--names", metavar="A,B,...", help="system names (default: file names)")
    parser.add_argument("--metrics", metavar="M,M,...",
                        help=f"metrics to compare (default: {','.join(DEFAULT_METRICS)})")
    parser.add_argument("--baseline", metavar="NAME", help="test every system against this one")
    add_resampling_options(parser)
    parser.add_argument("--format", default="text", choices=list(FORMATS),
                        help="output format (default: text); tsv and csv: one long table, a "
                             "row per score and per pair")
    add_scoring_options(parser)
    parser.add_argument("--debug", action="store_true", help="tracebacks for internal errors")
    return parser


def compare_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    from ..analyze.comparison import compare
    from ..evaluate import evaluate
    from ..reader import load
    from ..treebank import Vocab
    parser = build_compare_parser()
    args = parser.parse_args(argv)
    if len(args.systems) < 2:
        parser.error("give at least two system files")
    check_resampling_options(parser, args)
    names = args.names.split(",") if args.names else [os.path.basename(p) for p in args.systems]
    if len(names) != len(args.systems) or len(set(names)) != len(names):
        parser.error("--names: one distinct name per system file" if args.names else
                     "the system files' names are not distinct: name them with --names A,B,...")
    settings = scoring_settings(args)
    known = known_metrics(settings)
    metrics = (metric_list(args.metrics, known, "--metrics", parser.prog)
               if args.metrics else [m for m in DEFAULT_METRICS if m in known])
    baseline = None
    if args.baseline is not None:
        if args.baseline not in names:
            parser.error(f"--baseline: {args.baseline!r} is none of {', '.join(names)}")
        baseline = names.index(args.baseline)
    vocab = Vocab()  # the gold file is read once, every system into its vocabulary
    gold = load(args.gold, settings.profile, vocab)
    evaluations = [evaluate(gold, load(path, settings.profile, vocab), settings)
                   for path in args.systems]
    comparison = compare(names, evaluations, metrics, args.resamples, args.seed, args.alpha,
                         args.correction, baseline)
    signature = significance_signature(settings.signature(), args, mcnemar=True)
    text = format_comparison(comparison, signature, args.format)
    if args.output:
        write_atomically(args.output, text, [args.gold, *args.systems])
    else:
        stdout.write(text)
    if args.format in SIGNATURE_ON_STDERR:  # the CSV stays a plain table
        stderr.write(signature + "\n")
    return EXIT_OK
