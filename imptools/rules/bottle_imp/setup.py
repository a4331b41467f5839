"""One Bottle Imp game's setup: its deck, variant, seats and deal sizes, worked out once per game."""

from __future__ import annotations

from dataclasses import dataclass, field

from imptools.record import Game, Hand, NameRef
from imptools.rules.bottle_imp.cards import DEAL, Table, card_number
from imptools.rules.bottle_imp.variants import DEFAULT, TWO_PLAYER_DEFAULT, Variant
from imptools.rules.exchange import cards_of
from imptools.rules.tricks import Fill, held_filler, turn_order


@dataclass(slots=True)
class Setup:
    """What a game's tags decide, worked out once: variant, deck, trick sizes."""

    rules: Variant
    players: tuple[str, ...]
    cards: Table
    deck_name: str
    tricks: int
    per_trick: int
    ids: dict[str, int] = field(default_factory=dict)
    resolved: dict[str, int | None] = field(default_factory=dict)
    """`resolve`'s answers so far (a game spells the same cards again and again)."""

    @property
    def variant(self) -> str:
        return self.rules.name

    @property
    def bottles(self) -> int:
        return self.rules.bottles

    @property
    def automaton(self) -> str | None:
        """The player the rules play (Lopaka), if any."""
        return self.rules.automaton

    @property
    def two_pack(self) -> bool:
        return self.rules.two_pack

    def resolve(self, text: str) -> int | None:
        """The engine card of a token, or None when it is not a card of this deck."""
        try:
            return self.resolved[text]
        except KeyError:
            n = card_number(text)
            found = self.resolved[text] = n if n in self.cards else None
            return found

    def filler(self, hand: Hand) -> Fill | None:
        """The card a `?` play of `hand` must be where the record leaves one only (`tricks.held_filler`): at the
        one-pack tables the rules play no seat of, where each player plays exactly the cards the deal and the
        exchange leave him; None at the others."""
        if self.two_pack or self.automaton is not None:
            return None
        return held_filler(hand, self.resolve)

    def colour(self, card: int) -> str:
        return self.cards[card][0]

    def coins(self, card: int) -> int:
        return self.cards[card][1]

    def order(self, dealer: str) -> list[str]:
        """Turn order for a hand, starting with the player who leads trick 1."""
        automaton = self.rules.automaton
        if automaton is not None:
            other = next(p for p in self.players if p not in (dealer, automaton))
            return [other, automaton, dealer]
        return turn_order(self.players, dealer)

    def dealt(self, who: NameRef, dealer: str) -> int | None:
        """How many cards the rules deal to a player (or to one pack)."""
        packs = self.rules.packs
        if packs:
            pack = who.pack or 1
            return packs[pack - 1] if 1 <= pack <= len(packs) else None
        if self.rules.automaton is not None:
            return 11
        n = len(self.players)
        return 10 if n == 5 and who.name == dealer else DEAL.get(n)


def imp_trick(setup: Setup, hand: Hand, played: set[int]) -> list[int]:
    """The imp's trick: the discards, else an `imp` line, else every card of the deck no trick holds (`played`)."""
    discards = [c for d in hand.discards for c in d.cards]
    if discards and not any(c.unknown for c in discards):
        return cards_of(discards, setup.resolve)
    for imp in hand.imps:
        if not any(c.unknown for c in imp.cards):
            return cards_of(imp.cards, setup.resolve)
    return [c for c in setup.cards if c not in played]


def default_variant(game: Game) -> str:
    """The `Variant` tag, or the spec's default for the number of players."""
    return game.tag("Variant") or (TWO_PLAYER_DEFAULT if len(game.players) == 2 else DEFAULT).name


def seats_text(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return f"{counts[0]} players"
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    return " or ".join(str(n) for n in counts) + " players"
