"""The Bottle Imp: trick judging, price-card movement and scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.base import GameResult
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


def facts_of(result: GameResult) -> dict[tuple[str, str], int]:
    """Each player's facts summed over the game's hands."""
    out: dict[tuple[str, str], int] = {}
    for h in result.hands:
        for p, key, value in h.facts:
            out[(p, key)] = out.get((p, key), 0) + value
    return out


def test_the_rulebook_hands_facts_are_the_bottle_at_the_end_and_the_coins_the_scoring_counts() -> None:
    (game,) = read_games(RULEBOOK)
    result = judge_game(game)
    scores = result.hands[0].scores
    assert scores == {"Adam": 15, "Betty": -10, "Christian": 68, "Doris": 0}
    # Betty ends with the bottle and pays the imp's trick; the others score their piles; Doris's 0 is left out
    assert facts_of(result) == {
        ("Betty", "bottle"): 1,
        **{(p, "coins"): v for p, v in scores.items() if v},
    }
    assert [f.key for f in get_ruleset("bottle-imp").facts] == ["bottle", "coins"]  # type: ignore[union-attr]


def test_in_teams_the_coins_are_each_players_own_before_the_team_shares_them() -> None:
    (game,) = read_games(SAMPLES / "teams-night.imp")
    result = judge_game(game)
    players = list(result.players)
    checked = 0
    for hand in result.hands:
        assert hand.scores is not None and hand.dealer is not None
        coins = {p: 0 for p in players} | {p: v for p, k, v in hand.facts if k == "coins"}
        holders = {p for p, k, _v in hand.facts if k == "bottle"}
        by_seat = {(players.index(p) - players.index(hand.dealer)) % 4: p for p in players}
        for solo in (by_seat[0], by_seat[2]):
            assert hand.scores[solo] == 2 * coins[solo]  # a solo player scores double his own
        team = (by_seat[1], by_seat[3])
        if holders & set(team):
            holder = next(p for p in team if p in holders)
            assert hand.scores[team[0]] == hand.scores[team[1]] == coins[holder] < 0  # the holder's minus, each
        else:
            assert hand.scores[team[0]] == coins[team[0]] + coins[team[1]]
        checked += 1
    assert checked == 3 and facts_of(result)[("Bruno", "bottle")] == 2


def test_a_hand_that_is_not_scored_has_no_facts() -> None:
    (game,) = read_games(Path(__file__).resolve().parent / "conformance/bottle-imp/classic-3p-incomplete-601.imp")
    hands = judge_game(game).hands
    assert [h.scores is None for h in hands] == [False, False, True]
    assert hands[0].facts and hands[1].facts and hands[2].facts == ()
