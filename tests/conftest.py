"""Tests that run a program of the system (tmux, Chromium): `@pytest.mark.needs(program, ..., package=...)`.

Where none of the programs is on the PATH the test is skipped, naming the Debian package that brings it; under CI
(`CI` set, as .ci/run runs) it fails instead, since CI installs them and a skip there would hide a missing step.
"""

from __future__ import annotations

import os
import shutil

import pytest

# tests/conformance holds the notation's conformance cases and their runner, data and not tests.
collect_ignore = ["conformance"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*programs, package): runs one of these programs, which the Debian package `package` brings"
    )


def missing_program(why: str) -> None:
    """Skip the test, saying what to install; under CI, fail it."""
    if os.environ.get("CI"):
        pytest.fail(f"{why}; CI installs it (.ci/run), so it must be here", pytrace=False)
    pytest.skip(why)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        if not any(shutil.which(program) for program in mark.args):
            missing_program(f"needs {mark.args[0]} (Debian package {mark.kwargs['package']})")
