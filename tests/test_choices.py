"""The choices made before the first card (`imp analyse`'s `choices`): Botifarra's trump table against plain minimax
over the checker's own position under each trump, the trump named against the first play's value, Ninety-nine's
best bid against brute force, and how the text, the JSON and the replay show them."""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from random import Random
from typing import Any, TypeVar

import pytest
from typer.testing import CliRunner

from imptools.analyse import HandAnalysis, Runner, analyse_hand, played_hand, tasks_for, work_spread
from imptools.choices import ChoiceValue, value_choices
from imptools.cli.app import app
from imptools.reader import read_games
from imptools.record import Game
from imptools.rules.base import SearchPosition
from imptools.rules.botifarra import position as botifarra_position
from imptools.rules.botifarra.calls import Calls, side_name
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA
from imptools.rules.botifarra.position import SearchBotifarra
from imptools.rules.botifarra.search import TRUMPS, start_cards, trump_decision
from imptools.rules.botifarra.simulate import BotifarraPosition
from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import DECK, legal_cards, spell, trick_winner
from imptools.rules.ninety_nine.scoring import DECLARE, Declaration, score_hand
from imptools.rules.ninety_nine.search import SearchNinetyNine, bid_options
from imptools.rules.tricks import turn_order
from imptools.search import Search
from imptools.simulate import Options, simulate

T = TypeVar("T")

FOUR = ("Ana", "Bernat", "Carles", "Dolors")
TABLES = [("partnership", r) for r in (LLIURE, OBLIGADA, CARREGAR)]
TABLES += [("individual", OBLIGADA), ("three", CARREGAR), ("two", "rector-vicar"), ("two", "piles-and-hand")]


def record(table: str, variant: str, seed: int) -> Game:
    """A simulated one-hand game at `table` (partnership, individual, three, two) under `variant`."""
    names = FOUR[:3] if table == "three" else FOUR[:2] if table == "two" else FOUR
    tags = (("Teams", "none"),) if table == "individual" else ()
    (game,) = read_games("".join(simulate(Options("botifarra", names, variant, seed=seed, tags=tags))))
    return game


def minimax(pos: BotifarraPosition, player: str) -> int:
    """Plain minimax over every legal card of the checker's position: `player`'s side maximises its points as the
    checker counts them, every other player minimises them."""
    seating = pos.setup.seating
    if pos.done():
        points = pos.points()
        return points[player] if pos.setup.two_player else points[side_name(seating.side(player))]
    values = []
    for c in pos.legal():
        pos.play(c)
        values.append(minimax(pos, player))
        pos.undo()
    return max(values) if pos.to_move() in seating.side(player) else min(values)


def endgame(game: Game, tricks_left: int) -> SearchBotifarra:
    """A fresh search position for the last `tricks_left` tricks of the record's hand: the cards then left, the
    leader of that trick first, under the trump named."""
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    pos = found.position
    assert isinstance(pos, SearchBotifarra)
    cards = [c for _, _, c in found.plays]
    for c in cards[: len(cards) - tricks_left * pos.per_trick]:
        pos.play(c)
    assert not pos.trick
    held, piles = start_cards(pos)
    order = turn_order(pos.setup.players, pos.order[(pos.leader - 1) % pos.n])
    trump = None if pos.trump < 0 else pos.trump
    return SearchBotifarra(pos.setup, list(order), trump, held, piles)


def at_stake(start: SearchBotifarra) -> int:
    """The points two sides share from `start` (each side's, played out any way, added up)."""
    pos = SearchBotifarra(start.setup, start.order, None if start.trump < 0 else start.trump, *start_cards(start))
    while not pos.done():
        pos.play(pos.legal()[0])
    sides = {pos.side(p) for p in pos.order}
    return sum(pos.result(min(side)) for side in sides)


def tricks_left(table: str) -> int:
    return 5 if table == "two" else 3


@pytest.mark.parametrize(("table", "rules"), TABLES)
@pytest.mark.parametrize("seed", range(5))
def test_the_trump_table_equals_plain_minimax_under_each_trump(table: str, rules: str, seed: int) -> None:
    """Each of the five trumps valued for the chooser (the player before the leader: the dealer of a hand that
    started here), against plain minimax over the checker's position dealt the same cards under that trump; the
    trump named is valued on the analysis's own search, and equals the leader's first value from the other side
    where there are two sides (the points left less it)."""
    game = record(table, rules, 40 + seed)
    start = endgame(game, tricks_left(table))
    chooser = start.order[-1]
    named = None if start.trump < 0 else start.trump
    decision = trump_decision(start.setup, Calls(True, named, chooser), start, chooser)
    assert [o.text for o in decision.options] == [w for w, _ in TRUMPS]
    search = Search(start)
    choices, _ = value_choices([decision], search, Search)
    assert [c.made for c in choices] == [t == named for _, t in TRUMPS]
    held, piles = start_cards(start)
    for c, (_, trump) in zip(choices, TRUMPS):
        slow = BotifarraPosition(
            start.setup, chooser, trump, held, {p: [list(x) for x in piles.get(p, [])] for p in start.setup.players}
        )
        assert c.value == minimax(slow, chooser), (c.option, table, rules)
        assert (c.decision, c.player) == ("trump", chooser)
    (made,) = [c for c in choices if c.made]
    leader = start.to_move()
    first, _ = search.choices(leader)  # as `analyse_hand` values the first play, on the same search
    assert made.value == Search(start).value(chooser)
    if start.side(leader) != start.side(chooser) and table != "individual" and table != "three":
        assert made.value == at_stake(start) - first  # two sides: what the other side cannot take
    assert made.note.startswith(f"{made.option} at {made.value} ")


def trump_table_tracked(
    monkeypatch: pytest.MonkeyPatch, start: SearchBotifarra, name: str
) -> tuple[list[weakref.ReferenceType[object]], list[int], list[bool], Search, int, int]:
    """The trump table of `start` valued by `value_choices` with the cycle collector off (and its explicit passes
    made no-ops), every table-holding object `botifarra_position.NAME` makes tracked by a weak reference: those
    references, how many were alive as each option's search started, which were alive when the table was done, the
    hand's own search, the options and the positions counted."""
    chooser = start.order[-1]
    named = None if start.trump < 0 else start.trump
    decision = trump_decision(start.setup, Calls(True, named, chooser), start, chooser)
    made: list[weakref.ReferenceType[object]] = []
    plain = getattr(botifarra_position, name)

    def kept(*args: object, **kwargs: object) -> object:
        table = plain(*args, **kwargs)
        made.append(weakref.ref(table))
        return table

    alive_at_start: list[int] = []

    def new_search(pos: SearchPosition) -> Search:
        alive_at_start.append(sum(d() is not None for d in made))
        return Search(pos)

    monkeypatch.setattr(botifarra_position, name, kept)
    monkeypatch.setattr(gc, "collect", lambda generation=2: 0)
    search = Search(start)
    gc.disable()
    try:
        choices, nodes = value_choices([decision], search, new_search)
        alive = [d() is not None for d in made]
    finally:
        gc.enable()
    return made, alive_at_start, alive, search, len(choices), nodes


@pytest.mark.parametrize("variant", ["rector-vicar", "piles-and-hand"])
def test_each_other_trumps_search_is_freed_as_soon_as_it_is_valued(
    monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    """Two players: each trump not named is searched with a `Duel` table of its own (up to 384 MB in a whole hand);
    once its value is known, the table is freed before the next trump's search starts, by the search's own
    release, not by the cycle collector; the hand's own search keeps its table for the plays."""
    start = endgame(record("two", variant, 44), 6)
    duels, alive_at_start, alive, search, options, nodes = trump_table_tracked(monkeypatch, start, "Duel")
    assert alive_at_start == [0, 0, 0, 0]  # each other trump's table gone before the next search starts
    assert alive == [False, False, False, False, True]  # the four others' freed; the named trump's kept
    assert nodes > 0 and options == 5  # the positions the freed searches visited are still counted
    counted = search.positions()
    search.close()
    search.close()
    assert search.positions() == counted > 0  # closed twice, counted once
    assert [d() is not None for d in duels] == [False] * 5


@pytest.mark.parametrize(("table", "variant"), [("partnership", LLIURE), ("individual", OBLIGADA), ("three", CARREGAR)])
def test_each_other_trumps_solver_is_freed_as_soon_as_it_is_valued(
    monkeypatch: pytest.MonkeyPatch, table: str, variant: str
) -> None:
    """Three and four players: each trump not named is searched with a `Solver` of its own (two generations of
    `SOLVER_CAP` entries a side, up to 256 MB in C); once its value is known, its tables are freed before the next
    trump's search starts, without the cycle collector; the hand's own solver stays for the plays."""
    start = endgame(record(table, variant, 44), 4)
    solvers, alive_at_start, alive, search, options, nodes = trump_table_tracked(monkeypatch, start, "new_solver")
    assert alive_at_start == [0, 0, 0, 0]  # each other trump's solver gone before the next search starts
    assert alive == [False, False, False, False, True]  # the four others' freed; the named trump's kept
    assert nodes > 0 and options == 5
    search.close()
    assert [d() is not None for d in solvers] == [False] * 5


def test_the_start_cards_rebuild_the_start() -> None:
    """`start_cards` gives back what the start position was made of, piles and all."""
    for table, rules in TABLES:
        found = played_hand(record(table, rules, 7), 1)
        assert not isinstance(found, str)
        start = found.position
        assert isinstance(start, SearchBotifarra)
        again = SearchBotifarra(start.setup, start.order, None if start.trump < 0 else start.trump, *start_cards(start))
        assert (again.hands, again.free, again.under) == (start.hands, start.free, start.under), table


def test_a_whole_hand_values_the_trump_named_as_its_first_play() -> None:
    """A whole simulated hand of three players: the trump named is the value of the start position for the
    chooser (the dealer), the one the plays start from, and the contro note counts it as the notation's scoring
    does; from a later trick there are no choices. Progress is told of each trump option's search, then of each
    play."""
    game = record("three", OBLIGADA, 3)
    heard: list[tuple[str, int, int]] = []
    a = analyse_hand(game, 1, on_play=lambda done, total, stage: heard.append((stage, done, total)))
    assert len(a.choices) == 5 and sum(c.made for c in a.choices) == 1
    plays = [("play", done, len(a.plays)) for done in range(len(a.plays) + 1)]
    assert heard == [("trump option", done, 5) for done in range(5)] + plays and len(a.plays) == 36
    (made,) = [c for c in a.choices if c.made]
    found = played_hand(game, 1)
    assert not isinstance(found, str) and isinstance(found.position, SearchBotifarra)
    assert made.player == found.position.order[-1]  # the dealer chose: he plays last to trick 1
    assert made.value == Search(found.position).value(made.player)
    times = 2 if made.option == "botifarra" else 1
    assert made.note.startswith(f"{made.option} at {made.value} scores {(made.value - 24) * times} for {made.player}")
    assert all(0 <= c.value <= 72 for c in a.choices)
    assert analyse_hand(game, 1, 11).choices == ()


def test_a_delegated_choice_is_the_partners() -> None:
    """After `trump DEALER delegate` the partner chose: the table is valued for him (the same side)."""
    text = "".join(simulate(Options("botifarra", FOUR, OBLIGADA, seed=5)))
    line = next(x for x in text.splitlines() if x.startswith("trump "))
    _, dealer, word = line.split()
    partner = FOUR[(FOUR.index(dealer) + 2) % 4]
    (delegated,) = read_games(text.replace(line, f"trump {dealer} delegate\ntrump {partner} {word}", 1))
    found = played_hand(delegated, 1)
    assert not isinstance(found, str)
    (decision,) = found.decisions
    assert decision.player == partner and decision.kind == "trump"
    assert [o.text for o in decision.options if o.start is None] == [word]


# --------------------------------------------------------------------------- Ninety-nine's bids


def nn_minimax(
    order: list[str],
    hands: dict[str, list[int]],
    turnup: int,
    bids: dict[str, int | None],
    call: Declaration | None,
    player: str,
) -> int:
    """Plain minimax of `player`'s hand score (the checker's `score_hand`) over every legal card: he maximises it,
    the others minimise it."""
    won = dict.fromkeys(order, 0)

    def go(leader: int, trick: list[int]) -> int:
        seat = (leader + len(trick)) % 3
        p = order[seat]
        if not trick and not any(hands.values()):
            return score_hand(order, bids, won, call)[player].total
        led = trick[0] if trick else None
        values = []
        for c in legal_cards(hands[p], led, turnup):
            hands[p].remove(c)
            trick.append(c)
            if len(trick) == 3:
                w = trick_winner(trick, turnup)
                assert w is not None
                winner = (leader + w) % 3
                won[order[winner]] += 1
                values.append(go(winner, []))
                won[order[winner]] -= 1
            else:
                values.append(go(leader, trick))
            trick.pop()
            hands[p].append(c)
        return max(values) if p == player else min(values)

    return go(0, [])


@pytest.mark.parametrize("seed", range(12))
def test_the_best_bid_equals_brute_force(seed: int) -> None:
    """Small deals (three tricks to play; the bidder holds six cards, three to bid): the bid made and the best of
    every bid, against plain minimax of each bid by the checker's scoring; one search table served them all."""
    rng = Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    turnup = cards.pop()
    order = ["Ann", "Bob", "Cat"]
    player = order[seed % 3]
    dealt = set(cards[:6])
    held = {p: set(cards[6 + 3 * k : 9 + 3 * k]) for k, p in enumerate(q for q in order if q != player)}
    bids: dict[str, int | None] = {p: rng.choice([0, 1, 2, 3, None]) for p in order if p != player}
    call = Declaration(DECLARE, order[(seed + 1) % 3]) if seed % 4 == 0 else None
    made = set(sorted(dealt)[:3])
    held[player] = dealt - made
    bids[player] = bid_value(sorted(made), turnup)
    decision = bid_options(player, dealt, made, "made", order, held, bids, turnup, call)
    assert len(decision.options) == 20 and sum(o.start is None for o in decision.options) == 1
    start = SearchNinetyNine(order, held, turnup, bids, call)
    cheap, _ = value_choices([decision], Search(start), Search)
    assert [(c.option, c.made) for c in cheap] == [("made", True)]  # the others only when asked
    choices, _ = value_choices([decision], Search(start), Search, costly=True)
    brute: dict[str, int] = {}
    for bid in combinations(sorted(dealt, reverse=True), 3):
        rest = dealt - set(bid)
        hands = {p: sorted(rest if p == player else held[p]) for p in order}
        mine = {**bids, player: bid_value(bid, turnup)}
        text = "made" if set(bid) == made else " ".join(spell(c) for c in bid)
        brute[text] = nn_minimax(order, hands, turnup, mine, call, player)
    (mine_choice,) = [c for c in choices if c.made]
    assert mine_choice.value == brute["made"]
    best = max(brute.values())
    others = [c for c in choices if not c.made]
    if best > brute["made"]:
        (better,) = others
        assert better.value == best == brute[better.option]
        assert mine_choice.note == ""
    else:
        assert others == [] and mine_choice.note == "no option did better"


# --------------------------------------------------------------------------- the command and the replay


def test_cli_json_text_and_replay_show_the_bids(tmp_path: Path) -> None:
    """A Ninety-nine hand: each player's bid valued; with --bids against the best of his 220, in the JSON, the
    text, and every form of the replay."""
    path = str(tmp_path / "nn.imp")
    Path(path).write_text("".join(simulate(Options("ninety-nine", ("Ann", "Bob", "Cat"), None, seed=4))), "utf-8")
    (game,) = read_games(Path(path).read_text("utf-8"))
    runner = CliRunner()
    out = runner.invoke(app, ["analyse", path, "--json", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    (a,) = json.loads(out.output)["analyses"]
    assert [(c["decision"], c["made"]) for c in a["choices"]] == [("bid", True)] * 3
    assert a["choices"] == [c.to_dict() for c in analyse_hand(game, 1).choices]
    everything = runner.invoke(app, ["analyse", path, "--json", "--jobs", "1", "--bids"])
    (b,) = json.loads(everything.output)["analyses"]
    made = [c for c in b["choices"] if c["made"]]
    assert [(c["player"], c["option"], c["value"]) for c in made] == [
        (c["player"], c["option"], c["value"]) for c in a["choices"]
    ]
    better = [c for c in b["choices"] if not c["made"]]
    assert better, "some player had a better bid than his own"
    for c in better:  # a better bid than his own, listed right after it
        own = b["choices"][b["choices"].index(c) - 1]
        assert own["made"] and own["player"] == c["player"] and c["value"] > own["value"] and "note" not in own
    assert all(
        c.get("note") == "no option did better" for c in made if c["player"] not in {x["player"] for x in better}
    )
    from imptools.present.analysis import choice_lines

    lines = choice_lines([ChoiceValue(**c) for c in b["choices"]])
    shown = runner.invoke(app, ["analyse", path, "--jobs", "1", "--bids"])
    assert all(line in " ".join(shown.output.split()) for line in lines)
    replay = runner.invoke(app, ["replay", path, "--analyse", "--jobs", "1", "--json", "--bids"])
    (hand,) = json.loads(replay.output)["games"][0]["hands"]
    assert hand["analysis"]["choices"] == b["choices"]
    text_replay = runner.invoke(app, ["replay", path, "--analyse", "--jobs", "1"])
    own_lines = choice_lines([ChoiceValue(**c) for c in a["choices"]])
    assert all(line in " ".join(text_replay.output.split()) for line in own_lines)
    late = runner.invoke(app, ["analyse", path, "--json", "--jobs", "1", "--from-trick", "3"])
    assert json.loads(late.output)["analyses"][0]["choices"] == []


def test_no_choices_leaves_the_trump_table_out_and_values_the_plays_alike(tmp_path: Path) -> None:
    """`--no-choices`: a Botifarra hand (three players) analysed from trick 1 without its trump table, in the JSON,
    the text and the replay; every play valued as without the option, with fewer positions searched; `--bids` with
    it is a usage error."""
    from imptools.present.analysis import analysis_lines

    path = tmp_path / "three.imp"
    path.write_text("".join(simulate(Options("botifarra", FOUR[:3], CARREGAR, seed=5))), "utf-8")
    (game,) = read_games(path.read_text("utf-8"))
    whole, lean = analyse_hand(game, 1), analyse_hand(game, 1, choices=False)
    assert [c.decision for c in whole.choices] == ["trump"] * 5 and lean.choices == ()
    assert lean.plays == whole.plays and lean.plays[0].trick == 1
    assert lean.nodes < whole.nodes
    assert any("trump table" in str(line) for line in analysis_lines(whole))
    runner = CliRunner()
    out = runner.invoke(app, ["analyse", str(path), "--json", "--jobs", "1", "--no-choices"])
    assert out.exit_code == 0, out.output
    (got,) = json.loads(out.output)["analyses"]
    assert got["choices"] == [] and got["plays"] == [json.loads(json.dumps(p.to_dict())) for p in lean.plays]
    text = runner.invoke(app, ["analyse", str(path), "--jobs", "1", "--no-choices"])
    assert text.exit_code == 0 and "trump table" not in text.output, text.output
    assert all(" ".join(str(line).split()) in " ".join(text.output.split()) for line in analysis_lines(lean))
    replay = runner.invoke(app, ["replay", str(path), "--analyse", "--jobs", "1", "--json", "--no-choices"])
    (hand,) = json.loads(replay.output)["games"][0]["hands"]
    assert hand["analysis"]["choices"] == []
    costs = [s["analysis"] for s in hand["steps"] if "analysis" in s]
    assert costs == [json.loads(json.dumps(p.to_dict())) for p in lean.plays]
    for command in (["analyse", str(path)], ["replay", str(path), "--analyse"]):
        both = runner.invoke(app, [*command, "--bids", "--no-choices"])
        assert both.exit_code == 2 and "--no-choices" in both.output, both.output


def test_the_choice_lines() -> None:
    from imptools.present.analysis import analysis_lines

    choices = (
        ChoiceValue("trump", "Dolors", "oros", 41, False),
        ChoiceValue("trump", "Dolors", "copes", 38, True, "copes at 38 scores 2 for Bernat+Dolors, 4 with a contro"),
        ChoiceValue("trump", "Dolors", "espases", 30, False),
        ChoiceValue("trump", "Dolors", "bastos", 33, False),
        ChoiceValue("trump", "Dolors", "botifarra", 36, False),
    )
    a = HandAnalysis("x.imp", 1, 1, 1, choices=choices)
    lines = [str(t) for t in analysis_lines(a)]
    assert lines[1] == (
        "  trump table: oros 41, copes 38 (chosen), espases 30, bastos 33, botifarra 36; "
        "copes at 38 scores 2 for Bernat+Dolors, 4 with a contro"
    )


def test_the_bottle_imp_has_no_choice_before_the_first_card() -> None:
    """Its search offers no decision, so an analysis from trick 1 has an empty list (a short hand: the rulebook's)."""
    rulebook = Path(__file__).resolve().parent / "conformance" / "bottle-imp" / "rulebook-example.imp"
    (game,) = read_games(rulebook)
    found = played_hand(game, 1)
    assert not isinstance(found, str) and found.decisions == ()
    assert HandAnalysis(None, 1, 1, 1).to_dict()["choices"] == []


class CountingPool(ProcessPoolExecutor):
    """A real process pool that notes the name of each function sent to it, and the processes that ran them."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers)
        self.sent: list[str] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.sent.append(getattr(fn, "__name__", ""))
        return super().submit(fn, *args, **kwargs)


def test_the_other_trumps_on_other_processes_value_the_hand_alike() -> None:
    """With two jobs a hand's trump options other than the one named are valued on the pool's processes while the
    hand's process values the one named: the same analysis, positions included, as on one process; progress is
    told of each option, then of each play. `Runner` does so for one hand from trick 1 (`work_spread`); from a later
    trick, without the choices, or with as many hands as jobs, nothing is shared out of a hand."""
    game = record("three", OBLIGADA, 3)
    heard: list[tuple[str, int, int]] = []
    alone = analyse_hand(game, 1, jobs=1)
    with CountingPool(2) as pool:
        shared = analyse_hand(
            game, 1, jobs=2, pool=pool, on_play=lambda done, total, stage: heard.append((stage, done, total))
        )
    assert pool.sent == ["option_value"] * 4
    assert shared == alone and len(shared.choices) == 5 and shared.nodes == alone.nodes
    plays = [("play", done, len(shared.plays)) for done in range(len(shared.plays) + 1)]
    assert heard == [("trump option", done, 5) for done in range(5)] + plays
    tasks = tasks_for([game, record("three", LLIURE, 6)])
    assert work_spread(tasks[:1], 2) and not work_spread(tasks, 2)
    assert not work_spread(tasks_for([game], from_trick=2), 2) and not work_spread(tasks_for([game], choices=False), 2)
    assert Runner(2).run(tasks[:1]) == [alone]
