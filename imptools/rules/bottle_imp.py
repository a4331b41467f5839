"""The Bottle Imp (the notation's section 5): decks, trick judging with one or two bottles, scoring.

The deck tables live here and nowhere else. Inside the engine a card is a
small integer, twice its number (so the half cards of 5-6 player games fit:
2.5 is 5, 24 is 48); it is spelled back only for messages and output. The
trick walking, holdings, revoke proofs and record checks shared with the other
games come from `imptools.rules.tricks`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random

from imptools.record import Deal, Discard, Game, Hand, ImpTrick, NameRef, Open, Pass
from imptools.rules.base import CardCheck, CardFace, DealtHand, HandOutcome, PlayedHand, Position, TrickRuleset
from imptools.rules.steps import Step
from imptools.rules.tricks import (
    Holdings,
    Played,
    Reporter,
    StepLog,
    Walk,
    after_exchange,
    cards_of,
    deal_size_findings,
    duplicate_findings,
    exchange_not_held_findings,
    follow,
    hand_dealers,
    name_findings,
    play_not_held_findings,
    revoke_findings,
    trick_count_findings,
    turn_order,
    walk_tricks,
)

COLOURS = {"y": "yellow", "r": "red", "b": "blue", "g": "green"}
_STYLES = {"y": "gold3", "r": "red", "b": "dodger_blue2", "g": "green3"}

_BAMBUS = """
1 y 1   2 y 1   3 y 2   4 b 1   5 y 2   6 b 1   7 y 3   8 b 2   9 y 3
10 b 2  11 r 1  12 y 4  13 b 3  14 r 1  15 y 4  16 r 2  17 b 3  18 y 5
20 b 4  21 r 2  22 y 5  23 r 3  24 b 4  25 y 6  26 r 3  27 b 5  28 y 6
29 r 4  30 b 5  31 r 4  32 b 6  33 r 5  34 b 6  35 r 5  36 r 6  37 r 6
"""

Table = dict[int, tuple[str, int]]
"""card (twice its number) -> (colour letter, coins)."""


def _table(text: str) -> Table:
    words = text.split()
    return {2 * int(words[i]): (words[i + 1], int(words[i + 2])) for i in range(0, len(words), 3)}


BAMBUS = _table(_BAMBUS)
"""The bambus deck."""

BAMBUS_1995 = {n: (c, 0 if n in (2, 4, 6) else v) for n, (c, v) in BAMBUS.items()}
"""The 1995 edition: cards 1, 2 and 3 are worth 0 coins."""

MATAGOT = {
    **{n: ({"y": "r", "r": "g"}.get(c, c), v) for n, (c, v) in BAMBUS.items()},
    **_table("3 b 1  4 r 2  17 b 4  23 b 4  24 g 3  34 g 5  35 b 6"),
}
"""The 2-6 player edition: red (low), blue, green (high)."""

DECKS = {"bambus": BAMBUS, "bambus-1995": BAMBUS_1995, "matagot": MATAGOT}
_MATAGOT_VARIANTS = {"teams", "teams-2-2-1-1", "second-bottle", "eye-of-the-demon"}

VARIANTS = ("classic", "teams", "teams-2-2-1-1", "second-bottle", "lopaka", "bright-house", "eye-of-the-demon")
TWO_PACK = {"bright-house", "eye-of-the-demon"}
PACK_SIZES = {"bright-house": {1: 9, 2: 9}, "eye-of-the-demon": {1: 6, 2: 12}}
LOPAKA = "Lopaka"
START_PRICE = 38
"""The bottle's start price, 19, as an engine card (twice the number)."""

_TRICKS = {2: 8, 3: 11, 4: 8, 5: 10, 6: 8}
"""Tricks in a hand, by number of players (two players: four-card tricks)."""
_DEAL = {3: 12, 4: 9, 5: 11, 6: 9}
"""Cards dealt to each player in the one-pack variants (the five-player dealer gets 10)."""


def deck_name(game: Game) -> str:
    """The `Deck` tag, or the spec's default for the variant and the number of players."""
    named = game.tag("Deck")
    if named in DECKS:
        return named
    if game.tag("Variant") in _MATAGOT_VARIANTS or len(game.players) in (5, 6):
        return "matagot"
    return "bambus"


def deck(game: Game) -> Table:
    """The cards of `game`: its deck, with the half cards 2.5, 4.5 ... 36.5 in 5-6 player games (54 cards)."""
    table = DECKS[deck_name(game)]
    if len(game.players) in (5, 6):
        table = {**table, **{n + 1: table[n] for n in table if n % 4 == 0}}
    return table


def spell(card: int) -> str:
    """An engine card spelled as the notation writes it: 48 -> `24`, 5 -> `2.5`."""
    return str(card // 2) if card % 2 == 0 else f"{card // 2}.5"


_CARD = re.compile(r"0*([0-9]{1,2}(?:\.5)?)([a-zA-Z]?)")


def card_number(text: str) -> int | None:
    """The engine card a token names, by its spelling alone (None when it is no number a deck could hold).

    >>> card_number("24b"), card_number("2.5"), card_number("9" * 400)
    (48, 5, None)
    """
    m = _CARD.fullmatch(text)
    if m is None:
        return None
    whole, _, half = m.group(1).partition(".")
    return 2 * int(whole) + (1 if half else 0)


# --------------------------------------------------------------------------- tricks


@dataclass(slots=True)
class Bottle:
    """One bottle: its price (the card under it, 19 at the start) and its owner."""

    price: int = START_PRICE
    owner: str | None = None


def judge_trick(cards: list[int], bottles: list[Bottle]) -> tuple[int, int | None]:
    """The index of the winning card and of the bottle it takes (None when no card is below the price).

    With two bottles the trick is judged against the higher price and takes that bottle
    (the first when both are at the same price).

    >>> judge_trick([48, 30, 34, 64], [Bottle()])
    (2, 0)
    >>> judge_trick([48, 50, 60], [Bottle(24)])
    (2, None)
    """
    return judge_prices(cards, [b.price for b in bottles])


def judge_prices(cards: Sequence[int], prices: Sequence[int]) -> tuple[int, int | None]:
    """`judge_trick` on the bottles' prices alone (the search calls it at every trick it settles).

    >>> judge_prices([48, 28, 34, 64], [24, 30])
    (1, 1)
    >>> judge_prices([48, 50, 60], [24, 24])
    (2, None)
    """
    price = max(prices)
    top = prices.index(price)
    best = win = -1
    for i, c in enumerate(cards):
        if best < c < price:
            best, win = c, i
    if win >= 0:
        return win, top
    return cards.index(max(cards)), None


def settle_trick(cards: list[int], who: list[str], bottles: list[Bottle], piles: dict[str, list[int]]) -> int:
    """Judge a trick, move the bottle and its old price card, fill the winner's pile; the winning card's index.

    The card that took the bottle lies under it; the old price card goes to the
    bottle's previous owner (the start card 19 to nobody); the rest to the winner.
    """
    win, taken = judge_trick(cards, bottles)
    winner = who[win]
    if taken is not None:
        bottle = bottles[taken]
        if bottle.price != START_PRICE and bottle.owner is not None:
            piles[bottle.owner].append(bottle.price)
        bottle.price, bottle.owner = cards[win], winner
    piles[winner].extend(c for i, c in enumerate(cards) if i != win or taken is None)
    return win


def team_of(seat: int, players: int, variant: str) -> tuple[int, ...]:
    """The seats (counted from the dealer, seat 0) that score together with `seat`."""
    if variant == "teams-2-2-1-1":
        groups: list[tuple[int, ...]] = [(1, 4), (2, 5), (0,), (3,)]
    elif players == 4:
        groups = [(1, 3), (0,), (2,)]
    elif players == 5:
        groups = [(1, 3), (2, 4), (0,)]
    else:
        groups = [(0, 3), (1, 4), (2, 5)]
    return next(g for g in groups if seat in g)


def automaton_choice(
    held: set[int], lying: list[int], bottles: list[Bottle], colour: Callable[[int], str]
) -> int | None:
    """The card Lopaka's automaton plays: leading, his highest; else, among his legal cards, the highest that
    would win the trick as it lies now, or if none would, his lowest.

    >>> automaton_choice({10, 30, 50}, [], [Bottle()], lambda c: "y")
    50
    >>> automaton_choice({10, 30, 50}, [20], [Bottle()], lambda c: "y")
    30
    """
    legal = follow(held, colour(lying[0]) if lying else None, colour)
    if not legal:
        return None
    if not lying:
        return max(legal)
    winning = [c for c in legal if judge_trick([*lying, c], bottles)[0] == len(lying)]
    return max(winning) if winning else min(legal)


@dataclass(frozen=True, slots=True)
class BottleState:
    """The Bottle Imp's part of a replay state: each bottle's price and owner, and the prices it has had."""

    bottles: tuple[tuple[str, str | None], ...]
    history: tuple[tuple[str, ...], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for i, (price, owner) in enumerate(self.bottles):
            label = "bottle" if len(self.bottles) == 1 else f"bottle {i + 1}"
            out.append((label, f"{price}, " + (f"held by {owner}" if owner else "nobody holds it")))
            if self.history and len(self.history[i]) > 1:
                out.append(("prices", " > ".join(self.history[i])))
        return out


# --------------------------------------------------------------------------- one game's setup


@dataclass(slots=True)
class Setup:
    """What a game's tags decide, worked out once: variant, deck, trick sizes."""

    variant: str
    players: tuple[str, ...]
    cards: Table
    deck_name: str
    tricks: int
    per_trick: int
    bottles: int
    ids: dict[str, int] = field(default_factory=dict)
    resolved: dict[str, int | None] = field(default_factory=dict)
    """`resolve`'s answers so far (a game spells the same cards again and again)."""

    @property
    def lopaka(self) -> bool:
        return self.variant == "lopaka"

    @property
    def two_pack(self) -> bool:
        return self.variant in TWO_PACK

    def resolve(self, text: str) -> int | None:
        """The engine card of a token, or None when it is not a card of this deck."""
        try:
            return self.resolved[text]
        except KeyError:
            n = card_number(text)
            found = self.resolved[text] = n if n in self.cards else None
            return found

    def colour(self, card: int) -> str:
        return self.cards[card][0]

    def coins(self, card: int) -> int:
        return self.cards[card][1]

    def order(self, dealer: str) -> list[str]:
        """Turn order for a hand, starting with the player who leads trick 1."""
        if self.lopaka:
            other = next(p for p in self.players if p not in (dealer, LOPAKA))
            return [other, LOPAKA, dealer]
        return turn_order(self.players, dealer)

    def dealt(self, who: NameRef, dealer: str) -> int | None:
        """How many cards the rules deal to a player (or to one pack)."""
        if self.two_pack:
            return PACK_SIZES[self.variant].get(who.pack or 1)
        if self.lopaka:
            return 11
        n = len(self.players)
        return 10 if n == 5 and who.name == dealer else _DEAL.get(n)


def imp_trick(setup: Setup, hand: Hand, played: set[int]) -> list[int]:
    """The imp's trick: the discards, else an `imp` line, else every card of the deck no trick holds (`played`)."""
    discards = [c for d in hand.discards for c in d.cards]
    if discards and not any(c.unknown for c in discards):
        return cards_of(discards, setup.resolve)
    for imp in hand.imps:
        if not any(c.unknown for c in imp.cards):
            return cards_of(imp.cards, setup.resolve)
    return [c for c in setup.cards if c not in played]


def _default_variant(game: Game) -> str:
    return game.tag("Variant") or ("bright-house" if len(game.players) == 2 else "classic")


SEATS: dict[str, tuple[int, ...]] = {
    "classic": (3, 4, 5, 6),
    "teams": (4, 5, 6),
    "teams-2-2-1-1": (6,),
    "second-bottle": (5, 6),
    "lopaka": (3,),
    "bright-house": (2,),
    "eye-of-the-demon": (2,),
}
"""How many players (Lopaka included) each variant seats."""


def _seats(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return f"{counts[0]} players"
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]} players"
    return " or ".join(str(n) for n in counts) + " players"


# --------------------------------------------------------------------------- the ruleset


class BottleImp(TrickRuleset):
    """The Bottle Imp, every variant: cards `1`..`37` without 19 (and the half cards with 5-6 players)."""

    name = "bottle-imp"
    variants = VARIANTS

    _last: tuple[Game, Table, str] | None = None
    """The deck of the game whose cards were checked last (its tokens come one after another)."""

    def _deck(self, game: Game) -> tuple[Table, str]:
        last = self._last
        if last is None or last[0] is not game:
            last = self._last = (game, deck(game), deck_name(game))
        return last[1], last[2]

    def check_card(self, text: str, game: Game) -> CardCheck:
        m = _CARD.fullmatch(text)
        cards, name = self._deck(game)
        number = card_number(text)
        if m is None or number not in cards:
            return CardCheck(None, "unknown-card", f"`{text}` is not a card of this deck ({name})")
        assert number is not None
        spelled = m.group(1)
        letter = m.group(2).lower()
        colour = cards[number][0]
        if letter and letter != colour:
            return CardCheck(
                None,
                "colour-mismatch",
                f"`{text}`: card {spelled} is {COLOURS[colour]} in the {name} deck, not {COLOURS.get(letter, letter)}",
            )
        return CardCheck(spelled + letter)

    def card_face(self, text: str, game: Game) -> CardFace:
        """The card with its colour (`24` is blue in the bambus deck); a hand sorts by colour, then by number."""
        number = card_number(text)
        cards = deck(game)
        if number not in cards:
            return CardFace(text)
        assert number is not None
        colour = cards[number][0]
        return CardFace(spell(number), COLOURS[colour], _STYLES[colour], 1000 * list(COLOURS).index(colour) + number)

    def deck(self, game: Game) -> list[str]:
        """The numbers of the game's deck, lowest first (the half cards among them with 5-6 players)."""
        return [spell(c) for c in sorted(deck(game))]

    def simulator(self, game: Game) -> BottleSimulator | None:
        """Random deals for every variant."""
        setup = self.table(game)
        return None if setup is None else BottleSimulator(setup)

    def played_hand(self, game: Game, hand_number: int) -> PlayedHand | str:
        """A hand's start position and plays for `imp analyse`, or why it cannot be analysed."""
        from imptools.rules.bottle_imp_search import searchable

        return searchable(self, game, hand_number)

    def players_problem(self, game: Game) -> str | None:
        """Why the variant cannot be played by the players `Players` names (None when it can)."""
        variant = _default_variant(game)
        n = len(game.players)
        seats = SEATS.get(variant)
        if seats is None:
            return None  # an unknown variant is reported on its own tag
        if n not in seats:
            return f"Players names {n} player{'s' if n != 1 else ''}; the Bottle Imp's {variant} seats {_seats(seats)}"
        if variant == "lopaka" and LOPAKA not in game.players:
            return f"the lopaka variant is two players and {LOPAKA}: name him in Players as `{LOPAKA}`"
        return None

    def table(self, game: Game) -> Setup | None:
        variant = _default_variant(game)
        n = len(game.players)
        if variant not in VARIANTS or n not in _TRICKS or self.players_problem(game) is not None:
            return None
        per_trick = 4 if variant in TWO_PACK else n
        bottles = 2 if variant == "second-bottle" else 1
        return Setup(variant, game.players, deck(game), deck_name(game), _TRICKS[n], per_trick, bottles)

    def dealers(self, game: Game, table: object) -> list[str | None]:
        """Each hand's dealer; with Lopaka the two players alternate, hand 1's the player listed last."""
        assert isinstance(table, Setup)
        if not table.lopaka:
            return hand_dealers(game, game.players)
        humans = [p for p in game.players if p != LOPAKA]
        out: list[str | None] = []
        previous: str | None = None
        for hand in game.hands:
            if hand.dealer is not None and hand.dealer.name in humans:
                dealer: str | None = hand.dealer.name
            elif previous is None:  # Lopaka never deals: a record naming him is answered by the alternation
                dealer = humans[-1] if humans else None
            else:
                dealer = next((p for p in humans if p != previous), previous)
            out.append(dealer)
            previous = dealer
        return out

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        setup = table
        report = Reporter(game, hand)
        if setup.lopaka and hand.dealer is not None and hand.dealer.name == LOPAKA:
            report.add(
                "out-of-turn",
                f"{LOPAKA} never deals: the deal alternates between the two players, "
                f"so {dealer} deals hand {hand.number}",
                hand.dealer.line,
                hand.dealer.column,
                None,
                LOPAKA,
            )
        bottles = [Bottle() for _ in range(setup.bottles)]
        piles: dict[str, list[int]] = {p: [] for p in setup.players}
        history: list[list[int]] = [[START_PRICE] for _ in bottles]

        def settle(played: Played) -> int:
            before = [b.price for b in bottles]
            win = settle_trick(played.cards, played.who, bottles, piles)
            for h, b, old in zip(history, bottles, before):
                if b.price != old:
                    h.append(b.price)
            if steps:
                played.after = (_bottle_state(bottles, history), {p: list(v) for p, v in piles.items()})
            return win

        walk = walk_tricks(hand, setup.order(dealer), setup.per_trick, setup.resolve, settle)
        final = after_exchange(hand, setup.resolve)
        self._record_checks(setup, hand, dealer, walk, final, report)
        packs = self._packs(setup, hand)
        if packs is not None:
            holdings = Holdings(walk, final, packs if setup.two_pack else None)
            revoke_findings(walk, holdings, setup.colour, spell, COLOURS.__getitem__, report)
        if setup.lopaka:
            self._automaton(setup, hand, walk, report)
        complete = len(hand.tricks) == setup.tricks
        scores = self._score(setup, hand, dealer, walk, bottles, piles) if complete and walk.whole else None
        outcome = HandOutcome(scores, complete, setup.tricks, report.findings, walk=walk)
        if steps:
            outcome.steps = self._steps(setup, game, hand, walk, scores)
        return outcome

    # ----------------------------------------------------------------------- checks

    def _record_checks(
        self, setup: Setup, hand: Hand, dealer: str, walk: Walk, final: dict[str, set[int]], report: Reporter
    ) -> None:
        """Turn order and names in tricks, trick counts, repeated cards, deal sizes, exchanges, cards not held.

        `final` is each player's cards after the exchange (`after_exchange`).
        """
        players = setup.players
        n = len(players)
        trick_count_findings(hand, setup.per_trick, report)
        name_findings(walk, players, report)
        duplicate_findings(hand, walk, setup.resolve, spell, report)
        deal_size_findings(hand, players, lambda who: setup.dealt(who, dealer), "the deal gives", report)
        exchange_not_held_findings(hand, setup.resolve, report)
        discarded: dict[str, int] = {}
        for d in hand.discards:
            discarded[d.player.name] = discarded.get(d.player.name, 0) + len(d.cards)
        for d in hand.discards:
            p = d.player.name
            want = 2 if setup.two_pack else 0 if n == 5 and p == dealer else 1
            if setup.lopaka:
                report.add("bad-exchange", f"{p} discards, but with Lopaka nobody discards", d.line, d.column, None, p)
            elif p in players and discarded.get(p) != want:
                msg = f"{p} discards {discarded.get(p)} cards; the rules say {want}"
                report.add("hand-size", msg, d.line, d.column, None, p)
                discarded[p] = want
        for ps in hand.passes:
            g, r = ps.giver.name, ps.receiver.name
            if g not in players or r not in players:
                continue
            i = players.index(g)
            if setup.lopaka:
                if LOPAKA in (g, r) or g == r:
                    msg = f"{g} passes to {r}: only the two players swap a card"
                    report.add("bad-exchange", msg, ps.line, ps.column, None, g)
            elif r not in (players[(i + 1) % n], players[(i - 1) % n]):
                msg = f"{g} passes to {r}, who sits neither after nor before {g}"
                report.add("bad-exchange", msg, ps.line, ps.column, None, g)
        if hand.deals:
            play_not_held_findings(walk, final, spell, report, "after the deal and the exchange")

    def _packs(self, setup: Setup, hand: Hand) -> Callable[[int, int, str, int], object] | None:
        """Which pack the i-th card of a trick came from (0 in one-pack variants), or None when unknowable."""
        if setup.variant == "bright-house":
            return lambda t, i, p, c: i // 2
        if setup.variant != "eye-of-the-demon":
            return lambda t, i, p, c: 0
        where: dict[tuple[str, int], int] = {}
        for deal in hand.deals:
            if deal.player.pack is not None:
                for c in cards_of(deal.cards, setup.resolve):
                    where[(deal.player.name, c)] = deal.player.pack
        if not where:
            return None
        for ps in hand.passes:
            if ps.receiver.pack is not None:
                for c in cards_of((ps.card,), setup.resolve):
                    where[(ps.receiver.name, c)] = ps.receiver.pack
        return lambda t, i, p, c: where.get((p, c), -1)

    def _automaton(self, setup: Setup, hand: Hand, walk: Walk, report: Reporter) -> None:
        """Each play of Lopaka's that is not the card his rules demand, when his whole hand is known."""
        dealt = next((d for d in hand.deals if d.player.name == LOPAKA), None)
        if dealt is not None:
            held = set(cards_of(dealt.cards, setup.resolve))
        elif walk.whole and len(walk.tricks) == setup.tricks:
            held = {c for _, _, p, c in walk.plays() if p == LOPAKA}
        else:
            return
        bottles = [Bottle()]
        for played in walk.tricks:
            who, cards = played.who, played.cards
            if LOPAKA in who:
                i = who.index(LOPAKA)
                want = automaton_choice(held, cards[:i], bottles, setup.colour)
                if want is not None and cards[i] != want:
                    card = played.trick.plays[i].card
                    number = played.trick.number
                    msg = f"Lopaka plays {spell(cards[i])} in trick {number}; his rules demand {spell(want)}"
                    report.add("automaton", msg, card.line, card.column, number, LOPAKA)
                held.discard(cards[i])
            win, taken = judge_trick(cards, bottles)
            if taken is not None:
                bottles[taken].price = cards[win]

    # ----------------------------------------------------------------------- scores

    def _score(
        self, setup: Setup, hand: Hand, dealer: str, walk: Walk, bottles: list[Bottle], piles: dict[str, list[int]]
    ) -> dict[str, int] | None:
        """The hand's scores from its settled tricks."""
        players = setup.players
        n = len(players)
        played = {c for _, _, _, c in walk.plays()}
        imp = imp_trick(setup, hand, played)
        penalty = sum(setup.coins(c) for c in imp)
        own = {p: sum(setup.coins(c) for c in piles[p]) for p in players}
        owners = [b.owner for b in bottles if b.owner is not None]
        for p in players:
            if p in owners:
                own[p] = -penalty * owners.count(p)
        if setup.variant not in ("teams", "teams-2-2-1-1"):
            return own
        seat = {p: (players.index(p) - players.index(dealer)) % n for p in players}
        by_seat = {s: p for p, s in seat.items()}
        out: dict[str, int] = {}
        for p in players:
            team = [by_seat[s] for s in team_of(seat[p], n, setup.variant)]
            if len(team) == 1:
                out[p] = 2 * own[p]
            elif any(m in owners for m in team):
                out[p] = -penalty
            else:
                out[p] = sum(own[m] for m in team)
        return out

    # ----------------------------------------------------------------------- replay

    def _steps(self, setup: Setup, game: Game, hand: Hand, walk: Walk, scores: dict[str, int] | None) -> list[Step]:
        log = StepLog(setup.players, spell, walk, None if setup.two_pack else setup.colour)
        start = [Bottle() for _ in range(setup.bottles)]
        log.detail = _bottle_state(start, [[START_PRICE] for _ in start])
        for line in hand.lines:
            if isinstance(line, Deal):
                log.deal(line, setup.resolve)
            elif isinstance(line, Discard):
                log.discard(line, setup.resolve)
            elif isinstance(line, Pass):
                log.pass_card(line, setup.resolve)
            elif isinstance(line, Open):
                log.line("open", line.player.name, (), line, text=str(line.pack))
            elif isinstance(line, ImpTrick):
                log.line("imp", None, line.cards, line)
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for played in tricks:
            for i in range(len(played.cards)):
                log.play(played, i)
            if played.winner is not None:
                log.detail, piles = played.after
                log.trick_end(played, piles)
        shown, what = self._shown_imp(setup, hand, walk)
        log.end(hand, scores, shown, what)
        return log.steps

    def _shown_imp(self, setup: Setup, hand: Hand, walk: Walk) -> tuple[list[int], str | None]:
        """The imp's trick turned over at the end of the hand, and where it is known from (nothing when unknown)."""
        discards = [c for d in hand.discards for c in d.cards]
        imps = [line for line in hand.imps if not any(c.unknown for c in line.cards)]
        if discards and not any(c.unknown for c in discards):
            where = "the discards"
        elif imps:
            where = "as turned over"
        elif walk.whole and len(walk.tricks) == setup.tricks:
            where = "the cards no trick holds"
        else:
            return [], None
        played = {c for _, _, _, c in walk.plays()}
        cards = sorted(imp_trick(setup, hand, played))
        return cards, f"the imp's trick ({where}), {sum(setup.coins(c) for c in cards)} coins"


def _bottle_state(bottles: list[Bottle], history: list[list[int]]) -> BottleState:
    return BottleState(
        tuple((spell(b.price), b.owner) for b in bottles),
        tuple(tuple(spell(c) for c in h) for h in history),
    )


RULESET = BottleImp()


# --------------------------------------------------------------------------- playing: positions and simulated deals


class BottlePosition:
    """A Bottle Imp hand being played, every card visible (see `imptools.rules.base.Position`).

    Each player's cards are kept by pack (one pack in the one-pack variants).
    The legal cards, the trick's judging and Lopaka's automaton are the same
    functions the checker uses; `undo` restores the bottles, the piles and the leader.
    """

    def __init__(self, setup: Setup, dealer: str, packs: dict[str, list[set[int]]], opened: dict[str, int]) -> None:
        self.setup = setup
        self.order = setup.order(dealer)
        self.per_trick = setup.per_trick
        self.packs = packs
        self.opened = opened
        self.bottles = [Bottle() for _ in range(setup.bottles)]
        self.piles: dict[str, list[int]] = {p: [] for p in setup.players}
        self.leader = 0
        self.trick: list[int] = []
        self._undo: list[tuple[str, int, int, int, list[int], list[tuple[int, str | None]], dict[str, int]]] = []

    @property
    def hands(self) -> dict[str, set[int]]:
        """Each player's cards, all packs together."""
        return {p: set().union(*packs) for p, packs in self.packs.items()}

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % len(self.order)]

    def _slots(self, player: str) -> list[int]:
        """The packs the next card may come from: Bright House plays the open pack first, then the hidden one."""
        if self.setup.variant == "bright-house":
            first = self.opened.get(player, 0)
            return [first if len(self.trick) < 2 else 1 - first]
        return list(range(len(self.packs[player])))

    def legal(self) -> list[int]:
        player = self.to_move()
        led = self.setup.colour(self.trick[0]) if self.trick else None
        out: list[int] = []
        for k in self._slots(player):
            out += follow(self.packs[player][k], led, self.setup.colour)
        return sorted(out)

    def forced(self) -> int | None:
        if self.setup.lopaka and self.to_move() == LOPAKA:
            return automaton_choice(self.packs[LOPAKA][0], self.trick, self.bottles, self.setup.colour)
        return None

    def play(self, card: int) -> None:
        player = self.to_move()
        k = next(k for k in self._slots(player) if card in self.packs[player][k])
        piles = {p: len(v) for p, v in self.piles.items()}
        bottles = [(b.price, b.owner) for b in self.bottles]
        self._undo.append((player, card, k, self.leader, list(self.trick), bottles, piles))
        self.packs[player][k].remove(card)
        self.trick.append(card)
        if len(self.trick) == self.per_trick:
            n = len(self.order)
            who = [self.order[(self.leader + i) % n] for i in range(self.per_trick)]
            win = settle_trick(self.trick, who, self.bottles, self.piles)
            self.leader = (self.leader + win) % n
            self.trick = []

    def undo(self) -> None:
        player, card, k, self.leader, self.trick, bottles, piles = self._undo.pop()
        self.packs[player][k].add(card)
        for b, (price, owner) in zip(self.bottles, bottles):
            b.price, b.owner = price, owner
        for p, size in piles.items():
            del self.piles[p][size:]

    def done(self) -> bool:
        return not self.trick and not any(any(packs) for packs in self.packs.values())

    def spell(self, card: int) -> str:
        return spell(card)


class BottleSimulator:
    """Deals random Bottle Imp hands: the deal, discards, passes and opened packs as the variant says."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def deal(self, dealer: str, rng: Random, better: bool = False) -> DealtHand:
        """The deal and the exchange; the exchange is random for either bot."""
        setup = self.setup
        cards = sorted(setup.cards)
        rng.shuffle(cards)
        sizes = PACK_SIZES.get(setup.variant, {1: 0})
        packs: dict[str, list[set[int]]] = {}
        for p in setup.order(dealer):
            packs[p] = []
            for number in sizes:
                size = setup.dealt(NameRef(p, 0, 0, number if setup.two_pack else None), dealer) or 0
                packs[p].append(set(cards[:size]))
                cards = cards[size:]
        lines: list[str] = []
        for p in setup.players:
            for k, dealt in enumerate(packs[p]):
                name = f"{p}.{k + 1}" if setup.two_pack else p
                lines.append(f"deal {name} " + " ".join(spell(c) for c in sorted(dealt)))
        discards, moves = self._exchange(dealer, packs, rng)
        lines += [f"discard {p} " + " ".join(spell(c) for c in discards[p]) for p in setup.players if p in discards]
        for giver, _, _, card in moves:
            for held in packs[giver]:
                held.discard(card)
        for giver, receiver, k, card in moves:
            packs[receiver][k].add(card)
            into = f"{receiver}.{k + 1}" if setup.two_pack else receiver
            lines.append(f"pass {giver} > {into} {spell(card)}")
        opened: dict[str, int] = {}
        if setup.variant == "bright-house":
            for p in setup.players:
                opened[p] = rng.randrange(2)
                lines.append(f"open {p} {opened[p] + 1}")
        return DealtHand(lines, BottlePosition(setup, dealer, packs, opened))

    def _exchange(
        self, dealer: str, packs: dict[str, list[set[int]]], rng: Random
    ) -> tuple[dict[str, list[int]], list[tuple[str, str, int, int]]]:
        """Discard (taken from `packs` at once) and choose the passes: (giver, receiver, receiving pack, card)."""
        setup = self.setup
        players, n = setup.players, len(setup.players)
        if setup.lopaka:
            a, b = (p for p in players if p != LOPAKA)
            return {}, [(a, b, 0, rng.choice(sorted(packs[a][0]))), (b, a, 0, rng.choice(sorted(packs[b][0])))]
        moves: list[tuple[str, str, int, int]] = []
        discards: dict[str, list[int]] = {}
        for p in players:
            other = players[(players.index(p) + 1) % n]
            if setup.variant == "bright-house":
                for k in (0, 1):
                    gone, give = rng.sample(sorted(packs[p][k]), 2)
                    packs[p][k].discard(gone)
                    discards.setdefault(p, []).append(gone)
                    moves.append((p, other, k, give))
            elif setup.variant == "eye-of-the-demon":
                gone1, gone2, give1, give2 = rng.sample(sorted(packs[p][1]), 4)
                packs[p][1].difference_update((gone1, gone2))
                discards[p] = [gone1, gone2]
                moves += [(p, other, 0, give1), (p, other, 1, give2)]
            else:
                if not (n == 5 and p == dealer):
                    gone = rng.choice(sorted(packs[p][0]))
                    packs[p][0].discard(gone)
                    discards[p] = [gone]
                i = players.index(p)
                two = rng.sample(sorted(packs[p][0]), 2)
                moves += [(p, players[(i + 1) % n], 0, two[0]), (p, players[(i - 1) % n], 0, two[1])]
        return discards, moves

    def better_bot(self, position: Position, rng: Random) -> int:
        """Keep away from the bottle: the highest card that cannot take it, else the lowest card."""
        assert isinstance(position, BottlePosition)
        legal = position.legal()
        price = max(b.price for b in position.bottles)
        safe = [c for c in legal if c > price]
        return max(safe) if safe else min(legal)
