"""The official scorers' text layouts, byte for byte (REFERENCE.md c.1-c.3).

Example (``conll_eval -v``)::

    Metric     | Precision |    Recall |  F1 Score | AligndAcc
    -----------+-----------+-----------+-----------+-----------
    Tokens     |     92.86 |     86.67 |     89.66 |
    UPOS       |     86.67 |     86.67 |     86.67 |     92.86
"""
from __future__ import annotations

from typing import Collection, FrozenSet, Mapping

from ..metrics import PROFILES, display_name, profile_metrics
from ..stats import Score

__all__ = ["verbose_table", "counts_table", "default_lines", "official_rows", "NOT_SCORED"]

RULE = "-----------+-----------+-----------+-----------+-----------"
COUNTS_HEADER = "Metric     | Correct   |      Gold | Predicted | Aligned"


#: the cell of a row no official script prints whose gold column is unannotated
NOT_SCORED = "n/a"


def official_rows(profile: str) -> FrozenSet[str]:
    """The rows (as printed) that ``profile``'s official script prints: its table's rows,
    WeightedLAS (conll17's ``-w``) and, in iwpt and udeval, ELAS and EULAS.  Any other row
    (``--metrics ELAS`` in conll17/conll18, ``LA``) is ours."""
    return frozenset(display_name(m) for m in profile_metrics(profile, weights=True))


def verbose_table(scores: Mapping[str, Score], profile: str,
                  not_annotated: Collection[str] = ()) -> str:
    """The ``-v`` table: P, R, F1 and aligned accuracy in percent, 2 decimals.  A row of
    ``not_annotated`` (metrics whose gold column is all ``_``) that ``profile``'s official
    script does not print (:func:`official_rows`) shows ``n/a`` for its numbers; the rows the
    script prints keep its numbers (iwpt's ELAS 0.00 on gold without DEPS), byte for byte."""
    lines = [PROFILES[profile].table_header, RULE]
    ours = set(not_annotated) - official_rows(profile) if not_annotated else set()
    for name, score in scores.items():
        accuracy = score.aligned_accuracy
        if name in ours:
            lines.append("{:11}|{:>10} |{:>10} |{:>10} |{}".format(
                name, NOT_SCORED, NOT_SCORED, NOT_SCORED,
                f"{NOT_SCORED:>10}" if accuracy is not None else ""))
            continue
        lines.append("{:11}|{:10.2f} |{:10.2f} |{:10.2f} |{}".format(
            name, 100 * score.precision, 100 * score.recall, 100 * score.f1,
            "{:10.2f}".format(100 * accuracy) if accuracy is not None else ""))
    return "\n".join(lines) + "\n"


def counts_table(scores: Mapping[str, Score]) -> str:
    """The conll18 ``-c`` table: correct, gold, predicted and aligned counts."""
    lines = [COUNTS_HEADER, RULE]
    for name, score in scores.items():
        if name == "Words":
            aligned = score.correct
        elif score.aligned is None or not score.has_aligned_accuracy:
            aligned = ""
        else:
            aligned = score.aligned or ""
        lines.append("{:11}|{:10} |{:10} |{:10} |{:10}".format(
            name, score.correct, score.gold, score.system, aligned))
    return "\n".join(lines) + "\n"


def default_lines(scores: Mapping[str, Score], profile: str) -> str:
    """The lines printed without options (conll17: LAS; conll18: LAS, MLAS, BLEX; iwpt and
    udeval: those, then ELAS and EULAS unless --no-enhanced left them out of ``scores``)."""
    return "".join(template.format(100 * scores[metric].f1) + "\n"
                   for metric, template in PROFILES[profile].default_lines if metric in scores)
