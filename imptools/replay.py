"""Stepping through a hand event by event: the public replay API.

`replay(game, hand_number)` yields a `Step` after every event of the hand
(deal, discard, pass, calls, each play, end of trick, end of hand), as the
game's ruleset plays it; its `state` says what is known at that moment: who
holds what, the trick so far, the won cards, the voids shown, the game's own
part (bottles, trump and calls, bids) and, at the end, the scores. States are
small immutable values, so a presenter or an analysis can keep or compare them.
"""

from __future__ import annotations

from collections.abc import Iterator

from imptools.record import Game
from imptools.rules import get_ruleset
from imptools.rules.steps import Detail, Event, State, Step

__all__ = ["Detail", "Event", "State", "Step", "replay"]


def replay(game: Game, hand_number: int) -> Iterator[Step]:
    """The steps of one hand of `game`; nothing for a game or hand imptools cannot replay."""
    ruleset = get_ruleset(game.game_name)
    return iter(()) if ruleset is None else ruleset.replay(game, hand_number)
