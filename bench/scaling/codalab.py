"""Scaling cases for issue 42 point 3: ``conll_eval codalab INPUT OUTPUT``, the scoring program
of a hosted competition, whose outputs include the suite's HTML report.  ``codalab-words``: one
treebank of ``n`` sentences of four words (the report's sentence browser grows with them);
``codalab-treebanks``: ``n`` treebanks of two sentences each (the pairing, the per-treebank
sections and keys grow with them, with ``--per-treebank``)."""
from __future__ import annotations

import os
from typing import List

from . import Case, write_repeated

__all__ = ["CASES"]

#: one gold sentence of four words
GOLD = ("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
        "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
        "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n").encode()
#: the same sentence parsed with one relation wrong
SYSTEM = GOLD.replace(b"\tnsubj\t", b"\tobj\t")


def _task(directory: str) -> tuple:
    ref, res = os.path.join(directory, "input", "ref"), os.path.join(directory, "input", "res")
    os.makedirs(ref)
    os.makedirs(res)
    return ref, res


def _words(directory: str, n: int) -> List[str]:
    ref, res = _task(directory)
    write_repeated(os.path.join(ref, "xx_big.conllu"), b"", GOLD, n)
    write_repeated(os.path.join(res, "xx_big.conllu"), b"", SYSTEM, n)
    return ["codalab", "-j", "1", os.path.join(directory, "input"), os.path.join(directory, "output")]


def _treebanks(directory: str, n: int) -> List[str]:
    ref, res = _task(directory)
    for k in range(n):
        write_repeated(os.path.join(ref, f"xx_t{k}.conllu"), b"", GOLD, 2)
        write_repeated(os.path.join(res, f"xx_t{k}.conllu"), b"", SYSTEM, 2)
    return ["codalab", "-j", "1", "--per-treebank", os.path.join(directory, "input"),
            os.path.join(directory, "output")]


CASES = [
    Case("codalab-words", "42/3", _words, sizes=(20_000,), unit="sentences", memory=True),
    Case("codalab-treebanks", "42/3", _treebanks, sizes=(200,), unit="treebanks"),
]
