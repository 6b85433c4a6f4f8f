"""The leaderboard's ranking: scored submissions of the task's phase (the best of each team,
or all) ordered by the primary metric's macro F1, as entries whose ``macro`` and
``treebanks`` are ``conll_eval suite --format json``'s, and those entries as text, Markdown,
LaTeX or JSON tables (formatting only: the numbers are the stored ones)."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from ..report.escape import json_text
from ..report.latex import latex_output, latex_table
from ..report.tables import Cell, Num, markdown_table, percent, text_table
from .clusters import Significance, cluster_walk, sentence_strata
from .models import Submission, Task, TreebankResult
from .pages import history_section, html_page, ranking_sections
from .public import public_treebanks

__all__ = ["ranked_entries", "ranking_and_comparisons", "language_rows", "team_history", "ranking_json", "ranking_tables", "ranking_html",
           "FORMATS"]

FORMATS = ("text", "markdown", "json", "latex", "html")
#: submissions whose results one query reads (bounded IN lists)
_BATCH = 500


def _primary_f1(submission: Submission, metric: str) -> float:
    """The primary metric's macro F1; an n/a one (no gold file annotates it) ranks last."""
    value = (submission.macro or {}).get(metric, {}).get("f1")
    return -1.0 if value is None else value


def ranked_entries(session: Session, task: Task, every: bool = False,
                   significance: Optional[Significance] = None, public: bool = False) -> List[dict]:
    """The ranking: done, visible submissions of the task's phase, the best of each team
    (``every``: all of them), by decreasing macro F1 of the primary metric, the earlier
    submission first on a tie; equal values share a rank (1, 2, 2, 4).  Each entry:
    ``team``, ``submission`` (its id), ``label``, ``rank``, ``cluster`` (see
    :mod:`.clusters`; tested with ``significance``, the defaults when None), ``macro``,
    ``treebanks`` (suite's, with the server's paths; ``public``: as
    :func:`.public.public_treebanks` shows them, for the web app and the site)."""
    return ranking_and_comparisons(session, task, every, significance, public)[0]


def ranking_and_comparisons(session: Session, task: Task, every: bool = False,
                            significance: Optional[Significance] = None,
                            public: bool = False) -> Tuple[List[dict], List[dict]]:
    """:func:`ranked_entries`, and the clusters' tests in the order the walk made them:
    ``{"submission", "against"`` (the best of the cluster above), ``"p"`` (the bootstrap's),
    ``"corrected"`` (times the correction's factor in the walk kept, at most 1),
    ``"separated"}`` (it starts a new cluster)."""
    metric = task.primary_metric
    query = (select(Submission).where(Submission.status == "done", Submission.hidden.is_(False),
                                      Submission.phase == task.phase)
             .options(selectinload(Submission.team)).order_by(Submission.id))
    submissions = list(session.scalars(query))
    if not every:
        best: Dict[int, Submission] = {}
        for submission in submissions:
            kept = best.get(submission.team_id)
            if kept is None or _primary_f1(submission, metric) > _primary_f1(kept, metric):
                best[submission.team_id] = submission
        submissions = list(best.values())
    submissions.sort(key=lambda s: (-_primary_f1(s, metric), s.id))
    records: Dict[int, List[dict]] = {s.id: [] for s in submissions}
    chosen = list(records)
    for start in range(0, len(chosen), _BATCH):  # the ranked ones' results only, in batches
        rows = session.execute(select(TreebankResult.submission_id, TreebankResult.record)
                               .where(TreebankResult.submission_id.in_(chosen[start:start + _BATCH]))
                               .order_by(TreebankResult.submission_id, TreebankResult.position))
        for submission_id, record in rows:
            records[submission_id].append(record)
    entries: List[dict] = []
    for position, submission in enumerate(submissions, 1):
        value = _primary_f1(submission, metric)
        shared = entries and _primary_f1(submissions[position - 2], metric) == value
        entries.append({"team": submission.team.name, "submission": submission.id,
                        "label": submission.label,
                        "rank": entries[-1]["rank"] if shared else position, "cluster": 1,
                        "macro": submission.macro,
                        "treebanks": public_treebanks(records[submission.id], task.gold_dir, submission.directory)
                        if public else records[submission.id]})
    strata, included = sentence_strata(session, entries, metric)
    walk = cluster_walk(strata, included, [_primary_f1(s, metric) for s in submissions],
                        significance or Significance())
    for entry, number in zip(entries, walk.numbers):
        entry["cluster"] = number
    comparisons = [{"submission": entries[k]["submission"], "against": entries[best]["submission"], "p": p,
                    "corrected": min(1.0, p * walk.factor), "separated": separated}
                   for k, best, p, separated in walk.tests]
    return entries, comparisons


def language_rows(task: Task, entries: Sequence[dict]) -> List[dict]:
    """Per language (suite's ``language`` of each treebank, sorted) its treebanks and each
    entry's macro F1 of the primary metric over them (suite's per-language average: the
    treebanks that annotate the metric; None when none does), in the entries' order."""
    groups: Dict[str, List[int]] = {}
    for k, record in enumerate(entries[0]["treebanks"] if entries else []):
        groups.setdefault(record["language"], []).append(k)
    rows = []
    for language, positions in sorted(groups.items()):
        values: List[Optional[float]] = []
        for entry in entries:
            f1s = [score["f1"] for score in (entry["treebanks"][k]["metrics"].get(task.primary_metric) or {}
                                             for k in positions)
                   if score.get("annotated", True) and score.get("f1") is not None]
            values.append(sum(f1s) / len(f1s) if f1s else None)
        rows.append({"language": language, "treebanks": [entries[0]["treebanks"][k]["name"] for k in positions],
                     "f1": values})
    return rows


def team_history(session: Session, task: Task) -> List[dict]:
    """Every team's visible submissions (every phase, every state) in time order, teams by
    name: ``{"team", "submissions": [{"submission", "label", "phase", "status", "created_at",
    "f1"}]}`` with ``f1`` the primary metric's macro F1 (None: not scored, or n/a)."""
    query = (select(Submission).where(Submission.hidden.is_(False))
             .options(selectinload(Submission.team)).order_by(Submission.created_at, Submission.id))
    teams: Dict[str, List[dict]] = {}
    for submission in session.scalars(query):
        f1 = _primary_f1(submission, task.primary_metric) if submission.status == "done" else -1.0
        teams.setdefault(submission.team.name, []).append({
            "submission": submission.id, "label": submission.label, "phase": submission.phase,
            "status": submission.status, "created_at": submission.created_at.isoformat(timespec="seconds"),
            "f1": None if f1 < 0 else f1})
    return [{"team": name, "submissions": rows} for name, rows in sorted(teams.items())]


def ranking_json(entries: Sequence[dict], significance: Optional[Significance] = None,
                 languages: Sequence[dict] = (), history: Optional[Sequence[dict]] = None,
                 comparisons: Optional[Sequence[dict]] = None) -> str:
    """``{"entries": [...], "significance": {...}, "languages": [...]}`` (and ``"history"``
    when given; the significance object's ``"comparisons"``, the clusters' tests of
    :func:`ranking_and_comparisons`, when given), an entry a line, every name spelt out
    (:func:`json_text`).  Compact, unlike suite's indented JSON: the standard library encodes
    indented JSON in Python, 100 teams x 82 treebanks took 6 s that way (the C encoder: well
    under 1 s)."""
    body = ",\n".join(json_text(entry) for entry in entries)
    record = (significance or Significance()).record(len(entries))
    if comparisons is not None:
        record["comparisons"] = list(comparisons)
    tail = f',\n"significance": {json_text(record)}'
    tail += ',\n"languages": [' + ",\n".join(json_text(row) for row in languages) + "]"
    if history is not None:
        tail += ',\n"history": [' + ",\n".join(json_text(team) for team in history) + "]"
    return '{"entries": [' + ("\n" + body + "\n" if entries else "") + "]" + tail + "}\n"


def _cell(score: Optional[dict]) -> Num:
    f1 = None if score is None else score.get("f1")
    return Num("n/a") if f1 is None else Num(percent(f1))


def _tables(task: Task, entries: Sequence[dict]):
    """The ranking (rank, team, submission, label, each metric's macro F1) and the primary
    metric's F1 per treebank (a row per treebank, a column per entry; ``!``: scored 0 for
    the reason suite gives)."""
    metrics = list(dict.fromkeys([task.primary_metric, *task.metrics]))
    ranking_rows: List[List[Cell]] = [[str(e["rank"]), str(e["cluster"]), e["team"], f"#{e['submission']}",
                                       e["label"], *(_cell(e["macro"].get(m)) for m in metrics)]
                                      for e in entries]
    ranking: Tuple[List[Cell], List[List[Cell]]] = (["Rank", "Cluster", "Team", "Submission", "Label",
                                                     *metrics], ranking_rows)
    names = [tb["name"] for tb in entries[0]["treebanks"]] if entries else []
    rows: List[List[Cell]] = []
    for k, name in enumerate(names):
        row: List[Cell] = [name]
        for entry in entries:
            record = entry["treebanks"][k] if k < len(entry["treebanks"]) else None
            cell = _cell(record and record["metrics"].get(task.primary_metric))
            row.append(cell._replace(mark="" if record and record["status"] == "ok" else "!"))
        rows.append(row)
    treebanks: Tuple[List[Cell], List[List[Cell]]] = (["Treebank", *(f"{e['team']} #{e['submission']}" for e in entries)], rows)
    return metrics, ranking, treebanks


def _language_table(languages: Sequence[dict], entries: Sequence[dict]):
    header: List[Cell] = ["Language", "Treebanks", *(f"{e['team']} #{e['submission']}" for e in entries)]
    rows: List[List[Cell]] = [[row["language"], str(len(row["treebanks"])),
                               *(Num("n/a") if v is None else Num(percent(v)) for v in row["f1"])]
                              for row in languages]
    return header, rows


def _history_table(history: Sequence[dict]):
    header: List[Cell] = ["Team", "Submission", "Label", "Phase", "Status", "Submitted", "F1"]
    rows: List[List[Cell]] = [[team["team"], f"#{row['submission']}", row["label"], row["phase"], row["status"],
                               row["created_at"], Num("n/a") if row["f1"] is None else Num(percent(row["f1"]))]
                              for team in history for row in team["submissions"]]
    return header, rows


def cluster_note(significance: Optional[Significance], entries: int = 0) -> str:
    """What the Cluster column means, with the test's settings; a warning when no entry of
    the ``entries`` can be told apart with them (:meth:`Significance.separable`)."""
    options = significance or Significance()
    tests = options.tests(entries)
    resamples = options.resamples_for(entries)
    note = (f"Cluster: walking down the ranking, a submission joins the cluster above unless it is "
            f"significantly worse than that cluster's best (paired bootstrap stratified by treebank, "
            f"{resamples} resamples, seed {options.seed}, alpha {options.alpha}, {options.correction} "
            f"correction over the {tests} test(s) made)")
    if not options.separable(entries):
        factor = 1 if options.correction == "none" else tests
        note += (f". Warning: with {resamples} resamples no p-value can get below alpha after the correction: "
                 f"one cluster whatever the scores; give --resamples above {int(factor / options.alpha)}, "
                 "or leave it out")
    return note


def ranking_tables(task: Task, entries: Sequence[dict], fmt: str, significance: Optional[Significance] = None,
                   languages: Sequence[dict] = (), history: Optional[Sequence[dict]] = None) -> str:
    """The ranking, per-language and per-treebank tables (and each team's history when
    given) in ``fmt`` (text, markdown or latex)."""
    metric = task.primary_metric
    _, ranking, treebanks = _tables(task, entries)
    sections: List[Tuple[str, tuple, Tuple[int, ...]]] = [(f"{task.name}: {task.phase} phase, ranked by {metric} (macro F1 over treebanks)",
                 ranking, (2, 3, 4))]
    if languages:
        sections.append((f"{metric} F1 per language (macro over its treebanks)",
                         _language_table(languages, entries), (0,)))
    sections.append((f"{metric} F1 per treebank", treebanks, (0,)))
    if history is not None:
        sections.append((f"Each team's submissions in time order ({metric} macro F1)",
                         _history_table(history), (0, 1, 2, 3, 4, 5)))
    if fmt == "latex":
        return latex_output([latex_table(header, rows, left=left) for _, (header, rows), left in sections], None)
    lines: List[str] = []
    for title, (header, rows), left in sections:
        table = markdown_table(header, rows, left=left) if fmt == "markdown" else text_table(header, rows, left=left)
        lines += [title if fmt == "text" else f"**{title}**", "", *table, ""]
    lines.append(cluster_note(significance, len(entries)))
    if any(record["status"] != "ok" for entry in entries for record in entry["treebanks"]):
        lines.append("! the treebank scored 0 (missing or invalid file)")
    return "\n".join(lines) + "\n"


def ranking_html(task: Task, entries: Sequence[dict], significance: Optional[Significance] = None,
                 languages: Sequence[dict] = (), history: Optional[Sequence[dict]] = None) -> str:
    """The tables of :func:`ranking_tables` as one self-contained page (:mod:`.pages`)."""
    sections = ranking_sections(task, entries, languages, significance, cluster_note(significance, len(entries)))
    if history is not None:
        sections.append(history_section(history))
    nav = [("#ranking", "Ranking"), ("#languages", "Per language"), ("#treebanks", "Per treebank")]
    return html_page(f"{task.name}: {task.phase} phase", sections,
                     nav + ([("#history", "History")] if history is not None else []),
                     f"ranked by {task.primary_metric}, the macro F1 over {len(task.gold_files)} treebanks")
