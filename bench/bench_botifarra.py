"""Time `imp analyse` on Botifarra, one core, every table: whole hands (or from a trick), each in a process of its own.

python bench/bench_botifarra.py                                          # every table: issue 24's run
PYTHONPATH=. python bench/bench_botifarra.py --tables obligada --hands 5 --limit 60
PYTHONPATH=. python bench/bench_botifarra.py --tables obligada lliure --hands 5 --from-trick 3
python bench/bench_botifarra.py --tables obligada --hands 2 --limit 60 --partition on   # partition entries on
python bench/bench_botifarra.py --tables obligada lliure carregar --no-choices   # the plays alone, no trump table
python bench/bench_botifarra.py --tables lliure --hands 6 --only 1 3 --cap 3145727   # hands 1 and 3, larger tables
cd bench && python bench_botifarra.py --tables obligada --limit 60 --builds main=/tmp/main-csolver.c:-mpopcnt,-mbmi2 \
    this=../imptools/rules/botifarra/csolver.c:-mpopcnt,-mbmi2      # two C solvers, hand by hand in alternation

Fresh hands from `imptools.simulate` (the code of `imp simulate`, random bots; seed `--seed`), every play from
`--from-trick` valued as `imp analyse --jobs 1` values it (the trump table too, unless `--no-choices`): by default
20 hands at the four-player tables and 5 at the others (`--hands` for every table). Each hand runs in a child
process, stopped after `--limit` CPU seconds (by default the table's target, `TARGETS`: a hand stopped misses it);
its line gives the plays, the positions the search visited (`nodes`: the same on any load), the wall and CPU
seconds and the child's peak resident memory (`ru_maxrss`). The machine may be shared (wall time is not the hand's
own): quote medians, and the node counts. The first line says whether the installed search is compiled (run from
the repository's root without `PYTHONPATH` after `pip install .` to measure the compiled one).

With `--builds NAME=SOURCE:FLAGS ...` (compiled as `solver_builds.py` compiles them; run from `bench/`) each hand
runs once with each build's C solver in turn, the builds' order reversed from hand to hand, so that a machine whose
speed drifts over an hour (this one's moves a fifth and more) slows every build alike; a line a hand and build, and
for each build the table's summary, with the CPU seconds summed over the hands every build finished.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import time
from multiprocessing.connection import Connection

from imptools.analyse import analyse_hand
from imptools.reader import read_games
from imptools.record import Game
from imptools.simulate import Options, simulate

NAMES = ("Adam", "Betty", "Christian", "Doris")
TABLES: dict[str, tuple[int, str, tuple[tuple[str, str], ...]]] = {
    "obligada": (4, "obligada", ()),
    "lliure": (4, "lliure", ()),
    "carregar": (4, "carregar", ()),
    "individual": (4, "obligada", (("Teams", "none"),)),
    "three": (3, "obligada", ()),
    "rector-vicar": (2, "rector-vicar", ()),
    "piles-and-hand": (2, "piles-and-hand", ()),
}
"""Each table: players, variant, tags."""

TARGETS = {"obligada": 5, "lliure": 5, "carregar": 5}
"""CPU seconds a whole hand may take at each table (issue 24): 5 s with partners, 30 s at the others."""


def target(table: str) -> int:
    return TARGETS.get(table, 30)


def game_of(table: str, hands: int, seed: int) -> Game:
    players, variant, tags = TABLES[table]
    opts = Options("botifarra", NAMES[:players], variant, hands=hands, seed=seed, tags=tags)
    (game,) = read_games("".join(simulate(opts)))
    return game


def child(
    game: Game, hand: int, from_trick: int, limit: int, out: Connection, solver: object = None, choices: bool = True
) -> None:
    if solver is not None:  # a build of `--builds`: the C solver the hand's searches ask
        import imptools.rules.botifarra.position as searched

        searched.NATIVE_SOLVER = solver  # type: ignore[assignment]
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))  # stopped by SIGXCPU past `limit` CPU seconds
    wall, cpu = time.perf_counter(), time.process_time()
    a = analyse_hand(game, hand, from_trick, choices=choices)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.send((len(a.plays), a.nodes, wall, cpu, peak, a.skipped))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=list(TABLES))
    parser.add_argument("--hands", type=int, help="hands at every table (default: 20 with four players, 5 else)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-trick", type=int, default=1)
    parser.add_argument("--limit", type=int, help="CPU seconds a hand may take (default: its target)")
    parser.add_argument("--partition", choices=["on", "off"], help="the solver's partition entries (default: its own)")
    parser.add_argument("--cap", type=int, help="entries a generation of the solver's tables (default: SOLVER_CAP)")
    parser.add_argument("--duel-slots", type=int, help="the most slots of `Duel`'s table (default: DUEL_SLOTS)")
    parser.add_argument("--duel-exact", type=int, help="the most exact values `Duel` works out (default: DUEL_EXACT)")
    parser.add_argument("--only", type=int, nargs="+", help="these hands of the table's game alone")
    parser.add_argument("--builds", nargs="+", metavar="NAME=SOURCE:FLAGS", help="C solvers to alternate, hand by hand")
    parser.add_argument("--no-choices", action="store_true", help="the plays alone, as `imp analyse --no-choices`")
    args = parser.parse_args()
    builds: dict[str, object] = {"": None}
    if args.builds:
        import tempfile
        from pathlib import Path

        from solver_builds import build

        where = Path(tempfile.mkdtemp())
        builds = {}
        for spec in args.builds:
            name, _, rest = spec.partition("=")
            source, _, flags = rest.rpartition(":")
            builds[name] = build(name, source, [f for f in flags.split(",") if f], where)
    import imptools.rules.botifarra.position as searched

    if args.partition:  # read by `new_solver` in the children (forked)
        searched.PARTITION = args.partition == "on"
    searched.CAP = args.cap  # read by `new_solver` and `_duel` in the children, None for the classes' default
    searched.DUEL_MOST = args.duel_slots
    if args.duel_exact is not None:
        searched.DUEL_EXACT = args.duel_exact

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    print(f"search: {'compiled' if compiled else 'Python'} ({searched.__file__})")
    native = getattr(searched, "NATIVE_SOLVER", None)  # Botifarra's solver written in C, where it was built
    print(f"three- and four-player solver: {'C (' + native.__module__ + ')' if native else 'Python'}"
          f", partition entries {'on' if searched.PARTITION else 'off'}"
          f", tables: cap {args.cap or 'default'}, duel slots {args.duel_slots or 'default'}"
          f", exact values {searched.DUEL_EXACT}")  # fmt: skip
    ctx = mp.get_context("fork")
    for table in args.tables:
        hands = args.hands or (20 if TABLES[table][0] == 4 else 5)
        limit = args.limit or target(table)
        game = game_of(table, hands, args.seed)
        results: dict[str, dict[int, tuple[float, float, int, float] | None]] = {name: {} for name in builds}
        for h in game.hands:
            if args.only and h.number not in args.only:
                continue
            names = list(builds) if h.number % 2 else list(builds)[::-1]
            for name in names:
                label = f"{table} hand {h.number}" + (f" ({name})" if name else "")
                mine, theirs = ctx.Pipe(duplex=False)
                proc = ctx.Process(
                    target=child,
                    args=(game, h.number, args.from_trick, limit, theirs, builds[name], not args.no_choices),
                )
                proc.start()
                theirs.close()  # the child's end: the pipe closes when the child ends
                began = time.perf_counter()
                answered = mine.poll(limit * 20)  # the child's figures, or its end (SIGXCPU): the pipe closes
                proc.join(5)
                if answered and proc.exitcode == 0:
                    plays, count, wall, cpu, peak, skipped = mine.recv()
                    if skipped:
                        print(f"{label}: skipped ({skipped})")
                        continue
                    results[name][h.number] = (wall, cpu, count, peak)
                    print(f"{label}: {plays} plays, {count} nodes, {wall:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MB")
                else:
                    proc.kill()
                    proc.join()
                    results[name][h.number] = None
                    wall = time.perf_counter() - began
                    print(f"{label}: over {limit} s CPU (stopped, {wall:.0f} s wall)")
        finished = [h for h in results[next(iter(builds))] if all(results[n].get(h) for n in builds)]
        for name, found in results.items():
            done = [r for r in found.values() if r]
            stopped = sum(1 for r in found.values() if r is None)
            label = table + (f" ({name})" if name else "")
            if not done:
                print(f"{label}: every hand stopped at {limit} s CPU")
                continue
            walls = [r[0] for r in done]
            cpus = [r[1] for r in done]
            nodes = [r[2] for r in done]
            both = sum(r[1] for h, r in found.items() if r and h in finished)
            print(
                f"{label}: {len(done)} of {len(done) + stopped} hands within {limit} s CPU; CPU median "
                f"{statistics.median(cpus):.2f} s, max {max(cpus):.2f} s; wall median {statistics.median(walls):.2f} s"
                f"; nodes median {statistics.median(nodes):.0f}, max {max(nodes)}"
                f"; peak {max(r[3] for r in done):.0f} MB"
                + (f"; {stopped} stopped at {limit} s CPU" if stopped else "")
                + (f"; CPU {both:.2f} s over the {len(finished)} hands every build finished" if len(builds) > 1 else "")
            )


if __name__ == "__main__":
    main()
