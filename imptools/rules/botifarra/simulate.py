"""Botifarra in play: a position to play from, and the simulator's deals, calls and bots."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from random import Random

from imptools.record import Hand
from imptools.rules.base import Ask, Choice, DealtHand, Position
from imptools.rules.botifarra.calls import DELEGATE, INDIVIDUAL, PARTNERSHIP, CallLine, judge_calls
from imptools.rules.botifarra.cards import (
    BOTIFARRA,
    SUIT_NAMES,
    TRUMP_WORDS,
    points,
    rank_of,
    spell,
    strength,
    suit_of,
    trick_winner,
)
from imptools.rules.botifarra.obligations import legal_cards
from imptools.rules.botifarra.scoring import HAND_POINTS, card_points
from imptools.rules.botifarra.setup import Setup
from imptools.rules.botifarra.tally import Tally, hand_score
from imptools.rules.dealing import deal_to, recorded
from imptools.rules.tricks import turn_order

REACH = 24
"""The most cards still to play from which the `pimc` bot solves worlds to the end of the hand (the last six tricks
of four players: a world of more can take seconds): before that it values them by the search cut at a horizon."""


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
        self.tally = Tally(
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
        return hand_score(self.setup, self.tally, self.multiplier, ())


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


def call_line(call: CallLine) -> str:
    """A call as the record writes it."""
    return " ".join(x for x in (call.kind, call.player, call.word) if x)


class Asking:
    """The choices of trump and doublings put to the players' bots (`HandSimulator.deal`'s `ask`), the lines written
    so far growing with each call made."""

    def __init__(self, ask: Ask, lines: tuple[str, ...]) -> None:
        self.ask = ask
        self.lines = lines

    def trump(self, player: str, first: str, words: Sequence[str]) -> str:
        """The word `player` names (a trump, or `delega`): the better bot's `first`, or another of `words`."""
        options = [first, *(w for w in words if w != first)]
        texts = tuple(call_line(CallLine("trump", player, w)) for w in options)
        word = options[self.ask(Choice("trump", player, texts, lines=self.lines))]
        self.lines = (*self.lines, texts[options.index(word)])
        return word

    def double(self, kind: str, player: str, first: bool) -> bool:
        """Whether `player` makes the doubling call `kind` (the better bot's answer is `first`)."""
        text = call_line(CallLine(kind, player))
        texts = (text, "") if first else ("", text)
        made = bool(texts[self.ask(Choice(kind, player, texts, lines=self.lines))])
        if made:
            self.lines = (*self.lines, text)
        return made


class BotifarraSimulator:
    """Deals random Botifarra hands: the deal in turn order, the trump call (or its delegation) and the doublings.

    Every call is checked with `judge_calls` before it is written, so the
    record never carries one the rules refuse.
    """

    choices_by_worlds = True
    """Trump, delega and doublings by worlds: no worse than the better bot's, measured."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def places(self, dealer: str) -> list[tuple[str, int]]:
        setup = self.setup
        out: list[tuple[str, int]] = []
        for p in turn_order(setup.players, dealer):
            out += [(f"{p}.{k + 1}", 4) for k in range(setup.piles)]
            if setup.in_hand:
                out.append((p, setup.in_hand))
        return out

    def seen_at_deal(self, hand: Hand, dealer: str, seat: str) -> dict[str, list[int]] | str:
        """The seat's hand, and with two players the top card of every pile, face up for both."""
        wanted = []
        for place, size in self.places(dealer):
            if "." in place:
                wanted.append((place, 1, size))
            elif place == seat:
                wanted.append((place, size, size))
        return recorded(hand, wanted, self.card)

    def card(self, text: str) -> int | None:
        return self.setup.resolve(text)

    def pack(self) -> list[int]:
        return sorted(self.setup.cards)

    def spell(self, card: int) -> str:
        return spell(card)

    def deal(
        self,
        dealer: str,
        rng: Random,
        better: bool = False,
        given: Mapping[str, Sequence[int]] | None = None,
        ask: Ask | None = None,
    ) -> DealtHand:
        """The deal (to `given`, the rest at random), then trump and doublings: at random, or with `better` by the
        better bot, each player judging from his own hand (and face-up piles); with `ask` too, each of those choices
        is asked (the trump among the five, and `delega` where the dealer may; each doubling or not, player by
        player: see `HandSimulator.deal`)."""
        setup = self.setup
        dealt = deal_to(self.places(dealer), self.pack(), given, rng)
        hands: dict[str, set[int]] = {}
        piles: dict[str, list[list[int]]] = {}
        for p in turn_order(setup.players, dealer):
            piles[p] = [dealt[f"{p}.{k + 1}"] for k in range(setup.piles)]
            hands[p] = set(dealt.get(p, ()))
        lines: list[str] = []
        for p in setup.players:
            lines += [f"deal {p}.{k + 1} " + " ".join(spell(c) for c in pile) for k, pile in enumerate(piles[p])]
            if setup.in_hand:
                lines.append(f"deal {p} " + " ".join(spell(c) for c in sorted(hands[p], key=_in_suit_order)))

        def seen(p: str) -> set[int]:
            return hands[p] | {pile[0] for pile in piles[p] if pile}

        asking = Asking(ask, tuple(lines)) if ask is not None and better else None
        calls = self._calls(dealer, seen, rng, better, asking)
        judged = judge_calls(calls, dealer, setup.seating)
        assert judged.named and not judged.bad, judged.bad
        written = [call_line(c) for c in calls]
        position = BotifarraPosition(setup, dealer, judged.trump, hands, piles, judged.multiplier)
        share = HAND_POINTS // len(setup.seating.sides())
        multiplier = judged.multiplier

        def worth(player: str, points: int) -> int:
            """The hand's score for `player`'s side less the other's (a player alone: his score), from his side's
            points (the search's result)."""
            return (points - share) * multiplier

        return DealtHand(lines + written, position, written, worth)

    def _calls(
        self, dealer: str, seen: Callable[[str], set[int]], rng: Random, better: bool, asking: Asking | None = None
    ) -> list[CallLine]:
        """The trump call (after a delegation, perhaps) and the doublings, in the order they are made."""
        seating = self.setup.seating
        out: list[CallLine] = []
        chooser = dealer
        word: str | None = None
        if seating.mode == PARTNERSHIP:
            mine = seen(dealer)
            weak = max(_suit_value(mine, s) for s in range(4)) < _DELEGATE_BAR and not _wants_botifarra(mine)
            delegates = weak if better else rng.random() < 0.25
            if asking is not None:
                first = DELEGATE if delegates else _best_trump(mine)
                word = asking.trump(dealer, first, (*_TRUMP_CHOICES, DELEGATE))
                delegates = word == DELEGATE
            if delegates:
                out.append(CallLine("trump", dealer, DELEGATE))
                chooser = next(iter(seating.partners(dealer)))
                word = None
        if word is None:
            word = _best_trump(seen(chooser)) if better else rng.choice(_TRUMP_CHOICES)
            if asking is not None:
                word = asking.trump(chooser, word, _TRUMP_CHOICES)
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
            if asking is not None:
                caller = next(
                    (p for p in who if asking.double(kind, p, _confidence(seen(p), trump) >= _DOUBLE_BARS[kind])), None
                )
            elif better:
                caller = next((p for p in who if _confidence(seen(p), trump) >= _DOUBLE_BARS[kind]), None)
            else:
                caller = rng.choice(who) if rng.random() < _RANDOM_DOUBLE else None
            if caller is None:
                break
            out.append(CallLine(kind, caller))
        return out

    def within_reach(self, position: Position) -> bool:
        """Whether few enough cards are left for the search to solve a world quickly (`REACH`)."""
        assert isinstance(position, BotifarraPosition)
        return (
            sum(len(h) for h in position.hands.values()) + sum(len(pile) for p in position.piles.values() for pile in p)
            <= REACH
        )

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
