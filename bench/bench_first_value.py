"""The first value of Botifarra hands from `bench_botifarra.py`'s games, with partition entries off or on: positions.

python bench/bench_first_value.py --hands 1 2 3 4                     # partnership `obligada`, seed 1, off
python bench/bench_first_value.py --hands 3 --partition on            # the same with partition entries
PYTHONPATH=. python bench/bench_first_value.py --from-trick 3         # at trick 3's start (the record's plays)

Each hand's first value for the player on lead (`Search(pos).value(pos.to_move())`, as `imp analyse` asks it
first), the solver given to the hand's start beforehand (`position.new_solver`: the one written in C where it was
built, else the Python class; `--partition on` or `off` sets partition entries, else the classes' default); the line
gives the value, the positions the solver visited (the same on any load and in either solver), its partition hits,
the CPU seconds and the peak memory. Run after `pip install .` from outside the tree to measure the compiled solver.
"""

from __future__ import annotations

import argparse
import resource
import time

from bench_botifarra import TABLES, game_of

from imptools.analyse import played_hand
from imptools.rules.botifarra.position import SearchBotifarra, new_solver
from imptools.search import Search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="obligada", choices=[t for t, (n, _, _) in TABLES.items() if n > 2])
    parser.add_argument("--hands", nargs="+", type=int, default=[1, 2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partition", choices=["on", "off"], help="partition entries (default: the solver's)")
    parser.add_argument("--from-trick", type=int, default=1, help="value the position at this trick's start")
    args = parser.parse_args()
    game = game_of(args.table, max(args.hands), args.seed)
    for hand in args.hands:
        found = played_hand(game, hand)
        assert not isinstance(found, str), found
        pos = found.position
        assert isinstance(pos, SearchBotifarra)
        for _, _, card in found.plays[: (args.from_trick - 1) * pos.per_trick]:
            pos.play(card)
        # the solver `answer` would make (the one written in C where it was built)
        part = None if args.partition is None else args.partition == "on"
        solver = pos._solver = new_solver(pos.rules, pos.trump, pos.partner, part)
        cpu = time.process_time()
        value = Search(pos).value(pos.to_move())
        cpu = time.process_time() - cpu
        hits = solver.phits
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{args.table} hand {hand}: value {value}, {solver.nodes} positions, {hits} partition hits, "
            f"{cpu:.2f} s CPU, peak {peak:.0f} MB (so far)",
            flush=True,
        )


if __name__ == "__main__":
    main()
