"""Paired bootstrap, approximate randomization, McNemar's p and p-value corrections, against
slow, obviously correct reference implementations (the same random draws, plain loops) and
worked examples with known values."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conll_eval.analyze.resampling import (_BLOCK, approximate_randomization, bonferroni,
                                           bootstrap_scores, f1_of, holm, paired_bootstrap,
                                           randomization_p)
from conll_eval.analyze.significance import mcnemar_p


def _reference_bootstrap_f1(counts, resamples, seed):
    """Per resample: draw n sentence indices (the same generator calls, block by block), add
    their counts one by one, F1 = 2c/(g+s)."""
    rng = np.random.default_rng(seed)
    n = len(counts)
    values, done = [], 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        draws = rng.integers(0, n, size=(rows, n), dtype=np.int32)
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


def _reference_stratified_macro(strata, included, resamples, seed):
    """Per resample and score q: within each stratum, draw n_t sentences (the generator
    called block by block, stratum by stratum), sum their counts one by one, F1 per stratum,
    then the mean over the strata ``included[t][q]`` marks."""
    rng = np.random.default_rng(seed)
    scores = len(strata[0][0]) if strata and len(strata[0]) else len(included[0])
    values, done = [], 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        per_stratum = []
        for counts in strata:
            draws = (rng.integers(0, len(counts), size=(rows, len(counts)), dtype=np.int32)
                     if len(counts) else None)
            f1 = []
            for r in range(rows):
                row = []
                for q in range(scores):
                    c = g = s = 0
                    for k in (draws[r] if draws is not None else []):
                        c += counts[k][q][0]
                        g += counts[k][q][1]
                        s += counts[k][q][2]
                    row.append(2 * c / (g + s) if g + s else 0.0)
                f1.append(row)
            per_stratum.append(f1)
        for r in range(rows):
            sample = []
            for q in range(scores):
                kept = [per_stratum[t][r][q] for t in range(len(strata)) if included[t][q]]
                sample.append(sum(kept) / len(kept) if kept else 0.0)
            values.append(sample)
        done += rows
    return np.array(values)


def _reference_stratified_randomization(first, second, included, resamples, seed):
    """Swap sentence by sentence (one draw over all strata' sentences in order), then the
    absolute difference of the macro F1s, per score."""
    rng = np.random.default_rng(seed)
    scores = len(included[0])

    def macro(strata, q):
        f1 = []
        for t, rows in enumerate(strata):
            if not included[t][q]:
                continue
            c, g, s = (sum(r[q][i] for r in rows) for i in range(3))
            f1.append(2 * c / (g + s) if g + s else 0.0)
        return sum(f1) / len(f1) if f1 else 0.0
    observed = [abs(macro(first, q) - macro(second, q)) for q in range(scores)]
    total = sum(len(rows) for rows in first)
    hits, done = [0] * scores, 0
    while done < resamples:
        rows = min(_BLOCK, resamples - done)
        swaps = rng.integers(0, 2, size=(rows, total))
        for r in range(rows):
            new_a, new_b, k = [], [], 0
            for a_rows, b_rows in zip(first, second):
                new_a.append([]), new_b.append([])
                for a_row, b_row in zip(a_rows, b_rows):
                    new_a[-1].append(b_row if swaps[r][k] else a_row)
                    new_b[-1].append(a_row if swaps[r][k] else b_row)
                    k += 1
            for q in range(scores):
                if abs(macro(new_a, q) - macro(new_b, q)) >= observed[q] - 1e-15:
                    hits[q] += 1
        done += rows
    return [(h + 1) / (resamples + 1) for h in hits]


count_triple = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)).map(
    lambda t: (min(t[0], t[1], t[2]), t[1], t[2]))


@st.composite
def stratified_counts(draw, systems=1):
    """Strata (0 to 8 sentences each, an empty one being a failed gold file) of per-sentence
    counts for ``scores`` scores, and which strata each score averages over."""
    scores = draw(st.integers(1, 3))
    sizes = draw(st.lists(st.integers(0, 8), min_size=1, max_size=4))
    strata = [[[draw(count_triple) for _ in range(scores)] for _ in range(n)] for n in sizes]
    others = [[[[draw(count_triple) for _ in range(scores)] for _ in range(n)] for n in sizes]
              for _ in range(systems - 1)]
    included = [[draw(st.booleans()) for _ in range(scores)] for _ in sizes]
    return strata, others, included


def _as_arrays(strata, scores):
    return [np.array(rows, dtype=np.float64).reshape(len(rows), scores, 3) for rows in strata]


@settings(max_examples=30, deadline=None)
@given(stratified_counts(), st.integers(1, 80), st.integers(0, 2 ** 16))
def test_stratified_macro_bootstrap_equals_the_reference(data, resamples, seed):
    strata, _, included = data
    scores = len(included[0])
    result = bootstrap_scores(_as_arrays(strata, scores), resamples, seed, np.array(included))
    expected = _reference_stratified_macro(strata, included, resamples, seed)
    assert result.samples == pytest.approx(expected, abs=1e-12)
    for q in range(scores):
        f1 = [f1_of(np.array(rows, dtype=float).reshape(-1, scores, 3)[:, q].sum(axis=0))
              for t, rows in enumerate(strata) if included[t][q]]
        assert result.observed[q] == pytest.approx(np.mean(f1) if f1 else 0.0, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(stratified_counts(systems=2), st.integers(1, 60), st.integers(0, 2 ** 16))
def test_stratified_randomization_equals_the_reference(data, resamples, seed):
    first, (second,), included = data
    scores = len(included[0])
    ours = randomization_p(_as_arrays(first, scores), _as_arrays(second, scores), resamples,
                           seed, np.array(included))
    expected = _reference_stratified_randomization(first, second, included, resamples, seed)
    assert list(ours) == pytest.approx(expected, abs=1e-12)


def test_a_failed_treebank_stays_0_in_every_resample():
    """Two treebanks; score 0 is a system that failed on the second ((0, gold, 0) rows),
    score 1 the same system's first treebank alone (the second not included): in every
    resample the first is half the second."""
    rng = np.random.default_rng(3)
    gold = rng.integers(1, 8, size=(30, 1))
    first = np.stack([rng.integers(0, gold + 1), gold, gold], axis=2).astype(float)
    gold2 = rng.integers(1, 8, size=(20, 1))
    failed = np.stack([np.zeros_like(gold2), gold2, np.zeros_like(gold2)], axis=2).astype(float)
    result = bootstrap_scores([np.concatenate([first, first], axis=1),
                               np.concatenate([failed, failed], axis=1)], 200, 7,
                              np.array([[True, True], [True, False]]))
    assert result.samples[:, 0] == pytest.approx(result.samples[:, 1] / 2, abs=1e-15)
    assert result.samples[:, 1].min() < result.samples[:, 1].max()  # resampled, not constant


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


SHARED_UD = ROOT.parent / "shared" / "ud"
LARGE_GAP = 0.02  # LAS points (as a fraction) from which the gap must be significant


def _official_las(treebank: Path, system: str) -> float:
    counts = json.loads((treebank / "reference.json").read_text())["pairs"][system]
    las = counts["conll18 counts"]["LAS"]
    return 2 * las["correct"] / (las["gold"] + las["system"])


@pytest.mark.skipif(not SHARED_UD.is_dir(), reason="../shared/ud is not present")
def test_suite_significance_on_the_shared_treebanks(tmp_path):
    """Gold tokenization against raw text over every shared treebank: the macro LAS gap is
    significant, and every treebank whose official LAS gap is large is significant alone."""
    treebanks = sorted(p for p in SHARED_UD.iterdir() if (p / "reference.json").is_file())
    lists = []
    for system in ("sys-gold-tok", "sys-raw"):
        path = tmp_path / f"{system}.txt"
        path.write_text("".join(f"{tb / 'gold.conllu'} {tb / (system + '.conllu')} {tb.name}\n"
                                for tb in treebanks))
        lists += ["--pairs", str(path)]
    code, out, err = _run("suite", *lists, "--names", "goldtok,raw", "--significance",
                          "--metrics", "LAS", "--resamples", "200", "--format", "json", "-j", "1")
    assert code == 0, err
    (pair,) = json.loads(out)["significance"]["pairs"]["LAS"]
    assert pair["significant"] and pair["difference"]["low"] > 0
    large = [tb for tb in treebanks if _official_las(tb, "sys-gold-tok.conllu")
             - _official_las(tb, "sys-raw.conllu") >= LARGE_GAP]
    assert len(large) >= 5
    for tb in large:
        code, out, err = _run("compare", tb / "gold.conllu", tb / "sys-gold-tok.conllu",
                              tb / "sys-raw.conllu", "--names", "goldtok,raw", "--metrics", "LAS",
                              "--resamples", "200")
        assert code == 0, err
        row = next(line for line in out.splitlines() if line.startswith("goldtok - raw"))
        assert row.endswith("yes"), (tb.name, row)


@pytest.mark.skipif(not SHARED_EN.is_dir(), reason="../shared/ud is not present")
def test_gold_tokenization_is_significantly_better_on_en_ewt():
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["compare", str(SHARED_EN / "gold.conllu"), str(SHARED_EN / "sys-gold-tok.conllu"),
            str(SHARED_EN / "sys-raw.conllu"), "--names", "goldtok,raw", "--metrics", "LAS",
            "--resamples", "300", "--signature"]
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


def test_compare_delimited_and_markdown():
    import csv
    from conll_eval.report.comparison import DELIMITED_HEADER
    gold, system = str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu")
    argv = ["compare", gold, system, gold, "--names", "parser,oracle", "--metrics", "LAS,UPOS",
            "--resamples", "60"]
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([*argv, "--format", "csv", "--signature"], stdout, stderr) == 0
    rows = list(csv.reader(io.StringIO(stdout.getvalue())))
    assert rows[0] == DELIMITED_HEADER
    assert [r[:3] for r in rows[1:]] == [["LAS", "parser", ""], ["LAS", "oracle", ""],
                                         ["UPOS", "parser", ""], ["UPOS", "oracle", ""],
                                         ["LAS", "parser", "oracle"], ["UPOS", "parser", "oracle"]]
    las_pair = rows[5]
    assert float(las_pair[3]) == pytest.approx(8 / 15 - 1)
    assert las_pair[8] != "" and rows[6][8] == ""  # McNemar for LAS only
    assert "resamples:60|seed:12345" in stderr.getvalue()  # the CSV stays a plain table
    stdout = io.StringIO()
    assert main([*argv, "--format", "markdown"], stdout, io.StringIO()) == 0
    text = stdout.getvalue()
    assert "| parser - oracle |" in text and text.rstrip().endswith("</sub>")


# ---- conll_eval suite --significance ---------------------------------------------------------

SUITE_GOLD, SUITE_SYSTEM = ROOT / "testdata" / "suite" / "gold", ROOT / "testdata" / "suite" / "system"


def _run(*argv):
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout, stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def test_suite_significance_is_the_macro_average_with_intervals():
    """The parser misses de_kuehe (0 there); the gold files as a second system score 1."""
    metrics = ["LAS", "UPOS", "XPOS", "CLAS"]
    code, out, err = _run("suite", SUITE_GOLD, SUITE_SYSTEM, SUITE_GOLD, "--names",
                          "parser,oracle", "--significance", "--format", "json", "--metrics",
                          ",".join(metrics), "--resamples", "80")
    assert code == 1, err  # a failed treebank
    document = json.loads(out)
    macro = {s["name"]: s["macro"] for s in document["systems"]}
    significance = document["significance"]
    assert significance["strata"] == 5
    assert "XPOS" not in significance["scores"]  # no gold file annotates it: n/a, not tested
    assert "--significance leaves out XPOS" in err
    for metric in (m for m in metrics if m != "XPOS"):
        for name in ("parser", "oracle"):
            score = significance["scores"][metric][name]
            assert score["value"] == pytest.approx(macro[name][metric]["f1"], abs=1e-12)
    assert significance["scores"]["LAS"]["oracle"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    (pair,) = significance["pairs"]["LAS"]
    assert (pair["first"], pair["second"]) == ("parser", "oracle")
    assert pair["difference"]["value"] == pytest.approx(macro["parser"]["LAS"]["f1"] - 1)
    assert set(pair["p"]) == {"bootstrap", "randomization"}  # no McNemar on a macro-average
    assert significance["signature"].endswith(
        "average:macro|test:bootstrap+randomization|resamples:80|seed:12345|alpha:0.05|"
        "correction:holm")


def test_suite_significance_text_tsv_and_usage():
    import csv
    from conll_eval.report.comparison import DELIMITED_HEADER
    base = ["suite", SUITE_GOLD, SUITE_SYSTEM, SUITE_GOLD, "--names", "parser,oracle",
            "--significance", "--resamples", "40"]
    code, out, _ = _run(*base)
    assert "Macro-averaged F1 over 5 treebanks in %" in out
    assert out.index("Ranked by macro LAS") < out.index("Macro-averaged F1")  # after the board
    code, out, _ = _run(*base, "--format", "tsv", "--signature")
    lines = out.splitlines()
    assert lines[0].startswith("# conll_eval:") and "test:bootstrap+randomization" in lines[0]
    rows = list(csv.reader(lines[1:], delimiter="\t"))
    assert rows[0] == DELIMITED_HEADER
    assert {r[0] for r in rows[1:]} == {"LAS", "MLAS", "BLEX", "CLAS"}
    code, _, err = _run("suite", SUITE_GOLD, SUITE_SYSTEM, "--significance")
    assert code == 2 and "two or more systems" in err
    code, _, err = _run(*base, "--baseline", "nobody")
    assert code == 2 and "--baseline" in err
