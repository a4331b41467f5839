"""`imp analyse`: the search against plain minimax, costs of best play, the command, and a real Dask cluster."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path
from random import Random

import pytest
from typer.testing import CliRunner

from imptools.analyse import Runner, analyse_hand, played_hand, tasks_for
from imptools.check import judge_game
from imptools.cli.app import app
from imptools.reader import read_games
from imptools.rules.base import SearchPosition
from imptools.search import Search, best_line
from imptools.simulate import Options, simulate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp")
NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")


def minimax(pos: SearchPosition, player: str) -> int:
    """Plain minimax over every legal card: no pruning, no tables, no groups."""
    if pos.done():
        return pos.result(player)
    forced = pos.forced()
    cards = [forced] if forced is not None else pos.legal()
    values = []
    for c in cards:
        pos.play(c)
        values.append(minimax(pos, player))
        pos.undo()
    return max(values) if pos.to_move() in pos.side(player) else min(values)


def endgame(
    players: int, seed: int, tricks_left: int, variant: str | None = None, deck: str | None = None
) -> SearchPosition:
    """A simulated hand's position `tricks_left` tricks before its end, played there by random legal cards."""
    names = ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else NAMES[:players]
    tags = (("Deck", deck),) if deck else ()
    text = "".join(simulate(Options("bottle-imp", names, variant, seed=seed, tags=tags)))
    (game,) = read_games(text)
    found = game_hand(game)
    pos = found.position
    total = len(found.plays)
    for _, _, card in found.plays[: total - tricks_left * pos.per_trick]:
        pos.play(card)
    return pos


def game_hand(game: object) -> object:
    found = played_hand(game, 1)  # type: ignore[arg-type]
    assert not isinstance(found, str), found
    return found


CASES = [(p, s, t, None) for p in (3, 4) for s in range(60) for t in (2, 3) if not (p == 3 and t == 3 and s % 2)]
CASES += [(5, s, 2, None) for s in range(15)] + [(6, s, 2, None) for s in range(15)]
CASES += [(3, s, 3, "lopaka") for s in range(15)] + [(5, s, 2, "second-bottle") for s in range(15)]


@pytest.mark.parametrize(("players", "seed", "tricks", "variant"), CASES)
def test_values_equal_plain_minimax(players: int, seed: int, tricks: int, variant: str | None) -> None:
    pos = endgame(players, seed, tricks, variant)
    search = Search(pos)
    while not pos.done():
        player = pos.to_move()
        if pos.forced() is None:
            value, keep = search.choices(player)
            assert value == minimax(pos, player)
            for card in pos.legal():
                pos.play(card)
                exact = minimax(pos, player)
                assert search.value(player) == exact
                pos.undo()
                assert (card in keep) == (exact == value)
        rng = Random(seed)
        pos.play(rng.choice(pos.legal()) if pos.forced() is None else pos.forced())  # type: ignore[arg-type]


def keyed_minimax(pos: SearchPosition, player: str, seen: dict[object, tuple[int, str]]) -> int:
    """Plain minimax that also checks `key`'s contract at every position (the value minus the banked part, or the
    number of bottles held at the end, is the same for every position, from any history, with the same key) and
    that `bounds` holds the value."""
    if pos.done():
        return pos.result(player)
    forced = pos.forced()
    cards = [forced] if forced is not None else pos.legal()
    values = []
    for c in cards:
        pos.play(c)
        values.append(keyed_minimax(pos, player, seen))
        pos.undo()
    value = max(values) if pos.to_move() in pos.side(player) else min(values)
    key, banked = pos.key(player)
    low, high = pos.bounds(player)  # type: ignore[attr-defined]
    assert low <= value <= high, (player, low, value, high)
    where = f"{pos.to_move()} to move, {len(pos._undo)} plays in"  # type: ignore[attr-defined]
    unit = pos.penalty_unit()  # type: ignore[attr-defined]
    relative = value - banked if value >= banked or not unit else -(-value // unit)
    if unit and value < banked:
        assert value < 0 and value % unit == 0, f"{player}: {value} is below the banked {banked} but no penalty"
    first = seen.setdefault(key, (relative, where))
    assert first[0] == relative, f"{player}: one key, relative values {first} and {relative} ({where})"
    return value


KEY_CASES = [(3, s, 4, None) for s in range(12)] + [(4, s, 3, None) for s in range(10)]
KEY_CASES += [(3, s, 4, "lopaka") for s in range(12)] + [(5, s, 2, "second-bottle") for s in range(12)]


@pytest.mark.parametrize(("players", "seed", "tricks", "variant"), KEY_CASES)
def test_key_contract_and_bounds(players: int, seed: int, tricks: int, variant: str | None) -> None:
    """Positions reached by different histories that share a key have the same value relative to the banked part
    (here a player's card lying in the trick below the price, with none left in hand, once broke it)."""
    pos = endgame(players, seed, tricks, variant)
    for player in pos.order:  # type: ignore[attr-defined]
        keyed_minimax(pos, player, {})


ESCAPE_CASES = [(4, s, 3, None) for s in range(20)] + [(3, s, 4, None) for s in range(10)]
ESCAPE_CASES += [(3, s, 3, "lopaka") for s in range(10)] + [(5, s, 2, "second-bottle") for s in range(10)]
ESCAPE_CASES += [(4, s, 3, "bambus-1995") for s in range(10)]  # cards worth nothing: no answer to a coin gained


@pytest.mark.parametrize(("players", "seed", "tricks", "variant"), ESCAPE_CASES)
def test_escape_equals_plain_minimax(players: int, seed: int, tricks: int, variant: str | None) -> None:
    """`Escape` says a player can end without a bottle exactly when plain minimax gives him at least his won coins,
    and that he can also gain a coin exactly when it gives him more (every position of a line played by random
    cards, every player, one `Escape` and its tables for them all); `answer` gives such windows his won coins or
    the penalty, on the right side of the window."""
    from imptools.rules.bottle_imp.escape import Escape
    from imptools.rules.bottle_imp.search import SearchBottle

    deck = variant if variant == "bambus-1995" else None
    pos = endgame(players, seed, tricks, None if deck else variant, deck)
    assert isinstance(pos, SearchBottle) and pos.penalty > 0
    escape = Escape(pos)
    assert escape.counts_tricks == (deck is None)  # (these 1995 endgames all have a card worth nothing in play)
    rng = Random(seed)
    while not pos.done():
        for player, seat in pos.seat.items():
            exact = minimax(pos, player)
            won = pos.won[seat]
            assert escape.escapes(seat) == (exact >= won), (player, exact, won)
            answered = pos.answer(player, -1 if won else -pos.penalty, won)
            assert answered is not None and (answered >= won) == (exact >= won)
            assert (answered == won) if exact >= won else (answered == -pos.penalty and exact <= -pos.penalty)
            # Gaining a coin as well: the window just above his won coins (`Gains` answers it in the search).
            if escape.counts_tricks:
                assert escape.escapes(seat, gaining=True) == (exact > won), (player, exact, won)
        assert pos.answer(pos.order[0], -1, pos.won[0] + 1) is None  # a question about coins is not its own
        forced = pos.forced()
        pos.play(rng.choice(pos.legal()) if forced is None else forced)


def ends_with_a_bottle(pos: SearchPosition, seat: int, more_than: int = 0) -> tuple[bool, bool]:
    """Over every line of play from here: whether some line ends with `seat`'s side holding a bottle (more than
    `more_than` bottles), and whether every line does."""
    if pos.done():
        held = pos.holds(seat) > more_than  # type: ignore[attr-defined]
        return held, held
    forced = pos.forced()
    some, every = False, True
    for c in [forced] if forced is not None else pos.legal():
        pos.play(c)
        s, e = ends_with_a_bottle(pos, seat, more_than)
        pos.undo()
        some, every = some or s, every and e
    return some, every


FATE_CASES = [(p, s, 2) for p in (5, 6) for s in range(16)] + [(p, s, 3) for p in (5, 6) for s in range(3)]


def test_fate_with_two_bottles_is_what_every_line_gives() -> None:
    """`SearchBottle._fate` with two bottles, at every card of random lines of second-bottle endgames (five and six
    players), for every seat: surely without a bottle where no line ends with one for the side, surely with one
    where every line does; each of its answers given somewhere (a side holding a bottle no other can take, a side
    about to take one for good, a side that loses the bottle of the higher price for good); and `bounds` hold
    every player's exact value there."""
    from imptools.rules.bottle_imp.search import SearchBottle

    said: Counter[tuple[bool | None, bool]] = Counter()
    for players, seed, tricks in FATE_CASES:
        pos = endgame(players, seed, tricks, "second-bottle")
        assert isinstance(pos, SearchBottle) and len(pos.prices) == 2
        rng = Random(seed)
        while not pos.done():
            for seat in range(players):
                fate = pos._fate(seat)
                some, every = ends_with_a_bottle(pos, seat)
                player = pos.order[seat]
                low, high = pos.bounds(player)
                assert low <= minimax(pos, player) <= high, (players, seed, seat, low, high)
                if fate is True:
                    assert not some, (players, seed, seat)
                elif fate is False:
                    assert every, (players, seed, seat)
                said[fate, pos.holds(seat) > 0] += 1
            forced = pos.forced()
            pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert said[True, True] and said[False, True] and said[False, False] and said[None, True], said


def test_at_most_one_of_two_bottles_is_what_every_line_gives() -> None:
    """With two bottles, the question below one bottle's penalty: at every card of random lines of second-bottle
    endgames (five and six players), for every seat, `SearchBottle._fate_one` says "at most one" only where no line
    ends with the side holding both and "both" only where every line does (each answer given somewhere), `Escape`'s
    `escapes(seat, most=1)` (one `Escape` for the whole line, and one whose tables hold 8 entries a generation) is
    whether the player's exact value is at least one penalty, and `answer` gives each window between the two
    penalties a bound on the right side of it."""
    from imptools.rules.bottle_imp.escape import Escape
    from imptools.rules.bottle_imp.search import SearchBottle

    said: Counter[bool | None] = Counter()
    asked: Counter[bool] = Counter()
    for players, seed, tricks in FATE_CASES:
        pos = endgame(players, seed, tricks, "second-bottle")
        assert isinstance(pos, SearchBottle) and len(pos.prices) == 2
        escape, capped = Escape(pos), Escape(pos, table_cap=8)
        rng = Random(seed)
        while not pos.done():
            for seat in range(players):
                fate = pos._fate_one(seat)
                some, every = ends_with_a_bottle(pos, seat, more_than=1)
                if fate is True:
                    assert not some, (players, seed, seat)
                elif fate is False:
                    assert every, (players, seed, seat)
                said[fate] += 1
                player = pos.order[seat]
                exact = minimax(pos, player)
                lost = pos.penalty_unit() * pos.mult[seat]
                one = exact >= -lost
                assert escape.escapes(seat, most=1) == one == capped.escapes(seat, most=1), (players, seed, seat)
                asked[one] += 1
                for alpha, beta in [(-2 * lost, -lost), (-2 * lost, -2 * lost + 1), (-lost - 1, -lost)]:
                    found = pos.answer(player, alpha, beta)
                    assert found is not None and (found >= beta if one else found <= alpha), (alpha, beta, found)
                    assert found <= exact if found >= beta else found >= exact
            forced = pos.forced()
            pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert said[True] and said[False] and said[None], said
    assert asked[True] and asked[False], asked


def test_two_bottles_cards_under_a_card_lying_below_the_higher_price_share_a_run() -> None:
    """With two bottles, a follower's cards below the card lying in the trick under the higher price (they cannot
    take this trick) are one move where nothing in play lies between them, one colour and one holder, unless the
    lower price lies between them; `Escape`'s three questions and `answer`'s windows (`Gains` above the won coins)
    stay plain minimax's at every card of random lines of three-trick endgames (five and six players), where such
    runs are found."""
    from imptools.rules.bottle_imp.escape import Escape
    from imptools.rules.bottle_imp.search import SearchBottle

    def joined_in_trick(pos: SearchBottle) -> int:
        """Over every line of the trick under way: the moves the runs below the card lying save."""
        price, lower = max(pos.prices), min(pos.prices)
        beaten = max([c for c in pos.trick if c < price], default=0)
        legal = pos.legal_of(pos.seat[pos.to_move()])
        runs = pos._runs(legal, price, by_coins=False, beaten=beaten, lower=lower)
        for run in runs:  # a run's cards on one side of the lower price, or all above the higher
            assert len({c < lower for c in run}) == 1 or min(run) > price, (run, pos.prices)
        saved = len(pos._runs(legal, price, by_coins=False, lower=lower)) - len(runs)
        if len(pos.trick) < pos.n - 1:
            for c in pos.legal():
                pos.play(c)
                saved += joined_in_trick(pos)
                pos.undo()
        return saved

    joined = 0
    for players, seed in [(5, 0), (5, 17), (5, 51), (5, 55), (6, 1), (6, 13), (6, 35), (6, 38)]:
        pos = endgame(players, seed, 3, "second-bottle")
        assert isinstance(pos, SearchBottle) and len(pos.prices) == 2
        escape, rng = Escape(pos), Random(seed)
        while not pos.done():
            joined += joined_in_trick(pos)
            for player, seat in pos.seat.items():
                exact, won = minimax(pos, player), pos.won[seat]
                lost = pos.penalty_unit() * pos.mult[seat]
                assert escape.escapes(seat) == (exact >= won), (players, seed, player)
                assert escape.escapes(seat, most=1) == (exact >= -lost), (players, seed, player)
                assert escape.escapes(seat, gaining=True) == (exact > won), (players, seed, player)
                for alpha, beta in [(won, won + 1), (won + 1, won + 3), (-2 * lost, -lost), (-lost - 1, won)]:
                    found = pos.answer(player, alpha, beta)
                    assert found is None or (found >= beta) == (exact >= beta), (players, seed, player, alpha, beta)
            forced = pos.forced()
            pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert joined > 0


def test_the_lower_bottle_is_taken_only_by_cards_below_its_price() -> None:
    """What `_fate_one` and `_fate` rest on, with two bottles and the one a trick does not take now (the lower price,
    the second of a tie): a side that does not hold it ends with both on no line where it has at most one card below
    that price (in hand or lying in the trick), and with two such cards some line gives it both (so one card is the
    most the rule may allow); a side that holds it where no other has a card below that price ends with a bottle on
    every line, and `_fate` says so, also where others still have cards below the higher price."""
    from imptools.rules.bottle_imp.search import SearchBottle

    kept = both = keeps = 0
    for players, seed, tricks in FATE_CASES + [(5, s, 3) for s in range(3, 12)]:
        pos = endgame(players, seed, tricks, "second-bottle")
        assert isinstance(pos, SearchBottle)
        rng = Random(seed)
        while not pos.done():
            prices = pos.prices
            lower = 0 if prices[1] > prices[0] else 1
            for seat in range(players):
                owner = pos.owners[lower]
                his = pos._side_hands(seat) | pos._side_lying(seat)
                others = pos.live & ~his
                if owner >= 0 and pos.team[seat] >> owner & 1:
                    if not others & ((1 << prices[lower]) - 1) and others & ((1 << max(prices)) - 1):
                        assert ends_with_a_bottle(pos, seat) == (True, True), (players, seed, seat)
                        assert pos._fate(seat) is False
                        keeps += 1
                    continue
                cards = (his & ((1 << prices[lower]) - 1)).bit_count()
                if cards <= 2:
                    some, _ = ends_with_a_bottle(pos, seat, more_than=1)
                    if cards <= 1:
                        assert not some, (players, seed, seat)
                        kept += 1
                    elif some:
                        both += 1
            forced = pos.forced()
            pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert kept and both and keeps, (kept, both, keeps)


GAINS_CASES = [(4, s, 3, None) for s in range(15)] + [(3, s, 4, None) for s in range(8)]
GAINS_CASES += [(3, s, 3, "lopaka") for s in range(8)] + [(5, s, 2, "second-bottle") for s in range(15)]
GAINS_CASES += [(6, s, 2, "second-bottle") for s in range(10)] + [(4, s, 3, "bambus-1995") for s in range(8)]


@pytest.mark.parametrize(("players", "seed", "tricks", "variant"), GAINS_CASES)
def test_gains_equal_plain_minimax(players: int, seed: int, tricks: int, variant: str | None) -> None:
    """`Gains` gives the coins a player can gain from here and end without a bottle exactly as plain minimax gives
    his value less his won coins (or `FAILED` below them): every null window from "does he escape" to two coins
    above, and the whole window, at every position of a line played by random cards, every player, one `Gains`
    and its tables for them all (and one whose tables hold 8 entries a generation); `answer` gives a
    window above his won coins his won coins plus a bound on the gain, on the right side of the window."""
    from imptools.rules.bottle_imp.escape import FAILED, Escape, Gains
    from imptools.rules.bottle_imp.search import SearchBottle

    deck = variant if variant == "bambus-1995" else None
    pos = endgame(players, seed, tricks, None if deck else variant, deck)
    assert isinstance(pos, SearchBottle) and pos.penalty > 0
    gains, capped, whole = Gains(pos, Escape(pos)), Gains(pos, Escape(pos), table_cap=8), Gains(pos, Escape(pos))
    rng = Random(seed)
    while not pos.done():
        for player, seat in pos.seat.items():
            exact = minimax(pos, player)
            won = pos.won[seat]
            gain = exact - won if exact >= won else FAILED
            assert whole.gain(seat, FAILED - 1, 1 << 20) == gain, (player, exact, won)
            for b in range(0, max(gain, 0) + 3):
                for solver in (gains, capped):
                    found = solver.gain(seat, b - 1, b)
                    assert (found >= b) == (gain >= b), (player, b, found, gain)
                    assert found <= gain if found >= b else found >= gain
                answered = pos.answer(player, won + b - 1, won + b)
                if b:
                    assert answered is not None and (answered >= won + b) == (exact >= won + b)
                    assert answered <= exact if answered >= won + b else answered >= exact
        forced = pos.forced()
        pos.play(rng.choice(pos.legal()) if forced is None else forced)


SURE_TABLES = [(3, None, 5, 30), (4, None, 4, 60), (5, "teams", 3, 30), (5, None, 3, 30)]


@pytest.mark.parametrize(("players", "variant", "tricks", "seeds"), SURE_TABLES)
def test_gains_lower_bound_of_a_trick_the_side_surely_wins(
    players: int, variant: str | None, tricks: int, seeds: int
) -> None:
    """Where a player surely ends without a bottle and his side leads a card that takes the trick whatever the others
    answer (`SearchBottle._sure_trick`), he gains at least that trick's coins and his bottles' price cards: at every
    trick's start of lines played by random cards where the bound finds such a trick, for every player, plain
    minimax's gain is never below it, and it is sometimes exact."""
    from imptools.rules.bottle_imp.search import SearchBottle

    found = exact_ones = 0
    for seed in range(seeds):
        pos = endgame(players, seed, tricks, variant)
        assert isinstance(pos, SearchBottle)
        rng = Random(seed)
        while not pos.done():
            for player, seat in pos.seat.items() if not pos.trick else ():
                sure = pos._sure_trick(seat) if pos._fate(seat) is True else 0
                if sure:
                    mine = pos._price_coins(seat) if pos.holds(seat) else 0
                    won, mult = pos.mult[seat] * pos.side_won(seat), pos.mult[seat]
                    gain = (minimax(pos, player) - won) // mult
                    assert gain >= mine + sure, (players, seed, player, gain, mine, sure)
                    found += 1
                    exact_ones += gain == mine + sure
            forced = pos.forced()
            pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert found >= 5 and exact_ones, (found, exact_ones)


KILLER_TABLES = [(4, None), (5, "teams"), (6, "second-bottle"), (2, "eye-of-the-demon")]


@pytest.mark.parametrize(("players", "variant"), KILLER_TABLES)
def test_gains_tries_the_killer_card_of_a_hand_in_its_place(players: int, variant: str | None) -> None:
    """`Gains` remembers the card with which the same hand in the same place of a trick (`killer_hash`: the led colour,
    the asked side winning it so far or not, a bottle taken so far or not) last held the player asked about under the
    window, or for his own side last lifted him to it, and tries it first there: on endgames three tricks from the end
    it finds such cards again, and the gains stay plain minimax's (every player, the whole window and the null windows
    around it; in the team variants his side's gain, as `SearchBottle.answer` reads it)."""
    from imptools.rules.bottle_imp.escape import FAILED, Escape, Gains
    from imptools.rules.bottle_imp.order import killer_hash

    assert killer_hash(0b1011 << 70, 2, True, False) >> 63 == 1  # a slot of 0 is empty
    assert killer_hash(0b1011 << 70, 2, True, False) != killer_hash(0b1011 << 70, 2, False, False)
    hits = 0
    for seed in range(3):
        pos = endgame(players, seed, 3, variant)
        gains = Gains(pos, Escape(pos))
        for player, seat in pos.seat.items():
            exact = minimax(pos, player)
            won, mult = pos.mult[seat] * pos.side_won(seat), pos.mult[seat]  # his side's, a solo player's twice
            gain = (exact - won) // mult if exact >= won else FAILED
            assert gains.gain(seat, FAILED - 1, 1 << 20) == gain, (player, exact, won)
            for b in range(max(gain, 0), max(gain, 0) + 2):
                assert (gains.gain(seat, b - 1, b) >= b) == (gain >= b), (player, b, gain)
        hits += gains.killer_hits
    assert hits > 0


@pytest.mark.parametrize("seed", range(6))
def test_two_bottles_are_keyed_by_the_order_of_their_prices(seed: int) -> None:
    """With two bottles whose prices lie between the same cards in play, a card below both takes the one at the
    higher price: which player's bottle that is depends on the prices' order, which their places alone do not
    tell. One `Escape` and one `Gains` answer both orders as plain minimax does (keyed by place alone, the second
    order read the first one's answer)."""
    from imptools.rules.bottle_imp.escape import FAILED, Escape, Gains
    from imptools.rules.bottle_imp.search import SearchBottle

    pos = endgame(5, seed, 2, "second-bottle")
    assert isinstance(pos, SearchBottle) and not pos.trick
    live = pos.live
    gone = [c for c in sorted(pos.setup.cards) if not live >> c & 1]
    # Two cards out of play with no card in play between them and one below them.
    a, b = next((a, b) for a, b in pairwise(gone) if not live & ((1 << b) - (1 << (a + 1))) and live & ((1 << a) - 1))
    told = 0
    for seat in range(pos.n):
        escape, gains = Escape(pos), Gains(pos, Escape(pos))
        exact = []
        for prices in ([a, b], [b, a]):
            pos.prices[:], pos.owners[:] = prices, [seat, (seat + 1) % pos.n]
            value = minimax(pos, pos.order[seat])
            won = pos.won[seat]
            exact.append(value)
            assert escape.escapes(seat) == (value >= won)
            assert gains.gain(seat, FAILED - 1, 1 << 20) == (value - won if value >= won else FAILED)
        told += (exact[0] >= pos.won[seat]) != (exact[1] >= pos.won[seat])
    assert told  # the order decided whether some player escapes


def test_the_coins_of_a_held_bottles_price_card_are_keyed() -> None:
    """A bottle taken from P gives him its price card: two prices between the same cards in play, of different
    coins, are one place but not one gain. One `Gains` answers both as plain minimax does (12 endgames, every
    such pair of prices, every player holding the bottle)."""
    from imptools.rules.bottle_imp.escape import FAILED, Escape, Gains
    from imptools.rules.bottle_imp.search import SearchBottle

    told = 0
    for seed in range(12):
        pos = endgame(4, seed, 3)
        assert isinstance(pos, SearchBottle) and not pos.trick
        live, coins = pos.live, pos.coins
        gone = [c for c in sorted(pos.setup.cards) if not live >> c & 1 and c < pos.prices[0]]
        pairs = [(a, b) for a, b in pairwise(gone) if not live & ((1 << b) - (1 << (a + 1))) and coins[a] != coins[b]]
        for a, b in pairs:
            for seat in range(pos.n):
                gains = Gains(pos, Escape(pos))
                exact = []
                for price in (a, b):
                    pos.prices[:], pos.owners[:] = [price], [seat]
                    value = minimax(pos, pos.order[seat])
                    gain = value - pos.won[seat] if value >= pos.won[seat] else FAILED
                    exact.append(gain)
                    assert gains.gain(seat, FAILED - 1, 1 << 20) == gain, (seed, seat, price)
                told += exact[0] != exact[1]
    assert told  # the price card's coins decided some player's gain


@pytest.mark.parametrize("seed", range(10))
def test_a_capped_escape_gives_the_same_answers(seed: int) -> None:
    """With tables of 2 entries a generation (`Escape` and `Gains`, whose entries are only at tricks' starts), they
    roll them over many times and answer every question of a random line as ones without a cap."""
    from imptools.rules.bottle_imp.escape import Escape, Gains
    from imptools.rules.bottle_imp.search import SearchBottle

    pos = endgame(4, seed, 4)
    assert isinstance(pos, SearchBottle)
    free, capped = Escape(pos), Escape(pos, table_cap=2)
    free_gains, capped_gains = Gains(pos, Escape(pos)), Gains(pos, Escape(pos), table_cap=2)
    rng = Random(seed)
    while not pos.done():
        for seat in range(pos.n):
            for gaining in (False, True):
                assert capped.escapes(seat, gaining) == free.escapes(seat, gaining)
            for b in range(1, 12):
                assert (capped_gains.gain(seat, b - 1, b) >= b) == (free_gains.gain(seat, b - 1, b) >= b)
        forced = pos.forced()
        pos.play(rng.choice(pos.legal()) if forced is None else forced)
    assert capped.nodes > free.nodes  # it forgot, and searched again
    assert capped_gains.nodes > free_gains.nodes


@pytest.mark.parametrize("seed", range(40))
def test_escape_built_inside_a_search_keys_as_one_built_at_the_start(seed: int) -> None:
    """`Escape` is built where a search first asks it, often deep in the tree: the cards played above that point
    still get their holders and colours in its keys once the search has taken them back."""
    from imptools.rules.bottle_imp.escape import Escape
    from imptools.rules.bottle_imp.search import SearchBottle

    pos = endgame(4, seed, 4)
    assert isinstance(pos, SearchBottle)
    search = Search(pos)
    for player in pos.order:
        search.value(player)
    built = pos._escape
    assert built is not None and built.nodes > 0
    fresh = Escape(pos)
    assert [built._order(seat) for seat in range(pos.n)] == [fresh._order(seat) for seat in range(pos.n)]


JUDGED = [(p, None, "random") for p in (3, 4, 5, 6)] + [(5, "second-bottle", "greedy"), (6, "second-bottle", "random")]
JUDGED += [(3, "lopaka", "random"), (4, None, "greedy"), (6, None, "greedy")]


@pytest.mark.parametrize(("players", "variant", "bot"), JUDGED)
def test_search_position_scores_as_the_checker(players: int, variant: str | None, bot: str) -> None:
    """The search position, played through simulated hands, reaches the checker's score for every player."""
    names = ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else NAMES[:players]
    text = "".join(simulate(Options("bottle-imp", names, variant, hands=8, seed=players, bot=bot)))
    (game,) = read_games(text)
    judged = judge_game(game)
    assert judged.all_findings() == []
    for hand in game.hands:
        found = played_hand(game, hand.number)
        assert not isinstance(found, str), found
        pos = found.position
        for _, player, card in found.plays:
            assert pos.to_move() == player and card in pos.legal()
            assert pos.forced() in (None, card)
            pos.play(card)
        assert pos.done()
        scores = judged.hands[hand.number - 1].scores
        assert scores is not None and {p: pos.result(p) for p in names} == scores


@pytest.mark.parametrize("seed", range(6))
def test_best_play_costs_nothing(seed: int) -> None:
    pos = endgame(4, seed, 4)
    start = len(pos._undo)  # type: ignore[attr-defined]
    cards = best_line(pos)
    while len(pos._undo) > start:  # type: ignore[attr-defined]
        pos.undo()
    search = Search(pos)
    for card in cards:
        if pos.forced() is None:
            player = pos.to_move()
            before, _ = search.choices(player)
            assert search.after(player, card) == before
        pos.play(card)


@pytest.mark.parametrize(
    ("players", "seed", "variant"), [(3, 4, None), (4, 3, None), (5, 1, "second-bottle"), (6, 2, "second-bottle")]
)
def test_choices_check_the_cards_lowest_first_and_keep_what_minimax_keeps(
    players: int, seed: int, variant: str | None
) -> None:
    """`Search.choices` checks the Bottle Imp's classes of cards in `checked`'s order: `groups`, lowest first (the
    order in which its escape search tries the cards of the side it asks about). Every class is checked once, and
    the cards it names as keeping the value are those after which plain minimax gives the position's value."""
    pos = endgame(players, seed, 2, variant)
    several = 0
    while not pos.done():
        if pos.forced() is None:
            player = pos.to_move()
            groups, checked = pos.groups(), pos.checked()  # type: ignore[attr-defined]
            assert sorted(checked) == sorted(groups)
            several += len(groups) > 1
            assert [g[0] for g in checked] == sorted(g[0] for g in groups)
            assert all(list(g) == sorted(g) for g in checked)
            value, keep = Search(pos).choices(player)
            assert value == minimax(pos, player)
            kept = []
            for card in pos.legal():
                pos.play(card)
                if minimax(pos, player) == value:
                    kept.append(card)
                pos.undo()
            assert keep == sorted(kept), (players, seed, variant, player)
        pos.play(pos.legal()[0])
    assert several  # some position had classes to put in order


def test_rulebook_example() -> None:
    with open(EXAMPLE, encoding="utf-8") as f:
        (game,) = read_games(f.read())
    a = analyse_hand(game, 1, 5)
    assert a.skipped is None and a.note is None
    assert [p.trick for p in a.plays][:1] == [5] and len(a.plays) == 16
    assert all(p.cost >= 0 and p.cost == p.value_before - p.value_after for p in a.plays)
    assert all((p.cost == 0) == (p.card in p.best) for p in a.plays)


def test_incomplete_hand_without_deals_is_skipped() -> None:
    text = '[Game "bottle-imp"]\n[Players "A B C D"]\nhand 1\n1. 24 15 17 32\n'
    (game,) = read_games(text)
    a = analyse_hand(game, 1)
    assert a.skipped is not None and "not all known" in a.skipped


def test_cli_text_and_json(tmp_path: object) -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["analyse", EXAMPLE, "--from-trick", "6", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    assert "trick 6" in out.output and "analysing" not in out.output  # no progress bar off a terminal
    out = runner.invoke(app, ["analyse", EXAMPLE, "--from-trick", "7", "--json", "--jobs", "1"])
    data = json.loads(out.output)
    plays = data["analyses"][0]["plays"]
    assert {"trick", "player", "card", "value_before", "value_after", "cost", "best"} <= set(plays[0])


def test_play_only_record_and_pool() -> None:
    text = "".join(simulate(Options("bottle-imp", NAMES[:4], None, hands=2, seed=5, deals=False)))
    games = list(read_games(text))
    tasks = tasks_for(games, from_trick=6)
    one = Runner(1).run(tasks)
    two = Runner(2).run(tasks)
    assert one == two and all(a.skipped is None and a.plays for a in one)


def test_results_come_in_order_and_tell_of_each_play() -> None:
    text = "".join(simulate(Options("bottle-imp", NAMES[:4], None, hands=3, seed=5)))
    tasks = tasks_for(list(read_games(text)), from_trick=6)
    heard: list[tuple[int, int, int]] = []
    runner = Runner(1)
    assert runner.in_process(tasks) and not Runner(2).in_process(tasks)
    streamed = list(runner.results(tasks, lambda task, done, total, stage: heard.append((task.hand, done, total))))
    assert streamed == Runner(2).run(tasks) and [a.hand for a in streamed] == [1, 2, 3]
    for a in streamed:
        told = [(done, total) for hand, done, total in heard if hand == a.hand]
        assert told == [(done, len(a.plays)) for done in range(len(a.plays) + 1)] and len(a.plays) == 12


def test_a_terminal_shows_progress_and_each_hand_as_it_is_done(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "three.imp"
    path.write_text("".join(simulate(Options("bottle-imp", NAMES[:4], None, hands=3, seed=5))))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    command = f"{sys.executable} -m imptools analyse {path} --from-trick 4 --jobs 1"
    child = pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=120, dimensions=(40, 150))
    try:
        child.expect("analysing 3 hands")  # the bar, drawn as soon as the work starts
        for hand in (1, 2, 3):
            child.expect(rf"game 1, hand {hand} \(every card visible, from trick 4")
            child.expect("total cost")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_cluster_gives_the_same_results() -> None:
    distributed = pytest.importorskip("distributed")
    text = "".join(simulate(Options("bottle-imp", NAMES[:4], None, hands=3, seed=9)))
    tasks = tasks_for(list(read_games(text)), from_trick=6)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = Runner(scheduler=cluster.scheduler_address).run(tasks)
    assert remote == Runner(1).run(tasks)


def test_a_hand_with_a_trick_line_written_twice_is_analysed_as_the_judging_reads_it() -> None:
    """`imp analyse` takes the trick lines as `imp validate` reads them (docs/decisions.md, "Trick lines out of
    place"): the rulebook's hand with its trick 5 written twice, or its tricks 6 and 7 swapped, costs what the hand
    written in order costs, play for play."""
    path = Path(__file__).resolve().parent / "conformance" / "bottle-imp" / "rulebook-example.imp"
    clean = path.read_text(encoding="utf-8")
    lines = clean.split("\n")
    tricks = [i for i, x in enumerate(lines) if x[:1].isdigit() and ". " in x]
    twice = [*lines[: tricks[4] + 1], lines[tricks[4]], *lines[tricks[4] + 1 :]]
    swapped = list(lines)
    swapped[tricks[5]], swapped[tricks[6]] = lines[tricks[6]], lines[tricks[5]]

    def costs(text: str) -> list[tuple[int, str, str, int]]:
        (game,) = read_games(text)
        found = analyse_hand(game, 1, from_trick=5)
        assert found.skipped is None
        return [(p.trick, p.player, p.card, p.cost) for p in found.plays]

    want = costs(clean)
    assert len(want) == 16 and costs("\n".join(twice)) == want and costs("\n".join(swapped)) == want
