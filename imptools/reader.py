"""The reader: Imp notation text -> record model, streaming game by game.

Data flows: bytes -> decoded physical lines -> logical lines (a physical line,
joined with the next ones while a `{...}` annotation is open) -> Lark LALR parse
of each logical line, with a Transformer that builds the line's model object ->
the assembler, which puts lines into hands and hands into games and yields
each game as soon as the next one starts.

A syntax error is a `Finding` (code `syntax`) on the game it sits in; the
reader skips the bad line and goes on, so one bad line never hides the rest.
The line itself is kept verbatim where it stands (`UnreadLine`), as is a line
read but with no place (before any `hand N`), so that nothing is lost.
"""

from __future__ import annotations

import io
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, AnyStr, Union

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
    UnreadLine,
    call_kind,
)
from imptools.slips import read_as_meant
from imptools.suggest import did_you_mean

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


_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def _int(text: str, line: int, column: int) -> int:
    """A number of the record (hand, trick, pack, points): ASCII digits, at most nine of them."""
    if not _NUMBER.fullmatch(text):
        digits = text.lstrip("+-")
        if digits.isascii() and digits.isdigit():
            raise RecordSyntaxError(f"`{text[:20]}...` ({len(digits):,} digits) is too large a number", line, column)
        raise RecordSyntaxError(f"`{text}` is not a number", line, column)
    return int(text)


def _name(tok: Token) -> NameRef:
    """`Adam` or `Keawe.2` (a name with its pack or pile)."""
    line, col = _pos(tok)
    text = str(tok)
    pack: int | None = None
    base, dot, rest = text.rpartition(".")
    if dot and rest.isascii() and rest.isdigit() and base:
        text, pack = base, _int(rest, line, col)
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
        line, col = _pos(number)
        return Hand(_int(str(number), line, col), line, 1, _name(dealer) if dealer is not None else None)

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
        return Open(player, _int(str(pack), *_pos(pack)), player.line, 1)

    def imp(self, *cards: Token) -> ImpTrick:
        line, _ = _pos(cards[0])
        return ImpTrick(tuple(_card(c) for c in cards), line, 1)

    def trump(self, who: Token, suit: Token) -> Trump:
        player = _name(who)
        return Trump(player, str(suit), player.line, 1)

    def call(self, kind: Token, who: Token) -> Call:
        line, col = _pos(kind)
        return Call(call_kind(str(kind)), _name(who), line, col)

    def turnup(self, card: Token) -> TurnUp:
        c = _card(card)
        return TurnUp(c, c.line, 1)

    def bid(self, who: Token, *rest: Token) -> Bid:
        player = _name(who)
        if len(rest) == 1 and str(rest[0]).isascii() and str(rest[0]).isdigit():
            return Bid(player, (), _int(str(rest[0]), *_pos(rest[0])), player.line, 1)
        return Bid(player, tuple(_card(c) for c in rest), None, player.line, 1)

    def declare(self, kind: Token, who: Token) -> Declare:
        line, col = _pos(kind)
        return Declare(str(kind), _name(who), line, col)

    def trick(self, number: Token, *plays: Token) -> Trick:
        line, col = _pos(number)
        return Trick(_int(str(number)[:-1], line, col), tuple(_play(p) for p in plays), line, col)

    def score(self, kind: Token, *pairs: Token) -> ScoreLine:
        line, col = _pos(kind)
        entries = []
        for who, value in zip(pairs[::2], pairs[1::2]):
            player = _name(who)
            entries.append(ScoreEntry(player, _int(str(value), *_pos(value)), player.line, player.column))
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
        "sant-vicenç",
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
        lines = text.split("\n")
        rest = lines[err.line - 1][err.column - 1 :] if 0 < err.line <= len(lines) else ""
        words = rest.split(None, 1)
        bad = words[0] if words else rest[:1]
        odd = next((c for c in bad if not c.isprintable() or c.isspace()), None)
        if odd is not None:
            msg = f"{where}the character U+{ord(odd):04X}, which does not show, is not understood here"
            return RecordSyntaxError(msg[0].upper() + msg[1:], line, err.column)
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

MAX_LINE = 100_000
"""The longest physical line read, in bytes (characters for text); a longer one is reported and skipped."""
MAX_NOTE_LINES = 1_000
"""An annotation `{...}` may span at most this many physical lines; one not closed by then is never closed."""
MAX_NOTE_CHARS = 1_000_000
"""... and at most this many characters."""
MAX_SYNTAX = 100
"""Syntax findings kept per game; past this, one more finding counts the rest."""
MAX_UNREAD_CHARS = 10_000_000
"""Lines that could not be read are kept verbatim (`UnreadLine`) up to this many characters per game; past it they
are counted in one finding (a file of that much text that is not a record is not kept in memory whole)."""
MAX_PLAYERS = 64
"""More names than this in `Players` is reported, and such a game is not judged (no game here seats more than 6)."""
_CHUNK = 65_536
_NOT_TEXT = ("Control character", "Byte 0x")  # how the findings on bytes that are not text begin

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class _Physical:
    number: int
    text: str
    problem: Finding | None = None
    """What is wrong with the line's bytes (not UTF-8, control characters, too long), reported when it is read."""


@dataclass(frozen=True, slots=True)
class _Logical:
    first_line: int
    text: str
    closed: bool = False
    """A `}` was added at the end of `text` to close an annotation never closed (not written by the user)."""

    @property
    def raw(self) -> str:
        """The line as written."""
        return self.text[:-1] if self.closed else self.text


def _split(
    read: Callable[[int], AnyStr], eol: re.Pattern[AnyStr], cr: AnyStr, base: int = 0
) -> Iterator[tuple[AnyStr, int, int]]:
    """Split a stream into lines at LF, CRLF or CR, in bounded memory.

    Yields (line without its ending, offset of its start, length): a line longer
    than MAX_LINE is yielded empty with its true length, its contents never held.
    `base` is the offset of the stream's first unit (when part was read already).
    """
    buf: AnyStr | None = None
    skipping = 0  # > 0: inside a line too long to keep, this many units seen so far
    while chunk := read(_CHUNK):
        buf = chunk if buf is None else buf + chunk
        pos = 0
        for m in eol.finditer(buf):
            if m.end() == len(buf) and m.group() == cr:
                break  # a CR at the end of a chunk may be half of a CRLF: wait for the next chunk
            if skipping:
                yield buf[:0], base - skipping, skipping + m.start()
                skipping = 0
            else:
                yield buf[pos : m.start()], base + pos, m.start() - pos
            pos = m.end()
        buf = buf[pos:]
        base += pos
        if skipping or len(buf) > MAX_LINE:
            keep = 1 if buf[-1:] == cr else 0  # half of a CRLF, maybe
            skipping += len(buf) - keep
            base += len(buf) - keep
            buf = buf[len(buf) - keep :]
    if skipping:
        assert buf is not None
        yield buf[:0], base - skipping, skipping
    elif buf:
        yield buf, base, len(buf)


_EOL_BYTES = re.compile(rb"\r\n|\r|\n")
_EOL_TEXT = re.compile(r"\r\n|\r|\n")


def _too_long(number: int, length: int, unit: str) -> Finding:
    return Finding(
        "syntax",
        f"This line is {length:,} {unit} long (a record's lines stay under {MAX_LINE:,}): not read",
        number,
        1,
    )


def _checked(number: int, text: str, problem: Finding | None) -> _Physical:
    """A physical line; one holding control characters (a NUL, a binary file) is reported and read as empty."""
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    bad = _CONTROL.search(text)
    if bad is not None:  # (this says more than a byte that is not UTF-8 on the same line)
        message = f"Control character U+{ord(bad.group()):04X} in this line: a record is plain text; line not read"
        return _Physical(number, "", Finding("syntax", message, number, bad.start() + 1))
    return _Physical(number, text, problem)


def _decode_lines(binary: IO[bytes]) -> Iterator[_Physical]:
    """Decode UTF-8 (with or without BOM; LF, CRLF or CR) line by line, noting bytes that are not UTF-8.

    The common file (UTF-8 text, LF endings, no control characters) is decoded a
    block of whole lines at a time; from the first block that is anything else
    (a CR, a byte that is not UTF-8, a control character, a line that does not end
    within MAX_LINE bytes), the rest of the stream is read line by line by
    `_decode_each`, which says exactly what is wrong and where.
    """
    read: Callable[[int], bytes] = getattr(binary, "read1", None) or binary.read
    number = 0
    offset = 0  # bytes of the stream turned into lines so far
    buf = b""
    while chunk := read(_CHUNK):
        buf += chunk
        cut = buf.rfind(b"\n") + 1
        if not cut:
            if len(buf) <= MAX_LINE:
                continue
            break
        block = buf[:cut]
        if b"\r" in block or len(block) > MAX_LINE:
            break
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            break
        if _CONTROL.search(text) is not None:
            break
        if number == 0 and text.startswith("\ufeff"):
            text = text[1:]
        lines = text.split("\n")
        lines.pop()  # the block ends with a newline
        for line in lines:
            number += 1
            yield _Physical(number, line)
        offset += cut
        buf = buf[cut:]
    else:
        if not buf:
            return
    rest = [buf]

    def again(size: int) -> bytes:
        return rest.pop() if rest else read(size)

    yield from _decode_each(again, number, offset)


def _decode_each(read: Callable[[int], bytes], before: int = 0, offset: int = 0) -> Iterator[_Physical]:
    """`_decode_lines` line by line, for a stream whose first `before` lines (`offset` bytes) were read already."""
    for number, (piece, start, length) in enumerate(_split(read, _EOL_BYTES, b"\r", offset), before + 1):
        if length > MAX_LINE:
            yield _Physical(number, "", _too_long(number, length, "bytes"))
            continue
        problem = None
        try:
            text = piece.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = piece.decode("utf-8", errors="replace")
            column = len(piece[: exc.start].decode("utf-8", errors="replace")) + 1
            problem = Finding(
                "syntax",
                f"Byte 0x{piece[exc.start]:02X} at byte offset {start + exc.start} is not UTF-8 "
                "(save the file as UTF-8); it was read as \N{REPLACEMENT CHARACTER}",
                number,
                column,
            )
        yield _checked(number, text, problem)


def _text_lines(source: IO[str]) -> Iterator[_Physical]:
    """Lines of a text stream, in bounded memory like `_decode_lines`."""
    for number, (piece, _start, length) in enumerate(_split(source.read, _EOL_TEXT, "\r"), 1):
        if length > MAX_LINE:
            yield _Physical(number, "", _too_long(number, length, "characters"))
        else:
            yield _checked(number, piece, None)


_OUTSIDE = re.compile(r'[{";]')
_QUOTED = re.compile(r'[\\"]')


def _scan(text: str, in_note: bool) -> tuple[bool, int]:
    """Whether a `{` is still open at the end of `text`, and where the last unclosed `{` opened (-1 if none).

    Jumps from one character that matters to the next, so a long line costs little.
    """
    if not in_note and "{" not in text:
        return False, -1
    opened = -1
    i = 0
    while True:
        if in_note:
            close = text.find("}", i)
            if close < 0:
                return True, opened
            in_note, opened, i = False, -1, close + 1
            continue
        m = _OUTSIDE.search(text, i)
        if m is None or m.group() == ";":
            return False, -1
        if m.group() == "{":
            in_note, opened, i = True, m.start(), m.end()
            continue
        # a quoted tag value: `{` and `;` inside it are text; `\` escapes the next character
        i = m.end()
        while (q := _QUOTED.search(text, i)) is not None and q.group() == "\\":
            i = q.end() + 1
        if q is None:
            return False, -1
        i = q.end()


class _Lookahead:
    """Physical lines with a bounded window read ahead, knowing whether a `}` lies in the window."""

    def __init__(self, lines: Iterator[_Physical], findings: list[Finding]) -> None:
        self.source = lines
        self.findings = findings
        self.window: deque[_Physical] = deque()
        self.chars = 0
        self.closers = 0  # lines of the window holding a `}`

    def pop(self) -> _Physical | None:
        """The next line; its problem, if any, is reported now (when the line is used)."""
        line: _Physical | None
        if self.window:
            line = self.window.popleft()
            self.chars -= len(line.text)
            self.closers -= "}" in line.text
        else:
            line = next(self.source, None)
        if line is not None and line.problem is not None:
            self.findings.append(line.problem)
        return line

    def closes_soon(self) -> bool:
        """Whether a `}` comes within the next MAX_NOTE_LINES lines and MAX_NOTE_CHARS characters."""
        while not self.closers and len(self.window) < MAX_NOTE_LINES and self.chars < MAX_NOTE_CHARS:
            line = next(self.source, None)
            if line is None:
                break
            self.window.append(line)
            self.chars += len(line.text)
            self.closers += "}" in line.text
        return self.closers > 0


def _logical_lines(lines: Iterator[_Physical], findings: list[Finding]) -> Iterator[_Logical]:
    """Join physical lines while an annotation is open; an annotation never closed ends at the end of its own line.

    "Never closed" means no `}` within MAX_NOTE_LINES lines (or MAX_NOTE_CHARS characters), so that
    a stray `{` costs bounded time and memory, however long the file.
    """
    ahead = _Lookahead(lines, findings)
    while (first := ahead.pop()) is not None:
        open_, at = _scan(first.text, False)
        if not open_:
            yield _Logical(first.number, first.text)
            continue
        group = [first.text]
        last, last_at = first, at
        while open_ and ahead.closes_soon():
            # the next `}` closes this annotation; the line holding it may open another
            while True:
                nxt = ahead.pop()
                assert nxt is not None
                group.append(nxt.text)
                if "}" in nxt.text:
                    break
            open_, at = _scan(nxt.text, True)
            if open_:
                last, last_at = nxt, at
        if open_:
            findings.append(
                Finding("syntax", "`{` opens an annotation that is never closed with `}`", last.number, last_at + 1)
            )
            group[-1] += "}"
        yield _Logical(first.number, "\n".join(group), closed=open_)


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


def _unread(line: HandLine) -> bool:
    return isinstance(line, UnreadLine)


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
        self.first_play_or_score: Trick | ScoreLine | None = None
        """The hand's first trick or score line so far (what a line before the tricks must not follow)."""
        self.first_score: ScoreLine | None = None
        self.pending_comments: list[CommentLine | UnreadLine] = []
        """Comment lines and lines not read, waiting for the next element to know where they stand."""
        self.unread_chars = 0  # characters of this game's lines kept as `UnreadLine`
        self.unread_lost = 0  # lines of this game not kept, past MAX_UNREAD_CHARS
        self.game_line = 0
        self.game_findings: list[Finding] = []
        self.started = False
        self.dropped = 0  # syntax findings past MAX_SYNTAX in this game
        self.notation_seen = False  # a tag or a `hand` line was read (without repair)
        self.first_text: tuple[int, str] | None = None  # the first line that is not blank or a comment
        self.not_text = False  # a line held bytes that are not text

    # -- state
    def players(self) -> tuple[str, ...]:
        """The names of the current game's `Players` tag, as read so far."""
        for t in self.header:
            if isinstance(t, Tag) and t.name == "Players":
                return tuple(t.value.split())
        return ()

    def next_trick(self) -> int:
        """The number the next trick of the current hand should have."""
        tricks = [x.number for x in self.hand_lines if isinstance(x, Trick)]
        return tricks[-1] + 1 if tricks else 1

    def _current_hand_number(self) -> int | None:
        return self.hand.number if self.hand is not None else None

    def _flush_findings(self) -> None:
        for f in self.findings:
            if f.message.startswith(_NOT_TEXT):
                self.not_text = True
            if len(self.game_findings) >= MAX_SYNTAX:
                self.dropped += 1
                continue
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
            self.first_play_or_score = self.first_score = None

    def _game(self) -> Game:
        self._close_hand()
        return read_as_meant(self._assembled())

    def _assembled(self) -> Game:
        return Game(
            self.index or 1,
            self.game_line or 1,
            1,
            tuple(self.header),
            tuple(self.hands),
            self.path,
            tuple(self._structure_findings()) + tuple(self.game_findings) + self._dropped() + self._lost(),
        )

    def _lost(self) -> tuple[Finding, ...]:
        if not self.unread_lost:
            return ()
        return (
            Finding(
                "syntax",
                f"{self.unread_lost:,} more lines of this game that could not be read are not kept (past "
                f"{MAX_UNREAD_CHARS:,} characters of such lines): an export of this file does not hold them",
                self.game_line or 1,
                1,
                self.path,
                self.index or 1,
            ),
        )

    def _dropped(self) -> tuple[Finding, ...]:
        if not self.dropped:
            return ()
        last = self.game_findings[-1]
        return (
            Finding(
                "syntax",
                f"... and {self.dropped:,} more lines of this game that could not be read, not listed one by one",
                last.line,
                last.column,
                self.path,
                self.index or 1,
                last.hand,
            ),
        )

    def _no_notation(self) -> Game:
        """The one finding for a file that holds no Imp notation at all."""
        if self.not_text:
            why, line = "this is not a text file (it holds bytes that are not text); is it a record?", 1
        elif self.first_text is None:
            why, line = "the file is empty" + (" but for comments" if self.header or self.pending_comments else ""), 1
        else:
            line, text = self.first_text
            shown = text.strip()
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            why = f'no line is a tag like [Game "bottle-imp"] or a `hand N` line (line {line} reads `{shown}`)'
        finding = Finding("syntax", f"no Imp notation found: {why}", line, 1, self.path, 1)
        # the lines themselves are kept (comments, lines not read) so that an export loses none of them
        kept = tuple(x for x in (*self.header, *self.pending_comments) if isinstance(x, (CommentLine, UnreadLine)))
        return Game(1, line, 1, kept, (), self.path, (finding,) + self._lost())

    def _structure_findings(self) -> list[Finding]:
        out: list[Finding] = []
        tags = {t.name for t in self.header if isinstance(t, Tag)}
        players = next((t for t in self.header if isinstance(t, Tag) and t.name == "Players"), None)
        if players is not None:
            out.extend(self._players_findings(players))
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

    def _players_findings(self, tag: Tag) -> list[Finding]:
        """A `Players` tag with a name that is not a name, a name twice, or more names than any game seats."""
        names = tag.value.split()
        problems: list[str] = []
        # (a name holding U+FFFD has been reported already, as bytes that are not UTF-8)
        bad = next((n for n in names if not _NAME.fullmatch(n) and "\ufffd" not in n), None)
        if bad is not None:
            problems.append(f"`{bad}` in Players is not a player name (a letter, then letters, digits, _ ' or -)")
        seen: set[str] = set()
        twice = None
        for n in names:
            if n in seen:
                twice = n
                break
            seen.add(n)
        if twice is not None:
            problems.append(f"`{twice}` is named twice in Players: the players of a game have different names")
        if len(names) > MAX_PLAYERS:
            problems.append(
                f"Players names {len(names):,} players; imptools judges games of at most {MAX_PLAYERS} "
                "(this game is not judged)"
            )
        return [Finding("syntax", m, tag.line, tag.column, self.path, self.index or 1) for m in problems]

    def _start_game(self, line: int) -> Iterator[Game]:
        if self.started:
            yield self._game()
            self.game_findings = []
            self.dropped = 0
            self.unread_chars = self.unread_lost = 0
        # the first game keeps the findings of any lines before it
        self.started = True
        self.index += 1
        self.header = list(self.pending_comments)
        self.pending_comments = []
        self.hands = []
        self.hand = None
        self.hand_lines = []
        self.first_play_or_score = self.first_score = None
        self.game_line = line

    def error(self, message: str, line: int, column: int, trick: int | None = None) -> None:
        self.findings.append(
            Finding("syntax", message, line, column, self.path, self.index or 1, self._current_hand_number(), trick)
        )

    # -- feeding
    def comment(self, text: str, line: int, column: int) -> None:
        self.pending_comments.append(CommentLine(text, line, column))

    def unread(self, text: str, line: int) -> None:
        """A line not read (its finding is reported apart): kept verbatim where it stands.

        It stays in the game and hand it sits in, after the comments before it, even when a new game starts
        right after it (unlike a comment line): a file cut into pieces before its tags (`imptools.parallel`)
        reads the same.
        """
        if self.unread_chars + len(text) > MAX_UNREAD_CHARS:
            self.unread_lost += 1
            return
        self.unread_chars += len(text)
        self.pending_comments.append(UnreadLine(text, line))
        if self.started:
            self._place_pending_comments()

    def _place_pending_comments(self) -> None:
        if not self.pending_comments:
            return
        if self.hand is not None:
            self.hand_lines.extend(self.pending_comments)
        else:
            self.header.extend(self.pending_comments)
        self.pending_comments = []

    def notes_alone(self, notes: list[Annotation]) -> bool:
        """A line holding only annotations: they belong to the element just before. False when there is none."""
        self._place_pending_comments()
        if self.hand is not None:
            # (a line not read is passed over: the annotation goes where it went before such lines were kept)
            last = next((i for i in range(len(self.hand_lines) - 1, -1, -1) if not _unread(self.hand_lines[i])), -1)
            if last >= 0 and not isinstance(self.hand_lines[last], CommentLine):
                self.hand_lines[last] = _add_notes(self.hand_lines[last], notes)
            else:
                self.hand = replace(self.hand, annotations=self.hand.annotations + tuple(notes))
            return True
        for i in range(len(self.header) - 1, -1, -1):
            item = self.header[i]
            if isinstance(item, Tag):
                self.header[i] = replace(item, annotations=item.annotations + tuple(notes))
                return True
        note = notes[0]
        self.error(
            "An annotation `{...}` must follow the element it is about; here nothing comes before it",
            note.line,
            note.column,
        )
        return False

    def feed(self, element: Any, raw: str | None = None) -> Iterator[Game]:
        """Put a line read into its game and hand; `raw`, the line as written, is kept if it has no place."""
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
            self.error(
                f"This {_kind(element)} line comes before any `hand N` line: it belongs inside a hand",
                element.line,
                element.column,
            )
            if raw is not None:
                self.unread(raw, element.line)
            return
        self._place_pending_comments()
        if isinstance(element, _BEFORE_TRICKS):
            after: Trick | ScoreLine | None = self.first_play_or_score
            if after is not None:
                self.error(
                    f"This {_kind(element)} line comes after {_kind(after)} (line {after.line}): "
                    "every line other than tricks, score and total comes before trick 1",
                    element.line,
                    element.column,
                )
        elif isinstance(element, Trick):
            element = self._leader_colon(element)
            score = self.first_score
            if score is not None:
                self.error(
                    f"Trick {element.number} comes after the {score.kind} line (line {score.line}): "
                    "score and total come after the last trick",
                    element.line,
                    element.column,
                    trick=element.number,
                )
        if self.first_play_or_score is None and isinstance(element, (Trick, ScoreLine)):
            self.first_play_or_score = element
        if self.first_score is None and isinstance(element, ScoreLine):
            self.first_score = element
        self.hand_lines.append(element)

    def _leader_colon(self, trick: Trick) -> Trick:
        """`2. Christian 8 4 6 7`: a player's name where the leader's card should be is read as `Christian:8`."""
        if len(trick.plays) < 2:
            return trick
        first, second = trick.plays[0], trick.plays[1]
        name = first.card.text
        if first.player is not None or second.player is not None or first.mark or name not in self.players():
            return trick
        self.error(
            f"`{name}` is a player: the leader is written `{name}:{second.card.text}`",
            first.line,
            first.column,
            trick=trick.number,
        )
        play = replace(
            second,
            line=first.line,
            column=first.column,
            player=NameRef(name, first.line, first.column),
            annotations=first.annotations + second.annotations,
        )
        return replace(trick, plays=(play, *trick.plays[2:]))

    def finish(self) -> Iterator[Game]:
        if not self.notation_seen:
            self.findings.clear()
            yield self._no_notation()
            return
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


# --------------------------------------------------------------------------- repairs and hints

_TRICK_NO_DOT = re.compile(r"([ \t]*[0-9]+)[ \t]")
_PASS_NO_ARROW = re.compile(r"([ \t]*pass[ \t]+[^\s>{};\"\[\]]+)[ \t]")
_GLUED_POINTS = re.compile(r"([^\W\d_][\w'\-]*?)([+-]?[0-9]+)")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_TAG_WITHOUT_BRACKETS = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+\"")


def _parse(parser: Lark, text: str, first_line: int) -> Any:
    """Parse one logical line; the annotations and comments it holds are left in `_CTX`."""
    _CTX.first_line = first_line
    _CTX.annotations = []
    _CTX.comments = []
    return parser.parse(text)


def _repair(parser: Lark, text: str, first_line: int) -> tuple[Any, str, int] | None:
    """The two repairs of a line that does not parse (section 8): a trick number without its dot, a pass without `>`.

    Returns the element read from the repaired line, the finding's message and its column; None when neither
    repair makes the line readable. A repair keeps every column where it was.
    """
    from lark.exceptions import UnexpectedInput

    for pattern, kind in ((_TRICK_NO_DOT, Trick), (_PASS_NO_ARROW, Pass)):
        m = pattern.match(text)
        if m is None:
            continue
        fixed = text[: m.end(1)] + ("." if kind is Trick else ">") + text[m.end(1) + 1 :]
        try:
            element = _parse(parser, fixed, first_line)
        except (UnexpectedInput, RecordSyntaxError):
            continue
        if not isinstance(element, kind):
            continue
        if isinstance(element, Trick):
            number = m.group(1).strip()
            column = len(m.group(1)) - len(number) + 1
            return (
                element,
                f"`{number}` at the start of a line: a trick number is written with a dot, `{number}.`",
                column,
            )
        assert isinstance(element, Pass)
        card = element.card.text
        example = f"pass {element.giver} > {element.receiver} {card}"
        message = f"In this `pass` line, `>` goes between the giver and the receiver: `{example}`"
        return element, message, element.receiver.column
    return None


_CARD_LINE = re.compile(r"[ \t]*(?:deal|discard|pass|bid|[0-9]+\.)[ \t]")
"""The lines whose cards may be written with commas between them (the fourth repair of section 8)."""


def _without_commas(text: str) -> tuple[str, int] | None:
    """`text` with each comma between cards made a space (columns kept), and the first comma's column.

    Only for a `deal`, `discard`, `pass`, `bid` or trick line, and only commas
    outside `{...}` annotations and before a `;` remark; None when there are none.

    >>> _without_commas("1. Adam:24, 15, 17, 32 {a, b}")
    ('1. Adam:24  15  17  32 {a, b}', 11)
    >>> _without_commas("score Adam 1, Betty 2") is None
    True
    """
    if _CARD_LINE.match(text) is None:
        return None
    out: list[str] = []
    depth = 0
    first = 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == ";" and not depth:
            out.append(text[i:])
            break
        elif ch == "," and not depth:
            first = first or i + 1
            ch = " "
        out.append(ch)
    return ("".join(out), first) if first else None


def _hint(text: str, players: tuple[str, ...], next_trick: int) -> tuple[str, int] | None:
    """A card player's reading of a common slip in a line that does not parse, with its column; None if none fits."""
    line = text.split("\n", 1)[0]
    cut = min((i for i in (line.find("{"), line.find(";")) if i >= 0), default=len(line))
    words = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line[:cut])]
    if not words:
        return None
    first, col = words[0]
    rest = [w for w, _ in words[1:]]
    if first in ("score", "total"):
        comma = line.find(",", 0, cut)
        if comma >= 0:
            example = " ".join(w for w in line[:cut].replace(",", " ").split())
            return f"A `{first}` line has no commas: `{example}`", comma + 1
        for i, (word, at) in enumerate(words[1:], 1):
            glued = _GLUED_POINTS.fullmatch(word)
            following = words[i + 1][0] if i + 1 < len(words) else None
            if glued and (following is None or not _SIGNED.fullmatch(following)) and i % 2 == 1:
                return f"`{word}`: a name and points need a space, `{glued.group(1)} {glued.group(2)}`", at
        return None
    if first == "pass" and len(rest) == 4 and rest[1] != ">":
        return f"`{rest[1]}`: a pass is written `pass {rest[0]} > {rest[2]} {rest[3]}`", words[2][1]
    number = re.fullmatch(r"([0-9]+)[^0-9.\s]+", first)
    if number:
        return f"`{first}`: a trick number is written with a dot, `{number.group(1)}.`", col
    if first in _LINE_KEYWORDS or first.startswith("[") or first[0].isdigit():
        return None
    if first in players and rest:
        example = f"{next_trick}. {first}:{' '.join(rest)}"
        return f"`{first}` at the start of a line: a trick starts with its number, `{example}`", col
    tag = _TAG_WITHOUT_BRACKETS.match(line)
    if tag and rest[0:1] != [">"]:
        return f"A tag is written in brackets: `[{line[:cut].strip()}]`", col
    meant = did_you_mean(first, sorted(_LINE_KEYWORDS))
    if meant is not None:
        return f"`{first}`: did you mean `{meant}`?", col
    return None


# --------------------------------------------------------------------------- reading


def _read_lines(lines: Iterator[_Physical], path: str | None, findings: list[Finding]) -> Iterator[Game]:
    asm = _Assembler(path, findings)
    for logical in _logical_lines(lines, findings):
        text = logical.text
        if not text.strip():
            asm._flush_findings()
            continue
        stripped = text.lstrip()
        if stripped.startswith(";") and "\n" not in text:
            asm.comment(stripped[1:], logical.first_line, len(text) - len(stripped) + 1)
            asm._flush_findings()
            continue
        if asm.first_text is None:
            asm.first_text = (logical.first_line, text)
        commas = _without_commas(text)
        if commas is not None:  # the fourth repair: one finding, then the line read without its commas
            text, column = commas
            shown = " ".join(text.split("\n", 1)[0].split(";", 1)[0].split())
            trick = re.match(r"[ \t]*([0-9]{1,9})\.", text)
            asm.error(
                f"Cards are separated by spaces, not commas: `{shown}`",
                logical.first_line,
                column,
                int(trick.group(1)) if trick else None,
            )
        fast = fast_line(text, logical.first_line)  # the common shapes; None leaves the line to Lark
        if fast is not None:
            if isinstance(fast, (Tag, Hand)):
                asm.notation_seen = True
            yield from asm.feed(fast, logical.raw)
            asm._flush_findings()
            continue
        parser = line_parser()
        from lark.exceptions import UnexpectedInput

        repaired = False
        try:
            element = _parse(parser, text, logical.first_line)
        except (UnexpectedInput, RecordSyntaxError) as err:
            # the game a bad line sits in: a tag line after a hand starts a new game
            if stripped.startswith("[") and asm.started and (asm.hands or asm.hand is not None):
                yield from asm._start_game(logical.first_line)
            fixed = _repair(parser, text, logical.first_line) if isinstance(err, UnexpectedInput) else None
            if fixed is None:
                hint = _hint(text, asm.players(), asm.next_trick())
                if hint is not None:
                    asm.error(hint[0], logical.first_line, hint[1])
                else:
                    e = err if isinstance(err, RecordSyntaxError) else _describe(err, text, logical.first_line)
                    asm.error(e.message, e.line, e.column)
                asm.unread(logical.raw, logical.first_line)
                asm._flush_findings()
                continue
            element, message, column = fixed
            repaired = True
            asm.error(message, logical.first_line, column, element.number if isinstance(element, Trick) else None)
        if isinstance(element, (Tag, Hand)) and not repaired:
            asm.notation_seen = True
        notes = _annotations(_CTX.annotations or [], logical.first_line)
        remark = str(_CTX.comments[-1])[1:] if _CTX.comments else None
        if element is None:
            if notes and not asm.notes_alone(notes):
                asm.unread(logical.raw, logical.first_line)  # (its remark with it)
                asm._flush_findings()
                continue
            if remark is not None:
                asm.comment(remark, logical.first_line, 1)
            asm._flush_findings()
            continue
        element = _attach(element, notes, remark)
        yield from asm.feed(element, logical.raw)
        asm._flush_findings()
    asm._flush_findings()
    yield from asm.finish()


def read_games(source: Source, path: str | None = None) -> Iterator[Game]:
    """Read games one at a time from a file path, an open file, or text.

    `source` is a path (`str` without a newline, or `os.PathLike`), a binary or
    text file object, or the text itself (a `str` holding a newline). Syntax
    errors become findings on the game they sit in (`Game.findings`); a source
    with no Imp notation at all gives one game holding one finding that says so.
    Memory stays bounded by the largest game, however long the file or its lines.
    Raises `OSError` only when a path cannot be opened or read.

    >>> [g.players for g in read_games('[Game "bottle-imp"]\\n[Players "A B C"]\\n')]
    [('A', 'B', 'C')]
    """
    findings: list[Finding] = []
    if isinstance(source, str) and ("\n" in source or source.startswith("[")):
        yield from _read_lines(_text_lines(io.StringIO(source)), path, findings)
        return
    if isinstance(source, (str, os.PathLike)):
        name = path if path is not None else os.fspath(source)
        with open(source, "rb") as binary:
            yield from _read_lines(_decode_lines(binary), name, findings)
        return
    if isinstance(source, io.TextIOBase):
        yield from _read_lines(_text_lines(source), path, findings)
        return
    yield from _read_lines(_decode_lines(source), path, findings)  # type: ignore[arg-type]
