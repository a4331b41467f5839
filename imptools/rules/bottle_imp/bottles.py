"""The Bottle Imp's tricks: who wins one, and where the bottles go (one or two bottles, Lopaka's automaton)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from imptools.rules.bottle_imp.cards import START_PRICE
from imptools.rules.bottle_imp.variants import BY_NAME
from imptools.rules.tricks import follow


@dataclass(slots=True)
class Bottle:
    """One bottle: its price (the card under it, 19 at the start) and its owner."""

    price: int = START_PRICE
    owner: str | None = None


def judge_trick(cards: list[int], bottles: list[Bottle]) -> tuple[int, int | None]:
    """The index of the winning card and of the bottle it takes (None when no card is below the price).

    With two bottles the trick is judged against the higher price and takes that bottle
    (the first when both are at the same price).

    >>> judge_trick([48, 30, 34, 64], [Bottle()])
    (2, 0)
    >>> judge_trick([48, 50, 60], [Bottle(24)])
    (2, None)
    """
    return judge_prices(cards, [b.price for b in bottles])


def judge_prices(cards: Sequence[int], prices: Sequence[int]) -> tuple[int, int | None]:
    """`judge_trick` on the bottles' prices alone (the search calls it at every trick it settles).

    >>> judge_prices([48, 28, 34, 64], [24, 30])
    (1, 1)
    >>> judge_prices([48, 50, 60], [24, 24])
    (2, None)
    """
    price = max(prices)
    top = prices.index(price)
    best = win = -1
    for i, c in enumerate(cards):
        if best < c < price:
            best, win = c, i
    if win >= 0:
        return win, top
    return cards.index(max(cards)), None


def settle_trick(cards: list[int], who: list[str], bottles: list[Bottle], piles: dict[str, list[int]]) -> int:
    """Judge a trick, move the bottle and its old price card, fill the winner's pile; the winning card's index.

    The card that took the bottle lies under it; the old price card goes to the
    bottle's previous owner (the start card 19 to nobody); the rest to the winner.
    """
    win, taken = judge_trick(cards, bottles)
    winner = who[win]
    if taken is not None:
        bottle = bottles[taken]
        if bottle.price != START_PRICE and bottle.owner is not None:
            piles[bottle.owner].append(bottle.price)
        bottle.price, bottle.owner = cards[win], winner
    piles[winner].extend(c for i, c in enumerate(cards) if i != win or taken is None)
    return win


def team_of(seat: int, players: int, variant: str) -> tuple[int, ...]:
    """The seats (counted from the dealer, seat 0) that score together with `seat`."""
    fixed = BY_NAME[variant].team_seats
    if fixed:
        groups: list[tuple[int, ...]] = list(fixed)
    elif players == 4:
        groups = [(1, 3), (0,), (2,)]
    elif players == 5:
        groups = [(1, 3), (2, 4), (0,)]
    else:
        groups = [(0, 3), (1, 4), (2, 5)]
    return next(g for g in groups if seat in g)


def automaton_choice(
    held: set[int], lying: list[int], bottles: list[Bottle], colour: Callable[[int], str]
) -> int | None:
    """The card Lopaka's automaton plays: leading, his highest; else, among his legal cards, the highest that
    would win the trick as it lies now, or if none would, his lowest.

    >>> automaton_choice({10, 30, 50}, [], [Bottle()], lambda c: "y")
    50
    >>> automaton_choice({10, 30, 50}, [20], [Bottle()], lambda c: "y")
    30
    """
    legal = follow(held, colour(lying[0]) if lying else None, colour)
    if not legal:
        return None
    if not lying:
        return max(legal)
    winning = [c for c in legal if judge_trick([*lying, c], bottles)[0] == len(lying)]
    return max(winning) if winning else min(legal)


@dataclass(frozen=True, slots=True)
class BottleState:
    """The Bottle Imp's part of a replay state: each bottle's price and owner, and the prices it has had."""

    bottles: tuple[tuple[str, str | None], ...]
    history: tuple[tuple[str, ...], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for i, (price, owner) in enumerate(self.bottles):
            label = "bottle" if len(self.bottles) == 1 else f"bottle {i + 1}"
            out.append((label, f"{price}, " + (f"held by {owner}" if owner else "nobody holds it")))
            if self.history and len(self.history[i]) > 1:
                out.append(("prices", " > ".join(self.history[i])))
        return out
