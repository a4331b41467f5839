"""Ninety-nine's hands for the knowing analysis: where every card lies when play starts, and the start position
with other cards there (a `KnownDeal`, found through the registry).

The places: each player's nine cards to play, each player's three bid cards, and the turn-up (shown to all). A
declarer's bid cards are shown to all; a revealed hand too. The bids of a world are what its bid cards say, so a
world that gives another player other bid cards scores his bid differently.
"""

from __future__ import annotations

from collections.abc import Sequence

from imptools.record import Game, Hand
from imptools.rules.base import KnownDeal, Place, Searchable
from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import BID_CARDS
from imptools.rules.ninety_nine.ruleset import NinetyNine
from imptools.rules.ninety_nine.scoring import REVEAL
from imptools.rules.ninety_nine.search import SearchNinetyNine, played_hand
from imptools.rules.ninety_nine.setup import Setup
from imptools.rules.report import Reporter


def known_deal(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> KnownDeal | str:
    """Where the hand's cards lie where play starts, and how to start it with other cards (a `KnownHand`)."""
    assert isinstance(ruleset, NinetyNine) and isinstance(setup, Setup)
    found = played_hand(ruleset, setup, game, hand, dealer)
    if isinstance(found, str):
        return found
    position = found.position
    assert isinstance(position, SearchNinetyNine)
    order = list(position.order)
    report = Reporter(game, hand)
    deck = ruleset.hand_deck(hand, setup.players, report)
    for p in order:
        if p not in deck.dealt:
            return f"what each player could know needs every deal line (none for {p})"
        if len(deck.put_away.get(p, ())) != BID_CARDS:
            return f"what each player could know needs every bid's cards ({p}'s are not all recorded)"
    call = ruleset.declaration(hand, setup.players, report)
    turnup = position.turnup
    declarer = None if call is None else call.player
    places = [
        Place(
            p,
            p,
            frozenset(deck.dealt[p] - deck.put_away[p]),
            plays=True,
            shown=p == declarer and call is not None and call.kind == REVEAL,
        )
        for p in order
    ]
    places += [Place(f"{p}'s bid", p, frozenset(deck.put_away[p]), shown=p == declarer) for p in order]
    places.append(Place("the turn-up", None, frozenset((turnup,)), shown=True))

    def start(cards: Sequence[frozenset[int]]) -> SearchNinetyNine:
        hands = {p: cards[i] for i, p in enumerate(order)}
        bids = {p: bid_value(sorted(cards[len(order) + i]), turnup) for i, p in enumerate(order)}
        return SearchNinetyNine(order, hands, turnup, bids, call)

    return KnownDeal(tuple(places), (), found, start)
