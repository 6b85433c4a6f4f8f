"""MaltEval 1.0's text output (formatting only): the argument echo, the header block of each
table, column widths, the dashes lines, cells (``-`` for NaN, integers plain, other numbers
with the DecimalFormat pattern), ``--tab``, ``--header-info 0`` and ``--row-header 0``; and
the run as JSON.

Input text (row labels built from FORMs, LEMMAs, tags, FEATS, DEPRELs; confusion-matrix
headers; file names; the argument echo) reaches the text only through
:func:`conll_eval.errors.printable`: an ESC, a CR, a TAB (MaltTab's FORMs may hold one), a
bidi override is spelt out (``\\x1b``, ``\\r``, ``\\t``, ``\\u202e``) and the columns are sized
on what is printed; ordinary text is unchanged, so the output stays MaltEval's byte for byte.
JSON keeps every value as it was read, JSON-escaped, and escapes what a terminal would act
on too (:func:`items_json`).
"""
from __future__ import annotations

import json
import math
import re
from typing import List, Sequence

from ..analyze.java import decimal_format
from ..analyze.run import Header, Text
from ..analyze.tables import Table
from ..errors import printable

__all__ = ["format_cell", "format_table", "format_header", "format_items", "format_result_files",
           "items_as_data", "items_json"]

RULE = "=" * 52
_ROW_MEAN, _ROW_COUNT = "Row mean", "Row count"


def format_cell(value, pattern: str) -> str:
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "-"
    return decimal_format(value, pattern)


def _cell_width(value, pattern: str) -> int:
    """Java sizes a column on DecimalFormat's text of every cell, integers included, but prints
    integers plain and NaN as ``-``: ``1092`` takes the room of ``1,092``, NaN that of ``NaN``."""
    return len(decimal_format(value, pattern))


def _spelt_out(texts: Sequence[str]) -> Sequence[str]:
    """Each of ``texts`` through :func:`printable`; one scan of them all in the usual case
    (nothing to spell out: ``texts`` itself)."""
    joined = "".join(texts)
    if printable(joined) is joined:
        return texts
    return [printable(text) for text in texts]


def format_header(gold: str, system: str, lines: List[str]) -> str:
    """The block above a table: rules, file names, ``Param-> value`` lines."""
    return "".join(f"{printable(line)}\n" for line in
                   [RULE, f"Gold:   {gold}", f"Parsed: {system}", RULE, *lines, "", RULE, ""])


def format_table(table: Table, formatting) -> str:
    """The table itself: column headers, dashes, Row mean/Row count, detail rows, the
    ``N more...`` line (with header info) and the closing empty line (with header info)."""
    pattern = formatting.pattern
    columns = [[format_cell(v, pattern) for v in column] for column in table.cells]
    every = table.all_cells or table.cells
    means = [(format_cell(m, pattern), str(c)) for m, c in table.means]
    headers = _spelt_out(table.headers)  # a confusion matrix's are tags
    row_heading = printable(table.row_heading)
    labels = _spelt_out(table.labels)
    widths = [max([len(h), _cell_width(mean, pattern), len(c)]
                  + [_cell_width(v, pattern) for v in column])
              for h, column, (mean, _), (_, c) in zip(headers, every, table.means, means)]
    label_width = max([len(row_heading), len(_ROW_MEAN), len(_ROW_COUNT)]
                      + [len(label) for label in _spelt_out(table.all_labels) or labels])
    dashes = "-" * (sum(w + 3 for w in widths) + label_width)

    def line(cells: Sequence[str], label: str) -> str:
        if formatting.tab:
            text = "".join(f"{cell}\t" for cell in cells)
        else:
            text = "".join(cell.ljust(w + 3) for cell, w in zip(cells, widths))
        return text + (label if formatting.row_header else "") + "\n"

    out = [printable(table.caption) + "\n"] if table.caption and formatting.header_info else []
    out += [line(headers, row_heading), dashes + "\n"]
    if table.show_means:
        out.append(line([m for m, _ in means], _ROW_MEAN))
        out.append(line([c for _, c in means], _ROW_COUNT))
        out.append(dashes + "\n")
    if table.show_details:
        for i, label in enumerate(labels):
            out.append(line([column[i] for column in columns], label))
    if formatting.header_info:  # a cut says so with or without the detail rows
        out.append(f"{table.more} more...\n" if table.more else "\n")
    return "".join(out)


def format_items(items, echo: str, formatting, echo_once: bool = True) -> str:
    """A whole run (:func:`conll_eval.analyze.run.run`): the argument echo (before the first
    header block, unless ``echo_once`` is false) and the header blocks with header info, every
    table, and the lines printed in any case."""
    out = []
    echoed = not (formatting.header_info and echo_once)
    for item in items:
        if isinstance(item, Header):
            if formatting.header_info:
                if not echoed:  # with the first header (warnings may come before it)
                    out.append(printable(echo) + "\n")
                    echoed = True
                out.append(format_header(item.gold, item.system, list(item.lines)))
        elif isinstance(item, Text):
            out.append(printable(item.text, keep_newlines=True))
        else:
            out.append(format_table(item, formatting))
    return "".join(out)


def format_result_files(items, echo: str, formatting):
    """``--output DIRECTORY``: (what still goes to stdout, file name -> text).  Each header
    block starts a file, which begins with the argument echo (with header info); lines before
    the first block (MaltEval's warnings) stay on stdout; a name used twice keeps the last."""
    files = {}
    current = None
    stdout = []
    for item in items:
        if isinstance(item, Header):
            current = item.file
            files[current] = [printable(echo) + "\n"] if formatting.header_info else []
        target = stdout if current is None else files[current]
        target.append(format_items([item], echo, formatting, echo_once=False))
    return "".join(stdout), {name: "".join(parts) for name, parts in files.items()}


def _value(cell):
    return None if isinstance(cell, float) and math.isnan(cell) else cell


def items_as_data(items, argv) -> dict:
    """A whole run as JSON-ready data: every table with the files and parameters above it, its
    rows (key, cell per column, and for tables of one evaluation the four word counts), Row
    mean / Row count and the number of rows a cut left out; NaN is None."""
    tables = []
    header = None
    for item in items:
        if isinstance(item, Header):
            header = item
            continue
        if isinstance(item, Text):
            continue
        rows = []
        for i, label in enumerate(item.labels):
            row = {"key": label,
                   "values": {h: _value(column[i]) for h, column in zip(item.headers, item.cells)}}
            if item.counters is not None:
                row["counts"] = {side: values[i] for side, values in item.counters.items()}
            rows.append(row)
        tables.append({  # names spelt out, as in every output; values kept as read
            "gold": printable(header.gold) if header and header.gold is not None else None,
            "system": printable(header.system) if header and header.system is not None else None,
            # a result table knows its evaluation's lines; the others take the block above
            "parameters": list(item.header_lines or (header.lines if header else ())),
            "caption": item.caption,
            "row_heading": item.row_heading,
            "columns": list(item.headers),
            "rows": rows,
            "row_mean": {h: _value(m) for h, (m, _) in zip(item.headers, item.means)},
            "row_count": {h: c for h, (_, c) in zip(item.headers, item.means)},
            "more": item.more or 0,
        })
    return {"arguments": [printable(arg) for arg in argv], "tables": tables}


#: what ``json.dumps(..., ensure_ascii=False)`` leaves raw that a terminal would act on (it
#: escapes C0 controls itself): DEL and C1 controls, bidi controls, line separators, lone
#: surrogates; in JSON text they can only stand inside strings
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")


def items_json(items, argv) -> str:
    """:func:`items_as_data` as JSON text: every value as it was read (a FORM with an ESC is
    that FORM), JSON-escaped, with the characters a terminal would act on escaped too
    (``\\u001b``, ``\\u202e``, ``\\u0085``): the text holds none of them raw, and
    ``json.loads`` gives the values back unchanged but an undecodable byte, spelt out
    (``\\xff``) so that the text is valid UTF-8; file names and arguments spelt out."""
    text = json.dumps(items_as_data(items, argv), ensure_ascii=False, indent=1) + "\n"
    return _RAW_IN_JSON.sub(_json_escape, text)


def _json_escape(match: "re.Match[str]") -> str:
    """A character of :data:`_RAW_IN_JSON` as JSON text: ``\\u202e``; an undecodable byte
    (a lone surrogate, which no UTF-8 text holds) spelt out as :func:`printable` does,
    ``\\xff`` (the JSON text of a backslash, ``x``, ``ff``)."""
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:
        return "\\\\" + printable(match.group())[1:]
    return f"\\u{code:04x}"
