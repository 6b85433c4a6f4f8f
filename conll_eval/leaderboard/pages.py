"""The leaderboard's HTML: self-contained pages in the HTML report's style (its stylesheet
inlined, a Content-Security-Policy that allows no script and nothing from the network) holding
the ranking, per-language, per-treebank and history tables.  Formatting only: every name is
spelt out and escaped (:func:`conll_eval.report.escape.html_text`), every link is relative."""
from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..report.escape import html_text
from ..report.html.page import asset
from ..report.tables import percent
from .clusters import Significance
from .models import Task

__all__ = ["Link", "html_table", "html_page", "ranking_sections", "history_section", "CSP"]

#: no script at all, nothing fetched; styles inline (the report's stylesheet)
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"


class Link(NamedTuple):
    """A table cell that links to ``href`` (a relative URL made by the caller from safe parts)."""
    text: str
    href: str


HtmlCell = Union[str, Link, None, float]


def _cell(value: HtmlCell) -> str:
    if isinstance(value, Link):
        return f'<a href="{html_text(value.href)}">{html_text(value.text)}</a>'
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return percent(value)
    return html_text(value)


def _classes(*names: str) -> str:
    kept = " ".join(name for name in names if name)
    return f' class="{kept}"' if kept else ""


def html_table(header: Sequence[str], rows: Sequence[Sequence[HtmlCell]], left: Sequence[int] = (0,),
               marks: Optional[Sequence[Sequence[str]]] = None) -> str:
    """A ``<table class="num">``: the ``left`` columns as text, the others as numbers (a float
    is a score shown in percent, None ``n/a``); ``marks[r][c]``: a class for a cell (``failed``)."""
    head = "".join(f"<th{_classes('l' if k in left else '')}>{html_text(name)}</th>"
                   for k, name in enumerate(header))
    body = []
    for r, row in enumerate(rows):
        cells = []
        for k, value in enumerate(row):
            cells.append(f"<td{_classes('l' if k in left else '', marks[r][k] if marks else '')}>"
                         f"{_cell(value)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return f'<table class="num"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def html_page(title: str, sections: Sequence[str], nav: Sequence[Tuple[str, str]] = (),
              subtitle: str = "", csp: str = CSP) -> str:
    """A whole page: ``sections`` (HTML made here, names escaped), ``nav``: (relative href,
    label) links in the header; ``csp`` its Content-Security-Policy (the web app's lets its
    forms post to itself)."""
    links = "".join(f'<a href="{html_text(href)}">{html_text(label)}</a>' for href, label in nav)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="generator" content="conll_eval leaderboard"><link rel="icon" href="data:,">'
            f"<title>{html_text(title)}</title><style>{asset('report.css')}</style></head><body>"
            f'<header><h1>{html_text(title)}</h1><p class="sig">{html_text(subtitle)}</p>'
            f"<nav>{links}</nav></header><main>{''.join(sections)}</main></body></html>\n")


def _section(anchor: str, title: str, body: str, note: str = "") -> str:
    text = f'<p class="note">{html_text(note)}</p>' if note else ""
    return f'<section id="{anchor}"><h2>{html_text(title)}</h2>{text}{body}</section>'


Linker = Callable[[str], Optional[str]]


def _linked(text: str, href: Optional[str]) -> HtmlCell:
    return Link(text, href) if href else text


def ranking_sections(task: Task, entries: Sequence[dict], languages: Sequence[dict],
                     significance: Optional[Significance], cluster_note: str,
                     team_href: Linker = lambda name: None, treebank_href: Linker = lambda name: None,
                     report_href: Callable[[int], Optional[str]] = lambda id_: None) -> List[str]:
    """The ranking (rank, cluster, team, submission, label, each metric's macro F1), the
    primary metric per language and per treebank, as sections; the ``*_href`` give a team's,
    a treebank's and a submission's report page (None: no link)."""
    metrics = list(dict.fromkeys([task.primary_metric, *task.metrics]))
    rows = [[str(e["rank"]), str(e["cluster"]), _linked(e["team"], team_href(e["team"])),
             _linked(f"#{e['submission']}", report_href(e["submission"])), e["label"],
             *((e["macro"].get(m) or {}).get("f1") for m in metrics)] for e in entries]
    columns = [f"{e['team']} #{e['submission']}" for e in entries]
    sections = [_section("ranking", f"Ranked by {task.primary_metric} (macro F1 over treebanks)",
                         html_table(["Rank", "Cluster", "Team", "Submission", "Label", *metrics], rows,
                                    left=(2, 3, 4)), cluster_note)]
    if languages:
        language_rows = [[row["language"], str(len(row["treebanks"])), *row["f1"]] for row in languages]
        sections.append(_section("languages", f"{task.primary_metric} F1 per language",
                                 html_table(["Language", "Treebanks", *columns], language_rows),
                                 "The mean over the language's treebanks."))
    names = [record["name"] for record in entries[0]["treebanks"]] if entries else []
    treebank_rows: List[List[HtmlCell]] = []
    marks = []
    for k, name in enumerate(names):
        records = [e["treebanks"][k] for e in entries]
        treebank_rows.append([_linked(name, treebank_href(name)),
                              *((r["metrics"].get(task.primary_metric) or {}).get("f1") for r in records)])
        marks.append(["", *("" if r["status"] == "ok" else "failed" for r in records)])
    sections.append(_section("treebanks", f"{task.primary_metric} F1 per treebank",
                             html_table(["Treebank", *columns], treebank_rows, marks=marks),
                             "A score in red: the treebank scored 0 (a missing or invalid file)."))
    return sections


def history_section(history: Sequence[dict], report_href: Callable[[int], Optional[str]] = lambda id_: None,
                    team_href: Linker = lambda name: None) -> str:
    """Each team's submissions in time order (see :func:`.ranking.team_history`)."""
    rows = [[_linked(team["team"], team_href(team["team"])),
             _linked(f"#{row['submission']}", report_href(row["submission"])), row["label"], row["phase"],
             row["status"], row["created_at"], row["f1"]] for team in history for row in team["submissions"]]
    return _section("history", "Each team's submissions in time order",
                    html_table(["Team", "Submission", "Label", "Phase", "Status", "Submitted", "Macro F1"], rows,
                               left=(0, 1, 2, 3, 4, 5)))
