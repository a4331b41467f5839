"""`imp replay --html`: one self-contained page to step through a record in any browser.

The page is `replay_page.html` beside this module (inline CSS and JS, no network,
no external file) with the replayed games embedded as compact JSON: for every
step its event, each player's known cards, the trick, the game's own state lines
and the findings there. It knows no game: cards are drawn from their ruleset's
`card_face`, the game's state from `detail.lines()`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib import resources
from typing import Any

import orjson

from imptools.findings import Finding
from imptools.present.analysis import figure
from imptools.present.cards import css_colour, describe, sort_cards, title
from imptools.replay import GameReplay, HandReplay
from imptools.rules.steps import KNOWN_FROM_DEAL, Step


def _finding(f: Finding) -> list[Any]:
    return [f.code, f.severity.value if f.severity else "error", f.message, f.line]


def _step(game: GameReplay, hand: HandReplay, i: int, step: Step) -> dict[str, Any]:
    e, s = step.event, step.state
    known = s.known_from or {}
    stacks = s.stacks or {}
    stacked = {p: {c for pile in stacks.get(p, ()) for c in pile} for p in game.players}
    out: dict[str, Any] = {
        "k": e.kind,
        "p": e.player,
        "c": list(e.cards),
        "say": describe(e, game),
        "h": [sort_cards(set(s.holdings.get(p, ())) - stacked[p], game) for p in game.players],
        "st": [[[pile[0], len(pile)] for pile in stacks.get(p, ())] for p in game.players],
        "kf": [known.get(p) == KNOWN_FROM_DEAL for p in game.players],
        "t": [[p, c] for p, c in s.trick],
        "l": s.leader,
        "w": [(s.tricks_won or {}).get(p, 0) for p in game.players],
        "v": [sorted(s.voids.get(p, ())) for p in game.players],
        "d": [[label, text] for label, text in s.detail.lines()],
    }
    if e.trick is not None:
        out["n"] = e.trick
    if e.notes:
        out["notes"] = list(e.notes) + (list(hand.notes) if i == 0 else [])
    elif i == 0 and hand.notes:
        out["notes"] = list(hand.notes)
    if e.mark:
        out["m"] = e.mark
    if e.text:
        out["x"] = e.text
    cost = hand.cost_at(i)
    if cost is not None:
        out["a"] = [cost.cost, cost.mark, cost.value_before, cost.value_after, list(cost.best)]
        if cost.knowing is not None:
            k = cost.knowing
            out["a"].append([figure(k.cost), list(k.best), k.worlds, cost.player])
    findings = hand.findings_at(i)
    if findings:
        out["f"] = [_finding(f) for f in findings]
    return out


_CARRIED = ("h", "kf", "w", "v", "d", "st")
"""Step keys left out where they equal the previous step's (for `h`, player by player): the page carries them."""


def _unrepeated(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    previous: dict[str, Any] = {}
    for step in steps:
        held = step["h"]
        if "h" in previous:
            # each player's cards: null where they did not change
            step["h"] = [None if now == before else now for now, before in zip(held, previous["h"])]
            if not any(x is not None for x in step["h"]):
                del step["h"]
        previous["h"] = held
        for key in _CARRIED[1:]:
            if step[key] == previous.get(key):
                del step[key]
            else:
                previous[key] = step[key]
    return steps


def page_data(games: Sequence[GameReplay]) -> dict[str, Any]:
    """The games as the page's script reads them (compact keys: one step is a few hundred bytes)."""
    out: list[dict[str, Any]] = []
    for game in games:
        faces = {c: [f.text, f.suit, css_colour(f.style)] for c, f in game.faces.items()}
        out.append(
            {
                "title": title(game),
                "index": game.index,
                "players": list(game.players),
                "scored": game.rules_checked,
                "findings": [_finding(f) for f in game.findings],
                "faces": faces,
                "hands": [
                    {
                        "number": h.number,
                        "dealer": h.dealer,
                        "complete": h.complete,
                        "scores": [None if h.scores is None else h.scores.get(p, 0) for p in game.players],
                        "totals": [None if h.totals is None else h.totals.get(p, 0) for p in game.players],
                        "opening": [_finding(f) for f in h.opening] if not h.steps else [],
                        "steps": _unrepeated([_step(game, h, i, s) for i, s in enumerate(h.steps)]),
                    }
                    for h in game.hands
                ],
            }
        )
    return {"games": out}


def replay_page(games: Sequence[GameReplay]) -> str:
    """The whole page as text: the template with the games embedded."""
    template = resources.files(__package__).joinpath("replay_page.html").read_text(encoding="utf-8")
    data = orjson.dumps(page_data(games)).decode("utf-8")
    # "<" only occurs inside JSON strings: spelled \u003c it cannot end the <script> element early
    data = data.replace("<", "\\u003c")
    name = games[0].path if games else None
    page_title = html.escape(f"Replay · {name}" if name else "Replay")
    return template.replace("__TITLE__", page_title).replace("/*__DATA__*/{}", data)
