"""Issue 26 point 6: suite averages (IWPT's coarse and qualitative), compare and breakdown
with ELAS/EULAS.

The suite example is worked by hand (one DEPS edge per word):

- ``en_a``: 4 gold edges, the system gets 3 (a wrong head) -> ELAS 3/4 = 75.00
- ``en_b``: 2 gold edges, ``obl:in`` against ``obl:on`` -> ELAS 1/2 = 50.00; without case
  information (``--enhancements 6``, which metadata.json says en_b lacks) 2/2 = 100.00
- ``fi_c``: 2 gold edges, both right -> 100.00
- ``de_d``: the gold DEPS are all ``_`` -> ELAS n/a, left out of every average

Macro over treebanks (3 annotated) = (75 + 50 + 100) / 3 = 75.00; per language en = 62.50,
fi = 100.00, their mean 81.25; coarse en = (3 + 1) / (4 + 2) = 66.67, fi = 100.00, their
mean 83.33; qualitative: en_b 100.00, en = 87.50, the mean over languages 93.75.
"""
import io
import json
import random

import pytest

from conll_eval.evaluate import Settings, evaluate_files
from conll_eval.metrics import display_name
from helpers import row, run_cli
from oracles import require_oracle


def _words(*specs):
    """``(form, head, deprel, deps)`` -> a sentence."""
    return "".join(row(str(k), form, head, deprel, deps=deps) + "\n"
                   for k, (form, head, deprel, deps) in enumerate(specs, 1)) + "\n"


EN_A_GOLD = _words(("a", "2", "nsubj", "2:nsubj"), ("b", "0", "root", "0:root"),
                   ("c", "2", "obj", "2:obj"), ("d", "2", "punct", "2:punct"))
EN_A_SYSTEM = _words(("a", "2", "nsubj", "2:nsubj"), ("b", "0", "root", "0:root"),
                     ("c", "2", "obj", "2:obj"), ("d", "3", "punct", "3:punct"))
EN_B_GOLD = _words(("e", "0", "root", "0:root"), ("f", "1", "obl", "1:obl:in"))
EN_B_SYSTEM = _words(("e", "0", "root", "0:root"), ("f", "1", "obl", "1:obl:on"))
FI_C = _words(("g", "0", "root", "0:root"), ("h", "1", "obj", "1:obj"))
DE_D_GOLD = _words(("i", "0", "root", "_"), ("j", "1", "obj", "_"))
DE_D_SYSTEM = _words(("i", "0", "root", "0:root"), ("j", "1", "obj", "1:obj"))


@pytest.fixture
def suite_dirs(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    metadata = []
    for lcode, tcode, gold_text, system_text, lacking in [
            ("en", "a", EN_A_GOLD, EN_A_SYSTEM, None), ("en", "b", EN_B_GOLD, EN_B_SYSTEM, "6"),
            ("fi", "c", FI_C, FI_C, "12"), ("de", "d", DE_D_GOLD, DE_D_SYSTEM, None)]:
        name = f"{lcode}_{tcode}"
        (gold / f"{name}.conllu").write_text(gold_text)
        (system / f"{name}.conllu").write_text(system_text)
        item = {"lcode": lcode, "tcode": tcode, "goldfile": f"{name}.conllu",
                "outfile": f"{name}.conllu"}
        if lacking:
            item["enhancements"] = lacking
        metadata.append(item)
    (gold / "metadata.json").write_text(json.dumps(metadata))
    return gold, system


def _suite_json(*argv):
    code, out, err = run_cli("suite", *argv, "--format", "json", "--metrics", "ELAS,LAS", "-j", "1")
    assert code == 0, err
    return json.loads(out)


def test_suite_treebank_scores_and_macro_leave_out_a_gold_without_deps(suite_dirs):
    document = _suite_json(*suite_dirs)
    elas = {t["name"]: t["metrics"]["ELAS"]["f1"] for t in document["treebanks"]}
    assert elas == {"de_d": None, "en_a": pytest.approx(0.75), "en_b": pytest.approx(0.5),
                    "fi_c": pytest.approx(1.0)}
    assert document["macro"]["ELAS"]["f1"] == pytest.approx(0.75)
    assert document["macro"]["ELAS"]["treebanks"] == 3


def test_suite_by_language_ends_with_the_mean_over_languages(suite_dirs):
    document = _suite_json(*suite_dirs, "--by-language")
    assert document["by_language"]["en"]["ELAS"]["f1"] == pytest.approx(0.625)
    assert document["by_language"]["de"]["ELAS"]["f1"] is None
    assert document["language_macro"]["ELAS"]["f1"] == pytest.approx(0.8125)
    assert document["language_macro"]["ELAS"]["treebanks"] == 2  # languages averaged: not de
    assert document["language_macro"]["LAS"]["treebanks"] == 3   # LAS: de counts


def test_suite_coarse_sums_counts_per_language_then_averages_languages(suite_dirs):
    document = _suite_json(*suite_dirs, "--coarse")
    languages = document["coarse"]["languages"]
    assert (languages["en"]["ELAS"]["correct"], languages["en"]["ELAS"]["gold"]) == (4, 6)
    assert languages["en"]["ELAS"]["f1"] == pytest.approx(4 / 6)
    assert languages["de"]["ELAS"] is None  # never 0.00
    assert document["coarse"]["macro"]["ELAS"]["f1"] == pytest.approx((4 / 6 + 1) / 2)
    assert document["coarse"]["macro"]["ELAS"]["treebanks"] == 2


def test_suite_coarse_text_rows(suite_dirs):
    code, out, err = run_cli("suite", *suite_dirs, "--metrics", "ELAS", "--coarse", "-j", "1")
    assert code == 0, err
    lines = {line.split("  ")[0].strip(): line.split()[-1] for line in out.splitlines()
             if line.startswith(("Coarse", "Macro"))}
    assert lines == {"Coarse de": "n/a", "Coarse en": "66.67", "Coarse fi": "100.00",
                     "Coarse (3)": "83.33", "Macro (4)": "75.00"}


def test_suite_coarse_tsv_rows(suite_dirs):
    code, out, err = run_cli("suite", *suite_dirs, "--metrics", "ELAS", "--coarse", "--format",
                             "tsv", "-j", "1")
    assert code == 0, err
    rows = {r.split("\t")[2]: r.split("\t") for r in out.splitlines() if not r.startswith("#")}
    assert rows["coarse:en"][3] == "en" and rows["coarse:en"][-1] == "66.67"
    assert rows["coarse"][-1] == "83.33"


def test_suite_qualitative_switches_off_what_each_treebank_lacks(suite_dirs):
    document = _suite_json(*suite_dirs, "--qualitative")
    elas = {t["name"]: t["metrics"]["ELAS"]["f1"] for t in document["treebanks"]}
    assert elas["en_b"] == pytest.approx(1.0) and elas["en_a"] == pytest.approx(0.75)
    assert document["by_language"]["en"]["ELAS"]["f1"] == pytest.approx(0.875)  # LAvgELAS
    assert document["language_macro"]["ELAS"]["f1"] == pytest.approx(0.9375)
    assert document["lacking_enhancements"] == {"de_d": "", "en_a": "", "en_b": "6", "fi_c": "12"}
    assert "enhancements:per-treebank" in document["signature"]
    plain = _suite_json(*suite_dirs)
    assert "enhancements:per-treebank" not in plain["signature"]


def test_suite_qualitative_is_the_same_in_worker_processes(suite_dirs):
    argv = [*suite_dirs, "--qualitative", "--format", "json", "--metrics", "ELAS"]
    outputs = {run_cli("suite", *argv, "-j", jobs)[1] for jobs in ("1", "3")}
    assert len(outputs) == 1


def test_suite_qualitative_needs_metadata(tmp_path, suite_dirs):
    gold, system = suite_dirs
    (gold / "metadata.json").unlink()
    code, _, err = run_cli("suite", gold, system, "--qualitative", "--metrics", "ELAS")
    assert code == 2 and "--qualitative" in err and "metadata.json" in err


@pytest.mark.parametrize("value", ["7", "", 12, "1x"])
def test_metadata_with_bad_enhancements_is_an_input_error(suite_dirs, value):
    gold, system = suite_dirs
    entries = json.loads((gold / "metadata.json").read_text())
    entries[0]["enhancements"] = value
    (gold / "metadata.json").write_text(json.dumps(entries))
    code, _, err = run_cli("suite", gold, system, "--metrics", "ELAS")
    assert code == 1 and "error [bad-metadata]" in err and "'enhancements'" in err
    assert "Traceback" not in err


def test_suite_qualitative_text_ends_the_language_rows_with_their_mean(suite_dirs):
    code, out, err = run_cli("suite", *suite_dirs, "--metrics", "ELAS", "--qualitative", "-j", "1")
    assert code == 0, err
    cells = {line.rsplit(None, 1)[0].strip(): line.split()[-1] for line in out.splitlines()
             if line.startswith("Lang")}
    assert cells == {"Lang de (1)": "n/a", "Lang en (2)": "87.50", "Lang fi (1)": "100.00",
                     "Langs (3)": "93.75"}
    assert [line.split()[1] for line in out.splitlines() if line.startswith("en_b")] == ["100.00"]
    plain = run_cli("suite", *suite_dirs, "--metrics", "ELAS", "--by-language", "-j", "1")[1]
    assert "Lang en (2)   62.50" in plain and "Langs" not in plain


# ---------------------------------------------------------------------------------------------
# compare: per-sentence counts of the official nested count, resampled

LABELS = ["nsubj", "obj", "obl:in", "obl:on", "conj:and", "nmod", "advcl:if", "ref"]


def _random_pair(r: random.Random, sentences: int):
    """Gold and system CoNLL-U with the same words and sentences, the system's DEPS perturbed
    (heads, labels and their subtypes, dropped, duplicated and added edges)."""
    gold_out, system_out = [], []
    for _ in range(sentences):
        n = r.randint(1, 6)
        gold_deps = []
        for k in range(1, n + 1):
            head = 0 if k == 1 else r.randint(1, n)
            edges = [f"{head}:{'root' if head == 0 else r.choice(LABELS)}"]
            if k > 1 and r.random() < 0.3:
                edges.append(f"{r.randint(1, n)}:{r.choice(LABELS)}")
            gold_deps.append(edges)
        system_deps = []
        for edges in gold_deps:
            edges = list(edges)
            roll = r.random()
            if roll < 0.15:
                edges.append(edges[0])  # duplicated: the official count counts it twice
            elif roll < 0.3:
                edges[0] = f"{r.randint(0, n)}:{r.choice(LABELS)}"
            elif roll < 0.4 and len(edges) > 1:
                edges.pop()
            elif roll < 0.5:
                edges.append(f"{r.randint(1, n)}:{r.choice(LABELS)}")
            system_deps.append(edges)
        for out, deps in ((gold_out, gold_deps), (system_out, system_deps)):
            out.append("".join(
                row(str(k), f"w{k}", "0" if k == 1 else "1", "root" if k == 1 else "dep",
                    deps="|".join(sorted(set(d), key=d.index)) if out is gold_out else "|".join(d))
                + "\n" for k, d in enumerate(deps, 1)) + "\n")
    return gold_out, system_out


def _official_counts(oracle, gold: str, system: str, metric: str):
    kinds = ("no_gapping", "no_shared_parents_in_coordination", "no_shared_dependents_in_coordination",
             "no_control", "no_external_arguments_of_relative_clauses", "no_case_info",
             "no_empty_nodes", "multiple_roots_okay")
    treebank_type = dict.fromkeys(kinds, 0)
    score = oracle.evaluate(oracle.load_conllu(io.StringIO(gold), treebank_type),
                            oracle.load_conllu(io.StringIO(system), treebank_type))[metric]
    return score.correct, score.gold_total, score.system_total


@pytest.mark.parametrize("seed", range(6))
def test_official_per_sentence_counts_add_up_to_the_script_on_any_resample(seed, tmp_path):
    """The bootstrap sums per-gold-sentence (correct, gold, system) rows: any multiset of
    sentences must give what the IWPT script counts on those sentences concatenated (the
    nested count, duplicated system edges counted twice)."""
    oracle = require_oracle("iwpt20_ud_eval")
    r = random.Random(seed)
    gold, system = _random_pair(r, 8)
    (tmp_path / "g.conllu").write_text("".join(gold))
    (tmp_path / "s.conllu").write_text("".join(system))
    for profile in ("iwpt", "udeval"):
        evaluation = evaluate_files(str(tmp_path / "g.conllu"), str(tmp_path / "s.conllu"),
                                    profile)
        counts = {display_name(k): c for k, c in evaluation.counts.items()}
        for metric in ("ELAS", "EULAS"):
            rows = counts[metric].by_sentence[:, :3]
            assert tuple(rows.sum(axis=0)) == _official_counts(oracle, "".join(gold),
                                                               "".join(system), metric)
            for _ in range(3):
                picked = [r.randrange(len(gold)) for _ in range(len(gold))]
                expected = _official_counts(oracle, "".join(gold[k] for k in picked),
                                            "".join(system[k] for k in picked), metric)
                assert tuple(rows[picked].sum(axis=0)) == expected, (profile, metric, picked)


def _pair_files(tmp_path, seed=3, sentences=30):
    gold, system = _random_pair(random.Random(seed), sentences)
    _, other = _random_pair(random.Random(seed), sentences)  # same gold, the same system ...
    other = [s.replace("\t2:nsubj", "\t1:nsubj") for s in other]  # ... a little worse
    paths = [tmp_path / name for name in ("g.conllu", "a.conllu", "b.conllu")]
    for path, text in zip(paths, ("".join(gold), "".join(system), "".join(other))):
        path.write_text(text)
    return [str(p) for p in paths]


@pytest.mark.parametrize("profile", ["iwpt", "udeval", "conll18"])
def test_compare_takes_elas_and_eulas(tmp_path, profile):
    gold, first, second = _pair_files(tmp_path)
    code, out, err = run_cli("compare", gold, first, second, "--metrics", "ELAS,EULAS",
                             "--profile", profile, "--format", "json", "--resamples", "200")
    assert code == 0, err
    document = json.loads(out)
    settings = Settings(profile=profile,
                        extra_metrics=("ELAS", "EULAS") if profile == "conll18" else ())
    for name, path in (("a", first), ("b", second)):
        scores = evaluate_files(gold, path, settings=settings).scores
        for metric in ("ELAS", "EULAS"):
            assert document["scores"][metric][name]["value"] == pytest.approx(scores[metric].f1)
    assert document["pairs"]["ELAS"][0]["difference"]["value"] > 0  # b is worse
    assert set(document["pairs"]["EULAS"][0]["p"]) == {"bootstrap", "randomization"}
    mode = "elas:set" if profile == "conll18" else "elas:official"
    assert mode in document["signature"]


# ---------------------------------------------------------------------------------------------
# breakdown --tables e: ELAS within groups of enhanced edges, worked by hand
#
# gold edges: 1>2 nsubj (CORE), 1>4 nsubj (CORE, CONJ: its head is a conj), 2>0 root, 3>4 cc
# (FUN), 4>2 conj, 5>6 case (FUN), 6>4 obl:in (CASE), 6>8 nsubj (CORE), 7>6 ref (REF),
# 8>6 acl:relcl.  The system drops 1>4, says obl:on for obl:in and adds 4>0 root (CONJ: not
# the basic edge of a conj).  ELAS 8/10 = 80.00; CORE 2 of 3 gold, 2 system -> 80.00;
# NON-CORE 3 of 4 gold, 5 system -> 66.67; FUN, REF 100.00; CONJ 0 of 1, 1 -> 0.00;
# CASE 0 of 1, 1 -> 0.00.

BASIC = [("Kim", "2", "nsubj"), ("sang", "0", "root"), ("and", "4", "cc"), ("danced", "2", "conj"),
         ("in", "6", "case"), ("parks", "4", "obl"), ("that", "8", "nsubj"),
         ("close", "6", "acl:relcl")]
GOLD_DEPS = ["2:nsubj|4:nsubj", "0:root", "4:cc", "2:conj", "6:case", "4:obl:in|8:nsubj",
             "6:ref", "6:acl:relcl"]
SYSTEM_DEPS = ["2:nsubj", "0:root", "4:cc", "0:root|2:conj", "6:case", "4:obl:on|8:nsubj",
               "6:ref", "6:acl:relcl"]


def _graph_file(path, deps):
    path.write_text(_words(*((f, h, d, e) for (f, h, d), e in zip(BASIC, deps))))
    return str(path)


def _breakdown_json(*argv):
    code, out, err = run_cli("breakdown", *argv, "--format", "json")
    return code, json.loads(out) if out else None, err


def test_breakdown_enhanced_table_by_hand(tmp_path):
    gold = _graph_file(tmp_path / "g.conllu", GOLD_DEPS)
    system = _graph_file(tmp_path / "s.conllu", SYSTEM_DEPS)
    code, document, err = _breakdown_json(gold, system, "--tables", "e")
    assert code == 0, err
    columns = document["treebanks"][0]["columns"]
    assert columns == pytest.approx({"ELAS": 80.0, "E-CORE": 80.0, "E-NON-CORE": 200 / 3,
                                     "E-FUN": 100.0, "E-REF": 100.0, "E-CONJ": 0.0, "E-CASE": 0.0})
    counts = document["treebanks"][0]["counts"]
    assert counts["E-CONJ"] == {"correct": 0, "gold": 1, "system": 1}
    assert counts["E-NON-CORE"] == {"correct": 3, "gold": 4, "system": 5}
    assert "breakdown:enhanced-groups|elas:set" in document["signature"]
    assert "nivre-fang" not in document["signature"]


def test_breakdown_enhanced_table_takes_the_enhancements_switch(tmp_path):
    gold = _graph_file(tmp_path / "g.conllu", GOLD_DEPS)
    system = _graph_file(tmp_path / "s.conllu", SYSTEM_DEPS)
    code, document, err = _breakdown_json(gold, system, "--tables", "e", "--enhancements", "6")
    assert code == 0, err
    columns = document["treebanks"][0]["columns"]
    assert columns["ELAS"] == pytest.approx(90.0)  # obl:in and obl:on are both obl
    assert columns["E-CASE"] is None  # no case information left on either side
    assert "enhancements:6" in document["signature"]


def test_breakdown_enhanced_with_the_papers_tables_text_and_tsv(tmp_path):
    gold = _graph_file(tmp_path / "g.conllu", GOLD_DEPS)
    system = _graph_file(tmp_path / "s.conllu", SYSTEM_DEPS)
    code, out, err = run_cli("breakdown", gold, system, "--tables", "2,e")
    assert code == 0, err
    assert out.startswith("Table 2:") and "\nEnhanced: ELAS by group" in out
    row = [line.split() for line in out.splitlines() if line.startswith("g ")][-1]
    assert row == ["g", "80.00", "80.00", "66.67", "100.00", "100.00", "0.00", "0.00"]
    code, out, err = run_cli("breakdown", gold, system, "--tables", "3,E", "--format", "tsv")
    header, values = (line.split("\t") for line in out.splitlines())
    assert header[:4] == ["treebank", "LAS", "CLAS", "CLAS-LAS"] and header[-7:] == [
        "ELAS", "E-CORE", "E-NON-CORE", "E-FUN", "E-REF", "E-CONJ", "E-CASE"]
    assert values[-7:] == ["80.00", "80.00", "66.67", "100.00", "100.00", "0.00", "0.00"]


def test_breakdown_enhanced_suite_gold_without_deps_is_na_and_not_averaged(tmp_path, suite_dirs):
    gold, system = suite_dirs
    code, document, err = _breakdown_json(gold, system, "--tables", "e")
    assert code == 0, err
    elas = {t["treebank"]: t["columns"]["ELAS"] for t in document["treebanks"]}
    assert elas == pytest.approx({"en_a": 75.0, "en_b": 50.0, "fi_c": 100.0, "de_d": None})
    assert document["average"]["ELAS"] == pytest.approx(75.0)
    assert document["average_over"]["ELAS"] == 3
    code, out, _ = run_cli("breakdown", gold, system, "--tables", "e", "--format", "markdown")
    cells = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in out.splitlines()
             if line.startswith("| ")}
    assert code == 0 and cells["de_d"] == "-" and cells["en_a"] == "75.00"


def test_breakdown_enhanced_bars_and_bad_tables(tmp_path):
    gold = _graph_file(tmp_path / "g.conllu", GOLD_DEPS)
    system = _graph_file(tmp_path / "s.conllu", SYSTEM_DEPS)
    code, _, err = run_cli("breakdown", gold, system, "--tables", "e", "--fail-under", "ELAS=90")
    assert code == 1 and "error [fail-under]" in err and "ELAS" in err
    assert run_cli("breakdown", gold, system, "--tables", "e", "--fail-under", "E-FUN=90")[0] == 0
    code, _, err = run_cli("breakdown", gold, system, "--tables", "4")
    assert code == 2 and "--tables" in err and "Traceback" not in err


def test_suite_significance_resamples_the_qualitative_scores(suite_dirs, tmp_path):
    gold, system = suite_dirs
    better = tmp_path / "better"
    better.mkdir()
    for path in system.iterdir():
        (better / path.name).write_text(path.read_text())
    (better / "en_a.conllu").write_text(EN_A_GOLD)
    code, out, err = run_cli("suite", gold, system, better, "--metrics", "ELAS", "--qualitative",
                             "--significance", "--resamples", "50", "--format", "json", "-j", "1")
    assert code == 0, err
    scores = json.loads(out)["significance"]["scores"]["ELAS"]
    assert scores["system"]["value"] == pytest.approx((0.75 + 1 + 1) / 3)  # en_b without case
    assert scores["better"]["value"] == pytest.approx(1.0)


def test_suite_tira_refuses_qualitative(suite_dirs, tmp_path):
    code, _, err = run_cli("suite", *suite_dirs, "--tira", tmp_path / "out", "--qualitative")
    assert code == 2 and "--qualitative" in err and not (tmp_path / "out").exists()


def test_suite_text_notes_only_the_shown_metrics(suite_dirs):
    """The coverage lines under the table name the metrics shown, not every scored one (the
    files annotate no UPOS: with --metrics ELAS that is no line of the table's)."""
    code, out, err = run_cli("suite", *suite_dirs, "--metrics", "ELAS", "-j", "1")
    assert code == 0, err
    notes = out.split("Tags some gold files do not annotate")[1]
    assert "  ELAS: averaged over 3 of 4 treebanks; not annotated in de_d" in notes
    assert "UPOS" not in notes and "Lemmas" not in notes
