"""What the subcommands share: the exit codes, an argparse that raises instead of exiting,
the scoring options, metric lists and bars, progress lines, the inputs an output must not
replace (the output files themselves: :mod:`.output`).

Nothing here prints except the progress line a subcommand asks for."""
from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Collection, Iterator, Dict, List, Mapping, NamedTuple, Optional, Sequence, TextIO, Tuple

from ..errors import ConllEvalError, UsageError, printable
from ..metric_specs import DEPREL_POLICIES, EXTRA_METRICS, PROFILES, PUNCT_POLICIES, display_name, profile_metrics
# the output files' rules live in .output; the commands take them from here with the rest
from .output import OutputFailed, input_named, os_reason, refuse_inputs, write_atomically  # noqa: F401

if TYPE_CHECKING:  # annotations only: the scoring stack loads when a command scores
    from ..evaluate import Settings

#: 0 done, 1 invalid input / failed verdict, 2 usage, 3 internal error, 4 the results could not
#: be written (``-o`` path, disk full, closed stdout); 130 interrupted
EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL, EXIT_OUTPUT = 0, 1, 2, 3, 4


class GuardedOutput:
    """A text stream whose failures never decide the command's exit code by themselves.

    A reader that goes away (``| head``: EPIPE) only stops the output: the command goes on
    and its verdict (invalid file, missed bar) is its exit code, so ``set -o pipefail`` never
    passes a broken file.  Any other failure (disk full, a closed stdout) stops the output
    too and is kept in ``failure`` for :func:`main` to report (exit 4 if the verdict is
    success).  ``broken`` tells a command that writing further is pointless.
    """

    def __init__(self, stream: Optional[TextIO], name: str = "standard output"):
        self._stream = stream
        self.name = name
        self.broken = False
        self.failure: Optional[OutputFailed] = None

    def write(self, text: str) -> int:
        if self._stream is None:  # started with the descriptor closed (``>&-``)
            self.broken = True
            self.failure = OutputFailed(self.name, "it is closed")
        elif not self.broken:
            try:
                self._stream.write(text)
            except OSError as exc:
                self._failed(exc)
        return len(text)

    def write_raw(self, text: str) -> int:
        """Like :meth:`write`, for text decoded with ``surrogateescape`` (mooteval's files are
        bytes): bytes the stream cannot encode go to its byte buffer as they were read."""
        try:
            return self.write(text)
        except UnicodeEncodeError:
            buffer = getattr(self._stream, "buffer", None)
            if buffer is None:
                return self.write(text.encode("utf-8", "surrogateescape")
                                  .decode("utf-8", "replace"))
            try:
                self._stream.flush()
                buffer.write(text.encode("utf-8", "surrogateescape"))
            except OSError as exc:
                self._failed(exc)
            return len(text)

    def flush(self) -> None:
        if not self.broken and self._stream is not None:
            try:
                self._stream.flush()
            except OSError as exc:
                self._failed(exc)

    def isatty(self) -> bool:
        return not self.broken and is_terminal(self._stream)

    def _failed(self, exc: OSError) -> None:
        self.broken = True
        if not isinstance(exc, BrokenPipeError):
            self.failure = OutputFailed(self.name, os_reason(exc))


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the terminal's width as :func:`shutil.get_terminal_size`
    finds it (``COLUMNS``, else the terminal of stdout, else 80).  argparse makes a formatter
    for every ``add_argument`` and would import :mod:`shutil` for it (with bz2, lzma and
    fnmatch: ~3 ms of every run's start-up)."""

    def __init__(self, prog, *args, **kwargs):
        if kwargs.get("width") is None and len(args) < 3:
            kwargs["width"] = terminal_columns() - 2  # as argparse: 2 columns of margin
        super().__init__(prog, *args, **kwargs)


def terminal_columns() -> int:
    """The terminal's width in columns, as :func:`shutil.get_terminal_size` gives it."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() stays the only exit point, and
    writes help and usage to the streams main() was given (``streams``, set by main)."""

    streams: Optional[tuple] = None  # (stdout, stderr) of the running main()
    #: a command line parsed in the running main() set ``quiet`` (-q, -qv, --qui, ...: as
    #: argparse reads it, never a value such as -o -q); main() then shows no input warning
    quiet_asked = False

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        args = list(sys.argv[1:] if args is None else args)
        namespace, extras = super().parse_known_args(drop_ignored_values(args), namespace)
        if getattr(namespace, "quiet", False) is True:
            Parser.quiet_asked = True
        return namespace, extras

    def error(self, message):  # argparse quotes the arguments: a name stays one line
        raise UsageError(f"{self.prog}: error: {printable(message)}")

    def exit(self, status=0, message=None):
        if message:
            self._print_message(message, sys.stderr)
        raise Exit(status)

    def _print_message(self, message, file=None):
        if self.streams is not None:
            file = self.streams[1] if file is sys.stderr else self.streams[0]
        try:  # help for a reader that left (``--help | head``) or a closed stream
            super()._print_message(message, file)
        except (OSError, AttributeError):
            pass


#: flags whose peer takes a value we accept and ignore (udeval's ``--no-empty-nodes VALUE``)
FLAGS_WITH_IGNORED_VALUE = ("--no-empty-nodes",)


def drop_ignored_values(argv: Sequence[str]) -> List[str]:
    """``argv`` without the values given to :data:`FLAGS_WITH_IGNORED_VALUE` (``--flag=VALUE``,
    or ``--flag VALUE`` where VALUE is neither an option, ``-``, nor an existing path): the
    flag alone then, so a flag written before the file names never takes a file for its
    value."""
    kept: List[str] = []
    may_take_value = False  # the token before was such a flag, alone
    for position, token in enumerate(argv):
        if token == "--":  # the rest are file names
            return kept + list(argv[position:])
        if may_take_value and not (token.startswith("-") or os.path.exists(token)):
            may_take_value = False
            continue  # udeval's value: accepted, ignored
        flag, equals, _ = token.partition("=")
        kept.append(flag if equals and flag in FLAGS_WITH_IGNORED_VALUE else token)
        may_take_value = token in FLAGS_WITH_IGNORED_VALUE
    return kept


class Exit(Exception):
    def __init__(self, status: int):
        self.status = status


@contextmanager
def quiet_input_errors(args: argparse.Namespace) -> Iterator[None]:
    """With ``-q`` (and no ``--debug``), an input error in the block ends the command with
    exit 1 and no line: only the exit status tells.  A usage error is always printed."""
    try:
        yield
    except UsageError:
        raise
    except ConllEvalError as exc:
        if args.quiet and not args.debug:
            raise Exit(EXIT_INPUT) from exc
        raise


class SharedOption(NamedTuple):
    """One option several commands have, defined once: its flags, argparse keywords (default,
    choices, action, metavar, type) and help.  A command may add a sentence to the help
    (what the option does there), never change the rest."""

    flags: Tuple[str, ...]
    keywords: Mapping[str, object]
    help: str


def _shared(*flags: str, help: str, **keywords) -> SharedOption:
    return SharedOption(flags, keywords, help)


def _metric_names(text: str) -> str:
    """A ``--metrics`` value as given, refused when it names no metric: ``''`` would
    otherwise mean the default metrics, silently."""
    if not any(name.strip() for name in text.split(",")):
        raise argparse.ArgumentTypeError(f"{text!r} names no metric; give names such as LAS,MLAS")
    return text


class _AccumulatedBars(argparse.Action):
    """``--fail-under`` given again adds its bars to the earlier ones (every bar must hold;
    :func:`thresholds` refuses two bars on one metric); an empty value is refused, as it
    would otherwise set no bar, silently."""

    def __call__(self, parser, namespace, values, option_string=None):
        if not values.strip():
            raise argparse.ArgumentError(self, "an empty bar; expected METRIC=PERCENT, e.g. LAS=80")
        earlier = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{earlier},{values}" if earlier else values)


#: the --format choices of every command that formats results (validate has its own: udtools)
FORMATS = ("text", "json", "tsv", "csv", "markdown", "latex")

#: the options two or more commands share, by argparse ``dest`` (with those of
#: :func:`_resampling_options`: all of them are :func:`shared_options`); each command's parser
#: picks the ones it has with :func:`add_options` (tests/test_issue25_options.py walks them)
_SHARED: Dict[str, SharedOption] = {
    "format": _shared("--format", default="text", choices=list(FORMATS),
                      help="output format (default: text); latex: booktabs tabulars to \\input "
                           "into a paper (headings, notes and the signature as %% comments)"),
    "output": _shared("-o", "--output", metavar="FILE",
                      help="write the output to FILE (atomically) instead of stdout"),
    "quiet": _shared("-q", "--quiet", action="store_true",
                     help="print nothing (no results, notes or failures; usage errors still "
                          "are): only the exit status tells, as the UD validator's --quiet; "
                          "-o FILE is still written"),
    "debug": _shared("--debug", action="store_true", help="show tracebacks of internal errors"),
    "names": _shared("--names", metavar="A,B,...",
                     help="the systems' names, in order (default: each SYSTEM path's name "
                          "without .conllu and its compression suffix, or the paths so "
                          "shortened where two names clash)"),
    "profile": _shared("--profile", default="conll18", choices=list(PROFILES),
                       help="official behaviour to reproduce (default: conll18); in the "
                            "signature"),
    "weights": _shared("-w", "--weights", metavar="FILE",
                       help="add WeightedLAS with 'deprel weight' lines (conll17 semantics)"),
    "punct": _shared("--punct", default="include", choices=list(PUNCT_POLICIES),
                     help="which words the attachment metrics (UAS, LAS, CLAS, MLAS, BLEX, "
                          "LA) score: include (default, as the UD scorers), deprel (gold "
                          "punct words out of recall, system punct words out of precision), "
                          "upos (PUNCT, per side), unicode (a FORM of only Unicode "
                          "punctuation, as CoNLL-X eval.pl and MaltEval); in the signature"),
    "deprel": _shared("--deprel", default="universal", choices=list(DEPREL_POLICIES),
                      help="how relations compare: universal (default: subtypes cut, as the "
                           "UD scorers), full (subtypes kept, as eval.pl and MaltEval), v1 "
                           "(UD v1 names renamed to v2: dobj -> obj, nsubjpass -> "
                           "nsubj:pass, ...); in the signature"),
    "strict": _shared("--strict", action="store_true",
                      help="validate the files first (UD validator levels 1-2, as "
                           "'conll_eval validate --level 2'); in the signature (strict:L2)"),
    "enhancements": _shared("--enhancements", default="0", metavar="DIGITS",
                            help="enhancement types the gold treebank lacks, turned off in both "
                                 "files before ELAS/EULAS: 1 gapping, 2 shared parents, 3 shared "
                                 "dependents, 4 control, 5 external arguments of relative "
                                 "clauses, 6 case information; 12 = 1 and 2 (default: 0, all; "
                                 "as the IWPT scorer and udeval); in the signature"),
    "no_enhanced": _shared("--no-enhanced", action="store_true",
                           help="leave ELAS and EULAS out of the iwpt and udeval profiles' rows "
                                "(as the scripts' --no-enhanced); in the signature"),
    "no_empty_nodes": _shared("--no-empty-nodes", action="store_true",
                              help="empty nodes are collapsed: an empty node line or a DEPS head "
                                   "naming one is an error (udeval's VALUE, as in "
                                   "--no-empty-nodes 1, is accepted and ignored); in the "
                                   "signature"),
    "multiple_roots_okay": _shared("--multiple-roots-okay", action="store_true",
                                   help="a sentence may have several words with HEAD 0 (as "
                                        "the IWPT scorer and udeval); in the signature"),
    "collapse_empty_nodes": _shared("--collapse-empty-nodes", action="store_true",
                                    help="collapse the empty nodes of both files before "
                                         "reading them, as the UD tools' "
                                         "enhanced_collapse_empty_nodes.pl does (paths through "
                                         "them become edges such as 5:conj>obj); in the "
                                         "signature (empty:collapsed)"),
    "metrics": _shared("--metrics", metavar="M,M,...", type=_metric_names,
                       help="metric names, comma-separated, in any case (las = LAS); LA and, "
                            "with -w, WeightedLAS can be named too"),
    "fail_under": _shared("--fail-under", metavar="M=PCT,...", action=_AccumulatedBars,
                          help="exit 1 when a score, as printed (percent, 2 decimals), is "
                               "below its bar, e.g. LAS=80,CLAS=75 (percentages: LAS=0.8 is "
                               "0.8 %%); names in any case (las = LAS), every metric "
                               "--metrics takes where the command has it; given again, its "
                               "bars are added (every bar must hold; two bars on one metric "
                               "are a usage error)"),
    "per_sentence": _shared("--per-sentence", action="store_true",
                            help="the counts of every gold sentence, a row each"),
    "signature": _shared("--signature", action="store_true",
                         help="print the settings signature, off by default in text (a last "
                              "line) and TSV (a first '# ' line), on stderr with csv (the CSV "
                              "stays a plain table); the other formats always carry it"),
    "significance": _shared("--significance", action="store_true",
                            help="bootstrap intervals and paired tests between the systems "
                                 "(as conll_eval compare)"),
    "baseline": _shared("--baseline", metavar="NAME",
                        help="test every system against this one only (a name as --names "
                             "gives or as the systems are named)"),
    "color": _shared("--color", default="auto", choices=["auto", "always", "never"],
                      help="red for what failed: a suite's failed treebanks and every missed "
                           "gate's line on stderr (error [fail-under], compare's error "
                           "[not-better]): auto "
                           "(default: only on a terminal whose TERM is not dumb, and not when "
                           "NO_COLOR is set), always (NO_COLOR too), never; never in files "
                           "written with -o nor in formats other than text"),
    "metadata": _shared("--metadata", metavar="FILE",
                        help="shared-task metadata.json naming the pairs (default: "
                             "GOLD/metadata.json when present)"),
    "pairs": _shared("--pairs", action="append", default=[], metavar="FILE",
                     help="a list of 'GOLD SYSTEM [NAME]' lines, one system (no GOLD SYSTEM "
                          "paths then)"),
}


def _resampling_options() -> Dict[str, SharedOption]:
    """The significance tests' options; their defaults are imported here, not at the top:
    scoring a pair loads nothing of the analyses (start-up time)."""
    from ..analyze.defaults import CORRECTIONS, DEFAULT_RESAMPLES, DEFAULT_SEED  # start-up time
    return {
        "resamples": _shared("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="R",
                             help=f"bootstrap resamples and shuffles (default: {DEFAULT_RESAMPLES})"),
        "seed": _shared("--seed", type=int, default=DEFAULT_SEED,
                        help=f"random seed, in the signature (default: {DEFAULT_SEED})"),
        "alpha": _shared("--alpha", type=float, default=0.05,
                         help="significance level; intervals are 1 - alpha (default: 0.05)"),
        "correction": _shared("--correction", default="holm", choices=list(CORRECTIONS),
                              help="p-value correction over the pairs tested (default: holm)"),
    }


def shared_options() -> Dict[str, SharedOption]:
    """Every shared option, by argparse ``dest``."""
    return {**_SHARED, **_resampling_options()}


def __getattr__(name: str):
    """``SHARED_OPTIONS``: :func:`shared_options`, built when asked for (start-up time)."""
    if name == "SHARED_OPTIONS":
        return shared_options()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: the options of every command that scores CoNLL-U pairs (-w only where WeightedLAS is a
#: metric the command reports)
SCORING_OPTIONS = ("profile", "punct", "deprel", "strict")
#: the enhanced-dependency and empty-node switches (the IWPT scorer's and udeval's, and ours)
ENHANCED_OPTIONS = ("enhancements", "no_enhanced", "no_empty_nodes", "multiple_roots_okay",
                    "collapse_empty_nodes")
#: the options of every command with significance tests
RESAMPLING_OPTIONS = ("resamples", "seed", "alpha", "correction")


def add_options(parser: argparse.ArgumentParser, *names: str,
                notes: Optional[Mapping[str, str]] = None) -> None:
    """Add the shared options ``names`` (keys of :func:`shared_options`) to ``parser``;
    ``notes`` adds a command's sentence to an option's help."""
    notes = notes or {}
    unknown = set(notes) - set(names)
    if unknown:
        raise ValueError(f"notes for options not added: {sorted(unknown)}")
    options = shared_options() if set(names) & set(RESAMPLING_OPTIONS) else _SHARED
    for name in names:
        option = options[name]
        text = option.help + (f"; {notes[name]}" if name in notes else "")
        parser.add_argument(*option.flags, dest=name, help=text, **option.keywords)


def add_scoring_options(parser: argparse.ArgumentParser, weights_note: str = "") -> None:
    """--profile, -w, -o, --punct, --deprel (scoring a pair and a suite)."""
    add_options(parser, "profile", "weights", "output", "punct", "deprel",
                notes={"weights": weights_note.lstrip("; ")} if weights_note else None)


def scoring_settings(args, metrics: Sequence[str] = ()) -> Settings:
    """The Settings of the scoring options; ``metrics`` asked for beyond the profile's (LA)
    are scored too."""
    # here: the scoring stack (numpy) loads when a command scores, never for its help (start-up time)
    from ..evaluate import Settings
    return Settings(args.profile, args.weights, getattr(args, "strict", 0), args.punct, args.deprel,
                    enhancements=getattr(args, "enhancements", "0"),
                    enhanced=not getattr(args, "no_enhanced", False),
                    no_empty_nodes=bool(getattr(args, "no_empty_nodes", False)),
                    multiple_roots_okay=getattr(args, "multiple_roots_okay", False),
                    collapse_empty_nodes=getattr(args, "collapse_empty_nodes", False),
                    extra_metrics=tuple(m for m in metrics if m in EXTRA_METRICS))


def scoring_request(args, prog: str, scopes: Collection[str] = ("",)):
    """(settings, requested metrics, bars) of the scoring and report options: ``--metrics``
    and ``--fail-under`` name any metric the settings can score (LA too, WeightedLAS with
    -w), in any case; the metrics they name beyond the profile's are scored."""
    askable = known_metrics(scoring_settings(args), extra=True)
    requested = (metric_list(args.metrics, askable, "--metrics", prog)
                 if getattr(args, "metrics", None) else [])
    bars = (thresholds(args.fail_under, askable, prog, scopes)
            if getattr(args, "fail_under", None) else [])
    settings = scoring_settings(args, [*requested, *(bar.metric for bar in bars)])
    return settings, requested, bars


def evaluate_systems(gold_path: str, system_paths: Sequence[str], settings: Settings) -> list:
    """An Evaluation of each system file against the gold file, read once (every system into
    its vocabulary); with ``settings.strict`` every file is validated first and any error
    raises :class:`~conll_eval.errors.ValidationFailed` (their count, each class's first)
    before anything is scored, as scoring one pair with --strict does."""
    # here: the scoring stack (numpy) loads when a command scores, never for its help (start-up time)
    from ..evaluate import evaluate, validate_files
    from ..io.formats import CONLLU
    from ..io.read import read_treebank
    from ..metrics import load_weights
    from ..treebank import Vocab
    paths = [gold_path, *system_paths]
    if paths.count("-") > 1:
        raise UsageError("only one input can be read from stdin ('-')")
    # validated first, every error of every file at once; stdin then comes from its copy
    sources = validate_files(paths, settings.strict) if settings.strict else paths
    vocab = Vocab()
    options = {"multiple_roots": settings.multiple_roots_okay,
               "collapse": settings.collapse_empty_nodes}
    gold = read_treebank(sources[0], CONLLU, profile=settings.profile, vocab=vocab, **options)
    weights = load_weights(settings.weights_file) if settings.weights_file else None
    return [evaluate(gold, read_treebank(source, CONLLU, profile=settings.profile, vocab=vocab, **options),
                     settings, weights)
            for source in sources[1:]]


#: argparse dests that name files a command reads (GOLD, SYSTEM, -w, --pairs, --metadata,
#: tagger's --train, alignment's --source/--target/--pts, suite's PATHs): never an output
INPUT_DESTS = ("gold", "system", "systems", "paths", "weights", "pairs", "metadata", "train",
               "source", "target", "pts")


def named_inputs(args: argparse.Namespace, *pairings) -> List[str]:
    """Every file the command line ``args`` names as an input, and every file of the
    ``pairings`` (:class:`conll_eval.pairing.Pairing`: metadata.json or the pair list, gold
    and system files): what :func:`write_atomically` must never replace."""
    names: List[str] = []
    for dest in INPUT_DESTS:
        value = getattr(args, dest, None)
        if isinstance(value, str):
            names.append(value)
        elif value:
            names += [v for v in value if isinstance(v, str)]
    for pairing in pairings:
        names += pairing.files()
    return names


#: the delimited formats and their delimiters
DELIMITERS = {"tsv": "\t", "csv": ","}
#: formats that print --signature on stderr: a CSV is a plain table (header first, no comment
#: line) that csv.reader and pandas.read_csv take without options; TSV keeps its '# ' line
SIGNATURE_ON_STDERR = ("csv",)


def add_report_options(parser: argparse.ArgumentParser, metrics: str, fail_under: str,
                       signature: str) -> None:
    """--format, --metrics, --fail-under and --signature, each with the command's note."""
    add_options(parser, "format", "metrics", "fail_under", "signature",
                notes={"metrics": metrics, "fail_under": fail_under, "signature": signature})


def known_metrics(settings: Settings, extra: bool = False) -> List[str]:
    """The metric names the settings score, as printed (``UFeats``, ``WeightedLAS``); with
    ``extra`` also those that can be asked for (``LA``)."""
    names = [display_name(n) for n in profile_metrics(settings.profile,
                                                      weights=settings.weights_file is not None,
                                                      enhanced=settings.enhanced)]
    names += [m for m in settings.extra_metrics if m not in names]
    if extra:
        names += [m for m in EXTRA_METRICS if m not in names]
    return names


def canonical_metric(name: str, known: Sequence[str]) -> Optional[str]:
    """``las`` -> ``LAS``: the name among ``known`` equal to ``name`` but for case; None
    when there is none."""
    folded = name.strip().casefold()
    return next((m for m in known if m.casefold() == folded), None)


def metric_list(text: str, known: List[str], option: str, prog: str) -> List[str]:
    """``UAS,las`` -> the metrics in canonical spelling (``UAS``, ``LAS``), each once, in the
    given order; a usage error naming ``prog`` (the command) for an unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if canonical_metric(name, known) is None]
    if unknown or not names:
        raise UsageError(f"{prog}: {option}: unknown metric(s) {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(known)}")
    return list(dict.fromkeys(canonical_metric(name, known) for name in names))


def bar_metrics(text: str) -> List[str]:
    """The metric names a --fail-under value names (as written; checked by
    :func:`thresholds`), so that a bar on LA scores LA as --metrics LA would."""
    return [item.partition("=")[0].strip().rpartition(":")[2] for item in text.split(",")]


#: --fail-under scopes: a bar's prefix -> what it is checked against in a suite
BAR_SCOPES = {
    "": "every treebank whose gold file annotates the metric, and the macro-average",
    "macro": "the macro-average only",
    "micro": "the micro-average only (counts summed over treebanks, with or without --micro)",
}


class Bar(NamedTuple):
    """One --fail-under bar: ``macro:LAS=80`` = Bar("macro", "LAS", 80.0)."""

    scope: str
    metric: str
    value: float

    def __str__(self) -> str:
        return f"{self.scope + ':' if self.scope else ''}{self.metric}={self.value:g}"


def thresholds(text: str, known: List[str], prog: str, scopes: Collection[str] = ("",)) -> List[Bar]:
    """``LAS=80,macro:CLAS=75`` -> bars in percent; the prefixes allowed are ``scopes`` (keys
    of :data:`BAR_SCOPES`; one pair has none).  An empty item, or two bars on one metric in
    one scope (``LAS=80,LAS=10``: which holds would be a guess), is a usage error."""
    bars: List[Bar] = []
    for item in text.split(","):
        spec, sep, value = item.partition("=")
        scope, _, name = spec.strip().rpartition(":")
        if scope not in scopes:
            raise UsageError(f"{prog}: --fail-under: {item.strip()!r}: " + (
                "one pair has no averages, its bars take no prefix" if len(scopes) == 1 else
                f"the prefix can be {' or '.join(s + ':' for s in scopes if s)}"))
        name = canonical_metric(name, known) or name  # any case, printed canonically
        if not sep or name not in known:
            raise UsageError(f"{prog}: --fail-under: expected METRIC=PERCENT with METRIC one of "
                             f"{', '.join(known)}, got {item.strip()!r}")
        try:
            bar = float(value)
        except ValueError:
            raise UsageError(f"{prog}: --fail-under: {value.strip()!r} is not a number") from None
        if not 0 <= bar <= 100:
            raise UsageError(f"{prog}: --fail-under: {name}={bar:g} is not a percentage")
        earlier = next((b for b in bars if (b.scope, b.metric) == (scope, name)), None)
        if earlier is not None:  # which one holds would be a guess: say so instead
            raise UsageError(f"{prog}: --fail-under: {earlier} and {Bar(scope, name, bar)}: "
                             "two bars on one metric; give one")
        bars.append(Bar(scope, name, bar))
    return bars


def with_signature(text: str, output_format: str, signature: str, wanted: bool) -> str:
    """``text``, formatted with the signature where its format always carries one (text: the
    last line), with the signature where ``--signature`` (``wanted``) puts it in every
    command: the text's last line and a TSV's first ``# `` line only when wanted; JSON and
    Markdown keep theirs, a CSV has none (the command prints it on stderr)."""
    if output_format == "text" and not wanted and text.endswith(f"{signature}\n"):
        text = text[:len(text) - len(signature) - 1]
        return text[:-1] if text.endswith("\n\n") else text  # and the blank line before it
    if output_format == "tsv" and wanted:
        return f"# {signature}\n{text}"
    return text


def fraction_warning(bars: Sequence[Bar]) -> Optional[str]:
    """The warning for bars that look like fractions (every one at most 1, not all 0):
    ``LAS=0.8`` is a bar of 0.8 %."""
    if not bars or any(bar.value > 1 for bar in bars) or not any(bar.value for bar in bars):
        return None
    means = " and ".join(f"{bar} means {bar.value:g} %" for bar in bars)
    meant = ",".join(str(bar._replace(value=round(100 * bar.value, 10))) for bar in bars)
    return f"conll_eval: warning: --fail-under bars are percentages; {means}, did you mean {meant}?\n"


def meaningless_bar(prog: str, bar: object, why: str, option: str = "--fail-under") -> UsageError:
    """The usage error of a bar (``option``'s: a ``--fail-under`` Bar, compare's
    ``--fail-unless-better`` on a metric) on a number that means nothing (n/a): never a
    silent pass, never a failure against 0."""
    return UsageError(f"{prog}: {option}: {bar}: {why}; a bar on it means nothing "
                      "(drop it, or bar another metric)")


def below(label: str, metric: str, f1: float, bar: float) -> Optional[str]:
    """``en_ewt: LAS 79.99 < 80`` when ``f1`` as printed (percent, 2 decimals) is under the
    bar; None otherwise."""
    from ..report.tables import percent  # here: the report package loads the scoring stack (start-up time)
    shown = percent(f1)
    return f"{label}{metric} {shown} < {bar:g}" if float(shown) < bar else None


def is_terminal(stream) -> bool:
    """Is ``stream`` (possibly None: a closed descriptor) a terminal?"""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False


def progress_reporter(stderr: TextIO):
    """A one-line progress indicator on a terminal; None when stderr is piped."""
    if not is_terminal(stderr):
        return None

    def show(done: int, total: int, entry) -> None:
        stderr.write(f"\r\033[K[{done}/{total}] {printable(entry.name)}")
        if done == total:
            stderr.write("\r\033[K")
        stderr.flush()
    return show
