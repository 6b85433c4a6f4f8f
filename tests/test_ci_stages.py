"""CI's second stage (docs/development.md, "Continuous integration"): ``--ci-stage`` selects the
marked tests whatever setup.cfg's ``-m`` says, the screen test's sample is every tenth seed,
every slow real-data comparison of the udvalidate files is in the stage, the numpy stage
refuses to run on the compiled path, and a marked generated test runs its fixed sample."""
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

import conftest

PROJECT = Path(__file__).resolve().parent.parent
#: files whose slow tests are all real-data comparisons, every one of them in stage two
REAL_DATA = ["tests/test_validate_level3.py", "tests/test_validate_level45.py",
             "tests/test_validate_parity.py"]


def _collected(*options: str, env=None) -> list:
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", *options],
                         cwd=PROJECT, capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_stage_two_takes_every_tenth_screen_seed_and_every_real_data_comparison():
    stage = _collected("--ci-stage", "2", "tests/test_validate_screen.py", *REAL_DATA)
    seeds = {int(node.rsplit("[", 1)[1].rstrip("]")) for node in stage
             if "test_screen_changes_nothing_on_many_generated_files" in node}
    assert seeds == set(range(120, 2120, 10))
    slow = _collected("-m", "slow", *REAL_DATA)
    assert set(slow) <= set(stage), sorted(set(slow) - set(stage))[:5]


def test_the_numpy_stage_refuses_the_compiled_path():
    env = {k: v for k, v in os.environ.items() if k != "CONLL_EVAL_PURE"}
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "--ci-stage",
                          "pure", "tests/test_shared_ud.py"], cwd=PROJECT, capture_output=True,
                         text=True, env=env, timeout=300)
    assert run.returncode == 4 and "set CONLL_EVAL_PURE=1" in run.stderr, run.stderr[-2000:]


def test_a_marked_generated_test_runs_its_fixed_sample():
    seen = []

    @settings(max_examples=500, deadline=None)
    @given(st.integers(0, 2 ** 32))
    def generated(value):
        seen.append(value)

    conftest._sample(SimpleNamespace(obj=generated, nodeid="generated"), 7)
    generated()
    first, seen[:] = list(seen), []
    generated()
    assert 0 < len(set(first)) <= 7 and seen == first  # at most 7, the same ones every run


def test_a_sample_is_for_generated_tests_only():
    with pytest.raises(pytest.UsageError, match="examples= is for a hypothesis test"):
        conftest._sample(SimpleNamespace(obj=lambda: None, nodeid="plain"), 7)
