"""The order Botifarra's solver tries cards in (`Solver.order`, ported line by line to csolver.c and
compared position by position in tests/test_native_solver.py): masters first, but a master of a side suit an
opponent can ruff last of all; low leads the partner can ruff (and no opponent can) before the other low leads; onto
a partner's trick that could still be taken, the led suit's master first."""

from __future__ import annotations

from imptools.rules.botifarra.masks import POINTS_OF, SUIT_MASK
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


def follows(hands: list[int], trick: list[int], seat: int, trump: int = OROS) -> list[int]:
    """The order `seat` tries its cards in at a partnership table, seat 0 having led `trick` (the first card wins)."""
    solver = Solver("lliure", trump, [2, 3, 0, 1])
    solver.hands = list(hands)
    lying = 0
    for b in trick:
        lying |= 1 << b
    solver.live = hands[0] | hands[1] | hands[2] | hands[3] | lying
    led = trick[0] // 12
    return solver.order(seat, hands[seat] & SUIT_MASK[led], len(trick), trick[0], 0, 0, led)


def test_the_led_suits_master_goes_first_onto_a_partners_trick_that_could_be_taken() -> None:
    lead, second = bit(COPES, 3), bit(COPES, 2)
    third = card(COPES, MANILLA) | card(COPES, 0) | card(COPES, 7) | card(BASTOS, 0)
    fourth = card(COPES, 10) | card(COPES, 4) | card(ESPASES, 0) | card(BASTOS, 1)  # the as: it could take the trick
    others = [card(ESPASES, 1) | card(BASTOS, 2), card(ESPASES, 2) | card(BASTOS, 3)]
    hands = [others[0], others[1], third, fourth]
    assert follows(hands, [lead, second], 2) == [bit(COPES, MANILLA), bit(COPES, 0), bit(COPES, 7)]
    # the manilla with the fourth player: the partner's trick could be taken still, and the third plays low first
    third_low = third ^ card(COPES, MANILLA) | card(COPES, 5)
    fourth_top = fourth ^ card(COPES, 10) | card(COPES, MANILLA)
    hands = [others[0], others[1], third_low, fourth_top]
    assert follows(hands, [lead, second], 2) == [bit(COPES, 0), bit(COPES, 5), bit(COPES, 7)]
