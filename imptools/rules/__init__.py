"""The rulesets, one module per game, imported only when a game needs one."""

from __future__ import annotations

import importlib

from imptools.rules.base import CardCheck, CardFace, GameResult, HandResult, Ruleset

__all__ = ["GAMES", "CardCheck", "CardFace", "GameResult", "HandResult", "Ruleset", "get_ruleset"]

GAMES: dict[str, str] = {
    "bottle-imp": "imptools.rules.bottle_imp",
    "botifarra": "imptools.rules.botifarra",
    "ninety-nine": "imptools.rules.ninety_nine",
}
"""Game tag value -> module holding its `RULESET`."""


def get_ruleset(game: str | None) -> Ruleset | None:
    """The ruleset for a `Game` tag value, or None for a game imptools does not know."""
    module = GAMES.get(game or "")
    if module is None:
        return None
    ruleset: Ruleset = importlib.import_module(module).RULESET
    return ruleset
