"""What every ruleset provides, and the results a ruleset returns.

A ruleset module never prints and never reads files: it takes a `Game` from the
record model and returns a `GameResult` (scores and findings).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from imptools.findings import Finding
from imptools.record import Game, Trick


@dataclass(frozen=True, slots=True)
class CardCheck:
    """What a ruleset makes of one card token.

    `canonical` is the canonical spelling (None when the token is not a card of
    the game); `code` and `message` describe the problem when there is one
    (`unknown-card` or `colour-mismatch`).
    """

    canonical: str | None
    code: str | None = None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand as judged: `scores` is None when the hand cannot be scored."""

    number: int
    dealer: str | None
    complete: bool
    scores: dict[str, int] | None
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game as judged: its hands, running totals and winners (when the game is over)."""

    index: int
    players: tuple[str, ...]
    hands: tuple[HandResult, ...]
    totals: dict[str, int]
    winners: tuple[str, ...] = ()
    over: bool = False
    findings: tuple[Finding, ...] = field(default=())
    rules_checked: bool = True

    def all_findings(self) -> list[Finding]:
        """Game-level findings, then each hand's, in record order."""
        out = list(self.findings)
        for h in self.hands:
            out.extend(h.findings)
        return out


class Ruleset(Protocol):
    """A game's rules: card tokens, judging and scoring."""

    name: str

    def check_card(self, text: str, game: Game) -> CardCheck:
        """Resolve one card token of `game` (its tags decide the deck)."""
        ...

    def judge(self, game: Game) -> GameResult:
        """Replay every hand of `game`, report each rule broken and score it."""
        ...


def hand_dealers(game: Game, players: tuple[str, ...]) -> list[str | None]:
    """Each hand's dealer: as written, else hand 1's is the last player and each later one the next in turn order."""
    dealers: list[str | None] = []
    previous: str | None = None
    for hand in game.hands:
        if hand.dealer is not None:
            dealer: str | None = hand.dealer.name
        elif previous is None:
            dealer = players[-1] if players else None
        else:
            dealer = players[(players.index(previous) + 1) % len(players)] if previous in players else None
        dealers.append(dealer)
        previous = dealer
    return dealers


def token_findings(game: Game, ruleset: Ruleset, play_names: bool = True) -> list[Finding]:
    """Card tokens checked against the game's deck and names against `Players`, line by line.

    This is what can be said of a record without replaying it: a ruleset that
    replays its hands reports these itself, with the turn order to say whose
    play a finding is about.
    """
    from imptools.record import (
        Bid,
        Call,
        CardText,
        Deal,
        Declare,
        Discard,
        ImpTrick,
        NameRef,
        Open,
        Pass,
        ScoreLine,
        Trick,
        Trump,
        TurnUp,
    )

    players = set(game.players)
    out: list[Finding] = []

    def name(ref: NameRef, hand: int, trick: int | None = None) -> None:
        if players and ref.name not in players:
            out.append(
                Finding(
                    "unknown-player",
                    f"`{ref.name}` is not one of the players ({', '.join(game.players)})",
                    ref.line,
                    ref.column,
                    game.path,
                    game.index,
                    hand,
                    trick,
                )
            )

    def card(c: CardText, hand: int, player: str | None, trick: int | None = None) -> None:
        if c.unknown:
            return
        check = ruleset.check_card(c.text, game)
        if check.code is not None:
            out.append(
                Finding(
                    check.code,
                    check.message or f"`{c.text}` is not a card of this game",
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
                for play, who in zip(line.plays, _players_of(line, n, game, dealers)):
                    if play.player is not None and play_names:
                        name(play.player, n, line.number)
                    card(play.card, n, who, line.number)
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


class TokenRuleset:
    """A game whose cards imptools knows but whose rules it does not check yet.

    `judge` reports what the tokens alone show (unknown cards and names) and
    scores nothing: `GameResult.rules_checked` is False.
    """

    name = ""

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
