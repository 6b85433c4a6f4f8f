"""Shared fixtures and hypothesis profiles.

Profiles: ``default`` (quick, for the default run) and ``thorough`` (select with
``--hypothesis-profile=thorough`` or ``HYPOTHESIS_PROFILE=thorough``).
"""
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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
