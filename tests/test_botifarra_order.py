"""The order Botifarra's solver tries cards in (`Solver.order`, ported line by line to csolver.c and
compared position by position in tests/test_native_solver.py): masters first, but a master of a side suit an
opponent can ruff last of all; low leads the partner can ruff (and no opponent can) before the other low leads; onto
a partner's trick that could still be taken, the led suit's master first; and, early in a hand, the trick's outcome
first (`masks.trick_outcome`, the minimax of the rest of the trick)."""

from __future__ import annotations

import random

from imptools.rules.base import bits
from imptools.rules.botifarra.masks import POINTS_OF, SUIT_MASK, beats, coded, legal_coded, trick_outcome
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


def winning(trick: list[int], trump: int) -> int:
    """The place in `trick` of the card winning it so far (0 for an empty trick)."""
    win = 0
    for i, c in enumerate(trick):
        if i and beats(c, trick[win], trump):
            win = i
    return win


def legal_in(hands: list[int], partner: list[int], cells: int, trump: int, lead: int, trick: list[int]) -> int:
    """The cards the trick's next player may play onto `trick`."""
    n = len(partner)
    seat = (lead + len(trick)) % n
    if not trick:
        return hands[seat]
    win = winning(trick, trump)
    return legal_coded(cells, trump, trick[0] // 12, trick[win], partner[seat] == (lead + win) % n, hands[seat])


def plain_outcome(
    hands: list[int], partner: list[int], cells: int, trump: int, lead: int, trick: list[int], mine: int
) -> int:
    """The trick's points for `mine`'s side, every player still to play trying every legal card for his own side:
    the plain minimax `trick_outcome` must equal (it tries fewer cards)."""
    n = len(partner)
    k = len(trick)
    if k == n:
        winner = (lead + winning(trick, trump)) % n
        got = 1 + sum(POINTS_OF[c] for c in trick)
        return got if winner in (mine, partner[mine]) else -got
    seat = (lead + k) % n
    values = []
    for c in bits(legal_in(hands, partner, cells, trump, lead, trick)):
        hands[seat] ^= 1 << c
        values.append(plain_outcome(hands, partner, cells, trump, lead, [*trick, c], mine))
        hands[seat] ^= 1 << c
    return max(values) if seat in (mine, partner[mine]) else min(values)


def test_the_tricks_outcome_is_the_minimax_of_the_rest_of_the_trick() -> None:
    """`trick_outcome` (the solvers' lookahead: of the cards that do not beat the winning one only the dearest and
    the cheapest, the last player's answer at once) against every card tried, on dealt tricks of every table."""
    rng = random.Random(24)
    checked = 0
    for _ in range(400):
        n = rng.choice([3, 4])
        partner = rng.choice([[2, 3, 0, 1], [-1, -1, -1, -1]]) if n == 4 else [-1, -1, -1]
        rules = rng.choice(["lliure", "obligada", "carregar"])
        trump = rng.choice([-1, 0, 1, 2, 3])
        size = rng.randint(2, 7)
        deck = rng.sample(range(48), n * size)
        hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(n)]
        lead = rng.randrange(n)
        trick: list[int] = []
        lying = 0
        for j in range(rng.randrange(n)):  # some cards already lying in the trick
            c = rng.choice(bits(legal_in(hands, partner, coded(rules), trump, lead, trick)))
            hands[(lead + j) % n] ^= 1 << c
            trick.append(c)
            lying |= 1 << c
        k = len(trick)
        seat = (lead + k) % n
        win = winning(trick, trump)
        led = trick[0] // 12 if trick else -1
        top = trick[win] if trick else -1
        legal = legal_in(hands, partner, coded(rules), trump, lead, trick)
        live = lying | hands[0] | hands[1] | hands[2] | (hands[3] if n == 4 else 0)
        pts = sum(POINTS_OF[c] for c in trick)
        for b in bits(legal):
            before = list(hands)
            got = trick_outcome(hands, live, partner, coded(rules), trump, lead, k, top, win, led, pts, seat, b)
            assert hands == before  # the hands are given back as they were
            hands[seat] ^= 1 << b
            want = plain_outcome(hands, partner, coded(rules), trump, lead, [*trick, b], seat)
            hands[seat] ^= 1 << b
            assert got == want, (rules, trump, hands, trick, b)
            checked += 1
    assert checked > 800
