"""Shared fixtures, hypothesis profiles and the CI stages' selection.

Profiles: ``default`` (quick, for the default run) and ``thorough`` (select with
``--hypothesis-profile=thorough`` or ``HYPOTHESIS_PROFILE=thorough``).

CI's second stage (docs/development.md, "Continuous integration"; ``make test-ci``):
``--ci-stage 2`` runs the tests marked ``ci_stage2`` and ``--ci-stage pure`` (with
``CONLL_EVAL_PURE=1``) those marked ``ci_pure``, whatever ``-m`` says; a generated test marked
``ci_stage2(examples=N)`` or ``ci_pure(examples=N)`` runs N examples there, derandomized (the
same N every run: hypothesis seeds them from the test itself) and without the example database.
``CONLL_EVAL_MUTATION_EXAMPLES=N`` (``make mutation``) does that to every generated test: a
mutant's tests then take seconds, and the score is a lower bound of the default run's.
"""
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
# postgres_url, the PostgreSQL server of the leaderboard's tests (tests/pg_support.py), for every test
from pg_support import postgres_url  # noqa: F401
# database_url, a new SQLite and PostgreSQL database per leaderboard test (tests/leaderboard_support.py)
from leaderboard_support import database_url  # noqa: F401

settings.register_profile("default", deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=2000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

PROJECT = Path(__file__).resolve().parent.parent
TESTDATA = PROJECT / "testdata"
SHARED = PROJECT.parent / "shared"


@pytest.fixture
def testdata() -> Path:
    return TESTDATA


@pytest.fixture
def write(tmp_path):
    """write(name, text) -> path of a new UTF-8 file under tmp_path."""
    def _write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8"))
        return str(path)
    return _write


@pytest.fixture
def write_bytes(tmp_path):
    """write_bytes(name, data) -> path of a new file under tmp_path holding exactly ``data``."""
    def _write(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)
    return _write


#: --ci-stage's choices -> the marker that selects their tests
CI_STAGES = {"2": "ci_stage2", "pure": "ci_pure"}


def pytest_addoption(parser):
    parser.addoption("--ci-stage", choices=sorted(CI_STAGES), default=None,
                     help="run CI's second stage: '2' the tests marked ci_stage2, 'pure' (with "
                          "CONLL_EVAL_PURE=1) those marked ci_pure, at their fixed sample sizes")


def pytest_configure(config):
    stage = config.getoption("--ci-stage")
    if stage is None:
        return
    if stage == "pure" and not os.environ.get("CONLL_EVAL_PURE"):
        raise pytest.UsageError("--ci-stage pure checks the numpy path: set CONLL_EVAL_PURE=1")
    config.option.markexpr = CI_STAGES[stage]  # in place of setup.cfg's "not slow and not bench"


def pytest_collection_modifyitems(config, items):
    mutation_examples = os.environ.get("CONLL_EVAL_MUTATION_EXAMPLES")
    if mutation_examples:  # make mutation: every generated test on its first N examples
        for item in items:
            if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
                _sample(item, int(mutation_examples))
    stage = config.getoption("--ci-stage")
    if stage is None:
        return
    for item in items:
        marker = item.get_closest_marker(CI_STAGES[stage])
        if marker is not None and "examples" in marker.kwargs:
            _sample(item, marker.kwargs["examples"])


def _sample(item, examples: int) -> None:
    """Run the generated test ``item`` on ``examples`` derandomized examples (at most its own)."""
    test = item.obj
    if not getattr(test, "is_hypothesis_test", False):
        raise pytest.UsageError(f"{item.nodeid}: examples= is for a hypothesis test")
    # hypothesis keeps a test's settings in this attribute and reads it when the test runs; it
    # has no public way to change them once @settings is applied (applying it twice is an error)
    current = test._hypothesis_internal_use_settings
    test._hypothesis_internal_use_settings = settings(
        current, max_examples=min(examples, current.max_examples), derandomize=True,
        database=None)
