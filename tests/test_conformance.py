"""The notation's conformance cases, kept inside the repository (tests/conformance), run through `imp`.

The cases are data the project owns a copy of: a fresh clone tests itself with
nothing beside it. Where the notation's own folder is beside the project
(`../shared/conformance`), the copy must be identical to it, file for file.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COPY = ROOT / "tests" / "conformance"
SHARED = ROOT.parent / "shared" / "conformance"
FOLDERS = ("bottle-imp", "botifarra", "ninety-nine", "slips")
CASES = sorted(p for folder in FOLDERS for p in (COPY / folder).glob("*.imp"))


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its relative path (Python's byte-code caches left out)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_the_copy_holds_every_game_folder_the_runner_and_its_readme() -> None:
    files = _files(COPY)
    assert {"run.py", "README.md"} <= set(files)
    for folder in FOLDERS:
        names = [n for n in files if n.startswith(f"{folder}/")]
        imps = [n for n in names if n.endswith(".imp")]
        assert imps, folder
        # every case has its expectation beside it
        assert sorted(n[: -len(".imp")] + ".expect.json" for n in imps) == sorted(
            n for n in names if n.endswith(".expect.json")
        ), folder


@pytest.mark.skipif(
    not SHARED.is_dir(),
    reason="no ../shared/conformance beside the repository to compare tests/conformance with (CI has it)",
)
def test_the_copy_is_the_shared_conformance_folder() -> None:
    copy, shared = _files(COPY), _files(SHARED)
    added = sorted(set(copy) - set(shared))
    missing = sorted(set(shared) - set(copy))
    changed = sorted(n for n in set(copy) & set(shared) if copy[n] != shared[n])
    assert (added, missing, changed) == ([], [], []), (
        "tests/conformance differs from ../shared/conformance; copy it again: "
        f"added {added[:10]}, missing {missing[:10]}, changed {changed[:10]}"
    )


@pytest.fixture(scope="module")
def runner_failures() -> dict[str, str]:
    """The conformance runner's verdict on every case at once: the failing cases, by path, with the reasons."""
    command = f'"{sys.executable}" -m imptools'
    run = subprocess.run(
        [sys.executable, str(COPY / "run.py"), "--cmd", command, "--show", str(len(CASES) + 1)]
        + [str(COPY / folder) for folder in FOLDERS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=600,
    )
    assert run.returncode in (0, 1), run.stdout[-2000:] + run.stderr[-2000:]
    last = run.stdout.strip().splitlines()[-1]
    counts = re.fullmatch(r"(\d+) passed, (\d+) failed", last)
    assert counts is not None, last
    assert int(counts[1]) + int(counts[2]) == len(CASES)  # the runner judged every case
    failures = {}
    for line in run.stdout.splitlines():
        if line.startswith("FAIL "):
            path, _, reasons = line[len("FAIL ") :].partition(": ")
            failures[str(Path(path).resolve())] = reasons
    assert len(failures) == int(counts[2])
    return failures


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_conformance_case(case: Path, runner_failures: dict[str, str]) -> None:
    reasons = runner_failures.get(str(case.resolve()))
    if reasons is not None:
        pytest.fail(f"{case.parent.name}/{case.name}: {reasons}", pytrace=False)
