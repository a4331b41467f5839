"""Ninety-nine's cards and tricks (the notation's section 7): 36 cards A-6 in four suits and the joker.

Inside the engine a card is a small integer: `9 * suit + rank`, the suit
numbered as it counts in a bid (diamonds 0, spades 1, hearts 2, clubs 3) and
the rank from 6 (0) up to the ace (8); the joker is 36. A card is spelled back
(`AS`, `10H`, `JK`) only for messages and output.

The joker held in a hand is the turned-up card in every respect: every rule
below sees a played or bid card through `effective`, which puts the turn-up in
the joker's place. When the joker is itself the turn-up nobody holds it, so
`effective` never meets it in a consistent record.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

SUITS = "DSHC"
"""Suit letters by suit number, which is also what the suit adds to a bid."""
SUIT_NAMES = ("diamonds", "spades", "hearts", "clubs")
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank spellings, low to high."""
NINE = RANKS.index("9")
JOKER: Final = 36
DECK: tuple[int, ...] = tuple(range(37))
"""The 37 cards."""
PLAYERS: Final = 3
DEALT: Final = 12
"""Cards dealt to each player (three go to the bid, nine are played)."""
BID_CARDS = 3
TRICKS: Final = 9
MAX_BID = 9

_CARD = re.compile(r"(A|K|Q|J|10|T|9|8|7|6)([SHDC♠♥♦♣])", re.IGNORECASE)
_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def make(rank: str, suit: str) -> int:
    """The engine card of a rank and a suit letter.

    >>> make("A", "S"), make("6", "D"), make("10", "C")
    (17, 0, 31)
    """
    return 9 * SUITS.index(suit) + RANKS.index(rank)


@functools.lru_cache(maxsize=1024)
def parse(text: str) -> int | None:
    """The engine card a token names (`AS`, `tc`, `10♥`, `jk`), or None when it is not a ninety-nine card.

    >>> parse("AS"), parse("tc"), parse("10♥"), parse("jk"), parse("1S")
    (17, 31, 22, 36, None)
    """
    if text.upper() == "JK":
        return JOKER
    m = _CARD.fullmatch(text)
    if m is None:
        return None
    rank = m.group(1).upper()
    suit = m.group(2).upper()
    return make("10" if rank == "T" else rank, _SYMBOL.get(suit, suit))


def spell(card: int) -> str:
    """The canonical spelling of an engine card.

    >>> spell(17), spell(31), spell(36)
    ('AS', '10C', 'JK')
    """
    if card == JOKER:
        return "JK"
    return RANKS[card % 9] + SUITS[card // 9]


def suit(card: int) -> int | None:
    """A card's own suit number (None for the joker, whose suit is the turn-up's)."""
    return None if card == JOKER else card // 9


def rank(card: int) -> int | None:
    """A card's own rank, 0 (six) to 8 (ace); None for the joker."""
    return None if card == JOKER else card % 9


def trump_of(turnup: int) -> int | None:
    """The trump suit a turn-up makes: its suit, or None (no trump) for a nine or the joker.

    >>> trump_of(make("A", "D")), trump_of(make("9", "H")), trump_of(JOKER)
    (0, None, None)
    """
    if turnup == JOKER or turnup % 9 == NINE:
        return None
    return turnup // 9


def effective(card: int, turnup: int) -> int:
    """The card a play or bid counts as: the joker counts as the turned-up card, any other card as itself.

    >>> spell(effective(JOKER, make("Q", "H"))), spell(effective(make("Q", "H"), JOKER))
    ('QH', 'QH')
    """
    return turnup if card == JOKER else card


def suit_in_play(card: int, turnup: int) -> int | None:
    """The suit a card counts in for following suit and winning tricks (the joker: the turn-up's).

    None only for the joker when the joker is itself the turn-up, which no consistent record plays.
    """
    return suit(effective(card, turnup))


def trick_winner(cards: Sequence[int], turnup: int) -> int | None:
    """The index of the winning play: the highest trump, else the highest card of the suit led.

    Cards count as `effective` makes them. None when a card has no suit in play
    (the joker played while it is the turn-up), which leaves the trick unjudged.

    >>> trick_winner([make("K", "H"), make("7", "H"), make("6", "H")], make("A", "D"))
    0
    >>> trick_winner([make("K", "H"), make("6", "D"), make("A", "H")], make("A", "D"))
    1
    >>> trick_winner([make("8", "S"), JOKER, make("A", "C")], make("9", "S"))
    1
    """
    if not cards:
        return None
    suits, ranks, trump = in_play(turnup)
    led = suits[cards[0]]
    win, best = 0, -1
    for i, c in enumerate(cards):
        s = suits[c]
        if s < 0:
            return None
        key = (32 if s == trump else 16 if s == led else 0) + ranks[c]
        if key > best:
            win, best = i, key
    return win


@functools.lru_cache(maxsize=64)
def in_play(turnup: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Under a turn-up: each card's suit in play (-1 for none) and rank as `effective` makes it, and the trump suit
    (-1 for no trump); worked out once per turn-up."""
    suits = tuple(-1 if (s := suit_in_play(c, turnup)) is None else s for c in DECK)
    ranks = tuple(effective(c, turnup) % 9 for c in DECK)
    trump = trump_of(turnup)
    return suits, ranks, -1 if trump is None else trump


def follows(card: int, led: int, turnup: int) -> bool:
    """Whether `card` follows the suit of the card `led`, the joker counting as the turn-up."""
    return suit_in_play(card, turnup) == suit_in_play(led, turnup)


def legal_cards(hand: Sequence[int], led: int | None, turnup: int) -> list[int]:
    """The cards of `hand` a player may play: any when leading, else those of the suit led if he has one.

    >>> sorted(spell(c) for c in legal_cards([JOKER, make("A", "S"), make("7", "C")], make("K", "C"), make("6", "C")))
    ['7C', 'JK']
    """
    if led is None:
        return list(hand)
    same = [c for c in hand if follows(c, led, turnup)]
    return same or list(hand)
