"""Where a Botifarra hand's positions go in `imp analyse`: each trump option's value against the plays', one core.

python bench/bench_trump_options.py --table obligada --hand 2                 # the slow hand of bench_botifarra
python bench/bench_trump_options.py --table lliure --hand 1 --partition on    # with partition entries

One hand of `bench_botifarra.py`'s games (same tables and seed) valued as `imp analyse --jobs 1` values it from
trick 1, in this process; each option of the trump table is shown with its value, the positions its search visited
and its CPU seconds (the option taken: the first value of the hand's own search, whose tables the plays share), then
the hand's total: the plays' share is what is left. Run after `pip install .` from outside the tree to measure the
compiled search.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_botifarra import game_of

import imptools.analyse as analyse
import imptools.choices as choices
import imptools.rules.botifarra.position as position
from imptools.analyse import Search
from imptools.rules.base import Decision, SearchPosition


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="obligada", choices=["obligada", "lliure", "carregar"])
    parser.add_argument("--hand", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--partition", choices=["on", "off"], help="the solver's partition entries (default: its own)")
    args = parser.parse_args()
    if args.partition:
        position.PARTITION = args.partition == "on"
    valued = choices.value_choices
    lines: list[str] = []

    def value_choices(
        decisions: Sequence[Decision], search: Search, new_search: Callable[[SearchPosition], Search], costly: bool
    ) -> tuple[tuple[choices.ChoiceValue, ...], int]:
        spent: list[tuple[int, float]] = []

        def timed(start: SearchPosition) -> Search:
            s = new_search(start)
            began = time.process_time()
            plain = s.value

            def value(*args: Any) -> int:
                v = plain(*args)
                spent.append((s.positions(), time.process_time() - began))
                return v

            setattr(s, "value", value)  # noqa: B010 (the search's own method, timed)
            return s

        began = time.process_time()
        out, nodes = valued(decisions, search, timed, costly)
        cpu = time.process_time() - began
        others = iter(spent)
        for c in out:
            count, took = (search.positions(), cpu - sum(t for _, t in spent)) if c.made else next(others)
            lines.append(f"  {c.option}: value {c.value}, {count} positions, {took:.2f} s CPU{' (taken)' * c.made}")
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


if __name__ == "__main__":
    main()
