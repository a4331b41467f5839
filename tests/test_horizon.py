"""The search cut at a horizon (`imptools.horizon`): the exact value where the horizon lies past the hand's end, an
obvious depth-limited minimax's value before it, and the budget counted in positions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from imptools.analyse import played_hand
from imptools.horizon import HorizonSearch, first_cost, horizon_values
from imptools.reader import read_games
from imptools.rules.base import SearchPosition
from imptools.search import Search
from imptools.simulate import Options, simulate

TABLES = [
    ("bottle-imp", ("Adam", "Betty", "Christian"), None),
    ("bottle-imp", ("Keawe", "Kokua", "Lopaka"), "lopaka"),
    ("bottle-imp", ("Adam", "Betty", "Christian", "Doris"), None),
    ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), None),
    ("ninety-nine", ("Ann", "Bob", "Cy"), None),
]


def positions(game: str, players: tuple[str, ...], variant: str | None, seeds: range) -> Iterator[SearchPosition]:
    """The search position before each play of greedy-played simulated hands that leaves its player a choice (the
    position is played on between yields: use it before asking for the next)."""
    for seed in seeds:
        text = "".join(simulate(Options(game, players, variant, seed=seed, bot="greedy")))
        (g,) = read_games(text)
        found = played_hand(g, 1)
        assert not isinstance(found, str)
        pos = found.position
        for _, _, card in found.plays:
            if pos.forced() is None and len(pos.legal()) > 1:
                yield pos
            pos.play(card)


def left(pos: SearchPosition) -> int:
    """The cards still to play, counted by playing the position out on its first legal cards."""
    n = 0
    while not pos.done():
        pos.play(pos.legal()[0])
        n += 1
    for _ in range(n):
        pos.undo()
    return n


def played_out(pos: SearchPosition, player: str) -> int:
    """`player`'s result once every player has played on the first group his search tries (the players against him
    on `opposed()` where the position has it), the position left as it was."""
    made = 0
    while not pos.done():
        card = pos.forced()
        if card is None:
            opposed = getattr(pos, "opposed", None)
            if opposed is not None and pos.to_move() not in pos.side(player):
                card = opposed()[0][0]
            else:
                card = pos.groups()[0][0]
        pos.play(card)
        made += 1
    v = pos.result(player)
    for _ in range(made):
        pos.undo()
    return v


def minimax(pos: SearchPosition, player: str, togo: int, playout: bool = False) -> int:
    """Plain minimax over every legal card, `togo` cards deep, the positions there valued by the result so far (or
    with `playout`, `played_out`); every position's value brought within the bounds it puts on the result, where it
    has them."""
    if pos.done():
        return pos.result(player)
    if togo == 0:
        v = played_out(pos, player) if playout else pos.result(player)
        low, high = pos.bounds(player) if hasattr(pos, "bounds") else (v, v)
        return max(low, min(high, v))
    forced = pos.forced()
    cards = [forced] if forced is not None else pos.legal()
    values = []
    for c in cards:
        pos.play(c)
        values.append(minimax(pos, player, togo - 1, playout))
        pos.undo()
    if forced is not None:
        return values[0]
    v = max(values) if pos.to_move() in pos.side(player) else min(values)
    low, high = pos.bounds(player) if hasattr(pos, "bounds") else (v, v)
    return max(low, min(high, v))


@pytest.mark.parametrize(("game", "players", "variant"), TABLES)
def test_past_the_end_of_the_hand_the_horizon_value_is_the_exact_one(
    game: str, players: tuple[str, ...], variant: str | None
) -> None:
    checked = 0
    for pos in positions(game, players, variant, range(4)):
        n = left(pos)
        if n > 12:
            continue
        player = pos.to_move()
        exact = Search(pos)
        cut = HorizonSearch(pos, n)
        for card in pos.legal():
            assert cut.after(player, card) == exact.after(player, card)
            checked += 1
        assert not cut.cut
        valued = horizon_values(pos, player, 10**9, 0)
        assert valued.exact and valued.values == {c: exact.after(player, c) for c in pos.legal()}
    assert checked > 30


@pytest.mark.parametrize("playout", [False, True])
@pytest.mark.parametrize(("game", "players", "variant"), TABLES)
def test_before_the_horizon_it_is_the_plain_minimax_of_the_estimate_within_the_bounds(
    game: str, players: tuple[str, ...], variant: str | None, playout: bool
) -> None:
    checked = 0
    for k, pos in enumerate(positions(game, players, variant, range(2))):
        if k % 3:
            continue
        player = pos.to_move()
        plies = 2 + k % 4
        cut = HorizonSearch(pos, plies, playout)
        for card in pos.legal():
            pos.play(card)
            expected = minimax(pos, player, plies - 1, playout)
            pos.undo()
            assert cut.after(player, card) == expected
            checked += 1
    assert checked > 20


def test_the_budget_is_counted_in_positions_and_deepens_the_search() -> None:
    game, players, variant = TABLES[3]
    pos = next(p for k, p in enumerate(positions(game, players, variant, range(1))) if k == 1)
    player = pos.to_move()
    first = horizon_values(pos, player, 0, 1)
    assert first.plies == 1 and not first.exact  # his card alone, each position after it estimated
    assert first.nodes <= first_cost(pos, left(pos))
    deeper = []
    for budget in (first.nodes, 10 * first.nodes, 100 * first.nodes, 400 * first.nodes):
        valued = horizon_values(pos, player, budget, 1)
        assert valued.nodes <= budget
        assert valued == horizon_values(pos, player, budget, 1)  # the cards and the budget alone decide
        deeper.append(valued.plies)
    assert deeper == sorted(deeper) and deeper[-1] > 3
    assert all(d <= 3 or d % 4 == 3 for d in deeper)  # a card at a time to the end of the trick, then a trick


SIX = ("Adam", "Betty", "Christian", "Doris", "Ernest", "Fanny")


def first_tricks(game: str, players: tuple[str, ...], seed: int) -> Iterator[tuple[SearchPosition, int]]:
    """The positions of the first trick of a greedy-played simulated hand that leave their player a choice, each
    with how many cards of the trick are down (the position is played on between yields)."""
    text = "".join(simulate(Options(game, players, None, seed=seed, bot="greedy")))
    (g,) = read_games(text)
    found = played_hand(g, 1)
    assert not isinstance(found, str)
    pos = found.position
    for made, (trick, _, card) in enumerate(found.plays):
        if trick > 1:
            return
        if pos.forced() is None and len(pos.legal()) > 1:
            yield pos, made % pos.per_trick
        pos.play(card)


@pytest.mark.parametrize(("game", "players"), [("bottle-imp", SIX), ("botifarra", SIX[:4])])
def test_a_dear_first_trick_keeps_the_budget_and_the_values_are_the_minimax_at_the_depth_reached(
    game: str, players: tuple[str, ...]
) -> None:
    """Where the end of the trick in progress costs a world's share many times over (the first trick of six players,
    each leaf played out to the end), the positions stay within the share, or within the first depth's cost where
    that is more: the search stops inside the trick at the depth the budget allows, and its values are then the
    plain depth-limited minimax's."""
    share = 10_000 // 12  # a world's share at imp simulate's defaults (--think 0.2, --worlds 12)
    dear = checked = 0
    for seed in range(3):
        for pos, down in first_tricks(game, players, seed):
            player = pos.to_move()
            end = pos.per_trick - down
            whole = HorizonSearch(pos, end, True)
            for card in pos.legal():
                whole.after(player, card)
            dear += whole.nodes > share
            valued = horizon_values(pos, player, share, down, True)
            assert valued.nodes <= max(share, first_cost(pos, left(pos)))
            assert valued == horizon_values(pos, player, share, down, True)
            if whole.nodes > share:
                assert valued.plies < end
            if valued.plies <= 3:
                for card in pos.legal():
                    pos.play(card)
                    expected = minimax(pos, player, valued.plies - 1, True)
                    pos.undo()
                    assert valued.values[card] == expected
                checked += 1
    assert dear >= 3 and checked >= 3, (dear, checked)
