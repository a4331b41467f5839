"""`imp archive add` against `imp validate --json` on the same folder of club nights.

    python bench/bench_archive.py --games 10000 --per-file 10 --keep /tmp/bench-archive [--runs 3]

The folder holds `--games` games of four hands (bench/corpus.py, the three games
in turn), `--per-file` games a file. Timed, whole processes, median wall time
over `--runs`: `imp validate --json FOLDER`; `imp archive add` into a new
archive (it must judge every game too, then write it); `imp archive add` again
on the unchanged folder (nothing to read); `imp archive standings`. Never run as a test.
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

from corpus import HANDS_PER_GAME, TABLES, corpus


def folder(root: Path, games: int, per_file: int) -> Path:
    """The club's folder (made once: an existing one is reused)."""
    target = root / f"club-{games}-{per_file}"
    if target.exists():
        return target
    tmp = root / f".{target.name}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    kinds = sorted(TABLES)
    for n in range(0, games, per_file):
        count = min(per_file, games - n)
        kind = kinds[(n // per_file) % len(kinds)]
        text = corpus(kind, count * HANDS_PER_GAME, seed=n + 1)
        (tmp / f"night-{n // per_file:05d}.imp").write_text(text, encoding="utf-8")
    tmp.rename(target)
    return target


def timed(cmd: list[str], runs: int, before: object = None) -> float:
    """The median wall time of `cmd` over `runs` (`before()` runs untimed ahead of each)."""
    times = []
    for _ in range(runs):
        if callable(before):
            before()
        start = time.perf_counter()
        out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        times.append(time.perf_counter() - start)
        if out.returncode not in (0, 1):
            sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.decode()[-2000:]}")
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--per-file", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="keep the folder here (made once, then reused)")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-archive-"))
    club = folder(root, args.games, args.per_file)
    db = root / "bench.sqlite"
    imp = [sys.executable, "-m", "imptools"]

    def fresh() -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)

    validate = timed([*imp, "validate", "--json", str(club)], args.runs)
    add = timed([*imp, "archive", "add", "--db", str(db), str(club)], args.runs, fresh)
    again = timed([*imp, "archive", "add", "--db", str(db), str(club)], args.runs)
    standings = timed([*imp, "archive", "standings", "--db", str(db), "--game", kinds_first()], args.runs)
    size = sum(p.stat().st_size for p in club.iterdir()) / 1e6
    print(f"{args.games} games in {len(os.listdir(club))} files ({size:.1f} MB), {os.cpu_count()} cores")
    print(f"imp validate --json          {validate:7.2f} s")
    print(f"imp archive add (new)        {add:7.2f} s   {add / validate:.2f} x validate")
    print(f"imp archive add (unchanged)  {again:7.2f} s")
    print(f"imp archive standings        {standings:7.2f} s")
    print(f"archive size                 {db.stat().st_size / 1e6:7.1f} MB")


def kinds_first() -> str:
    return sorted(TABLES)[0]


if __name__ == "__main__":
    main()
