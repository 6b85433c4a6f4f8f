"""Golden tests: our CLI against outputs recorded from the official scorers.

Inputs are hand-written (``testdata/golden/<case>/``, ``testdata/invalid/``); every
``expected*.txt`` was produced by ``scripts/make_golden.py`` running the official scripts, so
these tests need no oracle at run time.  See ``testdata/README.md``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from conll_eval.cli import main
from helpers import identical_warning, without_notes  # tests/ is on sys.path

PROJECT = Path(__file__).resolve().parent.parent
GOLDEN = PROJECT / "testdata" / "golden"
INVALID = PROJECT / "testdata" / "invalid"

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "gold.conllu").is_file())
#: cases the official conll17 scorer rejects (expected-conll17-error.txt) -> our error code
CONLL17_REJECTED = {"ideographic-space-attached": "text-mismatch"}
WEIGHTED = sorted(c for c in CASES if (GOLDEN / c / "weights.txt").is_file())


def _pair(case: str) -> List[str]:
    return [str(GOLDEN / case / "gold.conllu"), str(GOLDEN / case / "system.conllu")]


def _expected(case: str, name: str) -> str:
    return (GOLDEN / case / name).read_bytes().decode("utf-8")


def _run(capsys, argv: List[str]) -> Tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, without_notes(captured.err)


def _drop_row(table: str, name: str) -> str:
    """The table without the row of metric ``name``."""
    return "".join(line for line in table.splitlines(keepends=True)
                   if line[:11].rstrip() != name)


def _row(table: str, name: str) -> str:
    rows = [line for line in table.splitlines() if line[:11].rstrip() == name]
    assert len(rows) == 1, f"expected one {name} row in:\n{table}"
    return rows[0]


def test_case_inventory():
    required = {"identical", "mwt-resplit", "mwt-dropped", "mwt-case", "spaces-in-forms",
                "merged-tokens", "split-tokens", "merged-sentences", "split-sentences",
                "functional-children", "gold-underscore-lemmas", "subtypes", "non-ud-labels",
                "features", "xpos-underscore", "empty-nodes", "no-content-words", "weighted"}
    assert required <= set(CASES)
    for case in CASES:
        names = {p.name for p in (GOLDEN / case).iterdir()}
        assert {"expected-conll18.txt", "expected-conll18-v.txt", "expected-conll18-c.txt"} <= names
        if case in CONLL17_REJECTED:
            assert "expected-conll17-error.txt" in names
        else:
            assert {"expected-conll17.txt", "expected-conll17-v.txt",
                    "expected-conll17-v-clas.txt"} <= names
    assert WEIGHTED == ["weighted"]


# conll18 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("flags, expected", [
    ([], "expected-conll18.txt"),
    (["-v"], "expected-conll18-v.txt"),
    (["-c"], "expected-conll18-c.txt"),
], ids=["default", "verbose", "counts"])
@pytest.mark.parametrize("case", CASES)
def test_conll18(capsys, case, flags, expected):
    code, out, err = _run(capsys, ["--profile", "conll18"] + flags + _pair(case))
    assert (code, err) == (0, identical_warning(*_pair(case)))
    assert out == _expected(case, expected)


@pytest.mark.parametrize("case", CASES)
def test_conll18_is_the_default_profile(capsys, case):
    code, out, _ = _run(capsys, ["-v"] + _pair(case))
    assert code == 0
    assert out == _expected(case, "expected-conll18-v.txt")


# conll17 ------------------------------------------------------------------------------------
ACCEPTED17 = [c for c in CASES if c not in CONLL17_REJECTED]


@pytest.mark.parametrize("case", ACCEPTED17)
def test_conll17_verbose(capsys, case):
    """The installed 2017 scorer is v1.0 (no CLAS row): compare everything but our CLAS row."""
    code, out, err = _run(capsys, ["--profile", "conll17", "-v"] + _pair(case))
    assert (code, err) == (0, identical_warning(*_pair(case)))
    assert _row(out, "CLAS")  # we print it; v1.0 does not
    assert _drop_row(out, "CLAS") == _expected(case, "expected-conll17-v.txt")


@pytest.mark.parametrize("case", ACCEPTED17)
def test_conll17_clas_equals_zero_weight_weighted_las(capsys, case):
    """conll17 CLAS == v1.0 WeightedLAS with clas17-weights.txt (aux..punct 0, rest 1)."""
    code, out, _ = _run(capsys, ["--profile", "conll17", "-v"] + _pair(case))
    assert code == 0
    ours = _row(out, "CLAS")
    official = _row(_expected(case, "expected-conll17-v-clas.txt"), "WeightedLAS")
    assert ours[11:] == official[11:]


@pytest.mark.parametrize("case", ACCEPTED17)
def test_conll17_default(capsys, case):
    code, out, _ = _run(capsys, ["--profile", "conll17"] + _pair(case))
    assert code == 0
    assert out == _expected(case, "expected-conll17.txt")


@pytest.mark.parametrize("case", WEIGHTED)
def test_conll17_weighted(capsys, case):
    weights = str(GOLDEN / case / "weights.txt")
    code, out, err = _run(capsys, ["--profile", "conll17", "-v", "-w", weights] + _pair(case))
    assert (code, err) == (0, "")
    assert _drop_row(out, "CLAS") == _expected(case, "expected-conll17-v-w.txt")


@pytest.mark.parametrize("case", WEIGHTED)
def test_conll17_weights_imply_verbose(capsys, case):
    weights = str(GOLDEN / case / "weights.txt")
    code, out, _ = _run(capsys, ["--profile", "conll17", "-w", weights] + _pair(case))
    assert code == 0
    assert _drop_row(out, "CLAS") == _expected(case, "expected-conll17-v-w.txt")


@pytest.mark.parametrize("case", sorted(CONLL17_REJECTED))
def test_conll17_rejects(capsys, case):
    assert _expected(case, "expected-conll17-error.txt").startswith("UDError: ")
    code, out, err = _run(capsys, ["--profile", "conll17", "-v"] + _pair(case))
    assert (code, out) == (1, "")
    assert f"error [{CONLL17_REJECTED[case]}]" in err


# invalid files ------------------------------------------------------------------------------
#: file stem -> (expected code, 1-based line, profile).  Lines derived by hand; sentence-level
#: errors point at the blank line that ends the sentence.  See testdata/README.md.
INVALID_CASES: Dict[str, Tuple[str, int, str]] = {
    "bom": ("bom", 1, "conll18"),
    "cycle": ("cycle", 17, "conll18"),
    "empty-form": ("empty-form", 14, "conll18"),
    "empty-form-nbsp": ("empty-form", 7, "conll18"),
    "empty-node-in-mwt": ("empty-node-in-mwt", 16, "conll18"),
    "empty-sentence": ("empty-sentence", 9, "conll18"),
    "head-out-of-range": ("head-out-of-range", 17, "conll18"),
    "invalid-head": ("invalid-head", 14, "conll18"),
    "invalid-head-in-mwt": ("invalid-head", 17, "conll18"),
    "invalid-mwt-id": ("invalid-mwt-id", 15, "conll18"),
    "invalid-utf8": ("invalid-utf8", 18, "conll18"),
    "invalid-word-id": ("invalid-word-id", 13, "conll18"),
    "misplaced-comment": ("misplaced-comment", 13, "conll18"),
    "missing-final-blank-line": ("missing-final-blank-line", 16, "conll18"),
    "multiple-roots": ("multiple-roots", 17, "conll18"),
    "negative-head": ("negative-head", 14, "conll18"),
    # a sentence without root and without cycle needs the conll17 negative-HEAD-in-MWT quirk
    "no-root": ("no-root", 20, "conll17"),
    "unexpected-word-id": ("unexpected-word-id", 14, "conll18"),
    "unfinished-mwt": ("unfinished-mwt", 15, "conll18"),
    "wrong-column-count": ("wrong-column-count", 13, "conll18"),
}
#: (file, script) where our verdict deliberately differs from the installed official script
KNOWN_VERDICT_DIFFERENCES = {
    # the trankit-vendored conll18 v1.2 accepts an empty sentence; upstream conll18 (f2bc4dd)
    # rejects it ("There are 0 roots"), and so do we
    ("empty-sentence.conllu", "conll18"),
}


def _official_verdicts() -> Dict[Tuple[str, str], str]:
    rows = {}
    for line in (INVALID / "expected-official.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, script, verdict = line.split("\t", 2)
            rows[name, script] = verdict
    return rows


def test_invalid_inventory():
    files = sorted(p.stem for p in INVALID.glob("*.conllu"))
    assert files == sorted(INVALID_CASES)
    official = _official_verdicts()
    for stem in files:
        assert (INVALID / "gold" / f"{stem}.conllu").is_file()
        for script in ("conll18", "conll17"):
            assert (f"{stem}.conllu", script) in official


@pytest.mark.parametrize("stem", sorted(INVALID_CASES))
def test_invalid_file(capsys, stem):
    code_name, line, profile = INVALID_CASES[stem]
    gold = str(INVALID / "gold" / f"{stem}.conllu")
    system = str(INVALID / f"{stem}.conllu")
    argv = ([] if profile == "conll18" else ["--profile", profile]) + [gold, system]
    code, out, err = _run(capsys, argv)
    assert (code, out) == (1, "")
    assert f"invalid/{stem}.conllu:{line}: error [{code_name}]" in err.replace("\\", "/")


@pytest.mark.parametrize("stem", sorted(INVALID_CASES))
def test_invalid_gold_companion_is_valid(capsys, stem):
    gold = str(INVALID / "gold" / f"{stem}.conllu")
    code, out, err = _run(capsys, ["-v", gold, gold])
    assert (code, err) == (0, identical_warning(gold, gold))
    assert _row(out, "LAS").split("|")[1].strip() == "100.00"


def test_no_root_is_head_out_of_range_under_conll18(capsys):
    gold, system = str(INVALID / "gold" / "no-root.conllu"), str(INVALID / "no-root.conllu")
    code, _, err = _run(capsys, [gold, system])
    assert code == 1
    assert "invalid/no-root.conllu:20: error [head-out-of-range]" in err.replace("\\", "/")


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
@pytest.mark.parametrize("stem", sorted(INVALID_CASES))
def test_invalid_verdict_matches_official(capsys, stem, profile):
    """Accept/reject as the official script of the profile (crashes count as reject)."""
    name = f"{stem}.conllu"
    official_accepts = _official_verdicts()[name, profile] == "accepted"
    if (name, profile) in KNOWN_VERDICT_DIFFERENCES:
        official_accepts = not official_accepts
    code, _, _ = _run(capsys, ["--profile", profile, str(INVALID / "gold" / name), str(INVALID / name)])
    assert code == (0 if official_accepts else 1)
