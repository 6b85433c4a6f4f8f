"""What a tagger input looks like from its first lines: CoNLL-U (10 TAB-separated columns,
an ID first) or moot's native text (``TOKEN<TAB>TAG...``).  ``conll_eval tagger`` picks its
mode by it and refuses a pair of one of each, which mooteval would compare as nonsense."""
from __future__ import annotations

import re
from typing import NamedTuple, Optional

__all__ = ["SNIFF_BYTES", "CONLLU", "MOOT", "Look", "look_of"]

#: bytes read from the start of a file to tell
SNIFF_BYTES = 65536
#: content lines looked at (blank and comment lines are skipped)
SNIFF_LINES = 50
CONLLU, MOOT = "CoNLL-U", "moot"
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
    first = {}
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
    line, n_fields = first[MOOT]
    return Look(MOOT, f"token lines of {n_fields} TAB-separated field{'s' * (n_fields != 1)} "
                      f"from line {line}, not CoNLL-U's 10")
