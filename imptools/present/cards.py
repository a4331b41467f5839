"""What the replay presenters share: cards in their colours, hands in order, the trick on the table, events in words.

Everything here reads a `GameReplay` and knows no game: a card's look comes from
its ruleset's `card_face`, a game's own state from `detail.lines()`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rich.color import Color, ColorParseError
from rich.text import Text

from imptools.findings import Finding, Severity
from imptools.replay import GameReplay, HandReplay
from imptools.rules.steps import Event

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ON_WHITE = ("#222222", "#c62828", "#2e7d32", "#b58900", "#1565c0", "#8e24aa", "#00838f", "#757575")
"""The eight terminal colours as inks that read well on a white card."""


def plain_card(card: str, game: GameReplay) -> str:
    """A card as plain text: a card whose text does not name its suit gets the suit's initial (`24` -> `24b`)."""
    face = game.face(card)
    if face.suit and face.text[-1:].isdigit():
        return face.text + face.suit[0]
    return face.text


def card_text(card: str, game: GameReplay, mark: str | None = None) -> Text:
    """A card in its colour, for a terminal that shows colours."""
    face = game.face(card)
    out = Text(face.text, style=f"bold {face.style}" if face.style else "bold")
    if mark:
        out.append(mark, style="bold magenta")
    return out


def card_label(card: str, game: GameReplay, colour: bool, mark: str | None = None) -> Text:
    """A card for a console: coloured when `colour`, else as plain text with its suit letter."""
    if colour:
        return card_text(card, game, mark)
    return Text(plain_card(card, game) + (mark or ""))


def css_colour(style: str | None) -> str | None:
    """A card face's colour name as `#rrggbb` for a web page (None when it has none)."""
    if not style:
        return None
    try:
        colour = Color.parse(style)
    except ColorParseError:
        return None
    if colour.number is not None and colour.number < 16:
        return _ON_WHITE[colour.number % 8]
    return colour.get_truecolor().hex


def sort_cards(cards: Iterable[str], game: GameReplay) -> list[str]:
    """Cards grouped by suit (alphabetically), numbers in numeric order within a suit."""

    def key(card: str) -> tuple[str, int, float, str]:
        face = game.face(card)
        m = _NUMBER.match(face.text)
        return (face.suit or "", 0 if m else 1, float(m.group()) if m else 0.0, face.text)

    return sorted(cards, key=key)


@dataclass(frozen=True, slots=True)
class TableView:
    """The trick on the table at a step: its plays, leader, number and (once it is over) its winner."""

    plays: tuple[tuple[str, str], ...]
    leader: str | None
    trick: int | None
    winner: str | None = None


def table_at(hand: HandReplay, i: int) -> TableView:
    """The trick shown at step `i`: the trick so far, or the whole trick with its winner at the trick's end."""
    step = hand.steps[i]
    event, state = step.event, step.state
    if event.kind == "trick" and not state.trick and i > 0:
        before = hand.steps[i - 1].state
        return TableView(before.trick, before.leader, event.trick, event.player)
    trick = next((s.event.trick for s in reversed(hand.steps[: i + 1]) if s.event.trick is not None), None)
    return TableView(state.trick, state.leader if state.trick else None, trick if state.trick else None)


def describe(event: Event, game: GameReplay) -> str:
    """An event in a few plain words: `Adam passes 7b to Betty`, `Christian takes trick 1`."""
    cards = " ".join(plain_card(c, game) for c in event.cards)
    who = event.player or ""
    if event.kind == "deal":
        return f"{who} is dealt {cards}"
    if event.kind == "discard":
        return f"{who} discards {cards}"
    if event.kind == "pass":
        return f"{who} passes {cards} to {event.text}"
    if event.kind == "play":
        return f"{who} plays {cards}{event.mark or ''}"
    if event.kind == "trick":
        return f"{who} takes trick {event.trick}" if who else f"trick {event.trick}"
    if event.kind == "end":
        return "end of the hand" + (f"; {event.text or 'turned over'}: {cards}" if event.cards else "")
    words = [event.kind, who, event.text or "", cards]
    return " ".join(w for w in words if w)


def finding_text(f: Finding) -> Text:
    """`code message`, the code coloured by severity."""
    style = "bold red" if f.severity is Severity.ERROR else "bold yellow"
    return Text.assemble(("✗ " if f.is_error else "! ", style), (f.code, style), " ", f.message)


def title(game: GameReplay) -> str:
    """`path · game 1 · <game> (variant) · Event, Date`."""
    tags = dict(game.tags)
    out = f"{game.path or '<text>'} · game {game.index} · {game.game_name or '?'}"
    if tags.get("Variant"):
        out += f" ({tags['Variant']})"
    extra = [tags[k] for k in ("Event", "Site", "Date") if tags.get(k)]
    return out + (" · " + ", ".join(extra) if extra else "")
