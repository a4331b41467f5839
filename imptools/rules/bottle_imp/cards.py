"""The Bottle Imp's decks and cards: each card a small integer, twice its number (2.5 is 5), its colour, its coins."""

from __future__ import annotations

import re

from imptools.record import Game
from imptools.rules.bottle_imp.variants import BY_NAME

COLOURS = {"y": "yellow", "r": "red", "b": "blue", "g": "green"}
STYLES = {"y": "gold3", "r": "red", "b": "dodger_blue2", "g": "green3"}

_BAMBUS = """
1 y 1   2 y 1   3 y 2   4 b 1   5 y 2   6 b 1   7 y 3   8 b 2   9 y 3
10 b 2  11 r 1  12 y 4  13 b 3  14 r 1  15 y 4  16 r 2  17 b 3  18 y 5
20 b 4  21 r 2  22 y 5  23 r 3  24 b 4  25 y 6  26 r 3  27 b 5  28 y 6
29 r 4  30 b 5  31 r 4  32 b 6  33 r 5  34 b 6  35 r 5  36 r 6  37 r 6
"""

Table = dict[int, tuple[str, int]]
"""card (twice its number) -> (colour letter, coins)."""


def _table(text: str) -> Table:
    words = text.split()
    return {2 * int(words[i]): (words[i + 1], int(words[i + 2])) for i in range(0, len(words), 3)}


BAMBUS = _table(_BAMBUS)
"""The bambus deck."""

BAMBUS_1995 = {n: (c, 0 if n in (2, 4, 6) else v) for n, (c, v) in BAMBUS.items()}
"""The 1995 edition: cards 1, 2 and 3 are worth 0 coins."""

MATAGOT = {
    **{n: ({"y": "r", "r": "g"}.get(c, c), v) for n, (c, v) in BAMBUS.items()},
    **_table("3 b 1  4 r 2  17 b 4  23 b 4  24 g 3  34 g 5  35 b 6"),
}
"""The 2-6 player edition: red (low), blue, green (high)."""

DECKS = {"bambus": BAMBUS, "bambus-1995": BAMBUS_1995, "matagot": MATAGOT}
START_PRICE = 38
"""The bottle's start price, 19, as an engine card (twice the number)."""

TRICKS = {2: 8, 3: 11, 4: 8, 5: 10, 6: 8}
"""Tricks in a hand, by number of players (two players: four-card tricks)."""
DEAL = {3: 12, 4: 9, 5: 11, 6: 9}
"""Cards dealt to each player in the one-pack variants (the five-player dealer gets 10)."""


def deck_name(game: Game) -> str:
    """The `Deck` tag, or the spec's default for the variant and the number of players."""
    named = game.tag("Deck")
    if named in DECKS:
        return named
    variant = BY_NAME.get(game.tag("Variant") or "")
    if (variant is not None and variant.matagot) or len(game.players) in (5, 6):
        return "matagot"
    return "bambus"


def deck(game: Game) -> Table:
    """The cards of `game`: its deck, with the half cards 2.5, 4.5 ... 36.5 in 5-6 player games (54 cards)."""
    table = DECKS[deck_name(game)]
    if len(game.players) in (5, 6):
        table = {**table, **{n + 1: table[n] for n in table if n % 4 == 0}}
    return table


def spell(card: int) -> str:
    """An engine card spelled as the notation writes it: 48 -> `24`, 5 -> `2.5`."""
    return str(card // 2) if card % 2 == 0 else f"{card // 2}.5"


CARD = re.compile(r"0*([0-9]{1,2}(?:\.5)?)([a-zA-Z]?)")


def card_number(text: str) -> int | None:
    """The engine card a token names, by its spelling alone (None when it is no number a deck could hold, or its
    letter is no colour: `1O` is not card 1).

    >>> card_number("24b"), card_number("2.5"), card_number("9" * 400), card_number("1O")
    (48, 5, None, None)
    """
    m = CARD.fullmatch(text)
    if m is None or (m.group(2) and m.group(2).lower() not in COLOURS):
        return None
    whole, _, half = m.group(1).partition(".")
    return 2 * int(whole) + (1 if half else 0)
