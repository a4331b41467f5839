"""Work sent to a Dask cluster: its scheduler reached, checked to run imptools, and every fault there told in words.

`connect(address)` reaches the scheduler and asks it and each of its workers to import
what the work needs (`imptools.analyse`, the very function a task names, and the
same `imptools.__version__` as here) before any work is sent: a machine without
imptools cannot read a task at all (a worker dies reading it, or waits for ever,
and the scheduler refuses the graph), so that is found first and named
(`ClusterUnavailable`, "the cluster's workers cannot import imptools: install it
there ..."). While the work runs, `Cluster.outcome` waits for a result and tells
apart: the work's own exception (passed on as it is: a bug is a bug wherever it
ran); a piece of work whose worker died as often as the scheduler allows
(`WorkLost`: that hand is not analysed, the others go on); a task that could not
import something there (`ClusterUnavailable`); the scheduler gone, or no worker
left for `NO_WORKERS` seconds (`ClusterUnavailable`). Dask itself (`distributed`)
is imported only here and only when a scheduler is asked for.
"""

from __future__ import annotations

import pkgutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Executor, Future
from typing import Any, TypeVar

import imptools

T = TypeVar("T")

WAIT = 2.0
"""Seconds a wait for a result lasts before the cluster is looked at again (is it still there, has it workers)."""
NO_WORKERS = 60.0
"""Seconds the cluster may have no worker at all while work waits there before the work is given up."""
NEEDED = "imptools.analyse:run_task"
"""What a worker unpickles to run a task (the analysis module and everything it imports), as `pkgutil` names it."""
INSTALL = "install it there, the version of this machine (pip install imptools-cards=={version})"


class ClusterUnavailable(Exception):
    """The Dask cluster asked for cannot run the work: `distributed` is not installed here, the scheduler cannot be
    reached or was lost, the scheduler or its workers cannot import imptools, or no worker is left (the message says
    which)."""


class WorkLost(Exception):
    """A piece of work the cluster gave up: every worker that ran it died while running it (killed, out of memory),
    as many times as its scheduler allows."""


def connect(address: str) -> Cluster:
    """The cluster whose scheduler listens at `address`, checked to run imptools (`ClusterUnavailable` if not)."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ClusterUnavailable(
            "--scheduler needs Dask distributed: install imptools with the cluster extra (imptools-cards[cluster])"
        ) from exc
    try:
        client = Client(address)  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    cluster = Cluster(client, address)
    try:
        cluster.check()
    except BaseException:
        client.close()  # type: ignore[no-untyped-call]
        raise
    return cluster


def cannot_import(where: str, exc: BaseException) -> str:
    """The words for `where` ("the Dask scheduler at ...", "the cluster's workers") failing to import what it needs."""
    version = imptools.__version__
    missing = getattr(exc, "name", None)
    if isinstance(exc, ImportError) and missing and missing.split(".")[0] != "imptools":
        return (
            f"{where} cannot import imptools: it needs {missing}, which is not installed there ({exc}); "
            + INSTALL.format(version=version).replace("install it", "install imptools and its dependencies")
        )
    return f"{where} cannot import imptools ({exc}): " + INSTALL.format(version=version)


class Cluster:
    """A Dask client, with the waits and the checks that turn the cluster's faults into messages."""

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self) -> None:
        """Ask the scheduler, then every worker, to import what the work needs; `ClusterUnavailable` if one cannot,
        or runs another version of imptools. A cluster without workers is given `NO_WORKERS` seconds to get one."""
        here = imptools.__version__
        places: list[tuple[str, Callable[..., Any]]] = [
            (f"the Dask scheduler at {self.address}", self.client.run_on_scheduler),
            ("the cluster's workers", self.client.run),
        ]
        for where, run in places:
            if run is self.client.run:
                self.workers()
            try:
                run(pkgutil.resolve_name, NEEDED)
                got = run(pkgutil.resolve_name, "imptools:__version__")
            except OSError as exc:
                raise ClusterUnavailable(f"lost the Dask scheduler at {self.address}: {exc}") from None
            except Exception as exc:  # importing there failed: the module missing, or broken there
                raise ClusterUnavailable(cannot_import(where, exc)) from None
            other = sorted(({got} if isinstance(got, str) else set(got.values())) - {here})
            if other:
                raise ClusterUnavailable(
                    f"{where} cannot run this imptools: {', '.join(other)} is installed there, {here} here; "
                    f"install the same there (pip install imptools-cards=={here})"
                )

    def workers(self) -> int:
        """The threads of the cluster's workers; `ClusterUnavailable` where it has none for `NO_WORKERS` seconds."""
        waited = 0.0
        while True:
            try:
                slots = sum(self.client.nthreads().values())
            except OSError as exc:
                raise ClusterUnavailable(f"lost the Dask scheduler at {self.address}: {exc}") from None
            if slots:
                return int(slots)
            if waited >= NO_WORKERS:
                raise ClusterUnavailable(
                    f"the Dask scheduler at {self.address} has had no worker for {NO_WORKERS:g} s: "
                    "the work sent there cannot run (start workers for it: dask worker ADDRESS)"
                )
            time.sleep(WAIT)
            waited += WAIT

    def map(self, fn: Callable[[T], Any], items: Iterable[T]) -> list[Any]:
        """`fn` of each item on the cluster: Dask's futures, to wait for with `outcome`."""
        return list(self.client.map(fn, list(items), pure=False))

    def outcome(self, future: Any) -> Any:
        """The result of a Dask future: waited for while the cluster is there and has workers. Raises the work's
        own exception; `WorkLost` where the scheduler gave the work up after its workers died; `ClusterUnavailable`
        where a worker could not import what the work needs, the scheduler is lost or no worker is left."""
        from distributed.scheduler import KilledWorker

        while True:
            try:
                return future.result(timeout=WAIT)
            except TimeoutError:
                self.workers()
            except KilledWorker as exc:
                raise WorkLost(
                    f"the worker running it died (tried {exc.allowed_failures + 1} time"
                    f"{'s' if exc.allowed_failures else ''}, the last on {exc.last_worker.address}; "
                    "killed, or out of memory? see the workers' logs)"
                ) from None
            except (ImportError, AttributeError) as exc:
                if isinstance(exc, AttributeError) and "Can't get attribute" not in str(exc):
                    raise  # the work's own bug, not an older module there
                raise ClusterUnavailable(cannot_import("the cluster's workers", exc)) from None
            except (CancelledError, OSError) as exc:
                if future.status == "error":
                    raise  # the work's own exception
                raise ClusterUnavailable(f"lost the Dask scheduler at {self.address}: {exc}") from None

    def executor(self) -> Executor:
        """An `Executor` over the cluster whose futures wait as `outcome` does."""
        return Sender(self)


class Sender(Executor):
    """Sends each call to the cluster; its futures' `result` waits as `Cluster.outcome` does."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return Awaited(self.cluster, self.cluster.client.submit(fn, *args, pure=False, **kwargs))


class Awaited(Future[T]):
    """A call sent to the cluster: only `result` is meant to be asked (it waits there as `Cluster.outcome` does)."""

    def __init__(self, cluster: Cluster, future: Any) -> None:
        super().__init__()
        self.cluster = cluster
        self.remote = future

    def result(self, timeout: float | None = None) -> T:
        value: T = self.cluster.outcome(self.remote)
        return value
