"""Ninety-nine in play: a position to play from, and the simulator's deals, bids and bots."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from itertools import combinations
from random import Random

from imptools.record import Hand
from imptools.rules.base import Ask, Choice, DealtHand, Position
from imptools.rules.dealing import deal_to, not_a_card, recorded
from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import (
    BID_CARDS,
    DEALT,
    DECK,
    PLAYERS,
    effective,
    legal_cards,
    parse,
    spell,
    trick_winner,
    trump_of,
)
from imptools.rules.ninety_nine.scoring import DECLARE, Declaration, PlayerScore, score_hand
from imptools.rules.ninety_nine.setup import Setup
from imptools.rules.tricks import turn_order

REACH = 21
"""The most cards still to play from which the `pimc` bot solves worlds to the end of the hand (from trick 3: a world
of the whole hand can take a second): before that it values them by the search cut at a horizon."""


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

    >>> from imptools.rules.ninety_nine.cards import make
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


def bid_miss(cards: Sequence[int], bid: Sequence[int], turnup: int) -> float:
    """How far the tricks the cards kept should take (`estimate_tricks`) lie from what `bid` says, rounded as the
    better bot compares them."""
    value = bid_value(bid, turnup)
    assert value is not None
    kept = [c for c in cards if c not in bid]
    return round(abs(estimate_tricks(kept, turnup) - value), 6)


def ranked_bids(cards: Sequence[int], turnup: int) -> list[tuple[float, tuple[int, ...]]]:
    """Every bid of three of `cards` with its miss (`bid_miss`), the best first (ties in the order of the cards).

    >>> from imptools.rules.ninety_nine.cards import make
    >>> hand = [make(r, s) for s in "SHD" for r in ("A", "K", "6", "7")]
    >>> ranked = ranked_bids(hand, make("6", "C"))
    >>> len(ranked), [round(miss, 2) for miss, _ in ranked[:3]]
    (220, [0.05, 0.05, 0.05])
    """
    return list(_ranked(tuple(cards), turnup))


@functools.lru_cache(maxsize=1024)
def _misses(cards: tuple[int, ...], turnup: int) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """Every bid of three of `cards` with its miss, in the order of the cards sorted (worked out once for the many
    worlds that deal a player the same cards)."""
    return tuple((bid_miss(cards, bid, turnup), bid) for bid in combinations(sorted(cards), BID_CARDS))


@functools.lru_cache(maxsize=256)
def _every_bid(player: str, cards: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """Every bid of three of `cards` (sorted), in their order, and each as `player`'s bid line (worked out once for
    the deals of a world made again for every option)."""
    names = combinations([spell(c) for c in cards], BID_CARDS)
    return tuple(combinations(cards, BID_CARDS)), tuple(f"bid {player} " + " ".join(n) for n in names)


@functools.lru_cache(maxsize=1024)
def _ranked(cards: tuple[int, ...], turnup: int) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """`_misses`, the best first."""
    return tuple(sorted(_misses(cards, turnup), key=lambda x: x[0]))


def bid_candidates(cards: Sequence[int], turnup: int, first: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    """At most `most` bids of three of `cards` to choose among: `first`, then the best bid (`ranked_bids`) of each
    other number of tricks, the likeliest first, then the next best bids.

    >>> from imptools.rules.ninety_nine.cards import make
    >>> hand = [make(r, s) for s in "SHD" for r in ("A", "K", "6", "7")]
    >>> six = make("6", "C")
    >>> [bid_value(b, six) for b in bid_candidates(hand, six, ranked_bids(hand, six)[0][1], 6)]
    [3, 4, 2, 1, 5, 6]
    """
    ranked = [b for _, b in ranked_bids(cards, turnup)]
    out = [first]
    numbers = {bid_value(first, turnup)}
    for bid in ranked:
        if len(out) < most and bid_value(bid, turnup) not in numbers:
            out.append(bid)
            numbers.add(bid_value(bid, turnup))
    out += [b for b in ranked if b not in out][: max(most - len(out), 0)]
    return out


def bid_line(player: str, bid: Sequence[int]) -> str:
    """A bid as the record writes it."""
    return f"bid {player} " + " ".join(spell(c) for c in sorted(bid))


class NinetyNineSimulator:
    """Deals random Ninety-nine hands: twelve each from the player after the dealer, the turn-up, the bids."""

    choices_by_worlds = False
    """Bids and declarations by worlds lost to the better bot's at 600 hands (docs/PERFORMANCE.md)."""

    CANDIDATES = 6
    """The bids a bot that reasons over worlds is offered (`deal`'s `ask`): the better bot's, then the next best by
    the same estimate (`ranked_bids`)."""

    SURE = 0.15
    """The better bot declares (the first to qualify) only a bid of 0 its estimate puts within this of its cards:
    in trials, such bids are made about four times in five, other bids not one time in two, whatever the estimate."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def places(self, dealer: str) -> list[tuple[str, int]]:
        return [*((p, DEALT) for p in turn_order(self.setup.players, dealer)), ("turnup", 1)]

    def seen_at_deal(self, hand: Hand, dealer: str, seat: str) -> dict[str, list[int]] | str:
        """The seat's twelve cards and the turn-up, and where the hand's lines have another player declare or reveal
        (the first such line), that player's three bid cards, shown to the table (the first of his twelve; his other
        nine, a revealed hand's too, are seen only from the play on). A declarer's bid the record does not give as
        three cards (`bid NAME 3`, `?`, no bid line) adds nothing. The other bids are made again."""
        seen = recorded(hand, [(seat, DEALT, DEALT)], self.card)
        if isinstance(seen, str):
            return seen
        if len(hand.turnups) != 1:
            return f"hand {hand.number} has {'no' if not hand.turnups else 'more than one'} turnup line"
        token = hand.turnups[0].card.text
        turnup = self.card(token)
        if turnup is None:
            return f"hand {hand.number} turns up `{token}`, {not_a_card(token)}"
        seen["turnup"] = [turnup]
        caller = next((d.player.name for d in hand.declares if d.player.name in self.setup.players), None)
        bids = [b for b in hand.bids if b.player.name == caller]
        if caller is None or caller == seat or len(bids) != 1 or len(bids[0].cards) != BID_CARDS:
            return seen
        shown = [self.card(c.text) for c in bids[0].cards]
        for c, card in zip(bids[0].cards, shown, strict=True):
            if card is None and not c.text.startswith("?"):
                return f"hand {hand.number} bids `{c.text}` for {caller}, {not_a_card(c.text)}"
        if None not in shown:
            seen[caller] = [c for c in shown if c is not None]
        return seen

    def card(self, text: str) -> int | None:
        return parse(text)

    def pack(self) -> list[int]:
        return list(DECK)

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
        """The deal (to `given`, the rest at random), the turn-up, and each player's bid in turn order, the first who
        is sure of a bid of 0 declaring it (`SURE`); with `ask`, each bid among the better bot's and the next best
        (`CANDIDATES`; any other bid of his twelve may be answered: `Choice.others`) and whether to declare it are
        asked (see `HandSimulator.deal`); a declaration shows the bid cards, so the choices after it carry its bid line
        and `declare` line (`Choice.lines`)."""
        players = self.setup.players
        order = turn_order(players, dealer)
        dealt = deal_to(self.places(dealer), self.pack(), given, rng)
        (turnup,) = dealt["turnup"]
        deal_lines = [f"deal {p} " + " ".join(spell(c) for c in sorted(dealt[p])) for p in players]
        seen = [*deal_lines, f"turnup {spell(turnup)}"]
        bids: dict[str, tuple[int, ...]] = {}
        call: Declaration | None = None
        for p in order:
            if better:
                bids[p], miss = self._reasoned_bid(dealt[p], turnup, rng)
                if ask is not None:
                    ranked = bid_candidates(dealt[p], turnup, bids[p], self.CANDIDATES)
                    top = tuple(bid_line(p, b) for b in ranked)
                    every, texts = _every_bid(p, tuple(sorted(dealt[p])))
                    rest = [i for i, b in enumerate(every) if b not in ranked]
                    others = tuple(texts[i] for i in rest)
                    k = ask(Choice("bid", p, top, shown=False, lines=(*seen,), others=others))
                    bids[p] = ranked[k] if k < len(ranked) else every[rest[k - len(ranked)]]
                    miss = bid_miss(dealt[p], bids[p], turnup)
                if call is None:
                    declares = miss <= self.SURE and bid_value(bids[p], turnup) == 0
                    if ask is not None:
                        texts = (f"declare {p}", "") if declares else ("", f"declare {p}")
                        mine = (*seen, bid_line(p, bids[p]))
                        declares = bool(texts[ask(Choice(DECLARE, p, texts, lines=mine, reveals="bid"))])
                    if declares:
                        call = Declaration(DECLARE, p)
                        seen += [bid_line(p, bids[p]), f"declare {p}"]  # the bid cards shown: seen by the others
            else:
                bids[p] = tuple(rng.sample(dealt[p], BID_CARDS))
        hands = {p: set(dealt[p]) - set(bids[p]) for p in players}
        values = {p: bid_value(bids[p], turnup) for p in players}
        scored = [f"turnup {spell(turnup)}"]
        scored += [bid_line(p, bids[p]) for p in players]
        if call is not None:
            scored.append(f"declare {call.player}")
        lines = deal_lines + scored
        return DealtHand(lines, NinetyNinePosition(players, dealer, hands, turnup, values, call), scored)

    def within_reach(self, position: Position) -> bool:
        """Whether few enough cards are left for the search to solve a world quickly (`REACH`)."""
        assert isinstance(position, NinetyNinePosition)
        return sum(len(h) for h in position.hands.values()) <= REACH

    @staticmethod
    def _reasoned_bid(cards: Sequence[int], turnup: int, rng: Random) -> tuple[tuple[int, ...], float]:
        """The three cards to bid whose value best matches the tricks the other nine should take, and the miss.

        Among equally good choices, one at random.
        """
        scored = _misses(tuple(cards), turnup)
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
