"""The order Botifarra's solver tries a leader's cards in (`Solver.order`, ported line by line to csolver.c and
compared position by position in tests/test_native_solver.py): masters first, but a master of a side suit an
opponent can ruff last of all; low leads the partner can ruff (and no opponent can) before the other low leads."""

from __future__ import annotations

from imptools.rules.botifarra.masks import POINTS_OF
from imptools.rules.botifarra.solver import Solver

OROS, COPES, ESPASES, BASTOS = range(4)
MANILLA = 11  # a suit's highest card (5 points); its seven cards without points are 0-6


def card(suit: int, index: int) -> int:
    return 1 << (12 * suit + index)


def bit(suit: int, index: int) -> int:
    return 12 * suit + index


def leads(hands: list[int], trump: int = OROS) -> list[int]:
    """The order seat 0, on lead at a partnership table, tries its cards in."""
    solver = Solver("obligada", trump, [2, 3, 0, 1])
    solver.hands = list(hands)
    solver.live = hands[0] | hands[1] | hands[2] | hands[3]
    return solver.order(0, hands[0], 0, -1, 0, 0, -1)


def test_the_manilla_an_opponent_can_ruff_is_led_last() -> None:
    assert POINTS_OF[bit(COPES, MANILLA)] == 5 and POINTS_OF[bit(COPES, 0)] == 0
    leader = card(COPES, MANILLA) | card(ESPASES, MANILLA) | card(COPES, 0) | card(BASTOS, 0)
    ruffer = card(OROS, 5) | card(ESPASES, 3) | card(ESPASES, 4) | card(BASTOS, 4)  # no copes, a trump
    partner = card(COPES, 1) | card(ESPASES, 1) | card(BASTOS, 1) | card(BASTOS, 2)
    other = card(COPES, 2) | card(ESPASES, 2) | card(BASTOS, 3) | card(OROS, 6)
    order = leads([leader, ruffer, partner, other])
    assert order == [bit(ESPASES, MANILLA), bit(COPES, 0), bit(BASTOS, 0), bit(COPES, MANILLA)]
    # without a trump the void opponent cannot ruff: both manillas are masters to cash first (suit by suit)
    ruffer_no_trump = ruffer ^ card(OROS, 5) | card(ESPASES, 5)
    order = leads([leader, ruffer_no_trump, partner, other])
    assert order[:2] == [bit(COPES, MANILLA), bit(ESPASES, MANILLA)]
    # at botifarra (no trumps) nothing is ruffed
    assert leads([leader, ruffer, partner, other], trump=-1)[:2] == [bit(COPES, MANILLA), bit(ESPASES, MANILLA)]


def test_a_low_lead_the_partner_can_ruff_comes_before_the_other_low_leads() -> None:
    leader = card(COPES, 0) | card(BASTOS, 0) | card(ESPASES, 0)
    partner = card(OROS, 3) | card(COPES, 1) | card(ESPASES, 1)  # no bastos, a trump
    left = card(COPES, 2) | card(BASTOS, 2) | card(ESPASES, 2)
    right = card(COPES, 3) | card(BASTOS, 3) | card(ESPASES, 3)
    assert leads([leader, left, partner, right]) == [bit(BASTOS, 0), bit(COPES, 0), bit(ESPASES, 0)]
    # the partner without the trump: the low leads in their plain order (suit by suit)
    plain = partner ^ card(OROS, 3) | card(COPES, 4)
    assert leads([leader, left, plain, right]) == [bit(COPES, 0), bit(ESPASES, 0), bit(BASTOS, 0)]
    # an opponent who can ruff bastos too: no preference for it
    right_ruffs = right ^ card(BASTOS, 3) | card(OROS, 4)
    assert leads([leader, left, partner, right_ruffs]) == [bit(COPES, 0), bit(ESPASES, 0), bit(BASTOS, 0)]
