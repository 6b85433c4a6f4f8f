"""``conll_eval compare``'s output (formatting only): the systems' scores with their
intervals, then per metric the pairs with their differences and p-values, as text or JSON."""
from __future__ import annotations

from typing import List

from .tables import Num, text_table

__all__ = ["comparison_text", "comparison_record"]


def _pct(value: float, signed: bool = False) -> str:
    return f"{100 * value:+.2f}" if signed else f"{100 * value:.2f}"


def comparison_text(comparison, signature: str) -> str:
    level = round(100 * (1 - comparison.alpha))
    lines: List[str] = [
        f"F1 in %, with {level} % bootstrap intervals ({comparison.resamples} paired resamples "
        f"of the gold sentences)"]
    metrics = list(comparison.intervals)
    rows = []
    for k, name in enumerate(comparison.systems):
        cells = [name]
        for metric in metrics:
            interval = comparison.intervals[metric][k]
            cells.append(Num(f"{_pct(interval.value)} [{_pct(interval.low)}, "
                             f"{_pct(interval.high)}]"))
        rows.append(cells)
    lines += text_table(["system", *metrics], rows)
    from ..analyze.comparison import ranked_clusters
    for metric in metrics:
        clusters = ranked_clusters(comparison, metric)
        if not clusters or len(comparison.systems) < 3:
            continue
        lines += ["", f"{metric}: ranked; systems in one cluster are not significantly "
                      f"different from the cluster's best"]
        rows = []
        for first, last, members in clusters:
            rank = str(first) if first == last else f"{first}-{last}"
            for k in members:
                rows.append([rank, comparison.systems[k],
                             Num(_pct(comparison.intervals[metric][k].value))])
        lines += text_table(["rank", "system", metric], rows, left=(0, 1))
    for metric, results in comparison.pairs.items():
        if not results:
            continue
        tests = list(results[0].p)
        lines += ["", f"{metric}: differences (first - second) and p-values corrected "
                      f"({comparison.correction}) over {len(results)} pair(s)"]
        body = []
        for r in results:
            significant = all(r.corrected[t] < comparison.alpha for t in tests)
            body.append([f"{comparison.systems[r.first]} - {comparison.systems[r.second]}",
                         Num(_pct(r.difference.value, True)),
                         Num(f"[{_pct(r.difference.low, True)}, {_pct(r.difference.high, True)}]"),
                         *(Num(f"{r.corrected[t]:.4f}") for t in tests),
                         "yes" if significant else "no"])
        lines += text_table(["pair", "difference", "interval", *tests,
                             f"significant (p < {comparison.alpha:g} in every test)"],
                            body, left=(0, len(tests) + 3))
    lines += ["", signature]
    return "\n".join(lines) + "\n"


def comparison_record(comparison, signature: str) -> dict:
    from ..analyze.comparison import ranked_clusters

    def interval(i) -> dict:
        return {"value": i.value, "low": i.low, "high": i.high}
    return {
        "clusters": {m: [{"ranks": [first, last],
                          "systems": [comparison.systems[k] for k in members]}
                         for first, last, members in ranked_clusters(comparison, m)]
                     for m in comparison.intervals},
        "signature": signature, "systems": list(comparison.systems),
        "resamples": comparison.resamples, "seed": comparison.seed, "alpha": comparison.alpha,
        "correction": comparison.correction,
        "scores": {m: {comparison.systems[k]: interval(i) for k, i in enumerate(intervals)}
                   for m, intervals in comparison.intervals.items()},
        "pairs": {m: [{"first": comparison.systems[r.first],
                       "second": comparison.systems[r.second],
                       "difference": interval(r.difference), "p": r.p, "corrected": r.corrected}
                      for r in results] for m, results in comparison.pairs.items()},
    }
