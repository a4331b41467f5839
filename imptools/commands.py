"""What the command line does, without the command-line parser: reading inputs, judging, exit statuses.

`main` is the `imp` entry point. `imp validate [--json] FILE...`, the command
that must start fast, runs from here without importing Typer (its option
parsing and run-time type adapters cost more than checking a small file); every
other command line goes to the Typer app in `imptools.cli`.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from imptools.files import shown
from imptools.findings import INTERNAL, Finding

if TYPE_CHECKING:
    from rich.console import Console

    from imptools.record import Game
    from imptools.rules.base import GameResult

STDIN = "-"
EXIT_OK, EXIT_FOUND, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3


def _jobs(jobs: int | None) -> int:
    from imptools.parallel import default_jobs

    return jobs if jobs is not None else default_jobs()


# --------------------------------------------------------------------------- inputs


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
                _unreadable(inputs, name, f"cannot search the folder: {exc.strerror or exc}")
                continue
            if not found:
                _unreadable(inputs, name, "a folder with no .imp file in it")
            inputs.paths.extend(found)
        else:
            inputs.paths.append(name)
    return inputs


def _unreadable(inputs: Inputs, path: str, reason: str) -> None:
    inputs.unreadable[path] = reason
    _error(f"cannot read {shown(path)}: {reason}")


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
        _unreadable(inputs, path, exc.strerror or str(exc))
    except Exception as exc:  # a bug in the reader must not stop the batch
        inputs.internal.append(_reader_failure(name, last, f"{type(exc).__name__}: {exc}"))


def _reader_failure(name: str, last: int, what: str) -> Finding:
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


def _error(message: str) -> None:
    sys.stderr.write(f"imp: {message}\n")


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _progress(total: int, least: int = 20, console: Console | None = None) -> Any:
    """A progress bar on a terminal's stderr (or on `console`, where it is a terminal: what is printed on it shows
    above the bar) for batches of at least `least` items; otherwise nothing (and no Rich imported)."""
    from contextlib import nullcontext

    if total < least:
        return nullcontext(None)
    if console is None or not console.is_terminal:
        console = _console(stderr=True)
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


def _print_json(command: str, body: dict[str, Any]) -> None:
    """Print the JSON document of `command` (see `json_document`)."""
    import orjson

    sys.stdout.buffer.write(
        orjson.dumps(json_document(command, body), option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
    )
    sys.stdout.flush()


def _judged(inputs: Inputs, jobs: int = 1, whole_games: bool = True) -> Iterator[tuple[str, Game, GameResult]]:
    from imptools.check import judge_game
    from imptools.parallel import judged_in_pool, worth_a_pool

    if worth_a_pool(inputs.paths, jobs):

        def unreadable(path: str, exc: OSError) -> None:
            _unreadable(inputs, path, exc.strerror or str(exc))

        def failed(path: str, last: int, what: str) -> None:
            inputs.internal.append(_reader_failure(shown(path), last, what))

        yield from judged_in_pool(inputs.paths, jobs, whole_games, unreadable, failed, shown)
        return

    with _progress(len(inputs.paths)) as progress:
        task = progress.add_task("reading", total=len(inputs.paths)) if progress else None
        for path in inputs.paths:
            for game in read(path, inputs):
                yield path, game, judge_game(game)
            if progress:
                progress.update(task, advance=1, description=Path(path).name)


def _internal(result: GameResult) -> list[Finding]:
    return [f for f in result.all_findings() if f.code == INTERNAL]


# --------------------------------------------------------------------------- fmt


def kept_texts(games: list[Game]) -> list[str]:
    """Every comment, annotation and line not read of `games`, in a stable order: what a rewrite must keep."""
    from imptools.record import CommentLine, Trick, UnreadLine

    found: list[str] = []

    def element(x: Any) -> None:
        found.extend(a.text for a in getattr(x, "annotations", ()))
        remark = getattr(x, "remark", None)
        if remark is not None:
            found.append(remark)
        if isinstance(x, (CommentLine, UnreadLine)):
            found.append(x.text)
        if isinstance(x, Trick):
            for play in x.plays:
                found.extend(a.text for a in play.annotations)

    for game in games:
        for item in game.header:
            element(item)
        for hand in game.hands:
            element(hand)
            for line in hand.lines:
                element(line)
    return sorted(found)


# --------------------------------------------------------------------------- replay


def _counted(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def out_of_range(
    everything: list[Game], records: list[Game], game: int | None, hand: int | None, trick: int | None
) -> tuple[str, int] | None:
    """Why `imp replay` cannot show what it is asked for, and its exit status: a file that holds no game (1), or a
    `--game`, `--hand` or `--trick` the file does not hold (2, a misuse; the message names how many there are)."""
    if not any(g.holds_game for g in everything):
        # an empty file, or one with no notation in it: say so and why, rather than replay nothing
        why = "; ".join(f.message for g in everything for f in g.findings[:1])
        return "the file holds no game" + (f" ({why})" if why else ""), EXIT_FOUND
    if game is not None and not records:
        return f"no game {game}: the file holds {_counted(len(everything), 'game')}", EXIT_UNREADABLE
    where = f"game {game}" if game is not None else "the game" if len(records) == 1 else "the games"
    if hand is not None and not any(h.number == hand for g in records for h in g.hands):
        most = max((len(g.hands) for g in records), default=0)
        held = _counted(most, "hand") if len(records) == 1 else f"at most {_counted(most, 'hand')}"
        return f"no hand {hand}: {where} {'has' if len(records) == 1 else 'have'} {held}", EXIT_UNREADABLE
    chosen = [h for g in records for h in g.hands if hand is None or h.number == hand]
    if trick is not None and chosen and not any(t.number == trick for h in chosen for t in h.tricks):
        most = max(len(h.tricks) for h in chosen)
        if hand is not None and len(chosen) == 1:
            return f"no trick {trick}: hand {hand} has {_counted(most, 'trick')}", EXIT_UNREADABLE
        return f"no trick {trick}: no hand of {where} has more than {_counted(most, 'trick')}", EXIT_UNREADABLE
    return None


# --------------------------------------------------------------------------- validate


def validate_files(files: list[str], json: bool, jobs: int | None) -> int:
    """`imp validate`: judge the files, print the findings (or JSON), and return the exit status."""
    inputs = expand(files)
    findings: list[Finding] = []
    games = 0
    judged_internal: list[Finding] = []
    for _path, game, result in _judged(inputs, _jobs(jobs), whole_games=False):
        games += game.holds_game  # an empty file, or one with no notation, is read but holds no game
        findings.extend(result.all_findings())
        judged_internal.extend(_internal(result))
    findings.extend(inputs.internal)  # so far, the reader's own failures
    inputs.internal.extend(judged_internal)
    errors = sum(1 for f in findings if f.is_error)
    warnings = len(findings) - errors
    read_files = len(inputs.paths) - sum(1 for p in inputs.paths if p in inputs.unreadable)
    if json:
        _print_json(
            "validate",
            {
                "findings": [f.to_dict() for f in findings],
                "unreadable": inputs.unreadable_list(),
                "summary": {
                    "files": read_files,
                    "games": games,
                    "errors": errors,
                    "warnings": warnings,
                    "unreadable": len(inputs.unreadable),
                    "internal": len(inputs.internal),
                },
            },
        )
    elif read_files or findings:
        # (when no file could be read, the reasons on stderr are the whole report: no summary of nothing)
        from imptools.present.report import plain_output, print_findings, write_findings

        missing = len(inputs.unreadable)
        if plain_output(sys.stdout):
            write_findings(sys.stdout, findings, files=read_files, games=games, unreadable=missing)
        else:
            print_findings(_console(), findings, files=read_files, games=games, unreadable=missing)
    return inputs.status(errors > 0)


# --------------------------------------------------------------------------- the entry point


def _plain_validate(argv: list[str]) -> int | None:
    """`imp validate [--json] [--jobs N] FILE...` run without Typer's option parsing, which costs more than
    checking a small file; None for any other command line (Typer parses it, and explains a wrong one)."""
    if argv[:1] != ["validate"]:
        return None
    files: list[str] = []
    json = False
    jobs: int | None = None
    args = iter(argv[1:])
    for a in args:
        if a == "--json":
            json = True
        elif a in ("--jobs", "-j") or a.startswith("--jobs="):
            value = a.partition("=")[2] if "=" in a else next(args, "")
            if not value.isdigit() or int(value) < 1:
                return None
            jobs = int(value)
        elif a.startswith("-") and a != STDIN:
            return None
        else:
            files.append(a)
    if not files:
        return None
    return validate_files(files, json=json, jobs=jobs)


def main() -> None:
    """Entry point: run the app; no traceback reaches a user."""
    try:
        status = _plain_validate(sys.argv[1:])
        if status is not None:
            raise SystemExit(status)
        from imptools.cli import app

        app(prog_name="imp")
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(EXIT_FOUND) from None
    except Exception as exc:
        _error(f"internal error: {type(exc).__name__}: {exc}")
        _error("this is a bug in imptools; please report it with the record that caused it")
        if "--json" in sys.argv[1:] and sys.argv[1:2] in (["validate"], ["score"]):
            # the promise of --json holds even here: one whole JSON document, saying what happened
            failure = Finding(INTERNAL, f"imptools failed ({type(exc).__name__}: {exc}); please report it")
            with contextlib.suppress(Exception):
                if sys.argv[1] == "validate":
                    _print_json("validate", {"findings": [failure.to_dict()], "unreadable": []})
                else:
                    _print_json("score", {"games": [], "unreadable": [], "internal": [failure.to_dict()]})
        raise SystemExit(EXIT_INTERNAL) from None
