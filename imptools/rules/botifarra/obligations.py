"""Botifarra's play obligations (section 6): the cards a player may play, and the rule a play broke."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass

from imptools.rules.botifarra.cards import SUIT_NAMES, is_point, strength, suit_of, trick_winner

LLIURE, OBLIGADA, CARREGAR = "lliure", "obligada", "carregar"
"""The three tables of play obligations (section 6); the two-player variants play `lliure`."""
PLAY_RULES = ("revoke", "must-beat", "must-trump", "must-play-low", "not-visible")
"""The codes of the play rules: breaking one costs the hand."""

ANY, LOW, LOW_OR_POINT = "any", "low", "low-or-point"
"""What a cell of an obligation table allows of the cards it applies to: any of them, the lowest of its suit among
the player's cards, or that or a point card."""


@dataclass(frozen=True, slots=True)
class Obligations:
    """One obligation table of section 6, as data: what a player may play where he need not beat nor trump.

    Every table asks the same first: follow the suit led; against the opponents, beat the trick in that suit if he
    can, and with none of that suit trump it (beating a trump lying) if he can. The cells differ only where he
    cannot, or where his partner is winning the trick; each cell says which of the cards it applies to he may play.
    """

    name: str
    partner_master: str
    """His partner is winning: of the suit led if he holds it, else of any suit."""
    cannot_beat: str
    """He holds the suit led and cannot beat the trick with it: of the suit led."""
    cannot_trump: str
    """He holds none of the suit led and cannot trump: any card."""


TABLES = {
    LLIURE: Obligations(LLIURE, ANY, ANY, ANY),
    OBLIGADA: Obligations(OBLIGADA, LOW_OR_POINT, LOW, LOW),
    CARREGAR: Obligations(CARREGAR, LOW_OR_POINT, LOW_OR_POINT, LOW_OR_POINT),
}
"""Each table by name (the `Variant` value that plays it)."""


def allowed_by(cell: str, pool: Set[int], hand: Set[int]) -> set[int]:
    """The cards of `pool` a table's `cell` allows, for a player holding `hand`."""
    if cell == ANY:
        return set(pool)

    def lowest_of_its_suit(c: int) -> bool:
        return all(strength(x) >= strength(c) for x in hand if suit_of(x) == suit_of(c))

    if cell == LOW:
        return {c for c in pool if lowest_of_its_suit(c)}
    return {c for c in pool if is_point(c) or lowest_of_its_suit(c)}


def legal_cards(rules: str, trump: int | None, lying: Sequence[int], partner_master: bool, hand: Set[int]) -> set[int]:
    """The cards of `hand` the obligation table allows onto a trick where `lying` are the cards so far.

    `partner_master` says whether the card winning the trick so far is the
    player's partner's. The player leading is free.

    >>> from imptools.rules.botifarra.cards import make, spell
    >>> sorted(spell(c) for c in legal_cards(OBLIGADA, None, [make(11, 1)], False, {make(9, 1), make(3, 1)}))
    ['9c']
    """
    if not lying:
        return set(hand)
    table = TABLES[rules]
    led = suit_of(lying[0])
    follow = {c for c in hand if suit_of(c) == led}

    def beats(c: int) -> bool:
        return trick_winner([*lying, c], trump) == len(lying)

    if partner_master:
        return allowed_by(table.partner_master, follow or hand, hand)
    if follow:
        beaters = {c for c in follow if beats(c)}
        return beaters or allowed_by(table.cannot_beat, follow, hand)
    trumps = {c for c in hand if trump is not None and suit_of(c) == trump and beats(c)}
    return trumps or allowed_by(table.cannot_trump, hand, hand)


@dataclass(frozen=True, slots=True)
class Violation:
    """A play that breaks the obligation table, with the evidence.

    `code` is one of the play rules; `held` are the known cards that prove it
    (the cards of the suit led for a revoke, the beating cards, the lower cards);
    `allowed` the known cards the table would have let the player play;
    `master` the index of the winning play so far; `duty` what the table asked,
    in words.
    """

    code: str
    card: int
    held: tuple[int, ...]
    allowed: tuple[int, ...]
    master: int | None
    duty: str


def check_play(
    rules: str,
    trump: int | None,
    lying: Sequence[tuple[str, int]],
    partners: Set[str],
    known: Set[int],
    card: int,
) -> Violation | None:
    """Judge one play against the obligation table, from the cards the player is KNOWN to hold.

    `lying` is the trick so far as (player, card); `partners` the player's
    partners (empty in individual and two-player games); `known` a subset of the
    player's real hand (the card played is added to it). A violation is returned
    only when the known cards prove it: every rule of the table only grows
    stricter as a hand holds more cards, so a play that breaks it for the known
    cards breaks it for the real hand too. The code says which rule the known
    cards show broken (with the whole hand known it is exact).

    >>> from imptools.rules.botifarra.cards import make, spell
    >>> v = check_play(LLIURE, None, [("Bernat", make(11, 1))], set(), {make(9, 1)}, make(3, 1))
    >>> v.code, [spell(c) for c in v.held]
    ('must-beat', ['9c'])
    """
    if not lying:
        return None
    hand = set(known) | {card}
    cards = [c for _, c in lying]
    master = trick_winner(cards, trump)
    partner_master = lying[master][0] in partners
    allowed = legal_cards(rules, trump, cards, partner_master, hand)
    if card in allowed:
        return None
    ordered = tuple(sorted(allowed - {card}, key=lambda c: (suit_of(c), -strength(c))))
    led = suit_of(cards[0])
    led_name = SUIT_NAMES[led]
    follow = sorted((c for c in hand if suit_of(c) == led), key=strength)
    if suit_of(card) != led and follow:
        return Violation("revoke", card, tuple(follow), ordered, master, f"follow {led_name}")
    if not partner_master and suit_of(card) == led:
        beaters = tuple(c for c in follow if trick_winner([*cards, c], trump) == len(cards))
        if beaters:
            return Violation("must-beat", card, beaters, ordered, master, "beat")
    if not partner_master and suit_of(card) != led and trump is not None:
        trumps = tuple(
            sorted(
                (c for c in hand if suit_of(c) == trump and trick_winner([*cards, c], trump) == len(cards)),
                key=strength,
            )
        )
        if trumps:
            return Violation("must-trump", card, trumps, ordered, master, "trump")
    lower = tuple(
        sorted((c for c in hand if suit_of(c) == suit_of(card) and strength(c) < strength(card)), key=strength)
    )
    return Violation("must-play-low", card, lower, ordered, master, _low_duty(rules, partner_master, follow, led_name))


def _low_duty(rules: str, partner_master: bool, follow: Sequence[int], led: str) -> str:
    """What the table asked, in words, where the play broke a `must-play-low` cell."""
    if partner_master:
        return f"play a point card of {led} or the lowest {led}" if follow else "play a point card or a lowest card"
    table = TABLES[rules]
    if follow:
        return f"play the lowest {led}" + (f" or a point card of {led}" if table.cannot_beat == LOW_OR_POINT else "")
    return "play the lowest card of a suit" + (" or a point card" if table.cannot_trump == LOW_OR_POINT else "")
