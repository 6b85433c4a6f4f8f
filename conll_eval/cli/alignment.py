"""``conll_eval alignment GOLD SYSTEM [--compare SYSTEM...]``: word-alignment precision,
recall and AER against sure and possible gold links, the parallel treebank score (``--pts``)
and significance tests between aligners (``--compare``).

Warnings (merged repeated links) and notes (ignored markers, undefined ratios) go to stderr;
the report to stdout or ``-o FILE``.
"""
from __future__ import annotations

import argparse
from typing import List, TextIO

from .. import __version__
from ..analyze.word_alignment.choices import INPUT_FORMATS, NULL_POLICIES
from ..errors import printable
from ..metric_specs import PUNCT_POLICIES
from ..naming import system_names
from ..report.escape import json_text
from .compare import check_resampling_options, significance_signature, small_sample_note
from .common import (quiet_input_errors, DELIMITERS, EXIT_OK, RESAMPLING_OPTIONS, SIGNATURE_ON_STDERR, Parser,
                     add_options, named_inputs, with_signature, write_atomically)

__all__ = ["build_alignment_parser", "alignment_command"]

#: repeated-link warnings shown one by one; the rest are counted
WARNINGS_SHOWN = 10


def build_alignment_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval alignment",
        description="Word-alignment evaluation against gold sure (S) and possible (P) links, "
                    "sure links counting as possible too: precision |P&A|/|A|, recall "
                    "|S&A|/|S|, AER = 1 - (|P&A| + |S&A|)/(|A| + |S|) (Och and Ney 2003), and "
                    "plain precision, recall and F1 over the sure links and over the possible "
                    "links. Files: NAACL workshop format (a link a line: 'sentence source "
                    "target [S|P] [confidence]', 1-based, 0 = NULL, no marker = S) or "
                    "Pharaoh/fast_align (a sentence a line: 'i-j' sure, 'i?j' or 'ipj' "
                    "possible, 0-based), detected per file. The system's S/P markers are "
                    "ignored; a link given twice counts once (with a warning). A ratio over "
                    "nothing is 0 (wa_eval_align.pl); AER of an empty system is 1.",
        epilog="Exit codes: 0 scored, 1 invalid input (file:line and a code), 2 usage error, "
               "3 internal error, 4 the results could not be written.")
    parser.add_argument("gold", metavar="GOLD", help="gold alignment (S and P links)")
    parser.add_argument("system", metavar="SYSTEM", help="system alignment")
    parser.add_argument("--compare", metavar="SYSTEM", nargs="+", default=[],
                        help="more system alignments: scored alike, and every pair of systems "
                             "tested (paired bootstrap, approximate randomization) on AER, "
                             "precision, recall, sure precision and sure F1")
    add_options(parser, "names", notes={"names": "SYSTEM's first"})
    parser.add_argument("--input-format", default="auto", choices=list(INPUT_FORMATS),
                        help="format of every alignment file (default: auto, detected per file "
                             "from its first non-blank line)")
    parser.add_argument("--null", default="keep", choices=list(NULL_POLICIES),
                        help="NAACL links to the NULL word (position 0): keep scores them as "
                             "links (default, as wa_eval_align.pl), drop leaves them out")
    parser.add_argument("--source", metavar="FILE",
                        help="tokenised source sentences, one a line: every source position "
                             "must be a token of its sentence, and the lines are the sentences")
    parser.add_argument("--target", metavar="FILE", help="tokenised target sentences, likewise")
    parser.add_argument("--pts", nargs=4, metavar=("SRC_GOLD", "SRC_SYS", "TGT_GOLD", "TGT_SYS"),
                        help="CoNLL-U parses of the source and target sentences: add the "
                             "parallel treebank score of SYSTEM, a*UAS(source) + b*UAS(target) "
                             "+ c*(1 - AER)")
    parser.add_argument("--pts-weights", metavar="A,B,C",
                        help="the PTS weights a,b,c, summing to 1 (default: 1/3,1/3,1/3)")
    parser.add_argument("--punct", choices=list(PUNCT_POLICIES),
                        help="words the PTS's UAS scores (as in conll_eval --punct; default: "
                             "unicode, a FORM of only punctuation left out, as the CoNLL-07 "
                             "eval07.pl)")
    add_options(parser, "per_sentence", notes={
        "per_sentence": "after the totals: |S|, |P|, |A|, |S&A|, |P&A| and AER"})
    add_options(parser, *RESAMPLING_OPTIONS, "format", "signature", "quiet", "output", "debug", notes={
        "format": "tsv/csv: a row per score of each system (and with --compare per pair)"})
    return parser


def _signature(evaluation, args, pts) -> str:
    systems = ",".join(dict.fromkeys(s.links.format for s in evaluation.systems))
    parts = [f"conll_eval:{__version__}", "alignment", f"gold:{evaluation.gold.format}",
             f"system:{systems}", f"null:{evaluation.null}"]
    if evaluation.checked:
        parts.append(f"positions:{'+'.join(evaluation.checked)}")
    if pts is not None:
        parts += [f"pts:{','.join(str(w) for w in pts.weights)}", f"punct:{pts.punct}"]
    signature = "|".join(parts)
    if args.compare:
        signature = significance_signature(signature, args)
    return signature


def alignment_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_alignment_parser()
    args = parser.parse_args(argv)
    # here: the evaluation and its report load numpy, which the parser (the help, completion
    # and man pages) never needs (start-up time)
    from ..analyze.word_alignment import (DEFAULT_PUNCT, DEFAULT_WEIGHTS, compare_alignments,
                                          evaluate_alignments, parallel_treebank_score, parse_weights)
    from ..report.word_alignment import (alignment_delimited, alignment_markdown, alignment_record,
                                         alignment_text)
    if args.compare:
        check_resampling_options(parser, args)
    for option, value in (("--pts-weights", args.pts_weights), ("--punct", args.punct)):
        if value is not None and args.pts is None:
            parser.error(f"{option} applies to the parallel treebank score: give --pts too")
    weights = parse_weights(args.pts_weights) if args.pts_weights else DEFAULT_WEIGHTS
    paths = [args.system, *args.compare]
    names = system_names(paths, args.names, parser.prog)
    with quiet_input_errors(args):
        evaluation = evaluate_alignments(args.gold, paths, names, args.input_format, args.null,
                                         args.source, args.target)
    pts = None
    if args.pts is not None:
        pts = parallel_treebank_score(*args.pts, aer=evaluation.systems[0].scores.aer,
                                      weights=weights, punct=args.punct or DEFAULT_PUNCT)
    comparison = None
    if args.compare:
        comparison = compare_alignments(names, [s.counts for s in evaluation.systems],
                                        args.resamples, args.seed, args.alpha, args.correction)
    for warning in [] if args.quiet else evaluation.warnings[:WARNINGS_SHOWN]:
        stderr.write(f"{printable(str(warning))}\n")
    if len(evaluation.warnings) > WARNINGS_SHOWN and not args.quiet:
        stderr.write(f"conll_eval: warning: {len(evaluation.warnings) - WARNINGS_SHOWN} more "
                     "repeated link(s), each counted once\n")
    for note in [] if args.quiet else evaluation.notes:
        stderr.write(f"conll_eval: note: {printable(note)}\n")
    signature = _signature(evaluation, args, pts)
    if args.format == "json":
        text = json_text(alignment_record(evaluation, signature, pts, comparison,
                                          args.per_sentence), ensure_ascii=True, indent=1) + "\n"
    elif args.format in DELIMITERS:
        text = alignment_delimited(evaluation, signature, DELIMITERS[args.format], pts,
                                   comparison, comment=False)
        if args.signature and args.format in SIGNATURE_ON_STDERR and not args.quiet:  # plain CSV
            stderr.write(signature + "\n")
        if comparison is not None and not args.quiet:  # a table has no place for the warning
            stderr.write(small_sample_note(comparison, "alignment"))
    elif args.format == "markdown":
        text = alignment_markdown(evaluation, signature, pts, comparison, args.per_sentence)
    elif args.format == "latex":
        from ..report.latex_outputs import alignment_latex  # here: only LaTeX needs it (start-up time)
        text = alignment_latex(evaluation, signature, pts, comparison, args.per_sentence)
    else:
        text = alignment_text(evaluation, signature, pts, comparison, args.per_sentence)
    text = with_signature(text, args.format, signature, args.signature)
    if args.output:
        write_atomically(args.output, text, [*named_inputs(args), *paths])
    elif not args.quiet:
        stdout.write(text)
    return EXIT_OK
