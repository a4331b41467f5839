"""Botifarra (the notation's section 6): one module per job, the ruleset in `ruleset`.

The names below are the package's door for code outside it; the modules here import from one another, never
from this package.
"""

from __future__ import annotations

from imptools.rules.botifarra.calls import TWO_PLAYER, judge_calls
from imptools.rules.botifarra.cards import points, spell, strength, suit_of, trick_winner
from imptools.rules.botifarra.obligations import LLIURE, OBLIGADA
from imptools.rules.botifarra.ruleset import Botifarra, call_lines, hand_cards, hand_piles
from imptools.rules.botifarra.scoring import two_player_points
from imptools.rules.botifarra.setup import Setup

__all__ = [
    "LLIURE",
    "OBLIGADA",
    "TWO_PLAYER",
    "Botifarra",
    "Setup",
    "call_lines",
    "hand_cards",
    "hand_piles",
    "judge_calls",
    "points",
    "spell",
    "strength",
    "suit_of",
    "trick_winner",
    "two_player_points",
]
