"""``conll_eval tagger GOLD.conllu SYSTEM.conllu``: the tagger evaluation on CoNLL-U files
(UPOS, XPOS, FEATS whole and per feature, LEMMA, MISC keys) on the word alignment; chosen over
mooteval's native mode when both files end in ``.conllu`` or look like CoNLL-U, or ``--conllu``
is given (:func:`choose_mode`; one CoNLL-U and one moot file are refused)."""
from __future__ import annotations

import argparse
import re
from typing import List, NamedTuple, Optional, TextIO, Tuple

from .. import __version__
from ..analyze.tagger import DEFAULT_COLUMNS
from ..errors import UsageError, printable
from ..io.formats import CONLLU, MOOT, TAGGER, detect_format
from .common import (quiet_input_errors, DELIMITERS, EXIT_OK, SIGNATURE_ON_STDERR, Parser, add_options, named_inputs,
                     write_atomically)
from .messages import program_name

__all__ = ["Mode", "choose_mode", "wants_conllu", "conllu_tagger_command",
           "build_tagger_conllu_parser"]

#: long options of either mode that take a value (unique prefixes count, as getopt's)
_LONG_VALUED = ("verbose", "output", "input-format", "rcfile", "input-encoding", "columns",
                "train", "format", "profile", "verbosity")
#: short options of either mode that take a value (the rest of a cluster, or the next argument)
_SHORT_VALUED = "voIc"
_LEVEL = re.compile(r"\s*[+-]?[0-9]+\s*\Z")


def _file_arguments(argv: List[str]) -> Tuple[List[str], Optional[str]]:
    """The file arguments of a tagger command line (option values skipped), and the value of
    a separate ``-v`` that is no level (a file name the level took, as mooteval's getopt does)."""
    files: List[str] = []
    not_a_level = None
    k = 0
    while k < len(argv):
        arg = argv[k]
        k += 1
        if arg == "--":
            files += argv[k:]
            break
        if arg.startswith("--"):
            name, equals, _ = arg[2:].partition("=")
            if name and not equals and any(o.startswith(name) for o in _LONG_VALUED):
                k += 1
        elif arg.startswith("-") and arg != "-":
            for position, letter in enumerate(arg[1:], 2):
                if letter in _SHORT_VALUED:
                    if position == len(arg) and k < len(argv):  # the value is the next argument
                        if letter == "v" and not _LEVEL.match(argv[k]):
                            not_a_level = argv[k]
                        k += 1
                    break
        else:
            files.append(arg)
    return files, not_a_level


class Mode(NamedTuple):
    """``conllu`` or ``native``, and why the pair is refused (a mixed pair), if it is."""

    name: str
    problem: Optional[str] = None


def choose_mode(argv: List[str]) -> Mode:
    """CoNLL-U mode with ``--conllu``, two files named ``*.conllu``, or two files that look
    like CoNLL-U; mooteval's native mode for two moot files and anything else (its own
    messages then say what is missing).  A file with nothing to tell by (empty, standard
    input) goes with the other; one CoNLL-U and one moot file is a refused mixed pair."""
    if "--conllu" in argv:
        return Mode("conllu")
    files, not_a_level = _file_arguments(argv)
    if not_a_level is not None and len(files) == 1:
        files.insert(0, not_a_level)  # `-v GOLD SYSTEM`: the level took a file
    if len(files) != 2:
        return Mode("native")
    if all(name.lower().endswith(".conllu") for name in files):
        return Mode("conllu")
    looks = [detect_format(name, TAGGER) for name in files]  # told once per file
    kinds = [look.name for look in looks]
    if kinds[0] is None and kinds[1] is None:
        return Mode("native")
    if CONLLU in kinds and MOOT in kinds:
        described = [f"{printable(name)} looks like {'CoNLL-U' if look.name == CONLLU else 'a moot native file'} "
                     f"({look.evidence})" for name, look in zip(files, looks)]
        return Mode("conllu", f"{described[0]} but {described[1]}: give two CoNLL-U files "
                              "(GOLD SYSTEM) or two moot files (SYSTEM GOLD)")
    return Mode("conllu" if CONLLU in kinds else "native")


def wants_conllu(argv: List[str]) -> bool:
    """Is ``argv`` for the CoNLL-U mode (:func:`choose_mode`)?"""
    return choose_mode(argv).name == "conllu"


def _level(text: str) -> int:
    """A verbosity level; a file name where a level belongs is a usage error, never a file
    taken as level 0."""
    if not _LEVEL.match(text):
        raise argparse.ArgumentTypeError(
            f"expected a verbosity level (0-4), got {printable(text)!r}: the level comes right "
            f"after -v/--verbosity, the files after it (-v 3 GOLD SYSTEM)")
    return int(text)


def build_tagger_conllu_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=program_name("tagger"),
        usage=f"{program_name('tagger')} [OPTIONS] GOLD SYSTEM   (CoNLL-U: the gold file first)",
        description="Tagger evaluation on CoNLL-U files (the mode for two .conllu files, two "
                    "files that look like CoNLL-U, or --conllu; moot's native files get "
                    "mooteval's own evaluation, with the SYSTEM file first): columns compared "
                    "on the words the CoNLL 2018 alignment pairs, so tokenization and sentence "
                    "splits may differ. Per column: correct, gold and system words, aligned "
                    "words, precision, recall, F1 and accuracy over aligned words; FEATS also "
                    "per feature. A word left unaligned counts as a token mismatch. No tree "
                    "is needed: HEAD and DEPREL may be _ (as a tagger writes them; HEAD 0 "
                    "everywhere is fine too), only the tree checks are off, in both files; "
                    "everything else (a HEAD neither _ nor a number included) is read as "
                    "strictly as for scoring. A score that means nothing (a column the gold leaves _, a "
                    "feature only one file has) is n/a: '-' in text and Markdown, 'n/a' in "
                    "TSV/CSV, null in JSON.",
        epilog="Exit codes: 0 compared, 1 invalid input (file:line) or a CoNLL-U file paired "
               "with a moot file ([mixed-formats]), 2 usage error, 4 the results could not be "
               "written.")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file (first)")
    parser.add_argument("system", metavar="SYSTEM", help="tagger output, CoNLL-U (second)")
    parser.add_argument("--conllu", action="store_true",
                        help="CoNLL-U mode whatever the file names and contents")
    parser.add_argument("--columns", metavar="C,C,...",
                        help=f"columns to compare, any case, printed as UPOS, XPOS, FEATS, "
                             f"LEMMA, MISC:KEY (KEY as written) (default: "
                             f"{','.join(DEFAULT_COLUMNS)})")
    parser.add_argument("-v", "--verbosity", type=_level, default=2, metavar="N",
                        help="3 lists every word with a mismatch (file:line, sentence id, "
                             "FORM, the differences, context) before the summary, 4 every "
                             "word; 0-2 only the summary (default: 2); text and json only; "
                             "-v N is mooteval's spelling")
    parser.add_argument("--confusion", action="store_true",
                        help="confusion tables (gold > system) of the whole columns (text, "
                             "json, markdown)")
    parser.add_argument("--train", metavar="FILE",
                        help="a training CoNLL-U file: accuracy also for words whose gold FORM "
                             "it has (known) and has not (unknown)")
    add_options(parser, "format", "signature", "quiet", "output", "profile", "debug", notes={
        "format": "tsv and csv hold the column table only",
        "profile": "how the files are read and aligned"})
    return parser


def _check_format(args) -> None:
    """What a table format cannot hold is refused, not dropped."""
    if args.format in DELIMITERS or args.format in ("markdown", "latex"):
        if args.verbosity >= 3:
            raise UsageError(f"conll_eval tagger: --verbosity {args.verbosity} lists words in "
                             f"the text and json formats only, not {args.format}")
    if args.format in DELIMITERS and args.confusion:
        raise UsageError(f"conll_eval tagger: --confusion: the {args.format} output is the "
                         f"column table only; use text, json, markdown or latex")


def _render(args, evaluation, signature: str) -> str:
    # here: the report loads numpy, which this module's parser (the help) never needs (start-up time)
    from ..report.tagger import tagger_listing, tagger_markdown, tagger_record, tagger_rows, tagger_text
    # here: cli.tagger imports this module for the moot mode too, which needs none of these
    from ..report.tables import delimited
    listed = None if args.verbosity < 3 else args.verbosity >= 4
    if args.format == "json":
        import json  # here: start-up time of the other formats
        return json.dumps(tagger_record(evaluation, signature, listed), ensure_ascii=False,
                          indent=1) + "\n"
    if args.format == "markdown":
        return tagger_markdown(evaluation, signature, args.confusion)
    if args.format == "latex":
        from ..report.latex_outputs import tagger_latex  # here: only LaTeX needs it
        return tagger_latex(evaluation, signature, args.confusion)
    if args.format in DELIMITERS:
        shown = signature if args.signature and args.format not in SIGNATURE_ON_STDERR else None
        return delimited(*tagger_rows(evaluation), DELIMITERS[args.format], comment=shown)
    return (tagger_listing(evaluation, listed) if listed is not None else "") + \
        tagger_text(evaluation, signature if args.signature else None, args.confusion)


def conllu_tagger_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_tagger_conllu_parser()
    args = parser.parse_args(argv)
    _check_format(args)
    # here: reading and comparing load numpy, which the parser (the help) never needs (start-up time)
    from ..analyze.tagger.conllu import evaluate_tagging, parse_columns
    from ..io.read import read_treebank
    from ..treebank import Vocab
    columns = parse_columns(args.columns)
    with quiet_input_errors(args):
        vocab = Vocab()
        gold = read_treebank(args.gold, CONLLU, profile=args.profile, vocab=vocab, trees=False)
        system = read_treebank(args.system, CONLLU, profile=args.profile, vocab=vocab, trees=False)
        training = None
        if args.train:
            train = read_treebank(args.train, CONLLU, profile=args.profile, vocab=Vocab(), trees=False)
            training = set(train.strings("form"))
        evaluation = evaluate_tagging(gold, system, columns, training)
    signature = (f"conll_eval:{__version__}|tagger:conllu|profile:{args.profile}|"
                 f"columns:{','.join(columns)}" + ("|train:file" if args.train else ""))
    text = _render(args, evaluation, signature)
    if args.output and args.output != "-":
        write_atomically(args.output, text, named_inputs(args))
    elif not args.quiet:
        stdout.write(text)
    if args.signature and args.format in SIGNATURE_ON_STDERR and not args.quiet:
        stderr.write(signature + "\n")
    return EXIT_OK
