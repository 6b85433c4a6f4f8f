"""Issue 42 part 3: ``conll_eval codalab INPUT_DIR OUTPUT_DIR``, the scoring program of a
CodaLab / Codabench competition, and the worked bundle in docs/codalab-bundle: built into the
zips the platform takes, unpacked as the platform unpacks them, its metadata's command run, and
the scores compared with ``conll_eval suite --format json`` on the same files, digit for digit."""
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.codalab import FAILED_KEY

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "docs" / "codalab-bundle"
#: the bundle's folders that become zips of their own (competition.yaml names them .zip)
BUNDLE_FOLDERS = ("reference_data", "scoring_program", "solution")
HEADLINE = ("LAS", "MLAS", "BLEX")


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


def zip_folder(folder: Path, target: Path) -> Path:
    """``folder``'s files at the top of the zip ``target`` (as ``cd folder && zip -r``)."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return target


def build_bundle(tmp_path: Path) -> Path:
    """The competition zip of docs/codalab.md's recipe: each folder zipped, then
    competition.yaml, the logo, the pages and those zips in one zip."""
    staging = tmp_path / "staging"
    staging.mkdir()
    for name in BUNDLE_FOLDERS:
        zip_folder(BUNDLE / name, staging / f"{name}.zip")
    competition = tmp_path / "competition.zip"
    with zipfile.ZipFile(competition, "w") as archive:
        for path in [BUNDLE / "competition.yaml", BUNDLE / "logo.png", *sorted((BUNDLE / "pages").iterdir())]:
            archive.write(path, path.relative_to(BUNDLE).as_posix())
        for name in BUNDLE_FOLDERS:
            archive.write(staging / f"{name}.zip", f"{name}.zip")
    return competition


def platform_run(competition: Path, work: Path, submission: Path):
    """What the platform does with a submission: the task's reference data unpacked into
    input/ref, the submission zip into input/res, the scoring program into program/, then
    the metadata's command with $input, $output and $program replaced.  Returns
    (completed process, output folder)."""
    unpacked = work / "bundle"
    with zipfile.ZipFile(competition) as archive:
        archive.extractall(unpacked)
    for source, target in (("reference_data.zip", "input/ref"), ("scoring_program.zip", "program")):
        with zipfile.ZipFile(unpacked / source) as archive:
            archive.extractall(work / target)
    with zipfile.ZipFile(submission) as archive:
        archive.extractall(work / "input" / "res")
    metadata = (work / "program" / "metadata").read_text(encoding="utf-8")
    command = re.search(r"^command:\s*(.+)$", metadata, re.M).group(1)
    places = {"$input": work / "input", "$output": work / "output", "$program": work / "program"}
    argv = [str(places.get(word, word)) for word in shlex.split(command)]
    environment = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    process = subprocess.run(argv, capture_output=True, text=True, env=environment, timeout=300)
    return process, work / "output"


def suite_document(gold, system, *options):
    status, out, _ = run(["suite", gold, system, "--format", "json", *options])
    assert status in (0, 1)
    return out


def assert_same_digits(output: Path, suite_text: str, metrics):
    """scores.txt and scores.json give each metric's macro F1 with the digits of the suite's
    JSON, and the number of failed treebanks."""
    suite = json.loads(suite_text)
    scores_json = json.loads((output / "scores.json").read_text(encoding="utf-8"))
    lines = (output / "scores.txt").read_text(encoding="utf-8").splitlines()
    expected = {m: suite["macro"][m]["f1"] for m in metrics}
    expected[FAILED_KEY] = len(suite["failed"])
    assert scores_json == expected
    assert lines == [f"{key}: {value!r}" for key, value in expected.items()]
    for metric in metrics:  # the printed digits of the suite's own text
        digits = lines[list(expected).index(metric)].split(": ", 1)[1]
        assert re.search(rf'"{metric}": {{\s*"precision": [^}}]*"f1": {re.escape(digits)},', suite_text)


def test_the_bundle_builds_and_its_scoring_program_scores_as_suite_does(tmp_path):
    competition = build_bundle(tmp_path)
    with zipfile.ZipFile(competition) as archive:
        names = set(archive.namelist())
    yaml_text = (BUNDLE / "competition.yaml").read_text(encoding="utf-8")
    for referenced in re.findall(r"^\s*-?\s*(?:file|path|image|terms|scoring_program|reference_data):\s*(\S+)", yaml_text, re.M):
        assert referenced in names, referenced
    submission = zip_folder(BUNDLE / "solution", tmp_path / "submission.zip")
    process, output = platform_run(competition, tmp_path / "run", submission)
    assert process.returncode == 0, process.stderr
    assert sorted(os.listdir(output)) == ["detailed_results.html", "scores.json", "scores.txt", "suite.json"]
    suite_text = suite_document(BUNDLE / "reference_data", BUNDLE / "solution")
    assert_same_digits(output, suite_text, HEADLINE)
    assert json.loads(suite_text)["macro"]["LAS"]["f1"] < 1  # the solution's mistakes count
    # every leaderboard column of competition.yaml is a key the program writes
    columns = re.findall(r"^\s+key:\s*(\S+)$", yaml_text.split("leaderboards:", 1)[1], re.M)
    assert set(columns) - {"main"} == set(json.loads((output / "scores.json").read_text()))
    page = (output / "detailed_results.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "en_toy" in page and "fr_toy" in page


def copy_task(tmp_path: Path, submission_folder: str = "") -> Path:
    """INPUT_DIR with the bundle's gold files in ref/ and its solution in res/ (in res/'s
    ``submission_folder`` when given, as an archive with a top folder unpacks)."""
    shutil.copytree(BUNDLE / "reference_data", tmp_path / "input" / "ref")
    shutil.copytree(BUNDLE / "solution", tmp_path / "input" / "res" / submission_folder)
    return tmp_path / "input"


def test_a_submission_in_one_folder_scores_the_same(tmp_path):
    input_dir = copy_task(tmp_path, "my-parser")
    (input_dir / "res" / "__MACOSX").mkdir()  # what a Mac's zip brings along
    (input_dir / "res" / "README.txt").write_text("my parser\n", encoding="utf-8")
    shutil.move(input_dir / "ref", tmp_path / "gold")  # reference data zipped with its folder
    (input_dir / "ref").mkdir()
    shutil.move(tmp_path / "gold", input_dir / "ref" / "gold")
    (input_dir / "ref" / "metadata").write_text("This is the authoritative result.\n")  # CodaLab's
    status, out, err = run(["codalab", input_dir, tmp_path / "out", "--metrics", "uas,LAS,CLAS"])
    assert (status, out, err) == (0, "", "")
    assert_same_digits(tmp_path / "out", suite_document(BUNDLE / "reference_data", BUNDLE / "solution"),
                       ["UAS", "LAS", "CLAS"])


def test_a_missing_or_invalid_treebank_counts_0_with_its_reason(tmp_path):
    input_dir = copy_task(tmp_path)
    (input_dir / "res" / "fr_toy.conllu").unlink()
    (input_dir / "res" / "en_toy.conllu").write_text("1\tbad\n\n", encoding="utf-8")
    (input_dir / "ref" / "de_toy.conllu").write_text(
        (BUNDLE / "reference_data" / "en_toy.conllu").read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copy(BUNDLE / "solution" / "en_toy.conllu", input_dir / "res" / "de_toy.conllu")
    status, _, err = run(["codalab", input_dir, tmp_path / "out"])
    assert status == 0
    assert re.search(r"^conll_eval codalab: fr_toy scored 0: .*no system file", err, re.M)
    assert re.search(r"^conll_eval codalab: en_toy scored 0: .*en_toy.conllu:1: error \[", err, re.M)
    scores = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert scores[FAILED_KEY] == 2
    assert_same_digits(tmp_path / "out", suite_document(input_dir / "ref", input_dir / "res"), HEADLINE)
    assert 0 < scores["LAS"] < 0.34  # de_toy's LAS over three treebanks
    document = json.loads((tmp_path / "out" / "suite.json").read_text())
    assert document["failed"] == ["en_toy", "fr_toy"]
    errors = {t["name"]: t["error"] for t in document["treebanks"]}
    assert "no system file" in json.dumps(errors["fr_toy"]) and errors["de_toy"] is None


def test_nothing_scored_writes_no_scores_and_fails(tmp_path):
    input_dir = copy_task(tmp_path)
    for path in (input_dir / "res").iterdir():
        path.unlink()
    status, _, err = run(["codalab", input_dir, tmp_path / "out"])
    assert status == 1
    assert err.rstrip().splitlines()[-1].startswith("conll_eval codalab: error [nothing-scored]")
    assert sorted(os.listdir(tmp_path / "out")) == ["detailed_results.html", "suite.json"]


@pytest.mark.parametrize("layout, message", [
    ({"ref": None}, "ref: no such folder"),
    ({"res": "archive"}, "holds an archive (sub.zip)"),
    ({"ref": "empty"}, "no gold treebanks"),
])
def test_a_layout_the_platform_never_makes_is_a_usage_error(tmp_path, layout, message):
    input_dir = copy_task(tmp_path)
    for side, change in layout.items():
        shutil.rmtree(input_dir / side)
        if change == "archive":
            (input_dir / side).mkdir()
            zip_folder(BUNDLE / "solution", input_dir / side / "sub.zip")
        elif change == "empty":
            (input_dir / side).mkdir()
    status, out, err = run(["codalab", input_dir, tmp_path / "out"])
    assert status == 2 and out == "" and message in err
    assert not (tmp_path / "out").exists()


def test_a_metric_no_gold_file_annotates_gets_no_key(tmp_path):
    input_dir = copy_task(tmp_path)
    status, _, err = run(["codalab", input_dir, tmp_path / "out", "--metrics", "XPOS,LAS"])
    assert status == 0 and "no key for XPOS" in err
    assert list(json.loads((tmp_path / "out" / "scores.json").read_text())) == ["LAS", FAILED_KEY]


def test_hostile_treebank_names_are_escaped_everywhere(tmp_path):
    input_dir = copy_task(tmp_path)
    hostile = "x<img src=y onerror=alert(1)>\x1b[31m"
    for side, source in (("ref", "reference_data"), ("res", "solution")):
        shutil.copy(BUNDLE / source / "en_toy.conllu", input_dir / side / f"{hostile}.conllu")
    (input_dir / "res" / "en_toy.conllu").unlink()  # a failure line names a treebank too
    (input_dir / "res" / f"{hostile}.conllu").write_text("1\tbad\n\n", encoding="utf-8")
    status, _, err = run(["codalab", input_dir, tmp_path / "out"])
    assert status == 0
    assert "\x1b" not in err and "scored 0" in err
    page = (tmp_path / "out" / "detailed_results.html").read_text(encoding="utf-8")
    assert "<img" not in page and "\x1b" not in page
    assert "x&lt;img" in page or "x\\u003cimg" in page
    document = (tmp_path / "out" / "suite.json").read_text(encoding="utf-8")
    assert "\x1b" not in document and "\\u001b" not in document
    for name in ("scores.txt", "scores.json"):
        assert "img" not in (tmp_path / "out" / name).read_text(encoding="utf-8")


def test_the_outputs_never_replace_an_input(tmp_path):
    input_dir = copy_task(tmp_path)
    (input_dir / "res" / "suite.json").symlink_to(input_dir / "ref" / "en_toy.conllu")
    before = (input_dir / "ref" / "en_toy.conllu").read_bytes()
    status, _, err = run(["codalab", input_dir, input_dir / "res"])
    assert (input_dir / "ref" / "en_toy.conllu").read_bytes() == before
    assert status == 2 and "refusing to write the output into the input file" in err
    assert not (input_dir / "res" / "scores.txt").exists()


def test_per_treebank_keys_give_each_treebanks_f1_as_suite_does(tmp_path):
    input_dir = copy_task(tmp_path)
    (input_dir / "res" / "fr_toy.conllu").unlink()
    status, _, _ = run(["codalab", input_dir, tmp_path / "out", "--per-treebank", "--metrics", "LAS,UAS"])
    assert status == 0
    suite = json.loads(suite_document(input_dir / "ref", input_dir / "res"))
    expected = {"LAS": suite["macro"]["LAS"]["f1"], "UAS": suite["macro"]["UAS"]["f1"], FAILED_KEY: 1}
    for treebank in suite["treebanks"]:
        for metric in ("LAS", "UAS"):
            expected[f"{metric}_{treebank['name']}"] = treebank["metrics"][metric]["f1"]
    assert json.loads((tmp_path / "out" / "scores.json").read_text()) == expected
    assert expected["LAS_fr_toy"] == 0 and 0 < expected["LAS_en_toy"] < 1
    lines = (tmp_path / "out" / "scores.txt").read_text().splitlines()
    assert lines == [f"{key}: {value!r}" for key, value in expected.items()]


def test_per_treebank_refuses_a_name_that_cannot_be_a_key(tmp_path):
    input_dir = copy_task(tmp_path)
    shutil.copy(BUNDLE / "reference_data" / "en_toy.conllu", input_dir / "ref" / "en:toy\x1b.conllu")
    status, _, err = run(["codalab", input_dir, tmp_path / "out", "--per-treebank"])
    assert status == 2 and "--per-treebank: the treebank name 'en:toy\\x1b'" in err and "\x1b" not in err
    assert not (tmp_path / "out").exists()


def test_an_output_folder_that_cannot_be_made_is_named(tmp_path):
    input_dir = copy_task(tmp_path)
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    status, _, err = run(["codalab", input_dir, tmp_path / "a-file" / "out"])
    assert status == 4
    assert err == f"conll_eval: error [write-failed] cannot write the results to {tmp_path}/a-file/out: Not a directory\n"


@pytest.mark.parametrize("options", [["--strict"], ["--profile", "conll17", "--deprel", "full"],
                                     ["--punct", "upos"]])
def test_the_scoring_options_are_suites(tmp_path, options):
    input_dir = copy_task(tmp_path)
    (input_dir / "res" / "en_toy.conllu").write_text(  # valid to score, invalid at level 2
        (BUNDLE / "solution" / "en_toy.conllu").read_text(encoding="utf-8").replace("# sent_id = en-2\n", ""),
        encoding="utf-8")
    status, _, _ = run(["codalab", input_dir, tmp_path / "out", "--metrics", "UAS,LAS", *options])
    assert status == 0
    suite_text = suite_document(input_dir / "ref", input_dir / "res", *options)
    assert_same_digits(tmp_path / "out", suite_text, ["UAS", "LAS"])
    written = json.loads((tmp_path / "out" / "suite.json").read_text())
    assert written["signature"] == json.loads(suite_text)["signature"]
    assert (written["failed"] == ["en_toy"]) == (options == ["--strict"])
