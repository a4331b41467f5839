"""The bot that plays by what it knows: worlds consistent with what the player has seen, each solved by the search.

Perfect-information Monte Carlo, as bridge programs play: at each decision the hand so far is a record (the deal
and exchange lines, the calls and bids, the plays), and `imptools.worlds.Worlds` draws worlds uniformly among
those consistent with what the player to move has seen (issue 27's definition: his own cards and their history,
every card played and by whom, what the rules show the table). Each world is valued by the analysis search
(`imptools.search.Search`: the paranoid value, every card of that world visible) after each of his legal cards,
and he plays the card with the best mean; ties go to the card the game's greedy bot would play, else the lowest.

The worlds are capped (`Thinking.worlds`), and so is the thinking (`Thinking.think`): counted in search positions
at a fixed rate (`RATE` a second), never in clock time, so that the same seed gives the same game on any machine
and under any load. Where the game's search solves a world to the end of the hand quickly
(`HandSimulator.within_reach`: the last tricks), each world is solved exactly and no new world is started once
the budget is spent. Before that (early in a long hand) each world is valued by the search cut at a horizon
(`imptools.horizon`: a position there valued by playing the rest out on the search's first choices, within
what the rules say the result can still be), deepened a
trick at a time within its share of the budget (the budget over the most worlds), so that every card play is
decided by worlds. Only where no world can be laid out for the table does the bot play the greedy card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from imptools.analyse import world_values
from imptools.horizon import horizon_values
from imptools.rules.base import HandSimulator, Position
from imptools.search import Search

Told = Callable[[int, "int | None"], None]
"""Hears of a world valued: the positions it took, and how many cards deep it looked where a horizon cut it (None
where it was solved to the end)."""

RATE = 50_000
"""Search positions counted as one second of thinking (about what the plain-Python search visits a second)."""


@dataclass(frozen=True, slots=True)
class Thinking:
    """How much the bot thinks at a decision: at most `worlds` worlds, and no new world once `think` seconds' worth
    of search positions (`RATE`) are spent (one world at least)."""

    worlds: int = 12
    think: float = 0.2
    playout: bool = True
    """At a horizon, value a position by the playout of the rest, each player on his search's first choice
    (`imptools.horizon`), rather than by the result of the cards taken so far (measured better in every game)."""


def values(
    record: str,
    made: int,
    player: str,
    legal: list[int],
    rng: Random,
    thinking: Thinking,
    exact: bool = True,
    told: Told | None = None,
) -> dict[int, int]:
    """The sum over the worlds drawn of each legal card's value for `player`, who is to move after the first `made`
    plays of the one hand `record` holds (empty where no world can be laid out).

    With `exact` each world is solved to the end of the hand (`imptools.search.Search`; a world is never cut
    short); else each world is valued by the search cut at a horizon (`imptools.horizon.horizon_values`) within its
    share of the budget, the budget over the most worlds. `told` hears of each world's valuation."""
    from imptools.reader import read_games
    from imptools.worlds import Worlds

    (game,) = read_games(record)
    worlds = Worlds.of(game, 1, made, player)
    if isinstance(worlds, str):
        return {}
    totals = dict.fromkeys(legal, 0)
    budget = int(thinking.think * RATE)
    share = max(budget // thinking.worlds, 1)
    spent = count = 0
    while count < thinking.worlds and (count == 0 or spent < budget):
        drawn = worlds.sample(1, rng)
        position = worlds.position(drawn[0]) if drawn else None
        if position is None:
            break
        if exact:
            search = Search(position)
            found = world_values(position, player, search)
            nodes = search.positions()
            depth = None
        else:
            valued = horizon_values(position, player, share, made % position.per_trick, thinking.playout)
            found, nodes, depth = valued.values, valued.nodes, None if valued.exact else valued.plies
        for card, value in found.items():
            if card in totals:
                totals[card] += value
        count += 1
        spent += nodes
        if told is not None:
            told(nodes, depth)
    return totals if count else {}


def choose(
    sim: HandSimulator,
    position: Position,
    rng: Random,
    thinking: Thinking,
    record: Callable[[], tuple[str, int]],
    told: Told | None = None,
) -> int:
    """The card the bot plays for the player to move in `position`; `record()` is the hand so far as a record of one
    hand, and the number of plays made. Worlds are solved exactly where the game's search reaches the end of a
    world quickly (`HandSimulator.within_reach`), else cut at a horizon; the greedy card only where no world can be
    laid out (or for ties). `told` hears of each world's valuation (its positions, and the cards it looked ahead
    where a horizon cut it, None where it is exact)."""
    legal = position.legal()
    greedy = sim.better_bot(position, rng)
    if len(legal) == 1:
        return greedy
    text, made = record()
    totals = values(text, made, position.to_move(), legal, rng, thinking, sim.within_reach(position), told)
    if not totals:
        return greedy
    top = max(totals.values())
    best = [c for c in legal if totals[c] == top]
    return greedy if greedy in best else best[0]
