"""The `imp` command line: thin Typer commands over the library.

Each command parses its options, calls the library, hands the result to a
presenter and sets the exit status; no rule is decided here.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from imptools.findings import Finding
    from imptools.record import Game
    from imptools.rules.base import GameResult

STDIN = "-"
EXIT_OK, EXIT_FOUND, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    name="imp",
    help=(
        "Check, score and replay records of trick-taking card games written in Imp notation "
        "(The Bottle Imp, Botifarra, Ninety-nine).\n\n"
        "Examples:\n\n"
        "  imp validate samples/*.imp\n\n"
        "  imp score --json club-night.imp\n\n"
        "  imp fmt --check records/\n\n"
        "  imp simulate --game bottle-imp --players 4 --hands 100 --seed 7 -o practice.imp\n\n"
        "  cat game.imp | imp validate -"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FilesArg = Annotated[
    list[str],
    typer.Argument(metavar="FILE...", help="Record files (.imp), folders to search for them, or - for standard input."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


# --------------------------------------------------------------------------- inputs


@dataclass
class Inputs:
    """The files a command was given, expanded, and the ones that could not be read."""

    paths: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


def expand(files: list[str]) -> Inputs:
    """Expand folders into the `.imp` files under them; `-` stays standard input."""
    inputs = Inputs()
    for name in files:
        if name == STDIN:
            inputs.paths.append(STDIN)
        elif os.path.isdir(name):
            found = sorted(str(p) for p in Path(name).rglob("*.imp"))
            if not found:
                _error(f"no .imp files under {name}")
            inputs.paths.extend(found)
        else:
            inputs.paths.append(name)
    return inputs


def read(path: str, inputs: Inputs) -> Iterator[Game]:
    """The games of one input; a file that cannot be opened is noted and yields nothing."""
    from imptools.reader import read_games

    try:
        if path == STDIN:
            yield from read_games(sys.stdin.buffer, path="<stdin>")
        else:
            yield from read_games(Path(path), path=path)
    except OSError as exc:
        inputs.unreadable.append(path)
        _error(f"cannot read {path}: {exc.strerror or exc}")


def _error(message: str) -> None:
    sys.stderr.write(f"imp: {message}\n")


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _progress(total: int, console: Console) -> Any:
    """A progress bar on a terminal's stderr for long batches; otherwise nothing."""
    from contextlib import nullcontext

    if total < 20 or not console.is_terminal:
        return nullcontext(None)
    from rich.progress import Progress

    return Progress(console=console, transient=True)


def _print_json(obj: Any) -> None:
    import orjson

    sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE))
    sys.stdout.flush()


def _judged(inputs: Inputs) -> Iterator[tuple[str, Game, GameResult]]:
    from imptools.check import judge_game

    err = _console(stderr=True)
    with _progress(len(inputs.paths), err) as progress:
        task = progress.add_task("reading", total=len(inputs.paths)) if progress else None
        for path in inputs.paths:
            for game in read(path, inputs):
                yield path, game, judge_game(game)
            if progress:
                progress.update(task, advance=1, description=Path(path).name)


# --------------------------------------------------------------------------- validate


@app.command()
def validate(files: FilesArg, json: JsonOpt = False) -> None:
    """Check records against the rules and report every problem with its evidence.

    One line per finding, `path:line:col: code message`, grouped by game and hand,
    then a summary. Exit status: 0 when no error was found, 1 when any was, 2 when
    a file could not be read.

    Examples:

      imp validate night.imp

      imp validate --json records/ > findings.json
    """
    inputs = expand(files)
    findings: list[Finding] = []
    games = 0
    for _path, _game, result in _judged(inputs):
        games += 1
        findings.extend(result.all_findings())
    errors = sum(1 for f in findings if f.is_error)
    warnings = len(findings) - errors
    if json:
        _print_json(
            {
                "findings": [f.to_dict() for f in findings],
                "summary": {"files": len(inputs.paths), "games": games, "errors": errors, "warnings": warnings},
            }
        )
    else:
        from imptools.present.report import print_findings

        print_findings(_console(), findings, files=len(inputs.paths), games=games)
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_FOUND if errors else EXIT_OK)


# --------------------------------------------------------------------------- score


@app.command()
def score(files: FilesArg, json: JsonOpt = False) -> None:
    """Recompute every hand's score and the running totals, as a score sheet.

    Recorded `score` and `total` values that disagree with the rules are marked.
    Exit status: 0, or 2 when a file could not be read.

    Examples:

      imp score night.imp

      imp score --json night.imp | jq '.games[0].totals'
    """
    inputs = expand(files)
    sheets: list[tuple[Game, GameResult]] = []
    out: list[dict[str, Any]] = []
    console = _console()
    for _path, game, result in _judged(inputs):
        if json:
            out.append(
                {
                    "path": game.path,
                    "game": game.index,
                    "players": list(result.players),
                    "hands": [
                        {"hand": h.number, "dealer": h.dealer, "complete": h.complete, "scores": h.scores}
                        for h in result.hands
                    ],
                    "totals": result.totals,
                    "over": result.over,
                    "winners": list(result.winners),
                    "rules_checked": result.rules_checked,
                }
            )
        else:
            from imptools.present.score_sheet import score_sheet

            console.print(score_sheet(game, result))
            sheets.append((game, result))
    if json:
        _print_json({"games": out})
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)


# --------------------------------------------------------------------------- fmt, export, import


def write_atomically(path: str, text: str) -> None:
    """Replace `path` with `text` in one step: a crash leaves the old file or the new one, never half of each."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@app.command()
def fmt(
    files: FilesArg,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; list the files that are not canonical and exit 1.")
    ] = False,
    write: Annotated[bool, typer.Option("--write", "-w", help="Rewrite the files in place (atomically).")] = False,
) -> None:
    """Print records in canonical form: tags in order, one element per line, canonical cards.

    Comments, annotations and marks stay where they were, and formatting twice
    changes nothing. A file with syntax errors is left alone (exit 1): fix the
    lines reported first.

    Examples:

      imp fmt night.imp            print the canonical form

      imp fmt --check records/     exit 1 if any file would change

      imp fmt --write night.imp    rewrite in place

      imp fmt - < night.imp        standard input to standard output
    """
    if check and write:
        _error("--check and --write cannot be used together")
        raise typer.Exit(EXIT_UNREADABLE)
    from imptools.writer import format_games

    inputs = expand(files)
    status = EXIT_OK
    for path in inputs.paths:
        games = list(read(path, inputs))
        if path in inputs.unreadable:
            continue
        syntax = [f for g in games for f in g.findings if f.code == "syntax"]
        if syntax:
            for f in syntax:
                _error(f"{f.path or path}:{f.line}:{f.column}: syntax {f.message}")
            _error(f"{path}: not formatted, {len(syntax)} syntax error{'s' if len(syntax) != 1 else ''} to fix first")
            status = EXIT_FOUND
            continue
        text = format_games(games)
        if check:
            original = sys.stdin.read() if path == STDIN else Path(path).read_bytes().decode("utf-8", errors="replace")
            if original != text:
                print(f"would reformat {path}")
                status = EXIT_FOUND
        elif write and path != STDIN:
            original = Path(path).read_bytes().decode("utf-8", errors="replace")
            if original != text:
                write_atomically(path, text)
                print(f"reformatted {path}", file=sys.stderr)
        else:
            sys.stdout.write(text)
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(status)


@app.command()
def export(
    files: FilesArg,
    json: Annotated[
        bool, typer.Option("--json", help="Export as JSON (the only format so far, and the default).")
    ] = True,
) -> None:
    """Write the record model of the files as one JSON document (see `imp import`).

    Example:

      imp export --json night.imp > night.json
    """
    from imptools.writer import games_to_json

    inputs = expand(files)
    games = [g for path in inputs.paths for g in read(path, inputs)]
    sys.stdout.buffer.write(games_to_json(games) + b"\n")
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)


@app.command("import")
def import_(
    file: Annotated[
        str, typer.Argument(metavar="FILE.json", help="A JSON document made by `imp export`, or - for standard input.")
    ],
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write here (atomically) instead of standard output.")
    ] = None,
) -> None:
    """Turn a JSON export back into notation: the round trip is exact.

    Example:

      imp import night.json -o night.imp
    """
    from imptools.writer import RecordJSONError, format_games, games_from_json

    try:
        data = sys.stdin.buffer.read() if file == STDIN else Path(file).read_bytes()
    except OSError as exc:
        _error(f"cannot read {file}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        games = games_from_json(data)
    except RecordJSONError as exc:
        _error(f"{file}: not an imp export: {exc}")
        raise typer.Exit(EXIT_FOUND) from None
    text = format_games(games)
    if output:
        write_atomically(output, text)
    else:
        sys.stdout.write(text)


# --------------------------------------------------------------------------- simulate

_NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")


@app.command()
def simulate(
    game: Annotated[str, typer.Option("--game", "-g", help="The game: bottle-imp, botifarra or ninety-nine.")],
    players: Annotated[
        str, typer.Option("--players", "-p", help='How many players (names are made up), or their names: "A B C".')
    ] = "4",
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="The variant (the game's default if not given).")
    ] = None,
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="How many hands to deal and play.")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="The random seed: the same seed gives the same record.")] = 0,
    bot: Annotated[
        str, typer.Option("--bot", help="How the players choose among their legal cards: random or greedy.")
    ] = "random",
    play_only: Annotated[
        bool, typer.Option("--play-only", help="Write the tricks only, without deals and exchanges.")
    ] = False,
    no_scores: Annotated[bool, typer.Option("--no-scores", help="Leave out the `score` lines.")] = False,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write here (atomically) instead of standard output.")
    ] = None,
) -> None:
    """Deal random hands and play them out by the rules: practice deals, test and benchmark records.

    Every card is chosen among the cards the rules allow (Lopaka plays his
    automaton), and the `score` lines are what `imp score` computes, so the
    record validates clean.

    Examples:

      imp simulate --game bottle-imp --players 4 --hands 8 --seed 7

      imp simulate -g bottle-imp -v lopaka -p "Keawe Kokua Lopaka" --bot greedy -o practice.imp
    """
    from imptools.simulate import Options, SimulationError
    from imptools.simulate import simulate as run

    if players.isdigit():
        count = int(players)
        names: tuple[str, ...] = (
            ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else _NAMES[:count] if count <= len(_NAMES) else ()
        )
        if not names:
            _error(f"--players {players}: give the players' names for more than {len(_NAMES)} players")
            raise typer.Exit(EXIT_UNREADABLE)
    else:
        names = tuple(players.split())
    opts = Options(game, names, variant, hands, seed, bot, deals=not play_only, scores=not no_scores)
    try:
        text = "".join(run(opts))
    except SimulationError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if output:
        write_atomically(output, text)
    else:
        sys.stdout.write(text)


# --------------------------------------------------------------------------- analyse


@app.command()
def analyse(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record file (.imp), or - for standard input.")],
    game: Annotated[int | None, typer.Option("--game", min=1, help="Only this game of the file (from 1).")] = None,
    hand: Annotated[int | None, typer.Option("--hand", min=1, help="Only this hand (from 1).")] = None,
    from_trick: Annotated[int, typer.Option("--from-trick", min=1, help="Value the plays from this trick on.")] = 1,
    json: JsonOpt = False,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, help="Hands analysed at once (default: the cores available).")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Send the hands to this Dask distributed scheduler.")
    ] = None,
) -> None:
    """What each card cost, with every card visible (docs/ANALYSIS.md).

    Each play is valued by a search in which its player makes his result as
    high as possible and everyone else makes it as low as possible; the cost is
    what the play gave away. A hand whose cards are not all known is skipped
    with the reason.

    Examples:

      imp analyse night.imp --hand 3 --from-trick 5

      imp analyse --json --jobs 8 practice.imp
    """
    from imptools.analyse import Runner, cores, tasks_for

    inputs = expand([file])
    games = list(read(inputs.paths[0], inputs))
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    tasks = tasks_for(games, game, hand, from_trick)
    if not tasks:
        _error("no such game or hand in the file")
        raise typer.Exit(EXIT_UNREADABLE)
    results = Runner(jobs or cores(), scheduler).run(tasks)
    if json:
        _print_json({"analyses": [r.to_dict() for r in results]})
    else:
        from imptools.present.analysis import print_analyses

        print_analyses(_console(), results)


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from imptools import __version__

        print(f"imp {__version__}")
        raise typer.Exit()


def main() -> None:
    """Entry point: run the app; no traceback reaches a user."""
    try:
        app()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(EXIT_FOUND) from None
    except Exception as exc:
        _error(f"internal error: {type(exc).__name__}: {exc}")
        _error("this is a bug in imptools; please report it with the record that caused it")
        raise SystemExit(EXIT_INTERNAL) from None
