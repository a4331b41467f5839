"""Benchmark: how fast the reader turns records into models, and how fast `imp` starts.

    python bench/bench_reader.py [--games N] [--record PATH]

Writes a temporary file of N copies of a record (the four-player sample by default),
reads it with `read_games`, and prints hands per second and lines per second; then
times `python -m imptools --version` (cold start). Numbers go into docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from imptools.reader import read_games

ROOT = Path(__file__).resolve().parent.parent


def bench_read(record: Path, copies: int) -> None:
    text = record.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.imp"
        big.write_text((text.rstrip() + "\n\n") * copies, encoding="utf-8")
        lines = big.read_text(encoding="utf-8").count("\n")
        start = time.perf_counter()
        hands = sum(len(g.hands) for g in read_games(big))
        elapsed = time.perf_counter() - start
    print(f"read {copies} games, {hands} hands, {lines} lines in {elapsed:.2f} s")
    print(f"  {hands / elapsed:,.0f} hands/s, {lines / elapsed:,.0f} lines/s")


def bench_start(runs: int = 7) -> None:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "imptools", "--version"], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(f"cold start (imp --version): median {statistics.median(times) * 1000:.0f} ms over {runs} runs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--record", type=Path, default=ROOT / "samples" / "thursday-club.imp")
    args = ap.parse_args()
    bench_read(args.record, args.games)
    bench_start()


if __name__ == "__main__":
    main()
