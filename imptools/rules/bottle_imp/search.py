"""The Bottle Imp for a game-tree search: a fast position and the hand a record shows, ready to analyse.

`SearchBottle` keeps each player's cards as a bit mask (bit `c` for engine card
`c`) and only the coins of the won piles, so `play` and `undo` are a few integer
operations. It judges tricks and moves the bottle exactly as `settle_trick`
does, and Lopaka's cards come from the checker's own `automaton_choice`.

What a player's result depends on (see `SearchPosition.key`): a player's hand
score is the coins of his won cards, unless he holds a bottle at the end; then
it is minus the imp's trick (per bottle), whatever he has won. So from any
position his result is either his won coins plus what he wins from here, or
k times minus the imp's trick; which one, and what he wins from here, depend on
the cards, the trick, the leader, the prices and the bottles he holds, never on
his won coins. The table keys leave his won coins out and bank them
(`penalty_unit` tells the search how to read a result below them). Other
players' won coins and which other player holds a bottle never matter to his
result.

`Escape` and `Gains` (`imptools.rules.bottle_imp.escape`) answer the windows a whole hand asks most (whether a player
can end without a bottle; how many coins he can gain as well) with searches of
their own, keyed by the order of the cards in play (`SearchBottle.answer`).
"""

from __future__ import annotations

from itertools import pairwise

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, Searchable, bits
from imptools.rules.bottle_imp.bottles import Bottle, automaton_choice, judge_prices, settle_trick
from imptools.rules.bottle_imp.cards import START_PRICE, spell
from imptools.rules.bottle_imp.escape import Escape, Gains, nearest_price
from imptools.rules.bottle_imp.setup import Setup, imp_trick
from imptools.rules.exchange import after_exchange
from imptools.rules.tricks import Played, walk_tricks

MARKS = (3, 10)
"""A play that costs 3 coins or more is `?`, 10 or more `??` (see docs/ANALYSIS.md)."""

SEARCHABLE = ("classic", "lopaka", "second-bottle")
"""The variants the search values: one card each per trick, each player's own hand score."""


Saved = tuple[int, int, list[int], int, int, int, int | None, int, int, int]
"""What `undo` needs after a trick was settled: the last card, the leader, the trick, the code before the last
card, the winner, the coins he gained, the bottle taken (or None), its old price and owner, and the coins its old
price card gave that owner."""

SavedTrick = tuple[int, list[int], int | None, int, int]
"""What `_reopen` needs after `_close`: the leader, the trick, the bottle taken (or None), its old price and
owner."""

WIDTH = 80
"""Bits of a card mask in the position's code (engine cards are below 76)."""


class SearchBottle:
    """A one-pack Bottle Imp hand with every card visible (a `SearchPosition`).

    `order` is the seating from the leader of trick 1; `hands` the cards each seat
    holds; `penalty` the coins of the imp's trick. Seats are numbers inside; the
    position is also kept as one integer, `code` (the cards in hand, the cards in
    the trick, the leader and the prices; who holds a card never changes, so the
    masks need no seats), updated at every play: the table key.
    """

    def __init__(self, setup: Setup, order: list[str], hands: dict[str, set[int]], penalty: int) -> None:
        self.setup = setup
        self.order = order
        self.seat = {p: i for i, p in enumerate(order)}
        self.n = n = len(order)
        self.per_trick = n
        self.penalty = penalty
        self.hands = [sum(1 << c for c in hands[p]) for p in order]
        self.dealt = list(self.hands)
        """Each seat's cards where the position starts: who holds a card never changes, wherever a search is."""
        top = max(setup.cards) + 1
        self.coins = [0] * top
        self.suit = [0] * top
        for c, (col, v) in setup.cards.items():
            self.coins[c] = v
            self.suit[c] = sum(1 << d for d, (cc, _) in setup.cards.items() if cc == col)
        self.colour = {c: col for c, (col, _) in setup.cards.items()}
        self.prices = [START_PRICE] * setup.bottles
        self.owners = [-1] * setup.bottles
        self.won = [0] * n
        self.leader = 0
        self.trick: list[int] = []
        self.lopaka = self.seat.get(setup.automaton, -1) if setup.automaton is not None else -1
        self._undo: list[Saved | None] = []
        self.live = 0
        for h in self.hands:
            self.live |= h
        self.live_coins = sum(self.coins[c] for c in bits(self.live))
        self._lead_at = 2 * WIDTH
        self._price_at = self._lead_at + 8
        self._mine_at = self._price_at + 8 * setup.bottles
        self.code = self.live + self._price_code()
        self._held = (1 << WIDTH) - 1
        """The part of `code` that holds the cards in hand."""
        self._to_trick = self._held
        """Shifted by a card's bit, what a play adds to `code`: the card's bit in the trick less its bit in hand."""
        self._groups: dict[tuple[int, int, int], tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]] = {}
        self._escape: Escape | None = None
        self._gains: Gains | None = None

    def _price_code(self) -> int:
        return sum(p << (self._price_at + 8 * i) for i, p in enumerate(self.prices))

    # ----------------------------------------------------------------------- Position

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % self.n]

    def _legal_mask(self) -> int:
        held = self.hands[(self.leader + len(self.trick)) % self.n]
        if self.trick:
            same = held & self.suit[self.trick[0]]
            if same:
                return same
        return held

    def legal(self) -> list[int]:
        return bits(self._legal_mask())

    def legal_from(self, cards: list[int]) -> list[int]:
        """The cards the player to move could play if he held `cards` (what a past play proves he did not hold)."""
        held = 0
        for c in cards:
            held |= 1 << c
        if self.trick:
            same = held & self.suit[self.trick[0]]
            if same:
                return bits(same)
        return bits(held)

    def forced(self) -> int | None:
        if self.lopaka < 0:
            return None
        seat = (self.leader + len(self.trick)) % self.n
        if seat != self.lopaka:
            return None
        bottles = [Bottle(p, None) for p in self.prices]
        return automaton_choice(set(bits(self.hands[seat])), self.trick, bottles, self.colour.__getitem__)

    def play(self, card: int) -> None:
        trick = self.trick
        n = self.n
        seat = (self.leader + len(trick)) % n
        self.hands[seat] ^= 1 << card
        code = self.code + (self._to_trick << card)
        trick.append(card)
        if len(trick) < n:
            self.code = code
            self._undo.append(None)
            return
        prices, owners, won, coins = self.prices, self.owners, self.won, self.coins
        win, taken = judge_prices(trick, prices)
        winner = (self.leader + win) % n
        gained = 0
        gone = 0
        for c in trick:
            gained += coins[c]
            gone |= 1 << c
        self.live_coins -= gained
        self.live ^= gone
        price, owner, refund = 0, -1, 0
        if taken is not None:
            price, owner = prices[taken], owners[taken]
            if price != START_PRICE and owner >= 0:
                refund = coins[price]
                won[owner] += refund
            prices[taken] = trick[win]
            owners[taken] = winner
            gained -= coins[trick[win]]
        self._undo.append((card, self.leader, trick, self.code, winner, gained, taken, price, owner, refund))
        won[winner] += gained
        code = (code & self._held) + (winner << self._lead_at)
        at = self._price_at
        for p in prices:
            code += p << at
            at += 8
        self.code = code
        self.leader = winner
        self.trick = []

    def undo(self) -> None:
        saved = self._undo.pop()
        if saved is None:
            card = self.trick.pop()
            self.hands[(self.leader + len(self.trick)) % self.n] |= 1 << card
            self.code -= self._to_trick << card
            return
        card, leader, trick, code, winner, gained, taken, price, owner, refund = saved
        won = self.won
        coins = self.coins
        gone = 0
        for c in trick:
            gone |= 1 << c
        self.live ^= gone
        self.live_coins += gained
        if taken is not None:
            self.live_coins += coins[self.prices[taken]]  # the card under the bottle, not in the winner's pile
            self.prices[taken] = price
            self.owners[taken] = owner
            if refund:
                won[owner] -= refund
        won[winner] -= gained
        trick.pop()
        self.trick = trick
        self.leader = leader
        self.code = code
        self.hands[(leader + len(trick)) % self.n] |= 1 << card

    def _close(self, card: int) -> SavedTrick:
        """Play a trick's last card and settle the trick as `play` does, without what `Escape` and `Gains` do not
        need (coins, the code, the undo stack); what `_reopen` needs back."""
        trick = self.trick
        leader = self.leader
        prices = self.prices
        self.hands[(leader + len(trick)) % self.n] ^= 1 << card
        trick.append(card)
        win, taken = judge_prices(trick, prices)
        winner = (leader + win) % self.n
        gone = 0
        for c in trick:
            gone |= 1 << c
        self.live ^= gone
        if taken is None:
            saved: SavedTrick = (leader, trick, None, 0, 0)
        else:
            owners = self.owners
            saved = (leader, trick, taken, prices[taken], owners[taken])
            prices[taken] = trick[win]
            owners[taken] = winner
        self.leader = winner
        self.trick = []
        return saved

    def _reopen(self, saved: SavedTrick) -> None:
        """Take back `_close`."""
        leader, trick, taken, price, owner = saved
        gone = 0
        for c in trick:
            gone |= 1 << c
        self.live ^= gone
        if taken is not None:
            self.prices[taken] = price
            self.owners[taken] = owner
        card = trick.pop()
        self.trick = trick
        self.leader = leader
        self.hands[(leader + len(trick)) % self.n] |= 1 << card

    def done(self) -> bool:
        return not self.live

    def spell(self, card: int) -> str:
        return spell(card)

    # ----------------------------------------------------------------------- SearchPosition

    def side(self, player: str) -> frozenset[str]:
        return frozenset((player,))

    def result(self, player: str) -> int:
        seat = self.seat[player]
        held = self.owners.count(seat)
        return -self.penalty * held if held else self.won[seat]

    def key(self, player: str) -> tuple[object, int]:
        """The position's code (with the bottles `player` holds), and his won coins as the banked part.

        His result from here is his won coins plus what he wins from here, or a
        penalty (see `penalty_unit`); both depend on the code alone. With a
        penalty of 0 coins the two meet, so there his won coins go into the key.
        """
        seat = self.seat[player]
        owners = self.owners
        code = self.code
        if seat in owners:
            mine = 0
            for i, o in enumerate(owners):
                if o == seat:
                    mine |= 1 << i
            code += mine << self._mine_at
        elif len(owners) == 1:
            # Only comparisons with the cards still in play matter of a price the player does not hold.
            price = self.prices[0]
            code += ((self.live & ((1 << price) - 1)).bit_length() - price) << self._price_at
        if not self.penalty and (seat in owners or not self._clear(seat)):
            return (code, self.won[seat]), 0
        return code, self.won[seat]

    def answer(self, player: str, alpha: int, beta: int) -> int | None:
        """A window above `player`'s won coins asks how many more he can gain and end without a bottle: answered by
        `Gains` (his won coins plus the gain, or the penalty if he cannot escape). A window that only asks whether
        he ends without a bottle is answered by `Escape` (his won coins if he can, the penalty if not). None for
        any other window."""
        pen = self.penalty
        if not pen:
            return None
        seat = self.seat[player]
        won = self.won[seat]
        if alpha >= won:
            if self._gains is None:
                self._gains = Gains(self, self._escaping())
            gain = self._gains.gain(seat, alpha - won, beta - won)
            return won + gain if gain >= 0 else -pen
        if alpha < -pen or beta > won:
            return None
        return won if self._escaping().escapes(seat) else -pen

    def _escaping(self) -> Escape:
        if self._escape is None:
            self._escape = Escape(self)
        return self._escape

    @property
    def answer_nodes(self) -> int:
        """The positions `answer` has visited."""
        return sum(s.nodes for s in (self._escape, self._gains) if s is not None)

    def penalty_unit(self) -> int:
        """The imp's trick: a player who ends holding k bottles scores -k times it, whatever he has won."""
        return self.penalty

    def bounds(self, player: str) -> tuple[int, int]:
        """Bounds on the value for `player`: what he has won, down to the bottles' penalty, up to every coin still
        in play and the price cards of his bottles; where `_fate` settles it, exactly the penalty, or at least what
        he has won and those price cards; where he can win no more trick (`_wins_nothing`), up to what he has won
        and those price cards.
        (These two are asked at a trick's start only: inside a trick the cards lying never settled what its start
        left open, and the bounds of the start still hold there.)"""
        seat = self.seat[player]
        won = self.won[seat]
        mine = self._price_coins(seat) if seat in self.owners else 0
        hi = won + self.live_coins + mine
        fate = None if self.trick else self._fate(seat)
        if fate is False:
            return -self.penalty, -self.penalty
        if not self.trick and self._wins_nothing(seat):
            hi = won + mine
        if fate is None:
            return min(won, -self.penalty * len(self.owners)), hi
        return won + mine, hi

    def _price_coins(self, seat: int) -> int:
        """The coins of the price cards of the bottles `seat` holds: a bottle taken from him gives him its card."""
        mine = 0
        for p, o in zip(self.prices, self.owners):
            if o == seat and p != START_PRICE:
                mine += self.coins[p]
        return mine

    def _wins_nothing(self, seat: int) -> bool:
        """At a trick's start, whether `seat` can win no more trick: he has no card below the (higher) price (any
        card below it played wins its trick, so a trick he wins holds only cards lower than his), and another
        player has no card below his highest."""
        hands = self.hands
        held = hands[seat]
        if not held:
            return True
        if held & ((1 << max(self.prices)) - 1):
            return False
        under = (1 << (held.bit_length() - 1)) - 1
        return any(not h & under for o, h in enumerate(hands) if o != seat)

    def opposed(self) -> list[tuple[int, ...]]:
        """`groups` in the order the players against P try them: the cards nearest the (higher) price first
        (`nearest_price`)."""
        return list(self._both()[1])

    def cards_left(self) -> int:
        """The cards still to be played."""
        return self.live.bit_count() - len(self.trick)

    def _clear(self, seat: int) -> bool:
        """Whether `seat` has no card below the (higher) price, in hand or lying in the trick in progress: if he
        owns no bottle he can never end with one (prices only fall)."""
        below = (1 << max(self.prices)) - 1
        if self.hands[seat] & below:
            return False
        i = (seat - self.leader) % self.n
        return i >= len(self.trick) or not (1 << self.trick[i]) & below

    def _fate(self, seat: int) -> bool | None:
        """Whether `seat` surely ends without a bottle (True) or surely with one (False), whatever is played; None
        when that takes a search. Without a bottle and no card below the (higher) price he never takes one. With
        one bottle, every card in hand being played before the end settles the rest from who has cards below its
        price (in hand or lying in the trick): if only he has, he keeps it or takes it and keeps it; if he holds it
        and has none while another has, that card takes it from him for good."""
        prices = self.prices
        if len(prices) > 1:
            return True if seat not in self.owners and self._clear(seat) else None
        below = (1 << prices[0]) - 1
        his = self.hands[seat]
        i = (seat - self.leader) % self.n
        if i < len(self.trick):
            his |= 1 << self.trick[i]
        low, others_low = his & below, self.live & ~his & below
        if self.owners[0] == seat:
            return False if not others_low else True if not low else None
        return True if not low else False if not others_low else None

    def groups(self) -> list[tuple[int, ...]]:
        """Legal cards in runs: adjacent in rank with nothing left in play between them, the same colour and coins,
        and above the (higher) price, so that neither can ever take a bottle or be compared with a price between
        them (below the price a twin could become the price while the other stays in hand, and they differ)."""
        return list(self._both()[0])

    def _both(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """The runs of `groups` in both orders (`groups`, `opposed`), remembered."""
        legal = self._legal_mask()
        price = max(self.prices)
        # Runs depend only on the cards in play from the lowest legal card to the highest.
        memo = (legal, self.live & ((1 << legal.bit_length()) - (legal & -legal)), price)
        found = self._groups.get(memo)
        if found is None:
            runs = self._runs(legal, price)
            by_first = {g[0]: g for g in runs}
            found = self._groups[memo] = (runs, tuple(by_first[c] for c in nearest_price(by_first, price)))
        return found

    def _runs(self, legal_mask: int, price: int, by_coins: bool = True, beaten: int = 0) -> tuple[tuple[int, ...], ...]:
        """The runs of `groups` (with `by_coins` False, cards of different coins may share one; cards below `beaten`
        join runs too: a card lying in the trick below the price that they cannot beat)."""
        legal = bits(legal_mask)
        if len(legal) < 2:
            return (tuple(legal),)
        live = self.live
        out: list[list[int]] = [[legal[0]]]
        suit, coins = self.suit, self.coins
        for a, b in pairwise(legal):
            between = live & ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
            same = suit[a] == suit[b] and (not by_coins or coins[a] == coins[b])
            if (a > price or b < beaten) and not between and same:
                out[-1].append(b)
            else:
                out.append([b])
        # High cards first: they keep the bottle away from the player and often decide the trick.
        return tuple(tuple(g) for g in reversed(out))


def played_hand(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card after the exchange) and its plays, or why it cannot be analysed (a
    `StartPosition`: the registry finds it)."""
    assert isinstance(setup, Setup)
    if setup.variant not in SEARCHABLE:
        return f"the {setup.variant} variant is not analysed (only {', '.join(SEARCHABLE)})"
    if setup.automaton is not None and dealer == setup.automaton:
        return "Lopaka never deals"
    order = setup.order(dealer)
    bottles = [Bottle() for _ in range(setup.bottles)]
    piles: dict[str, list[int]] = {p: [] for p in setup.players}

    def settle(played: Played) -> int:
        return settle_trick(played.cards, played.who, bottles, piles)

    walk = walk_tricks(hand, order, setup.per_trick, setup.resolve, settle)
    plays = walk.numbered_plays()
    complete = walk.whole and len(walk.tricks) == setup.tricks
    dealt = after_exchange(hand, setup.resolve)
    if all(p in dealt for p in order):
        held = dealt
        source = "the deal and the exchange"
    elif complete:
        held = {p: set() for p in order}
        for _, p, c in plays:
            held[p].add(c)
        source = "the plays"
    elif hand.deals:
        missing = ", ".join(p for p in order if p not in dealt)
        return f"the cards still to be played are not all known: no deal line for {missing}"
    else:
        return "the cards still to be played are not all known: the hand is not complete and has no deal lines"
    sizes = {p: len(held[p]) for p in order}
    if set(sizes.values()) != {setup.tricks}:
        shown = ", ".join(f"{p} {k}" for p, k in sizes.items())
        return f"{source} do not give every player {setup.tricks} cards ({shown})"
    in_play = set().union(*held.values())
    if len(in_play) != setup.tricks * len(order):
        return f"{source} give the same card to two players"
    imp = imp_trick(setup, hand, in_play)
    penalty = sum(setup.coins(c) for c in imp)
    position = SearchBottle(setup, order, held, penalty)
    return PlayedHand(position, plays, walk.stop_note(hand), MARKS)
