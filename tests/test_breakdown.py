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
    tb if tb in QUICK else pytest.param(tb, marks=[pytest.mark.slow, pytest.mark.ci_stage2])
    for tb in TREEBANKS])
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


# ---- error decomposition ------------------------------------------------------------------------

from conll_eval.analyze.decomposition import KINDS, decompose, worst_sentences  # noqa: E402


def _decomposition(gold_path, system_path):
    gold, system = load_pair(str(gold_path), str(system_path))
    check_characters(gold, system)
    return gold, system, decompose(gold, system, align_words(gold, system))


def test_decomposition_by_hand():
    """The example: gold New York (no partner: the system glued NewYork), is, big and both '.'
    right, It (nsubj for expl: wrong relation), rains (its system head 'big' is in the other
    gold sentence: the system drew no boundary there)."""
    gold, system, parts = _decomposition(EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu")
    assert [KINDS[k] for k in parts.gold_kind] == [
        "unaligned-token", "unaligned-token", "correct", "correct", "correct", "label",
        "head-split", "correct"]
    assert [KINDS[k] for k in parts.system_kind] == [
        "unaligned-token", "correct", "correct", "correct", "label", "head-split", "correct"]
    worst = worst_sentences(gold, system, parts, 5)
    assert [(w.index, w.sent_id, w.line, w.error_count, w.words, w.extra_system_words)
            for w in worst] == [(1, "2", 11, 2, 3, 0), (0, "1", 3, 2, 5, 1)]
    assert worst[0].errors == {"label": 1, "head-split": 1} and worst[0].text == "It rains."


MWT_GOLD = """\
# text = Il parle du chat.
1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_
2\tparle\tparler\tVERB\t_\t_\t0\troot\t_\t_
3-4\tdu\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\t_\t_\t5\tcase\t_\t_
4\tle\tle\tDET\t_\t_\t5\tdet\t_\t_
5\tchat\tchat\tNOUN\t_\t_\t2\tobl\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_

"""
# the system keeps "du" as one word and writes "chat." as one token
MWT_SYSTEM = """\
# text = Il parle du chat.
1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_
2\tparle\tparler\tVERB\t_\t_\t0\troot\t_\t_
3\tdu\tdu\tADP\t_\t_\t4\tcase\t_\t_
4\tchat.\tchat\tNOUN\t_\t_\t2\tobl\t_\t_

"""


def test_decomposition_tells_multiword_tokens_from_tokenization(write):
    gold, system, parts = _decomposition(write("g.conllu", MWT_GOLD), write("s.conllu", MWT_SYSTEM))
    assert [KINDS[k] for k in parts.gold_kind] == [
        "correct", "correct", "unaligned-mwt", "unaligned-mwt", "unaligned-token",
        "unaligned-token"]
    assert [KINDS[k] for k in parts.system_kind] == [
        "correct", "correct", "unaligned-mwt", "unaligned-token"]


@pytest.mark.skipif(not TREEBANKS, reason="../shared/ud is not present")
def test_decomposition_adds_up_on_every_shared_pair():
    for treebank in TREEBANKS:
        for system_name in ("sys-raw.conllu", "sys-gold-tok.conllu"):
            gold, system, parts = _decomposition(SHARED_UD / treebank / "gold.conllu",
                                                 SHARED_UD / treebank / system_name)
            assert sum(parts.gold_counts.values()) == gold.n_words
            assert sum(parts.system_counts.values()) == system.n_words
            # an aligned pair has one kind on both sides
            for kind in ("correct", "label", "head", "head-split"):
                assert parts.gold_counts[kind] == parts.system_counts[kind], (treebank, kind)
            if system_name == "sys-gold-tok.conllu":  # gold tokenization: everything aligned
                assert parts.gold_counts["unaligned-token"] == parts.gold_counts["unaligned-mwt"] == 0


def test_errors_cli(tmp_path):
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["breakdown", str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu")]
    assert main(argv + ["--worst", "1"], stdout, stderr) == 0
    text = stdout.getvalue()
    assert "4 (50.00%)" in text and "Worst 1 sentence(s)" in text and "It rains." in text
    stdout = io.StringIO()
    assert main(argv + ["--errors", "--format", "json", "--worst", "2"], stdout, stderr) == 0
    record = json.loads(stdout.getvalue())["errors"][0]
    assert record["gold"]["unaligned-token"] == 2 and record["system"]["unaligned-token"] == 1
    assert [w["sent_id"] for w in record["worst"]] == ["2", "1"]
