"""The Bottle Imp: trick judging, price-card movement and scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules.bottle_imp.bottles import Bottle, judge_trick, team_of

RULEBOOK = Path(__file__).resolve().parent / "conformance" / "bottle-imp" / "rulebook-example.imp"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def c(*numbers: float) -> list[int]:
    """Engine cards: twice the card's number, so that the half cards are whole numbers too."""
    return [int(2 * n) for n in numbers]


def test_highest_card_below_the_price_takes_the_bottle() -> None:
    assert judge_trick(c(24, 15, 17, 32), [Bottle()]) == (2, 0)


def test_no_card_below_the_price_highest_card_wins_and_the_bottle_stays() -> None:
    assert judge_trick(c(24, 30, 25), [Bottle(24, "Adam")]) == (1, None)


def test_two_bottles_judged_against_the_higher_price() -> None:
    # 14 is below the higher price (16) though not below the other (9): it takes the 16 bottle
    assert judge_trick(c(20, 14, 30), [Bottle(18), Bottle(32)]) == (1, 1)
    # both at 19: the first bottle is taken
    assert judge_trick(c(20, 18.5, 3), [Bottle(), Bottle()]) == (1, 0)


def test_card_tokens_are_read_by_the_deck_table_only() -> None:
    from imptools.rules.bottle_imp.cards import card_number, spell

    assert [card_number(t) for t in ("24", "24b", "07", "2.5", "36.5")] == [48, 48, 14, 5, 73]
    assert [card_number(t) for t in ("9" * 400, "1e3", "inf", "nan", "2.25", "")] == [None] * 6
    assert [spell(n) for n in (48, 5, 73)] == ["24", "2.5", "36.5"]


@pytest.mark.parametrize(
    ("seat", "players", "variant", "team"),
    [
        (1, 4, "teams", (1, 3)),
        (0, 4, "teams", (0,)),
        (2, 4, "teams", (2,)),
        (4, 5, "teams", (2, 4)),
        (0, 5, "teams", (0,)),
        (3, 6, "teams", (0, 3)),
        (3, 6, "teams-2-2-1-1", (3,)),
        (5, 6, "teams-2-2-1-1", (2, 5)),
    ],
)
def test_teams_by_seat_from_the_dealer(seat: int, players: int, variant: str, team: tuple[int, ...]) -> None:
    assert team_of(seat, players, variant) == team


def test_rulebook_example_validates_clean_and_scores() -> None:
    (game,) = read_games(RULEBOOK)
    result = judge_game(game)
    assert result.all_findings() == []
    assert result.hands[0].scores == {"Adam": 15, "Betty": -10, "Christian": 68, "Doris": 0}


def test_a_wrong_score_and_a_revoke_are_reported_with_evidence() -> None:
    (game,) = read_games(SAMPLES / "with-mistakes.imp")
    findings = judge_game(game).all_findings()
    codes = {f.code for f in findings}
    assert {"syntax", "score-mismatch", "revoke"} <= codes
    revoke = next(f for f in findings if f.code == "revoke")
    assert "did not follow" in revoke.message and "although" in revoke.message and revoke.trick is not None


def test_solo_doubles_and_team_sums() -> None:
    (game,) = read_games(SAMPLES / "teams-night.imp")
    result = judge_game(game)
    first = result.hands[0]
    assert first.scores is not None
    dealer = first.dealer
    players = list(result.players)
    seat = {p: (players.index(p) - players.index(dealer or "")) % 4 for p in players}
    by_seat = {s: p for p, s in seat.items()}
    # partners (seats 1 and 3) score the same
    assert first.scores[by_seat[1]] == first.scores[by_seat[3]]
    # solos score an even number (twice their coins or twice the minus)
    assert first.scores[by_seat[0]] % 2 == 0 and first.scores[by_seat[2]] % 2 == 0
