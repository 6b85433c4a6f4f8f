"""Table layouts the formats share: percent cells, aligned text and Markdown grids, and
delimited (TSV/CSV) text.  Formatting only.

Number cells are :class:`Num`: right-aligned so that every row's number ends in the same
column, whatever mark follows it (``!`` a failed treebank, ``**`` bold), so a table of
treebank rows and average rows reads straight down::

    Treebank   oracle  parser
    --------------------------
    de_fische  100.00    0.00!
    en_cats    100.00   75.00
    --------------------------
    Macro (5)  100.00   35.00

and so does the source of a Markdown table::

    | Treebank      |   oracle   |  parser   |
    | ------------- | ---------: | --------: |
    | de_fische     |   100.00   |    0.00!  |
    | **Macro (5)** | **100.00** | **35.00** |
"""
from __future__ import annotations

import io
from typing import Collection, List, NamedTuple, Optional, Sequence, Union

from .escape import markdown_text, printable

__all__ = ["fixed", "percent", "Num", "Markdown", "text_table", "markdown_table", "delimited"]


def fixed(value: float, decimals: int = 2, signed: bool = False) -> str:
    """``value`` with ``decimals`` decimals (``signed``: with its sign, ``+0.50``), never a
    negative zero: what rounds to zero prints ``0.00`` (``+0.00`` signed), whatever its sign."""
    text = f"{value:+.{decimals}f}" if signed else f"{value:.{decimals}f}"
    if text.startswith("-") and float(text) == 0:
        text = ("+" if signed else "") + text[1:]
    return text


def percent(value: float) -> str:
    """A fraction as the tables print it: percent, 2 decimals (never ``-0.00``)."""
    return fixed(100 * value)


class Num(NamedTuple):
    """A number cell: ``text`` aligned on its last character, ``mark`` after it."""

    text: str
    mark: str = ""


class Markdown(str):
    """A Markdown table cell written as Markdown (``**Macro (5)**``): its input text already
    through :func:`~conll_eval.report.escape.markdown_text`.  A plain ``str`` cell is text and
    is escaped."""


Cell = Union[str, Num]


def _layout(header: Sequence[Cell], rows: Sequence[Sequence[Cell]], left: Collection[int],
            min_width: int = 0) -> List[List[str]]:
    """Every cell padded to its column: the columns in ``left`` flush left, the others flush
    right on the last character of the numbers (and of the plain cells), marks after it."""
    table = [list(header), *(list(row) for row in rows)]
    for k in range(len(header)):
        cells = [row[k] for row in table]
        if k in left:
            width = max(min_width, *(len(str(c)) for c in cells))
            padded = [str(c).ljust(width) for c in cells]
        else:
            marks = max([len(c.mark) for c in cells if isinstance(c, Num)], default=0)
            end = max(min_width - marks, *(len(c.text if isinstance(c, Num) else c) for c in cells))
            padded = [c.text.rjust(end) + c.mark.ljust(marks) if isinstance(c, Num)
                      else c.rjust(end) + " " * marks for c in cells]
        for row, cell in zip(table, padded):
            row[k] = cell
    return table


def text_table(header: Sequence[Cell], rows: Sequence[Sequence[Cell]], left: Collection[int] = (0,),
               rules_before: Collection[int] = ()) -> List[str]:
    """Columns two spaces apart, a rule under the header and before each row numbered in
    ``rules_before``; no trailing spaces.  Text cells are spelt out (:func:`printable`)."""
    header = [c if isinstance(c, Num) else printable(c) for c in header]
    rows = [[c if isinstance(c, Num) else printable(c) for c in row] for row in rows]
    lines = ["  ".join(row).rstrip() for row in _layout(header, rows, left)]
    rule = "-" * max(len(line) for line in lines)
    for k in sorted(rules_before, reverse=True):
        lines.insert(1 + k, rule)
    lines.insert(1, rule)
    return lines


def _escape(cell: Cell) -> Cell:
    """A cell's Markdown: a :class:`Markdown` one as it is, a number's ``|`` escaped, text
    through :func:`markdown_text` (names and tags are input text: ``<img ...>``, ``[x](y)``,
    backticks, a newline must stay literal)."""
    if isinstance(cell, Num):
        return cell._replace(text=cell.text.replace("|", "\\|"))
    return cell if isinstance(cell, Markdown) else markdown_text(str(cell))


def markdown_table(header: Sequence[Cell], rows: Sequence[Sequence[Cell]],
                   left: Collection[int] = (0,)) -> List[str]:
    """A GitHub Markdown table, its source aligned as :func:`text_table` (numbers
    right-aligned, ``left`` columns left-aligned); every plain-text cell escaped
    (:func:`markdown_text`), :class:`Markdown` cells kept."""
    table = _layout([_escape(c) for c in header], [[_escape(c) for c in row] for row in rows],
                    left, min_width=4)
    separator = ["-" * len(cell) if k in left else "-" * (len(cell) - 1) + ":"
                 for k, cell in enumerate(table[0])]
    return ["| " + " | ".join(row) + " |" for row in [table[0], separator, *table[1:]]]


def _field(value: object) -> object:
    """A delimited field: text spelt out, numbers and None (an empty field) as they are."""
    return printable(value) if isinstance(value, str) else value


def delimited(header: Sequence[str], rows: Sequence[Sequence[str]], delimiter: str,
              comment: Optional[str] = None) -> str:
    """TSV or CSV: the header, then the rows (quoted where needed); before them a ``# comment``
    line if one is given, which a reader then has to skip (pandas: ``comment="#"``).  Every
    field is spelt out (:func:`printable`): a name never holds a line break, quoted or not."""
    import csv  # here: start-up time of the other formats

    out = io.StringIO()
    if comment is not None:
        out.write(f"# {comment}\n")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(map(_field, header))
    writer.writerows(map(_field, row) for row in rows)
    return out.getvalue()
