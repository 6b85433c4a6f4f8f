"""Hypothesis strategies for enhanced dependencies: the pairs of :mod:`strategies` (raw-text
tokenization, multi-word tokens, empty nodes) with a DEPS column written into both files.

A word's gold DEPS is its basic edge plus extra edges drawn from a generator seeded by the
word's form, position and basic edge (so a system word that copies its gold word draws the
same ones): relations with case parts (``obl:in``), multi-step paths (``conj:and>obj``),
``ref``, ``nsubj:xsubj``, edges to empty nodes (``3.1``), shared heads.  System DEPS are then
perturbed: heads moved, case or universal parts changed, edges dropped, duplicated and added.
"""
from __future__ import annotations

import random
from typing import List

from hypothesis import strategies as st

from strategies import generate_pair, random_sources

CASES = ["in", "on", "and", "or", "pass", "relcl", "xsubj", "arg:x", "za"]
RELATIONS = ["nsubj", "obj", "obl", "nmod", "conj", "advcl", "acl", "xcomp", "ref", "det", "case",
             "root", "dep", "mark"]


def _label(r: random.Random) -> str:
    rel = r.choice(RELATIONS)
    if rel in ("obl", "nmod", "conj", "advcl", "acl", "nsubj") and r.random() < 0.5:
        rel += ":" + r.choice(CASES)
    return rel


def _gold_deps(r: random.Random, head: int, deprel: str, n: int, empties: int) -> List[str]:
    edges = [f"{head}:{deprel}"]
    for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
        kind = r.random()
        target = r.randint(0, n)
        if kind < 0.15:
            edges.append(f"{target}:{_label(r)}>{_label(r)}")  # a collapsed path
        elif kind < 0.22 and empties:
            edges.append(f"{r.randint(0, max(0, n - 1))}.{r.randint(1, empties)}:{_label(r)}")
        elif kind < 0.3:
            edges.append(f"{head}:{_label(r)}")  # a second label for the same head
        else:
            edges.append(f"{target}:{_label(r)}")
    return edges


def _perturb(r: random.Random, edges: List[str], n: int) -> List[str]:
    out = []
    for edge in edges:
        head, path = edge.split(":", 1)
        roll = r.random()
        if roll < 0.08:
            continue  # dropped
        if roll < 0.14:
            out.append(edge)  # duplicated
        elif roll < 0.22 and "." not in head:
            head = str(r.randint(0, n))
        elif roll < 0.3:
            steps = path.split(">")
            first, _, case = steps[-1].partition(":")
            steps[-1] = first + ":" + r.choice(CASES) if case or r.random() < 0.5 else first
            path = ">".join(steps)
        elif roll < 0.36:
            steps = path.split(">")
            rest = steps[-1].partition(":")
            steps[-1] = r.choice(RELATIONS) + rest[1] + rest[2]
            path = ">".join(steps)
        out.append(f"{head}:{path}")
    if r.random() < 0.15:
        out.append(f"{r.randint(0, n)}:{_label(r)}")  # added
    return out


def _with_deps(text: str, r: random.Random, system: bool, style: str) -> str:
    """``text`` with its DEPS column rewritten (``style``: ``deps``, ``none`` = all ``_``,
    ``mixed`` = some words ``_`` or empty)."""
    blocks = text.split("\n\n")
    out = []
    for block in blocks:
        lines = block.split("\n")
        words = [i for i, line in enumerate(lines)
                 if line and not line.startswith("#") and line.split("\t")[0].isdigit()]
        empties = sum(1 for line in lines if line and not line.startswith("#")
                      and "." in line.split("\t")[0])
        n = len(words)
        for position, i in enumerate(words):
            cols = lines[i].split("\t")
            if style == "none" or (style == "mixed" and r.random() < 0.2):
                cols[8] = r.choice(["_", "_", ""]) if style == "mixed" else "_"
            else:
                seed = f"{cols[1]}|{position}|{cols[6]}|{cols[7]}"
                edges = _gold_deps(random.Random(seed), int(cols[6]) if cols[6].isdigit() else 0,
                                   cols[7] or "dep", n, empties)
                if system:
                    edges = _perturb(r, edges, n)
                cols[8] = "|".join(edges) if edges else "_"
            lines[i] = "\t".join(cols)
        out.append("\n".join(lines))
    return "\n\n".join(out)


@st.composite
def enhanced_pairs(draw, profile: str = "iwpt"):
    """``(gold_text, system_text)`` with DEPS (sometimes none on one side, or some ``_``)."""
    source = draw(random_sources())
    gold, system = generate_pair(source, "conll18")
    r = random.Random(draw(st.integers(0, 2 ** 32)))
    gold_style = r.choice(["deps"] * 6 + ["none", "mixed"])
    system_style = r.choice(["deps"] * 6 + ["none", "mixed"])
    return _with_deps(gold, r, False, gold_style), _with_deps(system, r, True, system_style)
