"""Killer cards (`Solver.killers`): the card that last cut off with a hand in a place of a trick (the suit led, the
partner winning or not, a card taking the trick or not; or to lead) is tried first where the same hand is in that
place again; it changes the order of the search and never a value."""

from __future__ import annotations

import pytest

import imptools.rules.botifarra.solver as solver_module
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import SearchBotifarra
from tests.test_botifarra_settled import assert_endgames_play_as_plain_minimax


def test_a_hand_in_its_place_of_a_trick_hashes_to_a_slot() -> None:
    """The same hand in the same place (suit led, partner winning or not, a card taking the trick or not) hashes
    alike; another card in the hand, another suit led, the partner winning or a card taking the trick where none did
    hashes apart; the hash keeps its top bit (a slot of 0 is empty)."""
    held = 0b1011 | 0b11 << 24
    h = solver_module.killer_hash(held, 2, False, False)
    assert h == solver_module.killer_hash(0b1011 | 0b11 << 24, 2, False, False)
    assert h >> 63 == 1
    others = [(held ^ 1, 2, False, False), (held, 1, False, False), (held, -1, False, False)]
    others += [(held, 2, True, False), (held, 2, False, True), (held, 2, True, True)]
    assert all(solver_module.killer_hash(*o) != h for o in others)


TABLES = [(t, r) for t in ("partnership", "individual", "three") for r in (LLIURE, OBLIGADA, CARREGAR)]


@pytest.mark.parametrize(("table", "rules"), TABLES)
def test_values_stay_plain_minimax_with_killer_cards(table: str, rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Solver.gain` with killer cards from every trick on (`KILLER_TRICKS` 1), at trick starts and inside tricks,
    every null window and the whole one, against plain minimax; the killer cards found are counted (the test fails
    if none ever is)."""
    monkeypatch.setattr(solver_module, "KILLER_TRICKS", 1)
    found = 0
    solvers: list[solver_module.Solver] = []
    hashed = solver_module.killer_hash

    def counted(held: int, led: int, partner_wins: bool, can_take: bool) -> int:
        nonlocal found
        h = hashed(held, led, partner_wins, can_take)
        slot = solvers[-1].killers[h & solver_module.KILLER_SLOTS - 1]
        found += not (slot ^ h) >> 6
        return h

    monkeypatch.setattr(solver_module, "killer_hash", counted)

    def solver_of(pos: SearchBotifarra, seed: int) -> solver_module.Solver:
        solvers.append(solver_module.Solver(pos.rules, pos.trump, pos.partner, partition=seed % 4 == 3))
        return solvers[-1]

    assert_endgames_play_as_plain_minimax(table, rules, 700, solver_of)
    assert found > 0
