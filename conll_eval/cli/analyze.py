"""``conll_eval analyze ARGS...``: MaltEval 1.0's command line and its stdout, byte for byte.

The arguments are MaltEval's (``-s SYSTEM... -g GOLD --Metric ... --GroupBy ...``).  Where
MaltEval aborts, this prints ``Evaluation aborted: <MaltEval's message>`` on stderr as it does,
but exits 2 (usage) or 1 (bad input) instead of MaltEval's 0.  The tree viewer (``-v 1``) is
written as the HTML report's page (see :func:`.report.viewer_path`).  Not supported (exit 2):
selection files (``-f``) and ``--hdr-file 1``.
"""
from __future__ import annotations

import os
from typing import List, TextIO

from ..errors import UsageError, printable
from .common import EXIT_INPUT, EXIT_OK, EXIT_USAGE, write_atomically
from .messages import problem_line, program_name

__all__ = ["analyze_command"]


def _abort_text(message: str) -> str:
    return f"\nEvaluation aborted: {printable(message)}\n"


#: ``conll_eval analyze --help`` and ``conll_eval help analyze``
ANALYZE_HELP = """\
usage: conll_eval analyze -s SYSTEM... -g GOLD... [--Metric M[;M...]] [--GroupBy G[:FORMAT][;...]] ...

MaltEval 1.0's analyses with its own command line (what follows 'java -jar MaltEval.jar')
and, byte for byte, its stdout: the 14 metrics (LAS, UAS, LA, AnyRight, ... , self), every
grouping (Token, Wordform, Lemma, Cpostag, Postag, Feats, Deprel, Sentence, RelationLength,
GroupedRelationLength, SentenceLength, Start/EndWordPosition, RelativeWordPosition,
ArcDirection, ArcDepth, BranchingFactor, ArcProjectivity, Frame, PreAndPost, Clustering,
Clustering2) and complex ones (Cpostag@-1#Cpostag@0, Cpostag,Postag, Wordform@1, ...),
formats (columns, +/- sort, cuts), Exclude* parameters, Min/MaxSentenceLength, --remove,
-e evaluation files, --confusion-matrix 1, --stat 1 (McNemar between system files),
cross-validation folds (-s f1 f2 f3 -g g1 g2 g3, --micro-average 0|1), --output FILE|DIR,
--charset, --postag/--deprel tag lists and the formatting flags (--details, --header-info,
--row-header, --column-header, --merge-tables, --tab, --pattern).
Inputs: CoNLL-X (.conll), MaltTab (.tab), MaltXML (.xml) as MaltEval reads them, and
CoNLL-U (.conllu), aligned as the CoNLL 2018 scorer aligns words when the tokenization or
the sentence split differs.

conll_eval's own flags:
  --deprel universal     compare relations without subtypes (acl:relcl counts as acl)
  --format json          every table as data (keys, values, counts) instead of text
  --plugin module:Class  a grouping class (repeatable); installed ones come from the
                         entry-point group conll_eval.groupings, imported when named
  -v 1                   the tree viewer: an HTML page (the 'conll_eval report' browser) in
                         --output if it ends in .html, DIR/malteval-viewer.html for a
                         directory, FILE.html beside another file, else ./malteval-viewer.html
Not supported: selection files (-f), --hdr-file 1, -e eval07.pl.
Where MaltEval aborts, the message is MaltEval's ('Evaluation aborted: ...') but the exit
code is 2 (usage) or 1 (bad input), never 0; write errors exit 4.
"""


def analyze_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    if argv in (["--help"], ["-h"]):
        stdout.write(ANALYZE_HELP.replace("usage: conll_eval analyze", f"usage: {program_name('analyze')}", 1))
        return EXIT_OK
    # here, as in _analyze and _inputs: the analyses load numpy, which ANALYZE_HELP (the help,
    # completion and man pages read it) never needs (start-up time)
    from ..analyze.options import EvaluationFileError, MaltEvalUsageError
    from ..analyze.run import Aborted
    notes: List[str] = []
    try:
        text = _analyze(argv, notes)
    except Aborted as exc:
        stderr.write(_abort_text(exc.message))
        return EXIT_USAGE if exc.usage else EXIT_INPUT
    except (MaltEvalUsageError, EvaluationFileError) as exc:
        status = EXIT_USAGE if isinstance(exc, MaltEvalUsageError) else EXIT_INPUT
        if exc.malteval_message is not None:
            stderr.write(_abort_text(exc.malteval_message))
        elif isinstance(exc, EvaluationFileError):  # path:line: error [code] ...
            stderr.write(f"{exc}\n")
        else:
            stderr.write(problem_line("analyze", str(exc), getattr(exc, "code", "usage")))
        return status
    stdout.write(text)
    for note in notes:  # after the tables: stdout stays MaltEval's
        stderr.write(f"{program_name('analyze')}: note: {printable(note)}\n")
    return EXIT_OK


def _unsupported(what: str) -> UsageError:
    return UsageError(f"conll_eval analyze: {what} is not supported yet")


def _analyze(argv: List[str], notes: List[str]) -> str:
    from ..analyze.options import parse_args  # here: see analyze_command
    from ..analyze.run import run
    from ..report.malteval import format_items, format_result_files, items_json
    settings = parse_args(argv, check_evaluations=False)
    formatting = settings.formatting
    if settings.viewer:  # MaltEval's Swing tree viewer: the HTML report's sentence browser
        from .report import viewer_html, viewer_path  # here: only -v 1 builds the page
        path = viewer_path(formatting.output)
        write_atomically(path, viewer_html(settings), _inputs(settings),
                         chosen_name=path != formatting.output)
        return f"{program_name('analyze')}: the tree viewer (-v 1) is in {printable(path)}\n"
    if settings.selection_file is not None:
        raise _unsupported("-f (selection file)")
    if formatting.hdr_file:
        raise _unsupported("--hdr-file 1")
    items = run(settings, notes)
    if settings.output_format == "json":
        text = items_json(items, settings.argv)
    elif formatting.output != "STDOUT" and os.path.isdir(formatting.output):
        stdout_text, files = format_result_files(items, settings.echo, formatting)
        for name, content in files.items():
            write_atomically(os.path.join(formatting.output, name), content, _inputs(settings),
                             chosen_name=True)
        return stdout_text
    else:
        text = format_items(items, settings.echo, formatting)
    if formatting.output != "STDOUT":  # MaltEval replaces the file with this run's output
        write_atomically(formatting.output, text, _inputs(settings))
        return ""
    return text


def _inputs(settings) -> List[str]:
    """Files an output must never replace: the gold and system files (those of a directory
    given to -s/-g too), the -e evaluation file, the --postag and --deprel tag lists."""
    from ..analyze.run import UNIVERSAL  # here: see analyze_command
    deprel_file = None if settings.deprel_file == UNIVERSAL else settings.deprel_file
    return [*settings.gold_files, *settings.system_files,
            *(p for p in (settings.eval_file, settings.postag_file, deprel_file) if p)]
