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


INK = "#1d232a"
"""The page's text colour: cards whose face says "default" (the terminal's own colour) are drawn in it."""
_CONTRAST = 4.5
"""The least contrast a card's ink keeps against the white card (WCAG AA for text)."""


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_on_white(rgb: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of a colour against white (1 to 21)."""
    return 1.05 / (_luminance(rgb) + 0.05)


def css_colour(style: str | None) -> str | None:
    """A card face's colour name as `#rrggbb` for a web page (None when it has none).

    A colour that would be faint on a white card (gold, light green ...) is darkened,
    keeping its hue, until it reads; `default` is the page's ink.
    """
    if not style:
        return None
    try:
        colour = Color.parse(style)
    except ColorParseError:
        return None
    if colour.is_default:
        return INK
    if colour.number is not None and colour.number < 16:
        return _ON_WHITE[colour.number % 8]
    r, g, b = colour.get_truecolor()
    scale = 1.0
    while contrast_on_white((round(r * scale), round(g * scale), round(b * scale))) < _CONTRAST and scale > 0:
        scale -= 0.02
    return "#{:02x}{:02x}{:02x}".format(*(round(v * max(scale, 0.0)) for v in (r, g, b)))


def sort_cards(cards: Iterable[str], game: GameReplay) -> list[str]:
    """Cards in their ruleset's order (`CardFace.order`: by suit or colour, then rank); ties by suit and number."""

    def key(card: str) -> tuple[int, str, int, float, str]:
        face = game.face(card)
        m = _NUMBER.match(face.text)
        return (face.order, face.suit or "", 0 if m else 1, float(m.group()) if m else 0.0, face.text)

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


def _words(kind: str, who: str, cards: str, text: str) -> str:
    """A line before the play as a sentence, from its kind and fields alone."""
    if kind == "trump":
        return f"{who} names trumps: {text or cards}" if who else f"trumps: {text or cards}"
    if kind == "call":
        return f"{who} calls {text or cards}".strip()
    if kind == "bid":
        return f"{who} bids {text}" + (f", setting aside {cards}" if cards else "") if text else f"{who} bids {cards}"
    if kind == "declare":
        if text == "reveal":
            return f"{who} declares and reveals their hand"
        return f"{who} declares" if text in ("", "declare") else f"{who} declares {text}"
    if kind == "turnup":
        return f"{cards} is turned up" + (f" ({text})" if text else "")
    if kind == "open":
        return f"{who} opens pack {text}" if text else f"{who} opens"
    if kind == "imp":
        return f"the imp's trick: {cards}"
    words = [who, kind + ("s" if who else ""), text, cards]
    return " ".join(w for w in words if w)


def describe(event: Event, game: GameReplay) -> str:
    """An event as a person would say it: `Adam passes 7b to Betty`, `Pau calls contro`, `Maud bids 2`."""
    cards = " ".join(plain_card(c, game) for c in event.cards)
    who = event.player or ""
    if event.kind == "deal":
        return f"{who} is dealt {cards}"
    if event.kind == "discard":
        return f"{who} discards {cards}"
    if event.kind == "pass":
        return f"{who} passes {cards} to {event.text}"
    if event.kind == "play":
        return f"{who} plays {cards}{event.mark or ''}" + (f" ({event.text})" if event.text else "")
    if event.kind == "trick":
        return f"{who} takes trick {event.trick}" if who else f"trick {event.trick}"
    if event.kind == "end":
        return "end of the hand" + (f"; {event.text or 'turned over'}: {cards}" if event.cards else "")
    return _words(event.kind, who, cards, event.text or "")


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
