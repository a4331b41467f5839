"""The files a command is given: folders expanded, standard input as `-`, each read into games without stopping."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from imptools.cli.output import EXIT_FOUND, EXIT_INTERNAL, EXIT_OK, EXIT_UNREADABLE, error
from imptools.files import shown
from imptools.findings import INTERNAL, Finding

if TYPE_CHECKING:
    from imptools.record import Game

STDIN = "-"


def jobs_to_use(jobs: int | None) -> int:
    """The processes to use: `--jobs` where given, else every core."""
    from imptools.parallel import default_jobs

    return jobs if jobs is not None else default_jobs()


@dataclass
class Inputs:
    """The files a command was given, expanded; the ones that could not be read; failures of imptools itself.

    `unreadable` maps a path to why it could not be read; `internal` holds an
    `internal` finding for each file or game on which imptools itself failed.
    """

    paths: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)
    internal: list[Finding] = field(default_factory=list)

    def unreadable_list(self) -> list[dict[str, str]]:
        """The `unreadable` list of the JSON outputs: one object per file, with `path` and `message`."""
        return [{"path": shown(p), "message": m} for p, m in self.unreadable.items()]

    def status(self, errors: bool) -> int:
        """The exit status: 3 when imptools failed somewhere, else 2 when a file could not be read, else 1 or 0."""
        if self.internal:
            return EXIT_INTERNAL
        if self.unreadable:
            return EXIT_UNREADABLE
        return EXIT_FOUND if errors else EXIT_OK


def expand(files: list[str]) -> Inputs:
    """Expand folders into the `.imp` files under them; `-` stays standard input.

    A folder holding no `.imp` file counts as a file that cannot be read.
    """
    inputs = Inputs()
    for name in files:
        if name == STDIN:
            inputs.paths.append(STDIN)
        elif os.path.isdir(name):
            try:
                found = sorted(str(p) for p in Path(name).rglob("*.imp") if not p.is_dir())
            except OSError as exc:
                unreadable(inputs, name, f"cannot search the folder: {exc.strerror or exc}")
                continue
            if not found:
                unreadable(inputs, name, "a folder with no .imp file in it")
            inputs.paths.extend(found)
        else:
            inputs.paths.append(name)
    return inputs


def one_record(name: str, command: str) -> tuple[Inputs, str]:
    """The one record file a command such as `imp replay` reads: `name`, or the only `.imp` file of a folder.

    A folder with none, or with several, ends the command with the unreadable status, saying why."""
    import typer  # only here: `imp validate` into a pipe imports no typer (tests/test_cli_plain.py)

    inputs = expand([name])
    if len(inputs.paths) == 1:
        return inputs, inputs.paths[0]
    if inputs.paths:
        error(f"{shown(name)}: a folder of {len(inputs.paths)} records; imp {command} takes one record file")
    raise typer.Exit(EXIT_UNREADABLE)


def unreadable(inputs: Inputs, path: str, reason: str) -> None:
    """Note that `path` could not be read, and why, and say so on stderr."""
    inputs.unreadable[path] = reason
    error(f"cannot read {shown(path)}: {reason}")


def read(path: str, inputs: Inputs) -> Iterator[Game]:
    """The games of one input; a file that cannot be read is noted and yields nothing more.

    A failure of the reader itself (a bug) becomes an `internal` finding in
    `inputs.internal`; the games read before it are kept.
    """
    from imptools.reader import read_games

    name = "<stdin>" if path == STDIN else shown(path)
    last = 0
    try:
        games = read_games(sys.stdin.buffer, path=name) if path == STDIN else read_games(Path(path), path=name)
        for game in games:
            last = game.index
            yield game
    except OSError as exc:
        unreadable(inputs, path, exc.strerror or str(exc))
    except Exception as exc:  # a bug in the reader must not stop the batch
        inputs.internal.append(reader_failure(name, last, f"{type(exc).__name__}: {exc}"))


def reader_failure(name: str, last: int, what: str) -> Finding:
    """The `internal` finding for a failure of the reader itself after game `last` of a file."""
    return Finding(
        INTERNAL,
        f"imptools failed while reading this file after game {last} ({what}); "
        "the rest of the file is not read. This is a bug in imptools: please report it with this record",
        None,
        None,
        name,
        last + 1,
    )


def read_bytes(data: bytes, path: str, inputs: Inputs) -> Iterator[Game]:
    """The games of content already read (`fmt` reads a file once, to compare and to rewrite it safely)."""
    from imptools.reader import read_games

    try:
        yield from read_games(io.BytesIO(data), path="<stdin>" if path == STDIN else shown(path))
    except Exception as exc:  # a bug in the reader must not stop the batch
        inputs.internal.append(
            Finding(INTERNAL, f"imptools failed while reading this file ({type(exc).__name__}: {exc})", path=path)
        )
