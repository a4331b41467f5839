"""Botifarra's judging walk over masks flags exactly the plays the card-by-card check finds against the rules."""

from __future__ import annotations

from random import Random

import pytest

from imptools.reader import read_games
from imptools.record import Game, Trick
from imptools.rules.botifarra.calls import judge_calls
from imptools.rules.botifarra.cards import trick_winner
from imptools.rules.botifarra.judging import suspect_plays
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA, check_play
from imptools.rules.botifarra.ruleset import call_lines
from imptools.rules.botifarra.setup import setup_of
from imptools.rules.exchange import after_exchange
from imptools.rules.holdings import Holdings
from imptools.rules.tricks import Played, turn_order, walk_tricks
from imptools.simulate import Options, simulate

TABLES = [
    ("Ana Bernat Carles Dolors", OBLIGADA, ()),
    ("Ana Bernat Carles Dolors", CARREGAR, ()),
    ("Ana Bernat Carles Dolors", LLIURE, (("Teams", "none"),)),
    ("Ana Bernat Carles", OBLIGADA, ()),
]


def swapped(game_text: str, rng: Random) -> str:
    """The record with a few played cards swapped between tricks: plays that break the table, cards not held."""
    lines = game_text.split("\n")
    tricks = [k for k, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    for _ in range(rng.randrange(0, 4)):
        a, b = rng.sample(tricks, 2)
        ta, tb = lines[a].split(), lines[b].split()
        i, j = rng.randrange(1, len(ta)), rng.randrange(1, len(tb))
        ca, cb = ta[i].split(":")[-1], tb[j].split(":")[-1]
        ta[i], tb[j] = ta[i][: len(ta[i]) - len(ca)] + cb, tb[j][: len(tb[j]) - len(cb)] + ca
        lines[a], lines[b] = " ".join(ta), " ".join(tb)
    return "\n".join(lines)


def games(players: str, variant: str, tags: tuple[tuple[str, str], ...], seed: int) -> list[Game]:
    opts = Options("botifarra", tuple(players.split()), variant, 4, seed, "random", True, True, tags)
    text = "".join(simulate(opts))
    return list(read_games(swapped(text, Random(seed)) if seed % 3 else text))


@pytest.mark.parametrize(("players", "variant", "tags"), TABLES)
def test_the_plays_flagged_are_the_plays_check_play_finds(
    players: str, variant: str, tags: tuple[tuple[str, str], ...]
) -> None:
    flagged = checked = 0
    for seed in range(12):
        for game in games(players, variant, tags, seed):
            setup = setup_of(game)
            assert setup is not None
            for hand in game.hands:
                assert hand.dealer is not None
                calls = judge_calls([c for c, _ in call_lines(setup, hand)], hand.dealer.name, setup.seating)

                def settle(played: Played, trump: int | None = calls.trump) -> int:
                    return trick_winner(played.cards, trump)

                order = turn_order(setup.players, hand.dealer.name)
                walk = walk_tricks(hand, order, len(order), setup.resolve, settle)
                tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
                dealt = after_exchange(hand, setup.resolve)
                holdings = Holdings(walk, dealt)
                partners = {p: setup.seating.partners(p) for p in setup.players}
                want = []
                for t, played in enumerate(tricks):
                    for i in range(1, len(played.cards)):
                        lying = list(zip(played.who[:i], played.cards[:i]))
                        held = set(holdings.before(t, i))
                        p = played.who[i]
                        if check_play(setup.rules, calls.trump, lying, partners[p], held, played.cards[i]):
                            want.append((t, i))
                        checked += 1
                assert suspect_plays(setup.rules, calls.trump, tricks, partners, dealt) == want
                flagged += len(want)
    assert checked > 1000 and flagged > 10, (checked, flagged)


def test_a_trick_short_of_plays_is_judged_as_far_as_it_goes() -> None:
    (game,) = read_games(
        '[Game "botifarra"]\n[Players "Ana Bernat Carles Dolors"]\n\nhand 1 dealer Dolors\ntrump Dolors oros\n'
        "1. Ana:4c 11c 3c\n"
    )
    setup = setup_of(game)
    assert setup is not None
    (trick,) = [x for x in game.hands[0].lines if isinstance(x, Trick)]
    played = Played(trick, ["Ana", "Bernat", "Carles"], [setup.resolve(p.card.text) or 0 for p in trick.plays])
    # Carles plays the 3 under Bernat's 11 while he is shown (by nothing) to hold a higher copa: no proof
    assert suspect_plays(OBLIGADA, 0, [played], {p: setup.seating.partners(p) for p in setup.players}, {}) == []
    # with his deal known to hold the 9 of copes, he had to beat
    nine = setup.resolve("9c")
    assert nine is not None
    got = suspect_plays(OBLIGADA, 0, [played], {"Carles": frozenset({"Ana"})}, {"Carles": {nine, played.cards[2]}})
    assert got == [(0, 2)]
