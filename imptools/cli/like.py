"""`imp simulate --like FILE --hand N --seat NAME`: the options, and the recorded hand read to deal it again."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from imptools.cli import output as shell
from imptools.cli.inputs import STDIN, expand, read
from imptools.cli.output import EXIT_UNREADABLE
from imptools.files import shown

if TYPE_CHECKING:
    from imptools.simulate import Options

LikeOpt = Annotated[
    str | None,
    typer.Option(
        "--like",
        metavar="FILE",
        help="Deal a recorded hand again (with --hand and --seat; - for standard input): what the seat saw when the"
        " deal was complete is kept, the other cards are dealt at random, the rest is the bots'.",
    ),
]
HandOpt = Annotated[
    str | None,
    typer.Option(
        "--hand", metavar="N|GAME:N", help="With --like: the hand's number (GAME:N in a file of several games)."
    ),
]
SeatOpt = Annotated[
    str | None, typer.Option("--seat", metavar="NAME", help="With --like: the player whose view of the deal is kept.")
]


def liked(
    opts: Options,
    like: str | None,
    hand: str | None,
    seat: str | None,
    asked: tuple[str | None, str | None, str | None],
) -> Options:
    """`opts` made to deal the hand `--like --hand --seat` name again (`imptools.simulate.like`); `asked` holds
    `--game`, `--players` and `--variant` as given. Without `--like`, `opts` as they are (`--game` is needed then).
    A usage error or a record that cannot be read: exit 2."""
    from imptools.simulate import SimulationError
    from imptools.simulate import like as deal_like

    if like is None and hand is None and seat is None:
        if not asked[0]:
            shell.error("--game is needed (or --like FILE --hand N --seat NAME, to deal a recorded hand again)")
            raise typer.Exit(EXIT_UNREADABLE)
        return opts
    if like is None or hand is None or seat is None:
        shell.error(
            "--like FILE, --hand N and --seat NAME go together: the recorded hand to deal again, and whose view"
        )
        raise typer.Exit(EXIT_UNREADABLE)
    if like != STDIN and os.path.isdir(like):
        shell.error(f"--like {shown(like)}: a folder; --like takes one record file")
        raise typer.Exit(EXIT_UNREADABLE)
    inputs = expand([like])
    games = list(read(like, inputs))
    for finding in inputs.internal:
        shell.error(f"{shown(like)}: {finding.message}")
    if inputs.unreadable or inputs.internal:
        raise typer.Exit(EXIT_UNREADABLE)
    game, players, variant = asked
    try:
        return deal_like(games, hand, seat, opts, game, players, variant)
    except SimulationError as exc:
        shell.error(f"--like {'<stdin>' if like == STDIN else shown(like)}: {exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
