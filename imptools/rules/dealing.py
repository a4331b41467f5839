"""Dealing to conditions: some cards given to some places, the rest at random, uniformly among such deals.

A *place* is where a deal puts cards, named as a record names it (`Adam`, `Adam.2`, a pile, `turnup`), with its
size; the places come in the order the dealer fills them, and the order of the cards inside a place is kept (a
Botifarra pile is read top card first). `deal_to` is what `imp simulate --deal` and `--like` deal with;
`check_given` says, in words a player understands, why conditions cannot be dealt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import TYPE_CHECKING

from imptools.suggest import did_you_mean

if TYPE_CHECKING:
    from imptools.record import CardText, Hand

Places = Sequence[tuple[str, int]]
"""(place, size) in dealing order."""


class BadConditions(ValueError):
    """Cards given that no deal can honour; the message says why."""


def check_given(
    places: Places, pool: Sequence[int], given: Mapping[str, Sequence[int]], spell: Callable[[int], str]
) -> None:
    """Refuse conditions no deal honours: an unknown place (the close name suggested), a card given twice or to a
    place that has no room for it. The cards themselves are engine cards of the pack (`pool`), already read."""
    sizes = dict(places)
    seen: dict[int, str] = {}
    for place, cards in given.items():
        if place not in sizes:
            near = did_you_mean(place, sizes)
            hint = f" (did you mean `{near}`?)" if near else f" (the places are {', '.join(sizes)})"
            raise BadConditions(f"`{place}` is not a place of this deal{hint}")
        if len(cards) > sizes[place]:
            raise BadConditions(f"{place} is dealt {sizes[place]} cards; {len(cards)} are given")
        for c in cards:
            if c not in pool:
                raise BadConditions(f"{spell(c)} is not a card of this pack")
            if c in seen:
                where = "twice" if seen[c] == place else f"to {seen[c]} and to {place}"
                raise BadConditions(f"{spell(c)} is given {where}")
            seen[c] = place


def deal_to(
    places: Places,
    pool: Sequence[int],
    given: Mapping[str, Sequence[int]] | None = None,
    rng: Random | None = None,
) -> dict[str, list[int]]:
    """Each place's cards: the cards `given` it first, in their order, then cards of `pool` at random; the cards of
    `pool` no place takes are left out (Lopaka's imp's trick, the turn-up where it is no place).

    Every deal honouring `given` is equally likely: the free cards are shuffled once and poured into the free room
    of the places in order (any order of the free cards is equally likely, and each deal honouring `given` comes
    from the same number of them); with nothing given that is exactly a shuffle dealt in order, the deal a
    simulator made before it could deal to conditions.

    >>> deal_to([("A", 2), ("B", 2)], [1, 2, 3, 4, 5], {"B": [5]}, Random(1))["B"][0]
    5
    """
    rng = rng or Random(0)
    given = given or {}
    taken = {c for cards in given.values() for c in cards}
    free = [c for c in pool if c not in taken]
    room = {p: size - len(given.get(p, ())) for p, size in places}
    rng.shuffle(free)
    out: dict[str, list[int]] = {}
    at = 0
    for p, _ in places:
        out[p] = [*given.get(p, ()), *free[at : at + room[p]]]
        at += room[p]
    return out


def recorded(
    hand: Hand, wanted: Sequence[tuple[str, int, int]], card: Callable[[str], int | None]
) -> dict[str, list[int]] | str:
    """The cards the deal lines of `hand` give the places `wanted`, as `deal_to` takes them given: for each (place,
    seen, size) the first `seen` cards of the place's line (a pile's top cards; a whole hand), which must hold `size`
    cards; or why the record cannot say (no line for the place, two lines, a line of another size, a seen card the
    line does not know: `?`, or a token that is not a card)."""
    lines: dict[str, tuple[CardText, ...]] = {}
    for deal in hand.deals:
        place = str(deal.player)
        if place in lines:
            return f"hand {hand.number} has two deal lines for {place}"
        lines[place] = deal.cards
    out: dict[str, list[int]] = {}
    for place, seen, size in wanted:
        if place not in lines:
            return f"hand {hand.number} has no deal line for {place}"
        if len(lines[place]) != size:
            return f"hand {hand.number} deals {place} {len(lines[place])} cards: {place} is dealt {size}"
        out[place] = cards = []
        for token in lines[place][:seen]:
            found = card(token.text)
            if found is None:
                return f"hand {hand.number} deals {place} `{token.text}`, {not_a_card(token.text)}"
            cards.append(found)
    return out


def not_a_card(text: str) -> str:
    """What a token of a deal that names no card of the pack is: `?`, `??` an unknown card, else not a card."""
    return "an unknown card" if text.startswith("?") else "not a card of this pack"
