"""Time `imp analyse` on one core over simulated hands (four-player Bottle Imp unless told).

PYTHONPATH=. python bench/bench_analyse.py --hands 5 --from-trick 5   # every play of the last four tricks
PYTHONPATH=. python bench/bench_analyse.py --hands 3 --from-trick 3   # the last six tricks
PYTHONPATH=. python bench/bench_analyse.py --hands 3 --from-trick 1   # every play of a whole hand
PYTHONPATH=. python bench/bench_analyse.py --game ninety-nine --hands 10 --from-trick 1   # three players, nine tricks
PYTHONPATH=. python bench/bench_analyse.py --game botifarra --variant obligada --hands 10 --from-trick 7

Each hand's line gives the positions the search visited (`nodes`), steadier than the seconds on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from imptools.analyse import analyse_hand
from imptools.reader import read_games
from imptools.simulate import Options, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--from-trick", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--game", default="bottle-imp", help="bottle-imp, botifarra, or ninety-nine (always three players)"
    )
    parser.add_argument("--variant", default=None)
    parser.add_argument("--tag", action="append", default=[], help="NAME=VALUE, e.g. Teams=none")
    args = parser.parse_args()
    players = 3 if args.game == "ninety-nine" else args.players
    names = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")[:players]
    tags = tuple((name, value) for name, _, value in (t.partition("=") for t in args.tag))
    opts = Options(args.game, names, args.variant, hands=args.hands, seed=args.seed, tags=tags)
    text = "".join(simulate(opts))
    (game,) = read_games(text)
    times = []
    for hand in game.hands:
        start = time.perf_counter()
        a = analyse_hand(game, hand.number, args.from_trick)
        took = time.perf_counter() - start
        times.append(took)
        print(f"hand {hand.number}: {len(a.plays)} plays, {a.nodes} nodes, {took:.3f} s")
    print(f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
