"""Suite and leaderboard outputs: text, JSON, TSV/CSV, Markdown, and the shared-task
wrappers' TIRA layouts (REFERENCE.md c.4).  Scores are percent with 2 decimals in the text
formats and fractions in [0, 1] in JSON; every format carries the signature.

A single system prints one row per treebank (``conll_eval suite testdata/suite/gold
testdata/suite/system --metrics LAS,MLAS,BLEX``)::

    Treebank       LAS    MLAS    BLEX  Status
    ---------------------------------------------------------
    de_fische     0.00    0.00    0.00  FAILED [empty-file]
    de_kuehe      0.00    0.00    0.00  FAILED [missing-file]
    en_cats      75.00  100.00  100.00  ok
    en_dogs     100.00  100.00  100.00  ok
    fr_oiseaux    0.00    0.00    0.00  FAILED [cycle]
    ---------------------------------------------------------
    Macro (5)    35.00   40.00   40.00
"""
from __future__ import annotations

import csv
import io
import json
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ..suite import Average, SuiteEvaluation, TreebankResult, tira_status
from .machine import score_record

__all__ = ["suite_text", "suite_json", "suite_table_rows", "suite_delimited", "suite_markdown",
           "tira_stdout", "tira_stderr", "tira_prototext", "percent"]

Ranked = Sequence[Tuple[int, SuiteEvaluation]]


def percent(value: float) -> str:
    """A fraction as the tables print it: percent, 2 decimals."""
    return f"{100 * value:.2f}"


def _treebanks(count: int) -> str:
    return f"{count} treebank{'' if count == 1 else 's'}"


def _status_cell(result: TreebankResult) -> str:
    return "ok" if result.ok else f"FAILED [{result.failure.code}]"


def _average_rows(suite: SuiteEvaluation, micro: bool, by_language: bool
                  ) -> List[Tuple[str, Mapping[str, float]]]:
    """(label, metric -> F1) for the macro row and the optional micro and language rows."""
    rows = [(f"Macro ({len(suite.results)})", {m: a.f1 for m, a in suite.macro.items()})]
    if micro:
        rows.append(("Micro", {m: s.f1 for m, s in suite.micro.items()}))
    if by_language:
        for language, averages in suite.by_language().items():
            count = next(iter(averages.values())).count if averages else 0
            rows.append((f"Lang {language} ({count})", {m: a.f1 for m, a in averages.items()}))
    return rows


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int],
          last_left: bool) -> List[str]:
    """Fixed-width columns, two spaces apart: the columns in ``left`` (and the last one when
    ``last_left``) left-aligned, the others (numbers) right-aligned."""
    widths = [max(len(str(row[k])) for row in [header, *rows]) for k in range(len(header))]
    flush_left = set(left) | ({len(header) - 1} if last_left else set())
    return ["  ".join(str(cell).ljust(widths[k]) if k in flush_left else str(cell).rjust(widths[k])
                      for k, cell in enumerate(row)).rstrip() for row in [header, *rows]]


def _failure_lines(suite: SuiteEvaluation, prefix: str = "") -> List[str]:
    lines = []
    failures = suite.failures
    if failures:
        lines.append("")
        lines.append(f"{prefix}Failed treebanks, scored 0 ({len(failures)} of {len(suite.results)}):")
        lines += [f"  {r.entry.name}: {r.failure.message}" for r in failures]
    if suite.unpaired_system:
        lines.append(f"{prefix}System files without a gold file (not scored): "
                     + ", ".join(suite.unpaired_system))
    return lines


def suite_text(suites: Ranked, metrics: Sequence[str], rank_by: str, micro: bool = False,
               by_language: bool = False) -> str:
    """The text table of one system, or of a ranked leaderboard of several."""
    if len(suites) == 1:
        suite = suites[0][1]
        header = ["Treebank", *metrics, "Status"]
        rows = [[r.entry.name, *(percent(r.scores[m].f1) for m in metrics), _status_cell(r)]
                for r in suite.results]
        rows += [[label, *(percent(values[m]) for m in metrics), ""]
                 for label, values in _average_rows(suite, micro, by_language)]
        lines = _grid(header, rows, left=[0], last_left=True)
        rule = "-" * max(len(line) for line in lines)
        lines.insert(1, rule)
        lines.insert(2 + len(suite.results), rule)
        lines += _failure_lines(suite)
        lines += ["", suite.signature]
        return "\n".join(lines) + "\n"
    first = suites[0][1]
    lines = [f"Ranked by macro {rank_by} F1 over {_treebanks(len(first.results))}"]
    header = ["Rank", "System", *metrics, "Failed"]
    rows = [[str(position), suite.system_name, *(percent(suite.macro[m].f1) for m in metrics),
             str(len(suite.failures))] for position, suite in suites]
    table = _grid(header, rows, left=[1], last_left=False)
    table.insert(1, "-" * max(len(line) for line in table))
    lines += table
    for metric in _per_treebank_metrics(metrics, rank_by):
        lines.append("")
        lines.append(f"{metric} F1 per treebank")
        header = ["Treebank", *(suite.system_name for _, suite in suites)]
        rows = [[result.entry.name, *(_cell(suite.results[k], metric) for _, suite in suites)]
                for k, result in enumerate(first.results)]
        rows += _leaderboard_average_rows(suites, metric, micro, by_language)
        table = _grid(header, rows, left=[0], last_left=False)
        table.insert(1, "-" * max(len(line) for line in table))
        table.insert(2 + len(first.results), "-" * max(len(line) for line in table))
        lines += table
    if any(not r.ok for _, suite in suites for r in suite.results):
        lines.append("(! = the treebank failed and scores 0)")
    for _, suite in suites:
        lines += _failure_lines(suite, prefix=f"{suite.system_name}: ")
    lines += ["", first.signature]
    return "\n".join(lines) + "\n"


def _per_treebank_metrics(metrics: Sequence[str], rank_by: str) -> List[str]:
    """The metrics of a leaderboard's per-treebank tables: the ranking one first."""
    return [rank_by, *(m for m in metrics if m != rank_by)]


def _leaderboard_average_rows(suites: Ranked, metric: str, micro: bool,
                              by_language: bool) -> List[List[str]]:
    """Macro (then micro, per-language) rows of one metric, a column per system."""
    per_system = [_average_rows(suite, micro, by_language) for _, suite in suites]
    return [[label, *(percent(rows[k][1][metric]) for rows in per_system)]
            for k, (label, _) in enumerate(per_system[0])]


def _cell(result: TreebankResult, metric: str) -> str:
    value = percent(result.scores[metric].f1)
    return f"{value} " if result.ok else f"{value}!"  # the space keeps the decimal points aligned


def _failure_record(result: TreebankResult) -> Optional[dict]:
    failure = result.failure
    if failure is None:
        return None
    return {"side": failure.side, "code": failure.code, "file": failure.location.path,
            "line": failure.location.line, "message": failure.message, "official": failure.official}


def _treebank_record(result: TreebankResult) -> dict:
    entry = result.entry
    return {
        "name": entry.name, "language": entry.language, "gold": entry.gold, "system": entry.system,
        "status": result.status, "error": _failure_record(result),
        "metrics": {name: score_record(score) for name, score in result.scores.items()},
    }


def _averages_record(averages: Mapping[str, Average]) -> Dict[str, dict]:
    return {name: average.as_dict() for name, average in averages.items()}


def _suite_record(suite: SuiteEvaluation, micro: bool, by_language: bool) -> dict:
    record = {
        "treebanks": [_treebank_record(r) for r in suite.results],
        "macro": _averages_record(suite.macro),
        "failed": [r.entry.name for r in suite.failures],
        "unpaired_system": list(suite.unpaired_system),
    }
    if micro:
        record["micro"] = {name: score_record(score) for name, score in suite.micro.items()}
    if by_language:
        record["by_language"] = {lang: _averages_record(avg) for lang, avg in suite.by_language().items()}
    return record


def suite_json(suites: Ranked, settings: Mapping[str, object], rank_by: str, micro: bool = False,
               by_language: bool = False) -> str:
    """One JSON object.  One system: ``treebanks``, ``macro`` (metric -> precision, recall,
    f1, aligned_accuracy, treebanks), ``failed``, ``unpaired_system`` (plus ``micro`` and
    ``by_language`` on request), ``settings``, ``signature``.  Several systems: ``systems``
    (each with ``name``, ``rank`` and the same fields), ``rank_by``, ``settings``,
    ``signature``.  Scores are fractions in [0, 1]."""
    first = suites[0][1]
    if len(suites) == 1:
        document = {"name": first.system_name, **_suite_record(first, micro, by_language)}
    else:
        document = {"rank_by": rank_by, "systems": [
            {"name": suite.system_name, "rank": position, **_suite_record(suite, micro, by_language)}
            for position, suite in suites]}
    document["settings"] = dict(settings)
    document["signature"] = first.signature
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def suite_table_rows(suites: Ranked, metrics: Sequence[str], micro: bool = False,
                     by_language: bool = False) -> Tuple[List[str], List[List[str]]]:
    """Header and rows for the delimited formats: one row per system and treebank (F1 in
    percent), then the average rows (``treebank`` = ``macro``, ``micro``, ``lang:xx``)."""
    header = ["system", "rank", "treebank", "language", "status", "error_code", *metrics]
    rows = []
    for position, suite in suites:
        for r in suite.results:
            rows.append([suite.system_name, str(position), r.entry.name, r.entry.language,
                         "ok" if r.ok else "failed", "" if r.ok else r.failure.code,
                         *(percent(r.scores[m].f1) for m in metrics)])
        averages = [("macro", "", {m: a.f1 for m, a in suite.macro.items()})]
        if micro:
            averages.append(("micro", "", {m: s.f1 for m, s in suite.micro.items()}))
        if by_language:
            averages += [(f"lang:{lang}", lang, {m: a.f1 for m, a in avg.items()})
                         for lang, avg in suite.by_language().items()]
        for label, language, values in averages:
            rows.append([suite.system_name, str(position), label, language, "", "",
                         *(percent(values[m]) for m in metrics)])
    return header, rows


def suite_delimited(suites: Ranked, metrics: Sequence[str], delimiter: str, micro: bool = False,
                    by_language: bool = False) -> str:
    """TSV or CSV: a ``# signature`` comment line, the header, the rows."""
    header, rows = suite_table_rows(suites, metrics, micro, by_language)
    out = io.StringIO()
    out.write(f"# {suites[0][1].signature}\n")
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _md_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def suite_markdown(suites: Ranked, metrics: Sequence[str], rank_by: str, micro: bool = False,
                   by_language: bool = False) -> str:
    """Markdown tables for pull-request comments, failures listed, the signature below."""
    first = suites[0][1]
    lines: List[str] = []
    if len(suites) > 1:
        lines.append(f"**Ranking by macro {rank_by} F1** ({_treebanks(len(first.results))})")
        lines.append("")
        lines.append(_md_row(["Rank", "System", *metrics, "Failed"]))
        lines.append(_md_row(["---:", "---", *("---:" for _ in metrics), "---:"]))
        lines += [_md_row([position, suite.system_name, *(percent(suite.macro[m].f1) for m in metrics),
                           len(suite.failures)]) for position, suite in suites]
        for metric in _per_treebank_metrics(metrics, rank_by):
            lines.append("")
            lines.append(_md_row(["Treebank", *(f"{suite.system_name} {metric}" for _, suite in suites)]))
            lines.append(_md_row(["---", *("---:" for _ in suites)]))
            for k, result in enumerate(first.results):
                lines.append(_md_row([result.entry.name, *(_cell(suite.results[k], metric).rstrip()
                                                           for _, suite in suites)]))
            averages = _leaderboard_average_rows(suites, metric, micro, by_language)
            macro_label, *macro_values = averages[0]
            lines.append(_md_row([f"**{macro_label}**", *(f"**{v}**" for v in macro_values)]))
            lines += [_md_row(row) for row in averages[1:]]
        if any(not r.ok for _, suite in suites for r in suite.results):
            lines += ["", "(! = the treebank failed and scores 0)"]
    else:
        lines.append(_md_row(["Treebank", *metrics, "Status"]))
        lines.append(_md_row(["---", *("---:" for _ in metrics), "---"]))
        for r in first.results:
            lines.append(_md_row([r.entry.name, *(percent(r.scores[m].f1) for m in metrics),
                                  "ok" if r.ok else f"**failed** `{r.failure.code}`"]))
        for label, values in _average_rows(first, micro, by_language):
            lines.append(_md_row([f"**{label}**", *(f"**{percent(values[m])}**" for m in metrics), ""]))
    failures = [(suite, r) for _, suite in suites for r in suite.failures]
    if failures:
        lines.append("")
        lines.append("Failed treebanks (scored 0):")
        for suite, r in failures:
            owner = f"{suite.system_name} " if len(suites) > 1 else ""
            lines.append(f"- {owner}`{r.entry.name}`: `{r.failure.message}`")
    lines.append("")
    lines.append(f"<sub>`{first.signature}`</sub>")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The shared-task wrappers (conll17_tira_eval.py / conll18_tira_eval.py)

def tira_stdout(suite: SuiteEvaluation) -> str:
    """One line per treebank: ``en_sys2       LAS= 73.33% MLAS= 60.00% BLEX= 70.00% (OK: ...)``
    (conll18, iwpt) or ``sys1          LAS: 89.66 (OK: ...)`` (conll17)."""
    profile = suite.settings.profile
    lines = []
    for r in suite.results:
        status = tira_status(r, profile)
        s = {m: 100 * r.scores[m].f1 for m in r.scores}
        if profile == "conll17":
            lines.append("{:13} LAS:{:6.2f} ({})".format(r.entry.name, s["LAS"], status))
        else:
            lines.append("{:13} LAS={:6.2f}% MLAS={:6.2f}% BLEX={:6.2f}% ({})".format(
                r.entry.name, s["LAS"], s["MLAS"], s["BLEX"], status))
    return "".join(line + "\n" for line in lines)


def tira_stderr(suite: SuiteEvaluation) -> str:
    """``<code padded to 13> <status>`` per treebank."""
    profile = suite.settings.profile
    return "".join("{:13} {}\n".format(r.entry.name, tira_status(r, profile)) for r in suite.results)


def _measure(key: str, value: str) -> str:
    return f'measure{{\n  key: "{key}"\n  value: "{value}"\n}}\n'


def tira_prototext(suite: SuiteEvaluation) -> str:
    """``evaluation.prototext``: the ``total-<Metric>-F1`` macro-averages in metric order,
    then per treebank ``<code>-Status`` and ``<code>-<Metric>-F1``; values with 2 decimals."""
    profile = suite.settings.profile
    metrics = [m for m in suite.metrics if m != "WeightedLAS"]
    macro = suite.macro
    parts = [_measure(f"total-{m}-F1", percent(macro[m].f1)) for m in metrics]
    for r in suite.results:
        parts.append(_measure(f"{r.entry.name}-Status", tira_status(r, profile)))
        parts += [_measure(f"{r.entry.name}-{m}-F1", percent(r.scores[m].f1)) for m in metrics]
    return "".join(parts)
