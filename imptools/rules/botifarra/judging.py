"""Botifarra's judging walk over masks: which plays of a hand the obligation table may have been broken at.

What the record proves a player held just before a play (`Holdings.before`) is, as a mask, the cards they play
from then on and, when their deal is recorded, the dealt cards they have not played yet. With that mask, the
obligation table (`masks.legal_mask`, proven equal to `obligations.legal_cards`) says whether the card played was
allowed. Only the plays it was not allowed at are judged again the slow way, for the evidence of the message;
everywhere else the answer is the same (tests/test_botifarra_judging.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from imptools.rules.botifarra.masks import BIT, legal_mask
from imptools.rules.tricks import Played, Walk


def suspect_plays(
    rules: str,
    trump: int | None,
    tricks: Sequence[Played],
    partners: Mapping[str, Set[str]],
    dealt: Mapping[str, set[int]],
) -> list[tuple[int, int]]:
    """The plays, as (trick index, play index) in play order, whose card the obligation table did not allow for
    the cards the record proves the player held (`dealt`: each player's whole deal, where recorded).

    `partners` gives each player's partners (none in individual and two-player games); the leader is free.
    """
    bits: dict[str, list[int]] = {}
    for played in tricks:
        for p, c in zip(played.who, played.cards):
            row = bits.get(p)
            if row is None:
                row = bits[p] = []
            row.append(1 << BIT[c])
    later: dict[str, list[int]] = {}
    for p, row in bits.items():
        acc = 0
        suffix = [0] * len(row)
        for k in range(len(row) - 1, -1, -1):
            acc |= row[k]
            suffix[k] = acc
        later[p] = suffix
    deal: dict[str, int] = {}
    for p, cards in dealt.items():
        m = 0
        for c in cards:
            m |= 1 << BIT[c]
        deal[p] = m
    at = dict.fromkeys(bits, 0)
    gone = dict.fromkeys(bits, 0)
    t_mask = -1 if trump is None else trump
    out: list[tuple[int, int]] = []
    for t, played in enumerate(tricks):
        who = played.who
        led = win = master = 0
        for i, c in enumerate(played.cards):
            p = who[i]
            b = BIT[c]
            k = at[p]
            at[p] = k + 1
            if i == 0:
                led, win, master = b // 12, b, 0
            else:
                held = later[p][k] | (deal.get(p, 0) & ~gone[p])
                ally = who[master] in partners.get(p, ())
                if not (legal_mask(rules, t_mask, led, win, ally, held) >> b) & 1:
                    out.append((t, i))
                s, w = b // 12, win // 12
                if (s == w and b > win) or (s == t_mask and w != t_mask):
                    win, master = b, i
            gone[p] |= 1 << b
    return out


def plays_distinct(walk: Walk) -> bool:
    """Whether no card is played twice in the tricks the walk seated."""
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    cards = [c for played in tricks for c in played.cards]
    return len(set(cards)) == len(cards)
