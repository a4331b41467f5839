"""Ninety-nine for a game-tree search: a fast position and the hand a record shows, ready to analyse.

`SearchNinetyNine` keeps each player's cards as a bit mask (bit `c` for engine
card `c`), so `play` and `undo` are a few integer operations. The joker held in
a hand is the turn-up in every respect and the turn-up itself is never held, so
inside the masks the joker takes the turn-up's bit; it is spelt and exchanged
as the joker (`JOKER`) everywhere outside. Following suit and the trick's winner
are `legal_cards` and `trick_winner` re-expressed on the masks (a test proves
them equal on many random positions); a result is the checker's own
`score_hand`.

What a player's result depends on (see `SearchPosition.key`): his hand score is
his tricks, plus the bonus for taking exactly the bid (which depends on how
many players take theirs) and the call's premium (which depends on whether the
declarer takes his). So from any point it is his tricks so far plus a function
of the cards left (only their order within each suit matters, not which cards
have gone), the leader, the trick so far and the tricks players still need for
their bids, a need that cannot be met any more (more tricks taken than bid, or
more needed than are left) counting as one value; once his own need is dead,
only the declarer's matters to him.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from itertools import combinations
from typing import Final

from imptools.record import Game, Hand
from imptools.rules.base import Decision, Option, PlayedHand, Searchable, bits
from imptools.rules.ninety_nine.bids import bid_value
from imptools.rules.ninety_nine.cards import BID_CARDS, DEALT, JOKER, PLAYERS, TRICKS, parse, spell, trump_of
from imptools.rules.ninety_nine.ruleset import NinetyNine
from imptools.rules.ninety_nine.scoring import CALL_BONUS, EXACT_BONUS, Declaration, score_hand
from imptools.rules.ninety_nine.setup import Deck, Setup
from imptools.rules.report import Reporter
from imptools.rules.tricks import Played, turn_order, walk_tricks

MARKS: Final = (5, 30)
"""A play that costs 5 points or more is `?`, 30 or more `??` (see docs/ANALYSIS.md)."""

SUIT_MASK: Final = tuple(((1 << 9) - 1) << (9 * s) for s in range(4))
"""The bits of each suit's nine cards."""

DEAD: Final = -1
"""The need of a player who can no longer take exactly his bid (or whose bid is unknown)."""

INF: Final = 1 << 40
"""Beyond any result (as `imptools.search.INF`)."""

ANSWER_CAP: Final = 1_000_000
"""Entries in a player's table of `answer` before it becomes the older generation (as `imptools.search.TABLE_CAP`)."""

BOUND_BITS: Final = 24
"""Bits for each bound of an entry of `answer`'s table: a bound relative to the player's tricks plus `BIAS`, 0 for
no lower bound and `NO_UPPER` for no upper bound."""

BIAS: Final = 1 << 20
"""Added to a bound where it is packed (results lie far inside plus or minus this)."""

NO_UPPER: Final = (1 << BOUND_BITS) - 1

EMPTY: Final = NO_UPPER << 8
"""No entry: neither bound, no best card (the card's byte is the best card plus one)."""

Saved = tuple[int, tuple[int, ...], int, tuple[int, ...], tuple[tuple[int, ...], ...]] | None
"""What `undo` needs after a trick was settled (the leader, the trick, its winner's seat, the needs before it);
None within a trick."""


def _relative() -> list[int]:
    """`table[live << 9 | cards]`: the cards of one suit (a subset of the suit's live cards) as ranks among the
    live ones, the lowest live card becoming bit 0."""
    table = [0] * (1 << 18)
    for live in range(512):
        ranks = [r for r in range(9) if live >> r & 1]
        sub = live
        while True:
            table[live << 9 | sub] = sum(1 << i for i, r in enumerate(ranks) if sub >> r & 1)
            if not sub:
                break
            sub = (sub - 1) & live
    return table


_RELATIVE: Final = _relative()


class AnswerTables:
    """What `SearchNinetyNine.answer` keeps for each player, by seat: his table's two generations (the newer first)
    and his history count of the cards that were best."""

    def __init__(self) -> None:
        self.tables: dict[int, list[dict[int, int]]] = {}
        self.history: dict[int, dict[int, int]] = {}


class SearchNinetyNine:
    """A Ninety-nine hand with every card visible (a `SearchPosition`).

    `order` is the seating from the leader of the first trick still to play;
    `hands` each player's cards still to play (engine cards, the joker as
    `JOKER`); `bids` each player's bid (None: unknown, never made); `call` the
    hand's declaration or revelation; `won` the tricks already taken.
    """

    def __init__(
        self,
        order: Sequence[str],
        hands: Mapping[str, Iterable[int]],
        turnup: int,
        bids: Mapping[str, int | None],
        call: Declaration | None = None,
        won: Mapping[str, int] | None = None,
    ) -> None:
        self.order = tuple(order)
        self.seat = {p: i for i, p in enumerate(self.order)}
        self.per_trick = PLAYERS
        self.turnup = turnup
        self.trump = -1 if (t := trump_of(turnup)) is None else t
        self.joker_bit = turnup
        """The bit the joker takes in the masks: the turn-up's (never held)."""
        self.lead_order = tuple(sorted((27, 18, 9, 0), key=lambda shift: shift != 9 * self.trump))
        """The suits' bit offsets as a leader's cards are ordered: trumps first, then clubs down to diamonds."""
        self.hands = [sum(1 << self._bit(c) for c in hands[p]) for p in self.order]
        self.bids = tuple(bids.get(p) for p in self.order)
        self.call = call
        self._declarer = -1 if call is None else self.seat.get(call.player, -1)
        """The declarer's seat (-1: no declaration counts), and what his declaration is worth."""
        self._worth = 0 if call is None else CALL_BONUS[call.kind]
        self.won = [0 if won is None else won.get(p, 0) for p in self.order]
        self.leader = 0
        self.trick: list[int] = []
        self.left = (sum(h.bit_count() for h in self.hands) + PLAYERS - 1) // PLAYERS
        """Tricks not yet complete."""
        self._undo: list[Saved] = []
        self.needs: tuple[int, ...] = ()
        self.depends: tuple[tuple[int, ...], ...] = ()
        self._needs: dict[int, tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}
        self._set_needs()
        self._scores: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._runs: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._answers = AnswerTables()
        self.answer_nodes = 0
        """The positions `answer` visited below the windows it was asked (`imptools.search.Search.positions`)."""

    def _bit(self, card: int) -> int:
        return self.joker_bit if card == JOKER else card

    def _card(self, bit: int) -> int:
        return JOKER if bit == self.joker_bit and bit != JOKER else bit

    # ----------------------------------------------------------------------- Position

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % PLAYERS]

    def _legal_mask(self) -> int:
        held = self.hands[(self.leader + len(self.trick)) % PLAYERS]
        if self.trick:
            same = held & SUIT_MASK[self.trick[0] // 9]
            if same:
                return same
        return held

    def legal(self) -> list[int]:
        return sorted(self._card(b) for b in bits(self._legal_mask()))

    def legal_from(self, cards: list[int]) -> list[int]:
        """The cards the player to move could play if he held `cards` (what a past play proves he did not hold)."""
        held = 0
        for c in cards:
            held |= 1 << self._bit(c)
        if self.trick:
            same = held & SUIT_MASK[self.trick[0] // 9]
            if same:
                held = same
        return sorted(self._card(b) for b in bits(held))

    def forced(self) -> int | None:
        return None

    def play(self, card: int) -> None:
        bit = self.joker_bit if card == JOKER else card
        trick = self.trick
        self.hands[(self.leader + len(trick)) % PLAYERS] ^= 1 << bit
        trick.append(bit)
        if len(trick) < PLAYERS:
            self._undo.append(None)
            return
        win = self.winner(trick)
        seat = (self.leader + win) % PLAYERS
        self._undo.append((self.leader, tuple(trick), seat, self.needs, self.depends))
        won = self.won
        won[seat] += 1
        self.leader = seat
        self.trick = []
        self.left -= 1
        found = self._needs.get((won[0] << 12) | (won[1] << 8) | (won[2] << 4) | self.left)
        if found is None:
            self._set_needs()
        else:
            self.needs, self.depends = found

    def winner(self, trick: Sequence[int]) -> int:
        """The index of the winning card of a full trick (bits): the highest trump, else the highest of the suit led."""
        trump = self.trump
        best = 0
        top = trick[0]
        top_suit = top // 9
        for i in range(1, len(trick)):
            c = trick[i]
            s = c // 9
            if (s == top_suit and c > top) or (s == trump and top_suit != trump):
                best, top, top_suit = i, c, s
        return best

    def undo(self) -> None:
        saved = self._undo.pop()
        if saved is None:
            bit = self.trick.pop()
        else:
            self.leader, trick, seat, self.needs, self.depends = saved
            self.won[seat] -= 1
            self.left += 1
            self.trick = list(trick)
            bit = self.trick.pop()
        self.hands[(self.leader + len(self.trick)) % PLAYERS] |= 1 << bit

    def done(self) -> bool:
        return not self.trick and not any(self.hands)

    def spell(self, card: int) -> str:
        return spell(card)

    # ----------------------------------------------------------------------- SearchPosition

    def side(self, player: str) -> frozenset[str]:
        return frozenset((player,))

    def scores(self) -> tuple[int, ...]:
        """Each seat's hand score for the tricks taken so far, by the checker's `score_hand` (remembered per count)."""
        won = tuple(self.won)
        found = self._scores.get(won)
        if found is None:
            sheet = score_hand(self.order, dict(zip(self.order, self.bids)), dict(zip(self.order, won)), self.call)
            found = self._scores[won] = tuple(sheet[p].total for p in self.order)
        return found

    def result(self, player: str) -> int:
        return self.scores()[self.seat[player]]

    def _set_needs(self) -> None:
        """Each seat's tricks still needed for the bid (`DEAD` when that cannot happen any more), and the needs each
        seat's result depends on: all of them while his own is alive (how many take their bids sets his bonus), else
        only the declarer's (whose failure pays him the premium), else none."""
        left = self.left
        needs = []
        for bid, taken in zip(self.bids, self.won):
            need = DEAD if bid is None else bid - taken
            needs.append(need if 0 <= need <= left else DEAD)
        self.needs = tuple(needs)
        declarer = -1 if self.call is None else self.seat.get(self.call.player, -1)
        dead: tuple[int, ...] = () if declarer < 0 else (needs[declarer],)
        self.depends = tuple(
            self.needs if need != DEAD else () if seat == declarer else dead for seat, need in enumerate(needs)
        )
        won = self.won
        self._needs[(won[0] << 12) | (won[1] << 8) | (won[2] << 4) | left] = (self.needs, self.depends)

    def key(self, player: str) -> tuple[object, int]:
        """Each suit's live cards by owner in relative rank (which cards have gone does not matter, only the order of
        those left), the leader, the trick so far (its cards' suits and relative ranks) and every seat's need; P's
        tricks are banked."""
        h0, h1, h2 = self.hands
        trick = self.trick
        live = h0 | h1 | h2
        for b in trick:
            live |= 1 << b
        r = _RELATIVE
        seat = self.seat[player]
        s0 = (live & 511) << 9
        s1 = (live >> 9 & 511) << 9
        s2 = (live >> 18 & 511) << 9
        s3 = (live >> 27 & 511) << 9
        state: tuple[object, ...] = (
            self.leader,
            self.depends[seat],
            r[s0 | h0 & 511],
            r[s0 | h1 & 511],
            r[s0 | h2 & 511],
            r[s1 | h0 >> 9 & 511],
            r[s1 | h1 >> 9 & 511],
            r[s1 | h2 >> 9 & 511],
            r[s2 | h0 >> 18 & 511],
            r[s2 | h1 >> 18 & 511],
            r[s2 | h2 >> 18 & 511],
            r[s3 | h0 >> 27 & 511],
            r[s3 | h1 >> 27 & 511],
            r[s3 | h2 >> 27 & 511],
        )
        if trick:
            for b in trick:
                shift = b - b % 9
                state += (shift * 64 + r[(live >> shift & 511) << 9 | 1 << (b - shift)],)
        return state, self.won[seat]

    def bounds(self, player: str) -> tuple[int, int]:
        """The least and the most `player`'s result can still be: his tricks, and at most all those left; the bonus
        for his bid while he can still take it exactly; the declaration's worth where it is certainly his (the
        declarer can no longer take his bid) or may still be."""
        return self._bounds(self.seat[player])

    def _bounds(self, seat: int) -> tuple[int, int]:
        """`bounds` of the player at `seat`."""
        won = self.won[seat]
        most = won + self.left
        declarer = self._declarer
        call = 0 if declarer < 0 or (declarer == seat and self.needs[seat] == DEAD) else self._worth
        low = won + call if declarer >= 0 and declarer != seat and self.needs[declarer] == DEAD else won
        need = self.needs[seat]
        if need == DEAD:
            return low, most + call
        return low, max(won + need + EXACT_BONUS[1], most) + call

    def groups(self) -> list[tuple[int, ...]]:
        """Legal cards in runs: the same suit, adjacent in rank with nothing left in play between them (in a hand or
        in the trick), so that no card left can tell them apart; suit by suit (trumps first), high cards first."""
        trick = self.trick
        held = self.hands[(self.leader + len(trick)) % PLAYERS]
        live = self.hands[0] | self.hands[1] | self.hands[2]
        shifts = self.lead_order
        if trick:
            for b in trick:
                live |= 1 << b
            shift = trick[0] - trick[0] % 9
            if (held >> shift) & 511:
                shifts = (shift,)
        out: list[tuple[int, ...]] = []
        runs = self._runs
        for shift in shifts:
            mine = (held >> shift) & 511
            if mine:
                row = shift << 18 | ((live >> shift) & 511) << 9 | mine
                found = runs.get(row)
                if found is None:
                    found = runs[row] = self._suit_runs(shift, (live >> shift) & 511, mine)
                out += found
        return out

    # ----------------------------------------------------------------------- the search, compiled

    def answer(self, player: str, alpha: int, beta: int) -> int | None:
        """Any window: `imptools.search.Search`'s alpha-beta as it runs on this position (every player's cards
        by his history count, the table's card first, `bounds`, one table of two generations per player), here in
        the module the build compiles, where the search's own loop is interpreted Python calling this class's
        methods at every node: the same values, a few times faster. (The search keeps in its own table only the
        windows' positions, and tries `bounds` there before asking this: where this table's entry would have
        answered first, another bound on the same side of the window may be returned, and the positions that follow
        differ a little, never the values.)"""
        seat = self.seat[player]
        answers = self._answers
        generations = answers.tables.get(seat)
        if generations is None:
            generations = answers.tables[seat] = [{}, {}]
            answers.history[seat] = {}
        return self._search(player, seat, generations, answers.history[seat], alpha, beta, True)

    def _search(
        self,
        player: str,
        seat: int,
        generations: list[dict[int, int]],
        hist: dict[int, int],
        alpha: int,
        beta: int,
        root: bool,
    ) -> int:
        """`search.Search`'s `search` for `player` (at `seat`); the window's own position (`root`) was counted
        by the search that asked it."""
        if not root:
            self.answer_nodes += 1
        if not self.trick and not any(self.hands):
            return self.scores()[seat]
        key = self._answer_key(seat)
        base = self.won[seat]
        table = generations[0]
        entry = table.get(key)
        if entry is None:
            entry = generations[1].get(key, EMPTY)
        # the search's entry (lo, hi, first), packed: a bound is the search's infinity where none is kept
        code = entry >> (8 + BOUND_BITS)
        lo = -INF if code == 0 else code - BIAS + base
        code = entry >> 8 & NO_UPPER
        hi = INF if code == NO_UPPER else code - BIAS + base
        first = (entry & 255) - 1
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        low, high = self._bounds(seat)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        a, b = alpha, beta
        groups = self.groups()
        n = len(groups)
        if n > 1:  # by the history count, highest first, ties as they came (the search's stable sort)
            counts = [hist.get(g[0], 0) for g in groups]
            for i in range(1, n):
                c, g = counts[i], groups[i]
                j = i
                while j > 0 and counts[j - 1] < c:
                    counts[j] = counts[j - 1]
                    groups[j] = groups[j - 1]
                    j -= 1
                counts[j] = c
                groups[j] = g
        if first >= 0 and n > 1 and first not in groups[0]:
            for i, g in enumerate(groups):
                if first in g:
                    groups.insert(0, groups.pop(i))
                    break
        move = -1
        if (self.leader + len(self.trick)) % PLAYERS == seat:
            best = -INF
            for g in groups:
                self.play(g[0])
                v = self._search(player, seat, generations, hist, a, b, False)
                self.undo()
                if v > best:
                    best, move = v, g[0]
                    if v > a:
                        a = v
                        if v >= b or v == high:
                            break
        else:
            best = INF
            for g in groups:
                self.play(g[0])
                v = self._search(player, seat, generations, hist, a, b, False)
                self.undo()
                if v < best:
                    best, move = v, g[0]
                    if v < b:
                        b = v
                        if v <= a or v == low:
                            break
        if move >= 0:
            hist[move] = hist.get(move, 0) + 1
        if best <= alpha:
            lo, hi = min(lo, best), min(hi, best)
        elif best >= beta:
            lo, hi = max(lo, best), max(hi, best)
        else:
            lo = hi = best
        lower = 0 if lo <= -INF // 2 else lo - base + BIAS
        upper = NO_UPPER if hi >= INF // 2 else hi - base + BIAS
        table[key] = (lower << BOUND_BITS | upper) << 8 | (move + 1)
        if len(table) > ANSWER_CAP:
            generations[1] = table
            generations[0] = {}
        return best

    def _answer_key(self, seat: int) -> int:
        """`key`'s state as one integer (the same positions share it): three words of at most 60 bits, each of
        them fast to build, joined at the end."""
        h0, h1, h2 = self.hands
        trick = self.trick
        live = h0 | h1 | h2
        for b in trick:
            live |= 1 << b
        r = _RELATIVE
        low = 0  # suits 0 and 1: each hand's cards by relative rank, 9 bits each
        high = 0  # suits 2 and 3
        for shift in (0, 9):
            row = (live >> shift & 511) << 9
            low = ((low << 9 | r[row | h0 >> shift & 511]) << 9 | r[row | h1 >> shift & 511]) << 9 | r[
                row | h2 >> shift & 511
            ]
        for shift in (18, 27):
            row = (live >> shift & 511) << 9
            high = ((high << 9 | r[row | h0 >> shift & 511]) << 9 | r[row | h1 >> shift & 511]) << 9 | r[
                row | h2 >> shift & 511
            ]
        # from the low bits up: the leader, how many needs and each of them, how many cards lie in the trick and
        # each (suit and relative rank, 11 bits), so that the fields are read back from the low end unambiguously
        rest = 0
        for b in reversed(trick):
            shift = b - b % 9
            rest = rest << 11 | (shift // 9) << 9 | r[(live >> shift & 511) << 9 | 1 << (b - shift)]
        rest = rest << 2 | len(trick)
        depends = self.depends[seat]
        for i in range(len(depends) - 1, -1, -1):
            rest = rest << 4 | (depends[i] + 1)
        rest = (rest << 2 | len(depends)) << 2 | self.leader
        return (rest << 54 | high) << 54 | low

    def share(self, store: dict[str, object]) -> None:
        """Keep `answer`'s tables in `store`, which the searches of a decision's options share where they share
        their own tables (`imptools.choices.value_choices`): one bid's entries serve the next, as they do there."""
        found = store.get("answer")
        if isinstance(found, AnswerTables):
            self._answers = found
        else:
            store["answer"] = self._answers

    def release(self) -> None:
        """Drop `answer`'s tables (`imptools.search.Search.close`)."""
        self._answers = AnswerTables()

    def _suit_runs(self, shift: int, live: int, mine: int) -> tuple[tuple[int, ...], ...]:
        """The runs of one suit's legal cards (`mine`, among the suit's `live` ones, 9-bit masks), high first."""
        out: list[list[int]] = []
        last = -1
        for r in range(8, -1, -1):
            if mine >> r & 1:
                if last >= 0 and not live & ((1 << last) - (1 << (r + 1))):
                    out[-1].append(self._card(shift + r))
                else:
                    out.append([self._card(shift + r)])
                last = r
        return tuple(tuple(sorted(g)) for g in out)


def played_hand(ruleset: Searchable, setup: object, game: Game, hand: Hand, dealer: str) -> PlayedHand | str:
    """The hand's start position (the cards each player plays: the deal less the bid) and its plays, or why it
    cannot be analysed (a `StartPosition`: the registry finds it)."""
    assert isinstance(ruleset, NinetyNine) and isinstance(setup, Setup)
    players = setup.players
    report = Reporter(game, hand)
    deck = ruleset.hand_deck(hand, players, report)
    if deck.turnup is None:
        return "the turn-up is not known (no `turnup` line, and more than one card could be it)"
    turnup = deck.turnup
    order = turn_order(players, dealer)

    def settle(played: Played) -> int | None:
        return deck.winner(played.cards)

    walk = walk_tricks(hand, order, PLAYERS, parse, settle, ruleset.filler(hand, deck))
    plays = walk.numbered_plays()
    complete = walk.whole and len(walk.tricks) == TRICKS
    held: dict[str, set[int]] = {}
    for p in order:
        if p in deck.dealt and len(deck.put_away.get(p, ())) == BID_CARDS:
            held[p] = deck.dealt[p] - deck.put_away[p]
        elif complete:
            held[p] = {c for _, q, c in plays if q == p}
        elif p not in deck.dealt:
            return f"the cards still to be played are not all known: no deal line for {p} and the hand is not complete"
        else:
            return f"the cards still to be played are not all known: {p}'s bid cards are not all known"
    sizes = {p: len(held[p]) for p in order}
    if set(sizes.values()) != {TRICKS}:
        shown = ", ".join(f"{p} {k}" for p, k in sizes.items())
        return f"the deal less the bids and the plays do not give every player {TRICKS} cards to play ({shown})"
    in_play = set().union(*held.values())
    if len(in_play) != TRICKS * PLAYERS:
        return "the same card is given to two players"
    if turnup in in_play:
        return f"{spell(turnup)} is turned up and also held"
    bids = {p: deck.bid_number(p)[0] for p in players}
    call = ruleset.declaration(hand, players, report)
    position = SearchNinetyNine(order, held, turnup, bids, call)
    decisions = tuple(bid_decision(p, deck, order, held, bids, call, complete) for p in order if p in deck.bids)
    return PlayedHand(position, plays, walk.stop_note(), MARKS, decisions)


def bid_decision(
    player: str,
    deck: Deck,
    order: Sequence[str],
    held: Mapping[str, set[int]],
    bids: Mapping[str, int | None],
    call: Declaration | None,
    complete: bool,
) -> Decision:
    """A player's bid: the bid he made, and, where his twelve cards are known (his deal line, or in a complete hand
    the cards he played and his bid cards), each of the 220 bids of three of them (`bid_options`)."""
    line = deck.bids[player]
    put_away = deck.put_away.get(player, set())
    made = " ".join("?" if c is None else spell(c) for c in line.cards) if line.cards else str(line.number)
    twelve: set[int] = set()
    if len(deck.dealt.get(player, ())) == DEALT:
        twelve = set(deck.dealt[player])
    elif complete and len(put_away) == BID_CARDS:
        twelve = held[player] | put_away
    others = {c for p in order if p != player for c in held[p]}
    turnup = deck.turnup
    if len(twelve) != DEALT or turnup is None or turnup in twelve or others & twelve or not held[player] <= twelve:
        return Decision("bid", player, (Option(made),), every=False, costly=True, shared=True)
    return bid_options(player, twelve, put_away, made, order, held, bids, turnup, call)


def bid_options(
    player: str,
    dealt: set[int],
    put_away: set[int],
    made: str,
    order: Sequence[str],
    held: Mapping[str, set[int]],
    bids: Mapping[str, int | None],
    turnup: int,
    call: Declaration | None,
) -> Decision:
    """Every bid of three of the cards `player` was `dealt`, the one he made (`put_away`, written `made`) taken,
    each other with the cards left to play, the others' bids and cards as recorded (`held`, `bids`). Valued for
    him; one search table serves every bid (the key holds the needs, and only his bid and cards differ), and the
    others are valued only when asked (`Decision.costly`)."""
    options: list[Option] = []
    if len(put_away) != BID_CARDS:
        options.append(Option(made))  # the bid cards are not all known: the bid made stands apart
    for bid in combinations(sorted(dealt, reverse=True), BID_CARDS):
        if set(bid) == put_away:
            options.append(Option(made))
            continue
        hands = {p: (dealt - set(bid)) if p == player else held[p] for p in order}
        mine = {**bids, player: bid_value(bid, turnup)}
        start = partial(SearchNinetyNine, order, hands, turnup, mine, call)
        options.append(Option(" ".join(spell(c) for c in bid), start))
    return Decision("bid", player, tuple(options), every=False, costly=True, shared=True)
