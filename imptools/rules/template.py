"""The template rulesets: what every game does the same way (token checks, unscorable hands, totals, game end)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import ClassVar

from mypy_extensions import mypyc_attr

from imptools.findings import Finding
from imptools.record import CardText, Deal, Discard, Game, Hand, Pass, Trick, TurnUp
from imptools.rules.base import CardCheck, CardFace, FactKind, GameResult, HandResult, HandSimulator, Ruleset
from imptools.rules.checks import (
    WrittenTotals,
    game_over,
    glued_cut,
    incomplete_finding,
    not_scored_finding,
    score_mismatches,
)
from imptools.rules.readings import (
    CARD_SLIPS,
    MAX_CARD_SLIPS,
    MAX_READINGS,
    Unknown,
    at_places,
    copied_lines,
    errors_in,
    gap_findings,
    kept_findings,
    missing_tricks,
    place_of,
    placed_cards,
    reordered_tricks,
    score_misses,
    slip_tokens,
    swapped_readings,
    unread_tricks,
    with_card,
    with_dealt,
)
from imptools.rules.report import Reporter
from imptools.rules.steps import Step
from imptools.rules.tricks import Walk, hand_dealers
from imptools.slips import one_keystroke
from imptools.suggest import did_you_mean

_DIGIT_SLIPS = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1"})


def card_meant(text: str, game: Game, ruleset: Ruleset, close: bool = True) -> str | None:
    """The one card of `game`'s deck that `text`, not a card, plainly stands for: its parts written the other way
    round (`e6` for `6e`, `H7` for `7H`), a letter for a digit (`1O`, `l0` for `10`), or, with `close`, two cards
    written together (`10b7b`: `10b 7b`, where only one cut makes two cards) or one keystroke from exactly one card
    (not asked of another game's card: `9o` in a Bottle Imp record is no slip of `9`). None where nothing fits.

    >>> from imptools.reader import read_games
    >>> from imptools.rules import get_ruleset
    >>> (g,) = read_games('[Game "botifarra"]\\n[Players "A B C D"]\\n')
    >>> card_meant("e6", g, get_ruleset("botifarra")), card_meant("x", g, get_ruleset("botifarra"))
    ('6e', None)
    """
    tries = [text[i:] + text[:i] for i in range(1, len(text))]
    tries.append(text.translate(_DIGIT_SLIPS))
    found = {str(check.canonical) for t in tries if (check := ruleset.check_card(t, game)).code is None}
    if len(found) == 1:
        return found.pop()
    if found or not close:
        return None

    def canonical(token: str) -> object:
        check = ruleset.check_card(token, game)
        return check.canonical if check.code is None else None

    cut = glued_cut(text, canonical)
    if cut is not None:  # two cards written together (`10b7b`)
        return f"{canonical(text[:cut])} {canonical(text[cut:])}"
    deck = [str(card) for card in ruleset.deck(game)]
    return one_keystroke(text, deck) if deck else None


def token_findings(game: Game, ruleset: Ruleset, play_names: bool = True) -> list[Finding]:
    """Card tokens checked against the game's deck and names against `Players`, line by line.

    This is what can be said of a record without replaying it: a ruleset that
    replays its hands reports these itself, with the turn order to say whose
    play a finding is about.
    """
    from imptools.record import (
        Bid,
        Call,
        Declare,
        ImpTrick,
        NameRef,
        Open,
        ScoreLine,
        Trick,
        Trump,
    )

    players = set(game.players)
    out: list[Finding] = []

    def name(ref: NameRef, hand: int, trick: int | None = None) -> None:
        if players and ref.name not in players:
            out.append(
                Finding(
                    "unknown-player",
                    f"`{ref.name}` is not a player: did you mean `{hint}`?"
                    if (hint := did_you_mean(ref.name, game.players))
                    else f"`{ref.name}` is not one of the players ({', '.join(game.players)})",
                    ref.line,
                    ref.column,
                    game.path,
                    game.index,
                    hand,
                    trick,
                )
            )

    checks: dict[str, CardCheck] = {}  # one check per distinct token: the deck is the game's throughout

    def checked(text: str) -> CardCheck:
        check = checks.get(text)
        if check is None:
            check = checks[text] = ruleset.check_card(text, game)
        return check

    def card(c: CardText, hand: int, player: str | None, trick: int | None = None) -> None:
        if c.unknown:
            return
        check = checked(c.text)
        if check.code is not None:
            other = _other_game_card(c.text, game, ruleset.name)
            meant = card_meant(c.text, game, ruleset, not other) if check.code == "unknown-card" else None
            out.append(
                Finding(
                    check.code,
                    (
                        f"`{c.text}` is a card of {other}, not of this game ({ruleset.name})"
                        if other
                        else check.message or f"`{c.text}` is not a card of this game"
                    )
                    + (f"; did you mean `{meant}`?" if meant else ""),
                    c.line,
                    c.column,
                    game.path,
                    game.index,
                    hand,
                    trick,
                    player,
                )
            )

    dealers = dict(zip((h.number for h in game.hands), hand_dealers(game, game.players)))
    for hand in game.hands:
        n = hand.number
        if hand.dealer is not None:
            name(hand.dealer, n)
        for line in hand.lines:
            if isinstance(line, (Deal, Discard)):
                name(line.player, n)
                for c in line.cards:
                    card(c, n, line.player.name)
            elif isinstance(line, Pass):
                name(line.giver, n)
                name(line.receiver, n)
                card(line.card, n, line.giver.name)
            elif isinstance(line, ImpTrick):
                for c in line.cards:
                    card(c, n, None)
            elif isinstance(line, TurnUp):
                card(line.card, n, None)
            elif isinstance(line, Bid):
                name(line.player, n)
                for c in line.cards:
                    card(c, n, line.player.name)
            elif isinstance(line, (Open, Trump, Call, Declare)):
                name(line.player, n)
            elif isinstance(line, Trick):
                who: list[str | None] | None = None  # worked out only for a card to report
                for i, play in enumerate(line.plays):
                    if play.player is not None and play_names:
                        name(play.player, n, line.number)
                    if not play.card.unknown and checked(play.card.text).code is not None:
                        if who is None:
                            who = _players_of(line, n, game, dealers)
                        card(play.card, n, who[i], line.number)
            elif isinstance(line, ScoreLine):
                for entry in line.entries:
                    name(entry.player, n)
    return out


def _players_of(trick: Trick, hand: int, game: Game, dealers: dict[int, str | None]) -> list[str | None]:
    """Who made each play, as far as turn order alone tells: plays go round the table from the leader.

    The leader is the first play's name, or for trick 1 the player after the dealer;
    without either, only named plays are attributed.
    """
    players = game.players
    first = trick.plays[0].player if trick.plays else None
    leader: str | None = first.name if first is not None and first.name in players else None
    if leader is None and trick.number == 1:
        dealer = dealers.get(hand)
        if dealer in players:
            leader = players[(players.index(dealer) + 1) % len(players)]
    out: list[str | None] = []
    for i, play in enumerate(trick.plays):
        if play.player is not None and play.player.name in players:
            out.append(play.player.name)
        elif leader is not None:
            out.append(players[(players.index(leader) + i) % len(players)])
        else:
            out.append(None)
    return out


def _other_game_card(text: str, game: Game, this: str) -> str | None:
    """The game whose cards `text` is spelled like, when it is not this game's (`9o` in a Bottle Imp record)."""
    from imptools.rules.registry import GAMES, get_ruleset

    for name in GAMES:
        other = get_ruleset(name) if name != this else None
        if other is not None and other.check_card(text, game).code is None:
            return name
    return None


@mypyc_attr(allow_interpreted_subclasses=True)
class TokenRuleset:
    """A game whose cards imptools knows but whose rules it does not check.

    `judge` reports what the tokens alone show (unknown cards and names) and
    scores nothing: `GameResult.rules_checked` is False.
    """

    name: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    tag_words: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    """Words a tag of the game's table may hold, by tag (Botifarra's `[Teams "none"]`): a value one slip from one of
    them is read as it (`check.as_meant`)."""
    facts: ClassVar[tuple[FactKind, ...]] = ()
    """No facts of its own unless the game counts some (a ruleset that scores hands may)."""

    def check_card(self, text: str, game: Game) -> CardCheck:  # pragma: no cover - overridden
        raise NotImplementedError

    def judge(self, game: Game) -> GameResult:
        players = game.players
        by_hand: dict[int, list[Finding]] = {}
        for f in token_findings(game, self):
            by_hand.setdefault(f.hand or 0, []).append(f)
        dealers = hand_dealers(game, players)
        hands = tuple(
            HandResult(h.number, d, False, None, tuple(by_hand.get(h.number, ()))) for h, d in zip(game.hands, dealers)
        )
        return GameResult(game.index, players, hands, {}, rules_checked=False)

    def replay(self, game: Game, hand_number: int) -> Iterator[Step]:
        return iter(())

    def card_face(self, text: str, game: Game) -> CardFace:
        """The canonical text, and no suit: a ruleset that knows its suits says more."""
        return CardFace(self.check_card(text, game).canonical or text)

    def simulator(self, game: Game) -> HandSimulator | None:
        return None

    def deck(self, game: Game) -> list[str]:
        """No deck known here: a ruleset that knows its cards says which."""
        return []

    def to_play(self, game: Game, hand_number: int) -> str | None:
        """Nobody known: a ruleset that seats its plays says who."""
        return None

    def named_seats(self, variant: str | None) -> tuple[str, ...]:
        """No seat has a name of its own unless the ruleset says so."""
        return ()


@dataclass(slots=True)
class HandOutcome:
    """One hand as a ruleset played it: scores (None when unscorable), findings, and the replay steps if asked."""

    scores: dict[str, int] | None
    complete: bool
    tricks: int
    findings: list[Finding] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    notes: tuple[tuple[str, str], ...] = ()
    player_notes: tuple[tuple[str, str], ...] = ()
    facts: tuple[tuple[str, str, int], ...] = ()
    """`(player, key, value)` of the game's own facts (`facts` of the ruleset), kept only when the hand is scored."""
    walk: Walk | None = None
    """The hand's tricks as seated and judged: it says whose play a finding on a card token is about."""


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickRuleset(TokenRuleset):
    """The shape every trick-taking ruleset here shares: one `play_hand` per hand serves judging and replay.

    A subclass says how to set a game up (`table`: its deck, variant and
    seating, worked out once per game; None when the game cannot be judged),
    who deals (`dealers`), and how one hand is played (`play_hand`), using the
    shared machinery (`tricks`, `holdings`, `checks`, `steps`). This class adds what every game does
    the same way: the card and name checks of the lines, unscorable hands,
    `incomplete`, running totals, `score-mismatch` and the end of the game.
    """

    default_hands: ClassVar[int | None] = None
    """Hands in a game when neither `Hands` nor `Target` says otherwise (None: no limit)."""
    default_target: ClassVar[int | None] = None
    """The total that ends a game when neither `Hands` nor `Target` says otherwise (None: none)."""

    unjudged: ClassVar[str] = "imptools cannot judge this game (players or variant)"
    """Why a game whose `table` is None cannot be played (for `imp analyse`)."""

    def table(self, game: Game) -> object | None:  # pragma: no cover - overridden
        """The per-game setup `play_hand` receives, or None when the rules cannot judge this game."""
        raise NotImplementedError

    def dealers(self, game: Game, table: object) -> list[str | None]:
        """Each hand's dealer (section 3 by default)."""
        return hand_dealers(game, game.players)

    def hand_and_dealer(self, game: Game, table: object, hand_number: int) -> tuple[Hand, str] | str:
        """Hand `hand_number` of `game` and its dealer, or why there is none to play (for `imp analyse`): its trick
        lines as the judging reads them where they are out of place (a line written twice once, lines in the order
        of their numbers), but no trick put in for one left out, which stops the analysis there as it stands."""
        for hand, dealer in zip(game.hands, self.dealers(game, table)):
            if hand.number == hand_number:
                if dealer is None or dealer not in game.players:
                    return f"the dealer {dealer} is not one of the players"
                read, unread = unread_tricks(hand)
                read, _, gaps, _ = self._tricks_as_written_or_meant(table, game, read, dealer, unread)
                return (hand if gaps or unread else read), dealer
        return f"there is no hand {hand_number}"

    def play_hand(  # pragma: no cover - overridden
        self, table: object, game: Game, hand: Hand, dealer: str, steps: bool
    ) -> HandOutcome:
        """Play one hand: its findings, its scores and, when `steps` is set, its replay steps."""
        raise NotImplementedError

    def sides(self, game: Game, table: object) -> tuple[tuple[str, ...], ...]:
        """The sides that score together for the whole game (none by default: each player alone)."""
        return ()

    def game_notes(self, game: Game, table: object, totals: dict[str, int], over: bool) -> tuple[tuple[str, str], ...]:
        """`(label, text)` facts of the whole game for the score sheet (none by default)."""
        return ()

    def winners(self, game: Game, table: object, totals: dict[str, int]) -> tuple[str, ...]:
        """Who won a finished game: the highest total."""
        best = max(totals.values()) if totals else 0
        return tuple(p for p in game.players if totals.get(p) == best)

    def players_problem(self, game: Game) -> str | None:
        """Why the game (its variant, its table) cannot be played by the players `Players` names; None if it can."""
        return None

    def judge(self, game: Game) -> GameResult:
        table = self.table(game)
        if table is None:
            problem = self.players_problem(game) if game.players else None
            if problem is not None:
                return bad_players_result(game, problem)
            return super().judge(game)
        by_hand: dict[int, list[Finding]] = {}
        for f in token_findings(game, self, play_names=False):
            by_hand.setdefault(f.hand or 0, []).append(f)
        totals = dict.fromkeys(game.players, 0)
        written = WrittenTotals()
        hands: list[HandResult] = []
        for hand, dealer in zip(game.hands, self.dealers(game, table)):
            token = by_hand.get(hand.number, [])
            if dealer not in game.players:
                report = Reporter(game, hand, list(token))
                not_scored_finding(hand, "its dealer is not known", report)
                written.unscored(hand)
                hands.append(HandResult(hand.number, dealer, False, None, tuple(report.findings)))
                continue
            assert dealer is not None
            hand, copies = copied_lines(hand, game)
            hand, unread = unread_tricks(hand)
            hand, outcome, gaps, moved = self._tricks_as_written_or_meant(table, game, hand, dealer, unread)
            unknown = {**unread, **gaps}
            blocking = _blocking(token, hand)
            if not blocking:
                outcome = self._card_slips_as_meant(table, game, hand, dealer, outcome, (unread, gaps, moved))[1]
            scores = None if blocking else outcome.scores
            if outcome.walk is not None:
                token = _seat_token_findings(token, outcome.walk)
            report = Reporter(game, hand, [*token, *copies, *outcome.findings])
            if scores is not None:
                for p, v in scores.items():
                    totals[p] = totals.get(p, 0) + v
                score_mismatches(hand, scores, totals, report, written)
            elif not outcome.complete or (
                outcome.walk is not None
                and outcome.walk.unfinished is not None
                and (outcome.walk.unfinished.trick.line, outcome.walk.unfinished.trick.column) not in unknown
            ):
                outcome.complete = False  # the record stops before its last trick, or inside it
                incomplete_finding(hand, outcome.tricks, report)
            else:
                not_scored_finding(hand, _unscored_reason(blocking, report.findings, outcome.walk, unknown), report)
            if scores is None:
                written.unscored(hand)
            hands.append(
                HandResult(
                    hand.number,
                    dealer,
                    outcome.complete,
                    scores,
                    tuple(report.findings),
                    outcome.notes,
                    outcome.player_notes,
                    outcome.facts if scores is not None else (),
                )
            )
        over = game_over(game, len(hands), totals, self.default_hands, self.default_target)
        winners = self.winners(game, table, totals) if over else ()
        return GameResult(
            game.index,
            game.players,
            tuple(hands),
            totals,
            winners,
            over,
            sides=self.sides(game, table),
            notes=self.game_notes(game, table, totals, over),
        )

    def _tricks_as_written_or_meant(
        self, table: object, game: Game, hand: Hand, dealer: str, unread: dict[tuple[int, int], str]
    ) -> tuple[Hand, HandOutcome, dict[tuple[int, int], str], tuple[Finding, ...]]:
        """The hand's tricks judged in the order written, or as the players played them where the trick lines are
        plainly out of place and that reading gives fewer errors (docs/decisions.md): a trick line written twice
        read once, lines out of order read in the order of their numbers, tricks left out put in unknown. Returns
        the hand so read, its outcome, the tricks put in (by place) and the findings the reading itself makes."""
        best: tuple[Hand, HandOutcome, dict[tuple[int, int], str], tuple[Finding, ...]] | None = None
        for base, moved in [(hand, ()), *reordered_tricks(game, hand)]:
            gaps: dict[tuple[int, int], str] = {}
            outcome = self._play_judged(table, game, base, dealer, unread, gaps, moved)
            missing = missing_tricks(base, outcome.tricks)
            if missing is not None:  # tricks whose lines were left out: one finding, not a seating shifted by one
                # the reading with fewer errors stands; of two that tie, the gap where the last trick is the hand's last
                gap_hand, gap_places = missing
                gap_outcome = self._play_judged(table, game, gap_hand, dealer, unread, gap_places, moved)
                gap_errors, errors = errors_in(gap_outcome.findings), errors_in(outcome.findings)
                if gap_errors < errors or (gap_errors == errors and base.tricks[-1].number == outcome.tricks):
                    base, outcome, gaps = gap_hand, gap_outcome, gap_places
            if best is None or errors_in(outcome.findings) < errors_in(best[1].findings):
                best = (base, outcome, gaps, moved)
        assert best is not None
        return best

    def _play_judged(
        self,
        table: object,
        game: Game,
        hand: Hand,
        dealer: str,
        unread: dict[tuple[int, int], str],
        gaps: dict[tuple[int, int], str],
        moved: tuple[Finding, ...] = (),
    ) -> HandOutcome:
        """`play_hand`, where each trick put in at a place of `unread` (a line that could not be read: its `syntax`
        is its finding) or of `gaps` (tricks left out: one `wrong-count` for each run) is not a miscount too, with
        the findings of a reading of trick lines out of place (`moved`) first."""
        outcome = self.play_hand(table, game, hand, dealer, steps=False)
        unknown = {**unread, **gaps}
        if unknown or moved:
            kept = [f for f in outcome.findings if not at_places(f, unknown) or f.code != "wrong-count"]
            outcome.findings = [*moved, *gap_findings(game, hand, gaps), *kept]
        return outcome

    def _card_slips_as_meant(
        self, table: object, game: Game, hand: Hand, dealer: str, outcome: HandOutcome, unknown: Unknown
    ) -> tuple[Hand, HandOutcome]:
        """The hand read as the players meant it where a played or dealt card is a slip of the pen (for a dealt
        card, `_one_deal_slip`), and its outcome.

        A card played twice, or by a player who provably did not hold it, is a
        slip: nobody can play a card twice or one he does not hold. When one
        reading of the play (the card written, at either place of a card written
        twice, made one of the cards the record places nowhere else) judges the
        hand with fewer errors than every other reading (of two that tie, the one
        at the place the finding names), and no more than the record as written,
        the hand is judged and scored that way: the slip keeps
        its own findings, and nothing it would falsely prove is reported.
        """
        for _ in range(MAX_CARD_SLIPS):
            better = self._one_deal_slip(table, game, hand, dealer, outcome, unknown)
            if better is None:
                better = self._one_card_slip(table, game, hand, dealer, outcome, unknown)
            if better is None:
                return hand, outcome
            hand, outcome = better
        return hand, outcome

    def _one_deal_slip(
        self, table: object, game: Game, hand: Hand, dealer: str, outcome: HandOutcome, unknown: Unknown
    ) -> tuple[Hand, HandOutcome] | None:
        """The hand read with one slip of a `deal` or `turnup` line put right, where one reading stands out
        (docs/decisions.md, "A slip in a deal"): a card dealt twice (or dealt and turned up), at one of its places
        there, made one of the cards dealt to nobody; or a deal short of cards given the cards dealt to nobody that
        its player plays."""
        if not any(f.code in ("duplicate-card", "hand-size") and f.trick is None for f in outcome.findings):
            return None  # no deal or turn-up is in question: the common case, at once
        deck = self.deck(game)
        if not deck or len(set(deck)) != len(deck):
            return None
        check = self.check_card
        deals = hand.deals
        tokens = {(c.line, c.column): c for d in deals for c in d.cards}
        tokens.update(((t.card.line, t.card.column), t.card) for t in hand.turnups)
        dealt = {check(c.text, game).canonical for c in tokens.values()}
        undealt = [c for c in deck if c not in dealt]
        if not undealt:
            return None
        readings: list[tuple[Hand, list[Finding], tuple[int, int]]] = []
        twice = [f for f in outcome.findings if f.code == "duplicate-card" and place_of(f) in tokens]
        if twice:
            spelt = check(tokens[place_of(twice[0])].text, game).canonical
            places = [at for at, c in tokens.items() if check(c.text, game).canonical == spelt]
            kept = [f for f in twice if place_of(f) in places]
            if len(places) * len(undealt) <= MAX_READINGS:
                readings = [(with_card(hand, at, card), kept, at) for at in places for card in undealt]
        else:  # a deal line short of cards: the cards dealt to nobody that its player puts down
            placed = [*placed_cards(hand), *(x.card for x in hand.passes)]
            for short in (f for f in outcome.findings if f.code == "hand-size"):
                lines = [d for d in deals if (d.line, d.column) == place_of(short)]
                if len(lines) != 1:
                    continue
                who = lines[0].player.name
                not_held = {place_of(f) for f in outcome.findings if f.code == "not-held" and f.player == who}
                held = [
                    c.text
                    for c in placed
                    if (c.line, c.column) in not_held and check(c.text, game).canonical in undealt
                ]
                if held:
                    dealt_too = with_dealt(hand, lines[0], list(dict.fromkeys(held)))
                    readings.append((dealt_too, [short], place_of(short)))
                    break
        named = place_of(twice[0]) if twice else None  # a card's second place, where the finding stands
        return self._best_reading(table, game, dealer, unknown, outcome, readings, named)

    def _best_reading(
        self,
        table: object,
        game: Game,
        dealer: str,
        unknown: Unknown,
        outcome: HandOutcome,
        readings: list[tuple[Hand, list[Finding], tuple[int, int]]],
        named: tuple[int, int] | None,
    ) -> tuple[Hand, HandOutcome] | None:
        """Of `readings` of a slip (the hand read, the findings the slip keeps, the place read as the slip), the one
        that judges the hand with the fewest errors, the kept findings counted; of two that tie, one that scores the
        hand and that its written score agrees with, then the one at `named`. None where none stands out, or where it
        gives more errors than the record as written (`outcome`)."""
        best: list[tuple[int, Hand, HandOutcome, list[Finding], tuple[int, int]]] = []
        for reading, kept, at in readings:
            tried = self._play_judged(table, game, reading, dealer, *unknown)
            count = errors_in(tried.findings) + len(kept)
            if not best or count < best[0][0]:
                best = [(count, reading, tried, kept, at)]
            elif count == best[0][0]:
                best.append((count, reading, tried, kept, at))
        if len(best) > 1:  # a tie: the readings the hand's written score agrees with
            least = min(score_misses(b[1], b[2].scores) for b in best)
            best = [b for b in best if score_misses(b[1], b[2].scores) == least]
        if len(best) > 1 and named is not None:  # still a tie: the place the finding names
            best = [b for b in best if b[4] == named]
        if len(best) != 1 or best[0][0] > errors_in(outcome.findings):
            return None
        _, reading, tried, kept, at = best[0]
        kept = _reseated(kept, at, tried.walk)
        seen = {(f.code, f.line, f.column) for f in tried.findings}
        tried.findings = [*(f for f in kept if (f.code, f.line, f.column) not in seen), *tried.findings]
        return reading, tried

    def _one_card_slip(
        self, table: object, game: Game, hand: Hand, dealer: str, outcome: HandOutcome, unknown: Unknown
    ) -> tuple[Hand, HandOutcome] | None:
        """The hand read with one played, passed or discarded card put right, where one reading stands out
        (`_card_slips_as_meant`); the slip keeps its findings at the place read as the slip."""
        slips = [f for f in outcome.findings if f.code in CARD_SLIPS]
        if not slips:
            return None
        check = self.check_card
        tokens = slip_tokens(hand)
        first = next((f for f in slips if place_of(f) in tokens), None)
        if first is None:
            return None
        spelt = check(tokens[place_of(first)][0].text, game).canonical
        if spelt is None:
            return None
        places = [at for at, (c, _) in tokens.items() if check(c.text, game).canonical == spelt]
        placed = {check(c.text, game).canonical for c in placed_cards(hand)}
        free = [c for c in self.deck(game) if c not in placed]
        dealt: dict[str, list[str]] = {}
        for d in hand.deals:
            dealt.setdefault(d.player.name, []).extend(str(check(c.text, game).canonical) for c in d.cards)
        readings: list[tuple[Hand, list[Finding], tuple[int, int]]] = []
        for at in places:
            owner = tokens[at][1]  # a card passed or discarded is one of its player's: any he was dealt
            own = [c for c in dealt.get(owner, []) if c not in free and c != spelt] if owner is not None else []
            kept = kept_findings(slips, at, places)
            readings.extend((with_card(hand, at, card), kept, at) for card in [*free, *own])
        readings.extend(swapped_readings(hand, place_of(first), slips))
        if len(readings) > MAX_READINGS:
            return None
        return self._best_reading(table, game, dealer, unknown, outcome, readings, place_of(first))

    def to_play(self, game: Game, hand_number: int) -> str | None:
        """The seat after the record's last play of the hand, as the rules seat the tricks."""
        table = self.table(game)
        if table is None:
            return None
        for hand, dealer in zip(game.hands, self.dealers(game, table)):
            if hand.number == hand_number and dealer in game.players:
                assert dealer is not None
                walk = self.play_hand(table, game, hand, dealer, steps=False).walk
                return None if walk is None else walk.next
        return None

    def replay(self, game: Game, hand_number: int) -> Iterator[Step]:
        table = self.table(game)
        if table is None:
            return iter(())
        for hand, dealer in zip(game.hands, self.dealers(game, table)):
            if hand.number == hand_number and dealer in game.players:
                assert dealer is not None
                return iter(self._replay_as_judged(table, game, hand, dealer))
        return iter(())

    def _replay_as_judged(self, table: object, game: Game, hand: Hand, dealer: str) -> list[Step]:
        """The steps of `hand` read as `judge` reads it: its trick lines (`_tricks_as_written_or_meant`) and its
        cards written for others (`_card_slips_as_meant`), so that the replay seats every play as the judging and
        the score do; a card read as another says what was written (`Event.text`: "written 23")."""
        read, unread = unread_tricks(copied_lines(hand, game)[0])
        read, outcome, gaps, moved = self._tricks_as_written_or_meant(table, game, read, dealer, unread)
        token = [f for f in token_findings(game, self, play_names=False) if f.hand == hand.number]
        meant = read
        if not _blocking(token, read):
            meant = self._card_slips_as_meant(table, game, read, dealer, outcome, (unread, gaps, moved))[0]
        steps = list(self.play_hand(table, game, meant, dealer, steps=True).steps)
        if meant is read:
            return steps
        written = {(p.card.line, p.card.column): p.card.text for t in read.tricks for p in t.plays}
        for k, step in enumerate(steps):
            e = step.event
            was = written.get((e.line or 0, e.column or 0)) if e.kind == "play" and e.text is None else None
            if was is not None and (self.check_card(was, game).canonical,) != e.cards:
                steps[k] = replace(step, event=replace(e, text=f"written {was}"))
        return steps


def _reseated(kept: list[Finding], at: tuple[int, int], walk: Walk | None) -> list[Finding]:
    """The findings a slip read at `at` keeps, told as the reading seats the plays: one at another place of the card
    (the `duplicate-card` at its second place, where the slip is its first) names the player who made that play in
    the reading, and a `not-held` there, which only the seating as written proved, is dropped."""
    if walk is None or all(place_of(f) == at for f in kept):
        return kept
    who = {(play.card.line, play.card.column): p for t in walk.tricks for play, p in zip(t.trick.plays, t.who)}
    out: list[Finding] = []
    for f in kept:
        player = who.get(place_of(f))
        if place_of(f) == at or player is None or player == f.player:
            out.append(f)
        elif f.code == "duplicate-card":
            told = f.message
            if f.player is not None and told.startswith(f.player + " "):
                told = player + told[len(f.player) :]
            out.append(replace(f, player=player, message=told))
    return out


def bad_players_result(game: Game, problem: str) -> GameResult:
    """A game whose table the rules do not allow: one `bad-players` on its `Players` tag, and nothing judged."""
    tag = next((t for t in game.tags if t.name == "Players"), None)
    finding = Finding(
        "bad-players",
        problem + " (the game is not judged)",
        tag.line if tag is not None else game.line,
        tag.column if tag is not None else 1,
        game.path,
        game.index,
    )
    hands = tuple(HandResult(h.number, None, False, None) for h in game.hands)
    return GameResult(game.index, game.players, hands, {}, findings=(finding,), rules_checked=False)


def _blocking(token: list[Finding], hand: Hand) -> list[Finding]:
    """The token findings that leave a hand unscorable: an unknown card, or a name that is nobody's on a line
    whose cards or call count (a wrong name as the dealer or on a `score` or `total` line changes no score)."""
    from imptools.record import ScoreLine

    harmless = {(e.player.line, e.player.column) for x in hand.lines if isinstance(x, ScoreLine) for e in x.entries}
    if hand.dealer is not None:
        harmless.add((hand.dealer.line, hand.dealer.column))
    return [f for f in token if not (f.code == "unknown-player" and (f.line, f.column) in harmless)]


_REASONS = ("unknown-card", "colour-mismatch", "unknown-player", "wrong-count", "bad-call", "bad-bid")
"""The findings that can stop a hand's score, the likeliest reason first."""


def _unscored_reason(
    blocking: list[Finding], findings: list[Finding], walk: Walk | None, unknown: dict[tuple[int, int], str]
) -> str:
    """Why a hand that is not incomplete has no score: the finding that stopped it, or the trick the walk stopped at
    (`unknown`: why each trick put in for a line unread or left out is unknown)."""
    stopped = walk.stopped[0] if walk is not None and walk.stopped is not None else None
    if stopped is None and walk is not None and walk.unfinished is not None:
        stopped = walk.unfinished.trick
    if stopped is not None and (stopped.line, stopped.column) in unknown:
        return unknown[(stopped.line, stopped.column)]
    for code in _REASONS:
        for f in (*blocking, *findings):
            if f.code == code:
                where = f" (line {f.line})" if f.line is not None else ""
                return f"{f.message}{where}"
    if walk is not None and walk.stopped is not None:
        trick = walk.stopped[0]
        if any(p.card.unknown for p in trick.plays):
            return f"trick {trick.number} holds a `?`, and the record does not say which card it was"
        return f"the record does not determine who won trick {trick.number}"
    return "the record does not determine its score"


def _seat_token_findings(findings: list[Finding], walk: Walk) -> list[Finding]:
    """Name the player of each finding on a played card token that turn order alone could not attribute."""
    seats = walk.seats()
    out: list[Finding] = []
    for f in findings:
        if f.trick is not None and f.player is None and f.line is not None and f.column is not None:
            who = seats.get((f.line, f.column))
            if who is not None:
                f = f.at(player=who)
        out.append(f)
    return out
