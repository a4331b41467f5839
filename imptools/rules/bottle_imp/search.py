"""The Bottle Imp for a game-tree search: a fast position (a record's hand as one: `imptools.rules.bottle_imp.start`).

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

In the team variants the same holds for a side (`SearchBottle.team`): its result
is its won coins plus what it wins from here, or the penalty (once for a pair, a
solo player's own result counting twice, `mult`), and everything asked about the
player is asked about his side. In the two-pack variants each seat keeps its two
packs as masks of their cards (`packs`); the legal cards come from the pack or
packs the rules allow (`legal_of`), and a card's holder is its pack.

`Escape` and `Gains` (`imptools.rules.bottle_imp.escape`) answer the windows a whole hand asks most (whether a player
can end without a bottle; how many coins he can gain as well) with searches of
their own, keyed by the order of the cards in play (`SearchBottle.answer`).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from imptools.rules.base import bits
from imptools.rules.bottle_imp import escape
from imptools.rules.bottle_imp.bottles import Bottle, automaton_choice, judge_prices
from imptools.rules.bottle_imp.cards import START_PRICE, spell
from imptools.rules.bottle_imp.escape import Escape, Gains
from imptools.rules.bottle_imp.order import nearest_price
from imptools.rules.bottle_imp.setup import Setup

if TYPE_CHECKING:
    from imptools.rules.bottle_imp.cescape import Lines

try:  # `Escape` and `Gains` written in C (cescape.c: hatch_build.py `NATIVE`)
    from imptools.rules.bottle_imp.cescape import Lines as _Native

    NATIVE_LINES: type[Lines] | None = _Native
    """`cescape.Lines` where it was built (a port of `Escape` and `Gains` that visits the same positions), else None."""
except ImportError:  # an editable or pure install: the Python classes it ports
    NATIVE_LINES = None

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

    def __init__(
        self,
        setup: Setup,
        order: list[str],
        hands: dict[str, set[int]],
        penalty: int,
        packs: dict[str, list[set[int]]] | None = None,
        opened: dict[str, int] | None = None,
        teams: list[tuple[str, ...]] | None = None,
    ) -> None:
        self.setup = setup
        self.order = order
        self.seat = {p: i for i, p in enumerate(order)}
        self.n = n = len(order)
        self.per_trick = setup.per_trick
        self.penalty = penalty
        self.hands = [sum(1 << c for c in hands[p]) for p in order]
        self.dealt = list(self.hands)
        """Each seat's cards where the position starts: who holds a card never changes, wherever a search is."""
        self.packs: list[list[int]] = []
        """In the two-pack variants, each seat's two packs as masks of the cards dealt to them (empty: one pack)."""
        self.first_pack = [0] * n
        """Where each seat plays its open pack's card first and its other pack's second (`open_pack`): the pack
        played first."""
        self.open_pack = setup.rules.open_pack
        if packs is not None:
            self.packs = [[sum(1 << c for c in packs[p][k]) for k in (0, 1)] for p in order]
            self.first_pack = [(opened or {}).get(p, 0) for p in order]
        self.team = [1 << i for i in range(n)]
        """Each seat's side as a mask of seats: its partner's and its own (itself alone where each plays alone)."""
        self.mult = [1] * n
        """What a seat's own result counts for its side: 2 for a solo player of the team variants, else 1."""
        self.teams = teams is not None
        for members in teams or ():
            mask = sum(1 << self.seat[p] for p in members)
            for p in members:
                self.team[self.seat[p]] = mask
                self.mult[self.seat[p]] = 2 if len(members) == 1 else 1
        top = max(setup.cards) + 1
        self.coins = [0] * top
        self.suit = [0] * top
        for c, (col, v) in setup.cards.items():
            self.coins[c] = v
            self.suit[c] = sum(1 << d for d, (cc, _) in setup.cards.items() if cc == col)
        self.colour = {c: col for c, (col, _) in setup.cards.items()}
        self.holder = [0] * top
        """Who holds each card, as a seat (two packs: twice the seat, plus the pack): cards of two holders never
        share a run."""
        for seat, held in enumerate(self.dealt):
            for c in bits(held):
                self.holder[c] = seat
        for seat, two in enumerate(self.packs):
            for k, mask in enumerate(two):
                for c in bits(mask):
                    self.holder[c] = 2 * seat + k
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
        self._led_at = self._mine_at + 8
        self.code = self.live + self._price_code()
        self._held = (1 << WIDTH) - 1
        """The part of `code` that holds the cards in hand."""
        self._to_trick = self._held
        """Shifted by a card's bit, what a play adds to `code`: the card's bit in the trick less its bit in hand."""
        self._groups: dict[tuple[int, int, int], tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]] = {}
        self._escape: Escape | None = None
        self._gains: Gains | None = None
        self._native: Lines | None = None
        self._native_asked = False

    def _price_code(self) -> int:
        return sum(p << (self._price_at + 8 * i) for i, p in enumerate(self.prices))

    # ----------------------------------------------------------------------- Position

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % self.n]

    def _legal_mask(self) -> int:
        return self.legal_of((self.leader + len(self.trick)) % self.n)

    def legal_of(self, seat: int) -> int:
        """The legal cards of `seat`, to move now, as a mask: the led colour if he has it; with two packs, judged
        in each pack he may play from (Bright House: the open pack's card first, then the other's)."""
        held = self.hands[seat]
        trick = self.trick
        if not self.packs:
            if trick:
                same = held & self.suit[trick[0]]
                if same:
                    return same
            return held
        two = self.packs[seat]
        if self.open_pack:
            k = self.first_pack[seat] if len(trick) < 2 else 1 - self.first_pack[seat]
            pools = [held & two[k]]
        else:
            pools = [held & two[0], held & two[1]]
        out = 0
        for pool in pools:
            if trick:
                same = pool & self.suit[trick[0]]
                out |= same if same else pool
            else:
                out |= pool
        return out

    def legal(self) -> list[int]:
        return bits(self._legal_mask())

    def legal_from(self, cards: list[int]) -> list[int]:
        """The cards the player to move could play if he held `cards` (what a past play proves he did not hold). With
        two packs, `cards` are one pack's, the one the card played came from: each pack is judged alone against the
        led colour (`legal_of`), and the pack a card came from is the one he could play from there."""
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
        if len(trick) < self.per_trick:
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
        """The player, with his partner where the variant scores teams (`team`)."""
        tm = self.team[self.seat[player]]
        return frozenset(p for i, p in enumerate(self.order) if tm >> i & 1)

    def holds(self, seat: int) -> int:
        """How many bottles `seat`'s side holds."""
        tm = self.team[seat]
        k = 0
        for o in self.owners:
            if o >= 0 and tm >> o & 1:
                k += 1
        return k

    def side_won(self, seat: int) -> int:
        """The coins `seat`'s side has won."""
        tm = self.team[seat]
        if tm == 1 << seat:
            return self.won[seat]
        total = 0
        for i, w in enumerate(self.won):
            if tm >> i & 1:
                total += w
        return total

    def result(self, player: str) -> int:
        """The player's hand score: his won coins, or minus the imp's trick per bottle he holds; in the team
        variants his side's, as the rules score it (a pair's won coins, or once minus the imp's trick if it holds
        the bottle; a solo player's own result twice)."""
        seat = self.seat[player]
        held = self.holds(seat)
        mult = self.mult[seat]
        return -self.penalty * held * mult if held else mult * self.side_won(seat)

    def key(self, player: str) -> tuple[object, int]:
        """The position's code (with the bottles `player`'s side holds), and his side's won coins as the banked
        part (as his result counts them).

        His result from here is those coins plus what his side wins from here, or a
        penalty (see `penalty_unit`); both depend on the code alone. With a
        penalty of 0 coins the two meet, so there the won coins go into the key.
        """
        seat = self.seat[player]
        tm = self.team[seat]
        owners = self.owners
        code = self.code
        mine = 0
        for i, o in enumerate(owners):
            if o >= 0 and tm >> o & 1:
                mine |= 1 << i
        if mine:
            code += mine << self._mine_at
        elif len(owners) == 1:
            # Only comparisons with the cards still in play matter of a price the side does not hold.
            price = self.prices[0]
            code += ((self.live & ((1 << price) - 1)).bit_length() - price) << self._price_at
        if self.packs and self.trick:
            # Two packs: the cards lying do not tell which was led, and the led colour binds the cards to come.
            code += (self.trick[0] + 1) << self._led_at
        won = self.mult[seat] * self.side_won(seat)
        if not self.penalty and (mine or not self._clear(seat)):
            return (code, won), 0
        return code, won

    def answer(self, player: str, alpha: int, beta: int) -> int | None:
        """A window above `player`'s won coins asks how many more his side can gain and end without a bottle:
        answered by `Gains` (the won coins plus the gain, or the penalty if the side cannot escape). A window that
        only asks whether it ends without a bottle is answered by `Escape` (the won coins if it can, the penalty if
        not); with two bottles, one between both bottles' penalty and one's, whether it ends with at most one, by
        `Escape` too (one penalty if it can, both if not). None for any other window. (A solo player of the team
        variants counts twice: the window is halved.)"""
        pen = self.penalty
        if not pen:
            return None
        seat = self.seat[player]
        mult = self.mult[seat]
        won = mult * self.side_won(seat)
        lost = pen * mult
        if not self._native_asked:
            self._native, self._native_asked = native_lines(self), True
        lines = self._native
        if alpha >= won:
            low, high = (alpha - won) // mult, -((won - beta) // mult)
            if lines is not None:
                gain = lines.gain(self.hands, self.trick, self.leader, self.prices, self.owners, seat, low, high)
            else:
                if self._gains is None:
                    self._gains = Gains(self, self._escaping())
                gain = self._gains.gain(seat, low, high)
            return won + mult * gain if gain >= 0 else -lost
        if len(self.owners) == 2 and -2 * lost <= alpha and beta <= -lost:
            # Below the penalty only both bottles lie: can the side end with at most one?
            return -lost if self._escapes(seat, most=1) else -2 * lost
        if alpha < -lost or beta > won:
            return None
        return won if self._escapes(seat) else -lost

    def _escapes(self, seat: int, most: int = 0) -> bool:
        """`Escape.escapes(seat, most=most)`, in C where `native_lines` built it (`answer` asks for it first)."""
        lines = self._native
        if lines is not None:
            return lines.escapes(self.hands, self.trick, self.leader, self.prices, self.owners, seat, most=most)
        return self._escaping().escapes(seat, most=most)

    def _escaping(self) -> Escape:
        if self._escape is None:
            self._escape = Escape(self)
        return self._escape

    @property
    def answer_nodes(self) -> int:
        """The positions `answer` has visited."""
        native = self._native.nodes if self._native is not None else 0
        return native + sum(s.nodes for s in (self._escape, self._gains) if s is not None)

    def penalty_unit(self) -> int:
        """The imp's trick: a player who ends holding k bottles scores -k times it, whatever he has won (in the
        team variants, a pair holding the bottle once, a solo player twice)."""
        return self.penalty

    def bounds(self, player: str) -> tuple[int, int]:
        """Bounds on the value for `player`: what his side has won, down to the bottles' penalty, up to every coin
        still in play and the price cards of its bottles; where `_fate` settles it, exactly the penalty (with two
        bottles, where it surely ends with one, down to both; else down to as many as it holds and has cards below
        the higher price to take), or at least what it has won and those price cards;
        where it can win no more trick (`_wins_nothing`), up to what it has won and those price cards (all times
        `mult`).
        (These two are asked at a trick's start only: inside a trick the cards lying never settled what its start
        left open, and the bounds of the start still hold there.)"""
        seat = self.seat[player]
        mult = self.mult[seat]
        won = self.side_won(seat)
        mine = self._price_coins(seat) if self.holds(seat) else 0
        hi = won + self.live_coins + mine
        fate = None if self.trick else self._fate(seat)
        # a side ends with no more bottles than it holds and can take: a bottle is taken only by the trick's highest
        # card below the higher price, so each of its cards below it takes one at most
        below = (1 << max(self.prices)) - 1
        takes = ((self._side_hands(seat) | self._side_lying(seat)) & below).bit_count()
        most = min(len(self.owners), self.holds(seat) + takes)
        if fate is False:  # a bottle at the end, with two bottles perhaps both
            return -self.penalty * mult * max(most, 1), -self.penalty * mult
        if not self.trick and self._wins_nothing(seat):
            hi = won + mine
        if fate is None:
            return min(mult * won, -self.penalty * mult * most), mult * hi
        return mult * (won + mine), mult * hi

    def _price_coins(self, seat: int) -> int:
        """The coins of the price cards of the bottles `seat`'s side holds: a bottle taken from it gives it its
        card."""
        tm = self.team[seat]
        mine = 0
        for p, o in zip(self.prices, self.owners):
            if o >= 0 and tm >> o & 1 and p != START_PRICE:
                mine += self.coins[p]
        return mine

    def _side_hands(self, seat: int) -> int:
        """The cards in the hands of `seat`'s side."""
        tm = self.team[seat]
        if tm == 1 << seat:
            return self.hands[seat]
        held = 0
        for i, h in enumerate(self.hands):
            if tm >> i & 1:
                held |= h
        return held

    def _side_lying(self, seat: int) -> int:
        """The cards `seat`'s side has laid in the trick in progress."""
        tm = self.team[seat]
        lying = 0
        leader, n = self.leader, self.n
        for j, c in enumerate(self.trick):
            if tm >> ((leader + j) % n) & 1:
                lying |= 1 << c
        return lying

    def _wins_nothing(self, seat: int) -> bool:
        """At a trick's start, whether `seat`'s side can win no more trick: it has no card below the (higher)
        price (any card below it played wins its trick, so a trick it wins holds only cards lower than its own),
        and a player of another side has no card below its highest."""
        hands = self.hands
        held = self._side_hands(seat)
        if not held:
            return True
        if held & ((1 << max(self.prices)) - 1):
            return False
        under = (1 << (held.bit_length() - 1)) - 1
        tm = self.team[seat]
        return any(not h & under for o, h in enumerate(hands) if not tm >> o & 1)

    def _sure_trick(self, seat: int) -> int:
        """At a trick's start, the coins of a trick `seat`'s side surely wins now (0 where none is found; one pack,
        no automaton): its leader holds a card above the (higher) price and the highest of its colour in play, every
        player of another side can answer it only with cards below it and none below the price, and each partner
        with a card not below the price. The trick is then the side's, whole, and no bottle moves; it holds at least
        that card's coins and the fewest each other player's answers have."""
        tm, leader = self.team[seat], self.leader
        if self.packs or self.lopaka >= 0 or not tm >> leader & 1:
            return 0
        hands, live, suit, coins = self.hands, self.live, self.suit, self.coins
        low_cards = (1 << max(self.prices)) - 1
        best = 0
        for c in bits(hands[leader] & ~low_cards):
            if live & suit[c] & ~((2 << c) - 1):  # a higher card of its colour in play
                continue
            got = coins[c]
            for o, held in enumerate(hands):
                if o == leader:
                    continue
                legal = held & suit[c] or held
                if tm >> o & 1:
                    legal &= ~low_cards
                    if not legal:
                        break
                elif legal & (low_cards | ~((1 << c) - 1)):
                    break
                got += min((coins[d] for d in bits(legal)), default=0)
            else:
                best = max(best, got)
        return best

    def opposed(self) -> list[tuple[int, ...]]:
        """`groups` in the order the players against P try them: the cards nearest the (higher) price first
        (`nearest_price`)."""
        return list(self._both()[1])

    def checked(self) -> list[tuple[int, ...]]:
        """`groups` lowest first, the order in which `Search.choices` checks which of them keep P's value: the order
        in which the escape search (`Escape`) tries the cards of the side it asks about, so that the value's own
        proof already holds the first check and each later check starts from the one before (six players' second
        bottle: a fifth fewer positions on its slowest hand, docs/PERFORMANCE.md)."""
        return list(reversed(self._both()[0]))

    def cards_left(self) -> int:
        """The cards still to be played."""
        return self.live.bit_count() - len(self.trick)

    def _clear(self, seat: int) -> bool:
        """Whether `seat`'s side has no card below the (higher) price, in hand or lying in the trick in progress:
        if it owns no bottle it can never end with one (prices only fall)."""
        below = (1 << max(self.prices)) - 1
        return not (self._side_hands(seat) | self._side_lying(seat)) & below

    def _fate(self, seat: int) -> bool | None:
        """Whether `seat`'s side surely ends without a bottle (True) or surely with one (False), whatever is
        played; None when that takes a search. Without a bottle and no card below the (higher) price it never
        takes one. With one bottle, every card in hand being played before the end settles the rest from who has
        cards below its price (in hand or lying in the trick): if only the side has, it keeps it or takes it and
        keeps it; if it holds it and has none while another has, that card takes it from it for good. With two
        bottles the same holds of the cards below the higher price, the first card below it taking the bottle of
        that price (the first of the two where they are equal): a side that holds a bottle where no other has such a
        card keeps it, and so does one that holds the bottle of the lower price where no other has a card below that
        price (a trick takes that bottle only with a card below its price); one that holds none and has such a card
        where no other has takes one for good; one that holds only the bottle of the higher price and has none while
        another has loses it for good."""
        prices = self.prices
        price = max(prices)
        below = (1 << price) - 1
        his = self._side_hands(seat) | self._side_lying(seat)
        low, others_low = his & below, self.live & ~his & below
        held = self.holds(seat)
        if held:
            if not others_low:
                return False
            if len(prices) == 2:
                lower = self._lower_bottle()
                owner = self.owners[lower]
                if owner >= 0 and self.team[seat] >> owner & 1 and not others_low & ((1 << prices[lower]) - 1):
                    return False
            if low:
                return None
            if len(prices) == 1:
                return True
            top = self.owners[prices.index(price)]
            return True if held == 1 and top >= 0 and self.team[seat] >> top & 1 else None
        return True if not low else False if not others_low else None

    def _lower_bottle(self) -> int:
        """With two bottles, the one a trick does not take now: the lower price, the second of a tie."""
        prices = self.prices
        return 0 if prices[1] > prices[0] else 1

    def _fate_one(self, seat: int) -> bool | None:
        """With two bottles, whether `seat`'s side surely ends with at most one (True) or surely with both (False);
        None when that takes a search. It ends with no more than it holds and has cards below the higher price to
        take (each takes one at most, `bounds`), with at most one where it does not hold the bottle of the lower
        price and has at most one card below that price (a trick takes that bottle only once the other's price has
        fallen below it, so at the end both prices are cards below it, each the side's own that took its bottle
        last), and with at most one where another side surely ends with one (`_fate`); it keeps both where it holds
        both and no other has such a card, and ends with both where both have owners (a bottle, once taken, always
        has one) and every other side surely ends without."""
        prices, owners = self.prices, self.owners
        below = (1 << max(prices)) - 1
        his = self._side_hands(seat) | self._side_lying(seat)
        held = self.holds(seat)
        if held + (his & below).bit_count() <= 1:
            return True
        if held == len(owners) and not self.live & ~his & below:
            return False
        tm = self.team[seat]
        lower = self._lower_bottle()
        owner = owners[lower]
        if not (owner >= 0 and tm >> owner & 1) and (his & ((1 << prices[lower]) - 1)).bit_count() <= 1:
            return True
        without = True
        for other in range(self.n):
            if not tm >> other & 1:
                fate = self._fate(other)
                if fate is False:
                    return True
                without = without and fate is True
        if without and min(owners) >= 0:
            return False
        return None

    def groups(self) -> list[tuple[int, ...]]:
        """Legal cards in runs: adjacent in rank with nothing left in play between them, the same colour, coins and
        pack, and above the (higher) price, so that neither can ever take a bottle or be compared with a price between
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

    def _runs(
        self, legal_mask: int, price: int, by_coins: bool = True, beaten: int = 0, lower: int = -1
    ) -> tuple[tuple[int, ...], ...]:
        """The runs of `groups` (with `by_coins` False, cards of different coins may share one; cards below `beaten`
        join runs too: a card lying in the trick below the price that they cannot beat, unless the other bottle's
        price `lower` lies between them)."""
        legal = bits(legal_mask)
        if len(legal) < 2:
            return (tuple(legal),)
        live = self.live
        out: list[list[int]] = [[legal[0]]]
        suit, coins, holder = self.suit, self.coins, self.holder
        for a, b in pairwise(legal):
            between = live & ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
            same = suit[a] == suit[b] and holder[a] == holder[b] and (not by_coins or coins[a] == coins[b])
            if (a > price or (b < beaten and not a < lower < b)) and not between and same:
                out[-1].append(b)
            else:
                out.append([b])
        # High cards first: they keep the bottle away from the player and often decide the trick.
        return tuple(tuple(g) for g in reversed(out))


def native_lines(pos: SearchBottle) -> Lines | None:
    """`Escape` and `Gains` in C for `pos`'s deal (`cescape.Lines`, the same positions and answers), where the module
    was built and the table is one it ports: no automaton (Lopaka's card depends on the cards themselves), partition
    entries on (`escape.PARTITION`), one or two bottles, one pack or two (each pack a holder, as `holder` says, and
    with an open pack the pack each seat plays first); else None (the Python classes serve)."""
    if NATIVE_LINES is None or pos.lopaka >= 0 or not escape.PARTITION:
        return None
    dealt = 0
    for held in pos.dealt:
        dealt |= held
    per_card = 2 if pos.packs else 1  # a card from each pack a trick
    if pos.per_trick != per_card * pos.n or not 1 <= len(pos.prices) <= 2 or dealt.bit_count() > 63:
        return None
    try:
        return NATIVE_LINES(*native_args(pos, escape.ESCAPE_CAP, escape.GAINS_CAP))
    except ValueError:  # a deal the C core does not hold (more than 15 cards of one holder and colour)
        return None


NativeArgs = tuple[int, int, int, list[int], list[int], list[int], list[int], list[int], int, int, int, list[int]]
"""`cescape.Lines`' arguments, in its order."""


def native_args(pos: SearchBottle, escape_cap: int, gains_cap: int) -> NativeArgs:
    """`cescape.Lines`' arguments for `pos`'s deal with these table caps: its static data, each colour as its index
    among the deal's colours, and the packs (0 one pack; 1 two; 2 two with an open pack played first)."""
    colours = sorted(set(pos.colour.values()))
    colour = [colours.index(pos.colour[c]) if c in pos.colour else 0 for c in range(len(pos.coins))]
    packs = (2 if pos.open_pack else 1) if pos.packs else 0
    return (pos.n, pos.per_trick, len(pos.prices), pos.coins, colour, pos.holder, pos.dealt, pos.team, escape_cap,
            gains_cap, packs, pos.first_pack)  # fmt: skip
