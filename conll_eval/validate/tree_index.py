"""What the level 3 checks of the basic tree ask of one sentence, answered without walking the
tree per word: whether a word descends from another (its place in a depth-first walk and the
place after its last descendant), and the least and greatest value of a column over a range of words (blocks of
words with their extremes, and a sparse table over the blocks).

udtools walks to the root and over every word between a punctuation mark and its parent, per
punctuation mark: quadratic on a head chain or a fan of punctuation.  Built once per sentence in
time linear in its words, these answer each question in constant time (a descendant) or in time
bounded by the block size (an extreme), so that the checks scan words only where a finding is
possible.
"""
from __future__ import annotations

import functools
from typing import List, Sequence, Tuple

#: words per block of :class:`RangeExtremes` (a range's partial blocks are scanned by min/max)
BLOCK = 64


class RangeExtremes:
    """The least and the greatest of ``values[first..last]`` (inclusive) for any range: the
    whole blocks of the range through a sparse table of the blocks' extremes (levels of
    2**k blocks, n / BLOCK * log2(n / BLOCK) items in all), the partial ones scanned.  Values
    too few to hold a whole block between two partial ones are only scanned."""

    def __init__(self, values: Sequence[int]):
        self.values = list(values)
        self._lows: List[List[int]] = []
        self._highs: List[List[int]] = []
        if len(self.values) <= 2 * BLOCK:
            return
        lows = [min(self.values[i:i + BLOCK]) for i in range(0, len(self.values), BLOCK)]
        highs = [max(self.values[i:i + BLOCK]) for i in range(0, len(self.values), BLOCK)]
        self._lows, self._highs = [lows], [highs]
        blocks, span = len(lows), 1
        while 2 * span <= blocks:  # the level of windows of 2 * span blocks
            lows = [min(a, b) for a, b in zip(lows, lows[span:])]
            highs = [max(a, b) for a, b in zip(highs, highs[span:])]
            self._lows.append(lows)
            self._highs.append(highs)
            span *= 2

    def extremes(self, first: int, last: int) -> Tuple[int, int]:
        """(least, greatest) of ``values[first..last]``; the range must not be empty."""
        first_block, last_block = first // BLOCK + 1, last // BLOCK - 1  # the whole blocks
        if first_block > last_block:
            part = self.values[first:last + 1]
            return min(part), max(part)
        head = self.values[first:first_block * BLOCK]
        tail = self.values[(last_block + 1) * BLOCK:last + 1]
        level = (last_block - first_block + 1).bit_length() - 1
        lows, highs = self._lows[level], self._highs[level]
        other = last_block - (1 << level) + 1
        low = min(lows[first_block], lows[other], *head, *tail)
        high = max(highs[first_block], highs[other], *head, *tail)
        return low, high


class TreeIndex:
    """The basic tree of one sentence: ``head[i]`` is word i + 1's HEAD (0 the root),
    ``children[h]`` the words whose HEAD is h in word order (0 = the root), as
    :class:`conll_eval.validate.contents.Words` holds them.  Words are 1-based."""

    def __init__(self, head: Sequence[int], children: Sequence[Sequence[int]]):
        n = len(head)
        self.n, self.head, self.children = n, head, children
        # each word's place in a depth-first walk from 0 (``enter``) and the place after its
        # last descendant (``leave``): its descendants are the words placed between
        order: List[int] = []
        stack = [0]
        while stack:
            word = stack.pop()
            order.append(word)
            stack.extend(children[word])
        enter = [0] * (n + 1)
        for place, word in enumerate(order):
            enter[word] = place
        size = [1] * (n + 1)
        for word in reversed(order[1:]):
            size[head[word - 1]] += size[word]
        self.enter = enter
        self.leave = [place + count for place, count in zip(enter, size)]

    # per position 0..n (0: nothing there), made when first asked: the extremes of a range
    @functools.cached_property
    def _enter(self) -> RangeExtremes:
        return RangeExtremes(self.enter)

    @functools.cached_property
    def _head_high(self) -> RangeExtremes:
        return RangeExtremes([0, *self.head])

    @functools.cached_property
    def _head_low(self) -> RangeExtremes:
        """HEADs, the root's as n + 1 (it is before no word)."""
        return RangeExtremes([self.n + 1] + [h if h else self.n + 1 for h in self.head])

    @functools.cached_property
    def _first_dependent(self) -> RangeExtremes:
        """Each word's first dependent, n + 1 without any."""
        return RangeExtremes([self.n + 1] + [c[0] if c else self.n + 1
                                             for c in self.children[1:]])

    @functools.cached_property
    def _last_dependent(self) -> RangeExtremes:
        """Each word's last dependent, 0 without any."""
        return RangeExtremes([0] + [c[-1] if c else 0 for c in self.children[1:]])

    def descends(self, word: int, ancestor: int) -> bool:
        """``word`` is a descendant of ``ancestor`` (every word descends from 0)."""
        return self.enter[ancestor] < self.enter[word] < self.leave[ancestor]

    def all_descend(self, first: int, last: int, ancestor: int) -> bool:
        """Every word of ``first..last`` (not empty, ``ancestor`` not among them) descends from
        ``ancestor``."""
        low, high = self._enter.extremes(first, last)
        return self.enter[ancestor] < low and high < self.leave[ancestor]

    def some_head_above(self, first: int, last: int, bound: int) -> bool:
        """Some word of ``first..last`` has its HEAD after word ``bound``."""
        return self._head_high.extremes(first, last)[1] > bound

    def some_head_below(self, first: int, last: int, bound: int) -> bool:
        """Some word of ``first..last`` has its HEAD (not 0) before word ``bound``."""
        return self._head_low.extremes(first, last)[0] < bound

    def some_dependent_after(self, first: int, last: int, bound: int) -> bool:
        """Some word of ``first..last`` has a dependent after word ``bound``."""
        return self._last_dependent.extremes(first, last)[1] > bound

    def some_dependent_before(self, first: int, last: int, bound: int) -> bool:
        """Some word of ``first..last`` has a dependent before word ``bound``."""
        return self._first_dependent.extremes(first, last)[0] < bound
