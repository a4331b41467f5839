"""The Typer app of `imp`: thin commands over the library.

Each command parses its options, calls the library, hands the result to a
presenter and sets the exit status; no rule is decided here.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from imptools.cli import output as shell
from imptools.cli.analysing import (
    AnalyseJobsOpt,
    BidsOpt,
    KnowingOpt,
    NoChoicesOpt,
    SamplesOpt,
    SchedulerOpt,
    SeedOpt,
    analysed,
    choices_asked,
    knowing_ask,
)
from imptools.cli.inputs import STDIN, expand, jobs_to_use, one_record, read, read_bytes, unreadable
from imptools.cli.judging import internal_findings, judged, score_json, validate_files
from imptools.cli.keeping import kept_texts
from imptools.cli.like import HandOpt, LikeOpt, SeatOpt, liked
from imptools.cli.output import EXIT_FOUND, EXIT_INTERNAL, EXIT_OK, EXIT_UNREADABLE
from imptools.cli.ranges import out_of_range
from imptools.files import ChangedError, Snapshot, shown, write_atomically
from imptools.findings import Finding
from imptools.present.help import HelpCommand, HelpGroup

if TYPE_CHECKING:
    from rich.console import Console

    from imptools.record import Game
    from imptools.rules.base import GameResult

__all__ = ["app"]

app = typer.Typer(
    name="imp",
    help=(
        "Check, score and replay records of trick-taking card games written in Imp notation "
        "(The Bottle Imp, Botifarra, Ninety-nine).\n\n"
        "Every command takes --help, with examples.\n\n"
        "Examples:\n\n"
        "  imp validate night.imp records/\n\n"
        "  imp score --json club-night.imp\n\n"
        "  imp fmt --check records/\n\n"
        "  imp simulate --game bottle-imp --players 4 --hands 100 --seed 7 -o practice.imp\n\n"
        "  imp replay night.imp --step\n\n"
        '  imp record night.imp --game bottle-imp --players "Adam Betty Christian Doris"\n\n'
        "  cat game.imp | imp validate -"
    ),
    cls=HelpGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FilesArg = Annotated[
    list[str],
    typer.Argument(metavar="FILE...", help="Record files (.imp), folders to search for them, or - for standard input."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
JobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        metavar="N",
        help="Processes to judge with (default: the cores available); small inputs use one.",
    ),
]


# --------------------------------------------------------------------------- validate


@app.command(cls=HelpCommand)
def validate(files: FilesArg, json: JsonOpt = False, jobs: JobsOpt = None) -> None:
    """Check records against the rules and report every problem with its evidence.

    One line per finding, `path:line:col: code message`, grouped by game and hand,
    then a summary. Exit status: 0 when no error was found, 1 when any was, 2 when
    a file could not be read, 3 when imptools itself failed on a game (a bug: the
    finding `internal` says where; every other game is still judged).

    Examples:

      imp validate night.imp

      imp validate --json records/ > findings.json
    """
    raise typer.Exit(validate_files(files, json, jobs))


# --------------------------------------------------------------------------- score


@app.command(cls=HelpCommand)
def score(files: FilesArg, json: JsonOpt = False, jobs: JobsOpt = None) -> None:
    """Recompute every hand's score and the running totals, as a score sheet.

    Recorded `score` and `total` values that disagree with the rules are marked.
    Exit status: 0; 2 when a file could not be read; 3 when imptools itself
    failed on a game (a bug; every other game is still scored).

    Examples:

      imp score night.imp

      imp score --json night.imp | jq '.games[0].totals'
    """
    if json:
        raise typer.Exit(score_json(files, jobs))
    inputs = expand(files)
    console = shell.rich_console()
    for _path, game, result in judged(inputs, jobs_to_use(jobs), whole_games=True):
        failures = internal_findings(result)
        inputs.internal.extend(failures)
        failures.extend(_print_sheet(console, game, result))
        inputs.internal.extend(failures[len(internal_findings(result)) :])
        _print_failures(console, failures)
    _print_failures(console, [f for f in inputs.internal if f.message.startswith("imptools failed while reading")])
    raise typer.Exit(inputs.status(False))


def _print_sheet(console: Console, game: Game, result: GameResult) -> list[Finding]:
    """Print one game's score sheet; a failure to draw it is returned as an `internal` finding."""
    from imptools.present.score_sheet import score_sheet

    try:
        console.print(score_sheet(game, result))
    except Exception as exc:  # a presenter bug costs this game's sheet, not the batch
        from imptools.check import internal_finding

        return [internal_finding(game, exc, "drawing the score sheet of")]
    return []


def _print_failures(console: Console, failures: list[Finding]) -> None:
    from imptools.present.report import finding_line

    for f in failures:
        console.print(finding_line(f))


# --------------------------------------------------------------------------- fmt, export, import


@app.command(cls=HelpCommand)
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
        shell.error("--check and --write cannot be used together")
        raise typer.Exit(EXIT_UNREADABLE)
    from imptools.writer import format_games

    inputs = expand(files)
    status = EXIT_OK
    for path in inputs.paths:
        try:
            before = None if path == STDIN else Snapshot.of(path)
            data = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
        except OSError as exc:
            unreadable(inputs, path, exc.strerror or str(exc))
            continue
        snapshot = None if path == STDIN else Snapshot.of(path, data)
        if before is None or snapshot is None or (before.mtime_ns, before.size) != (snapshot.mtime_ns, snapshot.size):
            snapshot = None  # changing while it was read: never rewritten
        games = list(read_bytes(data, path, inputs))
        syntax = [f for g in games for f in g.findings if f.code == "syntax"]
        if syntax:
            for f in syntax:
                shell.error(f"{f.path or path}:{f.line}:{f.column}: syntax {f.message}")
            shell.error(
                f"{path}: not formatted, {len(syntax)} syntax error{'s' if len(syntax) != 1 else ''} to fix first"
            )
            status = EXIT_FOUND
            continue
        text = format_games(games)
        original = data.decode("utf-8", errors="replace")
        if original != text and kept_texts(list(read_bytes(text.encode("utf-8"), path, inputs))) != kept_texts(games):
            shell.error(f"{path}: not formatted: the canonical form would lose a comment (a bug; please report it)")
            status = EXIT_INTERNAL
            continue
        if check:
            if original != text:
                print(f"would reformat {path}")
                status = EXIT_FOUND
        elif write and path != STDIN:
            if original == text:
                continue
            try:
                if snapshot is None:
                    raise ChangedError(path)
                write_atomically(path, text, guard=True, expect=snapshot)
            except ChangedError:
                shell.error(f"{path} changed since it was read; not rewritten (run imp fmt again)")
                status = max(status, EXIT_FOUND)
                continue
            except OSError as exc:
                shell.error(f"cannot write {path}: {exc.strerror or exc}")
                status = max(status, EXIT_FOUND)
                continue
            print(f"reformatted {path}", file=sys.stderr)
        else:
            sys.stdout.write(text)
    if inputs.internal:
        raise typer.Exit(EXIT_INTERNAL)
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(status)


@app.command(cls=HelpCommand)
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
    games: list[Game] = []
    sources: list[tuple[str, bytes]] = []
    for path in inputs.paths:
        try:
            data = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
        except OSError as exc:
            unreadable(inputs, path, exc.strerror or str(exc))
            continue
        games += read_bytes(data, path, inputs)
        sources.append(("<stdin>" if path == STDIN else shown(path), data))
    sys.stdout.buffer.write(games_to_json(games, sources) + b"\n")
    for f in inputs.internal:
        shell.error(f"{f.path}: {f.message}")
    raise typer.Exit(inputs.status(False))


@app.command("import", cls=HelpCommand)
def import_(
    file: Annotated[
        str, typer.Argument(metavar="FILE.json", help="A JSON document made by `imp export`, or - for standard input.")
    ],
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write here (atomically) instead of standard output."),
    ] = None,
) -> None:
    """Turn a JSON export back into notation: the round trip is exact.

    Example:

      imp import night.json -o night.imp
    """
    from imptools.writer import RecordJSONError, document_text

    before = Snapshot.of(output) if output else None
    try:
        data = sys.stdin.buffer.read() if file == STDIN else Path(file).read_bytes()
    except OSError as exc:
        shell.error(f"cannot read {file}: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        text = document_text(data)
    except RecordJSONError as exc:
        shell.error(f"{file}: not an imp export: {exc}")
        raise typer.Exit(EXIT_FOUND) from None
    if output:
        try:
            write_atomically(output, text, guard=True, expect=before)
        except ChangedError:
            shell.error(f"{output} changed while the export was read; not overwritten (run imp import again)")
            raise typer.Exit(EXIT_FOUND) from None
        except OSError as exc:
            shell.error(f"cannot write {output}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_FOUND) from None
    else:
        sys.stdout.write(text)


# --------------------------------------------------------------------------- simulate


def _complete_games(incomplete: str) -> list[str]:
    """Shell completion for `--game`: the games imptools knows."""
    from imptools.rules import GAMES

    return [g for g in GAMES if g.startswith(incomplete)]


def _complete_variants(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for `--variant`: the variants of the game given with `--game` (of every game without it)."""
    from imptools.rules import GAMES, get_ruleset

    chosen = ctx.params.get("game")
    names: list[str] = []
    for g in [chosen] if chosen in GAMES else list(GAMES):
        ruleset = get_ruleset(g)
        names += list(ruleset.variants) if ruleset else []
    return [v for v in dict.fromkeys(names) if v.startswith(incomplete)]


@app.command(cls=HelpCommand)
def simulate(
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            "-g",
            metavar="GAME",
            help="The game: bottle-imp, botifarra or ninety-nine.",
            autocompletion=_complete_games,
        ),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar='N|"A B C"',
            help='How many players (names are made up; 4 if not given), or their names: "A B C".',
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            metavar="VARIANT",
            help="The variant (the game's default if not given).",
            autocompletion=_complete_variants,
        ),
    ] = None,
    hands: Annotated[
        int, typer.Option("--hands", "-n", min=1, metavar="N", help="How many hands to deal and play.")
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="The random seed: the same seed gives the same record.")
    ] = 0,
    bot: Annotated[
        str,
        typer.Option(
            "--bot",
            metavar="BOT[,BOT...]",
            help="How the players choose their cards: random, greedy or pimc; one for every seat, or one per player"
            " in Players order (pimc,greedy,greedy).",
        ),
    ] = "random",
    deal: Annotated[
        list[str] | None,
        typer.Option("--deal", metavar='"NAME: CARDS"', help="Give a place of the deal its cards (repeatable)."),
    ] = None,
    like: LikeOpt = None,
    hand: HandOpt = None,
    seat: SeatOpt = None,
    think: Annotated[
        float, typer.Option("--think", min=0, metavar="SECONDS", help="pimc's thinking at a decision.")
    ] = 0.2,
    worlds: Annotated[int, typer.Option("--worlds", min=1, metavar="N", help="pimc's most worlds a decision.")] = 12,
    play_only: Annotated[
        bool, typer.Option("--play-only", help="Leave out the deals and exchanges (bids, turn-up and calls stay).")
    ] = False,
    no_scores: Annotated[bool, typer.Option("--no-scores", help="Leave out the `score` lines.")] = False,
    tag: Annotated[
        list[str] | None,
        typer.Option(
            "--tag", "-t", metavar="NAME=VALUE", help="Add a tag to the header (repeatable): --tag Teams=none."
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE", help="Write here (atomically) instead of standard output."),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Processes to deal and play with (default: the cores available); same output.",
        ),
    ] = None,
) -> None:
    """Deal random hands and play them out by the rules: practice deals, test and benchmark records.

    Every card is chosen among the cards the rules allow (Lopaka plays his
    automaton), and the `score` lines are what `imp score` computes, so the
    record validates clean.

    `--like` keeps what the seat saw when the deal was complete: his cards and
    what the table shows then (turn-up, Lopaka's hand, open pack, face-up pile
    cards); the bots make the exchange, bids, trump and calls again, and play.

    Examples:

      imp simulate --game bottle-imp --players 4 --hands 8 --seed 7

      imp simulate -g bottle-imp -v lopaka -p "Keawe Kokua Lopaka" --bot greedy -o practice.imp

      imp simulate -g botifarra -p 4 --tag Teams=none -n 5

      imp simulate -g ninety-nine -p 3 -n 9 --seed 1 --bot pimc,greedy,greedy

      imp simulate -g bottle-imp --deal "Adam: 2 4 6 7 13 14 20 24 26"

      imp simulate --like night.imp --hand 3 --seat Betty -n 20 --bot greedy
    """
    from imptools.simulate import Options, SimulationError, seats, tag_pairs
    from imptools.simulate import simulate as run

    try:
        names, tags = seats(game or "", "4" if players is None else players, variant), tag_pairs(tag or [])
    except SimulationError as exc:
        shell.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    given = tuple(deal or ())
    opts = Options(
        game or "", names, variant, hands, seed, bot, not play_only, not no_scores, tags, given, think, worlds
    )
    opts = liked(opts, like, hand, seat, (game, players, variant))
    pieces = run(opts, jobs_to_use(jobs))
    try:
        header = next(pieces)  # the options are checked before the first piece
    except SimulationError as exc:
        shell.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if output:
        try:
            write_atomically(output, itertools.chain([header], pieces))
        except OSError as exc:
            shell.error(f"cannot write {output}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_UNREADABLE) from None
    else:
        for piece in itertools.chain([header], pieces):
            sys.stdout.write(piece)


# --------------------------------------------------------------------------- replay


def _complete_records(incomplete: str) -> list[str]:
    """Shell completion for a record: `.imp` files and folders starting with what was typed."""
    folder, _, stem = incomplete.rpartition("/")
    base = Path(folder or ".")
    try:
        entries = sorted(base.iterdir())
    except OSError:
        return []
    out = []
    for entry in entries:
        if entry.name.startswith(stem) and (entry.is_dir() or entry.suffix == ".imp"):
            out.append(f"{folder}/{entry.name}" if folder else entry.name)
    return out


@app.command(cls=HelpCommand)
def replay(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE", help="A record file (.imp), or - for standard input.", autocompletion=_complete_records
        ),
    ],
    game: Annotated[
        int | None, typer.Option("--game", "-g", min=1, metavar="N", help="Only game N of the file.")
    ] = None,
    hand: Annotated[int | None, typer.Option("--hand", "-n", min=1, metavar="N", help="Only hand N.")] = None,
    trick: Annotated[
        int | None, typer.Option("--trick", "-t", min=1, metavar="N", help="Only trick N of each hand.")
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print the steps (event and state) as JSON.")] = False,
    step: Annotated[bool, typer.Option("--step", help="Step through the hands in a full-screen viewer.")] = False,
    html: Annotated[str | None, typer.Option("--html", metavar="OUT.html", help="Write a replay page.")] = None,
    svg: Annotated[str | None, typer.Option("--svg", metavar="OUT.svg", help="Write the replay as SVG.")] = None,
    analyse: Annotated[
        bool, typer.Option("--analyse", help="Show what each card cost, with every card visible (as imp analyse).")
    ] = False,
    from_trick: Annotated[
        int, typer.Option("--from-trick", min=1, metavar="N", help="With --analyse: value the plays from trick N on.")
    ] = 1,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="With --analyse: hands analysed at once.")
    ] = None,
    knowing: KnowingOpt = False,
    samples: SamplesOpt = "100",
    seed: SeedOpt = 0,
    bids: BidsOpt = False,
    no_choices: NoChoicesOpt = False,
) -> None:
    """Replay a record hand by hand: every play, the comments, the game's state, each finding where it happens.

    `--step` opens a full-screen stepper (press ? there for its keys; `a` there
    shows the analysis layer); `--html` writes one self-contained page to share,
    `--svg` a picture of the text. `--analyse` adds each play's cost (see
    imp analyse) to every form of the replay; a search over whole hands can
    take long, so `--from-trick` limits it to the last tricks. With
    `--knowing` each play's cost on what its player knew is shown beside it.

    Examples:

      imp replay night.imp

      imp replay night.imp --hand 2 --trick 5

      imp replay night.imp --step

      imp replay night.imp --html night.html

      imp replay night.imp --hand 2 --analyse --from-trick 5
    """
    from imptools.check import as_meant, judge_game
    from imptools.replay import replay_game

    inputs, path = one_record(file, "replay")
    everything = [as_meant(g) for g in read(path, inputs)]
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    records = [g for g in everything if game is None or g.index == game]
    refused = out_of_range(everything, records, game, hand, trick)
    if refused is not None:
        shell.error(f"{shown(file)}: {refused[0]}")
        raise typer.Exit(refused[1])
    games = [replay_game(g, judge_game(g)) for g in records]
    ask = knowing_ask(knowing, samples, seed)
    valued = choices_asked(bids, no_choices)
    if analyse:
        from imptools.analyse import Runner, cores, tasks_for
        from imptools.replay import with_analyses

        tasks = tasks_for(records, None, hand, from_trick, ask, bids, valued)
        results = list(analysed(Runner(jobs or cores()), tasks))
        games = [with_analyses(g, results) for g in games]
    if json:
        from imptools.replay import game_to_dict

        shell.print_json("replay", {"path": path, "games": [game_to_dict(g) for g in games]})
    elif step:
        if not any(g.replayable for g in games):
            shell.error(f"{file}: nothing to replay: imptools cannot step through these hands yet")
            raise typer.Exit(EXIT_OK)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            # Full screen reads keys from the terminal and draws on it: in a pipe it would wait for ever.
            why = "standard input is the record" if file == STDIN else "standard input or output is not one"
            shell.error(f"--step needs a terminal ({why}); without --step the replay prints as text")
            raise typer.Exit(EXIT_UNREADABLE)
        from imptools.present.stepper import run_stepper

        run_stepper(games, hand=hand, trick=trick, records=records, knowing=ask, choices=valued)
    elif html or svg:
        if html:
            from imptools.present.replay_page import replay_page

            write_atomically(html, replay_page(games))
        if svg:
            from imptools.present.replay_text import replay_svg

            write_atomically(svg, replay_svg(games, hand, trick))
    else:
        from rich.console import Console

        from imptools.present.replay_text import print_replay

        print_replay(Console(highlight=False), games, hand, trick)


# --------------------------------------------------------------------------- analyse


@app.command(cls=HelpCommand)
def analyse(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A record file (.imp), or - for standard input.")],
    game: Annotated[
        int | None, typer.Option("--game", min=1, metavar="N", help="Only game N of the file (from 1).")
    ] = None,
    hand: Annotated[int | None, typer.Option("--hand", min=1, metavar="N", help="Only hand N (from 1).")] = None,
    from_trick: Annotated[
        int, typer.Option("--from-trick", min=1, metavar="N", help="Value the plays from trick N on.")
    ] = 1,
    json: JsonOpt = False,
    jobs: AnalyseJobsOpt = None,
    scheduler: SchedulerOpt = None,
    knowing: KnowingOpt = False,
    samples: SamplesOpt = "100",
    seed: SeedOpt = 0,
    bids: BidsOpt = False,
    no_choices: NoChoicesOpt = False,
) -> None:
    """What each card cost, with every card visible: each play valued by a search.

    Each play is valued by a search in which its player makes his result as
    high as possible and everyone else makes it as low as possible; the cost is
    what the play gave away. A hand whose cards are not all known is skipped
    with the reason. `--knowing` values each play on what its player knew as
    well: the mean over the deals of the cards he had not seen that agree with
    everything he saw (`--samples` of them drawn at random from `--seed`, or
    `all`), each solved with every card visible.
    From trick 1, the choices made before the first card are valued too: every
    trump the chooser could have named, and each player's bid (with --bids,
    against the best of every bid he could have made); --no-choices leaves them
    out (a Botifarra trump table is most of a whole hand's search).

    Examples:

      imp analyse night.imp --hand 3 --from-trick 5

      imp analyse --json --jobs 8 practice.imp

      imp analyse night.imp --hand 3 --from-trick 9 --knowing --samples all

      imp analyse ninety-nine.imp --hand 2 --bids

      imp analyse botifarra-night.imp --no-choices
    """
    from imptools.analyse import Runner, cores, tasks_for
    from imptools.check import as_meant
    from imptools.cluster import ClusterUnavailable

    ask = knowing_ask(knowing, samples, seed)
    valued = choices_asked(bids, no_choices)
    inputs, path = one_record(file, "analyse")
    games = [as_meant(g) for g in read(path, inputs)]
    if inputs.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    tasks = tasks_for(games, game, hand, from_trick, ask, bids, valued)
    if not tasks:
        shell.error("no such game or hand in the file")
        raise typer.Exit(EXIT_UNREADABLE)
    runner = Runner(jobs or cores(), scheduler)
    try:
        if json:
            shell.print_json("analyse", {"analyses": [r.to_dict() for r in analysed(runner, tasks)]})
        else:
            from imptools.present.analysis import print_analyses

            console = shell.rich_console()
            # Each hand as soon as it is done; on a terminal, above the progress bar.
            for result in analysed(runner, tasks, console):
                print_analyses(console, [result])
    except ClusterUnavailable as exc:
        shell.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    for why in runner.lost:  # the other hands are reported; these are not analysed
        shell.error(f"not analysed, {why}")
    if runner.lost:
        raise typer.Exit(EXIT_UNREADABLE)


@app.command(cls=HelpCommand)
def record(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The record to keep: a new file, or one to carry on.")],
    game: Annotated[
        str | None, typer.Option("--game", metavar="GAME", help="The game of a new record (its Game tag).")
    ] = None,
    players: Annotated[
        str | None, typer.Option("--players", metavar='"A B C D"', help="The players of a new record, in turn order.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", metavar="VARIANT", help="The variant of a new record.")
    ] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", metavar="Name=Value", help="Another tag of a new record (repeatable).")
    ] = None,
) -> None:
    """Keep a record at the table, entry by entry: every entry is checked as typed and saved before the next prompt.

    Type a card alone for the player the prompt names ("trick 3, Betty:"), or
    any line of the notation as written (hand 2 dealer Adam, deal ..., discard,
    pass, trump, contro, bid, declare, score, {a comment}, ; a remark). Tab
    offers the cards that player may hold. A card or call the rules refuse is
    shown with the words of imp validate and asked about: confirm it to record
    it as played, or enter it again; an entry that does not read (not notation,
    not a card, not a player) is refused in the same words. Before trick 1 the
    prompt asks for Botifarra's trump line and Ninety-nine's bids. `undo` takes
    the last entry back; `save` writes again after the disk refused; `quit` or
    Ctrl-D stops. The file on disk is always valid notation: run the same
    command again after a crash and it carries on where the record stops. A
    second recorder on the same file is refused; entries the disk cannot take
    are kept and copied to a side file that is named; a file changed by another
    program is read again, never overwritten. Exit 1 when the file lacks entries
    at the end.

    Examples:

      imp record night.imp --game bottle-imp --players "Adam Betty Christian Doris" --tag Event="Thursday club"

      imp record night.imp

      imp record tute.imp --game botifarra --players "Anna Berta Carles Dolors" --variant lliure
    """
    from imptools.present.recording import run_recording
    from imptools.recorder import RecordBusy, Recorder, RecordLock

    tags: list[tuple[str, str]] = []
    for t in tag or []:
        name, eq, value = t.partition("=")
        if not eq or not name:
            shell.error(f"--tag {t}: expected Name=Value")
            raise typer.Exit(EXIT_UNREADABLE)
        tags.append((name, value))
    try:
        lock = RecordLock.take(file)
    except RecordBusy as exc:
        shell.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        try:
            rec = Recorder.open(file, game, players, variant, tags)
        except ValueError as exc:
            shell.error(f"{file}: {exc}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        except OSError as exc:
            shell.error(f"{file}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        if lock.fd is None:
            shell.error(f"{file}: cannot lock it ({lock.why}): a second recorder on it would not be kept off")
        elif lock.taken_over is not None:
            shell.error(
                f"{file}: the lock left by process {lock.taken_over}, which is no longer running, is taken over"
            )
        if not run_recording(rec):
            raise typer.Exit(EXIT_FOUND)
    finally:
        lock.release()


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def archive(ctx: typer.Context) -> None:
    """Keep a club's records in a database: standings, games found by filters, duplicates (imp archive --help).

    Examples:

      imp archive add seasons/

      imp archive standings --game bottle-imp --since 2026-01-01
    """
    from imptools.archive.cli import run

    run(list(ctx.args))  # the archive is imported only here: no other command pays for it


@app.callback(invoke_without_command=True)
def _main(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        from imptools import __version__

        print(f"imp {__version__}")
        raise typer.Exit()
