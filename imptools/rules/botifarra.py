"""Botifarra (the notation's section 6): the Spanish 48-card deck.

Only the cards are known so far: the play rules and scoring come in a later
release, so `judge` reports unknown cards and names and scores nothing.
"""

from __future__ import annotations

import re

from imptools.record import Game
from imptools.rules.base import CardCheck, TokenRuleset

SUITS = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}
_CARD = re.compile(r"0*(1[0-2]|[1-9])([ocebOCEB])")


class Botifarra(TokenRuleset):
    """Cards `1o` .. `12b`; three-player games play without the 2s, 3s and 4s."""

    name = "botifarra"

    def check_card(self, text: str, game: Game) -> CardCheck:
        m = _CARD.fullmatch(text)
        if m is None:
            return CardCheck(
                None, "unknown-card", f"`{text}` is not a botifarra card (rank 1-12 then o, c, e or b: `9o`, `12e`)"
            )
        rank = int(m.group(1))
        if len(game.players) == 3 and rank in (2, 3, 4):
            return CardCheck(None, "unknown-card", f"`{text}` is not in the three-player deck, which has no 2, 3 or 4")
        return CardCheck(f"{rank}{m.group(2).lower()}")


RULESET = Botifarra()
