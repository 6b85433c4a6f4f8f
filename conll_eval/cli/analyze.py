"""``conll_eval analyze ARGS...``: MaltEval 1.0's command line and its stdout, byte for byte.

The arguments are MaltEval's (``-s SYSTEM... -g GOLD --Metric ... --GroupBy ...``).  Where
MaltEval aborts, this prints ``Evaluation aborted: <MaltEval's message>`` on stderr as it does,
but exits 2 (usage) or 1 (bad input) instead of MaltEval's 0.  Not supported yet (exit 2):
``--stat 1``, ``--confusion-matrix 1``, cross-validation (several gold
files), ``--remove`` and ``-v``.
"""
from __future__ import annotations

import os
from typing import List, TextIO

from ..errors import InputError, UsageError
from .common import EXIT_INPUT, EXIT_OK, EXIT_USAGE

__all__ = ["analyze_command"]


class _Aborted(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message = message
        self.status = status


def _abort_text(message: str) -> str:
    return f"\nEvaluation aborted: {message}\n"


#: ``conll_eval analyze --help`` and ``conll_eval help analyze``
ANALYZE_HELP = """\
usage: conll_eval analyze -s SYSTEM... -g GOLD [--Metric M[;M...]] [--GroupBy G[:FORMAT][;...]] ...

MaltEval 1.0's analyses with its own command line (what follows 'java -jar MaltEval.jar')
and, byte for byte, its stdout: the 14 metrics (LAS, UAS, LA, AnyRight, ... , self), the
simple groupings (Token, Wordform, Lemma, Cpostag, Postag, Feats, Deprel, Sentence,
RelationLength, GroupedRelationLength, SentenceLength, Start/EndWordPosition, ArcDirection,
ArcDepth, BranchingFactor, ArcProjectivity, Frame), complex groupings (Cpostag@-1#Cpostag@0,
Cpostag,Postag, Wordform@1, ...), formats (columns, +/- sort, cuts),
Exclude* parameters, Min/MaxSentenceLength, -e evaluation files and the formatting flags
(--details, --header-info, --row-header, --column-header, --merge-tables, --tab, --pattern).
Not yet: --stat, --confusion-matrix, cross-validation folds, --remove, -v.
Where MaltEval aborts, the message is MaltEval's ('Evaluation aborted: ...') but the exit
code is 2 (usage) or 1 (bad input), never 0.
"""


def analyze_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    from ..analyze.options import EvaluationFileError, MaltEvalUsageError
    if argv in (["--help"], ["-h"]):
        stdout.write(ANALYZE_HELP)
        return EXIT_OK
    try:
        text = _analyze(argv)
    except _Aborted as exc:
        stderr.write(_abort_text(exc.message))
        return exc.status
    except (MaltEvalUsageError, EvaluationFileError) as exc:
        status = EXIT_USAGE if isinstance(exc, MaltEvalUsageError) else EXIT_INPUT
        if exc.malteval_message is not None:
            stderr.write(_abort_text(exc.malteval_message))
        else:
            stderr.write(f"conll_eval analyze: {exc}\n")
        return status
    stdout.write(text)
    return EXIT_OK


def _unsupported(what: str) -> UsageError:
    return UsageError(f"conll_eval analyze: {what} is not supported yet")


def _analyze(argv: List[str]) -> str:
    from ..analyze.options import parse_args, validate_evaluations
    settings = parse_args(argv, check_evaluations=False)
    formatting = settings.formatting
    if settings.viewer:
        raise _unsupported("-v 1 (the viewer)")
    if settings.cross_validation:
        raise _unsupported("cross-validation (several gold files)")
    if formatting.stat:
        raise _unsupported("--stat 1")
    if formatting.confusion_matrix:
        raise _unsupported("--confusion-matrix 1")
    if settings.remove != "None":
        raise _unsupported("--remove")
    if settings.selection_file is not None:
        raise _unsupported("-f (selection file)")
    if formatting.output != "STDOUT":
        raise _unsupported("--output (a file)")
    if formatting.hdr_file:
        raise _unsupported("--hdr-file 1")
    gold_path = settings.gold_files[0]
    pairs = [(system, _read_pair(gold_path, system)) for system in settings.system_files]
    settings = validate_evaluations(settings)
    evaluations = settings.evaluations("java")
    from ..analyze.tables import AnalysisCache, build_tables, evaluate
    from ..report.malteval import format_header, format_table
    out = []
    if formatting.header_info:
        out.append(settings.echo + "\n")
    for system, pair in pairs:
        cache = AnalysisCache(pair)
        results = [evaluate(e, cache) for e in evaluations]
        for table in build_tables(results, formatting, formatting.merge_tables):
            if formatting.header_info:
                out.append(format_header(gold_path, system, table.header_lines))
            out.append(format_table(table, formatting))
    return "".join(out)


def _read_pair(gold_path: str, system_path: str):
    """Read and align one pair, with MaltEval's messages for a missing file and different
    texts (sentence count, then per sentence its words' FORMs)."""
    import numpy as np

    from ..align import align_words
    from ..analyze.counting import AnalysisPair
    from ..evaluate import load_pair
    for path in (gold_path, system_path):
        if not os.path.isfile(path):
            raise _Aborted(f"{path} (No such file or directory)", EXIT_INPUT)
    for path in (gold_path, system_path):
        _check_conllx(path)
    try:
        gold, system = load_pair(gold_path, system_path)
    except InputError as exc:
        raise _Aborted(str(exc), EXIT_INPUT) from None
    gold_starts = np.asarray(gold.sent_word_start, dtype=np.int64)
    sys_starts = np.asarray(system.sent_word_start, dtype=np.int64)
    if len(gold_starts) != len(sys_starts):
        raise _Aborted(f"the data file '{system_path}' and treebank '{gold_path}' do not contain "
                       f"the same text; different number of sentences", EXIT_INPUT)
    gold_form = np.asarray(gold.column("form"))
    sys_form = np.asarray(system.column("form"))
    gold_len = np.diff(np.append(gold_starts, gold.n_words))
    sys_len = np.diff(np.append(sys_starts, system.n_words))
    bad = np.flatnonzero(gold_len != sys_len)
    first_bad = int(bad[0]) if len(bad) else None
    if len(gold_form) == len(sys_form):
        differ = np.flatnonzero(gold_form != sys_form)
        if len(differ):
            sentence = int(np.asarray(gold.word_sent)[differ[0]])
            first_bad = sentence if first_bad is None else min(first_bad, sentence)
    if first_bad is not None:
        raise _Aborted(f"the processed data '{system_path}' and the corpus data '{gold_path}' do "
                       f"not contain the same text. (sentence {first_bad})", EXIT_INPUT)
    return AnalysisPair.from_treebanks(gold, system, align_words(gold, system))


#: CoNLL-X has 10 tab-separated columns
_CONLLX_COLUMNS = 10


def _check_conllx(path: str) -> None:
    """MaltEval reads CoNLL-X only: a non-blank line with fewer than 10 tab-separated columns
    (a CoNLL-U comment, for one) aborts with its reader's message and the line."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip(b"\r\n")
            if line.strip() and line.count(b"\t") < _CONLLX_COLUMNS - 1:
                text = line.decode("utf-8", errors="replace")
                raise _Aborted(f"Error at  line {number}: an attribute is missing\n{text}",
                               EXIT_INPUT)
