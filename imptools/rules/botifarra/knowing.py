"""Botifarra's hands for the knowing analysis: where every card lies when play starts, and the start position with
other cards there (a `KnownDeal`, found through the registry).

The places: each player's hand (the partner's too is unseen). Two-player tables (piles, some face down) are not
laid out yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from imptools.record import Game, Hand
from imptools.rules.base import KnownDeal, Place, Searchable
from imptools.rules.botifarra.position import SearchBotifarra, played_hand
from imptools.rules.botifarra.setup import Setup
from imptools.rules.exchange import after_exchange


def known_deal(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> KnownDeal | str:
    """Where the hand's cards lie where play starts, and how to start it with other cards (a `KnownHand`)."""
    assert isinstance(setup, Setup)
    if setup.two_player:
        return "what each player could know is not worked out for two-player tables (piles) yet"
    found = played_hand(setup, hand, dealer)
    if isinstance(found, str):
        return found
    position = found.position
    assert isinstance(position, SearchBotifarra)
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
