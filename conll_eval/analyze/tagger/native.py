"""moot's native text files as mooteval's reader sees them: each file becomes a list of
items (token, sentence-break or word-break hint, comment, end of sentence, end of file).

The format flags (``-I`` or guessed from the first file's name) decide whether the first field
of a token line is its best tag and whether ``<cost>`` markers are cut from the analyses;
everything else (blank-line runs, the extra end-of-file EOS, untrimmed token text) is read as
mooteval reads it, with one deliberate difference: an unterminated last line keeps its text.
"""
from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Tuple

import regex

from ...io.byte_input import stdin_binary
from ...io.lines import read_checked

__all__ = ["FLAG_LABELS", "TEXT", "ANALYZED", "TAGGED", "NATIVE", "XML", "USER", "LOCATION",
           "COST", "TOKEN", "HINT", "COMMENT", "EOS", "EOF", "Item", "format_label",
           "parse_format_string", "guess_filename_format", "format_request", "read_items",
           "read_native", "analysis_tag"]

#: format flags, in the order mooteval's "Input format" label lists them
FLAG_LABELS = ("Unknown", "Null", "Native", "XML", "Conserve", "Pretty", "Text", "Analyzed",
               "Tagged", "Location", "Cost", "Trace", "Predict", "Flush", "Pruned", "User")
(UNKNOWN, NULL, NATIVE, XML, CONSERVE, PRETTY, TEXT, ANALYZED, TAGGED, LOCATION, COST, TRACE,
 PREDICT, FLUSH, PRUNED, USER) = (1 << bit for bit in range(len(FLAG_LABELS)))

#: ``-I`` names (lower case) -> flags; the compounds are moot's four "doneness" levels
_FLAG_NAMES = {
    "none": 0, "null": NULL, "unknown": UNKNOWN, "native": NATIVE, "xml": XML,
    "conserve": CONSERVE, "pretty": PRETTY, "text": TEXT, "analyzed": ANALYZED,
    "tagged": TAGGED, "user": USER, "pruned": PRUNED, "location": LOCATION, "loc": LOCATION,
    "cost": COST, "trace": TRACE | FLUSH, "predict": PREDICT | TRACE | FLUSH, "flush": FLUSH,
    "autoflush": FLUSH, "rare": TEXT, "r": TEXT, "mediumrare": TEXT | ANALYZED,
    "mr": TEXT | ANALYZED, "medium": TEXT | TAGGED, "m": TEXT | TAGGED,
    "welldone": TEXT | ANALYZED | TAGGED, "wd": TEXT | ANALYZED | TAGGED,
}
#: file-name parts (case-sensitive) -> flags, read from the last part backwards
_EXTENSIONS = {
    "t": TEXT, "r": TEXT, "rt": TEXT, "mr": TEXT | ANALYZED, "mrt": TEXT | ANALYZED,
    "tt": TEXT | TAGGED, "ttt": TEXT | TAGGED, "m": TEXT | TAGGED, "mt": TEXT | TAGGED,
    "wd": TEXT | ANALYZED | TAGGED, "wdt": TEXT | ANALYZED | TAGGED, "xml": XML, "moot": NATIVE,
}
_WELL_DONE = TEXT | ANALYZED | TAGGED

# item kinds; a HINT (``%%$SB$``, ``%%$WB$``) is compared like a token but written as a comment
TOKEN, HINT, COMMENT, EOS, EOF = range(5)


class Item(NamedTuple):
    """One reader item.  ``line`` is the reader's line counter once the item is read (the
    number of line feeds consumed); ``analyses`` are ``(details, tag)`` pairs in file order,
    duplicates kept."""
    kind: int
    line: int
    text: str = ""
    best: str = ""
    analyses: Tuple[Tuple[str, str], ...] = ()


def format_label(flags: int) -> str:
    """The summary's ``Input format`` label: the set flags joined by commas, ``None`` if none."""
    return ",".join(name for bit, name in enumerate(FLAG_LABELS) if flags >> bit & 1) or "None"


def parse_format_string(text: str, warn: Callable[[str], None]) -> int:
    """``-I`` value -> flags: names separated by commas and/or spaces, case-insensitive, each
    added (or removed with a leading ``!``) left to right; an unknown name is warned about and
    skipped."""
    flags = 0
    for item in regex.split(r"[, ]+", text):
        if not item:
            continue
        negate = item.startswith("!")
        name = (item[1:] if negate else item).lower()
        if name not in _FLAG_NAMES:
            warn(f'TokenIO::parse_format_string(): unknown format flag "{name}"\n')
            continue
        flags = flags & ~_FLAG_NAMES[name] if negate else flags | _FLAG_NAMES[name]
    return flags


def guess_filename_format(filename: str) -> int:
    """Flags from the ``.``-separated parts of a file name, last part first, stopping at the
    first part that is no format name."""
    flags = 0
    for part in reversed([part for part in filename.split(".") if part]):
        if part not in _EXTENSIONS:
            break
        flags |= _EXTENSIONS[part]
    return flags


def format_request(request: Optional[str], first_file: str,
                   warn: Callable[[str], None]) -> int:
    """The reading format of both files: ``-I`` if given and non-empty, else guessed from the
    first file's name (never the second's); WellDone when neither Text, Analyzed nor Tagged
    is set; Native unless XML is (the native reader carries Native whatever was asked)."""
    flags = parse_format_string(request, warn) if request else guess_filename_format(first_file)
    if not flags & _WELL_DONE:
        flags |= _WELL_DONE
    return flags & ~NATIVE if flags & XML else flags | NATIVE


# --- tags of analyses ----------------------------------------------------------------------

#: a bracketed tag: ``[`` then a run of tag characters (an ``_`` right after the bracket is
#: skipped when more tag characters follow it)
_BRACKETED = regex.compile(r"\[(?:_(?=[^ \t\r\n\]<>]))?([^ \t\r\n\]<>]+)")
#: the characters around an unbracketed tag
_AROUND_TAG = " []<>\r\n"
#: a cost marker with the spaces before it (removed from the details with the Cost flag)
_COST = regex.compile(r" *<[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?>")


def analysis_tag(details: str) -> str:
    """The tag of one analysis: the first bracketed tag, else the first run of characters
    outside `` []<>`` and line ends, else the whole text.  mooteval takes the run's end for a
    length (``[ DET]`` gives ``DET]``); this cuts at the end, a deliberate difference."""
    bracketed = _BRACKETED.search(details)
    if bracketed is not None:
        return bracketed.group(1)
    begin = next((i for i, char in enumerate(details) if char not in _AROUND_TAG), None)
    if begin is None:
        return details
    end = next((i for i in range(begin, len(details)) if details[i] in _AROUND_TAG), None)
    return details if end is None else details[begin:end]


def _analyses(fields: List[str], with_cost: bool) -> List[Tuple[str, str]]:
    pairs = []
    for field in fields:
        details = _COST.sub("", field) if with_cost else field
        pairs.append((details, analysis_tag(details)))
    return pairs


def _fields(rest: str) -> List[str]:
    """TAB-separated fields: the spaces after a TAB belong to the separator, the spaces at a
    field's end are dropped, empty fields are skipped."""
    return [field for field in (part.strip(" ") for part in rest.split("\t")) if field]


# --- the reader ----------------------------------------------------------------------------

def read_native(name: str) -> str:
    """The text of a native file (``-``: standard input), decoded with ``surrogateescape``
    (compared as bytes), read in bounded chunks: a line (up to LF, as mooteval's reader cuts
    them) longer than MAX_LINE_BYTES raises the :class:`~conll_eval.errors.InputError`
    ``line-too-long`` after reading at most that much (``/dev/zero`` ends).  A file that
    cannot be opened raises ``open()``'s ``OSError``."""
    if name == "-":
        data = read_checked(stdin_binary().read, name, False, what="a moot file")
    else:
        with open(name, "rb") as handle:
            data = read_checked(handle.read, name, False, what="a moot file")
    return data.decode("utf-8", "surrogateescape")


def read_items(text: str, flags: int) -> List[Item]:
    """Every item of one file's text (decoded with ``surrogateescape``: compared as bytes).

    A blank line (CR LF too) ends a sentence, runs of them once; ``%%`` starts a comment whose
    text keeps a CR; a line starting with TAB adds its fields to the token before it and gives
    that token again; other lines are tokens whose text runs to the first TAB, untrimmed.  At
    end of file an extra EOS follows if any token or comment was read, then EOF.
    """
    tagged, with_cost, located = bool(flags & TAGGED), bool(flags & COST), bool(flags & LOCATION)
    lines = text.split("\n")
    terminated_last = lines[-1] == ""
    if terminated_last:
        lines.pop()
    items: List[Item] = []
    previous_blank_eos = False
    seen_content = False
    token: Optional[Item] = None  # the reader's token object, which a TAB line extends
    for number, line in enumerate(lines, 1):
        counter = number if (number < len(lines) or terminated_last) else number - 1
        if line == "" or line == "\r":
            if not previous_blank_eos:
                items.append(Item(EOS, counter))
            previous_blank_eos = True
            continue
        previous_blank_eos = False
        seen_content = True
        if line.startswith("%%"):
            if line in ("%%$SB$", "%%$WB$"):
                items.append(Item(HINT, counter, line[2:]))
            else:
                items.append(Item(COMMENT, counter, line[2:]))
            continue
        body = line[:-1] if line.endswith("\r") else line
        tab = body.find("\t")
        if tab == 0 and token is not None:
            head, rest = token.text, body[1:]
        else:
            head, rest = (body, "") if tab < 0 else (body[:tab], body[tab + 1:])
        fields = _fields(rest)
        if located and fields:
            fields.pop(0)  # "OFFSET LENGTH": a location, no analysis
        pairs = _analyses(fields, with_cost)
        if tab == 0 and token is not None:
            best = token.best
            if tagged and pairs:
                best = pairs.pop(0)[1]
            token = Item(TOKEN, counter, head, best, token.analyses + tuple(pairs))
        else:
            best = pairs.pop(0)[1] if tagged and pairs else ""
            token = Item(TOKEN, counter, head, best, tuple(pairs))
        items.append(token)
    line_feeds = len(lines) if terminated_last else len(lines) - 1
    if seen_content:
        items.append(Item(EOS, line_feeds))
    items.append(Item(EOF, line_feeds))
    return items
