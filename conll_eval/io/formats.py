"""Which format an input file is in, told once per file and carried along as an :class:`InputFormat`.

Treebanks go by their names as MaltEval tells them (MaltXML, MaltTab, CoNLL-U, else CoNLL-X), a
tagger's files by their first lines (CoNLL-U or moot's native text), word-alignment files by their
first link line (NAACL or Pharaoh); compression is told by magic number where the bytes are read
(:func:`~conll_eval.io.byte_input.compression_of`), and what a rejected CoNLL-U file looks like
only after it failed (:mod:`conll_eval.io.diagnoses`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Dict, NamedTuple, Optional, Sequence, Tuple, Union

from .byte_input import compression_of, open_input

__all__ = ["CONLLU", "CONLLX", "MALTTAB", "MALTXML", "MOOT", "NAACL", "PHARAOH", "TREEBANK_FORMATS",
           "TREEBANK", "TAGGER", "LINKS", "CONLLU_SUFFIXES", "InputFormat", "detect_format",
           "malteval_format", "has_conllu_name", "Look", "look_of", "SNIFF_BYTES", "PHARAOH_LINK",
           "is_natural"]

CONLLU, CONLLX, MALTTAB, MALTXML = "conllu", "conllx", "malttab", "maltxml"
MOOT = "moot"
NAACL, PHARAOH = "naacl", "pharaoh"
#: what :func:`~conll_eval.io.read.read_treebank` reads
TREEBANK_FORMATS = (CONLLU, CONLLX, MALTTAB, MALTXML)
#: the families of files, each told its own way
TREEBANK, TAGGER, LINKS = "treebank", "tagger", "links"

#: what MaltEval would read as CoNLL-X but we read as CoNLL-U (comments, multi-word tokens,
#: empty nodes, raw-text tokenization); compared in lower case
CONLLU_SUFFIXES = (".conllu", ".conllu.gz", ".conllu.bz2", ".conllu.xz")

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class InputFormat:
    """One file and its format: one of :data:`TREEBANK_FORMATS`, :data:`MOOT`, :data:`NAACL`,
    :data:`PHARAOH`, or None where nothing tells (an empty file, standard input; for a
    word-alignment file, ``line`` then names the first line that is neither NAACL nor Pharaoh).
    ``evidence`` says what shows the format, for a message."""

    path: str
    name: Optional[str]
    evidence: str = ""
    line: Optional[int] = None


def malteval_format(path: PathLike) -> str:
    """MaltEval's choice by the end of the path (case-sensitive): :data:`MALTXML` for ``.xml``,
    :data:`MALTTAB` for ``.tab``, :data:`CONLLX` for anything else."""
    name = os.fspath(path)
    if name.endswith(".xml"):
        return MALTXML
    if name.endswith(".tab"):
        return MALTTAB
    return CONLLX


def has_conllu_name(path: PathLike) -> bool:
    """Whether the name ends in one of :data:`CONLLU_SUFFIXES` (any case)."""
    return os.fspath(path).lower().endswith(CONLLU_SUFFIXES)


def detect_format(path: PathLike, family: str = TREEBANK, requested: str = "auto",
                  lines: Optional[Sequence[str]] = None) -> InputFormat:
    """The format of ``path``, asked once per file; ``requested`` (not ``auto``) is taken as given.

    :data:`TREEBANK`: by the name, as MaltEval tells (:func:`malteval_format`), a CoNLL-X name
    in :data:`CONLLU_SUFFIXES` being CoNLL-U.  :data:`TAGGER`: by the first lines
    (:func:`look_of`; gzip, bzip2 and xz files decompressed; nothing told for ``-``, a missing or
    unreadable file).  :data:`LINKS`: by the first non-blank line of ``lines`` (the file's
    decoded lines, read by the caller)."""
    name = os.fspath(path)
    if requested != "auto":
        return InputFormat(name, requested)
    if family == TREEBANK:
        told = malteval_format(name)
        return InputFormat(name, CONLLU if told == CONLLX and has_conllu_name(name) else told, "name")
    if family == TAGGER:
        look = _look_of_file(name)
        return InputFormat(name, look.kind, look.evidence)
    if family == LINKS:
        return _link_format(name, lines or ())
    raise ValueError(f"unknown family of files {family!r}")


# ---- a tagger's files: CoNLL-U or moot's native text ------------------------------------------

#: bytes read from the start of a file to tell
SNIFF_BYTES = 65536
#: content lines looked at (blank and comment lines are skipped)
SNIFF_LINES = 50
#: a CoNLL-U ID: a word, a multi-word token range, an empty node
_CONLLU_ID = re.compile(r"[0-9]+(?:-[0-9]+|\.[0-9]+)?\Z")


class Look(NamedTuple):
    """``kind`` (:data:`CONLLU`, :data:`MOOT`, or None: nothing to tell from, e.g. an empty
    file) and what shows it, for a message (``10 TAB-separated columns from line 1``)."""

    kind: Optional[str]
    evidence: str = ""


def look_of(head: bytes) -> Look:
    """What a file starting with ``head`` looks like: CoNLL-U when most of its first content
    lines (not blank, not a ``#`` or ``%%`` comment) are CoNLL-U word lines, moot otherwise."""
    lines = head.decode("utf-8", "replace").split("\n")
    if len(head) >= SNIFF_BYTES:
        lines.pop()  # cut short
    conllu = moot = 0
    first: Dict[str, Tuple[int, int]] = {}
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith(("#", "%%")):
            continue
        fields = line.split("\t")
        kind = CONLLU if len(fields) == 10 and _CONLLU_ID.match(fields[0]) else MOOT
        first.setdefault(kind, (number, len(fields)))
        conllu, moot = conllu + (kind == CONLLU), moot + (kind == MOOT)
        if conllu + moot == SNIFF_LINES:
            break
    if not conllu + moot:
        return Look(None, "no token lines")
    if conllu > moot:
        return Look(CONLLU, f"word lines of 10 TAB-separated columns from line {first[CONLLU][0]}")
    line_number, n_fields = first[MOOT]
    return Look(MOOT, f"token lines of {n_fields} TAB-separated field{'s' * (n_fields != 1)} "
                      f"from line {line_number}, not CoNLL-U's 10")


def _look_of_file(path: str) -> Look:
    """:func:`look_of` the file's first bytes (decompressed); nothing to tell for standard
    input, a missing or unreadable file (each reader reports those)."""
    if path == "-" or not os.path.isfile(path):
        return Look(None)
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
        if compression_of(head[:6]) is not None:
            stream, head = open_input(path, SNIFF_BYTES)
            stream.close()
    except (OSError, ValueError):
        return Look(None)
    return look_of(head)


# ---- word-alignment files: NAACL or Pharaoh -----------------------------------------------------

#: a Pharaoh link: ``3-4`` sure, ``3?4`` or ``3p4`` possible (0-based positions)
PHARAOH_LINK = re.compile(r"(\d+)([-?p])(\d+)\Z")


def is_natural(text: str) -> bool:
    """Digits 0-9 only (``str.isdigit`` alone also takes other scripts' digits)."""
    return text.isascii() and text.isdigit()


def _link_format(path: str, lines: Sequence[str]) -> InputFormat:
    """:data:`PHARAOH` or :data:`NAACL` from the first non-blank line; None for a file without
    one, with ``line`` set where the first such line is neither."""
    for number, text in enumerate(lines, 1):
        fields = text.split()
        if not fields:
            continue
        if all(PHARAOH_LINK.match(f) for f in fields):
            return InputFormat(path, PHARAOH, f"line {number}")
        if 3 <= len(fields) <= 5 and all(is_natural(f) for f in fields[:3]):
            return InputFormat(path, NAACL, f"line {number}")
        return InputFormat(path, None, f"line {number}", number)
    return InputFormat(path, None, "no link lines")
