"""Keys of MaltEval's complex groupings (``Cpostag@-1#Cpostag@0``, ``Cpostag,Postag``, ...).

Each side keys its words on its own values at the given offsets within the word's own
sentence, and the key strings (``"ADJ"@-1;"NOUN"@0``, ``^``/``$`` outside the sentence, offsets
and attributes in Java HashMap/HashSet order) are built once per distinct combination.
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

import numpy as np

from . import java
from .counting import AnalysisPair, Keys, Side
from .groupings import registry

__all__ = ["ATTRIBUTE_COLUMNS", "complex_keys", "key_layout"]

#: complex-grouping attribute -> the reader's column
ATTRIBUTE_COLUMNS = {"Wordform": "form", "Lemma": "lemma", "Cpostag": "upos", "Postag": "xpos",
                     "Feats": "feats"}

#: pseudo-codes of a position before the sentence start (``^``) and after its end (``$``)
BEFORE, AFTER = -1, -2
_MARKS = {BEFORE: "^", AFTER: "$"}


def key_layout(parts: Sequence[Tuple[int, Sequence[str]]]) -> List[Tuple[int, List[str]]]:
    """The offsets in ``java.util.HashMap<Integer, ...>`` order, each with its attributes in
    ``java.util.HashSet<String>`` order: the order in which MaltEval prints them.

    >>> key_layout([(-2, ["Cpostag"]), (-1, ["Cpostag"])])
    [(-1, ['Cpostag']), (-2, ['Cpostag'])]
    >>> key_layout([(0, ["Cpostag", "Postag"])])
    [(0, ['Postag', 'Cpostag'])]
    """
    attributes: Dict[int, Sequence[str]] = dict(parts)
    return [(offset, java.hashset_order(attributes[offset]))
            for offset in java.hashmap_order([offset for offset, _ in parts])]


def _shifted(side: Side, offset: int, column: np.ndarray) -> np.ndarray:
    """``column`` at ``offset`` words from each word, within the word's own sentence; BEFORE or
    AFTER where that position falls outside it."""
    target = side.position + offset  # 1-based position in the sentence
    index = np.clip(np.arange(len(column), dtype=np.int64) + offset, 0, max(len(column) - 1, 0))
    values = column[index]
    return np.where(target < 1, BEFORE, np.where(target > side.own_length, AFTER, values))


def _attribute_codes(side: Side, attribute: str) -> np.ndarray:
    """The built-in attribute's column, or a plugin grouping's (string) keys."""
    if attribute in ATTRIBUTE_COLUMNS:
        return side.string_column(ATTRIBUTE_COLUMNS[attribute])
    return np.asarray(registry()[attribute].keys(side), dtype=np.int64)


def _code_matrix(side: Side, layout: List[Tuple[int, List[str]]]) -> np.ndarray:
    """One column per (offset, attribute) of the layout: Vocab codes or BEFORE/AFTER."""
    columns = [_shifted(side, offset, _attribute_codes(side, attribute))
               for offset, attributes in layout for attribute in attributes]
    return np.stack(columns, axis=1).astype(np.int64)


def _distinct_rows(matrix: np.ndarray, radix: int) -> Tuple[np.ndarray, np.ndarray]:
    """(distinct rows, index of each row's distinct row).  Rows are packed into one integer
    (codes + 2 in base ``radix``) when that fits in 63 bits, else compared as whole rows."""
    width = matrix.shape[1]
    if radix ** width < 2 ** 62:
        packed = np.zeros(len(matrix), dtype=np.int64)
        for j in range(width):
            packed = packed * radix + (matrix[:, j] + 2)
        _, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
        return matrix[first], inverse.reshape(-1)
    rows, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return rows, inverse.reshape(-1)


def _key_string(row: Sequence[int], layout: List[Tuple[int, List[str]]], strings: List[str]) -> str:
    parts = []
    j = 0
    for offset, attributes in layout:
        codes = row[j:j + len(attributes)]
        j += len(attributes)
        if codes[0] < 0:  # the whole position is outside the sentence: one mark
            value = _MARKS[codes[0]]
        else:
            value = ",".join(f'"{strings[c]}"' for c in codes)
        parts.append(f"{value}@{offset}")
    return ";".join(parts)


def complex_keys(parts: Sequence[Tuple[int, Sequence[str]]], pair: AnalysisPair) -> Keys:
    """The keys of the complex grouping with ``parts`` (offset -> attributes, as in
    :attr:`conll_eval.analyze.options.Grouping.parts`) for every gold and system word: Vocab
    codes of MaltEval's key strings.  The strings are made once per distinct combination of
    values over both sides, then interned."""
    layout = key_layout(parts)
    for _, attributes in layout:
        for attribute in attributes:
            known = registry().get(attribute)
            if attribute not in ATTRIBUTE_COLUMNS and (known is None or not known.complex_item):
                raise KeyError(f"{attribute!r} cannot be part of a complex grouping")
    gold = _code_matrix(pair.gold, layout)
    system = _code_matrix(pair.system, layout)
    vocab = pair.gold.vocab
    rows, inverse = _distinct_rows(np.concatenate([gold, system]), len(vocab) + 2)
    strings = vocab.strings
    key_strings = [_key_string(row, layout, strings) for row in rows.tolist()]
    keys = vocab.encode(key_strings).astype(np.int64)[inverse]
    return Keys(keys[:len(gold)], keys[len(gold):], False)
