"""Botifarra's C solver built several ways, alternated in one process on a whole hand of `imp analyse`, one core.

cd bench && C=../imptools/rules/botifarra/csolver.c D=../imptools/rules/botifarra/cduel.c
python solver_builds.py --hand 1 --rounds 8 main=/tmp/main-csolver.c:-mpopcnt this=$C:-mpopcnt,-mbmi2
python solver_builds.py --table lliure --hand 3 --rounds 4 plain=$C: pext=$C:-mpopcnt,-mbmi2
python solver_builds.py --table rector-vicar --hand 1 --rounds 2 main=/tmp/main-cduel.c:-mpopcnt this=$D:-mpopcnt

Each build is `NAME=SOURCE:FLAGS` (FLAGS comma-separated, after `-O3`): compiled here with `cc` into a module of its
own name (its init renamed), so that the builds load side by side, and asked in turn, round after round (the order
reversed every other round), to value a hand of `bench_botifarra.py`'s games (same tables and seed) as
`imp analyse --jobs 1` does, the trump table included; `imptools.rules.botifarra.position` is pointed at each build's
`Solver` in turn (at a two-player table, each build of `cduel.c`'s `Duel`). A machine shared with other work moves one
and the same run by a third from round to round: alternating in one process spreads that over the builds alike; read
the medians. The positions visited are printed
each round: a build that changed them is not the same search, and where it prunes, the line after the rounds says
whether every build still gave the same values (each play's and the trump table's). Run after `pip install .` (the
rest of the search compiled as installed), from `bench/`, not the tree's root.

For a count of the solver's instructions, which does not move with the machine's load (`valgrind`, one build at a
time, about thirty times slower):

    valgrind --tool=callgrind --toggle-collect='node*' python bench_trump_options.py --hand 1
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
from types import ModuleType
from typing import Any

from bench_botifarra import TABLES, game_of

import imptools.rules.botifarra.position as position
from imptools.analyse import analyse_hand

SOLVERS = {"csolver": "Solver", "cduel": "Duel", "cescape": "Lines"}
"""Each C module of the search and the class it makes: `csolver` at three and four players, `cduel` at two, and the
Bottle Imp's `cescape` (`escape_builds.py`)."""


LOADED: dict[str, ModuleType] = {}
"""Each module `build` compiled, by its build's name (for what a build adds beside its class, e.g. `tree_counts`)."""


def build(name: str, source: str, flags: list[str], where: Path, module: str = "csolver") -> Any:
    """The solver class of `source` (the C module `module`) compiled with `flags` as the module `c_NAME`."""
    target = where / f"c_{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    command = ["cc", "-fPIC", "-O3", *flags, f"-DPyInit_{module}=PyInit_c_{name}", "-shared", f"-I{include}"]
    subprocess.run([*command, source, "-o", str(target)], check=True)
    spec = importlib.util.spec_from_file_location(f"c_{name}", target)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    LOADED[name] = loaded
    return getattr(loaded, SOLVERS[module])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="obligada", choices=list(TABLES))
    parser.add_argument("--hand", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("builds", nargs="+", metavar="NAME=SOURCE:FLAGS")
    args = parser.parse_args()
    game = game_of(args.table, args.hand, args.seed)
    module = "cduel" if TABLES[args.table][0] == 2 else "csolver"
    with tempfile.TemporaryDirectory() as where:
        classes: dict[str, Any] = {}
        for spec in args.builds:
            name, _, rest = spec.partition("=")
            source, _, flags = rest.rpartition(":")
            classes[name] = build(name, source, [f for f in flags.split(",") if f], Path(where), module)
        names = list(classes)
        times: dict[str, list[float]] = {n: [] for n in names}
        found: dict[str, object] = {}
        for r in range(args.rounds):
            for name in names if r % 2 == 0 else names[::-1]:
                if module == "cduel":
                    setattr(position, "Duel", classes[name])  # noqa: B010 (what `SearchBotifarra` makes its solver of)
                else:
                    position.NATIVE_SOLVER = classes[name]
                began = time.process_time()
                analysis = analyse_hand(game, args.hand)
                times[name].append(time.process_time() - began)
                found[name] = (analysis.plays, analysis.choices)
                print(f"round {r + 1}: {name} {analysis.nodes} positions, {times[name][-1]:.2f} s CPU", flush=True)
    differ = [n for n in names if found[n] != found[names[0]]]
    print("every build values every play and the trump table alike" if not differ else f"values differ: {differ}")
    first = statistics.median(times[names[0]])
    print(f"{args.table} seed {args.seed} hand {args.hand}, {args.rounds} rounds, CPU seconds:")
    for name in names:
        median = statistics.median(times[name])
        print(f"  {name}: median {median:.3f}, fastest {min(times[name]):.3f} ({median / first - 1:+.1%} median)")


if __name__ == "__main__":
    main()
