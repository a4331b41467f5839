"""Ninety-nine: cards, the turn-up and trump, the joker, tricks, bids and every scoring rule."""

from __future__ import annotations

import pytest

from imptools.rules.ninety_nine.bids import bid_shape, bid_value
from imptools.rules.ninety_nine.cards import (
    DECK,
    JOKER,
    effective,
    follows,
    legal_cards,
    parse,
    spell,
    suit_in_play,
    trick_winner,
    trump_of,
)
from imptools.rules.ninety_nine.scoring import Declaration, score_hand


def c(text: str) -> int:
    card = parse(text)
    assert card is not None, text
    return card


def cs(text: str) -> list[int]:
    return [c(t) for t in text.split()]


# --------------------------------------------------------------------------- cards


def test_the_deck_is_36_cards_and_the_joker_each_spelled_once() -> None:
    spelled = [spell(x) for x in DECK]
    assert len(DECK) == 37 == len(set(spelled))
    assert "JK" in spelled
    assert {s[-1] for s in spelled if s != "JK"} == set("SHDC")
    assert [parse(s) for s in spelled] == list(DECK)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("as", "AS"), ("Th", "10H"), ("10♥", "10H"), ("q♣", "QC"), ("jk", "JK"), ("6d", "6D")],
)
def test_tokens_are_read_case_insensitively_with_t_and_suit_symbols(text: str, canonical: str) -> None:
    assert spell(c(text)) == canonical


@pytest.mark.parametrize("text", ["1S", "5H", "AX", "JOKER", "11C", "", "S"])
def test_tokens_that_are_not_cards(text: str) -> None:
    assert parse(text) is None


# --------------------------------------------------------------------------- turn-up and trump


@pytest.mark.parametrize(("turnup", "trump"), [("AD", 0), ("KS", 1), ("6H", 2), ("10C", 3), ("JC", 3)])
def test_the_turn_up_suit_is_trump(turnup: str, trump: int) -> None:
    assert trump_of(c(turnup)) == trump


@pytest.mark.parametrize("turnup", ["9S", "9H", "9D", "9C", "JK"])
def test_a_nine_or_the_joker_turned_up_means_no_trump(turnup: str) -> None:
    assert trump_of(c(turnup)) is None


# --------------------------------------------------------------------------- the joker


def test_a_held_joker_is_the_turned_up_card() -> None:
    assert effective(JOKER, c("QH")) == c("QH")
    assert suit_in_play(JOKER, c("QH")) == suit_in_play(c("6H"), c("QH"))
    assert effective(c("AS"), c("QH")) == c("AS")


def test_a_held_joker_is_top_trump_when_the_ace_is_turned_up() -> None:
    # turn-up AD: the joker is the ace of trumps and beats the king
    assert trick_winner([c("KD"), JOKER, c("6D")], c("AD")) == 1


def test_a_held_joker_is_the_six_of_trumps_when_the_six_is_turned_up() -> None:
    # turn-up 6C: the joker is the lowest trump: it beats any plain card, loses to a higher trump
    assert trick_winner([c("AH"), JOKER, c("KH")], c("6C")) == 1
    assert trick_winner([c("AH"), JOKER, c("7C")], c("6C")) == 2


def test_a_held_joker_under_a_turned_up_nine_is_that_nine_and_no_trump() -> None:
    # turn-up 9S: no trump; the joker is the nine of spades
    assert trick_winner([c("8S"), JOKER, c("AC")], c("9S")) == 1
    assert trick_winner([c("8S"), JOKER, c("10S")], c("9S")) == 2
    # nothing is trump: an ace of another suit takes nothing
    assert trick_winner([c("6H"), c("AC"), JOKER], c("9S")) == 0


def test_a_joker_led_sets_the_turn_up_suit() -> None:
    # turn-up QH: the joker leads hearts; KH outranks the queen
    assert trick_winner([JOKER, c("KH"), c("AS")], c("QH")) == 1
    assert trick_winner([JOKER, c("JH"), c("AS")], c("QH")) == 0


def test_the_joker_turned_up_leaves_every_card_as_itself_and_no_trump() -> None:
    assert trick_winner([c("7S"), c("AH"), c("8S")], JOKER) == 2
    assert trick_winner([c("7S"), c("AH"), c("AC")], JOKER) == 0


def test_a_joker_played_while_it_is_the_turn_up_leaves_the_trick_unjudged() -> None:
    assert trick_winner([c("7S"), JOKER, c("8S")], JOKER) is None


def test_the_joker_follows_the_turn_up_suit_only() -> None:
    assert follows(JOKER, c("7C"), c("6C"))
    assert not follows(JOKER, c("7S"), c("6C"))
    # under a turned-up nine the joker is a heart though hearts are not trump
    assert follows(JOKER, c("AH"), c("9H"))
    # a player whose only club is the joker must play it to a club lead
    assert legal_cards([JOKER, c("AS"), c("7H")], c("KC"), c("6C")) == [JOKER]
    # without a card of the suit led, anything goes
    assert sorted(legal_cards([JOKER, c("AS")], c("KD"), c("6C"))) == sorted([JOKER, c("AS")])
    assert sorted(legal_cards([JOKER, c("AS")], None, c("6C"))) == sorted([JOKER, c("AS")])


# --------------------------------------------------------------------------- tricks


def test_the_highest_card_of_the_suit_led_wins_without_trumps() -> None:
    assert trick_winner(cs("KH 7H 6H"), c("AD")) == 0
    assert trick_winner(cs("10H AH 6H"), c("AD")) == 1


def test_a_card_of_another_plain_suit_never_wins() -> None:
    assert trick_winner(cs("7H AS AC"), c("AD")) == 0


def test_the_highest_trump_wins() -> None:
    assert trick_winner(cs("AH 6D KH"), c("AD")) == 1
    assert trick_winner(cs("AH 6D 7D"), c("AD")) == 2
    assert trick_winner(cs("10D 6D 7D"), c("AD")) == 0


def test_ten_outranks_nine_and_jack_outranks_ten() -> None:
    assert trick_winner(cs("9S 10S 8S"), c("AD")) == 1
    assert trick_winner(cs("9S 10S JS"), c("AD")) == 2


# --------------------------------------------------------------------------- bids


@pytest.mark.parametrize(
    ("cards", "turnup", "value"),
    [
        ("AD KD QD", "AS", 0),
        ("AS KS QS", "AD", 3),
        ("AH KH QH", "AD", 6),
        ("AC KC QC", "AD", 9),
        ("AS AH 7C", "AD", 6),
        ("AS AH JK", "AD", 3),  # the joker counts as a diamond (0)
        ("QC QS JK", "KC", 7),  # the joker counts as a club (3)
        ("QC QS JK", "9H", 6),  # a nine turned up: no trump, the joker still counts its suit
    ],
)
def test_bid_cards_add_up_their_suits(cards: str, turnup: str, value: int) -> None:
    assert bid_value(cs(cards), c(turnup)) == value


def test_a_bid_with_an_unknown_card_is_unknown() -> None:
    assert bid_value([c("AS"), None, c("KS")], c("AD")) is None


def test_a_bid_joker_needs_the_turn_up() -> None:
    assert bid_value([c("AS"), JOKER, c("KS")], None) is None
    assert bid_value(cs("AS QS KS"), None) == 3


def test_a_bid_of_other_than_three_cards_has_no_value() -> None:
    assert bid_value(cs("AS QS"), c("AD")) is None
    assert bid_value(cs("AS QS KS JS"), c("AD")) is None


@pytest.mark.parametrize(("cards", "number"), [(3, None), (0, 0), (0, 9)])
def test_good_bid_shapes(cards: int, number: int | None) -> None:
    assert bid_shape(cards, number) is None


@pytest.mark.parametrize(("cards", "number"), [(0, None), (1, None), (2, None), (4, None), (0, 10), (0, 27)])
def test_bad_bid_shapes(cards: int, number: int | None) -> None:
    problem = bid_shape(cards, number)
    assert problem is not None
    assert str(number if number is not None else cards) in problem.message


# --------------------------------------------------------------------------- scores

P = ("Al", "Bo", "Cy")


def totals(bids: dict[str, int | None], tricks: dict[str, int], call: Declaration | None = None) -> list[int]:
    s = score_hand(P, bids, tricks, call)
    return [s[p].total for p in P]


def test_one_point_per_trick_when_nobody_makes_the_bid() -> None:
    assert totals({"Al": 1, "Bo": 1, "Cy": 1}, {"Al": 4, "Bo": 3, "Cy": 2}) == [4, 3, 2]


def test_exact_bid_alone_adds_30() -> None:
    assert totals({"Al": 3, "Bo": 3, "Cy": 3}, {"Al": 5, "Bo": 1, "Cy": 3}) == [5, 1, 33]


def test_two_exact_bids_add_20_each() -> None:
    assert totals({"Al": 4, "Bo": 2, "Cy": 0}, {"Al": 4, "Bo": 2, "Cy": 3}) == [24, 22, 3]


def test_three_exact_bids_add_10_each() -> None:
    assert totals({"Al": 4, "Bo": 2, "Cy": 3}, {"Al": 4, "Bo": 2, "Cy": 3}) == [14, 12, 13]


def test_a_bid_of_nothing_made_with_no_tricks() -> None:
    assert totals({"Al": 0, "Bo": 5, "Cy": 5}, {"Al": 0, "Bo": 4, "Cy": 5}) == [20, 4, 25]


def test_an_unknown_bid_counts_as_not_made_even_with_no_tricks() -> None:
    assert totals({"Al": None, "Bo": 5, "Cy": 5}, {"Al": 0, "Bo": 4, "Cy": 5}) == [0, 4, 35]


def test_a_missing_bid_counts_as_not_made() -> None:
    assert totals({"Bo": 5}, {"Al": 0, "Bo": 5, "Cy": 4}) == [0, 35, 4]


def test_a_declarer_who_makes_it_adds_30_and_counts_among_the_exact() -> None:
    # alone: 3 tricks + 30 exact + 30 declared
    assert totals({"Al": 3, "Bo": 0, "Cy": 0}, {"Al": 3, "Bo": 4, "Cy": 2}, Declaration("declare", "Al")) == [63, 4, 2]
    # with another exact bidder: both get 20, the declarer 30 more
    assert totals({"Al": 3, "Bo": 4, "Cy": 0}, {"Al": 3, "Bo": 4, "Cy": 2}, Declaration("declare", "Al")) == [53, 24, 2]


def test_a_declarer_who_fails_gives_30_to_each_opponent() -> None:
    # the sample's hand 2: bids 5 3 5, tricks 1 5 3, Al declares
    assert totals({"Al": 5, "Bo": 5, "Cy": 3}, {"Al": 1, "Bo": 5, "Cy": 3}, Declaration("declare", "Al")) == [1, 55, 53]


def test_revealing_is_worth_60() -> None:
    assert totals({"Al": 2, "Bo": 1, "Cy": 1}, {"Al": 2, "Bo": 3, "Cy": 4}, Declaration("reveal", "Al")) == [92, 3, 4]
    assert totals({"Al": 4, "Bo": 4, "Cy": 4}, {"Al": 2, "Bo": 5, "Cy": 2}, Declaration("reveal", "Al")) == [2, 65, 62]


def test_all_three_exact_with_a_revealer() -> None:
    assert totals({"Al": 2, "Bo": 3, "Cy": 4}, {"Al": 2, "Bo": 3, "Cy": 4}, Declaration("reveal", "Cy")) == [12, 13, 74]


def test_a_declarer_whose_bid_is_unknown_has_not_made_it() -> None:
    assert totals({"Al": None, "Bo": 1, "Cy": 1}, {"Al": 3, "Bo": 3, "Cy": 3}, Declaration("declare", "Al")) == [
        3,
        33,
        33,
    ]


def test_the_breakdown_of_a_score() -> None:
    s = score_hand(P, {"Al": 3, "Bo": 5, "Cy": 3}, {"Al": 3, "Bo": 1, "Cy": 5}, Declaration("declare", "Bo"))
    assert (s["Al"].bid, s["Al"].tricks, s["Al"].made, s["Al"].exact, s["Al"].call) == (3, 3, True, 30, 30)
    assert s["Al"].describe() == "bid 3 · 3 tricks · exact +30 · call +30"
    assert s["Bo"].describe() == "bid 5 · 1 trick"
    assert s["Cy"].total == 35
