"""Every pair in ../shared/ud against the official scorers' outputs in its reference.json.

Skips cleanly where ../shared is absent (a user's clone).
"""
import io
import json
from pathlib import Path

import pytest

from conll_eval import evaluate_files
from conll_eval.cli import main

SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"
CASES = []
if SHARED_UD.is_dir():
    for reference in sorted(SHARED_UD.glob("*/reference.json")):
        for system_name in sorted(json.loads(reference.read_text(encoding="utf-8"))["pairs"]):
            CASES.append((reference.parent.name, system_name))

#: reference.json key -> our command-line options
OUTPUTS = {
    "conll18 -v": ["--profile", "conll18", "-v"],
    "conll18 -c": ["--profile", "conll18", "-c"],
    "conll17 -v": ["--profile", "conll17", "-v"],
}

pytestmark = [pytest.mark.skipif(not CASES, reason="../shared/ud is not present"), pytest.mark.ci_pure]


def _reference(treebank, system_name):
    path = SHARED_UD / treebank / "reference.json"
    return json.loads(path.read_text(encoding="utf-8"))["pairs"][system_name]


@pytest.mark.parametrize("treebank,system_name", CASES, ids=[f"{t}-{s}" for t, s in CASES])
def test_official_texts_byte_for_byte(treebank, system_name):
    reference = _reference(treebank, system_name)
    gold = str(SHARED_UD / treebank / "gold.conllu")
    system = str(SHARED_UD / treebank / system_name)
    checked = 0
    for key, options in OUTPUTS.items():
        if key not in reference:
            continue
        out, err = io.StringIO(), io.StringIO()
        assert main(options + [gold, system], stdout=out, stderr=err) == 0, err.getvalue()
        assert out.getvalue() == reference[key], f"{treebank}/{system_name} {key}"
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("treebank,system_name", CASES, ids=[f"{t}-{s}" for t, s in CASES])
def test_conll18_counts(treebank, system_name):
    expected = _reference(treebank, system_name)["conll18 counts"]
    evaluation = evaluate_files(str(SHARED_UD / treebank / "gold.conllu"),
                                str(SHARED_UD / treebank / system_name), profile="conll18")
    assert list(evaluation.scores) == list(expected) or set(evaluation.scores) == set(expected)
    for metric, counts in expected.items():
        score = evaluation.scores[metric]
        got = {"correct": score.correct, "gold": score.gold, "system": score.system,
               "aligned": score.aligned}
        assert got == counts, metric
