"""`imp validate [--json] FILE...` skips Typer's option parsing: same output and exit status as through Typer."""

from __future__ import annotations

from pathlib import Path

import pytest

from imptools import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("json", [False, True])
def test_plain_validate_is_typer_validate(json: bool, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted((ROOT / "samples").glob("*.imp"))] + ["missing.imp"]
    argv = ["validate", *(["--json"] if json else []), *files]
    status = cli._plain_validate(argv)
    plain = capsys.readouterr()
    with pytest.raises(SystemExit) as typer_exit:
        cli.app(argv)
    through = capsys.readouterr()
    assert (status, plain.out, plain.err) == (typer_exit.value.code, through.out, through.err)
    assert status == cli.EXIT_UNREADABLE


@pytest.mark.parametrize("argv", [[], ["score", "x.imp"], ["validate"], ["validate", "--jobs", "2", "x.imp"]])
def test_other_command_lines_go_to_typer(argv: list[str]) -> None:
    assert cli._plain_validate(argv) is None
