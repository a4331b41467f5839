"""Ninety-nine's bids: the shape of a bid's three cards and the tricks they bid."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from imptools.rules.ninety_nine.cards import BID_CARDS, JOKER, MAX_BID, effective, suit


@dataclass(frozen=True, slots=True)
class BidProblem:
    """Why a `bid` line is not a bid: the `bad-bid` message."""

    message: str


def bid_shape(cards: int, number: int | None) -> BidProblem | None:
    """Check the shape of a bid: three cards, or a number from 0 to 9.

    >>> bid_shape(3, None) is None, bid_shape(0, 9) is None
    (True, True)
    >>> bid_shape(4, None).message
    'a bid is three cards, not 4'
    >>> bid_shape(0, 10).message
    'a bid is 0 to 9, not 10'
    """
    if number is not None:
        return None if 0 <= number <= MAX_BID else BidProblem(f"a bid is 0 to {MAX_BID}, not {number}")
    if cards != BID_CARDS:
        return BidProblem(f"a bid is three cards, not {cards}")
    return None


def bid_value(cards: Sequence[int | None], turnup: int | None) -> int | None:
    """What three bid cards say: their suits add up (diamonds 0, spades 1, hearts 2, clubs 3).

    A joker counts with the turn-up's suit. None when the bid is unknown: an
    unknown card (None), a joker while the turn-up is unknown, or other than three cards.

    >>> from imptools.rules.ninety_nine.cards import make
    >>> bid_value([make("A", "S"), make("A", "H"), JOKER], make("A", "D"))
    3
    >>> bid_value([make("Q", "C"), make("Q", "S"), JOKER], make("9", "C"))
    7
    >>> bid_value([make("Q", "C"), None, make("6", "D")], make("9", "C")) is None
    True
    """
    if len(cards) != BID_CARDS:
        return None
    total = 0
    for c in cards:
        if c is None or (c == JOKER and turnup is None):
            return None
        s = suit(c if turnup is None else effective(c, turnup))
        if s is None:
            return None
        total += s
    return total
