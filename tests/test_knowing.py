"""`imp analyse --knowing`: every consistent world averaged equals the obvious enumeration with a plain minimax on
endgames of every game; one consistent world gives the every-card-visible analysis; the seed; the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner
from worlds_oracle import knowing_totals

from imptools.analyse import KnowingAsk, analyse_hand, knowing_play, world_values
from imptools.check import judge_game
from imptools.cli.app import app
from imptools.present.analysis import figure
from imptools.present.replay_page import page_data
from imptools.reader import read_games
from imptools.record import Game
from imptools.replay import replay_game, with_analyses
from imptools.rules import get_known_deal
from imptools.rules.botifarra.position import DUEL_EXACT, SearchBotifarra
from imptools.simulate import Options, simulate
from imptools.worlds import Worlds

TABLES = {
    "bottle-imp-3": ("bottle-imp", ("Adam", "Betty", "Carl"), None, 2),
    "bottle-imp-4": ("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), None, 1),
    "lopaka": ("bottle-imp", ("Adam", "Lopaka", "Carl"), "lopaka", 2),
    "bright-house": ("bottle-imp", ("Adam", "Betty"), "bright-house", 2),
    "eye-of-the-demon": ("bottle-imp", ("Adam", "Betty"), "eye-of-the-demon", 2),
    "teams-4": ("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), "teams", 1),
    "botifarra-4": ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), None, 2),
    "botifarra-individual": ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), "carregar", 2),
    "botifarra-3": ("botifarra", ("Ana", "Bernat", "Carles"), "lliure", 2),
    "rector-vicar": ("botifarra", ("Ana", "Bernat"), "rector-vicar", 4),
    "piles-and-hand": ("botifarra", ("Ana", "Bernat"), "piles-and-hand", 4),
    "ninety-nine": ("ninety-nine", ("Ann", "Bob", "Cy"), None, 1),
}

PLAYERS_6 = ("Adam", "Betty", "Carl", "Doris", "Eve", "Fred")
LARGE = {"teams-2-2-1-1": ("bottle-imp", PLAYERS_6, "teams-2-2-1-1", 1)}
"""Tables whose last tricks have too many worlds to enumerate each play's (five or six discards unseen)."""


def record(table: str, seed: int) -> Game:
    game, players, variant, _ = {**TABLES, **LARGE}[table]
    tags = (("Teams", "none"),) if table == "botifarra-individual" else ()
    bot = "greedy" if seed % 2 else "random"
    (g,) = read_games("".join(simulate(Options(game, players, variant, seed=seed, tags=tags, bot=bot))))
    return g


CASES = [(t, seed) for t in TABLES for seed in range(60 if t == "ninety-nine" else 30)]
"""Hundreds of decisions in each game: each hand values every play of its last trick or two."""


@pytest.mark.parametrize(("table", "seed"), CASES)
def test_every_world_equals_the_obvious_enumeration(table: str, seed: int) -> None:
    g = record(table, seed)
    tricks = len(g.hands[0].tricks)
    from_trick = tricks - TABLES[table][3] + 1
    analysis = analyse_hand(g, 1, from_trick, knowing=KnowingAsk(None))
    assert analysis.skipped is None and analysis.note is None
    known = get_known_deal(g.game_name)
    assert known is not None
    deal = known(g, 1)
    assert not isinstance(deal, str)
    spell = deal.played.position.spell
    at = {(t, p, spell(c)): k for k, (t, p, c) in enumerate(deal.played.plays)}
    assert analysis.plays
    for play in analysis.plays:
        made = at[(play.trick, play.player, play.card)]
        knew = play.knowing
        assert knew is not None
        totals, worlds = knowing_totals(deal, made)
        assert knew.worlds == worlds
        assert knew.totals == {spell(c): v for c, v in totals.items()}
        top = max(totals.values())
        assert set(knew.best) == {spell(c) for c, v in totals.items() if v == top}
        assert knew.cost_total == top - totals[deal.played.plays[made][2]]
        assert knew.cost == knew.cost_total / worlds
        if worlds == 1:
            assert knew.values[play.card] == play.value_after
            assert max(knew.values.values()) == play.value_before
            assert knew.cost == play.cost
            assert set(knew.best) == set(play.best)


@pytest.mark.parametrize(
    ("variant", "seed"), [(v, seed) for v in ("bright-house", "eye-of-the-demon") for seed in range(12)]
)
def test_the_last_card_of_a_two_pack_hand_is_played_in_one_world(variant: str, seed: int) -> None:
    """The last card of a two-pack hand: the leader has played every card, only his two discards are unseen and they
    lie in one place, so one world is consistent and it is the every-card-visible analysis."""
    g = record(variant, seed)
    a = analyse_hand(g, 1, 8, knowing=KnowingAsk(20, seed))
    assert a.skipped is None and a.note is None
    last = a.plays[-1]
    assert last.knowing is not None and last.knowing.worlds == 1
    assert last.knowing.values == {last.card: last.value_after}
    assert last.knowing.cost == last.cost == 0


ALL_SEEN = ["bottle-imp-4", "lopaka", "bright-house", "eye-of-the-demon", "teams-4", "teams-2-2-1-1"]


@pytest.mark.parametrize(("table", "seed"), [(t, seed) for t in ALL_SEEN for seed in range(4)])
def test_the_record_own_world_valued_is_the_every_card_visible_analysis(table: str, seed: int) -> None:
    """Each play's own world (the cards as the record deals them), valued as the knowing analysis values a world, gives
    the every-card-visible values: the places put back together, the packs, the imp's trick and the sides."""
    g = record(table, seed)
    tricks = len(g.hands[0].tricks)
    analysis = analyse_hand(g, 1, tricks - 2)
    known = get_known_deal(g.game_name)
    assert known is not None
    deal = known(g, 1)
    assert not isinstance(deal, str)
    spell = deal.played.position.spell
    at = {(t, p, spell(c)): k for k, (t, p, c) in enumerate(deal.played.plays)}
    checked = 0
    for play in analysis.plays:
        made = at[(play.trick, play.player, play.card)]
        worlds = Worlds(deal, made, play.player)
        position = worlds.position(worlds.actual())
        assert position is not None
        assert position.side(play.player) == deal.played.position.side(play.player)
        values = world_values(position, play.player)
        assert values[deal.played.plays[made][2]] == play.value_after
        assert max(values.values()) == play.value_before
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("seed", range(3))
def test_every_world_of_a_six_player_teams_endgame_equals_the_obvious_enumeration(seed: int) -> None:
    """Teams 2-2-1-1: the last two plays of a hand (five discards and a card or two unseen)."""
    g = record("teams-2-2-1-1", seed)
    known = get_known_deal(g.game_name)
    assert known is not None
    deal = known(g, 1)
    assert not isinstance(deal, str)
    total = len(deal.played.plays)
    spell = deal.played.position.spell
    for made in (total - 2, total - 1):
        knew = knowing_play(g, 1, deal, made, KnowingAsk(None))
        totals, worlds = knowing_totals(deal, made)
        assert knew.worlds == worlds > 1
        assert knew.totals == {spell(c): v for c, v in totals.items()}
        assert knew.cost_total == max(totals.values()) - totals[deal.played.plays[made][2]]


def test_one_consistent_world_is_the_every_card_visible_analysis() -> None:
    """The last trick of a Botifarra hand seen by its last player: every card is known, one world."""
    found = 0
    for seed in range(20):
        g = record("botifarra-4", seed)
        a = analyse_hand(g, 1, 12, knowing=KnowingAsk(50, seed))
        last = a.plays[-1]
        assert last.knowing is not None and last.knowing.worlds == 1
        assert last.knowing.cost == last.cost
        assert last.knowing.values == {last.card: last.value_after}
        found += 1
    assert found == 20


def test_same_seed_same_figures_and_samples_bound_the_worlds() -> None:
    g = record("bottle-imp-4", 3)
    first = analyse_hand(g, 1, 6, knowing=KnowingAsk(12, 5))
    again = analyse_hand(g, 1, 6, knowing=KnowingAsk(12, 5))
    other = analyse_hand(g, 1, 6, knowing=KnowingAsk(12, 6))
    assert [p.to_dict() for p in first.plays] == [p.to_dict() for p in again.plays]
    assert [p.to_dict() for p in first.plays] != [p.to_dict() for p in other.plays]
    assert all(p.knowing is not None and 1 <= p.knowing.worlds <= 12 for p in first.plays)
    assert any(p.knowing is not None and p.knowing.worlds == 12 for p in first.plays)


def test_a_hand_without_every_deal_line_is_skipped_with_the_reason() -> None:
    text = "".join(simulate(Options("ninety-nine", ("Ann", "Bob", "Cy"), seed=2)))
    cut = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("bid Cy"))
    (g,) = read_games(cut)
    a = analyse_hand(g, 1, 8, knowing=KnowingAsk(10))
    assert a.skipped is not None and "Cy" in a.skipped and not a.plays


RULEBOOK = Path(__file__).resolve().parent / "conformance" / "bottle-imp" / "rulebook-example.imp"


def test_the_command_shows_both_costs_and_the_json_carries_the_knowing_figures() -> None:
    (game,) = read_games(RULEBOOK)
    expected = analyse_hand(game, 1, 6, knowing=KnowingAsk(40, 3))
    args = ["analyse", str(RULEBOOK), "--from-trick", "6", "--knowing", "--samples", "40", "--seed", "3", "-j", "1"]
    out = CliRunner().invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    (hand,) = json.loads(out.output)["analyses"]
    assert [p["knowing"] for p in hand["plays"]] == [p.knowing.to_dict() for p in expected.plays if p.knowing]
    assert len(hand["plays"]) == len(expected.plays) == 12
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "every card visible and on what each player knew, from trick 6" in text.output
    for p in expected.plays:
        k = p.knowing
        assert k is not None
        if p.cost or k.cost_total:
            line = f"trick {p.trick}, {p.player} {p.card}{p.mark}: cost {p.cost} with every card visible"
            assert line in " ".join(text.output.split()), (line, text.output)
            assert f"{figure(k.cost)} on what {p.player} knew ({' '.join(k.best)} best, {k.worlds} world" in " ".join(
                text.output.split()
            )
    assert "on what each knew" in text.output


def test_the_replay_shows_both_costs_in_text_json_and_page() -> None:
    (game,) = read_games(RULEBOOK)
    expected = analyse_hand(game, 1, 7, knowing=KnowingAsk(20, 0))
    args = ["replay", str(RULEBOOK), "--analyse", "--from-trick", "7", "--knowing", "--samples", "20", "-j", "1"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    flat = " ".join(text.output.split())
    for p in expected.plays:
        assert p.knowing is not None
        assert f"on what {p.player} knew ({' '.join(p.knowing.best)} best" in flat
    out = CliRunner().invoke(app, [*args, "--json"])
    steps = json.loads(out.output)["games"][0]["hands"][0]["steps"]
    valued = [s["analysis"] for s in steps if "analysis" in s]
    assert [v["knowing"] for v in valued] == [p.knowing.to_dict() for p in expected.plays if p.knowing]
    replayed = with_analyses(replay_game(game, judge_game(game)), [expected])
    data = page_data([replayed])
    marks = [st["a"] for h in data["games"][0]["hands"] for st in h["steps"] if "a" in st]
    assert marks and all(len(a) == 6 and a[5][3] in ("Adam", "Betty", "Christian", "Doris") for a in marks)
    assert [a[5][2] for a in marks] == [p.knowing.worlds for p in expected.plays if p.knowing]


def test_a_bad_number_of_samples_is_a_usage_error() -> None:
    for bad in ("0", "many", "-3"):
        out = CliRunner().invoke(app, ["analyse", str(RULEBOOK), "--knowing", "--samples", bad])
        assert out.exit_code == 2
        assert "--samples takes a number of worlds above 0, or all" in out.output


def test_every_world_of_an_early_play_is_refused_with_a_note() -> None:
    out = CliRunner().invoke(app, ["analyse", str(RULEBOOK), "--from-trick", "2", "--knowing", "--samples", "all"])
    assert out.exit_code == 0, out.output
    assert "too many to try every one (ask for a number of samples)" in " ".join(out.output.split())


def test_worlds_shared_out_to_processes_give_the_same_figures() -> None:
    g = record("botifarra-4", 5)
    alone = analyse_hand(g, 1, 10, knowing=KnowingAsk(30, 2))
    shared = analyse_hand(g, 1, 10, knowing=KnowingAsk(30, 2), jobs=2)
    assert [p.to_dict() for p in shared.plays] == [p.to_dict() for p in alone.plays]
    assert any(p.knowing is not None and p.knowing.worlds == 30 for p in alone.plays)


@pytest.mark.parametrize("table", ["rector-vicar", "piles-and-hand"])
def test_two_player_endgames_know_the_cards_under_the_piles_only_once_turned_up(table: str) -> None:
    """Late in a two-player hand some plays have one consistent world (every pile card turned up, the other hand
    known), and there the knowing figures are the every-card-visible ones; others still have cards face down."""
    one = many = 0
    for seed in range(6):
        a = analyse_hand(record(table, seed), 1, 21, knowing=KnowingAsk(None))
        assert a.skipped is None and a.note is None
        for p in a.plays:
            k = p.knowing
            assert k is not None
            if k.worlds == 1:
                assert k.values[p.card] == p.value_after and k.cost == p.cost and set(k.best) == set(p.best)
                one += 1
            else:
                many += 1
    assert one >= 10 and many >= 10


@pytest.mark.parametrize("table", ["rector-vicar", "piles-and-hand"])
def test_a_two_player_world_is_searched_without_the_table_of_exact_values(table: str) -> None:
    """A world's solver answers a few questions from one position, where working out the trick starts' exact values
    cost more than it saved (docs/PERFORMANCE.md): the worlds' positions ask for none, the hand's own position does."""
    g = record(table, 3)
    known = get_known_deal(g.game_name)
    assert known is not None
    deal = known(g, 1)
    assert not isinstance(deal, str)
    worlds = Worlds(deal, 10, deal.played.plays[10][1])
    world = worlds.position(worlds.actual())
    assert isinstance(world, SearchBotifarra) and isinstance(deal.played.position, SearchBotifarra)
    assert world.exact_most == 0 and deal.played.position.exact_most == DUEL_EXACT > 0
