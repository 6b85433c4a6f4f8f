"""MaltEval 1.0 evaluations -> table data: rows, cells, Row mean / Row count, sort and cut,
and the merging of one system file's evaluations into one table.

Nothing here formats text (that is :mod:`conll_eval.report.malteval`): a cell is a float
(NaN for 0/0), or an int for the integer columns (counts, Token 0/1 accuracies, the Sentence
flags), which MaltEval prints without the number pattern.

Scope: simple and complex groupings (keys of the latter: :mod:`conll_eval.analyze.complex`),
one gold file.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import java
from .complex import complex_keys
from .counting import AnalysisPair, Keys, group_counts, non_projective_arcs, word_correctness
from .groupings import grouping_keys, registry
from .options import Evaluation
from .positional import needs_accuracy_warning, post_process

__all__ = ["AnalysisCache", "TokenNumbers", "Result", "Table", "evaluate", "evaluation_keys", "kept_words",
           "label_order", "parameter_lines", "build_tables", "EXCLUDE_COLUMNS"]

#: Exclude* parameter -> the reader's column (PDEPREL, CoNLL-X column 10, lands in ``misc``)
EXCLUDE_COLUMNS = {"ExcludeWordforms": "form", "ExcludeLemmas": "lemma", "ExcludeCpostags": "upos",
                   "ExcludePostags": "xpos", "ExcludeFeats": "feats", "ExcludeDeprels": "deprel",
                   "ExcludePdeprels": "misc"}

Cell = float  # or int

NAN = math.nan


@dataclass
class Result:
    """One evaluation's table: row labels in key order, column name -> cells (one per row),
    column name -> (Row mean, Row count); ``order`` is the row order after sort and cut and
    ``more`` the number of rows the cut left out."""

    evaluation: Evaluation
    labels: List[str]
    columns: Dict[str, List[Cell]]
    means: Dict[str, Tuple[float, int]]
    order: List[int] = field(default_factory=list)
    more: int = 0
    #: per row (key order): the words counted on each side and those correct (None when the
    #: rows are not groups of words, e.g. PreAndPost's)
    counters: Optional[Dict[str, List[int]]] = None
    row_heading: str = ""
    #: MaltEval warns that the evaluation lacks ``accuracy`` (PreAndPost, Clustering2)
    warning: bool = False


@dataclass
class Table:
    """What one printed table holds: the header lines (``Param-> value``), the column headers
    with their cells, the row heading, Row mean / Row count when shown, the rows in print order
    and the ``N more...`` count (None: no such line)."""

    header_lines: List[str]
    headers: List[str]
    cells: List[List[Cell]]         # per column, per row (print order)
    means: List[Tuple[float, int]]  # per column
    row_heading: str
    labels: List[str]               # print order
    show_means: bool
    show_details: bool
    more: Optional[int]
    #: unmerged tables size their columns on every row, the cut ones too (empty: ``cells``)
    all_cells: List[List[Cell]] = field(default_factory=list)
    all_labels: List[str] = field(default_factory=list)
    #: a line above the column headers (shown with header info), e.g. "Confusion table for X"
    caption: Optional[str] = None
    #: per row (print order) the words counted on each side and those correct, for tables of
    #: one evaluation (not printed: :mod:`conll_eval.report.malteval`'s JSON gives them)
    counters: Optional[Dict[str, List[int]]] = None


# ---- selection of words -------------------------------------------------------------------

class TokenNumbers:
    """MaltEval's Token keys: one number per word place (sentence number in its file, position
    in the sentence), given in order of first use over a whole run -- every evaluation, system
    file and fold -- and only to words that are counted (kept on some side).  A place keeps its
    number, so with exclusions or folds the numbers are not the word's rank in the file."""

    _SHIFT = 24  # positions < 2**24 within a sentence

    def __init__(self) -> None:
        self._places = np.zeros(0, dtype=np.int64)   # sorted
        self._numbers = np.zeros(0, dtype=np.int64)  # aligned with _places
        self._next = 1

    def _place(self, side) -> np.ndarray:
        own_sentence = np.asarray(side.treebank.word_sent, dtype=np.int64)
        return (own_sentence << self._SHIFT) + side.position

    def keys(self, pair: AnalysisPair, gold_kept: np.ndarray, sys_kept: np.ndarray):
        gold_place, sys_place = self._place(pair.gold), self._place(pair.system)
        used = np.unique(np.concatenate([gold_place[gold_kept], sys_place[sys_kept]]))
        new = used[~np.isin(used, self._places)]  # numbered in place order
        if len(new):
            numbers = np.arange(self._next, self._next + len(new), dtype=np.int64)
            self._next += len(new)
            places = np.concatenate([self._places, new])
            order = np.argsort(places, kind="stable")
            self._places = places[order]
            self._numbers = np.concatenate([self._numbers, numbers])[order]

        def lookup(place: np.ndarray) -> np.ndarray:
            if not len(self._places):
                return np.zeros(len(place), dtype=np.int64)
            at = np.minimum(np.searchsorted(self._places, place), len(self._places) - 1)
            return np.where(self._places[at] == place, self._numbers[at], 0)

        return Keys(lookup(gold_place), lookup(sys_place), True)


class AnalysisCache:
    """Per pair: keys, correctness and flags shared by the evaluations of one run.

    ``remove`` is MaltEval's hidden ``--remove``: ``Projective`` (``NonProjective``) leaves out
    every gold sentence whose gold tree is projective (non-projective), with the system words
    in it, before anything is counted; Sentence keys keep their numbers."""

    def __init__(self, pair: AnalysisPair, remove: str = "None",
                 token_numbers: Optional["TokenNumbers"] = None):
        self.pair = pair
        self.token_numbers = TokenNumbers() if token_numbers is None else token_numbers
        self.vocab = pair.gold.vocab
        self._keys: Dict[str, object] = {}
        self._ok: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        self._punct: Optional[np.ndarray] = None
        self._projective: Dict[int, np.ndarray] = {}
        self.sentences = np.ones(len(pair.gold_length), dtype=bool)  # gold sentences scored
        if remove != "None":
            projective = self.gold_projective_sentences()
            self.sentences = ~projective if remove == "Projective" else projective

    def gold_projective_sentences(self) -> np.ndarray:
        """Per gold sentence: is its gold tree projective (no word's arc non-projective)?"""
        return self.projective_sentences(self.pair.gold)

    def projective_sentences(self, side) -> np.ndarray:
        """Per gold sentence: does no word of ``side`` in it have a non-projective arc?
        (MaltEval's sentence-level test, which has no off-by-one.)"""
        key = id(side)
        if key not in self._projective:
            flags = non_projective_arcs(side)
            self._projective[key] = np.bincount(side.gold_sentence[flags == 1],
                                                minlength=len(self.pair.gold_length)) == 0
        return self._projective[key]

    def keys(self, name):
        if name not in self._keys:
            self._keys[name] = grouping_keys(name, self.pair)
        return self._keys[name]

    def complex_keys(self, parts):
        """Keys of a complex grouping (:mod:`conll_eval.analyze.complex`), cached by its parts."""
        if parts not in self._keys:
            self._keys[parts] = complex_keys(parts, self.pair)
        return self._keys[parts]

    def correctness(self, metric: str):
        if metric not in self._ok:
            grouping = registry().get(metric)
            if grouping is not None and grouping.self_metric == "BothRight":
                # a grouping named as the metric whose own test is a metric's (BothRight)
                self._ok[metric] = self.correctness(grouping.self_metric)
            elif grouping is not None:
                self._ok[metric] = word_correctness("self", self.pair, self.keys(metric))
            else:
                self._ok[metric] = word_correctness(metric, self.pair)
        return self._ok[metric]

    def punctuation(self) -> np.ndarray:
        """Per Vocab code: is the string all Unicode punctuation (Java's P* categories)?"""
        if self._punct is None or len(self._punct) < len(self.vocab.strings):
            self._punct = np.array(java.punctuation_flags(self.vocab.strings), dtype=bool)
        return self._punct


def _codes(vocab, values) -> np.ndarray:
    codes = (vocab.find(v) for v in values)  # look up without interning
    return np.array([c for c in codes if c >= 0], dtype=np.int64)


def kept_words(evaluation: Evaluation, cache: AnalysisCache) -> Tuple[np.ndarray, np.ndarray]:
    """Words kept on the gold and the system side: the sentence-length window (whole gold
    sentences), then the exclusions, each side on its own values."""
    pair = cache.pair
    lengths = pair.gold_length
    window = cache.sentences.copy()
    if evaluation.min_sentence_length > 0:
        window &= lengths >= evaluation.min_sentence_length
    if evaluation.max_sentence_length > 0:
        window &= lengths <= evaluation.max_sentence_length
    kept = []
    for side in (pair.gold, pair.system):
        keep = window[side.gold_sentence] if len(window) else np.zeros(0, dtype=bool)
        for name, values in evaluation.exclude:
            column = side.string_column(EXCLUDE_COLUMNS[name])  # first: it may add strings
            codes = _codes(cache.vocab, values)
            if len(codes):
                keep = keep & ~np.isin(column, codes)
        if evaluation.exclude_unicode_punc:
            forms = side.string_column("form")  # first: a lazy column may add strings
            keep = keep & ~cache.punctuation()[forms]
        kept.append(keep)
    return kept[0], kept[1]


# ---- one evaluation -----------------------------------------------------------------------

def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b > 0, a / np.maximum(b, 1), np.nan)


def _fscore(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        f = 2 * p * r / (p + r)
    return np.where(np.isnan(p) | np.isnan(r) | (p + r == 0), np.nan, f)


def _counter_columns(tt, tc, pt, pc) -> Dict[str, Tuple[np.ndarray, bool]]:
    """column -> (values, integer?) from the four counters."""
    p, r = _ratio(pc, pt), _ratio(tc, tt)
    return {
        "accuracy": (p, False), "parseraccuracy": (p, False), "precision": (p, False),
        "treebankaccuracy": (r, False), "recall": (r, False), "fscore": (_fscore(p, r), False),
        "counter": (tt, True), "treebankcounter": (tt, True), "correctcounter": (tc, True),
        "treebankcorrectcounter": (tc, True), "parsercounter": (pt, True),
        "parsercorrectcounter": (pc, True),
    }


def label_order(labels: List[str], numeric: bool) -> List[int]:
    if numeric:
        return list(range(len(labels)))  # np.unique sorted them
    return sorted(range(len(labels)), key=lambda i: java.java_compare_key(labels[i]))


def _sentence_flags(side, sentences: np.ndarray, cache: AnalysisCache, tag: str) -> Dict[str, np.ndarray]:
    """Per gold sentence in ``sentences`` (0-based): connected (one root), cycle, projective."""
    n_sent = len(cache.pair.gold_length)
    head = side.head
    roots = np.bincount(side.gold_sentence[head < 0], minlength=n_sent)
    projective = cache.projective_sentences(side)
    return {f"is{tag}connected": (roots[sentences] == 1).astype(np.int64),
            f"has{tag}cycle": np.zeros(len(sentences), dtype=np.int64),
            f"is{tag}projective": projective[sentences].astype(np.int64)}


def evaluation_keys(evaluation: Evaluation, cache: AnalysisCache,
                    kept: Optional[Tuple[np.ndarray, np.ndarray]] = None):
    """The group keys of the evaluation's grouping (simple or complex) for both sides; Token
    numbers depend on the words kept (``kept``, default: :func:`kept_words`)."""
    if evaluation.grouping.name == "Token" and not evaluation.grouping.is_complex:
        gold_kept, sys_kept = kept if kept is not None else kept_words(evaluation, cache)
        return cache.token_numbers.keys(cache.pair, gold_kept, sys_kept)
    if evaluation.grouping.is_complex:
        return cache.complex_keys(evaluation.grouping.parts)
    if evaluation.grouping.name in registry():
        return cache.keys(evaluation.grouping.name)
    raise NotImplementedError(f"analyze: the grouping {evaluation.grouping.value} is not "
                              f"supported yet")


def evaluate(evaluation: Evaluation, cache: AnalysisCache) -> Result:
    """The rows and cells of one evaluation (simple or complex grouping)."""
    grouping = evaluation.grouping.name
    gold_kept, sys_kept = kept_words(evaluation, cache)
    keys = evaluation_keys(evaluation, cache, (gold_kept, sys_kept))
    gold_ok, sys_ok = cache.correctness(evaluation.metric)
    counts = group_counts(keys, gold_ok, sys_ok, gold_kept, sys_kept)
    labels = [keys.label(cache.vocab, k) for k in counts.keys]
    order = label_order(labels, counts.numeric)
    labels = [labels[i] for i in order]
    tt, tc, pt, pc = (np.asarray(a)[order] for a in (
        counts.treebank_total, counts.treebank_correct, counts.parser_total, counts.parser_correct))
    available = _counter_columns(tt, tc, pt, pc)
    if grouping == "Token":
        available["accuracy"] = (available["accuracy"][0], True)
    if grouping == "Sentence":
        sentences = np.asarray(counts.keys)[order] - 1
        lengths = cache.pair.gold_length[sentences]
        available.update({
            "exactmatch": (np.where(pt > 0, (pc == pt).astype(float), np.nan), True),
            "correctcounter": (tc, True), "includedtokenscount": (tt, True),
            "sentencelength": (lengths, True), "id": (sentences + 1, True)})
        available.update({k: (v, True) for k, v in
                          _sentence_flags(cache.pair.system, sentences, cache, "parser").items()})
        available.update({k: (v, True) for k, v in
                          _sentence_flags(cache.pair.gold, sentences, cache, "treebank").items()})
    columns: Dict[str, List[Cell]] = {}
    means: Dict[str, Tuple[float, int]] = {}
    for name in evaluation.columns.names:
        values, integer = available[name]
        values = np.asarray(values, dtype=float)
        defined = ~np.isnan(values)
        count = int(defined.sum())
        means[name] = (float(values[defined].mean()) if count else NAN, count)
        columns[name] = [int(v) if integer and not math.isnan(v) else float(v)
                         for v in values.tolist()]
    counters = {"treebank": tt.tolist(), "treebank_correct": tc.tolist(), "parser": pt.tolist(),
                "parser_correct": pc.tolist()}
    result = Result(evaluation, labels, columns, means, counters=counters,
                    row_heading=grouping)
    folded = post_process(grouping, labels, list(evaluation.columns.names), columns)
    if folded is not None:  # PreAndPost, Clustering, Clustering2: the per-word table folded
        result = Result(evaluation, folded.labels, folded.columns,
                        {name: (NAN, 0) for name in folded.columns}, row_heading=folded.row_title,
                        warning=needs_accuracy_warning(grouping, evaluation.columns.names))
    result.order, result.more = _sort_and_cut(result, evaluation)
    return result


def _sort_and_cut(result: Result, evaluation: Evaluation) -> Tuple[List[int], int]:
    columns = evaluation.columns
    rows = list(range(len(result.labels)))
    if columns.sort_by is not None:
        if columns.sort_by in result.columns:
            values = [math.inf if math.isnan(v) else v for v in result.columns[columns.sort_by]]
            rows = sorted(rows, key=lambda i: -values[i])  # descending, ties in key order
            if columns.ascending:
                rows.reverse()
        else:  # the row heading, compared as a string even for numeric keys (a Java TreeMap)
            rows = sorted(rows, key=lambda i: java.java_compare_key(result.labels[i]),
                          reverse=not columns.ascending)
    more = 0
    if columns.cut is not None and columns.cut < len(rows):
        more = len(rows) - columns.cut
        rows = rows[:columns.cut]
    return rows, more


# ---- tables -------------------------------------------------------------------------------

def parameter_lines(parameters: Sequence[Tuple[str, str, str]], with_format: bool) -> List[str]:
    by_name = {name: (value, fmt) for name, value, fmt in parameters}
    lines = []
    for name in java.hashmap_order(list(by_name)):
        value, fmt = by_name[name]
        lines.append(f"{name}-> {value}" + (f":{fmt}" if with_format and fmt else ""))
    return lines


def build_tables(results: List[Result], formatting, merge: bool) -> List[Table]:
    """One system file's results -> its tables: merged into one when ``merge`` and all print
    the same rows (after their sort and cut) under the same heading, else one table per
    evaluation.  (MaltEval skips the first row in that test and then aborts when only it
    differs; such tables are left unmerged here.)"""
    if not results:
        return []
    printed = [[r.labels[i] for i in r.order] for r in results]
    if merge and all(p == printed[0] and r.row_heading == results[0].row_heading
                     for p, r in zip(printed, results)):
        return [_merged(results, formatting)]
    tables = []
    for r in results:
        e = r.evaluation
        names = list(r.columns)
        tables.append(Table(
            parameter_lines(e.parameters, True), names,
            [[r.columns[n][i] for i in r.order] for n in names],
            [r.means[n] for n in names], r.row_heading, [r.labels[i] for i in r.order],
            e.show_table_header(formatting), e.show_details(formatting),
            r.more if e.columns.cut is not None else None,
            [r.columns[n] for n in names], r.labels,
            counters=None if r.counters is None else
            {side: [values[i] for i in r.order] for side, values in r.counters.items()}))
    return tables


def _merged(results: List[Result], formatting) -> Table:
    values: Dict[str, List[str]] = {}
    for r in results:
        for name, value, _ in r.evaluation.parameters:
            if value not in values.setdefault(name, []):
                values[name].append(value)
    varying = [n for n, v in values.items() if len(v) > 1]
    fixed = [p for p in results[0].evaluation.parameters if p[0] not in varying]
    headers, cells, means = [], [], []
    first = results[0]
    order = first.order  # every result prints its rows in this order
    for r in results:
        e = r.evaluation
        given = {name: value for name, value, _ in e.parameters}
        suffix = ", ".join(f"{n}:{given[n]}" for n in java.hashmap_order(varying))
        for name in r.columns:
            headers.append(f"{name} / {suffix}")
            cells.append([r.columns[name][i] for i in order])
            means.append(r.means[name])
    e = first.evaluation
    return Table(parameter_lines(fixed, False), headers, cells, means, first.row_heading,
                 [first.labels[i] for i in order],
                 any(r.evaluation.show_table_header(formatting) for r in results),
                 any(r.evaluation.show_details(formatting) for r in results), None)
