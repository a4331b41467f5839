"""Time commands in alternation: each round runs every command once, in turn.

    python bench/alternate.py [--rounds 9] NAME='COMMAND' NAME='COMMAND' ...

Prints, for each command, the minimum and median wall and CPU (user + system,
from `wait4`) seconds and its largest peak resident memory (`ru_maxrss`), and
for every command after the first its speed-up over the first, round by round
(first's wall / its wall): median, lowest and highest. On a machine shared with
other work the minimum is the figure least disturbed, and alternating spreads
any disturbance over all the commands alike. Commands run through the shell.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = ap.parse_args()
    commands = dict(c.split("=", 1) for c in args.commands)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    peaks: dict[str, int] = dict.fromkeys(commands, 0)
    for _ in range(args.rounds):
        for name, command in commands.items():
            start = time.perf_counter()
            proc = subprocess.Popen(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(proc.pid, 0)
            times[name].append((time.perf_counter() - start, usage.ru_utime + usage.ru_stime))
            peaks[name] = max(peaks[name], usage.ru_maxrss)
    for name, runs in times.items():
        wall = [w for w, _ in runs]
        cpu = [c for _, c in runs]
        print(
            f"{name:14s} wall min {min(wall):.3f} med {statistics.median(wall):.3f}   "
            f"cpu min {min(cpu):.3f} med {statistics.median(cpu):.3f}   peak {peaks[name] / 1024:.0f} MB"
        )
    names = list(times)
    for name in names[1:]:
        ratios = [a[0] / b[0] for a, b in zip(times[names[0]], times[name])]
        print(
            f"{names[0]} / {name}: wall x{statistics.median(ratios):.2f} "
            f"(x{min(ratios):.2f}-x{max(ratios):.2f}, {len(ratios)} rounds)"
        )


if __name__ == "__main__":
    main()
