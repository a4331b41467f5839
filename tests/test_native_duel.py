"""Botifarra's two-player solver in C (`cduel`, built by hatch_build.py's `NATIVE`) against the Python class it ports
(`duel.Duel`): the same tables, the same rules of play, the same table behaviour, and on many dealt positions the
very values and positions visited (`nodes`), window by window.

The C module is the installed package's where the build made it (then it must be there wherever the build could
compile it); an editable or pure install has none, and the source is compiled here on its own to be compared.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sysconfig
from collections import Counter
from collections.abc import Callable
from itertools import product
from pathlib import Path
from random import Random
from types import ModuleType
from typing import Any

import pytest

from imptools.analyse import played_hand
from imptools.reader import read_games
from imptools.rules.botifarra import duel as python_duel
from imptools.rules.botifarra.masks import POINT_MASK, POINTS_OF, SUIT_MASK, beats, coded, legal_coded
from imptools.rules.botifarra.obligations import TABLES
from imptools.rules.botifarra.position import SearchBotifarra
from imptools.rules.botifarra.search import TRUMPS, start_cards
from imptools.simulate import Options, simulate
from tests.test_compiled_search import build_native, can_compile, installed, native_origin, native_source

MODULE = "imptools.rules.botifarra.cduel"
SOURCE = native_source(MODULE)
VARIANTS = ("rector-vicar", "piles-and-hand")


def load(path: Path) -> ModuleType:
    """The extension at `path`, imported on its own (not as the package's module)."""
    spec = importlib.util.spec_from_file_location("cduel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cduel(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The installed package's C module, else the source compiled here; skipped only without a compiler (CI has
    one: there it fails)."""
    where = tmp_path_factory.mktemp("cduel")
    _, origin = native_origin(MODULE, where)
    if origin:
        return load(Path(origin))
    if not can_compile():
        if os.environ.get("CI"):
            pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
        pytest.skip("no C compiler here to build the C solver")
    return load(build_native(SOURCE, where))


def test_the_installed_duel_is_built_where_the_build_could_build_it(tmp_path: Path) -> None:
    """A compiled install has the C module (its stub beside it) and the position uses it; a pure or editable one
    has none and the position uses the Python class."""
    editable, origin = native_origin(MODULE, tmp_path)
    if os.environ.get("CI") and not can_compile():
        pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
    chosen = installed(
        ["-c", "import imptools.rules.botifarra.position as p; print(p.Duel.__module__)"], tmp_path
    ).strip()
    if editable or os.environ.get("IMPTOOLS_PURE") or not can_compile():
        assert origin == "", origin
        assert chosen == "imptools.rules.botifarra.duel"
    else:
        assert origin.endswith("cduel" + str(sysconfig.get_config_var("EXT_SUFFIX"))), origin
        assert chosen == "imptools.rules.botifarra.cduel"
        assert Path(origin).with_name("cduel.pyi").is_file()  # its types ship beside it


def test_the_tables_and_the_rules_of_play_are_the_python_ones(cduel: ModuleType) -> None:
    """The C tables written out are masks.py's; `beats` and `legal_coded` agree with masks.py's on every card pair
    and on many random holdings, for every obligation table, trump and winning card."""
    assert cduel.POINTS_OF == POINTS_OF
    assert cduel.SUIT_MASK == SUIT_MASK
    assert cduel.POINT_MASK == POINT_MASK
    assert (cduel.DUEL_SLOTS, cduel.FIRST_SLOTS) == (python_duel.DUEL_SLOTS, python_duel.FIRST_SLOTS)
    for trump in range(-1, 4):
        for card in range(48):
            for winning in range(48):
                assert cduel.beats(card, winning, trump) == beats(card, winning, trump)
    rng = Random(11)
    cells = sorted({coded(rules) for rules in TABLES})
    assert len(cells) == 3
    for _ in range(20000):
        held = rng.getrandbits(48) & rng.getrandbits(48)
        args = (rng.choice(cells), rng.randrange(-1, 4), rng.randrange(-1, 4), rng.randrange(48), rng.random() < 0.3)
        assert cduel.legal_coded(*args, held) == legal_coded(*args, held), args
    for _ in range(2000):
        key = rng.getrandbits(48) | rng.randrange(2) << 48
        mask = (1 << rng.randrange(1, 26)) - 1
        assert cduel.slot_of(key, mask) == python_duel.slot_of(key, mask)


def test_the_table_stores_replaces_and_doubles_as_the_python_one(cduel: ModuleType) -> None:
    """The same keys stored into both tables (small, so that pairs fill, entries are replaced and the tables
    double): the same entries are found, the same slots taken, the same size reached."""
    rng = Random(3)
    for most, first in ((1 << 12, 2), (1 << 10, 64), (8, 8)):
        c = cduel.Duel("lliure", 2, [0] * 48, most, first)
        p = python_duel.Duel("lliure", 2, [0] * 48, most, first)
        keys = [rng.getrandbits(48) & rng.getrandbits(48) | rng.randrange(2) << 48 for _ in range(600)]
        for key in keys + rng.sample(keys, 200):
            entry = rng.randrange(1 << 24)
            c.store(key, entry)
            p.store(key, entry)
            assert (c.slots, c.taken) == (len(p.keys), p.taken)
        assert [c.find(k) for k in keys] == [p.find(k) for k in keys]
        assert sum(c.find(k) >= 0 for k in keys) > (100 if most > 8 else 0)
    c = cduel.Duel("obligada", 1, [0] * 48, 1 << 10, 64)
    for key in range(12):
        c.store(key * 0x1234567, key)
    c.grow()
    assert c.slots == 128 and all(c.find(key * 0x1234567) == key for key in range(12))


def hand_start(variant: str, seed: int, trick: int) -> SearchBotifarra:
    """A simulated two-player hand played by its record to trick `trick`'s start."""
    opts = Options("botifarra", ("Adam", "Betty"), variant, hands=1, seed=seed)
    (game,) = read_games("".join(simulate(opts)))
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    pos = found.position
    assert isinstance(pos, SearchBotifarra)
    for t, _, card in found.plays:
        if t >= trick:
            break
        pos.play(card)
    return pos


def with_trump(pos: SearchBotifarra, trump: int | None) -> SearchBotifarra:
    """The same cards at a trick's start, under another trump (as the trump table values each)."""
    held, piles = start_cards(pos)
    order = pos.order[pos.leader :] + pos.order[: pos.leader]
    return SearchBotifarra(pos.setup, order, trump, held, piles)


def windows(rng: Random) -> list[tuple[int, int]]:
    """The whole window, null windows low and high, and narrow and wide ones."""
    out = [(-1000, 1000), (-(1 << 40), 1 << 40)]
    for _ in range(3):
        b = rng.randrange(0, 150)
        out.append((b - 1, b))
    for _ in range(2):
        a = rng.randrange(-5, 140)
        out.append((a, a + rng.choice((2, 5, 30, 200))))
    return out


def compare(cduel: ModuleType, pos: SearchBotifarra, rules: str, rng: Random, slots: tuple[int, ...] = ()) -> int:
    """Both solvers asked the same windows from `pos` for both seats, in turn on one table each: the same value
    and the same positions visited after every window. The positions visited, all told."""
    c: Any = cduel.Duel(rules, pos.trump, pos.under, *slots)
    p = python_duel.Duel(rules, pos.trump, pos.under, *slots)
    for seat in (0, 1):
        for alpha, beta in windows(rng):
            state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat, alpha, beta)
            want = p.gain(*state)
            assert c.gain(*state) == want, (rules, pos.trump, seat, alpha, beta)
            assert c.nodes == p.nodes, (rules, pos.trump, seat, alpha, beta)
            if not pos.trick:
                assert c.masters(pos.leader) == p.masters(pos.leader)
    assert c.slots == len(p.keys) and c.taken == p.taken
    return int(p.nodes)


@pytest.mark.parametrize("variant", VARIANTS)
def test_endgames_visit_the_positions_of_the_python_duel(cduel: ModuleType, variant: str) -> None:
    """Hundreds of endgames, 3 to 7 tricks left, at a trick's start and after its first card, under every trump
    and every obligation table, with the analysis's table and with small ones that replace and double: the C
    solver gives every value and counts every position the Python one does."""
    rng = Random(variant)
    visited = 0
    cases = 0
    for seed in range(24):
        start = hand_start(variant, 500 + seed, 15 + seed % 6)
        for word, trump in TRUMPS:
            pos = with_trump(start, trump)
            if (seed + len(word)) % 2:
                pos.play(rng.choice(pos.legal()))  # mid-trick: the other to move
            rules = list(TABLES)[(seed + len(word)) % 3]
            slots = rng.choice(((), (4,), (256, 2), (1 << 12, 16)))
            visited += compare(cduel, pos, rules, rng, slots)
            cases += 1
    assert cases == 120 and visited > 100000


@pytest.mark.parametrize("variant", VARIANTS)
def test_later_tricks_visit_the_positions_of_the_python_duel(cduel: ModuleType, variant: str) -> None:
    """Deeper searches, from trick 13 on (the table fills, doubles and replaces): the same values and positions."""
    rng = Random(variant + "deep")
    for seed, trump in ((1, 0), (2, None)):
        pos = with_trump(hand_start(variant, 700 + seed, 13), trump)
        compare(cduel, pos, "lliure", rng, (1 << 10, 2))


WHOLE = [
    ("rector-vicar", 1, 0, (30, 100, 115)),
    ("rector-vicar", 1, None, (10, 100)),
    ("rector-vicar", 2, 0, (30, 130)),
    ("rector-vicar", 2, None, (30, 130)),
    ("piles-and-hand", 1, 0, (30, 45)),
    ("piles-and-hand", 1, None, (100,)),
    ("piles-and-hand", 2, 0, (45,)),
    ("piles-and-hand", 2, None, (30,)),
]
"""Whole hands from trick 1, a trump and botifarra each, with null windows on the sum far enough from the value
for the pure Python solver to answer in a few seconds (those near it take millions of positions)."""


@pytest.mark.parametrize(("variant", "seed", "trump", "bounds"), WHOLE)
def test_whole_hands_visit_the_positions_of_the_python_duel(
    cduel: ModuleType, variant: str, seed: int, trump: int | None, bounds: tuple[int, ...]
) -> None:
    """From a whole hand's first trick, one table each kept across the windows as the analysis keeps it, both
    seats: the same answers and the same positions visited, in the tens of thousands."""
    pos = with_trump(hand_start(variant, seed, 1), trump)
    c: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    p = python_duel.Duel(pos.rules, pos.trump, pos.under)
    total = 2 * pos.live_points + pos.live.bit_count() // 2
    for b in bounds:
        for seat, bound in ((0, b), (1, total + 1 - b)):
            state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat, bound - 1, bound)
            assert c.gain(*state) == p.gain(*state), (seat, bound)
            assert c.nodes == p.nodes, (seat, bound)
    assert c.slots == len(p.keys) and c.taken == p.taken
    assert p.nodes > 4000


class Stop(Exception):
    """Raised by the test's signal handler."""


def stopped_within(call: Callable[[], object]) -> None:
    """`call` interrupted after 0.2 s by a signal whose handler raises (as Ctrl-C raises KeyboardInterrupt): the
    handler's exception comes out of it."""

    def stop(signum: int, frame: object) -> None:
        raise Stop

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(Stop):
            call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_a_signal_stops_the_search_and_the_solver_stays_sound(cduel: ModuleType) -> None:
    """A search of millions of positions stopped by a signal's handler (as Ctrl-C raises KeyboardInterrupt): the
    handler's exception comes out of `gain` before the search is done, and the solver answers after it as the
    Python class does."""
    pos = with_trump(hand_start("rector-vicar", 1, 1), None)
    c: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 0)
    stopped_within(lambda: c.gain(*state, 59, 60))  # some 54M positions: seconds
    whole: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    whole.gain(*state, 59, 60)
    assert 0 < c.nodes < whole.nodes  # stopped within the search, not after it
    p = python_duel.Duel(pos.rules, pos.trump, pos.under)
    assert c.gain(*state, 9, 10) == p.gain(*state, 9, 10) == 10


# --------------------------------------------------------------------------- the table of exact values

EXACT = 1 << 26
"""The analysis's `position.DUEL_EXACT`: every trick start of a `rector-vicar` hand, the last tricks' of a
`piles-and-hand` one."""


RECTOR_VICAR_TRICK_STARTS = 2 * sum(n * n for n in Counter(sum(lost) for lost in product(range(5), repeat=6)).values())
"""Every trick start of a whole `rector-vicar` hand: two states of six piles of four that have lost as many cards
between them (a level), and the leader."""


def walk_both(cduel: ModuleType, pos: SearchBotifarra, rules: str, rng: Random, plays: int) -> tuple[Any, Any]:
    """A solver with the table of exact values (worked out at once) and one without, asked the same windows along
    `plays` random legal plays from `pos`, for both seats: the same value for the whole window, and for a null
    window a result on the same side of it that bounds the value as fail-soft asks (at least the value where the
    search failed low, at most it where it failed high)."""
    exact: Any = cduel.Duel(rules, pos.trump, pos.under, exact=EXACT, exact_after=0)
    plain: Any = cduel.Duel(rules, pos.trump, pos.under)
    for _ in range(plays):
        for seat in (0, 1):
            state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, seat)
            value = plain.gain(*state, -1000, 1000)
            assert exact.gain(*state, -1000, 1000) == value, (seat, pos.live)
            for bound in (value - 1, value, value + 1, rng.randrange(0, 150)):
                got = exact.gain(*state, bound - 1, bound)
                assert (got >= bound) == (value >= bound)
                assert value <= got if got < bound else value >= got
        if not pos.live:
            break
        pos.play(rng.choice(pos.legal()))
    return exact, plain


@pytest.mark.parametrize(("variant", "trick"), [("rector-vicar", 1), ("rector-vicar", 9), ("piles-and-hand", 15)])
def test_the_table_of_exact_values_gives_the_searchs_values_everywhere(
    cduel: ModuleType, variant: str, trick: int
) -> None:
    """Whole hands from trick 1 and later tricks, a trump and botifarra each, every play rule: a solver that works
    out the trick starts' exact values first answers every window as the one that searches them, play after play
    to the hand's end, with far fewer positions visited."""
    rng = Random(variant + str(trick))
    for seed, (word, trump) in zip((1, 2, 3), (TRUMPS[0], TRUMPS[-1], TRUMPS[2]), strict=True):
        pos = with_trump(hand_start(variant, 40 + seed, trick), trump)
        rules = list(TABLES)[seed % 3]
        exact, plain = walk_both(cduel, pos, rules, rng, 48)
        assert exact.exact > 0, (word, rules)
        assert exact.nodes < plain.nodes, (word, rules)
    if variant == "rector-vicar" and trick == 1:
        assert exact.exact == RECTOR_VICAR_TRICK_STARTS


def test_a_pile_broken_by_a_card_played_from_under_it_is_searched(cduel: ModuleType) -> None:
    """A card played from inside a pile (`not-visible`: it leaves the pile, whose top card stays up) leaves cards
    that no legal play leaves: the table does not hold that position, and the solver searches it, with the plain
    search's value."""
    pos = with_trump(hand_start("rector-vicar", 7, 4), 1)
    exact: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=EXACT, exact_after=0)
    plain: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 0, -1000, 1000)
    assert exact.gain(*state) == plain.gain(*state) and exact.exact > 0
    seat = pos.leader
    inside = next(b for b in range(48) if pos.hands[seat] >> b & 1 and not pos.free[seat] >> b & 1 and pos.under[b])
    hands = list(pos.hands)
    hands[seat] ^= 1 << inside
    other = 1 - seat
    answer = pos.free[other] & -pos.free[other]  # any card of the other's, as the trick's second
    hands[other] ^= answer
    free = [pos.free[0], pos.free[1]]
    free[other] = (free[other] ^ answer) | pos.under[answer.bit_length() - 1]
    live = pos.live ^ (1 << inside) ^ answer
    points = pos.live_points - POINTS_OF[inside] - POINTS_OF[answer.bit_length() - 1]
    before = exact.nodes
    for seat_asked in (0, 1):
        broken = (hands, free, live, points, pos.leader, [], seat_asked, -1000, 1000)
        assert exact.gain(*broken) == plain.gain(*broken)
    assert exact.nodes - before > 1000  # searched, not read from the table


def test_a_signal_while_the_table_is_worked_out_stops_it_and_the_solver_stays_sound(cduel: ModuleType) -> None:
    """The table of a whole `rector-vicar` hand takes seconds: a signal's handler that raises meanwhile comes out of
    `gain`, and the next `gain` works the table out again and answers as the plain search."""
    pos = with_trump(hand_start("rector-vicar", 1, 1), None)
    c: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=EXACT, exact_after=0)
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 0)
    stopped_within(lambda: c.gain(*state, -1000, 1000))  # the table: seconds
    assert c.exact == 0
    plain: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    assert c.gain(*state, -1000, 1000) == plain.gain(*state, -1000, 1000)
    assert c.exact > 0 and c.nodes == 1


def test_no_table_is_kept_where_even_the_last_trick_is_too_many(cduel: ModuleType) -> None:
    """`exact` caps the values worked out: below the last trick's two, none are, and the solver searches."""
    pos = with_trump(hand_start("piles-and-hand", 3, 20), 2)
    small: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=1)
    plain: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 1, -1000, 1000)
    assert small.gain(*state) == plain.gain(*state)
    assert small.exact == 0 and small.nodes == plain.nodes
    with pytest.raises(ValueError, match="exact"):
        cduel.Duel(pos.rules, pos.trump, pos.under, exact=-1)
    with pytest.raises(ValueError, match="exact_after"):
        cduel.Duel(pos.rules, pos.trump, pos.under, exact=EXACT, exact_after=-2)


@pytest.mark.parametrize(
    ("variant", "trick", "trump", "worked_out"), [("rector-vicar", 4, 1, False), ("rector-vicar", 1, None, True)]
)
def test_the_table_is_worked_out_only_once_the_search_has_spent_what_it_costs(
    cduel: ModuleType, variant: str, trick: int, trump: int | None, worked_out: bool
) -> None:
    """As the analysis asks (`exact_after` left to the solver): from a hand's middle, a search shorter than the
    table's values (trick 4: 8.0M positions, 10.6M trick starts from there) never pays for it and visits the plain
    search's very positions; from a whole hand's first trick (without a trump) the search stops after an eighth of
    the table's values in positions, works the table out and answers from it, the plain search's value for far
    fewer positions."""
    pos = with_trump(hand_start(variant, 2, trick), trump)
    c: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=EXACT)
    plain: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 0, -1000, 1000)
    assert c.gain(*state) == plain.gain(*state)
    if worked_out:
        assert c.exact == RECTOR_VICAR_TRICK_STARTS
        assert c.exact // 8 <= c.nodes <= c.exact // 8 + (1 << 16)
        assert c.nodes < plain.nodes // 5
    else:
        assert c.exact == 0 and c.nodes == plain.nodes


def test_a_table_of_the_last_tricks_alone_is_worked_out_only_where_asked(cduel: ModuleType) -> None:
    """Where every trick start from the position would pass `exact`, a table of the last tricks alone is made only
    where `exact_after` asks for one (as measured, it cost more than it saved from a hand's middle): by default the
    solver searches as the plain one does."""
    pos = with_trump(hand_start("piles-and-hand", 2, 12), 1)  # 208,484 trick starts from here
    state = (pos.hands, pos.free, pos.live, pos.live_points, pos.leader, pos.trick, 0, -1000, 1000)
    plain: Any = cduel.Duel(pos.rules, pos.trump, pos.under)
    value = plain.gain(*state)
    default: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=10_000)
    asked: Any = cduel.Duel(pos.rules, pos.trump, pos.under, exact=10_000, exact_after=0)
    assert default.gain(*state) == asked.gain(*state) == value
    assert default.exact == 0 and default.nodes == plain.nodes
    assert 0 < asked.exact <= 10_000 and asked.nodes < plain.nodes
