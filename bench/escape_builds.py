"""The Bottle Imp's `cescape.c` (`Escape` and `Gains`) built several ways, alternated hand by hand in one process on
whole hands of a Bottle Imp table (bench/tables.py's), one core.

cd bench && E=../imptools/rules/bottle_imp/cescape.c
git show main:imptools/rules/bottle_imp/cescape.c > /tmp/main-cescape.c
python escape_builds.py main=/tmp/main-cescape.c:-mpopcnt this=$E:-mpopcnt --table 5-teams --hands 1 3
python escape_builds.py plain=$E:-mpopcnt trial=/tmp/copy.c:-mpopcnt,-DTRIAL=1 --table 2-eye-of-the-demon --hands 1

Each build is `NAME=SOURCE:FLAGS`, before the options (FLAGS comma-separated, after `-O3`), compiled as
`solver_builds.py` compiles Botifarra's; `imptools.rules.bottle_imp.search.NATIVE_LINES` is pointed at each build's
`Lines` in turn, and each hand is analysed from trick 1 as `imp analyse --jobs 1` analyses it. Per hand and build:
the positions visited (`nodes`, which do not move with the machine's load) and the CPU seconds; a line says where
builds valued a hand's plays otherwise (a build that changed only the order of the cards tried must value them
alike). Run after `pip install .`, from `bench/`, not the tree's root.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from solver_builds import build
from tables import game_of

import imptools.rules.bottle_imp.search as search
from imptools.analyse import analyse_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="5-classic", help="a table of bench/tables.py, e.g. 5-teams")
    parser.add_argument("--hands", type=int, nargs="+", default=[1], help="hands of the table's game (seed's deal)")
    parser.add_argument("--count", type=int, default=5, help="hands in the table's game (as bench_analyse.py deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("builds", nargs="+", metavar="NAME=SOURCE:FLAGS")
    args = parser.parse_args()
    game = game_of(args.table, max(args.count, *args.hands), args.seed)
    totals: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as where:
        classes: dict[str, Any] = {}
        for spec in args.builds:
            name, _, rest = spec.partition("=")
            source, _, flags = rest.rpartition(":")
            classes[name] = build(name, source, [f for f in flags.split(",") if f], Path(where), "cescape")
            totals[name] = [0, 0.0]
        for hand in args.hands:
            found: dict[str, object] = {}
            for name, lines in classes.items():
                search.NATIVE_LINES = lines
                began = time.process_time()
                analysis = analyse_hand(game, hand)  # type: ignore[arg-type]
                took = time.process_time() - began
                totals[name][0] += analysis.nodes
                totals[name][1] += took
                found[name] = analysis.plays
                print(f"{args.table} hand {hand}: {name} {analysis.nodes:,} positions, {took:.2f} s CPU", flush=True)
            differ = [n for n in found if found[n] != next(iter(found.values()))]
            if differ:
                print(f"  values differ: {differ}")
    for name, (nodes, took) in totals.items():
        print(f"all hands: {name} {int(nodes):,} positions, {took:.1f} s CPU")


if __name__ == "__main__":
    main()
