"""Botifarra's double-dummy solver for two players (`rector-vicar`, `piles-and-hand`): what a player wins from a
position, with every card visible, the piles' hidden cards too. docs/ANALYSIS.md says how it works.

The two-player count (card points, a point per two tricks, the leftover point to the poorer) is not a sum over
tricks, but it is a rising function of one that is: twice a player's card points plus his tricks (`doubled`), 144
in a whole hand. Twice the count is that sum rounded towards 72 (`count_of`), so the best play for the count is
the best play for the sum, and a window on the count is a window on the sum (`least_sum`): the solver searches the
sum, as `Solver` searches a side's points.

`cduel.c` ports `Duel` line by line to C, the solver a compiled install uses (`position.Duel`): a change to the
search or its table here is to be made there too (tests/test_native_duel.py compares the two position by position).
"""

from __future__ import annotations

from array import array

from imptools.rules.botifarra.masks import (
    POINTS_OF,
    SUIT_MASK,
    asks_points,
    beats,
    card_runs,
    coded,
    legal_coded,
)

DUEL_SLOTS = 1 << 25
"""The most slots of `Duel`'s table (32M: 12 bytes each, 384 MB at the most). A whole hand's first value without a
trump (botifarra) reaches some 7M trick starts; a table of two dict generations of 2M entries (about 95 bytes an
entry) lost most of them and searched them again (docs/PERFORMANCE.md)."""

FIRST_SLOTS = 1 << 16
"""The slots `Duel`'s table starts with: it doubles while more than a quarter are taken, up to `DUEL_SLOTS`, so that a
short search (an endgame, one world of many) does not pay for the whole table."""


def slot_of(key: int, mask: int) -> int:
    """The first slot of `key`'s pair in a table of `mask + 1` slots (`Duel.node` computes it inline)."""
    return ((key & 0xFFFFFF) * 0x9E3779B1 ^ (key >> 24) * 0x85EBCA77) >> 24 & mask


def count_of(total: int, tricks: int, seat_first: bool, own: int) -> int:
    """A player's two-player count from his `own` sum (twice his card points plus his tricks), where both
    players' sums come to `total` and their tricks to `tricks`: his card points and a point per two tricks, and
    the leftover point when both won an odd number and he has fewer points (`scoring.two_player_points`; on a tie,
    which only a position that does not start a whole hand can reach, the first seat takes it, as there).

    >>> count_of(144, 24, True, 71), count_of(144, 24, True, 73), count_of(144, 24, False, 72)
    (36, 36, 36)
    """
    if own % 2 == 0 or tricks % 2:
        return own // 2
    other = total - own
    poorer = own < other or (own == other and seat_first)
    return own // 2 + (1 if poorer else 0)


def least_sum(total: int, tricks: int, seat_first: bool, count: int) -> int:
    """The least sum (0 to `total`) whose count (`count_of`) is at least `count`, `total + 1` if none is.

    >>> least_sum(144, 24, True, 36), least_sum(144, 24, True, 37), least_sum(144, 24, True, 0)
    (71, 74, 0)
    """
    for own in range(total + 1):
        if count_of(total, tricks, seat_first, own) >= count:
            return own
    return total + 1


class Duel:
    """A player's sum (twice the card points and a point per trick) from a two-player position (`gain`).

    Fail-soft alpha-beta over both players' free cards (the cards in hand and the piles' top cards; a card played
    from a pile frees the one under it, `under`), with a table of trick starts keyed by the cards still in play and
    the leader: within one deal the cards left tell every pile's state, which cards lie face up and which under
    them. The two sums from a position add up to what is left, so one table serves both players (kept for the first
    seat); it is two flat arrays (`store`: 12 bytes a slot, where a dict of Python ints takes about 95 an entry),
    since the hardest first values (no trump) reach millions of trick starts. At each trick's start the search is
    bounded by what is left and by each player's trumps above all the other's (each wins a trick of its own), with
    the leader's masters while the other has no trump. Equivalent cards (same suit and points, nothing in play
    between, nothing under either) are tried once; the order is the table's card, then masters and low cards when
    leading, the dearest card that takes the trick or the cheapest that does not when following.
    """

    def __init__(
        self, rules: str, trump: int, under: list[int], slots: int = DUEL_SLOTS, first: int = FIRST_SLOTS
    ) -> None:
        """`rules` the play rule, `trump` the trump suit (-1 for botifarra), `under` the card under each card of
        a pile (0 for none, a mask); `slots` the most slots of the table and `first` those it starts with (powers
        of two, at least 2)."""
        self.cells = coded(rules)
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        self.under = under
        self.bare = 0 if asks_points(self.cells) else sum(1 << b for b in range(48) if not under[b])
        """The cards with no pile card under them (in hand, or at a pile's bottom): the only ones `settled` joins
        (none where the play rule asks for point cards: the two-player rule, `lliure`, asks only about ranks)."""
        self.most = slots
        size = min(first, slots)
        self.mask = size - 1
        self.keys = array("q", [-1]) * size
        """The table, open addressing in pairs of slots: each slot's key (the cards left and the leader, -1 for
        none) and its entry (`vals`: the lower and upper bound, the best card + 1, packed)."""
        self.vals = array("i", [0]) * size
        self.taken = 0
        self.nodes = 0
        # the search's state, set by `gain`
        self.hands: list[int] = [0, 0]
        self.free: list[int] = [0, 0]
        self.me = 0
        self.to_lead = 0
        self.live = 0
        self.live_points = 0

    def gain(
        self,
        hands: list[int],
        free: list[int],
        live: int,
        live_points: int,
        leader: int,
        trick: list[int],
        seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The sum `seat` wins from here: exact inside (alpha, beta), else a bound on the side that fails
        (fail-soft). The position: each seat's cards (`hands`) and those it may play (`free`), the cards in play
        and their points (`live`, `live_points`, the trick's included), the leader and the trick's card."""
        self.hands = list(hands)
        self.free = list(free)
        self.me = seat
        self.live = live
        self.live_points = live_points
        if trick:
            return self.node(1, leader, trick[0], 2 * POINTS_OF[trick[0]], alpha, beta)
        return self.node(0, leader, -1, 0, alpha, beta)

    def masters(self, lead: int) -> tuple[int, int]:
        """What each player (the leader, the other) is sure of at a trick's start: his trumps above every trump
        the other holds (each takes a trick whenever it is played), and the leader's top cards of the other suits
        while the other holds no trump (he leads them one after another), a trick and twice the card's points
        each."""
        hands = self.hands
        other = 1 - lead
        tm = self.trump_mask
        got = [0, 0]
        for i in (lead, other):
            t = hands[i] & tm
            b = (hands[1 - i] & tm).bit_length()
            t >>= b
            while t:
                if t & 1:
                    got[i] += 1 + 2 * POINTS_OF[b]
                t >>= 1
                b += 1
        if not hands[other] & tm:
            lv = self.live
            under = self.under
            free = self.free[lead]
            for s in range(4):
                if s == self.trump:
                    continue
                t = lv & SUIT_MASK[s]
                while t:
                    top = 1 << (t.bit_length() - 1)
                    if not free & top:
                        break
                    b = top.bit_length() - 1
                    got[lead] += 1 + 2 * POINTS_OF[b]
                    free |= under[b]
                    t ^= top
        return got[lead], got[other]

    def order(self, legal: int, k: int, win: int) -> list[int]:
        """One card of each run of equivalent legal cards, in the order to try them."""
        lv = self.live
        under = self.under
        reps: list[int] = []
        prev = -1
        x = legal
        while x:
            low = x & -x
            b = low.bit_length() - 1
            x ^= low
            if (
                prev >= 0
                and prev // 12 == b // 12
                and POINTS_OF[prev] == POINTS_OF[b]
                and not lv & ((1 << b) - (2 << prev))
                and not under[prev]
                and not under[b]
            ):
                prev = b
                continue
            prev = b
            reps.append(b)
        if len(reps) == 1:
            return reps
        out: list[int] = []
        trump = self.trump
        reply = self.free[1 - self.to_lead] if k == 0 else 0
        for b in reps:
            p = POINTS_OF[b]
            if k == 0:
                # the trick the lead makes against the other's best answer to it: taken with his dearest card
                # that beats it, else given his cheapest
                answers = legal_coded(self.cells, trump, b // 12, b, False, reply)
                dear = -1
                cheap = 99
                x = answers
                while x:
                    low = x & -x
                    c = low.bit_length() - 1
                    x ^= low
                    q = POINTS_OF[c]
                    if beats(c, b, trump):
                        if q > dear:
                            dear = q
                    elif q < cheap:
                        cheap = q
                score = 64 + p + dear if dear >= 0 else 32 - p - cheap
                score = score * 16 + b % 12
            elif beats(b, win, self.trump):
                score = -64 - p
            else:
                score = p * 16 + b % 12
            out.append(score << 6 | b)
        out.sort()
        return [x & 63 for x in out]

    def settled(self, legal: int, seat: int, k: int, win: int) -> int:
        """`legal` less the cards no search needs where who takes the trick is settled (as `masks.settled_runs`):
        of each run of them of one suit with nothing in play between and no pile card under any, one card: the
        follower's, his dearest where he takes the trick, else his cheapest; a leader's, where the other cannot
        take any of them, his dearest. The two-player obligations ask only about suits and ranks (`lliure`)."""
        cand = legal & self.bare
        if not cand & (cand - 1):
            return legal
        out = legal & ~cand
        for c, top, run in card_runs(cand, self.live):
            if top == c:
                out |= run
            elif k:
                out |= 1 << (top if beats(c, win, self.trump) else c)
            else:  # a lead: settled where the other can take none of the run (all of it compares alike)
                reply = self.free[1 - seat]
                follow = reply & SUIT_MASK[c // 12]
                if follow:
                    takes = follow & ~((2 << c) - 1)
                else:
                    takes = reply & self.trump_mask & (~((2 << c) - 1) if c // 12 == self.trump else -1)
                out |= run if takes else 1 << top
        return out

    def node(self, k: int, lead: int, win: int, pts: int, alpha: int, beta: int) -> int:
        """The sum the searching seat wins from here, `k` cards (0 or 1) lying in the trick (`win` the led one,
        `pts` twice its points), fail-soft in (alpha, beta); only a trick's start is kept in the table."""
        self.nodes += 1
        free = self.free
        me = self.me
        trump = self.trump
        lo = 0
        hi = 0
        first = -1
        key = -1
        if k == 0:
            lv = self.live
            if not lv:
                return 0
            left = lv.bit_count()
            if left == 2:  # the last trick: one card each
                b0 = free[lead].bit_length() - 1
                b1 = free[1 - lead].bit_length() - 1
                got = 2 * (POINTS_OF[b0] + POINTS_OF[b1]) + 1
                winner = 1 - lead if beats(b1, b0, trump) else lead
                return got if winner == me else 0
            hi = 2 * self.live_points + left // 2
            key = lv | lead << 48
            keys = self.keys
            i = ((key & 0xFFFFFF) * 0x9E3779B1 ^ (key >> 24) * 0x85EBCA77) >> 24 & self.mask
            e = -1
            if keys[i] == key:
                e = self.vals[i]
            elif keys[i ^ 1] == key:
                e = self.vals[i ^ 1]
            if e >= 0:
                elo = e & 0xFF
                ehi = e >> 8 & 0xFF
                first = (e >> 16) - 1
                if me:
                    elo, ehi = hi - ehi, hi - elo
                if elo > lo:
                    lo = elo
                if ehi < hi:
                    hi = ehi
            else:
                ours, theirs = self.masters(lead)
                if lead != me:
                    ours, theirs = theirs, ours
                lo = ours
                hi -= theirs
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        seat = (lead + k) & 1
        held = free[seat]
        legal = held if k == 0 else legal_coded(self.cells, trump, win // 12, win, False, held)
        if legal & (legal - 1):
            legal = self.settled(legal, seat, k, win)
        # the table's card is tried before the others are ordered (most cut-offs come at it): `order` runs only
        # where it does not cut
        lazy = first >= 0 and legal >> first & 1 == 1 and legal & (legal - 1) != 0
        if lazy:
            moves = [first]
        else:
            self.to_lead = lead
            moves = self.order(legal, k, win) if legal & (legal - 1) else [legal.bit_length() - 1]
        maxing = seat == me
        a, bt = alpha, beta
        best = -1 if maxing else 1 << 20
        move = -1
        under = self.under
        hands = self.hands
        own = hands[seat]
        i = 0
        while i < len(moves):
            b = moves[i]
            i += 1
            bb = 1 << b
            free[seat] = (held ^ bb) | under[b]
            hands[seat] = own ^ bb
            if k == 0:
                v = self.node(1, lead, b, 2 * POINTS_OF[b], a, bt)
            else:
                got = pts + 2 * POINTS_OF[b] + 1
                winner = seat if beats(b, win, trump) else lead
                add = got if winner == me else 0
                tm = 1 << win | bb
                self.live ^= tm
                self.live_points -= POINTS_OF[b] + POINTS_OF[win]
                v = add + self.node(0, winner, -1, 0, a - add, bt - add)
                self.live ^= tm
                self.live_points += POINTS_OF[b] + POINTS_OF[win]
            free[seat] = held
            hands[seat] = own
            if maxing:
                if v > best:
                    best, move = v, b
                    if v > a:
                        a = v
                        if v >= bt:
                            break
            elif v < best:
                best, move = v, b
                if v < bt:
                    bt = v
                    if v <= a:
                        break
            if lazy:
                lazy = False
                self.to_lead = lead
                moves = self.order(legal, k, win)
                if first in moves:
                    moves.remove(first)
                moves.insert(0, first)
        if key >= 0:
            if best <= alpha:
                hi = best if best < hi else hi
            elif best >= beta:
                lo = best if best > lo else lo
            else:
                lo = hi = best
            if me:
                total = 2 * self.live_points + self.live.bit_count() // 2
                lo, hi = total - hi, total - lo
            self.store(key, lo | hi << 8 | (move + 1) << 16)
        return best

    def find(self, key: int) -> int:
        """The entry kept for `key`, -1 if none is (`node` looks its keys up the same way, inline)."""
        i = slot_of(key, self.mask)
        if self.keys[i] == key:
            return self.vals[i]
        if self.keys[i ^ 1] == key:
            return self.vals[i ^ 1]
        return -1

    def store(self, key: int, entry: int) -> None:
        """Keep `entry` for `key`: in its slot or the other of its pair, where the key is already, else an empty
        one, else in place of the entry with fewer cards left (the cheaper to search again). The table doubles while
        more than a quarter of its slots are taken, up to its most."""
        keys = self.keys
        i = slot_of(key, self.mask)
        k0 = keys[i]
        if k0 != key:
            j = i ^ 1
            k1 = keys[j]
            if k1 == key:
                i = j
            elif k0 < 0:
                self.taken += 1
            elif k1 < 0:
                i = j
                self.taken += 1
            elif (k1 & 0xFFFFFFFFFFFF).bit_count() < (k0 & 0xFFFFFFFFFFFF).bit_count():
                i = j
        keys[i] = key
        self.vals[i] = entry
        if 4 * self.taken > len(keys) and len(keys) < self.most:
            self.grow()

    def grow(self) -> None:
        """Twice the slots, every entry kept, in place: the arrays are repeated onto themselves (a reallocation,
        not a second table beside the first: the peak is the new table's size, not half as much again) and each
        entry stays in its slot or moves to the same slot of the upper half, as its key's next hash bit says."""
        n = len(self.keys)
        self.keys *= 2
        self.vals *= 2
        keys = self.keys
        self.mask = mask = 2 * n - 1
        for i in range(n):
            key = keys[i]
            if key < 0:
                continue
            if slot_of(key, mask) & n:
                keys[i] = -1
            else:
                keys[i + n] = -1
