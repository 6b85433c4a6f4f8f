"""Scaling cases for issue 42 point 1: ``conll_eval leaderboard rank`` over ``n`` teams, each
with one scored submission of 82 treebanks of 300 sentences (the shared tasks' size); the
ranking, its significance clusters (a paired bootstrap of every team at once) and its JSON grow
with them.  The database is built once per size: the task and one real submission made with
the command line, its rows then copied for the other teams in SQL, each team's per-sentence
counts made a little worse at random (so that the clusters are not all one)."""
from __future__ import annotations

import io
import os
from typing import List

from . import Case

__all__ = ["CASES"]

TREEBANKS = 82
SENTENCES = 300
GOLD = ("# sent_id = 1\n# text = The cat sleeps .\n"
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
        "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
        "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")


def _teams(directory: str, n: int) -> List[str]:
    # here: the bench imports every case module; only this one needs SQLAlchemy
    import sqlite3

    import numpy as np

    from conll_eval.cli import main
    from conll_eval.leaderboard.scoring import counts_bytes, counts_from_bytes
    gold, system = os.path.join(directory, "gold"), os.path.join(directory, "system")
    os.makedirs(gold)
    os.makedirs(system)
    for k in range(TREEBANKS):
        with open(os.path.join(gold, f"xx_tb{k:03d}.conllu"), "w", encoding="utf-8") as out:
            out.write(GOLD * SENTENCES)
        with open(os.path.join(system, f"xx_tb{k:03d}.conllu"), "w", encoding="utf-8") as out:
            out.write(GOLD.replace("\tnsubj\t", "\tobj\t") * SENTENCES)
    path = os.path.join(directory, "lb.db")
    url = f"sqlite:///{path}"
    for argv in (["init", "--db", url, "--name", "bench", "--gold", gold],
                 ["team", "add", "--db", url, "team0"],
                 ["submit", "--db", url, "--team", "team0", system]):
        assert main(["leaderboard", *argv], io.StringIO(), io.StringIO()) == 0, argv
    rng = np.random.default_rng(0)
    with sqlite3.connect(path) as connection:
        kept = connection.execute("SELECT treebank, counts FROM sentence_counts WHERE submission_id = 1").fetchall()
        for team in range(1, n):
            connection.execute("INSERT INTO team (name, token_salt, token_hash, created_at) "
                               "SELECT ?, token_salt, token_hash, created_at FROM team WHERE id = 1",
                               (f"team{team}",))
            connection.execute("INSERT INTO submission (team_id, label, phase, status, created_at, hidden, "
                               "directory, macro) SELECT ?, label, phase, status, created_at, hidden, "
                               "directory, macro FROM submission WHERE id = 1", (team + 1,))
            connection.execute("INSERT INTO treebank_result (submission_id, position, treebank, status, "
                               "reason, record) SELECT ?, position, treebank, status, reason, record "
                               "FROM treebank_result WHERE submission_id = 1", (team + 1,))
            for treebank, blob in kept:
                counts = counts_from_bytes(blob)
                for array in counts.values():
                    array[:, 0] = np.maximum(0, array[:, 0] - rng.integers(0, 2, len(array)) * (team % 3))
                connection.execute("INSERT INTO sentence_counts (submission_id, treebank, counts) "
                                   "VALUES (?, ?, ?)", (team + 1, treebank, counts_bytes(counts)))
    # the resamples fixed: left out they grow with the teams (enough for the correction over
    # n - 1 tests), which makes the bootstrap's cost grow as teams squared by design
    return ["leaderboard", "rank", "--db", url, "--format", "json", "--resamples", "4000"]


CASES = [
    Case("leaderboard-rank", "42.1", _teams, sizes=[50], unit="teams",
         note="82 treebanks of 300 sentences each, significance included; the issue's bar: "
              "100 teams ranked in under 5 s"),
]
