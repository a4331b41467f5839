"""`imp analyse` on the Bottle Imp tables beyond one player against the rest: teams and the two-pack games.

The search against plain minimax on endgames of every such table, the key's contract and the bounds, the escape
and coin searches asked for a side, and the search position scoring simulated hands as the checker does.
"""

from __future__ import annotations

from random import Random

import pytest

from imptools.analyse import analyse_hand, played_hand
from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules.bottle_imp.search import SearchBottle
from imptools.search import Search
from imptools.simulate import Options, simulate
from tests.test_analyse import NAMES, endgame, keyed_minimax, minimax

TABLES = [(4, "teams"), (5, "teams"), (6, "teams"), (6, "teams-2-2-1-1"), (2, "bright-house"), (2, "eye-of-the-demon")]


@pytest.mark.parametrize(("players", "variant"), TABLES)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_search_position_scores_as_the_checker(players: int, variant: str, bot: str) -> None:
    """The search position, played through simulated hands, reaches the checker's score for every player (a
    side's result in the team variants), and every recorded card is legal for it."""
    names = NAMES[:players]
    text = "".join(simulate(Options("bottle-imp", names, variant, hands=6, seed=players, bot=bot)))
    (game,) = read_games(text)
    judged = judge_game(game)
    assert judged.all_findings() == []
    for hand in game.hands:
        found = played_hand(game, hand.number)
        assert not isinstance(found, str), found
        pos = found.position
        for _, player, card in found.plays:
            assert pos.to_move() == player and card in pos.legal()
            pos.play(card)
        assert pos.done()
        scores = judged.hands[hand.number - 1].scores
        assert scores is not None and {p: pos.result(p) for p in names} == scores


CASES = [(p, v, s, 2) for p, v in TABLES for s in range(12)] + [(4, "teams", s, 3) for s in range(8)]
CASES += [(2, v, s, 3) for v in ("bright-house", "eye-of-the-demon") for s in range(4)]


@pytest.mark.parametrize(("players", "variant", "seed", "tricks"), CASES)
def test_values_equal_plain_minimax(players: int, variant: str, seed: int, tricks: int) -> None:
    """Every player's value and the cards that keep it, at every position of a line played by random cards, are
    plain minimax's; so is the value after each legal card."""
    pos = endgame(players, seed, tricks, variant)
    search = Search(pos)
    rng = Random(seed)
    while not pos.done():
        player = pos.to_move()
        value, keep = search.choices(player)
        assert value == minimax(pos, player), (player, value)
        for card in pos.legal():
            pos.play(card)
            exact = minimax(pos, player)
            assert search.value(player) == exact
            pos.undo()
            assert (card in keep) == (exact == value)
        pos.play(rng.choice(pos.legal()))


KEY_CASES = [(p, v, s, 2) for p, v in TABLES for s in range(6)] + [(4, "teams", s, 3) for s in range(4)]


@pytest.mark.parametrize(("players", "variant", "seed", "tricks"), KEY_CASES)
def test_key_contract_and_bounds(players: int, variant: str, seed: int, tricks: int) -> None:
    """Positions that share a key have the same value relative to the banked part (a side's won coins, counted
    twice for a solo player), and `bounds` holds every value, for every player."""
    pos = endgame(players, seed, tricks, variant)
    for player in pos.order:  # type: ignore[attr-defined]
        keyed_minimax(pos, player, {})


ANSWER_CASES = [(p, v, s) for p, v in TABLES for s in range(8)]


@pytest.mark.parametrize(("players", "variant", "seed"), ANSWER_CASES)
def test_escape_and_gains_answer_for_a_side(players: int, variant: str, seed: int) -> None:
    """`answer` gives the windows the escape and coin searches answer on the right side, exact where asked for
    (a side escapes, or gains k coins more, exactly when plain minimax says so)."""
    pos = endgame(players, seed, 2, variant)
    assert isinstance(pos, SearchBottle) and pos.penalty > 0
    rng = Random(seed)
    while not pos.done():
        for player, seat in pos.seat.items():
            exact = minimax(pos, player)
            won = pos.mult[seat] * pos.side_won(seat)
            lost = pos.penalty * pos.mult[seat]
            answered = pos.answer(player, -lost, won)
            assert answered is not None and (answered >= won) == (exact >= won), (player, exact, won)
            for b in range(1, 6):
                answered = pos.answer(player, won + b - 1, won + b)
                assert answered is not None and (answered >= won + b) == (exact >= won + b), (player, b, exact)
                assert answered <= exact if answered >= won + b else answered >= exact
        pos.play(rng.choice(pos.legal()))


def test_a_solo_player_counts_twice_and_a_pair_holds_the_bottle_once() -> None:
    """Four-player teams: the dealer and the player across are solo, the other two a pair; at the end of a hand
    the search scores them as the rules do (checked above against the checker), and the pair's partners always
    share one result."""
    text = "".join(simulate(Options("bottle-imp", NAMES[:4], "teams", hands=4, seed=3)))
    (game,) = read_games(text)
    for hand in game.hands:
        found = played_hand(game, hand.number)
        assert not isinstance(found, str)
        pos = found.position
        for _, _, card in found.plays:
            pos.play(card)
        pairs = [p for p in NAMES[:4] if len(pos.side(p)) == 2]
        assert len(pairs) == 2 and pos.result(pairs[0]) == pos.result(pairs[1])
        solos = [p for p in NAMES[:4] if len(pos.side(p)) == 1]
        for p in solos:
            assert pos.result(p) % 2 == 0


def test_bright_house_from_the_plays_alone() -> None:
    """A complete Bright House hand without deal lines is analysed: the first two cards of each trick are the open
    packs'; an eye-of-the-demon hand without them cannot say which pack a card is in, and says so."""
    text = "".join(simulate(Options("bottle-imp", NAMES[:2], "bright-house", hands=1, seed=5)))
    kept = "".join(line for line in text.splitlines(keepends=True) if not line.startswith(("deal", "discard", "pass")))
    (game,) = read_games(kept)
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    (full,) = read_games(text)
    with_deal = played_hand(full, 1)
    assert not isinstance(with_deal, str)
    plays, dealt = found.position, with_deal.position
    assert isinstance(plays, SearchBottle) and isinstance(dealt, SearchBottle)
    first = [[two[k], two[1 - k]] for two, k in zip(plays.packs, plays.first_pack)]
    assert first == [[two[k], two[1 - k]] for two, k in zip(dealt.packs, dealt.first_pack)]
    analysed = analyse_hand(game, 1, 7)
    assert analysed.skipped is None and len(analysed.plays) == 8
    text = "".join(simulate(Options("bottle-imp", NAMES[:2], "eye-of-the-demon", hands=1, seed=5)))
    kept = "".join(line for line in text.splitlines(keepends=True) if not line.startswith(("deal", "discard", "pass")))
    (game,) = read_games(kept)
    skipped = analyse_hand(game, 1, 7).skipped
    assert skipped is not None and "pack" in skipped


@pytest.mark.parametrize(("players", "variant", "seed"), [(5, "teams", s) for s in range(4)] + [(6, "teams", 0)])
def test_partners_are_valued_as_one_side(players: int, variant: str, seed: int) -> None:
    """A side's players share one result, so the search values them as one (`Search.voice`): partners share a
    voice and opponents do not. A partner's value, asked a few cards after his partner's, reads what
    that proof found: it is the value a search of its own finds (whose values the tests above hold to plain
    minimax), found in fewer positions."""
    pos, alone = endgame(players, seed, 6, variant), endgame(players, seed, 6, variant)
    search = Search(pos)
    for p in pos.order:  # type: ignore[attr-defined]
        side = pos.side(p)
        assert search.voice(p) == min(side)
        assert all(search.voice(q) != search.voice(p) for q in pos.order if q not in side)  # type: ignore[attr-defined]

    def play_both() -> None:
        card = pos.legal()[0]
        pos.play(card)
        alone.play(card)

    while len(pos.side(pos.to_move())) < 2:
        play_both()
    first = pos.to_move()
    (mate,) = pos.side(first) - {first}
    search.value(first)
    while pos.to_move() != mate:
        play_both()
    before = search.positions()
    shared = search.value(mate)
    by_itself = Search(alone)
    assert shared == by_itself.value(mate)
    assert search.positions() - before < by_itself.positions()
