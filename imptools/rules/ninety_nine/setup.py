"""One Ninety-nine hand as the record shows it: bid lines, the deck of the deal, one game's setup."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from imptools.record import (
    Bid,
    CardText,
)
from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import DECK, SUIT_NAMES, parse, suit_in_play, trick_winner, trump_of


@dataclass(frozen=True, slots=True)
class BidLine:
    """One player's bid as recorded: the line, its cards (None for `?`) or number, and whether it is a bid at all."""

    line: Bid
    cards: tuple[int | None, ...]
    number: int | None
    good: bool

    def value(self, turnup: int | None) -> int | None:
        """The number bid, None when unknown (a bad bid, `?` cards, a joker under an unknown turn-up)."""
        if not self.good:
            return None
        if self.number is not None:
            return self.number
        return bid_value(self.cards, turnup)


@dataclass(slots=True)
class Deck:
    """What a hand's record says about where the cards are, worked out once per hand."""

    dealt: dict[str, set[int]]
    turnup: int | None
    """The turn-up as recorded, or inferred when it is the only card the record places nowhere."""
    possible: tuple[int, ...]
    """The cards the turn-up may be: the turn-up alone when it is known."""
    bids: dict[str, BidLine]
    put_away: dict[str, set[int]]
    """The known cards of each good bid that its bidder could have put away."""
    twice: set[int] = field(default_factory=set)
    """Cards the `deal` lines give to more than one place: the record cannot say who held them."""

    def suit_name(self, card: int) -> str | None:
        """The suit a card counts in (None when the record leaves it open: a joker under an unknown turn-up)."""
        return suit_names(self.possible)[card]

    def winner(self, cards: Sequence[int]) -> int | None:
        """The winning play, when every turn-up the record allows gives the same one."""
        if len(self.possible) == 1:
            return trick_winner(cards, self.possible[0])
        winners = {trick_winner(cards, t) for t in self.possible}
        return winners.pop() if len(winners) == 1 else None

    def trump_text(self) -> str | None:
        """How the trump is shown: `trump diamonds`, `no trump`, or None when the turn-up is unknown."""
        trumps = {trump_of(t) for t in self.possible}
        if len(trumps) != 1:
            return None
        t = trumps.pop()
        return "no trump" if t is None else f"trump {SUIT_NAMES[t]}"

    def bid_number(self, player: str) -> tuple[int | None, bool]:
        """A player's bid and whether the record settles it (a joker under an unknown turn-up may not)."""
        line = self.bids.get(player)
        if line is None:
            return None, True
        values = {line.value(t) for t in self.possible}
        return (values.pop(), True) if len(values) == 1 else (None, False)


@dataclass(frozen=True, slots=True)
class Setup:
    """A Ninety-nine game: its players (three, in turn order) and variant."""

    players: tuple[str, ...]
    variant: str


VARIANTS = ("standard",)


@functools.lru_cache(maxsize=64)
def suit_names(possible: tuple[int, ...]) -> tuple[str | None, ...]:
    """Each card's suit in play by name, when every turn-up of `possible` gives it the same one (else None)."""
    out: list[str | None] = []
    for card in DECK:
        suits = {suit_in_play(card, t) for t in possible}
        s = suits.pop() if len(suits) == 1 else None
        out.append(None if s is None else SUIT_NAMES[s])
    return tuple(out)


def known_card(x: CardText) -> int | None:
    return None if x.unknown else parse(x.text)
