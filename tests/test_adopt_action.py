"""Issue 32 part 4: the composite GitHub Action (``action.yml``) run as the runner runs it.

Each step's ``run:`` script is run by bash with the step's ``env:`` (its ``${{ inputs.* }}``
filled in from the inputs given here or their defaults), ``GITHUB_STEP_SUMMARY`` and
``GITHUB_OUTPUT`` pointing at temporary files, on testdata/example.  Steps that ``uses:``
another action (setup-python) and the install step (``install: false``: conll_eval is
installed in this environment already) are left out, as their ``if:`` says.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

try:  # PyYAML where installed; else the small reader below (the file keeps to its subset)
    import yaml
except ImportError:  # pragma: no cover - depends on the environment
    yaml = None

PROJECT = Path(__file__).resolve().parent.parent
ACTION = PROJECT / "action.yml"
EXAMPLE = PROJECT / "testdata" / "example"
BASH = shutil.which("bash")

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is needed to run the action's steps")


class _SubsetReader:
    """The YAML the action file uses: block mappings and sequences (of mappings), literal
    block scalars (``|``), plain and quoted one-line scalars, whole-line comments.
    Anything else is an error, so the file cannot drift out of what this checks."""

    def __init__(self, text: str):
        self.lines = text.split("\n")
        self.at = 0

    def _significant(self) -> Optional[Tuple[int, str]]:
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.strip() and not line.lstrip().startswith("#"):
                return len(line) - len(line.lstrip(" ")), line.strip()
            self.at += 1
        return None

    def node(self, indent: int):
        found = self._significant()
        assert found is not None and found[0] >= indent, f"line {self.at + 1}: a value is missing"
        return self._sequence(found[0]) if found[1].startswith("- ") else self._mapping(found[0])

    def _mapping(self, indent: int) -> dict:
        mapping: dict = {}
        while (found := self._significant()) is not None and found[0] == indent \
                and not found[1].startswith("- "):
            key, colon, rest = found[1].partition(":")
            assert colon and (not rest or rest.startswith(" ")), f"line {self.at + 1}: not key: value"
            rest = rest.strip()
            self.at += 1
            if rest == "|":
                mapping[key] = self._literal(indent)
            elif rest:
                mapping[key] = _scalar(rest, self.at)
            else:
                mapping[key] = self.node(indent + 1)
        assert found is None or found[0] < indent, f"line {self.at + 1}: unexpected indentation"
        return mapping

    def _sequence(self, indent: int) -> list:
        items = []
        while (found := self._significant()) is not None and found[0] == indent \
                and found[1].startswith("- "):
            line = self.lines[self.at]
            self.lines[self.at] = line[:indent] + "  " + line[indent + 2:]  # the item's mapping
            items.append(self._mapping(indent + 2))
        return items

    def _literal(self, indent: int) -> str:
        block: List[str] = []
        while self.at < len(self.lines) and (not self.lines[self.at].strip() or
                                             self.lines[self.at].startswith(" " * (indent + 1))):
            block.append(self.lines[self.at])
            self.at += 1
        while block and not block[-1].strip():
            block.pop()
        margin = min(len(line) - len(line.lstrip(" ")) for line in block if line.strip())
        return "\n".join(line[margin:] for line in block) + "\n"


def _scalar(text: str, line: int) -> str:
    if text[0] == '"':
        assert text.endswith('"') and "\\" not in text, f"line {line}: a quoted scalar this reads"
        return text[1:-1]
    if text[0] == "'":
        assert text.endswith("'"), f"line {line}: a quoted scalar this reads"
        return text[1:-1].replace("''", "'")
    assert " #" not in text and not text.startswith(("&", "*", "[", "{", "!")), \
        f"line {line}: a plain scalar this reads"
    if text in ("true", "false"):
        return text == "true"
    assert not re.fullmatch(r"[-+.\d]+|~|null|yes|no|on|off|y|n|True|False", text, re.I), \
        f"line {line}: a number, null or YAML 1.1 boolean: quote it"
    return text


def load_action() -> dict:
    text = ACTION.read_text(encoding="utf-8")
    data = _SubsetReader(text).node(0)
    if yaml is not None:
        assert data == yaml.safe_load(text), "the subset reader disagrees with PyYAML"
    return data


_INPUT = re.compile(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}")
_CONDITION = re.compile(r"^inputs\.([A-Za-z0-9_-]+) (==|!=) '([^']*)'$")


def _condition_holds(condition: Optional[str], inputs: Dict[str, str]) -> bool:
    """The two forms of ``if:`` the action uses: ``inputs.X == 'v'`` and ``inputs.X != 'v'``."""
    if condition is None:
        return True
    match = _CONDITION.match(condition)
    assert match, f"an if: this test does not evaluate: {condition!r}"
    equal = inputs[match.group(1)] == match.group(3)
    return equal if match.group(2) == "==" else not equal


def run_action(tmp_path: Path, **given: str) -> Tuple[subprocess.CompletedProcess, str, str]:
    """Run the action's steps with these inputs (``fail_under`` for ``fail-under``); return
    the last step's process, the step summary and the step outputs."""
    action = load_action()
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    given.setdefault("install", "false")  # installed here already
    given.setdefault("python_version", "")  # this test's python
    for name, value in given.items():
        assert name.replace("_", "-") in inputs, name
        inputs[name.replace("_", "-")] = value
    missing = [name for name, spec in action["inputs"].items()
               if spec.get("required") is True and not inputs[name]]
    assert not missing, missing
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs.txt"
    summary.write_text("", encoding="utf-8")
    outputs.write_text("", encoding="utf-8")
    environment = dict(os.environ, GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(outputs),
                       GITHUB_ACTION_PATH=str(PROJECT), RUNNER_TEMP=str(tmp_path),
                       PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                             os.environ.get("PATH", "")]))
    result = None
    for step in action["runs"]["steps"]:
        if not _condition_holds(step.get("if"), inputs):
            continue
        assert "run" in step, f"a step to run here but it uses {step.get('uses')}"
        assert step.get("shell") == "bash"
        env = dict(environment)
        for name, value in step.get("env", {}).items():
            env[name] = _INPUT.sub(lambda match: inputs[match.group(1)], value)
        result = subprocess.run([BASH, "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                                env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            break
    assert result is not None
    return result, summary.read_text(encoding="utf-8"), outputs.read_text(encoding="utf-8")


def _table_rows(markdown: str) -> Dict[str, List[str]]:
    rows = {}
    for line in markdown.splitlines():
        if line.startswith("|") and not line.startswith("| -"):
            cells = [cell.strip().strip("*") for cell in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def _score(metric: str) -> float:
    """The example pair's F1 of ``metric``, from conll_eval's JSON (not from the action)."""
    result = subprocess.run([sys.executable, "-m", "conll_eval", "--format", "json",
                             str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu")],
                            capture_output=True, text=True, check=True)
    return 100 * json.loads(result.stdout)["metrics"][metric]["f1"]


def test_the_steps_outside_this_test_are_setup_python_and_the_install():
    steps = load_action()["runs"]["steps"]
    assert [step["uses"].split("@")[0] for step in steps if "uses" in step] == ["actions/setup-python"]
    install = [step for step in steps if step.get("if") == "inputs.install == 'true'"]
    assert len(install) == 1 and 'pip install' in install[0]["run"] \
        and '"$GITHUB_ACTION_PATH"' in install[0]["run"]
    assert load_action()["runs"]["using"] == "composite"


def test_a_passing_gate_writes_the_table_to_the_summary(tmp_path):
    las = _score("LAS")
    result, summary, outputs = run_action(
        tmp_path, gold=str(EXAMPLE / "gold.conllu"), system=str(EXAMPLE / "system.conllu"),
        fail_under=f"LAS={las - 1:.2f}")
    assert result.returncode == 0, result.stderr
    assert summary.startswith("### conll_eval score: ")
    rows = _table_rows(summary)
    assert rows["Metric"][:3] == ["Precision", "Recall", "F1 Score"]
    assert float(rows["LAS"][2]) == pytest.approx(las, abs=0.006)
    table = re.search(r"^table=(.+)$", outputs, re.M).group(1)
    assert Path(table).read_text(encoding="utf-8") in summary
    assert "| LAS" in result.stdout  # the log shows it too


def test_a_failing_gate_fails_the_step_and_still_summarizes(tmp_path):
    las = _score("LAS")
    result, summary, _ = run_action(
        tmp_path, gold=str(EXAMPLE / "gold.conllu"), system=str(EXAMPLE / "system.conllu"),
        fail_under=f"LAS={las + 1:.2f}", metrics="UAS,LAS")
    assert result.returncode == 1, result.stderr
    assert "error [fail-under] LAS" in result.stderr
    rows = _table_rows(summary)
    assert set(rows) == {"Metric", "UAS", "LAS"}  # --metrics reached the command


def test_directories_run_a_suite(tmp_path):
    gold, system = tmp_path / "gold data", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    shutil.copyfile(EXAMPLE / "gold.conllu", gold / "en_example-ud-test.conllu")
    shutil.copyfile(EXAMPLE / "system.conllu", system / "en_example-ud-test.conllu")
    result, summary, _ = run_action(tmp_path, gold=str(gold), system=str(system),
                                    profile="conll17", fail_under="LAS=1")
    assert result.returncode == 0, result.stderr
    assert summary.startswith("### conll_eval suite: ")
    rows = _table_rows(summary)
    assert "en_example-ud-test" in rows and any(name.startswith("Macro") for name in rows)
    assert "profile:conll17" in summary


def test_a_bad_command_is_a_usage_error(tmp_path):
    result, summary, _ = run_action(tmp_path, gold=str(EXAMPLE / "gold.conllu"),
                                    system=str(EXAMPLE / "system.conllu"), command="rank")
    assert result.returncode == 2 and "error [usage] command" in result.stderr
    assert summary == ""


def test_an_unreadable_file_fails_without_a_table(tmp_path):
    result, summary, outputs = run_action(tmp_path, gold=str(EXAMPLE / "gold.conllu"),
                                          system=str(tmp_path / "missing.conllu"))
    assert result.returncode == 1 and "missing.conllu" in result.stderr
    assert summary == "" and outputs == ""


def test_the_subset_reader_refuses_what_it_does_not_read():
    with pytest.raises(AssertionError):
        _SubsetReader("a: [1, 2]\n").node(0)
    with pytest.raises(AssertionError):
        _SubsetReader("a: b # c\n").node(0)
    with pytest.raises(AssertionError):
        _SubsetReader("a: yes\n").node(0)
    assert _SubsetReader("a:\n  - b: 'x''y'\n    c: |\n      one\n\n      two\n    d: true\n"
                         ).node(0) == {"a": [{"b": "x'y", "c": "one\n\ntwo\n", "d": True}]}
