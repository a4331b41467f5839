"""The bounds Botifarra's solver cuts with, against plain minimax on hundreds of endgames: a bound never cuts a
true value (`Solver.ruffs`: the points each side is sure of from its trumps, those no trump of the other side can
beat; `Solver.sure`: the leader's side's sure tricks, the cards the others must follow them with, and master
trumps), and every window the solver answers with them, at every position."""

from __future__ import annotations

from random import Random

import pytest

from imptools.rules.botifarra.masks import POINTS_OF
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import Solver
from tests.test_analyse_botifarra import endgame, record, value
from tests.test_botifarra_partition import plain, walk_lines

RULES = [LLIURE, OBLIGADA, CARREGAR]
TABLES = [(t, r) for t in ("partnership", "individual", "three") for r in RULES]
CASES = [(t, r, s) for t, r in TABLES for s in range(12)]


@pytest.mark.parametrize(("table", "rules", "seed"), CASES)
def test_sure_points_never_cut_a_true_value(table: str, rules: str, seed: int) -> None:
    """At every trick's start of an endgame's every line (three tricks out, two where every card may be played),
    for every player: his side's sure trump points (`ruffs`) at most what it wins from there, the others' at most
    what they win (the points left less his side's); the leader's side's sure points at most what it wins."""
    tricks = 2 if rules == LLIURE and table != "three" else 3
    pos, slow, _ = endgame(record(table, rules, 300 + seed), tricks)
    solver = Solver(pos.rules, pos.trump, pos.partner)
    checked = 0

    def walk() -> None:
        nonlocal checked
        if pos.done():
            return
        if not pos.trick:
            left = pos.live_points + pos.live.bit_count() // pos.n
            for player in pos.order:
                seat = pos.seat[player]
                exact = value(slow, player) - pos.points(player)
                solver.gain(pos.hands, pos.live, pos.live_points, pos.leader, [], -1, 0, seat, -1, 0)  # its state
                mine, theirs = solver.ruffs() if pos.trump >= 0 else (0, 0)
                assert mine <= exact <= left - theirs, (player, mine, exact, left, theirs)
                q = solver.sure(pos.leader)
                on_lead = seat == pos.leader or pos.partner[seat] == pos.leader
                assert q <= exact if on_lead else exact <= left - q, (player, q, exact, left)
                checked += 1
        for card in pos.legal():
            pos.play(card)
            slow.play(card)
            walk()
            pos.undo()
            slow.undo()

    walk()
    assert checked


@pytest.mark.parametrize(("table", "rules", "seed"), CASES)
def test_every_window_with_the_bounds_equals_plain_minimax(table: str, rules: str, seed: int) -> None:
    """The solver as `imp analyse` runs it (no partition entries), every window at every position of an endgame's
    every line, inside tricks too, one solver warm from the lines before."""
    assert walk_lines(table, rules, seed, partition=False)


DEALT = [(r, 3, 400) for r in RULES] + [(r, 4, 40 if r == LLIURE else 100) for r in RULES]


@pytest.mark.parametrize(("rules", "tricks", "deals"), DEALT)
def test_sure_points_on_dealt_endgames(rules: str, tricks: int, deals: int) -> None:
    """Deals of the partnership table three or four tricks out, from two or three suits only (long suits: runs of
    top cards, entries to the partner, rounds the others must follow, and tricks enough for them all to matter),
    each trump and botifarra: the leader's side's sure points (`sure`) and each side's sure trumps (`ruffs`)
    against plain minimax from the deal."""
    pos, _, _ = endgame(record("partnership", rules, 300), 3)
    rng = Random(f"{rules}{tricks}")
    checked = 0
    for _ in range(deals):
        suits = rng.sample(range(4), rng.choice((2, 3)))
        cards = rng.sample([12 * s + r for s in suits for r in range(12)], 4 * tricks)
        hands = [sum(1 << c for c in cards[tricks * i : tricks * (i + 1)]) for i in range(4)]
        trump = rng.choice([*suits, -1])
        pos.trump = trump  # the rules `plain` plays by
        live = sum(hands)
        points = sum(POINTS_OF[c] for c in cards)
        leader = rng.randrange(4)
        solver = Solver(rules, trump, pos.partner)
        for seat in (leader, (leader + 1) % 4):
            side = 1 << seat | 1 << pos.partner[seat]
            exact = plain(pos, list(hands), leader, side)
            solver.gain(hands, live, points, leader, [], -1, 0, seat, -1, 0)  # its state
            mine, theirs = solver.ruffs() if trump >= 0 else (0, 0)
            assert mine <= exact <= points + tricks - theirs, (hands, trump, seat, mine, exact, theirs)
            if seat == leader:
                q = solver.sure(leader)
                assert q <= exact, (hands, trump, leader, q, exact)
                checked += q > 0
    assert checked
