"""Scaling cases for issue 40 point 9: ``validate`` on files with an incident on every line and
on one huge line or sentence.

- A file of blank lines: every line an ``empty-sentence`` (100 MB took about 5 minutes, an
  incident object per line); runs of them are now counted in one step.  On the compiled screen
  and the numpy path, with LF and with CRLF line ends, and lines of a space (each also a
  ``pseudo-empty-line``).
- A file whose every line has a wrong column count (one incident per line, each different).
- One line of ``n`` bytes without a line end (the bytes waiting for a sentence's end were
  re-copied and re-searched per chunk: 128 MB took 9.8 s), under a raised line limit.
- One sentence of ``n`` words with its ``# text`` (the text check sliced the text per word)
  and with ``n`` multiword ranges over its words (the overlap check built a set per range).
"""
from __future__ import annotations

import os
from typing import List

from . import Case

__all__ = ["CASES"]

#: the one-line case's line is longer than the default limit (1 MiB)
LINE_LIMIT = str(256 << 20)


def _write(directory: str, name: str, data: bytes) -> str:
    path = os.path.join(directory, name)
    with open(path, "wb") as out:
        out.write(data)
    return path


def _blank_lines(end: bytes):
    def build(directory: str, n: int) -> List[str]:
        return ["validate", _write(directory, "blank.conllu", end * n)]
    return build


def _wrong_columns(directory: str, n: int) -> List[str]:
    lines = b"".join(b"%d\tform%d\tlemma\n\n" % (k % 9 + 1, k) for k in range(n // 2))
    return ["validate", _write(directory, "columns.conllu", lines)]


def _one_line(directory: str, n: int) -> List[str]:
    return ["validate", _write(directory, "line.conllu", b"1\t" + b"x" * n)]


def _word(k: int, form: str = "a", misc: str = "_") -> str:
    head, deprel = ("0", "root") if k == 1 else ("1", "dep")
    return f"{k}\t{form}\t{form}\tX\t_\t_\t{head}\t{deprel}\t_\t{misc}"


def _long_text(directory: str, n: int) -> List[str]:
    # every other word without SpaceAfter=No before a word it touches: missing-spaceafter
    # on half the words, so the sentence takes the line-by-line path
    text = "".join("a" if k % 2 else "a " for k in range(n)).rstrip()
    lines = ["# sent_id = 1", f"# text = {text}"] + [_word(k) for k in range(1, n + 1)]
    return ["validate", _write(directory, "text.conllu", ("\n".join(lines) + "\n\n").encode())]


def _overlapping_ranges(directory: str, n: int) -> List[str]:
    lines = ["# sent_id = 1", "# text = x"] + [f"1-{n}\tx" + "\t_" * 8] * n
    lines += [_word(k) for k in range(1, n + 1)]
    return ["validate", _write(directory, "ranges.conllu", ("\n".join(lines) + "\n\n").encode())]


PURE = {"CONLL_EVAL_PURE": "1"}
CASES = [
    # (sizes large enough for the time to stand out of the start-up's noise: 250 MB in 0.3 s)
    Case("validate-blank-lines", "9", _blank_lines(b"\n"), sizes=(250_000_000,),
         exit_codes=(1,), unit="lines", memory=True,
         note="every line an empty-sentence incident, 20 shown, all counted"),
    Case("validate-blank-lines-pure", "9", _blank_lines(b"\n"), sizes=(250_000_000,),
         exit_codes=(1,), unit="lines", memory=True, env=PURE),
    Case("validate-crlf-blank-lines", "9", _blank_lines(b"\r\n"), sizes=(20_000_000,),
         exit_codes=(1,), unit="lines", memory=True),
    Case("validate-space-lines", "9", _blank_lines(b" \n"), sizes=(5_000_000,),
         exit_codes=(1,), unit="lines", memory=True,
         note="pseudo-empty-line and empty-sentence on every line"),
    Case("validate-wrong-columns", "9", _wrong_columns, sizes=(300_000,), exit_codes=(1,),
         unit="lines", memory=True),
    Case("validate-one-line", "9", _one_line, sizes=(32 << 20,), exit_codes=(1,), unit="bytes",
         memory=True, env={"CONLL_EVAL_MAX_LINE_BYTES": LINE_LIMIT}),
    Case("validate-long-text", "9", _long_text, sizes=(200_000,), exit_codes=(1,),
         unit="words"),
    Case("validate-overlapping-ranges", "9", _overlapping_ranges, sizes=(50_000,),
         exit_codes=(1,), unit="ranges"),
]
