"""Botifarra's two-player C solver (`cduel.c`) built several ways, each valuing one whole hand of `imp analyse`.

cd bench && D=../imptools/rules/botifarra/cduel.c
git show 8ee3290:imptools/rules/botifarra/cduel.c > /tmp/main-cduel.c
python duel_builds.py --table rector-vicar --hand 1 main=/tmp/main-cduel.c:-mpopcnt,-mbmi2 this=$D:-mpopcnt,-mbmi2

As `solver_builds.py` for the three- and four-player solver: each build is `NAME=SOURCE:FLAGS` (FLAGS
comma-separated, after `-O3`), compiled here with `cc` into a module of its own name and put in place of
`position.Duel` in turn, round after round (the order reversed every other round); each round prints the positions
visited and the CPU seconds, and the line after the rounds says whether every build valued every play and the
trump table alike. Run after `pip install .`, from `bench/`, not the tree's root.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_botifarra import TABLES, game_of

import imptools.rules.botifarra.position as position
from imptools.analyse import analyse_hand


def build(name: str, source: str, flags: list[str], where: Path) -> Any:
    """The `Duel` class of `source` compiled with `flags` as the module `cd_NAME`."""
    target = where / f"cd_{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    command = ["cc", "-fPIC", "-O3", *flags, f"-DPyInit_cduel=PyInit_cd_{name}", "-shared", f"-I{include}"]
    subprocess.run([*command, source, "-o", str(target)], check=True)
    spec = importlib.util.spec_from_file_location(f"cd_{name}", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Duel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="rector-vicar", choices=[t for t, (n, _, _) in TABLES.items() if n == 2])
    parser.add_argument("--hand", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("builds", nargs="+", metavar="NAME=SOURCE:FLAGS")
    args = parser.parse_args()
    game = game_of(args.table, args.hand, args.seed)
    with tempfile.TemporaryDirectory() as where:
        classes: dict[str, Any] = {}
        for spec in args.builds:
            name, _, rest = spec.partition("=")
            source, _, flags = rest.rpartition(":")
            classes[name] = build(name, source, [f for f in flags.split(",") if f], Path(where))
        names = list(classes)
        times: dict[str, list[float]] = {n: [] for n in names}
        found: dict[str, object] = {}
        for r in range(args.rounds):
            for name in names if r % 2 == 0 else names[::-1]:
                setattr(position, "Duel", classes[name])  # noqa: B010 (what `SearchBotifarra` makes its solver of)
                began = time.process_time()
                analysis = analyse_hand(game, args.hand)
                times[name].append(time.process_time() - began)
                found[name] = (analysis.plays, analysis.choices)
                print(f"round {r + 1}: {name} {analysis.nodes} positions, {times[name][-1]:.2f} s CPU", flush=True)
    differ = [n for n in names if found[n] != found[names[0]]]
    print("every build values every play and the trump table alike" if not differ else f"values differ: {differ}")
    for name in names:
        print(f"  {name}: median {statistics.median(times[name]):.3f} s CPU")


if __name__ == "__main__":
    main()
