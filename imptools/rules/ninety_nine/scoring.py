"""Ninety-nine's scores: declarations, the exact-bid bonuses, each player's score for a hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from imptools.rules.base import FactKind

DECLARE = "declare"
REVEAL = "reveal"
CALL_BONUS = {DECLARE: 30, REVEAL: 60}
"""What declaring and revealing are worth."""
EXACT_BONUS = {1: 30, 2: 20, 3: 10}
"""What each player who took exactly the bid adds, by how many did."""

FACTS = (
    FactKind("exact", "bids made (exactly)"),
    FactKind(DECLARE, "declares"),
    FactKind(f"{DECLARE}-made", "declares made"),
    FactKind(REVEAL, "reveals"),
    FactKind(f"{REVEAL}-made", "reveals made"),
)
"""A player's facts of a scored hand: he took exactly his bid; he declared or revealed, and made his bid doing so."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """A `declare` or `reveal` that counts: its kind and the declarer."""

    kind: str
    player: str


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's hand score and how it is made up.

    `bid` is None when the bid is unknown (it then counts as not made);
    `exact` is the bonus for taking exactly the bid; `call` what a declaration
    or revelation brought this player (as declarer or as opponent).
    """

    bid: int | None
    tricks: int
    made: bool
    exact: int
    call: int

    @property
    def total(self) -> int:
        return self.tricks + self.exact + self.call

    def describe(self) -> str:
        """A short line for a score sheet: `bid 3 · 3 tricks · exact +30`."""
        bits = [
            f"bid {'?' if self.bid is None else self.bid}",
            f"{self.tricks} trick" + ("" if self.tricks == 1 else "s"),
        ]
        if self.exact:
            bits.append(f"exact +{self.exact}")
        if self.call:
            bits.append(f"call +{self.call}")
        return " · ".join(bits)


def score_hand(
    players: Sequence[str], bids: Mapping[str, int | None], tricks: Mapping[str, int], call: Declaration | None
) -> dict[str, PlayerScore]:
    """Score one hand: 1 per trick; exact bids 30 alone, 20 each for two, 10 each for three; the call.

    A declaration (30) or revelation (60) goes to the declarer if the bid was
    made, otherwise to each opponent. A player whose bid is unknown has not made it.

    >>> s = score_hand(["A", "B", "C"], {"A": 3, "B": 3, "C": 3}, {"A": 5, "B": 1, "C": 3}, None)
    >>> [s[p].total for p in "ABC"]
    [5, 1, 33]
    """
    made = {p: bids.get(p) is not None and bids.get(p) == tricks.get(p, 0) for p in players}
    exact = EXACT_BONUS.get(sum(made.values()), 0)
    bonus = dict.fromkeys(players, 0)
    if call is not None and call.player in made:
        worth = CALL_BONUS[call.kind]
        if made[call.player]:
            bonus[call.player] = worth
        else:
            for p in players:
                if p != call.player:
                    bonus[p] = worth
    return {p: PlayerScore(bids.get(p), tricks.get(p, 0), made[p], exact if made[p] else 0, bonus[p]) for p in players}


def hand_facts(sheet: Mapping[str, PlayerScore], call: Declaration | None) -> tuple[tuple[str, str, int], ...]:
    """`(player, key, 1)` for each of `FACTS` a scored hand gives a player (`sheet` from `score_hand`)."""
    out = [(p, "exact", 1) for p, s in sheet.items() if s.made]
    if call is not None and call.player in sheet:
        out.append((call.player, call.kind, 1))
        if sheet[call.player].made:
            out.append((call.player, f"{call.kind}-made", 1))
    return tuple(out)
