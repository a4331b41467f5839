"""The Bottle Imp ruleset: plays a record's hands through the game's logic, judging, scoring and building steps."""

from __future__ import annotations

from collections.abc import Callable

from imptools.record import Deal, Discard, Game, Hand, ImpTrick, Open, Pass
from imptools.rules.base import CardCheck, CardFace, FactKind
from imptools.rules.bottle_imp.bottles import Bottle, BottleState, automaton_choice, judge_trick, settle_trick, team_of
from imptools.rules.bottle_imp.cards import (
    CARD,
    COLOURS,
    START_PRICE,
    STYLES,
    TRICKS,
    Table,
    card_number,
    deck,
    deck_name,
    spell,
)
from imptools.rules.bottle_imp.setup import Setup, default_variant, imp_trick, seats_text
from imptools.rules.bottle_imp.simulate import BottleSimulator
from imptools.rules.bottle_imp.variants import BY_NAME, LOPAKA, SEATS, VARIANTS
from imptools.rules.checks import (
    deal_size_findings,
    duplicate_findings,
    exchange_card_findings,
    name_findings,
    partly_dealt,
    play_not_held_findings,
    trick_count_findings,
)
from imptools.rules.exchange import after_exchange, cards_of
from imptools.rules.holdings import Holdings, revoke_findings
from imptools.rules.report import Reporter
from imptools.rules.steps import Step, StepLog
from imptools.rules.template import HandOutcome, TrickRuleset
from imptools.rules.tricks import Played, Walk, hand_dealers, walk_tricks

FACTS = (
    FactKind("bottle", "hands ending with the bottle"),
    FactKind("coins", "coins per hand", per_hand=True),
)
"""A player's facts of a scored hand: he held a bottle (either of two) when the hand ended; his coins as the scoring
counts them (his won pile, or minus the imp's trick for each bottle he holds), before a team shares them."""


class BottleImp(TrickRuleset):
    """The Bottle Imp, every variant: cards `1`..`37` without 19 (and the half cards with 5-6 players)."""

    name = "bottle-imp"
    variants = VARIANTS
    facts = FACTS

    def named_seats(self, variant: str | None) -> tuple[str, ...]:
        """The automaton of a variant that has one (Lopaka), who sits at the table under his own name."""
        record = BY_NAME.get(variant or "")
        return (record.automaton,) if record is not None and record.automaton is not None else ()

    _last: tuple[Game, Table, str] | None = None
    """The deck of the game whose cards were checked last (its tokens come one after another)."""

    def _deck(self, game: Game) -> tuple[Table, str]:
        last = self._last
        if last is None or last[0] is not game:
            last = self._last = (game, deck(game), deck_name(game))
        return last[1], last[2]

    def check_card(self, text: str, game: Game) -> CardCheck:
        m = CARD.fullmatch(text)
        cards, name = self._deck(game)
        spelled = m.group(1) if m is not None else ""
        whole, _, half = spelled.partition(".")
        number = 2 * int(whole) + (1 if half else 0) if m is not None else None  # card_number, the match made once
        if m is None or number not in cards or (m.group(2) and m.group(2).lower() not in COLOURS):
            return CardCheck(None, "unknown-card", f"`{text}` is not a card of this deck ({name})")
        assert number is not None
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
        return CardFace(spell(number), COLOURS[colour], STYLES[colour], 1000 * list(COLOURS).index(colour) + number)

    def deck(self, game: Game) -> list[str]:
        """The numbers of the game's deck, lowest first (the half cards among them with 5-6 players)."""
        return [spell(c) for c in sorted(deck(game))]

    def simulator(self, game: Game) -> BottleSimulator | None:
        """Random deals for every variant."""
        setup = self.table(game)
        return None if setup is None else BottleSimulator(setup)

    def players_problem(self, game: Game) -> str | None:
        """Why the variant cannot be played by the players `Players` names (None when it can)."""
        variant = default_variant(game)
        n = len(game.players)
        seats = SEATS.get(variant)
        if seats is None:
            return None  # an unknown variant is reported on its own tag
        if n not in seats:
            return (
                f"Players names {n} player{'s' if n != 1 else ''}; the Bottle Imp's {variant} seats {seats_text(seats)}"
            )
        automaton = BY_NAME[variant].automaton
        if automaton is not None and automaton not in game.players:
            return f"the {variant} variant is two players and {automaton}: name him in Players as `{automaton}`"
        return None

    def table(self, game: Game) -> Setup | None:
        rules = BY_NAME.get(default_variant(game))
        n = len(game.players)
        if rules is None or n not in TRICKS or self.players_problem(game) is not None:
            return None
        per_trick = 4 if rules.two_pack else n
        return Setup(rules, game.players, deck(game), deck_name(game), TRICKS[n], per_trick)

    def dealers(self, game: Game, table: object) -> list[str | None]:
        """Each hand's dealer; with Lopaka the two players alternate, hand 1's the player listed last."""
        assert isinstance(table, Setup)
        if table.automaton is None:
            return hand_dealers(game, game.players)
        return hand_dealers(game, game.players, [p for p in game.players if p != table.automaton])

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        setup = table
        report = Reporter(game, hand)
        automaton = setup.automaton
        if automaton is not None and hand.dealer is not None and hand.dealer.name == automaton:
            report.add(
                "out-of-turn",
                f"{automaton} never deals: the deal alternates between the two players, "
                f"so {dealer} deals hand {hand.number}",
                hand.dealer.line,
                hand.dealer.column,
                None,
                automaton,
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

        walk = walk_tricks(hand, setup.order(dealer), setup.per_trick, setup.resolve, settle, setup.filler(hand))
        final = after_exchange(hand, setup.resolve)
        self._record_checks(setup, hand, dealer, walk, final, report)
        packs = self._packs(setup, hand)
        if packs is not None:
            holdings = Holdings(walk, final, packs if setup.two_pack else None)
            revoke_findings(walk, holdings, setup.colour, spell, COLOURS.__getitem__, report)
        if setup.automaton is not None:
            self._automaton(setup, hand, walk, report)
        complete = len(hand.tricks) == setup.tricks
        scores: dict[str, int] | None = None
        facts: tuple[tuple[str, str, int], ...] = ()
        if complete and walk.whole:
            own, owners, penalty = self._coins(setup, hand, walk, bottles, piles)
            scores = self._score(setup, dealer, own, owners, penalty)
            facts = (
                *((p, "bottle", 1) for p in setup.players if p in owners),
                *((p, "coins", own[p]) for p in setup.players if own[p]),
            )
        outcome = HandOutcome(scores, complete, setup.tricks, report.findings, facts=facts, walk=walk)
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
        trick_count_findings(hand, setup.per_trick, report, setup.resolve)
        name_findings(walk, players, report)
        duplicate_findings(hand, walk, setup.resolve, spell, report)
        deal_size_findings(hand, players, lambda who: setup.dealt(who, dealer), "the deal gives", report)
        exchange_card_findings(hand, setup.resolve, report)
        discarded: dict[str, int] = {}
        for d in hand.discards:
            discarded[d.player.name] = discarded.get(d.player.name, 0) + len(d.cards)
        for d in hand.discards:
            p = d.player.name
            want = 2 if setup.two_pack else 0 if n == 5 and p == dealer else 1
            if setup.automaton is not None:
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
            if setup.automaton is not None:
                if LOPAKA in (g, r) or g == r:
                    msg = f"{g} passes to {r}: only the two players swap a card"
                    report.add("bad-exchange", msg, ps.line, ps.column, None, g)
            elif r not in (players[(i + 1) % n], players[(i - 1) % n]):
                msg = f"{g} passes to {r}, who sits neither after nor before {g}"
                report.add("bad-exchange", msg, ps.line, ps.column, None, g)
        if hand.deals:
            play_not_held_findings(
                walk, final, spell, report, "after the deal and the exchange", None, partly_dealt(hand, setup.resolve)
            )

    def _packs(self, setup: Setup, hand: Hand) -> Callable[[int, int, str, int], object] | None:
        """Which pack the i-th card of a trick came from (0 in one-pack variants), or None when unknowable."""
        if setup.rules.open_pack:
            return lambda t, i, p, c: i // 2
        if not setup.two_pack:
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

    def _coins(
        self, setup: Setup, hand: Hand, walk: Walk, bottles: list[Bottle], piles: dict[str, list[int]]
    ) -> tuple[dict[str, int], list[str], int]:
        """Each player's own hand score from the settled tricks (his won pile's coins, or minus the imp's trick for
        each bottle he holds), the owner of each bottle owned at the end, and the imp's trick's coins."""
        played = {c for _, _, _, c in walk.plays()}
        imp = imp_trick(setup, hand, played)
        penalty = sum(setup.coins(c) for c in imp)
        own = {p: sum(setup.coins(c) for c in piles[p]) for p in setup.players}
        owners = [b.owner for b in bottles if b.owner is not None]
        for p in setup.players:
            if p in owners:
                own[p] = -penalty * owners.count(p)
        return own, owners, penalty

    def _score(self, setup: Setup, dealer: str, own: dict[str, int], owners: list[str], penalty: int) -> dict[str, int]:
        """The hand's scores from the players' own (`_coins`): teams share theirs, a solo player scores double."""
        players = setup.players
        n = len(players)
        if not setup.rules.teams:
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
