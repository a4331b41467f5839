"""Replay values: what happened (`Event`), what is known after it (`State`), and `StepLog`, which builds them.

These types sit below the rulesets: every ruleset yields `Step`s built from
them, and the replay API, the presenters and the analysis read them without
knowing which game they come from. A `State` is a common core (holdings, the
trick so far, won cards, voids, scores) plus a per-game part, `detail`, which
describes itself as labelled lines so that a presenter can show it without
asking which game it belongs to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from imptools.record import CardText, Deal, Discard, Hand, Pass
from imptools.rules.exchange import Resolve, cards_of
from imptools.rules.tricks import Played, Walk


@dataclass(frozen=True, slots=True)
class Event:
    """What just happened.

    `kind` is one of: deal, discard, pass, open, imp, trump, call, turnup, bid,
    declare, play, trick (its end; `player` is the winner) and end (of the hand;
    its `cards` are those turned face up then, such as the imp's trick, and `text`
    says what they are).
    `notes` holds the `{...}` annotations written at that element, `mark` a
    play's `!`/`?` mark; a play's `text` is `WRITTEN_UNKNOWN` where the record
    wrote `?` and the deal settles the card (`cards`).
    """

    kind: str
    player: str | None = None
    cards: tuple[str, ...] = ()
    trick: int | None = None
    line: int | None = None
    column: int | None = None
    notes: tuple[str, ...] = ()
    mark: str | None = None
    text: str | None = None


WRITTEN_UNKNOWN = "written ?"
"""A play's `Event.text` where the record wrote `?` for a card the deal (and the exchange) settles."""


class Detail(Protocol):
    """The per-game part of a state: bottles, trump and calls, or bids."""

    def lines(self) -> list[tuple[str, str]]:
        """`(label, text)` pairs for a presenter: `("bottle", "17, held by Christian")`."""
        ...


@dataclass(frozen=True, slots=True)
class NoDetail:
    """The per-game part of a game with nothing of its own to show."""

    def lines(self) -> list[tuple[str, str]]:
        return []


KNOWN_FROM_DEAL = "deal"
"""`State.known_from`: the holding comes from the `deal` lines (and the exchange)."""
KNOWN_FROM_PLAYS = "plays"
"""`State.known_from`: the holding is inferred from the cards the player plays later."""


@dataclass(frozen=True, slots=True)
class State:
    """What is known after an event.

    `holdings`: each player's cards as far as the record shows them, and
    `known_from` says how (`"deal"` or `"plays"`, see the constants above);
    `trick`: the (player, card) plays of the trick so far, `leader` its leader;
    `piles`: each player's won cards; `tricks_won`: each player's tricks;
    `voids`: the suits or colours each player has shown not to hold;
    `scores`: the hand's scores, at its end only; `detail`: the game's own part;
    `stacks`: the piles a player has laid out on the table, each top card first
    (cards also in `holdings`), where the game lays cards out so.
    """

    holdings: Mapping[str, frozenset[str]]
    trick: tuple[tuple[str, str], ...]
    piles: Mapping[str, tuple[str, ...]]
    voids: Mapping[str, frozenset[str]]
    scores: Mapping[str, int] | None = None
    known_from: Mapping[str, str] | None = None
    leader: str | None = None
    tricks_won: Mapping[str, int] | None = None
    detail: Detail = NoDetail()
    stacks: Mapping[str, tuple[tuple[str, ...], ...]] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One event and the state after it."""

    event: Event
    state: State


class StepLog:
    """Builds a hand's replay steps as the ruleset plays it.

    Holdings shown are the deal (after discards and passes) for the players whose
    deal is recorded, else the cards the player will still play. The ruleset sets
    `detail` (its own per-game state) before each event it logs.
    """

    def __init__(
        self,
        players: Sequence[str],
        spell: Callable[[int], str],
        walk: Walk,
        suit_of: Callable[[int], str | None] | None,
    ) -> None:
        self.players = list(players)
        self.spell = spell
        self.suit_of = suit_of
        self.steps: list[Step] = []
        self.detail: Detail = NoDetail()
        self.held: dict[str, set[int]] = {}
        self.future: dict[str, list[int]] = {p: [] for p in players}
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for played in tricks:
            for p, c in zip(played.who, played.cards):
                self.future.setdefault(p, []).append(c)
        self.trick: list[tuple[str, int]] = []
        self.leader: str | None = None
        self.piles: dict[str, list[int]] = {p: [] for p in players}
        self.won: dict[str, int] = dict.fromkeys(players, 0)
        self.voids: dict[str, set[str]] = {p: set() for p in players}
        self.stacks: dict[str, list[list[int]]] | None = None

    def state(self, scores: Mapping[str, int] | None = None) -> State:
        sp = self.spell
        holdings = {
            p: frozenset(sp(c) for c in (self.held[p] if p in self.held else self.future.get(p, [])))
            for p in self.players
        }
        return State(
            holdings,
            tuple((p, sp(c)) for p, c in self.trick),
            {p: tuple(sp(c) for c in pile) for p, pile in self.piles.items()},
            {p: frozenset(v) for p, v in self.voids.items()},
            scores,
            {p: KNOWN_FROM_DEAL if p in self.held else KNOWN_FROM_PLAYS for p in self.players},
            self.leader,
            dict(self.won),
            self.detail,
            None
            if self.stacks is None
            else {p: tuple(tuple(sp(c) for c in pile) for pile in piles) for p, piles in self.stacks.items()},
        )

    def log(self, event: Event, scores: Mapping[str, int] | None = None) -> None:
        """Record `event` with the state as it is now."""
        self.steps.append(Step(event, self.state(scores)))

    def line(
        self, kind: str, player: str | None, cards: Iterable[CardText], line: Any, text: str | None = None
    ) -> None:
        """Log a line of the hand before the tricks (`deal`, `trump`, `bid` ...)."""
        self.log(
            Event(
                kind,
                player,
                tuple(c.text for c in cards),
                None,
                line.line,
                line.column,
                tuple(a.text for a in getattr(line, "annotations", ())),
                text=text,
            )
        )

    def deal(self, deal: Deal, resolve: Resolve) -> None:
        """A `deal` line: the player's cards become known."""
        self.held.setdefault(deal.player.name, set()).update(cards_of(deal.cards, resolve))
        self.line("deal", str(deal.player), deal.cards, deal)

    def discard(self, line: Discard, resolve: Resolve) -> None:
        """A `discard` line: the cards leave the player's hand."""
        self.set_aside("discard", line.player.name, line.cards, line, resolve)

    def set_aside(
        self, kind: str, player: str, cards: Iterable[CardText], line: Any, resolve: Resolve, text: str | None = None
    ) -> None:
        """A line that puts cards of a player's hand away face down (a discard, a bid): they leave the hand."""
        cards = tuple(cards)
        self.held.get(player, set()).difference_update(cards_of(cards, resolve))
        self.line(kind, player, cards, line, text)

    def pass_card(self, line: Pass, resolve: Resolve) -> None:
        """A `pass` line: the card moves from giver to receiver."""
        for c in cards_of((line.card,), resolve):
            self.held.get(line.giver.name, set()).discard(c)
            if line.receiver.name in self.held:
                self.held[line.receiver.name].add(c)
        self.line("pass", line.giver.name, (line.card,), line, text=str(line.receiver))

    def play(self, played: Played, i: int, led: int | None = 0) -> None:
        """Play `i` of a trick; `led` is the index of the card whose suit it must follow (None: no void shown)."""
        p, c = played.who[i], played.cards[i]
        if i == 0:
            self.trick = []
            self.leader = p
        self.trick.append((p, c))
        if self.suit_of is not None and led is not None and i > 0:
            suit = self.suit_of(played.cards[led])
            own = self.suit_of(c)
            if suit is not None and own is not None and own != suit:
                self.voids[p].add(suit)
        if c in self.future.get(p, []):
            self.future[p].remove(c)
        self.held.get(p, set()).discard(c)
        play = played.trick.plays[i]
        self.log(
            Event(
                "play",
                p,
                (self.spell(c),),
                played.trick.number,
                play.card.line,
                play.card.column,
                tuple(a.text for a in play.annotations),
                play.mark,
                WRITTEN_UNKNOWN if play.card.unknown else None,
            )
        )

    def trick_end(self, played: Played, piles: Mapping[str, Iterable[int]] | None = None) -> None:
        """The end of a trick: the winner counts it and takes the cards, unless the game says what the piles are now."""
        winner = played.winner_name
        if winner is not None:
            self.won[winner] = self.won.get(winner, 0) + 1
            if piles is None:
                self.piles.setdefault(winner, []).extend(played.cards)
            else:
                self.piles = {p: list(cards) for p, cards in piles.items()}
        self.trick = []
        t = played.trick
        self.log(Event("trick", winner, (), t.number, t.line, t.column, tuple(a.text for a in t.annotations)))

    def end(
        self, hand: Hand, scores: Mapping[str, int] | None, shown: Iterable[int] = (), text: str | None = None
    ) -> None:
        """The end of the hand, with its scores (None when it cannot be scored).

        `shown` are the cards turned face up at the end (the Bottle Imp's imp's trick),
        `text` says what they are.
        """
        self.trick = []
        self.log(Event("end", None, tuple(self.spell(c) for c in shown), None, None, None, text=text), scores)
