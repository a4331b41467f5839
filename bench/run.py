"""Whole-process figures of `imp`, beside python-chess reading and checking PGN on the same machine.

    python bench/run.py [--hands 5000] [--runs 3] [--games 1000] [--jobs 1 2]

Run it with the Python of a virtual environment where imptools is installed with
its `bench` extra (`pip install -e .[bench]`); `imp` is that environment's. It
builds a corpus (bench/corpus.py) in a temporary folder, then times, as separate
processes (median of --runs, peak resident memory from the child's rusage):

- parse only: `read_games` over the corpus, in a `python -c`;
- `imp validate --json` and `imp score --json` over the corpus (`--jobs N` for each N given);
- `imp simulate` dealing and playing as many hands (`--jobs N` likewise), written to a file;
- the cold start of `imp validate` on a file of one hand;
- the peer: python-chess reading --games random legal games (made by python-chess
  itself, seeded, at most --plies half-moves) with `chess.pgn.read_game` (which
  checks every move) and replaying each move on a board.

`--source DIR` times another checkout (say the main branch) with the same corpus.
Children run in the temporary folder, so that `python -m` and `python -c` do not
pick up an `imptools` from the current directory.

Prints a Markdown table for docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import TABLES, write_corpus

PARSE = "import sys\nfrom imptools.reader import read_games\nprint(sum(len(g.hands) for g in read_games(sys.argv[1])))"
CHESS = """import sys, chess, chess.pgn
games = plies = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        games += 1
        plies += board.ply()
print(games, plies)
"""


@dataclass
class Run:
    """One command's figures: median wall and CPU (user + system) seconds over the runs, the largest peak RSS."""

    seconds: float
    cpu: float
    rss_mb: float
    out: str


def run(cmd: list[str], runs: int, ok: tuple[int, ...] = (0,)) -> Run:
    """Run `cmd` `runs` times as a child process: wall time, CPU time and peak RSS from wait4's rusage."""
    walls: list[float] = []
    cpus: list[float] = []
    rss = 0
    out = ""
    for _ in range(runs):
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            start = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr, cwd=tempfile.gettempdir())
            _, status, usage = os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode not in ok:
                stderr.seek(0)
                raise SystemExit(f"{cmd}: exit {proc.returncode}\n{stderr.read().decode()[-2000:]}")
            cpus.append(usage.ru_utime + usage.ru_stime)
            rss = max(rss, usage.ru_maxrss)
            stdout.seek(0)
            out = stdout.read().decode()
    return Run(statistics.median(walls), statistics.median(cpus), rss / 1024, out)


def chess_games(path: Path, games: int, plies: int, seed: int = 1) -> None:
    """Write `games` random legal games of python-chess's making, as PGN: to their end or `plies` half-moves."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(games):
            board = chess.Board()
            while not board.is_game_over(claim_draw=False) and board.ply() < plies:
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"random {seed}"
            game.headers["Round"] = str(i + 1)
            print(game, file=out, end="\n\n")


def imp_command() -> list[str]:
    exe = Path(sys.executable).with_name("imp")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "imptools"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--game", default="bottle-imp", help="the game of the corpus: bottle-imp, botifarra, ninety-nine")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--games", type=int, default=1000, help="python-chess games")
    ap.add_argument("--plies", type=int, default=80, help="longest python-chess game, in half-moves")
    ap.add_argument("--jobs", type=int, nargs="*", default=[], help="also time --jobs N for each N")
    ap.add_argument("--keep", type=Path, help="keep the corpora in this folder")
    ap.add_argument(
        "--source", type=Path, help="time the imptools checked out here instead (PYTHONPATH, python -m imptools)"
    )
    args = ap.parse_args()
    imp = imp_command()
    if args.source is not None:
        os.environ["PYTHONPATH"] = str(args.source.resolve())
        imp = [sys.executable, "-m", "imptools"]
    tmp = Path(tempfile.mkdtemp(prefix="imp-bench-"))
    where = args.keep or tmp
    where.mkdir(parents=True, exist_ok=True)
    try:
        corpus = write_corpus(where / f"{args.game}-{args.hands}.imp", args.hands, game=args.game)
        mb = corpus.stat().st_size / 1e6
        one = where / "one-hand.imp"
        text = corpus.read_text(encoding="utf-8")
        one.write_text(text.split("\n\nhand 2 ", 1)[0].replace('[Hands "4"]', '[Hands "1"]') + "\n", encoding="utf-8")
        pgn = where / f"random-{args.games}-{args.plies}.pgn"
        if not pgn.exists():
            chess_games(pgn, args.games, args.plies)
        rows: list[tuple[str, Run, float]] = []

        def row(label: str, cmd: list[str], units: float, ok: tuple[int, ...] = (0,)) -> Run:
            r = run(cmd, args.runs, ok)
            rows.append((label, r, units / r.seconds))
            return r

        print(
            f"corpus: {args.hands} {args.game} hands, {mb:.2f} MB; "
            f"python {sys.version.split()[0]}; {os.cpu_count()} cpus"
        )
        row("parse only (read_games)", [sys.executable, "-c", PARSE, str(corpus)], args.hands)
        jobs = [[]] + [["--jobs", str(n)] for n in args.jobs]
        for j in jobs:
            row(f"imp validate --json {' '.join(j)}".strip(), [*imp, "validate", "--json", *j, str(corpus)], args.hands)
        for j in jobs:
            row(f"imp score --json {' '.join(j)}".strip(), [*imp, "score", "--json", *j, str(corpus)], args.hands)
        score = rows[-len(jobs)]
        players, variant, _ = TABLES[args.game]
        deal = ["simulate", "--game", args.game, "--players", players, "--hands", str(args.hands), "--seed", "1"]
        deal += ["--variant", variant] if variant else []
        for j in jobs:
            out = ["-o", str(where / "simulated.imp")]
            row(f"imp simulate --hands {args.hands} {' '.join(j)}".strip(), [*imp, *deal, *out, *j], args.hands)
        start = run([*imp, "validate", str(one)], max(args.runs, 7))
        peer = run([sys.executable, "-c", CHESS, str(pgn)], args.runs)
        games, plies = (int(x) for x in peer.out.split())
        print()
        print("| command | wall s | CPU s | hands/s | MB/s | peak RSS MB |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, r, rate in rows:
            print(f"| {label} | {r.seconds:.2f} | {r.cpu:.2f} | {rate:,.0f} | {mb / r.seconds:.2f} | {r.rss_mb:.0f} |")
        print(
            f"| imp validate one-hand.imp (cold start) | {start.seconds:.3f} | {start.cpu:.3f} "
            f"| | | {start.rss_mb:.0f} |"
        )
        print(
            f"| python-chess: read_game + replay, {games} random games ({plies / games:.0f} plies avg) "
            f"| {peer.seconds:.2f} | {peer.cpu:.2f} | {games / peer.seconds:,.0f} games/s | | {peer.rss_mb:.0f} |"
        )
        print()
        print(f"imp score --json / python-chess: {score[2] / (games / peer.seconds):.2f}x (hands/s over games/s, wall)")
        cpu_ratio = (args.hands / score[1].cpu) / (games / peer.cpu)
        print(f"imp score --json / python-chess: {cpu_ratio:.2f}x per CPU second (one job)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
