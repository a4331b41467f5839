"""Replay values: what happened (`Event`) and what is known after it (`State`).

These types sit below the rulesets: every ruleset yields `Step`s built from
them, and the replay API, the presenters and the analysis read them without
knowing which game they come from. A `State` is a common core (holdings, the
trick so far, won cards, voids, scores) plus a per-game part, `detail`, which
describes itself as labelled lines so that a presenter can show it without
asking which game it belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Event:
    """What just happened.

    `kind` is one of: deal, discard, pass, open, imp, trump, call, turnup, bid,
    declare, play, trick (its end; `player` is the winner) and end (of the hand;
    its `cards` are those turned face up then, such as the imp's trick, and `text`
    says what they are).
    `notes` holds the `{...}` annotations written at that element, `mark` a
    play's `!`/`?` mark.
    """

    kind: str
    player: str | None = None
    cards: tuple[str, ...] = ()
    trick: int | None = None
    line: int | None = None
    column: int | None = None
    notes: tuple[str, ...] = ()
    mark: str | None = None
    text: str | None = None


class Detail(Protocol):
    """The per-game part of a state: bottles, trump and calls, or bids."""

    def lines(self) -> list[tuple[str, str]]:
        """`(label, text)` pairs for a presenter: `("bottle", "17, held by Christian")`."""
        ...


@dataclass(frozen=True, slots=True)
class NoDetail:
    """The per-game part of a game with nothing of its own to show."""

    def lines(self) -> list[tuple[str, str]]:
        return []


KNOWN_FROM_DEAL = "deal"
"""`State.known_from`: the holding comes from the `deal` lines (and the exchange)."""
KNOWN_FROM_PLAYS = "plays"
"""`State.known_from`: the holding is inferred from the cards the player plays later."""


@dataclass(frozen=True, slots=True)
class State:
    """What is known after an event.

    `holdings`: each player's cards as far as the record shows them, and
    `known_from` says how (`"deal"` or `"plays"`, see the constants above);
    `trick`: the (player, card) plays of the trick so far, `leader` its leader;
    `piles`: each player's won cards; `tricks_won`: each player's tricks;
    `voids`: the suits or colours each player has shown not to hold;
    `scores`: the hand's scores, at its end only; `detail`: the game's own part;
    `stacks`: the piles a player has laid out on the table, each top card first
    (cards also in `holdings`), where the game lays cards out so.
    """

    holdings: Mapping[str, frozenset[str]]
    trick: tuple[tuple[str, str], ...]
    piles: Mapping[str, tuple[str, ...]]
    voids: Mapping[str, frozenset[str]]
    scores: Mapping[str, int] | None = None
    known_from: Mapping[str, str] | None = None
    leader: str | None = None
    tricks_won: Mapping[str, int] | None = None
    detail: Detail = NoDetail()
    stacks: Mapping[str, tuple[tuple[str, ...], ...]] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One event and the state after it."""

    event: Event
    state: State
