"""The CLAS paper's Tables 2 and 3 (``conll_eval breakdown``): one row per treebank and the
average row, as text, TSV/CSV, Markdown or JSON.  Formatting only; the numbers come from
:mod:`conll_eval.analyze.relations`.  Treebank names, paths and sentence texts are input
text: spelt out (:mod:`.escape`) in every format, Markdown-escaped in Markdown."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from ..analyze.decomposition import KIND_NAMES, KINDS
from ..analyze.relations import (ENHANCED_COLUMNS, TABLE2_COLUMNS, TABLE3_COLUMNS, RelationRow,
                                 average_rows, averaged_over)
from .escape import json_text, kept, markdown_text, printable
from .tables import Num, delimited, fixed, markdown_table, text_table

__all__ = ["TABLES", "relations_text", "relations_markdown", "relations_delimited",
           "relations_json", "errors_rows", "errors_text", "errors_record"]

#: table number (``e``: the enhanced table) -> (title, columns, header cells); the numbers are
#: the paper's (Nivre and Fang 2017: Table 1 defines the groups, Tables 2 and 3 score them), and
#: each title says so
TABLES: Dict[object, Tuple[str, Sequence[str], Sequence[str]]] = {
    2: ("Table 2: LAS by relation group (Table 2 of Nivre and Fang 2017, numbered as there: "
        "their Table 1 lists the groups); LAS-X: LAS without X minus LAS", TABLE2_COLUMNS,
        TABLE2_COLUMNS),
    3: ("Table 3: LAS, CLAS, CLAS-LAS (Table 3 of Nivre and Fang 2017); LAS-X: LAS without the "
        "FUN relation X minus LAS", TABLE3_COLUMNS, TABLE3_COLUMNS),
    "e": ("Enhanced: ELAS by group of enhanced edges (as sets of edges); E-X: ELAS within "
          "group X (CORE, NON-CORE, FUN by the first step's relation; REF: ref; CONJ: "
          "propagated through coordination; CASE: case-marked paths)",
          ENHANCED_COLUMNS, ENHANCED_COLUMNS),
}
AVERAGE = "Average"

Row = Tuple[str, Optional[RelationRow], Optional[str]]  # treebank, its row or None, failure


def _number(value: Optional[float], signed: bool) -> str:
    if value is None:
        return "-"
    return fixed(value, signed=signed)


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
    """``name: not scored: why`` per treebank not scored, spelt out."""
    return [printable(f"{name}: not scored: {failure}") for name, row, failure in rows
            if row is None]


def _average_note(rows: Sequence[Row], columns: Sequence[str]) -> List[str]:
    """The columns whose average leaves out treebanks where they mean nothing."""
    if len(rows) < 2:
        return []
    scored = sum(1 for _, row, _ in rows if row is not None)
    counts = averaged_over([row for _, row, _ in rows], columns)
    fewer = [f"{c} over {n} of {scored}" for c, n in counts.items() if 0 < n < scored]
    if not fewer:
        return []
    return [f"Averages over the treebanks where the column means something ('-': no gold and "
            f"no system word in the group; LAS-X: no word has X): {', '.join(fewer)}"]


def relations_text(rows: Sequence[Row], tables: Sequence[int], signature: str) -> str:
    blocks = []
    for number in tables:
        title, columns, header = TABLES[number]
        cells = _cells(rows, columns)
        body = [[c[0]] + [Num(x) for x in c[1:]] for c in cells]
        lines = text_table(["treebank", *header], body,
                           rules_before=[len(rows)] if len(rows) > 1 else [])
        blocks.append("\n".join([title, *lines, *_average_note(rows, columns)]))
    notes = _failures(rows)
    return "\n\n".join(blocks) + "\n" + "".join(f"{n}\n" for n in notes) + f"{signature}\n"


def relations_markdown(rows: Sequence[Row], tables: Sequence[int], signature: str) -> str:
    blocks = []
    for number in tables:
        title, columns, header = TABLES[number]
        cells = _cells(rows, columns)
        body = [[c[0]] + [Num(x) for x in c[1:]] for c in cells]
        note = _average_note(rows, columns)
        blocks.append("\n".join([f"**{title}**", "", *markdown_table(["treebank", *header], body),
                                 *(["", *note] if note else [])]))
    notes = _failures(rows)
    return ("\n\n".join(blocks) + "\n" + "".join(f"\n{markdown_text(n)}" for n in notes)
            + f"\n`{signature}`\n")


def relations_delimited(rows: Sequence[Row], tables: Sequence[int], delimiter: str) -> str:
    """One table: the treebank column, then every column of the chosen tables (LAS once)."""
    columns = list(dict.fromkeys(c for number in tables for c in TABLES[number][1]))
    return delimited(["treebank", *columns], _cells(rows, columns), delimiter)


def relations_json(rows: Sequence[Row], tables: Sequence[int], signature: str,
                   system: Optional[str] = None) -> str:
    """Per treebank its columns (``null`` where one means nothing) and counts, the average
    of each column over the treebanks where it means something (``null`` over none) and how
    many those are (``average_over``); ``averaged_over``: the treebanks scored."""
    columns = list(dict.fromkeys(c for number in tables for c in TABLES[number][1]))
    treebanks = []
    for name, row, failure in rows:
        record: dict = {"treebank": name}
        if row is None:
            record["failure"] = failure
        else:
            record["columns"] = {c: _rounded(row.value(c)) for c in columns}
            record["counts"] = {key: {"correct": s.correct, "gold": s.gold, "system": s.system}
                                for key, s in row.scores.items()}
        treebanks.append(record)
    present = [row for _, row, _ in rows]
    average = average_rows(present, columns)
    return json_text({"signature": signature, "system": system, "columns": columns,
                      "treebanks": treebanks,
                      "average": {c: _rounded(v) for c, v in average.items()},
                      "average_over": averaged_over(present, columns),
                      "averaged_over": sum(1 for _, row, _ in rows if row is not None)},
                     ensure_ascii=True, indent=1) + "\n"


def _rounded(value: Optional[float]) -> Optional[float]:
    return None if value is None else round(value, 10) + 0.0  # + 0.0: never -0.0


# ---- error decomposition -----------------------------------------------------------------------

def _share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.2f}%)" if total else f"{count}"


def errors_rows(rows):
    """(header, body) of the decomposition table: per treebank a gold and a system line,
    then the totals over the treebanks decomposed."""
    header = ["treebank", "side", "words", *KINDS]
    body = []
    totals = {"gold": dict.fromkeys(KINDS, 0), "system": dict.fromkeys(KINDS, 0)}
    for name, decomposition, _ in rows:
        if decomposition is None:
            continue
        for side, counts in (("gold", decomposition.gold_counts),
                             ("system", decomposition.system_counts)):
            total = sum(counts.values())
            body.append([name, side, str(total), *(_share(counts[k], total) for k in KINDS)])
            for k in KINDS:
                totals[side][k] += counts[k]
    if len([r for r in rows if r[1] is not None]) > 1:
        for side, counts in totals.items():
            total = sum(counts.values())
            body.append(["Total", side, str(total), *(_share(counts[k], total) for k in KINDS)])
    return header, body


def errors_text(rows, worst) -> str:
    """The decomposition table, the kinds explained, and the worst sentences per treebank."""
    header, body = errors_rows(rows)
    lines = ["Every word is one of these kinds (LAS, universal relations):"]
    lines += [f"  {kind}: {text}" for kind, text in KIND_NAMES.items()]
    lines += text_table(header, [[b[0], b[1]] + [Num(c) for c in b[2:]] for b in body],
                        left=(0, 1))
    for name, sentences in worst:
        if not sentences:
            continue
        lines += ["", f"Worst {len(sentences)} sentence(s) of {printable(name)}:"]
        for rank, s in enumerate(sentences, 1):
            kinds = ", ".join(f"{k} {v}" for k, v in s.errors.items())
            extra = f"; {s.extra_system_words} system word(s) without a partner" \
                if s.extra_system_words else ""
            where = f"{s.path}:{s.line}"
            lines.append(printable(f"{rank:>3}. {s.sent_id or '(no sent_id)'}  {where}  "
                                   f"{s.error_count} of {s.words} words wrong: {kinds}{extra}"))
            lines.append(f"     {printable(s.text)}")
    return "\n".join(lines) + "\n"


def errors_record(rows, worst) -> dict:
    """JSON-ready: per treebank the gold and system counts by kind, and its worst sentences;
    names and failures spelt out, sentence ids and texts kept as read (:func:`~.escape.kept`)."""
    records = []
    worst_by_name = dict(worst)
    for name, decomposition, failure in rows:
        if decomposition is None:
            records.append({"treebank": printable(name), "failure": printable(failure)})
            continue
        records.append({
            "treebank": printable(name), "gold": decomposition.gold_counts,
            "system": decomposition.system_counts,
            "worst": [{"sentence": s.index + 1,
                       "sent_id": None if s.sent_id is None else kept(s.sent_id),
                       "line": s.line, "text": kept(s.text), "words": s.words, "errors": s.errors,
                       "extra_system_words": s.extra_system_words}
                      for s in worst_by_name.get(name, [])]})
    return {"errors": records}
