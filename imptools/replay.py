"""Stepping through a hand event by event: the public replay API.

`replay(game, hand_number)` yields a `Step` after every event of the hand
(deal, discard, pass, calls, each play, end of trick, end of hand), as the
game's ruleset plays it; its `state` says what is known at that moment: who
holds what, the trick so far, the won cards, the voids shown, the game's own
part (bottles, trump and calls, bids) and, at the end, the scores. States are
small immutable values, so a presenter or an analysis can keep or compare them.

`replay_game(game, result)` gathers a whole game for the presenters: every
hand's steps, each finding of `result` (from `imptools.check.judge_game`) placed
at the step it concerns, the scores and the running totals, and how to show
each card.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any

from imptools.findings import Finding
from imptools.record import Game, Hand
from imptools.rules import CardFace, GameResult, get_ruleset
from imptools.rules.steps import Detail, Event, State, Step

if TYPE_CHECKING:
    from imptools.analyse import HandAnalysis, PlayCost

__all__ = [
    "Detail",
    "Event",
    "GameReplay",
    "HandReplay",
    "State",
    "Step",
    "game_to_dict",
    "place_findings",
    "replay",
    "replay_game",
    "step_to_dict",
    "with_analyses",
]


def replay(game: Game, hand_number: int) -> Iterator[Step]:
    """The steps of one hand of `game`; nothing for a game or hand imptools cannot replay."""
    ruleset = get_ruleset(game.game_name)
    return iter(()) if ruleset is None else ruleset.replay(game, hand_number)


@dataclass(frozen=True, slots=True)
class HandReplay:
    """One hand ready to show: its steps and, beside each, the findings about that step.

    `opening` holds the findings about the hand as a whole that belong before its
    first event (or every finding, when the hand has no steps), `closing` those
    after its last (scores, lines written after the tricks). `totals` are the
    running totals after this hand (None when the game's scores are not computed).
    """

    number: int
    dealer: str | None
    steps: tuple[Step, ...]
    findings: tuple[tuple[Finding, ...], ...]
    opening: tuple[Finding, ...]
    closing: tuple[Finding, ...]
    complete: bool
    scores: Mapping[str, int] | None
    totals: Mapping[str, int] | None
    notes: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()
    analysis: HandAnalysis | None = None
    """What each card cost (`imp replay --analyse`), when the hand was analysed."""

    def cost_at(self, i: int) -> PlayCost | None:
        """The analysis of the play at step `i` (None for another event, or a play that was not valued)."""
        event = self.steps[i].event
        if self.analysis is None or event.kind != "play":
            return None
        return self.analysis.cost_of(event.trick, event.player)

    def findings_at(self, i: int) -> tuple[Finding, ...]:
        """The findings to show at step `i`, the hand's opening ones at the first step and closing ones at the last."""
        out = list(self.findings[i])
        if i == 0:
            out = [*self.opening, *out]
        if i == len(self.steps) - 1:
            out += self.closing
        return tuple(out)


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A game ready to show: its title facts, its hands, and how each card it mentions looks."""

    index: int
    path: str | None
    game_name: str | None
    tags: tuple[tuple[str, str], ...]
    players: tuple[str, ...]
    hands: tuple[HandReplay, ...]
    findings: tuple[Finding, ...]
    totals: Mapping[str, int]
    winners: tuple[str, ...]
    over: bool
    rules_checked: bool
    faces: Mapping[str, CardFace]

    @property
    def replayable(self) -> bool:
        """Whether any hand has steps to show."""
        return any(h.steps for h in self.hands)

    def face(self, card: str) -> CardFace:
        """How to show `card` (its text alone when the ruleset says nothing of it)."""
        return self.faces.get(card) or CardFace(card)


def place_findings(
    steps: Sequence[Step], findings: Sequence[Finding], hand_line: int | None = None
) -> tuple[list[list[Finding]], list[Finding], list[Finding]]:
    """Place each finding of one hand at the step it concerns: (per step, opening, closing).

    A finding about a trick goes to the play it points at (same line, the first play
    at or after its column), else that player's play in the trick, else the trick's
    end. Any other finding goes to the last event written at or before its line:
    before every event it opens the hand, after every event it closes it.
    """
    per_step: list[list[Finding]] = [[] for _ in steps]
    opening: list[Finding] = []
    closing: list[Finding] = []
    if not steps:
        return per_step, [*findings], closing
    written = sorted((s.event.line, i) for i, s in enumerate(steps) if s.event.line is not None)
    for f in findings:
        i = _trick_step(steps, f) if f.trick is not None else None
        if i is None:
            if f.line is None:
                closing.append(f)
                continue
            if not written or f.line > written[-1][0]:
                closing.append(f)
                continue
            k = bisect.bisect_right(written, (f.line, len(steps))) - 1
            if k < 0 or (hand_line is not None and f.line <= hand_line):
                opening.append(f)
                continue
            i = written[k][1]
        per_step[i].append(f)
    return per_step, opening, closing


def _trick_step(steps: Sequence[Step], f: Finding) -> int | None:
    plays = [i for i, s in enumerate(steps) if s.event.kind == "play" and s.event.trick == f.trick]
    same_line = [i for i in plays if steps[i].event.line == f.line]
    if same_line:
        after = [i for i in same_line if (steps[i].event.column or 0) >= (f.column or 0)]
        return after[0] if after else same_line[-1]
    by_player = [i for i in plays if steps[i].event.player == f.player and f.player is not None]
    if by_player:
        return by_player[0]
    ends = [i for i, s in enumerate(steps) if s.event.kind == "trick" and s.event.trick == f.trick]
    return ends[0] if ends else (plays[-1] if plays else None)


def replay_game(game: Game, result: GameResult) -> GameReplay:
    """Every hand of `game` with its steps and `result`'s findings placed among them."""
    ruleset = get_ruleset(game.game_name)
    running = dict.fromkeys(result.players, 0)
    hands: list[HandReplay] = []
    by_number: dict[int, Hand] = {h.number: h for h in game.hands}
    cards: set[str] = set()
    for judged in result.hands:
        record = by_number.get(judged.number)
        steps = tuple(ruleset.replay(game, judged.number)) if ruleset is not None and record is not None else ()
        for s in steps:
            cards.update(s.event.cards)
            cards.update(c for held in s.state.holdings.values() for c in held)
        per_step, opening, closing = place_findings(steps, judged.findings, record.line if record else None)
        if judged.scores is not None:
            for p, v in judged.scores.items():
                running[p] = running.get(p, 0) + v
        hands.append(
            HandReplay(
                judged.number,
                judged.dealer,
                steps,
                tuple(tuple(x) for x in per_step),
                tuple(opening),
                tuple(closing),
                judged.complete,
                judged.scores,
                dict(running) if result.rules_checked else None,
                tuple(a.text for a in record.annotations) if record else (),
                judged.notes,
            )
        )
    faces = {c: ruleset.card_face(c, game) for c in sorted(cards)} if ruleset is not None else {}
    return GameReplay(
        game.index,
        game.path,
        game.game_name,
        tuple((t.name, t.value) for t in game.tags),
        result.players,
        tuple(hands),
        result.findings,
        result.totals,
        result.winners,
        result.over,
        result.rules_checked,
        faces,
    )


def with_analyses(game: GameReplay, analyses: Iterable[HandAnalysis]) -> GameReplay:
    """`game` with each hand's analysis attached, matched by game and hand number (`imp replay --analyse`)."""
    by_hand = {a.hand: a for a in analyses if a.game == game.index}
    hands = tuple(replace(h, analysis=by_hand.get(h.number, h.analysis)) for h in game.hands)
    return replace(game, hands=hands)


# --------------------------------------------------------------------------- JSON


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted((_plain(v) for v in value), key=str)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def step_to_dict(step: Step) -> dict[str, Any]:
    """A step as plain JSON values: the event, and the state with its detail as lines and fields."""
    state = step.state
    detail = state.detail
    out: dict[str, Any] = {"event": _plain(step.event)}
    out["state"] = {
        "holdings": _plain(state.holdings),
        "known_from": _plain(state.known_from),
        "trick": _plain(state.trick),
        "leader": state.leader,
        "piles": _plain(state.piles),
        "tricks_won": _plain(state.tricks_won),
        "voids": _plain(state.voids),
        "stacks": _plain(state.stacks),
        "scores": _plain(state.scores),
        "detail": {"lines": _plain(detail.lines()), "fields": _plain(detail) if is_dataclass(detail) else {}},
    }
    return out


def _finding(f: Finding) -> dict[str, Any]:
    d = f.to_dict()
    del d["path"], d["game"]
    return d


def _hand_analysis(h: HandReplay) -> dict[str, Any]:
    """The analysis of a hand, as `imp replay --analyse --json` shows it beside the steps."""
    if h.analysis is None:
        return {}
    a = h.analysis.to_dict()
    return {"analysis": {k: a[k] for k in ("from_trick", "skipped", "note", "choices") if k in a}}


def _step_dict(h: HandReplay, i: int) -> dict[str, Any]:
    out = {**step_to_dict(h.steps[i]), "findings": [_finding(f) for f in h.findings[i]]}
    cost = h.cost_at(i)
    if cost is not None:
        out["analysis"] = cost.to_dict()
    return out


def game_to_dict(game: GameReplay) -> dict[str, Any]:
    """A replayed game as plain JSON values: its hands, each with its steps and the findings at each step (and,
    when the hands were analysed, each play's cost)."""
    return {
        "game": game.index,
        "name": game.game_name,
        "tags": dict(game.tags),
        "players": list(game.players),
        "findings": [_finding(f) for f in game.findings],
        "hands": [
            {
                "hand": h.number,
                "dealer": h.dealer,
                "complete": h.complete,
                "scores": _plain(h.scores),
                "totals": _plain(h.totals),
                "notes": list(h.notes),
                "facts": _plain(h.facts),
                "opening": [_finding(f) for f in h.opening],
                "closing": [_finding(f) for f in h.closing],
                **_hand_analysis(h),
                "steps": [_step_dict(h, i) for i in range(len(h.steps))],
            }
            for h in game.hands
        ],
        "totals": _plain(game.totals),
        "over": game.over,
        "winners": list(game.winners),
        "rules_checked": game.rules_checked,
    }
