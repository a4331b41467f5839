"""The text report of `imp validate`: one line per finding, grouped by game and hand.

On a terminal it is printed through Rich, in colour; into a pipe or a file the
same lines are written as plain text without importing Rich, which keeps the
start of `imp validate` quick in scripts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING

from imptools.findings import Finding, Severity

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


def _where(f: Finding) -> str:
    return f"{f.path or '<text>'}:{f.line or 0}:{f.column or 0}:"


def finding_line(f: Finding) -> Text:
    """`path:line:col: code message`, the code coloured by severity."""
    from rich.text import Text

    style = "bold red" if f.severity is Severity.ERROR else "bold yellow"
    return Text.assemble((_where(f), "bold"), " ", (f.code, style), " ", f.message)


def _counts(findings: Sequence[Finding]) -> tuple[int, int]:
    errors = sum(1 for f in findings if f.is_error)
    return errors, len(findings) - errors


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _not_read(unreadable: int) -> str:
    """The summary's tail for the inputs that could not be read (each reported on stderr)."""
    return f"; {_plural(unreadable, 'file')} could not be read" if unreadable else ""


def print_findings(console: Console, findings: Sequence[Finding], files: int, games: int, unreadable: int = 0) -> None:
    """Print every finding, a dim heading per game and hand on a terminal, then a summary."""
    from rich.text import Text

    group: tuple[str | None, int | None, int | None] | None = None
    for f in findings:
        key = (f.path, f.game, f.hand)
        if console.is_terminal and key != group:
            heading = f"{f.path or '<text>'}  game {f.game or '-'}" + (f"  hand {f.hand}" if f.hand else "")
            console.print(Text(heading, style="dim"))
            group = key
        console.print(finding_line(f))
    errors, warnings = _counts(findings)
    summary = Text.assemble(
        (_plural(errors, "error"), "bold red" if errors else "bold green"),
        ", ",
        (_plural(warnings, "warning"), "bold yellow" if warnings else ""),
        f" in {_plural(files, 'file')} ({_plural(games, 'game')}){_not_read(unreadable)}",
    )
    console.print(summary)


def write_findings(out: IO[str], findings: Sequence[Finding], files: int, games: int, unreadable: int = 0) -> None:
    """The report as plain text, as `print_findings` prints it when its console is not a terminal."""
    lines = [f"{_where(f)} {f.code} {f.message}" for f in findings]
    errors, warnings = _counts(findings)
    lines.append(
        f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')} in {_plural(files, 'file')} "
        f"({_plural(games, 'game')}){_not_read(unreadable)}"
    )
    out.write("\n".join(lines) + "\n")
    out.flush()


def plain_output(out: IO[str]) -> bool:
    """Whether `out` takes plain text: not a terminal, and no variable asks Rich for colour or a terminal anyway."""
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE") or os.environ.get("TTY_INTERACTIVE"):
        return False
    try:
        return not out.isatty()
    except (AttributeError, ValueError, OSError):
        return False
