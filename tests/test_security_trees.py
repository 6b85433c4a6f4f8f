"""Issue 40, points 6 and 8: the tree algorithms that were quadratic on a head chain or a fan
(the validator's projectivity, its level 3 punctuation and span checks, analyze's ArcDepth and
ArcProjectivity) give what the definitions give.  Each linear function is compared with a
straightforward reference written here from the definition, on random forests that include
chains, fans, non-projective trees and several sentences (and roots) in one array; the compiled
screen's projectivity is compared with the definition and the numpy path's incidents.  How the
time and memory grow is the scaling benchmark's business (bench/scaling/trees.py)."""
from __future__ import annotations

import dataclasses
import random
from typing import List

import numpy as np
import pytest

from conll_eval.analyze import tree_arrays
from conll_eval.validate import screen as screen_module
from conll_eval.validate import validate_bytes
from conll_eval.validate.contents import Words
from conll_eval.validate.relations import SpanChecks
from conll_eval.validate.tree_index import BLOCK, RangeExtremes


# ---- random trees ------------------------------------------------------------------------

def random_tree(rng: random.Random, n: int) -> List[int]:
    """HEADs (1-based, 0 the root) of an ``n``-word tree of a random shape: a chain either
    way, a fan on one word, a projective or a random (often non-projective) tree."""
    shape = rng.choice(["chain", "chain-left", "fan", "random", "random", "projective"])
    heads = [0] * (n + 1)
    root = rng.randint(1, n)
    if shape == "chain":
        heads = [0] + [w - 1 for w in range(1, n + 1)]
    elif shape == "chain-left":
        heads = [0] + [w + 1 if w < n else 0 for w in range(1, n + 1)]
    elif shape == "fan":
        heads = [0] + [0 if w == root else root for w in range(1, n + 1)]
    elif shape == "projective":  # a chain towards the root on each side, then a few fans
        for w in range(1, n + 1):
            heads[w] = w + 1 if w < root else w - 1
        heads[root] = 0
    else:
        order = [root] + rng.sample([w for w in range(1, n + 1) if w != root], n - 1)
        for k, w in enumerate(order[1:], 1):
            heads[w] = order[rng.randrange(k)] if rng.random() < 0.7 else order[k - 1]
        heads[root] = 0
    return heads[1:]


def forest(rng: random.Random) -> np.ndarray:
    """Global 0-based heads (-1 a root word) of a few sentences, some with several roots."""
    heads: List[int] = []
    for _ in range(rng.randint(1, 4)):
        n = rng.choice([1, 2, 3, rng.randint(4, 12), rng.randint(20, 200)])
        tree = random_tree(rng, n)
        if n > 2 and rng.random() < 0.2:  # a second tree in the sentence (CoNLL-X allows it)
            tree[rng.randrange(n)] = 0
        offset = len(heads)
        heads += [h - 1 + offset if h else -1 for h in tree]
    return np.array(heads, dtype=np.int64)


def ancestors(head: np.ndarray, word: int) -> List[int]:
    out = []
    while head[word] >= 0:
        word = int(head[word])
        out.append(word)
    return out


# ---- analyze: depths, walk times, range extremes, ArcProjectivity -------------------------

@pytest.mark.parametrize("seed", range(40))
def test_depth_root_and_walk_times_follow_the_definitions(seed):
    rng = random.Random(seed)
    head = forest(rng)
    depth, root = tree_arrays.depth_and_root(head)
    enter, leave = tree_arrays.walk_times(head, root)
    up = [ancestors(head, w) for w in range(len(head))]
    assert depth.tolist() == [len(a) for a in up]
    assert root.tolist() == [a[-1] if a else w for w, a in enumerate(up)]
    assert sorted(enter.tolist() + leave.tolist()) == list(range(2 * len(head)))
    for w in range(len(head)):
        for h in rng.sample(range(len(head)), min(len(head), 30)):
            assert (enter[h] < enter[w] < leave[h]) == (h in up[w]), (w, h)


def test_depth_of_a_long_chain_and_a_cycle():
    n = 5000
    head = np.arange(-1, n - 1)
    depth, root = tree_arrays.depth_and_root(head)
    assert depth.tolist() == list(range(n)) and not root.any()
    enter, leave = tree_arrays.walk_times(head, root)
    assert enter.tolist() == list(range(n)) and leave.tolist() == list(range(2 * n - 1, n - 1, -1))
    with pytest.raises(ValueError, match="cycle"):
        tree_arrays.depth_and_root(np.array([1, 2, 0, -1]))


@pytest.mark.parametrize("seed", range(20))
def test_range_extremes_are_min_and_max(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-1000, 1000, size=int(rng.integers(1, 3000)))
    first = rng.integers(0, len(values), size=500)
    last = np.minimum(first + rng.integers(0, len(values), size=500) // rng.integers(1, 50),
                      len(values) - 1)
    low, high = tree_arrays.range_extremes(values, first, last)
    assert low.tolist() == [values[a:b + 1].min() for a, b in zip(first, last)]
    assert high.tolist() == [values[a:b + 1].max() for a, b in zip(first, last)]
    python = RangeExtremes(values.tolist())
    assert [python.extremes(int(a), int(b)) for a, b in zip(first, last)] == \
        list(zip(low.tolist(), high.tolist()))


def non_projective_by_definition(head: np.ndarray, malteval: bool) -> List[int]:
    """Some word strictly between a word and its head is not under the head; MaltEval skips
    the word just before a dependent whose head is on its left."""
    out = []
    for d, h in enumerate(head.tolist()):
        between = range(min(d, h) + 1, max(d, h))
        if h < 0:
            out.append(0)
            continue
        if malteval and h < d:
            between = range(h + 1, d - 1)
        out.append(int(any(h not in ancestors(head, w) for w in between)))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_non_projective_arcs_follow_the_definition(seed):
    head = forest(random.Random(seed))
    for malteval in (False, True):
        assert tree_arrays.non_projective_arcs(head, malteval).tolist() == \
            non_projective_by_definition(head, malteval)


def test_malteval_skips_the_word_before_a_right_dependent():
    # word 0 -> word 2 over word 1, which hangs on word 3 (the root): non-projective, but
    # MaltEval does not look at word 1
    head = np.array([3, 3, 0, -1])
    assert tree_arrays.non_projective_arcs(head, malteval=False).tolist() == [0, 0, 1, 0]
    assert tree_arrays.non_projective_arcs(head, malteval=True).tolist() == [0, 0, 0, 0]


# ---- validate level 3: the punctuation and span checks -------------------------------------

def _words(heads: List[int], rng: random.Random) -> Words:
    relations = ["punct", "punct", "fixed", "goeswith", "nsubj", "case", "obj"]
    table = [[str(k), "a", "a", "X", "_", "_", str(h),
              "root" if h == 0 else rng.choice(relations), "_", "_"]
             for k, h in enumerate(heads, 1)]
    return Words(table, 1)


def caused_by_definition(w: Words, node: int, parent: int) -> List[int]:
    """udtools' get_caused_nonprojectivities, as it reads."""
    up, word = {0}, node
    while word:
        word = w.head[word - 1]
        up.add(word)
    if parent < node:
        left, right = range(parent + 1, node), range(node + 1, w.n + 1)
    else:
        left, right = range(1, node), range(node + 1, parent)
    leftcross = [x for x in left if w.head[x - 1] not in up and w.head[x - 1] > node]
    rightcross = [x for x in right if w.head[x - 1] not in up and w.head[x - 1] < node]
    if parent < node:
        rightcross = [x for x in rightcross if w.head[x - 1] > parent]
    else:
        leftcross = [x for x in leftcross if w.head[x - 1] < parent]
    return sorted(leftcross + rightcross)


def under(w: Words, word: int) -> set:
    out, stack = set(), [word]
    while stack:
        for child in w.children[stack.pop()]:
            out.add(child)
            stack.append(child)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_level3_tree_questions_follow_the_definitions(seed):
    rng = random.Random(seed)
    n = rng.choice([1, 2, 5, rng.randint(6, 40), rng.randint(BLOCK, 5 * BLOCK)])
    w = _words(random_tree(rng, n), rng)
    for node in range(1, n + 1):
        parent = w.head[node - 1]
        assert SpanChecks._caused_nonprojectivities(w, node, parent) == \
            caused_by_definition(w, node, parent), node
        lo, hi = min(node, parent), max(node, parent)
        dominated = under(w, parent) if parent else set(range(1, n + 1))
        expected = parent != 0 and hi - lo > 1 and any(x not in dominated
                                                         for x in range(lo + 1, hi))
        assert w.is_nonprojective(node) == expected
        assert all(w.tree.descends(x, node) == (x in under(w, node))
                   for x in rng.sample(range(1, n + 1), min(n, 20)))


class _Collect(SpanChecks):
    """The span checks alone, with incidents as tuples."""

    def _incident(self, testid, line, message, klass="SYNTAX", severity="error"):
        return (testid, line, message)


def fixed_and_goeswith_by_definition(w: Words) -> List[tuple]:
    out = []
    for rel in ("fixed", "goeswith"):
        groups: dict = {}
        for i, udeprel in enumerate(w.udeprel):
            if udeprel == rel and w.head[i]:
                groups.setdefault(w.head[i], []).append(i + 1)
        for node, kids in groups.items():
            members = sorted([node] + kids)
            span = list(range(node, kids[-1] + 1))
            if rel == "fixed" and any(w.udeprel[x - 1] != "punct" and x not in members
                                      for x in span):
                out.append(("fixed-gap", node))
            if rel == "goeswith" and members != span:
                out.append(("goeswith-gap", node))
    return sorted(out)


@pytest.mark.parametrize("seed", range(40))
def test_fixed_and_goeswith_gaps_follow_the_definitions(seed):
    rng = random.Random(seed)
    w = _words(random_tree(rng, rng.randint(1, 60)), rng)
    checks, found = _Collect(), []
    checks._fixed_span(w, found)
    checks._goeswith(w, found)
    gaps = sorted((inc[0], node + 1) for node, _rank, inc, _delayed in found
                  if inc[0] in ("fixed-gap", "goeswith-gap"))
    assert gaps == fixed_and_goeswith_by_definition(w)


# ---- the compiled screen: projectivity, and the same incidents as the numpy path -----------

def _conllu(trees: List[List[int]], rng: random.Random) -> bytes:
    out = []
    for k, heads in enumerate(trees):
        n = len(heads)
        out.append(f"# sent_id = s{k}\n# text = {' '.join(['a'] * n)}\n")
        for i, h in enumerate(heads, 1):
            rel = "root" if h == 0 else rng.choice(["punct", "dep", "nmod", "fixed"])
            upos = "PUNCT" if rel == "punct" else "NOUN"
            out.append(f"{i}\ta\ta\t{upos}\t_\t_\t{h}\t{rel}\t_\t_\n")
        out.append("\n")
    return "".join(out).encode()


def projective_by_definition(heads: List[int]) -> bool:
    """Every word's subtree covers a contiguous range of words."""
    n = len(heads)
    head = np.array([h - 1 if h else -1 for h in heads])
    spans = {w: [w] for w in range(n)}
    for w in range(n):
        for a in ancestors(head, w):
            spans[a].append(w)
    return all(max(s) - min(s) + 1 == len(s) for s in spans.values())


@pytest.mark.skipif(not screen_module.AVAILABLE, reason="the compiled core is not built")
@pytest.mark.parametrize("seed", range(10))
def test_screen_projectivity_follows_the_definition(seed):
    rng = random.Random(seed)
    trees = [random_tree(rng, rng.choice([1, 2, 4, rng.randint(5, 30), rng.randint(100, 400)]))
             for _ in range(30)]
    screen = screen_module.Screen.__new__(screen_module.Screen)
    screen.verdicts = [screen_module._Verdicts(judge) for judge in screen_module._JUDGES]
    screen.scratch = {}
    found = screen._screen(_conllu(trees, rng))
    flags = found["flags"]
    unclean = flags & screen_module.cvalidate.SENTENCE_FLAGS["unclean"]
    nonprojective = flags & screen_module.cvalidate.SENTENCE_FLAGS["nonprojective"]
    assert not unclean.any()
    assert [not bool(f) for f in nonprojective] == [projective_by_definition(t) for t in trees]


def _incidents(data: bytes, level: int, screened: bool, monkeypatch) -> list:
    monkeypatch.setattr(screen_module, "AVAILABLE", screened)
    return [dataclasses.astuple(inc) for inc in validate_bytes(data, "f", level)]


@pytest.mark.skipif(not screen_module.AVAILABLE, reason="the compiled core is not built")
@pytest.mark.parametrize("seed", range(10))
def test_screen_gives_the_numpy_paths_incidents_on_tree_shapes(seed, monkeypatch):
    rng = random.Random(seed)
    trees = [random_tree(rng, rng.choice([1, 3, rng.randint(4, 30), rng.randint(60, 300)]))
             for _ in range(12)]
    data = _conllu(trees, rng)
    for level in (2, 3):
        assert _incidents(data, level, True, monkeypatch) == \
            _incidents(data, level, False, monkeypatch)
