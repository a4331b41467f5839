"""Write a seeded, played-out Ninety-nine game in Imp notation (for samples and tests).

    python scripts/ninety_nine_deals.py --seed 7 --hands 3 --players "Al Bo Cy" > game.imp

The players bid and play by a plain table-side sense (bid the tricks their high
cards and trumps promise, put away the cheapest three cards that say so, then
play to make the bid exactly), always legally; the rules and scores come from
`imptools.rules.ninety_nine`, so a record written here validates clean.
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Sequence

from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import (
    BID_CARDS,
    DEALT,
    DECK,
    effective,
    legal_cards,
    spell,
    suit_in_play,
    trick_winner,
    trump_of,
)
from imptools.rules.ninety_nine.scoring import Declaration, score_hand


def strength(card: int, turnup: int) -> int:
    """Rank as played, trumps above every plain card."""
    eff = effective(card, turnup)
    return eff % 9 + (9 if suit_in_play(card, turnup) == trump_of(turnup) else 0)


def promise(hand: Sequence[int], turnup: int) -> int:
    """Tricks a hand looks good for: aces, trump honours, kings with company."""
    trump = trump_of(turnup)
    n = 0
    for c in hand:
        eff = effective(c, turnup)
        s, r = eff // 9, eff % 9
        if r == 8 or (s == trump and r >= 6) or (r == 7 and sum(1 for x in hand if suit_in_play(x, turnup) == s) >= 3):
            n += 1
    return min(n, 9)


def choose_bid(hand: list[int], turnup: int) -> tuple[list[int], int]:
    """Three cards to put away and the bid they make, keeping the hand's best cards."""
    kept_best: tuple[int, list[int], int] | None = None
    for trio in itertools.combinations(hand, BID_CARDS):
        value = bid_value(trio, turnup)
        assert value is not None
        rest = [c for c in hand if c not in trio]
        miss = abs(promise(rest, turnup) - value)
        cost = miss * 100 + sum(strength(c, turnup) for c in trio)
        if kept_best is None or cost < kept_best[0]:
            kept_best = (cost, list(trio), value)
    assert kept_best is not None
    return kept_best[1], kept_best[2]


def choose_play(hand: list[int], trick: list[int], turnup: int, wants: bool) -> int:
    """A legal card: the cheapest that wins when the player still wants tricks, else the dearest that loses."""
    legal = legal_cards(hand, trick[0] if trick else None, turnup)
    by_strength = sorted(legal, key=lambda c: strength(c, turnup))
    if not trick:
        return by_strength[-1] if wants else by_strength[0]
    winners = [c for c in by_strength if trick_winner([*trick, c], turnup) == len(trick)]
    losers = [c for c in by_strength if c not in winners]
    if wants:
        return winners[0] if winners else by_strength[0]
    return losers[-1] if losers else by_strength[0]


def game(seed: int, hands: int, players: list[str], event: str) -> str:
    rng = random.Random(seed)
    out = ['[Game "ninety-nine"]', f'[Players "{" ".join(players)}"]', f'[Event "{event}"]', ""]
    totals = dict.fromkeys(players, 0)
    dealer = len(players) - 1
    for number in range(1, hands + 1):
        cards = list(DECK)
        rng.shuffle(cards)
        order = [players[(dealer + 1 + i) % 3] for i in range(3)]
        dealt = {p: sorted(cards[i * DEALT : (i + 1) * DEALT]) for i, p in enumerate(order)}
        turnup = cards[-1]
        out.append(f"hand {number} dealer {players[dealer]}")
        out += [f"deal {p} " + " ".join(spell(c) for c in dealt[p]) for p in order]
        out.append(f"turnup {spell(turnup)}")
        held: dict[str, list[int]] = {}
        bids: dict[str, int | None] = {}
        for p in order:
            trio, value = choose_bid(dealt[p], turnup)
            held[p] = [c for c in dealt[p] if c not in trio]
            bids[p] = value
            out.append(f"bid {p} " + " ".join(spell(c) for c in trio))
        call = None
        bold = max(order, key=lambda p: promise(held[p], turnup) - (bids[p] or 0))
        if rng.random() < 0.3:
            call = Declaration("declare" if rng.random() < 0.75 else "reveal", bold)
            out.append(f"{call.kind} {bold}")
        won = dict.fromkeys(players, 0)
        leader = order[0]
        for t in range(1, 10):
            seat = players.index(leader)
            seated = [players[(seat + i) % 3] for i in range(3)]
            trick: list[int] = []
            for p in seated:
                card = choose_play(held[p], trick, turnup, won[p] < (bids[p] or 0))
                held[p].remove(card)
                trick.append(card)
            win = trick_winner(trick, turnup)
            assert win is not None
            leader = seated[win]
            won[leader] += 1
            prefix = f"{seated[0]}:" if t == 1 else ""
            out.append(f"{t}. {prefix}" + " ".join(spell(c) for c in trick))
        sheet = score_hand(players, bids, won, call)
        for p in players:
            totals[p] += sheet[p].total
        out.append("score " + " ".join(f"{p} {sheet[p].total}" for p in players))
        out.append("total " + " ".join(f"{p} {totals[p]}" for p in players))
        out.append("")
        dealer = (dealer + 1) % 3
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--players", default="Al Bo Cy")
    ap.add_argument("--event", default="Ninety-nine")
    a = ap.parse_args()
    players = a.players.split()
    if len(players) != 3:
        raise SystemExit("Ninety-nine is a game for three players")
    print(game(a.seed, a.hands, players, a.event))


if __name__ == "__main__":
    main()
