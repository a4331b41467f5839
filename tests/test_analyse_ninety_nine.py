"""`imp analyse` on Ninety-nine: the mask rules against the checker's, the search against plain minimax on the
checker's own position, costs of best play, the command on a sample, hands that cannot be analysed."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest
from typer.testing import CliRunner

from imptools.analyse import analyse_hand, played_hand
from imptools.cli.app import app
from imptools.reader import read_games
from imptools.record import Game
from imptools.rules import get_ruleset
from imptools.rules.ninety_nine.cards import JOKER, NINE, TRICKS, make, spell
from imptools.rules.ninety_nine.scoring import DECLARE, REVEAL, Declaration
from imptools.rules.ninety_nine.search import MARKS, SearchNinetyNine
from imptools.rules.ninety_nine.setup import Setup
from imptools.rules.ninety_nine.simulate import NinetyNinePosition, NinetyNineSimulator
from imptools.search import Search, best_line
from imptools.simulate import Options, simulate

NAMES = ("Al", "Bo", "Cy")
SAMPLE = "samples/ninety-nine-sunday.imp"
PLAY_ONLY = str(Path(__file__).resolve().parent / "conformance" / "ninety-nine" / "playonly-5051.imp")


def minimax(pos: NinetyNinePosition, player: str) -> int:
    """Plain minimax on the checker's position (`legal_cards`, `trick_winner`, `score_hand`): no pruning, no
    tables, no groups."""
    if pos.done():
        return pos.hand_scores()[player]
    values = []
    for c in pos.legal():
        pos.play(c)
        values.append(minimax(pos, player))
        pos.undo()
    return max(values) if pos.to_move() == player else min(values)


def reference(seed: int) -> NinetyNinePosition:
    """A simulated deal as the simulator's position, its turn-up varied: sometimes the joker, sometimes a nine
    (no trump), else as dealt; with a declaration or a revelation in some."""
    rng = Random(seed)
    sim = NinetyNineSimulator(Setup(NAMES, "standard"))
    ref = sim.deal(NAMES[seed % 3], rng, better=seed % 2 == 0).position
    assert isinstance(ref, NinetyNinePosition)
    kind = seed % 5
    swap: int | None = None
    if kind == 0 and ref.turnup != JOKER:
        swap = JOKER
    elif kind == 1 and ref.turnup % 9 != NINE:
        swap = rng.choice([9 * s + NINE for s in range(4)])
    if swap is not None:
        for cards in ref.hands.values():
            if swap in cards:
                cards.remove(swap)
                cards.add(ref.turnup)
                ref.turnup = swap
                break
    calls = [None, None, Declaration(DECLARE, rng.choice(NAMES)), Declaration(REVEAL, rng.choice(NAMES))]
    ref.call = calls[seed % 4]
    return ref


def twin(ref: NinetyNinePosition) -> SearchNinetyNine:
    """The search position for `ref` at a trick's start: its seating from the leader, cards, bids, call, tricks."""
    assert not ref.trick
    order = ref.order[ref.leader :] + ref.order[: ref.leader]
    return SearchNinetyNine(order, ref.hands, ref.turnup, ref.bids, ref.call, ref.won)


def endgame(seed: int, tricks_left: int) -> tuple[NinetyNinePosition, SearchNinetyNine]:
    """The reference position `tricks_left` tricks before the end (random legal cards till then), with bids set
    so that most players can still take theirs (some unknown), and its search twin."""
    ref = reference(seed)
    rng = Random(seed)
    for _ in range((TRICKS - tricks_left) * 3):
        ref.play(rng.choice(ref.legal()))
    for p in NAMES:
        roll = rng.random()
        ref.bids[p] = None if roll < 0.15 else ref.won[p] + rng.randint(0, tricks_left) if roll < 0.9 else 9
    return ref, twin(ref)


@pytest.mark.parametrize("seed", range(150))
def test_mask_rules_equal_the_checkers(seed: int) -> None:
    """Random play in lockstep: the same player to move, legal cards, tricks won and, at the end, scores."""
    ref = reference(seed)
    pos = twin(ref)
    rng = Random(seed)
    while not ref.done():
        assert not pos.done() and pos.to_move() == ref.to_move()
        assert pos.legal() == ref.legal()
        card = rng.choice(ref.legal())
        ref.play(card)
        pos.play(card)
        assert dict(zip(pos.order, pos.won)) == ref.won
    assert pos.done()
    assert {p: pos.result(p) for p in NAMES} == ref.hand_scores()
    while pos._undo:
        pos.undo()
    assert pos.won == [0, 0, 0] and pos.legal() == sorted(twin(reference(seed)).legal())


CASES = [(s, 2) for s in range(120)] + [(s, 3) for s in range(120, 220)] + [(s, 4) for s in range(220, 235)]


@pytest.mark.parametrize(("seed", "tricks"), CASES)
def test_values_equal_plain_minimax(seed: int, tricks: int) -> None:
    """At every play of a random line: the value, every card's value after it and the cards kept, as minimax."""
    ref, pos = endgame(seed, tricks)
    search = Search(pos)
    rng = Random(seed)
    while not pos.done():
        player = pos.to_move()
        value, keep = search.choices(player)
        assert value == minimax(ref, player)
        for card in pos.legal():
            ref.play(card)
            pos.play(card)
            exact = minimax(ref, player)
            assert search.value(player) == exact
            assert (card in keep) == (exact == value)
            pos.undo()
            ref.undo()
        card = rng.choice(pos.legal())
        ref.play(card)
        pos.play(card)


@pytest.mark.parametrize("seed", range(8))
def test_best_play_costs_nothing(seed: int) -> None:
    _, pos = endgame(seed, 5)
    cards = best_line(pos)
    while pos._undo:
        pos.undo()
    search = Search(pos)
    for card in cards:
        player = pos.to_move()
        before, keep = search.choices(player)
        assert card in keep and search.after(player, card) == before
        pos.play(card)


def test_groups_are_runs_of_the_legal_cards() -> None:
    """Each group is one suit's legal cards with nothing live between them; together they are the legal cards."""
    for seed in range(40):
        ref, pos = endgame(seed, 6)
        rng = Random(seed)
        for _ in range(rng.randrange(3)):
            card = rng.choice(ref.legal())
            ref.play(card)
            pos.play(card)
        groups = pos.groups()
        assert sorted(c for g in groups for c in g) == ref.legal()
        live = set().union(*ref.hands.values()) | set(ref.trick)
        strength = {c: ref.turnup if c == JOKER else c for c in live}
        for g in groups:
            ranks = sorted(strength[c] for c in g)
            assert len({r // 9 for r in ranks}) == 1
            between = {c for c in live if ranks[0] < strength[c] < ranks[-1]}
            assert between <= set(g)


def sample() -> Game:
    with open(SAMPLE, encoding="utf-8") as f:
        (game,) = read_games(f.read())
    return game


def test_sample_hand_from_the_deal_less_the_bids() -> None:
    game = sample()
    found = played_hand(game, 1)
    assert not isinstance(found, str)
    pos = found.position
    assert pos.to_move() == "Al" and len(found.plays) == 27
    # Al was dealt twelve and bid AS AH JK: he leads with the other nine.
    kept = ["JD", "8C", "QD", "8H", "6C", "10S", "KH", "KD", "9S"]
    assert pos.legal() == sorted(make(c[:-1], c[-1]) for c in kept)
    a = analyse_hand(game, 1, 1)
    assert a.skipped is None and a.note is None and len(a.plays) == 27
    assert all(p.cost == p.value_before - p.value_after >= 0 for p in a.plays)
    assert all((p.cost == 0) == (p.card in p.best) for p in a.plays)
    assert all(p.mark == ("??" if p.cost >= MARKS[1] else "?" if p.cost >= MARKS[0] else "") for p in a.plays)
    # The last play of a hand decides nothing: the value before it is the player's score for the hand.
    last = a.plays[-1]
    assert last.cost == 0 and last.value_before == {"Al": 5, "Bo": 1, "Cy": 33}[last.player]


def test_play_only_complete_hand_is_analysed() -> None:
    with open(PLAY_ONLY, encoding="utf-8") as f:
        game = next(iter(read_games(f.read())))
    a = analyse_hand(game, 1, 7)
    assert a.skipped is None and [p.trick for p in a.plays] == [7, 7, 7, 8, 8, 8, 9, 9, 9]
    # Al revealed a bid of 5 and took 3: each opponent scores the revelation's 60 at the end.
    scores = {"Al": 3, "Bo": 62, "Cy": 64}
    assert {p.player: p.value_after for p in a.plays[-3:]} == scores


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        ("turnup AH\nbid Al 5\nbid Bo 5\nbid Cy 7\n1. Al:JS 10S AS\n", "not all known"),
        ("deal Al JD JK 8C QD 8H 6C 10S AH KH KD 9S AS\nturnup AD\n1. Al:KH 7H 6H\n", "not all known"),
        ("1. Al:JS 10S AS\n", "turn-up is not known"),
    ],
)
def test_unknown_cards_are_skipped_with_a_reason(lines: str, reason: str) -> None:
    (game,) = read_games(f'[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1 dealer Cy\n{lines}')
    a = analyse_hand(game, 1)
    assert a.skipped is not None and reason in a.skipped and not a.plays


def test_cli_text_and_json() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["analyse", SAMPLE, "--hand", "1", "--from-trick", "5", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    assert "trick 5" in out.output and "cost 1" in out.output
    out = runner.invoke(app, ["analyse", SAMPLE, "--hand", "1", "--from-trick", "5", "--json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    (analysis,) = json.loads(out.output)["analyses"]
    plays = analysis["plays"]
    assert analysis["hand"] == 1 and len(plays) == 15
    assert any(p["cost"] > 0 for p in plays)
    for p in plays:
        assert p["cost"] == p["value_before"] - p["value_after"] >= 0
        assert all(spell(make(c[:-1], c[-1])) == c for c in [p["card"], *p["best"]])


@pytest.mark.parametrize("kind", [DECLARE, REVEAL])
def test_simulated_records_with_a_call_are_analysed(kind: str) -> None:
    """A call added to simulated hands: at the last plays, the values are the scores the checker gives."""
    text = "".join(simulate(Options("ninety-nine", NAMES, hands=6, seed=3, scores=False)))
    hands = text.split("\n1. ")
    text = "\n1. ".join(f"{h}\n{kind} {NAMES[i % 3]}" if i < len(hands) - 1 else h for i, h in enumerate(hands))
    (game,) = read_games(text)
    ruleset = get_ruleset("ninety-nine")
    assert ruleset is not None
    judged = ruleset.judge(game)
    for hand, result in zip(game.hands, judged.hands):
        assert len(hand.declares) == 1 and result.scores is not None
        a = analyse_hand(game, hand.number, 8)
        assert a.skipped is None and a.note is None and len(a.plays) == 6
        assert {p.player: p.value_after for p in a.plays[-3:]} == result.scores


class WithoutAnswer:
    """A position seen without its own search (`answer` and its tables): `Search`'s loop over its methods alone."""

    def __init__(self, pos: SearchNinetyNine) -> None:
        self._pos = pos

    def __getattr__(self, name: str) -> object:
        if name in ("answer", "answer_nodes", "share", "release"):
            raise AttributeError(name)
        return getattr(self._pos, name)


@pytest.mark.parametrize("seed", range(60))
def test_bounds_hold_every_players_minimax_value(seed: int) -> None:
    """`bounds` at random points of random endgames (bids alive and dead, unknown, calls): each player's exact
    result lies within them, and where they say it is certain it is."""
    ref, pos = endgame(seed, 2 + seed % 3)
    rng = Random(seed)
    while not pos.done():
        for p in NAMES:
            low, high = pos.bounds(p)
            exact = minimax(ref, p)
            assert low <= exact <= high, (p, low, exact, high)
        card = rng.choice(pos.legal())
        ref.play(card)
        pos.play(card)


@pytest.mark.parametrize("seed", range(30))
def test_answer_values_every_window_as_the_search_loop_does(seed: int) -> None:
    """The position's own search (`answer`, compiled with the module) against `Search`'s loop over the position's
    methods: every player's value and every card's after it, and windows around them (the bound each fails to)."""
    _, own = endgame(seed, 5)
    _, plain = endgame(seed, 5)
    fast, slow = Search(own), Search(WithoutAnswer(plain))  # type: ignore[arg-type]
    rng = Random(seed)
    for _ in range(6):
        for card in own.legal():
            own.play(card)
            plain.play(card)
            for p in NAMES:
                value = slow.value(p)
                assert fast.value(p) == value
                for alpha, beta in ((value - 3, value - 1), (value + 1, value + 4), (value - 1, value + 1)):
                    assert (fast.value(p, alpha, beta) <= alpha) == (slow.value(p, alpha, beta) <= alpha)
                    assert (fast.value(p, alpha, beta) >= beta) == (slow.value(p, alpha, beta) >= beta)
            own.undo()
            plain.undo()
        card = rng.choice(own.legal())
        own.play(card)
        plain.play(card)
    assert own.answer_nodes > 0 and fast.positions() > fast.nodes


def test_options_that_share_tables_share_the_positions_own() -> None:
    """`share`: the searches of a decision's options keep `answer`'s tables in one store (`value_choices`), and a
    released position starts afresh."""
    _, a = endgame(3, 4)
    _, b = endgame(4, 4)
    store: dict[str, object] = {}
    a.share(store)
    b.share(store)
    player = a.to_move()
    assert a.answer(player, -1000, 1000) is not None
    assert a._answers is b._answers and a._answers.tables
    a.release()
    assert a._answers is not b._answers and not a._answers.tables and b._answers.tables
