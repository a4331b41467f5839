"""Botifarra's game logic as pure functions: cards, tricks, the obligation table, calls, scores, piles."""

from __future__ import annotations

import pytest

from imptools.rules.botifarra.calls import INDIVIDUAL, PARTNERSHIP, TWO_PLAYER, CallLine, Seating, judge_calls
from imptools.rules.botifarra.cards import card_number, deck, describe, points, spell, strength, trick_winner
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA, check_play, legal_cards
from imptools.rules.botifarra.scoring import (
    Piles,
    game_won,
    hand_points,
    individual_scores,
    side_scores,
    two_player_points,
)

OROS, COPES, ESPASES, BASTOS = 0, 1, 2, 3
FOUR = ("Ana", "Bernat", "Carles", "Dolors")


def c(text: str) -> int:
    card = card_number(text)
    assert card is not None
    return card


def cs(text: str) -> set[int]:
    return {c(t) for t in text.split()}


# --------------------------------------------------------------------------- cards and tricks


def test_decks_per_player_count() -> None:
    assert len(deck(4)) == 48 and len(deck(2)) == 48
    three = deck(3)
    assert len(three) == 36 and c("2o") not in three and c("4b") not in three and c("5e") in three


def test_rank_order_and_points() -> None:
    order = [c(f"{r}c") for r in (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)]
    assert [strength(x) for x in order] == list(range(12, 0, -1))
    assert [points(x) for x in order] == [5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0]
    assert sum(points(x) for x in deck(4)) == 60 == sum(points(x) for x in deck(3))


def test_spelling() -> None:
    assert spell(c("09O")) == "9o" and describe(c("11c")) == "the 11 of copes"
    assert card_number("13o") is None and card_number("0e") is None and card_number("9x") is None


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        ("11c 9c 2o 1c", None, 1),  # botifarra: the highest of the suit led
        ("11c 9c 2o 1c", OROS, 2),  # the only trump
        ("11c 9o 2o 1c", OROS, 1),  # the highest trump
        ("2e 9c 1c 12c", COPES, 1),
        ("2e 9c 1c 12c", BASTOS, 0),  # nobody followed nor trumped: the card led
    ],
)
def test_trick_winner(cards: str, trump: int | None, winner: int) -> None:
    assert trick_winner([c(x) for x in cards.split()], trump) == winner


# --------------------------------------------------------------------------- the obligation table

ANA_LEADS = [("Ana", c("1c"))]
"""Carles's partner Ana is master with the 1 of copes."""


def code(rules: str, lying: list[tuple[str, int]], hand: str, card: str, trump: int | None = None) -> str | None:
    """What Carles (partner Ana) breaks by playing `card` holding `hand`."""
    v = check_play(rules, trump, lying, {"Ana"}, cs(hand), c(card))
    return None if v is None else v.code


@pytest.mark.parametrize(
    ("rules", "card", "want"),
    [
        (LLIURE, "7c", None),
        (LLIURE, "12c", None),
        (LLIURE, "3o", "revoke"),
        (OBLIGADA, "12c", None),  # a point card of the suit
        (OBLIGADA, "5c", None),  # its lowest card
        (OBLIGADA, "7c", "must-play-low"),
        (OBLIGADA, "3o", "revoke"),
        (CARREGAR, "12c", None),
        (CARREGAR, "5c", None),
        (CARREGAR, "7c", "must-play-low"),
    ],
)
def test_partner_master_can_follow(rules: str, card: str, want: str | None) -> None:
    assert code(rules, ANA_LEADS, "12c 7c 5c 3o", card) == want


@pytest.mark.parametrize(
    ("rules", "card", "want"),
    [
        (LLIURE, "7o", None),
        (LLIURE, "6e", None),
        (OBLIGADA, "12o", None),  # a point card
        (OBLIGADA, "5o", None),  # the lowest of its suit
        (OBLIGADA, "6e", None),
        (OBLIGADA, "7o", "must-play-low"),
        (CARREGAR, "12o", None),
        (CARREGAR, "7o", "must-play-low"),
    ],
)
def test_partner_master_cannot_follow(rules: str, card: str, want: str | None) -> None:
    assert code(rules, ANA_LEADS, "12o 7o 5o 6e", card) == want


@pytest.mark.parametrize("rules", [LLIURE, OBLIGADA, CARREGAR])
def test_opponent_master_can_follow_and_beat(rules: str) -> None:
    lying = [("Bernat", c("11c"))]
    assert code(rules, lying, "9c 3c 5o", "9c") is None
    assert code(rules, lying, "9c 3c 5o", "3c") == "must-beat"
    assert code(rules, lying, "9c 3c 5o", "5o") == "revoke"


@pytest.mark.parametrize(
    ("rules", "card", "want"),
    [
        (LLIURE, "7c", None),
        (LLIURE, "1c", None),
        (OBLIGADA, "3c", None),
        (OBLIGADA, "1c", "must-play-low"),
        (OBLIGADA, "7c", "must-play-low"),
        (CARREGAR, "3c", None),
        (CARREGAR, "1c", None),  # a point card of the suit
        (CARREGAR, "7c", "must-play-low"),
    ],
)
def test_opponent_master_can_follow_cannot_beat(rules: str, card: str, want: str | None) -> None:
    assert code(rules, [("Bernat", c("9c"))], "1c 7c 3c", card) == want


def test_following_cannot_beat_a_trump_so_the_low_rule_applies() -> None:
    lying = [("Ana", c("5c")), ("Bernat", c("2o"))]
    assert code(OBLIGADA, lying, "9c 3c", "9c", OROS) == "must-play-low"
    assert code(OBLIGADA, lying, "9c 3c", "3c", OROS) is None
    assert code(LLIURE, lying, "9c 3c", "9c", OROS) is None


@pytest.mark.parametrize("rules", [LLIURE, OBLIGADA, CARREGAR])
def test_opponent_master_cannot_follow_holds_a_trump_that_beats(rules: str) -> None:
    lying = [("Bernat", c("9c"))]
    assert code(rules, lying, "2o 1e 3e", "2o", OROS) is None
    assert code(rules, lying, "2o 1e 3e", "3e", OROS) == "must-trump"
    # over a trump already played, only a higher trump beats
    over = [("Bernat", c("9c")), ("Dolors", c("5o"))]
    assert code(rules, over, "2o 9o 1e", "9o", OROS) is None
    assert code(rules, over, "2o 9o 1e", "2o", OROS) == "must-trump"


@pytest.mark.parametrize(
    ("rules", "card", "want"),
    [
        (LLIURE, "7e", None),
        (OBLIGADA, "3e", None),
        (OBLIGADA, "5b", None),
        (OBLIGADA, "7e", "must-play-low"),
        (OBLIGADA, "1b", "must-play-low"),
        (CARREGAR, "3e", None),
        (CARREGAR, "1b", None),  # a point card
        (CARREGAR, "7e", "must-play-low"),
    ],
)
def test_opponent_master_cannot_follow_cannot_beat(rules: str, card: str, want: str | None) -> None:
    assert code(rules, [("Bernat", c("9c"))], "7e 3e 1b 5b", card, OROS) == want
    # on botifarra nobody can trump: the same cell
    assert code(rules, [("Bernat", c("9c"))], "7e 3e 1b 5b 2o", card, None) == want


def test_an_underruff_is_judged_as_the_lowest_of_its_suit() -> None:
    over = [("Bernat", c("9c")), ("Dolors", c("9o"))]
    assert code(OBLIGADA, over, "5o 2o 1e", "5o", OROS) == "must-play-low"
    assert code(OBLIGADA, over, "5o 2o 1e", "2o", OROS) is None


def test_the_leader_is_free() -> None:
    assert check_play(OBLIGADA, OROS, [], {"Ana"}, cs("9c 2c"), c("9c")) is None


def test_individual_games_every_master_is_an_opponent() -> None:
    lying = [("Ana", c("12c"))]
    assert check_play(OBLIGADA, None, lying, set(), cs("9c 3c"), c("3c")) is not None
    assert check_play(OBLIGADA, None, lying, {"Ana"}, cs("9c 3c"), c("3c")) is None


def test_partial_knowledge_reports_only_what_it_proves() -> None:
    lying = [("Bernat", c("9c"))]
    # nothing else known: no rule can be shown broken
    assert check_play(OBLIGADA, OROS, lying, set(), set(), c("7c")) is None
    assert check_play(OBLIGADA, OROS, lying, set(), set(), c("7e")) is None
    # a lower copes known: 7c was not the lowest, whatever else was held
    assert code(OBLIGADA, lying, "3c", "7c", OROS) == "must-play-low"
    # a beating trump known and nothing of the suit led: not following and not trumping is broken either way
    assert code(OBLIGADA, lying, "2o", "7e", OROS) == "must-trump"


def test_violation_evidence() -> None:
    v = check_play(OBLIGADA, None, [("Bernat", c("11c"))], {"Ana"}, cs("9c 1c 3c 5o"), c("3c"))
    assert v is not None and v.code == "must-beat" and v.master == 0
    assert {spell(x) for x in v.held} == {"9c", "1c"} and {spell(x) for x in v.allowed} == {"9c", "1c"}
    v = check_play(OBLIGADA, None, [("Bernat", c("11c"))], {"Ana"}, cs("7c 5o"), c("5o"))
    assert v is not None and v.code == "revoke" and [spell(x) for x in v.held] == ["7c"]
    v = check_play(CARREGAR, None, [("Bernat", c("9c"))], set(), cs("7c 3c"), c("7c"))
    assert v is not None and v.code == "must-play-low" and [spell(x) for x in v.held] == ["3c"]
    assert "point card" in v.duty


def test_legal_cards_agrees_with_check_play_over_a_whole_hand() -> None:
    hand = cs("9c 1c 7c 3c 2o 6e 1b")
    lying = [c("11c"), c("2c")]
    for rules in (LLIURE, OBLIGADA, CARREGAR):
        legal = legal_cards(rules, OROS, lying, False, hand)
        for card in hand:
            verdict = check_play(rules, OROS, [("Bernat", lying[0]), ("Carles", lying[1])], set(), hand, card)
            assert (verdict is None) == (card in legal)


# --------------------------------------------------------------------------- calls

PAIRS = Seating(FOUR, PARTNERSHIP)
ALONE = Seating(FOUR, INDIVIDUAL)
THREE = Seating(("Ana", "Bernat", "Carles"), INDIVIDUAL)
TWO = Seating(("Rector", "Vicar"), TWO_PLAYER)


def calls(seating: Seating, dealer: str, text: str) -> tuple[list[tuple[int, str]], int]:
    """Judge call lines written one per `;`: the bad ones (index, player) and the multiplier."""
    lines = []
    for part in text.split(";"):
        words = part.split()
        lines.append(CallLine(words[0], words[1], words[2] if len(words) > 2 else None))
    got = judge_calls(lines, dealer, seating)
    return [(b.index, lines[b.index].player) for b in got.bad], got.multiplier


def test_seating() -> None:
    assert PAIRS.partners("Ana") == {"Carles"} and PAIRS.side("Dolors") == ("Bernat", "Dolors")
    assert PAIRS.sides() == (("Ana", "Carles"), ("Bernat", "Dolors"))
    assert ALONE.partners("Ana") == frozenset() and len(ALONE.sides()) == 4


@pytest.mark.parametrize(
    ("text", "bad", "multiplier"),
    [
        ("trump Ana copes", [], 1),
        ("trump Ana botifarra", [], 2),
        ("trump Ana copes; contro Bernat", [], 2),
        ("trump Ana copes; contro Bernat; recontro Carles", [], 4),
        ("trump Ana copes; contro Bernat; recontro Ana; sant-vicenc Dolors", [], 8),
        ("trump Ana botifarra; contro Dolors; recontro Carles", [], 8),
        ("trump Ana delegate; trump Carles espases; contro Dolors", [], 2),
        ("contro Bernat; trump Ana copes", [], 2),  # a doubling is judged against the trump, wherever written
        ("trump Dolors bastos", [(0, "Dolors")], 1),  # an opponent names trump
        ("trump Carles espases", [(0, "Carles")], 1),  # the partner, without a delegation
        ("trump Ana delegate; trump Ana copes", [(1, "Ana")], 1),  # the dealer, after delegating
        ("trump Carles delegate; trump Ana espases", [(0, "Carles")], 1),  # only the dealer delegates
        ("trump Ana copes; trump Ana delegate", [(1, "Ana")], 1),  # too late to delegate
        ("trump Ana delegate; trump Carles botifarra; trump Carles oros", [(2, "Carles")], 2),
        ("trump Ana copes; contro Ana", [(1, "Ana")], 1),  # the choosing side doubles
        ("trump Ana hearts", [(0, "Ana")], 1),  # not a suit of this deck
        ("trump Ana hearts; trump Ana oros", [(0, "Ana")], 1),
        ("trump Ana copes; contro Bernat; contro Dolors", [(2, "Dolors")], 2),
        ("trump Ana espases; recontro Carles", [(1, "Carles")], 1),  # recontro before contro
        ("trump Ana botifarra; contro Dolors; recontro Bernat", [(2, "Bernat")], 4),
        ("trump Ana copes; contro Bernat; sant-vicenc Dolors", [(2, "Dolors")], 2),
        ("trump Ana copes; contro Bernat; recontro Ana; sant-vicenc Carles", [(3, "Carles")], 4),
        ("trump Ana botifarra; contro Dolors; recontro Carles; sant-vicenc Dolors", [(3, "Dolors")], 8),
    ],
)
def test_partnership_calls(text: str, bad: list[tuple[int, str]], multiplier: int) -> None:
    assert calls(PAIRS, "Ana", text) == (bad, multiplier)


@pytest.mark.parametrize(
    ("seating", "text", "bad", "multiplier"),
    [
        (ALONE, "trump Ana espases; contro Carles", [], 2),
        (ALONE, "trump Ana botifarra", [], 2),
        (ALONE, "trump Ana espases; contro Ana", [(1, "Ana")], 1),  # the chooser may not double
        (ALONE, "trump Ana espases; contro Carles; recontro Ana", [(2, "Ana")], 2),
        (ALONE, "trump Ana espases; contro Carles; recontro Bernat", [(2, "Bernat")], 2),
        (ALONE, "trump Ana delegate; trump Ana espases", [(0, "Ana")], 1),
        (ALONE, "trump Bernat oros", [(0, "Bernat")], 1),
        (THREE, "trump Ana botifarra; contro Carles", [(1, "Carles")], 2),
        (THREE, "trump Ana espases; contro Ana", [(1, "Ana")], 1),
        (THREE, "trump Ana espases; contro Bernat; sant-vicenc Carles", [(2, "Carles")], 2),
    ],
)
def test_individual_calls(seating: Seating, text: str, bad: list[tuple[int, str]], multiplier: int) -> None:
    assert calls(seating, "Ana", text) == (bad, multiplier)


@pytest.mark.parametrize(
    ("text", "bad", "multiplier"),
    [
        ("trump Rector oros; contro Vicar; recontro Rector; sant-vicenc Vicar", [], 8),
        ("trump Rector botifarra; contro Vicar", [], 4),
        ("trump Vicar espases", [(0, "Vicar")], 1),
        ("trump Rector delegate; trump Rector oros", [(0, "Rector")], 1),
        ("trump Rector oros; contro Vicar; contro Vicar", [(2, "Vicar")], 2),
        ("trump Rector oros; contro Rector", [(1, "Rector")], 1),
        ("trump Rector botifarra; contro Vicar; recontro Vicar", [(2, "Vicar")], 4),
        ("trump Rector oros; contro Vicar; sant-vicenc Vicar", [(2, "Vicar")], 2),
        ("trump Rector botifarra; contro Vicar; recontro Rector; sant-vicenc Vicar", [(3, "Vicar")], 8),
    ],
)
def test_two_player_calls(text: str, bad: list[tuple[int, str]], multiplier: int) -> None:
    assert calls(TWO, "Rector", text) == (bad, multiplier)


def test_calls_say_who_chose_and_what() -> None:
    got = judge_calls(
        [CallLine("trump", "Ana", "delegate"), CallLine("trump", "Carles", "copes")], "Ana", Seating(FOUR, PARTNERSHIP)
    )
    assert (got.named, got.trump, got.chooser, got.delegated_by, got.trump_word) == (
        True,
        COPES,
        "Carles",
        "Ana",
        "copes",
    )
    nothing = judge_calls([CallLine("contro", "Bernat")], "Ana", PAIRS)
    assert not nothing.named and nothing.trump_word is None and not nothing.botifarra


# --------------------------------------------------------------------------- scores


def test_hand_points_add_up_to_72() -> None:
    assert hand_points(deck(4), 12) == 72 == hand_points(deck(3), 12)


@pytest.mark.parametrize(
    ("side_points", "multiplier", "offender", "want"),
    [
        ((44, 28), 1, None, (8, 0)),
        ((28, 44), 4, None, (0, 32)),
        ((36, 36), 8, None, (0, 0)),
        ((44, 28), 2, 0, (0, 72)),  # a play rule broken: the other side scores 36 times the multiplier
        ((28, 44), 16, 0, (0, 576)),
        ((60, 12), 1, 0, (0, 36)),
    ],
)
def test_partnership_scores(
    side_points: tuple[int, int], multiplier: int, offender: int | None, want: tuple[int, int]
) -> None:
    got = side_scores([("A", "C"), ("B", "D")], side_points, multiplier, offender)
    assert (got["A"], got["B"]) == want and got["A"] == got["C"] and got["B"] == got["D"]


def test_individual_scores() -> None:
    four = {"A": 30, "B": 20, "C": 12, "D": 10}
    assert individual_scores(four, 1, set()) == {"A": 12, "B": 2, "C": -6, "D": -8}
    assert individual_scores(four, 2, {"B"}) == {"A": 24, "B": -36, "C": -12, "D": -16}
    three = {"A": 40, "B": 20, "C": 12}
    assert individual_scores(three, 4, set()) == {"A": 64, "B": -16, "C": -48}
    assert individual_scores(three, 1, {"A", "C"}) == {"A": -24, "B": -4, "C": -24}


def test_two_player_points_pairs_of_tricks_and_the_leftover_point() -> None:
    assert two_player_points({"R": 40, "V": 20}, {"R": 14, "V": 10}) == {"R": 47, "V": 25}
    # both odd: the leftover point goes to the poorer player (71 otherwise, never a tie)
    assert two_player_points({"R": 40, "V": 20}, {"R": 13, "V": 11}) == {"R": 46, "V": 26}
    assert two_player_points({"R": 20, "V": 40}, {"R": 1, "V": 23}) == {"R": 21, "V": 51}
    assert sum(two_player_points({"R": 33, "V": 27}, {"R": 9, "V": 15}).values()) == 72


def test_game_won_past_100() -> None:
    assert not game_won({"A": 100, "B": 40}) and game_won({"A": 101, "B": 40})
    assert game_won({"A": 60}, target=60)


# --------------------------------------------------------------------------- two-player piles


def test_piles_turn_up_the_next_card() -> None:
    piles = Piles(((c("8c"), c("6o"), c("10b"), c("9b")), (c("11o"), c("9c"))))
    assert piles.tops() == {c("8c"), c("11o")} and piles.pile_of(c("9c")) == 1 and piles.pile_of(c("1e")) is None
    after = piles.without(c("8c"))
    assert after.tops() == {c("6o"), c("11o")} and after.visible(c("6o")) and not after.visible(c("10b"))
    # a card played from under the top leaves its pile; the top card stays up
    hidden = piles.without(c("10b"))
    assert hidden.tops() == {c("8c"), c("11o")} and hidden.without(c("8c")).tops() == {c("6o"), c("11o")}
    assert piles.without(c("11o")).without(c("9c")).tops() == {c("8c")}
