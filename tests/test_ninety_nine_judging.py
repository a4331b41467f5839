"""Ninety-nine's judging shortcuts give the answers of the rules as written: the trick's winner from tables, and the
revoke search skipped only where it can find nothing."""

from __future__ import annotations

from random import Random

from imptools.reader import read_games
from imptools.rules.holdings import Holdings, revoke_findings
from imptools.rules.ninety_nine.cards import DECK, JOKER, effective, parse, suit_in_play, trick_winner, trump_of
from imptools.rules.ninety_nine.judging import may_revoke
from imptools.rules.ninety_nine.ruleset import RULESET
from imptools.rules.ninety_nine.setup import Deck, Setup, suit_names
from imptools.rules.report import Reporter
from imptools.rules.tricks import Played, turn_order, walk_tricks
from imptools.simulate import Options, simulate


def winner_as_written(cards: list[int], turnup: int) -> int | None:
    """The rule of section 7 word for word: the highest trump if any was played, else the highest of the suit led."""
    suits = [suit_in_play(c, turnup) for c in cards]
    if not cards or None in suits:
        return None
    trump = trump_of(turnup)
    wanted = trump if trump is not None and trump in suits else suits[0]
    return max((i for i, s in enumerate(suits) if s == wanted), key=lambda i: effective(cards[i], turnup) % 9)


def test_the_trick_winner_from_tables_is_the_rule_as_written() -> None:
    rng = Random(99)
    for _ in range(20000):
        turnup = rng.choice(DECK)
        cards = rng.sample(DECK, rng.randrange(0, 4))
        if rng.random() < 0.05:
            cards.append(JOKER if rng.random() < 0.5 else turnup)  # the joker, or the turn-up played too
        assert trick_winner(cards, turnup) == winner_as_written(cards, turnup), (cards, turnup)


def swapped(text: str, rng: Random) -> str:
    """The record with a few played cards swapped between tricks (revokes and cards not held)."""
    lines = text.split("\n")
    tricks = [k for k, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    for _ in range(rng.randrange(0, 3)):
        a, b = rng.sample(tricks, 2)
        ta, tb = lines[a].split(), lines[b].split()
        i, j = rng.randrange(1, len(ta)), rng.randrange(1, len(tb))
        ca, cb = ta[i].split(":")[-1], tb[j].split(":")[-1]
        ta[i], tb[j] = ta[i][: len(ta[i]) - len(ca)] + cb, tb[j][: len(tb[j]) - len(cb)] + ca
        lines[a], lines[b] = " ".join(ta), " ".join(tb)
    return "\n".join(lines)


def test_the_revoke_search_is_skipped_only_where_it_finds_nothing() -> None:
    skipped = searched = found = 0
    for seed in range(40):
        text = "".join(simulate(Options("ninety-nine", ("Al", "Bo", "Cy"), None, 4, seed, "random", True, True)))
        for game in read_games(swapped(text, Random(seed)) if seed % 4 else text):
            setup = RULESET.table(game)
            assert isinstance(setup, Setup)
            for hand in game.hands:
                assert hand.dealer is not None
                report = Reporter(game, hand)
                deck = RULESET.hand_deck(hand, setup.players, report)
                order = turn_order(setup.players, hand.dealer.name)

                def settle(played: Played, deck: Deck = deck) -> int | None:
                    return deck.winner(played.cards)

                walk = walk_tricks(hand, order, 3, parse, settle)
                tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
                kept = {p: cards - deck.put_away.get(p, set()) for p, cards in deck.dealt.items()}
                revoke_findings(walk, Holdings(walk, kept), deck.suit_name, str, str, report)
                revokes = [f for f in report.findings if f.code == "revoke"]
                if may_revoke(tricks, suit_names(deck.possible), kept):
                    searched += 1
                    found += bool(revokes)
                else:
                    skipped += 1
                    assert not revokes
    assert skipped > 100 and found > 10, (skipped, searched, found)
