"""How much better `--bot pimc` plays than `--bot greedy`: matches with the seats rotated, the mean score difference.

python bench/bench_bots.py --hands 600                       # every game, 600 hands each
python bench/bench_bots.py --games ninety-nine --hands 100 --think 0.1 --worlds 8 --jobs 2
python bench/bench_bots.py --games bright-house eye-of-the-demon --hands 300   # the Bottle Imp's two-pack tables
python bench/bench_bots.py --games lopaka --hands 300 --choices both   # Lopaka's table (his seat is the rules')
python bench/bench_bots.py --games bottle-imp-3 --hands 150 --jobs 1              # the Bottle Imp with three players
python bench/bench_bots.py --games bottle-imp-6 --hands 300 --jobs 1 --diffs six.json   # each hand's figure kept
python bench/bench_bots.py --games ninety-nine --hands 150 --jobs 1 --choices both   # bids by worlds, or greedy's

Each hand is a fresh simulated deal (`imp simulate`'s own code, seed `--seed` + the hand's number) played with
`pimc` in some seats and `greedy` in the others; the seats turn from hand to hand, so that every seat (and so
the lead and the deal) falls to each bot alike. A game of sides (Botifarra's partnerships) gives `pimc` one whole
side. The figure of a hand is the `pimc` seats' mean score less the `greedy` seats' mean score, as the checker
scores the hand (the `score` line); `--choices` says how the `pimc` seats make their choices before the first
card (bids, trump, doublings: by worlds, or the better bot's; `both` plays each hand both ways and gives the paired
difference too); the line of a game gives the mean over the hands with a 95% interval (the
normal one: 1.96 standard errors), and how long it took (wall, and the CPU seconds of the hands themselves). Run
it from outside the repository after `pip install .` to measure the compiled search.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from imptools.rules import get_ruleset
from imptools.simulate import Options, simulate

SIX = ("Adam", "Betty", "Christian", "Doris", "Ernest", "Fanny")

TABLES: dict[str, tuple[str, tuple[str, ...], str | None, int, tuple[tuple[str, str], ...]]] = {
    "bottle-imp": ("bottle-imp", SIX[:4], None, 1, ()),
    "botifarra": ("botifarra", SIX[:4], None, 2, ()),
    "ninety-nine": ("ninety-nine", SIX[:3], None, 1, ()),
    "bottle-imp-3": ("bottle-imp", SIX[:3], None, 1, ()),
    "bottle-imp-5": ("bottle-imp", SIX[:5], None, 1, ()),
    "bottle-imp-6": ("bottle-imp", SIX, None, 1, ()),
    "bottle-imp-teams-6": ("bottle-imp", SIX, "teams", 3, ()),
    "bright-house": ("bottle-imp", SIX[:2], "bright-house", 1, ()),
    "eye-of-the-demon": ("bottle-imp", SIX[:2], "eye-of-the-demon", 1, ()),
    "lopaka": ("bottle-imp", (*SIX[:2], "Lopaka"), "lopaka", 1, ()),
    "botifarra-individual": ("botifarra", SIX[:4], None, 1, (("Teams", "none"),)),
    "botifarra-3": ("botifarra", SIX[:3], None, 1, ()),
    "botifarra-rector-vicar": ("botifarra", SIX[:2], "rector-vicar", 1, ()),
    "botifarra-piles-and-hand": ("botifarra", SIX[:2], "piles-and-hand", 1, ()),
}
"""Each table: its game, players, variant, how many seats apart the `pimc` seats are repeated (2: partners
opposite; 3: the six-player Bottle Imp's teams, seats 0 and 3 from the dealer and so on, which the dealer's
turning keeps together) and its other tags. The first three (one a game) are run by default; the others when asked
(`--games`)."""


def one_hand(
    table: str, number: int, seed: int, think: float, worlds: int, choices: bool | None = None
) -> tuple[float, float]:
    """The score difference of hand `number`: the `pimc` seats' mean less the `greedy` seats' (`choices`: the
    `pimc` seats make their choices before the first card by worlds, else the better bot's), and the CPU seconds
    it took."""
    cpu = time.process_time()
    game, players, variant, sides, tags = TABLES[table]
    ruleset = get_ruleset(game)
    automatic = set(ruleset.named_seats(variant)) if ruleset is not None else set()
    seated = [i for i, p in enumerate(players) if p not in automatic]  # the seats the rules play are no bot's
    n = len(seated)
    mine = {seated[i] for i in range(n) if i % (sides if sides > 1 else n) == number % (sides if sides > 1 else n)}
    bots = ",".join("pimc" if i in mine else "greedy" for i in range(len(players)))
    opts = Options(
        game, players, variant, seed=seed + number, bot=bots, think=think, worlds=worlds, choices=choices, tags=tags
    )
    text = "".join(simulate(opts))
    line = next(x for x in text.splitlines() if x.startswith("score "))
    words = line.split()[1:]
    scores = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    ours = [scores[players[i]] for i in mine]
    theirs = [scores[players[i]] for i in seated if i not in mine]
    return statistics.fmean(ours) - statistics.fmean(theirs), time.process_time() - cpu


def report(game: str, diffs: list[float], took: float, jobs: int, cpu: float, what: str = "pimc - greedy") -> None:
    """One line: the hands so far, the mean difference and its 95% interval, the wall and the CPU seconds."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("inf")
    print(
        f"{game}: {len(diffs)} hands, {what} {mean:+.2f} a hand,"
        f" 95% interval [{mean - half:+.2f}, {mean + half:+.2f}] ({took:.0f} s wall, {jobs} jobs;"
        f" {cpu:.0f} s CPU, {cpu / len(diffs):.2f} s a hand)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(TABLES)[:3], choices=list(TABLES))
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.2)
    parser.add_argument("--worlds", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=int, default=0, help="also report after every N hands")
    parser.add_argument(
        "--choices",
        choices=("game", "worlds", "greedy", "both"),
        default="game",
        help="the pimc seats' choices before the first card: as the game's simulator says (the default: by worlds"
        " where that was measured better), by worlds, the better bot's, or each hand played both ways, with the"
        " paired difference",
    )
    parser.add_argument("--diffs", metavar="FILE", help="write each hand's difference here (JSON: table -> list)")
    args = parser.parse_args()
    kept: dict[str, list[float]] = {}
    ways: tuple[bool | None, ...] = {"game": (None,), "worlds": (True,), "greedy": (False,), "both": (True, False)}[
        args.choices
    ]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game in args.games:
            start = time.perf_counter()
            futures = [
                [pool.submit(one_hand, game, h, args.seed * 100_000, args.think, args.worlds, w) for w in ways]
                for h in range(args.hands)
            ]
            diffs: list[list[float]] = [[] for _ in ways]
            cpu = 0.0
            for hand in futures:
                for k, f in enumerate(hand):
                    diff, spent = f.result()
                    diffs[k].append(diff)
                    cpu += spent
                n = len(diffs[0])
                if n == len(futures) or (args.every and n % args.every == 0):
                    took = time.perf_counter() - start
                    if len(ways) == 1:
                        report(game, diffs[0], took, args.jobs, cpu)
                    else:
                        report(game, diffs[0], took, args.jobs, cpu, "pimc - greedy, choices by worlds:")
                        report(game, diffs[1], took, args.jobs, cpu, "pimc - greedy, the better bot's choices:")
                        paired = [a - b for a, b in zip(diffs[0], diffs[1], strict=True)]
                        report(game, paired, took, args.jobs, cpu, "by worlds - the better bot's, paired:")
                    if args.diffs:
                        kept[game] = diffs[0]
                        with open(args.diffs, "w") as out:
                            json.dump(kept, out)


if __name__ == "__main__":
    main()
