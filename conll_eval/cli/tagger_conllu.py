"""``conll_eval tagger GOLD.conllu SYSTEM.conllu``: the tagger evaluation on CoNLL-U files
(UPOS, XPOS, FEATS whole and per feature, LEMMA, MISC keys) on the word alignment; chosen over
mooteval's native mode when both files end in ``.conllu`` or ``--conllu`` is given."""
from __future__ import annotations

import argparse
from typing import List, TextIO

from .common import EXIT_OK, Parser, write_atomically

__all__ = ["wants_conllu", "conllu_tagger_command", "build_tagger_conllu_parser"]

#: options of either mode that take a value (so their value is not taken for a file name)
_VALUED = {"-v", "--verbose", "-o", "--output", "-I", "--input-format", "-c", "--rcfile",
           "--input-encoding", "--columns", "--train", "--format", "--profile"}


def wants_conllu(argv: List[str]) -> bool:
    """CoNLL-U mode: ``--conllu`` given, or every file argument ends in ``.conllu``."""
    if "--conllu" in argv:
        return True
    files, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _VALUED:
            skip = True
        elif arg == "-" or not arg.startswith("-"):
            files.append(arg)
    return len(files) == 2 and all(f.lower().endswith(".conllu") for f in files)


def build_tagger_conllu_parser() -> argparse.ArgumentParser:
    from ..analyze.tagger.conllu import DEFAULT_COLUMNS
    parser = Parser(
        prog="conll_eval tagger",
        description="Tagger evaluation on CoNLL-U files (the mode for two .conllu files or "
                    "--conllu; moot's native files get mooteval's own evaluation): columns "
                    "compared on the words the CoNLL 2018 alignment pairs, so tokenization and "
                    "sentence splits may differ. Per column: correct, gold and system words, "
                    "aligned words, precision, recall, F1 and accuracy over aligned words; "
                    "FEATS also per feature. A word left unaligned counts as a token mismatch.",
        epilog="Exit codes: 0 compared, 1 invalid input (file:line), 2 usage error, 4 the "
               "results could not be written.")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file")
    parser.add_argument("system", metavar="SYSTEM", help="tagger output (CoNLL-U)")
    parser.add_argument("--conllu", action="store_true",
                        help="CoNLL-U mode whatever the file names")
    parser.add_argument("--columns", metavar="C,C,...",
                        help=f"columns to compare: UPOS, XPOS, FEATS, LEMMA, MISC:KEY (default: "
                             f"{','.join(DEFAULT_COLUMNS)})")
    parser.add_argument("-v", "--verbose", type=int, default=2, metavar="N",
                        help="as mooteval: 3 lists every word with a mismatch (file:line, "
                             "sentence id, FORM, the differences, context) before the summary, "
                             "4 every word; 0-2 only the summary (default: 2)")
    parser.add_argument("--confusion", action="store_true",
                        help="confusion tables (gold > system) of the whole columns")
    parser.add_argument("--train", metavar="FILE",
                        help="a training CoNLL-U file: accuracy also for words whose gold FORM "
                             "it has (known) and has not (unknown)")
    parser.add_argument("--format", default="text", choices=["text", "json"],
                        help="output format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.add_argument("--profile", default="conll18", choices=["conll17", "conll18", "iwpt"],
                        help="how the files are read and aligned (default: conll18)")
    parser.add_argument("--debug", action="store_true", help="tracebacks for internal errors")
    return parser


def conllu_tagger_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    from .. import __version__
    from ..analyze.tagger.conllu import evaluate_tagging, parse_columns
    from ..reader import load
    from ..report.tagger import tagger_listing, tagger_record, tagger_text
    from ..treebank import Vocab
    parser = build_tagger_conllu_parser()
    args = parser.parse_args(argv)
    columns = parse_columns(args.columns)
    vocab = Vocab()
    gold = load(args.gold, args.profile, vocab)
    system = load(args.system, args.profile, vocab)
    training = None
    if args.train:
        train = load(args.train, args.profile, Vocab())
        training = set(train.strings("form"))
    evaluation = evaluate_tagging(gold, system, columns, training)
    signature = (f"conll_eval:{__version__}|tagger:conllu|profile:{args.profile}|"
                 f"columns:{','.join(columns)}" + ("|train:file" if args.train else ""))
    listed = None if args.verbose < 3 else args.verbose >= 4
    if args.format == "json":
        import json
        text = json.dumps(tagger_record(evaluation, signature, listed), ensure_ascii=False,
                          indent=1) + "\n"
    else:
        text = (tagger_listing(evaluation, listed) if listed is not None else "") + \
            tagger_text(evaluation, signature, args.confusion)
    if args.output and args.output != "-":
        write_atomically(args.output, text, [args.gold, args.system] +
                         ([args.train] if args.train else []))
    else:
        stdout.write(text)
    return EXIT_OK
