"""Writing a record's text for `imp record`: a new record's tags, and plays and annotations added to a line.

Each helper works on the text alone, as `imp fmt` writes it: no judging, no file.
"""

from __future__ import annotations

from collections.abc import Sequence

from imptools.record import Trick


def tag_line(name: str, value: str) -> str:
    """`[Name "value"]` with the notation's escapes."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def new_record(game: str, players: str, variant: str | None = None, tags: Sequence[tuple[str, str]] = ()) -> str:
    """The text of a new record: the `Game`, `Variant` and `Players` tags (as `imp fmt` orders them), then others."""
    out = [tag_line("Game", game)]
    if variant:
        out.append(tag_line("Variant", variant))
    out.append(tag_line("Players", players))
    out += [tag_line(n, v) for n, v in tags]
    return "\n".join(out) + "\n"


def blank_before(lines: list[str]) -> None:
    """A blank line before a new hand or game, as `imp fmt` writes it."""
    if lines and lines[-1].strip():
        lines.append("")


def annotate(line: str, note: str) -> str:
    """A line with an annotation at its end, before any `;` remark."""
    at = remark_at(line)
    if at is None:
        return f"{line.rstrip()} {note}"
    return f"{line[:at].rstrip()} {note} {line[at:]}"


def last_note(line: str) -> int | None:
    """Where the annotation that ends `line` (before any `;` remark) starts, or None."""
    remark = remark_at(line)
    body = line[:remark].rstrip() if remark is not None else line.rstrip()
    return body.rfind("{") if body.endswith("}") and "{" in body else None


def remark_at(line: str) -> int | None:
    """Where the `;` remark of `line` starts (a `;` outside any annotation's braces), or None."""
    depth = 0
    for i, ch in enumerate(line):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            return i
    return None


def extend(line: str, entry: str, trick: Trick) -> str:
    """A trick's line with one more play (or annotation) at its end, before any `;` remark."""
    if trick.remark is not None:
        at = line.rindex(";")
        return f"{line[:at].rstrip()} {entry} {line[at:]}"
    return f"{line.rstrip()} {entry}"
