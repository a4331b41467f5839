"""Botifarra's hands for the knowing analysis: where every card lies when play starts, and the start position with
other cards there (a `KnownDeal`, found through the registry).

The places: each player's hand (the partner's too is unseen). With two players, each card of each pile is a place
of its own, so that a world says which card lies under which: a pile's top card is seen by both players, every card
under it is face down (seen by neither, its owner neither) until the card on it is played and it turns up
(`Place.under`); in piles-and-hand each player's hand besides.
"""

from __future__ import annotations

from collections.abc import Sequence

from imptools.record import Game, Hand
from imptools.rules.base import KnownDeal, Place, PlayedHand, Searchable
from imptools.rules.botifarra.position import SearchBotifarra, played_hand
from imptools.rules.botifarra.ruleset import hand_cards, hand_piles
from imptools.rules.botifarra.setup import Setup
from imptools.rules.exchange import after_exchange


def known_deal(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> KnownDeal | str:
    """Where the hand's cards lie where play starts, and how to start it with other cards (a `KnownHand`)."""
    assert isinstance(setup, Setup)
    found = played_hand(setup, hand, dealer)
    if isinstance(found, str):
        return found
    position = found.position
    assert isinstance(position, SearchBotifarra)
    if setup.two_player:
        return _piles_deal(setup, hand, found)
    order = list(position.order)
    dealt = after_exchange(hand, setup.resolve)
    missing = [p for p in order if p not in dealt]
    if missing:
        return f"what each player could know needs every deal line (none for {', '.join(missing)})"
    places = tuple(Place(p, p, frozenset(dealt[p]), plays=True) for p in order)
    trump = None if position.trump < 0 else position.trump

    def start(cards: Sequence[frozenset[int]]) -> SearchBotifarra:
        return SearchBotifarra(setup, order, trump, {p: set(cards[i]) for i, p in enumerate(order)})

    return KnownDeal(places, (), found, start)


def _piles_deal(setup: Setup, hand: Hand, found: PlayedHand) -> KnownDeal | str:
    """A two-player hand: every pile card a place (the top card shown, each card under it face down until the card
    on it is played), then in piles-and-hand the player's hand."""
    position = found.position
    assert isinstance(position, SearchBotifarra)
    order = list(position.order)
    piles = hand_piles(setup, hand)  # `played_hand` found every pile recorded, the cards all different
    held = hand_cards(setup, hand)
    missing = [p for p in order if setup.in_hand and p not in held]
    if missing:
        return f"what each player could know needs every deal line (none for {', '.join(missing)}'s hand)"
    places: list[Place] = []
    where: list[tuple[str, int]] = []
    """For each place, its player and its pile (-1 for the hand)."""
    for p in order:
        for k, pile in enumerate(piles[p].piles):
            for depth, card in enumerate(pile):
                above = None if depth == 0 else pile[depth - 1]
                places.append(Place(f"{p}.{k + 1}", p, frozenset((card,)), shown=depth == 0, under=above))
                where.append((p, k))
        if setup.in_hand:
            places.append(Place(p, p, frozenset(held[p]), plays=True))
            where.append((p, -1))
    trump = None if position.trump < 0 else position.trump

    def start(cards: Sequence[frozenset[int]]) -> SearchBotifarra:
        hands: dict[str, set[int]] = {p: set() for p in order}
        stacks: dict[str, list[list[int]]] = {p: [[] for _ in range(setup.piles)] for p in order}
        for (p, k), got in zip(where, cards):
            if k < 0:
                hands[p] |= got
            else:
                stacks[p][k] += sorted(got)  # one card a place, top first
        world = SearchBotifarra(setup, order, trump, hands, stacks)
        world.exact_most = 0  # a world's solver answers a few questions: its exact table cost more than it saved
        return world

    return KnownDeal(tuple(places), (), found, start)
