"""McNemar's test between systems on the same gold words (MaltEval's ``--stat 1``), on any
per-row 0/1 column: Token accuracy, Sentence exact match, the Sentence flags.

z = (|b - c| - 1) / sqrt(b + c), with b the rows where the first system is right and the
second wrong and c the reverse (continuity-corrected, not an absolute value: it can be
negative); significant at 1 % when z >= 2.58 and at 5 % when z >= 1.96, as MaltEval decides.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import java

__all__ = ["ONE_PERCENT_Z", "FIVE_PERCENT_Z", "mcnemar_z", "mcnemar_p", "binary_column",
           "McNemarSection", "mcnemar_sections"]

#: below this many discordant words McNemar's p is the exact binomial one
EXACT_BELOW = 25

ONE_PERCENT_Z = 2.58
FIVE_PERCENT_Z = 1.96


def _discordant(first: np.ndarray, second: np.ndarray) -> Tuple[int, int]:
    """(b, c): rows only ``first`` gets right, rows only ``second`` gets right."""
    first, second = np.asarray(first, dtype=bool), np.asarray(second, dtype=bool)
    if first.shape != second.shape:
        raise ValueError("McNemar needs the same rows on both sides")
    return int(np.count_nonzero(first & ~second)), int(np.count_nonzero(~first & second))


def mcnemar_z(first: np.ndarray, second: np.ndarray) -> float:
    """z for two equally long boolean vectors (-inf when they never disagree, as Java's
    division by zero gives)."""
    b, c = _discordant(first, second)
    if b + c == 0:
        return -math.inf
    return (abs(b - c) - 1) / math.sqrt(b + c)


def mcnemar_p(first: np.ndarray, second: np.ndarray) -> float:
    """Two-sided p-value of McNemar's test: exact (binomial, p = 1/2) when the discordant
    count b + c is below :data:`EXACT_BELOW`, else from the continuity-corrected z; 1 when
    the two never disagree."""
    b, c = _discordant(first, second)
    n = b + c
    if n == 0:
        return 1.0
    if n < EXACT_BELOW:
        tail = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2 ** n
        return min(1.0, 2 * tail)
    z = max(0.0, (abs(b - c) - 1) / math.sqrt(n))
    return math.erfc(z / math.sqrt(2))


def binary_column(cells: Sequence) -> Optional[np.ndarray]:
    """The column as booleans when every cell is the integer 0 or 1 (MaltEval's test: a NaN
    cell, a ratio or a count makes the column unusable), else None."""
    if not all(isinstance(v, int) and v in (0, 1) for v in cells):
        return None
    return np.array(cells, dtype=bool)


@dataclass(frozen=True)
class McNemarSection:
    """One evaluation and column: its setting text (the evaluation's ``Param-> value`` lines,
    then ``Attribute: <column>``), and per ordered pair of systems (i < j) z and the two
    verdicts; pairs that cannot be compared (different rows) have none."""

    setting: str
    z: Dict[Tuple[int, int], float]

    def significant(self, i: int, j: int, level_z: float) -> int:
        return int(self.z[(i, j)] >= level_z)


def mcnemar_sections(settings_text: Sequence[str],
                     columns: Sequence[Sequence[Dict[str, Sequence]]],
                     column_names: Sequence[Sequence[str]]) -> List[McNemarSection]:
    """Sections for every evaluation ``e`` (its text ``settings_text[e]``, its columns
    ``column_names[e]``) and every column that is 0/1 in the first system; ``columns[s][e]`` maps
    a column name to system ``s``'s cells in print order.  Sections come in MaltEval's order:
    a HashMap over the setting texts."""
    sections: Dict[str, McNemarSection] = {}
    for e, text in enumerate(settings_text):
        for name in column_names[e]:
            if binary_column(columns[0][e][name]) is None:
                continue
            setting = f"{text}\nAttribute: {name}\n"
            vectors = [binary_column(columns[s][e][name]) for s in range(len(columns))]
            z = {}
            for i in range(len(vectors)):
                for j in range(i + 1, len(vectors)):
                    a, b = vectors[i], vectors[j]
                    if a is not None and b is not None and a.shape == b.shape:
                        z[(i, j)] = mcnemar_z(a, b)
            sections.setdefault(setting, McNemarSection(setting, z))
    try:
        order = java.hashmap_order(list(sections))
    except NotImplementedError:  # pragma: no cover - 9+ colliding setting texts
        order = list(sections)
    return [sections[key] for key in order]
