"""``conll_eval breakdown GOLD SYSTEM``: where the LAS points go, by relation group (the CLAS
paper's Tables 2 and 3), for one pair or a whole suite (``conll_eval suite``'s pairing)."""
from __future__ import annotations

import argparse
from typing import List, TextIO

from ..errors import ConllEvalError
from ..evaluate import Settings
from .common import DELIMITERS, EXIT_INPUT, EXIT_OK, FORMATS, Parser, write_atomically


def build_breakdown_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval breakdown",
        description="Where the LAS points go, by relation: LAS within each relation group of "
                    "Nivre and Fang (2017, Table 1: FUN, MWE, CORE, NON-CORE, PUNCT), LAS "
                    "without a group or a single FUN relation, and CLAS (their Tables 2 and "
                    "3). Universal relations (subtypes cut); labelled F1 on the CoNLL 2018 "
                    "word alignment, so raw-text parser output works.",
        epilog="GOLD and SYSTEM are two files, or two directories paired as 'conll_eval "
               "suite' pairs them (metadata.json, names, treebank codes): one row per "
               "treebank and an average row over the treebanks scored. Exit codes: 0 every "
               "treebank scored, 1 one failed (its row shows '-', the reason is printed), "
               "2 usage error, 3 internal error, 4 the results could not be written.")
    parser.add_argument("gold", metavar="GOLD", nargs="?", help="gold file or directory")
    parser.add_argument("system", metavar="SYSTEM", nargs="?", help="system file or directory")
    parser.add_argument("--metadata", metavar="FILE", help="shared-task metadata.json")
    parser.add_argument("--pairs", metavar="FILE",
                        help="a list of 'GOLD SYSTEM [NAME]' lines (no GOLD SYSTEM then)")
    parser.add_argument("--tables", default="2,3", metavar="2,3",
                        help="which of the paper's tables (default: both)")
    parser.add_argument("--errors", action="store_true",
                        help="instead of the tables: every gold and system word by kind of "
                             "error (right, wrong relation, wrong head, wrong head across a "
                             "sentence boundary, no partner by tokenization or multi-word "
                             "token), per treebank and in total")
    parser.add_argument("--worst", type=int, default=0, metavar="N",
                        help="with --errors (implied): the N gold sentences of each treebank "
                             "with the most wrong words")
    parser.add_argument("--format", default="text", choices=list(FORMATS),
                        help="output format (default: text; TSV/CSV/JSON give every column "
                             "of the chosen tables once)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the results to FILE")
    parser.add_argument("--debug", action="store_true", help="tracebacks for internal errors")
    return parser


def _tables(text: str, parser) -> List[int]:
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        numbers = []
    if not numbers or any(n not in (2, 3) for n in numbers):
        parser.error(f"--tables: expected 2, 3 or 2,3, not {text!r}")
    return list(dict.fromkeys(numbers))


def breakdown_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    from ..align import align_words, check_characters
    from ..analyze.decomposition import decompose, worst_sentences
    from ..analyze.relations import relation_row
    from ..evaluate import load_pair
    from ..suite import find_pairs, read_pair_list
    parser = build_breakdown_parser()
    args = parser.parse_args(argv)
    tables = _tables(args.tables, parser)
    if args.pairs and (args.gold or args.system):
        parser.error("give either GOLD SYSTEM or --pairs")
    if args.pairs:
        pairing = read_pair_list(args.pairs)
    elif args.gold and args.system:
        pairing = find_pairs(args.gold, args.system, args.metadata)
    else:
        parser.error("GOLD and SYSTEM (or --pairs) are required")
    if args.worst < 0:
        parser.error("--worst: a number of sentences, 0 or more")
    errors = args.errors or args.worst > 0
    rows, worst = [], []
    for entry in pairing.entries:
        if entry.system is None:
            rows.append((entry.name, None, "no system file"))
            continue
        try:
            gold, system = load_pair(entry.gold, entry.system)
            check_characters(gold, system)
            alignment = align_words(gold, system)
            if errors:
                decomposition = decompose(gold, system, alignment)
                rows.append((entry.name, decomposition, None))
                worst.append((entry.name, worst_sentences(gold, system, decomposition,
                                                          args.worst)))
            else:
                rows.append((entry.name, relation_row(gold, system, alignment), None))
        except ConllEvalError as exc:
            rows.append((entry.name, None, str(exc).splitlines()[0]))
    if errors:
        text = _errors_output(rows, worst, args.format, stderr)
    else:
        text = _tables_output(rows, tables, args.format, stderr)
    if args.output:
        write_atomically(args.output, text, [e.gold for e in pairing.entries]
                         + [e.system for e in pairing.entries if e.system])
    else:
        stdout.write(text)
    for name, row, failure in rows:  # also on stderr: a script reading stdout learns of it
        if row is None:
            stderr.write(f"{name}: not scored: {failure}\n")
    failed = [name for name, row, _ in rows if row is None]
    return EXIT_INPUT if failed else EXIT_OK


def _errors_output(rows, worst, fmt: str, stderr) -> str:
    import json

    from ..report.relations import errors_record, errors_rows, errors_text
    from ..report.tables import delimited, markdown_table
    signature = Settings().signature() + "|breakdown:errors"
    if fmt == "text":
        return errors_text(rows, worst) + signature + "\n"
    if fmt == "json":
        return json.dumps({"signature": signature, **errors_record(rows, worst)}, indent=1) + "\n"
    header, body = errors_rows(rows)
    if fmt == "markdown":
        return "\n".join(markdown_table(header, body, left=(0, 1))) + f"\n\n`{signature}`\n"
    stderr.write(signature + "\n")
    return delimited(header, body, DELIMITERS[fmt])


def _tables_output(rows, tables, fmt: str, stderr) -> str:
    from ..report.relations import (relations_delimited, relations_json, relations_markdown,
                                    relations_text)
    signature = Settings().signature() + "|breakdown:relations-nivre-fang-2017"
    if fmt == "text":
        return relations_text(rows, tables, signature)
    if fmt == "markdown":
        return relations_markdown(rows, tables, signature)
    if fmt == "json":
        return relations_json(rows, tables, signature)
    stderr.write(signature + "\n")
    return relations_delimited(rows, tables, DELIMITERS[fmt])
