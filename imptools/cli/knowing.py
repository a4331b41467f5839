"""The options of the knowing analysis (`--knowing`, `--samples N|all`, `--seed S`) and what they ask."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from imptools.cli import output as shell
from imptools.cli.output import EXIT_UNREADABLE

if TYPE_CHECKING:
    from imptools.analyse import KnowingAsk

KnowingOpt = Annotated[
    bool,
    typer.Option("--knowing", help="Value each play on what its player knew too (the worlds he could be in)."),
]
SamplesOpt = Annotated[
    str,
    typer.Option(
        "--samples", metavar="N|all", help="With --knowing: worlds a play, drawn at random, or all of them (exact)."
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", metavar="S", help="With --knowing: the seed of the worlds drawn.")]


def knowing_ask(knowing: bool, samples: str, seed: int) -> KnowingAsk | None:
    """What `--knowing --samples --seed` ask (None without `--knowing`); a bad `--samples` is a usage error."""
    from imptools.analyse import KnowingAsk

    text = samples.strip().lower()
    count = None if text == "all" else int(text) if text.isdigit() and int(text) > 0 else -1
    if count == -1:
        shell.error(f"--samples takes a number of worlds above 0, or all, not `{samples}`")
        raise typer.Exit(EXIT_UNREADABLE)
    return KnowingAsk(count, seed) if knowing else None
