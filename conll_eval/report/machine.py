"""Machine-readable outputs: JSON (fractions in [0, 1]) and TSV (percent, like the tables)."""
from __future__ import annotations

import json
from typing import Mapping, Optional

from ..stats import Score

__all__ = ["to_json", "to_tsv", "score_record"]


def score_record(score: Score) -> dict:
    """Counts and scores of one metric; scores as fractions, None where undefined."""
    return {
        "correct": score.correct,
        "gold": score.gold,
        "system": score.system,
        "aligned": score.aligned,
        "precision": score.precision,
        "recall": score.recall,
        "f1": score.f1,
        "aligned_accuracy": score.aligned_accuracy,
    }


def to_json(scores: Mapping[str, Score], settings: Mapping[str, object], signature: str,
            files: Optional[Mapping[str, str]] = None) -> str:
    """One JSON object: ``metrics`` (ordered as the table), ``settings``, ``signature``, ``files``."""
    document = {
        "metrics": {name: score_record(score) for name, score in scores.items()},
        "settings": dict(settings),
        "signature": signature,
    }
    if files:
        document["files"] = dict(files)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def to_tsv(scores: Mapping[str, Score]) -> str:
    """Header plus one row per metric: counts, then P/R/F1/AligndAcc in percent (2 decimals)."""
    rows = ["metric\tcorrect\tgold\tsystem\taligned\tprecision\trecall\tf1\taligned_accuracy"]
    for name, s in scores.items():
        accuracy = s.aligned_accuracy
        rows.append("\t".join([
            name, str(s.correct), str(s.gold), str(s.system), "" if s.aligned is None else str(s.aligned),
            f"{100 * s.precision:.2f}", f"{100 * s.recall:.2f}", f"{100 * s.f1:.2f}",
            "" if accuracy is None else f"{100 * accuracy:.2f}"]))
    return "\n".join(rows) + "\n"
