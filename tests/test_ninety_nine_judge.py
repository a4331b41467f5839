"""Ninety-nine records judged: every finding with its place and evidence, scores, the end of the game, replay."""

from __future__ import annotations

from pathlib import Path

from imptools.check import judge_game
from imptools.findings import Finding
from imptools.reader import read_games
from imptools.replay import replay
from imptools.rules.base import GameResult
from imptools.rules.ninety_nine.ruleset import NinetyNineState

SAMPLES = Path(__file__).resolve().parents[1] / "samples"

HEAD = '[Game "ninety-nine"]\n[Players "Al Bo Cy"]\n'

# The sample's hand 1. Turn-up AD: diamonds are trump. Bids 3, 3, 3 (Al's joker counts as a diamond).
# Al leads (Cy deals): KH wins 1, QS (Bo) 2, QD trumps 3, AC (Cy) 4, KC 5, 10H 6, 10S 7 (QC is no trump),
# KD 8, JD 9: Al 5 tricks, Bo 1, Cy 3 (exactly his bid, alone: +30).
DEALS = """hand 1 dealer Cy
deal Al JD JK 8C QD 8H 6C 10S AH KH KD 9S AS
deal Bo 9C 8D QS QH 7C 10C 7H JC 6D KS 7D QC
deal Cy 8S 9D 10D KC 9H JH 6H 10H 6S JS 7S AC
"""
TURNUP = "turnup AD\n"
BIDS = "bid Al AS AH JK\nbid Bo 7D KS QH\nbid Cy JS JH 9D\n"
TRICKS = [
    "1. Al:KH 7H 6H",
    "2. 9S QS 8S",
    "3. 8D 10D QD",
    "4. 6C 10C AC",
    "5. KC 8C JC",
    "6. 10H 8H 9C",
    "7. 6S 10S QC",
    "8. KD 6D 7S",
    "9. JD 7C 9H",
]
SCORES = {"Al": 5, "Bo": 1, "Cy": 33}


def record(deals: str = DEALS, turnup: str = TURNUP, bids: str = BIDS, tricks: list[str] | None = None) -> str:
    return HEAD + deals + turnup + bids + "\n".join(TRICKS if tricks is None else tricks) + "\n"


def judged(text: str) -> GameResult:
    (game,) = read_games(text)
    return judge_game(game)


def errors(text: str) -> list[tuple[str, int | None, str | None]]:
    """(code, trick, player) of every error."""
    return [(f.code, f.trick, f.player) for f in judged(text).all_findings() if f.is_error]


def finding(text: str, code: str) -> Finding:
    return next(f for f in judged(text).all_findings() if f.code == code)


def swap_al_8h_8c() -> list[str]:
    """Al plays 8H to the club lead of trick 5 and 8C in trick 6: a revoke in trick 5, same tricks won."""
    tricks = list(TRICKS)
    tricks[4] = "5. KC 8H JC"
    tricks[5] = "6. 10H 8C 9C"
    return tricks


# --------------------------------------------------------------------------- a clean hand


def test_the_sample_hand_is_clean_and_scores() -> None:
    result = judged(record())
    assert result.all_findings() == []
    assert result.hands[0].scores == SCORES
    assert dict(result.hands[0].notes) == {"turn-up": "AD, trump diamonds"}
    assert dict(result.hands[0].player_notes) == {
        "Al": "bid 3 · 5 tricks",
        "Bo": "bid 3 · 1 trick",
        "Cy": "bid 3 · 3 tricks · exact +30",
    }


def test_the_sunday_sample_validates_and_scores() -> None:
    (game,) = read_games(SAMPLES / "ninety-nine-sunday.imp")
    result = judge_game(game)
    assert result.all_findings() == []
    assert [h.scores for h in result.hands] == [
        {"Al": 5, "Bo": 1, "Cy": 33},
        {"Al": 1, "Bo": 55, "Cy": 53},
        {"Al": 2, "Bo": 65, "Cy": 62},
    ]
    assert result.totals == {"Al": 8, "Bo": 121, "Cy": 148}
    assert ("declared", "Al (not made)") in result.hands[1].notes
    assert ("revealed", "Al (not made)") in result.hands[2].notes


def test_tricks_only_with_bids_by_number() -> None:
    text = record(
        deals="hand 1\n", bids="bid Al 3\nbid Bo 3\nbid Cy 3\n", tricks=[t.replace("Al:", "") for t in TRICKS]
    )
    result = judged(text)
    assert result.all_findings() == []
    assert result.hands[0].scores == SCORES


def test_the_turn_up_is_inferred_when_every_other_card_is_placed() -> None:
    result = judged(record(turnup=""))
    assert result.all_findings() == []
    assert result.hands[0].scores == SCORES
    assert dict(result.hands[0].notes)["turn-up"] == "AD, trump diamonds"


def test_an_unknown_turn_up_leaves_a_trick_unjudged_only_where_it_matters() -> None:
    # tricks only, no turn-up: the ten cards no line places (the bids and the turn-up) may be the
    # turn-up, so spades, hearts, diamonds or nothing may be trump. Tricks 1-7 come out the same under
    # each, but in trick 8 the 7S to a diamond lead wins if spades are trump: the hand cannot be scored
    text = record(deals="hand 1 dealer Cy\n", turnup="", bids="bid Al 3\nbid Bo 3\nbid Cy 3\n")
    result = judged(text)
    # nothing was broken; the one word is that the hand is not scored, and why (not called clean unjudged)
    assert [(f.code, f.severity.value) for f in result.all_findings()] == [("not-scored", "warning")]
    assert "who won trick 8" in result.all_findings()[0].message
    assert result.hands[0].scores is None and result.hands[0].complete


# --------------------------------------------------------------------------- revokes


def test_a_revoke_proven_by_a_later_play() -> None:
    text = record(deals="hand 1 dealer Cy\n", bids="bid Al 3\nbid Bo 3\nbid Cy 3\n", tricks=swap_al_8h_8c())
    assert errors(text) == [("revoke", 5, "Al")]
    f = finding(text, "revoke")
    assert f.message == "Al did not follow clubs in trick 5 (played 8H) although Al held 8C, played in trick 6"
    # a revoke does not change the score
    assert judged(text).hands[0].scores == SCORES


def test_a_revoke_proven_by_the_deal_when_the_record_stops() -> None:
    text = record(tricks=swap_al_8h_8c()[:5])
    assert errors(text) == [("revoke", 5, "Al")]
    assert "held 8C, dealt to them and not played before" in finding(text, "revoke").message
    assert judged(text).hands[0].scores is None


def test_no_revoke_from_the_deal_while_the_card_may_be_among_unseen_bid_cards() -> None:
    # Al's bid is known only as a number: 8C may be one of the three cards put away
    text = record(bids="bid Al 3\nbid Bo 7D KS QH\nbid Cy JS JH 9D\n", tricks=swap_al_8h_8c()[:5])
    assert errors(text) == []


def test_a_revoke_proven_by_counting_the_cards_that_could_have_gone() -> None:
    # Al was dealt six hearts, played none, and at most three went to his bid: he still held one
    deals = DEALS.replace(
        "deal Al JD JK 8C QD 8H 6C 10S AH KH KD 9S AS", "deal Al JD JK 8C QD 8H 6C 10S AH KH 9H 10H JH"
    )
    deals = deals.replace(
        "deal Cy 8S 9D 10D KC 9H JH 6H 10H 6S JS 7S AC", "deal Cy 8S 9D 10D KC KD AS 6H 9S 6S JS 7S AC"
    )
    result = judged(HEAD + deals.replace("dealer Cy", "dealer Al") + TURNUP + "bid Al 3\n1. Bo:7H 6H 8C\n")
    revoke = [f for f in result.all_findings() if f.code == "revoke"]
    assert [(f.trick, f.player) for f in revoke] == [(1, "Al")]
    assert revoke[0].message == (
        "Al did not follow hearts in trick 1 (played 8C) although Al held one of 8H, 9H, 10H, JH, KH, AH, "
        "dealt to them and not played before, and at most 3 were put away"
    )


JOKER_HAND = """hand 1 dealer Al
deal Al JK 8C QC 7C 6C 10S 9S 8S 7S 6S 10H 9H
deal Bo KD QD 10D 9D 8D 7D 6D AH KH QH JH 8H
deal Cy AS KS QS JS AC KC JC 10C 9C JD 7H 6H
turnup AD
bid Al 6S 7S 8S
bid Bo AH KH QH
bid Cy AS KS QS
"""


def test_a_held_joker_must_follow_the_turn_up_suit() -> None:
    text = HEAD + JOKER_HAND + "1. Bo:KD JD 8C\n"
    assert errors(text) == [("revoke", 1, "Al")]
    assert "held JK" in finding(text, "revoke").message


def test_a_held_joker_wins_as_the_turned_up_ace() -> None:
    (game,) = read_games(HEAD + JOKER_HAND + "1. Bo:KD JD JK\n2. 8C 8H AC\n")
    steps = list(replay(game, 1))
    ends = [s for s in steps if s.event.kind == "trick"]
    assert [s.event.player for s in ends] == ["Al", "Cy"]


def test_a_revoke_by_a_player_whose_only_trump_is_the_joker_is_not_invented() -> None:
    # Al follows diamonds with the joker: no finding
    assert errors(HEAD + JOKER_HAND + "1. Bo:KD JD JK\n") == []


# --------------------------------------------------------------------------- the record checks


def test_the_turned_up_card_on_a_deal_line_is_a_duplicate_with_no_player() -> None:
    text = record(turnup="turnup 9S\n")
    f = finding(text, "duplicate-card")
    assert (f.trick, f.player) == (None, None)
    assert f.message == "9S is dealt to Al, but it is the turned-up card"


def test_the_turned_up_card_played_is_a_duplicate_at_the_play() -> None:
    text = record(deals="hand 1 dealer Cy\n", turnup="turnup 9S\n")
    assert ("duplicate-card", 2, "Al") in errors(text)


def test_the_joker_turned_up_is_on_nobody_s_deal() -> None:
    text = record(turnup="turnup JK\n")
    assert ("duplicate-card", None, None) in errors(text)


def test_a_card_in_two_bids() -> None:
    text = record(deals="hand 1 dealer Cy\n", bids="bid Al AS AH JK\nbid Bo 7D AS QH\nbid Cy JS JH 9D\n")
    assert errors(text) == [("duplicate-card", None, "Bo")]


def test_a_bid_card_not_dealt_to_the_bidder() -> None:
    text = record(bids="bid Al AS AH JK\nbid Bo 7D KS QH\nbid Cy JS JH 8D\n")
    found = errors(text)
    assert ("not-held", None, "Cy") in found
    assert "Cy bids 8D, which Cy was not dealt, dealt to Bo" in finding(text, "not-held").message


def test_a_bid_card_played_later_was_not_held() -> None:
    text = record(deals="hand 1 dealer Cy\n", bids="bid Al AS AH KH\nbid Bo 3\nbid Cy 3\n")
    found = finding(text, "not-held")
    assert (found.trick, found.player) == (1, "Al")
    assert found.message == "Al plays KH in trick 1 but it was put away in Al's bid"


def test_a_card_dealt_to_another_is_not_held_though_the_player_s_own_deal_is_unknown() -> None:
    deals = "hand 1 dealer Cy\ndeal Bo 9C 8D QS QH 7C 10C 7H JC 6D KS 7D QC\n"
    tricks = list(TRICKS)
    tricks[1] = "2. 9S QS QC"
    text = record(deals=deals, bids="", tricks=tricks[:2])
    assert ("not-held", 2, "Cy") in errors(text)


def test_a_card_not_in_the_deal_is_not_held() -> None:
    tricks = list(TRICKS)
    tricks[0] = "1. Al:KH 7H 8H"
    assert ("not-held", 1, "Cy") in errors(record(tricks=tricks))


def test_the_deal_lists_the_twelve_cards_dealt() -> None:
    short = DEALS.replace("deal Cy 8S 9D 10D KC 9H JH 6H 10H 6S JS 7S AC", "deal Cy 8S 10D KC 9H 6H 10H 6S 7S AC")
    assert ("hand-size", None, "Cy") in errors(record(deals=short))
    assert finding(record(deals=short), "hand-size").message == "Cy is dealt 9 cards; the deal gives 12"


def test_bad_bids() -> None:
    for bid, what in [
        ("bid Cy JS JH", "a bid is three cards, not 2"),
        ("bid Cy JS JH 9D 8S", "a bid is three cards, not 4"),
        ("bid Cy JS", "a bid is three cards, not 1"),
        ("bid Cy", "a bid is three cards, not 0"),
        ("bid Cy 10", "a bid is 0 to 9, not 10"),
    ]:
        text = record(bids=f"bid Al AS AH JK\nbid Bo 7D KS QH\n{bid}\n")
        assert errors(text) == [("bad-bid", None, "Cy")], bid
        assert finding(text, "bad-bid").message == f"Cy's bid: {what}"
        # the bad bid counts as not made: Cy's 3 tricks earn no bonus
        assert judged(text).hands[0].scores == {"Al": 5, "Bo": 1, "Cy": 3}


def test_a_second_bid_line_for_one_player() -> None:
    text = record(bids=BIDS + "bid Cy 4\n")
    assert errors(text) == [("bad-bid", None, "Cy")]
    assert judged(text).hands[0].scores == SCORES


def test_a_bid_with_an_unknown_card_is_not_made() -> None:
    text = record(bids="bid Al AS AH JK\nbid Bo 7D KS QH\nbid Cy JS ? 9D\n")
    assert errors(text) == []
    assert judged(text).hands[0].scores == {"Al": 5, "Bo": 1, "Cy": 3}


def test_one_call_per_hand_the_later_is_bad() -> None:
    text = record(bids=BIDS + "declare Cy\nreveal Al\n")
    assert errors(text) == [("bad-call", None, "Al")]
    # Cy's declaration stands: made, 3 + 30 + 30
    assert judged(text).hands[0].scores == {"Al": 5, "Bo": 1, "Cy": 63}


def test_a_revelation_that_fails_pays_each_opponent() -> None:
    text = record(bids=BIDS + "reveal Bo\n")
    assert judged(text).hands[0].scores == {"Al": 65, "Bo": 1, "Cy": 93}
    assert ("revealed", "Bo (not made)") in judged(text).hands[0].notes


def test_a_second_turn_up_line() -> None:
    assert errors(record(turnup="turnup AD\nturnup 9C\n")) == [("bad-call", None, None)]


def test_lines_of_other_games() -> None:
    text = record(bids=BIDS + "discard Al 9S\ntrump Bo oros\n")
    found = errors(text)
    assert ("bad-exchange", None, "Al") in found and ("bad-call", None, "Bo") in found


def test_names_in_tricks() -> None:
    tricks = list(TRICKS)
    tricks[1] = "2. 9S Cy:QS 8S"
    tricks[2] = "3. 8D 10D Xavier:QD"
    assert errors(record(tricks=tricks)) == [("out-of-turn", 2, "Bo"), ("unknown-player", 3, "Al")]


def test_an_unknown_card_names_the_player_whose_turn_it_was() -> None:
    tricks = list(TRICKS)
    tricks[5] = "6. 10H 8X 9C"
    result = judged(record(tricks=tricks))
    f = next(f for f in result.all_findings() if f.code == "unknown-card")
    assert (f.trick, f.player) == (6, "Al")
    assert result.hands[0].scores is None


def test_wrong_counts() -> None:
    tricks = list(TRICKS)
    tricks[5] = "6. 10H 8H"
    assert ("wrong-count", 6, None) in errors(record(tricks=tricks))
    tricks = list(TRICKS)
    tricks[1] = "3. 9S QS 8S"
    assert ("wrong-count", 3, None) in errors(record(tricks=tricks))


def test_score_and_total_lines_are_checked() -> None:
    text = record() + "score Al 5 Bo 1 Cy 3\ntotal Al 5 Bo 2 Cy 33\n"
    assert errors(text) == [("score-mismatch", None, "Cy"), ("score-mismatch", None, "Bo")]
    assert finding(text, "score-mismatch").message == "score of Cy is written 3, the rules give 33"


def test_an_incomplete_hand_is_a_warning_and_not_scored() -> None:
    result = judged(record(tricks=TRICKS[:4]))
    (f,) = result.all_findings()
    assert (f.code, f.is_error, f.trick) == ("incomplete", False, None)
    assert result.hands[0].scores is None and not result.hands[0].complete


# --------------------------------------------------------------------------- the game


def _hands(n: int) -> str:
    body = DEALS.split("\n", 1)[1] + TURNUP + BIDS + "\n".join(TRICKS) + "\n"
    return "".join(f"hand {k} dealer Cy\n{body}" for k in range(1, n + 1))


def test_nine_hands_make_a_game() -> None:
    eight = judged(HEAD + _hands(8))
    assert not eight.over and eight.winners == ()
    nine = judged(HEAD + _hands(9))
    assert nine.over
    assert nine.totals == {"Al": 45, "Bo": 9, "Cy": 297}
    assert nine.winners == ("Cy",)


def test_hands_and_target_tags_end_the_game() -> None:
    assert judged(HEAD.replace("]\n[P", ']\n[Hands "2"]\n[P', 1) + _hands(2)).over
    assert judged(HEAD + '[Target "60"]\n' + _hands(2)).over
    assert not judged(HEAD + '[Target "100"]\n' + _hands(2)).over


def test_other_than_three_players_is_not_judged() -> None:
    result = judged('[Game "ninety-nine"]\n[Players "Al Bo"]\nhand 1\nturnup AD\n')
    assert not result.rules_checked


# --------------------------------------------------------------------------- replay


def test_replay_states_after_every_event() -> None:
    (game,) = read_games(record(bids=BIDS + "declare Cy\n"))
    steps = list(replay(game, 1))
    kinds = [s.event.kind for s in steps]
    assert kinds[:8] == ["deal"] * 3 + ["turnup"] + ["bid"] * 3 + ["declare"]
    assert kinds.count("play") == 27 and kinds.count("trick") == 9 and kinds[-1] == "end"
    turned = steps[3].state.detail
    assert isinstance(turned, NinetyNineState)
    assert (turned.turnup, turned.trump) == ("AD", "trump diamonds")
    after_bids = steps[6].state
    assert len(after_bids.holdings["Al"]) == 9 and "JK" not in after_bids.holdings["Al"]
    assert isinstance(after_bids.detail, NinetyNineState)
    assert dict(after_bids.detail.bids) == {"Al": "3", "Bo": "3", "Cy": "3"}
    assert ("declared", "Cy") in steps[7].state.detail.lines()
    first = next(s for s in steps if s.event.kind == "trick")
    assert first.event.player == "Al" and first.state.tricks_won == {"Al": 1, "Bo": 0, "Cy": 0}
    assert isinstance(first.state.detail, NinetyNineState)
    assert dict(first.state.detail.tricks) == {"Al": 1, "Bo": 0, "Cy": 0}
    assert ("tricks", "Al 1 of 3, Bo 0 of 3, Cy 0 of 3") in first.state.detail.lines()
    # in trick 6 Bo plays 9C to a heart lead: he has shown he holds no hearts
    sixth = [s for s in steps if s.event.kind == "trick"][5]
    assert "hearts" in sixth.state.voids["Bo"]
    assert steps[-1].state.scores == {"Al": 5, "Bo": 1, "Cy": 63}
    assert all(not h for h in steps[-1].state.holdings.values())


def test_replay_without_deals_shows_the_cards_still_to_play() -> None:
    (game,) = read_games(record(deals="hand 1 dealer Cy\n", bids="bid Al 3\nbid Bo 3\nbid Cy 3\n"))
    steps = list(replay(game, 1))
    assert steps[0].event.kind == "turnup"
    assert len(steps[0].state.holdings["Al"]) == 9
    assert steps[0].state.known_from == {"Al": "plays", "Bo": "plays", "Cy": "plays"}


# --------------------------------------------------------------------------- the score sheet


def test_the_score_sheet_shows_bids_tricks_and_bonuses_from_the_ruleset() -> None:
    from rich.console import Console

    from imptools.present.score_sheet import score_sheet

    (game,) = read_games(SAMPLES / "ninety-nine-sunday.imp")
    console = Console(width=200, record=True)
    console.print(score_sheet(game, judge_game(game)))
    text = console.export_text()
    assert "bid 3 · 3 tricks · exact +30" in text
    assert "bid 5 · 5 tricks · exact +20 · call +30" in text
    # each kind of hand note has a column of its own, headed by its label
    header = next(line for line in text.splitlines() if "dealer" in line)
    assert "turn-up" in header and "declared" in header
    assert "KC, trump clubs" in text and "Al (not made)" in text


# --------------------------------------------------------------------------- the samples


def test_the_red_lion_sample_is_a_clean_nine_hand_game() -> None:
    (game,) = read_games(SAMPLES / "ninety-nine-red-lion.imp")
    result = judge_game(game)
    assert result.all_findings() == []
    assert len(result.hands) == 9 and result.over and result.winners == ("Maud",)
    # hand 4: a nine turned up, Maud's joker is the nine of clubs; she makes her three and has revealed
    assert result.hands[3].scores == {"Maud": 83, "Ivo": 21, "Tess": 5}


def test_the_scorers_pad_sample_scores_from_tricks_and_numbers_alone() -> None:
    (game,) = read_games(SAMPLES / "ninety-nine-scorers-pad.imp")
    result = judge_game(game)
    assert result.all_findings() == []
    # the joker turned up: no trump, and all three made their bids (10 each)
    assert result.hands[0].scores == {"Núria": 13, "Loïc": 12, "Tess": 14}
    assert result.totals == {"Núria": 41, "Loïc": 35, "Tess": 51}


def test_the_sample_with_mistakes_reports_each() -> None:
    (game,) = read_games(SAMPLES / "ninety-nine-with-mistakes.imp")
    found = [(f.code, f.hand, f.trick, f.player) for f in judge_game(game).all_findings()]
    assert found == [
        ("out-of-turn", 1, 2, "Al"),
        ("score-mismatch", 1, None, "Cy"),
        ("score-mismatch", 1, None, "Cy"),
        ("revoke", 2, 6, "Al"),
        ("not-held", 3, None, "Cy"),
        ("bad-bid", 3, None, "Bo"),
        ("incomplete", 4, None, None),
        ("bad-call", 4, None, "Cy"),
    ]


# --------------------------------------------------------------------------- unknown cards the record determines


def test_an_unknown_card_the_deal_determines_is_filled_in() -> None:
    tricks = list(TRICKS)
    tricks[8] = "9. ? 7C 9H"  # Al's last card can only be JD
    result = judged(record(tricks=tricks))
    assert result.all_findings() == [] and result.hands[0].scores == SCORES
    (game,) = read_games(record(tricks=tricks))
    plays = [s for s in replay(game, 1) if s.event.kind == "play"]
    assert plays[-3].event.cards == ("JD",)


def test_an_unknown_card_the_rest_of_the_record_determines_is_filled_in() -> None:
    tricks = list(TRICKS)
    tricks[3] = "4. 6C ? AC"  # every other card is placed: Bo's card is 10C
    result = judged(record(deals="hand 1 dealer Cy\n", tricks=tricks))
    assert result.all_findings() == [] and result.hands[0].scores == SCORES


def test_an_unknown_card_the_record_leaves_open_leaves_the_hand_unscored() -> None:
    tricks = list(TRICKS)
    tricks[3] = "4. 6C ? AC"  # the bids are numbers: 10C or any of nine unseen cards
    result = judged(record(deals="hand 1 dealer Cy\n", bids="bid Al 3\nbid Bo 3\nbid Cy 3\n", tricks=tricks))
    assert [f.code for f in result.all_findings()] == ["not-scored"]
    assert "trick 4 holds a `?`" in result.all_findings()[0].message
    assert result.hands[0].scores is None and result.hands[0].complete
    two = list(TRICKS)
    two[8] = "9. ? ? 9H"  # two unknown cards in Al's and Bo's last trick, no deals: either way round
    assert judged(record(deals="hand 1 dealer Cy\n", tricks=two)).hands[0].scores is None


CASES = Path(__file__).resolve().parent / "conformance" / "ninety-nine"


def test_a_card_dealt_twice_proves_no_revoke() -> None:
    # hand 2: JS is miswritten 7S on Al's line, so 7S is on two deals; Al's later failure to follow
    # spades proves nothing, since nobody can say who held 7S
    (game,) = read_games(CASES / "ninety-nine-record-duplicate-card-deal-403.imp")
    found = [(f.code, f.hand, f.player) for f in judge_game(game).all_findings()]
    assert ("duplicate-card", 2, "Al") in found
    assert not any(code == "revoke" for code, _, _ in found)


def test_the_facts_are_the_exact_bids_and_the_declares_and_reveals_made() -> None:
    path = SAMPLES / "ninety-nine-red-lion.imp"
    (game,) = read_games(path)
    result = judge_game(game)
    got: dict[tuple[str, str], int] = {}
    for h in result.hands:
        for p, key, value in h.facts:
            got[(p, key)] = got.get((p, key), 0) + value
    # Maud reveals in hands 1 and 4 and makes her bid (92 and 83: the 60 of a reveal made), declares in hand 7
    # and misses it (7, while Ivo and Tess take the 30 each); Tess declares in hand 9 and makes it (52)
    assert {k: v for k, v in got.items() if k[1] != "exact"} == {
        ("Maud", "reveal"): 2,
        ("Maud", "reveal-made"): 2,
        ("Maud", "declare"): 1,
        ("Tess", "declare"): 1,
        ("Tess", "declare-made"): 1,
    }
    # the exact bids again from the record: each bid line's suits (D 0, S 1, H 2, C 3; the joker with the turn-up's)
    # against the tricks, the last digit of the score (the bonuses are tens)
    exact: dict[str, int] = {}
    hand, turnup = 0, ""
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:1] == ["hand"]:
            hand = int(words[1])
        elif words[:1] == ["turnup"]:
            turnup = words[1]
        elif words[:1] == ["bid"]:
            scores = result.hands[hand - 1].scores
            assert scores is not None
            cards = [turnup if card == "JK" else card for card in words[2:5]]
            made = sum("DSHC".index(card[-1]) for card in cards) == scores[words[1]] % 10
            exact[words[1]] = exact.get(words[1], 0) + made
    assert {p: v for (p, k), v in got.items() if k == "exact"} == {p: v for p, v in exact.items() if v}
    assert sum(exact.values()) >= 9
