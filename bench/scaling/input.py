"""Input shapes that made reading cost memory out of proportion (issue 40, points 4 and 5).

- A file of blank lines (100 MB: 1.98 GB at the peak): the exact parser took the whole file as a
  list of lines, and the scan sized its per-word room by the newlines.  Here: blank lines
  between two valid sentences (the error, empty-sentence, is at the first extra blank line),
  and comments between sentences, which score.
- A compressed bomb (1 MB of gzip, 1 GiB of newlines: 10.5 GB, then MemoryError): decompressed
  whole before reading.  Here: gzip bombs of newlines and of one sentence again and again, which
  must cost the same at every size (the reader stops at the first error, or at the compression
  ratio's limit, after a bounded part of them).
"""
from __future__ import annotations

import gzip
import os
from typing import List

from . import Case, write_repeated

SENTENCE = ("# sent_id = s\n# text = Hello world\n1\tHello\t_\t_\t_\t_\t0\troot\t_\t_\n"
            "2\tworld\t_\t_\t_\t_\t1\tobj\t_\t_\n\n").encode()


def _between(middle: bytes, name: str):
    def build(directory: str, n: int) -> List[str]:
        path = os.path.join(directory, f"{name}.conllu")
        write_repeated(path, SENTENCE, middle, n, SENTENCE)
        return [path, path]
    return build


def _bomb(middle: bytes, name: str):
    def build(directory: str, n: int) -> List[str]:
        path = os.path.join(directory, f"{name}.gz")
        write_repeated(path, SENTENCE, middle, n, SENTENCE, gzip.open)
        return [path, path]
    return build


CASES = [
    Case("blank-lines", "5", _between(b"\n", "blank"), sizes=(20_000_000,), exit_codes=(1,),
         memory=True, unit="lines", note="blank lines between two sentences: empty-sentence"),
    Case("comment-lines", "5", _between(b"# a comment\n", "comments"), sizes=(2_000_000,),
         memory=True, unit="lines", note="comments before the second sentence: scored"),
    Case("gzip-bomb-newlines", "4", _bomb(b"\n", "newlines"), sizes=(200_000_000,),
         exit_codes=(1,), memory=True, unit="lines", note="empty-sentence after a bounded read"),
    Case("gzip-bomb-sentences", "4", _bomb(SENTENCE, "sentences"), sizes=(4_000_000,),
         exit_codes=(1,), memory=True, unit="sentences",
         note="compression-ratio once 16 MiB came out (both sizes over 2 MB compressed: read in "
              "two threads)"),
]
