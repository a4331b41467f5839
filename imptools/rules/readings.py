"""How a hand's slips are read as the players meant them (the notation's section 8, "One slip, one finding"): trick
lines unread, left out, written twice or out of order, and the places and readings of a card written for another.

Helpers of `imptools.rules.template`, which judges each reading (docs/decisions.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from itertools import pairwise

from imptools.findings import Finding
from imptools.record import (
    Bid,
    CardText,
    Deal,
    Discard,
    Game,
    Hand,
    HandLine,
    ImpTrick,
    Pass,
    Trick,
    TurnUp,
    UnreadLine,
)
from imptools.rules.report import Reporter

Unknown = tuple[dict[tuple[int, int], str], dict[tuple[int, int], str], tuple[Finding, ...]]
"""The tricks put in for lines that could not be read and for lines left out (`TrickRuleset._play_judged`), each by
its place, and the findings of trick lines read out of place."""

CARD_SLIPS = ("duplicate-card", "not-held")
"""The findings that prove a card played, passed or discarded is a slip of the pen (nobody plays a card twice, or one
he does not hold)."""
MAX_CARD_SLIPS = 3
"""At most this many card slips of one hand are read as meant; past that the record is judged as written."""
MAX_READINGS = 200
"""At most this many readings of one slip are judged (places of the card times the cards it may stand for)."""


UNREAD_TRICK = re.compile(r"\s*([0-9]{1,9})(?![0-9])")
"""An unread line that starts like trick N (its number, then its dot or a slip for it: `3,`, `3:`, `3)`): the trick
is there, its plays could not be read."""


def unread_tricks(hand: Hand) -> tuple[Hand, dict[tuple[int, int], str]]:
    """`hand` with each unread line that stands where trick N is due, and starts with N, made an empty trick N.

    So that one trick line the reader could not read is judged as that trick, unknown (the walk stops there and
    the hand says why it is not scored), not as a hand one trick short with every later trick out of order.
    Returns the hand and, by the (line, column) of each such trick, why it is unknown.
    """
    if not any(isinstance(x, UnreadLine) for x in hand.lines):
        return hand, {}
    lines: list[HandLine] = []
    unread: dict[tuple[int, int], str] = {}
    due = 1
    for line in hand.lines:
        if isinstance(line, Trick):
            due = line.number + 1
        elif isinstance(line, UnreadLine) and (m := UNREAD_TRICK.match(line.text)) and int(m.group(1)) == due:
            line = Trick(due, (), line.line, line.column)
            unread[(line.line, line.column)] = f"trick {due} could not be read (line {line.line})"
            due += 1
        lines.append(line)
    return (replace(hand, lines=tuple(lines)), unread) if unread else (hand, unread)


def reordered_tricks(game: Game, hand: Hand) -> list[tuple[Hand, tuple[Finding, ...]]]:
    """`hand` read with its trick lines where the players played them, where they are plainly out of place: a line
    that repeats an earlier one (its number and every play) read once, and lines whose numbers are all different but
    out of order read in the order of their numbers. With its `wrong-count` findings: one on each line read once,
    one where the order first breaks; no reading where nothing is out of place."""
    tricks = hand.tricks
    if all(a.number < b.number for a, b in pairwise(tricks)):
        return []  # in order, none written twice: the common case, at once
    report = Reporter(game, hand, [])
    seen: dict[tuple[object, ...], Trick] = {}
    kept: list[Trick] = []
    for t in tricks:
        key = (t.number, *((p.card.text, p.player.name if p.player else None) for p in t.plays))
        if t.plays and key in seen:
            msg = f"trick {t.number} is written twice, here and on line {seen[key].line}: read once"
            report.add("wrong-count", msg, t.line, t.column, t.number, None)
            continue
        seen[key] = t
        kept.append(t)
    numbers = [t.number for t in kept]
    if len(set(numbers)) == len(numbers) and numbers != sorted(numbers):  # one finding, where the order first breaks
        k = next(k for k in range(1, len(kept)) if kept[k].number < kept[k - 1].number)
        t, before = kept[k], kept[k - 1].number
        msg = (
            f"trick {t.number} is written after trick {before}: the trick lines are read in the order of their numbers"
        )
        report.add("wrong-count", msg, t.line, t.column, t.number, None)
        kept = sorted(kept, key=lambda t: t.number)
    if not report.findings:
        return []
    order = iter(kept)
    places = {(t.line, t.column) for t in tricks}
    lines: list[HandLine] = []
    for line in hand.lines:
        if isinstance(line, Trick) and (line.line, line.column) in places:
            nxt = next(order, None)
            if nxt is not None:
                lines.append(nxt)
            continue
        lines.append(line)
    return [(replace(hand, lines=tuple(lines)), tuple(report.findings))]


def missing_tricks(hand: Hand, tricks: int) -> tuple[Hand, dict[tuple[int, int], str]] | None:
    """`hand` with the tricks its numbers skip put in as unknown tricks, where the numbers rise from 1 with gaps
    and stay within the hand's `tricks`: a trick line left out, not the rest misnumbered (`4.`, `6.`, `7.`, `8.` of
    eight tricks). None where the numbers do not read so. Each trick put in stands at the line of the trick written
    after it, column 0 (no column of the record); returned by that place, with why it is unknown."""
    numbers = [t.number for t in hand.tricks]
    if not numbers or numbers == list(range(1, len(numbers) + 1)) or numbers[-1] > tricks:
        return None
    if numbers[0] < 1 or any(b <= a for a, b in pairwise(numbers)):
        return None
    lines: list[HandLine] = []
    gaps: dict[tuple[int, int], str] = {}
    due = 1
    for line in hand.lines:
        if isinstance(line, Trick):
            if line.number > due:
                gaps[(line.line, 0)] = f"trick {due} is missing (line {line.line})"
                lines.extend(Trick(n, (), line.line, 0) for n in range(due, line.number))
            due = line.number + 1
        lines.append(line)
    return replace(hand, lines=tuple(lines)), gaps


def gap_findings(game: Game, hand: Hand, gaps: dict[tuple[int, int], str]) -> list[Finding]:
    """One `wrong-count` for each run of tricks left out, on the line of the trick written after it."""
    report = Reporter(game, hand, [])
    tricks = hand.tricks
    for k, trick in enumerate(tricks):
        if (trick.line, trick.column) in gaps and (k == 0 or (tricks[k - 1].line, tricks[k - 1].column) not in gaps):
            last = k
            while (tricks[last].line, tricks[last].column) in gaps:
                last += 1
            after = tricks[last]
            first, final = trick.number, after.number - 1
            what = f"trick {first} is" if first == final else f"tricks {first}-{final} are"
            before = f"follows trick {first - 1}" if first > 1 else "is the hand's first"
            msg = f"{what} missing: trick {after.number} {before}"
            report.add("wrong-count", msg, after.line, after.column, first, None)
    return report.findings


def place_of(f: Finding) -> tuple[int, int]:
    """Where a finding stands, (line, column), (0, 0) where it says neither."""
    return (f.line or 0, f.column or 0)


def errors_in(findings: list[Finding]) -> int:
    """How many of `findings` are errors (the measure by which one reading of a slip beats another)."""
    return sum(1 for f in findings if f.is_error)


def at_places(f: Finding, places: dict[tuple[int, int], str]) -> bool:
    """Whether `f` stands at one of `places` (line, column)."""
    return f.line is not None and f.column is not None and (f.line, f.column) in places


def placed_cards(hand: Hand) -> list[CardText]:
    """Every card token the hand's tricks, discards, imp's trick, bids and turn-up place (not the deals)."""
    out: list[CardText] = []
    for line in hand.lines:
        if isinstance(line, Trick):
            out.extend(p.card for p in line.plays)
        elif isinstance(line, (Discard, ImpTrick, Bid)):
            out.extend(line.cards)
        elif isinstance(line, TurnUp):
            out.append(line.card)
    return [c for c in out if not c.unknown]


def score_misses(hand: Hand, scores: Mapping[str, int] | None) -> int:
    """How many values of `hand`'s `score` lines differ from `scores`, and more than all of them where there are
    none: where two readings of a slip judge the hand alike, one that scores it beats one that cannot, and the score
    written says which the players played."""
    if scores is None:
        return 1 + sum(len(x.entries) for x in hand.scores)
    return sum(
        1 for x in hand.scores for e in x.entries if e.player.name in scores and scores[e.player.name] != e.value
    )


def kept_findings(slips: list[Finding], at: tuple[int, int], places: list[tuple[int, int]]) -> list[Finding]:
    """The findings a card slip read at `at` keeps: those at `at`; where there are none (a card written at its
    first place for another, the `duplicate-card` at its second), those at the card's other places."""
    return [f for f in slips if place_of(f) == at] or [f for f in slips if place_of(f) in places]


def slip_tokens(hand: Hand) -> dict[tuple[int, int], tuple[CardText, str | None]]:
    """The card tokens a card slip may stand at, by place: each play (None), and each card passed or discarded,
    with the player whose card it is."""
    tokens: dict[tuple[int, int], tuple[CardText, str | None]] = {}
    for line in hand.lines:
        if isinstance(line, Trick):
            tokens.update(((p.card.line, p.card.column), (p.card, None)) for p in line.plays)
        elif isinstance(line, Discard):
            tokens.update(((c.line, c.column), (c, line.player.name)) for c in line.cards)
        elif isinstance(line, Pass):
            tokens[(line.card.line, line.card.column)] = (line.card, line.giver.name)
    return tokens


def with_card(hand: Hand, at: tuple[int, int], card: str) -> Hand:
    """`hand` with the play or dealt card whose token stands at `at` (line, column) made `card`."""
    lines: list[HandLine] = []
    for line in hand.lines:
        if isinstance(line, Trick) and any((p.card.line, p.card.column) == at for p in line.plays):
            plays = tuple(
                replace(p, card=replace(p.card, text=card)) if (p.card.line, p.card.column) == at else p
                for p in line.plays
            )
            line = replace(line, plays=plays)
        elif isinstance(line, (TurnUp, Pass)) and (line.card.line, line.card.column) == at:
            line = replace(line, card=replace(line.card, text=card))
        elif isinstance(line, (Deal, Discard)) and any((c.line, c.column) == at for c in line.cards):
            line = replace(
                line, cards=tuple(replace(c, text=card) if (c.line, c.column) == at else c for c in line.cards)
            )
        lines.append(line)
    return replace(hand, lines=tuple(lines))


def swapped_readings(
    hand: Hand, at: tuple[int, int], slips: list[Finding]
) -> list[tuple[Hand, list[Finding], tuple[int, int]]]:
    """The readings of a play at `at` as two cards of its trick written in each other's places (`2. 27 24 32 17`
    for `2. 27 32 24 17`): the hand with the two swapped back, keeping the slip's findings at both places (a swapped
    card is `not-held` twice, NOTATION section 8), read as the slip at `at`."""
    trick = next((t for t in hand.tricks if any((p.card.line, p.card.column) == at for p in t.plays)), None)
    if trick is None:
        return []
    mine = next(p.card for p in trick.plays if (p.card.line, p.card.column) == at)
    out: list[tuple[Hand, list[Finding], tuple[int, int]]] = []
    for other in (p.card for p in trick.plays if p.card is not mine and not p.card.unknown):
        there = (other.line, other.column)
        kept = [f for f in slips if place_of(f) in (at, there)]
        out.append((with_card(with_card(hand, at, other.text), there, mine.text), kept, at))
    return out


def copied_lines(hand: Hand, game: Game) -> tuple[Hand, list[Finding]]:
    """`hand` without each `deal` or `discard` line that repeats an earlier one card for card (the same player, pack
    and cards), and one `duplicate-card` for each: a line copied twice is read once (docs/decisions.md). The record
    keeps the copy; only the judging and the replay leave it out."""
    seen: dict[tuple[type, str, int | None, tuple[str, ...]], int] = {}
    kept: list[HandLine] = []
    found: list[Finding] = []
    for line in hand.lines:
        if isinstance(line, (Deal, Discard)) and line.cards:
            key = (type(line), line.player.name, line.player.pack, tuple(c.text for c in line.cards))
            if key in seen:
                kind = "deal" if isinstance(line, Deal) else "discard"
                found.append(
                    Finding(
                        "duplicate-card",
                        f"This `{kind}` line repeats line {seen[key]} card for card: it is read once",
                        line.line,
                        line.column,
                        game.path,
                        game.index,
                        hand.number,
                        None,
                        line.player.name,
                    )
                )
                continue
            seen[key] = line.line
        kept.append(line)
    return (replace(hand, lines=tuple(kept)), found) if found else (hand, [])


def with_dealt(hand: Hand, deal: Deal, cards: list[str]) -> Hand:
    """`hand` with `cards` added to the `deal` line (at column 0 of its line: no place of the record)."""
    added = tuple(CardText(c, deal.line, 0) for c in cards)
    lines = [replace(x, cards=(*x.cards, *added)) if isinstance(x, Deal) and x is deal else x for x in hand.lines]
    return replace(hand, lines=tuple(lines))
