"""``conll_eval breakdown GOLD SYSTEM``: where the LAS points go, by relation group (the CLAS
paper's Tables 2 and 3), for one pair or a whole suite (``conll_eval suite``'s pairing)."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, List, TextIO

from ..analyze.relation_groups import ENHANCED_COLUMNS
from ..errors import ConllEvalError, UsageError, printable
from ..naming import system_names
from ..report.tables import delimited, markdown_table
from .color import red, wants_color
from .common import (DELIMITERS, EXIT_INPUT, EXIT_OK, SCORING_OPTIONS, SIGNATURE_ON_STDERR, Parser,
                     add_options, below, meaningless_bar, named_inputs, thresholds, with_signature,
                     write_atomically)

if TYPE_CHECKING:  # annotations only: the analyses load with the command, not its help
    from ..evaluate import Settings

# The analyses, the scoring and their report load numpy: each function below that needs them
# imports them where it runs, so the parser (the help, completion and man pages) starts
# without them (start-up time).


def build_breakdown_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval breakdown",
        description="Where the LAS points go, by relation: LAS within each relation group of "
                    "Nivre and Fang (2017, Table 1: FUN, MWE, CORE, NON-CORE, PUNCT), LAS "
                    "without a group or a single FUN relation, and CLAS (their Tables 2 and "
                    "3). Relations compared as --deprel says (default: universal, subtypes "
                    "cut), words counted as --punct says; labelled F1 on the CoNLL 2018 word "
                    "alignment, so raw-text parser output works.  A column that means nothing "
                    "(no gold and no system word in the group) is '-' and left out of the "
                    "average.",
        epilog="GOLD and SYSTEM are two files, or two directories paired as 'conll_eval "
               "suite' pairs them (metadata.json, names, treebank codes): one row per "
               "treebank and an average row over the treebanks scored. Exit codes: 0 every "
               "treebank scored (and above the --fail-under bars), 1 invalid input (one pair: "
               "its error, as 'conll_eval GOLD SYSTEM' prints it; a suite: the treebank's row "
               "shows '-' and the reason is printed) or a bar missed, 2 usage error, 3 "
               "internal error, 4 the results could not be written.")
    parser.add_argument("gold", metavar="GOLD", nargs="?", help="gold file or directory")
    parser.add_argument("system", metavar="SYSTEM", nargs="?", help="system file or directory")
    add_options(parser, "metadata", "pairs", "names", notes={
        "pairs": "breakdown takes one", "names": "one system: its name in the JSON"})
    add_options(parser, *SCORING_OPTIONS, notes={
        "strict": "an invalid file: as any unreadable one (one pair: the error, exit 1)"})
    add_options(parser, "enhancements", "no_empty_nodes", "multiple_roots_okay",
                "collapse_empty_nodes")
    parser.add_argument("--tables", default="2,3", metavar="2,3",
                        help="which of the paper's tables, numbered as there (its Table 1 "
                             "lists the groups; default: both); 'e' (e.g. 2,3,e or "
                             "e): the enhanced table, ELAS within groups of enhanced edges (the "
                             "DEPS graphs as sets of edges): E-CORE, E-NON-CORE, E-FUN by the "
                             "first label step's relation, E-REF (ref), E-CONJ (edges propagated "
                             "through coordination), E-CASE (case-marked paths)")
    parser.add_argument("--errors", action="store_true",
                        help="instead of the tables: every gold and system word by kind of "
                             "error (right, wrong relation, wrong head, wrong head across a "
                             "sentence boundary, no partner by tokenization or multi-word "
                             "token), per treebank and in total")
    parser.add_argument("--worst", type=int, default=0, metavar="N",
                        help="with --errors (implied): the N gold sentences of each treebank "
                             "with the most wrong words")
    add_options(parser, "format", "fail_under", "signature", "quiet", "output", "debug", "color", notes={
        "format": "TSV/CSV/JSON give every column of the chosen tables once",
        "fail_under": "bars on the tables' F1 columns (" + ", ".join(BAR_COLUMNS) + "), checked "
                      "on every treebank and the average ('macro:LAS=80': the average only); "
                      "a column that means nothing ('-') passes"})
    return parser


#: the columns --fail-under can name: the F1 columns (not the differences)
BAR_COLUMNS = ("LAS", "CLAS", "CORE", "NON-CORE", "FUN", "MWE") + ENHANCED_COLUMNS


def _tables(text: str, parser) -> List[object]:
    """``2,3`` -> [2, 3]; ``e`` (the enhanced table) stays a string."""
    from ..report.relations import TABLES  # here: see the note at the top (start-up time)
    parts = [part.strip().lower() for part in text.split(",") if part.strip()]
    tables = [int(part) if part in ("2", "3") else part for part in parts]
    if not tables or any(t not in TABLES for t in tables):
        parser.error(f"--tables: expected 2, 3 or e, comma-separated (2,3,e), not {text!r}")
    return list(dict.fromkeys(tables))


def _pairing(parser, args):
    """The treebanks: --pairs, or GOLD SYSTEM as 'conll_eval suite' pairs them."""
    from ..suite import find_pairs, read_pair_list  # here: see the note at the top (start-up time)
    if args.pairs and (args.gold or args.system):
        parser.error("give either GOLD SYSTEM or --pairs")
    if len(args.pairs) > 1:
        parser.error("--pairs: breakdown takes one list (one system)")
    if args.pairs:
        return read_pair_list(args.pairs[0])
    if args.gold and args.system:
        return find_pairs(args.gold, args.system, args.metadata)
    parser.error("GOLD and SYSTEM (or --pairs) are required")
    return None  # not reached: error() raises


def _breakdown_row(entry, settings: Settings, errors: bool, worst: int, tables=(2, 3)):
    """(row, worst sentences) of one treebank: its RelationRow (the scores of ``tables``) or
    Decomposition."""
    # here: see the note at the top (start-up time)
    from ..align import align_words, check_characters
    from ..analyze.decomposition import decompose, worst_sentences
    from ..analyze.relations import RelationRow, enhanced_row, relation_row
    from ..evaluate import load_pair, validate_pair
    gold_path, system_path = entry.gold, entry.system
    if settings.strict:
        gold_path, system_path = validate_pair(gold_path, system_path, settings.strict)
    gold, system = load_pair(gold_path, system_path, settings.profile,
                             multiple_roots=settings.multiple_roots_okay,
                             collapse=settings.collapse_empty_nodes)
    check_characters(gold, system)
    alignment = align_words(gold, system)
    if not errors:
        parts = ([relation_row(gold, system, alignment, settings)] if 2 in tables or 3 in tables
                 else []) + ([enhanced_row(gold, system, alignment, settings)] if "e" in tables else [])
        return RelationRow({k: v for part in parts for k, v in part.scores.items()},
                           frozenset().union(*(part.unannotated for part in parts))), []
    decomposition = decompose(gold, system, alignment)
    return decomposition, worst_sentences(gold, system, decomposition, worst)


def breakdown_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_breakdown_parser()
    args = parser.parse_args(argv)
    # here: see the note at the top (start-up time)
    from ..evaluate import Settings
    from ..report.relations import TABLES
    from ..suite import missing_system_file
    tables = _tables(args.tables, parser)
    if args.worst < 0:
        parser.error("--worst: a number of sentences, 0 or more")
    errors = args.errors or args.worst > 0
    if errors and args.fail_under:
        parser.error("--fail-under checks the tables' columns, which --errors does not print")
    settings = Settings(args.profile, None, args.strict, args.punct, args.deprel,
                        enhancements=args.enhancements, no_empty_nodes=bool(args.no_empty_nodes),
                        multiple_roots_okay=args.multiple_roots_okay,
                        collapse_empty_nodes=args.collapse_empty_nodes)
    pairing = _pairing(parser, args)
    single = pairing.source == "files"  # one pair: its error as scoring it says it, no table
    names = system_names([args.system or args.pairs[0]], args.names, parser.prog)
    columns = [c for number in tables for c in TABLES[number][1] if c in BAR_COLUMNS]
    bars = thresholds(args.fail_under, list(dict.fromkeys(columns)), parser.prog,
                      ("",) if single else ("", "macro")) if args.fail_under else []
    rows, worst = [], []
    for entry in pairing.entries:
        missing = None if single else missing_system_file(entry)
        if missing is not None:
            rows.append((entry.name, None, missing.message))
            continue
        try:
            row, sentences = _breakdown_row(entry, settings, errors, args.worst, tables)
        except ConllEvalError as exc:
            if single:
                if args.quiet and not args.debug:
                    return EXIT_INPUT
                raise  # printed once, as 'conll_eval GOLD SYSTEM' prints it
            rows.append((entry.name, None, str(exc).splitlines()[0]))
            continue
        rows.append((entry.name, row, None))
        worst.append((entry.name, sentences))
    missed = [] if errors else _below_bars(rows, columns, bars)  # before any output
    signature = settings.signature() + ("|breakdown:errors" if errors else _table_signature(tables, settings))
    fmt = args.format
    if errors:
        text = _errors_output(rows, worst, fmt, signature)
    else:
        text = _tables_output(rows, tables, fmt, signature, names[0])
    text = with_signature(text, fmt, signature, args.signature)
    if args.output:
        write_atomically(args.output, text, named_inputs(args, pairing))
    elif not args.quiet:
        stdout.write(text)
    if args.signature and not args.quiet and fmt in SIGNATURE_ON_STDERR:  # a plain CSV
        stderr.write(signature + "\n")
    if not args.quiet and (args.output or fmt not in ("text", "markdown", "latex")):
        for name, row, failure in rows:  # the text, Markdown and LaTeX outputs name them themselves
            if row is None:
                stderr.write(printable(f"{name}: not scored: {failure}") + "\n")
    color = wants_color(args.color, stderr)
    for message in [] if args.quiet else missed:
        stderr.write(red(f"conll_eval breakdown: error [fail-under] {message}", color) + "\n")
    failed = [name for name, row, _ in rows if row is None]
    return EXIT_INPUT if failed or missed else EXIT_OK


def _table_signature(tables, settings: Settings) -> str:
    """What the tables are: the paper's, and the enhanced groups (edges as sets; the
    enhancement types switched off)."""
    parts = ["breakdown:relations-nivre-fang-2017"] if 2 in tables or 3 in tables else []
    if "e" in tables:
        parts.append("breakdown:enhanced-groups|elas:set")
        lacking = sorted(set(settings.enhancements) - {"0"})
        if lacking:
            parts.append(f"enhancements:{''.join(lacking)}")
    return "|" + "|".join(parts)


def _below_bars(rows, columns, bars) -> List[str]:
    """A message per value under its bar: every treebank's and the average's (``macro:``
    the average only).  A value that means nothing (None: ``-``) is not checked, as a suite
    checks a tag only where the gold annotates it; a bar with nothing to check at all is a
    usage error saying why (never a silent pass)."""
    from ..analyze.relations import average_rows  # here: see the note at the top (start-up time)
    average = average_rows([row for _, row, _ in rows], columns) if len(rows) > 1 else {}
    messages = []
    for bar in bars:
        checked = [] if bar.scope else [(f"{printable(name)}: ", row.value(bar.metric))
                                         for name, row, _ in rows if row is not None]
        if average:
            checked.append(("average: ", average[bar.metric]))
        defined = [(label, value) for label, value in checked if value is not None]
        scored = [row for _, row, _ in rows if row is not None]
        if checked and not defined and all(bar.metric in row.unannotated for row in scored):
            raise meaningless_bar("conll_eval breakdown", bar, (
                "the gold file does not annotate" if len(scored) == 1 else "no gold file annotates")
                + f" {bar.metric} (every gold DEPS is _)")
        if checked and not defined:
            where = "its average is" if bar.scope else "it is - everywhere it would check"
            raise UsageError(f"conll_eval breakdown: --fail-under: {bar}: {where} - (no gold "
                             f"and no system word in {bar.metric}): a bar on it means nothing "
                             f"(drop it, or bar another column)")
        messages += [m for m in (below(label, bar.metric, value / 100, bar.value)
                                 for label, value in defined) if m]
    return messages


def _errors_output(rows, worst, fmt: str, signature: str) -> str:
    # here: see the note at the top (start-up time)
    from ..report.relations import errors_record, errors_rows, errors_text
    if fmt == "text":
        return errors_text(rows, worst) + signature + "\n"
    if fmt == "json":
        return json.dumps({"signature": signature, **errors_record(rows, worst)}, indent=1) + "\n"
    header, body = errors_rows(rows)
    if fmt == "markdown":
        return "\n".join(markdown_table(header, body, left=(0, 1))) + f"\n\n`{signature}`\n"
    if fmt == "latex":
        from ..report.latex_outputs import errors_latex  # here: only LaTeX needs it (start-up time)
        return errors_latex(rows, signature)
    return delimited(header, body, DELIMITERS[fmt])


def _tables_output(rows, tables, fmt: str, signature: str, system: str) -> str:
    # here: see the note at the top (start-up time)
    from ..report.relations import relations_delimited, relations_json, relations_markdown, relations_text
    if fmt == "text":
        return relations_text(rows, tables, signature)
    if fmt == "markdown":
        return relations_markdown(rows, tables, signature)
    if fmt == "latex":
        from ..report.latex_outputs import relations_latex  # here: only LaTeX needs it (start-up time)
        return relations_latex(rows, tables, signature)
    if fmt == "json":
        return relations_json(rows, tables, signature, system)
    return relations_delimited(rows, tables, DELIMITERS[fmt])
