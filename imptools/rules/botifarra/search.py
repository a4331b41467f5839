"""Botifarra's search as the registry finds it: the start position and plays of a recorded hand, and its trump table.

The search position itself is `imptools.rules.botifarra.position`, which is to move into this package. Before the
first card the chooser (the dealer, or his partner after `delegate`) named one of five trumps: the hand's
`Decision` offers each of them, the same cards dealt, for the analysis to value for the chooser's side.
"""

from __future__ import annotations

from functools import partial

from imptools.record import Game, Hand
from imptools.rules.base import Decision, Option, PlayedHand, Searchable, bits
from imptools.rules.botifarra import position
from imptools.rules.botifarra.calls import INDIVIDUAL, Calls, judge_calls, side_name
from imptools.rules.botifarra.cards import BOTIFARRA, SUIT_NAMES
from imptools.rules.botifarra.masks import CARD
from imptools.rules.botifarra.ruleset import call_lines
from imptools.rules.botifarra.scoring import HAND_POINTS, individual_scores, side_scores
from imptools.rules.botifarra.setup import Setup

TRUMPS: tuple[tuple[str, int | None], ...] = (*((name, i) for i, name in enumerate(SUIT_NAMES)), (BOTIFARRA, None))
"""The five choices of trump, as a `trump` line writes them, in the notation's order: the suit index, None for
botifarra."""


def played_hand(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card after the exchange), its plays and its trump table, or why it cannot
    be analysed (a `StartPosition`)."""
    assert isinstance(setup, Setup)
    found = position.played_hand(setup, hand, dealer)
    if isinstance(found, str):
        return found
    start = found.position
    assert isinstance(start, position.SearchBotifarra)
    calls = judge_calls([c for c, _ in call_lines(setup, hand)], dealer, setup.seating)
    found.decisions = (trump_decision(setup, calls, start, calls.chooser or dealer),)
    return found


def start_cards(start: position.SearchBotifarra) -> tuple[dict[str, set[int]], dict[str, list[list[int]]]]:
    """The cards each player holds in hand and in piles (top card first) at a trick's start (`start` is the
    position where play starts): what a `SearchBotifarra` to start from there is made of. A pile of one card is
    a card in hand (nothing lies under it)."""
    under = start.under
    below = {under[b].bit_length() - 1 for m in start.hands for b in bits(m) if under[b]}
    held: dict[str, set[int]] = {}
    piles: dict[str, list[list[int]]] = {}
    for seat, player in enumerate(start.order):
        on_piles: set[int] = set()
        for top in bits(start.free[seat]):
            if under[top] and top not in below:
                pile = [top]
                while under[pile[-1]]:
                    pile.append(under[pile[-1]].bit_length() - 1)
                on_piles.update(pile)
                piles.setdefault(player, []).append([CARD[b] for b in pile])
        held[player] = {CARD[b] for b in bits(start.hands[seat]) if b not in on_piles}
    return held, piles


def trump_decision(setup: Setup, calls: Calls, start: position.SearchBotifarra, chooser: str) -> Decision:
    """The choice of trump: each of the five, the one named taken (its start is the hand's own position), the
    others the same cards under that trump; valued for `chooser`'s side."""
    held, piles = start_cards(start)
    options = tuple(
        Option(word)
        if trump == calls.trump
        else Option(word, partial(position.SearchBotifarra, setup, start.order, trump, held, piles))
        for word, trump in TRUMPS
    )
    return Decision("trump", chooser, options, note=partial(contro_note, setup, calls, chooser))


def contro_note(setup: Setup, calls: Calls, chooser: str, value: int) -> str:
    """What the chooser's side's `value` (points, 0-72) under the trump named scores, and what a contro would have
    made of it, as the notation's scoring counts (`side_scores`, `individual_scores`, `Calls.multiplier`).

    >>> from imptools.rules.botifarra.calls import PARTNERSHIP, Seating
    >>> four = Setup("obligada", "obligada", Seating(("A", "B", "C", "D"), PARTNERSHIP), frozenset())
    >>> contro_note(four, Calls(True, 1, "D"), "D", 41)
    'copes at 41 scores 5 for B+D, 10 with a contro'
    >>> contro_note(four, Calls(True, None, "D"), "D", 30)
    'botifarra at 30 leaves A+C 42: 12 for them (doubled on botifarra), 24 with a contro'
    """
    word = calls.trump_word or BOTIFARRA
    plain = Calls(True, calls.trump).multiplier
    doubled = Calls(True, calls.trump, doubles=(("contro", ""),)).multiplier
    on_botifarra = " (doubled on botifarra)" if calls.trump is None else ""
    seating = setup.seating
    if seating.mode == INDIVIDUAL:
        players = seating.players
        points = {p: value if p == chooser else 0 for p in players}
        score = individual_scores(points, plain, set())[chooser]
        if calls.trump is None:
            return f"{word} at {value} scores {score} for {chooser}{on_botifarra}; no contro on botifarra"
        with_contro = individual_scores(points, doubled, set())[chooser]
        return f"{word} at {value} scores {score} for {chooser}, {with_contro} with a contro"
    ours = seating.side(chooser)
    theirs = tuple(p for p in seating.players if p not in ours)
    sides = [ours, theirs]
    scores = side_scores(sides, [value, HAND_POINTS - value], plain, None)
    contro = side_scores(sides, [value, HAND_POINTS - value], doubled, None)
    if scores[ours[0]]:
        return (
            f"{word} at {value} scores {scores[ours[0]]} for {side_name(ours)}{on_botifarra}, "
            f"{contro[ours[0]]} with a contro"
        )
    if scores[theirs[0]]:
        return (
            f"{word} at {value} leaves {side_name(theirs)} {HAND_POINTS - value}: {scores[theirs[0]]} for them"
            f"{on_botifarra}, {contro[theirs[0]]} with a contro"
        )
    return f"{word} at {value} scores nothing, with a contro or without"
