"""Shared helpers for the Python package's tests."""

import os
import pathlib

import pytest

pytest_plugins = ["pytester"]

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEMO = ROOT / "corpora" / "demo"


@pytest.fixture
def demo() -> pathlib.Path:
    return DEMO


def grape_bin() -> str:
    """The grape CLI binary the CLI-parity tests compare against (GRAPE_BIN, else the debug
    build)."""
    path = os.environ.get("GRAPE_BIN") or str(ROOT / "target" / "debug" / "grape")
    if not os.path.exists(path):
        if os.environ.get("GRAPE_REQUIRE_PYTHON_PACKAGE"):
            pytest.fail(f"the grape binary is missing ({path}); build it or set GRAPE_BIN")
        pytest.skip(f"SKIPPED: no grape binary at {path} (set GRAPE_BIN)")
    return path


def need(module: str):
    """Imports an optional test dependency: skipped loudly when missing, a failure when
    GRAPE_REQUIRE_PYTHON_PACKAGE is set (CI installs them all)."""
    try:
        return __import__(module)
    except ImportError as e:
        if os.environ.get("GRAPE_REQUIRE_PYTHON_PACKAGE"):
            pytest.fail(f"{module} is required here: {e}")
        pytest.skip(f"SKIPPED: {module} is not installed")
