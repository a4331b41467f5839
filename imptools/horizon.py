"""Values cut at a horizon: the paranoid search of `imptools.search`, stopped after so many tricks and the rest
estimated, deepened a trick at a time while a budget of positions lasts.

Early in a long hand the exact search (`imptools.search.Search`) cannot value a world in a fraction of a second.
`HorizonSearch` values a position the same way (P's side maximises P's result, every other player minimises it,
every card visible) but only `plies` cards deep: a position reached there is valued by an estimate, P's result
as the rules' scoring gives it for the cards taken so far (`SearchPosition.result` of a hand not yet over: the
points or coins already taken, a bottle held counting as the penalty it would be), or, with `playout`, the result
at the end of the hand once every player has played on his position's likeliest group (`groups()`, or `opposed()`
for the players against P: the search's own first choices); either brought within what the result can still be,
where the position says (`bounds`: a bottle its side surely loses, points it surely keeps). The value is the
minimax of those leaves, each position's value brought within its bounds as well (the true result always is, so
past the hand's end it is the exact value); the search is alpha-beta with a table, cutting on the bounds as the
exact search does. Where no position at the horizon was reached (every line ended first) the value is the
exact one (`exact`).

`horizon_values(position, player, budget)` deepens a card at a time to the end of the trick in progress, then a
whole trick at a time, each depth a new search whose table orders the next one's cards, until the budget of
positions (`nodes`, counted, never timed) runs out: the depth the budget cut short is dropped and the last complete
one's values are kept, so the values depend on the cards and the budget alone. Only the first depth (the player's
card, each position after it estimated) is searched whatever it costs; it is cheap (`first_cost`), so the budget
holds within that much even where a trick is dear (six players, whose first trick with a playout at each leaf cost
many times a world's share when it was the first depth). Nothing here knows a game: it uses only the
`SearchPosition` methods.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from imptools.rules.base import SearchPosition

INF = 1 << 40
"""Beyond any result a hand can have."""


class OutOfBudget(Exception):
    """The search visited more positions than its limit (the depth it was searching is dropped)."""


Entry = tuple[int, int, int | None]
"""A table entry: lower and upper bound of the value (absolute) and the best card found."""


class HorizonSearch:
    """The value for a player of positions reached from `position`, searched `plies` cards deep from where it
    stands when made (the cards `after` plays count), the positions there estimated (see the module).

    `limit` caps the positions visited (`OutOfBudget` past it); `order` is an earlier depth's table, read for the
    card to try first."""

    def __init__(
        self,
        position: SearchPosition,
        plies: int,
        playout: bool = False,
        limit: int | None = None,
        order: dict[object, Entry] | None = None,
    ) -> None:
        self.position = position
        self.plies = plies
        self.playout = playout
        self.limit = INF if limit is None else limit
        self.table: dict[object, Entry] = {}
        self.order = order if order is not None else {}
        self.nodes = 0
        self.cut = False
        """Whether a position at the horizon was reached (else every value found is exact)."""

    def estimate(self, player: str) -> int:
        """`player`'s result estimated at the horizon (see the module)."""
        pos = self.position
        bounds: Callable[[str], tuple[int, int]] | None = getattr(pos, "bounds", None)
        low, high = bounds(player) if bounds is not None else (-INF, INF)
        return max(low, min(high, self.guess(player)))

    def guess(self, player: str) -> int:
        """The estimate before the bounds are applied: the result so far, or the playout's."""
        pos = self.position
        if not self.playout:
            return pos.result(player)
        side = pos.side(player)
        opposed: Callable[[], list[tuple[int, ...]]] | None = getattr(pos, "opposed", None)
        made = 0
        try:
            while not pos.done():
                self.count()
                card = pos.forced()
                if card is None:
                    groups = opposed() if opposed is not None and pos.to_move() not in side else pos.groups()
                    card = groups[0][0]
                pos.play(card)
                made += 1
            return pos.result(player)
        finally:
            for _ in range(made):
                pos.undo()

    def count(self) -> None:
        """Count a position visited (`OutOfBudget` where that would pass the limit)."""
        if self.nodes >= self.limit:
            raise OutOfBudget
        self.nodes += 1

    def value(self, player: str, togo: int, alpha: int = -INF, beta: int = INF) -> int:
        """Alpha-beta of `player`'s value `togo` cards from the horizon: exact inside (alpha, beta), else a bound on
        the side it fails."""
        pos = self.position
        self.count()
        if pos.done():
            return pos.result(player)
        if togo <= 0:
            self.cut = True
            return self.estimate(player)
        forced = pos.forced()
        if forced is not None:
            pos.play(forced)
            try:
                return self.value(player, togo - 1, alpha, beta)
            finally:
                pos.undo()
        key = (pos.key(player), player)
        lo, hi, first = self.table.get(key, (-INF, INF, None))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        bounds: Callable[[str], tuple[int, int]] | None = getattr(pos, "bounds", None)
        low, high = bounds(player) if bounds is not None else (-INF, INF)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        if first is None:
            first = self.order.get(key, (0, 0, None))[2]
        mine = pos.to_move() in pos.side(player)
        opposed: Callable[[], list[tuple[int, ...]]] | None = getattr(pos, "opposed", None)
        groups = opposed() if opposed is not None and not mine else pos.groups()
        if first is not None and len(groups) > 1 and first not in groups[0]:
            for i, g in enumerate(groups):
                if first in g:
                    groups.insert(0, groups.pop(i))
                    break
        a, b = alpha, beta
        best, move = (-INF if mine else INF), None
        for g in groups:
            pos.play(g[0])
            try:
                v = self.value(player, togo - 1, a, b)
            finally:
                pos.undo()
            if mine and v > best:
                best, move = v, g[0]
                a = max(a, v)
            elif not mine and v < best:
                best, move = v, g[0]
                b = min(b, v)
            if a >= b or (mine and v >= high) or (not mine and v <= low):
                break
        best = max(low, min(high, best))
        if best <= alpha:
            lo, hi = lo, min(hi, best)
        elif best >= beta:
            lo, hi = max(lo, best), hi
        else:
            lo = hi = best
        self.table[key] = (lo, hi, move)
        return best

    def after(self, player: str, card: int) -> int:
        """The value for `player` once `card` is played (its card counts as one of the `plies`)."""
        pos = self.position
        pos.play(card)
        try:
            return self.value(player, self.plies - 1)
        finally:
            pos.undo()


@dataclass(frozen=True, slots=True)
class Valued:
    """A world's values: each legal card's value for the player, the positions visited (the dropped depth's
    included), how many cards deep the values look, and whether they are exact (no horizon reached)."""

    values: dict[int, int]
    nodes: int
    plies: int
    exact: bool


def horizon_values(position: SearchPosition, player: str, budget: int, in_trick: int, playout: bool = False) -> Valued:
    """The value for `player`, who is to move in `position` with `in_trick` cards of the trick in progress already
    played, of each of his legal cards, deepened while `budget` positions last: a card at a time to the end of the
    trick in progress, then a trick at a time (see the module). Only the first depth, his card alone and each card's
    estimate, is searched whatever it costs (at most his legal groups times the cards left, `first_cost`), so the
    positions visited are at most the greater of `budget` and that."""
    per = position.per_trick
    end = per - in_trick
    plies = 1
    spent = 0
    found: Valued | None = None
    order: dict[object, Entry] = {}
    while True:
        search = HorizonSearch(position, plies, playout, None if found is None else max(budget - spent, 0), order)
        values: dict[int, int] = {}
        try:
            for group in position.groups():
                v = search.after(player, group[0])
                for card in group:
                    values[card] = v
        except OutOfBudget:
            assert found is not None
            return Valued(found.values, spent + search.nodes, found.plies, found.exact)
        spent += search.nodes
        found = Valued(values, spent, plies, not search.cut)
        if found.exact or spent >= budget:
            return found
        order = search.table
        plies = plies + 1 if plies < end else plies + per


def first_cost(position: SearchPosition, cards_left: int) -> int:
    """The most positions the first depth of `horizon_values` can visit with `cards_left` cards still to play: one
    for the card and one for each card of the estimate's playout, for each legal group of the player to move."""
    return len(position.groups()) * cards_left
