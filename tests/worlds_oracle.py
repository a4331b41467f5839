"""The obvious way to the knowing analysis, for the tests: every deal of the unseen cards to the unseen places,
kept when it honours the two rules checked directly, each valued by a plain minimax."""

from __future__ import annotations

from itertools import combinations

from imptools.rules.base import KnownDeal, SearchPosition


def minimax(pos: SearchPosition, player: str) -> int:
    """The paranoid value for `player`: his side maximises, everyone else minimises, every legal card tried."""
    if pos.done():
        return pos.result(player)
    forced = pos.forced()
    cards = [forced] if forced is not None else pos.legal()
    mine = pos.to_move() in pos.side(player)
    values = []
    for c in cards:
        pos.play(c)
        values.append(minimax(pos, player))
        pos.undo()
    return max(values) if mine else min(values)


def consistent_worlds(deal: KnownDeal, made: int, viewer: str) -> list[list[frozenset[int]]]:
    """Every deal of the cards `viewer` has not seen after `made` plays to the places he has not seen (their sizes
    kept), as each place's cards where play starts, kept when each card he passed is in its receiver's hand unless
    played and every play made is legal in the position dealt so. A face-down pile card is unseen by all until the
    card on it has been played."""
    history = deal.played.plays[:made]
    played: dict[str | None, set[int]] = {}
    for _, who, card in history:
        played.setdefault(who, set()).add(card)
    gone = {card for _, _, card in history}

    def hidden(i: int) -> bool:
        p = deal.places[i]
        if p.under is not None:
            return p.under not in gone
        return p.owner != viewer and not p.shown

    unseen = [i for i in range(len(deal.places)) if hidden(i)]

    def now(i: int) -> frozenset[int]:
        p = deal.places[i]
        return p.cards - played.get(p.owner, set()) if p.plays else p.cards

    pool = sorted(set().union(*(now(i) for i in unseen))) if unseen else []
    sizes = [len(now(i)) for i in unseen]
    passed = {c: r for g, r, c in deal.passed if g == viewer}
    out = []

    def deal_out(k: int, rest: list[int], chosen: list[frozenset[int]]) -> None:
        if k == len(unseen):
            starts = [p.cards for p in deal.places]
            for i, cards in zip(unseen, chosen):
                p = deal.places[i]
                if any(c in passed and not (p.plays and p.owner == passed[c]) for c in cards):
                    return
                # a hand or pack: the cards its owner has played from it since (the record's deal says which pack)
                starts[i] = cards | (p.cards & played.get(p.owner, set())) if p.plays and p.owner is not None else cards
            pos = deal.start(starts)
            for _, who, card in history:
                if pos.to_move() != who or card not in pos.legal():
                    return
                pos.play(card)
            out.append(starts)
            return
        for pick in combinations(rest, sizes[k]):
            deal_out(k + 1, [c for c in rest if c not in pick], [*chosen, frozenset(pick)])

    deal_out(0, pool, [])
    return out


def knowing_totals(deal: KnownDeal, made: int) -> tuple[dict[int, int], int]:
    """For the play after `made` plays: each legal card of its player, the sum over every consistent world of the
    plain minimax value after it; and how many worlds."""
    _, viewer, _ = deal.played.plays[made]
    worlds = consistent_worlds(deal, made, viewer)
    totals: dict[int, int] = {}
    for starts in worlds:
        pos = deal.start(starts)
        for _, _, card in deal.played.plays[:made]:
            pos.play(card)
        for c in pos.legal():
            pos.play(c)
            totals[c] = totals.get(c, 0) + minimax(pos, viewer)
            pos.undo()
    return totals, len(worlds)
