"""``conll_eval report GOLD SYSTEM [SYSTEM...] -o report.html``: one self-contained HTML page
with every system's scores, tables and charts, and a sentence browser drawing the trees."""
from __future__ import annotations

import argparse
import os
from typing import List, Sequence, TextIO

from ..errors import ConllEvalError, UsageError
from ..naming import system_names, treebank_name
from .compare import DEFAULT_METRICS, check_resampling_options, significance_signature
from .common import (ENHANCED_OPTIONS, EXIT_INPUT, EXIT_OK, RESAMPLING_OPTIONS, Parser, add_options, evaluate_systems,
                     is_terminal, known_metrics, scoring_request, named_inputs, write_atomically)


def build_report_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval report",
        description="Write a self-contained HTML report: the official metrics of each system "
                    "with the signature, per-relation and per-UPOS precision/recall/F1 with "
                    "bars, confusion heatmaps, where the LAS errors come from (segmentation, "
                    "heads, labels) and, with --significance, paired tests; then a sentence "
                    "browser (filters, sorting, keyboard) drawing the gold tree and each "
                    "system's tree, wrong arcs red and dashed. No network access, no external "
                    "files: open it anywhere.",
        epilog="Suites: conll_eval suite GOLD_DIR SYSTEM_DIR... --html FILE. MaltEval's viewer: "
               "conll_eval analyze -s SYS -g GOLD -v 1. Exit codes: 0 written, 1 invalid "
               "input, 2 usage error, 3 internal error, 4 the report could not be written "
               "(with -q too, silently but for usage errors).")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file")
    parser.add_argument("systems", metavar="SYSTEM", nargs="+", help="one or more system files")
    add_options(parser, "names")
    parser.add_argument("--title", help="the page title (default: the gold file's name)")
    add_options(parser, "significance", "metrics", *RESAMPLING_OPTIONS, notes={
        "significance": "two or more systems: per pair of systems, in the summary",
        "metrics": "with --significance: the metrics tested (default: LAS,MLAS,BLEX,CLAS)"})
    add_options(parser, "profile", "weights", "output", "punct", "deprel", "strict", "quiet", "debug",
                notes={"strict": "any error stops before the report is written",
                       "output": "stdout only when it is not a terminal (a usage error there)",
                       "quiet": "without -o no page is written"})
    add_options(parser, *ENHANCED_OPTIONS)
    return parser


def shown_path(path, output) -> str:
    """An input file's path as the page shows it: relative to the folder of the page (so the
    page names its inputs wherever the two move together; relative to the current folder for
    a page on stdout); a path that is no file (stdin) or has no relative form stays as given."""
    if not path or not os.path.isfile(path):
        return path
    base = os.path.dirname(os.path.abspath(output)) if output else os.getcwd()
    try:
        return os.path.relpath(os.path.abspath(path), base)
    except ValueError:  # another drive (Windows)
        return path


def _paths_relative(record: dict, output) -> dict:
    """The record with its gold and system paths as :func:`shown_path` shows them."""
    record["gold"]["path"] = shown_path(record["gold"]["path"], output)
    for run in record["runs"]:
        run["path"] = shown_path(run["path"], output)
    return record


def report_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_report_parser()
    args = parser.parse_args(argv)
    # here, as in suite_html and viewer_html: the page's data loads numpy and the scoring,
    # which the parser (the help, completion and man pages) never needs (start-up time)
    from ..report.html import render_page, treebank_data
    if not args.output and not args.quiet and is_terminal(stdout):  # as gzip: megabytes of HTML help no one there
        parser.error("the HTML report is not written to a terminal; use -o FILE or redirect it")
    names = system_names(args.systems, args.names, parser.prog)
    check_resampling_options(parser, args)
    if args.significance and len(args.systems) < 2:
        parser.error("--significance compares two or more systems")
    settings, requested, _ = scoring_request(args, parser.prog)
    tested = requested or [m for m in DEFAULT_METRICS if m in known_metrics(settings)]
    try:
        evaluations = evaluate_systems(args.gold, args.systems, settings)
    except ConllEvalError:
        if args.quiet and not args.debug:  # -q: only the exit status tells
            return EXIT_INPUT
        raise
    significance = None
    if args.significance:
        # here: only --significance needs the analyses (start-up time of the page alone)
        from ..analyze.comparison import compare
        from ..report.comparison import comparison_record
        comparison = compare(names, evaluations, tested, args.resamples, args.seed, args.alpha,
                             args.correction)
        significance = comparison_record(
            comparison, significance_signature(settings.signature(), args, tested))
    name = treebank_name(args.gold)
    record = _paths_relative(treebank_data(name, evaluations, names, significance), args.output)
    text = render_page(args.title or f"conll_eval report: {name}", [record],
                       settings.signature())
    if args.output:
        write_atomically(args.output, text, named_inputs(args))
    elif not args.quiet:
        stdout.write(text)
    return EXIT_OK


def suite_html(suites: Sequence, settings, metrics: Sequence[str], title: str,
               output=None) -> str:
    """The page of ``conll_eval suite --html``: the macro-averages of every system, then one
    section per treebank with the systems that scored it (each pair is read again here: the
    suite scores in worker processes, which keep no treebank); paths relative to ``output``,
    the page's file."""
    from ..evaluate import evaluate  # here: see report_command
    from ..io.formats import CONLLU
    from ..io.read import read_treebank
    from ..report.html import render_page, treebank_data
    from ..treebank import Vocab
    records, failures = [], []
    for suite in suites:
        failures.append([f"{suite.system_name}: {r.entry.name}: {r.failure.message}"
                         for r in suite.results if not r.ok])
    for position, first in enumerate(suites[0].results):
        entries = [(suite.system_name, suite.results[position]) for suite in suites]
        usable = [(name, r.entry.system) for name, r in entries if r.ok and r.entry.system]
        if not usable:
            continue
        try:
            vocab = Vocab()
            options = {"collapse": settings.collapse_empty_nodes,
                       "multiple_roots": settings.multiple_roots_okay}
            gold = read_treebank(first.entry.gold, CONLLU, profile=settings.profile, vocab=vocab,
                                 **options)
            evaluations = [evaluate(gold, read_treebank(path, CONLLU, profile=settings.profile,
                                                        vocab=vocab, **options), settings)
                           for _, path in usable]
        except ConllEvalError as exc:  # scored in a worker, so unlikely; the suite said why
            failures.append([f"{first.entry.name}: not in the report: {str(exc).splitlines()[0]}"])
            continue
        records.append(_paths_relative(treebank_data(first.entry.name, evaluations,
                                                     [n for n, _ in usable]), output))
    macro = {"systems": [s.system_name for s in suites], "metrics": list(metrics),
             "averages": [{m: s.macro[m].as_dict() for m in metrics} for s in suites],
             "failures": failures, "signature": suites[0].signature,
             "treebanks": _treebank_rows(suites, metrics, [r["name"] for r in records])}
    return render_page(title, records, suites[0].signature, macro=macro)


def _treebank_rows(suites: Sequence, metrics: Sequence[str], drawn: Sequence[str]) -> list:
    """Per treebank (the suite's order) its name, its index among the page's treebanks (None
    when none of its pairs is drawn) and per system either ``{"f1": {metric: F1 or None
    (tag not annotated)}}`` or ``{"failed": code, "message": ...}`` (the text table's rows)."""
    rows = []
    for position, first in enumerate(suites[0].results):
        name = first.entry.name
        cells = []
        for suite in suites:
            result = suite.results[position]
            if not result.ok:
                cells.append({"failed": result.failure.code, "message": result.failure.message})
                continue
            cells.append({"f1": {m: None if m in result.unannotated else result.scores[m].f1
                                 for m in metrics}})
        rows.append({"name": name, "index": drawn.index(name) if name in drawn else None,
                     "cells": cells})
    return rows


#: where ``analyze -v 1`` writes the viewer when no --output names a place
VIEWER_FILE = "malteval-viewer.html"


def viewer_path(output: str) -> str:
    """Where ``analyze -v 1`` writes its page: ``--output`` itself when it ends in ``.html``
    (or ``.htm``), ``DIR/malteval-viewer.html`` for a directory, ``FILE.html`` beside another
    file, else ``malteval-viewer.html`` in the current directory."""
    if output == "STDOUT":
        return VIEWER_FILE
    if output.lower().endswith((".html", ".htm")):
        return output
    if os.path.isdir(output):
        return os.path.join(output, VIEWER_FILE)
    return output + ".html"


def viewer_html(settings) -> str:
    """MaltEval's tree viewer (``-v 1``) as the HTML report: the gold file's trees and each
    system file's, read and aligned as ``conll_eval analyze`` reads them; relations compared
    as MaltEval compares them (whole labels; without subtypes with ``--deprel universal``)."""
    from ..analyze.run import UNIVERSAL, read_pair, told_formats  # here: see report_command
    from ..evaluate import Settings, evaluate
    from ..report.html import render_page, treebank_data
    if len(settings.gold_files) != 1 or not settings.system_files:
        raise UsageError("conll_eval analyze: -v 1 (the viewer) needs one gold file (-g) and "
                         "one or more system files (-s)")
    gold = settings.gold_files[0]
    universal = settings.deprel_file == UNIVERSAL
    scoring = Settings(deprel="universal" if universal else "full")
    evaluations = []
    told = told_formats([gold, *settings.system_files])  # each file's format told once
    for system in settings.system_files:
        pair = read_pair([told[gold]], [told[system]], gold, system, settings.charset, universal)
        evaluations.append(evaluate(pair.gold.treebank, pair.system.treebank, scoring))
    names = system_names(settings.system_files, None, "conll_eval analyze")
    record = _paths_relative(treebank_data(treebank_name(gold), evaluations, names),
                             viewer_path(settings.formatting.output))
    return render_page(f"conll_eval analyze -v 1: {os.path.basename(gold)}", [record],
                       scoring.signature(), generator="conll_eval analyze -v 1")
