"""`imp analyse --knowing` spread out: the worlds of each play shared among processes (`--jobs`) or a real Dask
cluster's workers (`--scheduler`) give byte for byte the figures of one process, and the worlds really ran there;
progress is told play by play; a scheduler that cannot be reached is a clear message, not a traceback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from imptools import __version__ as VERSION
from imptools.analyse import KnowingAsk, Runner, Task, tasks_for, work_spread
from imptools.reader import read_games
from imptools.simulate import Options, simulate

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Adam", "Betty", "Christian", "Doris")
ASK = ["--knowing", "--samples", "12", "--seed", "4"]


def record_text(hands: int, seed: int = 9) -> str:
    return "".join(simulate(Options("bottle-imp", PLAYERS, None, hands=hands, seed=seed)))


def local_cluster(workers: int = 2, preload: tuple[str, ...] = ()) -> Any:
    """A real local cluster on this machine: `workers` worker processes of one thread each, each running `preload`
    (a script's path) as it starts."""
    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        preload=list(preload),
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A real local cluster: two worker processes of one thread each."""
    with local_cluster() as c:
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
    remote = list(runner.results(tasks, lambda t, done, total, stage: heard.append((t.hand, done, total))))
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
    assert not work_spread(tasks, 2) and work_spread(tasks[:1], 2)
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
    shared = list(runner.results(tasks, lambda t, done, total, stage: heard.append((t.hand, done))))
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


# --------------------------------------------------------------------------- a cluster that cannot run the work

HIDE = '''"""Preloaded in a Dask scheduler or worker: `import {name}` fails there, as where it was never installed."""
import sys
from importlib.abc import MetaPathFinder


class Hide(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "{name}" or name.startswith("{name}."):
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


for loaded in [m for m in sys.modules if m == "{name}" or m.startswith("{name}.")]:
    del sys.modules[loaded]
sys.meta_path.insert(0, Hide())
'''


def hiding(tmp_path: Path, name: str) -> str:
    """A preload module for a Dask process that hides the package `name` from it."""
    path = tmp_path / f"hide_{name.replace('.', '_')}.py"
    path.write_text(HIDE.format(name=name))
    return str(path)


def two_hands(tmp_path: Path) -> Path:
    path = tmp_path / "two.imp"
    path.write_text(record_text(2, seed=3))
    return path


def refused(out: subprocess.CompletedProcess[bytes]) -> str:
    """The one line of stderr of a command the cluster could not serve: exit 2, nothing on stdout, no traceback."""
    err = out.stderr.decode()
    assert out.returncode == 2 and not out.stdout, err
    assert "Traceback" not in err and "internal error" not in err and "bug" not in err, err
    (line,) = err.splitlines()
    return line


@pytest.mark.parametrize("hidden", ["imptools", "imptools.rules.bottle_imp"])
def test_workers_without_imptools_are_named_whole_hands_or_worlds(tmp_path: Path, hidden: str) -> None:
    """Workers that cannot import imptools (or, imptools there but broken, one of its games' modules): whole hands
    and one hand's worlds alike end in one message naming it, exit 2; nothing waits for ever."""
    path = two_hands(tmp_path)
    with local_cluster(preload=(hiding(tmp_path, hidden),)) as c:
        for args in (["--json"], ["--hand", "1", "--from-trick", "7", *ASK], ["--from-trick", "7", *ASK, "--json"]):
            line = refused(imp("analyse", str(path), *args, "--scheduler", c.scheduler_address))
            assert line.startswith(f"imp: the cluster's workers cannot import imptools (No module named '{hidden}")
            assert line.endswith(
                f"install it there, the version of this machine (pip install imptools-cards=={VERSION})"
            )


def test_workers_with_another_imptools_are_named(tmp_path: Path) -> None:
    older = tmp_path / "older.py"
    older.write_text(
        '"""Preloaded in a worker: an older imptools there."""\nimport imptools\n\nimptools.__version__ = "0.0.9"\n'
    )
    with local_cluster(1, preload=(str(older),)) as c:
        line = refused(
            imp("analyse", str(two_hands(tmp_path)), "--from-trick", "7", "--scheduler", c.scheduler_address)
        )
    assert line == (
        f"imp: the cluster's workers cannot run this imptools: 0.0.9 is installed there, {VERSION} here; "
        f"install the same there (pip install imptools-cards=={VERSION})"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_a_scheduler_without_imptools_is_named(tmp_path: Path) -> None:
    """The scheduler unpickles the work too: one without imptools is named before any work is sent."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    command = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--dashboard-address", ":0", "--preload", hiding(tmp_path, "imptools")]
    scheduler = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        distributed.Client(address, timeout=60).close()  # waits until it listens
        line = refused(imp("analyse", str(two_hands(tmp_path)), "--scheduler", address))
        assert line == (
            f"imp: the Dask scheduler at {address} cannot import imptools (No module named 'imptools'): "
            f"install it there, the version of this machine (pip install imptools-cards=={VERSION})"
        )
    finally:
        scheduler.terminate()
        scheduler.wait(60)


@pytest.fixture
def fragile() -> Iterator[Any]:
    """A cluster whose scheduler gives up a task the first time its worker dies (the default retries three times)."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = local_cluster()
    with cluster:
        yield cluster


def kill_a_worker_running(address: str, prefix: str) -> str:
    """Kill (SIGKILL) the process of the first worker seen running a task named `prefix-...`; its address."""
    with distributed.Client(address) as client:
        pids: dict[str, int] = client.run(os.getpid)
        for _ in range(6000):
            for worker, keys in client.processing().items():
                if any(str(k).startswith(prefix + "-") for k in keys):
                    os.kill(pids[worker], signal.SIGKILL)
                    return str(worker)
            time.sleep(0.01)
    raise AssertionError(f"no {prefix} task ever ran")


LOST = "the cluster lost its work: the worker running it died (tried 1 time, the last on {worker}; "


def test_a_worker_killed_under_whole_hands_loses_its_hands_only(tmp_path: Path, fragile: Any) -> None:
    path = tmp_path / "three.imp"
    path.write_text(record_text(3, seed=11))
    args = ["analyse", str(path), "--from-trick", "2", "--json"]
    run_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "imptools", *args, "--scheduler", fragile.scheduler_address]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=run_env) as proc:
        worker = kill_a_worker_running(fragile.scheduler_address, "run_task")
        out, err = proc.communicate(timeout=600)
    assert proc.returncode == 2 and "Traceback" not in err.decode(), err.decode()
    here = json.loads(imp(*args, "--jobs", "1").stdout)["analyses"]
    there = json.loads(out)["analyses"]
    lost = [a["hand"] for a in there if a.get("skipped")]
    assert lost and len(lost) < 3 and len(there) == 3
    for a, b in zip(here, there, strict=True):
        if b["hand"] in lost:
            assert b["plays"] == [] and b["skipped"].startswith(LOST.format(worker=worker)), b
        else:
            assert a == b
    assert err.decode().splitlines() == [
        f"imp: not analysed, game 1, hand {h}: " + next(a["skipped"] for a in there if a["hand"] == h) for h in lost
    ]


def test_a_worker_killed_under_a_hands_worlds_loses_that_hand_only(fragile: Any) -> None:
    games = list(read_games(record_text(2, seed=7)))
    tasks = tasks_for(games, from_trick=5, knowing=KnowingAsk(10, 5))[:1]
    runner = Runner(scheduler=fragile.scheduler_address)
    assert work_spread(tasks, 2)
    killed: list[str] = []
    killer = threading.Thread(
        target=lambda: killed.append(kill_a_worker_running(fragile.scheduler_address, "world_share"))
    )
    killer.start()
    (lost,) = runner.run(tasks)
    killer.join()
    assert lost.plays == () and lost.skipped is not None and lost.skipped.startswith(LOST.format(worker=killed[0]))
    assert runner.lost == [f"game 1, hand 1: {lost.skipped}"]
    # The cluster keeps serving: the next hand on it equals the hand here.
    again = Runner(scheduler=fragile.scheduler_address)
    assert (
        again.run(tasks_for(games, hand=2, from_trick=8, knowing=KnowingAsk(6, 5)))
        == Runner(1).run(tasks_for(games, hand=2, from_trick=8, knowing=KnowingAsk(6, 5)))
        and not again.lost
    )


def test_a_cluster_without_workers_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import imptools.cluster

    monkeypatch.setattr(imptools.cluster, "WAIT", 0.1)
    monkeypatch.setattr(imptools.cluster, "NO_WORKERS", 0.5)
    tasks = tasks_for(list(read_games(record_text(1))), from_trick=9)
    with (
        distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None) as c,
        pytest.raises(imptools.cluster.ClusterUnavailable) as caught,
    ):
        Runner(scheduler=c.scheduler_address).run(tasks)
    assert str(caught.value) == (
        f"the Dask scheduler at {c.scheduler_address} has had no worker for 0.5 s: "
        "the work sent there cannot run (start workers for it: dask worker ADDRESS)"
    )
