"""``conll_eval leaderboard rank``'s significance clusters, per-language table and history
(issue 42, section 1) on SQLite in a temporary directory: two teams with identical files share
a cluster, a clearly worse team is in the next; the bootstrap's p-values are
``difference_test``'s and the clusters ``ranked_clusters``'s; the JSON entries keep suite's
``macro`` and treebank objects; the options are compare's.  On PostgreSQL too where
tests/pg_support.py finds a server.  Skipped without the leaderboard extra."""
import json
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")
pytest.importorskip("alembic", reason="the leaderboard extra (Alembic) is not installed")

from conll_eval.analyze.comparison import compare_suites  # noqa: E402
from conll_eval.analyze.resampling import bootstrap_scores, difference_test  # noqa: E402
from conll_eval.evaluate import Settings  # noqa: E402
from conll_eval.leaderboard import db  # noqa: E402
from conll_eval.leaderboard.clusters import sentence_strata  # noqa: E402
from conll_eval.leaderboard.ranking import ranked_entries  # noqa: E402
from conll_eval.leaderboard.service import the_task  # noqa: E402
from conll_eval.pairing import find_pairs  # noqa: E402
from conll_eval.suite import SuiteEvaluation, score_entries  # noqa: E402
from conll_eval.leaderboard.clusters import (Significance, cluster_numbers, pair_p_values,  # noqa: E402
                                             stratified_bootstrap)
from conll_eval.leaderboard.scoring import counts_bytes, counts_from_bytes  # noqa: E402
from leaderboard_support import run  # noqa: E402

HOSTILE = "<script>\"'&"
SENTENCE = ("# sent_id = {k}\n# text = The cat sleeps .\n"
            "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n"
            "2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
            "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n"
            "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")
TREEBANKS = ("en_one", "en_two", "fr_three")



def _write(directory, worse_every=0):
    """Three treebanks of 40 sentences; ``worse_every``: every that many sentences get a
    wrong relation (nsubj -> obj)."""
    directory.mkdir()
    for name in TREEBANKS:
        text = "".join(SENTENCE.format(k=k).replace("\tnsubj\t", "\tobj\t")
                       if worse_every and k % worse_every == 0 else SENTENCE.format(k=k) for k in range(40))
        (directory / f"{name}.conllu").write_text(text, encoding="utf-8")
    return directory



@pytest.fixture
def board(tmp_path, database_url):
    """Teams: Alpha and the hostile name submit the gold files themselves (identical),
    Gamma a system wrong on every sentence's subject; Alpha submits a worse file first."""
    gold = _write(tmp_path / "gold")
    url = database_url
    assert run("init", "--db", url, "--name", "Task", "--gold", str(gold), "--store", str(tmp_path / "s"))[0] == 0
    for team in ("Alpha", HOSTILE, "Gamma"):
        assert run("team", "add", "--db", url, team)[0] == 0
    worse, bad = _write(tmp_path / "worse", 2), _write(tmp_path / "bad", 1)
    for team, system in (("Alpha", worse), ("Alpha", gold), (HOSTILE, gold), ("Gamma", bad)):
        status, _, err = run("submit", "--db", url, "--team", team, str(system))
        assert status == 0, err
    return url, gold, bad


def _rank(url, *options):
    status, out, err = run("rank", "--db", url, *options)
    assert (status, err) == (0, ""), err
    return out


def test_identical_submissions_share_a_cluster_and_a_worse_one_is_below(board):
    url, gold, bad = board
    document = json.loads(_rank(url, "--format", "json"))
    ranked = [(e["team"], e["rank"], e["cluster"]) for e in document["entries"]]
    assert ranked == [("Alpha", 1, 1), (HOSTILE, 1, 1), ("Gamma", 3, 2)]
    assert list(document["entries"][0]) == ["team", "submission", "label", "rank", "cluster", "macro",
                                            "treebanks"]
    # the walk's two tests: the hostile team (identical files) against Alpha, p 1; Gamma
    # against Alpha, the cluster's best, every resample nearer 0: 1/1001, times the 2 tests
    comparisons = document["significance"].pop("comparisons")
    assert comparisons == [{"submission": 3, "against": 2, "p": 1.0, "corrected": 1.0, "separated": False},
                           {"submission": 4, "against": 2, "p": 1 / 1001, "corrected": 2 / 1001,
                            "separated": True}]
    assert document["significance"] == {"test": "paired-bootstrap", "stratified": "treebank",
                                        "rule": "cluster-best", "resamples": 1000, "seed": 12345, "alpha": 0.05,
                                        "correction": "holm", "tests": 2, "separable": True}
    done = subprocess.run([sys.executable, "-m", "conll_eval", "suite", str(gold), str(bad), "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    suite = json.loads(done.stdout)
    assert document["entries"][2]["macro"] == suite["macro"]
    assert document["entries"][2]["treebanks"][0]["metrics"] == suite["treebanks"][0]["metrics"]


def test_every_submission_gets_a_cluster_and_one_resample_cannot_separate_them(board):
    url = board[0]
    every = json.loads(_rank(url, "--format", "json", "--all"))["entries"]
    assert [(e["team"], e["cluster"]) for e in every] == [("Alpha", 1), (HOSTILE, 1), ("Alpha", 2), ("Gamma", 3)]
    # one resample: the smallest p is 1/2, nothing is significant, and the output says so
    document = json.loads(_rank(url, "--format", "json", "--all", "--resamples", "1"))
    assert {e["cluster"] for e in document["entries"]} == {1} and not document["significance"]["separable"]
    warned = _rank(url, "--all", "--resamples", "1")
    assert "Warning: with 1 resamples no p-value can get below alpha" in warned
    assert "give --resamples above 60" in warned  # 3 tests / 0.05
    assert "Warning" not in _rank(url, "--all")


def test_the_tables_show_clusters_languages_and_the_history(board):
    url = board[0]
    text = _rank(url, "--history")
    assert "Rank  Cluster  Team" in text and "LAS F1 per language" in text
    language_lines = [line.split() for line in text.splitlines() if line.startswith(("en ", "fr "))]
    assert language_lines[0][:2] == ["en", "2"] and language_lines[1][:2] == ["fr", "1"]
    assert "Each team's submissions in time order" in text and "paired bootstrap stratified by treebank" in text
    history = json.loads(_rank(url, "--format", "json", "--history"))["history"]
    alpha = next(team for team in history if team["team"] == "Alpha")
    assert [row["submission"] for row in alpha["submissions"]] == [1, 2]
    assert alpha["submissions"][0]["f1"] < alpha["submissions"][1]["f1"] == 1.0
    languages = json.loads(_rank(url, "--format", "json"))["languages"]
    assert [(row["language"], row["treebanks"]) for row in languages] == [("en", ["en_one", "en_two"]),
                                                                         ("fr", ["fr_three"])]
    assert languages[0]["f1"][:2] == [1.0, 1.0] and languages[0]["f1"][2] < 1.0
    for fmt in ("markdown", "latex"):
        out = _rank(url, "--format", fmt, "--history")
        assert "Cluster" in out and "fr" in out


def test_too_few_resamples_for_the_tests_are_named():
    # the walk's 99 tests of 100 teams: 99 / 1001 > 0.05, 99 / 2001 < 0.05
    assert not Significance(resamples=1000).separable(100) and Significance(resamples=2000).separable(100)
    assert Significance(resamples=1000).separable(21) and not Significance(resamples=999).separable(52)
    assert Significance(resamples=1000, correction="none").separable(100)
    assert not Significance(resamples=10).separable(2)  # 1/11 > 0.05
    # left out: 1000, raised by thousands to twice tests / alpha (room for one resample past the
    # observed difference), so that the default always separates
    assert [Significance().resamples_for(n) for n in (2, 26, 27, 100)] == [1000, 1000, 2000, 4000]
    # at most 10,000: 250 teams get it, 500 can still be separated, 600 cannot (a warning)
    assert Significance(alpha=0.01).resamples_for(100) == 10000
    assert [Significance().resamples_for(n) for n in (251, 252, 600)] == [10000] * 3
    assert Significance().separable(500) and not Significance().separable(502)
    assert Significance(correction="none").resamples_for(100) == 1000
    assert all(Significance().separable(n) for n in (2, 10, 100, 500))


def test_the_resampling_options_are_compares(board):
    url = board[0]
    status, _, err = run("rank", "--db", url, "--alpha", "2")
    assert status == 2 and "--alpha must be between 0 and 1" in err
    status, _, err = run("rank", "--db", url, "--correction", "sideways")
    assert status == 2 and "invalid choice" in err
    assert json.loads(_rank(url, "--format", "json", "--seed", "7", "--correction", "none"))["significance"][
        "seed"] == 7


def test_the_bootstrap_p_values_are_suite_significances(board):
    """The same gold sentences, seed and resamples: the leaderboard's p-value of each pair is
    the one compare_suites (suite --significance) gives its paired bootstrap."""
    url, gold, bad = board
    engine = db.open_engine(url)
    try:
        with db.session_scope(engine) as session:
            entries = ranked_entries(session, the_task(session))
            strata, included = sentence_strata(session, entries, "LAS")
    finally:
        engine.dispose()
    # the leaderboard's own bootstrap (float32 products where exact): the same draws, the same p
    boot = stratified_bootstrap(strata, 300, 11, np.tile(included, (1, len(entries))))
    ours = pair_p_values(boot.observed, boot.samples)
    settings = Settings(profile="conll18")
    suites = []
    for name, system in (("a", gold), ("b", gold), ("c", bad)):
        pairing = find_pairs(str(gold), str(system))
        results = score_entries(pairing.entries, settings, sentence_metrics=("LAS",))
        suites.append(SuiteEvaluation(name, tuple(results), settings, pairing.unpaired_system))
    theirs = {(r.first, r.second): r.p["bootstrap"] for r in compare_suites(suites, ["LAS"], 300, 11).pairs["LAS"]}
    assert ours == theirs and ours[(0, 2)] < 0.01 and ours[(0, 1)] == 1.0


def test_pair_p_values_are_difference_tests():
    rng = np.random.default_rng(3)
    strata = [np.stack([rng.integers(0, 5, size=(30, 4)), np.full((30, 4), 4), np.full((30, 4), 4)], axis=-1)
              for _ in range(3)]
    boot = bootstrap_scores(strata, 200, 5)
    p = pair_p_values(boot.observed, boot.samples)
    assert len(p) == 6
    for (i, j), value in p.items():
        assert value == difference_test(boot.observed[i] - boot.observed[j],
                                        boot.samples[:, i] - boot.samples[:, j], 0.05)[1]


def test_clusters_follow_the_ranking_and_the_correction():
    correct = np.array([[4, 4, 0]] * 50 + [[4, 4, 1]] * 50)  # two good systems, one poor
    stratum = np.stack([correct, np.full((100, 3), 4), np.full((100, 3), 4)], axis=-1).astype(float)
    included = np.ones((1, 1), dtype=bool)
    assert cluster_numbers([stratum], included, [1.0, 1.0, 0.25], Significance()) == [1, 1, 2]
    assert cluster_numbers([stratum], included, [1.0], Significance()) == [1]
    # the metric n/a everywhere: nothing tested, one cluster
    assert cluster_numbers([stratum], np.zeros((1, 1), dtype=bool), [1.0, 1.0, 0.25],
                           Significance()) == [1, 1, 1]


def test_a_submission_whose_sentences_differ_is_refused(board):
    url = board[0]
    if not url.startswith("sqlite:"):
        pytest.skip("edits the SQLite file")
    # a kept count from a gold file of another size (an out-of-date store): rank says rescore
    with sqlite3.connect(url[len("sqlite:///"):]) as connection:
        blob, = connection.execute("SELECT counts FROM sentence_counts WHERE submission_id = 2 "
                                   "AND treebank = 'en_one'").fetchone()
        counts = {k: v[:10] for k, v in counts_from_bytes(blob).items()}
        connection.execute("UPDATE sentence_counts SET counts = ? WHERE submission_id = 2 AND treebank = 'en_one'",
                           (counts_bytes(counts),))
    status, _, err = run("rank", "--db", url)
    assert status == 1 and "error [counts-mismatch]" in err and "rescore" in err


def test_the_html_page_escapes_every_name_and_runs_no_script(board):
    url = board[0]
    page = _rank(url, "--format", "html", "--history")
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert "script-src" not in page and "<script" not in page  # the CSP allows no script at all
    assert "&lt;script&gt;&quot;&#x27;&amp;" in page and HOSTILE not in page
    assert page.count('<section id="') == 4  # ranking, languages, treebanks, history
