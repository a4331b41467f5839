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
can still go either way, his points so far). `answer` hands every window to a
compiled solver: `Solver` with three or four players, `Duel` with two
(which searches a sum the two-player count rises with): `cduel.Duel`, its port to C,
where the build made it, else `duel.Duel`.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from imptools.record import Game, Hand
from imptools.rules.base import PlayedHand, bits
from imptools.rules.botifarra.calls import TWO_PLAYER, judge_calls
from imptools.rules.botifarra.cards import spell, trick_winner
from imptools.rules.botifarra.duel import DUEL_SLOTS, count_of, least_sum
from imptools.rules.botifarra.masks import BIT, CARD, POINTS_OF, SUIT_MASK, beats, legal_mask, lows, mask_of
from imptools.rules.botifarra.ruleset import Botifarra, call_lines, hand_cards, hand_piles
from imptools.rules.botifarra.scoring import two_player_points
from imptools.rules.botifarra.setup import Setup
from imptools.rules.botifarra.solver import SOLVER_CAP, Solver
from imptools.rules.tricks import Played, after_exchange, turn_order, walk_tricks

if TYPE_CHECKING:
    from imptools.rules.botifarra.csolver import Solver as NativeSolver

try:  # the solvers written in C (cduel.c, csolver.c: hatch_build.py `NATIVE`, built together or not at all)
    from imptools.rules.botifarra.cduel import Duel
    from imptools.rules.botifarra.csolver import Solver as _Native

    NATIVE_SOLVER: type[NativeSolver] | None = _Native
    """`csolver.Solver` where it was built (a port of `Solver` that visits the same positions), else None."""
except ImportError:  # an editable or pure install: the Python classes they port
    from imptools.rules.botifarra.duel import Duel  # type: ignore[assignment]

    NATIVE_SOLVER = None

__all__ = [
    "BIT",
    "CARD",
    "POINTS_OF",
    "SUIT_MASK",
    "Duel",
    "SearchBotifarra",
    "Solver",
    "beats",
    "legal_mask",
    "lows",
    "mask_of",
    "new_solver",
]

_CODE_BITS = 48
"""Bits a seat's cards take in the key."""

_RECALL_PLIES = 8
"""How many plays back `answer` looks for a valued position whose bounds pass to this one (`_known`)."""

INF = 1 << 40
"""Beyond any result (as `analyse.INF`)."""

MARKS = (5, 15)
"""A play that costs 5 points or more is `?`, 15 or more `??` (see docs/ANALYSIS.md)."""


PARTITION = False
"""Whether `new_solver` keeps partition entries where its caller does not say (the classes' default: off, as
docs/PERFORMANCE.md measures them); the benches set it (`bench_botifarra.py --partition`)."""


CAP: int | None = None
"""The entries a generation of `new_solver`'s tables holds (None: the classes' default, `solver.SOLVER_CAP`, which
the C port shares); the benches set it (`bench_botifarra.py --cap`), for both classes alike."""

DUEL_MOST: int | None = None
"""The most slots of `Duel`'s table (None: the classes' default, `duel.DUEL_SLOTS`); the benches set it
(`bench_botifarra.py --duel-slots`)."""

DUEL_EXACT: int = 1 << 26
"""The most trick starts whose exact values `cduel.Duel` works out before it searches (one byte each: 64 MB at the
most): every one of a `rector-vicar` hand (some 39M from trick 1); a `piles-and-hand` one has too many until its last
tricks (docs/PERFORMANCE.md). The Python class keeps no such table (the same values, more positions searched); a
position takes it when it is made (`exact_most`), and the benches set it (`bench_botifarra.py --duel-exact`, 0 for
none)."""


def new_solver(rules: str, trump: int, partner: list[int], partition: bool | None = None) -> Solver | NativeSolver:
    """The solver `answer` asks: the one written in C where it was built, else the Python class (the same positions,
    values and `nodes`: tests/test_native_solver.py); `partition` on or off, else `PARTITION`; the capacity `CAP`."""
    part = PARTITION if partition is None else partition
    cap = SOLVER_CAP if CAP is None else CAP
    if NATIVE_SOLVER is not None:
        return NATIVE_SOLVER(rules, trump, partner, cap=cap, partition=part)
    return Solver(rules, trump, partner, cap=cap, partition=part)


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
        self._solver: Solver | NativeSolver | None = None
        self._duel_solver: Duel | None = None
        self._released = 0
        """The positions the solvers dropped by `release` had visited."""
        self.exact_most = DUEL_EXACT
        """The most exact values its two-player solver works out (`DUEL_EXACT`; 0 for none: `knowing`'s worlds)."""
        self._roots: dict[tuple[int, int], tuple[int, int]] = {}
        """Bounds on each side's result from the positions `answer` has valued (`_remember`)."""

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

    def legal_from(self, cards: list[int]) -> list[int]:
        """The cards the player to move could play if he held `cards` (what a past play proves he did not hold)."""
        trick = self.trick
        if not trick:
            return sorted(cards)
        seat = (self.leader + len(trick)) % self.n
        master = (self.leader + self.wins_at) % self.n
        held = mask_of(set(cards))
        rule = legal_mask(self.rules, self.trump, trick[0] // 12, self.winning, self.partner[seat] == master, held)
        return sorted(CARD[b] for b in bits(rule))

    def playable(self) -> list[int]:
        """The cards the player to move could play, rules aside: his hand and, with two players, his piles' top
        cards (what a past play's legality depends on, for `imptools.worlds`)."""
        return sorted(CARD[b] for b in bits(self.free[(self.leader + len(self.trick)) % self.n]))

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
        """Any window: with three or four players (whose results are additive) the side's banked points plus
        what `Solver` finds it wins from here; with two players the count of the sum `Duel` finds (`_duel`)."""
        if self.two_player:
            return self._duel(player, alpha, beta)
        if self._solver is None:
            self._solver = new_solver(self.rules, self.trump, self.partner)
        seat = self.seat[player]
        side = self._side_bits(player)
        lo, hi = self._known(side)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        banked = self.points(player)
        got = banked + self._solver.gain(
            self.hands,
            self.live,
            self.live_points,
            self.leader,
            self.trick,
            self.winning,
            self.wins_at,
            seat,
            alpha - banked,
            beta - banked,
        )
        return self._settle(side, got, got <= alpha, got >= beta, lo, hi)

    def _duel(self, player: str, alpha: int, beta: int) -> int:
        """`answer` with two players: the window on the count made a window on the sum it rises with (twice the
        card points and the tricks, `duel.least_sum`), the sum searched by `Duel`, its result counted back."""
        if self._duel_solver is None:
            most = DUEL_SLOTS if DUEL_MOST is None else DUEL_MOST
            if NATIVE_SOLVER is None:
                self._duel_solver = Duel(self.rules, self.trump, self.under, most)
            else:
                self._duel_solver = Duel(self.rules, self.trump, self.under, most, exact=self.exact_most)
        seat = self.seat[player]
        side = 1 << seat
        lo, hi = self._known(side)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        tricks = sum(self.tricks) + self.live.bit_count() // 2
        total = 2 * (self.live_points + sum(self.card_points)) + tricks
        first = seat == 0
        banked = 2 * self.card_points[seat] + self.tricks[seat]
        low = least_sum(total, tricks, first, alpha + 1) - 1 if alpha > -INF else -INF
        high = least_sum(total, tricks, first, beta) if beta < INF else INF
        duel = self._duel_solver
        got = banked + duel.gain(
            self.hands,
            self.free,
            self.live,
            self.live_points,
            self.leader,
            self.trick,
            seat,
            low - banked,
            high - banked,
        )
        count = count_of(total, tricks, first, min(max(got, 0), total))
        return self._settle(side, count, got <= low, got >= high, lo, hi)

    def _settle(self, side: int, value: int, failed_low: bool, failed_high: bool, lo: int, hi: int) -> int:
        """A window's answer kept with the bounds `lo`, `hi` already known for `side`: an upper bound where the
        search failed low, a lower bound where it failed high, else the exact value; the tighter of it and the
        known bound is returned."""
        if failed_low:
            hi = value if value < hi else hi
            value = hi
        elif failed_high:
            lo = value if value > lo else lo
            value = lo
        else:
            lo = hi = value
        self._remember(side, lo, hi)
        return value

    def known_bounds(self, player: str) -> tuple[int, int]:
        """Bounds on `player`'s value from here that the analysis already knows (`_known`), -INF and INF else."""
        return self._known(self._side_bits(player))

    def keep_bounds(self, player: str, lo: int, hi: int) -> None:
        """Keep bounds the analysis found on `player`'s value from here (-INF or INF where it found none)."""
        side = self._side_bits(player)
        was_lo, was_hi = self._recall(side)
        self._remember(side, lo if lo > was_lo else was_lo, hi if hi < was_hi else was_hi)

    def _side_bits(self, player: str) -> int:
        seat = self.seat[player]
        mate = self.partner[seat]
        return 1 << seat | (1 << mate if mate >= 0 else 0)

    def _two_sides(self) -> bool:
        """Whether the players make two sides whose results add up to the same total (`_total`) however the hand
        goes: a partnership, or two players."""
        return self.partner[0] >= 0 or self.two_player

    def _total(self) -> int:
        """Every point of the hand: the cards' and one per trick (with two players, one per two tricks: the
        leftover point goes to one of them); the two sides' results add up to it. The tricks are those of the cards
        dealt to this position, which are a whole hand's only where it starts at a hand's start."""
        tricks = sum(self.tricks) + self.live.bit_count() // self.n  # the deal's tricks: a whole hand's, or fewer
        per_tricks = tricks // 2 if self.two_player else tricks
        return self.live_points + sum(self.card_points) + per_tricks

    def _remember(self, side: int, lo: int, hi: int) -> None:
        """Keep bounds on `side`'s result from this position (with two sides, as the first seat's side's)."""
        if lo <= -INF and hi >= INF:
            return
        if self._two_sides() and not side & 1:
            total = self._total()
            lo, hi = total - hi, total - lo
            side ^= (1 << self.n) - 1
        self._roots[(self._state(), side)] = (lo, hi)

    def _recall(self, side: int) -> tuple[int, int]:
        """The bounds kept on `side`'s result from this position (as `_remember` keeps them)."""
        flip = self._two_sides() and not side & 1
        found = self._roots.get((self._state(), side ^ ((1 << self.n) - 1) if flip else side))
        if found is None:
            return -INF, INF
        lo, hi = found
        if flip:
            total = self._total()
            lo, hi = total - hi, total - lo
        return (lo if lo > -INF // 2 else -INF), (hi if hi < INF // 2 else INF)

    def _known(self, side: int) -> tuple[int, int]:
        """Bounds on `side`'s result from here, from the positions the analysis has valued: this one, and those
        the plays before it came from. A card played by `side` leaves its result at most what it was before the
        card (the side chose it among others), a card played against it at least; one chain of the one kind
        passes a bound on; where the player had one choice (equivalent cards), both bounds pass."""
        lo, hi = self._recall(side)
        if lo == hi:
            return lo, hi
        undone: list[int] = []
        up = down = True
        while self._undo and (up or down) and len(undone) < _RECALL_PLIES:
            b, seat = self._undo[-1][0], self._undo[-1][1]
            self.undo()
            undone.append(CARD[b])
            plo, phi = self._recall(side)
            if len(self.groups()) == 1:
                pass  # one choice: the position before is worth what this one is
            elif side >> seat & 1:
                down = False  # chosen by the side: at most what it was
            else:
                up = False  # chosen against it: at least what it was
            if up and phi < hi:
                hi = phi
            if down and plo > lo:
                lo = plo
        for c in reversed(undone):
            self.play(c)
        return lo, hi

    @property
    def bisect(self) -> bool:
        """Whether the search's null windows should halve the interval between two bounds (`search.Search.value`)
        rather than start from the bound the last one returned: the solver's fail-soft bounds lie close to the
        window, so MTD(f)'s steps would go down a point at a time."""
        return True

    def release(self) -> None:
        """Drop the solvers' tables and the bounds kept (`search.Search.close`): a trump table's option searched,
        its `Duel` (up to 384 MB) is freed at once, before the next option's grows. The positions visited stay
        counted (`answer_nodes`); a later `answer` starts a fresh solver."""
        self._released = self.answer_nodes
        self._duel_solver = None
        self._solver = None
        self._roots.clear()

    @property
    def answer_nodes(self) -> int:
        """The positions `answer` has visited."""
        duel = 0 if self._duel_solver is None else self._duel_solver.nodes
        return self._released + duel + (0 if self._solver is None else self._solver.nodes)

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
        piles = hand_piles(setup, hand)
        short = [p for p in order if p not in piles or len(piles[p].piles) != setup.piles]
        if short:
            return f"the piles are not all recorded (no `deal NAME.P` lines for every pile of {', '.join(short)})"
        in_hand = hand_cards(setup, hand)
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

    walk = walk_tricks(hand, order, len(order), setup.resolve, settle, setup.filler(hand))
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
    return PlayedHand(position, plays, walk.stop_note(), MARKS)


def searchable(ruleset: Botifarra, game: Game, hand_number: int) -> PlayedHand | str:
    """`played_hand` for hand `hand_number` of `game` (or why it cannot be analysed)."""
    setup = ruleset.table(game)
    if setup is None:
        return "imptools cannot judge this game (players or variant)"
    found = ruleset.hand_and_dealer(game, setup, hand_number)
    return found if isinstance(found, str) else played_hand(setup, *found)
