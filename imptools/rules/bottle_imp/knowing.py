"""The Bottle Imp's hands for the knowing analysis: where every card lies when play starts, and the start position
with other cards there (a `KnownDeal`, found through the registry).

The places: each player's hand after the exchange (Lopaka's shown to all), each player's discard (the imp's trick),
or with Lopaka the three cards no one is dealt. The penalty of a bottle is the coins of the imp's trick of the
world asked, so a world that gives another player another discard scores differently.

In the two-pack games each player's hand is two places, his packs after the exchange: the one he lays face up
(Bright House: the pack his `open` line names; Eye of the Demon: pack 1) shown to all, the other seen by him alone
(he discarded and passed from it). A card a player plays came from the pack the deal lines and the passes put it
in; the other player can tell which, since the other pack lies face up.
"""

from __future__ import annotations

from collections.abc import Sequence

from imptools.record import Game, Hand
from imptools.rules.base import KnownDeal, Place, Searchable, bits
from imptools.rules.bottle_imp.search import SearchBottle
from imptools.rules.bottle_imp.setup import Setup
from imptools.rules.bottle_imp.start import played_hand
from imptools.rules.exchange import after_exchange, cards_of


def known_deal(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> KnownDeal | str:
    """Where the hand's cards lie where play starts, and how to start it with other cards (a `KnownHand`)."""
    assert isinstance(setup, Setup)
    found = played_hand(ruleset, setup, game, hand, dealer)
    if isinstance(found, str):
        return found
    position = found.position
    assert isinstance(position, SearchBottle)
    order = list(position.order)
    held = after_exchange(hand, setup.resolve)
    missing = [p for p in order if p not in held]
    if missing:
        return f"what each player could know needs every deal line (none for {', '.join(missing)})"
    places: list[Place] = []
    packs: list[tuple[str, int]] = []
    """For each place a player plays from, in `places`' order: its player and its pack (0 or 1; 0 with one pack)."""
    if setup.two_pack:
        for seat, p in enumerate(order):
            up = position.first_pack[seat] if setup.rules.open_pack else setup.rules.face_up - 1
            for k in (up, 1 - up):
                cards = frozenset(bits(position.packs[seat][k]))
                name = f"{p}'s {'open' if k == up else 'hidden'} pack ({p}.{k + 1})"
                places.append(Place(name, p, cards, plays=True, shown=k == up))
                packs.append((p, k))
    else:
        places = [Place(p, p, frozenset(held[p]), plays=True, shown=p == setup.automaton) for p in order]
        packs = [(p, 0) for p in order]
    rest = frozenset(setup.cards) - frozenset().union(*held.values())
    if setup.automaton is not None:
        places.append(Place("the imp's trick", None, rest))
    else:
        discards: dict[str, set[int]] = {}
        for d in hand.discards:
            if any(c.unknown for c in d.cards):
                return f"what each player could know needs every discard ({d.player.name}'s is not recorded)"
            discards.setdefault(d.player.name, set()).update(cards_of(d.cards, setup.resolve))
        if set().union(*discards.values(), set()) != rest:
            return "what each player could know needs every discard (the discard lines do not give the imp's trick)"
        places += [Place(f"{p}'s discard", p, frozenset(discards[p])) for p in order if p in discards]
    passed = tuple(
        (ps.giver.name, ps.receiver.name, c) for ps in hand.passes for c in cards_of((ps.card,), setup.resolve)
    )
    count = len(packs)
    two_pack = setup.two_pack
    opened = {p: position.first_pack[seat] for seat, p in enumerate(order)}
    teams = None
    if position.teams:
        teams = sorted({tuple(p for i, p in enumerate(order) if position.team[s] >> i & 1) for s in range(len(order))})

    def start(cards: Sequence[frozenset[int]]) -> SearchBottle:
        hands: dict[str, set[int]] = {p: set() for p in order}
        by_pack: dict[str, list[set[int]]] = {p: [set(), set()] for p in order}
        for (p, k), held_here in zip(packs, cards):
            hands[p] |= held_here
            by_pack[p][k] |= held_here
        penalty = sum(setup.coins(c) for place in cards[count:] for c in place)
        return SearchBottle(
            setup, order, hands, penalty, by_pack if two_pack else None, opened if two_pack else None, teams
        )

    return KnownDeal(tuple(places), passed, found, start)
