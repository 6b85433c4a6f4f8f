"""How a system and a treebank are named after their paths: one rule for every command that
names them (suite, compare, breakdown, report, alignment), so a name one prints is a name
another takes (``--baseline``, ``--names``)."""
from __future__ import annotations

import os
from typing import List, Optional, Sequence

from .errors import UsageError

__all__ = ["CONLLU_SUFFIX", "COMPRESSED_SUFFIXES", "file_stem", "treebank_name", "system_names"]

CONLLU_SUFFIX = ".conllu"
#: compressed files read transparently; their suffix is no part of a name
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
#: gold file stems that name the file's role, not its treebank: named after their directory
ROLE_STEMS = ("gold",)


def file_stem(path: str) -> str:
    """A file's name without ``.conllu`` (or ``.conllu.gz``, ``.bz2``, ``.xz``):
    ``en_ewt-ud-test.conllu`` -> ``en_ewt-ud-test``."""
    base = os.path.basename(path)
    for suffix in (CONLLU_SUFFIX,) + tuple(CONLLU_SUFFIX + c for c in COMPRESSED_SUFFIXES):
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return base


def treebank_name(path: str) -> str:
    """A treebank named after its gold file: ``en_ewt-ud-test.conllu`` -> ``en_ewt-ud-test``;
    a file named just ``gold.conllu`` after its directory (``ud/en_ewt/gold.conllu`` ->
    ``en_ewt``)."""
    stem = file_stem(path)
    if stem in ROLE_STEMS:
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or stem
    return stem


def _system_stem(path: str) -> str:
    """``runs/a/pred.conllu`` -> ``runs/a/pred``: the path without its file's extension (and
    compression suffix); a directory's path as it is; ``-`` is ``stdin``."""
    if path == "-":
        return "stdin"
    path = os.path.normpath(path)
    if not os.path.isfile(path):
        return path
    head, base = os.path.split(path)
    for suffix in COMPRESSED_SUFFIXES:
        if base.endswith(suffix):
            base = base[:-len(suffix)]
    stem = os.path.splitext(base)[0] or base
    return os.path.join(head, stem)


def system_names(paths: Sequence[str], given: Optional[str], prog: str) -> List[str]:
    """The systems' names: ``given`` (``--names A,B``) split, else each path's last part
    without its file extension (``runs/a/pred.conllu`` -> ``pred``); where two clash, the
    paths so shortened (``runs/a/pred``, ``runs/b/pred``).  A usage error naming ``prog``
    for a wrong ``--names`` or a system given twice."""
    if given is not None:
        names = [name.strip() for name in given.split(",")]
        if len(names) != len(paths) or len(set(names)) != len(names) or not all(names):
            raise UsageError(f"{prog}: --names: {len(paths)} distinct non-empty name(s), one "
                             f"per system in order, not {given!r}")
        return names
    stems = [_system_stem(p) for p in paths]
    for names in ([os.path.basename(s) or s for s in stems], stems):
        if len(set(names)) == len(names):
            return names
    raise UsageError(f"{prog}: a system is given twice: name the systems with --names A,B,...")
