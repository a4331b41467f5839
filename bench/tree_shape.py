"""The shape of the search trees of whole hands: how often the first card tried cuts off, where the positions lie.

cd bench
python tree_shape.py --table lliure --hand 11              # Botifarra's solver (csolver.c), a partnership hand
python tree_shape.py --table 5-classic --hand 1 3 5        # the Bottle Imp's Escape and Gains (cescape.c)

The table's C search (the source the installed package ships, or `--source`) is compiled here with `-DTREE_COUNTS`
(as `solver_builds.py` compiles a build, `-O3` and the flags of `--flags`), put in place of the installed one, and
the hands are analysed from trick 1 as `imp analyse --jobs 1` analyses them (Botifarra with the trump table). Its
counts are then printed:

- Botifarra (three and four players): the positions by tricks left (the trick under way counted) and place in the
  trick; how each trick start ended (settled by the table's entry, settled by the bounds, searched with an entry,
  searched without); and, at the positions with more than one card to try, which card cut off (the first, the
  second, the third, the fourth or a later one) or that none did: the nodes where every card had to be tried.
- The Bottle Imp: the same cut-offs for `Escape` (by its question) and `Gains`, for the side asked about (whose cards
  cut off where it makes the answer) and for the players against it.

A search that tries its best card first nearly always is near the smallest tree its bounds and table allow: what is
left is the size of that tree, not the order (docs/PERFORMANCE.md). The two-player tables (`Duel`) are not counted.
Run after `pip install .`, from `bench/` or a copy of it, not the tree's root.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
from pathlib import Path
from typing import Any

import bench_botifarra
import solver_builds
import tables

import imptools.rules.botifarra.position as position
import imptools.rules.bottle_imp.search as search
from imptools.analyse import analyse_hand

SOURCES = {
    "csolver": Path(position.__file__).parent / "csolver.c",
    "cescape": Path(search.__file__).parent / "cescape.c",
}
"""Each C search's source as the installed package ships it: the one its compiled module was built from."""
START_ENDS = ("settled by the table", "settled by the bounds", "searched, with an entry", "searched, without one")


def share(counts: list[int]) -> str:
    """A row of cut-off counts (the first card to a later one, none) as the positions and each count's share."""
    total = sum(counts)
    if not total:
        return "-"
    cut = ", ".join(f"{100 * c / total:.1f}%" for c in counts[:5])
    return f"{total:,} positions: cut by card 1-4, later: {cut}; none: {100 * counts[5] / total:.1f}%"


def botifarra(counts: dict[str, Any]) -> list[str]:
    """The lines of a Botifarra solver's counts (`csolver.tree_counts()`), the most tricks left first."""
    positions, starts, cuts = counts["positions"], counts["starts"], counts["cuts"]
    total = sum(map(sum, positions)) or 1
    lines = [f"positions in all: {total:,}"]
    for tricks in range(12, 0, -1):
        here = sum(positions[tricks])
        if not here:
            continue
        places = " / ".join(f"{p:,}" for p in positions[tricks])
        lines.append(
            f"{tricks:2d} tricks left: {here:,} positions ({100 * here / total:.1f}%), by the trick's place {places}"
        )
        if sum(starts[tricks]):
            lines.append("    trick starts: " + ", ".join(f"{w} {c:,}" for w, c in zip(START_ENDS, starts[tricks])))
        for place, row in enumerate(cuts[tricks]):
            if sum(row):
                lines.append(f"    card {place + 1} of the trick: {share(row)}")
    return lines


def bottle_imp(counts: dict[str, Any]) -> list[str]:
    """The lines of the Bottle Imp's counts (`cescape.tree_counts()`)."""
    lines = []
    for question, rows in zip(("escape", "escape and gain a coin", "at most one bottle"), counts["escape"]):
        for side, row in zip(("the players against him", "the side asked about"), rows):
            if sum(row):
                lines.append(f"Escape ({question}), {side}: {share(row)}")
    for side, row in zip(("the players against him", "the side asked about"), counts["gains"]):
        if sum(row):
            lines.append(f"Gains, {side}: {share(row)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="obligada", help="a table of bench_botifarra.py or of tables.py")
    parser.add_argument("--hand", type=int, nargs="+", default=[1], help="hands of the table's game (seed's deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--flags",
        default="-mpopcnt,-mbmi2" if platform.machine() in ("x86_64", "AMD64") else "",
        help="compiler flags, comma-separated, after -O3 (default: -mpopcnt,-mbmi2 on x86-64, else none)",
    )
    parser.add_argument("--source", type=Path, help="the C source to count (default: the installed package's)")
    args = parser.parse_args()
    if args.table in bench_botifarra.TABLES:
        if bench_botifarra.TABLES[args.table][0] == 2:
            parser.error("the two-player tables (Duel) are not counted")
        module, show = "csolver", botifarra
        game: object = bench_botifarra.game_of(args.table, max(args.hand), args.seed)
    elif args.table in tables.TABLES:
        module, show = "cescape", bottle_imp
        game = tables.game_of(args.table, max(5, *args.hand), args.seed)
    else:
        parser.error(f"no table {args.table!r}: one of {', '.join([*bench_botifarra.TABLES, *tables.TABLES])}")
    flags = [f for f in args.flags.split(",") if f and (module == "csolver" or f != "-mbmi2")]
    with tempfile.TemporaryDirectory() as where:
        source = args.source or SOURCES[module]
        if not source.is_file():
            parser.error(f"no C source at {source}")
        searcher = solver_builds.build("counted", str(source), [*flags, "-DTREE_COUNTS"], Path(where), module)
        counted = solver_builds.LOADED["counted"]
        if module == "csolver":
            position.NATIVE_SOLVER = searcher
        else:
            search.NATIVE_LINES = searcher
        nodes = 0
        for hand in args.hand:
            nodes += analyse_hand(game, hand).nodes  # type: ignore[arg-type]
        print(f"{args.table} seed {args.seed} hands {' '.join(map(str, args.hand))}: {nodes:,} positions")
        for line in show(counted.tree_counts()):
            print(line)


if __name__ == "__main__":
    main()
