"""Ninety-nine's judging walk over masks: whether any play of a hand can be a revoke the record proves.

A revoke is proven (`holdings.revoke_findings`) only where the player did not follow the suit led and the record
shows them holding a card of it just before: a card they play later, or one of their deal (less the bid) not played
yet. As a mask over the 37 cards (bit `card`) that is a few integer operations a play, so a hand where no play can
be one skips the card-by-card search for evidence (tests/test_ninety_nine_judging.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from imptools.rules.tricks import Played, Walk


def may_revoke(tricks: Sequence[Played], suits: Sequence[str | None], kept: Mapping[str, set[int]]) -> bool:
    """Whether some play did not follow the suit led (`suits`: each card's suit in play, None where the record
    leaves it open) while the player is shown holding a card of it (`kept`: each player's deal less the bid)."""
    of_suit: dict[str, int] = {}
    for c, s in enumerate(suits):
        if s is not None:
            of_suit[s] = of_suit.get(s, 0) | 1 << c
    offs: list[tuple[str, int, str]] = []  # (player, k-th play of theirs, suit led) of every play off the suit led
    bits: dict[str, list[int]] = {}
    for played in tricks:
        cards = played.cards
        led = suits[cards[0]] if cards else None
        for i, (p, c) in enumerate(zip(played.who, cards)):
            row = bits.get(p)
            if row is None:
                row = bits[p] = []
            if i and led is not None and (own := suits[c]) is not None and own != led:
                offs.append((p, len(row), led))
            row.append(1 << c)
    if not offs:
        return False
    held: dict[str, list[int]] = {}  # what each player is shown holding before each of their plays
    for p, row in bits.items():
        dealt = 0
        for c in kept.get(p, ()):
            dealt |= 1 << c
        later, gone = 0, [0] * len(row)
        for k in range(1, len(row)):
            gone[k] = gone[k - 1] | row[k - 1]
        shown = [0] * len(row)
        for k in range(len(row) - 1, -1, -1):
            later |= row[k]
            shown[k] = later | (dealt & ~gone[k])
        held[p] = shown
    return any(held[p][k] & of_suit[led] for p, k, led in offs)


def plays_distinct(walk: Walk) -> bool:
    """Whether no card is played twice in the tricks the walk seated."""
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    cards = [c for played in tricks for c in played.cards]
    return len(set(cards)) == len(cards)
