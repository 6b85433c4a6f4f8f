"""The suite on the real ../shared/ud set: macro-averages equal the average of the official
per-treebank numbers (reference.json), a corrupted system file scores 0 with the right status,
and a leaderboard of the two parser outputs.  Skips when ../shared is absent."""
import json
import shutil
from pathlib import Path

import pytest

from conll_eval.suite import read_pair_list, evaluate_suite, rank
from helpers import run_cli

SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"
TREEBANKS = sorted(p.parent.name for p in SHARED_UD.glob("*/reference.json")) if SHARED_UD.is_dir() else []
SYSTEMS = ["sys-raw.conllu", "sys-gold-tok.conllu"]

pytestmark = [pytest.mark.skipif(not TREEBANKS, reason="../shared/ud is not present"), pytest.mark.ci_pure]


def reference(treebank, system):
    return json.loads((SHARED_UD / treebank / "reference.json").read_text())["pairs"][system]


def official_f1(counts):
    total = counts["gold"] + counts["system"]
    return 2 * counts["correct"] / total if total else 0.0


def printed_f1(table, metric):
    """The F1 column of the official ``-v`` table, in percent."""
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells[0] == metric:
            return float(cells[3])
    raise KeyError(metric)


def pair_list(tmp_path, system, replace=None):
    replace = replace or {}
    path = tmp_path / f"{system[:-7]}.txt"
    path.write_text("".join(f"{SHARED_UD / tb / 'gold.conllu'} {replace.get(tb, SHARED_UD / tb / system)} {tb}\n"
                            for tb in TREEBANKS))
    return str(path)


@pytest.fixture(scope="module")
def suites(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("suites")
    return {system: evaluate_suite(read_pair_list(pair_list(tmp, system)), jobs=2, system_name=system)
            for system in SYSTEMS}


@pytest.mark.parametrize("system", SYSTEMS)
def test_macro_average_equals_the_average_of_the_official_numbers(suites, system):
    suite = suites[system]
    assert [r.entry.name for r in suite.results] == TREEBANKS and all(r.ok for r in suite.results)
    for metric, average in suite.official_macro.items():
        exact = [official_f1(reference(tb, system)["conll18 counts"][metric]) for tb in TREEBANKS]
        assert average.f1 == pytest.approx(sum(exact) / len(exact), abs=1e-12), metric
        printed = [printed_f1(reference(tb, system)["conll18 -v"], metric) for tb in TREEBANKS]
        # the average of the printed (rounded) numbers is within half a unit of the last digit
        assert abs(100 * average.f1 - sum(printed) / len(printed)) <= 0.005 + 1e-9, metric
        # our macro leaves out the treebanks whose gold files do not annotate a tag
        kept = [f for f, r in zip(exact, suite.results) if metric not in r.unannotated]
        assert suite.macro[metric].count == len(kept)
        assert suite.macro[metric].f1 == pytest.approx(sum(kept) / len(kept), abs=1e-12), metric
    # fr_gsd and pt_bosque have no XPOS, vi_vtb no features
    unannotated = {r.entry.name: set(r.unannotated) for r in suite.results if r.unannotated}
    assert unannotated == {"fr_gsd": {"XPOS"}, "pt_bosque": {"XPOS"}, "vi_vtb": {"UFeats"}}


def test_a_corrupted_system_file_scores_zero_and_says_why(tmp_path, suites):
    victim = TREEBANKS[0]
    lines = (SHARED_UD / victim / "sys-raw.conllu").read_text(encoding="utf-8").split("\n")
    first_word = next(k for k, line in enumerate(lines) if line.split("\t")[0] == "1")
    cells = lines[first_word].split("\t")
    cells[6] = "1"  # word 1 depends on itself
    lines[first_word] = "\t".join(cells)
    corrupted = tmp_path / f"{victim}.conllu"
    corrupted.write_text("\n".join(lines), encoding="utf-8")
    suite = evaluate_suite(read_pair_list(pair_list(tmp_path, "sys-raw.conllu", {victim: corrupted})), jobs=2)
    failed = suite.results[0]
    assert failed.failure.location.path == str(corrupted)
    # a self-loop is a cycle, reported (like the official scorers do) where the sentence ends
    sentence_end = lines.index("", first_word) + 1
    assert failed.failure.code == "cycle" and failed.failure.location.line == sentence_end
    assert failed.failure.official == "Error: There is a cycle in generated CoNLL-U file"
    assert failed.status.startswith(f"{corrupted}:{sentence_end}: error [cycle]")
    assert all(score.f1 == 0 for score in failed.scores.values())
    intact = suites["sys-raw.conllu"]
    assert [r.scores for r in suite.results[1:]] == [r.scores for r in intact.results[1:]]
    for metric, average in suite.official_macro.items():  # the failed one counts 0
        others = sum(r.scores[metric].f1 for r in intact.results[1:])
        assert average.f1 == pytest.approx(others / len(TREEBANKS), abs=1e-12)


def test_leaderboard_of_the_two_parser_outputs(tmp_path, suites):
    ranked = rank(list(suites.values()), "LAS")
    means = {s: sum(official_f1(reference(tb, s)["conll18 counts"]["LAS"]) for tb in TREEBANKS) for s in SYSTEMS}
    assert [s.system_name for _, s in ranked] == sorted(SYSTEMS, key=lambda s: -means[s])
    code, out, _ = run_cli("suite", "--pairs", pair_list(tmp_path, SYSTEMS[0]),
                           "--pairs", pair_list(tmp_path, SYSTEMS[1]), "--format", "json", "-j", "2")
    assert code == 0
    document = json.loads(out)
    assert [s["name"] for s in document["systems"]] == [s[:-7] for s in sorted(SYSTEMS, key=lambda s: -means[s])]


def test_directory_pairing_over_the_real_set(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    for tb in TREEBANKS[:3]:
        shutil.copy(SHARED_UD / tb / "gold.conllu", gold / f"{tb}.conllu")
        shutil.copy(SHARED_UD / tb / "sys-gold-tok.conllu", system / f"{tb}.conllu")
    code, out, _ = run_cli("suite", gold, system, "--format", "json", "-j", "2")
    assert code == 0
    for record in json.loads(out)["treebanks"]:
        counts = reference(record["name"], "sys-gold-tok.conllu")["conll18 counts"]["LAS"]
        assert record["metrics"]["LAS"]["correct"] == counts["correct"]
        assert record["metrics"]["LAS"]["f1"] == official_f1(counts)


def test_ud_release_names_pair_by_treebank_code(tmp_path):
    """Gold files named as in a UD release (``en_ewt-ud-test.conllu``), system outputs as
    parsers name them (``en_ewt-ud-test.pred.conllu``, ``fr_gsd.conllu``): paired by treebank
    code, each pair named on stderr, the scores those of the official scorer; the text
    leaderboard's average rows stand under the treebank rows."""
    gold, raw, tok = (tmp_path / d for d in ("gold", "raw", "tok"))
    for directory in (gold, raw, tok):
        directory.mkdir()
    for k, tb in enumerate(TREEBANKS):  # links, not copies
        (gold / f"{tb}-ud-test.conllu").symlink_to(SHARED_UD / tb / "gold.conllu")
        (raw / f"{tb}-ud-test.pred.conllu").symlink_to(SHARED_UD / tb / "sys-raw.conllu")
        (tok / (f"{tb}.conllu" if k % 2 else f"{tb}-ud-test-sys.conllu")).symlink_to(
            SHARED_UD / tb / "sys-gold-tok.conllu")
    code, out, err = run_cli("suite", gold, raw, "--format", "json", "-j", "2")
    assert code == 0
    assert err.count("conll_eval suite: note: paired by treebank code: ") == len(TREEBANKS)
    for record in json.loads(out)["treebanks"]:
        tb = record["name"][:-len("-ud-test")]
        counts = reference(tb, "sys-raw.conllu")["conll18 counts"]["LAS"]
        assert record["paired_by_code"] and record["metrics"]["LAS"]["f1"] == official_f1(counts)
    code, out, _ = run_cli("suite", gold, raw, tok, "--micro", "--by-language", "-j", "2")
    assert code == 0
    table = out.split("LAS F1 per treebank\n", 1)[1].split("\n\n", 1)[0].splitlines()
    rows = [line for line in table if not line.startswith(("Treebank", "---"))]
    languages = len({tb.split("_")[0] for tb in TREEBANKS})
    assert len(rows) == len(TREEBANKS) + 2 + languages  # treebanks, macro, micro, languages
    assert len({line.rstrip().rindex(".") for line in rows}) == 1  # the decimal points in a column
