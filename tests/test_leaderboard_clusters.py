"""The leaderboard's cluster rule (conll_eval/leaderboard/clusters.py) on hand-worked p-values:
walking down the ranking, an entry starts a new cluster when it is significantly worse than
the best of the cluster above; the correction counts the n - 1 tests the walk makes (Holm as
repeated walks).  With no correction the walk is compare's ranked_clusters; with the same
tests in every walk, Holm's passes are Holm's procedure.  And 100 teams in three groups are
three clusters with the default resamples, where Holm over all 4,950 pairs made one."""
import io

import numpy as np
import pytest

pytest.importorskip("sqlalchemy", reason="the leaderboard extra (SQLAlchemy) is not installed")

from conll_eval.analyze.comparison import Comparison, PairResult, ranked_clusters  # noqa: E402
from conll_eval.analyze.resampling import Interval, bootstrap_scores, holm  # noqa: E402
from conll_eval.leaderboard import scoring  # noqa: E402
from conll_eval.leaderboard.clusters import (Significance, cluster_walk, stratified_bootstrap,  # noqa: E402
                                             walk_clusters)
from conll_eval.leaderboard.scoring import counts_bytes, metric_counts  # noqa: E402


def _p(table):
    """A p_value(best, entry) from a hand-written table; a pair not in it was not to be tested."""
    def p_value(best, entry):
        assert (best, entry) in table, f"tested {best} against {entry}"
        return table[(best, entry)]
    return p_value


def test_an_entry_is_tested_against_its_clusters_best_not_its_neighbour():
    # 1 is close to 0 and 2 to 1, but 2 is far below 0, the best of their cluster
    table = {(0, 1): 0.2, (0, 2): 0.001}
    assert walk_clusters([0, 1, 2], _p(table), 0.05, "holm").numbers == [1, 1, 2]
    # a separated entry is the new cluster's best: 2 is compared with 1, not with 0
    table = {(0, 1): 0.001, (1, 2): 0.5}
    walk = walk_clusters([0, 1, 2], _p(table), 0.05, "holm")
    assert walk.numbers == [1, 2, 2]
    assert walk.tests == [(1, 0, 0.001, True), (2, 1, 0.5, False)]


def test_the_correction_counts_the_tests_made():
    # 4 entries, 3 tests: p 0.5, 0.01 and (against the new best) 0.02
    table = {(0, 1): 0.5, (0, 2): 0.01, (2, 3): 0.02}
    assert walk_clusters([0, 1, 2, 3], _p(table), 0.05, "none").numbers == [1, 1, 2, 3]
    # Bonferroni: 0.01 x 3 = 0.03 separates, 0.02 x 3 = 0.06 does not
    bonferroni = walk_clusters([0, 1, 2, 3], _p(table), 0.05, "bonferroni")
    assert bonferroni.numbers == [1, 1, 2, 2] and bonferroni.factor == 3
    # Holm: 0.01 x 3 separates one; then 0.02 x 2 = 0.04 separates a second; 0.5 x 1 does not
    holm_walk = walk_clusters([0, 1, 2, 3], _p(table), 0.05, "holm")
    assert holm_walk.numbers == [1, 1, 2, 3] and holm_walk.factor == 2
    # the order given is the ranking's: entry 1 first, entry 0 below it
    assert walk_clusters([1, 0], _p({(1, 0): 0.01}), 0.05, "holm").numbers == [2, 1]


def test_holm_keeps_the_walk_before_one_that_separates_fewer():
    # first walk (x3): 0 vs 1 0.06 joins, 0 vs 2 0.003 and 2 vs 3 0.03 separate: 2 separations.
    # The next walk (x1) separates 1 (0.02), and 2 and 3 are then compared with 1 (0.2): one
    # separation, fewer than two, so the first walk's clusters stay
    table = {(0, 1): 0.02, (0, 2): 0.001, (2, 3): 0.01, (1, 2): 0.2, (1, 3): 0.2}
    walk = walk_clusters([0, 1, 2, 3], _p(table), 0.05, "holm")
    assert walk.numbers == [1, 1, 2, 3] and walk.factor == 3


def test_with_fixed_tests_the_walks_are_holms_procedure():
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(2, 12))
        raw = np.where(rng.random(n) < 0.5, rng.random(n) * 0.02, rng.random(n))
        # each entry's p the same whoever is its cluster's best: a fixed family of n - 1 tests
        walk = walk_clusters(list(range(n)), lambda best, entry: float(raw[entry]), 0.05, "holm")
        adjusted = holm(list(raw[1:]))
        assert [test[3] for test in walk.tests] == [value < 0.05 for value in adjusted]


def test_without_a_correction_the_walk_is_compares_ranked_clusters():
    rng = np.random.default_rng(11)
    for _ in range(200):
        n = int(rng.integers(2, 9))
        scores = sorted(rng.random(n), reverse=True)
        p = {(i, j): float(rng.random() * 0.1) for i in range(n) for j in range(i + 1, n)}
        pairs = tuple(PairResult(i, j, Interval(scores[i] - scores[j], np.nan, np.nan), {"bootstrap": v},
                                 {"bootstrap": v}) for (i, j), v in p.items())
        comparison = Comparison(tuple(map(str, range(n))), {"LAS": tuple(Interval(s, np.nan, np.nan) for s in scores)},
                                {"LAS": pairs}, 1000, 1, 0.05, "none")
        theirs = [0] * n
        for number, (_, _, members) in enumerate(ranked_clusters(comparison, "LAS"), 1):
            for k in members:
                theirs[k] = number
        assert walk_clusters(list(range(n)), lambda i, j: p[(i, j)], 0.05, "none").numbers == theirs


def _groups(teams=100, sentences=200):
    """One treebank; team k gets every sentence right but for k % 3 of its 4 words wrong on
    a random half of the sentences: three groups far apart, teams within a group close."""
    rng = np.random.default_rng(1)
    correct = np.full((sentences, teams), 4.0)
    for k in range(teams):
        correct[:, k] -= (rng.random(sentences) < 0.5) * (k % 3)
    stratum = np.stack([correct, np.full((sentences, teams), 4.0), np.full((sentences, teams), 4.0)], axis=-1)
    ranked = list(correct.sum(axis=0) / (4.0 * sentences))
    return [stratum], np.ones((1, 1), dtype=bool), ranked


def test_a_hundred_teams_in_three_groups_make_three_clusters_with_the_default_resamples():
    strata, included, ranked = _groups()
    walk = cluster_walk(strata, included, ranked, Significance())
    order = sorted(range(100), key=lambda k: -ranked[k])
    groups = [k % 3 for k in order]
    assert groups == sorted(groups)  # the ranking puts each group together
    assert [walk.numbers[k] for k in order] == [1 + g for g in groups]
    assert len(walk.tests) == 99 and walk.factor <= 99
    # compare's 1000 resamples: 99 / 1001 > 0.05, nothing separates, one cluster
    assert set(cluster_walk(strata, included, ranked, Significance(resamples=1000)).numbers) == {1}


def test_the_leaderboards_bootstrap_is_compares_to_the_digit():
    """float32 products where the sums stay exact, float64 where a treebank's counts could
    pass 2**24 in a resample, the gold column once when every entry shares it: the same
    samples as analyze.resampling's bootstrap every way."""
    rng = np.random.default_rng(5)
    strata = [np.stack([rng.integers(0, 30, (size, 7)), rng.integers(10, 40, (size, 7)),
                        rng.integers(10, 40, (size, 7))], axis=-1).astype(float) for size in (120, 0, 40)]
    strata.append(strata[0] * 200_001)  # 120 sentences of up to 8e6: float64 (float32 differs here)
    shared = strata[2].copy()
    shared[:, :, 1] = shared[:, :1, 1]  # every entry's gold counts the same, as in a ranking
    strata.append(shared)
    strata.append(shared * 300_001)
    included = np.ones((6, 7), dtype=bool)
    included[2, 3] = False
    ours = stratified_bootstrap(strata, 150, 3, included)
    theirs = bootstrap_scores(strata, 150, 3, included)
    assert np.array_equal(ours.samples, theirs.samples) and np.array_equal(ours.observed, theirs.observed)


def test_one_metrics_counts_are_read_from_the_kept_blob_as_np_load_reads_them():
    rng = np.random.default_rng(2)
    counts = {"LAS": rng.integers(0, 50, (7, 4)), "Words": np.zeros((0, 4), dtype=np.int64),
              "BLEX": rng.integers(0, 9, (1, 3))}
    blob = counts_bytes(counts)
    assert scoring._member(blob, b"LAS.npy") is not None  # the quick path, not np.load
    for metric, array in counts.items():
        assert np.array_equal(metric_counts(blob, metric), array[:, :3])
    assert metric_counts(blob, "MLAS") is None
    # its own memory: a view into the blob kept every metric's counts (rank's peak doubled)
    assert metric_counts(blob, "LAS").flags.owndata
    # what np.savez did not write as counts_bytes does: np.load reads it
    for save, kind in ((np.savez_compressed, np.int64), (np.savez, np.int32), (np.savez, ">i8")):
        buffer = io.BytesIO()
        save(buffer, LAS=counts["LAS"].astype(kind), CLAS=np.asfortranarray(counts["LAS"]))
        assert np.array_equal(metric_counts(buffer.getvalue(), "LAS"), counts["LAS"][:, :3])
        assert np.array_equal(metric_counts(buffer.getvalue(), "CLAS"), counts["LAS"][:, :3])
    # cut short: a member read whole is read, one cut is never read past the end (np.load then
    # refuses the archive, whose directory is gone)
    start, size = scoring._member(blob, b"BLEX.npy")
    assert np.array_equal(metric_counts(blob[:start + size], "LAS"), counts["LAS"][:, :3])
    for end in (10, 40, start + size - 1):
        with pytest.raises(Exception):
            metric_counts(blob[:end], "BLEX")
