"""The record model: what a record says, as dataclasses treated as values.

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

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar, cast

from imptools.findings import Finding


class _Element:
    """What every element of the model shares: it pickles as its class called with its fields.

    The elements are values: compared and hashed by their fields, and never changed once made (nothing
    assigns to a field; `dataclasses.replace` makes a changed copy). They are not `frozen` dataclasses
    only because a frozen dataclass is built through `object.__setattr__`, field by field, three to
    fifteen times slower than a plain `__init__`, pure or compiled with mypyc (hatch_build.py; the
    elements read most often have an `__init__` of their own for the compiled build, docs/PERFORMANCE.md).
    A class compiled with mypyc is not unpickled field by field either: hence `__reduce__` (the worker
    processes of `--jobs` send games back pickled).
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), tuple([getattr(self, f.name) for f in fields(cast(Any, self))])


@dataclass(slots=True, unsafe_hash=True)
class Annotation(_Element):
    """A `{...}` annotation comment; `text` is what lies between the braces."""

    text: str
    line: int
    column: int


@dataclass(slots=True, unsafe_hash=True, init=False)
class CardText(_Element):
    """A card token as written (`24b`, `10H`, `?`); a ruleset resolves it."""

    text: str
    line: int
    column: int

    def __init__(self, text: str, line: int, column: int) -> None:
        self.text = text
        self.line = line
        self.column = column

    @property
    def unknown(self) -> bool:
        """True for `?`, the card the record does not know."""
        return self.text == "?"


@dataclass(slots=True, unsafe_hash=True, init=False)
class NameRef(_Element):
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

    def __init__(self, name: str, line: int, column: int, pack: int | None = None, written: str | None = None) -> None:
        self.name = name
        self.line = line
        self.column = column
        self.pack = pack
        self.written = written

    def __str__(self) -> str:
        return self.name if self.pack is None else f"{self.name}.{self.pack}"

    @property
    def as_written(self) -> str:
        """The name as the record spells it, with its pack."""
        name = self.written or self.name
        return name if self.pack is None else f"{name}.{self.pack}"


@dataclass(slots=True, unsafe_hash=True)
class Tag(_Element):
    """A `[Name "value"]` tag line."""

    name: str
    value: str
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class CommentLine(_Element):
    """A line holding only a `;` comment (`text` excludes the `;`)."""

    text: str
    line: int
    column: int


@dataclass(slots=True, unsafe_hash=True)
class UnreadLine(_Element):
    """A line the reader could not read, or read but could not place, kept verbatim where it stands.

    `text` is the line exactly as written (a line joined with the next ones while a `{` was open
    holds them all, separated by newlines); the writer puts it back as it is, so that nothing a user
    wrote is lost by `imp export` and `imp import` (the finding that says what is wrong is the
    reader's, as always).
    """

    text: str
    line: int
    column: int = 1


@dataclass(slots=True, unsafe_hash=True, init=False)
class Deal(_Element):
    """`deal NAME[.PACK] CARD...`: the cards dealt to a player (or to one pack or pile)."""

    player: NameRef
    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def __init__(
        self,
        player: NameRef,
        cards: tuple[CardText, ...],
        line: int,
        column: int,
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
    ) -> None:
        self.player = player
        self.cards = cards
        self.line = line
        self.column = column
        self.annotations = annotations
        self.remark = remark


@dataclass(slots=True, unsafe_hash=True, init=False)
class Discard(_Element):
    """`discard NAME CARD...`: cards put away face down."""

    player: NameRef
    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def __init__(
        self,
        player: NameRef,
        cards: tuple[CardText, ...],
        line: int,
        column: int,
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
    ) -> None:
        self.player = player
        self.cards = cards
        self.line = line
        self.column = column
        self.annotations = annotations
        self.remark = remark


@dataclass(slots=True, unsafe_hash=True, init=False)
class Pass(_Element):
    """`pass NAME > NAME[.PACK] CARD`: one card handed to another player."""

    giver: NameRef
    receiver: NameRef
    card: CardText
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def __init__(
        self,
        giver: NameRef,
        receiver: NameRef,
        card: CardText,
        line: int,
        column: int,
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
    ) -> None:
        self.giver = giver
        self.receiver = receiver
        self.card = card
        self.line = line
        self.column = column
        self.annotations = annotations
        self.remark = remark


@dataclass(slots=True, unsafe_hash=True)
class Open(_Element):
    """`open NAME PACK`: which pack a player lays face up (two-pack variants)."""

    player: NameRef
    pack: int
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class ImpTrick(_Element):
    """`imp CARD...`: the imp's trick as turned over at the end of the hand."""

    cards: tuple[CardText, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Trump(_Element):
    """`trump NAME SUIT` (botifarra); `suit` is the word as written, `delegate` included."""

    player: NameRef
    suit: str
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Call(_Element):
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


@dataclass(slots=True, unsafe_hash=True)
class TurnUp(_Element):
    """`turnup CARD` (ninety-nine): the 37th card, turned up."""

    card: CardText
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Bid(_Element):
    """`bid NAME C1 C2 C3` or `bid NAME N` (ninety-nine); `number` is set for the second form."""

    player: NameRef
    cards: tuple[CardText, ...]
    number: int | None
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class Declare(_Element):
    """`declare NAME` or `reveal NAME` (ninety-nine); `kind` is the keyword."""

    kind: str
    player: NameRef
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None


@dataclass(slots=True, unsafe_hash=True, init=False)
class Play(_Element):
    """`[NAME:]CARD[MARK]` inside a trick."""

    card: CardText
    line: int
    column: int
    player: NameRef | None = None
    mark: str | None = None
    annotations: tuple[Annotation, ...] = ()

    def __init__(
        self,
        card: CardText,
        line: int,
        column: int,
        player: NameRef | None = None,
        mark: str | None = None,
        annotations: tuple[Annotation, ...] = (),
    ) -> None:
        self.card = card
        self.line = line
        self.column = column
        self.player = player
        self.mark = mark
        self.annotations = annotations


@dataclass(slots=True, unsafe_hash=True, init=False)
class Trick(_Element):
    """`N. PLAY...`: trick N, plays in the order they were made."""

    number: int
    plays: tuple[Play, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def __init__(
        self,
        number: int,
        plays: tuple[Play, ...],
        line: int,
        column: int,
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
    ) -> None:
        self.number = number
        self.plays = plays
        self.line = line
        self.column = column
        self.annotations = annotations
        self.remark = remark


@dataclass(slots=True, unsafe_hash=True, init=False)
class ScoreEntry(_Element):
    """One `NAME INT` pair of a `score` or `total` line."""

    player: NameRef
    value: int
    line: int
    column: int

    def __init__(self, player: NameRef, value: int, line: int, column: int) -> None:
        self.player = player
        self.value = value
        self.line = line
        self.column = column


@dataclass(slots=True, unsafe_hash=True, init=False)
class ScoreLine(_Element):
    """`score NAME INT ...` (`kind` "score") or `total NAME INT ...` (`kind` "total")."""

    kind: str
    entries: tuple[ScoreEntry, ...]
    line: int
    column: int
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None

    def __init__(
        self,
        kind: str,
        entries: tuple[ScoreEntry, ...],
        line: int,
        column: int,
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
    ) -> None:
        self.kind = kind
        self.entries = entries
        self.line = line
        self.column = column
        self.annotations = annotations
        self.remark = remark


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


@dataclass(slots=True, unsafe_hash=True, init=False)
class Hand(_Element):
    """`hand N [dealer NAME]` and the lines that follow it, in written order.

    `number` is the hand's place in its game (hands are numbered 1, 2, 3 ... in order); where the record wrote
    another number, `written` keeps it, so that nothing written is lost (as `NameRef.written` keeps a name)."""

    number: int
    line: int
    column: int
    dealer: NameRef | None = None
    lines: tuple[HandLine, ...] = ()
    annotations: tuple[Annotation, ...] = ()
    remark: str | None = None
    written: int | None = None

    def __init__(
        self,
        number: int,
        line: int,
        column: int,
        dealer: NameRef | None = None,
        lines: tuple[HandLine, ...] = (),
        annotations: tuple[Annotation, ...] = (),
        remark: str | None = None,
        written: int | None = None,
    ) -> None:
        self.number = number
        self.line = line
        self.column = column
        self.dealer = dealer
        self.lines = lines
        self.annotations = annotations
        self.remark = remark
        self.written = written

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


@dataclass(slots=True, unsafe_hash=True)
class Game(_Element):
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
