"""``leaderboard publish``: the task's results as a static site that works from ``file://``
with no server: an index (the ranking with its clusters, the per-language and per-treebank
tables, the history), a page per treebank, a page per team, and each submission's HTML
report when the caller makes them.  The site is built in a new directory beside the target
and renamed into place, so a reader never sees half of it; a directory that is not a site
this command made is never overwritten."""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import unicodedata
from typing import Callable, Dict, List, Optional, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..errors import printable
from .clusters import Significance
from .db import LeaderboardError
from .models import Submission, Task, Team
from .pages import Link, history_section, html_page, html_table, ranking_sections
from .ranking import cluster_note, language_rows, ranked_entries, team_history

__all__ = ["SITE_MARKER", "slug", "build_site", "write_site", "ReportMaker"]

#: the file that marks a directory as a site publish made (and may replace)
SITE_MARKER = ".conll_eval-site"
#: longest slug taken from a name, before its ``-id``
SLUG_LENGTH = 40

#: makes a submission's report page, given its path in the site; None when there is none
ReportMaker = Callable[[Submission, str], Optional[str]]


def slug(name: str, number: int) -> str:
    """A file name from ``name``: ASCII letters and digits (accents dropped), runs of
    anything else as one ``-``, at most :data:`SLUG_LENGTH` characters, then ``-number``
    (unique whatever the names: two names that slug alike differ by their ids)."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    stem = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:SLUG_LENGTH].strip("-")
    return f"{stem or 'x'}-{number}"


def _treebank_page(task: Task, name: str, entries: Sequence[dict], team_pages: Dict[str, str]) -> str:
    metrics = list(dict.fromkeys([task.primary_metric, *task.metrics]))
    k = next(i for i, record in enumerate(entries[0]["treebanks"]) if record["name"] == name) if entries else 0
    rows, marks = [], []
    for entry in entries:
        record = entry["treebanks"][k]
        rows.append([str(entry["rank"]), Link(entry["team"], "../" + team_pages[entry["team"]]),
                     f"#{entry['submission']}", *((record["metrics"].get(m) or {}).get("f1") for m in metrics),
                     "ok" if record["status"] == "ok" else record["status"]])
        marks.append(["", "", "", *([""] * len(metrics)), "" if record["status"] == "ok" else "failed"])
    table = html_table(["Rank", "Team", "Submission", *metrics, "Status"], rows, left=(1, 2, 3 + len(metrics)),
                       marks=marks)
    return html_page(f"{task.name}: {name}", [f'<section id="scores"><h2>F1 per team</h2>{table}</section>'],
                     [("../index.html", "Ranking")], f"each team's ranked submission on {name}")


def build_site(session: Session, task: Task, significance: Optional[Significance] = None,
               make_report: Optional[ReportMaker] = None) -> Dict[str, str]:
    """The site's pages: relative path -> HTML.  Every link is relative; every file name is a
    :func:`slug` of a name and its database id."""
    entries = ranked_entries(session, task, significance=significance, public=True)
    languages = language_rows(task, entries)
    history = team_history(session, task)
    team_ids = {team.name: team.id for team in session.scalars(select(Team))}
    team_pages = {name: f"teams/{slug(name, number)}.html" for name, number in team_ids.items()}
    treebank_pages = {gold.treebank: f"treebanks/{slug(gold.treebank, gold.id)}.html" for gold in task.gold_files}
    pages: Dict[str, str] = {}
    reports: Dict[int, str] = {}
    if make_report is not None:
        for submission in session.scalars(select(Submission).where(Submission.status == "done",
                                                                   Submission.hidden.is_(False))
                                          .order_by(Submission.id)):
            path = f"reports/submission-{submission.id}.html"
            page = make_report(submission, path)
            if page is not None:
                pages[path], reports[submission.id] = page, path
    sections = ranking_sections(task, entries, languages, significance, cluster_note(significance, len(entries)),
                                team_href=team_pages.get, treebank_href=treebank_pages.get,
                                report_href=reports.get)
    sections.append(history_section(history, reports.get, team_pages.get))
    pages["index.html"] = html_page(
        f"{task.name}: {task.phase} phase", sections,
        [("#ranking", "Ranking"), ("#languages", "Per language"), ("#treebanks", "Per treebank"),
         ("#history", "History")], f"ranked by {task.primary_metric}, the macro F1 over "
                                   f"{len(task.gold_files)} treebanks")
    for name, path in treebank_pages.items():
        pages[path] = _treebank_page(task, name, entries, team_pages)
    for team in history:
        up = {k: "../" + v for k, v in reports.items()}
        pages[team_pages[team["team"]]] = html_page(
            f"{task.name}: {team['team']}", [history_section([team], up.get)],
            [("../index.html", "Ranking")], "every submission of the team in time order")
    for name, path in team_pages.items():
        pages.setdefault(path, html_page(f"{task.name}: {name}", ["<p>No submission yet.</p>"],
                                         [("../index.html", "Ranking")]))
    return pages


def _is_site(path: str) -> bool:
    return os.path.isfile(os.path.join(path, SITE_MARKER))


def write_site(pages: Dict[str, str], target: str) -> List[str]:
    """Write ``pages`` as the directory ``target``: built in a new directory beside it, then
    renamed into place (an earlier site there is replaced whole).  Refuses a ``target`` that
    is a file or a non-empty directory publish did not make (``not-a-site``).  Returns the
    paths written, relative to ``target``."""
    target = os.path.abspath(target)
    if os.path.exists(target) and (not os.path.isdir(target) or (os.listdir(target) and not _is_site(target))):
        raise LeaderboardError(f"{printable(target)}: exists and is not a site 'leaderboard publish' made "
                               f"(no {SITE_MARKER} in it): give a new or empty directory", "not-a-site")
    parent = os.path.dirname(target)
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".publish-", dir=parent)
    try:
        for path, text in pages.items():
            full = os.path.join(staging, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as out:
                out.write(text)
        with open(os.path.join(staging, SITE_MARKER), "w", encoding="utf-8") as out:
            out.write("made by conll_eval leaderboard publish; the next publish replaces this directory\n")
        if os.path.exists(target):
            old = tempfile.mkdtemp(prefix=".publish-old-", dir=parent)
            os.rename(target, os.path.join(old, "site"))
            os.rename(staging, target)
            shutil.rmtree(old)
        else:
            os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sorted(pages)
