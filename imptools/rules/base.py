"""The protocols every ruleset provides, and the values a ruleset returns.

A ruleset module never prints and never reads files: it takes a `Game` from the
record model and returns a `GameResult` (scores and findings).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import ClassVar, Protocol, runtime_checkable

from imptools.findings import Finding
from imptools.record import Game, Hand
from imptools.rules.steps import Step


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
class CardFace:
    """How a card is shown: its canonical text, the name of its suit or colour, and a display colour.

    `style` is a colour name a terminal and a web page both understand (`"red"`,
    `"blue"`, `"orange3"` ...), `"default"` for the terminal's own text colour (black on
    a page), None where the card has no colour of its own. `order` sorts a holding: by
    suit or colour, then by the game's rank within it, highest first where the game
    ranks its cards that way (cards of equal `order` fall back to their text).
    """

    text: str
    suit: str | None = None
    style: str | None = None
    order: int = 0


@dataclass(frozen=True, slots=True)
class FactKind:
    """One fact a game counts per player and hand (the bottle held at the end, a contro called ...), as data.

    `key` names it where it is stored (`HandResult.facts`, the archive); `label`
    is how it is shown. A fact is a count summed over hands, or with `per_hand`
    an amount shown as its average over the player's scored hands (coins per hand).
    """

    key: str
    label: str
    per_hand: bool = False


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand as judged: `scores` is None when the hand cannot be scored."""

    number: int
    dealer: str | None
    complete: bool
    scores: dict[str, int] | None
    findings: tuple[Finding, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    """`(label, text)` facts of the hand for the score sheet (trump and calls, bids and tricks ...)."""
    player_notes: tuple[tuple[str, str], ...] = ()
    """`(player, text)`: how each player's score is made up, for the score sheet (`bid 3 · 3 tricks · exact +30`)."""
    facts: tuple[tuple[str, str, int], ...] = ()
    """`(player, key, value)`: the game's own facts of the hand (`Ruleset.facts` names them), for a scored hand
    only; a fact whose value is 0 is left out."""


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
    sides: tuple[tuple[str, ...], ...] = ()
    """The sides that score together for the whole game, when the rules fix them (empty: each player alone)."""
    notes: tuple[tuple[str, str], ...] = ()
    """`(label, text)` facts of the game for the score sheet (the race to the target ...)."""

    def all_findings(self) -> list[Finding]:
        """Game-level findings, then each hand's, in record order."""
        out = list(self.findings)
        for h in self.hands:
            out.extend(h.findings)
        return out


class Position(Protocol):
    """A hand being played with every card visible: what a bot, a simulation or a search moves in.

    `play` and `undo` change it in place and cost little, so a search can walk
    forward and back from any point; the legal cards come from the same rules
    functions the checker uses.
    """

    per_trick: int

    def to_move(self) -> str:
        """The player whose turn it is."""
        ...

    def legal(self) -> list[int]:
        """The cards that player may play."""
        ...

    def forced(self) -> int | None:
        """The card the rules themselves choose for that player (an automaton), or None."""
        ...

    def play(self, card: int) -> None:
        """Play `card` for the player to move (settling the trick when it is full)."""
        ...

    def undo(self) -> None:
        """Take the last play back."""
        ...

    def done(self) -> bool:
        """Whether every card has been played."""
        ...

    def spell(self, card: int) -> str:
        """The card as the notation writes it."""
        ...


class SearchPosition(Position, Protocol):
    """A `Position` a game-tree search can value (`imptools.analyse`): results, table keys, equivalent cards.

    Everything here is about one player's result, `player`, the one whose value
    the search computes; every method is cheap, as a search calls it at every node.

    Optional (the search uses it when present): `bounds(player) -> (low, high)`,
    the least and the most `player`'s result can still be from here, whatever is
    played (absolute, not relative to the banked part; `low == high` when it is
    certain). The search cuts where the window lies outside them. And `cards_left() ->
    int`, the cards still to be played: the last four are searched without the
    table. And `penalty_unit() -> int`: where it is above 0, a result below the
    banked part (`key`) is a penalty, k times minus the unit, that does not depend
    on what is banked; the table then stores k (as -k) for such results, so one
    entry serves every amount banked. And `answer(player, alpha, beta) -> int |
    None`: a window the position answers itself (a bound on the side it fails, as
    the search would give), None where it does not. And `opposed() -> list`: `groups()`
    in the order the players against `player` try them (the search otherwise orders
    every player's groups by a history count). And `checked() -> list`: `groups()` in
    the order `Search.choices` checks whether each keeps the value (the order the
    position's own search, `answer`, tries the player's cards: the value's proof
    then already holds the first check, and each check starts from the tables the
    one before filled). And `release()`: drop the tables the
    position's own solvers keep (`Search.close`: the search is done with it). And
    `share(store)`: keep those tables in `store`, a dict that the searches of a
    decision's options share where they share their own (`Decision.shared`).
    """

    def side(self, player: str) -> frozenset[str]:
        """The players who choose cards to make `player`'s result high (him, and a partner where the game has one).

        The players of a side share one result: `result`, `key`, `bounds` and `answer` say the same for each of them,
        so their values are the same and the search keeps one table for the side (`Search.voice`)."""
        ...

    def result(self, player: str) -> int:
        """`player`'s result for the hand, once every card is played (`done()`)."""
        ...

    def key(self, player: str) -> tuple[object, int]:
        """What the rest of `player`'s result depends on, and the part of it already banked.

        The result from here is `banked + f(key)` for some function `f` of the key
        alone, so a table of values relative to `banked` serves every history that
        reaches the same key. A game whose result is not additive puts what it
        depends on into the key and banks 0.
        """
        ...

    def groups(self) -> list[tuple[int, ...]]:
        """The legal cards in classes of equivalent ones (playing any card of a class gives the same value),
        the likeliest good classes first."""
        ...


def bits(mask: int) -> list[int]:
    """The bits of a mask, low to high (the cards of a search position's hand).

    >>> bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a choice made before the first card: how the record writes it, and the position play would
    start from had it been taken (None for the option taken: the hand's own start position)."""

    text: str
    start: Callable[[], SearchPosition] | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice a player made before the first card (a trump, a bid) and every option he had, in the game's order.

    The value of an option is `player`'s value of its start position. `every` says
    whether each option's value is shown (a trump table) or only the one taken and
    the best (a bid among hundreds); `costly` whether the options other than the
    one taken are valued only when asked (`imp analyse --bids`); `shared` whether
    one search table may serve every option's search (the positions' keys already
    hold all an option changes); `note` says what the value of the option taken
    comes to in the game's scoring ("" for nothing to say).
    """

    kind: str
    player: str
    options: tuple[Option, ...]
    every: bool = True
    costly: bool = False
    shared: bool = False
    note: Callable[[int], str] | None = None


@dataclass(slots=True)
class PlayedHand:
    """A hand as an analysis needs it: the position where play starts, every card visible, and the plays made.

    `plays` are `(trick number, player, card)` in play order; `note` says why the
    record's plays stop being analysable before its end (None when they do not);
    `marks` are the costs from which a play is marked `?` and `??` in this game;
    `decisions` the choices made before the first card, with their options.
    """

    position: SearchPosition
    plays: list[tuple[int, str, int]]
    note: str | None = None
    marks: tuple[int, int] = (1, 1)
    decisions: tuple[Decision, ...] = ()


@dataclass(frozen=True, slots=True)
class Place:
    """Where cards lie when play starts, as the knowing analysis sees a hand (`KnownDeal`).

    `owner` is the player whose place it is (None for one of nobody's: the turn-up, Lopaka's imp's trick);
    `plays` says its owner plays from it (his hand, or one of his packs: of a player's places he plays from, all
    but one are shown); `shown` that every player sees it (an open hand or pack, a declarer's bid cards, the
    turn-up, a pile's top card). Its owner sees it, except a face-down card (`under`).
    `under` makes it a face-down card of a pile (one card): the card lying on it where play starts. No player sees
    it, its owner neither, until that card is played (it turns up then); from then on every player does.
    """

    name: str
    owner: str | None
    cards: frozenset[int]
    plays: bool = False
    shown: bool = False
    under: int | None = None


@dataclass(slots=True)
class KnownDeal:
    """A recorded hand as the knowing analysis needs it: every place its cards lie in where play starts (each
    player's hand, discards, bid cards ...), the passes, the record's start position and plays (`played`), and
    `start`, which builds the start position for the same hand with other cards in the places (one set per place,
    in `places`' order; the scores then count those cards: the imp's trick, the bids)."""

    places: tuple[Place, ...]
    passed: tuple[tuple[str, str, int], ...]
    """`(giver, receiver, card)` for each card passed before play."""
    played: PlayedHand
    start: Callable[[Sequence[frozenset[int]]], SearchPosition]


@runtime_checkable
class Searchable(Protocol):
    """A ruleset whose hands a search can start from: it sets a game up and finds a hand and its dealer.

    The search itself lives beside the ruleset in the game's package and is found through the registry
    (`imptools.rules.registry.get_search`); the ruleset never imports it.
    """

    unjudged: str
    """Why a game whose `table` is None cannot be played (for `imp analyse`)."""

    def table(self, game: Game) -> object | None:
        """The per-game setup, or None when the rules cannot judge this game."""
        ...

    def hand_and_dealer(self, game: Game, table: object, hand_number: int) -> tuple[Hand, str] | str:
        """Hand `hand_number` of `game` and its dealer, or why there is none to play."""
        ...


KnownHand = Callable[[Searchable, object, Game, Hand, str], "KnownDeal | str"]
"""A game's `known_deal(ruleset, setup, game, hand, dealer)`: a hand's `KnownDeal`, or why there is none."""


StartPosition = Callable[[Searchable, object, Game, Hand, str], "PlayedHand | str"]
"""A game search's `played_hand(ruleset, setup, game, hand, dealer)`: the start position and plays of a hand the
ruleset found, or why the search cannot take it."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice a simulated deal asks a player's bot to make before the first card (a bid, a trump, a doubling),
    described with nothing of the game's own: who makes it, and a few candidates, the game's better bot's first.

    Each option is what the record writes for it (a line, "" for a pass: no line), so that the record of any option
    can be made; `shown` says whether every player sees the option taken (a trump, a doubling, a declaration) or only
    `player` (the cards he bids); `lines` are the hand's lines so far, the deal lines among them (what `player` saw
    of the deal: `HandSimulator.seen_at_deal`, and every choice shown to the table before this one).

    `reveals` names the kind of an earlier choice of `player`'s that every player sees once he takes an option of
    this one other than a pass ("", no line): a Ninety-nine declaration shows the bid cards (`bid`); "" for none.
    `others` are the options the player may also take, which no bot weighs (`ask` answers an index into `options`
    then `others`): every bid of his twelve cards, say, so that a bid seen made can be made again in a deal where
    it is not among the candidates."""

    kind: str
    player: str
    options: tuple[str, ...]
    shown: bool = True
    lines: tuple[str, ...] = ()
    reveals: str = ""
    others: tuple[str, ...] = ()


Ask = Callable[[Choice], int]
"""A bot asked to make a `Choice`: the index of the option it takes in `options` then `others` (0: the better
bot's)."""


@dataclass(slots=True)
class DealtHand:
    """A simulated deal: the record lines written before trick 1, and the position play starts from.

    `play_only` is what a record without the deal keeps of `lines`: the lines the
    hand's score rests on that are not the deal itself (trump and doublings, the
    turn-up and bids); empty where the tricks alone score the hand. `worth` turns a
    player's result as the game's search counts it (`SearchPosition.result`) into
    what the hand scores him less what it scores the players against him, where the
    two differ (Botifarra: points, and the multiplier of the calls made); None where
    the search's result is the score.
    """

    lines: list[str]
    position: Position
    play_only: list[str] = field(default_factory=list)
    worth: Callable[[str, int], int] | None = None


class HandSimulator(Protocol):
    """Deals random hands of one game and knows a better-than-random way to play them."""

    def deal(
        self,
        dealer: str,
        rng: Random,
        better: bool = False,
        given: Mapping[str, Sequence[int]] | None = None,
        ask: Ask | None = None,
    ) -> DealtHand:
        """Shuffle, deal and exchange as the rules say; the lines to write and the position to play.

        `better` asks for the choices before play (bids, calls) made the way
        `better_bot` would, where the game has any worth reasoning about; else at random.
        `given` deals those cards to those places (`places`), the rest at random.
        `ask` (with `better`) is asked each choice the game offers its players before the first card (`Choice`:
        the better bot's option and a few next best), and the option it answers is taken; the better bot's
        choices use the random numbers as they do without `ask`, so that answering 0 to every choice gives the
        deal made without it.
        """
        ...

    def places(self, dealer: str) -> list[tuple[str, int]]:
        """The places a deal fills, as the record names them (`Adam`, `Adam.2`, `turnup`), with their sizes, in
        the order the dealer fills them."""
        ...

    def seen_at_deal(self, hand: Hand, dealer: str, seat: str) -> dict[str, list[int]] | str:
        """What `seat` saw of recorded hand `hand` (dealt by `dealer`) when the deal was complete: his own cards and
        what the rules show the table then (Lopaka's hand, an open pack, the turn-up, face-up pile cards), and the
        cards the choices the hand's lines record show the table (a Ninety-nine declarer's bid cards, a part of
        his place), as the places and cards `--deal` gives (`places`; a pile's seen cards are its top ones), read
        from the record's lines; or why the record cannot say (`imp simulate --like`)."""
        ...

    def card(self, text: str) -> int | None:
        """The engine card a token names, or None when it is not a card of this pack."""
        ...

    def pack(self) -> list[int]:
        """Every card of the pack, as engine cards."""
        ...

    def spell(self, card: int) -> str:
        """The card as the notation writes it."""
        ...

    choices_by_worlds: bool
    """Whether the `pimc` bot makes this game's choices before the first card by worlds (where that was measured to
    play better than the better bot's choices: docs/PERFORMANCE.md), unless told otherwise."""

    def within_reach(self, position: Position) -> bool:
        """Whether the search solves a world of `position` to the end of the hand in a fraction of a second (the
        `pimc` bot solves its worlds exactly from there; before that it values them by the search cut at a horizon,
        `imptools.horizon`)."""
        ...

    def better_bot(self, position: Position, rng: Random) -> int:
        """A card for the player to move, chosen by a simple strategy of this game."""
        ...


class Ruleset(Protocol):
    """A game's rules: card tokens, judging and scoring, replay."""

    name: ClassVar[str]
    variants: ClassVar[tuple[str, ...]]
    facts: ClassVar[tuple[FactKind, ...]]
    """The facts a scored hand of this game counts per player (`HandResult.facts`), in the order they are shown."""

    def check_card(self, text: str, game: Game) -> CardCheck:
        """Resolve one card token of `game` (its tags decide the deck)."""
        ...

    def judge(self, game: Game) -> GameResult:
        """Replay every hand of `game`, report each rule broken and score it."""
        ...

    def replay(self, game: Game, hand_number: int) -> Iterator[Step]:
        """The steps of one hand: a state after every event (nothing for a hand that cannot be replayed)."""
        ...

    def card_face(self, text: str, game: Game) -> CardFace:
        """How to show a card token of `game` (its suit or colour), for the presenters."""
        ...

    def simulator(self, game: Game) -> HandSimulator | None:
        """A dealer of random hands for the game `game`'s tags describe, or None where there is none."""
        ...

    def deck(self, game: Game) -> list[str]:
        """Every card of `game`'s deck, canonically spelt, in the game's order (empty when unknown)."""
        ...

    def to_play(self, game: Game, hand_number: int) -> str | None:
        """Who plays the next card of hand `hand_number` after its last recorded play (None when unknown)."""
        ...

    def named_seats(self, variant: str | None) -> tuple[str, ...]:
        """The players a variant seats under a name of its own (the Bottle Imp's Lopaka), for default tables."""
        ...
