"""Botifarra for a game-tree search: a fast position and the hand a record shows, ready to analyse.

`SearchBotifarra` keeps each player's cards as a bit mask in which a suit's
twelve cards lie in order of strength (bit `suit * 12 + strength - 1`, see
`BIT`), so "a card that beats", "the lowest card of a suit" and "the cards
between two cards" are a few integer operations. `legal_mask` is the obligation
table of `botifarra.legal_cards` over such masks and `beats` the rule of
`botifarra.trick_winner`; tests/test_analyse_botifarra.py proves both equal to
the checker's own functions on many random positions. With two players, a
pile card becomes playable when the card on it is played (`under`).

What a player's result depends on (see `SearchPosition.key`): the result is
the points of his side (card points and one per trick), which are additive:
banked so far + won from here. The two-player count is not (the point of the
two leftover tricks goes to the poorer player), so there the key holds what
the rest depends on (the parity of his tricks and, while the leftover point
can still go either way, his points so far).
"""

from __future__ import annotations

from itertools import pairwise

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, bits
from imptools.rules.botifarra import (
    LLIURE,
    OBLIGADA,
    TWO_PLAYER,
    Botifarra,
    Setup,
    _hand_cards,
    _piles,
    call_lines,
    judge_calls,
    points,
    spell,
    strength,
    suit_of,
    trick_winner,
    two_player_points,
)
from imptools.rules.tricks import Played, after_exchange, turn_order, walk_tricks

MARKS = (5, 15)
"""A play that costs 5 points or more is `?`, 15 or more `??` (see docs/ANALYSIS.md)."""

BIT: tuple[int, ...] = tuple(suit_of(c) * 12 + strength(c) - 1 for c in range(48))
"""The search's bit for an engine card: the suit's twelve bits, weakest card lowest."""
CARD: tuple[int, ...] = tuple(sorted(range(48), key=lambda c: BIT[c]))
"""The engine card of a bit (the inverse of `BIT`)."""
SUIT_MASK: tuple[int, ...] = tuple(0xFFF << (12 * s) for s in range(4))
"""The bits of each suit."""
POINTS_OF: tuple[int, ...] = tuple(points(CARD[b]) for b in range(48))
"""The card points of each bit."""
POINT_MASK = sum(1 << b for b in range(48) if POINTS_OF[b])
"""The point cards (9 1 12 11 10 of every suit)."""
_CODE_BITS = 48
"""Bits a seat's cards take in the key."""


def mask_of(cards: set[int] | list[int]) -> int:
    """The mask of some engine cards."""
    m = 0
    for c in cards:
        m |= 1 << BIT[c]
    return m


def lows(held: int) -> int:
    """The lowest card of each suit of `held`."""
    out = 0
    for s in SUIT_MASK:
        x = held & s
        if x:
            out |= x & -x
    return out


def beats(card: int, winning: int, trump: int) -> bool:
    """Whether bit `card`, played after bit `winning` (the card winning the trick so far), wins it: a higher
    card of its suit, or a trump on a card that is not one (`trump` -1 for botifarra)."""
    s, w = card // 12, winning // 12
    return (s == w and card > winning) or (s == trump and w != trump)


def legal_mask(rules: str, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`botifarra.legal_cards` over masks: the cards of `held` the obligation table allows.

    `led` is the suit led (-1 when the player leads), `winning` the bit of the
    card winning the trick so far, `trump` the trump suit (-1 for botifarra).
    """
    if led < 0:
        return held
    follow = held & SUIT_MASK[led]
    if partner_master:
        pool = follow or held
        return pool if rules == LLIURE else pool & (POINT_MASK | lows(pool))
    above = ~((2 << winning) - 1)
    if follow:
        beaters = follow & above if winning // 12 == led else 0
        if beaters:
            return beaters
        if rules == LLIURE:
            return follow
        low = follow & -follow
        return low if rules == OBLIGADA else follow & (POINT_MASK | low)
    if trump >= 0:
        trumps = held & SUIT_MASK[trump]
        if winning // 12 == trump:
            trumps &= above
        if trumps:
            return trumps
    if rules == LLIURE:
        return held
    low = lows(held)
    return low if rules == OBLIGADA else held & (POINT_MASK | low)


Saved = tuple[int, int, int, int, list[int] | None, int, int]
"""What `undo` needs: the bit, its seat, the winning bit and index before it; for a play that ended a trick, the
trick, the leader before it and the winner's seat (else None, 0, 0)."""


class SearchBotifarra:
    """A Botifarra hand with every card visible (a `SearchPosition`).

    `order` is the seating from the leader of trick 1; `hands` the cards each
    player holds (with two players, the cards in hand); `piles` each player's
    piles, top card first (two players). `trump` is a suit index, None for
    botifarra.
    """

    def __init__(
        self,
        setup: Setup,
        order: list[str],
        trump: int | None,
        hands: dict[str, set[int]],
        piles: dict[str, list[list[int]]] | None = None,
    ) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.two_player = setup.seating.mode == TWO_PLAYER
        self.order = order
        self.n = len(order)
        self.per_trick = self.n
        self.seat = {p: i for i, p in enumerate(order)}
        self.trump = -1 if trump is None else trump
        partners = setup.seating.partners
        self.partner = [next((self.seat[q] for q in partners(p)), -1) for p in order]
        self.under = [0] * 48
        self.hands = [mask_of(hands.get(p, set())) for p in order]
        self.free = list(self.hands)
        for i, p in enumerate(order):
            for pile in (piles or {}).get(p, []):
                if pile:
                    self.free[i] |= 1 << BIT[pile[0]]
                for c in pile:
                    self.hands[i] |= 1 << BIT[c]
                for upper, lower in pairwise(pile):
                    self.under[BIT[upper]] = 1 << BIT[lower]
        self.code = 0
        for i, m in enumerate(self.hands):
            self.code |= m << (_CODE_BITS * i)
        self.live = 0
        for m in self.hands:
            self.live |= m
        self.live_points = sum(POINTS_OF[b] for b in bits(self.live))
        self.leader = 0
        self.trick: list[int] = []
        self.winning = -1
        self.wins_at = 0
        self.card_points = [0] * self.n
        self.tricks = [0] * self.n
        self._undo: list[Saved] = []
        self._solver: Solver | None = None

    # ----------------------------------------------------------------------- Position

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % self.n]

    def _legal_mask(self) -> int:
        trick = self.trick
        seat = (self.leader + len(trick)) % self.n
        if not trick:
            return self.free[seat]
        master = (self.leader + self.wins_at) % self.n
        partner_master = self.partner[seat] == master
        return legal_mask(self.rules, self.trump, trick[0] // 12, self.winning, partner_master, self.free[seat])

    def legal(self) -> list[int]:
        return sorted(CARD[b] for b in bits(self._legal_mask()))

    def forced(self) -> int | None:
        return None

    def play(self, card: int) -> None:
        b = BIT[card]
        trick = self.trick
        n = self.n
        seat = (self.leader + len(trick)) % n
        bb = 1 << b
        self.hands[seat] ^= bb
        self.free[seat] = (self.free[seat] ^ bb) | self.under[b]
        self.code ^= bb << (_CODE_BITS * seat)
        winning, wins_at = self.winning, self.wins_at
        if not trick:
            self.winning, self.wins_at = b, 0
        elif beats(b, winning, self.trump):
            self.winning, self.wins_at = b, len(trick)
        trick.append(b)
        if len(trick) < n:
            self._undo.append((b, seat, winning, wins_at, None, 0, 0))
            return
        winner = (self.leader + self.wins_at) % n
        self._undo.append((b, seat, winning, wins_at, trick, self.leader, winner))
        got = 0
        for c in trick:
            got += POINTS_OF[c]
            self.live ^= 1 << c
        self.card_points[winner] += got
        self.live_points -= got
        self.tricks[winner] += 1
        self.leader = winner
        self.trick = []
        self.winning = -1

    def undo(self) -> None:
        b, seat, self.winning, self.wins_at, trick, leader, winner = self._undo.pop()
        if trick is not None:
            for c in trick:
                self.card_points[winner] -= POINTS_OF[c]
                self.live_points += POINTS_OF[c]
                self.live |= 1 << c
            self.tricks[winner] -= 1
            self.leader = leader
            self.trick = trick
        self.trick.pop()
        bb = 1 << b
        self.hands[seat] |= bb
        self.free[seat] = (self.free[seat] & ~self.under[b]) | bb
        self.code ^= bb << (_CODE_BITS * seat)

    def done(self) -> bool:
        return not self.live

    def spell(self, card: int) -> str:
        return spell(card)

    # ----------------------------------------------------------------------- SearchPosition

    def side(self, player: str) -> frozenset[str]:
        seat = self.seat[player]
        mate = self.partner[seat]
        return frozenset((player,) if mate < 0 else (player, self.order[mate]))

    def points(self, player: str) -> int:
        """The points of `player`'s side so far: card points and one per trick (a point per two tricks with
        two players, before the leftover point)."""
        seat = self.seat[player]
        if self.two_player:
            return self.card_points[seat] + self.tricks[seat] // 2
        mate = self.partner[seat]
        own = self.card_points[seat] + self.tricks[seat]
        return own if mate < 0 else own + self.card_points[mate] + self.tricks[mate]

    def result(self, player: str) -> int:
        if self.two_player:
            cards = {p: self.card_points[i] for i, p in enumerate(self.order)}
            tricks = {p: self.tricks[i] for i, p in enumerate(self.order)}
            return two_player_points(cards, tricks)[player]
        return self.points(player)

    def _state(self) -> int:
        """Every player's cards, the leader and the trick so far, as one number."""
        k = self.code | (self.leader << (4 * _CODE_BITS))
        shift = 4 * _CODE_BITS + 2
        for c in self.trick:
            k |= (c + 1) << shift
            shift += 6
        return k

    def key(self, player: str) -> tuple[object, int]:
        banked = self.points(player)
        if not self.two_player:
            return self._state(), banked
        # Two players: result = x + (1 if both won an odd number of tricks and x <= 35), x the player's card
        # points and points for pairs of tricks at the end (71 in all then, so "the poorer" is x <= 35).
        # x grows from `banked` by what is won from here; the tricks' parity decides the leftover point.
        seat = self.seat[player]
        odd = self.tricks[seat] % 2
        if banked >= 36:
            return (self._state(), odd, -1), banked  # never the poorer: additive
        tricks_left = self.setup.tricks - self.tricks[0] - self.tricks[1]
        can_win = self.live_points + (odd + tricks_left) // 2
        if banked + can_win <= 35:
            return (self._state(), odd, -2), banked  # always the poorer when odd: additive
        return (self._state(), odd, banked), 0

    def cards_left(self) -> int:
        """The cards still to be played."""
        return self.live.bit_count() - len(self.trick)

    def bounds(self, player: str) -> tuple[int, int]:
        """The least and the most `player`'s result can still be: the side's points so far, and those plus every
        point left in play (the cards' and the tricks'; with two players, the pairs' and the leftover point)."""
        banked = self.points(player)
        left = self.live_points
        tricks_left = self.setup.tricks - sum(self.tricks)
        if self.two_player:
            odd = self.tricks[self.seat[player]] % 2
            return banked, banked + left + (odd + tricks_left) // 2 + 1
        return banked, banked + left + tricks_left

    def answer(self, player: str, alpha: int, beta: int) -> int | None:
        """Any window, with three or four players (whose results are additive): the side's banked points plus
        what `Solver` finds it wins from here. None with two players."""
        if self.two_player:
            return None
        if self._solver is None:
            self._solver = Solver(self)
        banked = self.points(player)
        return banked + self._solver.gain(self, self.seat[player], alpha - banked, beta - banked)

    @property
    def bisect(self) -> bool:
        """Whether the search's null windows should halve the interval between two bounds (`analyse.Search.value`)
        rather than start from the bound the last one returned: the solver's fail-soft bounds lie close to the
        window, so MTD(f)'s steps would go down a point at a time."""
        return not self.two_player

    @property
    def answer_nodes(self) -> int:
        """The positions `answer` has visited."""
        return 0 if self._solver is None else self._solver.nodes

    def groups(self) -> list[tuple[int, ...]]:
        """Legal cards in runs: the same suit and points, nothing left in play between them (in a hand or the
        trick), and no pile card under either; the likeliest good runs first (see `order_key`)."""
        legal = bits(self._legal_mask())
        if len(legal) == 1:
            return [(CARD[legal[0]],)]
        live, under = self.live, self.under
        runs: list[list[int]] = [[legal[0]]]
        for a, b in pairwise(legal):
            if (
                a // 12 == b // 12
                and POINTS_OF[a] == POINTS_OF[b]
                and not live & ((1 << b) - (2 << a))
                and not under[a]
                and not under[b]
            ):
                runs[-1].append(b)
            else:
                runs.append([b])
        runs.sort(key=self.order_key)
        return [tuple(CARD[b] for b in run) for run in runs]

    def order_key(self, run: list[int]) -> tuple[int, int]:
        """Which runs to try first: a lead that is the top card left of its suit, the cheapest card that takes
        an opponent's trick, points onto a partner's trick no one left can take; then cheap, low cards."""
        b = run[-1]
        pts = POINTS_OF[b]
        trick = self.trick
        if not trick:
            top = not self.live & SUIT_MASK[b // 12] & ~((2 << b) - 1)
            return (0, -pts) if top else (1, pts * 16 + b % 12)
        seat = (self.leader + len(trick)) % self.n
        master = (self.leader + self.wins_at) % self.n
        if self.partner[seat] == master:
            return (0, -pts) if self._safe(seat) else (1, pts * 16 + b % 12)
        b = run[0]
        if beats(b, self.winning, self.trump):
            if len(trick) == self.n - 1:
                return (0, -pts)
            return (0, (b // 12 == self.trump) * 16 + b % 12)
        return (1, pts * 16 + b % 12)

    def _safe(self, seat: int) -> bool:
        """Whether no player after `seat` in this trick can take the card winning it (by the cards they hold)."""
        w = self.winning
        led = self.trick[0] // 12
        trump = self.trump
        for k in range(len(self.trick) + 1, self.n):
            held = self.free[(self.leader + k) % self.n]
            follow = held & SUIT_MASK[led]
            if follow:
                if w // 12 == led and follow & ~((2 << w) - 1):
                    return False
            elif (
                trump >= 0
                and held & SUIT_MASK[trump]
                and (w // 12 != trump or held & SUIT_MASK[trump] & ~((2 << w) - 1))
            ):
                return False
        return True


# --------------------------------------------------------------------------- a recorded hand


def known_cards(
    setup: Setup, hand: Hand, order: list[str], played: dict[str, list[int]], complete: bool
) -> tuple[dict[str, set[int]], dict[str, list[list[int]]]] | str:
    """Each player's cards in hand and piles at the start of play, or why they are not all known.

    Three or four players: the `deal` line; else, in a complete hand, the cards
    the player plays; else, when every other player's cards are known, the rest
    of the deck. Two players: every pile from its `deal NAME.P` line (the order
    matters and the plays do not show it) and the cards in hand from the `deal
    NAME` line, or in a complete hand the cards played from outside the piles.
    """
    if setup.two_player:
        piles = _piles(setup, hand)
        short = [p for p in order if p not in piles or len(piles[p].piles) != setup.piles]
        if short:
            return f"the piles are not all recorded (no `deal NAME.P` lines for every pile of {', '.join(short)})"
        in_hand = _hand_cards(setup, hand)
        held: dict[str, set[int]] = {}
        for p in order:
            on_piles = {c for pile in piles[p].piles for c in pile}
            if p in in_hand or not setup.in_hand:
                held[p] = in_hand.get(p, set())
            elif complete:
                held[p] = set(played[p]) - on_piles
            else:
                return f"the cards still to be played are not all known: no `deal {p}` line for the cards in hand"
        stacks = {p: [list(pile) for pile in piles[p].piles] for p in order}
        return held, stacks
    dealt = after_exchange(hand, setup.resolve)
    held = {p: dealt[p] for p in order if p in dealt}
    missing = [p for p in order if p not in held]
    if missing and complete:
        for p in missing:
            held[p] = set(played[p])
    elif len(missing) == 1:
        others: set[int] = set().union(*held.values())
        held[missing[0]] = set(setup.cards) - others
    elif missing:
        why = "the hand is not complete and " + (
            f"has no deal lines for {', '.join(missing)}" if hand.deals else "has no deal lines"
        )
        return f"the cards still to be played are not all known: {why}"
    return held, {}


def played_hand(setup: Setup, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (every card) and its plays, or why it cannot be analysed."""
    calls = judge_calls([c for c, _ in call_lines(setup, hand)], dealer, setup.seating)
    if not calls.named:
        return "no trump line names a suit: without a trump the tricks cannot be judged"
    order = turn_order(setup.players, dealer)

    def settle(played: Played) -> int:
        return trick_winner(played.cards, calls.trump)

    walk = walk_tricks(hand, order, len(order), setup.resolve, settle)
    plays = walk.numbered_plays()
    complete = walk.whole and len(walk.tricks) == setup.tricks
    played: dict[str, list[int]] = {p: [] for p in order}
    for _, p, c in plays:
        played[p].append(c)
    found = known_cards(setup, hand, order, played, complete)
    if isinstance(found, str):
        return found
    held, piles = found
    sizes = {p: len(held[p]) + sum(len(pile) for pile in piles.get(p, [])) for p in order}
    if set(sizes.values()) != {setup.tricks}:
        shown = ", ".join(f"{p} {k}" for p, k in sizes.items())
        return f"the cards known do not give every player {setup.tricks} cards ({shown})"
    every = [c for p in order for c in [*held[p], *(c for pile in piles.get(p, []) for c in pile)]]
    if len(set(every)) != len(every):
        return "the cards known give the same card to two players"
    position = SearchBotifarra(setup, order, calls.trump, held, piles)
    return PlayedHand(position, plays, walk.stop_note(hand), MARKS)


def searchable(ruleset: Botifarra, game: Game, hand_number: int) -> PlayedHand | str:
    """`played_hand` for hand `hand_number` of `game` (or why it cannot be analysed)."""
    setup = ruleset.table(game)
    if setup is None:
        return "imptools cannot judge this game (players or variant)"
    found = ruleset.hand_and_dealer(game, setup, hand_number)
    return found if isinstance(found, str) else played_hand(setup, *found)


# --------------------------------------------------------------------------- the solver


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
    bound and the best card) keyed at each trick's start by every hand, the cards without points reduced to
    their ranks among the cards still in play (the point cards, the top five of a suit, keep their places:
    their points tell them apart), and the leader; inside a trick, by that key and the cards lying in the
    trick, in the same ranks. With two sides of two the points of one side from a position are the points left
    less the other's, so one table serves both. At each trick's start the search is bounded by the points
    left, the sure tricks the leader's side can cash (`sure`) and each side's master trumps (`ruffs`).
    Equivalent cards (same suit and points, nothing in play between) are tried once; the order is the table's
    card, then the cheapest card that takes an opponent's trick, points onto a partner's trick no one can take,
    masters when leading, low cards else (`order`). The tables are kept for the whole hand, one per side (two
    generations of `cap` entries, as `analyse.TABLE_CAP`); `nodes` counts the positions visited.
    """

    def __init__(self, pos: SearchBotifarra, cap: int = SOLVER_CAP) -> None:
        self.n = pos.n
        self.rules = pos.rules
        self.trump = pos.trump
        self.trump_mask = SUIT_MASK[pos.trump] if pos.trump >= 0 else 0
        self.partner = pos.partner
        self.cap = cap if pos.partner[0] >= 0 else max(1, cap // pos.n)
        self.tables: dict[int, list[dict[int, tuple[int, int, int]]]] = {}
        self.nodes = 0
        # the search's state, set by `gain`
        self.hands: list[int] = []
        self.side = 0
        self.flip = False
        self.live = 0
        self.live_points = 0
        self.gens: list[dict[int, tuple[int, int, int]]] = [{}, {}]

    def gain(self, pos: SearchBotifarra, seat: int, alpha: int, beta: int) -> int:
        """The points `seat`'s side wins from `pos` on: exact inside (alpha, beta), else a bound on the side that
        fails (fail-soft)."""
        n = self.n
        mate = self.partner[seat]
        side = 1 << seat | (1 << mate if mate >= 0 else 0)
        self.side = side
        self.flip = flip = mate >= 0 and not side & 1
        self.gens = self.tables.setdefault(side ^ ((1 << n) - 1) if flip else side, [{}, {}])
        self.hands = list(pos.hands)
        self.live = pos.live
        self.live_points = pos.live_points
        trick = pos.trick
        pts = 0
        tmask = 0
        for c in trick:
            pts += POINTS_OF[c]
            tmask |= 1 << c
        led = trick[0] // 12 if trick else -1
        return self.node(len(trick), pos.leader, pos.winning, pos.wins_at, led, pts, tmask, alpha, beta, -1)

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
        each."""
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
        """Points each side (the searching side, the other) is sure of from its trumps: a player's trumps above
        every trump the other side holds each win a trick of their own (he plays one a trick, and a trick he
        plays one in goes to his side), worth a point and the card's at least; the better of two partners
        counts."""
        side = self.side
        trump_mask = self.trump_mask
        ours = theirs = 0
        for i, h in enumerate(self.hands):
            if side >> i & 1:
                ours |= h & trump_mask
            else:
                theirs |= h & trump_mask
        mine_t = theirs_t = 0
        for i, h in enumerate(self.hands):
            t = h & trump_mask
            if not t:
                continue
            mine = side >> i & 1
            b = (theirs if mine else ours).bit_length()
            t >>= b
            got = 0
            while t:
                if t & 1:
                    got += 1 + POINTS_OF[b]
                t >>= 1
                b += 1
            if mine:
                mine_t = got if got > mine_t else mine_t
            else:
                theirs_t = got if got > theirs_t else theirs_t
        return mine_t, theirs_t

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
        out: list[tuple[int, int]] = []
        if k == 0:
            for b in reps:
                top = not lv & SUIT_MASK[b // 12] & ~((2 << b) - 1)
                out.append((-64 - POINTS_OF[b] if top else POINTS_OF[b] * 16 + b % 12, b))
        else:
            mine = self.partner[seat] == (lead + wat) % n
            safe = mine and _safe(self.hands, n, self.trump, lead, k, win, led)
            for b in reps:
                p = POINTS_OF[b]
                if mine:
                    score = -64 - p if safe else p * 16 + b % 12
                elif beats(b, win, self.trump):
                    score = -64 - p if k == n - 1 else -64 + (b // 12 == self.trump) * 16 + b % 12
                else:
                    score = p * 16 + b % 12
                out.append((score, b))
        out.sort()
        return [b for _, b in out]

    def node(
        self, k: int, lead: int, win: int, wat: int, led: int, pts: int, tmask: int, alpha: int, beta: int, key: int
    ) -> int:
        """The points the side wins from here, `k` cards lying in the trick (`pts` their points, `tmask` their
        bits, `win` the winning one, the `wat`-th played), fail-soft in (alpha, beta); `key` the position's key
        in the table (-1 for none: a trick begun before the search)."""
        self.nodes += 1
        n = self.n
        hands = self.hands
        side = self.side
        trump = self.trump
        gens = self.gens
        lo = 0
        hi = 0
        first = -1
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
            e = gens[0].get(key) or gens[1].get(key)
            if e is not None:
                elo, ehi, first = e
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
        elif key >= 0:
            hi = self.live_points + self.live.bit_count() // n
            e = gens[0].get(key) or gens[1].get(key)
            if e is not None:
                elo, ehi, first = e
                if self.flip:
                    elo, ehi = hi - ehi, hi - elo
                if elo > lo:
                    lo = elo
                if ehi < hi:
                    hi = ehi
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
        seat = (lead + k) % n
        held = hands[seat]
        if k == 0:
            legal = held
        else:
            legal = legal_mask(self.rules, trump, led, win, self.partner[seat] == (lead + wat) % n, held)
        lv = self.live
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
                v = add + self.node(0, winner, -1, 0, -1, 0, 0, a - add, bt - add, 0)
                self.live ^= tm
                self.live_points += got - 1
            else:
                if key >= 0:
                    r = b % 12
                    place = r if r >= 7 else ((lv >> (b - r)) & ((1 << r) - 1)).bit_count()
                    ck = (key << 6) | (b - r + place + 1)
                else:
                    ck = -1
                v = self.node(k + 1, lead, nw, nwat, nled, pts + POINTS_OF[b], tmask | bb, a, bt, ck)
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
                table[key] = (total - hi, total - lo, move)
            else:
                table[key] = (lo, hi, move)
            if len(table) > self.cap:
                gens[1], gens[0] = table, {}
        return best


def _safe(hands: list[int], n: int, trump: int, lead: int, k: int, win: int, led: int) -> bool:
    """Whether no player after the `k`-th of the trick (led in suit `led`) can take its winning card `win` (by
    the cards they hold)."""
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    above = ~((2 << win) - 1)
    wsuit = win // 12
    for j in range(k + 1, n):
        held = hands[(lead + j) % n]
        follow = held & SUIT_MASK[led]
        if follow:
            if wsuit == led and follow & above:
                return False
        elif held & trump_mask and (wsuit != trump or held & trump_mask & above):
            return False
    return True
