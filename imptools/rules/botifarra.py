"""Botifarra (the notation's section 6): cards, tricks, play obligations, calls and scores.

Inside the engine a card is a small integer, `suit * 12 + rank - 1` (suits in
the order oros, copes, espases, bastos), spelled back only for messages and
output. The first half of this module is the game's logic as pure functions
and small values; the ruleset at the end plays records through it, on the
machinery every trick-taking game shares (`imptools.rules.tricks`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from random import Random

from imptools.record import Call, Deal, Discard, Game, Hand, NameRef, Pass, Trick, Trump
from imptools.rules.base import CardCheck, CardFace, DealtHand, HandOutcome, PlayedHand, Position, TrickRuleset
from imptools.rules.steps import Step
from imptools.rules.tricks import (
    Holdings,
    Played,
    Reporter,
    StepLog,
    Walk,
    after_exchange,
    cards_of,
    deal_size_findings,
    duplicate_findings,
    name_findings,
    play_not_held_findings,
    trick_count_findings,
    turn_order,
    walk_tricks,
)
from imptools.slips import one_keystroke

# --------------------------------------------------------------------------- cards

SUITS = ("o", "c", "e", "b")
"""Suit letters, in engine order."""
SUIT_NAMES = ("oros", "copes", "espases", "bastos")
"""Suit names, in engine order (the words of a `trump` line)."""
ORDER = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
"""Ranks in a suit, high to low."""
POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
"""Card points by rank; every other rank is worth nothing."""
BOTIFARRA = "botifarra"
"""The `trump` word for no trump."""
TRUMP_WORDS: dict[str, int | None] = {**{name: i for i, name in enumerate(SUIT_NAMES)}, BOTIFARRA: None}
"""The words a `trump` line may name: a suit's index, or None for botifarra."""
SHORT_RANKS = (2, 3, 4)
"""Ranks left out of the three-player deck."""

_STRENGTH = {rank: len(ORDER) - i for i, rank in enumerate(ORDER)}
_CARD = re.compile(r"0*(1[0-2]|[1-9])([ocebOCEB])")


def make(rank: int, suit: int) -> int:
    """The engine card of a rank (1-12) and a suit index.

    >>> make(9, 0), make(12, 3)
    (8, 47)
    """
    return suit * 12 + rank - 1


def suit_of(card: int) -> int:
    """The suit index of an engine card."""
    return card // 12


def rank_of(card: int) -> int:
    """The rank (1-12) of an engine card."""
    return card % 12 + 1


_STRENGTH_OF = tuple(_STRENGTH[c % 12 + 1] for c in range(48))
_POINTS_OF = tuple(POINTS.get(c % 12 + 1, 0) for c in range(48))


def strength(card: int) -> int:
    """How high a card ranks in its suit: 12 for the 9, 1 for the 2."""
    return _STRENGTH_OF[card]


def points(card: int) -> int:
    """The card's points: 9=5, 1=4, 12=3, 11=2, 10=1, others 0."""
    return _POINTS_OF[card]


def is_point(card: int) -> bool:
    """True for the point cards 9 1 12 11 10."""
    return rank_of(card) in POINTS


def spell(card: int) -> str:
    """The card as the notation writes it: `9o`, `12e`."""
    return f"{rank_of(card)}{SUITS[suit_of(card)]}"


def card_name(card: int) -> str:
    """The card in words: `11 of copes`."""
    return f"{rank_of(card)} of {SUIT_NAMES[suit_of(card)]}"


def describe(card: int) -> str:
    """The card for a message: `the 11 of copes`."""
    return f"the {card_name(card)}"


@functools.lru_cache(maxsize=1024)
def card_number(text: str) -> int | None:
    """The engine card a token spells (None when it is no Botifarra card), whatever the deck.

    >>> card_number("9o"), card_number("12B"), card_number("13o")
    (8, 47, None)
    """
    m = _CARD.fullmatch(text)
    return None if m is None else make(int(m.group(1)), SUITS.index(m.group(2).lower()))


@functools.lru_cache(maxsize=8)
def deck(players: int) -> frozenset[int]:
    """The cards in play: 48, or 36 with three players (no 2, 3 or 4).

    >>> len(deck(4)), len(deck(3)), len(deck(2))
    (48, 36, 48)
    """
    left_out = SHORT_RANKS if players == 3 else ()
    return frozenset(c for c in range(48) if rank_of(c) not in left_out)


def lowest(cards: Iterable[int]) -> int:
    """The lowest-ranked of some cards."""
    return min(cards, key=strength)


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """The index of the winning card: the highest trump, else the highest card of the suit led.

    `trump` is a suit index, None for botifarra (no trump).

    >>> trick_winner([make(11, 1), make(9, 1), make(2, 0), make(1, 1)], None)
    1
    >>> trick_winner([make(11, 1), make(9, 1), make(2, 0), make(1, 1)], 0)
    2
    """
    led = cards[0] // 12
    win, best = 0, -1
    for i, c in enumerate(cards):
        s = c // 12
        rank = (32 if s == trump else 16 if s == led else 0) + _STRENGTH_OF[c]
        if rank > best:
            win, best = i, rank
    return win


# --------------------------------------------------------------------------- play obligations

LLIURE, OBLIGADA, CARREGAR = "lliure", "obligada", "carregar"
"""The three tables of play obligations (section 6); the two-player variants play `lliure`."""
PLAY_RULES = ("revoke", "must-beat", "must-trump", "must-play-low", "not-visible")
"""The codes of the play rules: breaking one costs the hand."""


def legal_cards(rules: str, trump: int | None, lying: Sequence[int], partner_master: bool, hand: Set[int]) -> set[int]:
    """The cards of `hand` the obligation table allows onto a trick where `lying` are the cards so far.

    `partner_master` says whether the card winning the trick so far is the
    player's partner's. The player leading is free.

    >>> sorted(spell(c) for c in legal_cards(OBLIGADA, None, [make(11, 1)], False, {make(9, 1), make(3, 1)}))
    ['9c']
    """
    if not lying:
        return set(hand)
    led = suit_of(lying[0])
    follow = {c for c in hand if suit_of(c) == led}

    def beats(c: int) -> bool:
        return trick_winner([*lying, c], trump) == len(lying)

    def lowest_of_its_suit(c: int) -> bool:
        return all(strength(x) >= strength(c) for x in hand if suit_of(x) == suit_of(c))

    pool = follow or set(hand)
    if partner_master:
        if rules == LLIURE:
            return pool
        return {c for c in pool if is_point(c) or lowest_of_its_suit(c)}
    if follow:
        beaters = {c for c in follow if beats(c)}
        if beaters:
            return beaters
        if rules == LLIURE:
            return follow
        if rules == OBLIGADA:
            return {lowest(follow)}
        return {c for c in follow if is_point(c) or lowest_of_its_suit(c)}
    trumps = {c for c in hand if trump is not None and suit_of(c) == trump and beats(c)}
    if trumps:
        return trumps
    if rules == LLIURE:
        return set(hand)
    if rules == OBLIGADA:
        return {c for c in hand if lowest_of_its_suit(c)}
    return {c for c in hand if is_point(c) or lowest_of_its_suit(c)}


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
    if follow:
        return f"play the lowest {led}" + (f" or a point card of {led}" if rules == CARREGAR else "")
    return "play the lowest card of a suit" + (" or a point card" if rules == CARREGAR else "")


# --------------------------------------------------------------------------- seating

PARTNERSHIP, INDIVIDUAL, TWO_PLAYER = "partnership", "individual", "two-player"
"""How the players score: two sides of two, each for themselves, or two players with piles."""


@dataclass(frozen=True, slots=True)
class Seating:
    """The players in turn order and how they score (`PARTNERSHIP`, `INDIVIDUAL` or `TWO_PLAYER`)."""

    players: tuple[str, ...]
    mode: str

    def partners(self, player: str) -> frozenset[str]:
        """The player's partners: the player two seats on in a partnership game, nobody otherwise."""
        if self.mode != PARTNERSHIP or player not in self.players:
            return frozenset()
        i = self.players.index(player)
        return frozenset({self.players[(i + 2) % 4]})

    def side(self, player: str) -> tuple[str, ...]:
        """The side a player scores with, in seating order."""
        mates = self.partners(player) | {player}
        return tuple(p for p in self.players if p in mates)

    def sides(self) -> tuple[tuple[str, ...], ...]:
        """Every side, in seating order of their first player."""
        out: list[tuple[str, ...]] = []
        for p in self.players:
            side = self.side(p)
            if side not in out:
                out.append(side)
        return tuple(out)


def side_name(side: Sequence[str]) -> str:
    """A side for a message or a column: `Ana+Carles`."""
    return "+".join(side)


# --------------------------------------------------------------------------- calls

DOUBLINGS = ("contro", "recontro", "sant-vicenc")
"""The doubling calls, in the order they may come."""
DELEGATE = "delegate"
"""The word of `trump DEALER delegate`."""


@dataclass(frozen=True, slots=True)
class CallLine:
    """One call line of a hand: `kind` is `trump` (with `word`, a suit word or `delegate`) or a doubling."""

    kind: str
    player: str
    word: str | None = None


@dataclass(frozen=True, slots=True)
class BadCall:
    """A call line the rules do not allow: its index among the lines judged, and why."""

    index: int
    reason: str
    code: str = "bad-call"
    """`bad-call`, or `syntax` for a word one keystroke from a suit (a slip of the pen, read as the suit meant)."""


@dataclass(frozen=True, slots=True)
class Calls:
    """What a hand's call lines come to.

    `named` says whether a `trump` line named a suit (the first that did is the
    trump played, `trump` its index, None for botifarra); `chooser` is who named
    it; `delegated_by` the dealer who passed the choice to the partner;
    `doubles` the doubling calls that stand, as (kind, player); `bad` the lines
    that break the rules (each ignored for the multiplier).
    """

    named: bool = False
    trump: int | None = None
    chooser: str | None = None
    delegated_by: str | None = None
    doubles: tuple[tuple[str, str], ...] = ()
    bad: tuple[BadCall, ...] = ()

    @property
    def botifarra(self) -> bool:
        """True when trump was named and is botifarra (no trump)."""
        return self.named and self.trump is None

    @property
    def multiplier(self) -> int:
        """1; contro 2; recontro 4; sant-vicenc 8; doubled again on botifarra."""
        return (1 << len(self.doubles)) * (2 if self.botifarra else 1)

    @property
    def trump_word(self) -> str | None:
        """The trump as a `trump` line writes it (`copes`, `botifarra`), None when no line named one."""
        if not self.named:
            return None
        return BOTIFARRA if self.trump is None else SUIT_NAMES[self.trump]


def _unreadable(word: str | None) -> bool:
    """A trump line's word that is no suit, not `delegate`, and not one keystroke from either (reported already)."""
    return word not in TRUMP_WORDS and word != DELEGATE and trump_word_meant(word) is None


def trump_word_meant(word: str | None) -> str | None:
    """The suit word (or `delegate`) a trump line's word is one keystroke from, when it is not one itself.

    >>> trump_word_meant("copas"), trump_word_meant("Oros"), trump_word_meant("copes"), trump_word_meant("pal")
    ('copes', 'oros', None, None)
    """
    if word is None or word in TRUMP_WORDS or word == DELEGATE:
        return None
    return one_keystroke(word, [*TRUMP_WORDS, DELEGATE])


def judge_calls(lines: Sequence[CallLine], dealer: str, seating: Seating) -> Calls:
    """Judge a hand's call lines, in the order they were written.

    The dealer names trump, or in a partnership game delegates with `trump
    DEALER delegate` and the partner must then name it; a second line naming a
    suit is bad. `contro` comes from the side that did not choose, `recontro`
    then from the choosing side, `sant-vicenc` then from the contro side and not
    on botifarra; each at most once, in that order. Individual games allow only
    `contro`, by anyone but the chooser (the dealer), and not on botifarra.
    Trump is judged from every `trump` line before the doublings, so a doubling
    written above the `trump` line is judged against it. Of two lines that
    clash, the later one is bad.

    >>> s = Seating(("Ana", "Bernat", "Carles", "Dolors"), PARTNERSHIP)
    >>> c = judge_calls([CallLine("trump", "Ana", "delegate"), CallLine("trump", "Carles", "copes"),
    ...                  CallLine("contro", "Bernat"), CallLine("recontro", "Ana")], "Ana", s)
    >>> c.chooser, c.multiplier, c.bad
    ('Carles', 4, ())
    """
    bad: list[BadCall] = []
    choosing = set(seating.side(dealer))
    mode = seating.mode
    delegated_to: str | None = None
    delegated_by: str | None = None
    named: int | None = None
    trump: int | None = None
    chooser: str | None = None
    for i, line in enumerate(lines):
        if line.kind != "trump":
            continue
        p = line.player
        meant = trump_word_meant(line.word)
        if meant is not None:  # one slip, one finding: the word is read as the one meant
            bad.append(BadCall(i, f"`{line.word}` is not a suit: read as `{meant}`, one keystroke away", "syntax"))
            line = replace(line, word=meant)
        if line.word == DELEGATE:
            if mode != PARTNERSHIP:
                bad.append(BadCall(i, f"{p} delegates the choice of trump, but only partners may delegate"))
            elif p != dealer:
                bad.append(BadCall(i, f"{p} delegates the choice of trump, but only the dealer ({dealer}) may"))
            elif named is not None:
                bad.append(BadCall(i, f"{p} delegates the choice of trump after trump was named"))
            elif delegated_to is not None:
                bad.append(BadCall(i, f"{p} delegates the choice of trump a second time"))
            else:
                delegated_to = next(iter(seating.partners(dealer)))
                delegated_by = dealer
            continue
        if line.word not in TRUMP_WORDS:
            bad.append(BadCall(i, f"{p} names `{line.word}`: trump is oros, copes, espases, bastos or botifarra"))
            continue
        if named is not None:
            first = lines[named]
            bad.append(BadCall(i, f"{p} names {line.word}, but {first.player} already named {first.word}"))
            continue
        named, chooser = i, p
        trump = TRUMP_WORDS.get(line.word or "")
        due = delegated_to or dealer
        if p != due:
            if delegated_to is not None and p == dealer:
                reason = f"{p} names {line.word} after delegating the choice to {delegated_to}"
            elif p in choosing and mode == PARTNERSHIP:
                reason = f"{p} names {line.word}, but only the dealer {dealer} may delegate the choice to {p}"
            else:
                reason = f"{p} names {line.word}, but it is {due}'s choice"
            bad.append(BadCall(i, reason))
    botifarra = named is not None and trump is None
    doubles: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        if line.kind not in DOUBLINGS:
            continue
        p, kind = line.player, line.kind
        k = DOUBLINGS.index(kind)
        done = dict(doubles)
        why: str | None = None
        if mode == INDIVIDUAL and k > 0:
            why = f"{kind} {p}: individual games allow only contro"
        elif kind in done:
            why = f"{kind} {p}: {done[kind]} already called {kind}"
        elif k != len(doubles):
            why = f"{kind} {p} comes before any {DOUBLINGS[len(doubles)]}"
        elif mode == INDIVIDUAL:
            if p == dealer:
                why = f"contro {p}: the player who chooses trump may not double"
            elif botifarra:
                why = f"contro {p}: individual games allow no contro on botifarra"
        elif k == 1 and p not in choosing:
            why = f"recontro {p}: only the side that chose trump ({side_name(seating.side(dealer))}) may redouble"
        elif k != 1 and p in choosing:
            why = f"{kind} {p}: {p} is on the side that chose trump"
        elif k == 2 and botifarra:
            why = f"sant-vicenc {p}: there is no sant-vicenc on botifarra"
        if why is None:
            doubles.append((kind, p))
        else:
            bad.append(BadCall(i, why))
    return Calls(
        named is not None,
        trump,
        chooser,
        delegated_by,
        tuple(doubles),
        tuple(sorted(bad, key=lambda b: b.index)),
    )


# --------------------------------------------------------------------------- points and scores

HAND_POINTS = 72
"""Points in a hand: 60 in the cards and 12 for the tricks (or the pairs of tricks)."""
TARGET = 101
"""A game is won by the first side past 100 (`Target` overrides)."""


def card_points(cards: Iterable[int]) -> int:
    """The points in some cards."""
    return sum(map(_POINTS_OF.__getitem__, cards))


def hand_points(cards: Iterable[int], tricks: int) -> int:
    """A side's points in a three- or four-player hand: its card points and one per trick."""
    return card_points(cards) + tricks


def two_player_points(cards: Mapping[str, int], tricks: Mapping[str, int]) -> dict[str, int]:
    """Each player's points in a two-player hand, from their card points and tricks won.

    One point per two tricks; when both won an odd number, the point of the two
    leftover tricks goes to the player with fewer points so far (71 in all, never a tie).

    >>> two_player_points({"R": 30, "V": 30}, {"R": 13, "V": 11})
    {'R': 36, 'V': 36}
    >>> two_player_points({"R": 31, "V": 29}, {"R": 12, "V": 12})
    {'R': 37, 'V': 35}
    """
    out = {p: cards[p] + tricks.get(p, 0) // 2 for p in cards}
    if out and all(tricks.get(p, 0) % 2 == 1 for p in out):
        poorer = min(out, key=lambda p: out[p])
        out[poorer] += 1
    return out


def side_scores(
    sides: Sequence[Sequence[str]], side_points: Sequence[int], multiplier: int, offender: int | None
) -> dict[str, int]:
    """Scores of a game of two sides (partnership, or two players each a side).

    The side with more than half the points (36) scores the excess times the
    multiplier, the other nothing. A side that broke a play rule (`offender`,
    an index into `sides`) leaves the other side 36 times the multiplier.

    >>> side_scores([("A", "C"), ("B", "D")], [44, 28], 2, None)
    {'A': 16, 'C': 16, 'B': 0, 'D': 0}
    >>> side_scores([("A", "C"), ("B", "D")], [44, 28], 2, 0)
    {'A': 0, 'C': 0, 'B': 72, 'D': 72}
    """
    half = HAND_POINTS // 2
    out: dict[str, int] = {}
    for k, side in enumerate(sides):
        value: int
        if offender is not None:
            value = 0 if k == offender else half * multiplier
        else:
            value = max(side_points[k] - half, 0) * multiplier
        out.update(dict.fromkeys(side, value))
    return out


def individual_scores(player_points: Mapping[str, int], multiplier: int, offenders: Set[str]) -> dict[str, int]:
    """Scores of an individual game: (points - 18) with four players, (points - 24) with three, times the multiplier.

    A player who broke a play rule scores minus 18 (minus 24) times the multiplier instead.

    >>> individual_scores({"A": 30, "B": 20, "C": 22}, 2, set())
    {'A': 12, 'B': -8, 'C': -4}
    >>> individual_scores({"A": 30, "B": 20, "C": 22}, 2, {"A"})
    {'A': -48, 'B': -8, 'C': -4}
    """
    share = HAND_POINTS // len(player_points)
    return {p: -share * multiplier if p in offenders else (v - share) * multiplier for p, v in player_points.items()}


def game_won(totals: Mapping[str, int], target: int = TARGET) -> bool:
    """Whether some side's total has reached the target (past 100 by default)."""
    return any(v >= target for v in totals.values())


# --------------------------------------------------------------------------- two-player piles


@dataclass(frozen=True, slots=True)
class Piles:
    """One player's piles in a two-player hand, each top card first.

    Only the first card left in a pile is face up: playing it turns up the next;
    a card played from under it leaves the pile and the top card stays up.
    """

    piles: tuple[tuple[int, ...], ...]

    def tops(self) -> frozenset[int]:
        """The face-up cards."""
        return frozenset(p[0] for p in self.piles if p)

    def pile_of(self, card: int) -> int | None:
        """The index of the pile holding `card`, None when no pile does."""
        return next((k for k, p in enumerate(self.piles) if card in p), None)

    def visible(self, card: int) -> bool:
        """True when `card` is face up on top of its pile."""
        return card in self.tops()

    def without(self, card: int) -> Piles:
        """The piles after `card` has been played from them."""
        return Piles(tuple(tuple(c for c in p if c != card) for p in self.piles))


# --------------------------------------------------------------------------- the ruleset

RECTOR_VICAR, PILES_AND_HAND = "rector-vicar", "piles-and-hand"
VARIANTS = (OBLIGADA, LLIURE, CARREGAR, RECTOR_VICAR, PILES_AND_HAND)
"""Every `Variant` of the game; `obligada` is the default with three or four players, `rector-vicar` with two."""
_PILES = {RECTOR_VICAR: (6, 0), PILES_AND_HAND: (4, 8)}
"""Two-player variants: piles of four each player lays out, and cards held in hand."""
_STYLES = ("orange3", "red", "dodger_blue2", "green3")
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
    if variant not in (LLIURE, OBLIGADA, CARREGAR):
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
    if n in (3, 4) and variant in (LLIURE, OBLIGADA, CARREGAR):
        mode = INDIVIDUAL if n == 3 or game.tag("Teams") == "none" else PARTNERSHIP
        return Setup(variant, variant, Seating(players, mode), deck(n))
    return None


@dataclass(frozen=True, slots=True)
class BotifarraState:
    """Botifarra's part of a replay state: trump, who chose it, the calls, the multiplier, the sides' points.

    `points` and `tricks` are per side (a player alone is a side); `face_up`
    (two players) each player's face-up pile cards.
    """

    trump: str | None = None
    chooser: str | None = None
    delegated_by: str | None = None
    calls: tuple[tuple[str, str], ...] = ()
    multiplier: int = 1
    points: tuple[tuple[str, int], ...] = ()
    tricks: tuple[tuple[str, int], ...] = ()
    face_up: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.trump is not None:
            by = f"named by {self.chooser}" + (f", {self.delegated_by} delegated" if self.delegated_by else "")
            out.append(("trump", f"{self.trump} ({by})"))
        elif self.delegated_by:
            out.append(("trump", f"{self.delegated_by} delegated the choice"))
        if self.calls:
            out.append(("calls", ", ".join(f"{k} {p}" for k, p in self.calls)))
        out.append(("multiplier", f"x{self.multiplier}"))
        if self.points:
            out.append(("points", ", ".join(f"{s} {v}" for s, v in self.points)))
            out.append(("tricks", ", ".join(f"{s} {v}" for s, v in self.tricks)))
        for p, cards in self.face_up:
            out.append((f"{p} face up", " ".join(cards) or "-"))
        return out


@dataclass(slots=True)
class _Tally:
    """The cards and tricks each player has won so far in a hand."""

    won: dict[str, list[int]]
    tricks: dict[str, int]
    card_points: dict[str, int]

    def take(self, winner: str, cards: Sequence[int]) -> None:
        """The winner of a trick takes its cards."""
        self.won[winner].extend(cards)
        self.tricks[winner] += 1
        self.card_points[winner] += card_points(cards)

    def give_back(self, winner: str, cards: int) -> None:
        """Undo the winner's last `take` of a trick of `cards` cards."""
        self.card_points[winner] -= card_points(self.won[winner][-cards:])
        del self.won[winner][-cards:]
        self.tricks[winner] -= 1

    def points(self, setup: Setup) -> dict[str, int]:
        """Each side's points (by side name) so far."""
        if setup.two_player:
            return two_player_points(self.card_points, self.tricks)
        return {
            name: sum(self.card_points[p] + self.tricks[p] for p in side) for name, side in _named_sides(setup.seating)
        }

    def side_tricks(self, setup: Setup) -> dict[str, int]:
        return {name: sum(self.tricks[p] for p in side) for name, side in _named_sides(setup.seating)}


@functools.lru_cache(maxsize=64)
def _named_sides(seating: Seating) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each side of a seating with its name."""
    return tuple((side_name(side), side) for side in seating.sides())


def call_lines(setup: Setup, hand: Hand) -> list[tuple[CallLine, Trump | Call]]:
    """The hand's call lines by the game's players, in the order written, each with the line it reads."""
    lines: list[tuple[CallLine, Trump | Call]] = []
    for line in hand.lines:
        if isinstance(line, Trump) and line.player.name in setup.players:
            lines.append((CallLine("trump", line.player.name, line.suit.lower()), line))
        elif isinstance(line, Call) and line.player.name in setup.players:
            lines.append((CallLine(line.kind, line.player.name), line))
    return lines


class Botifarra(TrickRuleset):
    """Botifarra, every variant: cards `1o` .. `12b` (three players play without the 2s, 3s and 4s)."""

    name = "botifarra"
    variants = VARIANTS
    default_target = TARGET

    def check_card(self, text: str, game: Game) -> CardCheck:
        c = card_number(text)
        if c is None:
            return CardCheck(
                None, "unknown-card", f"`{text}` is not a botifarra card (rank 1-12 then o, c, e or b: `9o`, `12e`)"
            )
        if c not in deck(len(game.players)):
            return CardCheck(None, "unknown-card", f"`{text}` is not in the three-player deck, which has no 2, 3 or 4")
        return CardCheck(spell(c))

    def card_face(self, text: str, game: Game) -> CardFace:
        """The card with its suit (`12e` is espases); a hand sorts by suit, then 9 1 12 11 10 8 7 ... 2."""
        c = card_number(text)
        if c is None:
            return CardFace(text)
        order = 100 * suit_of(c) + ORDER.index(rank_of(c))
        return CardFace(spell(c), SUIT_NAMES[suit_of(c)], _STYLES[suit_of(c)], order)

    def table(self, game: Game) -> Setup | None:
        return setup_of(game)

    def players_problem(self, game: Game) -> str | None:
        """Why the game's table cannot play with the players `Players` names (None when it can)."""
        return players_problem(game)

    def played_hand(self, game: Game, hand_number: int) -> PlayedHand | str:
        """A hand's start position and plays for `imp analyse`, or why it cannot be analysed."""
        from imptools.rules.botifarra_search import searchable

        return searchable(self, game, hand_number)

    def deck(self, game: Game) -> list[str]:
        """The cards of the game's deck (36 with three players), suit by suit, each suit highest first."""
        setup = setup_of(game)
        cards = setup.cards if setup is not None else deck(len(game.players) or 4)
        return [spell(c) for c in sorted(cards, key=lambda c: (suit_of(c), -strength(c)))]

    def simulator(self, game: Game) -> BotifarraSimulator | None:
        """Random deals for every table: partnership, individual, three players and the two-player piles."""
        setup = setup_of(game)
        return None if setup is None else BotifarraSimulator(setup)

    def sides(self, game: Game, table: object) -> tuple[tuple[str, ...], ...]:
        """Partners score together for the whole game."""
        assert isinstance(table, Setup)
        return table.seating.sides() if table.seating.mode == PARTNERSHIP else ()

    def game_notes(self, game: Game, table: object, totals: dict[str, int], over: bool) -> tuple[tuple[str, str], ...]:
        """The race to the target: each side's total and what it still needs."""
        assert isinstance(table, Setup)
        tag = game.tag("Target")
        target = int(tag) if tag and tag.lstrip("-").isdigit() else TARGET
        goal = f"first to {target}" if tag else "first past 100"
        race = ", ".join(
            f"{side_name(side)} {totals.get(side[0], 0)}"
            + ("" if totals.get(side[0], 0) >= target else f" ({target - totals.get(side[0], 0)} to go)")
            for side in table.seating.sides()
        )
        return (("race", f"{goal}: {race}"),)

    # ----------------------------------------------------------------------- one hand

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        setup = table
        report = Reporter(game, hand)
        calls, call_lines = self._calls(setup, hand, dealer, report)
        tally = _Tally({p: [] for p in setup.players}, dict.fromkeys(setup.players, 0), dict.fromkeys(setup.players, 0))
        tricks = hand.tricks

        def settle(played: Played) -> int:
            if calls.named:
                win = trick_winner(played.cards, calls.trump)
            else:
                named = _named_next_leader(tricks, played)
                win = trick_winner(played.cards, None) if named is None else named
            tally.take(played.who[win], played.cards)
            played.after = (tally.points(setup), tally.side_tricks(setup))
            return win

        order = turn_order(setup.players, dealer)
        walk = walk_tricks(hand, order, len(setup.players), setup.resolve, settle)
        final = self._record_checks(setup, hand, walk, report)
        offenders: list[str] = []
        if calls.named:
            if setup.two_player:
                offenders = self._pile_rules(setup, hand, walk, final, calls.trump, report)
            else:
                offenders = self._play_rules(setup, walk, final, calls.trump, report)
        complete = len(tricks) == setup.tricks
        scores: dict[str, int] | None = None
        if complete and walk.whole and calls.named:
            scores = self._score(setup, tally, calls.multiplier, offenders)
        notes = self._notes(setup, calls, tally, offenders, scores is not None)
        outcome = HandOutcome(scores, complete, setup.tricks, report.findings, notes=notes, walk=walk)
        if steps:
            outcome.steps = self._steps(setup, hand, dealer, walk, call_lines, scores)
        return outcome

    def _calls(
        self, setup: Setup, hand: Hand, dealer: str, report: Reporter
    ) -> tuple[Calls, list[tuple[CallLine, Trump | Call]]]:
        """Judge the hand's call lines; each bad one, and a hand that names no trump, is `bad-call`."""
        lines = call_lines(setup, hand)
        calls = judge_calls([c for c, _ in lines], dealer, setup.seating)
        for bad in calls.bad:
            call, line = lines[bad.index]
            report.add(bad.code, bad.reason, line.line, line.column, None, call.player)
        if not hand.trumps:
            msg = f"hand {hand.number} has no trump line: it is not scored"
            report.add("bad-call", msg, hand.line, hand.column, None, None)
        elif not calls.named and not any(c.kind == "trump" and _unreadable(c.word) for c, _ in lines):
            msg = f"no trump line of hand {hand.number} names a suit: it is not scored"
            report.add("bad-call", msg, hand.line, hand.column, None, None)
        return calls, lines

    def _record_checks(self, setup: Setup, hand: Hand, walk: Walk, report: Reporter) -> dict[str, set[int]]:
        """Trick counts, names, repeated cards, deal sizes, lines the game has no use for, cards not held.

        Returns each player's whole deal, for the players whose every `deal` line is recorded.
        """
        players = setup.players
        trick_count_findings(hand, len(players), report)
        name_findings(walk, players, report)
        duplicate_findings(hand, walk, setup.resolve, spell, report)
        deal_size_findings(hand, players, setup.dealt, "the deal gives", report)
        lines: list[Deal | Discard | Pass] = [*hand.deals, *hand.discards, *hand.passes]
        for line in lines:
            if isinstance(line, Deal):
                who = line.player
                if setup.two_player and who.pack is not None and not 1 <= who.pack <= setup.piles:
                    msg = f"{who.name} has no pile {who.pack}: {setup.variant} lays out {setup.piles} piles"
                    report.add("hand-size", msg, line.line, line.column, None, who.name)
            else:
                p = line.player.name if isinstance(line, Discard) else line.giver.name
                msg = f"{p} {'discards' if isinstance(line, Discard) else 'passes'}, but Botifarra has no exchange"
                report.add("bad-exchange", msg, line.line, line.column, None, p)
        recorded: dict[str, set[int | None]] = {}
        for deal in hand.deals:
            recorded.setdefault(deal.player.name, set()).add(deal.player.pack)
        whole = (
            {None} if not setup.two_player else set(range(1, setup.piles + 1)) | ({None} if setup.in_hand else set())
        )
        final = {
            p: cards for p, cards in after_exchange(hand, setup.resolve).items() if whole <= recorded.get(p, set())
        }
        play_not_held_findings(walk, final, spell, report, "in the deal")
        return final

    def _play_rules(
        self, setup: Setup, walk: Walk, final: dict[str, set[int]], trump: int | None, report: Reporter
    ) -> list[str]:
        """Judge every play of a three- or four-player hand against the obligation table; the offenders in play order.

        What a player held is what the record proves: the cards they play from
        then on and, when their deal is recorded, the rest of it.
        """
        holdings = Holdings(walk, final)
        offenders: list[str] = []
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for t, played in enumerate(tricks):
            for i in range(1, len(played.cards)):
                p, card = played.who[i], played.cards[i]
                held = holdings.before(t, i)
                lying = list(zip(played.who[:i], played.cards[:i]))
                v = check_play(setup.rules, trump, lying, setup.seating.partners(p), set(held), card)
                if v is not None:
                    self._report(v, played, i, lying, held.get, report)
                    offenders.append(p)
        return offenders

    def _pile_rules(
        self,
        setup: Setup,
        hand: Hand,
        walk: Walk,
        final: dict[str, set[int]],
        trump: int | None,
        report: Reporter,
    ) -> list[str]:
        """Judge a two-player hand: cards played from under a pile's top (`not-visible`) and `lliure` over the
        cards each player could play (the face-up pile cards and the hand); the offenders in play order."""
        piles = _piles(setup, hand)
        in_hand = _hand_cards(setup, hand)
        holdings = Holdings(walk, final)
        played_before: dict[str, set[int]] = {p: set() for p in setup.players}
        offenders: list[str] = []
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for t, played in enumerate(tricks):
            for i, (p, card) in enumerate(zip(played.who, played.cards)):
                mine = piles.get(p)
                k = mine.pile_of(card) if mine is not None else None
                if mine is not None and k is not None and not mine.visible(card):
                    play = played.trick.plays[i].card
                    top = next(iter(mine.piles[k]))
                    msg = (
                        f"{p} played {describe(card)} from pile {k + 1} before it was turned up "
                        f"({describe(top)} lay on top)"
                    )
                    report.add("not-visible", msg, play.line, play.column, played.trick.number, p)
                    offenders.append(p)
                elif i > 0:
                    where: dict[int, str] = {}
                    if mine is not None:
                        where = {c: f"face up on pile {(mine.pile_of(c) or 0) + 1}" for c in mine.tops()}
                    if p in in_hand:
                        where.update({c: "in hand" for c in in_hand[p] - played_before[p]})
                    elif mine is not None and len(mine.piles) == setup.piles:
                        held = holdings.before(t, i)
                        where.update({c: "in hand" for c in held if mine.pile_of(c) is None})
                    lying = [(played.who[0], played.cards[0])]
                    v = check_play(LLIURE, trump, lying, frozenset(), set(where), card)
                    if v is not None:
                        self._report(v, played, i, lying, where.get, report)
                        offenders.append(p)
                if mine is not None and k is not None:
                    piles[p] = mine.without(card)
                played_before[p].add(card)
        return offenders

    @staticmethod
    def _report(
        v: Violation,
        played: Played,
        i: int,
        lying: Sequence[tuple[str, int]],
        evidence: Callable[[int], str | None],
        report: Reporter,
    ) -> None:
        """One play rule broken, with the card that proves it and where the record shows it."""
        p = played.who[i]
        proofs = sorted(v.held, key=lambda c: (not (evidence(c) or "").startswith("played"), strength(c)))
        proof = proofs[0] if proofs else None
        holding = f"holding {describe(proof)}, {evidence(proof)}" if proof is not None else "holding it"
        master_p, master_c = lying[v.master] if v.master is not None else (None, None)
        under = f"{master_p}'s {card_name(master_c)}" if master_p is not None and master_c is not None else "the trick"
        n = played.trick.number
        if v.code == "revoke":
            led = SUIT_NAMES[suit_of(lying[0][1])]
            msg = f"{p} did not follow {led} in trick {n} (played {describe(v.card)}) while {holding}"
        elif v.code == "must-beat":
            msg = f"{p} had to beat {under} ({holding}) but played {describe(v.card)}"
        elif v.code == "must-trump":
            msg = f"{p} had to trump {under} ({holding}) but played {describe(v.card)}"
        else:
            msg = f"{p} had to {v.duty} under {under} ({holding}) but played {describe(v.card)}"
        card = played.trick.plays[i].card
        report.add(v.code, msg, card.line, card.column, n, p)

    # ----------------------------------------------------------------------- scores and notes

    @staticmethod
    def _score(setup: Setup, tally: _Tally, multiplier: int, offenders: Sequence[str]) -> dict[str, int]:
        """The hand's scores; the first play rule broken decides a game of sides, each breaks his own alone."""
        points = tally.points(setup)
        sides = setup.seating.sides()
        if setup.seating.mode == INDIVIDUAL:
            return individual_scores({s[0]: points[side_name(s)] for s in sides}, multiplier, set(offenders))
        offender = next((k for k, s in enumerate(sides) if offenders and offenders[0] in s), None)
        scores = side_scores(sides, [points[side_name(s)] for s in sides], multiplier, offender)
        return {p: scores[p] for p in setup.players}

    @staticmethod
    def _notes(
        setup: Setup, calls: Calls, tally: _Tally, offenders: Sequence[str], scored: bool
    ) -> tuple[tuple[str, str], ...]:
        """Trump, calls, multiplier, the sides' points (seating order), who broke a play rule: for the score sheet."""
        notes = [("trump", calls.trump_word or "none"), ("calls", " ".join(k for k, _ in calls.doubles) or "-")]
        notes.append(("x", str(calls.multiplier)))
        if scored:
            notes.append(("points", "-".join(str(v) for v in tally.points(setup).values())))
            if offenders:
                notes.append(("penalty", ", ".join(dict.fromkeys(offenders))))
        return tuple(notes)

    # ----------------------------------------------------------------------- replay

    def _steps(
        self,
        setup: Setup,
        hand: Hand,
        dealer: str,
        walk: Walk,
        call_lines: list[tuple[CallLine, Trump | Call]],
        scores: dict[str, int] | None,
    ) -> list[Step]:
        log = StepLog(setup.players, spell, walk, None if setup.two_player else _suit_name)
        sides = [side_name(s) for s in setup.seating.sides()]
        zero = tuple((s, 0) for s in sides)
        piles = _piles(setup, hand) if setup.two_player else {}
        state = BotifarraState(points=zero, tricks=zero, face_up=_face_up(piles))
        seen: list[CallLine] = []
        log.detail = state
        for line in hand.lines:
            if isinstance(line, Deal):
                if setup.two_player:
                    laid = _piles(setup, hand, upto=line)
                    state = replace(state, face_up=_face_up(laid))
                    log.detail = state
                    log.stacks = _stacks(laid)
                log.deal(line, setup.resolve)
            elif isinstance(line, (Discard, Pass)):
                if isinstance(line, Discard):
                    log.discard(line, setup.resolve)
                else:
                    log.pass_card(line, setup.resolve)
            elif isinstance(line, (Trump, Call)):
                call = next((c for c, ln in call_lines if ln is line), None)
                if call is not None:
                    seen.append(call)
                so_far = judge_calls(seen, dealer, setup.seating)
                state = replace(
                    state,
                    trump=so_far.trump_word,
                    chooser=so_far.chooser,
                    delegated_by=so_far.delegated_by,
                    calls=so_far.doubles,
                    multiplier=so_far.multiplier,
                )
                log.detail = state
                if isinstance(line, Trump):
                    log.line("trump", line.player.name, (), line, text=line.suit)
                else:
                    log.line("call", line.player.name, (), line, text=line.kind)
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for played in tricks:
            for i, (p, c) in enumerate(zip(played.who, played.cards)):
                if p in piles and piles[p].pile_of(c) is not None:
                    piles[p] = piles[p].without(c)
                    state = replace(state, face_up=_face_up(piles))
                    log.detail = state
                    log.stacks = _stacks(piles)
                log.play(played, i, 0 if not setup.two_player else None)
            if played.winner is not None:
                points, won = played.after
                state = replace(state, points=tuple(points.items()), tricks=tuple(won.items()))
                log.detail = state
                log.trick_end(played)
        log.end(hand, scores)
        return log.steps


def _suit_name(card: int) -> str:
    return SUIT_NAMES[suit_of(card)]


def _named_next_leader(tricks: Sequence[Trick], played: Played) -> int | None:
    """With no trump known: the winner as the next trick's first play names it, if it does."""
    k = next((j for j, t in enumerate(tricks) if t is played.trick), None)
    if k is None or k + 1 >= len(tricks) or not tricks[k + 1].plays:
        return None
    named = tricks[k + 1].plays[0].player
    return played.who.index(named.name) if named is not None and named.name in played.who else None


def _piles(setup: Setup, hand: Hand, upto: Deal | None = None) -> dict[str, Piles]:
    """Each player's piles as the `deal NAME.P` lines record them (those up to `upto` when given)."""
    rows: dict[str, dict[int, tuple[int, ...]]] = {}
    for deal in hand.deals:
        if deal.player.pack is not None and 1 <= deal.player.pack <= setup.piles:
            cards = tuple(cards_of(deal.cards, setup.resolve))
            rows.setdefault(deal.player.name, {})[deal.player.pack] = cards
        if deal is upto:
            break
    return {p: Piles(tuple(r[k] for k in sorted(r))) for p, r in rows.items()}


def _hand_cards(setup: Setup, hand: Hand) -> dict[str, set[int]]:
    """The cards each player holds in hand (piles-and-hand), as the `deal NAME` lines record them."""
    out: dict[str, set[int]] = {}
    if setup.in_hand:
        for deal in hand.deals:
            if deal.player.pack is None:
                out.setdefault(deal.player.name, set()).update(cards_of(deal.cards, setup.resolve))
    return out


def _stacks(piles: Mapping[str, Piles]) -> dict[str, list[list[int]]]:
    """Each player's piles for the replay's `State.stacks`, top card first (emptied piles left out)."""
    return {p: [list(pile) for pile in pl.piles if pile] for p, pl in piles.items()}


def _face_up(piles: Mapping[str, Piles]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((p, tuple(spell(c) for c in sorted(pl.tops()))) for p, pl in piles.items())


RULESET = Botifarra()


# --------------------------------------------------------------------------- playing: positions and simulated deals


class BotifarraPosition:
    """A Botifarra hand being played, every card visible (see `imptools.rules.base.Position`).

    Each player holds `hands` (the cards in hand) and, with two players,
    `piles` (top card first; only a top card may be played). The legal cards
    are the obligation table's own (`legal_cards`, `lliure` over the playable
    cards with two players), the trick's winner `trick_winner`'s, and the
    points the tally the checker keeps; `undo` pops a stack of plays.
    """

    def __init__(
        self,
        setup: Setup,
        dealer: str,
        trump: int | None,
        hands: dict[str, set[int]],
        piles: dict[str, list[list[int]]] | None = None,
        multiplier: int = 1,
    ) -> None:
        self.setup = setup
        self.trump = trump
        self.multiplier = multiplier
        self.order = turn_order(setup.players, dealer)
        self.per_trick = len(self.order)
        self.hands = hands
        self.piles: dict[str, list[list[int]]] = piles if piles is not None else {p: [] for p in setup.players}
        self.leader = 0
        self.trick: list[int] = []
        self.tally = _Tally(
            {p: [] for p in setup.players}, dict.fromkeys(setup.players, 0), dict.fromkeys(setup.players, 0)
        )
        self._undo: list[tuple[str, int, int, int, list[int], str | None]] = []

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % self.per_trick]

    def player_of(self, index: int) -> str:
        """Who played the trick's card at `index`."""
        return self.order[(self.leader + index) % self.per_trick]

    def playable(self, player: str) -> set[int]:
        """The cards `player` could play, rules aside: the hand and the face-up top cards."""
        return self.hands[player] | {pile[0] for pile in self.piles[player] if pile}

    def master(self) -> str | None:
        """The player whose card is winning the trick so far (None before the lead)."""
        return self.player_of(trick_winner(self.trick, self.trump)) if self.trick else None

    def legal(self) -> list[int]:
        player = self.to_move()
        partner_master = self.master() in self.setup.seating.partners(player)
        allowed = legal_cards(self.setup.rules, self.trump, self.trick, partner_master, self.playable(player))
        return sorted(allowed)

    def forced(self) -> int | None:
        return None

    def play(self, card: int) -> None:
        player = self.to_move()
        k = next((k for k, pile in enumerate(self.piles[player]) if pile and pile[0] == card), -1)
        if k >= 0:
            self.piles[player][k].pop(0)
        else:
            self.hands[player].remove(card)
        leader, before = self.leader, self.trick
        self.trick = [*before, card]
        winner: str | None = None
        if len(self.trick) == self.per_trick:
            win = trick_winner(self.trick, self.trump)
            winner = self.player_of(win)
            self.tally.take(winner, self.trick)
            self.leader = (self.leader + win) % self.per_trick
            self.trick = []
        self._undo.append((player, card, k, leader, before, winner))

    def undo(self) -> None:
        player, card, k, self.leader, self.trick, winner = self._undo.pop()
        if winner is not None:
            self.tally.give_back(winner, self.per_trick)
        if k >= 0:
            self.piles[player][k].insert(0, card)
        else:
            self.hands[player].add(card)

    def done(self) -> bool:
        return not self.trick and not any(self.hands.values()) and not any(any(p) for p in self.piles.values())

    def spell(self, card: int) -> str:
        return spell(card)

    def points(self) -> dict[str, int]:
        """Each side's points so far, by side name (`Ana+Carles`; a player alone is a side).

        Card points and a point a trick (a point per two tricks with two players,
        the odd pair's point to the poorer): the checker's own count, so at the
        end of the hand they are the points the hand is scored on (72 in all).
        """
        return self.tally.points(self.setup)

    def scores(self) -> dict[str, int]:
        """Each player's score for the hand if it ended now with no play rule broken, by the ruleset's scoring."""
        return Botifarra._score(self.setup, self.tally, self.multiplier, ())


_TRUMP_CHOICES = (*SUIT_NAMES, BOTIFARRA)
_DELEGATE_BAR = 14
"""The better bot's dealer passes the choice to the partner when no suit of his is worth this much."""
_DOUBLE_BARS = {"contro": 40, "recontro": 44, "sant-vicenc": 48}
"""How confident a player must be (`_confidence`) to make each doubling call."""
_RANDOM_DOUBLE = 0.2
"""How often the random bot makes the next doubling call it may."""


def _suit_value(cards: Iterable[int], suit: int) -> int:
    """How good `suit` looks as trump to a player holding `cards`: length counts most, then points."""
    mine = [c for c in cards if suit_of(c) == suit]
    return 3 * len(mine) + card_points(mine)


def _suit_height(cards: Iterable[int], suit: int) -> int:
    """How high a player's cards of `suit` rank, all together: between suits of equal value, the higher."""
    return sum(strength(c) for c in cards if suit_of(c) == suit)


def _wants_botifarra(cards: Iterable[int]) -> bool:
    """Many high cards (three 9s, or five 9s and 1s): no trump."""
    ranks = [rank_of(c) for c in cards]
    return ranks.count(9) >= 3 or ranks.count(9) + ranks.count(1) >= 5


def _best_trump(cards: Set[int]) -> str:
    """The better bot's trump: botifarra with many high cards, else the longest, strongest suit."""
    if _wants_botifarra(cards):
        return BOTIFARRA
    return SUIT_NAMES[max(range(4), key=lambda s: (_suit_value(cards, s), _suit_height(cards, s), -s))]


def _confidence(cards: Set[int], trump: int | None) -> int:
    """How sure a player is of his side's hand: card points, and 4 for each trump (each 9 on botifarra)."""
    strong = [c for c in cards if suit_of(c) == trump] if trump is not None else [c for c in cards if rank_of(c) == 9]
    return card_points(cards) + 4 * len(strong)


class BotifarraSimulator:
    """Deals random Botifarra hands: the deal in turn order, the trump call (or its delegation) and the doublings.

    Every call is checked with `judge_calls` before it is written, so the
    record never carries one the rules refuse.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def deal(self, dealer: str, rng: Random, better: bool = False) -> DealtHand:
        """The deal, then trump and doublings: at random, or with `better` by the better bot, each player
        judging from his own hand (and face-up piles)."""
        setup = self.setup
        cards = sorted(setup.cards)
        rng.shuffle(cards)
        hands: dict[str, set[int]] = {}
        piles: dict[str, list[list[int]]] = {}
        for p in turn_order(setup.players, dealer):
            piles[p] = [cards[4 * k : 4 * k + 4] for k in range(setup.piles)]
            cards = cards[4 * setup.piles :]
            hands[p] = set(cards[: setup.in_hand])
            cards = cards[setup.in_hand :]
        lines: list[str] = []
        for p in setup.players:
            lines += [f"deal {p}.{k + 1} " + " ".join(spell(c) for c in pile) for k, pile in enumerate(piles[p])]
            if setup.in_hand:
                lines.append(f"deal {p} " + " ".join(spell(c) for c in sorted(hands[p], key=_in_suit_order)))

        def seen(p: str) -> set[int]:
            return hands[p] | {pile[0] for pile in piles[p] if pile}

        calls = self._calls(dealer, seen, rng, better)
        judged = judge_calls(calls, dealer, setup.seating)
        assert judged.named and not judged.bad, judged.bad
        written = [" ".join(x for x in (c.kind, c.player, c.word) if x) for c in calls]
        position = BotifarraPosition(setup, dealer, judged.trump, hands, piles, judged.multiplier)
        return DealtHand(lines + written, position, written)

    def _calls(self, dealer: str, seen: Callable[[str], set[int]], rng: Random, better: bool) -> list[CallLine]:
        """The trump call (after a delegation, perhaps) and the doublings, in the order they are made."""
        seating = self.setup.seating
        out: list[CallLine] = []
        chooser = dealer
        if seating.mode == PARTNERSHIP:
            mine = seen(dealer)
            weak = max(_suit_value(mine, s) for s in range(4)) < _DELEGATE_BAR and not _wants_botifarra(mine)
            if weak if better else rng.random() < 0.25:
                out.append(CallLine("trump", dealer, DELEGATE))
                chooser = next(iter(seating.partners(dealer)))
        word = _best_trump(seen(chooser)) if better else rng.choice(_TRUMP_CHOICES)
        out.append(CallLine("trump", chooser, word))
        trump = TRUMP_WORDS[word]
        choosing = set(seating.side(dealer))
        others = [p for p in seating.players if p not in choosing]
        if seating.mode == INDIVIDUAL:
            turns = [("contro", others)] if trump is not None else []
        else:
            turns = [("contro", others), ("recontro", sorted(choosing, key=seating.players.index))]
            if trump is not None:
                turns.append(("sant-vicenc", others))
        for kind, who in turns:
            if better:
                caller = next((p for p in who if _confidence(seen(p), trump) >= _DOUBLE_BARS[kind]), None)
            else:
                caller = rng.choice(who) if rng.random() < _RANDOM_DOUBLE else None
            if caller is None:
                break
            out.append(CallLine(kind, caller))
        return out

    def better_bot(self, position: Position, rng: Random) -> int:
        """Win with the lowest card that wins when an opponent is master; give points to a master partner;
        lead a 9 outside trump when holding one; otherwise play the lowest card."""
        assert isinstance(position, BotifarraPosition)
        legal = position.legal()
        trump = position.trump

        def low(c: int) -> tuple[int, bool, int]:
            return (points(c), suit_of(c) == trump, strength(c))

        lying = position.trick
        if not lying:
            nines = [c for c in legal if rank_of(c) == 9 and suit_of(c) != trump]
            return nines[0] if nines else min(legal, key=low)
        me = position.to_move()
        if position.master() in position.setup.seating.partners(me):
            return max(legal, key=lambda c: (points(c), suit_of(c) != trump, -strength(c)))
        beaters = [c for c in legal if trick_winner([*lying, c], trump) == len(lying)]
        if beaters:
            return min(beaters, key=lambda c: (suit_of(c) == trump, strength(c)))
        return min(legal, key=low)


def _in_suit_order(card: int) -> tuple[int, int]:
    """A hand as players sort it: by suit, high cards first."""
    return (suit_of(card), -strength(card))
