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
import json

import pytest

from helpers import row, run_cli


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
