"""Botifarra's cards as bits for the searches: masks, the obligation table and the trick's winner over masks.

A suit's twelve cards lie in order of strength (bit `suit * 12 + strength - 1`, see `BIT`), so "a card that
beats", "the lowest card of a suit" and "the cards between two cards" are a few integer operations.
`legal_mask` is `botifarra.legal_cards` over masks and `beats` the rule of `botifarra.trick_winner`;
tests/test_analyse_botifarra.py proves both equal to the checker's own functions.
"""

from __future__ import annotations

from imptools.rules.botifarra.cards import points, strength, suit_of
from imptools.rules.botifarra.obligations import ANY, LOW, LOW_OR_POINT, TABLES

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


CELL_CODE = {ANY: 0, LOW: 1, LOW_OR_POINT: 2}
"""An obligation table's cell as a number for `legal_coded`."""


def coded(rules: str) -> int:
    """The obligation table of `rules` as one number: its cells (`CELL_CODE`) when the partner is master, when the
    player cannot beat the card winning the trick, and when he cannot trump, two bits each."""
    table = TABLES[rules]
    return CELL_CODE[table.partner_master] | CELL_CODE[table.cannot_beat] << 2 | CELL_CODE[table.cannot_trump] << 4


def legal_mask(rules: str, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`botifarra.legal_cards` over masks: the cards of `held` the obligation table allows.

    `led` is the suit led (-1 when the player leads), `winning` the bit of the
    card winning the trick so far, `trump` the trump suit (-1 for botifarra).
    The table's cells are read from `obligations.TABLES`, the checker's own data.
    """
    return legal_coded(coded(rules), trump, led, winning, partner_master, held)


def legal_coded(cells: int, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`legal_mask` with the obligation table as `coded` gives it (the searches' inner loop)."""
    if led < 0:
        return held
    follow = held & SUIT_MASK[led]
    if partner_master:
        pool = follow or held
        cell = cells & 3
        return pool if cell == 0 else _allowed(cell, pool, lows(pool))
    above = ~((2 << winning) - 1)
    if follow:
        beaters = follow & above if winning // 12 == led else 0
        if beaters:
            return beaters
        cell = cells >> 2 & 3
        return follow if cell == 0 else _allowed(cell, follow, follow & -follow)
    if trump >= 0:
        trumps = held & SUIT_MASK[trump]
        if winning // 12 == trump:
            trumps &= above
        if trumps:
            return trumps
    cell = cells >> 4 & 3
    return held if cell == 0 else _allowed(cell, held, lows(held))


def _allowed(cell: int, pool: int, low: int) -> int:
    """What a cell that is not `ANY` (coded) allows of `pool`, whose lowest card of each suit is `low`."""
    return low if cell == 1 else pool & (POINT_MASK | low)


def cannot_be_taken(hands: list[int], n: int, trump: int, lead: int, k: int, win: int, led: int, skip: int = 0) -> bool:
    """Whether no player after the `k`-th of the trick (led in suit `led`) can take its winning card `win` (by
    the cards they hold), the seats of the mask `skip` left out (a player of the winner's side may take it: it
    stays his side's, and whoever could not take `win` cannot take a card that beats it)."""
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    above = ~((2 << win) - 1)
    wsuit = win // 12
    for j in range(k + 1, n):
        seat = (lead + j) % n
        if skip >> seat & 1:
            continue
        held = hands[seat]
        follow = held & SUIT_MASK[led]
        if follow:
            if wsuit == led and follow & above:
                return False
        elif held & trump_mask and (wsuit != trump or held & trump_mask & above):
            return False
    return True


def beat_mask(win: int, trump: int) -> int:
    """The cards that beat `win` (`beats` over a mask).

    >>> beat_mask(9, -1) == SUIT_MASK[0] & ~((1 << 10) - 1)
    True
    """
    s = win // 12
    m = SUIT_MASK[s] & ~((2 << win) - 1)
    if trump >= 0 and s != trump:
        m |= SUIT_MASK[trump]
    return m


def most_points(m: int) -> int:
    """The most points of a card of `m` (not empty): a card's points are its rank's, bits 7-11 of a suit worth 1-5.

    >>> most_points(1 << 11 | 1 << 13), fewest_points(1 << 11 | 1 << 13), fewest_points(1 << 20)
    (5, 0, 2)
    """
    r = (m | m >> 12 | m >> 24 | m >> 36) & 0xFFF
    return (r & 0xF80).bit_length() - 7 if r & 0xF80 else 0


def fewest_points(m: int) -> int:
    """The fewest points of a card of `m` (not empty)."""
    r = (m | m >> 12 | m >> 24 | m >> 36) & 0xFFF
    return 0 if r & 0x7F else (r & -r).bit_length() - 7


def runs(cards: int, live: int) -> list[int]:
    """One card of each run of equivalent `cards` (same suit and points, no card of `live` between), the lowest.

    >>> runs(1 << 0 | 1 << 1 | 1 << 11, 1 << 0 | 1 << 1 | 1 << 11), runs(1 << 0 | 1 << 2, 0b111)
    ([0, 11], [0, 2])
    """
    out: list[int] = []
    prev = -1
    x = cards
    while x:
        low = x & -x
        c = low.bit_length() - 1
        x ^= low
        if (
            prev >= 0
            and prev // 12 == c // 12
            and POINTS_OF[prev] == POINTS_OF[c]
            and not live & ((1 << c) - (2 << prev))
        ):
            prev = c
            continue  # the same card as the run's first one
        prev = c
        out.append(c)
    return out


def asks_points(cells: int) -> bool:
    """Whether a cell of the play rule `cells` (as `coded` codes it) asks for a point card (`LOW_OR_POINT`): then
    a point card and a card without points may be allowed where the other is not, whatever their ranks."""
    code = CELL_CODE[LOW_OR_POINT]
    return (cells & 3) == code or (cells >> 2 & 3) == code or (cells >> 4 & 3) == code


def card_runs(cards: int, live: int) -> list[tuple[int, int, int]]:
    """`cards` in runs: each run's lowest card, its highest and its bits, a run being cards of one suit with no card
    of `live` between them (whatever their points).

    >>> card_runs(1 << 0 | 1 << 2 | 1 << 3 | 1 << 12, 1 << 0 | 1 << 1 | 1 << 2 | 1 << 3 | 1 << 12)
    [(0, 0, 1), (2, 3, 12), (12, 12, 4096)]
    """
    out: list[tuple[int, int, int]] = []
    x = cards
    while x:
        low = x & -x
        c = low.bit_length() - 1
        top = c
        run = low
        x ^= low
        while x:
            nxt = x & -x
            b = nxt.bit_length() - 1
            if b // 12 != c // 12 or live & ((1 << b) - (2 << top)):
                break
            top = b
            run |= nxt
            x ^= nxt
        out.append((c, top, run))
    return out


def settled_runs(
    legal: int,
    live: int,
    hands: list[int],
    n: int,
    cells: int,
    trump: int,
    side: int,
    lead: int,
    k: int,
    win: int,
    wat: int,
    led: int,
) -> int:
    """`legal`, the cards the `k`-th player of the trick may play, less those no search needs: of each run
    of them of one suit with no card of `live` between (the cards lying in the trick are in `live`), where the play
    rule asks for point cards (`asks_points`) point cards only and the player's lowest card of the suit (kept, it
    stays his lowest, allowed wherever a point card is), one card where no later player can take the trick
    whichever of the run is played, none of the other side than the one it goes to (`cannot_be_taken`; always at
    its last card; a leader's run, where no one of the other side can take it): the dearest where the trick goes to
    the player's side (a bit of `side`), else the cheapest. `win` and `led` are -1 for a leader.

    The cards of such a run compare alike with every other card in play, so the hands after each are the same game
    card for card (the run's card kept in hand playing where the other would): the same tricks' winners, the same
    legal cards, and points that differ only by the two cards' points changing places between this trick and the
    one the kept card falls in. With this trick's taker settled, the dearest here is never worse for the trick's
    side, nor the cheapest for the other (docs/ANALYSIS.md, "Settled tricks").

    Seat 3, the trick's last card, holds the 11, 12 and 1 of the suit led (bits 8-10: 2, 3 and 4 points) under the
    leader's 9 (bit 11), at `lliure` (no cell asks for points):

    >>> full = (1 << 48) - 1
    >>> bin(settled_runs(0b111 << 8, full, [0, 0, 0, 0], 4, 0, -1, 0b0101, 0, 3, 11, 0, 0))  # the other side's trick
    '0b100000000'
    >>> bin(settled_runs(0b111 << 8, full, [0, 0, 0, 0], 4, 0, -1, 0b1001, 0, 3, 11, 0, 0))  # his side's trick
    '0b10000000000'
    """
    seat = (lead + k) % n
    holder = (lead + wat) % n
    maxing = side >> seat & 1
    cand = legal & (POINT_MASK | lows(hands[seat])) if asks_points(cells) else legal
    out = legal & ~cand
    for c, top, run in card_runs(cand, live):
        if top == c:
            out |= run
            continue
        beat = k == 0 or beats(c, win, trump)
        winner = seat if beat else holder
        ours = side >> winner & 1  # the side the trick goes to as it lies (a bit of `side` or not)
        skip = side if ours else ~side
        if k == n - 1 or cannot_be_taken(
            hands, n, trump, lead, k, c if beat else win, c // 12 if k == 0 else led, skip
        ):
            out |= 1 << (top if ours == maxing else c)
        else:
            out |= run
    return out


def trick_outcome(
    hands: list[int],
    live: int,
    partner: list[int],
    cells: int,
    trump: int,
    lead: int,
    k: int,
    win: int,
    wat: int,
    led: int,
    pts: int,
    mine: int,
    b: int,
    alpha: int = -1000,
    beta: int = 1000,
) -> int:
    """The points of a trick for the side of the seat `mine`, who plays `b` as its `k`-th card (`win`, `wat`,
    `led` and `pts` the trick so far, led by `lead`; `hands` the cards each seat holds, `live` the cards in play,
    `partner` each seat's partner or -1, `cells` the play rule as `coded` codes it): negative where the other side
    takes them, every later player of the trick answering with the card best for his own side in it (alpha-beta
    over the rest of the trick). A card that does not beat the winning one changes nothing of the trick but its
    points (the winner and what the later players may play stay): of those only the dearest and the cheapest
    count; of those that beat it, one of each run of equivalent cards. The last player's answer is worked out at
    once. The solvers' move order reads it (`solver.Solver.order`).

    >>> hands = [1 << 1, 1 << 2, 1 << 5 | 1 << 11, 1 << 3]  # one suit: the 3, the 4, the 7 and the 9, the 5
    >>> live = hands[0] | hands[1] | hands[2] | hands[3]
    >>> trick_outcome(hands, live, [2, 3, 0, 1], coded("obligada"), -1, 0, 0, -1, 0, -1, 0, 0, 1)
    6

    The 3 led, the 4 must beat it, the partner beats that with the 9 (5 points) rather than the 7: the trick's 5
    points and its 1 are the leader's side's.
    """
    n = len(partner)
    if k == 0:
        win, wat, led = b, 0, b // 12
    elif beats(b, win, trump):
        win, wat = b, k
    pts += POINTS_OF[b]
    winner = (lead + wat) % n
    ours = winner == mine or winner == partner[mine]  # the trick is mine's side's as it lies
    if k == n - 1:
        return pts + 1 if ours else -pts - 1
    nxt = (lead + k + 1) % n  # only the later players' hands are read: the seat's stays as it is
    legal = legal_coded(cells, trump, led, win, partner[nxt] == winner, hands[nxt])
    maxing = nxt == mine or nxt == partner[mine]
    beaters = legal & beat_mask(win, trump)
    rest = legal & ~beaters
    if k + 1 == n - 1:  # the last player: the best of his cards for his side, at once
        best = -1000 if maxing else 1000
        if beaters:  # his side takes the trick, with his dearest such card
            v = pts + most_points(beaters) + 1
            best = v if maxing else -v
        if rest:  # the trick stays as it lies: his dearest card onto his side's, his cheapest else
            p = most_points(rest) if ours == maxing else fewest_points(rest)
            v = pts + p + 1 if ours else -pts - p - 1
            if (v > best) if maxing else (v < best):
                best = v
        return best
    tries = runs(beaters, live)
    if rest:
        dear = cheap = -1
        x = rest
        while x:
            low = x & -x
            c = low.bit_length() - 1
            x ^= low
            if dear < 0 or POINTS_OF[c] > POINTS_OF[dear]:
                dear = c
            if cheap < 0 or POINTS_OF[c] < POINTS_OF[cheap]:
                cheap = c
        tries.append(dear)
        if POINTS_OF[cheap] != POINTS_OF[dear]:
            tries.append(cheap)
    best = -1000 if maxing else 1000
    for c in tries:
        v = trick_outcome(hands, live, partner, cells, trump, lead, k + 1, win, wat, led, pts, mine, c, alpha, beta)
        if maxing:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        elif v < best:
            best = v
            if v < beta:
                beta = v
                if v <= alpha:
                    break
    return best
