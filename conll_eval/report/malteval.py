"""MaltEval 1.0's text output (formatting only): the argument echo, the header block of each
table, column widths, the dashes lines, cells (``-`` for NaN, integers plain, other numbers
with the DecimalFormat pattern), ``--tab``, ``--header-info 0`` and ``--row-header 0``."""
from __future__ import annotations

import math
from typing import List

from ..analyze.java import decimal_format
from ..analyze.run import Header, Text
from ..analyze.tables import Table

__all__ = ["format_cell", "format_table", "format_header", "format_items", "format_result_files",
           "items_as_data"]

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


def format_header(gold: str, system: str, lines: List[str]) -> str:
    """The block above a table: rules, file names, ``Param-> value`` lines."""
    return "".join(f"{line}\n" for line in
                   [RULE, f"Gold:   {gold}", f"Parsed: {system}", RULE, *lines, "", RULE, ""])


def format_table(table: Table, formatting) -> str:
    """The table itself: column headers, dashes, Row mean/Row count, detail rows, the
    ``N more...`` line (with header info) and the closing empty line (with header info)."""
    pattern = formatting.pattern
    columns = [[format_cell(v, pattern) for v in column] for column in table.cells]
    every = table.all_cells or table.cells
    means = [(format_cell(m, pattern), str(c)) for m, c in table.means]
    widths = [max([len(h), _cell_width(mean, pattern), len(c)]
                  + [_cell_width(v, pattern) for v in column])
              for h, column, (mean, _), (_, c) in zip(table.headers, every, table.means, means)]
    label_width = max([len(table.row_heading), len(_ROW_MEAN), len(_ROW_COUNT)]
                      + [len(label) for label in table.all_labels or table.labels])
    dashes = "-" * (sum(w + 3 for w in widths) + label_width)

    def line(cells: List[str], label: str) -> str:
        if formatting.tab:
            text = "".join(f"{cell}\t" for cell in cells)
        else:
            text = "".join(cell.ljust(w + 3) for cell, w in zip(cells, widths))
        return text + (label if formatting.row_header else "") + "\n"

    out = [table.caption + "\n"] if table.caption and formatting.header_info else []
    out += [line(table.headers, table.row_heading), dashes + "\n"]
    if table.show_means:
        out.append(line([m for m, _ in means], _ROW_MEAN))
        out.append(line([c for _, c in means], _ROW_COUNT))
        out.append(dashes + "\n")
    if table.show_details:
        for i, label in enumerate(table.labels):
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
                    out.append(echo + "\n")
                    echoed = True
                out.append(format_header(item.gold, item.system, list(item.lines)))
        elif isinstance(item, Text):
            out.append(item.text)
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
            files[current] = [echo + "\n"] if formatting.header_info else []
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
        tables.append({
            "gold": header.gold if header else None,
            "system": header.system if header else None,
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
    return {"arguments": list(argv), "tables": tables}
