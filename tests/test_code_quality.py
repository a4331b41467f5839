"""The house rules that tools can check: ruff and mypy (strict) are clean."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "imptools", "tests", "bench", "scripts", "hatch_build.py"],
        [sys.executable, "-m", "ruff", "format", "--check", "imptools", "tests", "bench", "scripts", "hatch_build.py"],
        [sys.executable, "-m", "mypy", "imptools"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(command: list[str]) -> None:
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]


def _modules() -> list[Path]:
    return sorted((ROOT / "imptools").rglob("*.py"))


def _string_constants(tree: ast.AST) -> list[str]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]


def test_no_module_outside_rules_names_a_game() -> None:
    from imptools.rules import GAMES

    offenders = []
    for path in _modules():
        if "rules" in path.relative_to(ROOT / "imptools").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = [s for s in _string_constants(tree) if s in GAMES]
        if named:
            offenders.append(f"{path.name}: {named}")
    assert offenders == []


def test_rulesets_never_import_upward() -> None:
    """Data flows one way: the rulesets know the record model and each other's base, never the layers above."""
    above = ("imptools.replay", "imptools.check", "imptools.cli", "imptools.present", "imptools.reader")
    offenders = []
    for path in sorted((ROOT / "imptools" / "rules").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            offenders += [f"{path.name} imports {n}" for n in names if n.startswith(above)]
    assert offenders == []
