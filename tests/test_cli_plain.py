"""`imp validate [--json] FILE...` skips Typer (and, into a pipe, Rich): same output and exit status as through them."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from imptools.check import judge_game
from imptools.cli import app as cli
from imptools.cli import main as commands
from imptools.present.report import print_findings, write_findings
from imptools.reader import read_games

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("json", "jobs"), [(False, []), (True, []), (True, ["--jobs", "2"]), (False, ["-j", "1"])])
def test_plain_validate_is_typer_validate(json: bool, jobs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted((ROOT / "samples").glob("*.imp"))] + ["missing.imp"]
    argv = ["validate", *(["--json"] if json else []), *jobs, *files]
    status = commands.plain_validate(argv)
    plain = capsys.readouterr()
    with pytest.raises(SystemExit) as typer_exit:
        cli.app(argv)
    through = capsys.readouterr()
    assert (status, plain.out, plain.err) == (typer_exit.value.code, through.out, through.err)
    assert status == cli.EXIT_UNREADABLE


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["score", "x.imp"],
        ["validate"],
        ["validate", "--jobs", "0", "x.imp"],
        ["validate", "--jobs=two", "x.imp"],
        ["validate", "x.imp", "--jobs"],
        ["validate", "--help"],
        ["validate", "--json", "--jobs", "2"],
    ],
)
def test_other_command_lines_go_to_typer(argv: list[str]) -> None:
    """Anything but files, `--json` and a good `--jobs`: Typer parses it (and explains what is wrong)."""
    assert commands.plain_validate(argv) is None


def test_plain_validate_takes_jobs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[object] = []
    monkeypatch.setattr(commands, "validate_files", lambda files, json, jobs: seen.append((files, json, jobs)) or 0)
    for argv in (
        ["validate", "--jobs", "3", "a.imp"],
        ["validate", "--jobs=3", "a.imp"],
        ["validate", "a.imp", "-j", "3"],
    ):
        assert commands.plain_validate(argv) == 0
    assert seen == [(["a.imp"], False, 3)] * 3


def test_the_plain_report_is_richs_report_off_a_terminal() -> None:
    cases = ROOT / "tests" / "conformance"
    records = sorted((ROOT / "samples").glob("*.imp")) + sorted(cases.glob("*/*.imp"))
    assert len(records) > 20
    for record in records:
        findings = [f for g in read_games(record, path=str(record)) for f in judge_game(g).all_findings()]
        rich_out = io.StringIO()
        print_findings(Console(file=rich_out, highlight=False, soft_wrap=True), findings, files=1, games=3)
        plain = io.StringIO()
        write_findings(plain, findings, files=1, games=3)
        assert plain.getvalue() == rich_out.getvalue(), record


def test_validate_into_a_pipe_imports_neither_typer_nor_rich_nor_lark(tmp_path: Path) -> None:
    from imptools.simulate import Options, simulate

    sample = tmp_path / "one-hand.imp"  # plain lines: the fast path reads them all, Lark is never needed
    sample.write_text("".join(simulate(Options("bottle-imp", ("Adam", "Betty", "Carl", "Dora"), None))), "utf-8")
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "imptools", "validate", str(sample)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.endswith("0 errors, 0 warnings in 1 file (1 game)\n")
    imported = {line.split("|")[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    assert "imptools.check" in imported
    assert not {m for m in imported if m.split(".")[0] in ("typer", "rich", "lark", "pydantic", "click")}


def test_a_dependency_that_is_not_installed_is_named_not_called_a_bug(tmp_path: Path) -> None:
    import subprocess
    import sys

    record = tmp_path / "night.imp"
    record.write_text((ROOT / "samples" / "thursday-club.imp").read_text(encoding="utf-8"), encoding="utf-8")
    code = (
        "import sys; sys.modules['typer'] = None; sys.argv = ['imp', 'score', sys.argv[1]];"
        " from imptools.cli.main import main; main()"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(record)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert run.returncode == 2
    assert "typer is not installed" in run.stderr and "bug" not in run.stderr and "Traceback" not in run.stderr
