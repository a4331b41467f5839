"""The reader's limits at full size: time and peak memory of each.

    python bench/limits.py

Builds each input in a temporary folder: a 100 MB file whose `{` is never
closed, 100,000 games in one file, a 50 MB line, 20 MB of binary bytes, a
`Players` tag of 1,000 names; reads (and where it matters judges) each, and
prints seconds and the peak of traced memory. The in-suite tests
(tests/test_robustness.py) run smaller versions of the same inputs.
"""

from __future__ import annotations

import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from imptools.check import judge_game
from imptools.reader import read_games

HEAD = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n'


def measure(label: str, build: Callable[[Path], None], run: Callable[[Path], str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.imp"
        build(path)
        size = path.stat().st_size
        tracemalloc.start()
        start = time.perf_counter()
        outcome = run(path)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    print(f"| {label} | {size / 1e6:,.1f} MB | {seconds:,.1f} s | {peak:,.1f} MB | {outcome} |")


def unclosed(path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(HEAD + "hand 1\n1. 1 2 3 4 {never closed\n")
        line = " " * 9_999 + "\n"
        for _ in range(10_000):
            out.write(line)
        out.write("2. 5 6 7 8\n")


def games(path: Path) -> None:
    path.write_text((HEAD + "hand 1\n") * 100_000, encoding="utf-8")


def long_line(path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(HEAD + "hand 1\n1. ")
        for _ in range(2_500):
            out.write("5 " * 10_000)
        out.write("\n2. 5 6 7 8\n")


def binary(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(20_000_000))


def players(path: Path) -> None:
    names = " ".join(f"P{i}" for i in range(1_000))
    path.write_text(f'[Game "bottle-imp"]\n[Players "{names}"]\nhand 1\n1. 1 2 3\n', encoding="utf-8")


def read(path: Path) -> str:
    found = [f.message for g in read_games(path) for f in g.findings]
    return f"{len(found)} finding(s): {found[0][:70] if found else ''}"


def count(path: Path) -> str:
    return f"{sum(1 for _ in read_games(path)):,} games read"


def judge(path: Path) -> str:
    (game,) = read_games(path)
    found = judge_game(game).all_findings()
    return f"{len(found)} finding(s): {found[0].message[:70] if found else ''}"


def main() -> None:
    print("| input | size | time | peak memory | outcome |\n|---|---|---|---|---|")
    measure("`{` never closed, then 100 MB", unclosed, read)
    measure("100,000 games in one file", games, count)
    measure("one line of 50 MB", long_line, read)
    measure("20 MB of random bytes", binary, read)
    measure("`Players` with 1,000 names (judged)", players, judge)


if __name__ == "__main__":
    main()
