"""Damaged copies of real records, for the fuzz, property and batch tests (and bench/fuzz.py, bench/damage.py).

A damage is what happens to records in life: a byte changed, a span lost or
doubled, lines swapped or dropped, a file cut short, a line from another record
pasted in, the characters the notation treats specially typed in the wrong place.
"""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CONFORMANCE = ROOT / "tests" / "conformance"

NASTY = [
    b"{",
    b"}",
    b"\x00",
    b"\xff",
    b"\xc3",
    b":",
    b">",
    b".",
    b'"',
    b";",
    b"[",
    b"]",
    b"?",
    b"!",
    b"-",
    b"\r",
    b"\n",
    b" ",
    b"\t",
    b"0",
    b"9",
    b"19",
    b"27.5",
    b"9" * 400,
    b"Adam",
    b"hand 1",
    b"deal",
    b"1.",
    b"\xe2\x80\xa8",
]


def seed_records() -> list[bytes]:
    """The text of every sample and conformance record (the cases in tests/conformance)."""
    paths = sorted(SAMPLES.glob("*.imp")) + sorted(CONFORMANCE.rglob("*.imp"))
    return [p.read_bytes() for p in paths]


def damage(data: bytes, rng: random.Random, others: list[bytes] | None = None) -> bytes:
    """`data` with one to four random damages."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(9)
        at = rng.randrange(len(out) + 1)
        if kind == 0 and out:  # a byte changed
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:  # a special character typed in
            out[at:at] = rng.choice(NASTY)
        elif kind == 2:  # a span lost
            del out[at : at + rng.randint(1, 40)]
        elif kind == 3:  # a span doubled
            out[at:at] = out[at : at + rng.randint(1, 40)]
        elif kind == 4:  # cut short
            del out[at:]
        else:
            lines = bytes(out).split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if kind == 5:  # two lines swapped
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == 6:  # a line dropped
                del lines[i]
            elif kind == 7 and others:  # a line of another record pasted in
                lines.insert(i, rng.choice(rng.choice(others).split(b"\n")))
            else:  # a line's words shuffled
                words = lines[i].split(b" ")
                rng.shuffle(words)
                lines[i] = b" ".join(words)
            out = bytearray(b"\n".join(lines))
    return bytes(out)


KEYS = {"code", "severity", "path", "line", "column", "game", "hand", "trick", "player", "message"}


def check_batch(command: str, paths: list[str]) -> dict[str, int]:
    """Run `imp COMMAND --json` over `paths` as a user would; count what happened; AssertionError on a broken promise.

    The promises: no traceback on stderr; exit 0, 1 or 2, or 3 only with an `internal` finding; stdout is
    one JSON document; every finding has the keys of the notation's section 8.
    """
    import json
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "imptools", command, "--json", *paths],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    stderr = out.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr[-3000:]
    assert out.returncode in (0, 1, 2, 3), (out.returncode, stderr[-2000:])
    doc = json.loads(out.stdout)  # one whole document, or this raises
    findings = doc["findings"] if command == "validate" else doc["internal"]
    for f in findings:
        assert set(f) >= KEYS, f
    if command == "score":
        for game in doc["games"]:
            assert {"path", "game", "players", "hands", "totals"} <= set(game), game
    internal = sum(1 for f in findings if f["code"] == "internal")
    assert (out.returncode == 3) == (internal > 0), (out.returncode, internal)
    return {f"exit {out.returncode}": 1, "internal findings": internal, "findings": len(findings)}


def damaged_batches(folder: Path, copies: int, seed: int, batch: int = 100) -> list[list[str]]:
    """Write `copies` damaged copies of the seed records into `folder`, in groups of `batch` paths."""
    rng = random.Random(seed)
    seeds = seed_records()
    paths = []
    for i in range(copies):
        p = folder / f"d{i:05d}.imp"
        p.write_bytes(damage(rng.choice(seeds), rng, seeds))
        paths.append(str(p))
    return [paths[i : i + batch] for i in range(0, len(paths), batch)]
