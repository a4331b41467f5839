"""The record model: what a record says, as frozen dataclasses.

Every element keeps the line and column where it starts (1-based). The model
knows the notation, not the rules: cards are kept as written (`CardText`) and
resolved by a game's ruleset; names are kept as written (`NameRef`), a slip of one
keystroke read as the player meant (`imptools.slips`).

A hand keeps its lines in the order they were written (`Hand.lines`), comment
lines and lines that could not be read (`UnreadLine`) included, so the writer can
put everything back; the typed views
(`Hand.deals`, `Hand.tricks`, ...) filter that sequence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from imptools.findings import Finding


@dataclass(frozen=True, slots=True)
class Annotation:
    """A `{...}` annotation comment; `text` is what lies between the braces."""

    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class CardText:
    """A card token as written (`24b`, `10H`, `?`); a ruleset resolves it."""

    text: str
    line: int
    column: int

    @property
    def unknown(self) -> bool:
        """True for `?`, the card the record does not know."""
        return self.text == "?"


@dataclass(frozen=True, slots=True)
class NameRef:
    """A player name, with the pack or pile after a dot (`Keawe.2`).

    `name` is the player the record names; where the scorekeeper's spelling was
    one keystroke from exactly one player (`Dorris` for `Doris`), `name` is the
    player meant and `written` keeps the spelling, so that nothing written is lost.
    """

    name: str
    line: int
    column: int
    pack: int | None = None
    written: str | None = None

    def __str__(self) -> str:
        return self.name if self.pack is None else f"{self.name}.{self.pack}"

    @property
    def as_written(self) -> str:
        """The name as the record spells it, with its pack."""
        name = self.written or self.name
        return name if self.pack is None else f"{name}.{self.pack}"


@dataclass(frozen=True, slots=True)
class Tag:
    """A `[Name "value"]` tag line."""

    name: str
    value: str
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class CommentLine:
    """A line holding only a `;` comment (`text` excludes the `;`)."""

    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class UnreadLine:
    """A line the reader could not read, or read but could not place, kept verbatim where it stands.

    `text` is the line exactly as written (a line joined with the next ones while a `{` was open
    holds them all, separated by newlines); the writer puts it back as it is, so that nothing a user
    wrote is lost by `imp export` and `imp import` (the finding that says what is wrong is the
    reader's, as always).
    """

    text: str
    line: int
    column: int = 1


@dataclass(frozen=True, slots=True)
class Deal:
    """`deal NAME[.PACK] CARD...`: the cards dealt to a player (or to one pack or pile)."""

    player: NameRef
    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """`discard NAME CARD...`: cards put away face down."""

    player: NameRef
    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """`pass NAME > NAME[.PACK] CARD`: one card handed to another player."""

    giver: NameRef
    receiver: NameRef
    card: CardText
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Open:
    """`open NAME PACK`: which pack a player lays face up (two-pack variants)."""

    player: NameRef
    pack: int
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class ImpTrick:
    """`imp CARD...`: the imp's trick as turned over at the end of the hand."""

    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Trump:
    """`trump NAME SUIT` (botifarra); `suit` is the word as written, `delegate` included."""

    player: NameRef
    suit: str
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """`contro NAME`, `recontro NAME`, `sant-vicenc NAME` (botifarra doublings)."""

    kind: str
    player: NameRef
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


def call_kind(keyword: str) -> str:
    """The canonical keyword of a doubling call: `sant-vicenç` (the Catalan spelling) is `sant-vicenc`."""
    return "sant-vicenc" if keyword == "sant-vicenç" else keyword


@dataclass(frozen=True, slots=True)
class TurnUp:
    """`turnup CARD` (ninety-nine): the 37th card, turned up."""

    card: CardText
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    """`bid NAME C1 C2 C3` or `bid NAME N` (ninety-nine); `number` is set for the second form."""

    player: NameRef
    cards: tuple[CardText, ...]
    number: int | None
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Declare:
    """`declare NAME` or `reveal NAME` (ninety-nine); `kind` is the keyword."""

    kind: str
    player: NameRef
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """`[NAME:]CARD[MARK]` inside a trick."""

    card: CardText
    line: int
    column: int
    player: NameRef | None = None
    mark: str | None = None
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Trick:
    """`N. PLAY...`: trick N, plays in the order they were made."""

    number: int
    plays: tuple[Play, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One `NAME INT` pair of a `score` or `total` line."""

    player: NameRef
    value: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """`score NAME INT ...` (`kind` "score") or `total NAME INT ...` (`kind` "total")."""

    kind: str
    entries: tuple[ScoreEntry, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


HandLine = (
    Deal
    | Discard
    | Pass
    | Open
    | ImpTrick
    | Trump
    | Call
    | TurnUp
    | Bid
    | Declare
    | Trick
    | ScoreLine
    | CommentLine
    | UnreadLine
)
"""Any line that can stand inside a hand."""

_L = TypeVar("_L")


@dataclass(frozen=True, slots=True)
class Hand:
    """`hand N [dealer NAME]` and the lines that follow it, in written order."""

    number: int
    line: int
    column: int
    dealer: NameRef | None = None
    lines: tuple[HandLine, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def _of(self, kind: type[_L]) -> list[_L]:
        return [x for x in self.lines if isinstance(x, kind)]

    @property
    def deals(self) -> tuple[Deal, ...]:
        return tuple(self._of(Deal))

    @property
    def discards(self) -> tuple[Discard, ...]:
        return tuple(self._of(Discard))

    @property
    def passes(self) -> tuple[Pass, ...]:
        return tuple(self._of(Pass))

    @property
    def opens(self) -> tuple[Open, ...]:
        return tuple(self._of(Open))

    @property
    def imps(self) -> tuple[ImpTrick, ...]:
        return tuple(self._of(ImpTrick))

    @property
    def trumps(self) -> tuple[Trump, ...]:
        return tuple(self._of(Trump))

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(self._of(Call))

    @property
    def turnups(self) -> tuple[TurnUp, ...]:
        return tuple(self._of(TurnUp))

    @property
    def bids(self) -> tuple[Bid, ...]:
        return tuple(self._of(Bid))

    @property
    def declares(self) -> tuple[Declare, ...]:
        return tuple(self._of(Declare))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._of(Trick))

    @property
    def scores(self) -> tuple[ScoreLine, ...]:
        return tuple(x for x in self._of(ScoreLine) if x.kind == "score")

    @property
    def totals(self) -> tuple[ScoreLine, ...]:
        return tuple(x for x in self._of(ScoreLine) if x.kind == "total")


HeaderLine = Tag | CommentLine | UnreadLine
"""A line of a game's header: a tag, or a comment (or a line that could not be read) among or before the tags."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a file: its header (tags and comments) and its hands.

    `index` counts the games of a file from 1; `findings` holds what the reader
    found wrong in the game's text (syntax errors, misplaced lines).
    """

    index: int
    line: int
    column: int
    header: tuple[HeaderLine, ...] = ()
    hands: tuple[Hand, ...] = ()
    path: str | None = None
    findings: tuple[Finding, ...] = field(default=(), compare=False)

    @property
    def tags(self) -> tuple[Tag, ...]:
        return tuple(x for x in self.header if isinstance(x, Tag))

    @property
    def holds_game(self) -> bool:
        """False for what the reader gives for a file holding no game (empty, or no notation in it): no tag, no hand."""
        return any(isinstance(x, Tag) for x in self.header) or bool(self.hands)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called `name`, or None."""
        for t in self.header:
            if isinstance(t, Tag) and t.name == name:
                return t.value
        return None

    @property
    def game_name(self) -> str | None:
        """The `Game` tag: which ruleset judges this game."""
        return self.tag("Game")

    @property
    def players(self) -> tuple[str, ...]:
        """The `Players` tag split into names, in turn order."""
        value = self.tag("Players")
        return tuple(value.split()) if value else ()
