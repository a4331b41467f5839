"""`imp analyse` on Botifarra: the search against a plain minimax over the checker's own position, the masks
against the checker's rules, costs of best play, the command, and hands that cannot be analysed."""

from __future__ import annotations

import json
from random import Random

import pytest
from typer.testing import CliRunner

from imptools.analyse import analyse_hand, played_hand
from imptools.cli.app import app
from imptools.reader import read_games
from imptools.record import Game
from imptools.rules.botifarra.calls import judge_calls, side_name
from imptools.rules.botifarra.cards import deck, suit_of, trick_winner
from imptools.rules.botifarra.duel import Duel, count_of, least_sum
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA, legal_cards
from imptools.rules.botifarra.position import BIT, CARD, SearchBotifarra, Solver, beats, legal_mask, mask_of
from imptools.rules.botifarra.ruleset import call_lines, hand_cards, hand_piles
from imptools.rules.botifarra.scoring import two_player_points
from imptools.rules.botifarra.setup import setup_of
from imptools.rules.botifarra.simulate import BotifarraPosition
from imptools.rules.exchange import after_exchange
from imptools.rules.tricks import hand_dealers
from imptools.search import Search, best_line
from imptools.simulate import Options, simulate

FOUR = ("Ana", "Bernat", "Carles", "Dolors")
RULES = (LLIURE, OBLIGADA, CARREGAR)
TABLES = [(t, r) for t in ("partnership", "individual", "three") for r in RULES]
TABLES += [("two", "rector-vicar"), ("two", "piles-and-hand")]
SAMPLE = "samples/botifarra-obligada-casal.imp"


def record(table: str, variant: str, seed: int, deals: bool = True) -> Game:
    """A simulated one-hand game at `table` (partnership, individual, three, two) under `variant`."""
    names = FOUR[:3] if table == "three" else FOUR[:2] if table == "two" else FOUR
    tags = (("Teams", "none"),) if table == "individual" else ()
    opts = Options("botifarra", names, variant, seed=seed, tags=tags, deals=deals)
    (game,) = read_games("".join(simulate(opts)))
    return game


def checker_position(game: Game) -> BotifarraPosition:
    """The hand's start as the checker's own position (the simulator's): its legal cards are `legal_cards`,
    its tricks `trick_winner`'s and its points the checker's tally."""
    setup = setup_of(game)
    assert setup is not None
    hand = game.hands[0]
    (dealer,) = hand_dealers(game, game.players)
    assert dealer is not None
    calls = judge_calls([c for c, _ in call_lines(setup, hand)], dealer, setup.seating)
    if setup.two_player:
        piles = {p: [list(pile) for pile in pl.piles] for p, pl in hand_piles(setup, hand).items()}
        hands = {p: set(hand_cards(setup, hand).get(p, set())) for p in setup.players}
        return BotifarraPosition(setup, dealer, calls.trump, hands, piles)
    return BotifarraPosition(setup, dealer, calls.trump, after_exchange(hand, setup.resolve))


def value(pos: BotifarraPosition, player: str) -> int:
    """Plain minimax over every legal card of the checker's position: no pruning, no tables, no groups.

    P's side (P and a partner) maximises P's side's points as the checker counts them, every other player
    minimises them."""
    seating = pos.setup.seating
    if pos.done():
        points = pos.points()
        return points[player] if pos.setup.two_player else points[side_name(seating.side(player))]
    values = []
    for c in pos.legal():
        pos.play(c)
        values.append(value(pos, player))
        pos.undo()
    return max(values) if pos.to_move() in seating.side(player) else min(values)


def endgame(game: Game, tricks_left: int) -> tuple[SearchBotifarra, BotifarraPosition, list[int]]:
    """The search's and the checker's positions `tricks_left` tricks before the end, and the record's plays."""
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    pos = found.position
    assert isinstance(pos, SearchBotifarra)
    slow = checker_position(game)
    cards = [c for _, _, c in found.plays]
    cut = len(cards) - tricks_left * pos.per_trick
    for c in cards[:cut]:
        pos.play(c)
        slow.play(c)
    return pos, slow, cards[cut:]


def tricks_left(table: str, rules: str, seed: int) -> int:
    """How far from the end a test starts: far enough to reach transpositions, near enough for plain minimax."""
    if table == "two":
        return 5 + seed % 2
    if table == "three":
        return 4 if rules != LLIURE and seed % 2 else 3
    return 3 if rules != LLIURE or seed % 2 else 2


CASES = [(t, r, s) for t, r in TABLES for s in range(22 if t != "two" else 60)]


@pytest.mark.parametrize(("table", "rules", "seed"), CASES)
def test_values_equal_plain_minimax(table: str, rules: str, seed: int) -> None:
    pos, slow, _ = endgame(record(table, rules, seed), tricks_left(table, rules, seed))
    search = Search(pos)
    rng = Random(seed)
    while not pos.done():
        player = pos.to_move()
        assert pos.legal() == slow.legal()
        best, keep = search.choices(player)
        assert best == value(slow, player)
        for card in pos.legal():
            pos.play(card)
            slow.play(card)
            exact = value(slow, player)
            assert search.value(player) == exact
            # the other players' values from the same table: the partner's equals it, an opponent's is apart
            other = pos.order[(pos.seat[player] + 1) % pos.n]
            assert search.value(other) == value(slow, other)
            pos.undo()
            slow.undo()
            assert (card in keep) == (exact == best)
        card = rng.choice(pos.legal())
        pos.play(card)
        slow.play(card)
    assert all(pos.result(p) == value(slow, p) for p in pos.order)


SOLVER_CASES = [(t, r, s) for t, r in TABLES if t != "two" for s in range(6)]


@pytest.mark.parametrize(("table", "rules", "seed"), SOLVER_CASES)
def test_solver_windows_equal_plain_minimax(table: str, rules: str, seed: int) -> None:
    """`Solver.gain` on its own, at a trick's start and inside a trick, for every null window and the whole one:
    exact inside the window, a bound on the side it fails, against plain minimax; one solver (its tables warm
    from the windows before) serves them all, for both sides."""
    pos, slow, plays = endgame(record(table, rules, 200 + seed), tricks_left(table, rules, seed))
    solver = Solver(pos.rules, pos.trump, pos.partner)
    for k in range(1 + seed % 3):  # 0-2 cards already lying in the trick
        pos.play(plays[k])
        slow.play(plays[k])
    for player in pos.order[:2]:
        seat = pos.seat[player]
        banked = pos.points(player)
        exact = value(slow, player) - banked
        state = (pos.hands, pos.live, pos.live_points, pos.leader, pos.trick, pos.winning, pos.wins_at, seat)
        assert solver.gain(*state, -1000, 1000) == exact
        for b in range(0, exact + 3):
            g = solver.gain(*state, b - 1, b)
            assert (g >= b) == (exact >= b)
            assert exact <= g if g < b else exact >= g  # fail-soft: a bound on the side it fails


def sum_value(pos: SearchBotifarra, seat: int) -> int:
    """Plain minimax of a two-player seat's sum (twice his card points and his tricks) over every legal card of
    the search position (whose legal cards are the checker's: `test_whole_hands_move_like_the_checker`)."""
    if pos.done():
        return 2 * pos.card_points[seat] + pos.tricks[seat]
    values = []
    for c in pos.legal():
        pos.play(c)
        values.append(sum_value(pos, seat))
        pos.undo()
    return max(values) if pos.seat[pos.to_move()] == seat else min(values)


@pytest.mark.parametrize(("variant", "seed"), [(v, s) for v in ("rector-vicar", "piles-and-hand") for s in range(12)])
def test_duel_windows_equal_plain_minimax(variant: str, seed: int) -> None:
    """`Duel.gain` on its own, at a trick's start and inside it, for every null window and the whole one: exact
    inside the window, a bound on the side it fails, against plain minimax of the sum; the count it rises with
    (`count_of`) is the checker's count under plain minimax. One solver serves both players."""
    pos, slow, plays = endgame(record("two", variant, 300 + seed), 4 + seed % 2)
    # the table as the analysis has it, one of four slots (every entry soon pushed out by another), and one that
    # starts with two slots and doubles up to 256 as it fills
    duels = [
        Duel(pos.rules, pos.trump, pos.under),
        Duel(pos.rules, pos.trump, pos.under, 4),
        Duel(pos.rules, pos.trump, pos.under, 256, 2),
    ]
    if seed % 3:
        pos.play(plays[0])
        slow.play(plays[0])
    tricks = sum(pos.tricks) + pos.live.bit_count() // 2
    total = 2 * (pos.live_points + sum(pos.card_points)) + tricks
    for player in pos.order:
        seat = pos.seat[player]
        banked = 2 * pos.card_points[seat] + pos.tricks[seat]
        exact = sum_value(pos, seat) - banked
        state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat)
        assert count_of(total, tricks, seat == 0, banked + exact) == value(slow, player)
        for duel in duels:
            assert duel.gain(*state, -1000, 1000) == exact
            for b in range(0, exact + 3):
                g = duel.gain(*state, b - 1, b)
                assert (g >= b) == (exact >= b)
                assert exact <= g if g < b else exact >= g
    assert len(duels[2].keys) > 2  # the growing table grew


def test_the_duel_table_keeps_every_entry_as_it_doubles() -> None:
    """`Duel`'s table doubles in place (`grow`): every entry it held is found after each doubling, with what was
    stored, and no other key appears."""
    rng = Random(5)
    duel = Duel("obligada", 1, [0] * 48, 64, 64)
    for _ in range(40):
        cards = sum(1 << b for b in rng.sample(range(48), rng.randrange(2, 48)))
        duel.store(cards | rng.randrange(2) << 48, rng.randrange(1 << 24))
    held = {duel.keys[i]: duel.vals[i] for i in range(len(duel.keys)) if duel.keys[i] >= 0}
    assert len(held) > 20
    duel.most = 1 << 10
    for size in (128, 256, 512):
        duel.grow()
        assert len(duel.keys) == len(duel.vals) == size
        assert {duel.keys[i] for i in range(size) if duel.keys[i] >= 0} == set(held)
        assert all(duel.find(k) == v for k, v in held.items())
    assert duel.find(max(held) + 1) == -1


def test_the_count_rises_with_the_sum() -> None:
    """The two-player count is a rising function of the sum (what lets the solver search the sum), and it is the
    scoring's count for every split of a whole hand's card points and tricks."""
    for tricks in range(25):
        for cards in range(61):
            own = 2 * cards + tricks
            want = two_player_points({"R": cards, "V": 60 - cards}, {"R": tricks, "V": 24 - tricks})["R"]
            assert count_of(144, 24, True, own) == want
    for total, tricks in ((144, 24), (37, 5), (40, 6)):
        for first in (True, False):
            counts = [count_of(total, tricks, first, own) for own in range(total + 1)]
            assert counts == sorted(counts)
            for c in range(counts[-1] + 2):
                least = least_sum(total, tricks, first, c)
                assert least == next((own for own, v in enumerate(counts) if v >= c), total + 1)


def test_masks_equal_the_checkers_rules() -> None:
    """`legal_mask` is `legal_cards` and `beats` is `trick_winner`, on thousands of random tricks."""
    rng = Random(7)
    cards = sorted(deck(4))
    assert sorted(CARD[BIT[c]] for c in cards) == cards
    for _ in range(6000):
        rng.shuffle(cards)
        lying = cards[: rng.randrange(4)]
        held = set(cards[4 : 4 + rng.randrange(1, 13)])
        if rng.random() < 0.5 and lying:
            held |= {c for c in cards[16:] if suit_of(c) == suit_of(lying[0])}  # often able to follow
        rules = rng.choice(RULES)
        trump = rng.choice((None, 0, 1, 2, 3))
        partner = bool(lying) and rng.random() < 0.3
        want = legal_cards(rules, trump, lying, partner, held)
        win = BIT[lying[trick_winner(lying, trump)]] if lying else -1
        led = suit_of(lying[0]) if lying else -1
        got = legal_mask(rules, -1 if trump is None else trump, led, win, partner, mask_of(held))
        assert got == mask_of(want), (rules, trump, lying, partner, held)
        if lying:
            card = next(iter(held))
            assert beats(BIT[card], win, -1 if trump is None else trump) == (
                trick_winner([*lying, card], trump) == len(lying)
            )


@pytest.mark.parametrize(("table", "rules"), TABLES)
def test_whole_hands_move_like_the_checker(table: str, rules: str) -> None:
    """Along whole simulated hands the search position offers the checker's legal cards and counts its points."""
    for seed in range(5):
        game = record(table, rules, 100 + seed)
        pos, slow, plays = endgame(game, 24 if table == "two" else 12)
        rng = Random(seed)
        for k in range(len(plays)):
            assert pos.legal() == slow.legal() and pos.to_move() == slow.to_move()
            card = plays[k] if seed % 2 else rng.choice(pos.legal())  # the record's plays, or random ones
            pos.play(card)
            slow.play(card)
            for p in pos.order:
                side = p if pos.two_player else side_name(slow.setup.seating.side(p))
                assert pos.points(p) == slow.points()[side] or pos.two_player
        assert pos.done() and slow.done()
        points = slow.points()
        for p in pos.order:
            assert pos.result(p) == (points[p] if pos.two_player else points[side_name(slow.setup.seating.side(p))])


@pytest.mark.parametrize(("table", "rules", "seed"), [(t, r, s) for t, r in TABLES for s in range(2)])
def test_best_play_costs_nothing(table: str, rules: str, seed: int) -> None:
    pos, _, _ = endgame(record(table, rules, 50 + seed), 6 if table == "two" else 4)
    start = len(pos._undo)
    cards = best_line(pos)
    while len(pos._undo) > start:
        pos.undo()
    search = Search(pos)
    for card in cards:
        player = pos.to_move()
        before, keep = search.choices(player)
        assert card in keep and search.after(player, card) == before
        pos.play(card)


def test_play_only_record_gives_the_same_analysis() -> None:
    """A complete hand's plays tell every card: the record without deal lines is analysed the same."""
    with_deals = analyse_hand(record("partnership", OBLIGADA, 3), 1, 9)
    plays_only = analyse_hand(record("partnership", OBLIGADA, 3, deals=False), 1, 9)
    assert with_deals.skipped is None and len(with_deals.plays) == 16
    assert plays_only.plays == with_deals.plays


def cut_hand(game_text: str, keep_tricks: int, drop_deal: str | None = None) -> Game:
    """The record's first hand with only its first `keep_tricks` tricks (and without one player's deal)."""
    lines = []
    for line in game_text.splitlines():
        head = line.split(".")[0]
        if (head.isdigit() and int(head) > keep_tricks) or line.startswith("score"):
            continue
        if drop_deal is not None and line.startswith(f"deal {drop_deal}"):
            continue
        lines.append(line)
    (game,) = read_games("\n".join(lines) + "\n")
    return game


def test_unknown_cards_are_skipped_with_the_reason() -> None:
    text = "".join(simulate(Options("botifarra", FOUR, OBLIGADA, seed=4)))
    # an incomplete hand with one deal missing: the rest of the deck is that player's
    one_missing = analyse_hand(cut_hand(text, 8, "Bernat"), 1, 7)
    assert one_missing.skipped is None and [p.trick for p in one_missing.plays] == [7] * 4 + [8] * 4
    # two deals missing, incomplete: skipped
    no_deals = "".join(simulate(Options("botifarra", FOUR, OBLIGADA, seed=4, deals=False)))
    skipped = analyse_hand(cut_hand(no_deals, 8), 1)
    assert skipped.skipped is not None and "not all known" in skipped.skipped and not skipped.plays
    # two players: the plays do not show the piles
    two = "".join(simulate(Options("botifarra", FOUR[:2], "rector-vicar", seed=4, deals=False)))
    (game,) = read_games(two)
    a = analyse_hand(game, 1, 22)
    assert a.skipped is not None and "piles" in a.skipped
    # no trump named
    notrump = "\n".join(ln for ln in text.splitlines() if not ln.startswith(("trump", "contro", "recontro", "sant")))
    (game,) = read_games(notrump + "\n")
    a = analyse_hand(game, 1, 11)
    assert a.skipped is not None and "trump" in a.skipped


def test_piles_and_hand_without_the_hand_line() -> None:
    """In a complete piles-and-hand hand, the cards in hand are the ones played from outside the piles."""
    text = "".join(simulate(Options("botifarra", FOUR[:2], "piles-and-hand", seed=6)))
    (whole,) = read_games(text)
    (partial,) = read_games("\n".join(ln for ln in text.splitlines() if not ln.startswith("deal Ana ")) + "\n")
    a, b = analyse_hand(whole, 1, 21), analyse_hand(partial, 1, 21)
    assert a.skipped is None and len(a.plays) == 8 and a.plays == b.plays


def test_a_play_that_breaks_a_rule_stops_the_analysis() -> None:
    with open("samples/botifarra-with-mistakes.imp", encoding="utf-8") as f:
        games = list(read_games(f.read()))
    notes = [analyse_hand(g, h.number, 12).note for g in games for h in g.hands]
    assert any(n is not None and "not a legal card" in n for n in notes)


def test_cli_text_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(app, ["analyse", SAMPLE, "--from-trick", "10", "--jobs", "1"])
    assert text.exit_code == 0, text.output
    out = runner.invoke(app, ["analyse", SAMPLE, "--from-trick", "10", "--json", "--jobs", "1"])
    data = json.loads(out.output)
    assert data["analyses"] and all(a["game"] == 1 for a in data["analyses"])
    plays = [p for a in data["analyses"] for p in a["plays"]]
    assert plays and all(p["cost"] == p["value_before"] - p["value_after"] >= 0 for p in plays)
    assert all((p["cost"] == 0) == (p["card"] in p["best"]) for p in plays)
    assert all(0 <= p["value_after"] <= p["value_before"] <= 72 for p in plays)
    assert {p["mark"] for p in plays if p["cost"] >= 5} <= {"?", "??"}
    costly = [p for p in plays if p["cost"]]
    assert costly, "the sample has costly plays from trick 10"
    for p in costly:  # the text lists each costly play on its own line, as the JSON values it
        assert f"trick {p['trick']}, {p['player']} {p['card']}{p['mark']}: cost {p['cost']}" in text.output


CAP = 20
"""Entries a generation in `test_a_capped_table_gives_the_same_values`."""


@pytest.mark.parametrize("seed", range(8))
def test_a_capped_table_gives_the_same_values(seed: int) -> None:
    """With tables of 20 entries a generation, the searches roll their tables over many times and still give
    every value and every best card of the last five tricks; no generation grows past the cap. (With three and
    four players the solver behind `answer` does nearly all the work, with tables of its own.)"""
    game = record("partnership", OBLIGADA, seed)
    pos, _, _ = endgame(game, 5)
    small, _, _ = endgame(game, 5)
    solver = small._solver = Solver(small.rules, small.trump, small.partner, cap=CAP)
    free, capped = Search(pos), Search(small, table_cap=CAP)
    rolled = False
    while not pos.done():
        player = pos.to_move()
        assert capped.choices(player) == free.choices(player)
        sizes = [(len(t), len(o)) for t, o in capped.tables.values()]
        sizes += [(len(t), len(o)) for t, o in solver.tables.values()]
        assert all(new <= CAP and old <= CAP + 1 for new, old in sizes)
        rolled = rolled or any(old for _, old in sizes)
        card = pos.legal()[seed % len(pos.legal())]
        pos.play(card)
        small.play(card)
    assert rolled


@pytest.mark.parametrize(("table", "rules"), [("partnership", OBLIGADA), ("two", "rector-vicar")])
def test_the_next_value_is_known_without_a_search(table: str, rules: str) -> None:
    """Two sides whose results add up to the same total: once a play's value and best cards are known, the
    value after a best card, for the next player, comes from the bounds passed along (no position searched),
    and equals plain minimax."""
    pos, slow, _ = endgame(record(table, rules, 7), 3 if table == "partnership" else 5)
    search = Search(pos)
    while not pos.done():
        player = pos.to_move()
        _, keep = search.choices(player)
        pos.play(keep[0])
        slow.play(keep[0])
        if pos.done():
            break
        nxt = pos.to_move()
        lo, hi = pos.known_bounds(nxt)
        visited = search.positions()
        assert lo == hi == search.value(nxt) == value(slow, nxt)
        assert search.positions() == visited
