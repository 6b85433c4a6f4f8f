"""Scaling cases for issue 41 point 3.0: ``--collapse-empty-nodes`` on empty nodes in a cycle,
which it collapses as the UD script does (cyclic paths counted, not used) instead of refusing.
``cycles-many-sentences``: ``n`` sentences, each with a word heading an empty node that is in a
2-cycle with another (the path-into-cycle shape); ``cycle-many-children``: one sentence of ``n``
words, each under one of two empty nodes in a cycle reached from the root (the paths through the
cycle grow with the words, the cyclic ones too).  Both score the file against itself."""
from __future__ import annotations

import os
from typing import List

from . import Case, write_repeated

__all__ = ["CASES", "cycle_sentence"]


def cycle_sentence(children: int) -> bytes:
    """A sentence: word 1 the root, heading ``1.1``, which is in a cycle with ``1.2``; words
    2.. each under ``1.1`` or ``1.2`` in turn."""
    rows = ["1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_",
            "1.1\te\te\tX\t_\t_\t_\t_\t1:conj|1.2:dep\t_",
            "1.2\te\te\tX\t_\t_\t_\t_\t1.1:dep\t_"]
    rows += [f"{w}\tb\tb\tX\t_\t_\t1\tobj\t1.{1 + w % 2}:obj\t_" for w in range(2, children + 2)]
    return ("\n".join(rows) + "\n\n").encode()


def _many_sentences(directory: str, n: int) -> List[str]:
    path = os.path.join(directory, "cycles.conllu")
    write_repeated(path, b"", cycle_sentence(3), n)
    return ["--profile", "iwpt", "--collapse-empty-nodes", path, path]


def _many_children(directory: str, n: int) -> List[str]:
    path = os.path.join(directory, "cycle.conllu")
    with open(path, "wb") as out:
        out.write(cycle_sentence(n))
    return ["--profile", "iwpt", "--collapse-empty-nodes", path, path]


CASES = [
    Case("cycles-many-sentences", "41/3.0", _many_sentences, sizes=(20_000,), unit="sentences",
         memory=True),
    Case("cycle-many-children", "41/3.0", _many_children, sizes=(40_000,), memory=True),
]
