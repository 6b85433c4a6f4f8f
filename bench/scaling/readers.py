"""The readers beside the CoNLL-U scorer's (issue 40, points 4, 5 and 9), read through
io/lines.py's LineBlocks: time and memory linear in the input.

- ``--collapse-empty-nodes`` joined the whole collapsed file before reading it (100 MB of blank
  lines: 388 MB at the peak): here a sentence with an empty node and n blank lines (the error,
  empty-sentence, comes after the collapse has run to the end), and n sentences with an empty
  node each, which score.
"""
from __future__ import annotations

import os
from typing import List

from . import Case, write_repeated

#: a sentence with an empty node (its paths collapse into 2's DEPS)
EMPTY_NODE = ("1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n"
              "1.1\tb\tb\tX\t_\t_\t_\t_\t1:conj\t_\n"
              "2\tc\tc\tX\t_\t_\t1\tobj\t1.1:obj\t_\n\n").encode()


def _collapse_blank_lines(directory: str, n: int) -> List[str]:
    path = os.path.join(directory, "blank.conllu")
    write_repeated(path, EMPTY_NODE, b"\n", n)
    return ["--collapse-empty-nodes", path, path]


def _collapse_sentences(directory: str, n: int) -> List[str]:
    path = os.path.join(directory, "empty-nodes.conllu")
    write_repeated(path, b"", EMPTY_NODE, n)
    return ["--collapse-empty-nodes", path, path]


CASES = [
    Case("collapse-blank-lines", "5", _collapse_blank_lines, sizes=(20_000_000,),
         exit_codes=(1,), memory=True, unit="lines",
         note="--collapse-empty-nodes: empty-sentence after the collapse ran to the end"),
    Case("collapse-sentences", "5", _collapse_sentences, sizes=(200_000,), memory=True,
         unit="sentences", note="--collapse-empty-nodes: a sentence with an empty node each"),
]
