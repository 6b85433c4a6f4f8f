"""Whether a gold and a system file look swapped: the "gold" file looks like parser output and
the "system" file like gold.  The command line then prints a one-line note (``conll_eval GOLD
SYSTEM``, each pair of ``conll_eval suite``); scores and exit codes never change.

The rule, on what a treebank gold file carries and parser output often lacks (a *sign*):

- ``comment lines``: lines starting with ``#`` before a sentence (gold UD files have ``# sent_id``
  and ``# text`` on every sentence; many parsers write none);
- ``multi-word tokens``: range lines ``1-2`` (parsers reading gold words write words only);
- ``empty nodes``: ``1.1`` lines (enhanced annotation, which basic parsers never write);
- ``tags``: one of the LEMMA, UPOS, XPOS, FEATS columns filled (some value not ``_``), the
  four counting as one sign (a parser trained on another treebank of the language may fill
  XPOS and FEATS where the gold leaves both ``_``: that alone is one sign, never two).

The files look swapped when the system file has at least :data:`MIN_SIGNS` signs that the
gold file lacks entirely, and the gold file has none that the system file lacks.  Usual
evaluations never qualify: the gold file has what the parser drops (comments, multi-word
tokens, empty nodes) or both have it; a parser run on raw text writes comments and multi-word
tokens itself.

Cheap: computed from the arrays the reader already holds (a range line, an empty node, the
codes of the tag columns, where each sentence's comments are), no further read of either
file and no per-word Python object; DEPS and MISC, which the reader leaves in the file until
scoring needs them, are not looked at.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from ..treebank import Treebank
from .lazy_fields import LazyMetadata

__all__ = ["SIGNS", "TAG_COLUMNS", "MIN_SIGNS", "annotation_signs", "swapped_evidence",
           "swapped_reason"]

#: the signs of a gold file, as the note names them
SIGNS = ("comment lines", "multi-word tokens", "empty nodes", "tags")
#: the tag columns (Treebank column names), the ``tags`` sign as a whole
TAG_COLUMNS = ("lemma", "upos", "xpos", "feats")
#: how many signs only the system file has make the files look swapped
MIN_SIGNS = 2


def _has_comments(treebank: Treebank) -> bool:
    metadata = treebank.metadata
    if isinstance(metadata, LazyMetadata):  # the scan: where the comment blocks are
        return metadata.has_comments()
    if callable(metadata):  # another lazy reader: unknown, counted as there (no hint from it)
        return True
    sent_ids, sent_texts = metadata  # the exact parser: the sent_id and text comments read
    return any(value is not None for value in sent_ids) or \
        any(value is not None for value in sent_texts)


def _filled(treebank: Treebank, column: str) -> Optional[bool]:
    """Whether some value of ``column`` is not ``_``; None when the column is not in memory."""
    codes = treebank.columns.get(column)
    if not isinstance(codes, np.ndarray):
        return None
    underscore = treebank.vocab.find("_")
    if underscore < 0 or not len(codes):
        return bool(len(codes))
    return bool(codes[0] != underscore) or bool(np.any(codes != underscore))  # the first word first


def annotation_signs(treebank: Treebank) -> Dict[str, Optional[bool]]:
    """Per sign (:data:`SIGNS` but ``tags``, then each of :data:`TAG_COLUMNS` in upper case)
    whether ``treebank`` has it (None: not known without reading the file again)."""
    signs: Dict[str, Optional[bool]] = {
        "comment lines": _has_comments(treebank),
        "multi-word tokens": bool(treebank.word_is_mwt.any()),
        "empty nodes": bool(len(treebank.empty_sent)),
    }
    for column in TAG_COLUMNS:
        signs[column.upper()] = _filled(treebank, column)
    return signs


def _only_in(first: Dict[str, Optional[bool]], second: Dict[str, Optional[bool]]) -> Tuple[str, ...]:
    """The signs ``first`` has and ``second`` lacks (both known), the tag columns as one sign
    named after them (``LEMMA/FEATS``)."""
    only = [sign for sign in SIGNS[:-1] if first[sign] is True and second[sign] is False]
    tags = [column.upper() for column in TAG_COLUMNS
            if first[column.upper()] is True and second[column.upper()] is False]
    return (*only, "/".join(tags)) if tags else tuple(only)


def swapped_evidence(gold: Treebank, system: Treebank) -> Tuple[str, ...]:
    """The signs only the system file has (``("comment lines", "LEMMA/FEATS")``) when the
    files look swapped (see the module's docstring), else ``()``; ``()`` also for a file
    without words."""
    if not gold.n_words or not system.n_words:
        return ()
    gold_signs, system_signs = annotation_signs(gold), annotation_signs(system)
    if _only_in(gold_signs, system_signs):
        return ()
    evidence = _only_in(system_signs, gold_signs)
    return evidence if len(evidence) >= MIN_SIGNS else ()


def swapped_reason(evidence: Tuple[str, ...], gold: str = "GOLD", system: str = "SYSTEM") -> str:
    """The note's words for :func:`swapped_evidence`'s ``evidence``: ``only SYSTEM has comment
    lines and LEMMA/FEATS values, as gold files do; GOLD looks like parser output``."""
    signs = [f"{sign} values" if sign not in SIGNS else sign for sign in evidence]
    listed = ", ".join(signs[:-1]) + f" and {signs[-1]}" if len(signs) > 1 else signs[0]
    return f"only {system} has {listed}, as gold files do; {gold} looks like parser output"
