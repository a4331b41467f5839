"""The mix of two 64-bit words that the C searches use to pick a slot of their small tables (`csolver.c`,
`cescape.c`), written once for the Python searches that must pick the very same slots."""

from __future__ import annotations

M64 = (1 << 64) - 1
"""A 64-bit word's bits."""


def hash2(a: int, b: int) -> int:
    """Two 64-bit words mixed into one (the C searches' `hash2`: the same bits here)."""
    h = a * 0x9E3779B97F4A7C15 & M64
    h = (h ^ h >> 29 ^ b) * 0xBF58476D1CE4E5B9 & M64
    return h ^ h >> 32
