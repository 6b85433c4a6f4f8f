"""The reading profiles (which official scorer's reader to follow) and the official texts of its errors.

Every reader of :mod:`conll_eval.io` takes a profile name from :data:`PROFILE_NAMES`; this module
says which characters each one removes from FORM and what the profile's UDError would say.
"""
from __future__ import annotations

from typing import Optional

from ..errors import UsageError

__all__ = ["PROFILE_NAMES", "LazyRegex", "space_pattern", "check_profile", "official_message",
           "CR_STAND_IN", "official_int"]

#: Profiles the reader knows; which characters it removes from FORM.
PROFILE_NAMES = ("conll17", "conll18", "iwpt", "udeval")
#: profiles with the IWPT 2020 reader's messages (udeval is its descendant)
_IWPT_READERS = ("iwpt", "udeval")


class LazyRegex:
    """A ``regex`` pattern compiled on first use: ``pattern`` is its text, every other
    attribute (``sub``, ``search``, ...) the compiled pattern's.  Why: importing ``regex``
    costs ~7 ms of start-up, and scoring a regular file on the compiled path only reads the
    space pattern's text."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str):
        self.pattern = pattern
        self._compiled = None

    def __getattr__(self, name: str):
        if self._compiled is None:
            import regex  # here: ~7 ms of start-up that the compiled path never needs

            self._compiled = regex.compile(self.pattern)
        return getattr(self._compiled, name)


_ZS = LazyRegex(r"\p{Zs}")
_ASCII_SPACE = LazyRegex(" ")

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)


#: the character compat's text streams put for a carriage return inside a line (a stream that
#: splits lines at "\n" only keeps it there, where the reader would end the line)
CR_STAND_IN = chr(0xF0000 + 0x800)


def official_int(text: str) -> int:
    """``int(text)`` as the official scripts call it on an ID or HEAD (surrounding whitespace,
    a carriage return included, is ignored); ValueError where they fail."""
    try:
        return int(text)
    except ValueError:
        if CR_STAND_IN not in text:
            raise
        return int(text.replace(CR_STAND_IN, "\r"))


def space_pattern(profile: str):
    """The characters ``profile`` removes from FORM (conll17: ASCII spaces, others: Unicode Zs)."""
    return _ASCII_SPACE if profile == "conll17" else _ZS


def check_profile(profile: str) -> None:
    """UsageError for a profile name that is not one of :data:`PROFILE_NAMES`."""
    if profile not in PROFILE_NAMES:
        raise UsageError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILE_NAMES)}")


def official_message(profile: str, kind: str, line: Optional[int], **kw) -> str:
    """The text of the official script's UDError for ``kind`` (see :mod:`conll_eval.compat`)."""
    at = "" if profile == "conll17" or line is None else f" at line {line}"
    if kind == "unfinished-mwt" and profile == "udeval":
        return f"The CoNLL-U file ends in an unfinished MWT at line {line}"
    if kind in ("columns", "unfinished-mwt"):
        if kw.get("in_mwt") and profile == "conll18":
            at = ""
        return f"The CoNLL-U line does not contain 10 tab-separated columns{at}: '{kw['text']}'"
    if kind == "empty-form":
        return f"There is an empty FORM in the CoNLL-U file{at}"
    if kind == "mwt-id":
        return f"Cannot parse multi-word token ID '{kw['id']}'{at}"
    if kind == "word-id":
        return f"Cannot parse word ID '{kw['id']}'{at}"
    if kind == "unexpected-id":
        return f"Incorrect word ID '{kw['id']}' for word '{kw['form']}', expected '{kw['expected']}'{at}"
    if kind == "head-parse":
        return f"Cannot parse HEAD '{kw['head']}'{at}"
    if kind == "head-negative":
        return f"HEAD cannot be negative{at}"
    if kind == "head-range":
        if profile in _IWPT_READERS:
            return f"HEAD '{kw['head']}' points outside of the sentence that ends at line {line}"
        return f"HEAD '{kw['head']}' points outside of the sentence{at}"
    if kind == "cycle":
        if profile in _IWPT_READERS:
            return f"There is a cycle in the sentence that ends at line {line}"
        return f"There is a cycle in a sentence{at}"
    if kind == "roots":
        roots = kw["roots"]
        if profile == "conll17":
            return "There are multiple roots in a sentence"
        if profile in _IWPT_READERS:
            if kw.get("words") == 0:
                return f"There is a sentence with 0 tokens (possibly a double blank line) at line {line}"
            if roots == 0:
                return f"There are no roots in the sentence that ends at {line}"
            return f"There are multiple roots in the sentence that ends at {line}"
        return f"There are {roots} roots in a sentence{at}"
    if kind == "final":
        return "The CoNLL-U file does not end with empty line"
    raise KeyError(kind)

