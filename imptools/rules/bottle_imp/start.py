"""The Bottle Imp hand a record shows as a search's start position: every card after the exchange, the sides and
the packs, and the plays (`played_hand`, the registry's `StartPosition`)."""

from __future__ import annotations

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, Searchable
from imptools.rules.bottle_imp.bottles import Bottle, settle_trick, team_of
from imptools.rules.bottle_imp.search import SearchBottle
from imptools.rules.bottle_imp.setup import Setup, imp_trick
from imptools.rules.exchange import after_exchange, cards_of
from imptools.rules.tricks import Played, walk_tricks

MARKS = (3, 10)
"""A play that costs 3 coins or more is `?`, 10 or more `??` (see docs/ANALYSIS.md)."""


def played_hand(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card after the exchange) and its plays, or why it cannot be analysed (a
    `StartPosition`: the registry finds it)."""
    assert isinstance(setup, Setup)
    if setup.automaton is not None and dealer == setup.automaton:
        return "Lopaka never deals"
    order = setup.order(dealer)
    bottles = [Bottle() for _ in range(setup.bottles)]
    piles: dict[str, list[int]] = {p: [] for p in setup.players}

    def settle(played: Played) -> int:
        return settle_trick(played.cards, played.who, bottles, piles)

    walk = walk_tricks(hand, order, setup.per_trick, setup.resolve, settle, setup.filler(hand))
    plays = walk.numbered_plays()
    complete = walk.whole and len(walk.tricks) == setup.tricks
    dealt = after_exchange(hand, setup.resolve)
    if all(p in dealt for p in order):
        held = dealt
        source = "the deal and the exchange"
    elif complete:
        held = {p: set() for p in order}
        for _, p, c in plays:
            held[p].add(c)
        source = "the plays"
    elif hand.deals:
        missing = ", ".join(p for p in order if p not in dealt)
        return f"the cards still to be played are not all known: no deal line for {missing}"
    else:
        return "the cards still to be played are not all known: the hand is not complete and has no deal lines"
    size = setup.tricks * setup.per_trick // len(order)
    sizes = {p: len(held[p]) for p in order}
    if set(sizes.values()) != {size}:
        shown = ", ".join(f"{p} {k}" for p, k in sizes.items())
        return f"{source} do not give every player {size} cards ({shown})"
    in_play = set().union(*held.values())
    if len(in_play) != setup.tricks * setup.per_trick:
        return f"{source} give the same card to two players"
    packs: dict[str, list[set[int]]] | None = None
    opened: dict[str, int] | None = None
    if setup.two_pack:
        found = _packs(setup, hand, order, held, plays)
        if isinstance(found, str):
            return found
        packs, opened = found
    imp = imp_trick(setup, hand, in_play)
    penalty = sum(setup.coins(c) for c in imp)
    position = SearchBottle(setup, order, held, penalty, packs, opened, _teams(setup, dealer))
    return PlayedHand(position, plays, walk.stop_note(), MARKS)


def _teams(setup: Setup, dealer: str) -> list[tuple[str, ...]] | None:
    """The sides that score together in the team variants (seats counted from the dealer), else None."""
    if not setup.rules.teams:
        return None
    players = setup.players
    n = len(players)
    by_seat = {(players.index(p) - players.index(dealer)) % n: p for p in players}
    sides: list[tuple[str, ...]] = []
    for s in range(n):
        side = tuple(by_seat[t] for t in team_of(s, n, setup.variant))
        if side not in sides:
            sides.append(side)
    return sides


def _packs(
    setup: Setup, hand: Hand, order: list[str], held: dict[str, set[int]], plays: list[tuple[int, str, int]]
) -> tuple[dict[str, list[set[int]]], dict[str, int]] | str:
    """Each player's two packs after the exchange, and where one is opened (`open_pack`) the pack he plays first:
    from the deal lines by pack, the passes into a pack, and the `open` lines; where the deal lines do not say, the
    open pack is what each player plays first in a trick (the record's plays; its other cards the other pack)."""
    by_pack: dict[tuple[str, int], set[int]] = {}
    for deal in hand.deals:
        if deal.player.pack in (1, 2):
            by_pack.setdefault((deal.player.name, deal.player.pack - 1), set()).update(
                cards_of(deal.cards, setup.resolve)
            )
    for ps in hand.passes:
        for c in cards_of((ps.card,), setup.resolve):
            for (name, _), cards in by_pack.items():
                if name == ps.giver.name:
                    cards.discard(c)
            if ps.receiver.pack in (1, 2):
                by_pack.setdefault((ps.receiver.name, ps.receiver.pack - 1), set()).add(c)
    opened = {o.player.name: o.pack - 1 for o in hand.opens if o.pack in (1, 2)}
    packs: dict[str, list[set[int]]] = {}
    if all((p, k) in by_pack for p in order for k in (0, 1)):
        for p in order:
            packs[p] = [by_pack[p, 0] & held[p], by_pack[p, 1] & held[p]]
            if packs[p][0] | packs[p][1] != held[p]:
                return f"the deal lines do not say which pack each of {p}'s cards is in"
    elif setup.rules.open_pack and len(plays) == setup.tricks * setup.per_trick:
        # Every card played: the first two of each trick come from the open packs.
        first: dict[str, set[int]] = {p: set() for p in order}
        for i, (_, p, c) in enumerate(plays):
            if i % 4 < 2:
                first[p].add(c)
        packs = {p: [first[p], held[p] - first[p]] for p in order}
        opened = {p: 0 for p in order}
    else:
        return "the cards still to be played are not all known by pack: no deal line for each pack"
    if setup.rules.open_pack:
        for p in order:
            if p not in opened:
                # No `open` line: the pack his first card of trick 1 came from.
                card = next((c for t, q, c in plays if q == p), None)
                opened[p] = 1 if card is not None and card in packs[p][1] else 0
    return packs, opened
