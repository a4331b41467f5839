"""The bot that plays by what it knows: worlds consistent with what the player has seen, each solved by the search.

Perfect-information Monte Carlo, as bridge programs play: at each decision the player's game
(`HandSimulator.unseen`) says which cards he has not seen and where they may lie; worlds are dealt to
those places (`imptools.rules.dealing.deal_to`, voids kept) and kept when every card played so far is legal
in turn there; each world is valued by the analysis search (`imptools.analyse.Search`: the paranoid value,
every card of that world visible) after each of his legal cards; he plays the card with the best mean,
ties going to the card the game's greedy bot would play, else the lowest.

The number of worlds is capped (`worlds`), and so is the thinking (`think`): counted in search positions at
a fixed rate (`RATE` a second, about what the plain-Python search visits on one core), never in clock time,
so that the same seed gives the same game on any machine and under any load. docs/decisions.md says more.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from random import Random

from imptools.analyse import Search
from imptools.rules.base import HandSimulator, Position, SearchPosition, Unseen
from imptools.rules.dealing import deal_to

RATE = 50_000
"""Search positions counted as one second of thinking."""

TRIES = 40
"""Deals tried for each world wanted before a world that breaks no rule is given up for one that keeps the voids."""


@dataclass(frozen=True, slots=True)
class Thinking:
    """How much the bot thinks at a decision: at most `worlds` worlds, and no new world once `think` seconds' worth
    of search positions (`RATE`) are spent (one world at least)."""

    worlds: int = 12
    think: float = 0.2


def replayed(unseen: Unseen, world: dict[str, list[int]], check: bool = True) -> SearchPosition | None:
    """The world's position now: its start with the plays so far made; None (with `check`) when one of them is not
    legal there."""
    position = unseen.start(world)
    for card in unseen.plays:
        if check and card not in position.legal():
            return None
        position.play(card)
    return position


def worlds(unseen: Unseen, rng: Random, wanted: int) -> Iterator[SearchPosition]:
    """Up to `wanted` worlds consistent with what the player saw, each as its position now.

    A world breaking a play's legality is dealt again; after `TRIES` deals a world, one that keeps the voids
    stands in (a rare corner, where the obligations leave few worlds).
    """
    for _ in range(wanted):
        fallback: dict[str, list[int]] | None = None
        for _ in range(TRIES):
            world = deal_to(unseen.places, unseen.pool, unseen.given, rng, unseen.banned)
            if world is None:
                continue
            fallback = world
            position = replayed(unseen, world)
            if position is not None:
                yield position
                break
        else:
            if fallback is None:
                fallback = deal_to(unseen.places, unseen.pool, unseen.given, rng)
            if fallback is not None:
                found = replayed(unseen, fallback, check=False)
                if found is not None:
                    yield found


def values(
    unseen: Unseen, player: str, legal: list[int], rng: Random, thinking: Thinking
) -> tuple[dict[int, int], int]:
    """The sum over the worlds of each legal card's value for `player`, and the number of worlds."""
    totals = dict.fromkeys(legal, 0)
    budget = thinking.think * RATE
    spent = 0
    count = 0
    for position in worlds(unseen, rng, thinking.worlds):
        search = Search(position)
        for group in position.groups():
            value = search.after(player, group[0])
            for card in group:
                if card in totals:
                    totals[card] += value
        count += 1
        spent += search.positions()
        if spent >= budget:
            break
    return totals, count


def choose(sim: HandSimulator, position: Position, rng: Random, thinking: Thinking) -> int:
    """The card the bot plays for the player to move in `position` (the greedy bot's where the game's search
    cannot play the table)."""
    legal = position.legal()
    greedy = sim.better_bot(position, rng)
    if len(legal) == 1:
        return legal[0]
    player = position.to_move()
    unseen = sim.unseen(position, player)
    if unseen is None:
        return greedy
    totals, count = values(unseen, player, legal, rng, thinking)
    if not count:
        return greedy
    top = max(totals.values())
    best = [c for c in legal if totals[c] == top]
    return greedy if greedy in best else best[0]
