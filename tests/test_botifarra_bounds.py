"""The bounds Botifarra's solver cuts with, against plain minimax on hundreds of endgames: a bound never cuts a
true value (`Solver.ruffs`: the points each side is sure of from its trumps, those no trump of the other side can
beat; `Solver.sure`: the leader's side's sure tricks, the cards the others must follow them with, and master
trumps; `Duel.masters`: what each of two players is sure of), and every window the solver answers with them, at
every position."""

from __future__ import annotations

from random import Random

import pytest

from imptools.rules.botifarra.duel import Duel
from imptools.rules.botifarra.masks import POINTS_OF
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import SearchBotifarra, Solver
from imptools.rules.botifarra.search import TRUMPS, start_cards
from tests.test_analyse_botifarra import endgame, record, sum_value, value
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


def duel_walk(pos: SearchBotifarra, duel: Duel) -> tuple[int, int]:
    """At every trick's start of every line from `pos`, `duel.masters` against plain minimax of the sum for each
    player; the trick starts checked, and the bounds above 0 among them."""
    if pos.done():
        return 0, 0
    checked = cut = 0
    if not pos.trick:
        duel.gain(pos.hands, pos.free, pos.live, pos.live_points, pos.leader, [], 0, -1, 0)  # its state
        ours, theirs = duel.masters(pos.leader)
        for seat, sure in ((pos.leader, ours), (1 - pos.leader, theirs)):
            banked = 2 * pos.card_points[seat] + pos.tricks[seat]
            exact = sum_value(pos, seat) - banked
            assert sure <= exact, (pos.trump, seat, sure, exact)
            cut += sure > 0
        checked += 1
    for card in pos.legal():
        pos.play(card)
        more, bounded = duel_walk(pos, duel)
        pos.undo()
        checked += more
        cut += bounded
    return checked, cut


@pytest.mark.parametrize(("variant", "seed"), [(v, s) for v in ("rector-vicar", "piles-and-hand") for s in range(8)])
def test_duel_sure_points_never_cut_a_true_value(variant: str, seed: int) -> None:
    """Two players, the same endgame's cards under each of the five trumps: at every trick's start of its every
    line (five tricks out), what `Duel.masters` says each player is sure of (the leader's and the other's master
    trumps, the leader's top cards while the other holds no trump) is at most what he wins from there (plain
    minimax of the sum, twice the card points and the tricks)."""
    found, _, _ = endgame(record("two", variant, 300 + seed), 5)
    held, piles = start_cards(found)
    order = found.order[found.leader :] + found.order[: found.leader]
    checked = cut = 0
    for _, trump in TRUMPS:
        pos = SearchBotifarra(found.setup, order, trump, held, piles)
        more, bounded = duel_walk(pos, Duel(pos.rules, pos.trump, pos.under))
        checked += more
        cut += bounded
    assert checked and cut


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
