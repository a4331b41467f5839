"""The cards each player holds after the deal, the discards and the passes, as the record's lines give them."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from imptools.record import CardText, Hand

Resolve = Callable[[str], "int | None"]
"""A card token -> the engine's card number, or None when it is not a card of the deck."""


def cards_of(cards: Iterable[CardText], resolve: Resolve) -> list[int]:
    """The known cards among tokens (unknown `?` and tokens that are not cards left out)."""
    out: list[int] = []
    for c in cards:
        if not c.unknown:
            n = resolve(c.text)
            if n is not None:
                out.append(n)
    return out


def after_exchange(hand: Hand, resolve: Resolve) -> dict[str, set[int]]:
    """Each player's cards after the deal, discards and passes, for the players whose deal is recorded.

    Pack and pile deals (`deal NAME.2 ...`) are merged into the player's cards.
    """
    final: dict[str, set[int]] = {}
    for deal in hand.deals:
        final.setdefault(deal.player.name, set()).update(cards_of(deal.cards, resolve))
    for d in hand.discards:
        if d.player.name in final:
            final[d.player.name].difference_update(cards_of(d.cards, resolve))
    for ps in hand.passes:
        for c in cards_of((ps.card,), resolve):
            if ps.giver.name in final:
                final[ps.giver.name].discard(c)
            if ps.receiver.name in final:
                final[ps.receiver.name].add(c)
    return final
