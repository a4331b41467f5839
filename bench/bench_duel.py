"""Each trump's first value of a two-player Botifarra hand, as `imp analyse` asks it, with the positions it took.

PYTHONPATH=. python bench/bench_duel.py                                   # rector-vicar, seed 1, hand 1, every trump
python bench/bench_duel.py --variant piles-and-hand --hand 2 --trick 7 --trumps botifarra --verbose   # compiled
python bench/bench_duel.py --chain      # each trump from the value of the one before
python bench/bench_duel.py --python     # the Python class even where the build made the C one
python bench/bench_duel.py --exact 67108864 --exact-after 0   # the C class's exact values, worked out at once

A simulated hand (`imptools.simulate`, seed `--seed`) played by the record to trick `--trick`; from there, for each
trump of the trump table (the same cards, `search.TRUMPS`, `search.start_cards`), a fresh `Duel` is asked the value
of the player to move by the null windows `search.Search.value` asks (on the count, from 0 by doubling steps, then
halving), each window's positions with `--verbose`. With `--chain`, in the order `imp analyse` values the trump
table (`imptools.choices`: the trumps not named first, in the table's order, then the named one), each from the
value of the one before (the first from 0), a first guess tried and not kept (docs/PERFORMANCE.md). Positions are
the figures to read on a shared machine. The solver is the one `imp analyse` uses (`position.Duel`: the C port
`cduel.Duel` where the build made it, the first line says which), or `duel.Duel` with `--python`. It searches
without the table of exact values unless `--exact` gives its size (the analysis's: `position.DUEL_EXACT`), worked
out after `--exact-after` positions (the solver's own rule where not given); each trump's line then says how many
values it worked out.
"""

from __future__ import annotations

import argparse
import time

from imptools.analyse import played_hand
from imptools.reader import read_games
from imptools.rules.botifarra import duel as python_duel
from imptools.rules.botifarra.duel import count_of, least_sum
from imptools.rules.botifarra.position import Duel, SearchBotifarra
from imptools.rules.botifarra.search import TRUMPS, start_cards
from imptools.simulate import Options, simulate

INF = 1 << 40


def first_value(
    pos: SearchBotifarra, player: str, verbose: bool, guess: int = 0, solver: type[Duel] = Duel, **exact: int
) -> tuple[int, int, int]:
    """The player's count from `pos`, the positions a fresh `solver` visited for it, the windows starting at
    `guess`, and the exact values it worked out (`exact`: the C class's `exact` and `exact_after`)."""
    duel = solver(pos.rules, pos.trump, pos.under, **exact)
    seat = pos.seat[player]
    tricks = sum(pos.tricks) + pos.live.bit_count() // 2
    total = 2 * (pos.live_points + sum(pos.card_points)) + tricks
    first = seat == 0
    banked = 2 * pos.card_points[seat] + pos.tricks[seat]

    def search(alpha: int, beta: int) -> int:
        low = least_sum(total, tricks, first, alpha + 1) - 1
        high = least_sum(total, tricks, first, beta)
        before = duel.nodes
        state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat)
        got = banked + duel.gain(*state, low - banked, high - banked)
        if verbose:
            print(f"    at least {high} (sum)? {got}, {duel.nodes - before:,} positions")
        return count_of(total, tricks, first, min(max(got, 0), total))

    lower, upper, b, step = -INF, INF, guess, 1
    while lower < upper:
        g = search(b - 1, b)
        if g < b:
            upper = g
        else:
            lower = g
        if lower >= upper:
            break
        b = lower + step if upper == INF else upper + 1 - step if lower == -INF else (lower + upper + 1) // 2
        step *= 2
    return lower, duel.nodes, getattr(duel, "exact", 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="rector-vicar", choices=["rector-vicar", "piles-and-hand"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hand", type=int, default=1)
    parser.add_argument("--trick", type=int, default=1)
    parser.add_argument("--trumps", nargs="+", default=[word for word, _ in TRUMPS])
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--chain", action="store_true", help="each trump from the value before, the named last")
    parser.add_argument("--python", action="store_true", help="duel.Duel even where the C solver is built")
    parser.add_argument("--exact", type=int, default=0, help="the most exact values the C solver works out")
    parser.add_argument("--exact-after", type=int, help="the positions it searches first (default: its own rule)")
    args = parser.parse_args()
    solver: type[Duel] = python_duel.Duel if args.python else Duel  # type: ignore[assignment]
    exact = {} if args.python or not args.exact else {"exact": args.exact}
    if exact and args.exact_after is not None:
        exact["exact_after"] = args.exact_after
    print(f"solver: {solver.__module__}.{solver.__name__}")
    opts = Options("botifarra", ("Adam", "Betty"), args.variant, hands=args.hand, seed=args.seed)
    (game,) = read_games("".join(simulate(opts)))
    found = played_hand(game, args.hand)
    if isinstance(found, str):
        raise SystemExit(found)
    named = found.position
    assert isinstance(named, SearchBotifarra)
    for trick, _, card in found.plays:
        if trick >= args.trick:
            break
        named.play(card)
    held, piles = start_cards(named)
    order = named.order[named.leader :] + named.order[: named.leader]
    chosen = named.trump if named.trump >= 0 else None
    trumps = [(w, t) for w, t in TRUMPS if w in args.trumps]
    if args.chain:
        trumps.sort(key=lambda wt: wt[1] == chosen)
    guess = 0
    for word, trump in trumps:
        pos = SearchBotifarra(named.setup, order, trump, held, piles)
        player = pos.to_move()
        cpu = time.process_time()
        value, nodes, values = first_value(pos, player, args.verbose, guess, solver, **exact)
        guess = value if args.chain else 0
        mark = " (named)" if trump == chosen else ""
        worked = f", {values:,} exact values" if exact else ""
        print(f"{word}{mark}: {player} {value}, {nodes:,} positions{worked}, {time.process_time() - cpu:.2f} s CPU",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
