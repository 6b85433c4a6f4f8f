"""Settings, the evaluation of one gold/system pair, and its signature."""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, BinaryIO, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._version import __version__
from .align import Alignment, align_words, check_characters
from .compiled_counts import CompiledCounter
from .errors import ConllEvalError, InputError, UsageError, ValidationFailed
from .io.byte_input import open_input, stdin_binary
from .io.formats import CONLLU
from .io.lines import line_of, read_kept
from .io.read import read_treebank
from .metrics import (DEPREL_POLICIES, ENHANCED_METRICS, ENHANCEMENT_DIGITS, EnhancedOptions, EXTRA_METRICS, METRICS, PROFILES,
                      PUNCT_POLICIES,
                      EvaluationContext, compute_counts, display_name,
                      load_weights,
                      profile_metrics)
from .stats import Counts, Score
from .treebank import Treebank, Vocab
from .background import InBackground, usable_cpus

if TYPE_CHECKING:
    from .validate import ValidationIncident

__all__ = ["Settings", "Evaluation", "evaluate", "evaluate_files", "validate_pair",
           "validate_files", "scored_metrics", "gold_unannotated"]


@dataclass(frozen=True)
class Settings:
    """Every switch that changes a number; ``signature()`` names them for reproducibility.

    ``strict`` is the UD validation level both files must pass before scoring (0: none, as
    the official scorers; ``--strict``: 2; ``True`` means 2).  It changes numbers: in a suite
    a file that fails validation scores 0.
    """

    profile: str = "conll18"
    weights_file: Optional[str] = None
    strict: int = 0
    #: the older evaluations' policies (``--punct``, ``--deprel``); the defaults are the UD
    #: scorers' and change nothing
    punct: str = "include"
    deprel: str = "universal"
    #: metrics beyond the profile's rows (``LA``, ``ELAS``, ``EULAS``)
    extra_metrics: Tuple[str, ...] = ()
    #: the enhanced switches of the IWPT scorer and udeval (``--enhancements``,
    #: ``--no-enhanced``, ``--no-empty-nodes``, ``--multiple-roots-okay``)
    enhancements: str = "0"
    enhanced: bool = True
    no_empty_nodes: bool = False
    multiple_roots_okay: bool = False
    #: ``--collapse-empty-nodes``: paths through empty nodes become edges before reading
    #: (:mod:`conll_eval.empty_nodes`)
    collapse_empty_nodes: bool = False

    def __post_init__(self):
        if self.profile not in PROFILES:
            raise UsageError(f"unknown profile {self.profile!r}; choose one of {', '.join(PROFILES)}")
        if self.punct not in PUNCT_POLICIES:
            raise UsageError(f"unknown punctuation policy {self.punct!r}; choose one of "
                             f"{', '.join(PUNCT_POLICIES)}")
        if self.deprel not in DEPREL_POLICIES:
            raise UsageError(f"unknown relation policy {self.deprel!r}; choose one of "
                             f"{', '.join(DEPREL_POLICIES)}")
        unknown = [m for m in self.extra_metrics if m not in EXTRA_METRICS]
        if unknown:
            raise UsageError(f"unknown extra metric(s) {', '.join(unknown)}; choose from "
                             f"{', '.join(EXTRA_METRICS)}")
        if not self.enhancements or set(self.enhancements) - set("0" + "".join(ENHANCEMENT_DIGITS)):
            raise UsageError(f"--enhancements {self.enhancements!r}: expected digits 0-6 "
                             "(1 no gapping, 2 no shared parents, 3 no shared dependents, 4 no "
                             "control, 5 no external arguments, 6 no case information; 0 all)")
        if isinstance(self.strict, bool):
            object.__setattr__(self, "strict", STRICT_LEVEL if self.strict else 0)
        if self.strict not in range(STRICT_LEVEL + 1):
            raise UsageError(f"unknown validation level {self.strict!r}; choose 0 (none) to "
                             f"{STRICT_LEVEL}")

    def signature(self) -> str:
        """``conll_eval:0.1|profile:conll18|space:Zs|deprel:universal|...`` (sacrebleu style);
        ``|weights:file`` with a weights file, ``|strict:L2`` with validation first."""
        p = self.profile
        parts = [
            f"conll_eval:{__version__}",
            f"profile:{p}",
            f"space:{'ascii' if p == 'conll17' else 'Zs'}",
            f"deprel:{self.deprel}",
            f"feats:{'raw' if p == 'conll17' else 'universal'}",
            f"lemma_gold_underscore:{'literal' if p == 'conll17' else 'any'}",
            f"clas:{'weights2017' if p == 'conll17' else 'content2018'}",
        ]
        if self.weights_file is not None:
            parts.append("weights:file")
        if self.strict:
            parts.append(f"strict:L{self.strict}")
        if self.punct != "include":
            parts.append(f"punct:{self.punct}")
        if any(m in ENHANCED_METRICS for m in scored_metrics(self, False)):
            parts.append(f"elas:{PROFILES[p].enhanced}")
            if set(self.enhancements) - {"0"}:
                parts.append(f"enhancements:{''.join(sorted(set(self.enhancements) - {'0'}))}")
        if not self.enhanced and any(m in ENHANCED_METRICS for m in PROFILES[p].metrics):
            parts.append("enhanced:off")
        if self.no_empty_nodes:
            parts.append("empty_nodes:error")
        if self.multiple_roots_okay:
            parts.append("roots:multiple")
        if self.collapse_empty_nodes:
            parts.append("empty:collapsed")
        return "|".join(parts)

    @property
    def enhanced_options(self) -> EnhancedOptions:
        return EnhancedOptions(self.enhancements, self.no_empty_nodes)


#: compared derived column -> the file column it comes from (for "not annotated")
_RAW_COLUMN = {"upos": "upos", "xpos": "xpos", "feats": "feats", "ufeats": "feats",
               "lemma": "lemma", "lemma18": "lemma"}

#: the UD validation level ``--strict`` asks for (the highest this package implements)
STRICT_LEVEL = 2


@dataclass(frozen=True, eq=False)
class Evaluation:
    """The result for one pair: per metric the per-sentence Counts and the Score."""

    gold: Treebank
    system: Treebank
    settings: Settings
    alignment: Alignment
    counts: Dict[str, Counts]
    scores: Dict[str, Score] = field(default_factory=dict)

    def __post_init__(self):
        if not self.scores:
            for name, counts in self.counts.items():
                self.scores[display_name(name)] = counts.score()

    @property
    def signature(self) -> str:
        return self.settings.signature()

    def __getitem__(self, metric: str) -> Score:
        return self.scores[metric]

    def unannotated(self) -> Dict[str, str]:
        """Tag metric (UPOS, XPOS, UFeats/Feats, Lemmas, as printed) -> why its number means
        nothing: the column is ``_`` on every gold word (a treebank without XPOS, lemmas or
        features: the score reads 100.00; the reason starts with ``not annotated``), or on
        every system word (a system that predicts nothing there)."""
        notes = gold_unannotated(self.gold, self.counts)
        for name, column in _tag_columns(self.counts) + _enhanced_columns(self.counts):
            if display_name(name) not in notes and _all_underscore(self.system, column):
                notes[display_name(name)] = (f"the system predicts no {_column_label(column)} "
                                             "(every one is _)")
        return notes

    def exact_match(self) -> Dict[str, Tuple[int, int]]:
        """Per metric (as printed): (gold sentences all right, gold sentences); see
        :meth:`conll_eval.stats.Counts.exact_match`."""
        return {display_name(name): counts.exact_match() for name, counts in self.counts.items()}


def _tag_columns(names: Iterable[str]) -> List[Tuple[str, str]]:
    """(metric, file column) for the metrics that compare one tag alone: only those read
    100.00 when nobody annotates the tag."""
    pairs = []
    for name in names:
        spec = METRICS[name]
        if spec.head or len(spec.columns) != 1:
            continue
        pairs += [(name, column) for column in
                  sorted({_RAW_COLUMN[c] for c in spec.columns if c in _RAW_COLUMN})]
    return pairs


def _all_underscore(treebank: Treebank, column: str) -> bool:
    if column == "deps":  # imported here as in _check_enhanced (start-up time of the rest)
        from .enhanced import deps_all_underscore  # reads the DEPS bytes, interns nothing
        return deps_all_underscore(treebank)
    underscore = treebank.vocab.find("_")
    codes = treebank.column(column)
    # the first word first: most columns are annotated (a pass saved)
    return bool(len(codes)) and underscore >= 0 and codes[0] == underscore and \
        bool(np.all(codes == underscore))


def _column_label(column: str) -> str:
    return column.upper()


def gold_unannotated(gold: Treebank, names: Iterable[str]) -> Dict[str, str]:
    """Of the metrics ``names`` (registry names), the tag metrics (as printed) whose gold
    column is ``_`` on every word, each with ``not annotated: every gold XPOS is _``.

    The gold file alone decides: a failed system file does not change it (a suite's n/a)."""
    notes: Dict[str, str] = {}
    for name, column in _tag_columns(names) + _enhanced_columns(names):
        if display_name(name) not in notes and _all_underscore(gold, column):
            notes[display_name(name)] = f"not annotated: every gold {_column_label(column)} is _"
    return notes


def _enhanced_columns(names: Iterable[str]) -> List[Tuple[str, str]]:
    """(metric, "deps") for the enhanced metrics among ``names``: a file whose DEPS are all
    ``_`` has no enhanced graph, so ELAS/EULAS mean nothing (the scripts print 0.00)."""
    return [(name, "deps") for name in names if name in ENHANCED_METRICS]


def scored_metrics(settings: Settings, weights: bool) -> List[str]:
    """Registry names of what ``settings`` scores: the profile's rows (WeightedLAS with
    weights) and the extra metrics asked for."""
    names = profile_metrics(settings.profile, weights=weights, enhanced=settings.enhanced)
    return names + [m for m in settings.extra_metrics if m not in names]


#: From this many words (gold + system) the memory freed after aligning and after counting
#: is given back
TRIM_MIN_WORDS = 200_000


def evaluate(gold: Treebank, system: Treebank, settings: Settings = Settings(),
             weights: Optional[Mapping[str, float]] = None) -> Evaluation:
    """Score a system Treebank against a gold one (both read with the same Vocab)."""
    names = scored_metrics(settings, weights is not None or settings.weights_file is not None)
    enhanced = any(name in ENHANCED_METRICS for name in names)
    graphs = {}
    if enhanced or settings.no_empty_nodes:
        for side, treebank in (("gold", gold), ("system", system)):  # load-time errors: gold first
            graph = _check_enhanced(treebank, settings, enhanced)
            if graph is not None:
                graphs[side] = graph
    check_characters(gold, system)
    # the compiled counter does what it can in one pass (its alignment-free half beside the
    # alignment, on a large pair); the numpy metrics the rest
    counter = CompiledCounter(names, gold, system, settings.punct, settings.deprel)
    if counter.worth_a_thread:
        with InBackground(counter.count_alignment_free) as beside:
            alignment = align_words(gold, system)
        beside.result()
    else:
        alignment = align_words(gold, system)
        counter.count_alignment_free()
    large = gold.n_words + system.n_words >= TRIM_MIN_WORDS
    if large:
        release_freed_memory()  # the walk's temporaries: the metrics need the room
    if weights is None and settings.weights_file is not None:
        weights = load_weights(settings.weights_file)
    done = counter.counts(alignment)
    if large:
        release_freed_memory()  # the pair checks' and the tally's: the other metrics' room
    ctx = None
    counts = {}
    for name in names:
        if name not in done and ctx is None:
            ctx = EvaluationContext(gold, system, alignment, weights, settings.punct,
                                    settings.deprel)
            ctx.enhanced_mode = PROFILES[settings.profile].enhanced
            ctx.enhanced_options = settings.enhanced_options
            for side, graph in graphs.items():
                ctx._cache[(side, "enhanced")] = graph
        counts[name] = done[name] if name in done else compute_counts(METRICS[name], ctx)  # type: ignore[arg-type]  # set above
    return Evaluation(gold, system, settings, alignment, counts)


def _check_enhanced(treebank: Treebank, settings: Settings, enhanced: bool):
    """The enhanced graph when an enhanced metric is scored (None otherwise), after the
    --no-empty-nodes check; of two errors the one on the earlier line, as the scripts read."""
    # only when ELAS/EULAS are scored or empty nodes checked (start-up time of the rest)
    from .enhanced import check_empty_nodes, enhanced_graph
    errors = []
    graph = None
    if enhanced:
        try:
            graph = enhanced_graph(treebank, settings.enhanced_options)
        except InputError as exc:
            errors.append(exc)
    if settings.no_empty_nodes:
        try:
            check_empty_nodes(treebank, lambda line: _line_text(treebank.path, line))
        except InputError as exc:
            errors.append(exc)
    if errors:
        raise min(errors, key=lambda e: e.location.line or 0)
    return graph


def _line_text(path: str, line: int) -> str:
    """Line ``line`` of the file (only for an error message; '' where it cannot be read again),
    reading the file (decompressed) only up to that line, in bounded chunks."""
    try:
        stream, _ = open_input(path)
        with stream:
            return line_of(stream.read, path, line)
    except (ConllEvalError, OSError, IndexError):
        return ""


#: Below this combined size (bytes) a second thread costs more than it saves (reading a pair
#: took 7.5 ms in one thread and 8.1 in two at 1.5 MB, 14.7 and 12.0 ms at 3 MB; 2026-11-26)
PARALLEL_MIN_BYTES = 2_000_000


def _parallel_worth_it(paths) -> bool:
    if usable_cpus() < 2 or not all(isinstance(p, str) for p in paths):
        return False
    try:
        return all(os.path.isfile(p) for p in paths) and \
            sum(os.path.getsize(p) for p in paths) >= PARALLEL_MIN_BYTES
    except OSError:
        return False


Source = Union[str, BinaryIO]


def release_freed_memory() -> None:
    """Give the memory freed by reading back to the OS (glibc keeps it in its arenas, where
    scoring would not reuse all of it); a no-op where ``malloc_trim`` does not exist."""
    import ctypes  # here, not at the top: start-up time of every call
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc (macOS, musl, Windows)
        pass


def load_pair(gold_path: Source, system_path: Source, profile: str = "conll18",
              parallel: Optional[bool] = None, multiple_roots: bool = False,
              collapse: bool = False) -> Tuple[Treebank, Treebank]:
    """Read gold and system into one shared Vocab (equal codes mean equal strings);
    ``collapse``: their empty nodes collapsed first (``--collapse-empty-nodes``).

    Large files are read in two threads (numpy releases the GIL for the bulk of the
    work), the system file with its own Vocab, rebased afterwards.  Errors come in the
    official order: gold first.
    """
    vocab = Vocab()
    if parallel is None:
        parallel = _parallel_worth_it([gold_path, system_path])
    if not parallel:
        gold = read_treebank(gold_path, CONLLU, profile=profile, vocab=vocab,
                             multiple_roots=multiple_roots, collapse=collapse)
        system = read_treebank(system_path, CONLLU, profile=profile, vocab=vocab,
                               multiple_roots=multiple_roots, collapse=collapse)
    else:
        # gold's error, if any, goes up once the system's reading has ended (official order)
        with InBackground(read_treebank, system_path, CONLLU, profile=profile, vocab=Vocab(),
                          multiple_roots=multiple_roots, collapse=collapse) as pending:
            gold = read_treebank(gold_path, CONLLU, profile=profile, vocab=vocab,
                                 multiple_roots=multiple_roots, collapse=collapse)
        system = pending.result().rebased(vocab, in_place=True)
    vocab.drop_reader_state()  # no other file will be read into it
    if system.text == gold.text and system.text is not gold.text:
        system = replace(system, text=gold.text)  # one string for both (scoring needs equal texts)
    release_freed_memory()
    return gold, system


def validate_pair(gold_path: str, system_path: str, level: int = 2
                  ) -> Tuple[Source, Source]:
    """Validate both files (UD validator levels 1-``level``, each file on its own) and raise
    :class:`ValidationFailed` with their errors when there is any (see :func:`validate_files`).

    Returns what to read next for each file (see :func:`validate_files`).
    """
    gold, system = validate_files([gold_path, system_path], level)
    return gold, system


def validate_files(paths: Sequence[str], level: int = 2) -> List[Source]:
    """Validate each file on its own (UD validator levels 1-``level``) and raise
    :class:`ValidationFailed` when any has an error: its ``count`` is how many errors all of
    them have, its ``incidents`` a :class:`~conll_eval.validate.KeptIncidents` of them (each
    class's first 1,000 and a run of blank lines as one object: memory bounded whatever the
    files hold).

    Returns what to read next for each file: the path, or for stdin ('-') an in-memory copy
    (stdin can be read only once).  Files are streamed, so this costs one more read;
    compressed ones (gzip, bzip2, xz) are decompressed as the scorer reads them.  A missing
    or unreadable file, or a closed stdin, raises :class:`~conll_eval.errors.InputError`.
    """
    # the validator only loads when asked
    from .validate import KeptIncidents, iter_bytes_findings, iter_file_findings, wanted_found
    errors = KeptIncidents()
    sources: List[Source] = []
    for path in paths:
        if path == "-":
            data = read_kept(stdin_binary(), "-")  # lines bounded: an endless stdin ends
            found = iter_bytes_findings(data, "-", level)
            copy = io.BytesIO(data)
            copy.name = "-"
            sources.append(copy)
        else:
            found = iter_file_findings(path, level)
            sources.append(path)
        errors.extend(wanted_found(found, _is_error))
    if errors.total:
        raise ValidationFailed(errors, errors.total)
    return sources


def _is_error(incident: "ValidationIncident") -> bool:
    return incident.severity == "error"


def evaluate_files(gold_path: str, system_path: str, profile: str = "conll18",
                   weights: Optional[str] = None, strict: Union[bool, int] = False,
                   settings: Optional[Settings] = None) -> Evaluation:
    """Read and score one pair of CoNLL-U files ('-' = stdin for one of them).

    With ``strict`` both files must first pass validation levels 1-2 (see
    :func:`validate_pair`); otherwise only what the official scorer rejects is an error.

    >>> ev = evaluate_files("testdata/golden/identical/gold.conllu",
    ...                     "testdata/golden/identical/gold.conllu")  # doctest: +SKIP
    >>> ev.scores["LAS"].f1  # doctest: +SKIP
    1.0
    """
    if settings is None:  # the policies (punct, deprel, extra metrics) come with ``settings``
        settings = Settings(profile, weights, strict)
    else:
        profile, weights, strict = settings.profile, settings.weights_file, settings.strict
    weight_table = load_weights(weights) if weights is not None else None
    gold_source: Source = gold_path
    system_source: Source = system_path
    if strict:
        gold_source, system_source = validate_pair(gold_path, system_path)
    gold, system = load_pair(gold_source, system_source, profile,
                             multiple_roots=settings.multiple_roots_okay,
                             collapse=settings.collapse_empty_nodes)
    return evaluate(gold, system, settings, weight_table)
