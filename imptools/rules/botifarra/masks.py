"""Botifarra's cards as bits for the searches: masks, the obligation table and the trick's winner over masks.

A suit's twelve cards lie in order of strength (bit `suit * 12 + strength - 1`, see `BIT`), so "a card that
beats", "the lowest card of a suit" and "the cards between two cards" are a few integer operations.
`legal_mask` is `botifarra.legal_cards` over masks and `beats` the rule of `botifarra.trick_winner`;
tests/test_analyse_botifarra.py proves both equal to the checker's own functions.
"""

from __future__ import annotations

from imptools.rules.botifarra.cards import points, strength, suit_of
from imptools.rules.botifarra.obligations import ANY, LOW, LOW_OR_POINT, TABLES

BIT: tuple[int, ...] = tuple(suit_of(c) * 12 + strength(c) - 1 for c in range(48))
"""The search's bit for an engine card: the suit's twelve bits, weakest card lowest."""
CARD: tuple[int, ...] = tuple(sorted(range(48), key=lambda c: BIT[c]))
"""The engine card of a bit (the inverse of `BIT`)."""
SUIT_MASK: tuple[int, ...] = tuple(0xFFF << (12 * s) for s in range(4))
"""The bits of each suit."""
POINTS_OF: tuple[int, ...] = tuple(points(CARD[b]) for b in range(48))
"""The card points of each bit."""
POINT_MASK = sum(1 << b for b in range(48) if POINTS_OF[b])
"""The point cards (9 1 12 11 10 of every suit)."""


def mask_of(cards: set[int] | list[int]) -> int:
    """The mask of some engine cards."""
    m = 0
    for c in cards:
        m |= 1 << BIT[c]
    return m


def lows(held: int) -> int:
    """The lowest card of each suit of `held`."""
    out = 0
    for s in SUIT_MASK:
        x = held & s
        if x:
            out |= x & -x
    return out


def beats(card: int, winning: int, trump: int) -> bool:
    """Whether bit `card`, played after bit `winning` (the card winning the trick so far), wins it: a higher
    card of its suit, or a trump on a card that is not one (`trump` -1 for botifarra)."""
    s, w = card // 12, winning // 12
    return (s == w and card > winning) or (s == trump and w != trump)


CELL_CODE = {ANY: 0, LOW: 1, LOW_OR_POINT: 2}
"""An obligation table's cell as a number for `legal_coded`."""


def coded(rules: str) -> int:
    """The obligation table of `rules` as one number: its cells (`CELL_CODE`) when the partner is master, when the
    player cannot beat the card winning the trick, and when he cannot trump, two bits each."""
    table = TABLES[rules]
    return CELL_CODE[table.partner_master] | CELL_CODE[table.cannot_beat] << 2 | CELL_CODE[table.cannot_trump] << 4


def legal_mask(rules: str, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`botifarra.legal_cards` over masks: the cards of `held` the obligation table allows.

    `led` is the suit led (-1 when the player leads), `winning` the bit of the
    card winning the trick so far, `trump` the trump suit (-1 for botifarra).
    The table's cells are read from `obligations.TABLES`, the checker's own data.
    """
    return legal_coded(coded(rules), trump, led, winning, partner_master, held)


def legal_coded(cells: int, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`legal_mask` with the obligation table as `coded` gives it (the searches' inner loop)."""
    if led < 0:
        return held
    follow = held & SUIT_MASK[led]
    if partner_master:
        pool = follow or held
        cell = cells & 3
        return pool if cell == 0 else _allowed(cell, pool, lows(pool))
    above = ~((2 << winning) - 1)
    if follow:
        beaters = follow & above if winning // 12 == led else 0
        if beaters:
            return beaters
        cell = cells >> 2 & 3
        return follow if cell == 0 else _allowed(cell, follow, follow & -follow)
    if trump >= 0:
        trumps = held & SUIT_MASK[trump]
        if winning // 12 == trump:
            trumps &= above
        if trumps:
            return trumps
    cell = cells >> 4 & 3
    return held if cell == 0 else _allowed(cell, held, lows(held))


def _allowed(cell: int, pool: int, low: int) -> int:
    """What a cell that is not `ANY` (coded) allows of `pool`, whose lowest card of each suit is `low`."""
    return low if cell == 1 else pool & (POINT_MASK | low)


def cannot_be_taken(hands: list[int], n: int, trump: int, lead: int, k: int, win: int, led: int) -> bool:
    """Whether no player after the `k`-th of the trick (led in suit `led`) can take its winning card `win` (by
    the cards they hold)."""
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    above = ~((2 << win) - 1)
    wsuit = win // 12
    for j in range(k + 1, n):
        held = hands[(lead + j) % n]
        follow = held & SUIT_MASK[led]
        if follow:
            if wsuit == led and follow & above:
                return False
        elif held & trump_mask and (wsuit != trump or held & trump_mask & above):
            return False
    return True
