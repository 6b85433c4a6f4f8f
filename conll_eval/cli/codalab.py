"""``conll_eval codalab INPUT_DIR OUTPUT_DIR``: the scoring program of a CodaLab or Codabench
competition.  It scores the submission in INPUT_DIR/res against the gold treebanks in
INPUT_DIR/ref exactly as ``conll_eval suite ref res`` does, and writes the leaderboard's
scores (``scores.txt``, ``scores.json``), the suite's JSON document and the HTML report to
OUTPUT_DIR (docs/codalab.md)."""
from __future__ import annotations

import argparse
import os
import re
from typing import Dict, List, Sequence, TextIO, Tuple

from ..errors import UsageError, printable
from ..metric_specs import PROFILES
from ..background import usable_cpus
from .common import (ENHANCED_OPTIONS, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, Parser, add_options,
                     known_metrics, scoring_request, write_atomically)
from .output import OutputFailed, os_reason

__all__ = ["build_codalab_parser", "codalab_command", "submission_directory", "leaderboard_scores",
           "scores_text", "OUTPUT_FILES"]

PROG = "conll_eval codalab"
#: what OUTPUT_DIR gets: the platform reads the first three, suite.json is the whole result
OUTPUT_FILES = ("scores.txt", "scores.json", "detailed_results.html", "suite.json")
#: the key of the number of treebanks that scored 0 (missing or invalid system file)
FAILED_KEY = "failed_treebanks"
#: what a treebank's name must be to become part of a key (--per-treebank): a platform's
#: column key, a scores.txt key (no ':'), a name safe in any template
KEY_NAME = re.compile(r"[A-Za-z0-9_-]+")
#: archives a participant may upload; the platform unpacks the upload, never one inside it
_ARCHIVE_ENDINGS = (".zip", ".tar.gz", ".tgz", ".tar", ".gz", ".bz2", ".xz", ".7z")
#: entries an unpacked archive may bring that are no submission (macOS' resource forks)
_IGNORED_ENTRIES = ("__MACOSX",)


def build_codalab_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="The scoring program of a CodaLab or Codabench competition: the gold "
                    "treebanks are INPUT_DIR/ref/<treebank>.conllu (or metadata.json), the "
                    "participant's files INPUT_DIR/res/<treebank>.conllu (directly or in one "
                    "folder), scored exactly as 'conll_eval suite ref res' scores them: a "
                    "missing or invalid treebank counts 0 with its reason.  OUTPUT_DIR gets "
                    "scores.txt ('KEY: VALUE' lines), scores.json (the same keys), "
                    "detailed_results.html (the suite's HTML report) and suite.json (what "
                    "'suite --format json' prints).  Keys: each metric's macro-average F1 "
                    f"(a fraction in [0, 1]) under the metric's name (LAS, MLAS, ...) and "
                    f"{FAILED_KEY}.",
        epilog="In the scoring program's metadata file: 'command: conll_eval codalab $input "
               "$output'.  Exit codes: 0 scored (even with treebanks at 0: the submission "
               "shows on the leaderboard), 1 nothing could be scored (every treebank failed: "
               "no scores written, the reasons on stderr and in the report), 2 usage error "
               "(no ref or res folder, no gold treebank), 3 internal error, 4 the outputs "
               "could not be written.")
    parser.add_argument("input_dir", metavar="INPUT_DIR", help="the platform's input folder (ref/, res/)")
    parser.add_argument("output_dir", metavar="OUTPUT_DIR", help="where the scores and the report go")
    add_options(parser, "profile", "weights", "punct", "deprel", "strict", notes={
        "strict": "a treebank with an invalid file scores 0"})
    add_options(parser, *ENHANCED_OPTIONS)
    add_options(parser, "metrics", notes={
        "metrics": "the leaderboard's keys (default: the profile's headline metrics)"})
    parser.add_argument("--per-treebank", action="store_true",
                        help="also a key per treebank and metric, METRIC_TREEBANK (LAS_en_ewt): "
                             "its F1 (0 when it failed); the gold files' names must then be "
                             "letters, digits, '_' and '-'")
    add_options(parser, "quiet")
    parser.add_argument("-j", "--jobs", type=int, default=usable_cpus(), metavar="N",
                        help="score in N worker processes (default: the cores this process may use)")
    add_options(parser, "debug")
    return parser


def _visible_entries(directory: str) -> List[str]:
    return sorted(name for name in os.listdir(directory)
                  if not name.startswith(".") and name not in _IGNORED_ENTRIES)


def submission_directory(path: str, side: str) -> str:
    """The folder of ``side`` (``ref`` or ``res``) that holds the treebanks: ``path`` itself
    when it has a ``*.conllu`` file or ``metadata.json``, else its only folder (an archive
    unpacked with its top folder; hidden entries and ``__MACOSX`` are no folder).  Raises :class:`UsageError` when ``path`` is no folder,
    and when it holds only an archive: the platform unpacks the upload, never an archive in
    it."""
    if not os.path.isdir(path):
        raise UsageError(f"{PROG}: {printable(path)}: no such folder (the platform puts the "
                         f"{'gold files' if side == 'ref' else 'submission'} there)")
    entries = _visible_entries(path)
    if any(name.endswith(".conllu") or name == "metadata.json" for name in entries):
        return path
    folders = [name for name in entries if os.path.isdir(os.path.join(path, name))]
    if len(folders) == 1:  # beside it perhaps a readme, or CodaLab's 'metadata' file
        return os.path.join(path, folders[0])
    archives = [name for name in entries if name.lower().endswith(_ARCHIVE_ENDINGS)]
    if archives:
        raise UsageError(f"{PROG}: {printable(path)} holds an archive ({printable(archives[0])}), "
                         "not <treebank>.conllu files: upload one archive whose files (or one "
                         "folder of them) are the treebanks")
    return path


def leaderboard_scores(document: dict, metrics: Sequence[str], per_treebank: bool = False
                       ) -> Tuple[Dict[str, object], List[str]]:
    """(the leaderboard's keys and values, the metrics left out): each metric's macro F1 as
    ``suite --format json`` gives it in ``document`` (its ``macro`` object), then the number of
    failed treebanks, then with ``per_treebank`` each treebank's F1 of each metric under
    ``METRIC_TREEBANK`` (the document's ``treebanks``, in their order).  A number that is n/a
    (no gold file annotates the tag: null in the document) gets no key, as a platform reads a
    number in every column; a metric whose macro-average is n/a is named in the list."""
    scores: Dict[str, object] = {}
    left_out = []
    for metric in metrics:
        value = document["macro"][metric]["f1"]
        if value is None:
            left_out.append(metric)
        else:
            scores[metric] = value
    scores[FAILED_KEY] = len(document["failed"])
    for treebank in document["treebanks"] if per_treebank else ():
        for metric in metrics:
            value = treebank["metrics"][metric]["f1"]
            if value is not None:
                scores[f"{metric}_{treebank['name']}"] = value
    return scores, left_out


def _check_key_names(names: Sequence[str]) -> None:
    """A usage error for a treebank name that cannot be part of a key (--per-treebank)."""
    for name in names:
        if not KEY_NAME.fullmatch(name):
            raise UsageError(f"{PROG}: --per-treebank: the treebank name '{printable(name)}' "
                             "cannot be part of a key (letters, digits, '_' and '-' only): "
                             "rename its gold file, or score without --per-treebank")


def scores_text(scores: Dict[str, object]) -> str:
    """CodaLab's ``scores.txt``: a ``KEY: VALUE`` line per key, the values written as JSON
    writes them (the same digits as scores.json)."""
    return "".join(f"{key}: {value!r}\n" for key, value in scores.items())


def _report_failures(suite, stderr: TextIO) -> None:
    for result in suite.results:
        if result.failure is not None:
            stderr.write(f"{PROG}: {printable(result.entry.name)} scored 0: "
                         f"{result.failure.message}\n")
    for path in suite.unpaired_system:
        stderr.write(f"{PROG}: note: {printable(os.path.basename(path))} is no treebank of the "
                     "task: not scored\n")


def codalab_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    parser = build_codalab_parser()
    args = parser.parse_args(argv)
    # here: the scoring, the JSON document and the page load numpy, which the parser (the
    # help, completion and man pages) never needs (start-up time)
    import json
    from ..pairing import find_pairs
    from ..report.escape import json_text
    from ..report.suite import suite_json
    from ..suite import SuiteEvaluation, score_entries
    from .report import suite_html
    settings, requested, _ = scoring_request(args, parser.prog)
    if args.jobs < 1:
        raise UsageError(f"{PROG}: --jobs must be at least 1")
    known = known_metrics(settings)
    metrics = requested or [m for m, _ in PROFILES[args.profile].default_lines if m in known]
    gold = submission_directory(os.path.join(args.input_dir, "ref"), "ref")
    system = submission_directory(os.path.join(args.input_dir, "res"), "res")
    try:
        pairing = find_pairs(gold, system, None)
    except UsageError as exc:
        raise UsageError(f"{PROG}: {exc}") from exc
    if not pairing.entries:
        raise UsageError(f"{PROG}: no gold treebanks in {printable(gold)} (no *.conllu files "
                         "and no metadata.json)")
    if args.per_treebank:
        _check_key_names([entry.name for entry in pairing.entries])
    results = score_entries(pairing.entries, settings, args.jobs, debug=args.debug)
    suite = SuiteEvaluation("submission", tuple(results), settings, pairing.unpaired_system)
    text = suite_json([(1, suite)], {"profile": args.profile, "weights_file": args.weights,
                                     "rank_by": "LAS", "strict": args.strict,
                                     "qualitative": False}, "LAS")
    inputs = [entry.gold for entry in pairing.entries] + \
        [entry.system for entry in pairing.entries if entry.system]
    try:
        os.makedirs(args.output_dir, exist_ok=True)
    except OSError as exc:
        raise OutputFailed(printable(args.output_dir), os_reason(exc)) from exc
    output = {name: os.path.join(args.output_dir, name) for name in OUTPUT_FILES}
    write_atomically(output["suite.json"], text, inputs, chosen_name=True)
    write_atomically(output["detailed_results.html"],
                     suite_html([suite], settings, metrics, "conll_eval codalab: detailed results",
                                output["detailed_results.html"]), inputs, chosen_name=True)
    if not args.quiet:
        _report_failures(suite, stderr)
    if any(r.failure is not None and r.failure.code == "internal" for r in suite.results):
        return EXIT_INTERNAL  # our fault, never the participant's 0
    if all(not r.ok for r in suite.results):
        stderr.write("" if args.quiet else f"{PROG}: error [nothing-scored] no treebank of the submission could be "
                     "scored; no scores written\n")
        return EXIT_INPUT
    scores, left_out = leaderboard_scores(json.loads(text), metrics, args.per_treebank)
    if left_out and not args.quiet:
        stderr.write(f"{PROG}: note: no key for {', '.join(left_out)}: no gold file annotates "
                     "it (every value is _), its macro-average is n/a\n")
    write_atomically(output["scores.txt"], scores_text(scores), inputs, chosen_name=True)
    write_atomically(output["scores.json"], json_text(scores, indent=2) + "\n", inputs,
                     chosen_name=True)
    return EXIT_OK
