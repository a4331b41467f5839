"""`imp simulate`: random deals played by the rules, written as records that validate clean."""

from __future__ import annotations

import subprocess
import sys
from random import Random
from typing import Any

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.base import Position
from imptools.simulate import Options, SimulationError, simulate

ONE_PACK = [
    ("classic", "Ana Bo Cy"),
    ("classic", "Ana Bo Cy Di"),
    ("classic", "Ana Bo Cy Di Ed"),
    ("classic", "Ana Bo Cy Di Ed Flo"),
    ("teams", "Ana Bo Cy Di"),
    ("teams", "Ana Bo Cy Di Ed"),
    ("teams-2-2-1-1", "Ana Bo Cy Di Ed Flo"),
    ("second-bottle", "Ana Bo Cy Di Ed"),
    ("lopaka", "Keawe Kokua Lopaka"),
]
TWO_PACK = [("bright-house", "Keawe Kokua"), ("eye-of-the-demon", "Keawe Kokua")]


def record(variant: str, players: str, seed: int, **kw: object) -> str:
    return "".join(simulate(Options("bottle-imp", tuple(players.split()), variant, seed=seed, **kw)))  # type: ignore[arg-type]


def dealt(tags: str, dealer: str, seed: int) -> Position:
    """A freshly dealt Bottle Imp position for a game with these tags."""
    (game,) = read_games(f'[Game "bottle-imp"]\n{tags}\nhand 1\n')
    ruleset = get_ruleset("bottle-imp")
    sim = ruleset.simulator(game) if ruleset else None
    assert sim is not None
    return sim.deal(dealer, Random(seed)).position


@pytest.mark.parametrize(("variant", "players"), ONE_PACK + TWO_PACK)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simulated_games_validate_clean_over_many_seeds(variant: str, players: str, bot: str) -> None:
    for seed in range(6):
        text = record(variant, players, seed, hands=2, bot=bot)
        (game,) = read_games(text)
        result = judge_game(game)
        assert [f.message for f in result.all_findings()] == [], text
        assert all(h.complete and h.scores is not None for h in result.hands)
        # the coins in the won piles and the imp's trick account for every card, so scores are not all zero
        assert any(v != 0 for h in result.hands for v in (h.scores or {}).values())


@pytest.mark.parametrize(("variant", "players"), ONE_PACK[:2] + ONE_PACK[-1:])
def test_play_only_records_validate_clean_and_score_the_same(variant: str, players: str) -> None:
    full = judge_game(next(read_games(record(variant, players, 11, hands=2))))
    bare = judge_game(next(read_games(record(variant, players, 11, hands=2, deals=False))))
    assert bare.all_findings() == []
    assert [h.scores for h in bare.hands] == [h.scores for h in full.hands]


def test_bright_house_plays_the_open_pack_first_then_the_hidden_one_following_colour_per_pack() -> None:
    position: Any = dealt('[Variant "bright-house"]\n[Players "Keawe Kokua"]', "Kokua", 8)
    packs, opened = position.packs, position.opened
    colour = position.setup.colour
    assert all(len(p) == 8 for player in packs.values() for p in player)
    for slot in range(4):
        player = position.to_move()
        pack = packs[player][opened[player] if slot < 2 else 1 - opened[player]]
        legal = position.legal()
        assert set(legal) <= pack
        if slot:
            led = colour(position.trick[0])
            same = {c for c in pack if colour(c) == led}
            assert set(legal) == (same or pack)
        position.play(legal[0])
    assert not position.trick


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_game() -> None:
    assert record("classic", "Ana Bo Cy Di", 5, hands=3) == record("classic", "Ana Bo Cy Di", 5, hands=3)
    assert record("classic", "Ana Bo Cy Di", 5, hands=3) != record("classic", "Ana Bo Cy Di", 6, hands=3)


def test_without_scores_no_score_line_is_written() -> None:
    text = record("classic", "Ana Bo Cy Di", 1, hands=2, scores=False)
    assert "score " not in text and text.count("\n8. ") == 2


def test_a_position_undoes_every_play_back_to_the_deal() -> None:
    position: Any = dealt('[Players "Ana Bo Cy Di"]', "Di", 3)
    start = {p: set(h) for p, h in position.hands.items()}
    rng = Random(4)
    moves = 0
    while not position.done():
        legal = position.legal()
        assert legal and set(legal) <= position.hands[position.to_move()]
        position.play(rng.choice(legal))
        moves += 1
    assert moves == 32
    bottle = position.bottles[0]
    assert bottle.owner is not None and bottle.price < 38
    for _ in range(moves):
        position.undo()
    assert position.hands == start
    assert position.bottles[0].owner is None and position.bottles[0].price == 38
    assert position.to_move() == "Ana"


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(SimulationError, match="not a variant"):
        record("clasic", "Ana Bo Cy Di", 1)
    with pytest.raises(SimulationError, match="not a game"):
        "".join(simulate(Options("bottle-imps", ("A", "B", "C"))))


def test_the_command_writes_a_record_that_validates(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "practice.imp"
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "bottle-imp", "-p", "4", "-n", "3", "--seed", "9"]
    done = subprocess.run([*cmd, "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    check = subprocess.run([sys.executable, "-m", "imptools", "validate", str(out)], capture_output=True, text=True)
    assert check.returncode == 0 and "0 errors" in check.stdout
    bad = subprocess.run([*cmd, "--variant", "clasic"], capture_output=True, text=True)
    assert bad.returncode == 2 and "not a variant" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    ("game", "players", "variant"), [("bottle-imp", "Ana Bo Cy Di", None), ("botifarra", "Ana Bo Cy Di", None)]
)
def test_jobs_give_the_same_bytes_as_one_process(game: str, players: str, variant: str | None) -> None:
    opts = Options(game, tuple(players.split()), variant, hands=9, seed=4)
    one = "".join(simulate(opts))
    assert "".join(simulate(opts, jobs=2)) == one
    (parsed,) = read_games(one)
    assert len(parsed.hands) == 9 and judge_game(parsed).all_findings() == []


def test_each_hand_depends_on_the_seed_and_its_number_only() -> None:
    three = record("classic", "Ana Bo Cy Di", 5, hands=3)
    five = record("classic", "Ana Bo Cy Di", 5, hands=5)
    assert five.startswith(three)


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("A A B C", "`A` is named twice"),
        ("Ana Bo Cy Ana", "`Ana` is named twice"),
        ("1a Bo Cy", "`1a` is not a player name"),
        ("Ana B:o Cy", "`B:o` is not a player name"),
        ("", "no players"),
        ("0", "no players"),
    ],
)
def test_names_a_record_cannot_hold_are_refused_before_anything_is_written(players: str, said: str) -> None:
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "bottle-imp", "-p", players, "-n", "2"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "internal error" not in done.stderr
    assert done.stdout == ""  # not even the header


def test_names_with_letters_of_any_alphabet_digits_and_marks_are_simulated_and_validate() -> None:
    text = "".join(simulate(Options("bottle-imp", ("Núria", "Loïc", "O'Hara", "Bo_2"), hands=2, seed=3)))
    (game,) = read_games(text)
    assert game.players == ("Núria", "Loïc", "O'Hara", "Bo_2")
    assert judge_game(game).all_findings() == []


def test_a_place_that_cannot_be_written_is_a_clear_error(tmp_path: object) -> None:
    from pathlib import Path

    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "bottle-imp", "-p", "4"]
    for target in (Path(str(tmp_path)) / "no" / "such" / "x.imp", Path(str(tmp_path))):
        done = subprocess.run([*cmd, "-o", str(target)], capture_output=True, text=True)
        assert done.returncode == 2, done.stderr
        assert f"cannot write {target}:" in done.stderr and "internal error" not in done.stderr
    assert list(Path(str(tmp_path)).iterdir()) == []  # no temporary file left behind
