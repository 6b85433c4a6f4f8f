"""``conll_eval breakdown``: the CLAS paper's relation-group tables.

Hand-worked on testdata/analyze-example (tokenization and sentence-split mismatch), and
recomputed independently on the ten ../shared/ud treebanks with the official scorers: the
2017 script's WeightedLAS with 0/1 weights per relation is exactly "LAS within (or without) a
set of relations" (gold-side weights for recall and correct, system-side for precision), on the
official word alignment; CLAS and LAS come from the 2018 script.
"""
import io
import json
from pathlib import Path

import pytest

from conll_eval.align import align_words, check_characters
from conll_eval.analyze.relations import FUN_RELATIONS, RELATION_GROUPS, relation_row
from conll_eval.cli import main
from conll_eval.evaluate import load_pair
from oracles import require_oracle  # tests/ is on sys.path (rootdir)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "testdata" / "analyze-example"
SHARED_UD = ROOT.parent / "shared" / "ud"
TREEBANKS = sorted(p.name for p in SHARED_UD.iterdir() if (p / "sys-raw.conllu").is_file()) \
    if SHARED_UD.is_dir() else []


def _row(gold_path, system_path):
    gold, system = load_pair(str(gold_path), str(system_path))
    check_characters(gold, system)
    return relation_row(gold, system, align_words(gold, system))


def test_hand_worked_example():
    """Gold: New York is big . It rains . (8 words, 2 sentences); system: NewYork is big . It
    rains . (7 words, 1 sentence).  Aligned: is big . It rains . -- right (head and relation):
    is, big and both '.'; It has the right head but nsubj for expl; rains hangs on big."""
    row = _row(EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu")
    counts = {key: (s.correct, s.gold, s.system) for key, s in row.scores.items()}
    assert counts["LAS"] == (4, 8, 7)                   # 2*4/15
    assert counts["CORE"] == (0, 1, 2)                  # gold York; system NewYork, It
    assert counts["NON-CORE"] == (1, 3, 2)              # big, It(expl), rains vs big, rains
    assert counts["FUN"] == (1, 1, 1)                   # is (cop)
    assert counts["MWE"] == (0, 1, 0)                   # New (compound), unaligned
    assert counts["PUNCT"] == (2, 2, 2)
    assert counts["without:PUNCT"] == (2, 6, 5)
    assert counts["CLAS"] == (1, 5, 4)                  # content words: only big is right
    assert counts["without:cop"] == (3, 7, 6)
    assert row.value("LAS") == pytest.approx(100 * 8 / 15)
    assert row.value("NON-CORE") == pytest.approx(40.0)
    assert row.value("LAS-PUNCT") == pytest.approx(100 * (4 / 11 - 8 / 15))
    assert row.value("CLAS-LAS") == pytest.approx(100 * (2 / 9 - 8 / 15))


def test_groups_partition_the_37_relations():
    members = [r for group in RELATION_GROUPS.values() for r in group]
    assert len(members) == len(set(members)) == 37
    assert set(FUN_RELATIONS) == RELATION_GROUPS["FUN"]


def _weighted_las(oracle17, gold_ud, system_ud, relations, labels, inside):
    weights = {label: float((label in relations) == inside) for label in labels}
    score = oracle17.evaluate(gold_ud, system_ud, weights)["WeightedLAS"]
    return score.f1


#: checked in the default run; the others (about 6 s each with the official scripts) are slow
QUICK = {"en_ewt", "vi_vtb"}


@pytest.mark.skipif(not TREEBANKS, reason="../shared/ud is not present")
@pytest.mark.parametrize("treebank", [
    tb if tb in QUICK else pytest.param(tb, marks=pytest.mark.slow) for tb in TREEBANKS])
def test_against_the_official_scorers(treebank):
    oracle17 = require_oracle("conll17_ud_eval")
    oracle18 = require_oracle("conll18_ud_eval")
    gold_path, system_path = SHARED_UD / treebank / "gold.conllu", SHARED_UD / treebank / "sys-raw.conllu"
    row = _row(gold_path, system_path)
    official = oracle18.evaluate(oracle18.load_conllu_file(str(gold_path)),
                                 oracle18.load_conllu_file(str(system_path)))
    assert row.scores["LAS"].f1 == pytest.approx(official["LAS"].f1, abs=1e-12)
    assert row.scores["CLAS"].f1 == pytest.approx(official["CLAS"].f1, abs=1e-12)
    with open(gold_path, encoding="utf-8") as g, open(system_path, encoding="utf-8") as s:
        gold_ud, system_ud = oracle17.load_conllu(g), oracle17.load_conllu(s)
    labels = {w.columns[7] for w in gold_ud.words} | {w.columns[7] for w in system_ud.words}
    for name, relations in RELATION_GROUPS.items():
        expected = _weighted_las(oracle17, gold_ud, system_ud, relations, labels, True)
        assert row.scores[name].f1 == pytest.approx(expected, abs=1e-12), name
        expected = _weighted_las(oracle17, gold_ud, system_ud, relations, labels, False)
        assert row.scores["without:" + name].f1 == pytest.approx(expected, abs=1e-12), name
    for relation in FUN_RELATIONS:
        expected = _weighted_las(oracle17, gold_ud, system_ud, {relation}, labels, False)
        assert row.scores["without:" + relation].f1 == pytest.approx(expected, abs=1e-12)


def test_cli_text_json_and_a_suite_with_a_failure(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text(f"{EXAMPLE / 'gold.conllu'} {EXAMPLE / 'system.conllu'} example\n"
                     f"{EXAMPLE / 'gold.conllu'} {tmp_path / 'missing.conllu'} broken\n")
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(["breakdown", "--pairs", str(pairs)], stdout, stderr) == 1
    text = stdout.getvalue()
    assert "Table 2" in text and "Table 3" in text
    assert "Average (1 of 2)" in text and "broken: not scored" in text
    assert "53.33" in text and "+16.97" not in text and "-16.97" in text  # LAS, LAS-PUNCT
    stdout = io.StringIO()
    assert main(["breakdown", str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu"),
                 "--format", "json", "--tables", "3"], stdout, stderr) == 0
    data = json.loads(stdout.getvalue())
    assert data["columns"][:3] == ["LAS", "CLAS", "CLAS-LAS"]
    record = data["treebanks"][0]
    assert record["counts"]["CLAS"] == {"correct": 1, "gold": 5, "system": 4}
    assert record["columns"]["CLAS"] == pytest.approx(100 * 2 / 9)
    assert "breakdown:relations-nivre-fang-2017" in data["signature"]
    stdout = io.StringIO()
    assert main(["breakdown", str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu"),
                 "--format", "tsv"], stdout, stderr) == 0
    header = stdout.getvalue().splitlines()[0].split("\t")
    assert header[:3] == ["treebank", "LAS", "CORE"] and header.count("LAS") == 1


def test_usage_errors():
    stderr = io.StringIO()
    assert main(["breakdown", "--tables", "4", "a", "b"], io.StringIO(), stderr) == 2
    assert main(["breakdown"], io.StringIO(), io.StringIO()) == 2
