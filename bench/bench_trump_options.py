"""Where a Botifarra hand's positions go in `imp analyse`: each trump option's value against the plays', one core.

python bench/bench_trump_options.py --table obligada --hand 2                 # the slow hand of bench_botifarra
python bench/bench_trump_options.py --table lliure --hand 1 --partition on    # with partition entries
python bench/bench_trump_options.py --table lliure --hand 1 --cap 3145727     # tables of another capacity
python bench/bench_trump_options.py --table rector-vicar --hand 2 --duel-slots 67108864   # a larger `Duel` table
python bench/bench_trump_options.py --table obligada --hand 11 --windows      # each option's null windows

One hand of `bench_botifarra.py`'s games (same tables and seed) valued as `imp analyse --jobs 1` values it from
trick 1, in this process; each option of the trump table is shown with its value, the positions its search visited
and its CPU seconds (the option taken: the first value of the hand's own search, whose tables the plays share), then
the hand's total: the plays' share is what is left. Run after `pip install .` from outside the tree to measure the
compiled search. Each option's line ends with its solver's table: for `Solver` the times a generation became the
older (`turns`: entries dropped) and the entries of each side's newer and older generations; for `Duel` the slots
taken of its slots (it doubles while more than a quarter are taken, up to its most). With `--windows`, a line under
each option gives the null windows of its value in the order asked, each as "b: the bound returned (positions)": "is
the value at least b?" (the side's points from the trick the window was asked at; with two players, `Duel`'s sum of
twice the card points and the tricks, from the trick the window was asked at).
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_botifarra import TABLES, game_of

import imptools.analyse as analyse
import imptools.choices as choices
import imptools.rules.botifarra.position as position
from imptools.rules.base import Decision, SearchPosition
from imptools.search import Search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="obligada", choices=list(TABLES))
    parser.add_argument("--hand", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partition", choices=["on", "off"], help="the solver's partition entries (default: its own)")
    parser.add_argument("--cap", type=int, help="entries a generation of the solver's tables (default: SOLVER_CAP)")
    parser.add_argument("--duel-slots", type=int, help="the most slots of `Duel`'s table (default: DUEL_SLOTS)")
    parser.add_argument("--duel-exact", type=int, help="the most exact values `Duel` works out (default: DUEL_EXACT)")
    parser.add_argument("--windows", action="store_true", help="each option's null windows")
    args = parser.parse_args()
    asked: dict[int, list[tuple[int, int, int]]] = {}  # a solver's windows: (b, the bound returned, positions)
    if args.windows:

        def logged(real: Any) -> Any:
            """A class of solvers like `real` whose every window (`gain`) is written down, for the option whose search
            made it."""

            class Logged:
                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    self.solver = real(*args, **kwargs)
                    asked[id(self)] = []

                def gain(self, *args: Any) -> int:
                    before = self.solver.nodes
                    got: int = self.solver.gain(*args)
                    asked[id(self)].append((args[-1], got, self.solver.nodes - before))
                    return got

                def __getattr__(self, name: str) -> Any:
                    return getattr(self.solver, name)

            return Logged

        # the classes `position.new_solver` and `position._duel` make, read at each call
        setattr(position, "NATIVE_SOLVER", logged(position.NATIVE_SOLVER or position.Solver))  # noqa: B010
        setattr(position, "Duel", logged(position.Duel))  # noqa: B010
    if args.partition:
        position.PARTITION = args.partition == "on"
    position.CAP = args.cap
    position.DUEL_MOST = args.duel_slots
    if args.duel_exact is not None:
        position.DUEL_EXACT = args.duel_exact

    def windows(s: Search) -> str:
        """With `--windows`, the null windows `s`'s solver was asked so far, on a line of their own."""
        solver = getattr(s.position, "_solver", None) or getattr(s.position, "_duel_solver", None)
        if solver is None or id(solver) not in asked:
            return ""
        return "\n    windows: " + ", ".join(f"{b}: {got} ({count:,})" for b, got, count in asked[id(solver)])

    def table(s: Search, asked_too: bool = True) -> str:
        """The table of the solver `s`'s position asks, as it stands (before `close` drops it), and its windows."""
        pos: Any = s.position
        solver = getattr(pos, "_solver", None)
        if solver is not None:
            sizes = " ".join(f"{n}+{o}" for n, o in sorted(solver.sizes().values())) if hasattr(solver, "sizes") else ""
            return f"; table: {solver.turns} turns, cap {solver.cap}, entries {sizes}{windows(s) if asked_too else ''}"
        duel = getattr(pos, "_duel_solver", None)
        if duel is not None:
            taken, slots = duel.taken, len(duel.keys) if hasattr(duel, "keys") else duel.slots
            return f"; table: {taken} of {slots} slots taken (most {duel.most}){windows(s) if asked_too else ''}"
        return ""

    valued = choices.value_choices
    lines: list[str] = []
    searched: list[Search] = []  # the hand's own search (the option taken), whose tables the plays share

    def value_choices(
        decisions: Sequence[Decision],
        search: Search,
        new_search: Callable[[SearchPosition], Search],
        costly: bool,
        told: choices.Told | None = None,
        elsewhere: choices.Elsewhere | None = None,
    ) -> tuple[tuple[choices.ChoiceValue, ...], int]:
        spent: list[tuple[int, float, str]] = []
        searched.append(search)

        def timed(start: SearchPosition) -> Search:
            s = new_search(start)
            began = time.process_time()
            plain = s.value

            def value(*args: Any) -> int:
                v = plain(*args)
                spent.append((s.positions(), time.process_time() - began, table(s)))
                return v

            setattr(s, "value", value)  # noqa: B010 (the search's own method, timed)
            return s

        began = time.process_time()
        out, nodes = valued(decisions, search, timed, costly, told, elsewhere)
        cpu = time.process_time() - began
        others = iter(spent)
        for c in out:
            count, took, kept = (
                (search.positions(), cpu - sum(t for _, t, _ in spent), table(search)) if c.made else next(others)
            )
            lines.append(
                f"  {c.option}: value {c.value}, {count} positions, {took:.2f} s CPU{' (taken)' * c.made}{kept}"
            )
        lines.append(f"  the trump table: {nodes + search.positions()} positions, {cpu:.2f} s CPU")
        return out, nodes

    setattr(analyse, "value_choices", value_choices)  # noqa: B010 (what `analyse_hand` calls, timed)
    game = game_of(args.table, args.hand, args.seed)
    began = time.process_time()
    a = analyse.analyse_hand(game, args.hand)
    cpu = time.process_time() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    part = "on" if position.PARTITION else "off"
    print(f"{args.table} seed {args.seed} hand {args.hand} (partition entries {part}):")
    print("\n".join(lines))
    print(f"  the whole hand: {len(a.plays)} plays, {a.nodes} positions, {cpu:.2f} s CPU, peak {peak:.0f} MB")
    print(f"  at the end{table(searched[-1], asked_too=False) if searched else ''}")


if __name__ == "__main__":
    main()
