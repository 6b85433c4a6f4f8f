"""The static part of the HTML report: per treebank the official metrics of each system, the
per-relation and per-UPOS tables with inline SVG bars, confusion heatmaps, the error
decomposition and significance results, as escaped HTML strings.

Rendered from the record :func:`conll_eval.report.html.data.treebank_data` builds (the same
one the page embeds), so the page needs no script to show its numbers.
"""
from __future__ import annotations

import colorsys
import math
from typing import Dict, List, Mapping, Optional, Sequence

from ..escape import html_text
from ..tables import percent

__all__ = ["treebank_summary", "macro_table", "metrics_table", "suite_treebank_table"]

#: rows of the heatmaps: the most frequent labels (the rest are summed into "other")
HEATMAP_LABELS = 40


def _e(value) -> str:
    """Text or an attribute value: spelt out (names are input text), then HTML-escaped."""
    return html_text(value)


def _pct(value: Optional[float]) -> str:
    return "" if value is None else percent(value)


def metrics_table(runs: Sequence[dict], systems: Sequence[str]) -> str:
    """Official metrics: a row per metric, precision / recall / F1 / aligned accuracy per
    system (percent, two decimals, as the text outputs print them)."""
    metrics = list(runs[0]["metrics"])
    head = "".join(f'<th colspan="4">{_e(name)}</th>' for name in systems)
    sub = "".join("<th>P</th><th>R</th><th>F1</th><th>AligndAcc</th>" for _ in systems)
    rows = []
    for metric in metrics:
        cells = []
        for run in runs:
            r = run["metrics"][metric]
            shown = _pct if r["f1"] is not None else _pct_or_na  # F1 None: a tag the gold lacks
            cells.append(f'<td>{shown(r["precision"])}</td><td>{shown(r["recall"])}</td>'
                         f'<td data-metric="{_e(metric)}"><b>{shown(r["f1"])}</b></td>'
                         f'<td>{shown(r["aligned_accuracy"])}</td>')
        rows.append(f'<tr><td class="l">{_e(metric)}</td>{"".join(cells)}</tr>')
    return (f'<table class="num metrics"><thead><tr><th class="l" rowspan="2">Metric</th>{head}'
            f'</tr><tr>{sub}</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _bars(values: Sequence[float], width: int = 120) -> str:
    """Inline SVG: one horizontal bar per system (values are fractions)."""
    height = 6 * len(values) + 2
    parts = [f'<svg class="bar" width="{width}" height="{height}" role="img" '
             f'aria-label="{" / ".join(percent(v) for v in values)}">']
    for k, value in enumerate(values):
        y = 1 + 6 * k
        parts.append(f'<rect class="bg" x="0" y="{y}" width="{width}" height="5"/>'
                     f'<rect class="b{k % 4}" x="0" y="{y}" width="{width * value:.1f}" height="5"/>')
    parts.append("</svg>")
    return "".join(parts)


def _legend(systems: Sequence[str]) -> str:
    items = "".join(f'<span><svg class="bar" width="10" height="10"><rect class="b{k % 4}" '
                    f'width="10" height="10"/></svg> {_e(name)}</span>' for k, name in enumerate(systems))
    return f'<p class="legend">{items}</p>'


def label_table(record: dict, key: str, names_key: str, caption: str) -> str:
    """Per label (relation or UPOS): gold words, and per system P, R, F1 with a bar of F1;
    labels by decreasing gold frequency."""
    names = record[names_key]
    systems = record["systems"]
    by_label: Dict[int, List[Optional[list]]] = {}
    for k, run in enumerate(record["runs"]):
        for row in run[key]:
            by_label.setdefault(row[0], [None] * len(systems))[k] = row
    order = sorted(by_label, key=lambda c: (-max(r[1] if r else 0 for r in by_label[c]), names[c]))
    head = "".join(f"<th>{_e(s)} P</th><th>R</th><th>F1</th>" for s in systems)
    rows = []
    for code in order:
        gold_total = max(r[1] if r else 0 for r in by_label[code])
        cells, f1s = [], []
        for row in by_label[code]:
            if row is None:
                cells.append("<td></td><td></td><td></td>")
                f1s.append(0.0)
                continue
            _, g, g_ok, s, s_ok = row
            p = s_ok / s if s else 0.0
            r = g_ok / g if g else 0.0
            f = 2 * p * r / (p + r) if p + r else 0.0
            f1s.append(f)
            cells.append(f'<td title="{s_ok} of {s} system words">{percent(p)}</td>'
                         f'<td title="{g_ok} of {g} gold words">{percent(r)}</td><td>{percent(f)}</td>')
        rows.append(f'<tr><td class="l">{_e(names[code])}</td><td>{gold_total}</td>'
                    f'{"".join(cells)}<td class="l">{_bars(f1s)}</td></tr>')
    return (f'<table class="num labels" data-table="{_e(key)}"><caption class="note">{_e(caption)}'
            f'</caption><thead><tr><th class="l">label</th><th>gold</th>{head}<th class="l">F1</th>'
            f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _count_text(n: int) -> str:
    """A cell's number in at most four characters (the tooltip has it exactly)."""
    return str(n) if n < 10000 else f"{n // 1000}k"


def _relative_luminance(rgb: Sequence[float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels 0..1)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _cell_colours(shade: Optional[float]) -> tuple:
    """(fill, text class) of a heatmap cell: the diagonal grey for None, else a red of the
    given depth (0..1); the text black or white, whichever contrasts more (at least 4.5:1
    for any fill, WCAG AA), the same in light and dark mode."""
    if shade is None:
        rgb = (0xd9 / 255,) * 3
    else:
        rgb = colorsys.hls_to_rgb(8 / 360, (96 - 56 * shade) / 100, 0.75)
    luminance = _relative_luminance(rgb)
    on_black, on_white = (luminance + 0.05) / 0.05, 1.05 / (luminance + 0.05)
    fill = "#" + "".join(f"{round(255 * c):02x}" for c in rgb)
    return fill, ("n-dark" if on_black >= on_white else "n-light")


def heatmap(cells: Sequence[Sequence[int]], names: Sequence[str], title: str) -> str:
    """Inline SVG heatmap of (gold, system, count) cells: rows gold, columns system, the
    most frequent labels; the shade is logarithmic in the count; every cell shows its number
    (columns as wide as the longest needs) and has it exactly in a tooltip."""
    totals: Dict[int, int] = {}
    for g, s, n in cells:
        totals[g] = totals.get(g, 0) + n
        totals[s] = totals.get(s, 0) + n
    labels = sorted(totals, key=lambda c: (-totals[c], names[c]))[:HEATMAP_LABELS]
    if not labels:
        return '<p class="note">nothing aligned</p>'
    position = {c: i for i, c in enumerate(labels)}
    grid: Dict[tuple, int] = {}
    for g, s, n in cells:
        if g in position and s in position:
            grid[(position[g], position[s])] = grid.get((position[g], position[s]), 0) + n
    off = [n for (i, j), n in grid.items() if i != j]
    top = max(off) if off else 1
    longest = max(len(_count_text(n)) for n in grid.values())
    cell, wide, left, upper = 16, max(16, 5 * longest + 6), 90, 90
    parts = [f'<svg class="heat" width="{left + len(labels) * wide + 70}" '
             f'height="{upper + len(labels) * cell + 4}" role="img" '
             f'aria-label="{_e(title)}"><title>{_e(title)}</title>']
    for i, code in enumerate(labels):
        y = upper + i * cell + cell - 4
        parts.append(f'<text x="{left - 4}" y="{y}" text-anchor="end">{_e(names[code])}</text>')
        x = left + i * wide + wide / 2 + 4
        parts.append(f'<text transform="translate({x},{upper - 4}) rotate(-60)">{_e(names[code])}</text>')
    for (i, j), n in sorted(grid.items()):
        fill, text_class = _cell_colours(None if i == j else math.log1p(n) / math.log1p(top))
        cls = ' class="diag"' if i == j else ""
        tip = f"gold {names[labels[i]]} / system {names[labels[j]]}: {n}"
        x, y = left + j * wide, upper + i * cell
        parts.append(f'<g class="cell"><rect{cls} x="{x}" y="{y}" width="{wide - 1}" '
                     f'height="{cell - 1}" fill="{fill}"><title>{_e(tip)}</title></rect>'
                     f'<text class="{text_class}" x="{x + wide / 2 - 0.5}" y="{y + 11}" '
                     f'text-anchor="middle" font-size="8" data-count="{n}">{_count_text(n)}'
                     f'</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def decomposition_table(record: dict) -> str:
    """Gold and system words by kind of error, per system, with a stacked bar of the gold side."""
    kinds = record["kinds"]
    systems = record["systems"]
    head = "".join(f"<th>{_e(s)} gold words</th><th>%</th><th>system words</th>" for s in systems)
    rows = []
    for kind, description in kinds:
        cells = []
        for run in record["runs"]:
            gold = run["decomposition"]["gold"]
            total = sum(gold.values())
            cells.append(f'<td>{gold[kind]}</td><td>{percent(gold[kind] / total) if total else "0.00"}'
                         f'</td><td>{run["decomposition"]["system"][kind]}</td>')
        rows.append(f'<tr><td class="l" title="{_e(description)}">{_e(kind)}</td>{"".join(cells)}</tr>')
    colours = ["#0b61a4", "#e69f00", "#c0392b", "#7a3db8", "#777", "#bbb"]
    stacks = []
    for k, run in enumerate(record["runs"]):
        gold = run["decomposition"]["gold"]
        total = sum(gold.values()) or 1
        x, parts = 0.0, []
        for (kind, description), colour in zip(kinds, colours):
            w = 400 * gold[kind] / total
            parts.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="14" fill="{colour}">'
                         f'<title>{_e(kind)}: {gold[kind]} ({percent(gold[kind] / total)} %)</title></rect>')
            x += w
        stacks.append(f'<div><span class="note">{_e(systems[k])}</span><br><svg class="stack" '
                      f'width="400" height="14" role="img" aria-label="gold words by kind">'
                      f'{"".join(parts)}</svg></div>')
    legend = "".join(f'<span><i style="background:{c}"></i>{_e(kind)}</span>'
                     for (kind, _), c in zip(kinds, colours))
    return (f'<table class="num decomposition"><thead><tr><th class="l">kind</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{"".join(stacks)}<p class="legend">{legend}</p>')


def _p_value(p: Optional[float]) -> str:
    """A p-value with four decimals; below 0.0001 ``< 0.0001`` (never ``0.0000``)."""
    if p is None:
        return ""
    return "&lt; 0.0001" if p < 0.0001 else format(p, ".4f")


def significance_table(record: Mapping) -> str:
    """Each system's F1 interval, and per pair the difference, its interval, corrected
    p-values and the verdict (``conll_eval compare``'s JSON)."""
    parts = [f'<p class="sig">{_e(record["signature"])}</p>']
    if record.get("small_sample_warning"):  # few sentences: the p-values are not to be trusted
        parts.append(f'<p class="note warning">{_e(record["small_sample_warning"])}</p>')
    head = ("<tr><th class='l'>metric</th><th class='l'>A</th><th class='l'>B</th><th>A - B</th>"
            "<th>interval</th><th>p bootstrap</th><th>p randomization</th><th>p McNemar</th>"
            "<th class='l'>significant</th></tr>")
    rows = []
    for metric, pairs in record["pairs"].items():
        for pair in pairs:
            d = pair["difference"]
            p = pair["corrected"] or pair["p"]
            known = pair["significant"] is not None  # None: the gold file does not annotate it
            cells = "".join(f"<td>{_p_value(p.get(t)) if known else 'n/a' * (t in p)}</td>"
                            for t in ("bootstrap", "randomization", "mcnemar"))
            if not known:
                numbers, verdict = f"<td>n/a</td><td>n/a</td>{cells}", "n/a"
            else:
                numbers = f'<td>{percent(d["value"])}</td><td>[{percent(d["low"])}, {percent(d["high"])}]</td>{cells}'
                verdict = "yes" if pair["significant"] else "no"
            rows.append(f'<tr><td class="l">{_e(metric)}</td><td class="l">{_e(pair["first"])}</td>'
                        f'<td class="l">{_e(pair["second"])}</td>{numbers}<td class="l">{verdict}</td></tr>')
    parts.append(f'<table class="num significance"><thead>{head}</thead><tbody>{"".join(rows)}'
                 f'</tbody></table>')
    return "".join(parts)


def treebank_summary(record: dict, index: int, page_signature: Optional[str] = None) -> str:
    """The static section of one treebank; its signature only where it is not the page's."""
    systems = record["systems"]
    runs = record["runs"]
    files = "".join(f"<li>{_e(name)}: <code>{_e(run['path'])}</code></li>"
                    for name, run in zip(systems, runs))
    parts = [f'<section class="treebank" id="tb-{index}"><h2>{_e(record["name"])}</h2>',
             f'<p>gold: <code>{_e(record["gold"]["path"])}</code>, '
             f'{len(record["gold"]["start"]) - 1} sentences, {len(record["gold"]["f"])} words</p>'
             f'<ul>{files}</ul>' + ("" if record["signature"] == page_signature else
                                     f'<p class="sig">{_e(record["signature"])}</p>'),
             "<h3>Official metrics</h3>", metrics_table(runs, systems),
             "<h3>Where the LAS errors come from</h3>",
             '<p class="note">Every gold and system word by kind (as <code>conll_eval breakdown '
             '--errors</code>): right, wrong relation, wrong head, wrong head across a sentence '
             'boundary the files draw differently, no partner (tokenization, multi-word '
             'tokens).</p>', decomposition_table(record)]
    if record.get("significance"):
        parts += ["<h3>Significance</h3>", significance_table(record["significance"])]
    parts += ["<h3>Per relation and per UPOS</h3>", _legend(systems),
              '<div class="blocks"><div>',
              label_table(record, "relations", "relation_names",
                          "LAS by universal relation: precision over system words with the "
                          "relation, recall over gold words with it"),
              "</div><div>",
              label_table(record, "upos", "upos_names",
                          "UPOS by tag: precision over system words with the tag, recall over "
                          "gold words with it"),
              "</div></div>",
              "<details><summary>Confusion heatmaps (aligned words: rows gold, columns system)"
              "</summary>"]
    for k, run in enumerate(runs):
        parts += [f"<h3>{_e(systems[k])}</h3>", '<div class="blocks"><div>',
                  heatmap(run["relation_confusion"], record["relation_names"],
                          f"relations, {systems[k]}"),
                  "</div><div>",
                  heatmap(run["upos_confusion"], record["upos_names"], f"UPOS, {systems[k]}"),
                  "</div></div>"]
    parts.append("</details></section>")
    return "".join(parts)


def _pct_or_na(value) -> str:
    """An average in percent, ``n/a`` for None (no gold file annotates the tag)."""
    return "n/a" if value is None else percent(value)


def macro_table(macros: Sequence[Mapping], systems: Sequence[str], metrics: Sequence[str],
                failures: Sequence[Sequence[str]] = ()) -> str:
    """The suite's macro-averages: a row per metric, F1 (and P, R) per system; the
    treebanks that failed below."""
    head = "".join(f'<th colspan="3">{_e(s)}</th>' for s in systems)
    sub = "<th>P</th><th>R</th><th>F1</th>" * len(systems)
    rows = []
    for metric in metrics:
        cells = "".join(f'<td>{_pct_or_na(m[metric]["precision"])}</td><td>{_pct_or_na(m[metric]["recall"])}'
                        f'</td><td data-metric="{_e(metric)}"><b>{_pct_or_na(m[metric]["f1"])}</b></td>'
                        for m in macros)
        rows.append(f'<tr><td class="l">{_e(metric)}</td>{cells}</tr>')
    notes = "".join(f'<p class="failed">{_e(line)}</p>' for group in failures for line in group)
    return (f'<table class="num macro"><thead><tr><th class="l" rowspan="2">Metric</th>{head}</tr>'
            f'<tr>{sub}</tr></thead><tbody>{"".join(rows)}</tbody></table>{notes}')


def suite_treebank_table(rows: Sequence[Mapping], systems: Sequence[str],
                         metrics: Sequence[str]) -> str:
    """The suite's per-treebank table (as its text output): a row per treebank, F1 per metric
    and system; each score links to the treebank's sentences in the browser (``#t=K``) and its
    name to its section; a failed pair shows FAILED and its code, the message on hover."""
    head = "".join(f'<th colspan="{len(systems)}">{_e(m)}</th>' for m in metrics)
    sub = "".join(f'<th title="{_e(s)}">{_e(s)}</th>' for _ in metrics for s in systems)
    body = []
    for row in rows:
        index = row["index"]
        name = _e(row["name"]) if index is None else f'<a href="#tb-{index}">{_e(row["name"])}</a>'
        cells = []
        for metric in metrics:
            for system, cell in zip(systems, row["cells"]):
                if "failed" in cell:
                    cells.append(f'<td class="failed" title="{_e(cell["message"])}">FAILED '
                                 f'[{_e(cell["failed"])}]</td>')
                    continue
                value = _pct_or_na(cell["f1"][metric])
                if index is not None:
                    value = (f'<a href="#t={index}" title="{_e(row["name"])}, {_e(system)}: '
                             f'the sentences">{value}</a>')
                cells.append(f'<td data-metric="{_e(metric)}">{value}</td>')
        body.append(f'<tr><td class="l">{name}</td>{"".join(cells)}</tr>')
    return (f'<table class="num per-treebank"><thead><tr><th class="l" rowspan="2">Treebank</th>'
            f'{head}</tr><tr>{sub}</tr></thead><tbody>{"".join(body)}</tbody></table>')
