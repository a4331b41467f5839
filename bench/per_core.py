"""Speed per core: `imp score --json --jobs 1` against python-chess, CPU seconds, in alternating runs.

    python bench/per_core.py [--rounds 5] [--games bottle-imp:5000 botifarra:2000 ninety-nine:3000] [--keep DIR]

Run it with the Python of a virtual environment where imptools is installed with its `bench` extra;
`imp` is that environment's (a non-editable install is the compiled one, hatch_build.py). It builds
the corpora (bench/corpus.py) and the peer's 1,000 random PGN games (bench/run.py), then runs, round
after round, each game's `imp score --json --jobs 1 CORPUS` and python-chess reading its games
(bench/run.py's `CHESS`) in turn, as child processes, and takes each one's CPU seconds (user +
system, the whole process, start-up included) from `wait4`'s rusage. Each round gives, per game,

    ratio = (hands / imp's CPU seconds) / (python-chess's games / its CPU seconds)

against the python-chess run of the same round; the script prints the median ratio and its range.
CPU seconds, not wall: the machine may be shared, and a busy neighbour lengthens wall time, not
the CPU time a process spends. Last, the cold start: `imp validate ONE-HAND` (a file of the first
hand of the Bottle Imp corpus, output into a pipe), wall and CPU, median of `--cold` runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_corpus
from run import CHESS, chess_games, imp_command


def child(cmd: list[str]) -> tuple[float, float, str]:
    """Run `cmd` once (in the temporary folder): wall seconds, CPU seconds (user + system) and its stdout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=tempfile.gettempdir())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{cmd}: exit {os.waitstatus_to_exitcode(status)}\n{err.read().decode()[-2000:]}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read().decode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--games", nargs="+", default=["bottle-imp:5000", "botifarra:2000", "ninety-nine:3000"], help="GAME:HANDS"
    )
    ap.add_argument("--chess", type=int, default=1000, help="python-chess games")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--cold", type=int, default=11, help="cold-start runs")
    ap.add_argument("--keep", type=Path, help="keep the corpora in this folder (and reuse them)")
    args = ap.parse_args()
    imp = imp_command()
    tmp = Path(tempfile.mkdtemp(prefix="imp-per-core-"))
    where = args.keep or tmp
    where.mkdir(parents=True, exist_ok=True)
    try:
        games: list[tuple[str, int, Path]] = []
        for spec in args.games:
            game, _, hands = spec.partition(":")
            games.append((game, int(hands), write_corpus(where / f"{game}-{hands}.imp", int(hands), game=game)))
        pgn = where / f"random-{args.chess}-{args.plies}.pgn"
        if not pgn.exists():
            chess_games(pgn, args.chess, args.plies)
        peer = [sys.executable, "-c", CHESS, str(pgn)]
        cpu: dict[str, list[float]] = {g: [] for g, _, _ in games}
        ratios: dict[str, list[float]] = {g: [] for g, _, _ in games}
        chess_cpu: list[float] = []
        for _ in range(args.rounds):
            _, c, out = child(peer)
            n = int(out.split()[0])
            chess_cpu.append(c)
            for game, hands, path in games:
                _, s, _ = child([*imp, "score", "--json", "--jobs", "1", str(path)])
                cpu[game].append(s)
                ratios[game].append((hands / s) / (n / c))
        print(f"python {sys.version.split()[0]}; imp: {' '.join(imp)}; {args.rounds} rounds; {os.cpu_count()} cpus")
        med = statistics.median(chess_cpu)
        print(f"python-chess, {args.chess} games: CPU {med:.2f} s median ({args.chess / med:,.0f} games/CPU-s)")
        for game, hands, _ in games:
            s, r = statistics.median(cpu[game]), ratios[game]
            print(
                f"{game:12s} {hands:5d} hands: CPU {s:.2f} s median ({hands / s:,.0f} hands/CPU-s); "
                f"ratio per core x{statistics.median(r):.2f} (x{min(r):.2f}-x{max(r):.2f})"
            )
        one = where / "one-hand.imp"
        text = games[0][2].read_text(encoding="utf-8")
        one.write_text(text.split("\n\nhand 2 ", 1)[0].replace('[Hands "4"]', '[Hands "1"]') + "\n", encoding="utf-8")
        cold = [child([*imp, "validate", str(one)]) for _ in range(args.cold)]
        print(
            f"cold start, imp validate one-hand.imp: wall {statistics.median(w for w, _, _ in cold) * 1000:.0f} ms "
            f"median (min {min(w for w, _, _ in cold) * 1000:.0f}), "
            f"CPU {statistics.median(c for _, c, _ in cold) * 1000:.0f} ms median, {args.cold} runs"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
