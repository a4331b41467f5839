"""Botifarra's variants and one game's setup (players, sides, variant, piles)."""

from __future__ import annotations

from dataclasses import dataclass

from imptools.record import Game, Hand, NameRef
from imptools.rules.botifarra.calls import INDIVIDUAL, PARTNERSHIP, TWO_PLAYER, Seating
from imptools.rules.botifarra.cards import card_number, deck
from imptools.rules.botifarra.obligations import CARREGAR, LLIURE, OBLIGADA, TABLES
from imptools.rules.tricks import Fill, held_filler

RECTOR_VICAR, PILES_AND_HAND = "rector-vicar", "piles-and-hand"
VARIANTS = (OBLIGADA, LLIURE, CARREGAR, RECTOR_VICAR, PILES_AND_HAND)
"""Every `Variant` of the game; `obligada` is the default with three or four players, `rector-vicar` with two."""
_PILES = {RECTOR_VICAR: (6, 0), PILES_AND_HAND: (4, 8)}
"""Two-player variants: piles of four each player lays out, and cards held in hand."""
STYLES = ("orange3", "red", "dodger_blue2", "green3")
"""Display colours of the suits, in engine order."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What a game's tags decide, worked out once: the variant, its obligations, the seating, the deck."""

    variant: str
    rules: str
    seating: Seating
    cards: frozenset[int]
    piles: int = 0
    in_hand: int = 12

    @property
    def players(self) -> tuple[str, ...]:
        return self.seating.players

    @property
    def two_player(self) -> bool:
        return self.seating.mode == TWO_PLAYER

    @property
    def tricks(self) -> int:
        """Tricks in a hand: 12, or 24 with two players."""
        return len(self.cards) // len(self.players)

    def resolve(self, text: str) -> int | None:
        """The engine card of a token, or None when it is not a card of this deck."""
        c = card_number(text)
        return c if c in self.cards else None

    def filler(self, hand: Hand) -> Fill | None:
        """The card a `?` play of `hand` must be where the record leaves one only (`tricks.held_filler`: the one
        card of the player's deal no trick shows); None with two players, whose piles' cards are dealt apart."""
        if self.two_player:
            return None
        return held_filler(hand, self.resolve)

    def dealt(self, who: NameRef) -> int | None:
        """How many cards a `deal` line gives: a hand of 12 (or 8, or none), or a pile of 4."""
        if not self.two_player or who.pack is None:
            return self.in_hand
        return 4 if 1 <= who.pack <= self.piles else None


def players_problem(game: Game) -> str | None:
    """Why the game's table cannot play with the players `Players` names (None when it can)."""
    n = len(game.players)
    variant = game.tag("Variant") or (RECTOR_VICAR if n == 2 else OBLIGADA)
    if variant in _PILES:
        return None if n == 2 else f"Players names {n} player{'s' if n != 1 else ''}; Botifarra's {variant} is for 2"
    if variant not in TABLES:
        return None  # an unknown variant is reported on its own tag
    if game.tag("Teams") == "none":
        if n in (3, 4):
            return None
        return f"Players names {n} player{'s' if n != 1 else ''}; Botifarra each for himself is for 3 or 4"
    if n in (3, 4):
        return None
    return f"Players names {n} player{'s' if n != 1 else ''}; Botifarra is for 4 in partnerships, or 2 or 3"


def setup_of(game: Game) -> Setup | None:
    """The game's setup from its tags, or None when the rules cannot judge it (a variant for another table)."""
    players = game.players
    n = len(players)
    variant = game.tag("Variant") or (RECTOR_VICAR if n == 2 else OBLIGADA)
    if n == 2 and variant in _PILES:
        piles, in_hand = _PILES[variant]
        return Setup(variant, LLIURE, Seating(players, TWO_PLAYER), deck(2), piles, in_hand)
    if n in (3, 4) and variant in TABLES:  # the variant names its obligation table
        mode = INDIVIDUAL if n == 3 or game.tag("Teams") == "none" else PARTNERSHIP
        return Setup(variant, variant, Seating(players, mode), deck(n))
    return None
