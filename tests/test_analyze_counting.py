"""MaltEval's metrics and groupings as counts (conll_eval.analyze.counting).

Hand-worked: a tiny CoNLL-U pair whose tokenization differs.  Differential: every detail row
of MaltEval 1.0's own grouping tables in ../shared/malteval (skipped when absent) equals our
counters, value by value, at the three decimals MaltEval prints.
"""
import math
import re
import shlex
from pathlib import Path

import pytest

from conll_eval.align import align_words, check_characters
from conll_eval.analyze.counting import (GROUPINGS, METRICS, AnalysisPair, group_counts,
                                         non_projective_arcs, word_correctness)
from conll_eval.analyze.groupings import grouping_keys
from conll_eval.evaluate import load_pair

# Gold: "New York is big ." as five words; the system glues "New York" into one token
# ("NewYork" has no gold partner, nor do "New" and "York") and attaches "." to "is".
GOLD = """\
# text = New York is big.
1\tNew\tnew\tPROPN\t_\t_\t2\tcompound\t_\t_
2\tYork\tYork\tPROPN\t_\t_\t4\tnsubj\t_\t_
3\tis\tbe\tAUX\t_\t_\t4\tcop\t_\t_
4\tbig\tbig\tADJ\t_\t_\t0\troot\t_\tSpaceAfter=No
5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_

"""
SYSTEM = """\
# text = NewYork is big.
1\tNewYork\tNewYork\tPROPN\t_\t_\t3\tnsubj\t_\t_
2\tis\tbe\tVERB\t_\t_\t3\tcop\t_\t_
3\tbig\tbig\tADJ\t_\t_\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""


def _pair(gold_path, system_path):
    gold, system = load_pair(str(gold_path), str(system_path))
    check_characters(gold, system)
    return AnalysisPair.from_treebanks(gold, system, align_words(gold, system)), gold.vocab


@pytest.fixture
def tiny(write):
    return _pair(write("gold.conllu", GOLD), write("system.conllu", SYSTEM))


def test_hand_worked_metrics_on_a_tokenization_mismatch(tiny):
    pair, _ = tiny
    # aligned: is-is, big-big, .-. ; gold New, York and system NewYork have no partner
    expected = {  # metric: (gold words correct, system words correct)
        "LAS": ([0, 0, 1, 1, 0], [0, 1, 1, 0]),  # '.': head is -> wrong head
        "UAS": ([0, 0, 1, 1, 0], [0, 1, 1, 0]),
        "LA": ([0, 0, 1, 1, 1], [0, 1, 1, 1]),
        "AnyRight": ([0, 0, 1, 1, 1], [0, 1, 1, 1]),
        "AnyWrong": ([1, 1, 0, 0, 1], [1, 0, 0, 1]),
        "BothWrong": ([1, 1, 0, 0, 0], [1, 0, 0, 0]),
        "HeadWrong": ([1, 1, 0, 0, 1], [1, 0, 0, 1]),
        "LabelWrong": ([1, 1, 0, 0, 0], [1, 0, 0, 0]),
        # '.' gold: head 'big' at 4 before it (left), system: head 'is' at 2 (left) -> same
        "DirectionRight": ([0, 0, 1, 1, 1], [0, 1, 1, 1]),
        # '.' distance 1 (gold) vs 2 (system)
        "HeadToChildDistanceRight": ([0, 0, 1, 1, 0], [0, 1, 1, 0]),
        "GroupedHeadToChildDistanceRight": ([0, 0, 1, 1, 0], [0, 1, 1, 0]),
    }
    for metric, (gold_ok, sys_ok) in expected.items():
        got = word_correctness(metric, pair)
        assert got[0].astype(int).tolist() == gold_ok, metric
        assert got[1].astype(int).tolist() == sys_ok, metric
    assert set(expected) | {"BothRight", "HeadRight", "LabelRight", "self"} == set(METRICS)


def test_hand_worked_groupings(tiny):
    pair, vocab = tiny
    expected = {  # grouping: (gold keys, system keys)
        "Token": ([1, 2, 3, 4, 5], [1, 2, 3, 4]),
        "Wordform": (["New", "York", "is", "big", "."], ["NewYork", "is", "big", "."]),
        "Lemma": (["new", "York", "be", "big", "."], ["NewYork", "be", "big", "."]),
        "Cpostag": (["PROPN", "PROPN", "AUX", "ADJ", "PUNCT"], ["PROPN", "VERB", "ADJ", "PUNCT"]),
        "Postag": (["_"] * 5, ["_"] * 4),
        "Feats": (["_"] * 5, ["_"] * 4),
        "Deprel": (["compound", "nsubj", "cop", "root", "punct"], ["nsubj", "cop", "root", "punct"]),
        "Sentence": ([1] * 5, [1] * 4),
        "RelationLength": ([1, 2, 1, -1, 1], [2, 1, -1, 2]),
        "GroupedRelationLength": (["1", "2", "1", "to_root", "1"], ["2", "1", "to_root", "2"]),
        "SentenceLength": ([5] * 5, [4] * 4),
        "StartWordPosition": ([0, 1, 2, 3, 4], [0, 1, 2, 3]),
        "EndWordPosition": ([4, 3, 2, 1, 0], [3, 2, 1, 0]),
        "ArcDirection": (["right", "right", "right", "to_root", "left"],
                         ["right", "right", "to_root", "left"]),
        "ArcDepth": ([2, 1, 1, 0, 1], [1, 1, 0, 2]),
        "BranchingFactor": ([0, 1, 0, 3, 0], [0, 1, 2, 0]),
        # system '.' -> 'is' spans 'big', which 'is' does not dominate: non-projective, but
        # MaltEval never checks the word just before a dependent whose head is on its left
        "ArcProjectivity": (["Proj"] * 5, ["Proj"] * 4),
        # 1 + floor(14 * position / sentence length)
        "RelativeWordPosition": ([3, 6, 9, 12, 15], [4, 8, 11, 15]),
        # one group per word (sentence_word), folded into a few rows after counting
        **{name: ([f"000000001_00000000{i}" for i in range(5)],
                  [f"000000001_00000000{i}" for i in range(4)])
           for name in ("PreAndPost", "Clustering", "Clustering2")},
        "Frame": (["*compound* ", "compound *nsubj* ", "*cop* ", "nsubj cop *root* punct ",
                   "*punct* "], ["*nsubj* ", "*cop* punct ", "nsubj cop *root* ", "*punct* "]),
    }
    for name, (gold_keys, sys_keys) in expected.items():
        keys = grouping_keys(name, pair)
        assert [keys.label(vocab, k) for k in keys.gold] == [str(k) for k in gold_keys], name
        assert [keys.label(vocab, k) for k in keys.system] == [str(k) for k in sys_keys], name
    assert set(expected) == set(GROUPINGS)


def test_non_projective_arcs_standard_and_malteval(tiny):
    """The standard test (sentence-level projectivity) sees the system '.' -> 'is' arc over
    'big'; MaltEval's per-arc test (ArcProjectivity) skips 'big', the word just before '.'."""
    pair, _ = tiny
    assert non_projective_arcs(pair.system).tolist() == [0, 0, 0, 1]
    assert non_projective_arcs(pair.system, malteval=True).tolist() == [0, 0, 0, 0]
    assert non_projective_arcs(pair.gold).tolist() == [0] * 5


def test_hand_worked_group_counts_per_side(tiny):
    """Cpostag with LAS: gold words count under their gold tag, system words under theirs."""
    pair, vocab = tiny
    keys = grouping_keys("Cpostag", pair)
    gold_ok, sys_ok = word_correctness("LAS", pair)
    counts = group_counts(keys, gold_ok, sys_ok)
    table = {keys.label(vocab, k): (tt, tc, pt, pc) for k, tt, tc, pt, pc in zip(
        counts.keys, counts.treebank_total, counts.treebank_correct, counts.parser_total,
        counts.parser_correct)}
    assert table == {"PROPN": (2, 0, 1, 0), "AUX": (1, 1, 0, 0), "VERB": (0, 0, 1, 1),
                     "ADJ": (1, 1, 1, 1), "PUNCT": (1, 0, 1, 0)}
    # exclusions apply per side: drop PUNCT words on each side
    upos = vocab.code("PUNCT")
    kept = group_counts(keys, gold_ok, sys_ok, keys.gold != upos, keys.system != upos)
    assert vocab.code("PUNCT") not in kept.keys.tolist()


def test_self_compares_the_groupings_own_keys(tiny):
    pair, _ = tiny
    keys = grouping_keys("Cpostag", pair)
    gold_ok, sys_ok = word_correctness("self", pair, keys)
    assert gold_ok.astype(int).tolist() == [0, 0, 0, 1, 1]  # is: AUX vs VERB
    assert sys_ok.astype(int).tolist() == [0, 0, 1, 1]
    with pytest.raises(ValueError):
        word_correctness("self", pair)


def test_unknown_names(tiny):
    pair, _ = tiny
    with pytest.raises(KeyError):
        grouping_keys("Nonsense", pair)
    with pytest.raises(KeyError):
        word_correctness("Nonsense", pair)


# ---- differential: MaltEval's own detail rows ----------------------------------------------

MALTEVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "malteval"
CASES = sorted(MALTEVAL.glob("cases/0[2-6][0-9]-groupby-*")) if MALTEVAL.is_dir() else []


def _options(case: Path) -> dict:
    argv = shlex.split((case / "cmd.txt").read_text(encoding="utf-8"))
    return dict(zip(argv[::2], argv[1::2]))


def _grouping(case: Path) -> str:
    return _options(case)["--GroupBy"].split(":")[0]


#: the cases with one row per group value: Token and Sentence tables have a row per token or
#: sentence (and Sentence columns of its own), several groupings make several tables; those
#: cases' whole output is compared byte for byte in test_analyze_cases.test_malteval_case
DETAIL_CASES = [case for case in CASES if _grouping(case) in GROUPINGS and _grouping(case) not in ("Token", "Sentence")]


def _cell(text):
    return math.nan if text == "-" else float(text.replace(",", ""))


def _table(output):
    """(column names, {row label: cells}) of the first table of a MaltEval output."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(r"-+", line)) - 1
    header = re.split(r"\s{2,}", lines[start].strip())
    columns = [cell.split(" /")[0] for cell in header[:-1]]
    rows = {}
    for line in lines[start + 2:]:
        if re.fullmatch(r"-+", line) or not line:
            break
        cells = line.split(None, len(columns))
        if len(cells) > len(columns) and cells[-1] not in ("Row mean", "Row count"):
            rows[cells[-1]] = [_cell(c) for c in cells[:len(columns)]]
    return columns, rows


def _ratio(a, b):
    return a / b if b else math.nan


def _f(p, r):
    return math.nan if math.isnan(p) or math.isnan(r) or p + r == 0 else 2 * p * r / (p + r)


COLUMN = {
    "accuracy": lambda tt, tc, pt, pc: _ratio(pc, pt),
    "counter": lambda tt, tc, pt, pc: tt,
    "correctcounter": lambda tt, tc, pt, pc: tc,
    "parseraccuracy": lambda tt, tc, pt, pc: _ratio(pc, pt),
    "treebankaccuracy": lambda tt, tc, pt, pc: _ratio(tc, tt),
    "parsercounter": lambda tt, tc, pt, pc: pt,
    "treebankcounter": lambda tt, tc, pt, pc: tt,
    "parsercorrectcounter": lambda tt, tc, pt, pc: pc,
    "treebankcorrectcounter": lambda tt, tc, pt, pc: tc,
    "precision": lambda tt, tc, pt, pc: _ratio(pc, pt),
    "recall": lambda tt, tc, pt, pc: _ratio(tc, tt),
    "fscore": lambda tt, tc, pt, pc: _f(_ratio(pc, pt), _ratio(tc, tt)),
}


@pytest.mark.skipif(not CASES, reason="../shared/malteval is not present")
@pytest.mark.parametrize("case", DETAIL_CASES, ids=lambda p: p.name)
def test_detail_rows_equal_malteval(case):
    options = _options(case)
    grouping = _grouping(case)
    pair, vocab = _pair(MALTEVAL / "data" / options["-g"], MALTEVAL / "data" / options["-s"])
    keys = grouping_keys(grouping, pair)
    metric = options.get("--Metric", "LAS")
    counts = group_counts(keys, *word_correctness(metric, pair, keys))
    columns, rows = _table((case / "output.txt").read_text(encoding="utf-8"))
    ours = {keys.label(vocab, k): (tt, tc, pt, pc) for k, tt, tc, pt, pc in zip(
        counts.keys, counts.treebank_total, counts.treebank_correct, counts.parser_total,
        counts.parser_correct)}
    assert set(ours) == set(rows)
    for label, cells in rows.items():
        for column, theirs in zip(columns, cells):
            value = COLUMN[column](*ours[label])
            if math.isnan(theirs):
                assert math.isnan(value), (label, column)
            else:
                assert round(value, 3) == pytest.approx(theirs, abs=1e-9), (label, column)


METRIC_CASES = sorted(MALTEVAL.glob("cases/0[01][0-9]-metric-*")) if MALTEVAL.is_dir() else []


@pytest.mark.skipif(not METRIC_CASES, reason="../shared/malteval is not present")
@pytest.mark.parametrize("case", [c for c in METRIC_CASES if c.name[11:] in METRICS],
                         ids=lambda p: p.name)
def test_token_row_mean_equals_malteval(case):
    """``--Metric X`` with the default Token grouping: the Row mean is the share of system
    words for which X holds, the Row count the number of system words."""
    argv = shlex.split((case / "cmd.txt").read_text(encoding="utf-8"))
    options = dict(zip(argv[::2], argv[1::2]))
    pair, _ = _pair(MALTEVAL / "data" / options["-g"], MALTEVAL / "data" / options["-s"])
    _, sys_ok = word_correctness(options["--Metric"], pair)
    lines = (case / "output.txt").read_text(encoding="utf-8").splitlines()
    mean = next(line for line in lines if line.endswith("Row mean")).split()[0]
    count = next(line for line in lines if line.endswith("Row count")).split()[0]
    assert round(sys_ok.mean(), 3) == pytest.approx(float(mean), abs=1e-9)
    assert int(count) == len(sys_ok)
