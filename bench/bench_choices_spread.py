"""Time one Botifarra hand's `imp analyse` from trick 1 on one process and on two: the trump table shared out.

python bench/bench_choices_spread.py --hands 3 --rounds 2
python bench/bench_choices_spread.py --variant lliure --hands 2

Fresh hands from `imptools.simulate` (seed `--seed`, four players, `--variant`), each analysed whole, the trump
table and every play, as the command does it, in rounds that alternate the two ways:

- `j1`: `imp analyse FILE --hand H --json --jobs 1`
- `j2`: the same with `--jobs 2` (the hand here; its four trump options other than the one named on two worker
  processes while this process values the one named, then the plays)

Each line gives the wall seconds and the CPU seconds of all the work (the command's process and the processes it
waited for, `wait4`). The two outputs must be the same bytes; the script says so. The issue's targets are one
core's: this measures what a second core gives one hand, not the target. Run it from outside the repository with
a non-editable install to measure the compiled search.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

from bench_knowing_spread import timed  # beside this script

from imptools.simulate import Options, simulate

NAMES = ("Adam", "Betty", "Christian", "Doris")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="obligada")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    text = "".join(simulate(Options("botifarra", NAMES, args.variant, hands=args.hands, seed=args.seed)))
    imp = [sys.executable, "-m", "imptools"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "night.imp")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        walls: dict[str, list[float]] = {"j1": [], "j2": []}
        for hand in range(1, args.hands + 1):
            for r in range(args.rounds):
                outs: dict[str, bytes] = {}
                ways = ["j1", "j2"] if (hand + r) % 2 else ["j2", "j1"]
                for way in ways:
                    wall, cpu, out = timed([*imp, "analyse", path, "--hand", str(hand), "--json", "--jobs", way[1]])
                    outs[way] = out
                    walls[way].append(wall)
                    print(f"{args.variant} hand {hand} round {r + 1} {way}: wall {wall:.2f} s, cpu {cpu:.2f} s")
                print(f"  the same output: {outs['j1'] == outs['j2']}")
        for way, w in walls.items():
            print(f"{way}: median wall {statistics.median(w):.2f} s, total {sum(w):.2f} s over {len(w)} runs")


if __name__ == "__main__":
    main()
