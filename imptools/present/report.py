"""The text report of `imp validate`: one line per finding, grouped by game and hand."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from imptools.findings import Finding, Severity


def finding_line(f: Finding) -> Text:
    """`path:line:col: code message`, the code coloured by severity."""
    where = f"{f.path or '<text>'}:{f.line or 0}:{f.column or 0}:"
    style = "bold red" if f.severity is Severity.ERROR else "bold yellow"
    return Text.assemble((where, "bold"), " ", (f.code, style), " ", f.message)


def print_findings(console: Console, findings: Sequence[Finding], files: int, games: int) -> None:
    """Print every finding, a dim heading per game and hand on a terminal, then a summary."""
    group: tuple[str | None, int | None, int | None] | None = None
    for f in findings:
        key = (f.path, f.game, f.hand)
        if console.is_terminal and key != group:
            heading = f"{f.path or '<text>'}  game {f.game or '-'}" + (f"  hand {f.hand}" if f.hand else "")
            console.print(Text(heading, style="dim"))
            group = key
        console.print(finding_line(f))
    errors = sum(1 for f in findings if f.is_error)
    warnings = len(findings) - errors
    summary = Text.assemble(
        (f"{errors} error{'s' if errors != 1 else ''}", "bold red" if errors else "bold green"),
        ", ",
        (f"{warnings} warning{'s' if warnings != 1 else ''}", "bold yellow" if warnings else ""),
        f" in {files} file{'s' if files != 1 else ''} ({games} game{'s' if games != 1 else ''})",
    )
    console.print(summary)
