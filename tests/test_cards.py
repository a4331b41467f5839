"""Card tokens of each game: decks, canonical spelling, unknown cards and colour mismatches."""

from __future__ import annotations

import pytest

from imptools.reader import read_games
from imptools.record import Game
from imptools.rules import get_ruleset
from imptools.rules.bottle_imp.cards import deck, deck_name


def game(tags: str) -> Game:
    return next(read_games(tags + "\n"))


FOUR = game('[Game "bottle-imp"]\n[Players "A B C D"]')
FIVE = game('[Game "bottle-imp"]\n[Players "A B C D E"]')
NINETY = game('[Game "ninety-nine"]\n[Players "A B C"]')
BOTI3 = game('[Game "botifarra"]\n[Players "A B C"]')
BOTI4 = game('[Game "botifarra"]\n[Players "A B C D"]')


def test_bottle_imp_decks() -> None:
    assert deck_name(FOUR) == "bambus" and len(deck(FOUR)) == 36
    assert deck_name(FIVE) == "matagot" and len(deck(FIVE)) == 54
    # engine cards are twice the card's number: 24 is 48, 24.5 is 49
    assert deck(FOUR)[48] == ("b", 4) and deck(FOUR)[74] == ("r", 6)
    assert deck(FIVE)[48] == ("g", 3) and deck(FIVE)[49] == ("g", 3) and deck(FIVE)[2] == ("r", 1)
    teams = game('[Game "bottle-imp"]\n[Variant "teams"]\n[Players "A B C D"]')
    assert deck_name(teams) == "matagot"
    old = game('[Game "bottle-imp"]\n[Deck "bambus-1995"]\n[Players "A B C"]')
    assert [deck(old)[2 * n][1] for n in (1, 2, 3, 4)] == [0, 0, 0, 1]
    assert 38 not in deck(FOUR) and 39 not in deck(FIVE) and 75 not in deck(FIVE)


@pytest.mark.parametrize(
    ("g", "text", "canonical", "code"),
    [
        (FOUR, "24B", "24b", None),
        (FOUR, "07", "7", None),
        (FOUR, "24y", None, "colour-mismatch"),
        (FOUR, "19", None, "unknown-card"),
        (FOUR, "2.5", None, "unknown-card"),
        (FIVE, "2.5", "2.5", None),
        (FIVE, "24g", "24g", None),
        (NINETY, "th", "10H", None),
        (NINETY, "a♠", "AS", None),
        (NINETY, "jk", "JK", None),
        (NINETY, "5H", None, "unknown-card"),
        (BOTI4, "9O", "9o", None),
        (BOTI4, "2b", "2b", None),
        (BOTI3, "2b", None, "unknown-card"),
        (BOTI4, "13o", None, "unknown-card"),
    ],
)
def test_card_tokens(g: Game, text: str, canonical: str | None, code: str | None) -> None:
    ruleset = get_ruleset(g.game_name)
    assert ruleset is not None
    check = ruleset.check_card(text, g)
    assert (check.canonical, check.code) == (canonical, code)
    if code:
        assert check.message and text in check.message
