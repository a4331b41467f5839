"""What `imp analyse` and `imp replay --analyse` share: the options beyond the search itself (the knowing analysis,
`--knowing`, `--samples N|all`, `--seed S`, and what they ask; `--bids`, `--no-choices`) and the run of the hands
with a progress bar."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from imptools.cli import output as shell
from imptools.cli.output import EXIT_UNREADABLE

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rich.console import Console

    from imptools.analyse import HandAnalysis, KnowingAsk, Runner, Task

AnalyseJobsOpt = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        metavar="N",
        help="Hands (or one hand's worlds, or its other trumps) at once (default: cores).",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS", help="Send the hands (or the worlds) to this Dask scheduler."),
]
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
BidsOpt = Annotated[
    bool, typer.Option("--bids", help="Value every bid each player could have made (slower), not only his own.")
]
NoChoicesOpt = Annotated[
    bool,
    typer.Option(
        "--no-choices",
        help="Leave out the choices made before the first card (a trump table is most of a hand's search).",
    ),
]


def knowing_ask(knowing: bool, samples: str, seed: int) -> KnowingAsk | None:
    """What `--knowing --samples --seed` ask (None without `--knowing`); a bad `--samples` is a usage error."""
    from imptools.analyse import KnowingAsk

    text = samples.strip().lower()
    count = None if text == "all" else int(text) if text.isdigit() and int(text) > 0 else -1
    if count == -1:
        shell.error(f"--samples takes a number of worlds above 0, or all, not `{samples}`")
        raise typer.Exit(EXIT_UNREADABLE)
    return KnowingAsk(count, seed) if knowing else None


def choices_asked(bids: bool, no_choices: bool) -> bool:
    """Whether the choices made before the first card are valued (`--no-choices` leaves them out); `--bids` with
    `--no-choices` is a usage error: the one asks for more of what the other leaves out."""
    if bids and no_choices:
        shell.error("--bids values every bid and --no-choices leaves the bids out: give one of them")
        raise typer.Exit(EXIT_UNREADABLE)
    return not no_choices


def analysed(runner: Runner, tasks: Sequence[Task], console: Console | None = None) -> Iterator[HandAnalysis]:
    """The analyses of `tasks` in their order, with a progress bar on a terminal while they run (stderr, or
    `console` where it is one): the hands done, and where they are analysed in this process the plays of the hand
    under way (also where a cluster takes their worlds)."""
    with shell.progress(len(tasks), least=1, console=console) as progress:
        if not progress:
            yield from runner.results(tasks)
            return
        bar = progress.add_task(f"analysing {len(tasks)} hand{'s' if len(tasks) > 1 else ''}", total=len(tasks))

        def on_play(task: Task, done: int, total: int, stage: str) -> None:
            progress.update(bar, description=f"game {task.game.index}, hand {task.hand}: {stage} {done} of {total}")

        for result in runner.results(tasks, on_play):
            progress.update(bar, advance=1)
            yield result
