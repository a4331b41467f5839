"""The Botifarra ruleset: plays a record's hands through the game's logic, judging, scoring and building steps."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from imptools.findings import Finding
from imptools.record import Call, Deal, Discard, Game, Hand, Pass, Trick, Trump
from imptools.rules.base import CardCheck, CardFace
from imptools.rules.botifarra.calls import (
    FACTS,
    PARTNERSHIP,
    CallLine,
    Calls,
    call_facts,
    judge_calls,
    side_name,
    unreadable,
)
from imptools.rules.botifarra.cards import (
    ORDER,
    SUIT_NAMES,
    card_name,
    card_number,
    deck,
    describe,
    rank_of,
    spell,
    strength,
    suit_of,
    trick_winner,
)
from imptools.rules.botifarra.judging import plays_distinct, suspect_plays
from imptools.rules.botifarra.obligations import LLIURE, Violation, check_play
from imptools.rules.botifarra.scoring import (
    TARGET,
    Piles,
)
from imptools.rules.botifarra.setup import STYLES, VARIANTS, Setup, players_problem, setup_of
from imptools.rules.botifarra.simulate import BotifarraSimulator
from imptools.rules.botifarra.tally import Tally, hand_score
from imptools.rules.checks import (
    deal_size_findings,
    duplicate_findings,
    name_findings,
    partly_dealt,
    play_not_held_findings,
    trick_count_findings,
)
from imptools.rules.exchange import Resolve, after_exchange, cards_of
from imptools.rules.holdings import Holdings
from imptools.rules.report import Reporter
from imptools.rules.steps import Step, StepLog
from imptools.rules.template import HandOutcome, TrickRuleset
from imptools.rules.tricks import Played, Walk, turn_order, walk_tricks


@dataclass(frozen=True, slots=True)
class BotifarraState:
    """Botifarra's part of a replay state: trump, who chose it, the calls, the multiplier, the sides' points.

    `points` and `tricks` are per side (a player alone is a side); `face_up`
    (two players) each player's face-up pile cards.
    """

    trump: str | None = None
    chooser: str | None = None
    delegated_by: str | None = None
    calls: tuple[tuple[str, str], ...] = ()
    multiplier: int = 1
    points: tuple[tuple[str, int], ...] = ()
    tricks: tuple[tuple[str, int], ...] = ()
    face_up: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.trump is not None:
            by = f"named by {self.chooser}" + (f", {self.delegated_by} delegated" if self.delegated_by else "")
            out.append(("trump", f"{self.trump} ({by})"))
        elif self.delegated_by:
            out.append(("trump", f"{self.delegated_by} delegated the choice"))
        if self.calls:
            out.append(("calls", ", ".join(f"{k} {p}" for k, p in self.calls)))
        out.append(("multiplier", f"x{self.multiplier}"))
        if self.points:
            out.append(("points", ", ".join(f"{s} {v}" for s, v in self.points)))
            out.append(("tricks", ", ".join(f"{s} {v}" for s, v in self.tricks)))
        for p, cards in self.face_up:
            out.append((f"{p} face up", " ".join(cards) or "-"))
        return out


def call_lines(setup: Setup, hand: Hand) -> list[tuple[CallLine, Trump | Call]]:
    """The hand's call lines by the game's players, in the order written, each with the line it reads."""
    lines: list[tuple[CallLine, Trump | Call]] = []
    for line in hand.lines:
        if isinstance(line, Trump) and line.player.name in setup.players:
            lines.append((CallLine("trump", line.player.name, line.suit.lower()), line))
        elif isinstance(line, Call) and line.player.name in setup.players:
            lines.append((CallLine(line.kind, line.player.name), line))
    return lines


class Botifarra(TrickRuleset):
    """Botifarra, every variant: cards `1o` .. `12b` (three players play without the 2s, 3s and 4s)."""

    name = "botifarra"
    variants = VARIANTS
    tag_words = (("Teams", ("none",)),)
    facts = FACTS
    default_target = TARGET

    def check_card(self, text: str, game: Game) -> CardCheck:
        return _check_card(text, len(game.players))

    def card_face(self, text: str, game: Game) -> CardFace:
        """The card with its suit (`12e` is espases); a hand sorts by suit, then 9 1 12 11 10 8 7 ... 2."""
        c = card_number(text)
        if c is None:
            return CardFace(text)
        order = 100 * suit_of(c) + ORDER.index(rank_of(c))
        return CardFace(spell(c), SUIT_NAMES[suit_of(c)], STYLES[suit_of(c)], order)

    def table(self, game: Game) -> Setup | None:
        return setup_of(game)

    def players_problem(self, game: Game) -> str | None:
        """Why the game's table cannot play with the players `Players` names (None when it can)."""
        return players_problem(game)

    def deck(self, game: Game) -> list[str]:
        """The cards of the game's deck (36 with three players), suit by suit, each suit highest first."""
        setup = setup_of(game)
        cards = setup.cards if setup is not None else deck(len(game.players) or 4)
        return [spell(c) for c in sorted(cards, key=lambda c: (suit_of(c), -strength(c)))]

    def simulator(self, game: Game) -> BotifarraSimulator | None:
        """Random deals for every table: partnership, individual, three players and the two-player piles."""
        setup = setup_of(game)
        return None if setup is None else BotifarraSimulator(setup)

    def sides(self, game: Game, table: object) -> tuple[tuple[str, ...], ...]:
        """Partners score together for the whole game."""
        assert isinstance(table, Setup)
        return table.seating.sides() if table.seating.mode == PARTNERSHIP else ()

    def game_notes(self, game: Game, table: object, totals: dict[str, int], over: bool) -> tuple[tuple[str, str], ...]:
        """The race to the target: each side's total and what it still needs."""
        assert isinstance(table, Setup)
        tag = game.tag("Target")
        target = int(tag) if tag and tag.lstrip("-").isdigit() else TARGET
        goal = f"first to {target}" if tag else "first past 100"
        race = ", ".join(
            f"{side_name(side)} {totals.get(side[0], 0)}"
            + ("" if totals.get(side[0], 0) >= target else f" ({target - totals.get(side[0], 0)} to go)")
            for side in table.seating.sides()
        )
        return (("race", f"{goal}: {race}"),)

    # ----------------------------------------------------------------------- one hand

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        setup = table
        report = Reporter(game, hand)
        calls, call_lines = self._calls(setup, hand, dealer, report)
        tally = Tally({p: [] for p in setup.players}, dict.fromkeys(setup.players, 0), dict.fromkeys(setup.players, 0))
        tricks = hand.tricks

        def settle(played: Played) -> int:
            if calls.named:
                win = trick_winner(played.cards, calls.trump)
            else:
                named = _named_next_leader(tricks, played)
                win = trick_winner(played.cards, None) if named is None else named
            tally.take(played.who[win], played.cards)
            if steps:  # the points after each trick are for the replay alone
                played.after = (tally.points(setup), tally.side_tricks(setup))
            return win

        order = turn_order(setup.players, dealer)
        walk = walk_tricks(hand, order, len(setup.players), setup.resolve, settle, setup.filler(hand))
        if calls.named:
            final = self._record_checks(setup, hand, walk, report)
        else:
            final = self._proven_whatever_the_trump(setup, hand, order, report)
        offenders: list[str] = []
        if calls.named:
            if setup.two_player:
                offenders = self._pile_rules(setup, hand, walk, final, calls.trump, report)
            else:
                offenders = self._play_rules(setup, walk, final, calls.trump, report)
        complete = len(tricks) == setup.tricks
        scores: dict[str, int] | None = None
        if complete and walk.whole and calls.named:
            scores = self._score(setup, tally, calls.multiplier, offenders)
        notes = self._notes(setup, calls, tally, offenders, scores is not None)
        facts = call_facts(calls, setup.seating, scores) if scores is not None else ()
        outcome = HandOutcome(scores, complete, setup.tricks, report.findings, notes=notes, facts=facts, walk=walk)
        if steps:
            outcome.steps = self._steps(setup, hand, dealer, walk, call_lines, scores)
        return outcome

    def _calls(
        self, setup: Setup, hand: Hand, dealer: str, report: Reporter
    ) -> tuple[Calls, list[tuple[CallLine, Trump | Call]]]:
        """Judge the hand's call lines; each bad one, and a hand that names no trump, is `bad-call`."""
        lines = call_lines(setup, hand)
        calls = judge_calls([c for c, _ in lines], dealer, setup.seating)
        for bad in calls.bad:
            call, line = lines[bad.index]
            report.add(bad.code, bad.reason, line.line, line.column, None, call.player)
        if not hand.trumps:
            msg = f"hand {hand.number} has no trump line: it is not scored"
            report.add("bad-call", msg, hand.line, hand.column, None, None)
        elif not calls.named and not any(c.kind == "trump" and unreadable(c.word) for c, _ in lines):
            msg = f"no trump line of hand {hand.number} names a suit: it is not scored"
            report.add("bad-call", msg, hand.line, hand.column, None, None)
        return calls, lines

    def _proven_whatever_the_trump(
        self, setup: Setup, hand: Hand, order: list[str], report: Reporter
    ) -> dict[str, set[int]]:
        """`_record_checks` for a hand whose trump no line names: who played which card after a trick won by a
        card of another suit than the one led depends on the trump, so only the findings that hold whatever the
        trump (each suit, and none), each trick won as the rules give it, are proven and reported
        (docs/decisions.md, "A Botifarra hand whose trump no line names"). A leader the record names is no proof
        of the trump: the name may be the slip (`out-of-turn` wherever every trump gives the lead to another).
        """
        readings: list[list[Finding]] = []
        final: dict[str, set[int]] = {}
        for trump in (None, 0, 1, 2, 3):
            other = walk_tricks(
                hand,
                order,
                len(setup.players),
                setup.resolve,
                functools.partial(_won_under, trump=trump),
                setup.filler(hand),
            )
            reading = Reporter(report.game, report.hand)
            final = self._record_checks(setup, hand, other, reading)
            readings.append(reading.findings)
        report.findings.extend(f for f in readings[0] if all(f in found for found in readings[1:]))
        return final

    def _record_checks(self, setup: Setup, hand: Hand, walk: Walk, report: Reporter) -> dict[str, set[int]]:
        """Trick counts, names, repeated cards, deal sizes, lines the game has no use for, cards not held.

        Returns each player's whole deal, for the players whose every `deal` line is recorded.
        """
        players = setup.players
        trick_count_findings(hand, len(players), report, setup.resolve)
        name_findings(walk, players, report)
        deals = hand.deals
        dealt, twice = dealt_cards(deals, setup.resolve)
        if twice or not plays_distinct(walk):  # else no card is dealt or played twice
            duplicate_findings(hand, walk, setup.resolve, spell, report)
        deal_size_findings(hand, players, setup.dealt, "the deal gives", report)
        exchange: list[Discard | Pass] = [*hand.discards, *hand.passes]
        lines: list[Deal | Discard | Pass] = [*deals, *exchange]
        for line in lines:
            if isinstance(line, Deal):
                who = line.player
                if setup.two_player and who.pack is not None and not 1 <= who.pack <= setup.piles:
                    msg = f"{who.name} has no pile {who.pack}: {setup.variant} lays out {setup.piles} piles"
                    report.add("hand-size", msg, line.line, line.column, None, who.name)
            else:
                p = line.player.name if isinstance(line, Discard) else line.giver.name
                msg = f"{p} {'discards' if isinstance(line, Discard) else 'passes'}, but Botifarra has no exchange"
                report.add("bad-exchange", msg, line.line, line.column, None, p)
        recorded: dict[str, set[int | None]] = {}
        for deal in deals:
            recorded.setdefault(deal.player.name, set()).add(deal.player.pack)
        whole = (
            {None} if not setup.two_player else set(range(1, setup.piles + 1)) | ({None} if setup.in_hand else set())
        )
        held = after_exchange(hand, setup.resolve) if exchange else dealt
        final = {p: cards for p, cards in held.items() if whole <= recorded.get(p, set())}
        play_not_held_findings(walk, final, spell, report, "in the deal", None, partly_dealt(hand, setup.resolve))
        return final

    def _play_rules(
        self, setup: Setup, walk: Walk, final: dict[str, set[int]], trump: int | None, report: Reporter
    ) -> list[str]:
        """Judge every play of a three- or four-player hand against the obligation table; the offenders in play order.

        What a player held is what the record proves: the cards they play from
        then on and, when their deal is recorded, the rest of it.
        """
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        partners = {p: setup.seating.partners(p) for p in setup.players}
        suspects = suspect_plays(setup.rules, trump, tricks, partners, final)
        if not suspects:
            return []
        holdings = Holdings(walk, final)
        offenders: list[str] = []
        for t, i in suspects:  # judged again card by card, for the evidence
            played = tricks[t]
            p, card = played.who[i], played.cards[i]
            held = holdings.before(t, i)
            lying = list(zip(played.who[:i], played.cards[:i]))
            v = check_play(setup.rules, trump, lying, partners.get(p, frozenset()), set(held), card)
            if v is not None:
                self._report(v, played, i, lying, held.get, report)
                offenders.append(p)
        return offenders

    def _pile_rules(
        self,
        setup: Setup,
        hand: Hand,
        walk: Walk,
        final: dict[str, set[int]],
        trump: int | None,
        report: Reporter,
    ) -> list[str]:
        """Judge a two-player hand: cards played from under a pile's top (`not-visible`) and `lliure` over the
        cards each player could play (the face-up pile cards and the hand); the offenders in play order."""
        piles = hand_piles(setup, hand)
        in_hand = hand_cards(setup, hand)
        holdings = Holdings(walk, final)
        played_before: dict[str, set[int]] = {p: set() for p in setup.players}
        offenders: list[str] = []
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for t, played in enumerate(tricks):
            for i, (p, card) in enumerate(zip(played.who, played.cards)):
                mine = piles.get(p)
                k = mine.pile_of(card) if mine is not None else None
                if mine is not None and k is not None and not mine.visible(card):
                    play = played.trick.plays[i].card
                    top = next(iter(mine.piles[k]))
                    msg = (
                        f"{p} played {describe(card)} from pile {k + 1} before it was turned up "
                        f"({describe(top)} lay on top)"
                    )
                    report.add("not-visible", msg, play.line, play.column, played.trick.number, p)
                    offenders.append(p)
                elif i > 0:
                    where: dict[int, str] = {}
                    if mine is not None:
                        where = {c: f"face up on pile {(mine.pile_of(c) or 0) + 1}" for c in mine.tops()}
                    if p in in_hand:
                        where.update({c: "in hand" for c in in_hand[p] - played_before[p]})
                    elif mine is not None and len(mine.piles) == setup.piles:
                        held = holdings.before(t, i)
                        where.update({c: "in hand" for c in held if mine.pile_of(c) is None})
                    lying = [(played.who[0], played.cards[0])]
                    v = check_play(LLIURE, trump, lying, frozenset(), set(where), card)
                    if v is not None:
                        self._report(v, played, i, lying, where.get, report)
                        offenders.append(p)
                if mine is not None and k is not None:
                    piles[p] = mine.without(card)
                played_before[p].add(card)
        return offenders

    @staticmethod
    def _report(
        v: Violation,
        played: Played,
        i: int,
        lying: Sequence[tuple[str, int]],
        evidence: Callable[[int], str | None],
        report: Reporter,
    ) -> None:
        """One play rule broken, with the card that proves it and where the record shows it."""
        p = played.who[i]
        proofs = sorted(v.held, key=lambda c: (not (evidence(c) or "").startswith("played"), strength(c)))
        proof = proofs[0] if proofs else None
        holding = f"holding {describe(proof)}, {evidence(proof)}" if proof is not None else "holding it"
        master_p, master_c = lying[v.master] if v.master is not None else (None, None)
        under = f"{master_p}'s {card_name(master_c)}" if master_p is not None and master_c is not None else "the trick"
        n = played.trick.number
        if v.code == "revoke":
            led = SUIT_NAMES[suit_of(lying[0][1])]
            msg = f"{p} did not follow {led} in trick {n} (played {describe(v.card)}) while {holding}"
        elif v.code == "must-beat":
            msg = f"{p} had to beat {under} ({holding}) but played {describe(v.card)}"
        elif v.code == "must-trump":
            msg = f"{p} had to trump {under} ({holding}) but played {describe(v.card)}"
        else:
            msg = f"{p} had to {v.duty} under {under} ({holding}) but played {describe(v.card)}"
        card = played.trick.plays[i].card
        report.add(v.code, msg, card.line, card.column, n, p)

    # ----------------------------------------------------------------------- scores and notes

    @staticmethod
    def _score(setup: Setup, tally: Tally, multiplier: int, offenders: Sequence[str]) -> dict[str, int]:
        """The hand's scores (`hand_score`)."""
        return hand_score(setup, tally, multiplier, offenders)

    @staticmethod
    def _notes(
        setup: Setup, calls: Calls, tally: Tally, offenders: Sequence[str], scored: bool
    ) -> tuple[tuple[str, str], ...]:
        """Trump, calls, multiplier, the sides' points (seating order), who broke a play rule: for the score sheet."""
        notes = [("trump", calls.trump_word or "none"), ("calls", " ".join(k for k, _ in calls.doubles) or "-")]
        notes.append(("x", str(calls.multiplier)))
        if scored:
            notes.append(("points", "-".join(str(v) for v in tally.points(setup).values())))
            if offenders:
                notes.append(("penalty", ", ".join(dict.fromkeys(offenders))))
        return tuple(notes)

    # ----------------------------------------------------------------------- replay

    def _steps(
        self,
        setup: Setup,
        hand: Hand,
        dealer: str,
        walk: Walk,
        call_lines: list[tuple[CallLine, Trump | Call]],
        scores: dict[str, int] | None,
    ) -> list[Step]:
        log = StepLog(setup.players, spell, walk, None if setup.two_player else _suit_name)
        sides = [side_name(s) for s in setup.seating.sides()]
        zero = tuple((s, 0) for s in sides)
        piles = hand_piles(setup, hand) if setup.two_player else {}
        state = BotifarraState(points=zero, tricks=zero, face_up=_face_up(piles))
        seen: list[CallLine] = []
        log.detail = state
        for line in hand.lines:
            if isinstance(line, Deal):
                if setup.two_player:
                    laid = hand_piles(setup, hand, upto=line)
                    state = replace(state, face_up=_face_up(laid))
                    log.detail = state
                    log.stacks = _stacks(laid)
                log.deal(line, setup.resolve)
            elif isinstance(line, (Discard, Pass)):
                if isinstance(line, Discard):
                    log.discard(line, setup.resolve)
                else:
                    log.pass_card(line, setup.resolve)
            elif isinstance(line, (Trump, Call)):
                call = next((c for c, ln in call_lines if ln is line), None)
                if call is not None:
                    seen.append(call)
                so_far = judge_calls(seen, dealer, setup.seating)
                state = replace(
                    state,
                    trump=so_far.trump_word,
                    chooser=so_far.chooser,
                    delegated_by=so_far.delegated_by,
                    calls=so_far.doubles,
                    multiplier=so_far.multiplier,
                )
                log.detail = state
                if isinstance(line, Trump):
                    log.line("trump", line.player.name, (), line, text=line.suit)
                else:
                    log.line("call", line.player.name, (), line, text=line.kind)
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for played in tricks:
            for i, (p, c) in enumerate(zip(played.who, played.cards)):
                if p in piles and piles[p].pile_of(c) is not None:
                    piles[p] = piles[p].without(c)
                    state = replace(state, face_up=_face_up(piles))
                    log.detail = state
                    log.stacks = _stacks(piles)
                log.play(played, i, 0 if not setup.two_player else None)
            if played.winner is not None:
                points, won = played.after
                state = replace(state, points=tuple(points.items()), tricks=tuple(won.items()))
                log.detail = state
                log.trick_end(played)
        log.end(hand, scores)
        return log.steps


@functools.lru_cache(maxsize=2048)
def _check_card(text: str, players: int) -> CardCheck:
    """`Botifarra.check_card` at a table of `players`, worked out once per token."""
    c = card_number(text)
    if c is None:
        return CardCheck(
            None, "unknown-card", f"`{text}` is not a botifarra card (rank 1-12 then o, c, e or b: `9o`, `12e`)"
        )
    if c not in deck(players):
        return CardCheck(None, "unknown-card", f"`{text}` is not in the three-player deck, which has no 2, 3 or 4")
    return CardCheck(spell(c))


def _suit_name(card: int) -> str:
    return SUIT_NAMES[suit_of(card)]


def _won_under(played: Played, trump: int | None) -> int:
    """The place in its trick of the card that wins `played` with `trump` (None: no trumps)."""
    return trick_winner(played.cards, trump)


def _named_next_leader(tricks: Sequence[Trick], played: Played) -> int | None:
    """With no trump known: the winner as the next trick's first play names it, if it does."""
    k = next((j for j, t in enumerate(tricks) if t is played.trick), None)
    if k is None or k + 1 >= len(tricks) or not tricks[k + 1].plays:
        return None
    named = tricks[k + 1].plays[0].player
    return played.who.index(named.name) if named is not None and named.name in played.who else None


def dealt_cards(deals: Sequence[Deal], resolve: Resolve) -> tuple[dict[str, set[int]], set[int]]:
    """The known cards of each player's `deal` lines (packs and piles merged), and the cards dealt to more than one
    place."""
    dealt: dict[str, set[int]] = {}
    seen: set[int] = set()
    twice: set[int] = set()
    for deal in deals:
        read = cards_of(deal.cards, resolve)
        new = set(read)
        if len(new) == len(read) and seen.isdisjoint(new):
            seen |= new
        else:
            for c in read:
                (twice if c in seen else seen).add(c)
        mine = dealt.get(deal.player.name)
        if mine is None:
            dealt[deal.player.name] = new
        else:
            mine |= new
    return dealt, twice


def hand_piles(setup: Setup, hand: Hand, upto: Deal | None = None) -> dict[str, Piles]:
    """Each player's piles as the `deal NAME.P` lines record them (those up to `upto` when given)."""
    rows: dict[str, dict[int, tuple[int, ...]]] = {}
    for deal in hand.deals:
        if deal.player.pack is not None and 1 <= deal.player.pack <= setup.piles:
            cards = tuple(cards_of(deal.cards, setup.resolve))
            rows.setdefault(deal.player.name, {})[deal.player.pack] = cards
        if deal is upto:
            break
    return {p: Piles(tuple(r[k] for k in sorted(r))) for p, r in rows.items()}


def hand_cards(setup: Setup, hand: Hand) -> dict[str, set[int]]:
    """The cards each player holds in hand (piles-and-hand), as the `deal NAME` lines record them."""
    out: dict[str, set[int]] = {}
    if setup.in_hand:
        for deal in hand.deals:
            if deal.player.pack is None:
                out.setdefault(deal.player.name, set()).update(cards_of(deal.cards, setup.resolve))
    return out


def _stacks(piles: Mapping[str, Piles]) -> dict[str, list[list[int]]]:
    """Each player's piles for the replay's `State.stacks`, top card first (emptied piles left out)."""
    return {p: [list(pile) for pile in pl.piles if pile] for p, pl in piles.items()}


def _face_up(piles: Mapping[str, Piles]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((p, tuple(spell(c) for c in sorted(pl.tops()))) for p, pl in piles.items())


RULESET = Botifarra()
