"""The game-tree search: the value of a position for a player, every card visible, over a ruleset's `SearchPosition`.

The value of a position for a player P is the result P is guaranteed from
there when P's side (`SearchPosition.side`) chooses cards to make P's result as
high as possible and every other player chooses cards to make it as low as
possible, all cards visible, every card among the legal ones (the "paranoid"
value). docs/ANALYSIS.md says it in full.

The search is alpha-beta (max for P's side, min for the others) over null
windows (MTD(f), from his side's last value), with a transposition table per side (P
and his partner share one, `Search.voice`: a side's players share one result)
keyed on `SearchPosition.key` (values relative to what is banked), the table's
best card tried first, then a history count per side (or, for the players
against P, the position's own order, `opposed`, where it has one), and equivalent
cards searched once (`SearchPosition.groups`). Where a position offers them, it cuts on
`bounds`, searches the last four cards (`cards_left`) without the table, reads
results below the banked part as penalties (`penalty_unit`) and lets the position
answer a window itself (`answer`: the Bottle Imp's escape and coin questions). Nothing here
knows a game: `imptools.analyse` finds a game's position through the registry and values a recorded hand's
plays with this search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from imptools.rules.base import SearchPosition

INF = 1 << 40
"""Beyond any result a hand can have."""

Entry = tuple[int, int, int | None]
"""A table entry: lower bound, upper bound (relative to the banked part) and the best card found."""

EMPTY: Entry = (-INF, INF, None)

LEAN = 4
"""At most this many cards left to play (where the position says, `cards_left()`): plain alpha-beta, no table."""

TABLE_CAP = 1_000_000
"""Entries in a player's table before it becomes the older generation and a new one starts: the search reads
both and writes the new one, so a player's table never holds more than twice this (about 0.5 GB with the Bottle
Imp)."""


# --------------------------------------------------------------------------- the search


class Search:
    """Values of positions reached from one `SearchPosition`, which it plays and undoes in place.

    One table per side (`voice`) serves every search for its players' values, so
    the values of a whole hand's plays share their work; past `table_cap` entries it becomes
    the older generation of two (`TABLE_CAP`). `nodes` counts the positions visited.
    """

    def __init__(self, position: SearchPosition, table_cap: int = TABLE_CAP) -> None:
        self.position = position
        self.table_cap = table_cap
        self.tables: dict[str, list[dict[object, Entry]]] = {}
        """Each player's table: the generation written now, then the older one (see `TABLE_CAP`)."""
        self.nodes = 0
        self.history: dict[str, dict[int, int]] = {}
        self.last: dict[str, int] = {}
        self._searchers: dict[str, Callable[[int, int], int]] = {}
        self._voices: dict[str, str] = {}

    def positions(self) -> int:
        """The positions visited: by this search, and by the position's own `answer` where it has one."""
        return self.nodes + int(getattr(self.position, "answer_nodes", 0))

    def close(self) -> None:
        """Free what this search holds, at once: its tables, its searchers and the position's own (`release`, where
        the position has it). Its searchers' closures refer to each other, a cycle that only the collector's full
        passes would free, with the position and its solvers' tables. The search is not used after (its tables are
        emptied in place: not to be called on a search that shares them). `positions` still counts what it did."""
        self._searchers.clear()
        for generations in self.tables.values():
            for table in generations:
                table.clear()
        self.history.clear()
        release: Callable[[], None] | None = getattr(self.position, "release", None)
        if release is not None:
            release()

    def voice(self, player: str) -> str:
        """The player whose table, history and last value serve `player`: the first of his side by name. A side's
        players share one result, so one value, and a proof made for one serves his partner's values too."""
        found = self._voices.get(player)
        if found is None:
            found = self._voices[player] = min(self.position.side(player))
        return found

    def value(self, player: str, alpha: int = -INF, beta: int = INF, guess: int | None = None) -> int:
        """The value of the position for `player`: exact when it lies strictly inside (alpha, beta); otherwise a
        bound on the side it fails (at most alpha when it fails low, at least beta when it fails high).

        A whole window is searched as a series of null windows (MTD(f)) starting from `guess`, else from the
        player's last value: while the value lies on one side only, each step is twice the last (a player's value
        can be far from his last one); once it lies between two bounds, each starts from the bound the last
        returned, as MTD(f) does.
        """
        player = self.voice(player)
        search = self._searchers.get(player)
        if search is None:
            search = self._searchers[player] = self._searcher(player)
        pos = self.position
        keep: Callable[[str, int, int], None] | None = getattr(pos, "keep_bounds", None)
        if alpha > -INF or beta < INF:
            g = search(alpha, beta)
            if keep is not None:
                keep(player, g if g > alpha else -INF, g if g < beta else INF)
            return g
        known: Callable[[str], tuple[int, int]] | None = getattr(pos, "known_bounds", None)
        lower, upper = known(player) if known is not None else (-INF, INF)
        bisect = getattr(pos, "bisect", False)
        b = self.last.get(player, 0) if guess is None else guess
        if lower > -INF and upper < INF and bisect:
            b = (lower + upper + 1) // 2
        b = max(lower + 1, min(b, upper))
        step = 1
        while lower < upper:
            g = search(b - 1, b)  # is the value at least b?
            if g < b:
                upper = g
            else:
                lower = g
            if lower >= upper:
                break
            if upper == INF:
                b = lower + step
            elif lower == -INF:
                b = upper + 1 - step
            elif bisect:
                b = (lower + upper + 1) // 2
            else:
                b = g + 1 if g == lower else g
            step *= 2
        self.last[player] = lower
        if keep is not None:
            keep(player, lower, lower)
        return lower

    def _searcher(self, player: str) -> Callable[[int, int], int]:
        """The alpha-beta search of `player`'s values: a function of the window, over the position's methods."""
        pos = self.position
        side = pos.side(player)
        generations = self.tables.setdefault(player, [{}, {}])
        table, older = generations
        cap = self.table_cap
        hist = self.history.setdefault(player, {})
        done, result, forced_card, play, undo = pos.done, pos.result, pos.forced, pos.play, pos.undo
        key_of, groups_of, to_move = pos.key, pos.groups, pos.to_move
        bounds: Callable[[str], tuple[int, int]] | None = getattr(pos, "bounds", None)
        left: Callable[[], int] | None = getattr(pos, "cards_left", None)
        answer: Callable[[str, int, int], int | None] | None = getattr(pos, "answer", None)
        penalty_unit: Callable[[], int] | None = getattr(pos, "penalty_unit", None)
        opposed: Callable[[], list[tuple[int, ...]]] | None = getattr(pos, "opposed", None)
        unit = penalty_unit() if penalty_unit is not None else 0
        count = self

        def relative_low(v: int, base: int) -> int:
            """The least stored value whose result is at least `v`: `v` above the banked part `base` stays
            relative to it; below it, a penalty of k units is stored as -k (`SearchPosition.penalty_unit`)."""
            if v >= base:
                return v - base
            if v <= -INF:
                return -INF
            k = -v // unit if v < 0 else 0
            return -k if k >= 1 else 0

        def relative_high(v: int, base: int) -> int:
            """The greatest stored value whose result is at most `v` (as `relative_low`)."""
            if v >= base:
                return min(v - base, INF)
            return min(-1, v // unit)

        def lean(alpha: int, beta: int) -> int:
            """Plain alpha-beta, no table: for the last few cards."""
            count.nodes += 1
            if done():
                return result(player)
            forced = forced_card()
            if forced is not None:
                play(forced)
                v = lean(alpha, beta)
                undo()
                return v
            if to_move() in side:
                best = -INF
                for g in groups_of():
                    play(g[0])
                    v = lean(alpha, beta)
                    undo()
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                return best
            best = INF
            for g in groups_of():
                play(g[0])
                v = lean(alpha, beta)
                undo()
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            return best

        def search(alpha: int, beta: int) -> int:
            nonlocal table, older
            count.nodes += 1
            if done():
                return result(player)
            forced = forced_card()
            if forced is not None:
                play(forced)
                v = search(alpha, beta)
                undo()
                return v
            key, base = key_of(player)
            lo, hi, first = table.get(key) or older.get(key, EMPTY)
            if unit:
                lo = lo + base if lo >= 0 else lo * unit
                hi = hi + base if hi >= 0 else hi * unit
            else:
                lo, hi = lo + base, hi + base
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            low, high = -INF, INF
            if bounds is not None:
                low, high = bounds(player)
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
            a, b = alpha, beta
            depth = left() if left is not None else 0
            move: int | None = None
            if depth and depth <= LEAN:
                best = lean(alpha, beta)
            elif answer is not None and (answered := answer(player, alpha, beta)) is not None:
                best = answered
            else:
                mine = to_move() in side
                if opposed is not None and not mine:
                    groups = opposed()
                else:
                    groups = groups_of()
                    groups.sort(key=lambda g: hist.get(g[0], 0), reverse=True)
                if first is not None and len(groups) > 1 and first not in groups[0]:
                    for i, g in enumerate(groups):
                        if first in g:
                            groups.insert(0, groups.pop(i))
                            break
                if mine:
                    best = -INF
                    for g in groups:
                        play(g[0])
                        v = search(a, b)
                        undo()
                        if v > best:
                            best, move = v, g[0]
                            if v > a:
                                a = v
                                if v >= b or v == high:
                                    break
                else:
                    best = INF
                    for g in groups:
                        play(g[0])
                        v = search(a, b)
                        undo()
                        if v < best:
                            best, move = v, g[0]
                            if v < b:
                                b = v
                                if v <= a or v == low:
                                    break
                if move is not None:
                    hist[move] = hist.get(move, 0) + depth * depth + 1
            if best <= alpha:
                lo, hi = min(lo, best), min(hi, best)
            elif best >= beta:
                lo, hi = max(lo, best), max(hi, best)
            else:
                lo = hi = best
            if unit:
                table[key] = (relative_low(lo, base), relative_high(hi, base), move)
            else:
                table[key] = (lo - base, hi - base, move)
            if len(table) > cap:
                older, table = table, {}
                generations[:] = table, older
            return best

        return search

    def choices(self, player: str) -> tuple[int, list[int]]:
        """The value for `player`, who is to move, and the legal cards that keep it (`checks`)."""
        value = self.value(player)
        return value, sorted(c for g, kept in self.checks(player, value) if kept for c in g)

    def checks(self, player: str, value: int) -> Iterator[tuple[tuple[int, ...], bool]]:
        """Each class of the legal cards of `player`, who is to move, and whether it keeps his value `value`: one
        null window each, in the order the position gives (`checked`, where it has one), each searched as it is
        asked for."""
        pos = self.position
        checked: Callable[[], list[tuple[int, ...]]] | None = getattr(pos, "checked", None)
        for g in checked() if checked is not None else pos.groups():
            pos.play(g[0])
            kept = self.value(player, value - 1, value) >= value
            pos.undo()
            yield g, kept

    def after(self, player: str, card: int) -> int:
        """The value for `player` once `card` is played."""
        pos = self.position
        pos.play(card)
        v = self.value(player)
        pos.undo()
        return v


def best_line(position: SearchPosition) -> list[int]:
    """Play `position` to the end, every player choosing a card that keeps his own value; the cards played.

    The position is left at the end of the hand.
    """
    search = Search(position)
    cards: list[int] = []
    while not position.done():
        forced = position.forced()
        if forced is None:
            _, keep = search.choices(position.to_move())
            forced = keep[0]
        position.play(forced)
        cards.append(forced)
    return cards
