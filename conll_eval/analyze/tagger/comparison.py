"""mooteval's comparison: the two files' items walked in lock step (comments stepped over,
sentence ends matched, never re-synchronised after a length mismatch), with ten flags per
token pair and the counters its summary is computed from.

The walk records the steps the listing shows (every step, or only flagged ones) and the hard
errors; turning them into text is ``report.mooteval``'s job.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .native import COMMENT, EOF, EOS, TOKEN, Item

__all__ = ["T", "B", "E1", "I1", "X1", "E2", "I2", "X2", "FileCounts", "Step", "HardError",
           "Comparison", "compare_items", "MAX_HARD_ERRORS"]

# the flags of a token pair: text differs, best tag differs, then per file: empty class,
# its own best tag not in its class (internal), the other file's best tag not in it (external)
T, B, E1, I1, X1, E2, I2, X2 = (1 << bit for bit in range(8))
#: mooteval gives up after this many hard errors (one more is still reported)
MAX_HARD_ERRORS = 100


@dataclass
class FileCounts:
    """One file's counters over the compared token pairs: ``analyses`` (class entries,
    duplicates counted), ``empty``, ``internal``/``external`` (best tag missing from the
    class), ``saves`` (empty class, same best tag), ``fumbles`` (non-empty class, best tags
    differ)."""
    analyses: int = 0
    empty: int = 0
    internal: int = 0
    external: int = 0
    saves: int = 0
    fumbles: int = 0


@dataclass(frozen=True)
class Step:
    """A listing line: the flags, the two items shown; ``None`` flags = a sentence end
    (an empty line at verbosity 4)."""
    flags: Optional[int]
    first: Optional[Item] = None
    second: Optional[Item] = None


@dataclass(frozen=True)
class HardError:
    """``sentence`` or ``file`` lengths differ at these reader line counters, or ``bail``
    (too many hard errors: ``count`` of them)."""
    kind: str
    first_line: int = 0
    second_line: int = 0
    count: int = 0


@dataclass
class Comparison:
    """Everything mooteval's summary and listing need."""
    tokens: int = 0
    sentences: int = 0
    text_mismatches: int = 0
    best_mismatches: int = 0
    files: Tuple[FileCounts, FileCounts] = field(
        default_factory=lambda: (FileCounts(), FileCounts()))
    steps: List[Step] = field(default_factory=list)
    errors: List[HardError] = field(default_factory=list)


def _pair_flags(first: Item, second: Item) -> int:
    flags = (T if first.text != second.text else 0) | (B if first.best != second.best else 0)
    for own, other, empty, internal, external in ((first, second, E1, I1, X1),
                                                   (second, first, E2, I2, X2)):
        if not own.analyses:
            flags |= empty
        else:
            tags = {tag for _, tag in own.analyses}
            if own.best not in tags:
                flags |= internal
            if other.best not in tags:
                flags |= external
    return flags


def _count(result: Comparison, first: Item, second: Item, flags: int) -> None:
    result.tokens += 1
    result.text_mismatches += bool(flags & T)
    best_differs = bool(flags & B)
    result.best_mismatches += best_differs
    for counts, item, empty, internal, external in (
            (result.files[0], first, E1, I1, X1), (result.files[1], second, E2, I2, X2)):
        counts.analyses += len(item.analyses)
        if flags & empty:
            counts.empty += 1
            counts.saves += not best_differs
        elif best_differs:
            counts.fumbles += 1
        counts.internal += bool(flags & internal)
        counts.external += bool(flags & external)


def compare_items(first: List[Item], second: List[Item], verbosity: int,
                  evaluated: Tuple[bool, bool]) -> Comparison:
    """Walk both item lists as mooteval does.  ``verbosity`` decides which steps are kept
    for the listing: all at 4 and above, at 3 those with a text or best-tag mismatch or a
    class flag of an ``evaluated`` file, none below 3."""
    result = Comparison()
    listed = _listing_filter(verbosity, evaluated)
    a = b = 0  # positions in first / second
    previous_a = previous_b = EOS
    status = 0  # the flags of the last comparison; a comment clears them
    hard = 0
    while not (first[a].kind == EOF and second[b].kind == EOF):
        item_a, item_b = first[a], second[b]
        if hard > MAX_HARD_ERRORS:
            result.errors.append(HardError("bail", count=hard))
            break
        if item_a.kind == COMMENT or item_b.kind == COMMENT:
            status = 0
            if listed(status):
                result.steps.append(Step(status, item_a, item_b))
            if item_a.kind == COMMENT:
                a += 1
            if item_b.kind == COMMENT:
                b += 1
            continue
        if item_a.kind == EOS or item_b.kind == EOS:
            if item_a.kind == item_b.kind:
                result.sentences += 1
                if verbosity >= 4:
                    result.steps.append(Step(None))
                previous_a = previous_b = EOS
                a += 1
                b += 1
                continue
            if not (previous_a == EOS or previous_b == EOS):
                result.errors.append(HardError("sentence", item_a.line, item_b.line))
                hard += 1
            if item_a.kind == EOS:
                previous_a = EOS
                a += 1
            if item_b.kind == EOS:
                previous_b = EOS
                b += 1
            continue
        if item_a.kind == EOF or item_b.kind == EOF:
            # a token against the end of the other file: listed with the stale flags
            if listed(status):
                result.steps.append(Step(status, item_a, item_b))
            if item_a.kind != EOF:
                previous_a = TOKEN
                a += 1
            else:
                previous_b = TOKEN
                b += 1
            result.errors.append(HardError("file", first[a].line if item_a.kind != EOF
                                           else item_a.line,
                                           second[b].line if item_b.kind != EOF
                                           else item_b.line))
            hard += 1
            continue
        status = _pair_flags(item_a, item_b)  # tokens, sentence/word-break hints included
        _count(result, item_a, item_b, status)
        if listed(status):
            result.steps.append(Step(status, item_a, item_b))
        previous_a = previous_b = TOKEN
        a += 1
        b += 1
    return result


def _listing_filter(verbosity: int, evaluated: Tuple[bool, bool]):
    if verbosity >= 4:
        return lambda flags: True
    if verbosity < 3:
        return lambda flags: False
    mask = T | B | (E1 | I1 | X1 if evaluated[0] else 0) | (E2 | I2 | X2 if evaluated[1] else 0)
    return lambda flags: bool(flags & mask)

