"""``conll_eval [options] GOLD SYSTEM``: score one pair and print it in the chosen format."""
from __future__ import annotations

import argparse
from typing import List, TextIO

from .. import __version__
from ..errors import UsageError
from ..evaluate import Settings, evaluate_files
from ..report import counts_table, default_lines, to_json, to_tsv, verbose_table
from .common import EXIT_OK, Parser, add_scoring_options, write_atomically


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
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
    add_scoring_options(parser, weights_note="; implies -v")
    parser.add_argument("--strict", action="store_true",
                        help="validate both files first (UD validator levels 1-2, as "
                             "'conll_eval validate --level 2'); any error stops before scoring")
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


def score_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_parser().parse_args(argv)
    if args.gold == "-" and args.system == "-":
        raise UsageError("only one of GOLD and SYSTEM can be read from stdin")
    Settings(args.profile, args.weights)
    evaluation = evaluate_files(args.gold, args.system, profile=args.profile, weights=args.weights,
                                strict=args.strict)
    text = _render(args, evaluation)
    if args.output:
        write_atomically(args.output, text, [args.gold, args.system])
    else:
        stdout.write(text)
        stdout.flush()
    return EXIT_OK


