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
from .escape import json_text
from .latex import latex_output, latex_table
from .machine import NOT_ANNOTATED
from .tables import Num, delimited, markdown_table, percent, text_table

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


def _table(sentences, columns, na: str) -> Tuple[List[str], List[list]]:
    """Header and rows (F1 in percent, 2 decimals; ``na`` where it means nothing)."""
    header = ["sentence", "line", "sent_id"]
    lists = []
    for metric, (counts, f1) in columns.items():
        header += [f"{metric}_{count}" for count in COUNTS] + [f"{metric}_f1"]
        lists += [counts[:, k].tolist() for k in range(3)]
        lists.append([na] * len(counts) if f1 is None else
                     [na if value != value else percent(value) for value in f1.tolist()])
    ids = sentences["sent_id"]
    rows = [[str(k + 1), str(line), "" if ids[k] is None else ids[k],
             *(str(values[k]) for values in lists)]
            for k, line in enumerate(sentences["line"])]
    return header, rows


def _record(sentences, columns, signature: str) -> str:
    """The JSON: ``metrics`` named, then per sentence its ordinal, line, ``sent_id`` and per
    metric ``correct``, ``gold``, ``system``, ``f1`` (a fraction, or null)."""
    per_metric = []
    for metric, (counts, f1) in columns.items():
        values = [counts[:, k].tolist() for k in range(3)]
        scores = [None] * len(counts) if f1 is None else \
            [None if value != value else value for value in f1.tolist()]
        per_metric.append((metric, values, scores))
    ids = sentences["sent_id"]
    rows = [{"sentence": k + 1, "line": line, "sent_id": ids[k],
             **{metric: {**{name: values[j][k] for j, name in enumerate(COUNTS)}, "f1": scores[k]}
                for metric, values, scores in per_metric}}
            for k, line in enumerate(sentences["line"])]
    return json_text({"signature": signature, "metrics": list(columns), "sentences": rows},
                     ensure_ascii=True, indent=1) + "\n"


def per_sentence_output(evaluation, metrics: Sequence[str], output_format: str, signature: str,
                        delimiter: Optional[str] = None, show_signature: bool = False,
                        unannotated: Sequence[str] = ()) -> str:
    """The per-sentence table in ``output_format``: ``json``; TSV/CSV (``delimiter``; the
    signature as a first ``#`` line with ``show_signature``); ``text`` (aligned columns, the
    signature last with ``show_signature``), ``markdown`` and ``latex`` (the signature below)."""
    sentences, columns = sentence_columns(evaluation, metrics, unannotated)
    if output_format == "json":
        return _record(sentences, columns, signature)
    header, rows = _table(sentences, columns, NOT_ANNOTATED)
    if delimiter is not None:
        return delimited(header, rows, delimiter, signature if show_signature else None)
    cells = [[row[0], row[1], row[2], *map(Num, row[3:])] for row in rows]
    if output_format == "markdown":
        return "\n".join([*markdown_table(header, cells, left=(2,)), "",
                          f"<sub>`{signature}`</sub>"]) + "\n"
    if output_format == "latex":
        return latex_output([latex_table(header, cells, left=(2,))], signature)
    lines = text_table(header, cells, left=(2,))
    return "\n".join(lines + ([signature] if show_signature else [])) + "\n"
