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

`Escape` and `Gains` answer the windows a whole hand asks most (whether a player
can end without a bottle; how many coins he can gain as well) with searches of
their own, keyed by the order of the cards in play (`SearchBottle.answer`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from itertools import pairwise

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, bits
from imptools.rules.bottle_imp import (
    LOPAKA,
    START_PRICE,
    Bottle,
    BottleImp,
    Setup,
    automaton_choice,
    imp_trick,
    judge_prices,
    settle_trick,
    spell,
)
from imptools.rules.tricks import Played, after_exchange, walk_tricks

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

GainEntry = tuple[int, int, int, int, tuple[int, ...]]
"""A `Gains` table entry: lower and upper bound, the best card's place among the cards in play, and the cards in
play with the moves there (`_moves`), to find them at once where the same cards are in play."""

ESCAPE_CAP = 1_000_000
"""Entries in one of `Escape`'s tables before it becomes the older generation (still read) and a new one starts;
the one before it is then dropped (as `imptools.analyse.TABLE_CAP`)."""

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
        self.lopaka = self.seat.get(LOPAKA, -1) if setup.lopaka else -1
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


def nearest_price(cards: Iterable[int], price: int) -> list[int]:
    """The order in which the players against P try their cards: nearest the price first; below it the highest
    first (taking the bottle at a high price leaves P's low cards under it), then above it the lowest first (the
    high cards kept for later).

    >>> nearest_price([4, 30, 44, 60, 12], 38)
    [30, 12, 4, 44, 60]
    """
    ordered = sorted(cards, reverse=True)
    return [c for c in ordered if c < price] + [c for c in reversed(ordered) if c > price]


def played_hand(setup: Setup, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card after the exchange) and its plays, or why it cannot be analysed."""
    if setup.variant not in SEARCHABLE:
        return f"the {setup.variant} variant is not analysed (only {', '.join(SEARCHABLE)})"
    if setup.lopaka and dealer == LOPAKA:
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


def searchable(ruleset: BottleImp, game: Game, hand_number: int) -> PlayedHand | str:
    """`played_hand` for hand `hand_number` of `game` (or why it cannot be analysed)."""
    setup = ruleset.table(game)
    if setup is None:
        return "imptools cannot judge this game (players or variant)"
    found = ruleset.hand_and_dealer(game, setup, hand_number)
    return found if isinstance(found, str) else played_hand(setup, game, *found)


LYING = 8 * 5
"""Bits for the places of the cards lying in a trick (8 each; at most five before the last of six players)."""

FAILED = -1
"""`Gains`' value of a line on which P ends with a bottle: below every gain, which is never negative."""


class _Lines:
    """What `Escape` and `Gains` share: both play on a `SearchBottle`'s own state, lighter than `play` (inside a
    trick only the hands and the trick change; a trick's last card settles it with `judge_prices`, `_close`), key
    positions by the order of the cards in play rather than the cards themselves (`_digits`: each card's holder
    and colour, and for `Gains` its coins, from low to high), and move one card of each run (`_moves`)."""

    by_coins = False
    """Whether cards of different coins are different moves (and go into `_digits`)."""

    def __init__(self, pos: SearchBottle, table_cap: int = ESCAPE_CAP) -> None:
        self.pos = pos
        self.table_cap = table_cap
        self.nodes = 0
        colours = sorted(set(pos.colour.values()))
        self._width = 9 if self.by_coins else 6
        digit = [0] * len(pos.coins)
        for seat, held in enumerate(pos.dealt):  # not `hands`: this may be built deep inside a search
            for c in bits(held):
                digit[c] = (seat << 3) | colours.index(pos.colour[c])
                if self.by_coins:
                    digit[c] = (digit[c] << 3) | pos.coins[c]
        # The order of a byte's worth of cards, for each byte of the card mask: (their digits packed, how many).
        self._chunks = [[self._pack(digit, base, v) for v in range(256)] for base in range(0, len(pos.coins), 8)]
        self._memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _pack(self, digit: list[int], base: int, byte: int) -> tuple[int, int]:
        packed = count = 0
        for i in range(8):
            if byte >> i & 1 and base + i < len(digit):
                packed = (packed << self._width) | digit[base + i]
                count += 1
        return packed, count

    def _digits(self, live: int) -> int:
        """The holders and colours (and coins) of the cards in `live` from low to high, packed in one integer."""
        code = 1
        rest = live
        width = self._width
        for chunk in self._chunks:
            if not rest:
                break
            packed, count = chunk[rest & 255]
            code = (code << (width * count)) | packed
            rest >>= 8
        return code

    def _bottles(self, live: int) -> list[tuple[int, int]]:
        """Each bottle's price and owner, the highest price first (ties, only at the start price, in the bottles'
        order): which bottle a card takes depends on the prices' order, which their places among `live` alone may
        not tell."""
        pos = self.pos
        pairs = list(zip(pos.prices, pos.owners))
        if len(pairs) > 1:
            pairs.sort(key=lambda po: -po[0])
        return pairs

    def _lying(self) -> int:
        """The places of the cards lying in the trick among the cards in play, packed (below `LYING` bits)."""
        pos = self.pos
        lying = 0
        for c in pos.trick:
            lying = (lying << 8) | ((pos.live & ((1 << c) - 1)).bit_count() + 1)
        return lying

    def _moves(self, mover: int, chooser: bool) -> tuple[int, ...]:
        """One card of each run of the legal cards of `mover` (adjacent among the cards in play, one colour, and
        for `Gains` the same coins, above the prices or below a card lying in the trick under the one price), in
        the order he tries them: the player asked about (`chooser`) for `Escape` his lowest card first, the least
        likely to take a bottle, for `Gains` his highest first; the others by `nearest_price`."""
        pos = self.pos
        trick, prices = pos.trick, pos.prices
        legal = pos.hands[mover]
        one = len(prices) == 1
        price = prices[0] if one else max(prices)
        beaten = 0
        if trick:
            legal = legal & pos.suit[trick[0]] or legal  # `_legal_mask`
            if one:
                for c in trick:  # the highest card lying under the price: the cards below it can share a run
                    if beaten < c < price:
                        beaten = c
        above = legal >> (price + 1)
        runs = above & (above - 1) or legal & ((1 << beaten) - 1)  # two cards that could share a run
        if runs:
            # Runs depend only on the cards in play from the lowest legal card to the highest.
            span = pos.live & ((1 << legal.bit_length()) - (legal & -legal))
            memo: tuple[int, ...] = (legal, span, price, beaten, chooser)
        else:
            memo = (legal, price, chooser)
        found = self._memo.get(memo)
        if found is None:
            if runs:
                cards = [g[0] for g in pos._runs(legal, price, by_coins=self.by_coins, beaten=beaten)]
            else:
                cards = bits(legal)
            if not chooser:
                found = tuple(nearest_price(cards, price))
            else:
                found = tuple(sorted(cards, reverse=self.by_coins))
            self._memo[memo] = found
        return found


class Escape(_Lines):
    """Whether a player can end the hand without a bottle, all cards visible, every other player against him.

    This is the question that costs most in a whole hand (a null window between
    the penalty and his won coins asks nothing else), and it needs far less than
    his value: coins do not matter, only the order of the cards still in play, their
    colours and holders, the prices' places among them, the leader and the bottles
    he holds. So positions are keyed by that order (`_order`: the cards' holders and
    colours from low to high, not the cards themselves), one entry serving every
    position whose earlier tricks took different cards, and cards adjacent in that
    order, of one colour and above the prices (or below a card lying in the trick
    under the one price), are one move whatever their coins; lines end where the
    rules settle his fate (`SearchBottle._fate`). It plays on the
    position's own state, lighter than `play`: inside a trick only the hands and the
    trick change, and a trick's last card settles it with `judge_prices` (`SearchBottle._close`).

    The same search answers a second question, the null window just above his won
    coins: can he end without a bottle *and* gain a coin? Where every card of the hand
    is worth a coin (`counts_tricks`), he gains one exactly when he wins a trick or
    a bottle is taken from him (its price card comes back to him), so coins still do
    not matter: the lines run until he has gained, and go on from there as the
    escape question (`escapes(seat, gaining=True)`).
    """

    def __init__(self, pos: SearchBottle, table_cap: int = ESCAPE_CAP) -> None:
        super().__init__(pos, table_cap)
        self._solvers: dict[tuple[int, bool], Callable[[int | None, int], bool]] = {}
        self.counts_tricks = all(pos.coins[c] > 0 for held in pos.dealt for c in bits(held))
        """Every card of the hand is worth a coin: a player gains coins exactly when he wins a trick or a bottle is
        taken from him."""

    def _order(self, seat: int) -> int:
        """The position at the start of a trick as the question sees it, packed in one integer (its low `LYING`
        bits left for the cards that will lie in the trick): the holders and colours of the cards in play from low
        to high, the leader, and for each bottle (`_bottles`) its price's place among those cards and whether
        `seat` holds it."""
        live = self.pos.live
        code = (self._digits(live) << 4) | self.pos.leader
        for p, o in self._bottles(live):
            code = (code << 9) | ((live & ((1 << p) - 1)).bit_count() << 1) | (o == seat)
        return code << LYING

    def escapes(self, seat: int, gaining: bool = False) -> bool:
        """Whether the player at `seat` can make sure he holds no bottle when the hand ends (and, `gaining`, that
        he gains a coin before it ends: only where `counts_tricks`)."""
        return self._solver_for(seat, gaining)(None, self._lying())

    def _solver_for(self, seat: int, gaining: bool) -> Callable[[int | None, int], bool]:
        """The search of `escapes(seat, gaining)`, built once; its table lives as long as this `Escape`."""
        solve = self._solvers.get((seat, gaining))
        if solve is None:
            solve = self._solvers[seat, gaining] = self._solver(seat, gaining)
        return solve

    def _solver(self, seat: int, gaining: bool) -> Callable[[int | None, int], bool]:
        pos = self.pos
        escaping = self._solver_for(seat, False) if gaining else None
        table: dict[int, bool] = {}
        older: dict[int, bool] = {}  # the generation before `table` (`ESCAPE_CAP`)
        cap = self.table_cap
        refuted: dict[int, int] = {}
        n = pos.n
        hands, owners = pos.hands, pos.owners
        forced_card = pos.forced if pos.lopaka >= 0 else None
        moves, order, settled_fate = self._moves, self._order, pos._fate
        finish, unfinish = pos._close, pos._reopen
        me = self

        def solve(settled: int | None, lying: int) -> bool:
            """`settled`: the trick's start as `_order` gives it (None: work it out); `lying`: the places of the
            cards lying in the trick, packed (below `LYING` bits)."""
            nonlocal table, older
            me.nodes += 1
            live = pos.live
            if not live:
                return not gaining and seat not in owners
            trick = pos.trick
            # Only where a trick starts, or where the question is asked, is the table read and written: an answer
            # inside a trick is read again only when the answer at the trick's start is, and that one is kept.
            inner = settled is not None
            if settled is None:
                # A trick's start. (Inside a trick the cards lying never settle what its start left open.)
                fate = settled_fate(seat)
                if fate is not None and not (gaining and fate):
                    return fate
                settled = order(seat)
            key = 0 if inner else settled | lying
            if not inner:
                found = table.get(key)
                if found is None:
                    found = older.get(key)
                if found is not None:
                    return found
            lying_count = len(trick)
            mover = (pos.leader + lying_count) % n
            chooser = mover == seat
            forced = forced_card() if forced_card is not None else None
            cards = moves(mover, chooser) if forced is None else (forced,)
            depth = live.bit_count() * 8 + lying_count
            if not chooser:
                # The card that last refuted him at this depth first (a killer move, recorded below).
                killer = refuted.get(depth)
                if killer is not None and killer != cards[0] and killer in cards:
                    cards = (killer, *(c for c in cards if c != killer))
            result = not chooser
            if lying_count < n - 1:
                # The trick goes on: the play and its undo inline.
                for c in cards:
                    hands[mover] ^= 1 << c
                    trick.append(c)
                    ok = solve(settled, (lying << 8) | ((live & ((1 << c) - 1)).bit_count() + 1))
                    trick.pop()
                    hands[mover] |= 1 << c
                    if ok == chooser:
                        result = chooser
                        break
            else:
                for c in cards:
                    done = finish(c)
                    if escaping is not None and (pos.leader == seat or (done[2] is not None and done[4] == seat)):
                        ok = escaping(None, 0)  # he has gained: now he only needs to end without a bottle
                    else:
                        ok = solve(None, 0)
                    unfinish(done)
                    if ok == chooser:
                        result = chooser
                        break
            if not chooser and not result:
                refuted[depth] = c  # the card that cut
            if not inner:
                table[key] = result
                if len(table) > cap:
                    older, table = table, {}
            return result

        return solve


class Gains(_Lines):
    """How many coins a player can gain from here and end without a bottle, all cards visible, every other player
    against him: the windows above his won coins, which ask nothing else (his value there is his won coins plus
    that gain, or a penalty below them).

    His gain depends on the same things as `Escape`'s question, and on the coins of the cards still in play and of
    the price cards of the bottles he holds (a bottle taken from him gives him its price card). So positions are
    keyed as `Escape` keys them with each card's coins too (`_order`), one entry serving every position whose
    earlier tricks took different cards, and the value of a line on which he ends with a bottle is `FAILED`.
    Values are relative to the position they are asked at, so an entry serves whatever he has won before it; a
    window that only asks whether he escapes goes to `Escape`, and so does the window just above nothing gained
    where every card is worth a coin (`Escape.counts_tricks`). The search is alpha-beta over the cards' runs with a
    table per player (its best card kept as a place among the cards in play), a history count for his own cards,
    a killer card for the others', and bounds at a trick's start: every coin in play and his bottles' price cards
    above (only those where he can win no more trick, `SearchBottle._wins_nothing`), those price cards below where
    he surely loses his bottles (`SearchBottle._fate`).
    """

    by_coins = True

    def __init__(self, pos: SearchBottle, escape: Escape, table_cap: int = ESCAPE_CAP) -> None:
        super().__init__(pos, table_cap)
        self.escape = escape
        self._solvers: dict[int, Callable[[int, int, int], int]] = {}

    def _order(self, seat: int) -> int:
        """The position at the start of a trick as the gain sees it, packed in one integer (its low `LYING` bits
        left for the cards that will lie in the trick): `Escape._order`, with each card's coins, and the coins of
        the price card of each bottle `seat` holds."""
        pos = self.pos
        live = pos.live
        coins = pos.coins
        code = (self._digits(live) << 4) | pos.leader
        for p, o in self._bottles(live):
            place = (live & ((1 << p) - 1)).bit_count()
            code = (code << 10) | (place << 4) | ((coins[p] << 1 | 1) if o == seat else 0)
        return code << LYING

    def gain(self, seat: int, alpha: int, beta: int) -> int:
        """The most coins the player at `seat` can make sure of gaining from here while ending without a bottle
        (`FAILED` if he cannot end without one): exact strictly inside (alpha, beta), else a bound on the side it
        fails (at most alpha, at least beta)."""
        solve = self._solvers.get(seat)
        if solve is None:
            solve = self._solvers[seat] = self._solver(seat)
        if beta <= FAILED:
            return FAILED
        return solve(max(alpha, FAILED), beta, self._lying())

    def _solver(self, seat: int) -> Callable[[int, int, int], int]:
        pos = self.pos
        escape = self.escape
        escaping = escape._solver_for(seat, False)
        gaining = escape._solver_for(seat, True) if escape.counts_tricks else None
        table: dict[int, GainEntry] = {}
        older: dict[int, GainEntry] = {}  # the generation before `table` (`ESCAPE_CAP`)
        cap = self.table_cap
        hist: defaultdict[int, int] = defaultdict(int)
        count = hist.__getitem__
        refuted: dict[int, int] = {}
        n = pos.n
        hands, prices, owners, coins = pos.hands, pos.prices, pos.owners, pos.coins
        forced_card = pos.forced if pos.lopaka >= 0 else None
        moves, order, settled_fate, wins_nothing = self._moves, self._order, pos._fate, pos._wins_nothing
        price_coins = pos._price_coins
        finish, unfinish = pos._close, pos._reopen
        me = self
        none: GainEntry = (FAILED, 1 << 30, -1, 0, ())
        in_play = 0  # the coins of the cards in play: the position's `live_coins` where `gain` asks, kept by `solve`

        def start(alpha: int, beta: int, lying: int) -> int:
            nonlocal in_play
            in_play = pos.live_coins
            return solve(alpha, beta, None, lying)

        def last_trick() -> int:
            """The gain of the last trick, where every card is forced (one in each hand), played out."""
            leader = pos.leader
            cards = [hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
            win, taken = judge_prices(cards, prices)
            winner = (leader + win) % n
            got = in_play if winner == seat else 0
            if taken is None:
                return FAILED if seat in owners else got
            if winner == seat:
                return FAILED
            if owners[taken] == seat and prices[taken] != START_PRICE:
                got += coins[prices[taken]]
            return FAILED if any(o == seat for i, o in enumerate(owners) if i != taken) else got

        def solve(alpha: int, beta: int, settled: int | None, lying: int) -> int:
            """`alpha` is at least FAILED and `beta` at least 0; `settled`: the trick's start as `_order` gives it
            (None: work it out); `lying`: the places of the cards lying in the trick, packed (below `LYING` bits)."""
            nonlocal table, older, in_play
            if beta <= 0:  # only whether he escapes
                return 0 if escaping(None, lying) else FAILED
            if gaining is not None and alpha == 0 and beta == 1:
                return 1 if gaining(None, lying) else 0
            me.nodes += 1
            live = pos.live
            if not live:
                return FAILED if seat in owners else 0
            trick = pos.trick
            low, high = FAILED, 1 << 30
            if settled is None:
                fate = settled_fate(seat)
                if fate is False:
                    return FAILED
                if not trick:
                    # A trick's start (where a search starts inside a trick, a card lying may win it for him).
                    mine = price_coins(seat) if seat in owners else 0
                    high = mine if wins_nothing(seat) else mine + in_play
                    if fate:
                        low = mine
                    if low >= beta or low == high:
                        return low
                    if high <= alpha:
                        return high
                    if live.bit_count() == n:
                        return last_trick()
                settled = order(seat)
            key = settled | lying
            lo, hi, best_place, seen, tried = table.get(key) or older.get(key, none)
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo < low:
                lo = low
            if hi > high:
                hi = high
            lying_count = len(trick)
            mover = (pos.leader + lying_count) % n
            chooser = mover == seat
            depth = live.bit_count() * 8 + lying_count
            if seen == live:
                cards = tried  # this very position before: its moves
            else:
                forced = forced_card() if forced_card is not None else None
                cards = moves(mover, chooser) if forced is None else (forced,)
            tried = cards
            if len(cards) > 1:
                if chooser:
                    cards = tuple(sorted(cards, key=count, reverse=True))
                else:
                    killer = refuted.get(depth)
                    if killer is not None and killer != cards[0] and killer in cards:
                        cards = (killer, *(c for c in cards if c != killer))
                if best_place >= 0:
                    for c in cards:
                        if (live & ((1 << c) - 1)).bit_count() == best_place:
                            if c != cards[0]:
                                cards = (c, *(d for d in cards if d != c))
                            break
            a, b = alpha, beta
            best = FAILED - 1 if chooser else 1 << 30
            move = -1
            for c in cards:
                if lying_count < n - 1:
                    # The trick goes on: the play and its undo inline.
                    hands[mover] ^= 1 << c
                    trick.append(c)
                    v = solve(a, b, settled, (lying << 8) | ((live & ((1 << c) - 1)).bit_count() + 1))
                    trick.pop()
                    hands[mover] |= 1 << c
                else:
                    done = finish(c)
                    taken = done[2]
                    total = 0
                    for d in done[1]:
                        total += coins[d]
                    in_play -= total
                    got = 0
                    if pos.leader == seat:
                        got = total - coins[prices[taken]] if taken is not None else total
                    if taken is not None and done[4] == seat and done[3] != START_PRICE:
                        got += coins[done[3]]
                    # His gain from here is `got` more than from the trick's end, unless he ends with a bottle: the
                    # window as the next trick sees it (a value of FAILED stays FAILED).
                    v = solve(a - got if a > got else FAILED, b - got if b > got else 0, None, 0)
                    if v != FAILED:
                        v += got
                    unfinish(done)
                    in_play += total
                if chooser:
                    if v > best:
                        best, move = v, c
                        if v > a:
                            a = v
                            if v >= b or v == high:
                                break
                elif v < best:
                    best, move = v, c
                    if v < b:
                        b = v
                        if v <= a or v == low:
                            break
            if chooser:
                left = live.bit_count() - lying_count
                hist[move] += left * left + 1
            elif best <= alpha:
                refuted[depth] = move
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            table[key] = (lo, hi, (live & ((1 << move) - 1)).bit_count(), live, tried)
            if len(table) > cap:
                older, table = table, {}
            return best

        return start
