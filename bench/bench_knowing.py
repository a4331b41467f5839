"""Time `imp analyse --knowing` on one core: each play valued over N worlds, hands from a trick, each in a process.

python bench/bench_knowing.py --table bottle-imp --from-trick 5 --samples 100 --hands 10
python bench/bench_knowing.py --table botifarra --from-trick 7 --samples 100 --hands 10
python bench/bench_knowing.py --table ninety-nine --from-trick 1 --samples 10 --hands 3 --limit 600
python bench/bench_knowing.py --table rector-vicar --from-trick 1 --hands 1 --limit 600   # a whole hand, 100 worlds

Fresh hands from `imptools.simulate` (the code of `imp simulate`, random bots; seed `--seed`), every play from
`--from-trick` valued as `imp analyse --jobs 1 --knowing --samples N` values it (the every-card-visible analysis
included). Each hand runs in a child process stopped after `--limit` CPU seconds; its line gives the plays, the
worlds averaged in all, the wall and CPU seconds, and the positions the every-card-visible search visited (the
worlds' own are not counted). The machine may be shared: quote CPU seconds and medians. The
first line says whether the installed search is compiled: run it from outside the repository with a non-editable
install (`pip install .`) to measure the compiled one.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import time
from multiprocessing.connection import Connection

from imptools.analyse import KnowingAsk, analyse_hand
from imptools.reader import read_games
from imptools.record import Game
from imptools.simulate import Options, simulate

TABLES: dict[str, tuple[str, tuple[str, ...], str | None, tuple[tuple[str, str], ...]]] = {
    "bottle-imp": ("bottle-imp", ("Adam", "Betty", "Christian", "Doris"), None, ()),
    "botifarra": ("botifarra", ("Adam", "Betty", "Christian", "Doris"), "obligada", ()),
    "ninety-nine": ("ninety-nine", ("Adam", "Betty", "Christian"), None, ()),
    "bright-house": ("bottle-imp", ("Adam", "Betty"), "bright-house", ()),
    "rector-vicar": ("botifarra", ("Adam", "Betty"), "rector-vicar", ()),
}
"""Each table: the game, its players, variant and tags (four-player classic Bottle Imp, a Botifarra partnership,
three-player Ninety-nine, the Bottle Imp's two-pack Bright House, two-player Botifarra)."""


def game_of(table: str, hands: int, seed: int) -> Game:
    name, players, variant, tags = TABLES[table]
    (game,) = read_games("".join(simulate(Options(name, players, variant, hands=hands, seed=seed, tags=tags))))
    return game


def child(game: Game, hand: int, from_trick: int, samples: int | None, limit: int, out: Connection) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))  # stopped by SIGXCPU past `limit` CPU seconds
    wall, cpu = time.perf_counter(), time.process_time()
    a = analyse_hand(game, hand, from_trick, knowing=KnowingAsk(samples, 1))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    worlds = sum(p.knowing.worlds for p in a.plays if p.knowing is not None)
    out.send((len(a.plays), worlds, wall, cpu, a.skipped or a.note, a.nodes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="bottle-imp", choices=list(TABLES))
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-trick", type=int, default=5)
    parser.add_argument("--samples", default="100", help="worlds a play, or all")
    parser.add_argument("--limit", type=int, default=120, help="CPU seconds a hand may take before it is stopped")
    args = parser.parse_args()
    samples = None if args.samples == "all" else int(args.samples)
    import imptools.rules.bottle_imp.search as searched

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    print(f"search: {'compiled' if compiled else 'Python'} ({searched.__file__})")
    game = game_of(args.table, args.hands, args.seed)
    cpus: list[float] = []
    stopped = 0
    ctx = mp.get_context("fork")
    for h in game.hands:
        mine, theirs = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=child, args=(game, h.number, args.from_trick, samples, args.limit, theirs))
        proc.start()
        theirs.close()
        began = time.perf_counter()
        answered = mine.poll(args.limit * 20)
        proc.join(5)
        if answered and proc.exitcode == 0:
            plays, worlds, wall, cpu, note, nodes = mine.recv()
            cpus.append(cpu)
            extra = f" ({note})" if note else ""
            print(
                f"{args.table} hand {h.number}: {plays} plays, {worlds} worlds, {wall:.2f} s wall, "
                f"{cpu:.2f} s CPU, {nodes:,} positions with every card visible{extra}"
            )
        else:
            proc.kill()
            proc.join()
            stopped += 1
            print(
                f"{args.table} hand {h.number}: over {args.limit} s CPU (stopped, {time.perf_counter() - began:.0f} s)"
            )
    if cpus:
        print(
            f"{args.table} from trick {args.from_trick}, {args.samples} worlds a play: {len(cpus)} of "
            f"{len(cpus) + stopped} hands done, CPU median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s"
            + (f"; {stopped} stopped at {args.limit} s CPU" if stopped else "")
        )


if __name__ == "__main__":
    main()
