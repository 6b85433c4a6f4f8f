"""``conll_eval [options] GOLD SYSTEM``: score one pair and print it in the chosen format."""
from __future__ import annotations

import argparse
from typing import List, TextIO

from .. import __version__
from ..compiled import core_description
from ..errors import ConllEvalError, UsageError
from ..io.identical import identical_inputs
from .color import red, wants_color
from .commands import commands_sentence
from .common import (DELIMITERS, ENHANCED_OPTIONS, EXIT_INPUT, EXIT_OK, SIGNATURE_ON_STDERR, Parser,
                     add_options, below, fraction_warning, known_metrics, meaningless_bar,
                     scoring_request, scoring_settings, named_inputs, write_atomically)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval",
        description="Score a CoNLL-U system file against a gold file with the official CoNLL "
                    "2017/2018 shared-task metrics, exactly.",
        epilog="Many treebanks, the macro-average, leaderboards and CI gates: conll_eval suite "
               "GOLD_DIR SYSTEM_DIR... (see conll_eval suite --help).  To check files against "
               "the UD validator's levels 1-2 instead: conll_eval validate FILE... (see "
               "conll_eval validate --help).  Why a score is what it is: conll_eval breakdown, "
               "conll_eval analyze (MaltEval); is A really better than B: conll_eval compare "
               "GOLD A B... (each with --help).  Exit codes: 0 scored (and above the --fail-under "
               "bars), 1 invalid input or a bar missed, 2 usage error, 3 internal error, 4 the "
               "results could not be written.  'conll_eval score GOLD SYSTEM' is the same; a "
               "file named like a command is scored as ./score or after --: conll_eval -- score "
               "SYSTEM.  " + commands_sentence())
    parser.add_argument("gold", help="gold-standard CoNLL-U file ('-' for stdin)")
    parser.add_argument("system", help="system CoNLL-U file ('-' for stdin)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print the table of all metrics (precision, recall, F1, aligned "
                             "accuracy; text format)")
    parser.add_argument("-c", "--counts", action="store_true",
                        help="print the table of raw counts (text format; takes precedence over -v)")
    add_options(parser, "format", "metrics", "fail_under", "signature", "quiet", notes={
        "metrics": "only these metrics, in this order: the rows of the -v (implied) or -c "
                   "table, of the TSV/CSV and Markdown tables and the JSON 'metrics' (default: "
                   "all)"})
    add_options(parser, "profile", "weights", "output", "punct", "deprel", "strict", notes={
        "weights": "implies -v",
        "strict": "any error stops before scoring"})
    add_options(parser, *ENHANCED_OPTIONS)
    parser.add_argument("--exact-match", action="store_true",
                        help="after the table, the share of gold sentences whose words are all "
                             "right (aligned, correct, no extra system word), per metric shown "
                             "(the CoNLL-X practice for UAS and LAS); JSON always has it")
    add_options(parser, "per_sentence", notes={
        "per_sentence": "instead of the totals: its number, first line and sent_id, then per "
                        "metric its correct, gold and system counts and F1 (n/a where the "
                        "sentence has no word the metric counts, or the gold file leaves the "
                        "column _); the rows add up to the totals; in any --format (not with "
                        "-v, -c or --exact-match)"})
    add_options(parser, "debug")
    add_options(parser, "color")
    parser.add_argument("--version", action="version",
                        version=f"conll_eval {__version__} (core: {core_description(loaded=False)})")
    return parser


#: the metrics of the default lines (no -v): notes about others would concern nothing shown
DEFAULT_METRICS = ("LAS", "MLAS", "BLEX", "ELAS", "EULAS")


def _render(args, scores, signature: str, exact, notes) -> str:
    # here, as in score_command: the formatters and the scoring stack (numpy) load when a pair
    # is scored, never for --version or --help (start-up time)
    from ..report import counts_table, default_lines, to_delimited, to_json, to_markdown, verbose_table
    from ..report.machine import exact_match_lines, not_annotated
    if args.format == "json":
        settings = {"profile": args.profile, "weights_file": args.weights, "strict": args.strict,
                    "punct": args.punct, "deprel": args.deprel}
        return to_json(scores, settings, signature, files={"gold": args.gold, "system": args.system},
                       exact=exact, notes=notes)
    if args.format in DELIMITERS:
        shown = signature if args.signature and args.format not in SIGNATURE_ON_STDERR else None
        return to_delimited(scores, DELIMITERS[args.format], shown, notes)
    if args.format == "markdown":
        return to_markdown(scores, signature, notes)
    if args.format == "latex":
        from ..report.latex import score_latex  # here: only the LaTeX output needs it (start-up time)
        return score_latex(scores, signature, notes)
    if args.counts:
        text = counts_table(scores)
    elif args.verbose or args.weights is not None or args.metrics:  # n/a only in rows of ours
        text = verbose_table(scores, args.profile, not_annotated(notes))
    else:
        text = default_lines(scores, args.profile)
    if args.exact_match:  # UAS and LAS, as CoNLL-X did, unless --metrics names others
        text += exact_match_lines(exact, scores if args.metrics else ("UAS", "LAS"), notes)
    if args.signature:
        text += signature + "\n"
    return text


def _per_sentence(args, evaluation, metrics, signature: str, notes) -> str:
    """``--per-sentence``: the table of gold sentences in the chosen format."""
    # here: only --per-sentence needs it (start-up time)
    from ..report.machine import not_annotated
    from ..report.per_sentence import per_sentence_output
    return per_sentence_output(evaluation, metrics, args.format, signature,
                               DELIMITERS.get(args.format),
                               args.signature and args.format not in SIGNATURE_ON_STDERR,
                               not_annotated(notes))


def score_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)  # --version and --help end here
    # here: numpy and the scoring stack load only to score, never for --version or --help
    # (start-up time)
    from ..evaluate import evaluate_files
    from ..io.swapped import swapped_evidence, swapped_reason
    from ..report.machine import annotation_note
    if args.gold == "-" and args.system == "-":
        raise UsageError("only one of GOLD and SYSTEM can be read from stdin")
    if args.per_sentence and (args.verbose or args.counts or args.exact_match):
        raise UsageError("--per-sentence gives every count of every sentence; -v, -c and "
                         "--exact-match shape the totals' table, which it replaces")
    settings, requested, bars = scoring_request(args, parser.prog)
    metrics = requested or known_metrics(scoring_settings(args, requested))  # not a bar's LA
    if not args.quiet:
        stderr.write(fraction_warning(bars) or "")
    try:
        evaluation = evaluate_files(args.gold, args.system, settings=settings)
    except ConllEvalError:
        if args.quiet and not args.debug:  # -q: only the exit status tells
            return EXIT_INPUT
        raise
    scores = {m: evaluation.scores[m] for m in metrics}
    signature = settings.signature()
    notes = evaluation.unannotated()
    for bar in bars:  # before any output: a bar on an n/a score is a usage error
        if notes.get(bar.metric, "").startswith("not annotated"):
            raise meaningless_bar(parser.prog, bar, f"the gold file does not annotate "
                                  f"{bar.metric} ({notes[bar.metric].split(': ', 1)[-1]})")
    if args.per_sentence:
        text = _per_sentence(args, evaluation, metrics, signature, notes)
    else:
        text = _render(args, scores, signature, evaluation.exact_match(), notes)
    shown = {m: why for m, why in notes.items() if m in scores and (
        args.metrics or args.verbose or args.counts or args.format != "text"
        or m in DEFAULT_METRICS)}
    if shown and args.format != "json" and not args.quiet:  # the official layouts stay as they are
        stderr.write(annotation_note(shown))
    same = identical_inputs(args.gold, args.system)
    if same and not args.quiet:
        stderr.write(f"conll_eval: warning: GOLD and SYSTEM are identical ({same}): the scores "
                     "compare a file with itself\n")
    swapped = () if same or args.quiet else swapped_evidence(evaluation.gold, evaluation.system)
    if swapped:
        stderr.write("conll_eval: note: GOLD and SYSTEM may be swapped (the gold file comes first): "
                     f"{swapped_reason(swapped)}\n")
    if args.output:
        write_atomically(args.output, text, named_inputs(args))
    elif not args.quiet:
        stdout.write(text)
        stdout.flush()
    if args.signature and args.format in SIGNATURE_ON_STDERR and not args.quiet:
        stderr.write(signature + "\n")
    missed = [m for m in (below("", bar.metric, evaluation.scores[bar.metric].f1, bar.value)
                          for bar in bars) if m]
    for message in [] if args.quiet else missed:
        stderr.write(red(f"conll_eval: error [fail-under] {message}", wants_color(args.color, stderr)) + "\n")
    return EXIT_INPUT if missed else EXIT_OK
