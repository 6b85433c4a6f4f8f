"""One MaltEval command from settings to output items: reads the pairs (one gold file, several
systems, cross-validation folds or their concatenation), evaluates, and lays out in MaltEval's
order every header block, table and line it prints, as data.

:mod:`conll_eval.report.malteval` turns the items into MaltEval's text; nothing here formats
numbers.  Where MaltEval aborts, :class:`Aborted` carries its message.
"""
from __future__ import annotations

import codecs
import math
import os
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from ..align import align_words, check_characters
from ..errors import AlignmentError, InputError
from ..evaluate import load_pair, release_freed_memory
from ..reader import decompress, load, parse_bytes, read_bytes
from ..treebank import Vocab
from .confusion import confusion_tables
from .counting import AnalysisPair
from .formats import CONLL, convert, input_format, relocate
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

#: CoNLL-X has 10 tab-separated columns
_CONLLX_COLUMNS = 10


def _check_conllx(path: str) -> None:
    """MaltEval reads CoNLL-X only: a non-blank line with fewer than 10 tab-separated columns
    (a CoNLL-U comment, for one) aborts with its reader's message and the line."""
    with open(path, "rb") as handle:
        data = handle.read()
    raw = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(raw == 10)
    starts = np.concatenate([[0], newlines + 1])
    ends = np.append(newlines, len(data))
    tabs = np.flatnonzero(raw == 9)
    tab_counts = np.searchsorted(tabs, ends) - np.searchsorted(tabs, starts)
    # only lines short of tabs need a look: blank lines (fine) and the faulty ones
    for k in np.flatnonzero(tab_counts < _CONLLX_COLUMNS - 1).tolist():
        line = data[starts[k]:ends[k]].rstrip(b"\r\n")
        if line.strip():
            number = k + 1
            text = line.decode("utf-8", errors="replace")
            raise Aborted(f"Error at  line {number}: an attribute is missing\n{text}\n"
                          f"({path}:{number}: a CoNLL-X line has 10 tab-separated columns; "
                          f"name a CoNLL-U file *.conllu)")


#: what MaltEval would read as CoNLL-X but we read as CoNLL-U (comments, multi-word tokens,
#: empty nodes, raw-text tokenization)
CONLLU_SUFFIXES = (".conllu", ".conllu.gz", ".conllu.bz2", ".conllu.xz")


def is_conllu(path: str) -> bool:
    return path.lower().endswith(CONLLU_SUFFIXES)


def _file_bytes(path: str, charset: Optional[str]) -> bytes:
    """The file as UTF-8 (decompressed, decoded from ``charset`` when another one is given)."""
    data = decompress(read_bytes(path), path)
    if charset and codecs.lookup(charset).name != "utf-8":
        try:
            data = data.decode(charset).encode("utf-8")
        except UnicodeDecodeError as exc:
            raise Aborted(f"{path}: not readable as {charset}: {exc.reason} at byte {exc.start}")
    return data


def _read_files(paths: Sequence[str], name: str, vocab, charset: Optional[str] = None,
                check_only: bool = False):
    """One treebank from ``paths`` (several: concatenated, sentences numbered on).  CoNLL-X
    files are checked as MaltEval reads them (10 columns per line), CoNLL-U files
    (:data:`CONLLU_SUFFIXES`) with the conll_eval reader's own errors.  ``check_only``: the
    checks that need no reader (the files exist, CoNLL-X lines have their columns)."""
    for path in paths:
        if not os.path.isfile(path):
            raise Aborted(f"{path} (No such file or directory)")
    for path in paths:
        if input_format(path) == CONLL and not is_conllu(path):
            _check_conllx(path)
    if check_only:
        return None
    plain = not charset or codecs.lookup(charset).name == "utf-8"
    try:
        if len(paths) == 1 and plain and input_format(paths[0]) == CONLL:
            return load(paths[0], vocab=vocab)
        parts = []
        for path in paths:
            parts.append(_converted_bytes(path, charset, vocab).rstrip(b"\r\n") + b"\n\n")
        if len(paths) == 1:
            return parse_bytes(parts[0], paths[0], "conll18", vocab)
        return parse_bytes(b"".join(parts), name, "conll18", vocab)
    except InputError as exc:
        official = getattr(exc, "official", None)
        raise Aborted(f"{official}\n({exc})" if official else str(exc)) from None


def _converted_bytes(path: str, charset: Optional[str], vocab) -> bytes:
    """The file as CoNLL text in UTF-8 (MaltTab and MaltXML converted), checked by the reader
    so that errors name the original file and line."""
    if input_format(path) == CONLL:
        data = _file_bytes(path, charset)
        parse_bytes(data, path, "conll18", vocab)
        return data
    conversion = convert(path, charset)
    data = conversion.text.encode("utf-8")
    try:
        parse_bytes(data, path, "conll18", vocab)
    except InputError as exc:
        raise relocate(exc, conversion) from None
    return data


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


def read_pair(gold_paths: Sequence[str], system_paths: Sequence[str], gold_name: str,
              system_name: str, charset: Optional[str] = None, universal_deprel: bool = False):
    """Read and align one pair (each side one file or several concatenated).  When a side is
    CoNLL-U the words are aligned as the CoNLL 2018 scorer aligns them (tokenization and
    sentence splits may differ; only the characters must agree); otherwise MaltEval's rule
    holds: the same sentences and FORMs."""
    single = (len(gold_paths) == len(system_paths) == 1 and not charset
              and all(input_format(p) == CONLL for p in [*gold_paths, *system_paths]))
    if single:  # the scorer's reading: both files at once, freed memory given back
        for path in (gold_paths[0], system_paths[0]):
            _read_files([path], path, None, None, check_only=True)
        try:
            # one file after the other: the analyses have time to spare (within 2x the
            # scorer's) but should not need more memory than it (its threads overlap reading)
            gold, system = load_pair(gold_paths[0], system_paths[0], parallel=False)
        except InputError as exc:
            raise Aborted(str(exc)) from None
    else:
        vocab = Vocab()
        gold = _read_files(gold_paths, gold_name, vocab, charset)
        system = _read_files(system_paths, system_name, vocab, charset)
    if any(is_conllu(p) for p in [*gold_paths, *system_paths]):
        try:
            check_characters(gold, system)
        except AlignmentError as exc:
            raise Aborted(str(exc)) from None
    else:
        _check_same_text(gold, system, gold_name, system_name)
    pair = AnalysisPair.from_treebanks(gold, system, align_words(gold, system), universal_deprel)
    release_freed_memory()
    return pair


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
    loaded = []
    for gold_files, system_files, gold_name, system_name in pairs:
        pair = read_pair(gold_files, system_files, gold_name, system_name, settings.charset,
                         universal)
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
