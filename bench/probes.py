"""Where a whole hand's positions go, value by value: the null windows (probes) of each value `imp analyse` asks.

python bench/probes.py 3-classic 2                 # seed 1's three-player hand 2, every value over 100,000 positions
python bench/probes.py 3-classic 2 --guess 2=72    # the third value asked started from 72 (a first guess)
python bench/probes.py 3-classic 1 --top           # each player's first value started from his upper bound
python bench/probes.py 5-teams 4 --live            # each probe as it returns (a hand too slow to wait for)
python bench/probes.py 5-teams 2 --halve           # between two bounds, each probe halves the interval
python bench/probes.py 6-second-bottle 4 --plays   # each play: its values, its card's check, the other cards'

The hand is dealt as `bench/tables.py` deals it (seed 1 unless told) and analysed whole, every play, as
`analyse_hand` does. Each value asked with the whole window (`Search.value`, MTD(f)) is printed with its number
(the order asked, for `--guess`), the player, the value he had before (None for his first), the value found, its
positions, and each probe as (b, the bound returned, positions): "is the value at least b?". `--guess N=V` starts
value N from V instead of the player's last value; `--top` starts each player's first value from the position's
upper bound (`bounds`). `--halve` sets the position's `bisect` (as Botifarra's has it): once the value lies between
two bounds, each probe halves the interval instead of starting from the bound the last one returned. `--live`
prints each probe (of a value or of a windowed question) of at least `--min` positions as it returns, with the CPU
seconds so far, and each value once found, for a hand that would not end in time. `--plays` prints instead, for
each play of at least `--min` positions, where they went: the player's values (before the play, and after it where
the card cost something), the check of the card he played and the checks of his other cards (`Search.choices`
checks each to name the cards that keep the value), and the three totals. Run where the compiled search is
installed (from outside the source tree); the search itself is not changed, only where MTD(f) starts and how it
steps.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from tables import game_of, trial  # bench/tables.py, beside this script

import imptools.analyse as analyse
import imptools.search as search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", help="a table of bench/tables.py, e.g. 3-classic")
    parser.add_argument("hand", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--guess", nargs="*", default=[], metavar="N=V", help="start value N (from 0) at V")
    parser.add_argument("--top", action="store_true", help="first values from the upper bound (`bounds`)")
    parser.add_argument("--min", type=int, default=100_000, help="print values of at least this many positions")
    parser.add_argument("--halve", action="store_true", help="between two bounds, probe the middle (`bisect`)")
    parser.add_argument("--live", action="store_true", help="print each probe as it returns, each value once found")
    parser.add_argument("--plays", action="store_true", help="each play's value, its card's check, the others' checks")
    args = parser.parse_args()
    if args.plays:
        plays(args.table, args.hand, args.seed, args.min)
        return
    guesses = {int(n): int(v) for n, v in (g.split("=") for g in args.guess)}
    values: list[tuple[int, str, int | None, int, int, list[tuple[int, int, int]]]] = []
    probes: list[tuple[int, int, int]] = []
    INF = search.INF
    searcher = search.Search._searcher
    trial(["--halve"] if args.halve else [])  # `bench_analyse.py --tables --halve`'s own setting
    value = search.Search.value

    def logged_searcher(self: search.Search, player: str) -> Callable[[int, int], int]:
        search = searcher(self, player)

        def probe(alpha: int, beta: int) -> int:
            before = self.positions()
            g = search(alpha, beta)
            probes.append((beta, g, self.positions() - before))
            if args.live and probes[-1][2] >= args.min:
                print(f"  {player} at least {beta}? {g} ({probes[-1][2]:,}) [{time.process_time():.1f} s]", flush=True)
            return g

        return probe

    def logged_value(self: search.Search, player: str, alpha: int = -INF, beta: int = INF, **kw: Any) -> int:
        if alpha > -INF or beta < INF:
            return value(self, player, alpha, beta, **kw)
        number = len(values)
        last = self.last.get(self.voice(player))  # a side's last value
        guess = guesses.get(number)
        if guess is None and args.top and last is None:
            guess = self.position.bounds(player)[1]  # type: ignore[attr-defined]
        probes.clear()
        before = self.positions()
        v = value(self, player, guess=guess)
        values.append((number, player, last, v, self.positions() - before, list(probes)))
        if args.live and values[-1][4] >= args.min:
            print(f"value {number}: {player} (before {last}) {v}, {values[-1][4]:,} positions", flush=True)
        return v

    search.Search._searcher = logged_searcher  # type: ignore[method-assign]
    search.Search.value = logged_value  # type: ignore[method-assign,assignment]
    game = game_of(args.table, 20 if args.table.startswith("4") else 5, args.seed)
    start = time.process_time()
    a = analyse.analyse_hand(game, args.hand, 1)  # type: ignore[arg-type]
    print(f"{args.table} hand {args.hand}: {a.nodes:,} positions, {time.process_time() - start:.2f} s of CPU")
    for number, player, last, v, positions, asked in values:
        if positions >= args.min:
            shown = ", ".join(f"{b}: {g} ({k:,})" for b, g, k in asked)
            print(f"{number} {player} (before {last}) {v}, {positions:,} positions: {shown}")


def plays(table: str, hand: int, seed: int, least: int) -> None:
    """Each play's positions as `analyse_hand` spends them, split three ways: the player's values (the value before
    the play, and after it where the card cost something), the check of the card played ("does it keep the value?")
    and the checks of his other cards (`Search.choices`, which names the cards that keep the value)."""
    game = game_of(table, 20 if table.startswith("4") else 5, seed)
    found = analyse.played_hand(game, hand)  # type: ignore[arg-type]
    assert not isinstance(found, str), found
    pos = found.position
    s = search.Search(pos)
    totals = [0, 0, 0]
    start = time.process_time()
    for trick, player, card in found.plays:
        if pos.forced() is None:
            spent = [0, 0, 0]
            before = s.positions()
            value = s.value(player)
            spent[0] = s.positions() - before
            kept = False
            before = s.positions()
            for group, holds in s.checks(player, value):  # as `Search.choices` checks them
                spent[1 if card in group else 2] += s.positions() - before
                before = s.positions()
                kept = kept or (holds and card in group)
            if not kept:  # the card cost something: its value after it (`Search.after`)
                before = s.positions()
                s.after(player, card)
                spent[0] += s.positions() - before
            totals = [t + k for t, k in zip(totals, spent, strict=True)]
            if sum(spent) >= least:
                print(
                    f"trick {trick} {player} {pos.spell(card)}: values {spent[0]:,}, its card {spent[1]:,}, "
                    f"the others {spent[2]:,}"
                )
        pos.play(card)
    print(
        f"{table} hand {hand}: {s.positions():,} positions, {time.process_time() - start:.2f} s of CPU; "
        f"values {totals[0]:,}, the cards played {totals[1]:,}, the other cards {totals[2]:,}"
    )


if __name__ == "__main__":
    main()
