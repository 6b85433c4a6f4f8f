"""One MaltEval command from settings to output items: reads the pairs (one gold file, several
systems, cross-validation folds or their concatenation), evaluates, and lays out in MaltEval's
order every header block, table and line it prints, as data.

:mod:`conll_eval.report.malteval` turns the items into MaltEval's text; nothing here formats
numbers.  Where MaltEval aborts, :class:`Aborted` carries its message.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..align import align_words, check_characters
from ..errors import AlignmentError, InputError
from ..evaluate import load_pair, release_freed_memory
from ..io.formats import CONLLU, CONLLX, InputFormat, detect_format
from ..io.malt import CHARSET_UNDECODABLE, CONLLX_COLUMNS
from ..io.read import precheck, read_concatenated, read_treebank
from ..treebank import Vocab
from .confusion import confusion_tables
from .counting import AnalysisPair
from .options import Evaluation, Formatting, Settings, validate_evaluations
from .positional import ACCURACY_WARNING
from .significance import FIVE_PERCENT_Z, ONE_PERCENT_Z, mcnemar_sections
from .tables import AnalysisCache, Result, Table, TokenNumbers, build_tables, evaluate, parameter_lines

__all__ = ["Header", "Text", "Item", "Aborted", "run", "CONCAT_GOLD", "CONCAT_SYSTEM"]

#: ``--deprel universal``: compare relations without subtypes (otherwise --deprel names a
#: MaltEval tag-list file)
UNIVERSAL = "universal"
#: the names MaltEval gives the concatenated files of ``--micro-average 1``
CONCAT_GOLD, CONCAT_SYSTEM = "concat_gs", "concat_parsed"


@dataclass(frozen=True)
class Header:
    """The block above a table (printed only with header info): the files and the lines.
    ``file`` names the result file this block starts when ``--output`` is a directory
    (MaltEval's ``<system>.res``, ``<system>.<n>.res``, ``cs_aggr.<n>.res``, ``mcnemar.res``)."""

    gold: str
    system: str
    lines: Tuple[str, ...]
    file: str = ""


def result_file(stem: str, number: int = -1) -> str:
    """MaltEval's result-file name: the stem's last path part, the evaluation number unless
    -1, ``res``."""
    base = stem.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{base}.{number}.res" if number != -1 else f"{base}.res"


@dataclass(frozen=True)
class Text:
    """Lines MaltEval prints whatever the header-info flag says (McNemar's settings)."""

    text: str


Item = Union[Header, Table, Text]


class Aborted(Exception):
    """MaltEval's ``Evaluation aborted: <message>``; ``usage`` tells a command-line problem
    from bad input."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.message = message
        self.usage = usage


# ---- reading --------------------------------------------------------------------------------

def _aborted(exc: InputError) -> Aborted:
    """MaltEval's abort for a file it cannot read: its own message (where known) over ours."""
    if exc.code == CONLLX_COLUMNS:
        return Aborted(f"{exc.official}\n({exc.location}: {exc.message})")
    if exc.code == CHARSET_UNDECODABLE:
        return Aborted(f"{exc.location}: {exc.message}")
    official = getattr(exc, "official", None)
    return Aborted(f"{official}\n({exc})" if official else str(exc))


def _check_file(told: InputFormat) -> None:
    """The checks that need no reader, MaltEval's first: the file exists, then a CoNLL-X
    file's lines have their 10 columns (:func:`~conll_eval.io.read.precheck`)."""
    if not os.path.isfile(told.path):
        raise Aborted(f"{told.path} (No such file or directory)")
    try:
        precheck(told)
    except InputError as exc:
        raise _aborted(exc) from None


def _read_files(sources: Sequence[InputFormat], name: str, vocab, charset: Optional[str] = None):
    """One treebank from ``sources`` (several: concatenated, sentences numbered on), each in
    the format told once (CoNLL-X files checked as MaltEval reads them, CoNLL-U files
    (:data:`~conll_eval.io.formats.CONLLU_SUFFIXES`) with the conll_eval reader's own errors);
    the files must exist first."""
    for told in sources:
        if not os.path.isfile(told.path):
            raise Aborted(f"{told.path} (No such file or directory)")
    try:
        if len(sources) == 1:
            return read_treebank(sources[0].path, sources[0], charset, vocab=vocab)
        return read_concatenated(sources, name, charset, vocab=vocab)
    except InputError as exc:
        raise _aborted(exc) from None


def _check_same_text(gold, system, gold_name: str, system_name: str) -> None:
    """MaltEval's checks: the same number of sentences, then per sentence its length and
    its words' FORMs (the first differing sentence is named, 0-based)."""
    gold_starts = np.asarray(gold.sent_word_start, dtype=np.int64)
    sys_starts = np.asarray(system.sent_word_start, dtype=np.int64)
    if len(gold_starts) != len(sys_starts):
        raise Aborted(f"the data file '{system_name}' and treebank '{gold_name}' do not contain "
                      f"the same text; different number of sentences")
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
        raise Aborted(f"the processed data '{system_name}' and the corpus data '{gold_name}' do "
                      f"not contain the same text. (sentence {first_bad})")


def told_formats(paths: Sequence[str]) -> Dict[str, InputFormat]:
    """Each file's format, told once (:func:`~conll_eval.io.formats.detect_format`: by the
    name, as MaltEval tells it) for every pair it is read in."""
    return {path: detect_format(path) for path in dict.fromkeys(paths)}


def read_pair(gold_paths: Sequence[Union[str, InputFormat]], system_paths: Sequence[Union[str, InputFormat]],
              gold_name: str, system_name: str, charset: Optional[str] = None,
              universal_deprel: bool = False):
    """Read and align one pair (each side one file or several concatenated; a file given as
    its path or as the :class:`~conll_eval.io.formats.InputFormat` told before).  When a side
    is CoNLL-U the words are aligned as the CoNLL 2018 scorer aligns them (tokenization and
    sentence splits may differ; only the characters must agree); otherwise MaltEval's rule
    holds: the same sentences and FORMs."""
    gold_sources = [_told(path) for path in gold_paths]
    system_sources = [_told(path) for path in system_paths]
    both = [*gold_sources, *system_sources]
    single = (len(gold_sources) == len(system_sources) == 1 and not charset
              and all(told.name in (CONLLU, CONLLX) for told in both))
    if single:  # the scorer's reading: both files at once, freed memory given back
        for told in both:
            _check_file(told)
        try:
            # one file after the other: the analyses have time to spare (within 2x the
            # scorer's) but should not need more memory than it (its threads overlap reading)
            gold, system = load_pair(gold_sources[0].path, system_sources[0].path, parallel=False)
        except InputError as exc:
            raise Aborted(str(exc)) from None
    else:
        vocab = Vocab()
        gold = _read_files(gold_sources, gold_name, vocab, charset)
        system = _read_files(system_sources, system_name, vocab, charset)
    if any(told.name == CONLLU for told in both):
        try:
            check_characters(gold, system)
        except AlignmentError as exc:
            raise Aborted(str(exc)) from None
    else:
        _check_same_text(gold, system, gold_name, system_name)
    pair = AnalysisPair.from_treebanks(gold, system, align_words(gold, system), universal_deprel)
    release_freed_memory()
    return pair


def _told(path: Union[str, InputFormat]) -> InputFormat:
    return path if isinstance(path, InputFormat) else detect_format(path)


def _check_tag_list(path: Optional[str]) -> None:
    """``--postag``/``--deprel`` name tag-list files, which MaltEval reads but whose tags
    change no number; a file that cannot be read stops the run, as in MaltEval."""
    if path is None:
        return
    if not os.path.isfile(path):
        raise Aborted(f"The file {path} doesn't exist")
    try:
        with open(path, "rb") as handle:
            handle.read(1)
    except OSError as exc:
        raise Aborted(f"{path}: cannot be read ({exc.strerror})") from None


# ---- the run --------------------------------------------------------------------------------

def _pairs(settings: Settings) -> List[Tuple[List[str], List[str], str, str]]:
    """(gold files, system files, gold name, system name) of each pair, in MaltEval's order
    (:func:`~conll_eval.analyze.options.parse_args` has checked the file counts)."""
    golds, systems = list(settings.gold_files), list(settings.system_files)
    micro = settings.formatting.micro_average
    if len(golds) == 1:
        return [([golds[0]], [s], golds[0], s) for s in systems]
    if micro:
        return [(golds, systems, CONCAT_GOLD, CONCAT_SYSTEM)]
    return [([g], [s], g, s) for g, s in zip(golds, systems)]


def _optional(value: Optional[bool], default: bool) -> bool:
    return default if value is None else value


def _mean_table(evaluation: Evaluation, fold_results: List[Result], formatting: Formatting) -> Table:
    """The cross-validation ``Mean:`` table of one evaluation: each fold's Row mean per column,
    their mean over the defined ones, and the number of folds as Row count."""
    names = list(fold_results[0].columns)
    cells = [[r.means[name][0] for r in fold_results] for name in names]
    means = []
    for column in cells:
        defined = [v for v in column if not math.isnan(v)]
        means.append((sum(defined) / len(defined) if defined else math.nan, len(fold_results)))
    return Table([], [f"Agg. {name}" for name in names], cells, means, "File number",
                 [f"<{i + 1}>" for i in range(len(fold_results))],
                 _optional(formatting.column_header, True), _optional(formatting.details, True),
                 None)


def _mcnemar_items(evaluations: Sequence[Evaluation], results: List[List[Result]],
                   systems: Sequence[str], formatting: Formatting) -> List[Item]:
    """McNemar's section: ``results[s][e]`` is system ``s``'s result of evaluation ``e``."""
    texts = ["".join(f"{line}\n" for line in parameter_lines(e.parameters, True))
             for e in evaluations]
    columns = [[{name: [r.columns[name][i] for i in r.order] for name in r.columns}
                for r in per_system] for per_system in results]
    names = [list(r.columns) for r in results[0]]
    labels = [f"<{i + 1}> ({path})" for i, path in enumerate(systems)]
    headings = [f"<{i + 1}>" for i in range(len(systems))]
    details = _optional(formatting.details, True)
    show_means = _optional(formatting.column_header, False)
    items: List[Item] = []
    for section in mcnemar_sections(texts, columns, names):
        items.append(Text(section.setting))
        for heading, value in (("McNemar: z-value", None), ("McNemar: p<0.01?", ONE_PERCENT_Z),
                               ("McNemar: p<0.05?", FIVE_PERCENT_Z)):
            cells = []
            for k in range(len(systems)):
                column = []
                for j in range(len(systems)):
                    if j < k and (j, k) in section.z:
                        column.append(section.z[(j, k)] if value is None
                                      else section.significant(j, k, value))
                    else:
                        column.append(math.nan)
                cells.append(column)
            # the setting rides along as header lines (printed above as Text, kept for JSON)
            items.append(Table(section.setting.rstrip("\n").split("\n"), headings, cells,
                               [(math.nan, 0)] * len(systems), heading, labels, show_means,
                               details, None))
        items.append(Text("=" * 52 + "\n\n"))
    return items


#: why ``--stat 1`` shows only ``-`` for a system (a note for stderr; the caller prints it)
STAT_RETOKENIZED = ("--stat 1 (McNemar) compares systems word by word and needs the gold "
                    "tokenization: {names} (tokenized differently) get '-'; 'conll_eval compare "
                    "GOLD A B' tests systems of any tokenization")


def _one_to_one(pair) -> bool:
    """Whether the system's words are the gold words, one to one (the same tokenization)."""
    n_gold, n_system = len(pair.gold.head), len(pair.system.head)
    return n_gold == n_system == len(pair.alignment.gold_idx)


def run(settings: Settings, notes: Optional[List[str]] = None) -> List[Item]:
    """Everything the command prints, in order (the argument echo is the caller's); what
    MaltEval's output cannot say (``--stat 1`` on systems of another tokenization) is
    appended to ``notes`` when it is given."""
    formatting = settings.formatting
    pairs = _pairs(settings)
    universal = settings.deprel_file == UNIVERSAL
    _check_tag_list(settings.postag_file)
    _check_tag_list(None if universal else settings.deprel_file)
    told = told_formats([*settings.gold_files, *settings.system_files])
    loaded = []
    for gold_files, system_files, gold_name, system_name in pairs:
        pair = read_pair([told[p] for p in gold_files], [told[p] for p in system_files], gold_name,
                         system_name, settings.charset, universal)
        loaded.append((gold_name, system_name, pair))
    settings = validate_evaluations(settings)
    evaluations = settings.evaluations("java")
    items: List[Item] = []
    all_results: List[List[Result]] = []
    token_numbers = TokenNumbers()  # shared by the whole run, as MaltEval's Token grouping
    for gold_name, system_name, pair in loaded:
        cache = AnalysisCache(pair, settings.remove, token_numbers)
        results = [evaluate(e, cache) for e in evaluations]
        all_results.append(results)
        items += [Text(ACCURACY_WARNING + "\n") for r in results if r.warning]
        # JSON gives every evaluation its own table (its parameters and counts complete)
        merge = formatting.merge_tables and settings.output_format == "text"
        tables = build_tables(results, formatting, merge)
        merged = merge and len(tables) == 1
        for index, table in enumerate(tables):
            items += [Header(gold_name, system_name, tuple(table.header_lines),
                             result_file(system_name, -1 if merged else index)), table]
            if not formatting.confusion_matrix or merged:
                continue
            items += _confusion_items(results[index].evaluation, cache, formatting,
                                      gold_name, system_name, None)
        if formatting.confusion_matrix and merged:
            for index, result in enumerate(results):
                items += _confusion_items(result.evaluation, cache, formatting,
                                          gold_name, system_name, result_file(system_name, index))
    if len(settings.gold_files) > 1 and not formatting.micro_average:
        gold_list = ", ".join(settings.gold_files)
        system_list = ", ".join(settings.system_files)
        for e, evaluation in enumerate(evaluations):
            items += [Header(gold_list, system_list, ("Mean:",), result_file("cs_aggr", e)),
                      _mean_table(evaluation, [results[e] for results in all_results],
                                  formatting)]
    if formatting.stat and len(settings.gold_files) == 1 and len(settings.system_files) > 1:
        items.append(Header(settings.gold_files[0], ", ".join(settings.system_files),
                            ("McNemar's statistical significance test",),
                            result_file("mcnemar")))
        items += _mcnemar_items(evaluations, all_results, settings.system_files, formatting)
        retokenized = [system for _, system, pair in loaded if not _one_to_one(pair)]
        if retokenized and notes is not None:
            notes.append(STAT_RETOKENIZED.format(names=", ".join(retokenized)))
    return items


def _confusion_items(evaluation: Evaluation, cache: AnalysisCache, formatting: Formatting,
                     gold_name: str, system_name: str, header_file: Optional[str]) -> List[Item]:
    """The confusion table and matrix of one evaluation, each followed by an empty line; under
    a repeated header block (starting ``header_file``) when the result table itself was
    printed merged."""
    table, matrix = confusion_tables(evaluation, cache, formatting)
    items: List[Item] = []
    if header_file is not None:
        items.append(Header(gold_name, system_name,
                            tuple(parameter_lines(evaluation.parameters, True)), header_file))
    items += [table, Text("\n")]
    if matrix is not None:
        items += [matrix, Text("\n")]
    return items
