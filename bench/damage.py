"""The batch run: thousands of damaged records through `imp validate --json` and `imp score --json`.

    python bench/damage.py [--copies 10000] [--seed 2026] [--jobs 2]

Damages copies of the sample and conformance records at random (tests/damage.py),
runs both commands over them in batches of 100, as a user would (subprocesses),
and checks every promise: no traceback, exit 0/1/2 (3 only with an `internal`
finding), one JSON document, every finding with the keys of the notation. The
in-suite run (tests/test_batch.py) does the same with fewer copies.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damage import check_batch, damaged_batches  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.monotonic()
    totals: collections.Counter[str] = collections.Counter()
    broken: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        batches = damaged_batches(Path(tmp), args.copies, args.seed)
        jobs = [(command, paths) for paths in batches for command in ("validate", "score")]

        def one(job: tuple[str, list[str]]) -> None:
            command, paths = job
            try:
                counts = check_batch(command, paths)
            except AssertionError as exc:
                broken.append(f"{command} {paths[0]}..: {exc}")
                return
            totals.update({f"{command} {k}": v for k, v in counts.items()})

        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(one, jobs))
    print(f"{args.copies} damaged records (seed {args.seed}), {len(jobs)} runs in {time.monotonic() - start:.0f} s")
    for key in sorted(totals):
        print(f"  {key}: {totals[key]}")
    print(f"broken promises: {len(broken)}")
    for line in broken:
        print("  " + line[:500])
    raise SystemExit(1 if broken else 0)


if __name__ == "__main__":
    main()
