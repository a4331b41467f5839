"""Botifarra's points and scores, and the two-player piles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass

from imptools.rules.botifarra.cards import POINTS_OF

HAND_POINTS = 72
"""Points in a hand: 60 in the cards and 12 for the tricks (or the pairs of tricks)."""
TARGET = 101
"""A game is won by the first side past 100 (`Target` overrides)."""


def card_points(cards: Iterable[int]) -> int:
    """The points in some cards."""
    return sum(map(POINTS_OF.__getitem__, cards))


def hand_points(cards: Iterable[int], tricks: int) -> int:
    """A side's points in a three- or four-player hand: its card points and one per trick."""
    return card_points(cards) + tricks


def two_player_points(cards: Mapping[str, int], tricks: Mapping[str, int]) -> dict[str, int]:
    """Each player's points in a two-player hand, from their card points and tricks won.

    One point per two tricks; when both won an odd number, the point of the two
    leftover tricks goes to the player with fewer points so far (71 in all, never a tie).

    >>> two_player_points({"R": 30, "V": 30}, {"R": 13, "V": 11})
    {'R': 36, 'V': 36}
    >>> two_player_points({"R": 31, "V": 29}, {"R": 12, "V": 12})
    {'R': 37, 'V': 35}
    """
    out = {p: cards[p] + tricks.get(p, 0) // 2 for p in cards}
    if out and all(tricks.get(p, 0) % 2 == 1 for p in out):
        poorer = min(out, key=lambda p: out[p])
        out[poorer] += 1
    return out


def side_scores(
    sides: Sequence[Sequence[str]], side_points: Sequence[int], multiplier: int, offender: int | None
) -> dict[str, int]:
    """Scores of a game of two sides (partnership, or two players each a side).

    The side with more than half the points (36) scores the excess times the
    multiplier, the other nothing. A side that broke a play rule (`offender`,
    an index into `sides`) leaves the other side 36 times the multiplier.

    >>> side_scores([("A", "C"), ("B", "D")], [44, 28], 2, None)
    {'A': 16, 'C': 16, 'B': 0, 'D': 0}
    >>> side_scores([("A", "C"), ("B", "D")], [44, 28], 2, 0)
    {'A': 0, 'C': 0, 'B': 72, 'D': 72}
    """
    half = HAND_POINTS // 2
    out: dict[str, int] = {}
    for k, side in enumerate(sides):
        value: int
        if offender is not None:
            value = 0 if k == offender else half * multiplier
        else:
            value = max(side_points[k] - half, 0) * multiplier
        out.update(dict.fromkeys(side, value))
    return out


def individual_scores(player_points: Mapping[str, int], multiplier: int, offenders: Set[str]) -> dict[str, int]:
    """Scores of an individual game: (points - 18) with four players, (points - 24) with three, times the multiplier.

    A player who broke a play rule scores minus 18 (minus 24) times the multiplier instead.

    >>> individual_scores({"A": 30, "B": 20, "C": 22}, 2, set())
    {'A': 12, 'B': -8, 'C': -4}
    >>> individual_scores({"A": 30, "B": 20, "C": 22}, 2, {"A"})
    {'A': -48, 'B': -8, 'C': -4}
    """
    share = HAND_POINTS // len(player_points)
    return {p: -share * multiplier if p in offenders else (v - share) * multiplier for p, v in player_points.items()}


def game_won(totals: Mapping[str, int], target: int = TARGET) -> bool:
    """Whether some side's total has reached the target (past 100 by default)."""
    return any(v >= target for v in totals.values())


@dataclass(frozen=True, slots=True)
class Piles:
    """One player's piles in a two-player hand, each top card first.

    Only the first card left in a pile is face up: playing it turns up the next;
    a card played from under it leaves the pile and the top card stays up.
    """

    piles: tuple[tuple[int, ...], ...]

    def tops(self) -> frozenset[int]:
        """The face-up cards."""
        return frozenset(p[0] for p in self.piles if p)

    def pile_of(self, card: int) -> int | None:
        """The index of the pile holding `card`, None when no pile does."""
        return next((k for k, p in enumerate(self.piles) if card in p), None)

    def visible(self, card: int) -> bool:
        """True when `card` is face up on top of its pile."""
        return card in self.tops()

    def without(self, card: int) -> Piles:
        """The piles after `card` has been played from them."""
        return Piles(tuple(tuple(c for c in p if c != card) for p in self.piles))
