"""The `imp` command line, run as a user runs it: a subprocess with real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BOTIFARRA = """[Game "botifarra"]
[Players "Ana Bernat Carles Dolors"]
[Event "test"]

hand 1 dealer Dolors
deal Ana 12o 8o 4o 2o 12c 11c 4c 8e 5e 4b 3b 2b
deal Zoe 5o 9c 6c 5c 3c 12e 3e 2e 1b 12b 11b 8b
trump Dolors botifarra
1. Ana:8o 5o 3o 10x
@@ coffee
"""


def imp(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


@pytest.fixture
def record(tmp_path: Path) -> Path:
    p = tmp_path / "night.imp"
    p.write_text(BOTIFARRA, encoding="utf-8")
    return p


def test_validate_text_lines_and_exit_status(record: Path) -> None:
    out = imp("validate", str(record))
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert f"{record}:7:6: unknown-player `Zoe` is not one of the players (Ana, Bernat, Carles, Dolors)" in lines
    assert any(line.startswith(f"{record}:9:17: unknown-card `10x`") for line in lines)
    assert any(line.startswith(f"{record}:10:1: syntax `@@`") for line in lines)
    assert lines[-1] == "3 errors, 1 warning in 1 file (1 game)"  # the hand stops in trick 1: incomplete
    assert "\x1b[" not in out.stdout  # no colour into a pipe


def test_validate_json_has_the_keys_of_the_spec(record: Path) -> None:
    out = imp("validate", "--json", str(record))
    assert out.returncode == 1
    doc = json.loads(out.stdout)
    keys = {"code", "severity", "path", "line", "column", "game", "hand", "trick", "player", "message"}
    assert doc["findings"] and all(keys <= set(f) for f in doc["findings"])
    card = next(f for f in doc["findings"] if f["code"] == "unknown-card")
    assert (card["game"], card["hand"], card["trick"], card["player"], card["line"]) == (1, 1, 1, "Dolors", 9)
    assert doc["summary"] == {
        "files": 1,
        "games": 1,
        "errors": 3,
        "warnings": 1,
        "unreadable": 0,
        "internal": 0,
    }
    assert doc["unreadable"] == []


def test_validate_clean_record_exits_0(tmp_path: Path) -> None:
    p = tmp_path / "ok.imp"
    p.write_text(
        '[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1\nturnup AD\nbid Al AS AH JK\n'
        "1. KH 7H 6H\n2. 9S QS 8S\n3. 8D 10D QD\n4. 6C 10C AC\n5. KC 8C JC\n"
        "6. 10H 8H 9C\n7. 6S 10S QC\n8. KD 6D 7S\n9. JD 7C 9H\n"
    )
    out = imp("validate", str(p))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("0 errors, 0 warnings in 1 file (1 game)")


def test_validate_reads_stdin() -> None:
    out = imp("validate", "--json", "-", stdin=BOTIFARRA)
    doc = json.loads(out.stdout)
    assert {f["path"] for f in doc["findings"]} == {"<stdin>"}


def test_unreadable_file_exits_2(tmp_path: Path, record: Path) -> None:
    out = imp("validate", str(tmp_path / "missing.imp"), str(record))
    assert out.returncode == 2
    assert "cannot read" in out.stderr and "missing.imp" in out.stderr
    assert "Traceback" not in out.stderr
    assert "unknown-player" in out.stdout  # the readable file is still checked


def test_misuse_exits_2() -> None:
    assert imp("validate", "--no-such-option", "x.imp").returncode == 2
    assert imp("fmt", "--check", "--write", "x.imp").returncode == 2


def test_folders_are_searched_for_records(tmp_path: Path, record: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.imp").write_text(BOTIFARRA)
    out = imp("validate", "--json", str(tmp_path))
    assert json.loads(out.stdout)["summary"]["files"] == 2


def test_help_has_examples() -> None:
    for command in ("validate", "score", "fmt", "export", "import"):
        out = imp(command, "--help")
        assert out.returncode == 0
        assert "Example" in out.stdout, command
