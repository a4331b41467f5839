"""The reader: Imp notation text -> record model, streaming game by game.

Data flows: bytes -> decoded physical lines -> logical lines (a physical line,
joined with the next ones while a `{...}` annotation is open) -> Lark LALR parse
of each logical line, with a Transformer that builds the line's model object ->
the assembler, which puts lines into hands and hands into games and yields
each game as soon as the next one starts.

A syntax error is a `Finding` (code `syntax`) on the game it sits in; the
reader skips the bad line and goes on, so one bad line never hides the rest.
"""

from __future__ import annotations

import io
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Union

from imptools.fastpath import fast_line
from imptools.findings import Finding
from imptools.record import (
    Annotation,
    Bid,
    Call,
    CardText,
    CommentLine,
    Deal,
    Declare,
    Discard,
    Game,
    Hand,
    HandLine,
    HeaderLine,
    ImpTrick,
    NameRef,
    Open,
    Pass,
    Play,
    ScoreEntry,
    ScoreLine,
    Tag,
    Trick,
    Trump,
    TurnUp,
)

if TYPE_CHECKING:  # Lark is imported when a line first needs it: most records never do (imptools.fastpath)
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]

_NAME = re.compile(r"[^\W\d_][\w'\-]*")
_PLAY = re.compile(r"(?:(?P<name>[^:]+):)?(?P<card>.*?)(?P<mark>!!|!\?|\?!|\?\?|!|\?)?")
_MARKS = ("!!", "!?", "?!", "??", "!", "?")


class RecordSyntaxError(ValueError):
    """A line that does not follow the notation; the reader turns it into a finding."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


# --------------------------------------------------------------------------- grammar


def _grammar_text() -> str:
    """The grammar, from the installed package data or, in a source tree, from grammar/."""
    try:
        return (resources.files("imptools") / "grammar" / "imp.lark").read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, ModuleNotFoundError):
        return (Path(__file__).resolve().parent.parent / "grammar" / "imp.lark").read_text(encoding="utf-8")


@dataclass
class _LineContext:
    """What the embedded transformer needs to know about the logical line it builds."""

    first_line: int = 1
    annotations: list[Token] | None = None
    comments: list[Token] | None = None


_CTX = _LineContext(annotations=[], comments=[])


def _on_annotation(tok: Token) -> Token:
    assert _CTX.annotations is not None
    _CTX.annotations.append(tok)
    return tok


def _on_comment(tok: Token) -> Token:
    assert _CTX.comments is not None
    _CTX.comments.append(tok)
    return tok


def _pos(tok: Token) -> tuple[int, int]:
    return _CTX.first_line + (tok.line or 1) - 1, tok.column or 1


def _name(tok: Token) -> NameRef:
    """`Adam` or `Keawe.2` (a name with its pack or pile)."""
    line, col = _pos(tok)
    text = str(tok)
    pack: int | None = None
    base, dot, rest = text.rpartition(".")
    if dot and rest.isdigit() and base:
        text, pack = base, int(rest)
    if not _NAME.fullmatch(text):
        raise RecordSyntaxError(f"`{tok}` is not a player name (a letter, then letters, digits, _ ' or -)", line, col)
    return NameRef(text, line, col, pack)


def _card(tok: Token) -> CardText:
    line, col = _pos(tok)
    return CardText(str(tok), line, col)


def _play(tok: Token) -> Play:
    line, col = start = _pos(tok)
    text = str(tok)
    name: NameRef | None = None
    if ":" in text:
        who, _, rest = text.partition(":")
        if not who or not _NAME.fullmatch(who):
            what = f"`{who}` before `:` is not a player name" if who else "nothing before `:` names a player"
            raise RecordSyntaxError(f"`{text}`: {what}", line, col)
        name = NameRef(who, line, col)
        col += len(who) + 1
        text = rest
    mark: str | None = None
    for m in _MARKS:
        if text.endswith(m) and len(text) > len(m):
            text, mark = text[: -len(m)], m
            break
    else:
        if text in ("??", "?!", "!?", "?!!"):
            text, mark = "?", text[1:]
    if not text or any(ch in text for ch in ":!"):
        raise RecordSyntaxError(f"`{tok}` is not a play: write [NAME:]CARD[MARK], e.g. `Adam:24` or `24!`", *start)
    return Play(CardText(text, line, col), line, col, name, mark)


class _LineBuilder:
    """Builds one line's model object straight from the parse (no tree walked twice).

    Its methods become an inline Lark `Transformer` in `line_parser`, so that Lark
    is imported only when a line needs it.
    """

    def start(self, line: Any = None) -> Any:
        return line

    def tag(self, name: Token, value: Token) -> Tag:
        line, col = _pos(name)
        raw = str(value)[1:-1]
        return Tag(str(name), re.sub(r"\\(.)", r"\1", raw), line, col - 1)

    def hand(self, number: Token, _dealer_kw: Token | None, dealer: Token | None) -> Hand:
        line, _ = _pos(number)
        return Hand(int(number), line, 1, _name(dealer) if dealer is not None else None)

    def deal(self, who: Token, *cards: Token) -> Deal:
        player = _name(who)
        return Deal(player, tuple(_card(c) for c in cards), player.line, 1)

    def discard(self, who: Token, *cards: Token) -> Discard:
        player = _name(who)
        return Discard(player, tuple(_card(c) for c in cards), player.line, 1)

    def pass_card(self, giver: Token, receiver: Token, card: Token) -> Pass:
        g = _name(giver)
        return Pass(g, _name(receiver), _card(card), g.line, 1)

    def open(self, who: Token, pack: Token) -> Open:
        player = _name(who)
        return Open(player, int(pack), player.line, 1)

    def imp(self, *cards: Token) -> ImpTrick:
        line, _ = _pos(cards[0])
        return ImpTrick(tuple(_card(c) for c in cards), line, 1)

    def trump(self, who: Token, suit: Token) -> Trump:
        player = _name(who)
        return Trump(player, str(suit), player.line, 1)

    def call(self, kind: Token, who: Token) -> Call:
        line, col = _pos(kind)
        return Call(str(kind), _name(who), line, col)

    def turnup(self, card: Token) -> TurnUp:
        c = _card(card)
        return TurnUp(c, c.line, 1)

    def bid(self, who: Token, *rest: Token) -> Bid:
        player = _name(who)
        if len(rest) == 1 and str(rest[0]).isdigit():
            return Bid(player, (), int(rest[0]), player.line, 1)
        return Bid(player, tuple(_card(c) for c in rest), None, player.line, 1)

    def declare(self, kind: Token, who: Token) -> Declare:
        line, col = _pos(kind)
        return Declare(str(kind), _name(who), line, col)

    def trick(self, number: Token, *plays: Token) -> Trick:
        line, col = _pos(number)
        return Trick(int(str(number)[:-1]), tuple(_play(p) for p in plays), line, col)

    def score(self, kind: Token, *pairs: Token) -> ScoreLine:
        line, col = _pos(kind)
        entries = []
        for who, value in zip(pairs[::2], pairs[1::2]):
            player = _name(who)
            entries.append(ScoreEntry(player, int(value), player.line, player.column))
        return ScoreLine(str(kind), tuple(entries), line, col)


@lru_cache(maxsize=1)
def line_parser() -> Lark:
    """The LALR parser of one logical line, compiled once and cached on disk by Lark."""
    from lark import Lark, Transformer, v_args

    methods = {k: v for k, v in vars(_LineBuilder).items() if not k.startswith("__")}
    builder = v_args(inline=True)(type("_LineBuilder", (Transformer,), methods))
    return Lark(
        _grammar_text(),
        parser="lalr",
        lexer="contextual",
        transformer=builder(),
        lexer_callbacks={"ANNOTATION": _on_annotation, "COMMENT": _on_comment},
        cache=True,
    )


# --------------------------------------------------------------------------- messages

_WORDS: dict[str, str] = {
    "WORD": "a name or a card",
    "INT": "a number",
    "SIGNED_INT": "a number of points",
    "TRICK_NUMBER": "a trick number like `1.`",
    "TAG_NAME": "a tag name like `Event`",
    "TAG_VALUE": 'a quoted value like "bottle-imp"',
    "LSQB": "`[`",
    "RSQB": "`]` to close the tag",
    "MORETHAN": "`>` between the giver and the receiver",
    "$END": "the end of the line",
    "DEALER": "`dealer`",
}
_KEYWORDS = (
    'a line such as `[Tag "..."]`, `hand N`, `deal`, `discard`, `pass`, `open`, `imp`, `trump`, '
    "`contro`, `turnup`, `bid`, `declare`, a trick `N. ...`, `score` or `total`"
)
_LINE_KEYWORDS = frozenset(
    [
        "hand",
        "deal",
        "discard",
        "pass",
        "open",
        "imp",
        "trump",
        "contro",
        "recontro",
        "sant-vicenc",
        "turnup",
        "bid",
        "declare",
        "reveal",
        "score",
        "total",
    ]
)
_LINE_START = {
    "LSQB",
    "TRICK_NUMBER",
    "HAND",
    "DEAL",
    "DISCARD",
    "PASS",
    "OPEN",
    "IMP",
    "TRUMP",
    "CONTRO",
    "TURNUP",
    "BID",
}


def _expected(names: Iterable[str]) -> str:
    names = set(names)
    if len(names & _LINE_START) >= 3:
        return _KEYWORDS
    words = sorted({_WORDS.get(n, f"`{n.lower().replace('_', '-')}`") for n in names})
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _describe(err: UnexpectedInput, text: str, first_line: int) -> RecordSyntaxError:
    """A card player's account of a Lark error: where, the text at fault, what was expected."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    keyword = text.split(None, 1)[0] if text.split() else ""
    where = f"in this `{keyword}` line, " if keyword in _LINE_KEYWORDS else ""
    if isinstance(err, UnexpectedCharacters):
        line = first_line + err.line - 1
        bad = text.split("\n")[err.line - 1][err.column - 1 :].split(None, 1)[0] if text else ""
        if bad.startswith("{"):
            return RecordSyntaxError("`{` opens an annotation that is never closed with `}`", line, err.column)
        msg = f"{where}`{bad}` is not understood here: expected {_expected(err.allowed or ())}"
        if bad.isdigit() and err.column == 1:
            msg = f"`{bad}` at the start of a line: a trick number is written with a dot, `{bad}.`"
        return RecordSyntaxError(msg[0].upper() + msg[1:], line, err.column)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            last = text.rstrip().split("\n")[-1] if text.strip() else ""
            msg = f"{where}the line ends too soon: expected {_expected(err.expected)}"
            return RecordSyntaxError(
                msg[0].upper() + msg[1:], first_line + len(text.rstrip().split("\n")) - 1, len(last) + 1
            )
        msg = f"{where}`{tok}` is not expected here: expected {_expected(err.expected)}"
        if str(tok).isdigit() and tok.column == 1 and tok.line == 1:
            msg = f"`{tok}` at the start of a line: a trick number is written with a dot, `{tok}.`"
        return RecordSyntaxError(msg[0].upper() + msg[1:], first_line + (tok.line or 1) - 1, tok.column or 1)
    if isinstance(err, UnexpectedEOF):
        return RecordSyntaxError(
            f"The line ends too soon: expected {_expected(err.expected)}", first_line, len(text) + 1
        )
    return RecordSyntaxError(str(err).splitlines()[0], first_line, 1)


# --------------------------------------------------------------------------- physical and logical lines


@dataclass(frozen=True, slots=True)
class _Physical:
    number: int
    text: str


@dataclass(frozen=True, slots=True)
class _Logical:
    first_line: int
    text: str


def _decode_lines(binary: IO[bytes], findings: list[Finding]) -> Iterator[_Physical]:
    """Decode UTF-8 (with or without BOM; LF, CRLF or CR) line by line, noting bytes that are not UTF-8."""
    offset = 0
    number = 0
    for raw in binary:
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if body.endswith(b"\r"):
            body = body[:-1]
        start = offset
        offset += len(raw)
        for piece in body.split(b"\r") if b"\r" in body else (body,):
            number += 1
            try:
                text = piece.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = piece.decode("utf-8", errors="replace")
                column = len(piece[: exc.start].decode("utf-8", errors="replace")) + 1
                findings.append(
                    Finding(
                        "syntax",
                        f"Byte 0x{piece[exc.start]:02X} at byte offset {start + exc.start} is not UTF-8 "
                        "(save the file as UTF-8); it was read as \N{REPLACEMENT CHARACTER}",
                        number,
                        column,
                    )
                )
            if number == 1 and text.startswith("\ufeff"):
                text = text[1:]
            start += len(piece) + 1
            yield _Physical(number, text)


def _scan(text: str, in_note: bool) -> tuple[bool, int]:
    """Whether a `{` is still open at the end of `text`, and where the last unclosed `{` opened (-1 if none)."""
    if not in_note and "{" not in text:
        return False, -1
    quoted = False
    opened = -1
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if in_note:
            if ch == "}":
                in_note = False
                opened = -1
        elif quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == ";":
            break
        elif ch == "{":
            in_note = True
            opened = i
        i += 1
    return in_note, opened


def _logical_lines(lines: Iterator[_Physical], findings: list[Finding]) -> Iterator[_Logical]:
    """Join physical lines while an annotation is open; an annotation never closed ends at the end of its own line."""
    pending: deque[_Physical] = deque()
    source = iter(lines)

    def next_line() -> _Physical | None:
        if pending:
            return pending.popleft()
        return next(source, None)

    while (first := next_line()) is not None:
        open_, at = _scan(first.text, False)
        if not open_:
            yield _Logical(first.number, first.text)
            continue
        group = [first]
        while open_:
            nxt = next_line()
            if nxt is None:
                break
            group.append(nxt)
            open_, _ = _scan(nxt.text, True)
        if open_:
            # never closed: report it, end it at the end of its own line, and read the rest again
            findings.append(
                Finding("syntax", "`{` opens an annotation that is never closed with `}`", first.number, at + 1)
            )
            pending.extendleft(reversed(group[1:]))
            yield _Logical(first.number, first.text + "}")
            continue
        yield _Logical(first.number, "\n".join(p.text for p in group))


# --------------------------------------------------------------------------- assembling games


def _annotations(tokens: list[Token], first_line: int) -> list[Annotation]:
    return [Annotation(str(t)[1:-1], first_line + (t.line or 1) - 1, t.column or 1) for t in tokens]


def _attach(element: Any, notes: list[Annotation], remark: str | None) -> Any:
    """Give a line's annotations to the element just before each: its plays for a trick, else the line."""
    if isinstance(element, Trick) and notes:
        plays = list(element.plays)
        own: list[Annotation] = []
        for note in notes:
            target = None
            for i, play in enumerate(plays):
                if (play.line, play.column) < (note.line, note.column):
                    target = i
            if target is None:
                own.append(note)
            else:
                plays[target] = replace(plays[target], annotations=plays[target].annotations + (note,))
        element = replace(element, plays=tuple(plays), annotations=element.annotations + tuple(own))
    elif notes:
        element = replace(element, annotations=element.annotations + tuple(notes))
    if remark is not None:
        element = replace(element, remark=remark)
    return element


def _add_notes(element: Any, notes: list[Annotation]) -> Any:
    """Annotations on a line of their own belong to the element before: a trick's last play, or the line."""
    if isinstance(element, Trick) and element.plays:
        last = element.plays[-1]
        plays = element.plays[:-1] + (replace(last, annotations=last.annotations + tuple(notes)),)
        return replace(element, plays=plays)
    return replace(element, annotations=element.annotations + tuple(notes))


_BEFORE_TRICKS = (Deal, Discard, Pass, Open, ImpTrick, Trump, Call, TurnUp, Bid, Declare)


class _Assembler:
    """Puts parsed lines into hands and games; yields a game as soon as the next one starts."""

    def __init__(self, path: str | None, findings: list[Finding]) -> None:
        self.path = path
        self.findings = findings  # shared with the decoder and the line splitter
        self.index = 0
        self.header: list[HeaderLine] = []
        self.hands: list[Hand] = []
        self.hand: Hand | None = None
        self.hand_lines: list[HandLine] = []
        self.pending_comments: list[CommentLine] = []
        self.game_line = 0
        self.game_findings: list[Finding] = []
        self.started = False

    # -- state
    def _current_hand_number(self) -> int | None:
        return self.hand.number if self.hand is not None else None

    def _flush_findings(self) -> None:
        for f in self.findings:
            self.game_findings.append(
                f.at(
                    path=self.path,
                    game=self.index or 1,
                    hand=f.hand if f.hand is not None else self._current_hand_number(),
                )
            )
        self.findings.clear()

    def _close_hand(self) -> None:
        if self.hand is not None:
            self.hands.append(replace(self.hand, lines=tuple(self.hand_lines)))
            self.hand = None
            self.hand_lines = []

    def _game(self) -> Game:
        self._close_hand()
        return Game(
            self.index or 1,
            self.game_line or 1,
            1,
            tuple(self.header),
            tuple(self.hands),
            self.path,
            tuple(self._structure_findings()) + tuple(self.game_findings),
        )

    def _structure_findings(self) -> list[Finding]:
        out: list[Finding] = []
        tags = {t.name for t in self.header if isinstance(t, Tag)}
        for required in ("Game", "Players"):
            if required not in tags:
                out.append(
                    Finding(
                        "syntax",
                        f'This game has no [{required} "..."] tag, which every game needs',
                        self.game_line or 1,
                        1,
                        self.path,
                        self.index or 1,
                    )
                )
        return out

    def _start_game(self, line: int) -> Iterator[Game]:
        if self.started:
            yield self._game()
        self.started = True
        self.index += 1
        self.header = list(self.pending_comments)
        self.pending_comments = []
        self.hands = []
        self.hand = None
        self.hand_lines = []
        self.game_line = line
        self.game_findings = []

    def error(self, message: str, line: int, column: int, trick: int | None = None) -> None:
        self.findings.append(
            Finding("syntax", message, line, column, self.path, self.index or 1, self._current_hand_number(), trick)
        )

    # -- feeding
    def comment(self, text: str, line: int, column: int) -> None:
        self.pending_comments.append(CommentLine(text, line, column))

    def _place_pending_comments(self) -> None:
        if not self.pending_comments:
            return
        if self.hand is not None:
            self.hand_lines.extend(self.pending_comments)
        else:
            self.header.extend(self.pending_comments)
        self.pending_comments = []

    def notes_alone(self, notes: list[Annotation]) -> None:
        """A line holding only annotations: they belong to the element just before."""
        self._place_pending_comments()
        if self.hand is not None:
            if self.hand_lines and not isinstance(self.hand_lines[-1], CommentLine):
                self.hand_lines[-1] = _add_notes(self.hand_lines[-1], notes)
            else:
                self.hand = replace(self.hand, annotations=self.hand.annotations + tuple(notes))
            return
        for i in range(len(self.header) - 1, -1, -1):
            item = self.header[i]
            if isinstance(item, Tag):
                self.header[i] = replace(item, annotations=item.annotations + tuple(notes))
                return
        note = notes[0]
        self.error(
            "An annotation `{...}` must follow the element it is about; here nothing comes before it",
            note.line,
            note.column,
        )

    def feed(self, element: Any) -> Iterator[Game]:
        if isinstance(element, Tag):
            if not self.started or self.hands or self.hand is not None:
                yield from self._start_game(element.line)
            self._place_pending_comments()
            self.header.append(element)
            return
        if not self.started:
            # content before any tag: a game without tags; report it but keep reading
            yield from self._start_game(element.line)
        if isinstance(element, Hand):
            self._place_pending_comments()
            self._close_hand()
            expected = (self.hands[-1].number + 1) if self.hands else 1
            if element.number != expected:
                self.error(
                    f"`hand {element.number}` where hand {expected} was expected: "
                    "hands are numbered 1, 2, 3 ... in order",
                    element.line,
                    element.column,
                )
            self.hand = element
            return
        if self.hand is None:
            self._place_pending_comments()
            kind = type(element).__name__.lower()
            self.error(
                f"This {_kind(element)} line comes before any `hand N` line: it belongs inside a hand",
                element.line,
                element.column,
            )
            del kind
            return
        self._place_pending_comments()
        if isinstance(element, _BEFORE_TRICKS):
            after = next((x for x in self.hand_lines if isinstance(x, (Trick, ScoreLine))), None)
            if after is not None:
                self.error(
                    f"This {_kind(element)} line comes after {_kind(after)} (line {after.line}): "
                    "every line other than tricks, score and total comes before trick 1",
                    element.line,
                    element.column,
                )
        elif isinstance(element, Trick):
            after = next((x for x in self.hand_lines if isinstance(x, ScoreLine)), None)
            if after is not None:
                self.error(
                    f"Trick {element.number} comes after the {after.kind} line (line {after.line}): "
                    "score and total come after the last trick",
                    element.line,
                    element.column,
                    trick=element.number,
                )
        self.hand_lines.append(element)

    def finish(self) -> Iterator[Game]:
        if self.started:
            self._place_pending_comments()
            self._flush_findings()
            yield self._game()
        elif self.findings or self.pending_comments:
            self.index = 1
            self.header = list(self.pending_comments)
            self.pending_comments = []
            self.started = True
            self._flush_findings()
            yield self._game()


def _kind(element: Any) -> str:
    if isinstance(element, Trick):
        return f"trick {element.number}"
    if isinstance(element, ScoreLine):
        return f"`{element.kind}`"
    names = {
        Deal: "deal",
        Discard: "discard",
        Pass: "pass",
        Open: "open",
        ImpTrick: "imp",
        Trump: "trump",
        TurnUp: "turnup",
        Bid: "bid",
    }
    if isinstance(element, (Call, Declare)):
        return f"`{element.kind}`"
    return f"`{names.get(type(element), type(element).__name__.lower())}`"


def _read_lines(lines: Iterator[_Physical], path: str | None, findings: list[Finding]) -> Iterator[Game]:
    asm = _Assembler(path, findings)
    for logical in _logical_lines(lines, findings):
        text = logical.text
        if not text.strip():
            continue
        stripped = text.lstrip()
        if stripped.startswith(";") and "\n" not in text:
            asm.comment(stripped[1:], logical.first_line, len(text) - len(stripped) + 1)
            continue
        element = fast_line(text, logical.first_line)  # the common shapes; None leaves the line to Lark
        if element is not None:
            yield from asm.feed(element)
            asm._flush_findings()
            continue
        _CTX.first_line = logical.first_line
        _CTX.annotations = []
        _CTX.comments = []
        parser = line_parser()
        from lark.exceptions import UnexpectedInput

        try:
            element = parser.parse(text)
        except UnexpectedInput as err:
            # the game a bad line sits in: a tag line after a hand starts a new game
            if stripped.startswith("[") and asm.started and (asm.hands or asm.hand is not None):
                yield from asm._start_game(logical.first_line)
            e = _describe(err, text, logical.first_line)
            asm.error(e.message, e.line, e.column)
            asm._flush_findings()
            continue
        except RecordSyntaxError as err:
            if stripped.startswith("[") and asm.started and (asm.hands or asm.hand is not None):
                yield from asm._start_game(logical.first_line)
            asm.error(err.message, err.line, err.column)
            asm._flush_findings()
            continue
        notes = _annotations(_CTX.annotations, logical.first_line)
        remark = str(_CTX.comments[-1])[1:] if _CTX.comments else None
        if element is None:
            if notes:
                asm.notes_alone(notes)
            if remark is not None:
                asm.comment(remark, logical.first_line, 1)
            asm._flush_findings()
            continue
        element = _attach(element, notes, remark)
        yield from asm.feed(element)
        asm._flush_findings()
    yield from asm.finish()


def read_games(source: Source, path: str | None = None) -> Iterator[Game]:
    """Read games one at a time from a file path, an open file, or text.

    `source` is a path (`str` without a newline, or `os.PathLike`), a binary or
    text file object, or the text itself (a `str` holding a newline). Syntax
    errors become findings on the game they sit in (`Game.findings`). Raises
    `OSError` only when a path cannot be opened.

    >>> [g.players for g in read_games('[Game "bottle-imp"]\\n[Players "A B C"]\\n')]
    [('A', 'B', 'C')]
    """
    findings: list[Finding] = []
    if isinstance(source, str) and ("\n" in source or source.startswith("[")):
        yield from _read_lines(_decode_lines(io.BytesIO(source.encode("utf-8")), findings), path, findings)
        return
    if isinstance(source, (str, os.PathLike)):
        name = path if path is not None else os.fspath(source)
        with open(source, "rb") as binary:
            yield from _read_lines(_decode_lines(binary, findings), name, findings)
        return
    if isinstance(source, io.TextIOBase):
        text_lines = (
            _Physical(i, t.rstrip("\r\n").lstrip("\ufeff") if i == 1 else t.rstrip("\r\n"))
            for i, t in enumerate(source, 1)
        )
        yield from _read_lines(text_lines, path, findings)
        return
    yield from _read_lines(_decode_lines(source, findings), path, findings)  # type: ignore[arg-type]
