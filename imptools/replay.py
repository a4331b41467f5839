"""Stepping through a hand event by event: the public replay API.

`replay(game, hand_number)` yields a `Step` after every event of the hand
(deal, discard, pass, open, each play, end of trick, end of hand); its `state`
says what is known at that moment: who holds what, the bottle(s), the trick so
far, the won piles and, at the end, the scores. States are small immutable
values, so a presenter or an analysis can keep or compare them freely.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from imptools.record import Game


@dataclass(frozen=True, slots=True)
class Event:
    """What just happened: `kind` is deal, discard, pass, open, play, trick (its end) or end (of the hand)."""

    kind: str
    player: str | None = None
    cards: tuple[str, ...] = ()
    trick: int | None = None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """What is known after an event.

    `holdings`: each player's cards as far as the record shows (the deal after the
    exchange when recorded, else the cards still to be played); `bottles`: (price,
    owner) per bottle; `trick`: (player, card) plays of the trick so far; `piles`:
    each player's won cards; `voids`: the colours each player has shown not to hold
    (by not following them); `scores`: the hand's scores, at its end only.
    """

    holdings: Mapping[str, frozenset[str]]
    bottles: tuple[tuple[str, str | None], ...]
    trick: tuple[tuple[str, str], ...]
    piles: Mapping[str, tuple[str, ...]]
    voids: Mapping[str, frozenset[str]]
    scores: Mapping[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One event and the state after it."""

    event: Event
    state: State


def replay(game: Game, hand_number: int) -> Iterator[Step]:
    """The steps of one hand of `game`; nothing for a game or hand imptools cannot replay yet."""
    if game.game_name != "bottle-imp":
        return iter(())
    from imptools.rules.bottle_imp import replay_hand

    hand = next((h for h in game.hands if h.number == hand_number), None)
    return iter(()) if hand is None else replay_hand(game, hand)
