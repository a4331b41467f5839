"""Botifarra's double-dummy solver for three and four players (`SearchBotifarra.answer`): the points a side
wins from a position, with every card visible. docs/ANALYSIS.md says how it works."""

from __future__ import annotations

from imptools.rules.botifarra.masks import POINTS_OF, SUIT_MASK, beats, cannot_be_taken, coded, legal_coded

INF = 1 << 40
"""Beyond any result (as `analyse.INF`)."""

SOLVER_CAP = 1_000_000
"""Entries in the solver's tables (all sides together: one table for a partnership, one per player else) before
each becomes the older generation (as `analyse.TABLE_CAP`): at most twice this, about 350 MB."""

LOW_CARDS = 0x7F
"""A suit's seven cards without points (2-8), the lowest seven bits of its twelve."""


def _pext7(live: int, own: int) -> int:
    """The bits of `own` at the places of `live`'s bits, packed low (`own` a subset of `live`, both 7 bits)."""
    out = 0
    k = 0
    for i in range(7):
        if live >> i & 1:
            if own >> i & 1:
                out |= 1 << k
            k += 1
    return out


PACK: tuple[int, ...] = tuple(_pext7(i >> 7, (i & 127) & (i >> 7)) for i in range(1 << 14))
"""`_pext7(live, own)` at index `live << 7 | own`: a suit's cards without points by their rank among those still
in play (relative ranks: which low cards are gone does not matter, only the order of those left)."""


class Solver:
    """The points a side wins from a position of a three- or four-player hand (`SearchBotifarra.answer`).

    A double-dummy search in the manner of bridge's and Skat's solvers: fail-soft alpha-beta on the points the
    side wins from here (cards' points and a point per trick), with a table of positions (lower and upper
    bound and the best card, packed in one number) keyed at each trick's start by every hand, the cards without
    points reduced to their ranks among the cards still in play (the point cards, the top five of a suit, keep
    their places: their points tell them apart), and the leader; inside a trick nothing is kept (as in bridge's
    solvers: those entries cost more time and memory than they save). With two sides of two the points of one
    side from a position are the points left less the other's, so one table serves both. At each trick's start
    the search is bounded by the points left, the sure tricks the leader's side can cash (`sure`) and each
    side's master trumps (`ruffs`). Equivalent cards (same suit and points, nothing in play between) are tried
    once; the order is the table's card, then the cheapest card that takes an opponent's trick, points onto a
    partner's trick no one can take, masters when leading, low cards else (`order`). The tables are kept for the
    whole hand, one per side (two generations of `cap` entries, as `analyse.TABLE_CAP`); `nodes` counts the
    positions visited.
    """

    def __init__(self, rules: str, trump: int, partner: list[int], cap: int = SOLVER_CAP) -> None:
        """`rules` the play rule, `trump` the trump suit (-1 for botifarra), `partner` each seat's partner (-1
        for none), seats in turn from the leader of trick 1."""
        self.n = len(partner)
        self.rules = rules
        self.cells = coded(rules)
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        self.partner = partner
        self.cap = cap if partner[0] >= 0 else max(1, cap // self.n)
        self.tables: dict[int, list[dict[int, int]]] = {}
        self.nodes = 0
        # the search's state, set by `gain`
        self.hands: list[int] = []
        self.side = 0
        self.flip = False
        self.live = 0
        self.live_points = 0
        self.gens: list[dict[int, int]] = [{}, {}]

    def gain(
        self,
        hands: list[int],
        live: int,
        live_points: int,
        leader: int,
        trick: list[int],
        winning: int,
        wins_at: int,
        seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The points `seat`'s side wins from here on: exact inside (alpha, beta), else a bound on the side that
        fails (fail-soft). The position: each seat's cards (`hands`, masks), the cards in play and their points
        (`live`, `live_points`, the trick's included), the leader, the trick's cards, its winning card and the
        index of the play that put it there."""
        n = self.n
        mate = self.partner[seat]
        side = 1 << seat | (1 << mate if mate >= 0 else 0)
        self.side = side
        # With two sides of two, one side's points from a position are the points left less the other's:
        # one table serves both, kept for the side of the first seat.
        self.flip = flip = mate >= 0 and not side & 1
        self.gens = self.tables.setdefault(side ^ ((1 << n) - 1) if flip else side, [{}, {}])
        self.hands = list(hands)
        self.live = live
        self.live_points = live_points
        pts = 0
        tmask = 0
        for c in trick:
            pts += POINTS_OF[c]
            tmask |= 1 << c
        led = trick[0] // 12 if trick else -1
        return self.node(len(trick), leader, winning, wins_at, led, pts, tmask, alpha, beta)

    def key_of(self, lead: int) -> int:
        """A trick start's key: the leader (with a bit above it, so that every key of a trick's start is as long
        as every other, and each card lying in a trick lengthens it), then each hand suit by suit, its point
        cards in place and its cards without points by their rank among those still in play."""
        lv = self.live
        hands = self.hands
        code = lead | 4
        for s in range(4):
            sh = 12 * s
            base = ((lv >> sh) & LOW_CARDS) << 7
            for h in hands:
                x = h >> sh
                code = (code << 12) | ((x & 0xF80) | PACK[base | (x & LOW_CARDS)])
        return code

    def sure(self, lead: int) -> int:
        """Points the leader's side is sure of from a trick's start: the top trumps left in the leader's hand
        (each wins as it is led), then the top cards of a side suit while every opponent with trumps must follow
        it (and a partner with trumps can follow too, so he need not ruff): a trick and the led card's points
        each. And the points of the side's other master trumps (above every trump the opponents hold): wherever
        they are played, in those tricks or later, the trick is the side's, and only the led cards' points are
        counted in those tricks."""
        lv = self.live
        hands = self.hands
        trump = self.trump
        trump_mask = self.trump_mask
        own = hands[lead]
        mate = self.partner[lead]
        got = 0
        if trump >= 0:
            t = lv & trump_mask
            while t:
                top = 1 << (t.bit_length() - 1)
                if not own & top:
                    break
                got += 1 + POINTS_OF[top.bit_length() - 1]
                t ^= top
            theirs = 0
            for i in range(self.n):
                if i != lead and i != mate:
                    theirs |= hands[i]
            b = (theirs & trump_mask).bit_length()
            masters = ((own | (hands[mate] if mate >= 0 else 0)) & t) >> b  # t: the trumps left after the cashed
            while masters:
                if masters & 1:
                    got += POINTS_OF[b]
                masters >>= 1
                b += 1
        mate_ruffs = mate >= 0 and bool(hands[mate] & trump_mask)
        for s in range(4):
            if s == trump:
                continue
            m = SUIT_MASK[s]
            rounds = 12
            for i in range(self.n):
                if i != lead and i != mate and hands[i] & trump_mask:
                    c = (hands[i] & m).bit_count()
                    if c < rounds:
                        rounds = c
            if mate_ruffs:
                c = (hands[mate] & m).bit_count()
                if c < rounds:
                    rounds = c
            t = lv & m
            while t and rounds:
                top = 1 << (t.bit_length() - 1)
                if not own & top:
                    break
                got += 1 + POINTS_OF[top.bit_length() - 1]
                t ^= top
                rounds -= 1
        return got

    def ruffs(self) -> tuple[int, int]:
        """Points each side (the searching side, the other) is sure of from its trumps: a trump above every trump
        the other side holds (a master) goes to its side in whatever trick it is played (the trick's highest trump
        is the side's), so the side wins every master's points; and a player plays one card a trick, so each of
        his masters is a trick of its own: the side wins a point for each master of the partner who holds more."""
        side = self.side
        trump_mask = self.trump_mask
        ours = theirs = 0
        for i, h in enumerate(self.hands):
            if side >> i & 1:
                ours |= h & trump_mask
            else:
                theirs |= h & trump_mask
        got = [0, 0]
        most = [0, 0]
        for i, h in enumerate(self.hands):
            t = h & trump_mask
            if not t:
                continue
            mine = side >> i & 1
            b = (theirs if mine else ours).bit_length()
            t >>= b
            count = 0
            pts = 0
            while t:
                if t & 1:
                    count += 1
                    pts += POINTS_OF[b]
                t >>= 1
                b += 1
            got[mine] += pts
            if count > most[mine]:
                most[mine] = count
        return got[1] + most[1], got[0] + most[0]

    def order(self, seat: int, legal: int, k: int, win: int, wat: int, lead: int, led: int) -> list[int]:
        """One card of each run of equivalent legal cards (same suit and points, nothing in play between), in
        the order to try them."""
        lv = self.live
        n = self.n
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
            ):
                prev = b
                continue  # the same card as the run's first one
            prev = b
            reps.append(b)
        if len(reps) == 1:
            return reps
        out: list[int] = []  # each card's score and bit, in one number to sort
        if k == 0:
            mate = self.partner[seat]
            partner = self.hands[mate] if mate >= 0 else 0
            for b in reps:
                m = SUIT_MASK[b // 12]
                top = not lv & m & ~((2 << b) - 1)
                if top:
                    score = -1000 - POINTS_OF[b]
                elif partner & m and (lv & m).bit_length() == (partner & m).bit_length():
                    score = -500 + POINTS_OF[b] * 16 + b % 12  # low to the partner's master of the suit
                else:
                    score = POINTS_OF[b] * 16 + b % 12
                out.append(score << 6 | b)
        else:
            mine = self.partner[seat] == (lead + wat) % n
            safe = mine and cannot_be_taken(self.hands, n, self.trump, lead, k, win, led)
            for b in reps:
                p = POINTS_OF[b]
                if mine:
                    score = -64 - p if safe else p * 16 + b % 12
                elif beats(b, win, self.trump):
                    score = -64 - p if k == n - 1 else -64 + (b // 12 == self.trump) * 16 + b % 12
                else:
                    score = p * 16 + b % 12
                out.append(score << 6 | b)
        out.sort()
        return [x & 63 for x in out]

    def node(self, k: int, lead: int, win: int, wat: int, led: int, pts: int, tmask: int, alpha: int, beta: int) -> int:
        """The points the side wins from here, `k` cards lying in the trick (`pts` their points, `tmask` their
        bits, `win` the winning one, the `wat`-th played), fail-soft in (alpha, beta). Only a trick's start is
        kept in the table (as bridge's solvers do: inside a trick the entries cost more than they save)."""
        self.nodes += 1
        n = self.n
        hands = self.hands
        side = self.side
        trump = self.trump
        gens = self.gens
        lo = 0
        hi = 0
        first = -1
        key = -1
        if k == 0:
            lv = self.live
            if not lv:
                return 0
            left = lv.bit_count()
            if left == n:  # the last trick: one card each
                w = -1
                wk = 0
                got = 1
                for i in range(n):
                    b = hands[(lead + i) % n].bit_length() - 1
                    got += POINTS_OF[b]
                    if i == 0 or beats(b, w, trump):
                        w, wk = b, i
                return got if side >> ((lead + wk) % n) & 1 else 0
            hi = self.live_points + left // n
            key = self.key_of(lead)
            e = gens[0].get(key)
            if e is None:
                e = gens[1].get(key)
            if e is not None:
                elo = e & 0xFF
                ehi = e >> 8 & 0xFF
                first = (e >> 16) - 1
                if self.flip:
                    elo, ehi = hi - ehi, hi - elo
                if elo > lo:
                    lo = elo
                if ehi < hi:
                    hi = ehi
            else:
                q = self.sure(lead)
                mine_t, theirs_t = self.ruffs() if trump >= 0 else (0, 0)
                if side >> lead & 1:
                    lo = q if q > mine_t else mine_t
                    hi -= theirs_t
                else:
                    lo = mine_t
                    hi -= q if q > theirs_t else theirs_t
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        seat = (lead + k) % n
        held = hands[seat]
        if k == 0:
            legal = held
        else:
            legal = legal_coded(self.cells, trump, led, win, self.partner[seat] == (lead + wat) % n, held)
        moves = self.order(seat, legal, k, win, wat, lead, led) if legal & (legal - 1) else [legal.bit_length() - 1]
        if first >= 0 and moves[0] != first and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        maxing = side >> seat & 1
        a, bt = alpha, beta
        best = -INF if maxing else INF
        move = -1
        last = k == n - 1
        for b in moves:
            bb = 1 << b
            hands[seat] = held ^ bb
            if k == 0:
                nw, nwat, nled = b, 0, b // 12
            elif beats(b, win, trump):
                nw, nwat, nled = b, k, led
            else:
                nw, nwat, nled = win, wat, led
            if last:
                got = pts + POINTS_OF[b] + 1
                winner = (lead + nwat) % n
                add = got if side >> winner & 1 else 0
                tm = tmask | bb
                self.live ^= tm
                self.live_points -= got - 1
                v = add + self.node(0, winner, -1, 0, -1, 0, 0, a - add, bt - add)
                self.live ^= tm
                self.live_points += got - 1
            else:
                v = self.node(k + 1, lead, nw, nwat, nled, pts + POINTS_OF[b], tmask | bb, a, bt)
            hands[seat] = held
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
        if key >= 0:
            if best <= alpha:
                hi = best if best < hi else hi
            elif best >= beta:
                lo = best if best > lo else lo
            else:
                lo = hi = best
            table = gens[0]
            if self.flip:
                total = self.live_points + self.live.bit_count() // n
                lo, hi = total - hi, total - lo
            table[key] = lo | hi << 8 | (move + 1) << 16
            if len(table) > self.cap:
                gens[1], gens[0] = table, {}
        return best
