"""Tests that run a program of the system (tmux, Chromium): `@pytest.mark.needs(program, ..., package=...)`;
the fixture `postgres`, a real PostgreSQL server the tests start (and stop) themselves.

Where none of the programs is on the PATH the test is skipped, naming the Debian package that brings it; under CI
(`CI` set, as .ci/run runs) it fails instead, since CI installs them and a skip there would hide a missing step.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

# tests/conformance holds the notation's conformance cases and their runner, data and not tests.
collect_ignore = ["conformance"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*programs, package): runs one of these programs, which the Debian package `package` brings"
    )


def missing_program(why: str) -> NoReturn:
    """Skip the test, saying what to install; under CI, fail it."""
    if os.environ.get("CI"):
        pytest.fail(f"{why}; CI installs it (.ci/run), so it must be here", pytrace=False)
    pytest.skip(why)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        if not any(shutil.which(program) for program in mark.args):
            missing_program(f"needs {mark.args[0]} (Debian package {mark.kwargs['package']})")


# --------------------------------------------------------------------------- a real PostgreSQL server

POSTGRES_MISSING = "needs PostgreSQL (Debian package postgresql)"


class PostgresServer:
    """A PostgreSQL server of the tests' own, on a free loopback port; `database()` makes an empty database."""

    def __init__(self, bin_dir: Path, root: Path, as_user: list[str]) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data = root / "data"
        self.as_user = as_user
        self.port = _free_port()
        self.made = 0

    def run(self, program: str, *args: str) -> None:
        out = subprocess.run(
            [*self.as_user, str(self.bin_dir / program), *args], capture_output=True, text=True, timeout=120
        )
        if out.returncode != 0:
            raise RuntimeError(f"{program} failed: {out.stdout}{out.stderr}")

    def start(self) -> None:
        self.run("initdb", "-D", str(self.data), "-U", "imp", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -F"  # loopback only; no fsync: a test's data
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"), "-w", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, name: str) -> str:
        return f"postgresql://imp@127.0.0.1:{self.port}/{name}"

    def database(self) -> str:
        """The address of a new, empty database on the server."""
        import psycopg

        self.made += 1
        name = f"archive_{self.made}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_bin() -> Path | None:
    """The newest installed server's programs (Debian keeps them out of the PATH), else initdb on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(re.sub(r"\D", "", p) or 0))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session: skipped where none is installed (failed under CI).

    PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user Debian's package makes,
    in a temporary folder of its own.
    """
    bin_dir = _postgres_bin()
    if bin_dir is None:
        missing_program(POSTGRES_MISSING)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing_program("needs psycopg (pip install 'imptools-cards[postgres]')")
    root = Path(tempfile.mkdtemp(prefix="imp-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            missing_program(f"{POSTGRES_MISSING}: no postgres user to run the server as")
        os.chown(root, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    server = PostgresServer(bin_dir, root, as_user)
    try:
        server.start()
        yield server
    finally:
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError):
            server.stop()
        shutil.rmtree(root, ignore_errors=True)
