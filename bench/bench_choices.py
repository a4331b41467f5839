"""What the choices before the first card cost `imp analyse`: Botifarra's trump table and Ninety-nine's bids, one core.

PYTHONPATH=. python bench/bench_choices.py --hands 5 --limit 300              # every table
PYTHONPATH=. python bench/bench_choices.py --tables ninety-nine three --hands 5

Fresh hands from `imptools.simulate` (random bots; seed `--seed`). For each hand, in a child process of its own
(stopped after `--limit` CPU seconds), three runs of `analyse_hand` from trick 1 on the same hand: without the
choices (the hand's own analysis, `value_choices` left out), with them as `imp analyse` values them, and, for
Ninety-nine, with every bid (`--bids`). Each line gives the CPU seconds and the positions searched (`nodes`: the
same on any load) of each run; the summary the medians and the ratio of the choices' extra cost to the hand's own.
The first line says whether the installed search is compiled (run from the repository's root without
`PYTHONPATH` after `pip install .` to measure the compiled one).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import time
from multiprocessing.connection import Connection

import imptools.analyse as analyse
from imptools.reader import read_games
from imptools.record import Game
from imptools.simulate import Options, simulate

NAMES = ("Adam", "Betty", "Christian", "Doris")
TABLES: dict[str, tuple[str, int, str | None, tuple[tuple[str, str], ...]]] = {
    "ninety-nine": ("ninety-nine", 3, None, ()),
    "three": ("botifarra", 3, "obligada", ()),
    "obligada": ("botifarra", 4, "obligada", ()),
    "lliure": ("botifarra", 4, "lliure", ()),
    "carregar": ("botifarra", 4, "carregar", ()),
    "individual": ("botifarra", 4, "obligada", (("Teams", "none"),)),
    "rector-vicar": ("botifarra", 2, "rector-vicar", ()),
    "piles-and-hand": ("botifarra", 2, "piles-and-hand", ()),
}
"""Each table: game, players, variant, tags."""


def game_of(table: str, hands: int, seed: int) -> Game:
    name, players, variant, tags = TABLES[table]
    (game,) = read_games("".join(simulate(Options(name, NAMES[:players], variant, hands=hands, seed=seed, tags=tags))))
    return game


def timed(game: Game, hand: int, costly: bool) -> tuple[float, int, int]:
    cpu = time.process_time()
    a = analyse.analyse_hand(game, hand, 1, costly=costly)
    return time.process_time() - cpu, a.nodes, len(a.choices)


def child(game: Game, hand: int, costly: bool, limit: int, out: Connection) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))  # stopped by SIGXCPU past `limit` CPU seconds
    with_choices = timed(game, hand, False)
    every = timed(game, hand, True) if costly else None
    namespace = vars(analyse)  # where `analyse_hand` finds `value_choices`
    real = namespace["value_choices"]
    namespace["value_choices"] = lambda *args, **kwargs: ((), 0)
    try:
        alone = timed(game, hand, False)
    finally:
        namespace["value_choices"] = real
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.send((alone, with_choices, every, peak))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=list(TABLES))
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=300, help="CPU seconds a hand's runs may take before they stop")
    args = parser.parse_args()
    import imptools.rules.botifarra.position as searched

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    print(f"search: {'compiled' if compiled else 'Python'} ({searched.__file__})")
    ctx = mp.get_context("fork")
    for table in args.tables:
        game = game_of(table, args.hands, args.seed)
        costly = TABLES[table][0] == "ninety-nine"
        ratios: list[float] = []
        alones: list[float] = []
        withs: list[float] = []
        everys: list[float] = []
        for h in game.hands:
            mine, theirs = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=child, args=(game, h.number, costly, args.limit, theirs))
            proc.start()
            theirs.close()
            try:
                alone, with_choices, every, peak = mine.recv()
            except EOFError:
                print(f"{table} hand {h.number}: stopped past {args.limit} CPU s")
                proc.join()
                continue
            proc.join()
            line = (
                f"{table} hand {h.number}: alone {alone[0]:.2f} s {alone[1]} nodes; "
                f"with the choices ({with_choices[2]}) {with_choices[0]:.2f} s {with_choices[1]} nodes"
            )
            if every is not None:
                line += f"; --bids ({every[2]}) {every[0]:.2f} s {every[1]} nodes"
                everys.append(every[0])
            print(f"{line}; peak {peak:.0f} MB", flush=True)
            alones.append(alone[0])
            withs.append(with_choices[0])
            ratios.append(with_choices[0] / max(alone[0], 1e-9))
        if alones:
            summary = (
                f"{table}: median alone {statistics.median(alones):.2f} s, with the choices "
                f"{statistics.median(withs):.2f} s (x{statistics.median(ratios):.1f})"
            )
            if everys:
                every_median = statistics.median(everys)
                summary += f", --bids {every_median:.2f} s (x{every_median / statistics.median(alones):.1f})"
            print(summary, flush=True)


if __name__ == "__main__":
    main()
