"""The replay API: a state after every event of a hand."""

from __future__ import annotations

from pathlib import Path

from imptools.reader import read_games
from imptools.replay import replay

RULEBOOK = Path(__file__).resolve().parent / "conformance" / "bottle-imp" / "rulebook-example.imp"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def test_rulebook_example_trick_1_gives_the_bottle_to_christian_at_17() -> None:
    (game,) = read_games(RULEBOOK)
    steps = list(replay(game, 1))
    kinds = [s.event.kind for s in steps]
    assert kinds[:4] == ["deal"] * 4 and kinds.count("discard") == 4 and kinds.count("pass") == 8
    assert kinds.count("play") == 32 and kinds.count("trick") == 8 and kinds[-1] == "end"
    first_trick = next(s for s in steps if s.event.kind == "trick")
    assert first_trick.event.player == "Christian"
    assert first_trick.state.detail.bottles == (("17", "Christian"),)
    # 24, 15 and 32 go to Christian's pile; 17 lies under the bottle
    assert sorted(first_trick.state.piles["Christian"]) == ["15", "24", "32"]
    assert steps[-1].state.scores == {"Adam": 15, "Betty": -10, "Christian": 68, "Doris": 0}


def test_holdings_shrink_as_cards_are_played() -> None:
    (game,) = read_games(RULEBOOK)
    steps = list(replay(game, 1))
    after_exchange = [s for s in steps if s.event.kind == "pass"][-1].state
    assert len(after_exchange.holdings["Adam"]) == 8 and "7" not in after_exchange.holdings["Adam"]
    first_play = next(s for s in steps if s.event.kind == "play")
    assert first_play.event.player == "Adam" and first_play.state.trick == (("Adam", "24"),)
    assert "24" not in first_play.state.holdings["Adam"]
    assert all(not h for h in steps[-1].state.holdings.values())


def test_play_only_record_knows_holdings_from_later_plays() -> None:
    (game,) = read_games(SAMPLES / "five-players-tricks-only.imp")
    steps = list(replay(game, 1))
    assert steps[0].event.kind == "play"
    assert len(steps[0].state.holdings["Bo"]) == 10  # Bo has not played yet: his 10 cards are known
    assert steps[-1].state.scores is not None


def test_unknown_hand_or_game_replays_nothing() -> None:
    (game,) = read_games(SAMPLES / "botifarra-festa-major.imp")
    assert list(replay(game, 99)) == []
    (game,) = read_games(SAMPLES / "lopaka.imp")
    assert list(replay(game, 99)) == []


def test_a_player_who_does_not_follow_shows_a_void() -> None:
    text = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\nhand 1 dealer Doris\n1. Adam:24 15 17 32\n'
    (game,) = read_games(text)
    end = [s.state for s in replay(game, 1)][-1]
    # 24 is blue; Betty played 15 (yellow): she has no blue card
    assert end.voids["Betty"] == frozenset({"b"}) and end.voids["Christian"] == frozenset()


def test_a_trick_line_written_twice_or_out_of_place_is_replayed_as_the_judging_reads_it() -> None:
    """The replay walks the trick lines as `imp validate` reads them (docs/decisions.md, "Trick lines out of
    place"): a line written twice once, two lines swapped in the order of their numbers; the same plays and the
    same end as the record written in order."""
    clean = RULEBOOK.read_text(encoding="utf-8")
    lines = clean.split("\n")
    tricks = [i for i, x in enumerate(lines) if x[:1].isdigit() and ". " in x]
    twice = [*lines[: tricks[2] + 1], lines[tricks[2]], *lines[tricks[2] + 1 :]]
    swapped = list(lines)
    swapped[tricks[3]], swapped[tricks[4]] = lines[tricks[4]], lines[tricks[3]]

    def plays(text: str) -> list[tuple[str | None, tuple[str, ...], int | None]]:
        (game,) = read_games(text)
        steps = list(replay(game, 1))
        assert steps[-1].event.kind == "end"
        return [(s.event.player, s.event.cards, s.event.trick) for s in steps if s.event.kind in ("play", "trick")]

    assert plays("\n".join(twice)) == plays(clean) and plays("\n".join(swapped)) == plays(clean)
    assert len(plays(clean)) == 40
