"""The Bottle Imp's escape search keyed by the cards that decided each answer (partition search).

An entry of `Escape` is keyed by the cards below the price, the leader, the bottles, how many cards of
each holder and colour (and coins) lie above the price, and only the highest of those: the ones from the least card
that won a trick in the lines it proved. One search object answers every position of several random lines of play,
for every player, on every table, and each answer is plain minimax's; the answers read from an entry whose band
held cards (positions that differ from the one it was stored at) are counted, so that the test shows it used them.
"""

from __future__ import annotations

from random import Random

import pytest

from imptools.rules.bottle_imp.escape import Escape
from imptools.rules.bottle_imp.search import SearchBottle
from tests.test_analyse import endgame, minimax

TABLES = [
    (3, "classic", 4),
    (4, "classic", 3),
    (5, "classic", 2),
    (6, "classic", 2),
    (5, "second-bottle", 2),
    (6, "second-bottle", 2),
    (4, "teams", 3),
    (5, "teams", 2),
    (6, "teams-2-2-1-1", 2),
    (2, "bright-house", 3),
    (2, "eye-of-the-demon", 3),
]
CASES = [(p, v, t, s) for p, v, t in TABLES for s in range(8)]


def lines(pos: SearchBottle, seed: int, count: int) -> list[list[int]]:
    """`count` random lines of play from `pos` to the end of the hand (`pos` is left where it was)."""
    rng = Random(seed)
    out = []
    for _ in range(count):
        line = []
        while not pos.done():
            card = rng.choice(pos.legal())
            pos.play(card)
            line.append(card)
        for _ in line:
            pos.undo()
        out.append(line)
    return out


@pytest.mark.parametrize(("players", "variant", "tricks", "seed"), CASES)
def test_escape_by_deciding_cards_equals_plain_minimax(players: int, variant: str, tricks: int, seed: int) -> None:
    """Whether a side can end without a bottle (and gain a coin as well), at every position of two random lines,
    is plain minimax's; one `Escape` answers them all."""
    pos = endgame(players, seed, tricks, variant)
    assert isinstance(pos, SearchBottle) and pos.penalty > 0
    escape = Escape(pos)
    assert escape.partition
    start = len(pos._undo)
    for line in lines(pos, seed, 2):
        for card in [*line, None]:
            for player, seat in pos.seat.items():
                exact = minimax(pos, player)
                won = pos.mult[seat] * pos.side_won(seat)
                assert escape.escapes(seat) == (exact >= won), (player, exact, won)
                if escape.counts_tricks:
                    assert escape.escapes(seat, gaining=True) == (exact > won), (player, exact, won)
            if card is not None:
                pos.play(card)
        while len(pos._undo) > start:
            pos.undo()


def test_entries_served_other_positions() -> None:
    """Three-player endgames of four tricks, one `Escape` over every position of eight random lines: the answers
    are plain minimax's, and in most endgames some were read from entries stored at other positions (their band
    held cards): the keys by the deciding cards were used, not only keys of whole positions."""
    shared = []
    for seed in range(4):
        pos = endgame(3, seed, 4, "classic")
        assert isinstance(pos, SearchBottle)
        escape = Escape(pos)
        start = len(pos._undo)
        for line in lines(pos, seed, 8):
            for card in [*line, None]:
                for player, seat in pos.seat.items():
                    exact = minimax(pos, player)
                    assert escape.escapes(seat) == (exact >= pos.won[seat])
                    assert escape.escapes(seat, gaining=True) == (exact > pos.won[seat])
                if card is not None:
                    pos.play(card)
            while len(pos._undo) > start:
                pos.undo()
        shared.append(escape.shared)
    assert sum(1 for s in shared if s) >= 3, shared
