"""The output of significance tests (``conll_eval compare``, ``conll_eval suite
--significance``), formatting only: each system's scores with their intervals, per metric the
ranked clusters, the pairwise matrix and the pairs with their differences and p-values; as
text, Markdown, TSV/CSV (one long table) or JSON.  A metric whose gold column is unannotated
(the comparison's ``unannotated``) is ``n/a`` in every cell (JSON: null), never significant."""
from __future__ import annotations

from typing import List, Optional

from .escape import markdown_text, printable
from .tables import Num, delimited, fixed, markdown_table, text_table

__all__ = ["comparison_text", "comparison_markdown", "comparison_delimited",
           "comparison_record", "small_sample_warning", "not_better_lines"]


def small_sample_warning(comparison) -> Optional[str]:
    """``warning: only 3 gold sentences ...`` when a file (or a suite's treebank) has fewer
    sentences than the tests need to be trusted (the treebanks' names spelt out); None
    otherwise."""
    from ..analyze.comparison import MIN_SENTENCES  # here: the analyses load only when asked
    small = comparison.small_strata()
    if not small:
        return None
    where = (f"only {small[0][1]} gold sentence(s)" if not small[0][0] else
             "few gold sentences in " + ", ".join(f"{printable(name)} ({n})" for name, n in small))
    return (f"warning: {where}: below {MIN_SENTENCES} the p-values and intervals are "
            f"unreliable (the paired bootstrap calls equal systems different far more often "
            f"than alpha; see docs/compare.md)")


#: the cell of a number that means nothing (a metric the gold file does not annotate)
NOT_ANNOTATED = "n/a"


def _pct(value: float, signed: bool = False) -> str:
    return fixed(100 * value, signed=signed)


def _interval_text(interval, signed: bool = False) -> str:
    return (f"{_pct(interval.value, signed)} [{_pct(interval.low, signed)}, "
            f"{_pct(interval.high, signed)}]")


def _p_text(p: float) -> str:
    return f"{p:.4f}" if p >= 0.0001 else "<0.0001"


def _significant(comparison, result) -> bool:
    """Significant after correction in every test run on the pair."""
    return comparison.significant(result)


def not_better_lines(comparison, system: int = 0) -> List[str]:
    """``compare --fail-unless-better``: per metric and system ``system`` was tested against,
    where it is not significantly better, its difference to that system (``system`` first),
    the interval and the corrected p-values, e.g. ``LAS: new - old +0.42 [-0.10, +0.95]: not
    significant (corrected p: bootstrap 0.1200, randomization 0.0990; alpha 0.05)``."""
    lines = []
    for metric, result in comparison.not_better(system):
        sign = 1 if result.first == system else -1
        other = comparison.systems[result.second if sign == 1 else result.first]
        low, high = sorted((sign * result.difference.low, sign * result.difference.high))
        value = sign * result.difference.value
        verdict = ("significantly worse" if value < 0 and comparison.significant(result) else
                   "no better" if value <= 0 else "not significant")
        p = ", ".join(f"{test} {_p_text(q)}" for test, q in result.corrected.items())
        lines.append(f"{metric}: {printable(comparison.systems[system])} - {printable(other)} "
                     f"{_pct(value, True)} [{_pct(low, True)}, {_pct(high, True)}]: {verdict} "
                     f"(corrected p: {p}; alpha {comparison.alpha:g})")
    return lines


def _title(comparison) -> str:
    level = round(100 * (1 - comparison.alpha))
    if comparison.strata > 1:
        return (f"Macro-averaged F1 over {comparison.strata} treebanks in %, with {level} % "
                f"bootstrap intervals ({comparison.resamples} paired resamples of the gold "
                f"sentences within each treebank)")
    return (f"F1 in %, with {level} % bootstrap intervals ({comparison.resamples} paired "
            f"resamples of the gold sentences)")


def _sections(comparison):
    """(heading, header, rows, left-aligned columns) of every table, in output order."""
    from ..analyze.comparison import ranked_clusters  # here: the analyses load only when asked
    systems, metrics = comparison.systems, list(comparison.intervals)
    unannotated = comparison.unannotated
    yield (_title(comparison), ["system", *metrics],
           [[name, *(Num(NOT_ANNOTATED if m in unannotated else
                         _interval_text(comparison.intervals[m][k])) for m in metrics)]
            for k, name in enumerate(systems)], (0,))
    for metric in metrics:
        clusters = ranked_clusters(comparison, metric)
        if len(systems) < 3 or not clusters:
            continue
        rows = []
        for first, last, members in clusters:
            rank = str(first) if first == last else f"{first}-{last}"
            rows += [[rank, systems[k], Num(_pct(comparison.intervals[metric][k].value))]
                     for k in members]
        yield (f"{metric}: ranked; systems in one cluster are not significantly different from "
               f"the cluster's best", ["rank", "system", metric], rows, (0, 1))
        order = [k for _, _, members in clusters for k in members]
        yield (f"{metric}: differences (row - column); * significant (corrected p < "
               f"{comparison.alpha:g} in every test)", ["", *(systems[k] for k in order)],
               [[systems[i], *(_matrix_cell(comparison, metric, i, j) for j in order)]
                for i in order], (0,))
    for metric, results in comparison.pairs.items():
        if not results:
            continue
        tests = list(results[0].p)
        if metric in unannotated:
            rows = [[f"{systems[r.first]} - {systems[r.second]}",
                     *(Num(NOT_ANNOTATED) for _ in range(len(tests) + 2)), NOT_ANNOTATED]
                    for r in results]
        else:
            rows = [[f"{systems[r.first]} - {systems[r.second]}",
                     Num(_pct(r.difference.value, True)),
                     Num(f"[{_pct(r.difference.low, True)}, {_pct(r.difference.high, True)}]"),
                     *(Num(_p_text(r.corrected[t])) for t in tests),
                     "yes" if _significant(comparison, r) else "no"] for r in results]
        yield (f"{metric}: differences (first - second) and p-values corrected "
               f"({comparison.correction}) over {len(results)} pair(s)",
               ["pair", "difference", "interval", *tests,
                f"significant (p < {comparison.alpha:g} in every test)"],
               rows, (0, len(tests) + 3))


def _matrix_cell(comparison, metric: str, i: int, j: int) -> Num:
    if i == j:
        return Num(".")
    for r in comparison.pairs[metric]:
        if (r.first, r.second) in ((i, j), (j, i)):
            sign = 1 if r.first == i else -1
            mark = "*" if _significant(comparison, r) else ""
            return Num(_pct(sign * r.difference.value, True), mark)
    return Num("")


def comparison_text(comparison, signature: Optional[str]) -> str:
    """The text tables, the signature last (none when ``signature`` is None)."""
    warning = small_sample_warning(comparison)
    lines: List[str] = [warning, ""] if warning else []
    for heading, header, rows, left in _sections(comparison):
        lines += ([""] if lines and lines[-1] else []) + [heading] + text_table(header, rows, left=left)
    if signature is not None:
        lines += ["", signature]
    return "\n".join(lines) + "\n"


def comparison_markdown(comparison, signature: str) -> str:
    warning = small_sample_warning(comparison)
    lines: List[str] = [f"> **{markdown_text(warning)}**", ""] if warning else []
    for heading, header, rows, left in _sections(comparison):
        lines += ([""] if lines and lines[-1] else []) + [f"**{heading}**", ""]
        lines += markdown_table(header, rows, left=left)
    lines += ["", f"<sub>`{signature}`</sub>"]
    return "\n".join(lines) + "\n"


#: the columns of the long table: one row per score and per pair tested
DELIMITED_HEADER = ["metric", "first", "second", "value", "low", "high", "p_bootstrap",
                    "p_randomization", "p_mcnemar", "significant"]


def comparison_delimited(comparison, signature: str, delimiter: str,
                         comment: bool = True) -> str:
    """One long table (TSV or CSV): a row per system's score (``second`` empty, no p) and a
    row per pair (the difference first - second, corrected p-values); values are fractions,
    as in JSON; ``n/a`` in every cell of an unannotated metric.  TSV carries the signature as a
    ``#`` line."""
    def cell(metric: str):
        def number(value: Optional[float]) -> str:
            if value is None:
                return ""
            return NOT_ANNOTATED if metric in comparison.unannotated else repr(float(value) + 0.0)
        return number  # never -0.0
    rows = []
    for metric, intervals in comparison.intervals.items():
        number = cell(metric)
        for name, interval in zip(comparison.systems, intervals):
            rows.append([metric, name, "", number(interval.value), number(interval.low),
                         number(interval.high), "", "", "", ""])
    for metric, results in comparison.pairs.items():
        number = cell(metric)
        for r in results:
            rows.append([metric, comparison.systems[r.first], comparison.systems[r.second],
                         number(r.difference.value), number(r.difference.low),
                         number(r.difference.high),
                         *(number(r.corrected.get(t)) for t in ("bootstrap", "randomization",
                                                                "mcnemar")),
                         NOT_ANNOTATED if metric in comparison.unannotated else
                         "yes" if _significant(comparison, r) else "no"])
    return delimited(DELIMITED_HEADER, rows, delimiter, signature if comment else None)


def comparison_record(comparison, signature: str) -> dict:
    """The comparison as JSON data; the command line writes it through
    :func:`~conll_eval.report.escape.json_text` (names spelt out); an unannotated metric's
    numbers, p-values, verdicts and clusters are null."""
    from ..analyze.comparison import ranked_clusters  # here: the analyses load only when asked
    unannotated = comparison.unannotated

    def interval(i, metric: str) -> dict:  # + 0.0: no negative zero (a difference of nothing)
        if metric in unannotated:
            return {"value": None, "low": None, "high": None}
        return {"value": i.value + 0.0, "low": i.low + 0.0, "high": i.high + 0.0}

    def pair(r, metric: str) -> dict:
        known = metric not in unannotated
        return {"first": comparison.systems[r.first], "second": comparison.systems[r.second],
                "difference": interval(r.difference, metric),
                "p": r.p if known else dict.fromkeys(r.p),
                "corrected": r.corrected if known else dict.fromkeys(r.corrected),
                "significant": _significant(comparison, r) if known else None}
    return {
        "clusters": {m: None if m in unannotated else
                     [{"ranks": [first, last], "systems": [comparison.systems[k] for k in members]}
                      for first, last, members in ranked_clusters(comparison, m)]
                     for m in comparison.intervals},
        "signature": signature, "systems": list(comparison.systems),
        "resamples": comparison.resamples, "seed": comparison.seed, "alpha": comparison.alpha,
        "correction": comparison.correction, "strata": comparison.strata,
        "sentences": dict(zip(comparison.strata_names, comparison.sentences))
        if comparison.strata_names else sum(comparison.sentences),
        "small_sample_warning": small_sample_warning(comparison),
        "scores": {m: {comparison.systems[k]: interval(i, m) for k, i in enumerate(intervals)}
                   for m, intervals in comparison.intervals.items()},
        "pairs": {m: [pair(r, m) for r in results] for m, results in comparison.pairs.items()},
        "unannotated": list(unannotated),
    }
