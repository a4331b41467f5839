"""Every Bottle Imp table, whole hands on one core: `python bench/bench_analyse.py --tables` (see there).

Each table is a variant and a number of players; its hands come from `imp simulate` (random bots, `--seed`), 20 for
the four-player tables and 5 for the others. Each hand is analysed from trick 1, every play valued, in a process of
its own (`python bench/tables.py SEED TABLE HANDS HAND`), so that its peak resident memory (`wait4`) is its own; a
hand past `--limit` seconds of CPU is stopped and shown as over. Per table: CPU seconds (median, max), positions
searched (`nodes`, median and max) and the largest peak memory.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")

TABLES: dict[str, tuple[str, int]] = {
    "4-classic": ("classic", 4),
    "3-classic": ("classic", 3),
    "5-classic": ("classic", 5),
    "6-classic": ("classic", 6),
    "4-teams": ("teams", 4),
    "5-teams": ("teams", 5),
    "6-teams": ("teams", 6),
    "6-teams-2-2-1-1": ("teams-2-2-1-1", 6),
    "5-second-bottle": ("second-bottle", 5),
    "6-second-bottle": ("second-bottle", 6),
    "3-lopaka": ("lopaka", 3),
    "2-bright-house": ("bright-house", 2),
    "2-eye-of-the-demon": ("eye-of-the-demon", 2),
}
"""Each table: its variant and players (Lopaka's table is two players and Lopaka)."""


def game_of(table: str, hands: int, seed: int) -> object:
    from imptools.reader import read_games
    from imptools.simulate import Options, simulate

    variant, players = TABLES[table]
    names = ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else NAMES[:players]
    text = "".join(simulate(Options("bottle-imp", names, variant, hands=hands, seed=seed)))
    (game,) = read_games(text)
    return game


def trial(words: list[str]) -> None:
    """Set in this process what `bench_analyse.py --tables` asks to try: `--halve` (the position's `bisect`: once a
    value lies between two bounds, MTD(f) probes the middle, `search.Search.value`), `--gains-cap=N` and
    `--escape-cap=N` (the entries of a generation of `Gains`' and `Escape`'s tables: `escape.GAINS_CAP`,
    `escape.ESCAPE_CAP`)."""
    import imptools.rules.bottle_imp.escape as escape
    from imptools.search import Search

    for word in words:
        name, _, number = word.partition("=")
        if name == "--gains-cap":
            escape.GAINS_CAP = int(number)
        elif name == "--escape-cap":
            escape.ESCAPE_CAP = int(number)
        elif name == "--halve":
            Search.value = halving(Search.value)  # type: ignore[method-assign]


def halving(value: Callable[..., int]) -> Callable[..., int]:
    """`Search.value` with the position's `bisect` set first."""

    def halved(self: Any, *args: Any, **kw: Any) -> int:
        type(self.position).bisect = True
        return value(self, *args, **kw)

    return halved


def one_hand(seed: int, table: str, hands: int, hand: int, trials: list[str]) -> None:
    """Analyse one hand (in this process) and print its figures as one JSON line; `trials` as `trial` reads them."""
    from imptools.analyse import analyse_hand

    trial(trials)
    game = game_of(table, hands, seed)
    start = time.process_time()
    a = analyse_hand(game, hand, 1)  # type: ignore[arg-type]
    cpu = time.process_time() - start
    print(json.dumps({"plays": len(a.plays), "nodes": a.nodes, "cpu": cpu, "skipped": a.skipped}))


def run_hand(seed: int, table: str, hands: int, hand: int, limit: float, trials: list[str]) -> dict[str, object]:
    """One hand in a child process: its figures, its peak memory (MB), or `over` when it passed `limit`."""
    cmd = [sys.executable, __file__, str(seed), table, str(hands), str(hand), *trials]
    read, write = os.pipe()
    pid = os.posix_spawn(sys.executable, cmd, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, write, 1)])
    os.close(write)
    began = time.monotonic()
    while True:
        done, _, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
        # CPU of the child so far, from /proc (the limit is on CPU, not on the wall clock of a shared machine).
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            continue
        if cpu > limit:
            os.kill(pid, signal.SIGKILL)
            _, _, usage = os.wait4(pid, 0)
            os.close(read)
            return {"over": True, "cpu": cpu, "peak": usage.ru_maxrss / 1024, "wall": time.monotonic() - began}
    with os.fdopen(read) as f:
        lines = f.read().strip().splitlines()
    if not lines:  # the child died (killed, out of memory): counted as over
        return {"over": True, "cpu": limit, "peak": usage.ru_maxrss / 1024, "wall": time.monotonic() - began}
    found: dict[str, object] = json.loads(lines[-1])
    found["peak"] = usage.ru_maxrss / 1024
    return found


def run_tables(only: list[str] | None, hands: int | None, seed: int, limit: float, trials: list[str]) -> None:
    import imptools.rules.bottle_imp.search as searched

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    shown = f"search: {'compiled' if compiled else 'Python'} ({searched.__file__}), seed {seed}, limit {limit:.0f} s"
    print(shown + "".join(f", {t}" for t in trials))
    print("| table | hands | CPU s median | CPU s max | nodes median | nodes max | peak MB | over limit |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for table in only or list(TABLES):
        count = hands if hands is not None else 20 if TABLES[table][1] == 4 else 5
        results = []
        for h in range(1, count + 1):
            r = run_hand(seed, table, count, h, limit, trials)
            results.append(r)
            shown = "over" if r.get("over") else f"{r['cpu']:.2f} s, {r['nodes']} nodes"
            print(f"  {table} hand {h}: {shown}, {r['peak']:.0f} MB", file=sys.stderr, flush=True)
            if r.get("skipped"):
                print(f"  skipped: {r['skipped']}", file=sys.stderr)
        cpus = [float(r["cpu"]) for r in results]  # type: ignore[arg-type]
        nodes = [int(r["nodes"]) for r in results if not r.get("over")]  # type: ignore[call-overload]
        over = sum(1 for r in results if r.get("over"))
        peak = max(float(r["peak"]) for r in results)  # type: ignore[arg-type]
        med = f"{statistics.median(cpus):.2f}" if not over else f">= {statistics.median(cpus):.2f}"
        top = f">{limit:.0f}" if over else f"{max(cpus):.2f}"
        nmed = f"{statistics.median(nodes):,.0f}" if nodes else "-"
        nmax = f"{max(nodes):,}" if nodes else "-"
        print(f"| {table} | {count} | {med} | {top} | {nmed} | {nmax} | {peak:.0f} | {over} |", flush=True)
    print(f"(children's CPU in all: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime:.0f} s)")


if __name__ == "__main__":
    words = sys.argv[1:]
    if len(words) < 4 or not all(w.isdigit() for w in (words[0], words[2], words[3])) or words[1] not in TABLES:
        sys.exit(f"usage: python tables.py SEED TABLE HANDS HAND [TRIALS...] (one hand; TABLE: {', '.join(TABLES)})")
    one_hand(int(words[0]), words[1], int(words[2]), int(words[3]), words[4:])
