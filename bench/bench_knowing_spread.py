"""Time one hand's `imp analyse --knowing` on one process, two, and a local Dask cluster of two workers.

python bench/bench_knowing_spread.py --from-trick 5 --samples 100 --rounds 3

One four-player Bottle Imp hand (`imptools.simulate`, seed `--seed`, hand 1), every play from `--from-trick` valued
on what its player knew over `--samples` worlds, as the command does it, in rounds that alternate the three ways:

- `j1`: `imp analyse FILE --hand 1 --from-trick K --knowing --samples N --json --jobs 1`
- `j2`: the same with `--jobs 2` (the hand here, each play's worlds in two shares on two processes)
- `cluster`: the same with `--scheduler ADDRESS`, a `LocalCluster` of two worker processes of one thread each started
  by this script (the hand in the command's process, each play's worlds in two shares on the workers)

Each line gives the wall seconds and the CPU seconds of all the work: the command's process and the processes it
waited for (`wait4`), and for the cluster the workers' and the scheduler's CPU over the run as well (their
`getrusage` before and after; what they spend idle, heartbeats and all, is measured first and printed). The
outputs of the three must be the same bytes; the script says so. The machine may be shared: the load average is
printed before and after. Run it from outside the repository with a
non-editable install to measure the compiled search (the first line says which).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from imptools.simulate import Options, simulate

PLAYERS = ("Adam", "Betty", "Christian", "Doris")


def rusage_cpu() -> float:
    """This process's CPU seconds (user and system): the function the workers and the scheduler are asked to run."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(command: list[str]) -> tuple[float, float, bytes]:
    """Run `command`: its wall seconds, the CPU seconds of it and the children it waited for, and its stdout."""
    with tempfile.TemporaryFile() as out:
        began = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}")
        out.seek(0)
        return wall, usage.ru_utime + usage.ru_stime, out.read()


def cluster_cpu(client: Any) -> float:
    workers: dict[str, float] = client.run(rusage_cpu)
    scheduler: float = client.run_on_scheduler(rusage_cpu)
    return sum(workers.values()) + scheduler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-trick", type=int, default=5)
    parser.add_argument("--samples", default="100")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import distributed

    import imptools.rules.bottle_imp.search as searched

    compiled = not searched.__file__ or not searched.__file__.endswith(".py")
    print(f"search: {'compiled' if compiled else 'Python'} ({searched.__file__})")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    text = "".join(simulate(Options("bottle-imp", PLAYERS, None, hands=1, seed=args.seed)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hand.imp"
        path.write_text(text)
        base = [sys.executable, "-m", "imptools", "analyse", str(path), "--hand", "1", "--from-trick"]
        base += [str(args.from_trick), "--knowing", "--samples", args.samples, "--seed", "1", "--json"]
        figures: dict[str, list[tuple[float, float]]] = {"j1": [], "j2": [], "cluster": []}
        outputs: set[bytes] = set()
        with (
            distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
            ) as cluster,
            distributed.Client(cluster.scheduler_address) as client,
        ):
            idle = cluster_cpu(client)
            time.sleep(5)
            idle = (cluster_cpu(client) - idle) / 5
            print(f"the cluster idle (workers and scheduler): {idle:.3f} s CPU a second", flush=True)
            for r in range(args.rounds):
                for name in figures:
                    if name == "cluster":
                        before = cluster_cpu(client)
                        wall, cpu, out = timed([*base, "--scheduler", cluster.scheduler_address])
                        cpu += cluster_cpu(client) - before
                    else:
                        wall, cpu, out = timed([*base, "--jobs", name[1:]])
                    outputs.add(out)
                    figures[name].append((wall, cpu))
                    print(f"round {r + 1} {name}: {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"outputs: {'the same bytes' if len(outputs) == 1 else f'{len(outputs)} DIFFERENT'}")
    for name, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{name}: wall median {statistics.median(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}), "
            f"CPU median {statistics.median(cpus):.2f} s ({min(cpus):.2f}-{max(cpus):.2f})"
        )


if __name__ == "__main__":
    main()
