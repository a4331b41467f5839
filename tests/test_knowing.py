"""`imp analyse --knowing`: every consistent world averaged equals the obvious enumeration with a plain minimax on
endgames of every game; one consistent world gives the every-card-visible analysis; the seed; the command."""

from __future__ import annotations

import pytest
from worlds_oracle import knowing_totals

from imptools.analyse import KnowingAsk, analyse_hand
from imptools.reader import read_games
from imptools.record import Game
from imptools.rules import get_known_deal
from imptools.simulate import Options, simulate

TABLES = {
    "bottle-imp-3": ("bottle-imp", ("Adam", "Betty", "Carl"), None, 2),
    "bottle-imp-4": ("bottle-imp", ("Adam", "Betty", "Carl", "Doris"), None, 1),
    "lopaka": ("bottle-imp", ("Adam", "Lopaka", "Carl"), "lopaka", 2),
    "botifarra-4": ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), None, 2),
    "botifarra-individual": ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), "carregar", 2),
    "botifarra-3": ("botifarra", ("Ana", "Bernat", "Carles"), "lliure", 2),
    "ninety-nine": ("ninety-nine", ("Ann", "Bob", "Cy"), None, 1),
}


def record(table: str, seed: int) -> Game:
    game, players, variant, _ = TABLES[table]
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
    at = {(t, p): k for k, (t, p, _) in enumerate(deal.played.plays)}
    assert analysis.plays
    for play in analysis.plays:
        made = at[(play.trick, play.player)]
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
