"""`imp simulate --deal`: some places of the deal given their cards, the rest dealt at random, uniformly."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from random import Random

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules.dealing import BadConditions, check_given, deal_to
from imptools.simulate import Options, SimulationError, simulate

FOUR = ("Adam", "Betty", "Christian", "Doris")


def deal_lines(text: str) -> dict[str, list[str]]:
    """The first hand's deal lines: place -> cards as written."""
    out: dict[str, list[str]] = {}
    for line in text.split("\nhand ")[1].splitlines():
        if line.startswith("deal "):
            _, place, *cards = line.split()
            out[place] = cards
    return out


def line_of(text: str, word: str) -> list[str]:
    return next(x.split()[1:] for x in text.splitlines() if x.startswith(word + " "))


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_cards_given_are_where_they_were_put_and_the_records_validate(bot: str) -> None:
    given = "2 4 6 7 13 14 20 24 26"
    for seed in range(5):
        opts = Options("bottle-imp", FOUR, seed=seed, hands=2, bot=bot, deal=(f"Adam: {given}", "Doris: 37 1"))
        text = "".join(simulate(opts))
        for hand in text.split("\nhand ")[1:]:
            deals = deal_lines("\nhand " + hand)
            assert deals["Adam"] == given.split()
            assert {"37", "1"} <= set(deals["Doris"]) and len(deals["Doris"]) == 9
        result = judge_game(next(read_games(text)))
        assert result.all_findings() == [] and all(h.scores is not None for h in result.hands)


def test_every_game_deals_to_its_own_places() -> None:
    text = "".join(simulate(Options("ninety-nine", FOUR[:3], seed=3, deal=("turnup: JK", "betty: AS KS"))))
    assert line_of(text, "turnup") == ["JK"]
    assert {"AS", "KS"} <= set(deal_lines(text)["Betty"])
    piles = "".join(simulate(Options("botifarra", FOUR[:2], seed=5, deal=("Adam.3: 9o 1o 12o 11o",))))
    assert deal_lines(piles)["Adam.3"] == ["9o", "1o", "12o", "11o"]
    for written in (text, piles):
        assert judge_game(next(read_games(written))).all_findings() == []


def test_same_seed_same_record_other_seed_other_free_cards() -> None:
    opts = Options("botifarra", FOUR, seed=7, hands=3, deal=("Christian: 9o 9c 9e 9b",))
    one = "".join(simulate(opts))
    assert "".join(simulate(opts)) == one
    other = "".join(simulate(Options("botifarra", FOUR, seed=8, hands=3, deal=opts.deal)))
    assert deal_lines(other)["Adam"] != deal_lines(one)["Adam"]


def test_the_free_cards_are_spread_uniformly_over_the_free_room() -> None:
    """Adam holds 9 given cards; each other card lands with Betty, Christian or Doris a third of the time each. A
    chi-square test over every free card and place, with fixed seeds (so never flaky): 54 cells, 36 degrees of
    freedom (18 free cards x 3 places, each card's three counts summing to the deals); the 0.1% point is 67.985."""
    places = [("Adam", 9), ("Betty", 9), ("Christian", 9), ("Doris", 9)]
    pool = list(range(1, 37))
    given = {"Adam": [1, 2, 3, 4, 5, 6, 7, 8, 9], "Doris": [36]}
    deals = 3000
    counts: Counter[tuple[int, str]] = Counter()
    for seed in range(deals):
        dealt = deal_to(places, pool, given, Random(seed))
        assert dealt["Adam"] == given["Adam"] and dealt["Doris"][0] == 36
        assert sorted(c for cards in dealt.values() for c in cards) == pool
        for place, cards in dealt.items():
            for c in cards:
                counts[(c, place)] += 1
    free = [c for c in pool if c > 9 and c != 36]
    # Doris has 8 free slots, Betty and Christian 9 each: 26 in all
    expected = {"Betty": deals * 9 / 26, "Christian": deals * 9 / 26, "Doris": deals * 8 / 26}
    chi2 = sum((counts[(c, p)] - e) ** 2 / e for c in free for p, e in expected.items())
    assert chi2 < 67.985
    assert all(counts[(c, "Adam")] == 0 for c in free)


def test_conditions_no_deal_can_honour_are_refused_in_words() -> None:
    places = [("Adam", 2), ("Betty", 2)]
    with pytest.raises(BadConditions, match="did you mean `Adam`"):
        check_given(places, [1, 2, 3, 4], {"Adma": [1]}, str)
    with pytest.raises(BadConditions, match="2 cards; 3 are given"):
        check_given(places, [1, 2, 3, 4], {"Adam": [1, 2, 3]}, str)
    with pytest.raises(BadConditions, match="given to Adam and to Betty"):
        check_given(places, [1, 2, 3, 4], {"Adam": [1], "Betty": [1]}, str)
    with pytest.raises(BadConditions, match="not a card of this pack"):
        check_given(places, [1, 2, 3, 4], {"Adam": [9]}, str)
    with pytest.raises(SimulationError, match="given twice"):
        "".join(simulate(Options("bottle-imp", FOUR, deal=("Adam: 2 2",))))


@pytest.mark.parametrize(
    ("deal", "says"),
    [
        ("Adam: 2 4 6 7 13 14 20 24 26 27", "Adam is dealt 9 cards; 10 are given"),
        ("Adam: 2 4 2", "2 is given twice"),
        ("Adam: 2 4 99", "`99` is not a card of this pack"),
        ("Adma: 2 4", "did you mean `Adam`?"),
        ("Adam 2 4", 'write "NAME: CARDS"'),
    ],
)
def test_the_command_refuses_bad_conditions_with_exit_2_and_no_traceback(deal: str, says: str) -> None:
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "bottle-imp", "--deal", deal]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
