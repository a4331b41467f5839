"""The Bottle Imp: deal sizes and exchanges per variant, price-card movement, 1995 values."""

from __future__ import annotations

from pathlib import Path

from imptools.check import judge_game
from imptools.reader import read_games

CASES = Path(__file__).resolve().parent / "conformance" / "bottle-imp"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def codes(text: str) -> list[tuple[str, str | None]]:
    (game,) = read_games(text)
    return [(f.code, f.player) for f in judge_game(game).all_findings() if f.is_error]


FIVE = '[Game "bottle-imp"]\n[Players "Ana Bo Cy Di Ed"]\nhand 1 dealer Ed\n'
LOPAKA = '[Game "bottle-imp"]\n[Variant "lopaka"]\n[Players "Keawe Kokua Lopaka"]\nhand 1\n'
BRIGHT = '[Game "bottle-imp"]\n[Variant "bright-house"]\n[Players "Keawe Kokua"]\nhand 1\n'
EYE = '[Game "bottle-imp"]\n[Variant "eye-of-the-demon"]\n[Players "Keawe Kokua"]\nhand 1\n'


def test_five_players_the_dealer_gets_ten_and_does_not_discard() -> None:
    assert codes(FIVE + "deal Ed 1 2 3 4 5 6 7 8 9 10\ndeal Ana 11 12 13 14 15 16 17 18 20 21 22\n") == []
    assert codes(FIVE + "deal Ed 1 2 3 4 5 6 7 8 9 10 11\n") == [("hand-size", "Ed")]
    assert codes(FIVE + "deal Ed 1 2 3 4 5 6 7 8 9 10\ndiscard Ed 1\n") == [("hand-size", "Ed")]


def test_classic_passes_go_to_the_next_and_the_previous_player() -> None:
    assert codes(FIVE + "pass Ana > Bo 1\npass Ana > Ed 2\n") == []
    assert codes(FIVE + "pass Ana > Cy 1\n") == [("bad-exchange", "Ana")]


def test_with_lopaka_nobody_discards_and_only_the_two_players_swap() -> None:
    assert codes(LOPAKA + "pass Keawe > Kokua 3\npass Kokua > Keawe 5\n") == []
    assert codes(LOPAKA + "discard Keawe 3\n") == [("bad-exchange", "Keawe")]
    assert codes(LOPAKA + "pass Keawe > Lopaka 3\n") == [("bad-exchange", "Keawe")]
    assert codes(LOPAKA + "deal Keawe 1 2 3 4 5 6 7 8 9 10 11 12\n") == [("hand-size", "Keawe")]


def test_two_pack_variants_check_each_pack() -> None:
    assert codes(BRIGHT + "deal Keawe.1 1 2 3 4 5 6 7 8 9\ndeal Keawe.2 10 11 12 13 14 15 16 17 18\n") == []
    assert codes(BRIGHT + "deal Keawe.2 10 11 12 13 14 15 16 17\n") == [("hand-size", "Keawe")]
    assert codes(EYE + "deal Kokua.1 1 2 3 4 5 6\ndeal Kokua.2 7 8 9 10 11 12 13 14 15 16 17 18\n") == []
    assert codes(EYE + "deal Kokua.1 1 2 3 4 5 6 7\n") == [("hand-size", "Kokua")]


def test_the_old_price_card_goes_to_the_previous_owner() -> None:
    from imptools.replay import replay

    text = (
        '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\nhand 1 dealer Doris\n'
        "1. Adam:24 15 17 32\n2. Christian:8 4 6 7\n"
    )
    (game,) = read_games(text)
    ends = [s.state for s in replay(game, 1) if s.event.kind == "trick"]
    assert ends[0].detail.bottles == (("17", "Christian"),)
    # trick 2 (8 4 6 7): 8 is the highest card below 17, so Christian takes the bottle again at 8;
    # the old price card 17 goes to its previous owner (Christian), with the other cards of the trick
    assert ends[1].detail.bottles == (("8", "Christian"),)
    assert sorted(ends[1].piles["Christian"], key=float) == ["4", "6", "7", "15", "17", "24", "32"]


def test_1995_values_change_the_score() -> None:
    (game,) = read_games(CASES / "classic-3p-bambus-1995-901.imp")
    old = judge_game(game)
    text = (CASES / "classic-3p-bambus-1995-901.imp").read_text().replace('[Deck "bambus-1995"]\n', "")
    (modern,) = read_games(text)
    new = judge_game(modern)
    assert old.totals != new.totals
    assert old.all_findings() == []


def test_second_bottle_at_19_is_judged_against_after_the_first_is_taken() -> None:
    from imptools.rules.bottle_imp.bottles import Bottle, judge_trick

    bottles = [Bottle(), Bottle()]  # engine cards are twice the card's number
    win, taken = judge_trick([40, 36, 60], bottles)
    bottles[taken or 0].price, bottles[taken or 0].owner = 36, "Betty"
    win, taken = judge_trick([50, 42, 24], bottles)
    # the 19 bottle is now the higher price: 12 takes it, and Betty's 18 bottle stays hers
    assert (win, taken) == (2, 1)


def test_a_revoke_is_proven_from_the_deal_when_the_record_stops() -> None:
    text = (CASES / "rulebook-example.imp").read_text()
    head, _, _ = text.partition("1. Adam:24")
    (game,) = read_games(head + "1. Adam:24 15 17 33\n")
    findings = judge_game(game).all_findings()
    revoke = [f for f in findings if f.code == "revoke"]
    assert [(f.player, f.trick) for f in revoke] == [("Doris", 1)]
    assert "held 4" in revoke[0].message and "dealt" in revoke[0].message
    assert any(f.code == "incomplete" for f in findings)
