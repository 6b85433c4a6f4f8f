"""The official scorers' text layouts, byte for byte (REFERENCE.md c.1-c.3).

Example (``conll_eval -v``)::

    Metric     | Precision |    Recall |  F1 Score | AligndAcc
    -----------+-----------+-----------+-----------+-----------
    Tokens     |     92.86 |     86.67 |     89.66 |
    UPOS       |     86.67 |     86.67 |     86.67 |     92.86
"""
from __future__ import annotations

from typing import Mapping

from ..metrics import PROFILES
from ..stats import Score

__all__ = ["verbose_table", "counts_table", "default_lines"]

RULE = "-----------+-----------+-----------+-----------+-----------"
COUNTS_HEADER = "Metric     | Correct   |      Gold | Predicted | Aligned"


def verbose_table(scores: Mapping[str, Score], profile: str) -> str:
    """The ``-v`` table: P, R, F1 and aligned accuracy in percent, 2 decimals."""
    lines = [PROFILES[profile].table_header, RULE]
    for name, score in scores.items():
        accuracy = score.aligned_accuracy
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
