"""A settled trick's runs (`masks.settled_runs`): where no later player can take the trick, a player's run of cards
that compare alike with every card in play needs one card searched, and the solver's values stay plain minimax's."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

import imptools.rules.botifarra.solver as solver_module
from imptools.rules.botifarra.duel import Duel
from imptools.rules.botifarra.masks import coded, settled_runs
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import SearchBotifarra, Solver
from tests.test_analyse_botifarra import endgame, record, sum_value, tricks_left, value

SUIT = 12
"""The bits of a suit: 0-6 the 2 to the 8 (no points), 7-11 the 10, 11, 12, 1 and 9 (1 to 5 points)."""
PARTNERS = 0b0101
"""Seats 0 and 2 against 1 and 3, as the solver's side mask (the side valued)."""


def run_of(
    legal: int, hands: list[int], rules: str, k: int, win: int, trick: int = 0, side: int = PARTNERS, trump: int = -1
) -> int:
    """`settled_runs` at a four-player trick led by seat 0 in suit 0, the `k`-th card to play, `win` the winning
    card (played by the leader; -1 where `k` is 0), `trick` the other cards lying in it."""
    live = hands[0] | hands[1] | hands[2] | hands[3] | trick | (1 << win if win >= 0 else 0)
    led = 0 if k else -1
    return settled_runs(legal, live, hands, 4, coded(rules), trump, side, 0, k, win, 0, led)


def test_the_last_card_keeps_the_run_card_its_side_wants() -> None:
    """Seat 3 (against the leader) holds the 11, 12 and 1 under the leader's 9: the trick is the leader's side's
    whatever he plays, so only his cheapest is searched; where the trick is his own side's, his dearest."""
    run = 0b111 << 8
    hands = [0, 0, 0, run]
    trick = 1 << 1 | 1 << 2  # seats 1 and 2 followed low
    assert run_of(run, hands, LLIURE, 3, 11, trick) == 1 << 8
    assert run_of(run, hands, LLIURE, 3, 11, trick, side=0b1001) == 1 << 10


def test_a_run_that_takes_the_trick_plays_its_dearest_card() -> None:
    """Seat 3 over the leader's 8 with the 10, 11 and 12: he takes the trick with any of them, so the dearest."""
    run = 0b111 << 7
    assert run_of(run, [0, 0, 0, run], LLIURE, 3, 6, 1 << 1 | 1 << 2) == 1 << 9


def test_a_run_stays_whole_while_a_later_player_can_take_the_trick() -> None:
    """Seat 1 over the leader's 8 with the 10, 11 and 12, and seat 2 still holds the 9 of the suit: who takes the
    trick is not settled, so every card of the run is searched; without the 9 behind him, one card."""
    run = 0b111 << 7
    assert run_of(run, [0, run, 1 << 11, 1 << 0], OBLIGADA, 1, 6) == run
    assert run_of(run, [0, run, 1 << SUIT, 1 << 0], OBLIGADA, 1, 6) == 1 << 9


def test_a_card_without_points_joins_a_run_where_no_rule_tells_it_from_a_point_card() -> None:
    """Seat 3 takes the leader's 7 with the 8 or the 10 (side by side) and also holds the 2: at `obligada` and
    `carregar` a rule may allow the 10 ("a point card") where it does not allow the 8 (not his lowest), so both are
    searched; at `lliure` they are one run, and he takes his own trick with the dearer. Without the 2 the 8 is his
    lowest card of the suit, kept as such: one run at every play rule."""
    pair = 1 << 6 | 1 << 7
    trick = 1 << 1 | 1 << 2
    with_two = [0, 0, 0, pair | 1 << 0]
    assert run_of(pair, with_two, OBLIGADA, 3, 5, trick) == pair
    assert run_of(pair, with_two, CARREGAR, 3, 5, trick) == pair
    assert run_of(pair, with_two, LLIURE, 3, 5, trick) == 1 << 7
    for rules in (OBLIGADA, CARREGAR, LLIURE):
        assert run_of(pair, [0, 0, 0, pair], rules, 3, 5, trick) == 1 << 7


def test_a_card_in_play_between_splits_the_run() -> None:
    """The 11 and the 1 with the 12 still in play (in the trick) are not alike: both are searched."""
    pair = 1 << 8 | 1 << 10
    hands = [0, 0, 0, pair]
    assert run_of(pair, hands, LLIURE, 3, 11, 1 << 1 | 1 << 9) == pair


def test_a_leader_cashes_the_dearest_of_a_run_no_one_can_take() -> None:
    """The leader holds the 9 and the 1 of oros, the two top cards: with no trump out against him the trick is his
    whichever he leads, so the 9 alone is searched; with an opponent void in oros holding trumps, both."""
    top = 1 << 10 | 1 << 11
    hands = [top | 1 << 0, 1 << 1, 1 << 2, 1 << 3]
    assert run_of(top, hands, OBLIGADA, 0, -1) == 1 << 11
    hands[1] = 1 << SUIT
    assert run_of(top, hands, OBLIGADA, 0, -1, trump=1) == top
    assert run_of(top, hands, OBLIGADA, 0, -1, trump=2) == 1 << 11


def test_only_the_other_side_can_unsettle_a_trick() -> None:
    """Seat 1 follows the leader's 9 with the 11 or the 12 (no card beats it): the leader's partner (seat 2) can
    ruff it, which leaves the trick with the leader's side, so it is settled and seat 1 keeps his dearer card for
    later; where his own partner (seat 3) can ruff it, it is not."""
    pair = 1 << 8 | 1 << 9
    trumps = 1 << SUIT
    assert run_of(pair, [0, pair, trumps, 1 << 0], LLIURE, 1, 11, trump=1) == 1 << 8
    assert run_of(pair, [0, pair, 1 << 0, trumps], LLIURE, 1, 11, trump=1) == pair


def assert_every_window(gain: Callable[[int, int], int], exact: int) -> None:
    """`gain(alpha, beta)` is `exact` for the whole window, and for each null window around 0 to `exact` + 2 says on
    which side `exact` lies, fail-soft (a bound on the side it fails)."""
    assert gain(-1000, 1000) == exact
    for b in range(0, exact + 3):
        g = gain(b - 1, b)
        assert (g >= b) == (exact >= b)
        assert exact <= g if g < b else exact >= g


def assert_endgames_play_as_plain_minimax(
    table: str, rules: str, first_seed: int, solver_of: Callable[[SearchBotifarra, int], Solver]
) -> None:
    """Eight endgames of `table` under `rules` (records from `first_seed` on, 0-2 cards already lying in the
    trick): the gain of `solver_of(position, seed)`, for the first two players, every null window and the whole one
    (`assert_every_window`), against plain minimax."""
    for seed in range(8):
        pos, slow, plays = endgame(
            record(table, rules, first_seed + seed), tricks_left(table, rules, seed) + (seed % 2)
        )
        solver = solver_of(pos, seed)
        for k in range(seed % 3):
            pos.play(plays[k])
            slow.play(plays[k])
        for player in pos.order[:2]:
            seat = pos.seat[player]
            exact = value(slow, player) - pos.points(player)
            state = (pos.hands, pos.live, pos.live_points, pos.leader, pos.trick, pos.winning, pos.wins_at, seat)
            assert_every_window(partial(solver.gain, *state), exact)


TABLES = [(t, r) for t in ("partnership", "individual", "three") for r in (LLIURE, OBLIGADA, CARREGAR)]


@pytest.mark.parametrize(("table", "rules"), TABLES)
def test_values_stay_plain_minimax_where_runs_are_settled(
    table: str, rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Solver.gain` at trick starts and inside tricks, every null window and the whole one, against plain minimax,
    on endgames where settled runs leave cards out (counted: the test fails if none is ever left out)."""
    left_out = 0

    def counted(legal: int, *rest: int | list[int]) -> int:
        nonlocal left_out
        kept = settled_runs(legal, *rest)  # type: ignore[arg-type]
        left_out += (legal & ~kept).bit_count()
        return kept

    monkeypatch.setattr(solver_module, "settled_runs", counted)
    assert_endgames_play_as_plain_minimax(
        table, rules, 300, lambda pos, seed: Solver(pos.rules, pos.trump, pos.partner, partition=False)
    )
    assert left_out > 0


@pytest.mark.parametrize("variant", ["rector-vicar", "piles-and-hand"])
def test_two_player_values_stay_plain_minimax_where_runs_are_settled(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`Duel.gain`, every null window and the whole one, against plain minimax of the sum, on endgames where
    `Duel.settled` leaves cards out (runs of cards with no pile card under them; counted: none left out fails)."""
    left_out = 0
    settled = Duel.settled

    def counted(duel: Duel, legal: int, seat: int, k: int, win: int) -> int:
        nonlocal left_out
        kept = settled(duel, legal, seat, k, win)
        left_out += (legal & ~kept).bit_count()
        return kept

    monkeypatch.setattr(Duel, "settled", counted)
    for seed in range(16):
        pos, slow, plays = endgame(record("two", variant, 500 + seed), 6 + seed % 2)
        duel = Duel(pos.rules, pos.trump, pos.under)
        if seed % 2:
            pos.play(plays[0])
            slow.play(plays[0])
        for player in pos.order:
            seat = pos.seat[player]
            exact = sum_value(pos, seat) - 2 * pos.card_points[seat] - pos.tricks[seat]
            state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat)
            assert_every_window(partial(duel.gain, *state), exact)
    assert left_out > 0
