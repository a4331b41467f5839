"""What the commands print besides their reports: errors, consoles, progress bars, JSON documents, exit statuses."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_FOUND, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3


def error(message: str) -> None:
    """Say what went wrong on stderr, as `imp: MESSAGE`."""
    sys.stderr.write(f"imp: {message}\n")


def rich_console(stderr: bool = False) -> Console:
    """A Rich console on stdout (or stderr) that wraps softly and highlights nothing of its own."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def progress(total: int, least: int = 20, console: Console | None = None) -> Any:
    """A progress bar on a terminal's stderr (or on `console`, where it is a terminal: what is printed on it shows
    above the bar) for batches of at least `least` items; otherwise nothing (and no Rich imported)."""
    from contextlib import nullcontext

    if total < least:
        return nullcontext(None)
    if console is None or not console.is_terminal:
        console = rich_console(stderr=True)
    if not console.is_terminal:
        return nullcontext(None)
    from rich.progress import Progress

    return Progress(console=console, transient=True)


JSON_VERSION = 1
"""The version of every JSON document the commands print (`"version"`); it grows when a document changes shape."""


def json_document(command: str, body: dict[str, Any]) -> dict[str, Any]:
    """A command's JSON document: `"format": "imp-COMMAND"` and `"version"` first, then `body`.

    The schema of each format ships in the package, `imptools/schemas/imp-COMMAND.json`.
    """
    return {"format": f"imp-{command}", "version": JSON_VERSION, **body}


def print_json(command: str, body: dict[str, Any]) -> None:
    """Print the JSON document of `command` (see `json_document`)."""
    import orjson

    sys.stdout.buffer.write(
        orjson.dumps(json_document(command, body), option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    )
    sys.stdout.flush()
