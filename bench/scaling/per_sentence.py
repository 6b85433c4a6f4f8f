"""Scaling cases for issue 41 point 4: ``conll_eval GOLD SYSTEM --per-sentence``, a row per gold
sentence with every metric's counts.  ``per-sentence-csv``: ``n`` gold sentences of four words
against a system that joins every two of them into one sentence (its split differs, so system
sentences and words are attributed across gold sentences); ``per-sentence-json``: the same in
JSON, one object per sentence."""
from __future__ import annotations

import os
from typing import List

from . import Case, write_repeated

__all__ = ["CASES"]

#: one gold sentence (sent_id, four words)
GOLD = ("# sent_id = s\n"
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
        "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
        "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n").encode()
#: two gold sentences as one system sentence, one relation and one tag wrong
SYSTEM = ("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
          "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tobj\t_\t_\n"
          "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
          "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n"
          "5\tThe\tthe\tDET\tDT\t_\t6\tdet\t_\t_\n"
          "6\tcat\tcat\tVERB\tNN\tNumber=Sing\t7\tnsubj\t_\t_\n"
          "7\tsleeps\tsleep\tVERB\tVBZ\t_\t3\tparataxis\t_\t_\n"
          "8\t.\t.\tPUNCT\t.\t_\t7\tpunct\t_\t_\n\n").encode()


def _pair(directory: str, n: int) -> List[str]:
    gold, system = os.path.join(directory, "gold.conllu"), os.path.join(directory, "system.conllu")
    write_repeated(gold, b"", GOLD, 2 * (n // 2))
    write_repeated(system, b"", SYSTEM, n // 2)
    return [gold, system]


def _csv(directory: str, n: int) -> List[str]:
    return [*_pair(directory, n), "--per-sentence", "--format", "csv"]


def _json(directory: str, n: int) -> List[str]:
    return [*_pair(directory, n), "--per-sentence", "--format", "json"]


CASES = [
    Case("per-sentence-csv", "41/4", _csv, sizes=(50_000,), unit="sentences", memory=True),
    Case("per-sentence-json", "41/4", _json, sizes=(50_000,), unit="sentences", memory=True),
]
