"""Long fuzz run: damaged records through the reader, the judge, the writer and the JSON round trip.

    python bench/fuzz.py [--seconds 600] [--seed 1]

Every record of samples/ and tests/conformance/ is damaged at random (see
tests/damage.py) and run through `read_games`, `judge_game`, `format_games` and
the JSON export/import. Anything that raises, and every `internal` finding (a
ruleset that failed), is printed with its traceback and the damaged record is
saved under bench/fuzz-crashes/ to become a regression test. The in-suite run
is tests/test_fuzz.py (bounded).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import re
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damage import damage, seed_records  # noqa: E402

from imptools.check import judge_game  # noqa: E402
from imptools.reader import read_games  # noqa: E402
from imptools.rules import get_ruleset  # noqa: E402
from imptools.writer import format_games, games_from_json, games_to_json  # noqa: E402


def exercise(data: bytes) -> str | None:
    """Run one record through everything; a description of the first failure, or None."""
    try:
        games = list(read_games(io.BytesIO(data)))
        for game in games:
            result = judge_game(game)
            if any(f.code == "internal" for f in result.all_findings()):
                ruleset = get_ruleset(game.game_name)
                try:
                    if ruleset is not None:
                        ruleset.judge(game)
                except Exception:
                    return "internal finding (a ruleset failed):\n" + traceback.format_exc()
                return "internal finding"
        if not any(f.code == "syntax" for g in games for f in g.findings):
            text = format_games(games)
            again = format_games(read_games(text + "\n" if not text.endswith("\n") else text))
            if again != text:
                return "fmt is not a fixed point"
        if games_from_json(games_to_json(games)) != games:
            return "the JSON round trip changed the record"
    except Exception:
        return traceback.format_exc()
    return None


def _signature(problem: str) -> str:
    """Where a failure happened (innermost frame of imptools, and the exception type), to report each once."""
    frames = re.findall(r'File "([^"]*imptools[^"]*)", line (\d+)', problem)
    last = problem.strip().splitlines()[-1].split(":")[0]
    return f"{frames[-1] if frames else ''} {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seeds = seed_records()
    crashes = ROOT / "bench" / "fuzz-crashes"
    runs = failures = 0
    seen: set[str] = set()
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        data = damage(rng.choice(seeds), rng, seeds)
        runs += 1
        problem = exercise(data)
        if problem is None:
            continue
        failures += 1
        key = _signature(problem)
        if key in seen:
            continue
        seen.add(key)
        crashes.mkdir(exist_ok=True)
        name = crashes / f"{hashlib.sha1(data).hexdigest()[:12]}.imp"
        name.write_bytes(data)
        print(f"--- {name.relative_to(ROOT)}\n{problem}", flush=True)
    print(f"{runs} damaged records, {failures} failures, {len(seen)} distinct")


if __name__ == "__main__":
    main()
