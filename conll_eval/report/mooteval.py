"""mooteval's text: the listing lines of compared items and the ``%%`` summary block, byte
for byte as mooteval 2.0.20 prints them (C ``printf`` widths, ``-nan`` and ``inf``).

Counts are printed signed and whole: where mooteval's Disambig. count wraps below zero
(unsigned arithmetic, printed modulo 2^32) this prints the negative count and its ratio.
The files' names are spelt out (:func:`~conll_eval.errors.printable`: one line whatever the
name holds), and so is the text of their items (tokens, tags, analyses, comments): an ESC, a
CR, a TAB inside a field, a bidi override reads ``\\x1b``, ``\\r``, ``\\t``, ``\\u202e``, so the
listing keeps one item per TAB field and one step per line.  Two things stay as they were
read, as mooteval prints them: bytes that are not UTF-8 (mooteval's files are bytes, often
Latin-1: :func:`shown`) and the CR that ends a comment of a CRLF file (its line end, the
comment's last character); ordinary text is unchanged, byte for byte.
"""
from __future__ import annotations

import math
import re
from typing import List, Sequence, Tuple

from ..analyze.tagger.comparison import (B, E1, E2, I1, I2, T, X1, X2, Comparison, FileCounts,
                                         HardError, Step)
from ..analyze.tagger.native import COMMENT, EOF, EOS, HINT, Item
from ..errors import printable

__all__ = ["status_string", "display", "listing", "summary", "error_lines", "RULE", "shown"]

RULE = "%%" + "=" * 67 + "\n"
_STATUS = ((T, "t"), (B, "b"), (None, ":"), (E1, "e"), (I1, "i"), (X1, "x"), (None, ":"),
           (E2, "e"), (I2, "i"), (X2, "x"))


def status_string(flags: int) -> str:
    """``tb:eix:eix`` with ``-`` for each unset flag."""
    return "".join(char if bit is None or flags & bit else "-" for bit, char in _STATUS)


#: a run of undecodable bytes (read with ``surrogateescape``), kept by :func:`shown`
_UNDECODED = re.compile("([\udc80-\udcff]+)")


def shown(text: str) -> str:
    """``text`` (decoded with ``surrogateescape``) as the listing shows it: spelt out by
    :func:`printable`, but for the bytes that are not UTF-8, written back as they were read
    (a Latin-1 file's byte E9 stays that byte, as mooteval prints it)."""
    spelt = printable(text)
    if spelt is text:  # the usual case: nothing to spell out
        return text
    parts = _UNDECODED.split(text)  # text, bytes, text, ...: the bytes at odd places
    return "".join(part if k % 2 else printable(part) for k, part in enumerate(parts))


def display(item: Item) -> str:
    """An item as mooteval's native writer shows it: a token as text, best tag and analyses
    (details, else tag) joined by TABs; a comment or hint as ``%%`` + text (an empty comment
    as nothing); a sentence end or end of file as a placeholder comment."""
    kind = item.kind
    if kind == COMMENT:  # a CRLF file's comment ends in its CR, which mooteval prints
        text, line_end = (item.text[:-1], "\r") if item.text.endswith("\r") else (item.text, "")
        return "%%" + shown(text) + line_end if item.text else ""
    if kind == HINT:
        return "%%" + shown(item.text)
    if kind == EOS:
        return "%% (EOS)\t"
    if kind == EOF:
        return "%% (EOF)\t"
    parts = [item.text, item.best]
    parts.extend(details or tag for details, tag in item.analyses)
    return "\t".join(shown(part) for part in parts)


def listing(steps: Sequence[Step]) -> str:
    """The listing: ``STATUS<TAB>item1<TAB>/<TAB>item2`` per step, an empty line per
    sentence end."""
    return "".join("\n" if step.flags is None else
                   f"{status_string(step.flags)}\t{display(step.first)}\t/\t"
                   f"{display(step.second)}\n" for step in steps)


def error_lines(errors: Sequence[HardError], program: str) -> str:
    """mooteval's hard-error messages, one a line."""
    lines = []
    for error in errors:
        if error.kind == "bail":
            lines.append(f"{program}: too many hard errors ({error.count} > 100) -- "
                         "bailing out!\n")
        else:
            lines.append(f"{program}: {error.kind} lengths differ at lines "
                         f"{error.first_line}/{error.second_line}!\n")
    return "".join(lines)


def _ratio(numerator: int, denominator: int) -> float:
    """``100.0 * x / y`` in IEEE doubles: 0/0 is NaN, x/0 an infinity of x's sign."""
    if denominator == 0:
        return math.nan if numerator == 0 else math.copysign(math.inf, numerator)
    return 100.0 * float(numerator) / float(denominator)


def _number(value: float, width: int) -> str:
    """``%W.2f`` as glibc prints it; a NaN from 0/0 is ``-nan`` (x86-64's default NaN has
    its sign bit set)."""
    if math.isnan(value):
        return "-nan".rjust(width)
    if math.isinf(value):
        return ("inf" if value > 0 else "-inf").rjust(width)
    return f"{value:{width}.2f}"


def _pair(plus: int, minus: int, denominator: int) -> str:
    return (f"{plus:9d} ({_number(_ratio(plus, denominator), 6)}%) / "
            f"{minus:9d} ({_number(_ratio(minus, denominator), 6)}%)")


def _file_lines(tokens: int, counts: FileCounts) -> List[str]:
    given = tokens - counts.empty
    covered = tokens - counts.external
    average = (math.nan if counts.analyses == 0 else math.inf) if given == 0 \
        else float(counts.analyses) / float(given)
    return [
        f"    - Avg. Class Size   : {_number(average, 39)}",
        f"    - Class Given (+/-) : {_pair(given, counts.empty, tokens)}",
        f"    - Saves       (+/-) : {_pair(counts.saves, counts.empty - counts.saves, counts.empty)}",
        f"    - Int. Cover  (+/-) : {_pair(tokens - counts.internal, counts.internal, tokens)}",
        f"    - Ext. Cover  (+/-) : {_pair(covered, counts.external, tokens)}",
        f"    - Disambig.   (+/-) : {_pair(covered - counts.fumbles, counts.fumbles, covered)}",
    ]


def summary(result: Comparison, names: Tuple[str, str], label: str, extended: bool,
            evaluated: Tuple[bool, bool], program: str) -> str:
    """The summary block.  ``extended`` (verbosity 2 and above) adds the six class lines of
    each ``evaluated`` file.  NTokens 0 is shown and used as 1, as mooteval does."""
    tokens = result.tokens or 1
    lines = [f" {program} Summary:",
             f"  + NTokens             : {tokens:9d}",
             f"  + NSentences          : {result.sentences:9d}"]
    for number, (name, counts, shown) in enumerate(zip(names, result.files, evaluated), 1):
        lines.append(f"  + File-{number}              : {printable(name)}")
        lines.append(f'    - Input format      : "{label}"')
        if extended and shown:
            lines.extend(_file_lines(tokens, counts))
    lines.append(f"  + Tokens Equal  (+/-) : "
                 f"{_pair(tokens - result.text_mismatches, result.text_mismatches, tokens)}")
    lines.append(f"  + Tags Equal    (+/-) : "
                 f"{_pair(tokens - result.best_mismatches, result.best_mismatches, tokens)}")
    return RULE + "".join(f"%%{line}\n" for line in lines) + RULE
