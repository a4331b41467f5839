"""The rulesets, one package per game, found through the registry and imported only when a game needs one."""

from __future__ import annotations

from imptools.rules.base import CardCheck, CardFace, GameResult, HandResult, Ruleset
from imptools.rules.registry import GAMES, get_known_deal, get_ruleset, get_search

__all__ = [
    "GAMES",
    "CardCheck",
    "CardFace",
    "GameResult",
    "HandResult",
    "Ruleset",
    "get_known_deal",
    "get_ruleset",
    "get_search",
]
