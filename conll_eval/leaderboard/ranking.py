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
from .models import Submission, Task, TreebankResult

__all__ = ["ranked_entries", "ranking_json", "ranking_tables", "FORMATS"]

FORMATS = ("text", "markdown", "json", "latex")
#: submissions whose results one query reads (bounded IN lists)
_BATCH = 500


def _primary_f1(submission: Submission, metric: str) -> float:
    """The primary metric's macro F1; an n/a one (no gold file annotates it) ranks last."""
    value = (submission.macro or {}).get(metric, {}).get("f1")
    return -1.0 if value is None else value


def ranked_entries(session: Session, task: Task, every: bool = False) -> List[dict]:
    """The ranking: done, visible submissions of the task's phase, the best of each team
    (``every``: all of them), by decreasing macro F1 of the primary metric, the earlier
    submission first on a tie; equal values share a rank (1, 2, 2, 4).  Each entry:
    ``team``, ``submission`` (its id), ``label``, ``rank``, ``macro``, ``treebanks``."""
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
                        "rank": entries[-1]["rank"] if shared else position,
                        "macro": submission.macro, "treebanks": records[submission.id]})
    return entries


def ranking_json(entries: Sequence[dict]) -> str:
    """``{"entries": [...]}``, an entry a line, every name spelt out (:func:`json_text`).
    Compact, unlike suite's indented JSON: the standard library encodes indented JSON in
    Python, 100 teams x 82 treebanks took 6 s that way (the C encoder: well under 1 s)."""
    if not entries:
        return '{"entries": []}\n'
    return '{"entries": [\n' + ",\n".join(json_text(entry) for entry in entries) + "\n]}\n"


def _cell(score: Optional[dict]) -> Num:
    f1 = None if score is None else score.get("f1")
    return Num("n/a") if f1 is None else Num(percent(f1))


def _tables(task: Task, entries: Sequence[dict]):
    """The ranking (rank, team, submission, label, each metric's macro F1) and the primary
    metric's F1 per treebank (a row per treebank, a column per entry; ``!``: scored 0 for
    the reason suite gives)."""
    metrics = list(dict.fromkeys([task.primary_metric, *task.metrics]))
    ranking_rows: List[List[Cell]] = [[str(e["rank"]), e["team"], f"#{e['submission']}", e["label"],
                                       *(_cell(e["macro"].get(m)) for m in metrics)] for e in entries]
    ranking: Tuple[List[Cell], List[List[Cell]]] = (["Rank", "Team", "Submission", "Label", *metrics],
                                                    ranking_rows)
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


def ranking_tables(task: Task, entries: Sequence[dict], fmt: str) -> str:
    """The ranking and per-treebank tables in ``fmt`` (text, markdown or latex)."""
    _, (ranking_header, ranking_rows), (treebank_header, treebank_rows) = _tables(task, entries)
    title = f"{task.name}: {task.phase} phase, ranked by {task.primary_metric} (macro F1 over treebanks)"
    note = "! the treebank scored 0 (missing or invalid file)"
    if fmt == "latex":
        return latex_output([latex_table(ranking_header, ranking_rows, left=(0, 1, 2, 3)),
                             latex_table(treebank_header, treebank_rows, left=(0,))], None)
    if fmt == "markdown":
        blocks = [markdown_table(ranking_header, ranking_rows, left=(0, 1, 2, 3)),
                  markdown_table(treebank_header, treebank_rows, left=(0,))]
    else:
        blocks = [text_table(ranking_header, ranking_rows, left=(1, 2, 3)),
                  text_table(treebank_header, treebank_rows, left=(0,))]
    lines = [title if fmt == "text" else f"**{title}**", ""]
    lines += blocks[0] + ["", f"{task.primary_metric} F1 per treebank"
                          if fmt == "text" else f"**{task.primary_metric} F1 per treebank**", ""]
    lines += blocks[1]
    if any(record["status"] != "ok" for entry in entries for record in entry["treebanks"]):
        lines += ["", note]
    return "\n".join(lines) + "\n"
