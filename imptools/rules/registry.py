"""The registry of games: a `Game` tag value -> its ruleset and its search, each imported only when needed."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial

from imptools.record import Game
from imptools.rules.base import KnownDeal, KnownHand, PlayedHand, Ruleset, Searchable, StartPosition

GAMES: dict[str, str] = {
    "bottle-imp": "imptools.rules.bottle_imp.ruleset",
    "botifarra": "imptools.rules.botifarra.ruleset",
    "ninety-nine": "imptools.rules.ninety_nine.ruleset",
}
"""Game tag value -> module holding its `RULESET`."""

SEARCHES: dict[str, str] = {
    "bottle-imp": "imptools.rules.bottle_imp.start",
    "botifarra": "imptools.rules.botifarra.search",
    "ninety-nine": "imptools.rules.ninety_nine.search",
}
"""Game tag value -> module holding its search's `played_hand` (a `StartPosition`): the analyser finds a game's
search here, and the ruleset never imports its search."""


KNOWING: dict[str, str] = {
    "bottle-imp": "imptools.rules.bottle_imp.knowing",
    "botifarra": "imptools.rules.botifarra.knowing",
    "ninety-nine": "imptools.rules.ninety_nine.knowing",
}
"""Game tag value -> module holding its `known_deal` (a `KnownHand`): where a hand's cards lie, for the knowing
analysis and its worlds (`imptools.worlds`)."""


def get_ruleset(game: str | None) -> Ruleset | None:
    """The ruleset for a `Game` tag value, or None for a game imptools does not know."""
    module = GAMES.get(game or "")
    if module is None:
        return None
    ruleset: Ruleset = importlib.import_module(module).RULESET
    return ruleset


def get_search(game: str | None) -> Callable[[Game, int], PlayedHand | str] | None:
    """For a `Game` tag value, `search(game, hand_number)`: a hand's start position and plays for `imp analyse`, or
    why the hand cannot be analysed; None for a game imptools cannot analyse."""
    module = SEARCHES.get(game or "")
    ruleset = get_ruleset(game)
    if module is None or not isinstance(ruleset, Searchable):
        return None
    start: StartPosition = importlib.import_module(module).played_hand
    return partial(searchable, ruleset, start)


def searchable(ruleset: Searchable, start: StartPosition, game: Game, hand_number: int) -> PlayedHand | str:
    """Hand `hand_number` of `game` set up by its ruleset and started by its search (`start`), or why it cannot be
    analysed."""
    setup = ruleset.table(game)
    if setup is None:
        return ruleset.unjudged
    found = ruleset.hand_and_dealer(game, setup, hand_number)
    return found if isinstance(found, str) else start(ruleset, setup, game, *found)


def get_known_deal(game: str | None) -> Callable[[Game, int], KnownDeal | str] | None:
    """For a `Game` tag value, `known(game, hand_number)`: where the hand's cards lie and how to start it with other
    cards (`KnownDeal`), or why not; None for a game whose worlds imptools cannot deal."""
    module = KNOWING.get(game or "")
    ruleset = get_ruleset(game)
    if module is None or not isinstance(ruleset, Searchable):
        return None
    known: KnownHand = importlib.import_module(module).known_deal
    return partial(knowable, ruleset, known)


def knowable(ruleset: Searchable, known: KnownHand, game: Game, hand_number: int) -> KnownDeal | str:
    """Hand `hand_number` of `game` set up by its ruleset and laid out by its game's `known_deal`, or why not."""
    setup = ruleset.table(game)
    if setup is None:
        return ruleset.unjudged
    found = ruleset.hand_and_dealer(game, setup, hand_number)
    return found if isinstance(found, str) else known(ruleset, setup, game, *found)
