"""The registry of games: a `Game` tag value -> the module holding its `RULESET`, imported only when needed."""

from __future__ import annotations

import importlib

from imptools.rules.base import Ruleset

GAMES: dict[str, str] = {
    "bottle-imp": "imptools.rules.bottle_imp.ruleset",
    "botifarra": "imptools.rules.botifarra.ruleset",
    "ninety-nine": "imptools.rules.ninety_nine.ruleset",
}
"""Game tag value -> module holding its `RULESET`."""


def get_ruleset(game: str | None) -> Ruleset | None:
    """The ruleset for a `Game` tag value, or None for a game imptools does not know."""
    module = GAMES.get(game or "")
    if module is None:
        return None
    ruleset: Ruleset = importlib.import_module(module).RULESET
    return ruleset
