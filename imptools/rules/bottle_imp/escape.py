"""The Bottle Imp's own searches of the windows a hand asks most: `Escape` (no bottle at the end) and `Gains`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from imptools.rules.base import bits
from imptools.rules.bottle_imp.bottles import judge_prices
from imptools.rules.bottle_imp.cards import START_PRICE
from imptools.rules.bottle_imp.order import KILLER_SLOTS, killer_first, killer_hash, nearest_price

if TYPE_CHECKING:
    from imptools.rules.bottle_imp.search import SearchBottle  # a type only: the search builds these


NO_BOUND = 0xFFFF
"""A `Gains` table entry is one integer: its lower bound above `FAILED` (bits 32 up), its upper bound above `FAILED`
(bits 16-31, `NO_BOUND` for none) and the best card's place among the cards in play plus one (bits 0-15)."""

ESCAPE_CAP = 1_000_000
"""Entries in one of `Escape`'s tables before it becomes the older generation (still read) and a new one starts;
the one before it is then dropped (as `imptools.search.TABLE_CAP`)."""

GAINS_CAP = 6_000_000
"""The same for `Gains`' tables, whose entries are one integer each (`NO_BOUND`): six times `ESCAPE_CAP`. A coin
question's null windows one coin apart search the same positions again, and a probe of a slow hand (five players'
teams) stores more than two generations of 2,000,000 held: each one coin lower then proved nearly all again
(docs/PERFORMANCE.md, "`Gains`' generations")."""

PARTITION = True
"""Whether `Escape` keys its entries by the cards that decided them (`Escape._partition_solver`)."""

NO_CARD = 127
"""Above every card: no card above the price decided an answer."""


LYING = 8 * 5
"""Bits for the places of the cards lying in a trick (8 each; at most five before the last of six players)."""

FAILED = -1
"""`Gains`' value of a line on which P ends with a bottle: below every gain, which is never negative."""


def kept_after(owners: list[int], team: int, taken: int | None, winner: int) -> int:
    """How many bottles the side `team` (a mask of seats) holds after a trick that `winner` won and that took the
    bottle `taken` (None: none): those of `owners` it held but the one taken, and that one if it won the trick."""
    held = 1 if taken is not None and team >> winner & 1 else 0
    for i, o in enumerate(owners):
        if i != taken and o >= 0 and team >> o & 1:
            held += 1
    return held


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
        self.shared = 0
        """Answers read from a partition entry with cards in its band (some cards above the price not keyed)."""
        colours = sorted(set(pos.colour.values()))
        self._width = 9 if self.by_coins else 6
        self._colour = [colours.index(pos.colour[c]) if c in pos.colour else 0 for c in range(len(pos.coins))]
        """Each card's colour as its index among the deal's colours (as `cescape.Lines` is given them)."""
        digit = [0] * len(pos.coins)
        for held in pos.dealt:  # not `hands`: this may be built deep inside a search
            for c in bits(held):
                digit[c] = (pos.holder[c] << 3) | colours.index(pos.colour[c])
                if self.by_coins:
                    digit[c] = (digit[c] << 3) | pos.coins[c]
        # The order of a byte's worth of cards, for each byte of the card mask: (their digits packed, how many).
        self._chunks = [self._pack(digit, base) for base in range(0, len(pos.coins), 8)]
        self._memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _pack(self, digit: list[int], base: int) -> list[tuple[int, int]]:
        """For each byte's worth of cards from card `base`: their digits packed, low card first, and how many; each
        byte's from the byte without its highest card (a position is built for every world a play is valued in, so
        this is worth doing in 256 steps rather than 256 times 8)."""
        width = self._width
        table = [(0, 0)] * 256
        for byte in range(1, 256):
            high = byte.bit_length() - 1
            packed, count = table[byte ^ (1 << high)]
            if base + high < len(digit):
                table[byte] = ((packed << width) | digit[base + high], count + 1)
            else:
                table[byte] = (packed, count)
        return table

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
        for `Gains` the same coins, above the prices or below a card lying in the trick under the higher price, and
        with two bottles on one side of the lower price), in the order he tries them: the player asked about
        (`chooser`) for `Escape` his lowest card first, the least likely to take a bottle, for `Gains` his highest
        first; the others by `nearest_price`."""
        pos = self.pos
        trick, prices = pos.trick, pos.prices
        legal = pos.legal_of(mover)
        price = max(prices)
        lower = min(prices) if len(prices) > 1 else -1
        beaten = 0
        for c in trick:  # the highest card lying under the (higher) price: the cards below it can share a run
            if beaten < c < price:
                beaten = c
        above = legal >> (price + 1)
        runs = above & (above - 1) or legal & ((1 << beaten) - 1)  # two cards that could share a run
        if runs:
            # Runs depend only on the cards in play from the lowest legal card to the highest.
            span = pos.live & ((1 << legal.bit_length()) - (legal & -legal))
            memo: tuple[int, ...] = (legal, span, price, beaten, lower, chooser)
        else:
            memo = (legal, price, chooser)
        found = self._memo.get(memo)
        if found is None:
            if runs:
                cards = [g[0] for g in pos._runs(legal, price, by_coins=self.by_coins, beaten=beaten, lower=lower)]
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
        self.partition = PARTITION and pos.lopaka < 0  # the automaton's card depends on the cards themselves
        """Whether entries are keyed by the cards that decided them (`_partition_solver`)."""
        colours = sorted(set(pos.colour.values()))
        digit = [0] * len(pos.coins)
        for held in pos.dealt:
            for c in bits(held):
                digit[c] = (pos.holder[c] << 3) | colours.index(pos.colour[c])
        classes = sorted({digit[c] for held in pos.dealt for c in bits(held)})
        self._weight = [0] * len(pos.coins)
        """Each card's class (its holder and colour) as a count in a packed integer (`_class_bits` each): which cards
        of a class lie in the band of a partition entry does not matter, only how many."""
        self._classes = [0] * len(classes)
        """The cards of each class, as masks."""
        for held in pos.dealt:
            for c in bits(held):
                self._classes[classes.index(digit[c])] |= 1 << c
        self._class_bits = max((m.bit_count() for m in self._classes), default=0).bit_length()
        """Bits for the count of one class's cards in play."""
        for i, mask in enumerate(self._classes):
            for c in bits(mask):
                self._weight[c] = 1 << (self._class_bits * i)
        self._solvers: dict[tuple[int, bool, int], Callable[[int | None, int, int], int]] = {}
        self.counts_tricks = all(pos.coins[c] > 0 for held in pos.dealt for c in bits(held))
        """Every card of the hand is worth a coin: a player gains coins exactly when he wins a trick or a bottle is
        taken from him."""

    def counts(self, live: int) -> int:
        """How many cards of each class are in `live`, packed as `_weight` packs them."""
        out = 0
        at = 0
        bits_each = self._class_bits
        for mask in self._classes:
            out |= (live & mask).bit_count() << at
            at += bits_each
        return out

    def _order(self, seat: int) -> int:
        """The position at the start of a trick as the question sees it, packed in one integer (its low `LYING`
        bits left for the cards that will lie in the trick): the holders and colours of the cards in play from low
        to high, the leader, and for each bottle (`_bottles`) its price's place among those cards and whether
        `seat` holds it."""
        live = self.pos.live
        tm = self.pos.team[seat]
        code = (self._digits(live) << 4) | self.pos.leader
        for p, o in self._bottles(live):
            code = (code << 9) | ((live & ((1 << p) - 1)).bit_count() << 1) | (o >= 0 and tm >> o & 1)
        return code << LYING

    def escapes(self, seat: int, gaining: bool = False, most: int = 0) -> bool:
        """Whether the player at `seat` can make sure he holds no bottle when the hand ends (and, `gaining`, that
        he gains a coin before it ends: only where `counts_tricks`); with `most` 1 (two bottles, not `gaining`),
        that he holds at most one of them: the same search, its lines ending where `SearchBottle._fate_one`
        settles them."""
        if most and (gaining or len(self.pos.prices) != 2):
            raise ValueError("most: 0, or 1 with two bottles and not gaining")
        return self._solver_for(seat, gaining, most)(None, self._lying(), -1) & 1 == 1

    def _solver_for(self, seat: int, gaining: bool, most: int = 0) -> Callable[[int | None, int, int], int]:
        """The search of `escapes(seat, gaining, most)`, built once; its table lives as long as this `Escape`. It
        returns 1 where he can, 0 where he cannot (with `partition`, and above that bit the least card that decided
        it)."""
        solve = self._solvers.get((seat, gaining, most))
        if solve is None:
            build = self._partition_solver if self.partition else self._solver
            solve = self._solvers[seat, gaining, most] = build(seat, gaining, most)
        return solve

    def _solver(self, seat: int, gaining: bool, most: int) -> Callable[[int | None, int, int], int]:
        pos = self.pos
        escaping = self._solver_for(seat, False) if gaining else None
        table: dict[int, bool] = {}
        older: dict[int, bool] = {}  # the generation before `table` (`ESCAPE_CAP`)
        cap = self.table_cap
        refuted: dict[int, int] = {}
        n = pos.n
        last = pos.per_trick - 1
        tm = pos.team[seat]
        hands, prices, owners = pos.hands, pos.prices, pos.owners
        # The last trick played out at once where each hand holds one card of it (one pack).
        played_out = pos.per_trick if pos.per_trick == n else -1
        forced_card = pos.forced if pos.lopaka >= 0 else None
        moves, order = self._moves, self._order
        settled_fate = pos._fate_one if most else pos._fate
        finish, unfinish = pos._close, pos._reopen
        me = self

        def last_trick() -> bool:
            """The answer in the last trick, where every card is forced (one in each hand), played out."""
            leader = pos.leader
            cards = [hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
            win, taken = judge_prices(cards, prices)
            winner = (leader + win) % n
            if most:
                return kept_after(owners, tm, taken, winner) <= most
            for i, o in enumerate(owners):
                if i != taken and o >= 0 and tm >> o & 1:
                    return False
            if taken is None:
                return not gaining or tm >> winner & 1 == 1
            if tm >> winner & 1:
                return False
            before = owners[taken]
            return not gaining or (before >= 0 and tm >> before & 1 == 1)

        def solve(settled: int | None, lying: int, counts: int) -> int:
            """`settled`: the trick's start as `_order` gives it (None: work it out); `lying`: the places of the
            cards lying in the trick, packed (below `LYING` bits); `counts` is not read."""
            return 1 if answer(settled, lying) else 0

        def answer(settled: int | None, lying: int) -> bool:
            nonlocal table, older
            me.nodes += 1
            live = pos.live
            if not live:
                return not gaining and pos.holds(seat) <= most
            trick = pos.trick
            # Only where a trick starts, or where the question is asked, is the table read and written: an answer
            # inside a trick is read again only when the answer at the trick's start is, and that one is kept.
            inner = settled is not None
            if settled is None:
                # A trick's start. (Inside a trick the cards lying never settle what its start left open.)
                fate = settled_fate(seat)
                if fate is not None and not (gaining and fate):
                    return fate
                if not trick and live.bit_count() == played_out:
                    return last_trick()
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
            chooser = tm >> mover & 1 == 1
            forced = forced_card() if forced_card is not None else None
            cards = moves(mover, chooser) if forced is None else (forced,)
            depth = live.bit_count() * 8 + lying_count
            if not chooser:
                cards = killer_first(cards, refuted.get(depth))  # recorded below
            result = not chooser
            if lying_count < last:
                # The trick goes on: the play and its undo inline.
                for c in cards:
                    hands[mover] ^= 1 << c
                    trick.append(c)
                    ok = answer(settled, (lying << 8) | ((live & ((1 << c) - 1)).bit_count() + 1))
                    trick.pop()
                    hands[mover] |= 1 << c
                    if ok == chooser:
                        result = chooser
                        break
            else:
                for c in cards:
                    done = finish(c)
                    if escaping is not None and (
                        tm >> pos.leader & 1 or (done[2] is not None and done[4] >= 0 and tm >> done[4] & 1)
                    ):
                        ok = escaping(None, 0, -1) == 1  # he has gained: now he only needs to end without a bottle
                    else:
                        ok = answer(None, 0)
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

    def _partition_solver(self, seat: int, gaining: bool, most: int) -> Callable[[int | None, int, int], int]:
        """`_solver` with each entry keyed by the cards that decided it (partition search, as bridge solvers keep
        the ranks that won tricks with an entry).

        Above the (higher) price a card matters only where it wins a trick, which it does only where no card below
        the price lies in it and it is the highest: every line proved below a position is proved alike wherever
        the cards above the price below the least such winner (the band) are dealt otherwise among the holders and
        colours, as many of each (a class) as here. So the search returns with its answer the least card above the
        price that won a trick in the lines it proved (`NO_CARD` if none), and an entry is keyed by the cards below
        the price (their order, holders and colours), the leader, the bottles, how many cards of each class are in
        play (`counts`: with the cards below the price keyed, how many of each lie above it), and the holders and
        colours of the `k` highest cards only, those from that least winner up (`k` in the key; a lookup tries
        each `k` stored with the rest of the key). Inside a trick a card lying above the price is kept among those
        `k`, and the lines proved from one card of a run go on from its lowest card, which lies in the band if any
        of the run does."""
        pos = self.pos
        escaping = self._solver_for(seat, False) if gaining else None
        table: dict[int, int] = {}
        older: dict[int, int] = {}  # the generation before `table` (`ESCAPE_CAP`)
        stored: dict[int, int] = {}  # the rest of a key: the `k` stored with it, as bits
        older_stored: dict[int, int] = {}
        cap = self.table_cap
        refuted: dict[int, int] = {}
        n = pos.n
        last = pos.per_trick - 1
        tm = pos.team[seat]
        hands, prices, owners = pos.hands, pos.prices, pos.owners
        played_out = pos.per_trick if pos.per_trick == n else -1
        moves, digits, bottles = self._moves, self._digits, self._bottles
        settled_fate = pos._fate_one if most else pos._fate
        weight, count_of = self._weight, self.counts
        width = self._width
        counted = self._class_bits * len(self._classes)
        finish, unfinish = pos._close, pos._reopen
        me = self
        nothing = NO_CARD << 1

        def last_trick() -> int:
            """The answer in the last trick, where every card is forced (one in each hand), played out."""
            leader = pos.leader
            cards = [hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
            win, taken = judge_prices(cards, prices)
            winner = (leader + win) % n
            if most:
                return nothing | (1 if kept_after(owners, tm, taken, winner) <= most else 0)
            for i, o in enumerate(owners):
                if i != taken and o >= 0 and tm >> o & 1:
                    return nothing
            if taken is None:
                if not gaining:
                    return nothing | 1
                return (cards[win] << 1) | (tm >> winner & 1)
            if tm >> winner & 1:
                return nothing
            before = owners[taken]
            return nothing | (1 if not gaining or (before >= 0 and tm >> before & 1) else 0)

        def solve(settled: int | None, lying: int, counts: int) -> int:
            """`settled`: None at a trick's start or where the question is asked (the table is read and written
            there), else 0; `lying`: the places of the cards lying in the trick, packed (below `LYING` bits);
            `counts`: the cards in play of each class (`Escape.counts`; -1: work them out). The answer in bit 0,
            the least card above the price that decided it above it."""
            nonlocal table, older, stored, older_stored
            me.nodes += 1
            live = pos.live
            if not live:
                return nothing | (0 if gaining or pos.holds(seat) > most else 1)
            trick = pos.trick
            inner = settled is not None
            rest = 0
            above = 0
            tops = 0
            price = 0
            if counts < 0:
                counts = count_of(live)
            if not inner:
                fate = settled_fate(seat)
                if fate is not None and not (gaining and fate):
                    return nothing | (1 if fate else 0)
                if not trick and live.bit_count() == played_out:
                    return last_trick()
                price = prices[0] if len(prices) == 1 else max(prices)
                above = live & ~((1 << price) - 1)
                m = above.bit_count()
                code = digits(live)
                tops = code & ((1 << (width * m)) - 1)
                code = ((code >> (width * m)) << 4) | pos.leader
                for p, o in bottles(live):
                    code = (code << 9) | ((live & ((1 << p) - 1)).bit_count() << 1) | (o >= 0 and tm >> o & 1)
                rest = (((code << counted) | counts) << LYING) | lying
                ks = stored.get(rest, 0) | older_stored.get(rest, 0)
                while ks:
                    low = ks & -ks
                    ks ^= low
                    k = low.bit_length() - 1
                    key = (((rest << (width * k)) | (tops & ((1 << (width * k)) - 1))) << 7) | k
                    found = table.get(key)
                    if found is None:
                        found = older.get(key)
                    if found is not None:
                        if k < m:
                            me.shared += 1
                        x = above
                        for _ in range(k - 1):
                            x ^= 1 << (x.bit_length() - 1)
                        return found | ((x.bit_length() - 1 if k else NO_CARD) << 1)
            lying_count = len(trick)
            mover = (pos.leader + lying_count) % n
            chooser = tm >> mover & 1 == 1
            cards = moves(mover, chooser)
            depth = live.bit_count() * 8 + lying_count
            if not chooser:
                cards = killer_first(cards, refuted.get(depth))  # recorded below
            result = not chooser
            least = NO_CARD
            for c in cards:
                if lying_count < last:
                    # The trick goes on: the play and its undo inline.
                    hands[mover] ^= 1 << c
                    trick.append(c)
                    r = solve(0, (lying << 8) | ((live & ((1 << c) - 1)).bit_count() + 1), counts)
                    trick.pop()
                    hands[mover] |= 1 << c
                else:
                    done = finish(c)
                    left = counts
                    for d in done[1]:
                        left -= weight[d]
                    if escaping is not None and (
                        tm >> pos.leader & 1 or (done[2] is not None and done[4] >= 0 and tm >> done[4] & 1)
                    ):
                        r = escaping(None, 0, left)  # he has gained: now he only needs to end without a bottle
                    else:
                        r = solve(None, 0, left)
                    if done[2] is None:
                        top = max(done[1])  # the trick's winner: the highest card, none lying below the price
                        if top << 1 < r:
                            r = (top << 1) | (r & 1)
                    unfinish(done)
                if (r & 1 == 1) == chooser:
                    result = chooser
                    least = r >> 1  # the lines of this card alone prove it
                    break
                if r >> 1 < least:
                    least = r >> 1
            if not chooser and not result:
                refuted[depth] = c  # the card that cut
            if inner:
                return (least << 1) | result
            if lying:
                for c in trick:  # keyed by their places: cards lying above the price are kept among the `k`
                    if price < c < least:
                        least = c
            k = above.bit_count() if least <= price else (above >> least).bit_count()
            table[(((rest << (width * k)) | (tops & ((1 << (width * k)) - 1))) << 7) | k] = 1 if result else 0
            stored[rest] = stored.get(rest, 0) | 1 << k
            if len(table) > cap:
                older, table = table, {}
                older_stored, stored = stored, {}
            return (least << 1) | result

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
    table per player (its best card kept as a place among the cards in play; entries at a trick's start and where the
    question is asked only), killer cards by the hand in its place of a trick (`killer_hash`: the card with which the
    same hand in the same place last held him under the window, or for his own side last lifted him to it), before a
    history count for his side's cards and `nearest_price` for the others', and bounds at a trick's start: every coin
    in play and his bottles' price cards above (only those where he can win no more trick,
    `SearchBottle._wins_nothing`), those price cards below where he surely loses his bottles (`SearchBottle._fate`),
    with the coins of a trick his side surely wins now where it leads (`SearchBottle._sure_trick`).
    """

    by_coins = True

    def __init__(self, pos: SearchBottle, escape: Escape, table_cap: int = GAINS_CAP) -> None:
        super().__init__(pos, table_cap)
        self.escape = escape
        self.killer_hits = 0
        """How often a killer card was found for the hand in its place (`KILLER_SLOTS`)."""
        self._solvers: dict[int, Callable[[int, int, int], int]] = {}

    def _order(self, seat: int) -> int:
        """The position at the start of a trick as the gain sees it, packed in one integer (its low `LYING` bits
        left for the cards that will lie in the trick): `Escape._order`, with each card's coins, and the coins of
        the price card of each bottle `seat` holds."""
        pos = self.pos
        live = pos.live
        coins = pos.coins
        tm = pos.team[seat]
        code = (self._digits(live) << 4) | pos.leader
        for p, o in self._bottles(live):
            place = (live & ((1 << p) - 1)).bit_count()
            code = (code << 10) | (place << 4) | ((coins[p] << 1 | 1) if o >= 0 and tm >> o & 1 else 0)
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
        table: dict[int, int] = {}
        older: dict[int, int] = {}  # the generation before `table` (`GAINS_CAP`)
        cap = self.table_cap
        hist: defaultdict[int, int] = defaultdict(int)
        count = hist.__getitem__
        killers = [0] * KILLER_SLOTS
        colour = self._colour
        n = pos.n
        last = pos.per_trick - 1
        tm = pos.team[seat]
        # The last trick played out at once where each hand holds one card of it (one pack).
        played_out = pos.per_trick if pos.per_trick == n else -1
        hands, prices, owners, coins = pos.hands, pos.prices, pos.owners, pos.coins
        forced_card = pos.forced if pos.lopaka >= 0 else None
        moves, order, settled_fate, wins_nothing = self._moves, self._order, pos._fate, pos._wins_nothing
        price_coins, sure_trick = pos._price_coins, pos._sure_trick
        finish, unfinish = pos._close, pos._reopen
        me = self
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
            got = in_play if tm >> winner & 1 else 0
            if taken is None:
                return FAILED if pos.holds(seat) else got
            if tm >> winner & 1:
                return FAILED
            before = owners[taken]
            if before >= 0 and tm >> before & 1 and prices[taken] != START_PRICE:
                got += coins[prices[taken]]
            return FAILED if any(o >= 0 and tm >> o & 1 for i, o in enumerate(owners) if i != taken) else got

        def solve(alpha: int, beta: int, settled: int | None, lying: int) -> int:
            """`alpha` is at least FAILED and `beta` at least 0; `settled`: the trick's start as `_order` gives it
            (None: work it out); `lying`: the places of the cards lying in the trick, packed (below `LYING` bits)."""
            nonlocal table, older, in_play
            if beta <= 0:  # only whether he escapes
                return 0 if escaping(None, lying, -1) & 1 else FAILED
            if gaining is not None and alpha == 0 and beta == 1:
                return gaining(None, lying, -1) & 1
            me.nodes += 1
            live = pos.live
            if not live:
                return FAILED if pos.holds(seat) else 0
            trick = pos.trick
            low, high = FAILED, 1 << 30
            # The table is read and written only where a trick starts or the question is asked: an entry inside a
            # trick is found again almost never, and costs the table's memory and time (docs/PERFORMANCE.md).
            kept = settled is None
            if settled is None:
                fate = settled_fate(seat)
                if fate is False:
                    return FAILED
                if not trick:
                    # A trick's start (where a search starts inside a trick, a card lying may win it for him).
                    mine = price_coins(seat) if pos.holds(seat) else 0
                    high = mine if wins_nothing(seat) else mine + in_play
                    if fate:
                        low = mine + sure_trick(seat)
                    if low >= beta or low == high:
                        return low
                    if high <= alpha:
                        return high
                    if live.bit_count() == played_out:
                        return last_trick()
                settled = order(seat)
            key = settled | lying
            entry = (table.get(key) or older.get(key, 0)) if kept else 0
            if entry:
                lo = (entry >> 32) + FAILED
                hi = (entry >> 16) & NO_BOUND
                hi = 1 << 30 if hi == NO_BOUND else hi + FAILED
                best_place = (entry & NO_BOUND) - 1
            else:
                lo, hi, best_place = FAILED, 1 << 30, -1
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
            chooser = tm >> mover & 1 == 1
            slot = 0
            forced = forced_card() if forced_card is not None else None
            cards = moves(mover, chooser) if forced is None else (forced,)
            if len(cards) > 1:
                if chooser:
                    cards = tuple(sorted(cards, key=count, reverse=True))
                if trick:
                    win, taken_yet = judge_prices(trick, prices)
                    slot = killer_hash(hands[mover], colour[trick[0]], tm >> (pos.leader + win) % n & 1 == 1,
                                       taken_yet is not None)  # fmt: skip
                else:
                    slot = killer_hash(hands[mover], -1, False, False)
                killer = killers[slot & (KILLER_SLOTS - 1)]
                if killer and not (killer ^ slot) >> 7:
                    me.killer_hits += 1
                    cards = killer_first(cards, killer & 127)
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
                if lying_count < last:
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
                    if tm >> pos.leader & 1:
                        got = total - coins[prices[taken]] if taken is not None else total
                    if taken is not None and done[4] >= 0 and tm >> done[4] & 1 and done[3] != START_PRICE:
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
            if len(cards) > 1 and (best >= beta if chooser else best <= alpha):  # the card that cut off
                killers[slot & (KILLER_SLOTS - 1)] = slot & ~127 | move
            if not kept:
                return best
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            # One integer an entry (its bounds and best card's place, `NO_BOUND` for no upper bound), so that a table
            # of a given size holds about twice the entries a tuple each would.
            top = hi - FAILED if hi - FAILED < NO_BOUND else NO_BOUND
            table[key] = ((lo - FAILED) << 32) | (top << 16) | ((live & ((1 << move) - 1)).bit_count() + 1)
            if len(table) > cap:
                older, table = table, {}
            return best

        return start
