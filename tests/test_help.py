"""`imp --help` and every `imp COMMAND --help` read as a user's help: examples, and nothing of the Python behind."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from imptools.cli.app import app

COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands if c.callback is not None)

# What the help must not show: type names (`<bool>`, `<list[str]>`, `<int range>`), Click's range and usage
# spellings (`[x>=1]`, `{FILE...}...`), defaults that say nothing (`[default: None]`, a flag's `True`/`False`),
# and pointers to files an installed package does not have.
PYTHONISMS = [
    (re.compile(r"<[a-z][a-z_ \[\],|]*>"), "a type name"),
    (re.compile(r"\[x?[<>]=?"), "a number range"),
    (re.compile(r"\{[A-Z][A-Za-z.]*\.*\}"), "a Click usage spelling"),
    (re.compile(r"\[default: (None|True|False|\[\]|\(\))\]"), "an empty default"),
    (re.compile(r"\b(docs|samples|tests|bench)/"), "a file of the source tree"),
    (re.compile(r"\b[A-Z][A-Z_]*\.md\b"), "a document of the source tree"),
    (re.compile(r"Traceback|NoneType|typing\."), "Python itself"),
]


def help_text(*args: str, columns: int = 100) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "imptools", *args, "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"},
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    return run.stdout


def test_every_command_is_listed_in_imps_help() -> None:
    text = help_text()
    assert len(COMMANDS) >= 9
    for name in COMMANDS:
        assert re.search(rf"^\W*{name}\s+\S", text, re.MULTILINE), name
    assert "Usage: imp [OPTIONS] COMMAND [ARGS]..." in text
    assert "Examples:" in text


@pytest.mark.parametrize("args", [(), *[(c,) for c in COMMANDS]], ids=lambda a: " ".join(("imp", *a)))
@pytest.mark.parametrize("columns", [80, 160])
def test_help_has_no_pythonisms(args: tuple[str, ...], columns: int) -> None:
    text = help_text(*args, columns=columns)
    found = [f"{what}: {m.group(0)!r}" for pattern, what in PYTHONISMS for m in pattern.finditer(text)]
    assert found == [], text


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_an_example_section_that_runs_it(command: str) -> None:
    text = help_text(command)
    usage = re.search(r"Usage: (.*)", text)
    assert usage is not None and usage.group(1).strip().startswith(f"imp {command}")
    _, found, examples = text.partition("Example")
    assert found, f"imp {command} --help has no Example section"
    assert re.match(r"s?:", examples)
    body = examples.split("╭")[0]  # up to the first panel (arguments or options)
    assert f"imp {command} " in body  # at least one example runs the command itself


@pytest.mark.parametrize("command", ["validate", "replay", "import"])
def test_a_usage_error_shows_the_same_usage_line(command: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "imptools", command],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
        check=False,
    )
    assert run.returncode == 2
    first = run.stderr.splitlines()[0]
    assert first.startswith(f"Usage: imp {command} [OPTIONS] ") and "{" not in first
    assert first.split("Usage: ")[1] in help_text(command)
