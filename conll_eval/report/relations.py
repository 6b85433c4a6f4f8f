"""The CLAS paper's Tables 2 and 3 (``conll_eval breakdown``): one row per treebank and the
average row, as text, TSV/CSV, Markdown or JSON.  Formatting only; the numbers come from
:mod:`conll_eval.analyze.relations`."""
from __future__ import annotations

import json
from typing import Dict, List, Optional, Sequence, Tuple

from ..analyze.relations import TABLE2_COLUMNS, TABLE3_COLUMNS, RelationRow, average_rows
from .tables import Num, delimited, markdown_table, text_table

__all__ = ["TABLES", "relations_text", "relations_markdown", "relations_delimited",
           "relations_json"]

#: table number -> (title, columns, header cells)
TABLES: Dict[int, Tuple[str, Sequence[str], Sequence[str]]] = {
    2: ("Table 2: LAS by relation group (Nivre and Fang 2017, Table 1); LAS-X: LAS without X "
        "minus LAS", TABLE2_COLUMNS, TABLE2_COLUMNS),
    3: ("Table 3: LAS, CLAS, CLAS-LAS; LAS-X: LAS without the FUN relation X minus LAS",
        TABLE3_COLUMNS, TABLE3_COLUMNS),
}
AVERAGE = "Average"

Row = Tuple[str, Optional[RelationRow], Optional[str]]  # treebank, its row or None, failure


def _number(value: Optional[float], signed: bool) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _signed(column: str) -> bool:
    """Differences print with their sign."""
    return column.startswith("LAS-") or column == "CLAS-LAS"


def _cells(rows: Sequence[Row], columns: Sequence[str]) -> List[List[str]]:
    out = []
    for name, row, failure in rows:
        if row is None:
            out.append([name] + ["-"] * len(columns))
        else:
            out.append([name] + [_number(row.value(c), _signed(c))
                                 for c in columns])
    if len(rows) > 1:
        average = average_rows([row for _, row, _ in rows], columns)
        scored = sum(1 for _, row, _ in rows if row is not None)
        out.append([f"{AVERAGE} ({scored} of {len(rows)})"]
                   + [_number(average[c], _signed(c)) for c in columns])
    return out


def _failures(rows: Sequence[Row]) -> List[str]:
    return [f"{name}: not scored: {failure}" for name, row, failure in rows if row is None]


def relations_text(rows: Sequence[Row], tables: Sequence[int], signature: str) -> str:
    blocks = []
    for number in tables:
        title, columns, header = TABLES[number]
        cells = _cells(rows, columns)
        body = [[c[0]] + [Num(x) for x in c[1:]] for c in cells]
        lines = text_table(["treebank", *header], body,
                           rules_before=[len(rows)] if len(rows) > 1 else [])
        blocks.append("\n".join([title, *lines]))
    notes = _failures(rows)
    return "\n\n".join(blocks) + "\n" + "".join(f"{n}\n" for n in notes) + f"{signature}\n"


def relations_markdown(rows: Sequence[Row], tables: Sequence[int], signature: str) -> str:
    blocks = []
    for number in tables:
        title, columns, header = TABLES[number]
        cells = _cells(rows, columns)
        body = [[c[0]] + [Num(x) for x in c[1:]] for c in cells]
        blocks.append("\n".join([f"**{title}**", "", *markdown_table(["treebank", *header], body)]))
    notes = _failures(rows)
    return "\n\n".join(blocks) + "\n" + "".join(f"\n{n}" for n in notes) + f"\n`{signature}`\n"


def relations_delimited(rows: Sequence[Row], tables: Sequence[int], delimiter: str) -> str:
    """One table: the treebank column, then every column of the chosen tables (LAS once)."""
    columns = list(dict.fromkeys(c for number in tables for c in TABLES[number][1]))
    return delimited(["treebank", *columns], _cells(rows, columns), delimiter)


def relations_json(rows: Sequence[Row], tables: Sequence[int], signature: str) -> str:
    columns = list(dict.fromkeys(c for number in tables for c in TABLES[number][1]))
    treebanks = []
    for name, row, failure in rows:
        record: dict = {"treebank": name}
        if row is None:
            record["failure"] = failure
        else:
            record["columns"] = {c: round(row.value(c), 10) for c in columns}
            record["counts"] = {key: {"correct": s.correct, "gold": s.gold, "system": s.system}
                                for key, s in row.scores.items()}
        treebanks.append(record)
    average = average_rows([row for _, row, _ in rows], columns)
    return json.dumps({"signature": signature, "columns": columns, "treebanks": treebanks,
                       "average": {c: (None if v is None else round(v, 10))
                                   for c, v in average.items()},
                       "averaged_over": sum(1 for _, row, _ in rows if row is not None)},
                      indent=1) + "\n"
