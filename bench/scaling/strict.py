"""The scorer's ``--strict`` on files full of validation errors (issue 40, points 5 and 9): it
kept every error incident of both files in ValidationFailed (a sentence and 1M blank lines: 408 MB,
10M: 3.8 GB and 17 s); now a run of blank lines is one object and each class's first
KEPT_PER_GROUP incidents are kept, the rest counted.  Here: a valid sentence and n blank lines
(one run: the time and memory of the count stay flat), on both paths, and n one-line broken
sentences (an incident object each, past the kept head only counted: memory flat, time the
validator's per line).
"""
from __future__ import annotations

import os
from typing import List

from . import Case, write_repeated

SENTENCE = ("# sent_id = s\n# text = Hello world\n1\tHello\t_\tINTJ\t_\t_\t0\troot\t_\t_\n"
            "2\tworld\t_\tNOUN\t_\t_\t1\tobj\t_\t_\n\n").encode()
NUMPY = {"CONLL_EVAL_PURE": "1"}


def _strict(middle: bytes, name: str):
    def build(directory: str, n: int) -> List[str]:
        gold, system = os.path.join(directory, "gold.conllu"), os.path.join(directory, name)
        write_repeated(gold, SENTENCE, middle, 0)
        write_repeated(system, SENTENCE, middle, n)
        return ["--strict", gold, system]
    return build


CASES = [
    Case("strict-blank-lines", "5", _strict(b"\n", "blank.conllu"), sizes=(10_000_000,),
         exit_codes=(1,), memory=True, unit="lines",
         note="--strict: one empty-sentence a blank line, in one IncidentRun"),
    Case("strict-blank-lines-numpy", "5", _strict(b"\n", "blank.conllu"), sizes=(10_000_000,),
         exit_codes=(1,), memory=True, unit="lines", env=NUMPY,
         note="--strict on the numpy path: one empty-sentence a blank line"),
    Case("strict-broken-sentences", "5", _strict(b"x\n\n", "broken.conllu"), sizes=(200_000,),
         exit_codes=(1,), memory=True, unit="sentences",
         note="--strict: two errors a one-line sentence, each class's first kept"),
]
