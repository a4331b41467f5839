"""The batch promise, as a user meets it: damaged records through `imp validate --json` and `imp score --json`.

A bounded run (bench/damage.py runs 10,000 records): seeded damaged copies of the
conformance and sample records, in batches of 100, each command a subprocess.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from damage import check_batch, damaged_batches


@pytest.mark.parametrize("command", ["validate", "score"])
def test_damaged_records_in_batches_keep_every_promise(tmp_path: Path, command: str) -> None:
    batches = damaged_batches(tmp_path, copies=600, seed=2026)
    assert len(batches) == 6
    seen: dict[str, int] = {}
    for paths in batches:
        for key, n in check_batch(command, paths).items():
            seen[key] = seen.get(key, 0) + n
    if command == "validate":
        assert seen["findings"] > 600  # damage is found, not passed over
