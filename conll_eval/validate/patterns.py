"""The tag sets, column indices, regular expressions and small predicates of CoNLL-U fields, as
udtools spells them.  Every check module reads the fields through these, so one definition
decides what a word id, a relation or whitespace is.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from itertools import combinations
from typing import Optional, Tuple


UPOS_TAGS = frozenset(
    "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split())
UD_RELATIONS = frozenset(
    "acl advcl advmod amod appos aux case cc ccomp clf compound conj cop csubj dep det discourse "
    "dislocated expl fixed flat goeswith iobj list mark nmod nsubj nummod obj obl orphan "
    "parataxis punct reparandum root vocative xcomp".split())

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
COLNAMES = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC".split()

# udtools uses the `regex` module, whose \s is the Unicode White_Space property (unlike
# Python's re, it excludes U+001C..U+001F); str.isspace() is used where udtools uses it.
_WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_RE_WS = re.compile(f"[{_WS}]+")
_RE_WS2 = re.compile(f"[{_WS}][{_WS}]")
_RE_WS_START = re.compile(f"[{_WS}]")
_RE_WS_NOT_TAB = re.compile(f"[{_WS[1:]}]")  # _WS without its leading TAB
_RE_WS_END = re.compile(f"[{_WS}]$")
_RE_WORDID = re.compile(r"[1-9][0-9]*")
_RE_MWTID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
_RE_ENODEID = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
_RE_NEWDOC = re.compile(rf"#[{_WS}]*newdoc(?:[{_WS}]+([^{_WS}]+))?")
_RE_NEWPAR = re.compile(rf"#[{_WS}]*newpar(?:[{_WS}]+([^{_WS}]+))?")
_RE_SENTID = re.compile(rf"#[{_WS}]*sent_id[{_WS}]*=[{_WS}]*([^{_WS}]+)")
_RE_PARALLELID = re.compile(
    rf"#[{_WS}]*parallel_id[{_WS}]*=[{_WS}]*(([a-z]+)/([-0-9a-z]+)"
    r"(?:/(alt[1-9][0-9]*|part[1-9][0-9]*|alt[1-9][0-9]*part[1-9][0-9]*))?)")
_RE_ALTPART = re.compile(r"(?:alt([0-9]+))?(?:part([0-9]+))?")
_RE_TEXT = re.compile(rf"#[{_WS}]*text[{_WS}]*=[{_WS}]*(.*)")
_RE_UPOS = re.compile(r"[A-Z]+")
_RE_FEATVAL = re.compile(
    r"([A-Z][A-Za-z0-9]*(?:\[[a-z0-9]+\])?)=(([A-Z0-9][A-Z0-9a-z]*)(,([A-Z0-9][A-Z0-9a-z]*))*)")
_RE_VAL = re.compile(r"[A-Z0-9][A-Za-z0-9]*")
_RE_HEAD = re.compile(r"0|[1-9][0-9]*")
_RE_EHEAD = re.compile(r"(0|[1-9][0-9]*)(\.[1-9][0-9]*)?")
_RE_DEPREL = re.compile(r"[a-z]+(:[a-z]+)?")
_RE_ASCII_LOWER = re.compile(r"[a-z]+")
_MISC_SINGLE = re.compile(r"(SpaceAfter|Lang|Translit|LTranslit|Gloss|LId|LDeriv|Ref)")
_MISC_TYPO = re.compile(rf"[{_WS}]*(spaceafter|lang|translit|ltranslit|gloss|lid|lderiv|ref)"
                        rf"[{_WS}]*", re.IGNORECASE)



# --- small predicates -------------------------------------------------------------------------

def _is_ws_line(line: str) -> bool:
    return _RE_WS.fullmatch(line) is not None


@functools.lru_cache(maxsize=1 << 12)
def _id_kind(nodeid: str) -> str:
    """'w' (word), 'm' (multiword range), 'e' (empty node) or '' (none of them); cached, as
    the same few ids come back in every sentence."""
    if _RE_WORDID.fullmatch(nodeid):
        return "w"
    if _RE_MWTID.fullmatch(nodeid):
        return "m"
    return "e" if _RE_ENODEID.fullmatch(nodeid) else ""


def _is_word(cols) -> bool:
    return _id_kind(cols[ID]) == "w"


def _is_mwt(cols) -> bool:
    return _id_kind(cols[ID]) == "m"


def _is_empty(cols) -> bool:
    return _id_kind(cols[ID]) == "e"


def _id_tuple(nodeid: str) -> Tuple[int, int]:
    major, _, minor = nodeid.partition(".")
    return (int(major), int(minor) if minor else 0)


@functools.lru_cache(maxsize=1 << 16)
def _deps_list(deps: str) -> Optional[Tuple[Tuple[str, str], ...]]:
    """((head, rel), ...) or None when some item has no colon (udtools: invalid-deps); cached
    (read-only)."""
    if deps == "_":
        return ()
    items = tuple(tuple(hd.split(":", 1)) for hd in deps.split("|"))
    return None if any(len(hd) != 2 for hd in items) else items


def _uni_part(s: str) -> bool:
    """[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+ groups joined by single underscores."""
    for chunk in s.split("_"):
        if not chunk:
            return False
        for ch in chunk:
            cat = unicodedata.category(ch)
            if cat not in ("Ll", "Lm", "Lo") and cat[0] != "M":
                return False
    return True


@functools.lru_cache(maxsize=1 << 14)
def _valid_edeprel(rel: str) -> bool:
    """udtools: ^[a-z]+(:[a-z]+)?(:UNI)?(:[a-z]+)?$ (UNI = Unicode letters, see _uni_part)."""
    parts = rel.split(":")
    if not _RE_ASCII_LOWER.fullmatch(parts[0]) or len(parts) > 4:
        return False
    rest = parts[1:]
    slots = (lambda p: _RE_ASCII_LOWER.fullmatch(p) is not None, _uni_part,
             lambda p: _RE_ASCII_LOWER.fullmatch(p) is not None)
    for chosen in combinations(range(3), len(rest)):
        if all(slots[s](p) for s, p in zip(chosen, rest)):
            return True
    return False


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def _shorten(s: str) -> str:
    return s if len(s) < 25 else s[:20] + "[...]"


def dualdict_get(text: str, key: str):
    """udapi's DualDict lookup on a FEATS/MISC string: '' when absent, the last value wins, an
    item without '=' has the value True."""
    if key not in text or text == "_":
        return ""
    value = ""
    for item in text.split("|"):
        name, eq, val = item.partition("=")
        if name == key:
            value = val if eq else True
    return value
