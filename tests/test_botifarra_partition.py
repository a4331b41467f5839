"""Botifarra's solver with partition entries (`Solver.store`: a trick start's bound kept for every position whose
relevant cards without points lie alike) against plain minimax on hundreds of endgames: every window at every
position of an endgame's every line, one solver warm from the lines before; and deals that differ only in the
cards without points, one solver for them all, so that entries stored for one deal answer the others."""

from __future__ import annotations

from random import Random

import pytest

from imptools.rules.botifarra.masks import POINTS_OF, beats, legal_mask
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import SearchBotifarra, Solver
from imptools.rules.botifarra.solver import LOW_ALL, LOW_CARDS
from tests.test_analyse_botifarra import endgame, record, value

TABLES = [(t, r) for t in ("partnership", "individual", "three") for r in (LLIURE, OBLIGADA, CARREGAR)]
CASES = [(t, r, s) for t, r in TABLES for s in range(14)]


def walk_lines(table: str, rules: str, seed: int, partition: bool = True) -> int:
    """Every position of every line of an endgame (three tricks out, two where every card may be played), each
    asked for the player to move and the next one: the whole window and null windows below, at and above the
    value, each answer checked against plain minimax (exact inside the window, a bound on the side it fails).
    Returns the positions checked. With `partition` off, the solver as `imp analyse` runs it."""
    tricks = 2 if rules == LLIURE and table != "three" else 3
    pos, slow, _ = endgame(record(table, rules, (500 if partition else 700) + seed), tricks)
    solver = Solver(pos.rules, pos.trump, pos.partner, partition=partition)
    checked = 0

    def walk() -> None:
        nonlocal checked
        if pos.done():
            return
        for player in (pos.to_move(), pos.order[(pos.seat[pos.to_move()] + 1) % pos.n]):
            seat = pos.seat[player]
            exact = value(slow, player) - pos.points(player)
            state = (pos.hands, pos.live, pos.live_points, pos.leader, pos.trick, pos.winning, pos.wins_at, seat)
            for b in (exact - 2, exact, exact + 1, exact + 3):
                g = solver.gain(*state, b - 1, b)
                assert (g >= b) == (exact >= b), (player, b, g, exact)
                assert exact <= g if g < b else exact >= g  # fail-soft: a bound on the side it fails
            assert solver.gain(*state, -1000, 1000) == exact
            checked += 1
        for card in pos.legal():
            pos.play(card)
            slow.play(card)
            walk()
            pos.undo()
            slow.undo()

    walk()
    return checked


@pytest.mark.parametrize(("table", "rules", "seed"), CASES)
def test_partition_entries_equal_plain_minimax(table: str, rules: str, seed: int) -> None:
    assert walk_lines(table, rules, seed)


def plain(pos: SearchBotifarra, hands: list[int], lead: int, side: int) -> int:
    """Plain minimax from a trick's start over masks (`legal_mask` and `beats` are the checker's rules:
    `test_masks_equal_the_checkers_rules`): the points (cards' and a point a trick) the seats of `side` win, they
    maximising, every other seat minimising; no pruning, no table."""
    n = pos.n

    def play(k: int, trick: list[int], win: int, wat: int) -> int:
        if k == n:
            got = sum(POINTS_OF[b] for b in trick) + 1
            winner = (lead_of[-1] + wat) % n
            lead_of.append(winner)
            rest = start(winner)
            lead_of.pop()
            return rest + (got if side >> winner & 1 else 0)
        seat = (lead_of[-1] + k) % n
        held = hands[seat]
        if k == 0:
            legal = held
        else:
            mine = pos.partner[seat] == (lead_of[-1] + wat) % n
            legal = legal_mask(pos.rules, pos.trump, trick[0] // 12, win, mine, held)
        values = []
        x = legal
        while x:
            bb = x & -x
            x ^= bb
            b = bb.bit_length() - 1
            hands[seat] = held ^ bb
            wins = k == 0 or beats(b, win, pos.trump)
            values.append(play(k + 1, [*trick, b], b if wins else win, k if wins else wat))
            hands[seat] = held
        return max(values) if side >> seat & 1 else min(values)

    def start(leader: int) -> int:
        if not any(hands):
            return 0
        return play(0, [], -1, 0)

    lead_of = [lead]
    return start(lead)


def deals_alike(table: str, rules: str, seed: int, partition: bool = True) -> Solver:
    """One endgame (three tricks out, two where every card may be played) and twelve deals of it that differ only in
    the cards without points (`redeals`), one solver for them all: each deal's value for each side, the whole
    window and null windows around it, checked against plain minimax of that deal. Returns the solver."""
    tricks = 2 if rules == LLIURE and table != "three" else 3
    pos, _, _ = endgame(record(table, rules, 700 + seed), tricks)
    solver = Solver(pos.rules, pos.trump, pos.partner, partition=partition)
    solver.least = 0  # every trick start's bound kept, however small its search: the most entries to answer others
    rng = Random(seed)
    for hands in [list(pos.hands), *redeals(pos, 12, rng)]:
        for seat in range(min(pos.n, 2)):
            side = 1 << seat | (1 << pos.partner[seat] if pos.partner[seat] >= 0 else 0)
            exact = plain(pos, list(hands), pos.leader, side)
            for b in (exact - 1, exact, exact + 1, exact + 4):
                g = solver.gain(hands, pos.live, pos.live_points, pos.leader, [], -1, 0, seat, b - 1, b)
                assert (g >= b) == (exact >= b), (seat, b, g, exact)
                assert exact <= g if g < b else exact >= g  # fail-soft: a bound on the side it fails
            assert solver.gain(hands, pos.live, pos.live_points, pos.leader, [], -1, 0, seat, -1000, 1000) == exact
    return solver


def redeals(pos: SearchBotifarra, count: int, rng: Random) -> list[list[int]]:
    """`count` deals of a trick start's cards that differ from it only in the cards without points: each
    player keeps his point cards and as many cards without points of each suit, which are dealt anew among them."""
    out = []
    for _ in range(count):
        hands = [h & ~LOW_ALL for h in pos.hands]
        for s in range(4):
            lows = [12 * s + b for b in range(7) if pos.live >> (12 * s + b) & 1]
            rng.shuffle(lows)
            for seat, h in enumerate(pos.hands):
                for _ in range((h >> (12 * s) & LOW_CARDS).bit_count()):
                    hands[seat] |= 1 << lows.pop()
        out.append(hands)
    return out


REDEAL_CASES = [(t, r, s) for t, r in TABLES for s in range(12)]


@pytest.mark.parametrize(("table", "rules", "seed"), REDEAL_CASES)
def test_redealt_cards_without_points_equal_plain_minimax(table: str, rules: str, seed: int) -> None:
    """Deals that differ only in the cards without points: the positions partition entries answer for one
    another (`deals_alike`)."""
    deals_alike(table, rules, seed)


def test_partition_entries_answer_other_deals() -> None:
    """The partition entries are used: over a few endgames' deals alike they narrow windows the exact keys did not
    (the values staying those of plain minimax); without them none is counted."""
    assert sum(deals_alike("partnership", OBLIGADA, seed).phits for seed in range(4)) > 0
    assert deals_alike("partnership", OBLIGADA, 0, partition=False).phits == 0


def test_relevant_cards_name_the_top_cards_without_points() -> None:
    """An entry names, per suit, how many cards without points from the top are relevant: down to the lowest
    relevant card (`kvec_of`), and back to that card in a position with the same cards (`mark_top`)."""
    solver = Solver(OBLIGADA, 0, [2, 3, 0, 1])
    low = [1 << b for b in range(7)]  # oros 2-8
    solver.live = low[1] | low[3] | low[4] | low[6] | 1 << 12 | 1 << 14  # oros 3 5 6 8, copes 2 4
    assert solver.kvec_of(low[4]) == 2  # oros 8 and 6: two from the top
    assert solver.kvec_of(low[4] | 1 << 12) == 2 | 2 << 3  # and copes 4 2
    solver.rel = 0
    solver.mark_top(2 | 1 << 3)
    assert solver.rel == low[4] | 1 << 14
    assert LOW_CARDS == 0x7F
