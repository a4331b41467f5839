"""The Bottle Imp (the notation's section 5): decks and card tokens.

The deck tables live here and nowhere else. The play rules and scoring land
with the Bottle Imp engine; until then `judge` reports what the card tokens
and names alone show, and scores nothing.
"""

from __future__ import annotations

import re

from imptools.record import Game
from imptools.rules.base import CardCheck, TokenRuleset

COLOURS = {"y": "yellow", "r": "red", "b": "blue", "g": "green"}

_BAMBUS = """
1 y 1   2 y 1   3 y 2   4 b 1   5 y 2   6 b 1   7 y 3   8 b 2   9 y 3
10 b 2  11 r 1  12 y 4  13 b 3  14 r 1  15 y 4  16 r 2  17 b 3  18 y 5
20 b 4  21 r 2  22 y 5  23 r 3  24 b 4  25 y 6  26 r 3  27 b 5  28 y 6
29 r 4  30 b 5  31 r 4  32 b 6  33 r 5  34 b 6  35 r 5  36 r 6  37 r 6
"""


def _table(text: str) -> dict[float, tuple[str, int]]:
    words = text.split()
    return {float(words[i]): (words[i + 1], int(words[i + 2])) for i in range(0, len(words), 3)}


BAMBUS = _table(_BAMBUS)
"""number -> (colour letter, coins) of the bambus deck."""

BAMBUS_1995 = {n: (c, 0 if n in (1, 2, 3) else v) for n, (c, v) in BAMBUS.items()}
"""The 1995 edition: cards 1, 2 and 3 are worth 0 coins."""

MATAGOT = {
    **{n: ({"y": "r", "r": "g"}.get(c, c), v) for n, (c, v) in BAMBUS.items()},
    **_table("3 b 1  4 r 2  17 b 4  23 b 4  24 g 3  34 g 5  35 b 6"),
}
"""The 2-6 player edition: red (low), blue, green (high)."""

DECKS = {"bambus": BAMBUS, "bambus-1995": BAMBUS_1995, "matagot": MATAGOT}
_MATAGOT_VARIANTS = {"teams", "teams-2-2-1-1", "second-bottle", "eye-of-the-demon"}


def deck_name(game: Game) -> str:
    """The `Deck` tag, or the spec's default for the variant and the number of players."""
    named = game.tag("Deck")
    if named in DECKS:
        return named
    if game.tag("Variant") in _MATAGOT_VARIANTS or len(game.players) in (5, 6):
        return "matagot"
    return "bambus"


def deck(game: Game) -> dict[float, tuple[str, int]]:
    """The cards of `game`: its deck, with the half cards 2.5, 4.5 ... 36.5 in 5-6 player games (54 cards)."""
    table = DECKS[deck_name(game)]
    if len(game.players) in (5, 6):
        table = {**table, **{n + 0.5: table[n] for n in table if n % 2 == 0}}
    return table


_CARD = re.compile(r"0*([0-9]+(?:\.5)?)([a-zA-Z]?)")


class BottleImp(TokenRuleset):
    """Cards `1`..`37` without 19 (and the half cards with 5-6 players), an optional colour letter."""

    name = "bottle-imp"

    def check_card(self, text: str, game: Game) -> CardCheck:
        m = _CARD.fullmatch(text)
        cards = deck(game)
        number = float(m.group(1)) if m else None
        if m is None or number not in cards:
            return CardCheck(None, "unknown-card", f"`{text}` is not a card of this deck ({deck_name(game)})")
        assert number is not None
        spelled = m.group(1)
        letter = m.group(2).lower()
        colour = cards[number][0]
        if letter and letter != colour:
            return CardCheck(
                None,
                "colour-mismatch",
                f"`{text}`: card {spelled} is {COLOURS[colour]} in the {deck_name(game)} deck, "
                f"not {COLOURS.get(letter, letter)}",
            )
        return CardCheck(spelled + letter)


RULESET = BottleImp()
