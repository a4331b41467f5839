"""Ninety-nine (the notation's section 7): 36 cards A-6 in four suits and the joker.

Only the cards are known so far: the play rules and scoring come in a later
release, so `judge` reports unknown cards and names and scores nothing.
"""

from __future__ import annotations

import re

from imptools.record import Game
from imptools.rules.base import CardCheck, TokenRuleset

_CARD = re.compile(r"(A|K|Q|J|10|T|9|8|7|6)([SHDC♠♥♦♣])", re.IGNORECASE)
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class NinetyNine(TokenRuleset):
    """Cards `AS` .. `6C` (`T` for 10, suit symbols accepted) and the joker `JK`."""

    name = "ninety-nine"

    def check_card(self, text: str, game: Game) -> CardCheck:
        if text.upper() == "JK":
            return CardCheck("JK")
        m = _CARD.fullmatch(text)
        if m is None:
            return CardCheck(
                None,
                "unknown-card",
                f"`{text}` is not a ninety-nine card (A K Q J 10 9 8 7 6 then S H D C: `AS`, `10H`; joker `JK`)",
            )
        rank = m.group(1).upper()
        suit = m.group(2).upper()
        return CardCheck(("10" if rank == "T" else rank) + _SUIT.get(suit, suit))


RULESET = NinetyNine()
