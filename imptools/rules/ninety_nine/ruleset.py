"""The Ninety-nine ruleset: plays a record's hands through the game's logic, judging, scoring and building steps."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace

from imptools.record import (
    Bid,
    Call,
    Deal,
    Declare,
    Discard,
    Game,
    Hand,
    ImpTrick,
    Open,
    Pass,
    Trick,
    Trump,
    TurnUp,
)
from imptools.rules.base import CardCheck, CardFace
from imptools.rules.checks import (
    deal_size_findings,
    duplicate_findings,
    name_findings,
    partly_dealt,
    play_not_held_findings,
    trick_count_findings,
)
from imptools.rules.exchange import cards_of
from imptools.rules.holdings import Holdings, revoke_findings
from imptools.rules.ninety_nine.bids import bid_shape
from imptools.rules.ninety_nine.cards import (
    BID_CARDS,
    DEALT,
    DECK,
    PLAYERS,
    RANKS,
    SUIT_NAMES,
    SUITS,
    TRICKS,
    parse,
    spell,
    suit,
    trump_of,
)
from imptools.rules.ninety_nine.judging import may_revoke, plays_distinct
from imptools.rules.ninety_nine.scoring import DECLARE, FACTS, Declaration, hand_facts, score_hand
from imptools.rules.ninety_nine.setup import VARIANTS, BidLine, Deck, Setup, known_card, suit_names
from imptools.rules.ninety_nine.simulate import NinetyNineSimulator
from imptools.rules.report import Reporter
from imptools.rules.steps import Step, StepLog
from imptools.rules.template import HandOutcome, TrickRuleset
from imptools.rules.tricks import Played, Walk, turn_order, walk_tricks


@dataclass(frozen=True, slots=True)
class NinetyNineState:
    """Ninety-nine's part of a replay state: the turn-up and trump, the bids shown, the call, tricks against bids.

    `bids` and `tricks` hold `(player, text)`: a bid's number (`?` when unknown)
    once its line has been stepped, and each player's tricks so far.
    """

    turnup: str | None = None
    trump: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    call: tuple[str, str] | None = None
    tricks: tuple[tuple[str, int], ...] = ()

    def lines(self) -> list[tuple[str, str]]:
        out = [("turn-up", "not known" if self.turnup is None else f"{self.turnup} · {self.trump}")]
        bids = dict(self.bids)
        if bids:
            out.append(("bids", ", ".join(f"{p} {b}" for p, b in self.bids)))
        if self.call is not None:
            out.append(("declared" if self.call[0] == DECLARE else "revealed", self.call[1]))
        if self.tricks:
            out.append(
                ("tricks", ", ".join(f"{p} {n}" + (f" of {bids[p]}" if p in bids else "") for p, n in self.tricks))
            )
        return out


class NinetyNine(TrickRuleset):
    """Ninety-nine: cards `AS` .. `6C` (`T` for 10, suit symbols accepted) and the joker `JK`."""

    name = "ninety-nine"
    variants = VARIANTS
    unjudged = "imptools cannot judge this game (three players, the standard variant)"
    default_hands = 9
    facts = FACTS

    def check_card(self, text: str, game: Game) -> CardCheck:
        return _check_card(text)

    def card_face(self, text: str, game: Game) -> CardFace:
        """The card with its suit; hearts and diamonds red, spades and clubs the plain text colour, the joker magenta.

        A hand sorts by suit (diamonds, spades, hearts, clubs), then A K Q J 10 ... 6, the joker last.
        """
        card = parse(text)
        if card is None:
            return CardFace(text)
        s = suit(card)
        if s is None:
            return CardFace("JK", "joker", "magenta", 100 * len(SUITS))
        rank = card % len(RANKS)
        style = "red" if SUITS[s] in "HD" else "default"
        return CardFace(spell(card), SUIT_NAMES[s], style, 100 * s + len(RANKS) - rank)

    def simulator(self, game: Game) -> NinetyNineSimulator | None:
        """Random deals for any game the rules can judge (three players, the standard variant)."""
        setup = self.table(game)
        return None if setup is None else NinetyNineSimulator(setup)

    def deck(self, game: Game) -> list[str]:
        """The 37 cards: suit by suit, highest first, then the joker."""
        return [spell(c) for c in DECK]

    def players_problem(self, game: Game) -> str | None:
        """Ninety-nine is for three players."""
        n = len(game.players)
        if n == PLAYERS or len(set(game.players)) != n:
            return None  # a name written twice is reported on its own
        return f"Players names {n} player{'s' if n != 1 else ''}; Ninety-nine is for {PLAYERS}"

    def table(self, game: Game) -> Setup | None:
        variant = game.tag("Variant") or VARIANTS[0]
        if variant not in VARIANTS or len(game.players) != PLAYERS or len(set(game.players)) != PLAYERS:
            return None
        return Setup(game.players, variant)

    def play_hand(self, table: object, game: Game, hand: Hand, dealer: str, steps: bool) -> HandOutcome:
        assert isinstance(table, Setup)
        players = table.players
        report = Reporter(game, hand)
        deck = self.hand_deck(hand, players, report)
        won = dict.fromkeys(players, 0)

        def settle(played: Played) -> int | None:
            win = deck.winner(played.cards)
            if win is not None:
                won[played.who[win]] += 1
                played.after = dict(won)
            return win

        walk = walk_tricks(hand, turn_order(players, dealer), PLAYERS, parse, settle, self.filler(hand, deck))
        self._record_checks(players, hand, walk, deck, report)
        kept = {p: cards - deck.put_away.get(p, set()) - deck.twice for p, cards in deck.dealt.items()}
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        if may_revoke(tricks, suit_names(deck.possible), kept):  # else no play can be a revoke the record proves
            hidden = {p: BID_CARDS - len(deck.put_away.get(p, ())) for p in deck.dealt}
            revoke_findings(walk, Holdings(walk, kept, hidden=hidden), deck.suit_name, spell, str, report)
        call = self.declaration(hand, players, report)
        complete = len(hand.tricks) == TRICKS
        scores: dict[str, int] | None = None
        player_notes: tuple[tuple[str, str], ...] = ()
        facts: tuple[tuple[str, str, int], ...] = ()
        settled = {p: deck.bid_number(p) for p in players}
        if complete and walk.whole and all(ok for _, ok in settled.values()):
            sheet = score_hand(players, {p: b for p, (b, _) in settled.items()}, won, call)
            scores = {p: sheet[p].total for p in players}
            player_notes = tuple((p, sheet[p].describe()) for p in players)
            facts = hand_facts(sheet, call)
        notes: list[tuple[str, str]] = []
        if deck.turnup is not None:
            notes.append(("turn-up", f"{spell(deck.turnup)}, {deck.trump_text()}"))
        if call is not None:
            made = scores is not None and settled[call.player][0] == won[call.player]
            verb = "declared" if call.kind == DECLARE else "revealed"
            notes.append((verb, call.player + ("" if scores is None else " (made)" if made else " (not made)")))
        outcome = HandOutcome(scores, complete, TRICKS, report.findings, notes=tuple(notes), facts=facts, walk=walk)
        outcome.player_notes = player_notes
        if steps:
            outcome.steps = self._steps(players, hand, walk, deck, scores)
        return outcome

    # ----------------------------------------------------------------------- what the record says

    def hand_deck(self, hand: Hand, players: tuple[str, ...], report: Reporter) -> Deck:
        """The deals, the turn-up (recorded or inferred), the bids and their cards; `bad-bid`, bid `not-held`."""
        dealt: dict[str, set[int]] = {}
        seen: set[int] = set()
        twice: set[int] = set()  # cards the deal lines give to more than one place
        for deal in hand.deals:
            read = cards_of(deal.cards, parse)
            new = set(read)
            if len(new) == len(read) and seen.isdisjoint(new):
                seen |= new
            else:
                for card in read:
                    (twice if card in seen else seen).add(card)
            if deal.player.name in players:
                dealt.setdefault(deal.player.name, set()).update(new)
        owner = {c: p for p, cards in dealt.items() for c in cards}
        turnup: int | None = None
        for k, line in enumerate(hand.turnups):
            if k == 0:
                turnup = known_card(line.card)
            else:
                msg = f"a second turn-up ({line.card.text}); only one card is turned up"
                report.add("bad-call", msg, line.line, line.column, None, None)
        bids: dict[str, BidLine] = {}
        put_away: dict[str, set[int]] = {}
        in_bid: dict[int, str] = {}
        for bid in hand.bids:
            p = bid.player.name
            if p not in players:
                continue
            if p in bids:
                msg = f"{p} has already bid on line {bids[p].line.line}; a player bids once"
                report.add("bad-bid", msg, bid.line, bid.column, None, p)
                continue
            problem = bid_shape(len(bid.cards), bid.number)
            if problem is not None:
                report.add("bad-bid", f"{p}'s bid: {problem.message}", bid.line, bid.column, None, p)
            cards = tuple(known_card(x) for x in bid.cards)
            bids[p] = BidLine(bid, cards, bid.number, problem is None)
            for x, c in zip(bid.cards, cards):
                if c is None:
                    continue
                if c in in_bid:
                    where = "in this bid" if in_bid[c] == p else f"in {in_bid[c]}'s bid"
                    report.add("duplicate-card", f"{p} bids {spell(c)}, already {where}", x.line, x.column, None, p)
                    continue
                in_bid[c] = p
                if c == turnup:
                    msg = f"{p} bids {spell(c)}, the turned-up card"
                    report.add("duplicate-card", msg, x.line, x.column, None, p)
                elif p in dealt and c not in dealt[p]:
                    elsewhere = f", dealt to {owner[c]}" if c in owner else ""
                    msg = f"{p} bids {spell(c)}, which {p} was not dealt{elsewhere}"
                    report.add("not-held", msg, x.line, x.column, None, p)
                elif p not in dealt and c in owner:
                    msg = f"{p} bids {spell(c)}, which was dealt to {owner[c]}"
                    report.add("not-held", msg, x.line, x.column, None, p)
                elif problem is None:
                    put_away.setdefault(p, set()).add(c)
        possible: tuple[int, ...]
        if turnup is not None:
            possible = (turnup,)
        else:
            seen = set(owner) | set(in_bid)
            for trick in hand.tricks:
                seen.update(cards_of((play.card for play in trick.plays), parse))
            possible = tuple(c for c in DECK if c not in seen) or DECK
            if len(possible) == 1:
                turnup = possible[0]
        return Deck(dealt, turnup, possible, bids, put_away, twice)

    @staticmethod
    def filler(hand: Hand, deck: Deck) -> Callable[[Trick, int, str], int | None]:
        """The card a `?` play must be, where the record leaves one only.

        From the player's deal, when the bid cards are known: the one card of it not
        bid and not seen anywhere else in the record. Without the deal, when the
        turn-up and every bid card are known and this is the only `?` played: the one
        card of the deck the record places nowhere.
        """
        seen: list[tuple[set[int], int]] = []  # the cards played and the count of `?` plays, once a `?` asks

        def fill(trick: Trick, i: int, player: str) -> int | None:
            if not seen:
                plays = [play.card for t in hand.tricks for play in t.plays]
                seen.append(({c for x in plays if (c := known_card(x)) is not None}, sum(x.unknown for x in plays)))
            played, unknown = seen[0]
            bids_known = len(deck.bids) == PLAYERS and all(
                len(deck.put_away.get(p, ())) == BID_CARDS for p in deck.bids
            )
            if player in deck.dealt and len(deck.put_away.get(player, ())) == BID_CARDS:
                left = deck.dealt[player] - deck.put_away[player] - played
            elif unknown == 1 and bids_known and deck.turnup is not None and len(deck.possible) == 1:
                gone = played | {c for cards in deck.put_away.values() for c in cards} | {deck.turnup}
                left = {c for c in DECK if c not in gone}
            else:
                return None
            return next(iter(left)) if len(left) == 1 else None

        return fill

    def declaration(self, hand: Hand, players: tuple[str, ...], report: Reporter) -> Declaration | None:
        """The hand's declaration or revelation; any after the first is `bad-call`."""
        call: Declaration | None = None
        for line in hand.declares:
            p = line.player.name
            if p not in players:
                continue
            if call is not None:
                first = "declared" if call.kind == DECLARE else "revealed"
                msg = f"{p} {line.kind}s, but {call.player} has already {first}: one call per hand"
                report.add("bad-call", msg, line.line, line.column, None, p)
                continue
            call = Declaration(line.kind, p)
        return call

    def _record_checks(self, players: tuple[str, ...], hand: Hand, walk: Walk, deck: Deck, report: Reporter) -> None:
        """Turn order and names, trick counts, repeated cards, the turn-up found elsewhere, deal sizes, cards not held,
        and lines that have no place in this game."""
        trick_count_findings(hand, PLAYERS, report, parse)
        name_findings(walk, players, report)
        if deck.twice or not plays_distinct(walk):  # else no card is dealt or played twice
            duplicate_findings(hand, walk, parse, spell, report)
        deal_size_findings(hand, players, lambda who: DEALT, "the deal gives", report)
        recorded = next((known_card(t.card) for t in hand.turnups), None)
        if recorded is not None:
            for deal in hand.deals if any(recorded in cards for cards in _dealt_anywhere(hand, deck)) else ():
                for x in deal.cards:
                    if known_card(x) == recorded:
                        msg = f"{spell(recorded)} is dealt to {deal.player}, but it is the turned-up card"
                        report.add("duplicate-card", msg, x.line, x.column, None, None)
            for played in [*walk.tricks, *([walk.unfinished] if walk.unfinished else [])]:
                if recorded not in played.cards:
                    continue
                for play, p, c in zip(played.trick.plays, played.who, played.cards):
                    if c == recorded:
                        msg = f"{p} plays {spell(c)} in trick {played.trick.number}, but it is the turned-up card"
                        report.add("duplicate-card", msg, play.card.line, play.card.column, played.trick.number, p)
        kept = {p: cards - deck.put_away.get(p, set()) for p, cards in deck.dealt.items()}
        elsewhere: dict[int, tuple[str | None, str]] = {
            c: (p, f"dealt to {p}") for p, cards in deck.dealt.items() for c in cards
        }
        for p, cards in deck.put_away.items():
            elsewhere.update((c, (None, f"put away in {p}'s bid")) for c in cards)
        play_not_held_findings(
            walk, kept, spell, report, "after the deal and the bid", elsewhere, partly_dealt(hand, parse)
        )
        for line in hand.lines:
            if isinstance(line, (Discard, Pass, Open, ImpTrick)):
                who = None if isinstance(line, ImpTrick) else line.giver if isinstance(line, Pass) else line.player
                kind = {Discard: "discard", Pass: "pass", Open: "open", ImpTrick: "imp"}[type(line)]
                msg = f"`{kind}` has no place in Ninety-nine: the only cards put away are the bid"
                report.add("bad-exchange", msg, line.line, line.column, None, None if who is None else who.name)
            elif isinstance(line, (Trump, Call)):
                kind = "trump" if isinstance(line, Trump) else line.kind
                msg = f"`{kind}` has no place in Ninety-nine: the turn-up sets trump; the calls are declare and reveal"
                report.add("bad-call", msg, line.line, line.column, None, line.player.name)

    # ----------------------------------------------------------------------- replay

    def _steps(
        self, players: tuple[str, ...], hand: Hand, walk: Walk, deck: Deck, scores: dict[str, int] | None
    ) -> list[Step]:
        log = StepLog(players, spell, walk, deck.suit_name)
        detail = NinetyNineState()
        log.detail = detail
        for line in hand.lines:
            if isinstance(line, Deal):
                log.deal(line, parse)
            elif isinstance(line, TurnUp):
                card = known_card(line.card)
                if card is not None and detail.turnup is None:
                    trump = trump_of(card)
                    log.detail = detail = replace(
                        detail, turnup=spell(card), trump="no trump" if trump is None else f"trump {SUIT_NAMES[trump]}"
                    )
                log.line("turnup", None, (line.card,), line)
            elif isinstance(line, Bid):
                p = line.player.name
                bid = deck.bids.get(p)
                if bid is not None and bid.line is line:
                    number, _ = deck.bid_number(p)
                    shown = "?" if number is None else str(number)
                    log.detail = detail = replace(detail, bids=(*detail.bids, (p, shown)))
                    if bid.good:
                        log.set_aside("bid", p, line.cards, line, parse, shown)
                        continue
                log.line("bid", p, line.cards, line)
            elif isinstance(line, Declare):
                if detail.call is None and line.player.name in players:
                    log.detail = detail = replace(detail, call=(line.kind, line.player.name))
                log.line("declare", line.player.name, (), line, text=line.kind)
        if detail.turnup is None and deck.turnup is not None:
            trump = trump_of(deck.turnup)
            log.detail = detail = replace(
                detail, turnup=spell(deck.turnup), trump="no trump" if trump is None else f"trump {SUIT_NAMES[trump]}"
            )
        log.detail = detail = replace(detail, tricks=tuple((p, 0) for p in players))
        for played in [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]:
            for i in range(len(played.cards)):
                log.play(played, i)
            if played.winner is not None:
                log.detail = detail = replace(detail, tricks=tuple(played.after.items()))
                log.trick_end(played)
        log.end(hand, scores)
        return log.steps


@functools.lru_cache(maxsize=1024)
def _check_card(text: str) -> CardCheck:
    """`NinetyNine.check_card`, worked out once per token."""
    card = parse(text)
    if card is None:
        return CardCheck(
            None,
            "unknown-card",
            f"`{text}` is not a ninety-nine card (A K Q J 10 9 8 7 6 then S H D C: `AS`, `10H`; joker `JK`)",
        )
    return CardCheck(spell(card))


def _dealt_anywhere(hand: Hand, deck: Deck) -> list[set[int]]:
    """The cards of every `deal` line: the players' as `deck` holds them, a line for anyone else read again."""
    others = [set(cards_of(d.cards, parse)) for d in hand.deals if d.player.name not in deck.dealt]
    return [*deck.dealt.values(), *others]


RULESET = NinetyNine()
