"""The consistent worlds (`imptools.worlds`): against an obvious enumeration (every permutation of the unseen cards
to the unseen places, filtered by the two rules directly) on endgames of every game, the uniformity of the draws,
the seed, and records that cannot be dealt."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, permutations
from math import factorial
from random import Random

import pytest

from imptools.reader import read_games
from imptools.record import Game
from imptools.simulate import Options, simulate
from imptools.worlds import World, Worlds

TABLES = [
    ("bottle-imp", ("Adam", "Betty", "Carl"), None),
    ("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), None),
    ("bottle-imp", ("Adam", "Lopaka", "Carl"), "lopaka"),
    ("bottle-imp", ("Adam", "Betty"), "bright-house"),
    ("bottle-imp", ("Adam", "Betty"), "eye-of-the-demon"),
    ("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), "teams"),
    ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), None),
    ("botifarra", ("Ana", "Bernat", "Carles"), None),
    ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), "lliure"),
    ("botifarra", ("Ana", "Bernat"), "rector-vicar"),
    ("botifarra", ("Ana", "Bernat"), "piles-and-hand"),
    ("ninety-nine", ("Ann", "Bob", "Cy"), None),
]


def record(game: str, players: tuple[str, ...], variant: str | None, seed: int) -> Game:
    tags = (("Teams", "none"),) if game == "botifarra" and seed % 2 and len(players) == 4 else ()
    (g,) = read_games("".join(simulate(Options(game, players, variant, seed=seed, tags=tags))))
    return g


def obvious_worlds(w: Worlds) -> set[tuple[frozenset[int], ...]]:
    """Every way to lay the pool in the places (each permutation cut at the sizes), kept when every card the viewer
    passed is in its receiver's hand and every play made is legal, replayed from the world's deal."""
    deal = w.deal
    passed = {c: r for g, r, c in deal.passed if g == w.player}
    out: set[tuple[frozenset[int], ...]] = set()
    for perm in permutations(w.pool):
        cut: list[frozenset[int]] = []
        at = 0
        for size in w.sizes:
            cut.append(frozenset(perm[at : at + size]))
            at += size
        world = tuple(cut)
        if world in out:
            continue
        if any(c in passed and not (p.plays and p.owner == passed[c]) for p, cs in zip(w.places, world) for c in cs):
            continue
        starts = [p.cards for p in deal.places]
        for i, cards in zip(w.hidden, world):
            place = deal.places[i]
            starts[i] = cards | {
                c for _, who, c in w.history if who == place.owner and place.plays and c in place.cards
            }
        pos = deal.start(starts)
        ok = True
        for _, who, card in w.history:
            if pos.to_move() != who or card not in pos.legal():
                ok = False
                break
            pos.play(card)
        if ok:
            out.add(world)
    return out


def endgames() -> list[tuple[str, tuple[str, ...], str | None, int, int]]:
    cases = []
    for game, players, variant in TABLES:
        for seed in range(8):
            cases.append((game, players, variant, seed, 1 + seed % 3))
    return cases


@pytest.mark.parametrize(("game", "players", "variant", "seed", "back"), endgames())
def test_all_worlds_equal_the_obvious_enumeration(
    game: str, players: tuple[str, ...], variant: str | None, seed: int, back: int
) -> None:
    g = record(game, players, variant, seed)
    total = sum(len(t.plays) for t in g.hands[0].tricks)
    checked = 0
    most = 6 if len(players) == 2 else 7  # a two-player hand replays twice the plays
    for made in range(total - 1, 0, -1):
        w = Worlds.of(g, 1, made)
        assert not isinstance(w, str), w
        if len(w.pool) > most:
            break
        if w.player == "Lopaka":
            continue
        mine = w.all()
        assert len(set(mine)) == len(mine)
        assert {x.cards for x in mine} == obvious_worlds(w), (made, w.player)
        assert w.actual() in mine
        assert w.candidates() >= len(mine)
        checked += 1
    assert checked >= 2


def test_draws_are_uniform_over_the_consistent_worlds() -> None:
    """On endgames (voids and obligations shown), the draws hit every consistent world about equally."""
    tried = 0
    for seed in range(40):
        g = record("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), None, seed)
        total = len(g.hands[0].tricks) * 4
        for made in range(total - 9, total - 4):
            w = Worlds.of(g, 1, made)
            assert not isinstance(w, str)
            every = w.all()
            if not 4 <= len(every) <= 30:
                continue
            n = 300 * len(every)
            drawn = w.sample(n, Random(seed))
            assert len(drawn) == n
            counts = Counter(drawn)
            assert set(counts) <= set(every)
            for x in every:
                assert abs(counts[x] - 300) < 5 * 300**0.5, (seed, made, counts[x])
            tried += 1
        if tried >= 3:
            break
    assert tried >= 3


@pytest.mark.parametrize("variant", ["bright-house", "eye-of-the-demon"])
def test_two_pack_draws_are_uniform_and_keep_the_open_packs(variant: str) -> None:
    """A two-pack endgame: the other player's open pack is shown, never dealt; his hidden pack and discards are, and
    the draws hit every consistent world about equally."""
    tried = 0
    for seed in range(40):
        g = record("bottle-imp", ("Adam", "Betty"), variant, seed)
        for made in range(20, 26):
            w = Worlds.of(g, 1, made)
            assert not isinstance(w, str)
            other = "Betty" if w.player == "Adam" else "Adam"
            assert [(p.owner, p.plays) for p in w.places] == [(other, True), (other, False)]
            shown = [w.deal.places[i] for i in w.seen if w.deal.places[i].owner == other]
            assert len(shown) == 1 and shown[0].shown and shown[0].plays
            assert not shown[0].cards & set(w.pool)
            every = w.all()
            if not 4 <= len(every) <= 20:
                continue
            n = 300 * len(every)
            counts = Counter(w.sample(n, Random(seed)))
            assert set(counts) == set(every)
            for x in every:
                assert abs(counts[x] - 300) < 5 * 300**0.5, (seed, made, counts[x])
            tried += 1
            break
        if tried >= 2:
            break
    assert tried >= 2


def test_a_play_from_the_open_pack_proves_nothing_of_the_hidden_one() -> None:
    """Eye of the Demon: a player who did not follow from his open pack may still hold the led colour in his hidden
    pack; one who did not follow from his hidden pack holds none of it there, in every world."""
    checked = {"open": 0, "hidden": 0}
    for seed in range(30):
        g = record("bottle-imp", ("Adam", "Betty"), "eye-of-the-demon", seed)
        w = Worlds.of(g, 1, 28)
        assert not isinstance(w, str)
        deal = w.deal
        colour = deal.played.position.suit  # type: ignore[attr-defined]
        other = w.places[0].owner
        (k_open,) = [i for i in w.seen if deal.places[i].owner == other and deal.places[i].plays]
        every = w.all() if w.candidates() <= 20_000 else []
        for j, (_, who, card) in enumerate(w.history):
            led = w.history[j - j % 4][2]
            if who != other or j % 4 == 0 or colour[card] == colour[led]:
                continue
            later = {c for _, p, c in w.history[j + 1 :] if p == other}
            if card in deal.places[k_open].cards:
                # off colour from the open pack: a world may give his hidden pack the led colour then
                checked["open"] += any(colour[led] >> c & 1 for x in every for c in x.cards[0] | (later & w.spent[0]))
            else:
                for x in every:
                    held = x.cards[0] | (later & w.spent[0])
                    assert not any(colour[led] >> c & 1 for c in held), (seed, j)
                checked["hidden"] += bool(every)
    assert checked["open"] and checked["hidden"]


def test_same_seed_same_worlds_and_the_worlds_are_consistent() -> None:
    g = record("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), None, 5)
    w = Worlds.of(g, 1, 16)
    assert not isinstance(w, str)
    first = w.choose(50, seed=7)
    assert first == w.choose(50, seed=7)
    assert first != w.choose(50, seed=8)
    assert len(first) == 50
    assert all(w.position(x) is not None for x in first)
    assert all(sum(len(c) for c in x.cards) == len(w.pool) for x in first)
    swapped = list(w.actual().cards)
    hands = [k for k, p in enumerate(w.places) if p.plays]
    a, b = hands[0], hands[1]
    card = min(swapped[a])
    # a card that another player showed he lacked, moved to him, breaks rule (2) or a size
    swapped[a], swapped[b] = swapped[a] - {card}, swapped[b] | {card}
    assert w.position(World(tuple(swapped))) is None or len(swapped[b]) != w.sizes[b]


def test_a_card_passed_stays_with_its_receiver() -> None:
    g = record("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), None, 2)
    deal_passes = [(giver, receiver, c) for giver, receiver, c in Worlds.of(g, 1, 0).deal.passed]  # type: ignore[union-attr]
    w = Worlds.of(g, 1, 0, "Adam")
    assert not isinstance(w, str)
    mine = [(r, c) for giver, r, c in deal_passes if giver == "Adam"]
    assert len(mine) == 2
    for x in w.choose(30, seed=1):
        for receiver, c in mine:
            (k,) = [k for k, p in enumerate(w.places) if p.owner == receiver and p.plays]
            assert c in x.cards[k]


def test_what_the_viewer_sees_is_not_dealt() -> None:
    g = record("ninety-nine", ("Ann", "Bob", "Cy"), None, 4)
    w = Worlds.of(g, 1, 5, "Bob")
    assert not isinstance(w, str)
    owners = {(p.owner, p.plays) for p in w.places}
    assert ("Bob", True) not in owners and ("Bob", False) not in owners
    assert all(p.owner is not None for p in w.places)  # the turn-up is shown
    seen_cards = {c for i in w.seen for c in w.deal.places[i].cards}
    assert not seen_cards & set(w.pool)
    assert not {c for _, _, c in w.history} & set(w.pool)


def test_records_without_every_deal_line_are_refused_with_the_reason() -> None:
    text = "".join(simulate(Options("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), seed=1)))
    cut = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("deal Bernat"))
    (g,) = read_games(cut)
    found = Worlds.of(g, 1, 4)
    assert isinstance(found, str) and "deal line" in found and "Bernat" in found
    text = "".join(simulate(Options("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), seed=1)))
    cut = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("discard Carl"))
    (g,) = read_games(cut)
    found = Worlds.of(g, 1, 4)
    assert isinstance(found, str) and "Carl 9" in found


@pytest.mark.parametrize("variant", ["rector-vicar", "piles-and-hand"])
def test_draws_are_uniform_on_two_player_tables(variant: str) -> None:
    """The places every card may lie in alike (the cards under the piles, a hand that showed no void) are dealt as
    one class, then shared out: still every consistent world about equally often."""
    tried = 0
    for seed in range(40):
        g = record("botifarra", ("Ana", "Bernat"), variant, seed)
        for made in range(36, 44):
            w = Worlds.of(g, 1, made)
            assert not isinstance(w, str)
            every = w.all()
            if not 4 <= len(every) <= 30 or all(len(kind) == 1 for kind in w.kinds):
                continue
            n = 300 * len(every)
            drawn = w.sample(n, Random(seed))
            assert len(drawn) == n
            counts = Counter(drawn)
            assert set(counts) == set(every)
            for x in every:
                assert abs(counts[x] - 300) < 5 * 300**0.5, (seed, made, counts[x])
            tried += 1
        if tried >= 3:
            break
    assert tried >= 3


def pile_lines(g: Game) -> dict[str, list[list[str]]]:
    """Each player's piles as the record's `deal NAME.P` lines write them, top card first."""
    out: dict[str, list[list[str]]] = {}
    for deal in g.hands[0].deals:
        if deal.player.pack is not None:
            out.setdefault(deal.player.name, []).append([c.text for c in deal.cards])
    return out


def test_the_cards_under_the_piles_are_unseen_by_both_players_until_turned_up() -> None:
    """Rector-vicar: the unseen cards are exactly those under a pile card not yet played, the viewer's own piles
    too; nothing played before shows where they lie, so every way to lay them is a consistent world."""
    for seed in range(6):
        g = record("botifarra", ("Ana", "Bernat"), "rector-vicar", seed)
        for made in (0, 11, 30, 41, 44):
            w = Worlds.of(g, 1, made)
            assert not isinstance(w, str)
            spell = w.deal.played.position.spell
            gone = {spell(c) for _, _, c in w.history}
            under = {
                card
                for piles in pile_lines(g).values()
                for pile in piles
                for above, card in pairwise(pile)
                if above not in gone
            }
            assert {spell(c) for c in w.pool} == under
            assert all(p.under is not None and len(p.cards) == 1 for p in w.places)
            assert {p.owner for p in w.places} <= {"Ana", "Bernat"}
            assert w.candidates() == factorial(len(w.pool))
            if len(w.pool) <= 5:
                assert len(w.all()) == factorial(len(w.pool))


def test_piles_and_hand_the_other_hand_is_unseen_and_the_own_hand_seen() -> None:
    g = record("botifarra", ("Ana", "Bernat"), "piles-and-hand", 3)
    for made in (0, 9, 20, 33):
        w = Worlds.of(g, 1, made)
        assert not isinstance(w, str)
        hands = [p for p in w.places if p.plays]
        assert [p.owner for p in hands] == [next(q for q in ("Ana", "Bernat") if q != w.player)]
        mine = next(p for p in w.deal.places if p.plays and p.owner == w.player)
        assert not mine.cards & set(w.pool)
        # every world gives the other player a hand of the size he holds now and keeps the pile cards one a place
        for x in w.choose(20, seed=1):
            assert [len(c) for c in x.cards] == list(w.sizes)
            assert w.position(x) is not None
