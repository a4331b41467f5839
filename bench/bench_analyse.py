"""Time `imp analyse` on one core over simulated hands (four-player Bottle Imp unless told).

PYTHONPATH=. python bench/bench_analyse.py --hands 5 --from-trick 5   # every play of the last four tricks
PYTHONPATH=. python bench/bench_analyse.py --hands 3 --from-trick 3   # the last six tricks
PYTHONPATH=. python bench/bench_analyse.py --hands 3 --from-trick 1   # every play of a whole hand
PYTHONPATH=. python bench/bench_analyse.py --game ninety-nine --hands 10 --from-trick 1   # three players, nine tricks
PYTHONPATH=. python bench/bench_analyse.py --game botifarra --variant obligada --hands 10 --from-trick 7
PYTHONPATH=. python bench/bench_analyse.py --hands 10 --first 9:1 7:1 1:4 3:4   # the first plays of some hands
PYTHONPATH=. python bench/bench_analyse.py --seed 2 --hand 6 --from-trick 1   # one hand, dealt as in --hands 10
python bench/bench_analyse.py --tables                       # every Bottle Imp table, whole hands (20 or 5 each)
python bench/bench_analyse.py --tables --only 3-classic 5-teams --table-hands 2   # some tables, fewer hands
python bench/bench_analyse.py --tables --only 3-classic --halve   # MTD(f) halving the interval between two bounds
python bench/bench_analyse.py --tables --only 5-teams --gains-cap 6000000   # larger generations of Gains' tables

Each hand's line gives the positions the search visited (`nodes`), steadier than the seconds on a shared machine.
The first line says which Bottle Imp search runs: with `PYTHONPATH=.` the source tree's Python; without it (run
where `pip install .` compiled it, hatch_build.py) the installed one.
"""

from __future__ import annotations

import argparse
import statistics
import time

from imptools.analyse import analyse_hand, played_hand
from imptools.reader import read_games
from imptools.record import Game
from imptools.search import Search
from imptools.simulate import Options, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--from-trick", type=int, default=5)
    parser.add_argument("--hand", type=int, default=None, help="only this hand (dealt as with --hands)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--game", default="bottle-imp", help="bottle-imp, botifarra, or ninety-nine (always three players)"
    )
    parser.add_argument("--variant", default=None)
    parser.add_argument("--tag", action="append", default=[], help="NAME=VALUE, e.g. Teams=none")
    parser.add_argument(
        "--first",
        nargs="+",
        metavar="HAND:PLAYS",
        help="value only the first PLAYS plays of each HAND (a search of its own each), and print the positions",
    )
    parser.add_argument(
        "--tables",
        action="store_true",
        help="every Bottle Imp table (bench/tables.py): whole hands, each in a process of its own (its peak memory)",
    )
    parser.add_argument("--only", nargs="+", default=None, help="with --tables: these tables (e.g. 3-classic)")
    parser.add_argument("--table-hands", type=int, default=None, help="with --tables: hands per table (default 20/5)")
    parser.add_argument("--limit", type=float, default=300.0, help="with --tables: seconds of CPU a hand may take")
    parser.add_argument(
        "--halve",
        action="store_true",
        help="with --tables: once a value lies between two bounds, each probe halves the interval (`bisect`)",
    )
    parser.add_argument("--gains-cap", type=int, help="with --tables: entries a generation of `Gains`' tables")
    parser.add_argument("--escape-cap", type=int, help="with --tables: entries a generation of `Escape`'s tables")
    args = parser.parse_args()
    if args.tables:
        from tables import run_tables

        trials = ["--halve"] if args.halve else []
        trials += [f"--gains-cap={args.gains_cap}"] if args.gains_cap else []
        trials += [f"--escape-cap={args.escape_cap}"] if args.escape_cap else []
        run_tables(args.only, args.table_hands, args.seed, args.limit, trials)
        return
    import imptools.rules.bottle_imp.search as searched

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    print(f"search: {'compiled' if compiled else 'Python'} ({searched.__file__})")
    players = 3 if args.game == "ninety-nine" else args.players
    names = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")[:players]
    tags = tuple((name, value) for name, _, value in (t.partition("=") for t in args.tag))
    hands = args.hands if args.hand is None else args.hand
    opts = Options(args.game, names, args.variant, hands=hands, seed=args.seed, tags=tags)
    text = "".join(simulate(opts))
    (game,) = read_games(text)
    if args.first:
        first_plays(game, [tuple(int(x) for x in a.split(":")) for a in args.first])
        return
    times = []
    for hand in game.hands:
        if args.hand is not None and hand.number != args.hand:
            continue
        start = time.perf_counter()
        a = analyse_hand(game, hand.number, args.from_trick)
        took = time.perf_counter() - start
        times.append(took)
        print(f"hand {hand.number}: {len(a.plays)} plays, {a.nodes} nodes, {took:.3f} s")
    print(f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")


def first_plays(game: Game, wanted: list[tuple[int, ...]]) -> None:
    """Value the first plays of some hands as `analyse_hand` does (value before, the cards that keep it)."""
    total = 0
    start = time.perf_counter()
    for number, plays in wanted:
        found = played_hand(game, number)
        assert not isinstance(found, str), found
        pos = found.position
        search = Search(pos)
        began = time.perf_counter()
        for _, player, card in found.plays[:plays]:
            if pos.forced() is None:
                search.choices(player)
            pos.play(card)
        total += search.positions()
        print(f"hand {number}, first {plays} plays: {search.positions()} nodes, {time.perf_counter() - began:.2f} s")
    print(f"total {total} nodes, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
