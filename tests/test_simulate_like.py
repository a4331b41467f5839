"""`imp simulate --like FILE --hand N --seat NAME`: a recorded hand dealt again, what the seat saw at the deal kept.

What a seat sees when the deal is complete, written out here for each table from the notation (independently of
`seen_at_deal`): his own dealt cards (both packs in the two-pack games); in `lopaka` Lopaka's open hand; in the Eye of
the Demon every player's pack 1, open from the deal; in Ninety-nine the turn-up; in two-player Botifarra the top card
of every pile. Bright House's open packs are opened after the exchange: not seen at the deal.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.record import Game, Hand
from imptools.rules import get_ruleset
from imptools.simulate import Options, SimulationError, like, seats, simulate

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.imp"))
CLEAN = sorted((ROOT / "tests" / "conformance").glob("*/*-clean-*.imp"))

TABLES = [
    ("bottle-imp", "3", None, ()),
    ("bottle-imp", "4", None, ()),
    ("bottle-imp", "5", None, ()),
    ("bottle-imp", "6", None, ()),
    ("bottle-imp", "4", "teams", ()),
    ("bottle-imp", "5", "teams", ()),
    ("bottle-imp", "6", "teams-2-2-1-1", ()),
    ("bottle-imp", "5", "second-bottle", ()),
    ("bottle-imp", "6", "second-bottle", ()),
    ("bottle-imp", "3", "lopaka", ()),
    ("bottle-imp", "2", "bright-house", ()),
    ("bottle-imp", "2", "eye-of-the-demon", ()),
    ("botifarra", "4", None, ()),
    ("botifarra", "4", "lliure", ()),
    ("botifarra", "4", "carregar", (("Teams", "none"),)),
    ("botifarra", "3", None, ()),
    ("botifarra", "2", "rector-vicar", ()),
    ("botifarra", "2", "piles-and-hand", ()),
    ("ninety-nine", "3", None, ()),
]


def game_of(text: str) -> Game:
    (game,) = read_games(text)
    return game


def lines_of(game: Game, hand: Hand) -> dict[str, list[int]]:
    """The hand's deal lines (place -> engine cards, in written order) and its turn-up (`turnup`)."""
    ruleset = get_ruleset(game.game_name or "")
    assert ruleset is not None
    sim = ruleset.simulator(game)
    assert sim is not None

    def card(text: str) -> int:
        found = sim.card(text)
        assert found is not None, text
        return found

    out = {str(d.player): [card(c.text) for c in d.cards] for d in hand.deals}
    for t in hand.turnups:
        out["turnup"] = [card(t.card.text)]
    return out


def seen(game: Game, hand: Hand, seat: str) -> dict[str, list[int]]:
    """What `seat` saw when the deal of `hand` was complete, by the notation's rules (KeyError: a line missing)."""
    lines, variant = lines_of(game, hand), game.tag("Variant")
    if game.game_name == "bottle-imp":
        shown = {seat, "Lopaka"} if variant == "lopaka" else {seat}
        places = [p for p in lines if p.partition(".")[0] in shown]
        if variant == "eye-of-the-demon":
            places += [p for p in lines if p.endswith(".1") and p not in places]
        if not any(p.partition(".")[0] == seat for p in places):
            raise KeyError(seat)
        return {p: sorted(lines[p]) for p in places}
    if game.game_name == "botifarra":
        piles = {p: lines[p][:1] for p in lines if "." in p}
        return {**piles, seat: sorted(lines[seat])} if len(game.players) > 2 or seat in lines else piles
    return {seat: sorted(lines[seat]), "turnup": lines["turnup"]}


def unseen(game: Game, hand: Hand, seat: str) -> dict[str, list[int]]:
    """Every other dealt card of the hand by place (the cards under the tops of piles too)."""
    lines, shown = lines_of(game, hand), seen(game, hand, seat)
    return {p: sorted(c for c in cards if c not in shown.get(p, ())) for p, cards in lines.items()}


def dealer_of(game: Game, hand: Hand) -> str | None:
    return judge_game(game).hands[game.hands.index(hand)].dealer


def check_like(record: Game, hand: Hand, seat: str, bot: str = "random") -> list[Game]:
    """Deal `hand` of `record` again as `seat` saw it, with `bot` and three seeds; check each new game; return them."""
    made = []
    for seed in (1, 2, 3):
        text = "".join(simulate(like([record], str(hand.number), seat, Options("", (), hands=3, seed=seed, bot=bot))))
        game = game_of(text)
        result = judge_game(game)
        assert result.all_findings() == [], text
        assert all(h.scores is not None for h in result.hands)
        assert game.game_name == record.game_name and game.players == record.players
        assert game.tag("Variant") == record.tag("Variant")
        for new in game.hands:
            assert dealer_of(game, new) == dealer_of(record, hand)
            assert seen(game, new, seat) == seen(record, hand, seat)
        made.append(game)
    return made


@pytest.mark.parametrize(("name", "players", "variant", "tags"), TABLES, ids=lambda x: str(x))
def test_every_table_deals_the_seat_what_he_saw_again_and_the_rest_anew(
    name: str, players: str, variant: str | None, tags: tuple[tuple[str, str], ...]
) -> None:
    names = seats(name, players, variant)
    text = "".join(
        simulate(Options(name, names, variant, hands=2, seed=5, tags=(*tags, ("Event", "Club"), ("Result", "Adam"))))
    )
    record = game_of(text)
    hand = record.hands[1]  # the second dealer's hand: the dealer is kept, not the rotation
    for seat in names:
        made = check_like(record, hand, seat)
        kept = [(t.name, t.value) for t in record.tags if t.name != "Result"]
        assert [(t.name, t.value) for t in made[0].tags] == kept and ("Event", "Club") in kept
        others = {repr(unseen(g, h, seat)) for g in made for h in g.hands}
        if variant == "eye-of-the-demon":
            # his 18 cards and the other's open pack seen, the other's hidden pack is the rest of the 36 cards
            assert len(others) == 1
            assert len({repr(h.discards) for g in made for h in g.hands}) > 1, "the exchange is made again"
        else:
            assert len(others) > 1, f"{seat}: the unseen cards came out the same in every deal"


@pytest.mark.parametrize("path", [*SAMPLES, *CLEAN], ids=lambda p: p.name)
def test_recorded_hands_of_the_samples_and_conformance_records(path: Path) -> None:
    (record, *_) = read_games(path)
    for hand in (record.hands[0], record.hands[-1]):
        for seat in record.players:
            try:
                seen(record, hand, seat)
            except KeyError:
                with pytest.raises(SimulationError, match="no deal line for"):
                    like([record], str(hand.number), seat, Options("", ()))
                continue
            made = check_like(record, hand, seat, "greedy")
            worlds = len({repr(unseen(g, h, seat)) for g in made for h in g.hands})
            assert worlds == 1 if record.tag("Variant") == "eye-of-the-demon" else worlds > 1


def test_the_unseen_cards_go_to_the_places_uniformly() -> None:
    """Adam's nine cards kept; over 900 deals each card he has not seen lands with Betty, Christian or Doris a third
    of the time each. Chi-square over the 27 unseen cards x 3 players, fixed seed (never flaky): 54 degrees of freedom
    (each card's three counts sum to the deals); the 0.1% point is 90.573. The seat's cards never move."""
    record = next(read_games(ROOT / "samples" / "thursday-club.imp"))
    opts = like([record], "1", "Adam", Options("", (), hands=900, seed=4, scores=False))
    game = game_of("".join(simulate(opts)))
    mine = seen(record, record.hands[0], "Adam")["Adam"]
    counts: Counter[tuple[int, str]] = Counter()
    for hand in game.hands:
        lines = lines_of(game, hand)
        assert sorted(lines["Adam"]) == mine
        counts.update((c, p) for p in ("Betty", "Christian", "Doris") for c in lines[p])
    free = sorted({c for c, _ in counts})
    assert len(free) == 27 and not set(free) & set(mine)
    chi2 = sum((counts[(c, p)] - 300) ** 2 / 300 for c in free for p in ("Betty", "Christian", "Doris"))
    assert chi2 < 90.573


def test_lopakas_imps_trick_is_dealt_from_the_unseen_cards_by_its_share() -> None:
    """With Keawe's and Lopaka's hands kept, each of the 14 other cards is Kokua's 11 times in 14 and in the imp's
    trick 3 times in 14; chi-square over the 14 cards (14 degrees of freedom, 0.1% point 36.123)."""
    record = next(read_games(ROOT / "samples" / "lopaka.imp"))
    opts = like([record], "1", "Keawe", Options("", (), hands=700, seed=2, scores=False, deals=True))
    game = game_of("".join(simulate(opts)))
    kokua = Counter(c for h in game.hands for c in lines_of(game, h)["Kokua"])
    free = sorted(kokua)
    assert len(free) == 14
    chi2 = sum((kokua[c] - 550) ** 2 / 550 + (700 - kokua[c] - 150) ** 2 / 150 for c in free)
    assert chi2 < 36.123


def test_ninety_nines_turnup_and_the_seats_cards_stay_the_bids_are_made_again() -> None:
    record = next(read_games(ROOT / "samples" / "ninety-nine-sunday.imp"))
    hand = record.hands[0]
    seat = record.players[1]
    games = check_like(record, hand, seat, "greedy")
    bids = {(b.player.name, tuple(c.text for c in b.cards)) for g in games for h in g.hands for b in h.bids}
    assert len(bids) > len(record.players), "the bids are the bots' of each deal, not the record's"


def test_a_file_of_several_games_names_the_game() -> None:
    one = "".join(simulate(Options("bottle-imp", ("Ana", "Bo", "Cy"), hands=2, seed=1)))
    two = "".join(simulate(Options("ninety-nine", ("Ana", "Bo", "Cy"), hands=1, seed=2)))
    games = list(read_games(one + "\n" + two))
    with pytest.raises(SimulationError, match=r"games 1, 2 of the file have a hand 1: say which, e\.g\. --hand 1:1"):
        like(games, "1", "Bo", Options("", ()))
    opts = like(games, "2:1", "Bo", Options("", ()))
    assert opts.game == "ninety-nine" and any(d.startswith("turnup: ") for d in opts.deal)
    assert like(games, "2", "Bo", Options("", ())).game == "bottle-imp"  # only game 1 has a hand 2
    with pytest.raises(SimulationError, match="no game 3: the file holds 2 games"):
        like(games, "3:1", "Bo", Options("", ()))
    with pytest.raises(SimulationError, match="no hand 2: game 2 has 1 hand"):
        like(games, "2:2", "Bo", Options("", ()))
    bare = "".join(simulate(Options("ninety-nine", ("Ana", "Bo", "Cy"), hands=1, seed=2, deals=False)))
    with pytest.raises(SimulationError, match="game 2, hand 1 has no deal line for Bo"):
        like(list(read_games(one + "\n" + bare)), "2:1", "Bo", Options("", ()))


def test_a_tag_given_replaces_the_recorded_one_and_the_seats_case_is_forgiven() -> None:
    record = next(read_games(ROOT / "samples" / "lopaka.imp"))
    opts = like([record], "2", "kokua", Options("", (), tags=(("Event", "Practice"), ("Round", "3"))))
    assert opts.tags == (("Event", "Practice"), ("Round", "3"))
    assert opts.dealer == "Keawe" and opts.players == ("Keawe", "Kokua", "Lopaka")
    assert any(d.startswith("Kokua: ") for d in opts.deal) and any(d.startswith("Lopaka: ") for d in opts.deal)


UNKNOWN = """[Game "bottle-imp"]
[Players "Ana Bo Cy"]

hand 1 dealer Cy
deal Ana 1 2 3 4 5 6 7 8 9 10 11 ??
deal Bo 13 14 15 16 17 18 19 20 21 22 23 24
deal Cy 25 26 27 28 29 30 31 32 33 34 35 36 37
"""

TWICE = UNKNOWN.replace("??", "12").replace("deal Bo", "deal Cy 1 2\ndeal Bo")
SHORT = UNKNOWN.replace(" ??", "")

NO_TURNUP = """[Game "ninety-nine"]
[Players "Ana Bo Cy"]

hand 1
deal Ana 6S 7S 8S 9S 10S JS QS KS AS 6H 7H 8H
"""


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (["--like", "samples/lopaka.imp", "--hand", "9", "--seat", "Keawe"], None, "no hand 9: the game has 3 hands"),
        (["--like", "samples/lopaka.imp", "--hand", "1", "--seat", "Kewe"], None, "did you mean `Keawe`?"),
        (["--like", "samples/lopaka.imp", "--hand", "0", "--seat", "Keawe"], None, "give the hand's number"),
        (["--like", "samples/lopaka.imp", "--hand", "1"], None, "--like FILE, --hand N and --seat NAME go together"),
        (["--hand", "1", "--seat", "Keawe"], None, "go together"),
        ([], None, "--game is needed"),
        (["--like", "no-such.imp", "--hand", "1", "--seat", "A"], None, "cannot read no-such.imp"),
        (["--like", "samples", "--hand", "1", "--seat", "A"], None, "a folder; --like takes one record file"),
        (["--like", "-", "--hand", "1", "--seat", "A"], "", "the file holds no game"),
        (["--like", "-", "--hand", "1", "--seat", "Ana"], '[Game "whist"]\n[Players "Ana Bo"]\nhand 1\n', "whist"),
        (["--like", "-", "--hand", "1", "--seat", "Ana"], UNKNOWN, "deals Ana `??`, an unknown card"),
        (["--like", "-", "--hand", "1", "--seat", "Ana"], NO_TURNUP, "hand 1 has no turnup line"),
        (["--like", "-", "--hand", "1", "--seat", "Ana"], SHORT, "hand 1 deals Ana 11 cards: Ana is dealt 12"),
        (["--like", "-", "--hand", "1", "--seat", "Ana"], TWICE, "hand 1 has two deal lines for Cy"),
        (["--like", "-", "--hand", "1", "--seat", "Bo"], NO_TURNUP, "hand 1 has no deal line for Bo"),
        (["--like", "samples/five-players-tricks-only.imp", "--hand", "1", "--seat", "Ana"], None, "no deal line"),
        (["--like", "samples/lopaka.imp", "--hand", "1", "--seat", "Keawe", "-g", "botifarra"], None, "is bottle-imp"),
        (["--like", "samples/lopaka.imp", "--hand", "1", "--seat", "Keawe", "-p", "4"], None, "played by Keawe"),
        (["--like", "samples/lopaka.imp", "--hand", "1", "--seat", "Keawe", "-v", "classic"], None, "is lopaka"),
        (["--like", "samples/lopaka.imp", "--hand", "1", "--seat", "Keawe", "--deal", "Keawe: 2"], None, "--deal"),
    ],
)
def test_every_error_is_a_message_and_exit_2(args: list[str], stdin: str | None, says: str) -> None:
    cmd = [sys.executable, "-m", "imptools", "simulate", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, input=stdin or "", cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_the_command_reads_the_record_from_standard_input_and_agrees_with_matching_options(tmp_path: Path) -> None:
    text = (ROOT / "samples" / "ninety-nine-sunday.imp").read_text(encoding="utf-8")
    record = next(read_games(text))
    cmd = [sys.executable, "-m", "imptools", "simulate", "--like", "-", "--hand", "1", "--seat", record.players[0]]
    cmd += [
        "-g",
        "ninety-nine",
        "-p",
        str(len(record.players)),
        "-n",
        "2",
        "--seed",
        "3",
        "-o",
        str(tmp_path / "x.imp"),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, input=text, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    check = subprocess.run([sys.executable, "-m", "imptools", "validate", str(tmp_path / "x.imp")], capture_output=True)
    assert check.returncode == 0
    game = next(read_games(tmp_path / "x.imp"))
    assert all(seen(game, h, record.players[0]) == seen(record, record.hands[0], record.players[0]) for h in game.hands)


def test_a_ninety_nine_declarers_bid_cards_the_seat_saw_stay_with_the_declarer() -> None:
    """Hand 2 of the Sunday lunch: Al declares, his bid QC QS KS laid face up. Bo saw them: dealt again, Al holds
    them in every hand, the rest of his twelve at random; the bids and declarations are the bots' again."""
    record = next(read_games(ROOT / "samples" / "ninety-nine-sunday.imp"))
    opts = like([record], "2", "Bo", Options("", (), hands=12, seed=4, bot="greedy"))
    assert "Al: QC QS KS" in opts.deal
    game = game_of("".join(simulate(opts)))
    assert judge_game(game).all_findings() == []
    ruleset = get_ruleset("ninety-nine")
    assert ruleset is not None
    sim = ruleset.simulator(game)
    assert sim is not None
    shown = {sim.card(t) for t in ("QC", "QS", "KS")}
    rest = {frozenset(lines_of(game, h)["Al"]) - shown for h in game.hands}
    assert all(shown <= set(lines_of(game, h)["Al"]) for h in game.hands) and len(rest) > 1
    assert len({tuple(str(b.cards) for b in h.bids if b.player.name == "Al") for h in game.hands}) > 1
