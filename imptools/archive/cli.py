"""The `imp archive` commands: thin Typer commands over `store` and `queries`.

`imptools.cli.app` hands `imp archive ...` here only when it runs, so nothing of the
archive is imported by any other command.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from imptools.archive.db import Db
from imptools.archive.queries import Filters
from imptools.archive.schema import ArchiveError, connect
from imptools.cli import output as shell
from imptools.cli.output import EXIT_FOUND, EXIT_INTERNAL, EXIT_OK, EXIT_UNREADABLE
from imptools.present.help import HelpCommand, HelpGroup

app = typer.Typer(
    name="archive",
    help=(
        "Keep a club's records in one database (SQLite), and ask it for standings, games and duplicates.\n\n"
        "The archive is imp-archive.sqlite in the current folder, or the file named by --db or by the "
        "IMP_ARCHIVE environment variable; a postgresql://... address there keeps it in PostgreSQL "
        "(pip install 'imptools-cards[postgres]').\n\n"
        "Examples:\n\n"
        "  imp archive add seasons/\n\n"
        "  imp archive standings --game botifarra --since 2026-03-01\n\n"
        '  imp archive find --player Adam --event "Thursday club" -o adam.imp\n\n'
        "  imp archive dupes --json\n\n"
        "  imp archive player Adam\n\n"
        "  imp archive site club-site/"
    ),
    cls=HelpGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

DEFAULT_DB = "imp-archive.sqlite"

DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="IMP_ARCHIVE",
        metavar="FILE",
        help="The archive: an SQLite file, or a postgresql:// address (IMP_ARCHIVE in the environment, when set).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
GameOpt = Annotated[str | None, typer.Option("--game", "-g", metavar="G", help="Only games of G (its Game tag).")]
SinceOpt = Annotated[
    str | None, typer.Option("--since", metavar="DATE", help="Only games dated DATE (YYYY-MM-DD) or later.")
]
UntilOpt = Annotated[
    str | None, typer.Option("--until", metavar="DATE", help="Only games dated DATE (YYYY-MM-DD) or earlier.")
]
EventOpt = Annotated[
    str | None, typer.Option("--event", metavar="TEXT", help="Only games whose Event tag contains TEXT (any case).")
]


@contextmanager
def _archive(db: str, create: bool = False) -> Iterator[Db]:
    """The archive open, or a message and exit status 2; a database failure on the way is one too."""
    try:
        conn = connect(db, create=create)
    except ArchiveError as exc:
        shell.error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        yield conn
    except conn.errors as exc:
        shell.error(f"{_shown(db)}: the archive failed: {exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    finally:
        conn.close()


def _shown(db: str) -> str:
    """The archive's name as it may be printed: a database address without its password."""
    from imptools.archive.schema import hide_password

    return hide_password(db)


def _date(value: str | None, option: str) -> str | None:
    """A date option as YYYY-MM-DD (2026.3.1 and 2026/03/01 are read too), or a message and exit status 2."""
    import re

    from imptools.archive.store import iso_date

    iso = iso_date(value)
    if iso is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", iso):
        return iso
    shell.error(f"{option} {value}: write the date as YYYY-MM-DD")
    raise typer.Exit(EXIT_UNREADABLE)


# --------------------------------------------------------------------------- add


@app.command(cls=HelpCommand)
def add(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...", help="Record files (.imp), folders to search for them, or - for standard input."
        ),
    ],
    db: DbOpt = DEFAULT_DB,
    prune: Annotated[
        bool, typer.Option("--prune", help="Remove archived files under PATH that are gone from disk.")
    ] = False,
    json: JsonOpt = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Processes to judge with (default: the cores available)."),
    ] = None,
) -> None:
    """Read records with the same reader and judge as imp validate, and keep them in the archive.

    Every game is kept with its tags, hands, players, scores, findings and source
    (path, position, hash of its text). Adding again is idempotent: unchanged
    files are not read again, a changed file is updated game by game, and with
    --prune the files gone from disk are removed. Each file is written in one
    transaction, so an add that is stopped leaves a consistent archive and the
    next add completes it. A broken game is kept with its findings; exit status
    2 when a file could not be read, 3 when imptools itself failed on a game.

    Examples:

      imp archive add seasons/

      imp archive add --db club.sqlite --prune seasons/2026/

      imp archive add --json night.imp
    """
    from imptools.archive.store import add as run
    from imptools.archive.store import prune as gone
    from imptools.cli.inputs import expand, jobs_to_use, unreadable

    inputs = expand(files)
    with _archive(db, create=True) as conn, shell.progress(len(inputs.paths)) as progress:
        bar = progress.add_task("archiving", total=len(inputs.paths)) if progress else None

        def done(path: str) -> None:
            if progress:
                progress.update(bar, advance=1, description=Path(path).name)

        summary = run(conn, inputs.paths, jobs_to_use(jobs), lambda p, why: unreadable(inputs, p, why), done)
        missing = gone(conn, files, prune)
    if prune:
        summary.pruned = missing
    else:
        summary.missing = missing
    if json:
        shell.print_json(
            "archive-add",
            {
                **summary.to_dict(),
                "unreadable": inputs.unreadable_list(),
            },
        )
    else:
        print(
            f"{summary.added} added, {summary.updated} updated, {summary.unchanged} unchanged, "
            f"{summary.duplicates} duplicate{'s' if summary.duplicates != 1 else ''} "
            f"({summary.files} file{'s' if summary.files != 1 else ''}) in {_shown(db)}"
        )
        for path in summary.pruned:
            print(f"pruned {path}")
        for path in summary.missing:
            print(f"gone from disk: {path} (imp archive add --prune removes it)")
    if summary.internal:
        raise typer.Exit(EXIT_INTERNAL)
    raise typer.Exit(EXIT_UNREADABLE if inputs.unreadable else EXIT_OK)


# --------------------------------------------------------------------------- standings


@app.command(cls=HelpCommand)
def standings(
    db: DbOpt = DEFAULT_DB,
    game: GameOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    event: EventOpt = None,
    json: JsonOpt = False,
) -> None:
    """Standings per player, and per pair where partnerships are fixed (Botifarra).

    Games, hands, wins, points (the sum of the player's totals as imp score gives
    them; a game kept twice counts once), points per hand, and a rating
    (openskill's Plackett-Luce model over the games in date order, ranked by the
    final totals; shown as mu - 3 sigma; a pair is rated as one player over the
    games it played together). A game not played out is won by whoever
    leads where its record stops. Without --game, one table per game on the
    terminal; --json needs --game when the archive holds more than one game.

    Examples:

      imp archive standings --game bottle-imp

      imp archive standings --game botifarra --since 2026-01-01 --until 2026-06-30

      imp archive standings --game ninety-nine --event "Thursday club" --json
    """
    from imptools.archive.queries import game_kinds
    from imptools.archive.queries import standings as run

    with _archive(db) as conn:
        kinds: list[str | None] = [game] if game else list(game_kinds(conn))
        if json and len(kinds) > 1:
            shell.error(f"the archive holds several games ({', '.join(str(k) for k in kinds)}): choose one with --game")
            raise typer.Exit(EXIT_UNREADABLE)
        tables = [
            run(conn, Filters(game=g, since=_date(since, "--since"), until=_date(until, "--until"), event=event))
            for g in kinds or [None]
        ]
    if json:
        shell.print_json("archive-standings", tables[0])
        return
    from rich.table import Table

    console = shell.rich_console()
    for t in tables:
        table = Table(title=f"{t['game'] or 'no games'} · {t['games']} game{'s' if t['games'] != 1 else ''}")
        for heading in ("player", "games", "hands", "wins", "points", "per hand", "rating"):
            table.add_column(heading, justify="left" if heading == "player" else "right")
        for r in [*t["rows"], *t["pairs"]]:
            table.add_row(
                r["player"],
                str(r["games"]),
                str(r["hands"]),
                str(r["wins"]),
                str(r["points"]),
                f"{r['average']:.2f}",
                "" if r.get("rating") is None else f"{r['rating']:.2f}",
            )
        console.print(table)


# --------------------------------------------------------------------------- find


@app.command(cls=HelpCommand)
def find(
    db: DbOpt = DEFAULT_DB,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", "-p", metavar="NAME", help="Only games NAME played (repeatable: all of them)."),
    ] = None,
    game: GameOpt = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", metavar="V", help="Only games of variant V.")
    ] = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    event: EventOpt = None,
    finding: Annotated[
        str | None, typer.Option("--finding", metavar="CODE", help="Only games with a finding CODE (revoke, ...).")
    ] = None,
    json: JsonOpt = False,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", metavar="FILE.imp", help="Write the games, as written, into one record file."),
    ] = None,
) -> None:
    """The games matching every filter given: path, position, date, event, players, totals.

    -o writes them as one record file, each game's text as it was read (comments
    kept), so the file validates as the originals did. Copies of a game are
    listed each time (imp archive dupes lists them).

    Examples:

      imp archive find --player Adam --player Betty --game bottle-imp

      imp archive find --finding revoke --since 2026-09-01

      imp archive find --event "café" -o cafe-games.imp
    """
    if json and output:
        shell.error("--json and -o cannot be used together")
        raise typer.Exit(EXIT_UNREADABLE)
    from imptools.archive.queries import find as run
    from imptools.archive.queries import find_to_dict, records_text

    filters = Filters(
        game=game,
        variant=variant,
        since=_date(since, "--since"),
        until=_date(until, "--until"),
        event=event,
        players=tuple(player or ()),
        finding=finding,
    )
    with _archive(db) as conn:
        rows = run(conn, filters)
    if output:
        from imptools.files import write_atomically

        try:
            write_atomically(output, records_text(rows))
        except OSError as exc:
            shell.error(f"cannot write {output}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_FOUND) from None
        print(f"{len(rows)} game{'s' if len(rows) != 1 else ''} written to {output}", file=sys.stderr)
    elif json:
        shell.print_json("archive-find", find_to_dict(rows))
    else:
        for r in rows:
            totals = "  ".join(f"{p} {r.totals[p]}" for p in r.players if p in r.totals)
            print(f"{r.path}:{r.index}  {r.date or '-'}  {r.event or '-'}  {r.game or '-'}  {totals}")
        print(f"{len(rows)} game{'s' if len(rows) != 1 else ''}", file=sys.stderr)


# --------------------------------------------------------------------------- dupes


@app.command(cls=HelpCommand)
def dupes(db: DbOpt = DEFAULT_DB, json: JsonOpt = False) -> None:
    """The games kept more than once: the same deals and plays under the same rules, whatever the comments.

    The original is the copy first by path and position in its file; the others
    are its copies. Tags that only describe a game (Date, Event ...) do not
    count, nor do comments, annotations and marks.

    Examples:

      imp archive dupes

      imp archive dupes --json | jq '.duplicates | length'
    """
    from imptools.archive.queries import dupes as run

    with _archive(db) as conn:
        found = run(conn)
    if json:
        shell.print_json("archive-dupes", found)
        return
    for d in found["duplicates"]:
        print(f"{d['original']['path']}:{d['original']['game']}")
        for c in d["copies"]:
            print(f"  copy {c['path']}:{c['game']}")
    n = len(found["duplicates"])
    print(f"{n} game{'s' if n != 1 else ''} kept more than once", file=sys.stderr)


# --------------------------------------------------------------------------- player


@app.command(cls=HelpCommand)
def player(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The player, as the Players tags write him.")],
    db: DbOpt = DEFAULT_DB,
    game: GameOpt = None,
    since: SinceOpt = None,
    until: UntilOpt = None,
    event: EventOpt = None,
    json: JsonOpt = False,
) -> None:
    """A player's record: by game and by season, partners and opponents, findings about him per 100 hands.

    Counted over distinct games (a game kept twice counts once). A season is the
    year of the game's Date tag. Against each opponent: the games he finished
    ahead of him and behind him. Then each game's own facts over his scored
    hands, as the game's rules count them (The Bottle Imp: hands ending with the
    bottle, coins per hand; Botifarra: trumps chosen, delegations, doublings
    called by his side and won; Ninety-nine: bids made exactly, declares and
    reveals made). Exit status 1 when the archive has no game of NAME.

    Examples:

      imp archive player Adam

      imp archive player Betty --game botifarra --since 2026-01-01 --json
    """
    from imptools.archive.queries import fact_text
    from imptools.archive.queries import player as run

    with _archive(db) as conn:
        record = run(
            conn, name, Filters(game=game, since=_date(since, "--since"), until=_date(until, "--until"), event=event)
        )
    if record is None:
        shell.error(
            f"no game of {name} in the archive" + (" with these filters" if game or since or until or event else "")
        )
        raise typer.Exit(EXIT_FOUND)
    if json:
        shell.print_json("archive-player", record)
        return
    from rich.table import Table

    console = shell.rich_console()
    table = Table(title=f"{name}")
    for heading in ("game", "season", "games", "hands", "wins", "points", "per hand"):
        table.add_column(heading, justify="left" if heading in ("game", "season") else "right")
    for r in record["games"]:
        table.add_row(
            r["game"], "all", *(str(r[k]) for k in ("games", "hands", "wins", "points")), f"{r['average']:.2f}"
        )
    for r in record["seasons"]:
        table.add_row(
            r["game"],
            r["season"] or "undated",
            *(str(r[k]) for k in ("games", "hands", "wins", "points")),
            f"{r['average']:.2f}",
        )
    console.print(table)
    for r in record["games"]:
        if r["facts"]:
            facts = Table(title=f"{r['game']} · {r['scored_hands']} scored hand{'s' if r['scored_hands'] != 1 else ''}")
            facts.add_column("fact", justify="left")
            facts.add_column("", justify="right")
            for f in r["facts"]:
                facts.add_row(f["label"], fact_text(f))
            console.print(facts)
    if record["partners"]:
        console.print(
            "partners: "
            + ", ".join(f"{p['player']} ({_games(p['games'])}, {p['wins']} won)" for p in record["partners"])
        )
    console.print(
        "opponents: "
        + ", ".join(
            f"{o['player']} ({_games(o['games'])}, ahead {o['ahead']}, behind {o['behind']})"
            for o in record["opponents"]
        )
    )
    if record["findings"]:
        console.print(
            "findings: "
            + ", ".join(
                f"{f['code']} {f['count']} ({f['per_100_hands']:.2f} per 100 hands)" for f in record["findings"]
            )
        )


# --------------------------------------------------------------------------- site


@app.command(cls=HelpCommand)
def site(
    out: Annotated[str, typer.Argument(metavar="OUT/", help="The folder to write the site into (made if missing).")],
    db: DbOpt = DEFAULT_DB,
    title: Annotated[
        str, typer.Option("--title", metavar="TEXT", help="The club's name, at the top of every page.")
    ] = "Club archive",
) -> None:
    """Write the archive as a static site: standings, a page per player with charts, every game's replay page.

    OUT/index.html holds the standings per game, over all seasons and season
    by season (a season is the year of the Date tag); games.html lists every
    game kept, each linked to its replay page (the page imp replay --html
    writes; a copy links to its original's); players.html leads to a page per
    player with his record, partners and opponents, two charts (points over
    time, finishing positions) and his games. No script, font or style comes
    from the network: open OUT from disk or put it on any web server. Files of
    the site's names in OUT are replaced; other files there are left alone.

    Examples:

      imp archive site club-site/

      imp archive site --db club.sqlite --title "Thursday club" /var/www/club/
    """
    from imptools.archive.site import build, count_pages

    with _archive(db) as conn, shell.progress(count_pages(conn)) as progress:
        bar = progress.add_task("writing the site", total=count_pages(conn)) if progress else None

        def done(page: str) -> None:
            if progress:
                progress.update(bar, advance=1, description=page)

        try:
            summary = build(conn, Path(out), title, done)
        except OSError as exc:
            shell.error(f"cannot write the site into {out}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_FOUND) from None
    print(
        f"{_count(summary.pages, 'page')} ({_count(summary.players, 'player')}, {_count(summary.games, 'game')}) "
        f"written to {out}; open {Path(out) / 'index.html'}"
    )
    for where in summary.replays_failed:
        print(
            f"{where}: no replay page (imptools could not replay it); its record is shown as written", file=sys.stderr
        )


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _games(n: int) -> str:
    return f"{n} game{'s' if n != 1 else ''}"


def run(args: list[str]) -> Any:
    """Run `imp archive ARGS...` (what `imptools.cli.app` calls)."""
    return app(args=args, prog_name="imp archive")
