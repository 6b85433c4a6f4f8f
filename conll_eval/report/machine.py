"""Outputs of one pair besides the official text: JSON (fractions in [0, 1]), TSV/CSV
(percent, like the tables) and Markdown."""
from __future__ import annotations

from typing import List, Mapping, Optional, Tuple

from ..stats import Score
from .escape import json_text
from .tables import Num, delimited, markdown_table, percent

__all__ = ["to_json", "to_tsv", "to_delimited", "to_markdown", "score_rows", "score_record",
           "exact_match_lines", "annotation_note", "not_annotated", "NOTE_PREFIX"]


def score_record(score: Score, annotated: bool = True) -> dict:
    """Counts and scores of one metric; scores as fractions, None where undefined and, for a
    tag the gold file does not annotate (``annotated=False``), None (n/a) too: such a score
    reads 100 and means nothing.  The counts stay."""
    scores = {"precision": score.precision, "recall": score.recall, "f1": score.f1,
              "aligned_accuracy": score.aligned_accuracy}
    return {
        "correct": score.correct,
        "gold": score.gold,
        "system": score.system,
        "aligned": score.aligned,
        **{name: value if annotated else None for name, value in scores.items()},
    }


def to_json(scores: Mapping[str, Score], settings: Mapping[str, object], signature: str,
            files: Optional[Mapping[str, str]] = None,
            exact: Optional[Mapping[str, Tuple[int, int]]] = None,
            notes: Optional[Mapping[str, str]] = None) -> str:
    """One JSON object: ``metrics`` (ordered as the table), ``settings``, ``signature``, ``files``;
    with ``exact`` each metric also gets ``exact_match``: sentences all right, of how many,
    and their share; with ``notes`` each gets ``annotated`` (false when the gold column it
    compares is all ``_``: its precision, recall, F1 and aligned accuracy are then null) and,
    where there is one, its ``note``.  Paths and every other string are spelt out
    (:func:`~conll_eval.report.escape.json_text`)."""
    records = {}
    for name, score in scores.items():
        note = (notes or {}).get(name)
        annotated = name not in not_annotated(notes)
        records[name] = score_record(score, annotated)
        if notes is not None:
            records[name]["annotated"] = annotated
            if note:
                records[name]["note"] = note
    for name, (right, total) in (exact or {}).items():
        if name in records:
            meaningful = total and records[name]["f1"] is not None  # n/a: an unannotated tag
            records[name]["exact_match"] = {"sentences": right, "of": total,
                                            "share": right / total if meaningful else None}
    document = {
        "metrics": records,
        "settings": dict(settings),
        "signature": signature,
    }
    if files:
        document["files"] = dict(files)
    return json_text(document, indent=2) + "\n"


#: the cell of a score that means nothing (a tag the gold file does not annotate)
NOT_ANNOTATED = "n/a"


def not_annotated(notes: Optional[Mapping[str, str]]) -> List[str]:
    """The metrics whose note (:meth:`~conll_eval.evaluate.Evaluation.unannotated`) says the
    gold file does not annotate their column (n/a)."""
    return [name for name, why in (notes or {}).items() if why.startswith("not annotated")]


def score_rows(scores: Mapping[str, Score], notes: Optional[Mapping[str, str]] = None
               ) -> Tuple[List[str], List[List[str]]]:
    """Header and one row per metric: counts, then P/R/F1/AligndAcc in percent (2 decimals),
    ``n/a`` for a tag the gold file does not annotate (``notes``: the evaluation's
    :meth:`~conll_eval.evaluate.Evaluation.unannotated`)."""
    header = ["metric", "correct", "gold", "system", "aligned", "precision", "recall", "f1",
              "aligned_accuracy"]
    rows = []
    unannotated = not_annotated(notes)
    for name, s in scores.items():
        accuracy = s.aligned_accuracy
        values = [percent(s.precision), percent(s.recall), percent(s.f1),
                  "" if accuracy is None else percent(accuracy)]
        rows.append([name, str(s.correct), str(s.gold), str(s.system),
                     "" if s.aligned is None else str(s.aligned),
                     *(NOT_ANNOTATED if name in unannotated and value else value for value in values)])
    return header, rows


def to_delimited(scores: Mapping[str, Score], delimiter: str = "\t",
                 signature: Optional[str] = None, notes: Optional[Mapping[str, str]] = None) -> str:
    """TSV/CSV of :func:`score_rows`, after a ``# signature`` line when one is given."""
    return delimited(*score_rows(scores, notes), delimiter, comment=signature)


def to_tsv(scores: Mapping[str, Score]) -> str:
    """The TSV of :func:`score_rows` (header first)."""
    return to_delimited(scores, "\t")


def to_markdown(scores: Mapping[str, Score], signature: str,
                notes: Optional[Mapping[str, str]] = None) -> str:
    """The ``-v`` table as Markdown (for pull-request comments), the signature below::

        | Metric    | Precision | Recall | F1 Score | AligndAcc |
        | --------- | --------: | -----: | -------: | --------: |
        | Tokens    |    100.00 | 100.00 |   100.00 |           |
        | LAS       |     80.00 |  80.00 |    80.00 |     80.00 |

    A tag the gold file does not annotate (``notes``, as :func:`score_rows`) shows ``n/a``.
    """
    _, table = score_rows(scores, notes)  # metric, 4 counts, then the 4 percentages
    rows = [[row[0], *(Num(cell) if cell else "" for cell in row[5:])] for row in table]
    lines = markdown_table(["Metric", "Precision", "Recall", "F1 Score", "AligndAcc"], rows)
    return "\n".join([*lines, "", f"<sub>`{signature}`</sub>"]) + "\n"


def exact_match_lines(exact: Mapping[str, Tuple[int, int]], metrics,
                      notes: Optional[Mapping[str, str]] = None) -> str:
    """``--exact-match``: one line per metric, after the table; ``n/a`` for a metric whose
    gold column is unannotated (``notes``, as :func:`score_rows`; no official script prints
    these lines)."""
    unannotated = not_annotated(notes)
    return "".join(f"Exact match {name}: n/a (the gold file does not annotate it; "
                   f"{total} sentences)\n" if name in unannotated else
                   f"Exact match {name}: {percent(right / total) if total else '0.00'} % "
                   f"({right} of {total} sentences)\n"
                   for name, (right, total) in exact.items() if name in metrics)


#: how the stderr note on meaningless numbers starts (scripts may filter it)
NOTE_PREFIX = "conll_eval: note: "


def annotation_note(notes: Mapping[str, str]) -> str:
    """One stderr line per printed tag score that means nothing, saying why (``notes``: metric
    -> :meth:`~conll_eval.evaluate.Evaluation.unannotated`'s reason)::

        conll_eval: note: the XPOS score means nothing: every gold XPOS is _ (not annotated)
        conll_eval: note: the Lemmas score means nothing: the system predicts no LEMMA (every one is _)
    """
    lines = []
    for metric, why in notes.items():
        head, _, rest = why.partition(": ")
        reason = f"{rest} ({head})" if head == "not annotated" and rest else why
        lines.append(f"{NOTE_PREFIX}the {metric} score means nothing: {reason}\n")
    return "".join(lines)
