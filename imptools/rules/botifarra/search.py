"""Botifarra's search as the registry finds it: the start position and plays of a recorded hand.

The search position itself is `imptools.rules.botifarra.position`, which is to move into this package.
"""

from __future__ import annotations

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, Searchable
from imptools.rules.botifarra import position
from imptools.rules.botifarra.setup import Setup


def played_hand(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card after the exchange) and its plays, or why it cannot be analysed (a
    `StartPosition`)."""
    assert isinstance(setup, Setup)
    return position.played_hand(setup, hand, dealer)
