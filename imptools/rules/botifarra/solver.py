"""Botifarra's double-dummy solver for three and four players (`SearchBotifarra.answer`): the points a side
wins from a position, with every card visible. docs/ANALYSIS.md says how it works."""

from __future__ import annotations

from imptools.rules.botifarra.masks import (
    POINTS_OF,
    SUIT_MASK,
    beat_mask,
    beats,
    cannot_be_taken,
    coded,
    legal_coded,
    runs,
    settled_runs,
    trick_outcome,
)
from imptools.rules.hashing import hash2

INF = 1 << 40
"""Beyond any result (as `analyse.INF`)."""

SOLVER_CAP = 3 * (1 << 20) - 1
"""Entries in the solver's tables (all sides together: one table for a partnership, one per player else) before
each becomes the older generation (as `analyse.TABLE_CAP`), shared with the C port (`csolver.c` `DEFAULT_CAP`):
3,145,727, so that a generation of the C port (32 bytes a slot, at most three quarters full) fills 4M slots, 128 MB,
256 MB for both. The slow partnership hands' searches outgrew 1,000,000 (the limit chosen for Python dicts) dozens
of times a hand and searched again what they dropped (docs/PERFORMANCE.md, "the tables' capacity in C"). The Python
class, the fallback where the port was not built, takes about 120 bytes an entry: some 750 MB at the most."""

LOW_CARDS = 0x7F
"""A suit's seven cards without points (2-8), the lowest seven bits of its twelve."""
LOW_ALL = LOW_CARDS | LOW_CARDS << 12 | LOW_CARDS << 24 | LOW_CARDS << 36
"""Every suit's cards without points."""
BUCKET = 6
"""Entries a partition bucket keeps (the newest; `Solver.store`)."""
LOOKAHEAD_TRICKS = 5
"""Tricks left (this one included) from which `order` ranks the cards by the trick's outcome first
(`masks.trick_outcome`): inside a trick, and at a trick's start the table has no card for. Measured against 3-7
(docs/PERFORMANCE.md, "The trick's outcome first"): the outcome costs more below, where the searches are small."""
PARTITION_LEAST = 8
"""Positions a trick start's search must have visited for its bound to be kept in the partition table too (the
small ones cost more to keep than they save)."""
KILLER_SLOTS = 1 << 16
"""Slots of a solver's `killers` (512 KB in C): the card that last cut off with the same hand in the same place of a
trick (the suit led, the partner winning or not, a card taking the trick or not; or to lead), tried first there
(`node`)."""
KILLER_TRICKS = 4
"""Tricks left (this one included) from which `node` remembers and reads those cards (docs/PERFORMANCE.md, "Killer
cards")."""


def killer_hash(held: int, led: int, partner_wins: bool, can_take: bool) -> int:
    """A hand `held` to play to the suit `led` (-1 at a trick's start), its partner winning the trick or not, a card
    of it taking the trick or not, as a hash: its low bits pick a slot of `Solver.killers`, which keeps it with its
    top bit set (a slot of 0 is empty) and its six low bits replaced by the card."""
    return hash2(held, (led + 1) | partner_wins << 3 | can_take << 4) | 1 << 63


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


def least_points(cards: int, r: int) -> int:
    """The fewest points `r` cards of `cards` (one suit) can hold: those of its `r` lowest (a suit's points rise with
    its ranks); all of them where it holds fewer."""
    if (cards & LOW_ALL).bit_count() >= r:
        return 0
    got = 0
    while cards and r:
        low = cards & -cards
        got += POINTS_OF[low.bit_length() - 1]
        cards ^= low
        r -= 1
    return got


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
    side's sure trumps (`ruffs`). Equivalent cards (same suit and points, nothing in play between) are tried
    once; the order is the table's card, then, while `LOOKAHEAD_TRICKS` tricks or more are left, the trick's
    points for the mover's side with every later player of it answering for his own (`masks.trick_outcome`), then the
    cheapest card that takes an opponent's trick, points onto a partner's trick no one can take (else the led
    suit's master), masters when leading (those an opponent can ruff last), low cards else (the partner's ruffs
    first) (`order`). The tables are kept for the whole hand, one
    per side (two generations of `cap` entries, as `analyse.TABLE_CAP`); `nodes` counts the positions visited.
    With `partition` on, a second table keeps each bound for every position whose relevant cards without points
    lie alike (partition search, as DDS's: `store`, `kvec_of`, docs/ANALYSIS.md).
    """

    def __init__(
        self, rules: str, trump: int, partner: list[int], cap: int = SOLVER_CAP, partition: bool = False
    ) -> None:
        """`rules` the play rule, `trump` the trump suit (-1 for botifarra), `partner` each seat's partner (-1
        for none), seats in turn from the leader of trick 1; `partition` keeps partition entries too (off by
        default: 9-32% fewer positions on the bench hands, but more time and memory, docs/PERFORMANCE.md)."""
        self.n = len(partner)
        self.rules = rules
        self.cells = coded(rules)
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        self.partner = partner
        self.cap = cap if partner[0] >= 0 else max(1, cap // self.n)
        self.tables: dict[int, list[dict[int, int]]] = {}
        self.ptables: dict[int, list[dict[int, list[int]]]] = {}
        self.partition = partition
        self.least = PARTITION_LEAST
        self.pcap = self.cap // 4
        """Buckets in the partition tables a generation (each holds up to `BUCKET` entries)."""
        self.nodes = 0
        self.turns = 0
        """Times a table's newer generation became the older (the older's entries dropped), all sides together."""
        self.phits = 0
        """Partition entries that narrowed a window."""
        self.rel = 0
        """The relevant cards without points of the search below (`node`)."""
        self.srel = 0
        """The cards without points the static bounds hang on (`sure`, `ruffs`)."""
        self.killers = [0] * KILLER_SLOTS
        """The card that last cut off with a hand in a place of a trick, or to lead (`node`), by `killer_hash`."""
        self.coarse = 0
        """The partition key of the last trick start `key_of` keyed: each hand's point cards and how many cards
        without points it holds of each suit, and the leader."""
        n = self.n
        self.tops: list[int] = []
        """At `s * 8 + j`: the bits of a key (`key_of`) that hold suit `s`'s cards without points from rank `j` up
        (ranks among those in play, every hand)."""
        for s in range(4):
            for j in range(8):
                m = 0
                for i in range(n):
                    m |= ((LOW_CARDS >> j) << j) << (12 * (4 * n - 1 - (s * n + i)))
                self.tops.append(m)
        # the search's state, set by `gain`
        self.hands: list[int] = []
        self.side = 0
        self.flip = False
        self.live = 0
        self.live_points = 0
        self.gens: list[dict[int, int]] = [{}, {}]
        self.pgens: list[dict[int, list[int]]] = [{}, {}]

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
        kept = side ^ ((1 << n) - 1) if flip else side
        self.gens = self.tables.setdefault(kept, [{}, {}])
        self.pgens = self.ptables.setdefault(kept, [{}, {}])
        self.rel = 0
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
        coarse = lead | 4
        width = 12 * self.n
        partition = self.partition
        for s in range(4):  # a suit at a time in small numbers, then onto the key (few operations on long ones)
            sh = 12 * s
            base = ((lv >> sh) & LOW_CARDS) << 7
            part = 0
            cpart = 0
            for h in hands:
                x = (h >> sh) & 0xFFF
                low = x & LOW_CARDS
                part = (part << 12) | (x & 0xF80) | PACK[base | low]
                if partition:
                    cpart = (cpart << 8) | (x & 0xF80) >> 4 | low.bit_count()
            code = (code << width) | part
            if partition:
                coarse = (coarse << (width - 4 * self.n)) | cpart
        self.coarse = coarse
        return code

    def sure(self, lead: int) -> int:
        """Points the leader's side is sure of from a trick's start: the top trumps left in the leader's hand
        (each wins as it is led), then the top cards of a side suit while every opponent with trumps must follow
        it (and a partner with trumps can follow too, so he need not ruff): a trick and the led card's points
        each, and the fewest points the others can follow with (each who holds the suit plays one of it a round,
        whatever the table: his lowest cards at least; of the partner, only in side suits, where no master trump
        of his is counted). And the points of the side's other master trumps (above every trump the opponents
        hold): wherever they are played, in those tricks or later, the trick is the side's, and only the led
        and followed cards counted above are counted in those tricks. Then one side suit's entry to the partner's
        top cards of it (`entry`)."""
        lv = self.live
        hands = self.hands
        trump = self.trump
        trump_mask = self.trump_mask
        own = hands[lead]
        mate = self.partner[lead]
        got = 0
        runs = 0  # the tricks cashed (the leader's cards)
        last = 0  # the lowest card looked at: the cards without points down to it are relevant
        if trump >= 0:
            t = lv & trump_mask
            cashed = 0
            while t:
                top = 1 << (t.bit_length() - 1)
                last = top
                if not own & top:
                    break
                got += 1 + POINTS_OF[top.bit_length() - 1]
                t ^= top
                cashed += 1
            runs = cashed
            self.srel |= last & LOW_ALL
            theirs = 0
            for i in range(self.n):
                if i != lead and i != mate:
                    theirs |= hands[i]
                    if cashed:  # an opponent follows each top trump cashed with one of his (the fewest points)
                        got += least_points(hands[i] & trump_mask, cashed)
            b = (theirs & trump_mask).bit_length()
            masters = ((own | (hands[mate] if mate >= 0 else 0)) & t) >> b  # t: the trumps left after the cashed
            while masters:
                if masters & 1:
                    got += POINTS_OF[b]
                masters >>= 1
                b += 1
        mate_ruffs = mate >= 0 and bool(hands[mate] & trump_mask)
        after: list[tuple[int, int, int, int]] = []  # each side suit's cards left, rounds left and cashes
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
            last = 0
            cashed = 0
            while t and rounds:
                top = 1 << (t.bit_length() - 1)
                last = top
                if not own & top:
                    break
                got += 1 + POINTS_OF[top.bit_length() - 1]
                t ^= top
                rounds -= 1
                cashed += 1
            self.srel |= last & LOW_ALL
            runs += cashed
            if cashed:  # every other player holding the suit follows each card cashed (the fewest points he can)
                for i in range(self.n):
                    if i != lead:
                        got += least_points(hands[i] & m, cashed)
            if mate >= 0 and rounds and t and own & t and hands[mate] & t:
                after.append((s, t, rounds, cashed))
        if after:
            got += self.entry(lead, after, own.bit_count() - runs)
        return got

    def entry(self, lead: int, after: list[tuple[int, int, int, int]], spare: int) -> int:
        """After the leader's run (`sure`), the most points of one side suit's entry to the partner: the leader
        leads a low card of a suit whose top card left is his partner's, and the partner cashes his top cards
        of it. `after` holds each such suit, its cards left, the rounds every opponent with trumps still follows
        and the leader's cashes of it; `spare` the leader's cards not cashed. Each round is a trick and the
        partner's card's points, with the fewest points the leader and the opponents can follow with; as many
        rounds as the opponents with trumps follow, as the leader has cards left (and, if he holds trumps, of
        the suit, so he need not ruff his partner's card), and as the partner holds of the suit beyond the cards
        he followed the leader's run of it with (so his top cards stay his)."""
        hands = self.hands
        own = hands[lead]
        mate = self.partner[lead]
        held = hands[mate]
        ruffer = bool(own & self.trump_mask)
        best = 0
        for s, t, rounds, cashed in after:
            m = SUIT_MASK[s]
            mine = own & t
            limit = rounds if rounds < spare else spare
            if ruffer and mine.bit_count() < limit:
                limit = mine.bit_count()
            c = (held & m).bit_count() - cashed
            if c < limit:
                limit = c
            gain = 0
            e = 0
            last = 0
            while t and e < limit:
                top = 1 << (t.bit_length() - 1)
                last = top
                if not held & top:
                    break
                gain += 1 + POINTS_OF[top.bit_length() - 1]
                t ^= top
                e += 1
            if not e:
                continue
            gain += least_points(mine, e)
            for i in range(self.n):
                if i != lead and i != mate:
                    opp = hands[i] & m
                    gain += least_points(opp, cashed + e) - least_points(opp, cashed)
            self.srel |= last & LOW_ALL
            if gain > best:
                best = gain
        return best

    def ruffs(self) -> tuple[int, int]:
        """Points each side (the searching side, the other) is sure of from its trumps. Every card is played, a
        trick's highest trump wins it, and a player plays one card a trick: so of a player's `j` highest trumps, at
        most as many as the other side holds above the lowest of them are ever beaten (each of those beats at most
        one of his cards), and the others, `u`, each win a trick of their own for his side, with at least the points
        of the `u` lowest of the `j`. A side wins the tricks of its partner who has most of them and the points of
        both. (With `j` the player's trumps above every trump the other side holds, his masters: each of them.)"""
        side = self.side
        trump_mask = self.trump_mask
        ours = theirs = 0
        for i, h in enumerate(self.hands):
            if side >> i & 1:
                ours |= h & trump_mask
            else:
                theirs |= h & trump_mask
        if self.partition:  # which of the cards without points lie above which decides the counts below
            self.srel |= (ours | theirs) & LOW_ALL
        got = [0, 0]
        most = [0, 0]
        for i, h in enumerate(self.hands):
            t = h & trump_mask
            if not t:
                continue
            mine = side >> i & 1
            other = theirs if mine else ours
            held = t.bit_count()
            count = 0
            best = 0
            j = 0
            x = t
            while x:
                top = x.bit_length() - 1
                x ^= 1 << top
                j += 1
                above = (other >> top).bit_count()
                if above >= held:  # no more of his trumps than of theirs above: none below is sure
                    break
                u = j - above
                if u > 0:
                    if u > count:
                        count = u
                    p = least_points(t >> top << top, u)  # the `u` lowest of his `j` highest trumps
                    if p > best:
                        best = p
            got[mine] += best
            if count > most[mine]:
                most[mine] = count
        return got[1] + most[1], got[0] + most[0]

    def order(
        self, seat: int, legal: int, k: int, win: int, wat: int, lead: int, led: int, pts: int = 0, look: bool = False
    ) -> list[int]:
        """One card of each run of equivalent legal cards (same suit and points, nothing in play between), in
        the order to try them. With `look`, first by the trick's outcome for the player's side
        (`trick_outcome`, `pts` the points lying in the trick), then as follows. A leader's masters first, but
        those of a side suit an opponent can ruff last of all; then a low lead to the partner's master; then low
        leads, the partner's ruffs first. A follower: the cheapest card that takes an opponent's trick, points onto
        a partner's trick no one after can take, the led suit's master onto a partner's trick that could still be
        taken, the lowest cards else."""
        lv = self.live
        n = self.n
        reps = runs(legal, lv)
        if len(reps) == 1:
            return reps
        out: list[int] = []  # each card's score and bit, in one number to sort
        if k == 0:
            mate = self.partner[seat]
            partner = self.hands[mate] if mate >= 0 else 0
            trump = self.trump
            trumps = self.trump_mask
            ruffed = 0  # the side suits an opponent can ruff (void in it, trumps in hand)
            mate_ruffs = 0  # the side suits the partner can ruff
            if trump >= 0:
                for s in range(4):
                    m = SUIT_MASK[s]
                    if s == trump:
                        continue
                    for i in range(n):
                        h = self.hands[i]
                        if i != seat and i != mate and not h & m and h & trumps:
                            ruffed |= 1 << s
                    if mate >= 0 and not partner & m and partner & trumps:
                        mate_ruffs |= 1 << s
            for b in reps:
                s = b // 12
                m = SUIT_MASK[s]
                top = not lv & m & ~((2 << b) - 1)
                if top:  # a master, the opponents' ruffs' last
                    score = -1000 - POINTS_OF[b] + (2000 if ruffed >> s & 1 else 0)
                elif partner & m and (lv & m).bit_length() == (partner & m).bit_length():
                    score = -500 + POINTS_OF[b] * 16 + b % 12  # low to the partner's master of the suit
                else:  # low, for the partner to ruff first
                    score = POINTS_OF[b] * 16 + b % 12 - (300 if (mate_ruffs & ~ruffed) >> s & 1 else 0)
                out.append(score << 6 | b)
        else:
            mine = self.partner[seat] == (lead + wat) % n
            safe = mine and cannot_be_taken(self.hands, n, self.trump, lead, k, win, led)
            for b in reps:
                p = POINTS_OF[b]
                if mine:  # points onto a trick no one after can take; else the led suit's master, then low
                    if safe:
                        score = -64 - p
                    elif b // 12 == led and not lv & SUIT_MASK[led] & ~((2 << b) - 1):
                        score = -32 - p
                    else:
                        score = p * 16 + b % 12
                elif beats(b, win, self.trump):
                    score = -64 - p if k == n - 1 else -64 + (b // 12 == self.trump) * 16 + b % 12
                else:
                    score = p * 16 + b % 12
                out.append(score << 6 | b)
        if look:  # the trick's outcome first
            hands, mates, cells, trump = self.hands, self.partner, self.cells, self.trump
            out = [
                x - (trick_outcome(hands, lv, mates, cells, trump, lead, k, win, wat, led, pts, seat, x & 63) << 26)
                for x in out
            ]
        out.sort()
        return [x & 63 for x in out]

    def node(self, k: int, lead: int, win: int, wat: int, led: int, pts: int, tmask: int, alpha: int, beta: int) -> int:
        """The points the side wins from here, `k` cards lying in the trick (`pts` their points, `tmask` their
        bits, `win` the winning one, the `wat`-th played), fail-soft in (alpha, beta). Only a trick's start is
        kept in the table (as bridge's solvers do: inside a trick the entries cost more than they save).

        Every comparison of two cards without points (of one suit) that the result may hang on adds the higher
        of them (or the card that settles it) to `rel`, the relevant cards of the search below (partition
        search, docs/ANALYSIS.md): a trick start's entry holds, per suit, how many of the top cards without
        points must lie as they lie for its bound to hold (`kvec_of`)."""
        self.nodes += 1
        n = self.n
        hands = self.hands
        side = self.side
        trump = self.trump
        gens = self.gens
        part = self.partition  # the relevant cards are followed only for the partition entries
        lo = 0
        hi = 0
        first = -1
        key = -1
        coarse = -1
        visited = 0
        slo = 0  # the static bounds (`sure`, `ruffs`) and the cards they hang on
        shi = INF
        srel = 0
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
                    if i == 0:
                        w = b
                        continue
                    if part and b // 12 == w // 12 and not POINTS_OF[b] and not POINTS_OF[w]:
                        self.rel |= 1 << (b if b > w else w)
                    if beats(b, w, trump):
                        w, wk = b, i
                return got if side >> ((lead + wk) % n) & 1 else 0
            hi = self.live_points + left // n
            key = self.key_of(lead)
            coarse = self.coarse
            visited = self.nodes
            e = gens[0].get(key)
            if e is None:
                e = gens[1].get(key)
            if e is not None:
                elo = e & 0xFF
                ehi = e >> 8 & 0xFF
                first = (e >> 16 & 63) - 1
                if self.flip:
                    elo, ehi = hi - ehi, hi - elo
                if elo > lo:
                    lo = elo
                if ehi < hi:
                    hi = ehi
                self.mark_top(e >> 22)
            else:
                self.srel = 0
                q = self.sure(lead)
                mine_t, theirs_t = self.ruffs() if trump >= 0 else (0, 0)
                srel = self.srel
                if side >> lead & 1:
                    slo = q if q > mine_t else mine_t
                    shi = hi - theirs_t
                else:
                    slo = mine_t
                    shi = hi - (q if q > theirs_t else theirs_t)
            if part and lo < beta and lo < hi and hi > alpha and slo < beta and shi > alpha:
                bucket = self.pgens[0].get(coarse)
                if bucket is None:
                    bucket = self.pgens[1].get(coarse)
                if bucket is not None:
                    total = self.live_points + left // n
                    for pe in bucket:
                        if first < 0:
                            first = (pe >> 16 & 63) - 1
                        kv = pe >> 22 & 0xFFF
                        if pe >> 34 != key & self.top_mask(kv):
                            continue
                        elo = pe & 0xFF
                        ehi = pe >> 8 & 0xFF
                        if self.flip:
                            elo, ehi = total - ehi, total - elo
                        if elo > lo or ehi < hi:
                            self.phits += 1
                            self.mark_top(kv)
                            if elo > lo:
                                lo = elo
                            if ehi < hi:
                                hi = ehi
                            if lo >= beta or hi <= alpha or lo == hi:
                                break
            if slo > lo or shi < hi:  # the static bounds count where they settle the window (and when kept)
                nlo = slo if slo > lo else lo
                nhi = shi if shi < hi else hi
                if nlo >= beta or nlo == nhi or nhi <= alpha:
                    self.rel |= srel if part else 0
                    lo, hi = nlo, nhi
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        seat = (lead + k) % n
        held = hands[seat]
        mine_win = k > 0 and self.partner[seat] == (lead + wat) % n  # his partner wins the trick so far
        if k == 0:
            legal = held
        else:
            legal = legal_coded(self.cells, trump, led, win, mine_win, held)
            if part and not mine_win and not POINTS_OF[win]:  # whether a card beats a winning card without points
                follow = held & SUIT_MASK[led]
                if follow:
                    cmp = follow & LOW_ALL if win // 12 == led else 0
                else:
                    cmp = held & self.trump_mask & LOW_ALL if win // 12 == trump else 0
                if cmp:
                    h0 = cmp & -cmp
                    wb = 1 << win
                    self.rel |= h0 if h0 > wb else wb
        killer = 0  # KILLER_TRICKS tricks left or more, inside a trick or at a lead the table has no card for
        if (k or first < 0) and self.live.bit_count() >= KILLER_TRICKS * n:
            killer = killer_hash(held, led, mine_win, k > 0 and (legal & beat_mask(win, trump)) != 0)
            slot = self.killers[killer & KILLER_SLOTS - 1]
            if not (slot ^ killer) >> 6:
                first = slot & 63
        if not part and legal & (legal - 1):  # a run's one card where the trick's taker is settled
            legal = settled_runs(legal, self.live, hands, n, self.cells, trump, side, lead, k, win, wat, led)
        if legal & (legal - 1):
            look = k < n - 1 and (k > 0 or first < 0) and self.live.bit_count() >= LOOKAHEAD_TRICKS * n
            moves = self.order(seat, legal, k, win, wat, lead, led, pts, look)
        else:
            moves = [legal.bit_length() - 1]
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
            cm = 0
            if k == 0:
                nw, nwat, nled = b, 0, b // 12
            else:
                if part and b // 12 == win // 12 and not POINTS_OF[b] and not POINTS_OF[win]:
                    cm = 1 << (b if b > win else win)
                if beats(b, win, trump):
                    nw, nwat, nled = b, k, led
                else:
                    nw, nwat, nled = win, wat, led
            r0 = 0
            if part:
                r0 = self.rel
                self.rel = cm
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
            if part:
                re = self.rel
                if re and not POINTS_OF[b] and legal & ~bb and re & SUIT_MASK[b // 12] & ~((2 << b) - 1):
                    re |= self.run_relevant(b, legal, re)
                self.rel = r0 | re
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
        if killer and len(moves) > 1 and (best >= beta if maxing else best <= alpha):  # the card that cut off
            self.killers[killer & KILLER_SLOTS - 1] = killer & ~63 | move
        if key >= 0:
            if best <= alpha:
                hi = best if best < hi else hi
            elif best >= beta:
                lo = best if best > lo else lo
            else:
                lo = hi = best
            if slo > lo or shi < hi:
                self.rel |= srel if part else 0
                if slo > lo:
                    lo = slo
                if shi < hi:
                    hi = shi
            kv = self.kvec_of(self.rel) if part else 0
            if self.flip:
                total = self.live_points + self.live.bit_count() // n
                lo, hi = total - hi, total - lo
            table = gens[0]
            table[key] = lo | hi << 8 | (move + 1) << 16 | kv << 22
            if len(table) > self.cap:
                gens[1], gens[0] = table, {}
                self.turns += 1
            # a partition entry where the search was not small and not every card without points is relevant
            if part and self.nodes - visited >= self.least and kv != self.kvec_of(self.live):
                self.store(coarse, key & self.top_mask(kv), kv, lo, hi, move)
        return best

    def run_relevant(self, b: int, legal: int, rel: int) -> int:
        """`b`'s bit where a card of its run (the legal cards above it of its suit without points, nothing in
        play between, not searched: each plays as `b` does) is among the relevant cards `rel` of `b`'s search:
        then the run is relevant from `b` up, else nothing (the run's cards are alike wherever they lie)."""
        lv = self.live
        c = b
        while True:
            above = lv & SUIT_MASK[b // 12] & ~((2 << c) - 1)
            if not above:
                return 0
            nxt = above & -above
            if not legal & nxt or nxt & ~LOW_ALL:
                return 0
            if rel & nxt:
                return 1 << b
            c = nxt.bit_length() - 1

    def kvec_of(self, rel: int) -> int:
        """For each suit, how many of its cards without points in play, from the top, are relevant (down to the
        lowest relevant card of `rel`), three bits a suit."""
        lv = self.live
        kv = 0
        for s in range(4):
            r = rel >> (12 * s) & LOW_CARDS
            if r:
                low = r & -r
                kv |= ((lv >> (12 * s)) & LOW_CARDS & ~(low - 1)).bit_count() << (3 * s)
        return kv

    def mark_top(self, kv: int) -> None:
        """Add to `rel` the cards an entry's `kv` (`kvec_of`) names in this position: per suit, the top `k` cards
        without points in play (the lowest of them: those above it are relevant with it)."""
        if not kv:
            return
        lv = self.live
        for s in range(4):
            k = kv >> (3 * s) & 7
            if k:
                x = (lv >> (12 * s)) & LOW_CARDS
                for _ in range(k - 1):
                    x ^= 1 << (x.bit_length() - 1)
                self.rel |= 1 << (x.bit_length() - 1 + 12 * s)

    def top_mask(self, kv: int) -> int:
        """The bits of a key (`key_of`) that hold the top `k` cards without points of each suit (`kv` as
        `kvec_of`): a key masked so tells where they lie."""
        lv = self.live
        tops = self.tops
        m = 0
        for s in range(4):
            k = kv >> (3 * s) & 7
            if k:
                m |= tops[8 * s + ((lv >> (12 * s)) & LOW_CARDS).bit_count() - k]
        return m

    def store(self, coarse: int, pat: int, kv: int, lo: int, hi: int, move: int) -> None:
        """Keep a bound (`lo`, `hi`, for the table's side) and the best card in the partition bucket of `coarse`,
        for every position whose top cards without points lie as `kv` says they lie here (`pat`, the key so
        masked), merged with an entry of the same cards."""
        pgens = self.pgens
        tag = kv | pat << 12
        bucket = pgens[0].get(coarse)
        if bucket is None:
            bucket = []
            pgens[0][coarse] = bucket
            if len(pgens[0]) > self.pcap:
                pgens[1], pgens[0] = pgens[0], {}
        for i in range(len(bucket)):
            pe = bucket[i]
            if pe >> 22 == tag:
                elo = pe & 0xFF
                ehi = pe >> 8 & 0xFF
                bucket[i] = (lo if lo > elo else elo) | (hi if hi < ehi else ehi) << 8 | (move + 1) << 16 | tag << 22
                return
        bucket.append(lo | hi << 8 | (move + 1) << 16 | tag << 22)
        if len(bucket) > BUCKET:
            bucket.pop(0)
