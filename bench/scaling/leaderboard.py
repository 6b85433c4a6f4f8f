"""Scaling cases for issue 42 point 1: ``conll_eval leaderboard rank`` over ``n`` teams, each
with one scored submission of 82 treebanks (the shared tasks' size); the ranking and its JSON
grow with them.  The database is built once per size: the task and one real submission made
with the command line, its rows then copied for the other teams in SQL."""
from __future__ import annotations

import io
import os
from typing import List

from . import Case

__all__ = ["CASES"]

TREEBANKS = 82
GOLD = ("# sent_id = 1\n# text = The cat sleeps .\n"
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
        "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
        "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
        "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")


def _teams(directory: str, n: int) -> List[str]:
    # here: the bench imports every case module; only this one needs SQLAlchemy
    import sqlite3

    from conll_eval.cli import main
    gold, system = os.path.join(directory, "gold"), os.path.join(directory, "system")
    os.makedirs(gold)
    os.makedirs(system)
    for k in range(TREEBANKS):
        with open(os.path.join(gold, f"xx_tb{k:03d}.conllu"), "w", encoding="utf-8") as out:
            out.write(GOLD * 20)
        with open(os.path.join(system, f"xx_tb{k:03d}.conllu"), "w", encoding="utf-8") as out:
            out.write(GOLD.replace("\tnsubj\t", "\tobj\t") * 20)
    path = os.path.join(directory, "lb.db")
    url = f"sqlite:///{path}"
    for argv in (["init", "--db", url, "--name", "bench", "--gold", gold],
                 ["team", "add", "--db", url, "team0"],
                 ["submit", "--db", url, "--team", "team0", system]):
        assert main(["leaderboard", *argv], io.StringIO(), io.StringIO()) == 0, argv
    with sqlite3.connect(path) as connection:
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
    return ["leaderboard", "rank", "--db", url, "--format", "json"]


CASES = [
    Case("leaderboard-rank", "42.1", _teams, sizes=[50], unit="teams",
         note="82 treebanks each; the issue's bar: 100 teams ranked in under 5 s"),
]
