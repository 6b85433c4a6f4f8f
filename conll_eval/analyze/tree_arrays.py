"""Facts about the trees of every word of a file at once, as numpy arrays over the words, in
time and memory linear in the number of words whatever the trees' shapes (a head chain of a
million words, a word with every other word of its sentence as dependent).

``head`` is the global index of each word's head, -1 for a root word; the heads form a forest
(the readers reject cycles; a cycle here is a ``ValueError``, never a loop without end).  Each
function makes a number of passes over the arrays that grows with the logarithm of the deepest
chain, the largest tree or the longest arc (pointer doubling, a sparse table built a level at a
time), never with their length, and keeps no more than a few arrays of the words' size.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

__all__ = ["depth_and_root", "walk_times", "range_extremes", "non_projective_arcs"]


def _passes_bound(n: int) -> int:
    """Pointer doubling over ``n`` items is done after this many passes, unless it follows a
    cycle (each pass doubles the distance covered: 2**passes > n)."""
    return max(n, 1).bit_length() + 1


def depth_and_root(head: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per word: the number of arcs up to its tree's root word (0 for the root word), and the
    index of that root word.  Pointer doubling: after each pass every word's pointer is twice as
    far up, so a chain of n words takes log2(n) passes, not n."""
    head = np.asarray(head, dtype=np.int64)
    n = len(head)
    words = np.arange(n, dtype=np.int64)
    # invariant: up[w] is depth[w] arcs above w; a root word points to itself at 0 arcs
    up = np.where(head >= 0, head, words)
    depth = (head >= 0).astype(np.int64)
    for _ in range(_passes_bound(n)):
        further = up[up]
        if np.array_equal(further, up):
            return depth, up
        depth += depth[up]
        up = further
    raise ValueError("the heads form a cycle")


def _children_links(head: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per word: its first dependent and its next sibling (the dependents of a head in word
    order), -1 where there is none."""
    n = len(head)
    dependents = np.flatnonzero(head >= 0)
    order = dependents[np.argsort(head[dependents], kind="stable")]  # by head, then position
    heads = head[order]
    first_child = np.full(n, -1, dtype=np.int64)
    next_sibling = np.full(n, -1, dtype=np.int64)
    if len(order):
        first = np.concatenate([[True], heads[1:] != heads[:-1]])
        first_child[heads[first]] = order[first]
        same = ~first[1:]
        next_sibling[order[:-1][same]] = order[1:][same]
    return first_child, next_sibling


def walk_times(head: np.ndarray, root: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per word: when a depth-first walk of the forest enters it and when it leaves it (times
    0 .. 2n - 1; the trees walked in the order of their root words, dependents in word order).
    Word ``w`` is a descendant of word ``h`` (``w != h``) exactly when
    ``enter[h] < enter[w] < leave[h]``.  ``root`` is :func:`depth_and_root`'s.

    The walk is a list of 2n events (enter w = w, leave w = n + w), each linked to the next one
    of its tree's walk; every event's distance to its tree's last event comes from pointer
    doubling (list ranking), in log2(2 * largest tree) passes."""
    head = np.asarray(head, dtype=np.int64)
    n = len(head)
    words = np.arange(n, dtype=np.int64)
    first_child, next_sibling = _children_links(head)
    following = np.empty(2 * n, dtype=np.int64)
    following[:n] = np.where(first_child >= 0, first_child, words + n)
    following[n:] = np.where(next_sibling >= 0, next_sibling, np.where(head >= 0, head + n, -1))
    to_end = (following >= 0).astype(np.int64)  # events from each one to its tree's last
    live = np.flatnonzero(following >= 0)  # the events whose pointer has not passed the end
    for _ in range(_passes_bound(2 * n)):
        if not len(live):
            break
        target = following[live]
        to_end[live] += to_end[target]
        following[live] = following[target]
        live = live[following[live] >= 0]
    else:
        raise ValueError("the heads form a cycle")
    roots = np.flatnonzero(head < 0)
    events = 2 * np.bincount(root, minlength=n)  # of each tree's walk, by its root word
    tree_start = np.zeros(n, dtype=np.int64)  # the trees' walks one after another
    tree_start[roots] = np.cumsum(events[roots]) - events[roots]
    last = tree_start[root] + events[root] - 1
    return last - to_end[:n], last - to_end[n:]


def range_extremes(values: np.ndarray, first: np.ndarray,
                   last: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Per query q: the least and the greatest of ``values[first[q] : last[q] + 1]`` (every
    range not empty).  A sparse table built a level at a time: level k holds the extremes of
    every window of 2**k values, and a range of length L is covered by two windows of the
    level floor(log2 L); only the current level is kept, each query answered at its own."""
    values = np.asarray(values)
    first = np.asarray(first, dtype=np.int64)
    last = np.asarray(last, dtype=np.int64)
    low = np.empty(len(first), dtype=values.dtype)
    high = np.empty(len(first), dtype=values.dtype)
    if not len(first):
        return low, high
    level = np.frexp((last - first + 1).astype(np.float64))[1].astype(np.int64) - 1
    by_level = np.argsort(level, kind="stable")
    bounds = np.searchsorted(level[by_level], np.arange(int(level.max()) + 2))
    least, greatest = values, values
    for k in range(int(level.max()) + 1):
        queries = by_level[bounds[k]:bounds[k + 1]]
        if len(queries):
            start, end = first[queries], last[queries] - (1 << k) + 1
            low[queries] = np.minimum(least[start], least[end])
            high[queries] = np.maximum(greatest[start], greatest[end])
        step = 1 << k
        least = np.minimum(least[:-step], least[step:])
        greatest = np.maximum(greatest[:-step], greatest[step:])
    return low, high


def non_projective_arcs(head: np.ndarray, malteval: bool = False) -> np.ndarray:
    """Per word: 1 when its arc is non-projective -- some word strictly between the word and
    its head is not a descendant of the head -- else 0 (the root word's arc too).  The words
    between are a range: all of them descend from the head when their walk times (see
    :func:`walk_times`) all lie between the head's.  ``malteval=True`` repeats MaltEval's
    off-by-one: for a head on the left, the word just before the dependent is not checked."""
    head = np.asarray(head, dtype=np.int64)
    non_projective = np.zeros(len(head), dtype=np.int64)
    arcs = np.flatnonzero(head >= 0)
    governor = head[arcs]
    first = np.minimum(arcs, governor) + 1
    last = np.maximum(arcs, governor) - 1
    if malteval:
        last = np.where(governor < arcs, last - 1, last)
    checked = first <= last
    if not checked.any():
        return non_projective
    arcs, governor = arcs[checked], governor[checked]
    _, root = depth_and_root(head)
    enter, leave = walk_times(head, root)
    earliest, latest = range_extremes(enter, first[checked], last[checked])
    outside = (earliest < enter[governor]) | (latest > leave[governor])
    non_projective[arcs[outside]] = 1
    return non_projective
