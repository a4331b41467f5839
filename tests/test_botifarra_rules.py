"""Botifarra records judged: findings with their evidence, what the record proves, scores, game end, replay."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from imptools.check import judge_game
from imptools.present.score_sheet import score_sheet
from imptools.reader import read_games
from imptools.record import Game
from imptools.replay import replay
from imptools.rules import get_ruleset
from imptools.rules.base import GameResult
from imptools.rules.botifarra.ruleset import BotifarraState

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FOUR = '[Game "botifarra"]\n[Players "Ana Bernat Carles Dolors"]\n'
TWO = '[Game "botifarra"]\n[Variant "rector-vicar"]\n[Players "Rector Vicar"]\n'


def game_of(text: str) -> Game:
    (game,) = read_games(text)
    return game


def judged(text: str) -> GameResult:
    return judge_game(game_of(text))


def errors(text: str) -> list[tuple[str, int | None, str | None]]:
    return [(f.code, f.trick, f.player) for f in judged(text).all_findings() if f.is_error]


def messages(text: str, code: str) -> list[str]:
    return [f.message for f in judged(text).all_findings() if f.code == code]


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- play rules and their evidence

BEAT = FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:4c 11c 3c 5c\n2. Bernat:2c 9c 6c 7c\n"
"""Carles follows Bernat's 11 of copes with the 3, and plays the 9 of copes in trick 2."""


def test_a_later_play_proves_a_must_beat_and_the_message_names_it() -> None:
    assert errors(BEAT) == [("must-beat", 1, "Carles")]
    assert messages(BEAT, "must-beat") == [
        "Carles had to beat Bernat's 11 of copes (holding the 9 of copes, played in trick 2) but played the 3 of copes"
    ]


def test_nothing_is_reported_that_the_record_does_not_prove() -> None:
    # Carles plays no other copes later: the 3 may have been his only copes (or highest)
    assert errors(FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:4c 11c 3c 5c\n2. Bernat:2e 9e 6e 7e\n") == []
    # a card off the suit led, and no copes played later by Bernat: no revoke can be shown
    assert errors(FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:4c 5e 3c 5c\n") == []


def test_the_deal_proves_a_revoke() -> None:
    text = (
        FOUR + "hand 1 dealer Dolors\ndeal Bernat 5o 9c 6c 5c 3c 12e 3e 2e 1b 12b 11b 8b\n"
        "trump Dolors oros\n1. Ana:4c 12e 2c 1c\n"
    )
    assert errors(text) == [("revoke", 1, "Bernat")]
    assert "while holding the 3 of copes, dealt to them and not played before" in messages(text, "revoke")[0]


def test_must_trump_and_must_play_low_proven_from_later_plays() -> None:
    trump = FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:9c 5e 3c 5c\n2. Ana:2e 2o 6e 7e\n"
    assert errors(trump) == [("must-trump", 1, "Bernat")]
    assert messages(trump, "must-trump")[0].startswith("Bernat had to trump Ana's 9 of copes (holding the 2 of oros")
    low = FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:9c 7c 3c 5c\n2. Ana:2e 2c 6e 7e\n"
    assert errors(low) == [("must-play-low", 1, "Bernat")]
    assert "had to play the lowest copes under Ana's 9 of copes" in messages(low, "must-play-low")[0]


def test_the_variant_decides_the_table() -> None:
    partner_loads = "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:9c 4c 7c 5c\n2. Ana:2e 6e 3c 8e\n"
    # Carles's partner Ana is master: obligada asks a point card or his lowest copes (the 3)
    assert errors(FOUR + partner_loads) == [("must-play-low", 1, "Carles")]
    assert errors(FOUR + '[Variant "carregar"]\n' + partner_loads) == [("must-play-low", 1, "Carles")]
    assert errors(FOUR + '[Variant "lliure"]\n' + partner_loads) == []
    # individual: Ana is an opponent too, and the 7 cannot beat her 9: the lowest copes again
    assert errors(FOUR + '[Teams "none"]\n' + partner_loads) == [("must-play-low", 1, "Carles")]


def test_a_revoke_costs_the_side_its_hand() -> None:
    result = judged(sample("botifarra-with-mistakes.imp"))
    hand = result.hands[2]
    assert [(f.code, f.trick, f.player) for f in hand.findings if f.is_error] == [
        ("revoke", 2, "Carles"),
        ("out-of-turn", 11, "Ana"),  # Bernat is named where Ana leads: a slip of the pen, not a play rule
    ]
    # multiplier 1: the other side scores 36
    assert hand.scores == {"Ana": 0, "Bernat": 36, "Carles": 0, "Dolors": 36}
    assert ("penalty", "Carles") in hand.notes


def test_the_first_violation_in_play_order_decides() -> None:
    text = sample("botifarra-with-mistakes.imp")
    # Bernat also revokes in trick 2, before Carles (Dolors leads, then Ana, Bernat, Carles)
    text = text.replace("2. 11c 1o 10c 12e", "2. 11c 1o 5b 12e").replace("12. 5b 6c 1b 1e", "12. 10c 6c 1b 1e")
    hand = judged(text).hands[2]
    assert [(f.code, f.player) for f in hand.findings if f.code == "revoke"] == [
        ("revoke", "Bernat"),
        ("revoke", "Carles"),
    ]
    assert hand.scores == {"Ana": 36, "Bernat": 0, "Carles": 36, "Dolors": 0}


# --------------------------------------------------------------------------- calls


def test_a_hand_without_trump_is_a_bad_call_and_not_scored() -> None:
    text = sample("botifarra-festa-major.imp").replace("trump Dolors botifarra\n", "", 1)
    result = judged(text)
    first = result.hands[0]
    assert [(f.code, f.trick, f.player) for f in first.findings if f.is_error] == [("bad-call", None, None)]
    assert first.complete and first.scores is None
    assert result.hands[1].scores == {"Ana": 80, "Bernat": 0, "Carles": 80, "Dolors": 0}


def test_with_no_trump_named_the_next_leader_name_seats_the_tricks() -> None:
    # no trump line: trick 1 is won by whoever leads trick 2, as its name says (Ana, seat 0)
    text = FOUR + "hand 1 dealer Dolors\n1. Ana:4c 11c 3c 5o\n2. Ana:2c 9c 6c 7c\n"
    assert errors(text) == [("bad-call", None, None)]


def test_bad_calls_name_the_later_line_and_do_not_count() -> None:
    text = FOUR + "hand 1 dealer Dolors\ntrump Dolors copes\ncontro Ana\ncontro Carles\nrecontro Ana\n"
    assert errors(text) == [("bad-call", None, "Carles"), ("bad-call", None, "Ana")]
    assert ("x", "2") in judged(text).hands[0].notes
    assert messages(text, "bad-call")[1] == "recontro Ana: only the side that chose trump (Bernat+Dolors) may redouble"


# --------------------------------------------------------------------------- record checks


def test_an_unknown_card_names_the_player_whose_turn_it_was() -> None:
    text = FOUR + "hand 1 dealer Dolors\ntrump Dolors oros\n1. Ana:4c 11c 3c 5c\n2. 2c 9x 6c 7c\n"
    assert errors(text) == [("unknown-card", 2, "Carles")]


def test_pile_deals_are_four_cards_in_six_piles() -> None:
    text = TWO + "hand 1 dealer Vicar\ndeal Rector.1 8c 6o 10b\ndeal Rector.7 1o 2o 3o 4o\ntrump Vicar oros\n"
    assert errors(text) == [("hand-size", None, "Rector"), ("hand-size", None, "Rector")]


def test_botifarra_has_no_exchange() -> None:
    text = FOUR + "hand 1 dealer Dolors\ndiscard Ana 4c\ntrump Dolors oros\n"
    assert errors(text) == [("bad-exchange", None, "Ana")]


# --------------------------------------------------------------------------- two players

PILES = (
    TWO + "hand 1 dealer Vicar\n"
    "deal Rector.1 8c 6o 10b 9b\ndeal Rector.2 11o 9c 10o 10c\ndeal Rector.3 6e 4b 12b 12e\n"
    "deal Rector.4 12o 6c 8b 2o\ndeal Rector.5 1e 5c 7o 6b\ndeal Rector.6 3o 9o 3b 8e\n"
    "deal Vicar.1 2e 5o 3e 1b\ndeal Vicar.2 11e 11b 12c 4e\ndeal Vicar.3 5e 1o 8o 1c\n"
    "deal Vicar.4 2c 9e 7b 7e\ndeal Vicar.5 4c 2b 7c 11c\ndeal Vicar.6 3c 4o 10e 5b\n"
    "trump Vicar botifarra\n"
)


def test_without_the_hand_line_the_cards_outside_the_piles_are_in_hand() -> None:
    text = (
        '[Game "botifarra"]\n[Variant "piles-and-hand"]\n[Players "Rector Vicar"]\nhand 1 dealer Vicar\n'
        "deal Vicar.1 2e 5o 3e 1b\ndeal Vicar.2 11e 11b 12c 4e\ndeal Vicar.3 5e 1o 8o 1c\ndeal Vicar.4 9e 2c 7b 7e\n"
        "trump Vicar oros\n1. Rector:9c 6b\n2. Rector:3c 4c\n"
    )
    # no copes lies face up, but the 4 of copes lies in no pile: it was in hand, so he had to follow copes
    assert errors(text) == [("revoke", 1, "Vicar")]
    assert "(played the 6 of bastos) while holding the 4 of copes, in hand" in messages(text, "revoke")[0]


def test_a_card_not_yet_turned_up_is_not_visible() -> None:
    text = PILES + "1. Rector:9c 3c\n"
    assert errors(text) == [("not-visible", 1, "Rector")]
    assert messages(text, "not-visible") == [
        "Rector played the 9 of copes from pile 2 before it was turned up (the 11 of oros lay on top)"
    ]


def test_two_players_follow_and_beat_with_the_cards_they_can_see() -> None:
    # Vicar sees the 2, 11 and 5 of espases on top of piles 1-3: the 11 beats Rector's 6 of espases
    assert errors(PILES + "1. Rector:6e 11e\n") == []
    assert errors(PILES + "1. Rector:6e 5e\n") == [("must-beat", 1, "Vicar")]
    assert "(holding the 11 of espases, face up on pile 2)" in messages(PILES + "1. Rector:6e 5e\n", "must-beat")[0]
    assert errors(PILES + "1. Rector:6e 4c\n") == [("revoke", 1, "Vicar")]
    # the copes he sees (2, 4, 3) cannot beat the 8; the 12, 7, 11 and 1 lie under other cards and do not oblige
    assert errors(PILES + "1. Rector:8c 4c\n") == []


# --------------------------------------------------------------------------- the game


def test_the_game_is_won_past_100_or_at_target() -> None:
    result = judged(sample("botifarra-obligada-casal.imp"))
    assert (
        result.over and result.winners == ("Pau", "Jordi") and result.sides == (("Núria", "Montse"), ("Pau", "Jordi"))
    )
    assert not judged(sample("botifarra-festa-major.imp")).over
    early = judged(sample("botifarra-festa-major.imp").replace('[Site "Vilafranca"]', '[Target "80"]'))
    assert early.over and early.winners == ("Ana", "Carles")


def test_every_sample_scores_and_only_the_mistakes_have_errors() -> None:
    for path in sorted(SAMPLES.glob("botifarra-*.imp")):
        result = judged(path.read_text(encoding="utf-8"))
        assert all(h.scores is not None for h in result.hands), path.name
        found = [f for f in result.all_findings() if f.is_error]
        assert bool(found) == ("mistakes" in path.name), (path.name, found[:3])


def test_individual_and_three_player_games_score_each_alone() -> None:
    for name in ("botifarra-individual.imp", "botifarra-three-players.imp"):
        result = judged(sample(name))
        assert result.sides == ()
        for hand in result.hands:
            assert hand.scores is not None and len(set(hand.scores)) == len(result.players)


def test_the_ruleset_lists_its_variants() -> None:
    ruleset = get_ruleset("botifarra")
    assert ruleset is not None
    assert set(ruleset.variants) == {"obligada", "lliure", "carregar", "rector-vicar", "piles-and-hand"}
    face = ruleset.card_face("12E", game_of(FOUR))
    assert (face.text, face.suit) == ("12e", "espases")


def test_the_score_sheet_shows_sides_calls_and_the_race() -> None:
    game = game_of(sample("botifarra-festa-major.imp"))
    console = Console(width=160, record=True)
    console.print(score_sheet(game, judge_game(game)))
    text = console.export_text()
    assert "Ana+Carles" in text and "recontro" in text and "first past 100" in text


# --------------------------------------------------------------------------- replay


def test_replay_states_carry_trump_calls_multiplier_and_points() -> None:
    game = game_of(sample("botifarra-festa-major.imp"))
    steps = list(replay(game, 2))
    kinds = [s.event.kind for s in steps]
    assert kinds.count("deal") == 4 and kinds.count("trump") == 2 and kinds.count("call") == 2
    assert kinds.count("play") == 48 and kinds.count("trick") == 12 and kinds[-1] == "end"
    after_calls = [s for s in steps if s.event.kind == "call"][-1].state.detail
    assert isinstance(after_calls, BotifarraState)
    assert (after_calls.trump, after_calls.chooser, after_calls.delegated_by) == ("botifarra", "Carles", "Ana")
    assert after_calls.calls == (("contro", "Bernat"), ("recontro", "Carles")) and after_calls.multiplier == 8
    end = steps[-1].state
    assert isinstance(end.detail, BotifarraState)
    assert dict(end.detail.points) == {"Ana+Carles": 46, "Bernat+Dolors": 26}
    assert sum(dict(end.detail.tricks).values()) == 12
    assert end.scores == {"Ana": 80, "Bernat": 0, "Carles": 80, "Dolors": 0}
    assert ("multiplier", "x8") in end.detail.lines()


def test_replay_of_a_two_player_hand_turns_pile_cards_up() -> None:
    steps = list(replay(game_of(PILES + "1. Rector:11o 4c\n"), 1))
    first = next(s for s in steps if s.event.kind == "play")
    assert isinstance(first.state.detail, BotifarraState)
    face_up = dict(first.state.detail.face_up)
    assert "9c" in face_up["Rector"] and "11o" not in face_up["Rector"]


# --------------------------------------------------------------------------- the game's own facts


def facts(result: GameResult) -> dict[str, dict[str, int]]:
    """Each player's facts summed over the game's hands."""
    out: dict[str, dict[str, int]] = {}
    for h in result.hands:
        for p, key, value in h.facts:
            out.setdefault(p, {})[key] = out.get(p, {}).get(key, 0) + value
    return out


def test_the_facts_name_who_chose_trump_and_each_side_that_doubled_and_won() -> None:
    # hand 2: Núria names bastos, Pau contro, Núria recontro, Pau sant-vicenç, and Pau and Jordi score 8;
    # hand 3: Pau names copes, Núria contro, and Pau and Jordi score; hand 5: Jordi names oros, Núria contro,
    # Pau recontro, Núria sant-vicenç, Pau and Jordi score 192; Jordi and Montse name oros in hands 1 and 4
    got = facts(judged(sample("botifarra-obligada-casal.imp")))
    won_all = {"contro": 1, "contro-won": 1, "recontro": 1, "recontro-won": 1, "sant-vicenc": 1, "sant-vicenc-won": 1}
    lost_all = {"contro": 2, "recontro": 1, "sant-vicenc": 1}
    assert got == {
        "Pau": {"trump-copes": 1, **won_all},
        "Jordi": {"trump-oros": 2, **won_all},
        "Núria": {"trump-bastos": 1, **lost_all},
        "Montse": {"trump-oros": 1, **lost_all},
    }


def test_after_a_delegation_the_partner_who_names_trump_counts_it_and_the_dealer_a_delegation() -> None:
    # hand 1: Dolors names botifarra; hand 2: Ana delegates, Carles names botifarra, Bernat contro, Carles recontro,
    # Ana and Carles score 80; hand 3: Bernat delegates, Dolors names oros
    got = facts(judged(sample("botifarra-festa-major.imp")))
    assert got == {
        "Ana": {"delegated": 1, "recontro": 1, "recontro-won": 1},
        "Carles": {"trump-botifarra": 1, "recontro": 1, "recontro-won": 1},
        "Bernat": {"delegated": 1, "contro": 1},
        "Dolors": {"trump-botifarra": 1, "trump-oros": 1, "contro": 1},
    }
    keys = [f.key for f in get_ruleset("botifarra").facts]  # type: ignore[union-attr]
    assert {k for p in got.values() for k in p} <= set(keys) and len(keys) == len(set(keys))


def test_a_contro_on_an_individual_table_is_the_callers_alone() -> None:
    result = judged(sample("botifarra-individual.imp"))
    calls = [(h.number, p) for h in result.hands for p, key, _v in h.facts if key == "contro"]
    text = sample("botifarra-individual.imp")
    assert len(calls) == text.count("\ncontro ") == 1  # one player, not a side
    hand = next(h for h in result.hands if h.number == calls[0][0])
    assert hand.scores is not None
    assert ((calls[0][1], "contro-won", 1) in hand.facts) == (hand.scores[calls[0][1]] > 0)
