"""Paired bootstrap, approximate randomization, McNemar's p and p-value corrections, against
slow, obviously correct reference implementations (the same random draws, plain loops) and
worked examples with known values."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conll_eval.analyze.resampling import (_BLOCK, approximate_randomization, bonferroni, f1_of,
                                           holm, paired_bootstrap)
from conll_eval.analyze.significance import mcnemar_p


def _reference_bootstrap_f1(counts, resamples, seed):
    """Per resample: draw n sentence indices (the same generator calls, block by block), add
    their counts one by one, F1 = 2c/(g+s)."""
    rng = np.random.default_rng(seed)
    n = len(counts)
    values, done = [], 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        draws = rng.integers(0, n, size=(rows, n))
        for r in range(rows):
            c = g = s = 0
            for k in draws[r]:
                c += counts[k][0]
                g += counts[k][1]
                s += counts[k][2]
            values.append(2 * c / (g + s) if g + s else 0.0)
        done += rows
    return values


def _reference_randomization(a, b, resamples, seed):
    rng = np.random.default_rng(seed)
    def f1(rows):
        c, g, s = (sum(r[i] for r in rows) for i in range(3))
        return 2 * c / (g + s) if g + s else 0.0
    observed = abs(f1(a) - f1(b))
    hits, done = 0, 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        swaps = rng.integers(0, 2, size=(rows, len(a)))
        for r in range(rows):
            new_a = [b[k] if swaps[r][k] else a[k] for k in range(len(a))]
            new_b = [a[k] if swaps[r][k] else b[k] for k in range(len(a))]
            if abs(f1(new_a) - f1(new_b)) >= observed - 1e-15:
                hits += 1
        done += rows
    return (hits + 1) / (resamples + 1)


sentence_counts = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
    .map(lambda t: (min(t[0], t[1], t[2]), t[1], t[2])), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(sentence_counts, st.integers(1, 150), st.integers(0, 2 ** 16))
def test_bootstrap_equals_the_reference(counts, resamples, seed):
    result = paired_bootstrap([np.array(counts)], resamples, seed, alpha=0.1)
    expected = _reference_bootstrap_f1(counts, resamples, seed)
    low, high = np.percentile(expected, [5, 95])
    assert result.systems[0].low == pytest.approx(low, abs=1e-12)
    assert result.systems[0].high == pytest.approx(high, abs=1e-12)
    total = np.array(counts).sum(axis=0)
    assert result.systems[0].value == pytest.approx(f1_of(total), abs=1e-15)


@settings(max_examples=30, deadline=None)
@given(sentence_counts, st.integers(1, 100), st.integers(0, 2 ** 16), st.data())
def test_randomization_equals_the_reference(a, resamples, seed, data):
    b = data.draw(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
                           .map(lambda t: (min(t[0], t[1], t[2]), t[1], t[2])),
                           min_size=len(a), max_size=len(a)))
    ours = approximate_randomization(np.array(a), np.array(b), resamples, seed)
    assert ours == pytest.approx(_reference_randomization(a, b, resamples, seed), abs=1e-12)


def test_a_constant_system_has_a_zero_width_interval():
    counts = np.array([[3, 3, 3]] * 20)  # every sentence right: F1 1 in every resample
    interval = paired_bootstrap([counts], 200).systems[0]
    assert (interval.value, interval.low, interval.high) == (1.0, 1.0, 1.0)


def test_identical_systems_give_p_1():
    rng = np.random.default_rng(1)
    gold = rng.integers(1, 10, size=50)
    counts = np.stack([rng.integers(0, gold + 1), gold, gold], axis=1)
    assert approximate_randomization(counts, counts, 300) == 1.0
    result = paired_bootstrap([counts, counts], 300)
    interval, p = result.differences[(0, 1)]
    assert (interval.value, interval.low, interval.high, p) == (0.0, 0.0, 0.0, 1.0)


def test_a_large_gap_is_significant():
    gold = np.full(200, 10)
    good = np.stack([np.full(200, 9), gold, gold], axis=1)
    bad = np.stack([np.full(200, 5), gold, gold], axis=1)
    assert approximate_randomization(good, bad, 500) == pytest.approx(1 / 501)
    interval, p = paired_bootstrap([good, bad], 500).differences[(0, 1)]
    assert interval.low > 0.35 and p < 0.01


def test_mcnemar_p_worked_examples():
    # b = 3, c = 0 (exact): 2 * P(X <= 0) = 2 / 8
    assert mcnemar_p(np.array([1, 1, 1, 0]), np.array([0, 0, 0, 0])) == pytest.approx(0.25)
    assert mcnemar_p(np.array([1, 0]), np.array([1, 0])) == 1.0  # never disagree
    # b = 60, c = 30 (normal): z = (30 - 1) / sqrt(90)
    first = np.array([1] * 60 + [0] * 30)
    second = np.array([0] * 60 + [1] * 30)
    z = 29 / math.sqrt(90)
    assert mcnemar_p(first, second) == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_corrections():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert bonferroni([0.01, 0.5]) == [0.02, 1.0]


# ---- conll_eval compare ----------------------------------------------------------------------------

import io  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402

from conll_eval.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED_EN = ROOT.parent / "shared" / "ud" / "en_ewt"
EXAMPLE = ROOT / "testdata" / "analyze-example"


@pytest.mark.skipif(not SHARED_EN.is_dir(), reason="../shared/ud is not present")
def test_gold_tokenization_is_significantly_better_on_en_ewt():
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["compare", str(SHARED_EN / "gold.conllu"), str(SHARED_EN / "sys-gold-tok.conllu"),
            str(SHARED_EN / "sys-raw.conllu"), "--names", "goldtok,raw", "--metrics", "LAS",
            "--resamples", "300"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    row = next(line for line in stdout.getvalue().splitlines() if line.startswith("goldtok - raw"))
    assert row.endswith("yes") and "+4.26" in row  # 68.26 - 63.99 (printed LAS)
    assert "resamples:300|seed:12345" in stdout.getvalue()


def test_compare_json_and_a_system_against_itself():
    stdout, stderr = io.StringIO(), io.StringIO()
    gold, system = str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu")
    assert main(["compare", gold, system, system, gold, "--names", "s1,s2,g", "--format", "json",
                 "--metrics", "LAS", "--baseline", "s1", "--resamples", "50"], stdout, stderr) == 0
    document = json.loads(stdout.getvalue())
    pairs = {(p["first"], p["second"]): p for p in document["pairs"]["LAS"]}
    assert set(pairs) == {("s1", "s2"), ("s1", "g")}  # against the baseline only
    same = pairs[("s1", "s2")]
    assert same["difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert same["p"] == {"bootstrap": 1.0, "randomization": 1.0, "mcnemar": 1.0}
    assert document["scores"]["LAS"]["g"]["value"] == 1.0
    assert pairs[("s1", "g")]["difference"]["value"] == pytest.approx(8 / 15 - 1)


def test_ranked_clusters():
    """Three systems on 200 sentences of 10 words: 9, 9 and 5 right per sentence -- the
    first two are one cluster (identical), the third is significantly worse."""
    from conll_eval.analyze.comparison import ranked_clusters
    from conll_eval.analyze.resampling import Interval
    from conll_eval.analyze.comparison import Comparison, PairResult
    gold = np.full(200, 10)
    counts = [np.stack([np.full(200, c), gold, gold], axis=1) for c in (9, 9, 5)]
    boot = paired_bootstrap(counts, 200)
    pairs = []
    for (i, j), (difference, p) in sorted(boot.differences.items()):
        result = PairResult(i, j, difference, {"bootstrap": p})
        result.corrected["bootstrap"] = p
        pairs.append(result)
    comparison = Comparison(("a", "b", "c"), {"LAS": boot.systems}, {"LAS": tuple(pairs)}, 200,
                            12345, 0.05, "none")
    assert ranked_clusters(comparison, "LAS") == [(1, 2, [0, 1]), (3, 3, [2])]
