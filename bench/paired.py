"""Two runs of `bench/bench_bots.py --diffs` on the same deals compared hand by hand: the mean of (second - first).

python bench/paired.py before.json after.json

Both runs play the same deals (the same `--seed`), so each hand's figure in the second run less the same hand's in
the first is the difference the change made on that deal; the line of a table gives its mean over the hands both
runs played, with the normal 95% interval (1.96 standard errors).
"""

from __future__ import annotations

import argparse
import json
import statistics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first")
    parser.add_argument("second")
    args = parser.parse_args()
    with open(args.first) as f:
        first: dict[str, list[float]] = json.load(f)
    with open(args.second) as f:
        second: dict[str, list[float]] = json.load(f)
    for table in first:
        if table not in second:
            continue
        pairs = [b - a for a, b in zip(first[table], second[table], strict=False)]
        if len(pairs) < 2:
            continue
        mean = statistics.fmean(pairs)
        half = 1.96 * statistics.stdev(pairs) / len(pairs) ** 0.5
        print(
            f"{table}: {len(pairs)} hands, second - first {mean:+.2f} a hand,"
            f" 95% interval [{mean - half:+.2f}, {mean + half:+.2f}]"
        )


if __name__ == "__main__":
    main()
