"""``conll_eval report GOLD SYSTEM [SYSTEM...] -o report.html``: one self-contained HTML page
with every system's scores, tables and charts, and a sentence browser drawing the trees."""
from __future__ import annotations

import argparse
import os
from typing import List, Sequence, TextIO

from .common import EXIT_OK, Parser, add_scoring_options, known_metrics, metric_list, scoring_settings, write_atomically


def build_report_parser() -> argparse.ArgumentParser:
    from .compare import add_resampling_options
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
               "input, 2 usage error, 3 internal error, 4 the report could not be written.")
    parser.add_argument("gold", metavar="GOLD", help="gold CoNLL-U file")
    parser.add_argument("systems", metavar="SYSTEM", nargs="+", help="one or more system files")
    parser.add_argument("--names", metavar="A,B,...", help="system names (default: file names)")
    parser.add_argument("--title", help="the page title (default: the gold file's name)")
    parser.add_argument("--significance", action="store_true",
                        help="two or more systems: bootstrap intervals and paired tests per "
                             "pair (as conll_eval compare) in the summary")
    parser.add_argument("--metrics", metavar="M,M,...",
                        help="with --significance: the metrics tested (default: LAS,MLAS,BLEX,CLAS)")
    add_resampling_options(parser)
    add_scoring_options(parser)
    parser.add_argument("--debug", action="store_true", help="tracebacks for internal errors")
    return parser


def system_names(paths: Sequence[str], names: str, parser) -> List[str]:
    """``--names`` split, or the files' names without ``.conllu`` (paths when they clash)."""
    if names:
        chosen = [n.strip() for n in names.split(",")]
        if len(chosen) != len(paths) or len(set(chosen)) != len(chosen) or not all(chosen):
            parser.error("--names: one distinct name per system file")
        return chosen
    stems = [os.path.basename(p) for p in paths]
    stems = [s[:-len(".conllu")] if s.endswith(".conllu") else s for s in stems]
    return stems if len(set(stems)) == len(stems) else list(paths)


def treebank_name(path: str) -> str:
    """``en_ewt-ud-test.conllu`` -> ``en_ewt-ud-test``; a file named just ``gold.conllu``
    is named after its directory (``ud/en_ewt/gold.conllu`` -> ``en_ewt``)."""
    stem = os.path.basename(path)
    stem = stem[:-len(".conllu")] if stem.endswith(".conllu") else stem
    if stem == "gold":
        parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
        return parent or stem
    return stem


def report_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_report_parser()
    args = parser.parse_args(argv)
    from ..evaluate import evaluate
    from ..reader import load
    from ..report.html import render_page, treebank_data
    from ..treebank import Vocab
    from .compare import DEFAULT_METRICS, check_resampling_options, significance_signature
    names = system_names(args.systems, args.names, parser)
    check_resampling_options(parser, args)
    if args.significance and len(args.systems) < 2:
        parser.error("--significance compares two or more systems")
    settings = scoring_settings(args)
    known = known_metrics(settings)
    tested = (metric_list(args.metrics, known, "--metrics", parser.prog) if args.metrics
              else [m for m in DEFAULT_METRICS if m in known])
    vocab = Vocab()  # the gold file is read once, every system into its vocabulary
    gold = load(args.gold, settings.profile, vocab)
    evaluations = [evaluate(gold, load(path, settings.profile, vocab), settings)
                   for path in args.systems]
    significance = None
    if args.significance:
        from ..analyze.comparison import compare
        from ..report.comparison import comparison_record
        comparison = compare(names, evaluations, tested, args.resamples, args.seed, args.alpha,
                             args.correction)
        significance = comparison_record(
            comparison, significance_signature(settings.signature(), args, mcnemar=True))
    name = treebank_name(args.gold)
    record = treebank_data(name, evaluations, names, significance)
    text = render_page(args.title or f"conll_eval report: {name}", [record],
                       settings.signature())
    if args.output:
        write_atomically(args.output, text, [args.gold, *args.systems])
    else:
        stdout.write(text)
    return EXIT_OK


def suite_html(suites: Sequence, settings, metrics: Sequence[str], title: str) -> str:
    """The page of ``conll_eval suite --html``: the macro-averages of every system, then one
    section per treebank with the systems that scored it (each pair is read again here: the
    suite scores in worker processes, which keep no treebank)."""
    from ..errors import ConllEvalError
    from ..evaluate import evaluate
    from ..reader import load
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
            gold = load(first.entry.gold, settings.profile, vocab)
            evaluations = [evaluate(gold, load(path, settings.profile, vocab), settings)
                           for _, path in usable]
        except ConllEvalError as exc:  # scored in a worker, so unlikely; the suite said why
            failures.append([f"{first.entry.name}: not in the report: {str(exc).splitlines()[0]}"])
            continue
        records.append(treebank_data(first.entry.name, evaluations, [n for n, _ in usable]))
    macro = {"systems": [s.system_name for s in suites], "metrics": list(metrics),
             "averages": [{m: s.macro[m].as_dict() for m in metrics} for s in suites],
             "failures": failures, "signature": suites[0].signature}
    return render_page(title, records, suites[0].signature, macro=macro)


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
    from ..errors import UsageError
    from ..evaluate import Settings, evaluate
    from ..report.html import render_page, treebank_data
    from ..analyze.run import UNIVERSAL, read_pair
    if len(settings.gold_files) != 1 or not settings.system_files:
        raise UsageError("conll_eval analyze: -v 1 (the viewer) needs one gold file (-g) and "
                         "one or more system files (-s)")
    gold = settings.gold_files[0]
    universal = settings.deprel_file == UNIVERSAL
    scoring = Settings(deprel="universal" if universal else "full")
    evaluations = []
    for system in settings.system_files:
        pair = read_pair([gold], [system], gold, system, settings.charset, universal)
        evaluations.append(evaluate(pair.gold.treebank, pair.system.treebank, scoring))
    names = system_names(settings.system_files, "", None)
    record = treebank_data(treebank_name(gold), evaluations, names)
    return render_page(f"conll_eval analyze -v 1: {os.path.basename(gold)}", [record],
                       scoring.signature(), generator="conll_eval analyze -v 1")
