"""`imp simulate -g ninety-nine`: deals, bids and play by the rules, written as records that validate clean."""

from __future__ import annotations

import subprocess
import sys
from random import Random

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.ninety_nine.cards import JOKER, legal_cards, make, suit_in_play
from imptools.rules.ninety_nine.simulate import NinetyNinePosition, NinetyNineSimulator
from imptools.simulate import Options, simulate

PLAYERS = ("Ana", "Bo", "Cy")


def record(seed: int, **kw: object) -> str:
    return "".join(simulate(Options("ninety-nine", PLAYERS, seed=seed, **kw)))  # type: ignore[arg-type]


def simulator() -> NinetyNineSimulator:
    (game,) = read_games('[Game "ninety-nine"]\n[Players "Ana Bo Cy"]\nhand 1\n')
    ruleset = get_ruleset("ninety-nine")
    sim = ruleset.simulator(game) if ruleset else None
    assert isinstance(sim, NinetyNineSimulator)
    return sim


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simulated_games_validate_clean_over_many_seeds(bot: str) -> None:
    for seed in range(12):
        text = record(seed, hands=3, bot=bot)
        (game,) = read_games(text)
        result = judge_game(game)
        assert [f.message for f in result.all_findings()] == [], text
        assert all(h.complete and h.scores is not None for h in result.hands)
        assert sum(sum((h.scores or {}).values()) for h in result.hands) >= 27  # nine tricks a hand at least
        assert text.count("\nturnup ") == 3 and text.count("\nbid ") == 9 and text.count("\ndeal ") == 9


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_play_only_records_keep_turnup_bids_and_call_and_score_the_same(bot: str) -> None:
    for seed in (3, 11, 12):
        full_text = record(seed, hands=3, bot=bot)
        bare_text = record(seed, hands=3, bot=bot, deals=False)
        assert "\ndeal " not in bare_text and bare_text.count("\nbid ") == 9
        assert [ln for ln in full_text.splitlines() if not ln.startswith("deal ")] == bare_text.splitlines()
        full = judge_game(next(read_games(full_text)))
        bare = judge_game(next(read_games(bare_text)))
        assert bare.all_findings() == []
        assert [h.scores for h in bare.hands] == [h.scores for h in full.hands]


def test_the_better_bot_declares_a_sure_bid_of_nothing_and_the_random_bot_never() -> None:
    sim = simulator()
    for seed in range(300):
        position = sim.deal("Cy", Random(seed)).position
        assert isinstance(position, NinetyNinePosition) and position.call is None
    declared: list[int] = []
    made = 0
    for seed in range(3000):
        if len(declared) == 6:
            break
        rng = Random(f"{seed}/1")  # as the driver seeds hand 1
        position = sim.deal("Cy", rng, better=True).position
        assert isinstance(position, NinetyNinePosition)
        if position.call is None:
            continue
        declared.append(seed)
        assert position.bids[position.call.player] == 0
        while not position.done():
            position.play(sim.better_bot(position, rng))
        made += position.score_sheet()[position.call.player].made
    assert declared and made * 2 > len(declared), (declared, made)
    text = record(declared[0], hands=1, bot="greedy")  # the same deal, as a record
    assert "\ndeclare " in text
    assert judge_game(next(read_games(text))).all_findings() == []


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_game() -> None:
    for bot in ("random", "greedy"):
        assert record(5, hands=3, bot=bot) == record(5, hands=3, bot=bot)
        assert record(5, hands=3, bot=bot) != record(6, hands=3, bot=bot)


@pytest.mark.parametrize("better", [False, True])
def test_a_position_undoes_every_play_back_to_the_deal(better: bool) -> None:
    sim = simulator()
    for seed in range(5):
        dealt = sim.deal("Cy", Random(seed), better=better)
        position = dealt.position
        assert isinstance(position, NinetyNinePosition)
        start = {p: set(h) for p, h in position.hands.items()}
        assert all(len(h) == 9 for h in start.values())
        rng = Random(seed)
        moves = 0
        while not position.done():
            legal = position.legal()
            assert legal and set(legal) <= position.hands[position.to_move()]
            position.play(sim.better_bot(position, rng) if better else rng.choice(legal))
            moves += 1
        assert moves == 27 and sum(position.won.values()) == 9
        for _ in range(moves):
            position.undo()
        assert position.hands == start and position.trick == [] and position.leader == 0
        assert position.won == dict.fromkeys(PLAYERS, 0)
        assert position.to_move() == "Ana"
        assert all(s.tricks == 0 for s in position.score_sheet().values())


def test_the_position_scores_a_hand_as_the_checker_does() -> None:
    sim = simulator()
    for seed in range(8):
        dealt = sim.deal("Cy", Random(seed), better=True)
        position = dealt.position
        assert isinstance(position, NinetyNinePosition)
        rng = Random(seed)
        plays = []
        while not position.done():
            player = position.to_move()
            card = sim.better_bot(position, rng)
            position.play(card)
            plays.append((player, position.spell(card)))
        tricks = [f"{t + 1}. {plays[3 * t][0]}:" + " ".join(c for _, c in plays[3 * t : 3 * t + 3]) for t in range(9)]
        text = '[Game "ninety-nine"]\n[Players "Ana Bo Cy"]\nhand 1 dealer Cy\n' + "\n".join([*dealt.lines, *tricks])
        (game,) = read_games(text + "\n")
        result = judge_game(game)
        assert result.all_findings() == [], text
        assert result.hands[0].scores == position.hand_scores()


def test_the_joker_held_follows_the_turn_ups_suit() -> None:
    turnup = make("Q", "H")
    position = NinetyNinePosition(
        PLAYERS,
        "Cy",
        {
            "Ana": {make("A", "H")},
            "Bo": {JOKER, make("A", "S"), make("7", "C")},
            "Cy": {make("6", "H"), make("8", "H"), make("K", "S")},
        },
        turnup,
        dict.fromkeys(PLAYERS, 0),
    )
    position.play(make("A", "H"))
    assert position.legal() == [JOKER]  # hearts led: the joker is the queen of hearts and must follow
    assert suit_in_play(JOKER, turnup) == suit_in_play(make("A", "H"), turnup)
    assert legal_cards([JOKER, make("A", "S")], make("K", "S"), turnup) == [make("A", "S")]
    position.play(JOKER)
    position.play(make("8", "H"))
    assert position.won == {"Ana": 1, "Bo": 0, "Cy": 0} and position.to_move() == "Ana"
    position.undo()
    position.undo()
    assert position.legal() == [JOKER] and position.hands["Bo"] == {JOKER, make("A", "S"), make("7", "C")}


def test_the_better_bot_bids_what_its_cards_should_take_and_plays_for_it() -> None:
    exact = {"random": 0, "greedy": 0}
    for bot in exact:
        for seed in range(20):
            game = next(read_games(record(seed, hands=3, bot=bot)))
            for hand in judge_game(game).hands:
                exact[bot] += sum("exact" in note for _, note in hand.player_notes)
    assert exact["greedy"] > 2 * exact["random"], exact


def test_the_command_writes_a_record_that_validates(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "practice.imp"
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "ninety-nine", "-p", "3", "-n", "9", "--seed", "1"]
    for extra in ([], ["--bot", "greedy"], ["--play-only"]):
        done = subprocess.run([*cmd, *extra, "-o", str(out)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        text = out.read_text(encoding="utf-8")
        assert '[Players "Adam Betty Christian"]' in text and text.count("\nscore ") == 9
        check = subprocess.run([sys.executable, "-m", "imptools", "validate", str(out)], capture_output=True, text=True)
        assert check.returncode == 0 and "0 errors" in check.stdout, check.stdout
    four = subprocess.run([*cmd[:6], "-p", "4"], capture_output=True, text=True)
    assert four.returncode == 2 and "cannot be simulated" in four.stderr and "Traceback" not in four.stderr
