"""The house rules that tools can check: ruff and mypy (strict) are clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "imptools", "tests", "bench"],
        [sys.executable, "-m", "ruff", "format", "--check", "imptools", "tests", "bench"],
        [sys.executable, "-m", "mypy", "imptools"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(command: list[str]) -> None:
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
