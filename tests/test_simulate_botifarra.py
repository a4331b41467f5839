"""`imp simulate -g botifarra`: every table dealt, called and played by the rules, in records that validate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.botifarra.cards import card_number, spell
from imptools.rules.botifarra.obligations import check_play
from imptools.rules.botifarra.setup import setup_of
from imptools.rules.botifarra.simulate import BotifarraPosition, BotifarraSimulator
from imptools.simulate import Options, SimulationError, simulate

TABLES = [
    ("obligada", "Ana Bernat Carles Dolors", ()),
    ("lliure", "Ana Bernat Carles Dolors", ()),
    ("carregar", "Ana Bernat Carles Dolors", ()),
    ("obligada", "Ana Bernat Carles Dolors", (("Teams", "none"),)),
    ("carregar", "Ana Bernat Carles Dolors", (("Teams", "none"),)),
    ("obligada", "Ana Bernat Carles", ()),
    ("lliure", "Ana Bernat Carles", ()),
    ("rector-vicar", "Rector Vicar", ()),
    ("piles-and-hand", "Rector Vicar", ()),
]
IDS = [f"{v}-{len(p.split())}" + ("-individual" if t else "") for v, p, t in TABLES]


def record(variant: str | None, players: str, seed: int, tags: tuple[tuple[str, str], ...] = (), **kw: object) -> str:
    opts = Options("botifarra", tuple(players.split()), variant, seed=seed, tags=tags, **kw)  # type: ignore[arg-type]
    return "".join(simulate(opts))


def simulator(variant: str, players: str, tags: str = "") -> BotifarraSimulator:
    (game,) = read_games(f'[Game "botifarra"]\n[Variant "{variant}"]\n[Players "{players}"]\n{tags}\nhand 1\n')
    ruleset = get_ruleset("botifarra")
    sim = ruleset.simulator(game) if ruleset else None
    assert isinstance(sim, BotifarraSimulator)
    return sim


def cards(text: str) -> set[int]:
    out = {card_number(t) for t in text.split()}
    assert None not in out
    return {c for c in out if c is not None}


def spelled(cs: list[int]) -> list[str]:
    return sorted(spell(c) for c in cs)


@pytest.mark.parametrize(("variant", "players", "tags"), TABLES, ids=IDS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_simulated_games_validate_clean_over_many_seeds(
    variant: str, players: str, tags: tuple[tuple[str, str], ...], bot: str
) -> None:
    for seed in range(8):
        text = record(variant, players, seed, tags, hands=3, bot=bot)
        (game,) = read_games(text)
        result = judge_game(game)
        assert [f.message for f in result.all_findings()] == [], text
        assert all(h.complete and h.scores is not None for h in result.hands), text
        for h in result.hands:
            points = dict(h.notes)["points"]
            assert sum(int(v) for v in points.split("-")) == 72


@pytest.mark.parametrize(("variant", "players", "tags"), TABLES, ids=IDS)
def test_play_only_records_validate_clean_and_score_the_same(
    variant: str, players: str, tags: tuple[tuple[str, str], ...]
) -> None:
    full = judge_game(next(read_games(record(variant, players, 11, tags, hands=3))))
    bare_text = record(variant, players, 11, tags, hands=3, deals=False)
    assert "deal " not in bare_text and "trump " in bare_text
    bare = judge_game(next(read_games(bare_text)))
    assert bare.all_findings() == []
    assert [h.scores for h in bare.hands] == [h.scores for h in full.hands]


def test_the_calls_cover_every_kind_and_the_piles_are_recorded_top_first() -> None:
    partnership = "".join(record(None, "Ana Bernat Carles Dolors", seed, hands=4) for seed in range(12))
    for word in ("delegate", "botifarra"):
        assert f" {word}\n" in partnership
    for kind in ("contro", "recontro", "sant-vicenc"):
        assert f"\n{kind} " in partnership
    individual = "".join(record(None, "Ana Bernat Carles", seed, hands=4) for seed in range(12))
    assert "contro " in individual and "recontro" not in individual and "delegate" not in individual
    piles = record("rector-vicar", "Rector Vicar", 2)
    assert piles.count("deal Rector.") == 6 and "deal Rector " not in piles
    assert record("piles-and-hand", "Rector Vicar", 2).count("deal Vicar") == 5
    dealt = simulator("rector-vicar", "Rector Vicar").deal("Vicar", Random(2))
    position = dealt.position
    assert isinstance(position, BotifarraPosition)
    first = next(line for line in dealt.lines if line.startswith("deal Rector.1 "))
    assert first.split()[2] == spell(position.piles["Rector"][0][0])


def test_the_same_seed_gives_the_same_bytes_and_another_seed_another_game() -> None:
    for variant, players in (("obligada", "Ana Bernat Carles Dolors"), ("piles-and-hand", "Rector Vicar")):
        for bot in ("random", "greedy"):
            one = record(variant, players, 5, hands=3, bot=bot)
            assert one == record(variant, players, 5, hands=3, bot=bot)
            assert one != record(variant, players, 6, hands=3, bot=bot)


@pytest.mark.parametrize(("variant", "players"), [("obligada", "Ana Bernat Carles Dolors"), ("piles-and-hand", "R V")])
def test_a_position_undoes_every_play_back_to_the_deal(variant: str, players: str) -> None:
    position = simulator(variant, players).deal(players.split()[-1], Random(3)).position
    assert isinstance(position, BotifarraPosition)
    hands = {p: set(h) for p, h in position.hands.items()}
    piles = {p: [list(pile) for pile in ps] for p, ps in position.piles.items()}
    first = position.to_move()
    rng = Random(4)
    moves = 0
    while not position.done():
        legal = position.legal()
        assert legal and set(legal) <= position.playable(position.to_move())
        position.play(rng.choice(legal))
        moves += 1
    assert moves == 48
    assert sum(position.points().values()) == 72
    for _ in range(moves):
        position.undo()
    assert position.hands == hands and position.piles == piles
    assert position.to_move() == first and position.trick == [] and position.leader == 0
    assert all(not won for won in position.tally.won.values()) and set(position.tally.tricks.values()) == {0}
    assert set(position.points().values()) == {0}


@pytest.mark.parametrize(("variant", "players", "tags"), TABLES, ids=IDS)
def test_the_position_scores_a_hand_as_the_checker_does(
    variant: str, players: str, tags: tuple[tuple[str, str], ...]
) -> None:
    tag_lines = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    names = players.split()
    for seed in range(3):
        # the driver's own steps: the same rng deals and then chooses every card
        rng = Random(f"{seed}/1")  # the driver seeds each hand by the seed and its number
        position = simulator(variant, players, tag_lines).deal(names[-1], rng).position
        assert isinstance(position, BotifarraPosition)
        while not position.done():
            position.play(rng.choice(position.legal()))
        (game,) = read_games(record(variant, players, seed, tags))
        assert position.scores() == judge_game(game).hands[0].scores


def four(variant: str, hands: dict[str, str], trump: str = "o", tags: str = "") -> BotifarraPosition:
    """A hand-built four-player position: Dolors deals, Ana leads."""
    (game,) = read_games(
        f'[Game "botifarra"]\n[Variant "{variant}"]\n[Players "Ana Bernat Carles Dolors"]\n{tags}\nhand 1\n'
    )
    setup = setup_of(game)
    assert setup is not None
    trump_suit = "oceb".index(trump) if trump else None
    return BotifarraPosition(setup, "Dolors", trump_suit, {p: cards(h) for p, h in hands.items()})


def legal_after(position: BotifarraPosition, *plays: str) -> list[str]:
    lying = []
    for text in plays:
        c = card_number(text)
        assert c is not None
        lying.append((position.to_move(), c))
        position.play(c)
    me = position.to_move()
    legal = position.legal()
    mine = position.playable(me)
    partners = position.setup.seating.partners(me)
    rules = position.setup.rules
    # the checker's own judge of a play agrees card by card, with the whole hand known
    for c in mine:
        verdict = check_play(rules, position.trump, lying, partners, mine - {c}, c)
        assert (verdict is None) == (c in legal), (spell(c), verdict)
    return spelled(legal)


HANDS = {"Ana": "1c 11c 7b", "Bernat": "2c 6o 5b", "Carles": "12c 5c 3c 9o 4e", "Dolors": "7c 8b 2e"}


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("obligada", ["12c", "3c"]), ("carregar", ["12c", "3c"]), ("lliure", ["12c", "3c", "5c"])],
)
def test_partner_master_and_able_to_follow(variant: str, expected: list[str]) -> None:
    assert legal_after(four(variant, HANDS), "1c", "2c") == expected


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("obligada", ["12e", "4e", "9o"]), ("carregar", ["12e", "4e", "9o"]), ("lliure", ["12e", "4e", "5e", "9o"])],
)
def test_partner_master_and_unable_to_follow(variant: str, expected: list[str]) -> None:
    assert legal_after(four(variant, {**HANDS, "Carles": "12e 5e 4e 9o"}), "1c", "2c") == expected


def test_an_opponent_master_must_be_beaten_or_trumped() -> None:
    # Bernat can follow and beat Ana's 11c: only the beating cards
    assert legal_after(four("lliure", {**HANDS, "Bernat": "9c 3c 5o"}), "11c") == ["9c"]
    # Bernat cannot follow and holds a trump (oros) that beats
    assert legal_after(four("obligada", {**HANDS, "Bernat": "5o 9e 2e"}), "11c") == ["5o"]
    # Carles cannot follow, and his trump does not beat Bernat's trump: the lowest of any suit
    hands = {**HANDS, "Bernat": "9o 3c", "Carles": "2o 12e 4e 5c 12c"}
    assert legal_after(four("obligada", hands), "7b", "9o") == ["2o", "4e", "5c"]
    # individual: Ana's partner is no partner, so Carles must beat her
    assert legal_after(four("obligada", {**HANDS, "Bernat": "7c 6o"}, tags='[Teams "none"]'), "11c", "7c") == ["12c"]


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("obligada", ["2e", "4b"]),
        ("carregar", ["12b", "2e", "4b", "9e"]),
        ("lliure", ["12b", "2e", "4b", "9e"]),
    ],
)
def test_an_opponent_master_that_cannot_be_beaten(variant: str, expected: list[str]) -> None:
    assert legal_after(four(variant, {**HANDS, "Bernat": "9e 2e 4b 12b"}), "11c") == expected
    # following without beating: the lowest of the suit (obligada), or a point card too (carregar)
    follow = {"obligada": ["3c"], "carregar": ["12c", "3c"], "lliure": ["12c", "3c", "5c"]}[variant]
    hands = {**HANDS, "Bernat": "9c 6o 5b", "Carles": "12c 5c 3c 4e"}
    assert legal_after(four(variant, hands), "11c", "9c") == follow


def test_two_players_play_lliure_over_the_face_up_cards_and_the_hand() -> None:
    (game,) = read_games('[Game "botifarra"]\n[Variant "piles-and-hand"]\n[Players "Rector Vicar"]\nhand 1\n')
    setup = setup_of(game)
    assert setup is not None
    piles = {
        "Rector": [[card_number("11c") or 0, card_number("2b") or 0]],
        "Vicar": [[card_number("5e") or 0, card_number("9c") or 0], [card_number("7o") or 0]],
    }
    hands = {"Rector": cards("3o"), "Vicar": cards("3b")}
    position = BotifarraPosition(setup, "Vicar", 1, hands, piles)
    assert position.to_move() == "Rector" and spelled(position.legal()) == ["11c", "3o"]
    position.play(card_number("11c") or 0)
    # the 9c lies under the 5e: not playable, so Vicar may play any card he can play
    assert spelled(position.legal()) == ["3b", "5e", "7o"]
    position.play(card_number("5e") or 0)
    assert position.to_move() == "Rector" and position.piles["Vicar"][0] == [card_number("9c")]
    assert position.piles["Rector"][0] == [card_number("2b")]
    position.undo()
    assert position.piles["Vicar"][0] == [card_number("5e"), card_number("9c")]
    assert spelled(position.legal()) == ["3b", "5e", "7o"]
    # with the 9c turned up he must beat with it
    position.piles["Vicar"][0].pop(0)
    assert spelled(position.legal()) == ["9c"]


def test_the_better_bot_wins_cheaply_and_feeds_a_master_partner() -> None:
    sim = simulator("obligada", "Ana Bernat Carles Dolors")
    rng = Random(0)
    position = four("lliure", {**HANDS, "Bernat": "9c 3c 5o", "Carles": "12c 1e 9e 4e", "Dolors": "7c 10c 1b"})
    position.play(card_number("11c") or 0)
    assert spell(sim.better_bot(position, rng)) == "9c"
    position.play(card_number("9c") or 0)
    assert spell(sim.better_bot(position, rng)) == "12c"  # cannot beat, and must follow with his one copa
    position.play(card_number("12c") or 0)
    assert spell(sim.better_bot(position, rng)) == "10c"  # Bernat (partner) is master: give points
    lead = four("obligada", {**HANDS, "Ana": "9c 1c 3b"})
    assert spell(sim.better_bot(lead, rng)) == "9c"


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(SimulationError, match="cannot be simulated"):
        record("rector-vicar", "Ana Bernat Carles Dolors", 1)
    with pytest.raises(SimulationError, match="cannot be a tag"):
        record(None, "Ana Bernat Carles Dolors", 1, (("Players", "A B"),))
    with pytest.raises(SimulationError, match="cannot be a tag"):
        record(None, "Ana Bernat Carles Dolors", 1, (("9x", "y"),))


def test_tag_values_are_escaped() -> None:
    text = record(None, "Ana Bernat Carles Dolors", 1, (("Event", 'the "club" \\ night'),))
    (game,) = read_games(text)
    assert game.tag("Event") == 'the "club" \\ night'


@pytest.mark.parametrize(
    "args",
    [["-p", "4", "-n", "5", "--seed", "1"], ["-v", "rector-vicar", "-p", "2"], ["-p", "4", "--tag", "Teams=none"]],
)
def test_the_command_writes_a_record_that_validates(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "practice.imp"
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "botifarra", *args]
    done = subprocess.run([*cmd, "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    if "--tag" in args:
        assert '[Teams "none"]' in out.read_text(encoding="utf-8")
    check = subprocess.run([sys.executable, "-m", "imptools", "validate", str(out)], capture_output=True, text=True)
    assert check.returncode == 0 and "0 errors" in check.stdout


def test_a_tag_without_a_value_is_refused() -> None:
    cmd = [sys.executable, "-m", "imptools", "simulate", "-g", "botifarra", "--tag", "Teams"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 2 and "NAME=VALUE" in done.stderr and "Traceback" not in done.stderr
