"""Botifarra's tally of one hand: the cards and tricks each player has won, and the scores they make."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from imptools.rules.botifarra.calls import (
    INDIVIDUAL,
    Seating,
    side_name,
)
from imptools.rules.botifarra.scoring import (
    card_points,
    individual_scores,
    side_scores,
    two_player_points,
)
from imptools.rules.botifarra.setup import Setup


@dataclass(slots=True)
class Tally:
    """The cards and tricks each player has won so far in a hand."""

    won: dict[str, list[int]]
    tricks: dict[str, int]
    card_points: dict[str, int]

    def take(self, winner: str, cards: Sequence[int]) -> None:
        """The winner of a trick takes its cards."""
        self.won[winner].extend(cards)
        self.tricks[winner] += 1
        self.card_points[winner] += card_points(cards)

    def give_back(self, winner: str, cards: int) -> None:
        """Undo the winner's last `take` of a trick of `cards` cards."""
        self.card_points[winner] -= card_points(self.won[winner][-cards:])
        del self.won[winner][-cards:]
        self.tricks[winner] -= 1

    def points(self, setup: Setup) -> dict[str, int]:
        """Each side's points (by side name) so far."""
        if setup.two_player:
            return two_player_points(self.card_points, self.tricks)
        return {
            name: sum(self.card_points[p] + self.tricks[p] for p in side) for name, side in _named_sides(setup.seating)
        }

    def side_tricks(self, setup: Setup) -> dict[str, int]:
        return {name: sum(self.tricks[p] for p in side) for name, side in _named_sides(setup.seating)}


@functools.lru_cache(maxsize=64)
def _named_sides(seating: Seating) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each side of a seating with its name."""
    return tuple((side_name(side), side) for side in seating.sides())


def hand_score(setup: Setup, tally: Tally, multiplier: int, offenders: Sequence[str]) -> dict[str, int]:
    """The hand's scores; the first play rule broken decides a game of sides, each breaks his own alone."""
    points = tally.points(setup)
    sides = setup.seating.sides()
    if setup.seating.mode == INDIVIDUAL:
        return individual_scores({s[0]: points[side_name(s)] for s in sides}, multiplier, set(offenders))
    offender = next((k for k, s in enumerate(sides) if offenders and offenders[0] in s), None)
    scores = side_scores(sides, [points[side_name(s)] for s in sides], multiplier, offender)
    return {p: scores[p] for p in setup.players}
