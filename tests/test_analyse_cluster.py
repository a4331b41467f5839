"""`imp analyse --knowing` spread out: the worlds of each play shared among processes (`--jobs`) or a real Dask
cluster's workers (`--scheduler`) give byte for byte the figures of one process, and the worlds really ran there;
progress is told play by play; a scheduler that cannot be reached is a clear message, not a traceback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from imptools.analyse import KnowingAsk, Runner, Task, tasks_for, worlds_spread
from imptools.reader import read_games
from imptools.simulate import Options, simulate

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Adam", "Betty", "Christian", "Doris")
ASK = ["--knowing", "--samples", "12", "--seed", "4"]


def record_text(hands: int, seed: int = 9) -> str:
    return "".join(simulate(Options("bottle-imp", PLAYERS, None, hands=hands, seed=seed)))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A real local cluster: two worker processes of one thread each."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as c:
        yield c


def ran_on_workers(address: str) -> dict[str, list[str]]:
    """The keys of the tasks each worker of the cluster has finished so far (from the workers' own logs)."""
    with distributed.Client(address) as client:
        logs: dict[str, list[str]] = client.run(
            lambda dask_worker: [str(e[0]) for e in dask_worker.state.log if e[2] == "memory"]
        )
    return logs


def new_tasks(before: dict[str, list[str]], after: dict[str, list[str]], prefix: str) -> dict[str, int]:
    """How many tasks named `prefix-...` each worker finished between the two looks."""
    return {
        w: sum(1 for k in keys if k.startswith(prefix + "-") and k not in set(before[w])) for w, keys in after.items()
    }


def imp(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    run_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "imptools", *args], capture_output=True, env=run_env, timeout=600)


def test_the_command_gives_the_same_bytes_on_one_process_two_and_a_cluster(tmp_path: Path, cluster: Any) -> None:
    path = tmp_path / "one.imp"
    path.write_text(record_text(1))
    args = ["analyse", str(path), "--from-trick", "7", *ASK, "--json"]
    one = imp(*args, "--jobs", "1")
    assert one.returncode == 0, one.stderr
    two = imp(*args, "--jobs", "2")
    before = ran_on_workers(cluster.scheduler_address)
    remote = imp(*args, "--scheduler", cluster.scheduler_address)
    after = ran_on_workers(cluster.scheduler_address)
    assert remote.returncode == two.returncode == 0, remote.stderr
    assert one.stdout == two.stdout == remote.stdout
    # One hand on two threads: the hand here, each play's worlds in two shares, one task a share, on both workers.
    (hand,) = json.loads(remote.stdout)["analyses"]
    assert any(p["knowing"]["worlds"] == 12 for p in hand["plays"])
    spread = sum(1 for p in hand["plays"] if p["knowing"]["worlds"] > 1)
    shares = new_tasks(before, after, "world_share")
    assert spread >= 6 and sum(shares.values()) == 2 * spread and all(n > 0 for n in shares.values()), shares
    assert sum(new_tasks(before, after, "run_task").values()) == 0


def test_the_worlds_of_a_few_hands_are_shared_by_the_cluster_and_progress_is_told(cluster: Any) -> None:
    tasks = tasks_for(list(read_games(record_text(1, seed=5))), from_trick=6, knowing=KnowingAsk(10, 1))
    heard: list[tuple[int, int, int]] = []
    before = ran_on_workers(cluster.scheduler_address)
    runner = Runner(scheduler=cluster.scheduler_address)
    remote = list(runner.results(tasks, lambda t, done, total: heard.append((t.hand, done, total))))
    after = ran_on_workers(cluster.scheduler_address)
    here = Runner(1).run(tasks)
    assert remote == here
    (a,) = here
    assert heard == [(1, done, len(a.plays)) for done in range(len(a.plays) + 1)] and len(a.plays) == 12
    spread = sum(1 for p in a.plays if p.knowing is not None and p.knowing.worlds > 1)
    shares = new_tasks(before, after, "world_share")
    assert spread and sum(shares.values()) == 2 * spread, shares


def test_as_many_hands_as_threads_go_whole_to_the_cluster(cluster: Any) -> None:
    tasks = tasks_for(list(read_games(record_text(2, seed=3))), from_trick=7, knowing=KnowingAsk(8, 2))
    assert not worlds_spread(tasks, 2) and worlds_spread(tasks[:1], 2)
    before = ran_on_workers(cluster.scheduler_address)
    remote = Runner(scheduler=cluster.scheduler_address).run(tasks)
    after = ran_on_workers(cluster.scheduler_address)
    assert remote == Runner(1).run(tasks) and all(a.plays and a.skipped is None for a in remote)
    assert sum(new_tasks(before, after, "run_task").values()) == 2
    assert sum(new_tasks(before, after, "world_share").values()) == 0


def test_fewer_hands_than_jobs_share_the_worlds_and_tell_each_play() -> None:
    tasks = tasks_for(list(read_games(record_text(2, seed=7))), from_trick=7, knowing=KnowingAsk(10, 5))
    runner = Runner(3)
    assert runner.in_process(tasks) and not Runner(2).in_process(tasks)
    heard: list[tuple[int, int]] = []
    shared = list(runner.results(tasks, lambda t, done, total: heard.append((t.hand, done))))
    assert shared == Runner(1).run(tasks) == Runner(2).run(tasks)
    assert [h for h, done in heard if done == 0] == [1, 2]
    plain = [Task(t.game, t.hand, t.from_trick) for t in tasks]
    assert not Runner(3).in_process(plain)  # without --knowing, the hands go whole to the processes as before


def test_an_unreachable_scheduler_is_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "one.imp"
    path.write_text(record_text(1))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))  # a port of this machine that nothing listens on
        port = s.getsockname()[1]
    env = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
    out = imp("analyse", str(path), "--from-trick", "9", *ASK, "--scheduler", f"tcp://127.0.0.1:{port}", env=env)
    err = out.stderr.decode()
    assert out.returncode == 2 and not out.stdout, err
    assert f"imp: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in err
    assert "Traceback" not in err and "bug" not in err
    out = imp("analyse", str(path), "--scheduler", "nowhere://x")
    assert out.returncode == 2 and b"cannot reach the Dask scheduler at nowhere://x" in out.stderr
    assert b"Traceback" not in out.stderr
