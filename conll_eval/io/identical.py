"""Whether a gold and a system input are one file, or two files with the same bytes: a file
scored against itself gets 100.00 in every score, which says nothing about a parser, so the
command line warns (``conll_eval GOLD SYSTEM``, each pair of ``conll_eval suite``).

Cheap: one ``stat`` per path; bytes are compared only for two regular files of the same size,
block by block, stopping at the first block that differs (so at most both files read once,
as scoring reads them anyway, in memory bounded by two blocks).
"""
from __future__ import annotations

import os
import stat
from typing import Optional

__all__ = ["ONE_FILE", "SAME_BYTES", "BLOCK_BYTES", "identical_inputs"]

#: the kinds :func:`identical_inputs` tells apart, as the warning words them
ONE_FILE = "one file"
SAME_BYTES = "two files, the same bytes"

#: the block size of the byte comparison
BLOCK_BYTES = 1 << 20


def identical_inputs(first: str, second: str) -> Optional[str]:
    """:data:`ONE_FILE` when the two paths name one file (the same path, a link, a hard link),
    :data:`SAME_BYTES` when two regular files hold the same bytes; None otherwise, and for
    standard input (``-``), anything but a regular file (a pipe would be consumed) and a path
    that cannot be read (scoring reports that)."""
    if first == "-" or second == "-":
        return None
    try:
        first_stat, second_stat = os.stat(first), os.stat(second)
    except (OSError, ValueError):  # ValueError: a NUL in a path
        return None
    if not (stat.S_ISREG(first_stat.st_mode) and stat.S_ISREG(second_stat.st_mode)):
        return None
    if os.path.samestat(first_stat, second_stat):
        return ONE_FILE
    if first_stat.st_size != second_stat.st_size:
        return None
    try:
        with open(first, "rb") as first_file, open(second, "rb") as second_file:
            while True:
                block = first_file.read(BLOCK_BYTES)
                if block != second_file.read(BLOCK_BYTES):
                    return None
                if not block:
                    return SAME_BYTES
    except OSError:
        return None
