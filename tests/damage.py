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
CONFORMANCE = ROOT.parent / "shared" / "conformance"

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
    """The text of every sample and conformance record (the conformance cases when they are beside the project)."""
    paths = sorted(SAMPLES.glob("*.imp"))
    if CONFORMANCE.is_dir():
        paths += sorted(CONFORMANCE.rglob("*.imp"))
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
