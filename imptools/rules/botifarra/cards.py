"""Botifarra's cards: the Spanish pack as small integers (`suit * 12 + rank - 1`), their strength, points and names."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

SUITS = ("o", "c", "e", "b")
"""Suit letters, in engine order."""
SUIT_NAMES = ("oros", "copes", "espases", "bastos")
"""Suit names, in engine order (the words of a `trump` line)."""
ORDER = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
"""Ranks in a suit, high to low."""
POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
"""Card points by rank; every other rank is worth nothing."""
BOTIFARRA = "botifarra"
"""The `trump` word for no trump."""
TRUMP_WORDS: dict[str, int | None] = {**{name: i for i, name in enumerate(SUIT_NAMES)}, BOTIFARRA: None}
"""The words a `trump` line may name: a suit's index, or None for botifarra."""
SHORT_RANKS = (2, 3, 4)
"""Ranks left out of the three-player deck."""

_STRENGTH = {rank: len(ORDER) - i for i, rank in enumerate(ORDER)}
_CARD = re.compile(r"0*(1[0-2]|[1-9])([ocebOCEB])")


def make(rank: int, suit: int) -> int:
    """The engine card of a rank (1-12) and a suit index.

    >>> make(9, 0), make(12, 3)
    (8, 47)
    """
    return suit * 12 + rank - 1


def suit_of(card: int) -> int:
    """The suit index of an engine card."""
    return card // 12


def rank_of(card: int) -> int:
    """The rank (1-12) of an engine card."""
    return card % 12 + 1


_STRENGTH_OF = tuple(_STRENGTH[c % 12 + 1] for c in range(48))
POINTS_OF = tuple(POINTS.get(c % 12 + 1, 0) for c in range(48))


def strength(card: int) -> int:
    """How high a card ranks in its suit: 12 for the 9, 1 for the 2."""
    return _STRENGTH_OF[card]


def points(card: int) -> int:
    """The card's points: 9=5, 1=4, 12=3, 11=2, 10=1, others 0."""
    return POINTS_OF[card]


def is_point(card: int) -> bool:
    """True for the point cards 9 1 12 11 10."""
    return rank_of(card) in POINTS


def spell(card: int) -> str:
    """The card as the notation writes it: `9o`, `12e`."""
    return f"{rank_of(card)}{SUITS[suit_of(card)]}"


def card_name(card: int) -> str:
    """The card in words: `11 of copes`."""
    return f"{rank_of(card)} of {SUIT_NAMES[suit_of(card)]}"


def describe(card: int) -> str:
    """The card for a message: `the 11 of copes`."""
    return f"the {card_name(card)}"


@functools.lru_cache(maxsize=1024)
def card_number(text: str) -> int | None:
    """The engine card a token spells (None when it is no Botifarra card), whatever the deck.

    >>> card_number("9o"), card_number("12B"), card_number("13o")
    (8, 47, None)
    """
    m = _CARD.fullmatch(text)
    return None if m is None else make(int(m.group(1)), SUITS.index(m.group(2).lower()))


@functools.lru_cache(maxsize=8)
def deck(players: int) -> frozenset[int]:
    """The cards in play: 48, or 36 with three players (no 2, 3 or 4).

    >>> len(deck(4)), len(deck(3)), len(deck(2))
    (48, 36, 48)
    """
    left_out = SHORT_RANKS if players == 3 else ()
    return frozenset(c for c in range(48) if rank_of(c) not in left_out)


def lowest(cards: Iterable[int]) -> int:
    """The lowest-ranked of some cards."""
    return min(cards, key=strength)


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """The index of the winning card: the highest trump, else the highest card of the suit led.

    `trump` is a suit index, None for botifarra (no trump).

    >>> trick_winner([make(11, 1), make(9, 1), make(2, 0), make(1, 1)], None)
    1
    >>> trick_winner([make(11, 1), make(9, 1), make(2, 0), make(1, 1)], 0)
    2
    """
    led = cards[0] // 12
    win, best = 0, -1
    for i, c in enumerate(cards):
        s = c // 12
        rank = (32 if s == trump else 16 if s == led else 0) + _STRENGTH_OF[c]
        if rank > best:
            win, best = i, rank
    return win
