"""``conll_eval GOLD SYSTEM --per-sentence``: one row per gold sentence with each metric's
counts (correct, gold, system) and F1.  Formatting only: the counts are the evaluation's
per-sentence :class:`~conll_eval.stats.Counts` (the arrays the totals, the bootstrap and the
breakdowns sum), so the rows add up to the file's totals.

Attribution (that of the counts, :mod:`conll_eval.stats`): a gold word counts in its own
sentence, an aligned pair in its gold word's sentence, a system word (and a system token or
sentence span) in the gold sentence holding its first character, whatever the system's
sentence split.

F1 is ``2 correct / (gold + system)``: n/a (JSON ``null``) where a sentence has no word the
metric counts on either side, and on every row of a tag metric whose gold column is ``_``
throughout (the counts stay).
"""
from __future__ import annotations

from typing import List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..metric_specs import display_name
from .escape import printable
from .latex import latex_output, latex_table
from .machine import NOT_ANNOTATED
from .tables import Num, markdown_table, percent, text_table

__all__ = ["sentence_columns", "per_sentence_output"]

#: the counts of each metric, in column order
COUNTS = ("correct", "gold", "system")


def sentence_columns(evaluation, metrics: Sequence[str], unannotated: Sequence[str] = ()
                     ) -> Tuple[dict, Mapping[str, Tuple[np.ndarray, Optional[np.ndarray]]]]:
    """The gold sentences (``sent_id``: None where absent, ``line``: the first line's
    number) and, per metric as printed, its ``(n, 3)`` counts and F1 per sentence as
    fractions (NaN where n/a; None for a whole metric in ``unannotated``)."""
    gold = evaluation.gold
    sentences = {"sent_id": gold.sent_ids, "line": np.asarray(gold.sent_first_line).tolist()}
    by_name = {display_name(name): counts for name, counts in evaluation.counts.items()}
    columns = {}
    for metric in metrics:
        counts = by_name[metric].by_sentence[:, :3]
        total = counts[:, 1] + counts[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            f1 = np.where(total > 0, 2 * counts[:, 0] / np.where(total > 0, total, 1), np.nan)
        columns[metric] = (counts, None if metric in unannotated else f1)
    return sentences, columns


#: sentences formatted at a time by :func:`_column_texts` (their cells' strings live that long)
CHUNK = 4096


def _column_texts(sentences, columns, start: int, stop: int, na: str, f1_text) -> List[List[str]]:
    """The cells of sentences ``start:stop``, a list of strings per column (ordinal, line,
    then per metric its counts and F1 as ``f1_text`` writes a fraction, ``na`` where n/a);
    the ``sent_id`` column is left to the caller (text needs a format's quoting)."""
    texts = [list(map(str, range(start + 1, stop + 1))),
             list(map(str, sentences["line"][start:stop]))]
    for counts, f1 in columns.values():
        texts += [list(map(str, counts[start:stop, k].tolist())) for k in range(3)]
        texts.append([na] * (stop - start) if f1 is None else
                     [na if value != value else f1_text(value) for value in f1[start:stop].tolist()])
    return texts


def _header(columns) -> List[str]:
    header = ["sentence", "line", "sent_id"]
    for metric in columns:
        header += [f"{metric}_{count}" for count in COUNTS] + [f"{metric}_f1"]
    return header


def _table(sentences, columns, na: str) -> Tuple[List[str], List[list]]:
    """Header and rows (F1 in percent, 2 decimals; ``na`` where it means nothing)."""
    texts = _column_texts(sentences, columns, 0, len(sentences["line"]), na, percent)
    ids = ["" if i is None else i for i in sentences["sent_id"]]
    return _header(columns), [[row[0], row[1], sent_id, *row[2:]]
                              for sent_id, row in zip(ids, zip(*texts))]


def _field(text: str, delimiter: str) -> str:
    """A delimited field as :mod:`csv` writes it (quoted where it holds the delimiter, a quote
    or a line break), spelt out first (:func:`printable`)."""
    text = printable(text)
    if delimiter in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def _delimited(sentences, columns, delimiter: str, comment: Optional[str]) -> str:
    """TSV or CSV of :func:`_table`'s cells (as :func:`~conll_eval.report.tables.delimited`
    writes them), formatted a chunk of sentences at a time, a column at a time: a row per
    sentence costs no list of cells."""
    lines = [f"# {printable(comment)}"] if comment is not None else []
    lines.append(delimiter.join(_field(name, delimiter) for name in _header(columns)))
    ids = sentences["sent_id"]
    for start in range(0, len(ids), CHUNK):
        stop = min(start + CHUNK, len(ids))
        texts = _column_texts(sentences, columns, start, stop, NOT_ANNOTATED, percent)
        sent_ids = ["" if i is None else _field(i, delimiter) for i in ids[start:stop]]
        lines += [delimiter.join(row) for row in zip(texts[0], texts[1], sent_ids, *texts[2:])]
    return "\n".join(lines) + "\n"


def _record(sentences, columns, signature: str) -> str:
    """The JSON: ``signature``, ``metrics`` named, then ``sentences``, one object a line: its
    ``sentence`` ordinal, ``line``, ``sent_id`` and per metric ``correct``, ``gold``,
    ``system``, ``f1`` (a fraction, or null).  Written a chunk of sentences at a time from
    the columns' texts (the numbers as :mod:`json` writes them), not a dict per sentence."""
    import json  # here: only the JSON output needs it (start-up time of the others)
    row = '{"sentence": %s, "line": %s, "sent_id": %s' + "".join(
        ', %s: {"correct": %%s, "gold": %%s, "system": %%s, "f1": %%s}' % json.dumps(printable(metric)).replace("%", "%%")
        for metric in columns) + "}"
    head = json.dumps({"signature": printable(signature), "metrics": [printable(m) for m in columns]},
                      ensure_ascii=True)
    lines = [head[:-1] + ', "sentences": [']
    ids = sentences["sent_id"]
    for start in range(0, len(ids), CHUNK):
        stop = min(start + CHUNK, len(ids))
        texts = _column_texts(sentences, columns, start, stop, "null", repr)
        sent_ids = ["null" if i is None else json.dumps(printable(i), ensure_ascii=True)
                    for i in ids[start:stop]]
        lines += [row % (cells[0], cells[1], sent_id, *cells[2:]) + ","
                  for sent_id, cells in zip(sent_ids, zip(*texts))]
    if len(lines) > 1:
        lines[-1] = lines[-1][:-1]
    return "\n".join(lines) + "\n]}\n"


def per_sentence_output(evaluation, metrics: Sequence[str], output_format: str, signature: str,
                        delimiter: Optional[str] = None, show_signature: bool = False,
                        unannotated: Sequence[str] = ()) -> str:
    """The per-sentence table in ``output_format``: ``json``; TSV/CSV (``delimiter``; the
    signature as a first ``#`` line with ``show_signature``); ``text`` (aligned columns, the
    signature last with ``show_signature``), ``markdown`` and ``latex`` (the signature below)."""
    sentences, columns = sentence_columns(evaluation, metrics, unannotated)
    if output_format == "json":
        return _record(sentences, columns, signature)
    if delimiter is not None:
        return _delimited(sentences, columns, delimiter, signature if show_signature else None)
    header, rows = _table(sentences, columns, NOT_ANNOTATED)
    cells = [[row[0], row[1], row[2], *map(Num, row[3:])] for row in rows]
    if output_format == "markdown":
        return "\n".join([*markdown_table(header, cells, left=(2,)), "",
                          f"<sub>`{signature}`</sub>"]) + "\n"
    if output_format == "latex":
        return latex_output([latex_table(header, cells, left=(2,))], signature)
    lines = text_table(header, cells, left=(2,))
    return "\n".join(lines + ([signature] if show_signature else [])) + "\n"
