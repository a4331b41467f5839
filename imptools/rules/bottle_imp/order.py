"""The order in which the Bottle Imp's own searches (escape.py) try a player's cards: nearest the price for the
players against the one asked about, and the killer cards that go before it."""

from __future__ import annotations

from collections.abc import Iterable

from imptools.rules.hashing import M64, hash2

KILLER_SLOTS = 1 << 16
"""Slots of a `Gains` solver's killer cards (512 KB in C): the card with which the same hand in the same place of a
trick (`killer_hash`) last held the player asked about under the window, or for his own side last lifted him to it,
tried first there."""


def killer_hash(held: int, colour: int, side_wins: bool, taken: bool) -> int:
    """A hand `held` (a card mask) to play to a trick whose first card is of the colour `colour` (its index among the
    deal's colours; -1 at a trick's start), the side asked about winning it so far or not, a bottle taken by it so far
    or not, as a hash: its low bits pick a slot of `Gains`' killer cards, which keeps it with its top bit set (a slot
    of 0 is empty) and its seven low bits replaced by the card (`cescape.c`'s `killer_hash`: the same bits)."""
    return hash2(hash2(held & M64, held >> 64), (colour + 1) | side_wins << 8 | taken << 9) | 1 << 63


def killer_first(cards: tuple[int, ...], killer: int | None) -> tuple[int, ...]:
    """`cards` with `killer` tried first (a killer move: the card that last cut off there), where it is among them.

    >>> killer_first((4, 12, 30), 30)
    (30, 4, 12)
    """
    if killer is None or killer == cards[0] or killer not in cards:
        return cards
    return (killer, *(c for c in cards if c != killer))


def nearest_price(cards: Iterable[int], price: int) -> list[int]:
    """The order in which the players against P try their cards: nearest the price first; below it the highest
    first (taking the bottle at a high price leaves P's low cards under it), then above it the lowest first (the
    high cards kept for later).

    >>> nearest_price([4, 30, 44, 60, 12], 38)
    [30, 12, 4, 44, 60]
    """
    ordered = sorted(cards, reverse=True)
    return [c for c in ordered if c < price] + [c for c in reversed(ordered) if c > price]
