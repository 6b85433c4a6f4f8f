"""Suite and leaderboard outputs: text, JSON, TSV/CSV, Markdown, and the shared-task
wrappers' TIRA layouts (REFERENCE.md c.4).  Scores are percent with 2 decimals in the text
formats and fractions in [0, 1] in JSON; every format but CSV carries the signature (a CSV
is a plain table; the command line prints its signature on stderr).  Treebank and system
names, paths and messages are input text: spelt out (:mod:`.escape`) in every format,
Markdown-escaped in Markdown.

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

from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..stats import Score
from ..suite import Average, SuiteEvaluation, TreebankResult, tira_status
from .escape import json_text, markdown_text, printable
from .machine import score_record
from .tables import Markdown, Num, delimited, markdown_table, percent, text_table

__all__ = ["suite_text", "suite_json", "suite_table_rows", "suite_delimited", "suite_markdown",
           "pairing_notes", "tira_stdout", "tira_stderr", "tira_prototext", "percent"]

Ranked = Sequence[Tuple[int, SuiteEvaluation]]


def _treebanks(count: int) -> str:
    return f"{count} treebank{'' if count == 1 else 's'}"


def _status_cell(result: TreebankResult) -> str:
    return "ok" if result.ok else f"FAILED [{result.failure.code}]"


def _average_rows(suite: SuiteEvaluation, micro: bool, by_language: bool, coarse: bool = False
                  ) -> List[Tuple[str, Mapping[str, float]]]:
    """(label, metric -> F1) for the macro row and the optional micro, language (with
    --qualitative their mean) and coarse rows."""
    return [(label, values) for label, _, values in _labelled_averages(suite, micro, by_language,
                                                                       coarse)]


def _labelled_averages(suite: SuiteEvaluation, micro: bool, by_language: bool, coarse: bool
                       ) -> List[Tuple[str, str, Mapping[str, Optional[float]]]]:
    """(text label, delimited-table label, metric -> F1) of every average row asked for."""
    rows = [(f"Macro ({len(suite.results)})", "macro", {m: _f1(a) for m, a in suite.macro.items()})]
    if micro:
        rows.append(("Micro", "micro", _micro_f1(suite)))
    if by_language:
        languages = suite.by_language()
        for language, averages in languages.items():
            count = max((a.count for a in averages.values()), default=0)
            rows.append((f"Lang {language} ({count})", f"lang:{language}",
                         {m: _f1(a) for m, a in averages.items()}))
        if suite.qualitative:  # IWPT's qualitative score: the mean over languages
            rows.append((f"Langs ({len(languages)})", "languages",
                         {m: _f1(a) for m, a in suite.language_macro().items()}))
    if coarse:
        for language, scores in suite.coarse.items():
            rows.append((f"Coarse {language}", f"coarse:{language}",
                         {m: None if s is None else s.f1 for m, s in scores.items()}))
        rows.append((f"Coarse ({len(suite.coarse)})", "coarse",
                     {m: _f1(a) for m, a in suite.coarse_macro.items()}))
    return rows


def _f1(average) -> Optional[float]:
    """An average's F1, None over no treebank (no gold file annotates the tag)."""
    return average.f1 if average.count else None


def _micro_f1(suite: SuiteEvaluation) -> Dict[str, Optional[float]]:
    """Metric -> the micro-average F1, None where no gold file annotates the tag."""
    return {m: None if s is None else s.f1 for m, s in suite.micro.items()}


def _percent_cell(value: Optional[float], mark: str = "") -> Num:
    return Num(mark + (NOT_ANNOTATED if value is None else percent(value)), mark)


#: the cell of a tag metric that the gold file does not annotate
NOT_ANNOTATED = "n/a"


def _coverage(suite: SuiteEvaluation, metrics: Sequence[str]) -> List[str]:
    """Which averages leave treebanks out because their gold files lack the tag."""
    lines = []
    for metric in metrics:
        left_out = [printable(r.entry.name) for r in suite.results if metric in r.unannotated]
        if left_out:
            lines.append(f"  {metric}: averaged over {len(suite.results) - len(left_out)} of "
                         f"{len(suite.results)} treebanks; not annotated in {', '.join(left_out)}")
    return lines


def pairing_notes(suite: SuiteEvaluation) -> List[str]:
    """``name: GOLD with SYSTEM`` for each treebank whose files were paired by treebank code
    (their names differ), spelt out."""
    return [printable(f"{r.entry.name}: {r.entry.gold} with {r.entry.system}")
            for r in suite.results if r.entry.by_code]


def _unpaired(suite: SuiteEvaluation) -> List[str]:
    """The system files without a gold file, each with the treebanks it may belong to,
    spelt out."""
    likely: Dict[str, List[str]] = {}
    for r in suite.results:
        for candidate in r.entry.candidates:
            likely.setdefault(candidate, []).append(r.entry.name)
    return [printable(f"{path} (likely for {' or '.join(likely[path])})" if path in likely else path)
            for path in suite.unpaired_system]


def _notes(suite: SuiteEvaluation, metrics: Sequence[str], prefix: str = "") -> List[str]:
    """Below a text table: the failed treebanks, the pairs found by treebank code, the
    system files without a gold file, and which of the shown ``metrics`` leave treebanks out."""
    lines = []
    failures = suite.failures
    if failures:
        lines.append("")
        lines.append(f"{prefix}Failed treebanks, scored 0 ({len(failures)} of {len(suite.results)}):")
        lines += [printable(f"  {r.entry.name}: {r.failure.message}") for r in failures]
    notes = pairing_notes(suite)
    if notes:
        lines.append("")
        lines.append(f"{prefix}Paired by treebank code (the file names differ):")
        lines += [f"  {note}" for note in notes]
    if suite.unpaired_system:
        lines.append(f"{prefix}System files without a gold file (not scored): "
                     + ", ".join(_unpaired(suite)))
    coverage = _coverage(suite, metrics)
    if coverage:
        lines.append("")
        lines.append(f"{prefix}Tags some gold files do not annotate (n/a: every value is _):")
        lines += coverage
    return lines


def _bold(label: str) -> Markdown:
    """A Markdown cell: ``label`` (input text: a language code) escaped, in bold."""
    return Markdown(f"**{markdown_text(label)}**")


def _treebank_rows(suite: SuiteEvaluation, metrics: Sequence[str], micro: bool,
                   by_language: bool, bold: bool = False,
                   status: Callable[[TreebankResult], str] = _status_cell,
                   coarse: bool = False) -> List[list]:
    """One system's rows: per treebank the F1 cells and the status, then the averages (bold
    Markdown cells if asked)."""
    rows = [[r.entry.name, *(Num(NOT_ANNOTATED) if m in r.unannotated else
                             Num(percent(r.scores[m].f1)) for m in metrics), status(r)]
            for r in suite.results]
    mark = "**" if bold else ""
    rows += [[_bold(label) if bold else label, *(_percent_cell(values[m], mark) for m in metrics), ""]
             for label, values in _average_rows(suite, micro, by_language, coarse)]
    return rows


#: the line under a text or Markdown table of averages over two or more treebanks: they are means
#: of the unrounded F1 scores (the shared tasks' wrapper's ``total-*-F1``), so the mean of the
#: printed column may differ in its last digit (by 0.01; written so, as the note has no number
#: that reads like a table cell).  The TIRA layout (:func:`tira_stdout`, the
#: wrapper's own, byte for byte) and the machine formats have none.
AVERAGE_NOTE = ("Averages are of unrounded F1s, as the shared tasks' wrapper takes them: the "
                "printed column's mean may differ in the last digit.")


def _average_note(suite: SuiteEvaluation) -> List[str]:
    """:data:`AVERAGE_NOTE` where an average is over two or more treebanks (of one, it is the
    treebank's own number)."""
    return [AVERAGE_NOTE] if len(suite.results) > 1 else []


def suite_text(suites: Ranked, metrics: Sequence[str], rank_by: str, micro: bool = False,
               by_language: bool = False, coarse: bool = False, signature: bool = True) -> str:
    """The text table of one system, or of a ranked leaderboard of several; the signature
    last when ``signature``."""
    first = suites[0][1]
    if len(suites) == 1:
        lines = text_table(["Treebank", *metrics, "Status"],
                           _treebank_rows(first, metrics, micro, by_language, coarse=coarse),
                           left=(0, len(metrics) + 1), rules_before=[len(first.results)])
        lines += _average_note(first)
        lines += _notes(first, metrics)
    else:
        lines = [f"Ranked by macro {rank_by} F1 over {_treebanks(len(first.results))}"]
        lines += text_table(*_ranking(suites, metrics), left=(1,))
        lines += _average_note(first)
        for metric in _per_treebank_metrics(metrics, rank_by):
            lines.append("")
            lines.append(f"{metric} F1 per treebank")
            lines += text_table(["Treebank", *(suite.system_name for _, suite in suites)],
                                _leaderboard_rows(suites, metric, micro, by_language, coarse=coarse),
                                rules_before=[len(first.results)])
        if any(not r.ok for _, suite in suites for r in suite.results):
            lines.append("(! = the treebank failed and scores 0)")
        for _, suite in suites:
            lines += _notes(suite, metrics, prefix=f"{printable(suite.system_name)}: ")
    if signature:
        lines += ["", first.signature]
    return "\n".join(lines) + "\n"


def _ranking(suites: Ranked, metrics: Sequence[str]) -> Tuple[List[str], List[list]]:
    """Header and rows of a leaderboard's ranking: rank, system, macro F1s, failed treebanks."""
    return (["Rank", "System", *metrics, "Failed"],
            [[str(position), suite.system_name, *(_percent_cell(_f1(suite.macro[m])) for m in metrics),
              str(len(suite.failures))] for position, suite in suites])


def _per_treebank_metrics(metrics: Sequence[str], rank_by: str) -> List[str]:
    """The metrics of a leaderboard's per-treebank tables: the ranking one first."""
    return [rank_by, *(m for m in metrics if m != rank_by)]


def _leaderboard_rows(suites: Ranked, metric: str, micro: bool, by_language: bool,
                      bold: bool = False, coarse: bool = False) -> List[list]:
    """One metric, a column per system: the treebank rows (``!`` after a failed treebank's
    number), then the macro (micro, per-language) rows, the macro one bold if asked."""
    first = suites[0][1]
    rows = [[result.entry.name, *(_cell(suite.results[k], metric) for _, suite in suites)]
            for k, result in enumerate(first.results)]
    per_system = [_average_rows(suite, micro, by_language, coarse) for _, suite in suites]
    for k, (label, _) in enumerate(per_system[0]):
        mark = "**" if bold and k == 0 else ""
        rows.append([_bold(label) if mark else label,
                     *(_percent_cell(averages[k][1][metric], mark) for averages in per_system)])
    return rows


def _cell(result: TreebankResult, metric: str) -> Num:
    if metric in result.unannotated:
        return Num(NOT_ANNOTATED, "" if result.ok else "!")
    return Num(percent(result.scores[metric].f1), "" if result.ok else "!")


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
        "paired_by_code": entry.by_code, "candidates": list(entry.candidates),
        "status": result.status, "error": _failure_record(result),
        "metrics": {name: dict(score_record(score, name not in result.unannotated),
                               annotated=name not in result.unannotated)
                    for name, score in result.scores.items()},
    }


def _micro_record(suite: SuiteEvaluation, metric: str) -> dict:
    """The counts summed over the treebanks whose gold files annotate ``metric`` (how many:
    ``treebanks``); over none, zero counts and null scores."""
    score = suite.micro[metric]
    summed = sum(metric not in r.unannotated for r in suite.results)
    if score is None:
        return dict(score_record(Score(0, 0, 0), annotated=False), treebanks=0)
    return dict(score_record(score), treebanks=summed)


def _averages_record(averages: Mapping[str, Average]) -> Dict[str, dict]:
    return {name: average.as_dict() for name, average in averages.items()}


def _coarse_record(suite: SuiteEvaluation) -> dict:
    """Per language the summed counts' scores (null where n/a) and their mean over languages."""
    return {"languages": {lang: {m: None if s is None else dict(score_record(s))
                                 for m, s in scores.items()}
                          for lang, scores in suite.coarse.items()},
            "macro": _averages_record(suite.coarse_macro)}


def _suite_record(suite: SuiteEvaluation, micro: bool, by_language: bool,
                  coarse: bool = False) -> dict:
    record = {
        "treebanks": [_treebank_record(r) for r in suite.results],
        "macro": _averages_record(suite.macro),
        "failed": [r.entry.name for r in suite.failures],
        "unpaired_system": list(suite.unpaired_system),
    }
    if micro:
        record["micro"] = {name: _micro_record(suite, name) for name in suite.micro}
    if by_language:
        record["by_language"] = {lang: _averages_record(avg) for lang, avg in suite.by_language().items()}
        record["language_macro"] = _averages_record(suite.language_macro())
    if coarse:
        record["coarse"] = _coarse_record(suite)
    if suite.qualitative:
        record["lacking_enhancements"] = {r.entry.name: r.entry.enhancements for r in suite.results}
    return record


def suite_json(suites: Ranked, settings: Mapping[str, object], rank_by: str, micro: bool = False,
               by_language: bool = False, coarse: bool = False) -> str:
    """One JSON object.  One system: ``treebanks``, ``macro`` (metric -> precision, recall,
    f1, aligned_accuracy, treebanks), ``failed``, ``unpaired_system`` (plus ``micro`` and
    ``by_language`` with ``language_macro``, ``coarse`` with its ``languages`` and ``macro``,
    on request; ``lacking_enhancements`` with --qualitative), ``settings``, ``signature``.  Several systems: ``systems``
    (each with ``name``, ``rank`` and the same fields), ``rank_by``, ``settings``,
    ``signature``.  Scores are fractions in [0, 1], null where they mean nothing (n/a): a
    tag the treebank's gold file does not annotate, an average over no treebank."""
    first = suites[0][1]
    if len(suites) == 1:
        document = {"name": first.system_name, **_suite_record(first, micro, by_language, coarse)}
    else:
        document = {"rank_by": rank_by, "systems": [
            {"name": suite.system_name, "rank": position,
             **_suite_record(suite, micro, by_language, coarse)}
            for position, suite in suites]}
    document["settings"] = dict(settings)
    document["signature"] = first.signature
    return json_text(document, indent=2) + "\n"


def suite_table_rows(suites: Ranked, metrics: Sequence[str], micro: bool = False,
                     by_language: bool = False, coarse: bool = False
                     ) -> Tuple[List[str], List[List[str]]]:
    """Header and rows for the delimited formats: one row per system and treebank (F1 in
    percent), then the average rows (``treebank`` = ``macro``, ``micro``, ``lang:xx``,
    ``languages``, ``coarse:xx``, ``coarse``)."""
    header = ["system", "rank", "treebank", "language", "status", "error_code", *metrics]
    rows = []
    for position, suite in suites:
        for r in suite.results:
            rows.append([suite.system_name, str(position), r.entry.name, r.entry.language,
                         "ok" if r.ok else "failed", "" if r.ok else r.failure.code,
                         *(NOT_ANNOTATED if m in r.unannotated else percent(r.scores[m].f1)
                           for m in metrics)])
        averages = [(label, label.partition(":")[2], values) for _, label, values
                    in _labelled_averages(suite, micro, by_language, coarse)]
        for label, language, values in averages:
            rows.append([suite.system_name, str(position), label, language, "", "",
                         *(NOT_ANNOTATED if values[m] is None else percent(values[m])
                           for m in metrics)])
    return header, rows


def suite_delimited(suites: Ranked, metrics: Sequence[str], delimiter: str, micro: bool = False,
                    by_language: bool = False, signature: bool = True, coarse: bool = False) -> str:
    """TSV or CSV: the header and the rows, after a ``# signature`` comment line when
    ``signature`` (the CSV has none: it stays a table any CSV reader takes as it is)."""
    return delimited(*suite_table_rows(suites, metrics, micro, by_language, coarse), delimiter,
                     comment=suites[0][1].signature if signature else None)


def _markdown_status(result: TreebankResult) -> str:
    return "ok" if result.ok else Markdown(f"**failed** {markdown_text(result.failure.code)}")


def suite_markdown(suites: Ranked, metrics: Sequence[str], rank_by: str, micro: bool = False,
                   by_language: bool = False, coarse: bool = False) -> str:
    """Markdown tables for pull-request comments, failures listed, the signature below."""
    first = suites[0][1]
    lines: List[str] = []
    if len(suites) > 1:
        lines.append(f"**Ranking by macro {rank_by} F1** ({_treebanks(len(first.results))})")
        lines.append("")
        lines += markdown_table(*_ranking(suites, metrics), left=(1,))
        lines += ["", *_average_note(first)] if _average_note(first) else []
        for metric in _per_treebank_metrics(metrics, rank_by):
            lines.append("")
            lines += markdown_table(["Treebank", *(f"{suite.system_name} {metric}"
                                                   for _, suite in suites)],
                                    _leaderboard_rows(suites, metric, micro, by_language, bold=True,
                                                      coarse=coarse))
        if any(not r.ok for _, suite in suites for r in suite.results):
            lines += ["", "(! = the treebank failed and scores 0)"]
    else:
        lines += markdown_table(["Treebank", *metrics, "Status"],
                                _treebank_rows(first, metrics, micro, by_language, bold=True,
                                               status=_markdown_status, coarse=coarse),
                                left=(0, len(metrics) + 1))
        lines += ["", *_average_note(first)] if _average_note(first) else []
    for title, items in _markdown_notes(suites):
        lines += ["", title, *(f"- {item}" for item in items)]
    lines.append("")
    lines.append(f"<sub>`{first.signature}`</sub>")
    return "\n".join(lines) + "\n"


def _markdown_notes(suites: Ranked) -> List[Tuple[str, List[str]]]:
    """(title, bullet items in Markdown): failed treebanks, pairs by treebank code, unpaired
    system files; the names and messages escaped (:func:`markdown_text`), no code spans."""
    def owner(suite: SuiteEvaluation) -> str:
        return f"{suite.system_name} " if len(suites) > 1 else ""
    failed = [markdown_text(f"{owner(suite)}{r.entry.name}: {r.failure.message}")
              for _, suite in suites for r in suite.failures]
    paired = [markdown_text(f"{owner(suite)}{note}")
              for _, suite in suites for note in pairing_notes(suite)]
    unpaired = [markdown_text(f"{owner(suite)}{path}")
                for _, suite in suites for path in _unpaired(suite)]
    return [(title, items) for title, items in [
        ("Failed treebanks (scored 0):", failed),
        ("Paired by treebank code (the file names differ):", paired),
        ("System files without a gold file (not scored):", unpaired)] if items]


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
            lines.append("{:13} LAS:{:6.2f} ({})".format(printable(r.entry.name), s["LAS"], status))
        else:
            lines.append("{:13} LAS={:6.2f}% MLAS={:6.2f}% BLEX={:6.2f}% ({})".format(
                printable(r.entry.name), s["LAS"], s["MLAS"], s["BLEX"], status))
    return "".join(line + "\n" for line in lines)


def tira_stderr(suite: SuiteEvaluation) -> str:
    """``<code padded to 13> <status>`` per treebank."""
    profile = suite.settings.profile
    return "".join("{:13} {}\n".format(printable(r.entry.name), tira_status(r, profile))
                   for r in suite.results)


def _quoted(text: str) -> str:
    """A protocol-buffer text string: spelt out, then ``\\`` and ``"`` escaped."""
    return '"' + printable(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _measure(key: str, value: str) -> str:
    return f'measure{{\n  key: {_quoted(key)}\n  value: {_quoted(value)}\n}}\n'


def tira_prototext(suite: SuiteEvaluation) -> str:
    """``evaluation.prototext``: the ``total-<Metric>-F1`` macro-averages in metric order,
    then per treebank ``<code>-Status`` and ``<code>-<Metric>-F1``; values with 2 decimals."""
    profile = suite.settings.profile
    metrics = [m for m in suite.metrics if m != "WeightedLAS"]
    macro = suite.official_macro  # the wrapper averages every treebank
    parts = [_measure(f"total-{m}-F1", percent(macro[m].f1)) for m in metrics]
    for r in suite.results:
        parts.append(_measure(f"{r.entry.name}-Status", tira_status(r, profile)))
        parts += [_measure(f"{r.entry.name}-{m}-F1", percent(r.scores[m].f1)) for m in metrics]
    return "".join(parts)
