"""Ninety-nine (the notation's section 7): 36 cards A-6 in four suits and the joker.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from random import Random

from imptools.record import (
    Bid,
    Call,
    CardText,
    Deal,
    Declare,
    Discard,
    Game,
    Hand,
    ImpTrick,
    Open,
    Pass,
    Trick,
    Trump,
    TurnUp,
)
from imptools.rules.base import CardCheck, CardFace, DealtHand, HandOutcome, PlayedHand, Position, TrickRuleset
from imptools.rules.steps import Step
from imptools.rules.tricks import (
    Holdings,
    Played,
    Reporter,
    StepLog,
    Walk,
    cards_of,
    deal_size_findings,
    dealt_twice,
    duplicate_findings,
    name_findings,
    play_not_held_findings,
    revoke_findings,
    trick_count_findings,
    turn_order,
    walk_tricks,
)

SUITS = "DSHC"
"""Suit letters by suit number, which is also what the suit adds to a bid."""
SUIT_NAMES = ("diamonds", "spades", "hearts", "clubs")
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank spellings, low to high."""
NINE = RANKS.index("9")
JOKER = 36
DECK: tuple[int, ...] = tuple(range(37))
"""The 37 cards."""
PLAYERS = 3
DEALT = 12
"""Cards dealt to each player (three go to the bid, nine are played)."""
BID_CARDS = 3
TRICKS = 9
MAX_BID = 9

_CARD = re.compile(r"(A|K|Q|J|10|T|9|8|7|6)([SHDC♠♥♦♣])", re.IGNORECASE)
_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


# --------------------------------------------------------------------------- cards


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


# --------------------------------------------------------------------------- tricks


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
    suits = [suit_in_play(c, turnup) for c in cards]
    if not cards or any(s is None for s in suits):
        return None
    trump = trump_of(turnup)
    wanted = trump if trump is not None and trump in suits else suits[0]
    best = max((i for i, s in enumerate(suits) if s == wanted), key=lambda i: effective(cards[i], turnup) % 9)
    return best


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


# --------------------------------------------------------------------------- bids


@dataclass(frozen=True, slots=True)
class BidProblem:
    """Why a `bid` line is not a bid: the `bad-bid` message."""

    message: str


def bid_shape(cards: int, number: int | None) -> BidProblem | None:
    """Check the shape of a bid: three cards, or a number from 0 to 9.

    >>> bid_shape(3, None) is None, bid_shape(0, 9) is None
    (True, True)
    >>> bid_shape(4, None).message
    'a bid is three cards, not 4'
    >>> bid_shape(0, 10).message
    'a bid is 0 to 9, not 10'
    """
    if number is not None:
        return None if 0 <= number <= MAX_BID else BidProblem(f"a bid is 0 to {MAX_BID}, not {number}")
    if cards != BID_CARDS:
        return BidProblem(f"a bid is three cards, not {cards}")
    return None


def bid_value(cards: Sequence[int | None], turnup: int | None) -> int | None:
    """What three bid cards say: their suits add up (diamonds 0, spades 1, hearts 2, clubs 3).

    A joker counts with the turn-up's suit. None when the bid is unknown: an
    unknown card (None), a joker while the turn-up is unknown, or other than three cards.

    >>> bid_value([make("A", "S"), make("A", "H"), JOKER], make("A", "D"))
    3
    >>> bid_value([make("Q", "C"), make("Q", "S"), JOKER], make("9", "C"))
    7
    >>> bid_value([make("Q", "C"), None, make("6", "D")], make("9", "C")) is None
    True
    """
    if len(cards) != BID_CARDS:
        return None
    total = 0
    for c in cards:
        if c is None or (c == JOKER and turnup is None):
            return None
        s = suit(c if turnup is None else effective(c, turnup))
        if s is None:
            return None
        total += s
    return total


# --------------------------------------------------------------------------- scores

DECLARE = "declare"
REVEAL = "reveal"
CALL_BONUS = {DECLARE: 30, REVEAL: 60}
"""What declaring and revealing are worth."""
EXACT_BONUS = {1: 30, 2: 20, 3: 10}
"""What each player who took exactly the bid adds, by how many did."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """A `declare` or `reveal` that counts: its kind and the declarer."""

    kind: str
    player: str


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's hand score and how it is made up.

    `bid` is None when the bid is unknown (it then counts as not made);
    `exact` is the bonus for taking exactly the bid; `call` what a declaration
    or revelation brought this player (as declarer or as opponent).
    """

    bid: int | None
    tricks: int
    made: bool
    exact: int
    call: int

    @property
    def total(self) -> int:
        return self.tricks + self.exact + self.call

    def describe(self) -> str:
        """A short line for a score sheet: `bid 3 · 3 tricks · exact +30`."""
        bits = [
            f"bid {'?' if self.bid is None else self.bid}",
            f"{self.tricks} trick" + ("" if self.tricks == 1 else "s"),
        ]
        if self.exact:
            bits.append(f"exact +{self.exact}")
        if self.call:
            bits.append(f"call +{self.call}")
        return " · ".join(bits)


def score_hand(
    players: Sequence[str], bids: Mapping[str, int | None], tricks: Mapping[str, int], call: Declaration | None
) -> dict[str, PlayerScore]:
    """Score one hand: 1 per trick; exact bids 30 alone, 20 each for two, 10 each for three; the call.

    A declaration (30) or revelation (60) goes to the declarer if the bid was
    made, otherwise to each opponent. A player whose bid is unknown has not made it.

    >>> s = score_hand(["A", "B", "C"], {"A": 3, "B": 3, "C": 3}, {"A": 5, "B": 1, "C": 3}, None)
    >>> [s[p].total for p in "ABC"]
    [5, 1, 33]
    """
    made = {p: bids.get(p) is not None and bids.get(p) == tricks.get(p, 0) for p in players}
    exact = EXACT_BONUS.get(sum(made.values()), 0)
    bonus = dict.fromkeys(players, 0)
    if call is not None and call.player in made:
        worth = CALL_BONUS[call.kind]
        if made[call.player]:
            bonus[call.player] = worth
        else:
            for p in players:
                if p != call.player:
                    bonus[p] = worth
    return {p: PlayerScore(bids.get(p), tricks.get(p, 0), made[p], exact if made[p] else 0, bonus[p]) for p in players}


# --------------------------------------------------------------------------- replay detail


@dataclass(frozen=True, slots=True)
class NinetyNineState:
    """Ninety-nine's part of a replay state: the turn-up and trump, the bids shown, the call, tricks against bids.

    `bids` and `tricks` hold `(player, text)`: a bid's number (`?` when unknown)
    once its line has been stepped, and each player's tricks so far.
    """

    turnup: str | None = None
    trump: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    call: tuple[str, str] | None = None
    tricks: tuple[tuple[str, int], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out = [("turn-up", "not known" if self.turnup is None else f"{self.turnup} · {self.trump}")]
        bids = dict(self.bids)
        if bids:
            out.append(("bids", ", ".join(f"{p} {b}" for p, b in self.bids)))
        if self.call is not None:
            out.append(("declared" if self.call[0] == DECLARE else "revealed", self.call[1]))
        if self.tricks:
            out.append(
                ("tricks", ", ".join(f"{p} {n}" + (f" of {bids[p]}" if p in bids else "") for p, n in self.tricks))
            )
        return out


# --------------------------------------------------------------------------- one hand, as the record shows it


@dataclass(frozen=True, slots=True)
class BidLine:
    """One player's bid as recorded: the line, its cards (None for `?`) or number, and whether it is a bid at all."""

    line: Bid
    cards: tuple[int | None, ...]
    number: int | None
    good: bool

    def value(self, turnup: int | None) -> int | None:
        """The number bid, None when unknown (a bad bid, `?` cards, a joker under an unknown turn-up)."""
        if not self.good:
            return None
        if self.number is not None:
            return self.number
        return bid_value(self.cards, turnup)


@dataclass(slots=True)
class Deck:
    """What a hand's record says about where the cards are, worked out once per hand."""

    dealt: dict[str, set[int]]
    turnup: int | None
    """The turn-up as recorded, or inferred when it is the only card the record places nowhere."""
    possible: tuple[int, ...]
    """The cards the turn-up may be: the turn-up alone when it is known."""
    bids: dict[str, BidLine]
    put_away: dict[str, set[int]]
    """The known cards of each good bid that its bidder could have put away."""

    def suit_name(self, card: int) -> str | None:
        """The suit a card counts in (None when the record leaves it open: a joker under an unknown turn-up)."""
        if len(self.possible) == 1:
            s1 = suit_in_play(card, self.possible[0])
            return None if s1 is None else SUIT_NAMES[s1]
        suits = {suit_in_play(card, t) for t in self.possible}
        if len(suits) != 1:
            return None
        s = suits.pop()
        return None if s is None else SUIT_NAMES[s]

    def winner(self, cards: Sequence[int]) -> int | None:
        """The winning play, when every turn-up the record allows gives the same one."""
        winners = {trick_winner(cards, t) for t in self.possible}
        return winners.pop() if len(winners) == 1 else None

    def trump_text(self) -> str | None:
        """How the trump is shown: `trump diamonds`, `no trump`, or None when the turn-up is unknown."""
        trumps = {trump_of(t) for t in self.possible}
        if len(trumps) != 1:
            return None
        t = trumps.pop()
        return "no trump" if t is None else f"trump {SUIT_NAMES[t]}"

    def bid_number(self, player: str) -> tuple[int | None, bool]:
        """A player's bid and whether the record settles it (a joker under an unknown turn-up may not)."""
        line = self.bids.get(player)
        if line is None:
            return None, True
        values = {line.value(t) for t in self.possible}
        return (values.pop(), True) if len(values) == 1 else (None, False)


@dataclass(frozen=True, slots=True)
class Setup:
    """A Ninety-nine game: its players (three, in turn order) and variant."""

    players: tuple[str, ...]
    variant: str


VARIANTS = ("standard",)


def _known(x: CardText) -> int | None:
    return None if x.unknown else parse(x.text)


# --------------------------------------------------------------------------- the ruleset


class NinetyNine(TrickRuleset):
    """Ninety-nine: cards `AS` .. `6C` (`T` for 10, suit symbols accepted) and the joker `JK`."""

    name = "ninety-nine"
    variants = VARIANTS
    default_hands = 9

    def check_card(self, text: str, game: Game) -> CardCheck:
        card = parse(text)
        if card is None:
            return CardCheck(
                None,
                "unknown-card",
                f"`{text}` is not a ninety-nine card (A K Q J 10 9 8 7 6 then S H D C: `AS`, `10H`; joker `JK`)",
            )
        return CardCheck(spell(card))

    def card_face(self, text: str, game: Game) -> CardFace:
        """The card with its suit; hearts and diamonds red, spades and clubs the plain text colour, the joker magenta.

        A hand sorts by suit (diamonds, spades, hearts, clubs), then A K Q J 10 ... 6, the joker last.
        """
        card = parse(text)
        if card is None:
            return CardFace(text)
        s = suit(card)
        if s is None:
            return CardFace("JK", "joker", "magenta", 100 * len(SUITS))
        rank = card % len(RANKS)
        style = "red" if SUITS[s] in "HD" else "default"
        return CardFace(spell(card), SUIT_NAMES[s], style, 100 * s + len(RANKS) - rank)

    def simulator(self, game: Game) -> NinetyNineSimulator | None:
        """Random deals for any game the rules can judge (three players, the standard variant)."""
        setup = self.table(game)
        return None if setup is None else NinetyNineSimulator(setup)

    def played_hand(self, game: Game, hand_number: int) -> PlayedHand | str:
        """A hand's start position and plays for `imp analyse`, or why it cannot be analysed."""
        from imptools.rules.ninety_nine_search import searchable

        return searchable(self, game, hand_number)

    def deck(self, game: Game) -> list[str]:
        """The 37 cards: suit by suit, highest first, then the joker."""
        return [spell(c) for c in DECK]

    def players_problem(self, game: Game) -> str | None:
        """Ninety-nine is for three players."""
        n = len(game.players)
        if n == PLAYERS or len(set(game.players)) != n:
            return None  # a name written twice is reported on its own
        return f"Players names {n} player{'s' if n != 1 else ''}; Ninety-nine is for {PLAYERS}"

    def table(self, game: Game) -> Setup | None:
        variant = game.tag("Variant") or VARIANTS[0]
        if variant not in VARIANTS or len(game.players) != PLAYERS or len(set(game.players)) != PLAYERS:
            return None
        return Setup(game.players, variant)

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        players = table.players
        report = Reporter(game, hand)
        deck = self._deck(hand, players, report)
        won = dict.fromkeys(players, 0)

        def settle(played: Played) -> int | None:
            win = deck.winner(played.cards)
            if win is not None:
                won[played.who[win]] += 1
                played.after = dict(won)
            return win

        walk = walk_tricks(hand, turn_order(players, dealer), PLAYERS, parse, settle, self._filler(hand, deck))
        self._record_checks(players, hand, walk, deck, report)
        contested = dealt_twice(hand, parse)
        kept = {p: cards - deck.put_away.get(p, set()) - contested for p, cards in deck.dealt.items()}
        hidden = {p: BID_CARDS - len(deck.put_away.get(p, ())) for p in deck.dealt}
        revoke_findings(walk, Holdings(walk, kept, hidden=hidden), deck.suit_name, spell, str, report)
        call = self._call(hand, players, report)
        complete = len(hand.tricks) == TRICKS
        scores: dict[str, int] | None = None
        player_notes: tuple[tuple[str, str], ...] = ()
        settled = {p: deck.bid_number(p) for p in players}
        if complete and walk.whole and all(ok for _, ok in settled.values()):
            sheet = score_hand(players, {p: b for p, (b, _) in settled.items()}, won, call)
            scores = {p: sheet[p].total for p in players}
            player_notes = tuple((p, sheet[p].describe()) for p in players)
        notes: list[tuple[str, str]] = []
        if deck.turnup is not None:
            notes.append(("turn-up", f"{spell(deck.turnup)}, {deck.trump_text()}"))
        if call is not None:
            made = scores is not None and settled[call.player][0] == won[call.player]
            verb = "declared" if call.kind == DECLARE else "revealed"
            notes.append((verb, call.player + ("" if scores is None else " (made)" if made else " (not made)")))
        outcome = HandOutcome(scores, complete, TRICKS, report.findings, notes=tuple(notes), walk=walk)
        outcome.player_notes = player_notes
        if steps:
            outcome.steps = self._steps(players, hand, walk, deck, scores)
        return outcome

    # ----------------------------------------------------------------------- what the record says

    def _deck(self, hand: Hand, players: tuple[str, ...], report: Reporter) -> Deck:
        """The deals, the turn-up (recorded or inferred), the bids and their cards; `bad-bid`, bid `not-held`."""
        dealt: dict[str, set[int]] = {}
        for deal in hand.deals:
            if deal.player.name in players:
                dealt.setdefault(deal.player.name, set()).update(cards_of(deal.cards, parse))
        owner = {c: p for p, cards in dealt.items() for c in cards}
        turnup: int | None = None
        for k, line in enumerate(hand.turnups):
            if k == 0:
                turnup = _known(line.card)
            else:
                msg = f"a second turn-up ({line.card.text}); only one card is turned up"
                report.add("bad-call", msg, line.line, line.column, None, None)
        bids: dict[str, BidLine] = {}
        put_away: dict[str, set[int]] = {}
        in_bid: dict[int, str] = {}
        for bid in hand.bids:
            p = bid.player.name
            if p not in players:
                continue
            if p in bids:
                msg = f"{p} has already bid on line {bids[p].line.line}; a player bids once"
                report.add("bad-bid", msg, bid.line, bid.column, None, p)
                continue
            problem = bid_shape(len(bid.cards), bid.number)
            if problem is not None:
                report.add("bad-bid", f"{p}'s bid: {problem.message}", bid.line, bid.column, None, p)
            cards = tuple(_known(x) for x in bid.cards)
            bids[p] = BidLine(bid, cards, bid.number, problem is None)
            for x, c in zip(bid.cards, cards):
                if c is None:
                    continue
                if c in in_bid:
                    where = "in this bid" if in_bid[c] == p else f"in {in_bid[c]}'s bid"
                    report.add("duplicate-card", f"{p} bids {spell(c)}, already {where}", x.line, x.column, None, p)
                    continue
                in_bid[c] = p
                if c == turnup:
                    msg = f"{p} bids {spell(c)}, the turned-up card"
                    report.add("duplicate-card", msg, x.line, x.column, None, p)
                elif p in dealt and c not in dealt[p]:
                    elsewhere = f", dealt to {owner[c]}" if c in owner else ""
                    msg = f"{p} bids {spell(c)}, which {p} was not dealt{elsewhere}"
                    report.add("not-held", msg, x.line, x.column, None, p)
                elif p not in dealt and c in owner:
                    msg = f"{p} bids {spell(c)}, which was dealt to {owner[c]}"
                    report.add("not-held", msg, x.line, x.column, None, p)
                elif problem is None:
                    put_away.setdefault(p, set()).add(c)
        possible: tuple[int, ...]
        if turnup is not None:
            possible = (turnup,)
        else:
            seen = set(owner) | set(in_bid)
            for trick in hand.tricks:
                seen.update(cards_of((play.card for play in trick.plays), parse))
            possible = tuple(c for c in DECK if c not in seen) or DECK
            if len(possible) == 1:
                turnup = possible[0]
        return Deck(dealt, turnup, possible, bids, put_away)

    @staticmethod
    def _filler(hand: Hand, deck: Deck) -> Callable[[Trick, int, str], int | None]:
        """The card a `?` play must be, where the record leaves one only.

        From the player's deal, when the bid cards are known: the one card of it not
        bid and not seen anywhere else in the record. Without the deal, when the
        turn-up and every bid card are known and this is the only `?` played: the one
        card of the deck the record places nowhere.
        """
        placed: dict[tuple[int, int], int] = {}
        unknown = 0
        for trick in hand.tricks:
            for play in trick.plays:
                c = _known(play.card)
                if c is not None:
                    placed[(play.card.line, play.card.column)] = c
                unknown += play.card.unknown
        played = set(placed.values())
        bids_known = len(deck.bids) == PLAYERS and all(len(deck.put_away.get(p, ())) == BID_CARDS for p in deck.bids)

        def fill(trick: Trick, i: int, player: str) -> int | None:
            if player in deck.dealt and len(deck.put_away.get(player, ())) == BID_CARDS:
                left = deck.dealt[player] - deck.put_away[player] - played
            elif unknown == 1 and bids_known and deck.turnup is not None and len(deck.possible) == 1:
                seen = played | {c for cards in deck.put_away.values() for c in cards} | {deck.turnup}
                left = {c for c in DECK if c not in seen}
            else:
                return None
            return next(iter(left)) if len(left) == 1 else None

        return fill

    def _call(self, hand: Hand, players: tuple[str, ...], report: Reporter) -> Declaration | None:
        """The hand's declaration or revelation; any after the first is `bad-call`."""
        call: Declaration | None = None
        for line in hand.declares:
            p = line.player.name
            if p not in players:
                continue
            if call is not None:
                first = "declared" if call.kind == DECLARE else "revealed"
                msg = f"{p} {line.kind}s, but {call.player} has already {first}: one call per hand"
                report.add("bad-call", msg, line.line, line.column, None, p)
                continue
            call = Declaration(line.kind, p)
        return call

    def _record_checks(self, players: tuple[str, ...], hand: Hand, walk: Walk, deck: Deck, report: Reporter) -> None:
        """Turn order and names, trick counts, repeated cards, the turn-up found elsewhere, deal sizes, cards not held,
        and lines that have no place in this game."""
        trick_count_findings(hand, PLAYERS, report)
        name_findings(walk, players, report)
        duplicate_findings(hand, walk, parse, spell, report)
        deal_size_findings(hand, players, lambda who: DEALT, "the deal gives", report)
        recorded = next((_known(t.card) for t in hand.turnups), None)
        if recorded is not None:
            for deal in hand.deals:
                for x in deal.cards:
                    if _known(x) == recorded:
                        msg = f"{spell(recorded)} is dealt to {deal.player}, but it is the turned-up card"
                        report.add("duplicate-card", msg, x.line, x.column, None, None)
            for played in [*walk.tricks, *([walk.unfinished] if walk.unfinished else [])]:
                for play, p, c in zip(played.trick.plays, played.who, played.cards):
                    if c == recorded:
                        msg = f"{p} plays {spell(c)} in trick {played.trick.number}, but it is the turned-up card"
                        report.add("duplicate-card", msg, play.card.line, play.card.column, played.trick.number, p)
        kept = {p: cards - deck.put_away.get(p, set()) for p, cards in deck.dealt.items()}
        elsewhere: dict[int, tuple[str | None, str]] = {
            c: (p, f"dealt to {p}") for p, cards in deck.dealt.items() for c in cards
        }
        for p, cards in deck.put_away.items():
            elsewhere.update((c, (None, f"put away in {p}'s bid")) for c in cards)
        play_not_held_findings(walk, kept, spell, report, "after the deal and the bid", elsewhere)
        for line in hand.lines:
            if isinstance(line, (Discard, Pass, Open, ImpTrick)):
                who = None if isinstance(line, ImpTrick) else line.giver if isinstance(line, Pass) else line.player
                kind = {Discard: "discard", Pass: "pass", Open: "open", ImpTrick: "imp"}[type(line)]
                msg = f"`{kind}` has no place in Ninety-nine: the only cards put away are the bid"
                report.add("bad-exchange", msg, line.line, line.column, None, None if who is None else who.name)
            elif isinstance(line, (Trump, Call)):
                kind = "trump" if isinstance(line, Trump) else line.kind
                msg = f"`{kind}` has no place in Ninety-nine: the turn-up sets trump; the calls are declare and reveal"
                report.add("bad-call", msg, line.line, line.column, None, line.player.name)

    # ----------------------------------------------------------------------- replay

    def _steps(
        self, players: tuple[str, ...], hand: Hand, walk: Walk, deck: Deck, scores: dict[str, int] | None
    ) -> list[Step]:
        log = StepLog(players, spell, walk, deck.suit_name)
        detail = NinetyNineState()
        log.detail = detail
        for line in hand.lines:
            if isinstance(line, Deal):
                log.deal(line, parse)
            elif isinstance(line, TurnUp):
                card = _known(line.card)
                if card is not None and detail.turnup is None:
                    trump = trump_of(card)
                    log.detail = detail = replace(
                        detail, turnup=spell(card), trump="no trump" if trump is None else f"trump {SUIT_NAMES[trump]}"
                    )
                log.line("turnup", None, (line.card,), line)
            elif isinstance(line, Bid):
                p = line.player.name
                bid = deck.bids.get(p)
                if bid is not None and bid.line is line:
                    number, _ = deck.bid_number(p)
                    shown = "?" if number is None else str(number)
                    log.detail = detail = replace(detail, bids=(*detail.bids, (p, shown)))
                    if bid.good:
                        log.set_aside("bid", p, line.cards, line, parse, shown)
                        continue
                log.line("bid", p, line.cards, line)
            elif isinstance(line, Declare):
                if detail.call is None and line.player.name in players:
                    log.detail = detail = replace(detail, call=(line.kind, line.player.name))
                log.line("declare", line.player.name, (), line, text=line.kind)
        if detail.turnup is None and deck.turnup is not None:
            trump = trump_of(deck.turnup)
            log.detail = detail = replace(
                detail, turnup=spell(deck.turnup), trump="no trump" if trump is None else f"trump {SUIT_NAMES[trump]}"
            )
        log.detail = detail = replace(detail, tricks=tuple((p, 0) for p in players))
        for played in [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]:
            for i in range(len(played.cards)):
                log.play(played, i)
            if played.winner is not None:
                log.detail = detail = replace(detail, tricks=tuple(played.after.items()))
                log.trick_end(played)
        log.end(hand, scores)
        return log.steps


RULESET = NinetyNine()


# --------------------------------------------------------------------------- playing: positions and simulated deals


class NinetyNinePosition:
    """A Ninety-nine hand being played, every card visible (see `imptools.rules.base.Position`).

    `hands` holds the nine cards each player plays (the deal less the bid);
    the legal cards and each trick's winner are `legal_cards` and `trick_winner`,
    the checker's own. `won` counts the tricks each player has taken; `undo`
    takes a play back, the trick's winner included.
    """

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        hands: dict[str, set[int]],
        turnup: int,
        bids: Mapping[str, int | None],
        call: Declaration | None = None,
    ) -> None:
        self.players = tuple(players)
        self.order = turn_order(players, dealer)
        self.per_trick = PLAYERS
        self.hands = hands
        self.turnup = turnup
        self.bids = dict(bids)
        self.call = call
        self.won = dict.fromkeys(self.players, 0)
        self.leader = 0
        self.trick: list[int] = []
        self._undo: list[tuple[str, int, int, list[int], str | None]] = []
        """(player, card, leader before, trick before, who took the trick the play completed)."""

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % PLAYERS]

    def legal(self) -> list[int]:
        led = self.trick[0] if self.trick else None
        return sorted(legal_cards(sorted(self.hands[self.to_move()]), led, self.turnup))

    def forced(self) -> int | None:
        return None

    def play(self, card: int) -> None:
        player = self.to_move()
        leader, before = self.leader, list(self.trick)
        self.hands[player].remove(card)
        self.trick.append(card)
        taker: str | None = None
        if len(self.trick) == PLAYERS:
            win = trick_winner(self.trick, self.turnup)
            assert win is not None, "the joker is never played while it is the turn-up"
            taker = self.order[(self.leader + win) % PLAYERS]
            self.won[taker] += 1
            self.leader = self.order.index(taker)
            self.trick = []
        self._undo.append((player, card, leader, before, taker))

    def undo(self) -> None:
        player, card, self.leader, self.trick, taker = self._undo.pop()
        self.hands[player].add(card)
        if taker is not None:
            self.won[taker] -= 1

    def done(self) -> bool:
        return not self.trick and not any(self.hands.values())

    def spell(self, card: int) -> str:
        return spell(card)

    def score_sheet(self) -> dict[str, PlayerScore]:
        """Each player's hand score so far, by the checker's `score_hand` from tricks won, bids and the call."""
        return score_hand(self.players, self.bids, self.won, self.call)

    def hand_scores(self) -> dict[str, int]:
        """Each player's hand score (at the end of the hand: what `imp score` gives it)."""
        return {p: s.total for p, s in self.score_sheet().items()}


TRUMP_WORTH = (0.35, 0.35, 0.4, 0.45, 0.5, 0.6, 0.75, 0.9, 1.0)
"""The better bot's guess of the tricks a trump of each rank takes, 6 up to the ace."""
SIDE_WORTH = {8: 0.85, 7: 0.5, 6: 0.2}
"""The same for an ace, king and queen of a side suit (half as much for a king without another card of its suit,
or a queen without two)."""


def estimate_tricks(kept: Sequence[int], turnup: int) -> float:
    """The better bot's guess of the tricks nine cards take: high trumps, side aces and guarded kings, long suits.

    >>> round(estimate_tricks([make("A", "S"), make("K", "S"), make("A", "D")], make("6", "D")), 2)
    2.35
    """
    trump = trump_of(turnup)
    cards = [effective(c, turnup) for c in kept]
    length = {s: sum(1 for c in cards if c // 9 == s) for s in range(4)}
    total = 0.0
    for c in cards:
        s, r = c // 9, c % 9
        if s == trump:
            total += TRUMP_WORTH[r]
        else:
            worth = SIDE_WORTH.get(r, 0.0)
            total += worth if r == 8 or length[s] > 8 - r else worth / 2
    if trump is None:
        total += sum(0.5 * max(0, n - 4) for n in length.values())
    return total


class NinetyNineSimulator:
    """Deals random Ninety-nine hands: twelve each from the player after the dealer, the turn-up, the bids."""

    SURE = 0.15
    """The better bot declares (the first to qualify) only a bid of 0 its estimate puts within this of its cards:
    in trials, such bids are made about four times in five, other bids not one time in two, whatever the estimate."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def deal(self, dealer: str, rng: Random, better: bool = False) -> DealtHand:
        players = self.setup.players
        cards = list(DECK)
        rng.shuffle(cards)
        order = turn_order(players, dealer)
        dealt = {p: cards[DEALT * i : DEALT * (i + 1)] for i, p in enumerate(order)}
        turnup = cards[PLAYERS * DEALT]
        bids: dict[str, tuple[int, ...]] = {}
        call: Declaration | None = None
        for p in order:
            if better:
                bids[p], miss = self._reasoned_bid(dealt[p], turnup, rng)
                if call is None and miss <= self.SURE and bid_value(bids[p], turnup) == 0:
                    call = Declaration(DECLARE, p)
            else:
                bids[p] = tuple(rng.sample(dealt[p], BID_CARDS))
        hands = {p: set(dealt[p]) - set(bids[p]) for p in players}
        values = {p: bid_value(bids[p], turnup) for p in players}
        scored = [f"turnup {spell(turnup)}"]
        scored += [f"bid {p} " + " ".join(spell(c) for c in sorted(bids[p])) for p in players]
        if call is not None:
            scored.append(f"declare {call.player}")
        lines = [f"deal {p} " + " ".join(spell(c) for c in sorted(dealt[p])) for p in players] + scored
        return DealtHand(lines, NinetyNinePosition(players, dealer, hands, turnup, values, call), scored)

    @staticmethod
    def _reasoned_bid(cards: Sequence[int], turnup: int, rng: Random) -> tuple[tuple[int, ...], float]:
        """The three cards to bid whose value best matches the tricks the other nine should take, and the miss.

        Among equally good choices, one at random.
        """
        scored: list[tuple[float, tuple[int, ...]]] = []
        for bid in combinations(sorted(cards), BID_CARDS):
            value = bid_value(bid, turnup)
            assert value is not None
            kept = [c for c in cards if c not in bid]
            scored.append((round(abs(estimate_tricks(kept, turnup) - value), 6), bid))
        best = min(miss for miss, _ in scored)
        return rng.choice([bid for miss, bid in scored if miss == best]), best

    def better_bot(self, position: Position, rng: Random) -> int:
        """Take exactly the bid: while short of it, win (cheaply) where it can; once there, duck (with the highest
        card that loses)."""
        assert isinstance(position, NinetyNinePosition)
        legal = position.legal()
        turnup, trick = position.turnup, position.trick
        trump = trump_of(turnup)
        player = position.to_move()
        bid = position.bids.get(player)
        short = bid is not None and position.won[player] < bid

        def strength(c: int) -> tuple[bool, int, int]:
            e = effective(c, turnup)
            return (e // 9 == trump, e % 9, c)

        if not trick:
            return max(legal, key=strength) if short else min(legal, key=strength)
        winning = [c for c in legal if trick_winner([*trick, c], turnup) == len(trick)]
        losing = [c for c in legal if c not in winning]
        if short:
            return min(winning, key=strength) if winning else min(legal, key=strength)
        if losing:
            return max(losing, key=strength)
        last = len(trick) == PLAYERS - 1
        return max(winning, key=strength) if last else min(winning, key=strength)
