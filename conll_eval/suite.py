"""Treebank suites: which gold file goes with which system file, every pair scored (in a
process pool), failures scored 0 with their reason, and the averages over treebanks.

The shared tasks rank systems by the macro-average over all test treebanks; a treebank whose
system file is missing or invalid counts 0 (REFERENCE.md b.5).  Three ways to name the pairs:

- ``metadata.json`` (the shared-task wrappers' file): a list of ``{"ltcode", "goldfile",
  "outfile"}`` (2017) or ``{"lcode", "tcode", "goldfile", "outfile"}`` (2018, name =
  ``lcode_tcode``); gold files relative to the metadata's directory, system files to the
  system directory.  An entry may say which enhancement types its treebank lacks
  (``"enhancements": "12"``, digits as ``--enhancements``): ``suite --qualitative`` switches
  them off for that treebank (IWPT 2020's qualitative scores).
- two directories, ``*.conllu`` paired by file name (sorted by name), else by treebank code
  (the name's part before the first ``-`` or ``.``: ``en_ewt-ud-test.conllu`` with
  ``en_ewt-ud-test.pred.conllu`` or ``en_ewt.conllu``) when that is unambiguous;
- a list file, one pair per line: ``GOLD SYSTEM [NAME]`` (``#`` comments; paths relative to
  the list's directory).

Lives beside :mod:`conll_eval.evaluate` rather than in it (the original design plan put
``evaluate_suite`` there): discovery, the pool and the failure statuses are a layer of their
own, and the single-pair path stays small.  The pairing (discovery) is in
:mod:`conll_eval.pairing`; its names stay importable from here.
"""
from __future__ import annotations

import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .errors import (AlignmentError, ConllEvalError, EmptyFileError, Location,
                     UsageError, printable)
from .evaluate import Settings, evaluate, gold_unannotated, scored_metrics, validate_pair
from .io.formats import CONLLU
from .io.read import read_treebank
from .io.swapped import swapped_evidence
from .metrics import METRICS, display_name, load_weights
from .pairing import (METADATA_FILE, Pairing, SuiteEntry, find_pairs, pair_directories, read_metadata,
                      read_pair_list, require_paths, treebank_code)
from .stats import Score
from .treebank import Treebank, Vocab
from .workers import run_tasks

__all__ = [
    "SuiteEntry", "Pairing", "Failure", "TreebankResult", "Average", "SuiteEvaluation",
    "pair_directories", "treebank_code", "read_metadata", "read_pair_list", "find_pairs", "score_entries",
    "evaluate_suite", "rank", "tira_status", "entry_settings", "METADATA_FILE", "MISSING_FILE", "missing_system_file",
    "require_paths",
]

# ---------------------------------------------------------------------------------------------
# Scoring one treebank (runs in a worker process)

@dataclass(frozen=True)
class Failure:
    """Why a treebank scored 0: which side, a stable code, ``path:line`` and the message.

    ``official`` is the shared-task wrapper's status string for the same failure;
    ``message`` is spelt out (:func:`~conll_eval.errors.printable`), one line.
    """

    side: str
    code: str
    message: str
    location: Location
    official: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class TreebankResult:
    """The scores of one treebank (all 0 when it failed) and, if it failed, why.

    When the system side failed but the gold file was read, the gold totals are kept
    (correct = system = 0), so micro-averages still count the gold words.
    """

    entry: SuiteEntry
    scores: Dict[str, Score]
    failure: Optional[Failure] = None
    seconds: float = 0.0
    #: tag metrics the gold file does not annotate (every value _): not averaged
    unannotated: Tuple[str, ...] = ()
    #: when asked for (significance tests): per metric the per-gold-sentence (correct, gold,
    #: system) counts, ``(sentences, 3)``; None when the treebank failed
    sentence_counts: Optional[Dict[str, np.ndarray]] = None
    #: what only the system file has when the files look swapped (io.swapped), else ()
    swapped: Tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def status(self) -> str:
        """``ok`` or the failure's message (``path:line: error [code] ...``)."""
        return "ok" if self.failure is None else self.failure.message


#: the wrapper's status strings (REFERENCE.md b.5)
TIRA_GOLD = "Error: Cannot load gold file"
TIRA_CYCLE = "Error: There is a cycle in generated CoNLL-U file"
TIRA_ROOTS = "Error: There are multiple roots in a sentence in generated CoNLL-U file"
TIRA_FORMAT = "Error: There is a format error (tabs, ID values, etc) in generated CoNLL-U file"
TIRA_OPEN = "Error: Cannot open generated CoNLL-U file"
TIRA_EMPTY = "Error: The system file is empty"
TIRA_INTERNAL = "Error: Cannot evaluate generated CoNLL-U file, internal error"
TIRA_TEXT = ("Error: The concatenation of tokens in gold file and in system file differ, system "
             "file has {n} nonspace characters, which is approximately {p}% of the gold file")


def _system_read_status(exc: ConllEvalError) -> str:
    """The wrapper tells UDErrors apart by their text; no official text = not a UDError."""
    official = getattr(exc, "official", None)
    if official is None:
        return TIRA_OPEN
    if official.startswith("There is a cycle"):
        return TIRA_CYCLE
    if official.startswith("There are multiple roots"):
        return TIRA_ROOTS
    return TIRA_FORMAT


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def _failure(side: str, exc: ConllEvalError, official: str) -> Failure:
    location = getattr(exc, "location", None) or Location("?")
    code = getattr(exc, "code", "invalid")
    return Failure(side, code, printable(_first_line(str(exc))), location, official)


def _zero_scores(metrics: Sequence[str], gold_scores: Optional[Mapping[str, Score]]) -> Dict[str, Score]:
    """All-zero scores of a failed treebank, keeping the gold totals when they are known."""
    scores = {}
    for name in metrics:
        spec = METRICS[name]
        shown = display_name(name)
        gold = gold_scores[shown].gold if gold_scores else 0
        scores[shown] = Score(0, gold, 0, None if spec.kind in ("tokens", "sentences") else 0,
                              spec.has_aligned_accuracy)
    return scores


def _missing_hint(entry: SuiteEntry) -> str:
    """What the missing-file message adds about the system files that could be the one."""
    if not entry.candidates:
        return ""
    code = treebank_code(entry.gold)
    listed = ", ".join(entry.candidates)
    if all(treebank_code(c) == code for c in entry.candidates):
        return (f"; not paired by its treebank code {code}, which is ambiguous: candidates "
                f"{listed} (rename the files, or name the pairs with --pairs)")
    return f"; did you mean {' or '.join(entry.candidates)}?"


#: the failure code of a treebank whose system file is absent from the system side of the
#: pairing (a path named on the command line that does not exist is ``file-not-found``)
MISSING_FILE = "missing-file"


def missing_system_file(entry: SuiteEntry) -> Optional[Failure]:
    """The ``missing-file`` failure of a treebank whose system file does not exist (with the
    files that could be it), or None when it exists.  ``suite`` and ``breakdown`` both use it."""
    if entry.system is not None and os.path.exists(entry.system):
        return None
    path = entry.system or f"(no system file for {entry.name})"
    message = f"{path}: error [{MISSING_FILE}] no system file for this treebank{_missing_hint(entry)}"
    return Failure("system", MISSING_FILE, printable(message), Location(path), TIRA_OPEN)


#: gold files read in this process, by file identity and profile: a leaderboard scores each
#: gold file once per system.  Kept up to this many words (the most recently used).
GOLD_CACHE_WORDS = 1_000_000
_gold_cache: "OrderedDict[tuple, Treebank]" = OrderedDict()


def _load_gold(path: str, profile: str, collapse: bool = False,
               multiple_roots: bool = False) -> Treebank:
    """The gold treebank of ``path``, read once while the file stays the same (its size,
    modification time and inode); the system is then read into its vocabulary.
    ``collapse``: its empty nodes collapsed first (``--collapse-empty-nodes``);
    ``multiple_roots``: several HEAD 0 words allowed (``--multiple-roots-okay``)."""
    try:
        st = os.stat(path)
        key: Optional[tuple] = (os.path.realpath(path), st.st_size, st.st_mtime_ns, st.st_ino,
                                profile, collapse, multiple_roots)
    except OSError:
        key = None  # load() says what is wrong
    if key is not None and key in _gold_cache:
        _gold_cache.move_to_end(key)
        return _gold_cache[key]
    gold = read_treebank(path, CONLLU, profile=profile, vocab=Vocab(), collapse=collapse,
                         multiple_roots=multiple_roots)
    if key is not None and gold.n_words <= GOLD_CACHE_WORDS:
        _gold_cache[key] = gold
        while sum(tb.n_words for tb in _gold_cache.values()) > GOLD_CACHE_WORDS:
            _gold_cache.popitem(last=False)
    return gold


def _score_entry(entry: SuiteEntry, settings: Settings, debug: bool = False,
                 sentence_metrics: Tuple[str, ...] = ()) -> TreebankResult:
    """Score one treebank; every input problem becomes a :class:`Failure`, never an exception
    (``debug`` lets unexpected exceptions through instead of recording an internal error).
    With ``settings.strict`` both files are validated first (at that level).
    ``sentence_metrics``: keep these metrics' per-sentence counts (``sentence_counts``)."""
    started = time.perf_counter()
    weights = load_weights(settings.weights_file) if settings.weights_file else None
    metrics = scored_metrics(settings, weights is not None)
    gold = system = None

    def failed(failure: Failure, gold_totals: bool = True, read_gold: bool = True) -> TreebankResult:
        """Zero scores; with the gold file read (here if need be and ``read_gold``), the tags
        it does not annotate (the gold file alone decides what is n/a, with or without
        --strict) and, for a failed system side, its totals (gold scored against itself)."""
        tree = gold if gold is not None or not read_gold else _gold_if_readable(entry, settings)
        gold_eval = evaluate(tree, tree, settings, weights) if tree is not None and \
            gold_totals and failure.side == "system" else None
        return TreebankResult(entry, _zero_scores(metrics, gold_eval and gold_eval.scores),
                              failure, time.perf_counter() - started,
                              tuple(gold_unannotated(tree, metrics)) if tree is not None else ())

    try:
        if settings.strict and entry.system is not None and os.path.exists(entry.system):
            try:
                validate_pair(entry.gold, entry.system, settings.strict)
            except ConllEvalError as exc:
                first = exc.incidents[0] if getattr(exc, "incidents", None) else None
                side = "gold" if first is not None and first.location.path == entry.gold else "system"
                message = (f"{first} ({exc.count} validation error(s) in all)"
                           if first is not None else str(exc))
                location = first.location if first is not None else Location(entry.system)
                code = first.code if first is not None else "validation-failed"
                return failed(Failure(side, code, message, location,
                                      TIRA_GOLD if side == "gold" else TIRA_FORMAT))
        try:
            gold = _load_gold(entry.gold, settings.profile, settings.collapse_empty_nodes,
                              settings.multiple_roots_okay)
            vocab = gold.vocab
        except ConllEvalError as exc:
            return failed(_failure("gold", exc, TIRA_GOLD), read_gold=False)
        missing = missing_system_file(entry)
        if missing is not None:
            return failed(missing)
        try:
            system = read_treebank(entry.system, CONLLU, profile=settings.profile, vocab=vocab,
                                   collapse=settings.collapse_empty_nodes,
                                   multiple_roots=settings.multiple_roots_okay)
        except ConllEvalError as exc:
            return failed(_failure("system", exc, _system_read_status(exc)))
        if not system.text or not gold.text:  # the pair scorer's empty-file error
            empty = EmptyFileError("system" if not system.text else "gold", Location(entry.gold),
                                   Location(entry.system))
            return failed(_failure(empty.side, empty,
                                   TIRA_EMPTY if empty.side == "system" else TIRA_INTERNAL))
        try:
            evaluation = evaluate(gold, system, settings, weights)
        except AlignmentError as exc:
            official = (TIRA_TEXT.format(n=len(system.text), p=int(100 * len(system.text) / len(gold.text)))
                        if gold.text else TIRA_INTERNAL)
            return failed(_failure("system", exc, official))
        return TreebankResult(entry, dict(evaluation.scores), None, time.perf_counter() - started,
                              tuple(gold_unannotated(gold, metrics)),
                              _sentence_counts(evaluation, sentence_metrics),
                              swapped_evidence(gold, system))
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - one treebank's bug must not lose the others
        if debug:
            raise
        where = entry.system if gold is not None else entry.gold
        return failed(Failure("system" if gold is not None else "gold", "internal",
                              f"{where}: error [internal] {type(exc).__name__}: {exc} "
                              "(please report it)", Location(where or entry.gold), TIRA_INTERNAL),
                      gold_totals=False, read_gold=False)  # scoring itself may be what broke


def _gold_if_readable(entry: SuiteEntry, settings: Settings) -> Optional[Treebank]:
    """The gold treebank, or None when it cannot be read (its annotation then is unknown
    and the failed treebank counts 0 in every average, as in the shared tasks)."""
    try:
        return _load_gold(entry.gold, settings.profile, settings.collapse_empty_nodes,
                          settings.multiple_roots_okay)
    except ConllEvalError:
        return None


def _sentence_counts(evaluation, metrics: Tuple[str, ...]) -> Optional[Dict[str, np.ndarray]]:
    if not metrics:
        return None
    by_name = {display_name(name): counts for name, counts in evaluation.counts.items()}
    return {m: by_name[m].by_sentence[:, :3].copy() for m in metrics if m in by_name}


def _task_size(entry: SuiteEntry) -> int:
    total = 0
    for path in (entry.gold, entry.system):
        try:
            total += os.path.getsize(path) if path else 0
        except OSError:
            pass
    return total


Progress = Callable[[int, int, SuiteEntry], None]


def _with_strict(settings: Settings, strict: bool) -> Settings:
    """``settings`` with validation first when ``strict`` asks for it and they do not."""
    return replace(settings, strict=True) if strict and not settings.strict else settings


def entry_settings(entry: SuiteEntry, settings: Settings, qualitative: bool) -> Settings:
    """The settings ``entry`` is scored with: ``qualitative`` adds the enhancement types its
    treebank lacks (``entry.enhancements``) to ``--enhancements`` (IWPT's qualitative scores)."""
    if not qualitative or not entry.enhancements:
        return settings
    digits = "".join(sorted(set(settings.enhancements + entry.enhancements) - {"0"}))
    return replace(settings, enhancements=digits)


def _score_task(entries: Tuple[SuiteEntry, ...], settings: Settings, debug: bool,
                sentence_metrics: Tuple[str, ...], qualitative: bool, k: int) -> TreebankResult:
    """Task ``k`` of :func:`score_entries` (module-level: picklable where workers are not forked)."""
    return _score_entry(entries[k], entry_settings(entries[k], settings, qualitative), debug,
                        sentence_metrics)


def score_entries(entries: Sequence[SuiteEntry], settings: Settings = Settings(), jobs: int = 1,
                  strict: bool = False, progress: Optional[Progress] = None,
                  debug: bool = False,
                  sentence_metrics: Sequence[str] = (),
                  qualitative: bool = False) -> List[TreebankResult]:
    """Score every entry; the results come back in the entries' order whatever ``jobs`` is.

    ``jobs`` > 1 scores in that many worker processes, the largest pairs first (shorter
    makespan); ``progress(done, total, entry)`` is called as each treebank finishes.
    ``strict=True`` is ``settings.strict`` = 2 (validation first; an invalid file scores 0).
    ``sentence_metrics``: the results keep these metrics' per-sentence counts.
    ``qualitative``: each entry scored with the enhancement types it lacks switched off
    (:func:`entry_settings`).
    """
    results: List[Optional[TreebankResult]] = [None] * len(entries)
    total = len(entries)
    done = 0

    def store(k: int, result: TreebankResult) -> None:
        nonlocal done
        results[k] = result
        done += 1
        if progress:
            progress(done, total, entries[k])

    task = partial(_score_task, tuple(entries), _with_strict(settings, strict), debug,
                   tuple(sentence_metrics), qualitative)
    if jobs <= 1 or total <= 1:
        for k in range(total):
            store(k, task(k))
        return results  # type: ignore[return-value]
    order = sorted(range(total), key=lambda k: -_task_size(entries[k]))
    lost = run_tasks(task, order, jobs, store)
    for k in lost:  # its worker died (killed, out of memory): scored here, no result is lost
        store(k, task(k))
    return results  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------------
# Averages and rankings

@dataclass(frozen=True)
class Average:
    """Mean of per-treebank precision, recall, F1 (and aligned accuracy where defined) over
    ``count`` treebanks, failed treebanks counting 0.  Over no treebank (no gold file
    annotates the tag) every value is None: n/a, never 0."""

    precision: Optional[float]
    recall: Optional[float]
    f1: Optional[float]
    aligned_accuracy: Optional[float]
    count: int

    @property
    def defined(self) -> bool:
        """Does the average mean something (is it over at least one treebank)?"""
        return self.count > 0

    def as_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "aligned_accuracy": self.aligned_accuracy, "treebanks": self.count}


def _mean(values: Sequence[float]) -> Optional[float]:
    return sum(values) / len(values) if values else None


def _average(results: Sequence[TreebankResult], metric: str, every: bool = False) -> Average:
    """The mean over ``results`` (failed ones count 0), leaving out treebanks that do not
    annotate ``metric``'s tag unless ``every`` (the shared-task wrapper's figure)."""
    scores = [r.scores[metric] for r in results if every or metric not in r.unannotated]
    accuracies = [s.aligned_accuracy for s in scores]
    return Average(_mean([s.precision for s in scores]), _mean([s.recall for s in scores]),
                   _mean([s.f1 for s in scores]),
                   None if all(a is None for a in accuracies) else
                   _mean([a or 0.0 for a in accuracies]), len(scores))


def _summed(results: Sequence[TreebankResult], metric: str) -> Optional[Score]:
    """The counts of ``results`` summed (those whose gold files annotate ``metric``), None
    (n/a) when none does."""
    scores = [r.scores[metric] for r in results if metric not in r.unannotated]
    if not scores:
        return None
    aligned = [s.aligned for s in scores if s.aligned is not None]
    return Score(sum(s.correct for s in scores), sum(s.gold for s in scores),
                 sum(s.system for s in scores), sum(aligned) if aligned else None,
                 scores[0].has_aligned_accuracy)


def _mean_of(values: Sequence[Tuple[float, float, float, Optional[float]]]) -> Average:
    """The mean of (precision, recall, F1, aligned accuracy) tuples; ``count`` = how many."""
    accuracies = [v[3] for v in values]
    return Average(_mean([v[0] for v in values]), _mean([v[1] for v in values]),
                   _mean([v[2] for v in values]),
                   None if all(a is None for a in accuracies) else
                   _mean([a or 0.0 for a in accuracies]), len(values))


@dataclass(frozen=True, eq=False)
class SuiteEvaluation:
    """One system over a suite: per-treebank results in suite order, and the averages.

    ``macro`` is the shared tasks' ranking figure: the mean over *all* treebanks, failed
    ones counting 0.  ``micro`` sums the counts over treebanks (a failed system side adds its
    gold totals; a failed gold file adds nothing).
    """

    system_name: str
    results: Tuple[TreebankResult, ...]
    settings: Settings
    unpaired_system: Tuple[str, ...] = ()
    metrics: Tuple[str, ...] = field(default=())
    #: scored with each treebank's lacking enhancement types off (``--qualitative``)
    qualitative: bool = False

    def __post_init__(self):
        if not self.metrics:
            names = scored_metrics(self.settings, self.settings.weights_file is not None)
            object.__setattr__(self, "metrics", tuple(display_name(n) for n in names))

    @property
    def failures(self) -> List[TreebankResult]:
        return [r for r in self.results if not r.ok]

    @cached_property
    def macro(self) -> Dict[str, Average]:
        """Per metric the mean over the treebanks (failed ones 0), a tag metric only over
        the treebanks that annotate it (``Average.count`` says over how many)."""
        return {m: _average(self.results, m) for m in self.metrics}

    @cached_property
    def official_macro(self) -> Dict[str, Average]:
        """The shared-task wrapper's mean: every treebank, annotated or not."""
        return {m: _average(self.results, m, every=True) for m in self.metrics}

    @cached_property
    def micro(self) -> Dict[str, Optional[Score]]:
        """Per metric the counts summed over the treebanks, a tag metric only over those
        whose gold files annotate it; None (n/a) where none does."""
        return {m: _summed(self.results, m) for m in self.metrics}

    def _languages(self) -> Dict[str, List[TreebankResult]]:
        groups: Dict[str, List[TreebankResult]] = {}
        for r in self.results:
            groups.setdefault(r.entry.language, []).append(r)
        return dict(sorted(groups.items()))

    def by_language(self) -> Dict[str, Dict[str, Average]]:
        """Macro-averages per language code, languages sorted."""
        return {lang: {m: _average(rs, m) for m in self.metrics}
                for lang, rs in self._languages().items()}

    def language_macro(self) -> Dict[str, Average]:
        """Per metric the mean over languages of their macro-averages (:meth:`by_language`;
        with ``qualitative`` the IWPT 2020 qualitative score: the mean of LAvgELAS).  A
        language whose average is n/a is left out; ``count`` = languages averaged."""
        languages = list(self.by_language().values())
        return {m: _mean_of([(a[m].precision, a[m].recall, a[m].f1, a[m].aligned_accuracy)
                             for a in languages if a[m].defined]) for m in self.metrics}

    @cached_property
    def coarse(self) -> Dict[str, Dict[str, Optional[Score]]]:
        """Per language (sorted) and metric the counts of its treebanks summed, as if its
        test sets were one file (IWPT 2020's "coarse" scores); None where no gold file of
        the language annotates the metric (a treebank without DEPS for ELAS)."""
        return {lang: {m: _summed(rs, m) for m in self.metrics}
                for lang, rs in self._languages().items()}

    @cached_property
    def coarse_macro(self) -> Dict[str, Average]:
        """Per metric the mean over languages of the :attr:`coarse` scores (the last line of
        IWPT 2020's coarse results); languages where it is n/a are left out."""
        return {m: _mean_of([(s.precision, s.recall, s.f1, s.aligned_accuracy)
                             for s in (scores[m] for scores in self.coarse.values())
                             if s is not None]) for m in self.metrics}

    @property
    def signature(self) -> str:
        qualitative = "|enhancements:per-treebank" if self.qualitative else ""
        return (f"{self.settings.signature()}{qualitative}|treebanks:{len(self.results)}"
                "|average:macro")


def evaluate_suite(pairing: Pairing, settings: Settings = Settings(), jobs: int = 1,
                   system_name: str = "system", strict: bool = False,
                   progress: Optional[Progress] = None,
                   qualitative: bool = False) -> SuiteEvaluation:
    """Score every treebank of ``pairing`` and return the suite's results (``strict=True``:
    see :func:`score_entries`; the results' settings and signature then say ``strict:L2``;
    ``qualitative``: each treebank without the enhancement types it lacks, see
    :func:`entry_settings`).

    Raises :class:`UsageError` for a suite without treebanks (an average over nothing).
    """
    if not pairing.entries:
        raise UsageError("the suite has no treebanks")
    settings = _with_strict(settings, strict)
    results = score_entries(pairing.entries, settings, jobs, progress=progress,
                            qualitative=qualitative)
    return SuiteEvaluation(system_name, tuple(results), settings, pairing.unpaired_system,
                           qualitative=qualitative)


def rank(suites: Sequence[SuiteEvaluation], metric: str) -> List[Tuple[int, SuiteEvaluation]]:
    """Systems by decreasing macro F1 of ``metric``; equal values share a rank (1, 2, 2, 4),
    ties keep the given order.  Raises :class:`UsageError` when the macro F1 is n/a for a
    system (no gold file annotates the tag): nothing to rank by."""
    undefined = [printable(s.system_name) for s in suites if s.macro[metric].f1 is None]
    if undefined:
        raise UsageError(f"no gold file annotates {metric} (every value is _), so its "
                         f"macro-average is n/a for {', '.join(undefined)}: nothing to rank by; "
                         "rank by another metric")
    keyed = sorted(enumerate(suites), key=lambda item: (-item[1].macro[metric].f1, item[0]))
    ranked: List[Tuple[int, SuiteEvaluation]] = []
    for position, (_, suite) in enumerate(keyed, 1):
        value = suite.macro[metric].f1
        if ranked and ranked[-1][1].macro[metric].f1 == value:
            ranked.append((ranked[-1][0], suite))
        else:
            ranked.append((position, suite))
    return ranked


def tira_status(result: TreebankResult, profile: str) -> str:
    """The shared-task wrapper's status string for one treebank (conll17 or conll18 form)."""
    if result.failure is not None:
        return result.failure.official
    if profile == "conll17":
        if result.scores["LAS"].f1 == 0:
            return "Error: Evaluated zero LAS F1 score"
        return "OK: Evaluated non-zero LAS F1 score"
    rounded = {m: round(100 * result.scores[m].f1 / 5) * 5 for m in ("LAS", "MLAS", "BLEX")}
    return ("OK: Result F1 scores rounded to 5% are LAS={LAS}% MLAS={MLAS}% BLEX={BLEX}%"
            .format(**rounded))
