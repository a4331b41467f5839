"""The reader's grammar: a line parsed by Lark into its model object; a bad line described, repaired or hinted at.

The Lark LALR parser (grammar/imp.lark) builds each line's model object with an
inline Transformer (`line_parser`); Lark is imported only when a line needs it
(most lines are read by `imptools.fastpath`). A line that does not parse is
described in a card player's words (`describe_error`), repaired when it is one
of the slips section 8 of the notation repairs (`repaired_line`,
`without_commas`), or given a hint (`slip_hint`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from imptools.record import (
    Annotation,
    Bid,
    Call,
    CardText,
    Deal,
    Declare,
    Discard,
    Hand,
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
    call_kind,
)
from imptools.suggest import did_you_mean

if TYPE_CHECKING:  # Lark is imported when a line first needs it: most records never do (imptools.fastpath)
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

NAME = re.compile(r"[^\W\d_][\w'\-]*")
"""A player's name: a letter, then letters, digits, `_`, `'` or `-`."""
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
    shift_after: int = 0
    """Columns past this one on the line's first row move back by `shift` (a keyword read one letter longer)."""
    shift: int = 0


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
    row, column = tok.line or 1, tok.column or 1
    if row == 1 and _CTX.shift and column > _CTX.shift_after:
        column -= _CTX.shift
    return _CTX.first_line + row - 1, column


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
    if not NAME.fullmatch(text):
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
        if not who or not NAME.fullmatch(who):
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
    "<END-OF-FILE>": "the end of the line",
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


def describe_error(err: UnexpectedInput, text: str, first_line: int) -> RecordSyntaxError:
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


# --------------------------------------------------------------------------- repairs and hints

_TRICK_NO_DOT = re.compile(r"([ \t]*[0-9]+)[ \t]")
_PASS_NO_ARROW = re.compile(r"([ \t]*pass[ \t]+[^\s>{};\"\[\]]+)[ \t]")
_PASS_OTHER_ARROW = re.compile(r"[ \t]*pass[ \t]+[^\s>{};\"\[\]=\u2192-]+[ \t]*(->|=>|\u2192)")
"""A pass whose `>` is written as another arrow (`pass Betty -> Christian 14`): the same slip as none at all."""
_GLUED_POINTS = re.compile(r"([^\W\d_][\w'\-]*?)([+-]?[0-9]+)")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_TAG_WITHOUT_BRACKETS = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+\"")


def parse_line(parser: Lark, text: str, first_line: int, shift: tuple[int, int] = (0, 0)) -> Any:
    """Parse one logical line; the annotations and comments it holds are left for `line_notes`.

    A first word that only begins with a keyword (`deall Adam ...`) is not that keyword and a word: the lexer would
    read `deal` and a player `l`, so it is refused here, a bad line like any other (the notation's section 8)."""
    glued = _GLUED_KEYWORD.match(text)
    if glued is not None and glued.group(1) not in _LINE_KEYWORDS:
        raise RecordSyntaxError(f"`{glued.group(1)}` is not a keyword", first_line, glued.start(1) + 1)
    _CTX.first_line = first_line
    _CTX.annotations = []
    _CTX.comments = []
    _CTX.shift_after, _CTX.shift = shift
    try:
        return parser.parse(text)
    finally:
        _CTX.shift_after, _CTX.shift = 0, 0


def _annotations(tokens: list[Token], first_line: int) -> list[Annotation]:
    return [Annotation(str(t)[1:-1], first_line + (t.line or 1) - 1, t.column or 1) for t in tokens]


def line_notes(first_line: int) -> tuple[list[Annotation], str | None]:
    """The annotations and the `;` remark of the line parsed last (by `parse_line`), starting at `first_line`."""
    notes = _annotations(_CTX.annotations or [], first_line)
    remark = str(_CTX.comments[-1])[1:] if _CTX.comments else None
    return notes, remark


def repaired_line(parser: Lark, text: str, first_line: int, unexpected: bool = True) -> tuple[Any, str, int] | None:
    """The repairs of a line that does not parse (section 8): a trick number without its dot, a pass without `>`
    (or with another arrow for it: `->`, `=>`, `→`), both only where the parser stopped (`unexpected`); a trick
    number with another mark for its dot (`3)`), and a named play with spaces about its colon (`Ana : 7o`).

    Returns the element read from the repaired line, the finding's message and its column; None when no repair
    makes the line readable. A repair keeps every column where it was (a spaced play, its card's).
    """
    for pattern, kind in ((_TRICK_NO_DOT, Trick), (_PASS_NO_ARROW, Pass), (_PASS_OTHER_ARROW, Pass)):
        m = pattern.match(text) if unexpected else None
        if m is None:
            continue
        if pattern is _PASS_OTHER_ARROW:  # the arrow made `>`, right-aligned, so that no column moves
            fixed = text[: m.start(1)] + " " * (len(m.group(1)) - 1) + ">" + text[m.end(1) :]
        else:
            fixed = text[: m.end(1)] + ("." if kind is Trick else ">") + text[m.end(1) + 1 :]
        element = _parsed_as(parser, fixed, first_line, kind)
        if element is None:
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
    return _trick_mark_repaired(parser, text, first_line) or _play_colon_repaired(parser, text, first_line)


_TRICK_OTHER_MARK = re.compile(r"([ \t]*([0-9]+))([):])")
"""A trick number followed by another mark than its dot (`3)`, `3:`)."""
_SPACED_COLON = re.compile(r"(?<![^\s.])([^\W\d_][\w'\-]*)([ \t]*):([ \t]*)([^\s{};]+)")
"""A play whose name and card stand apart from the colon between them (`Ana : 7o`, `Ana: 7o`)."""


def _parsed_as(
    parser: Lark, text: str, first_line: int, kind: type | tuple[type, ...], shift: tuple[int, int] = (0, 0)
) -> Any:
    """The element the repaired line `text` reads as, if it reads as a `kind` and holds no comma; else None
    (`shift` as `parse_line` takes it)."""
    from lark.exceptions import UnexpectedInput

    if _has_comma(text):
        return None  # a second slip on the line (commas): one repair a line, or its written form would read otherwise
    try:
        element = parse_line(parser, text, first_line, shift)
    except (UnexpectedInput, RecordSyntaxError):
        return None
    return element if isinstance(element, kind) else None


def _trick_mark_repaired(parser: Lark, text: str, first_line: int) -> tuple[Any, str, int] | None:
    """`3) 37 33 14 23`: the trick number's dot written as another mark, read as the dot (columns kept)."""
    m = _TRICK_OTHER_MARK.match(text)
    if m is None:
        return None
    element = _parsed_as(parser, text[: m.end(1)] + "." + text[m.end(3) :], first_line, Trick)
    if element is None:
        return None
    number = m.group(2)
    message = f"`{number}{m.group(3)}`: a trick number is written with a dot, `{number}.`"
    return element, message, m.start(2) + 1


def _play_colon_repaired(parser: Lark, text: str, first_line: int) -> tuple[Any, str, int] | None:
    """`1. Ana : 7o 10o ...`: a named play with spaces about its colon, read as `Ana:7o` (the card's column kept: a
    play is placed at its card)."""
    number = re.match(r"[ \t]*[0-9]+\.", text)
    if number is None:
        return None
    spaced = [m for m in _SPACED_COLON.finditer(text, number.end()) if m.group(2) or m.group(3)]
    if not spaced:
        return None
    fixed, at = [], 0
    for m in spaced:
        fixed += [text[at : m.start()], " " * (len(m.group(2)) + len(m.group(3))), f"{m.group(1)}:{m.group(4)}"]
        at = m.end()
    element = _parsed_as(parser, "".join(fixed) + text[at:], first_line, Trick)
    if element is None:
        return None
    first = spaced[0]
    written = " ".join(first.group(0).split())
    message = f"`{written}`: a play's name, colon and card are written together, `{first.group(1)}:{first.group(4)}`"
    return element, message, first.start(1) + 1


_FIRST_WORD = re.compile(r"[ \t]*([^\W\d_][^\s\[\]{}\";>:.,]*)(?=[ \t]|$)")
_SLIP_KEYWORDS = sorted(_LINE_KEYWORDS - {"hand", "sant-vicenç"})
"""The keywords a misspelt first word is read as (`hand` has its own reading, `hand_line_slip`)."""
_KEYWORD_LINES = (Deal, Discard, Pass, Open, ImpTrick, Trump, Call, TurnUp, Bid, Declare, ScoreLine)
"""The lines those keywords begin."""


def keyword_slip_line(
    parser: Lark, text: str, first_line: int, players: tuple[str, ...]
) -> tuple[Any, str, int] | None:
    """A line whose first word is one keystroke from exactly one keyword (`contr Bernat`, `dael Adam ...`, `Deal`),
    read as that keyword's line where the rest then reads: the element, the finding's message and its column.

    A call or deal line skipped for its keyword would judge the hand without it (a contro lost changes the score),
    so the one slip costs its one `syntax` finding and the line is read as meant (docs/decisions.md). A first word
    that is a player's name, or one keystroke from one, is left alone."""
    m = _FIRST_WORD.match(text)
    if m is None:
        return None
    from imptools.slips import one_keystroke

    word = m.group(1)
    folded = word.casefold().replace("ç", "c")
    if word in _LINE_KEYWORDS or word in players or one_keystroke(word, players) or _keyword_slip(word, "hand"):
        return None
    meant = folded if folded in _SLIP_KEYWORDS else one_keystroke(folded, _SLIP_KEYWORDS)
    if meant is None:
        return None
    grow = len(meant) - len(word)
    fixed = text[: m.start(1)] + meant + " " * max(0, -grow) + text[m.end(1) :]
    element = _parsed_as(parser, fixed, first_line, _KEYWORD_LINES, (m.start(1) + len(meant), max(0, grow)))
    if element is None:
        return None
    return element, f"`{word}`: did you mean `{meant}`? The line is read as a `{meant}` line", m.start(1) + 1


_QUOTES = "\"'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb"
_TAG_SLIP = re.compile(
    rf"[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+([{_QUOTES}]?)([^{_QUOTES}\[\]{{}};]*?)([{_QUOTES}]?)[ \t]*\]"
    r"[ \t]*(?:;(.*))?"
)
"""A tag whose value is not between straight double quotes: curly or single quotes, none, or one left out."""


def tag_slip(text: str, first_line: int) -> tuple[Tag, str, int] | None:
    """A tag line that does not parse read as meant where only its quotes are wrong (`[Players “Adam Betty”]`,
    `[Players Adam Betty]`, `[Event "Club night]`): the tag, the finding's message and its column; else None.

    A tag skipped would leave its game without it (a game with no `Players` is not judged at all), so the one slip
    costs its one `syntax` finding and the tag is read (docs/decisions.md)."""
    m = _TAG_SLIP.fullmatch(text.rstrip("\r\n"))
    if m is None or not m.group(3).strip() or (m.group(2) == '"' and m.group(4) == '"'):
        return None
    name, value = m.group(1), " ".join(m.group(3).split())
    tag = Tag(name, value, first_line, text.index("[") + 1, remark=m.group(5))
    message = f'A tag\'s value is a quoted value, between straight quotes: `[{name} "{value}"]`'
    return tag, message, m.start(2) + 1


_GLUED_KEYWORD = re.compile(
    r"[ \t]*((?:"
    + "|".join(sorted((re.escape(k) for k in _LINE_KEYWORDS), key=len, reverse=True))
    + r")[^\W\d_][^\s\[\]{}\";>]*)"
)
"""A line whose first word begins with a keyword and goes on with a letter (`deall`, `contros`; `hand2` is the
keyword and a number)."""

_HAND_SLIP = re.compile(
    r"[ \t]*([^\W\d_]+)(?:[ \t]*([0-9]{1,9}))?[.:,)]?(?:[ \t]+([^\W\d_]+)[:.,]?)?(?:[ \t]+([^\W\d_][\w'\-]*?))?"
    r"[.:,]?[ \t]*(?:;.*)?"
)
"""A `hand` line with a slip: in a keyword (`haand 3`, `hand 3 dealr Betty`, `hand 3 Betty`: the keyword left out), a
mark after the number or the keyword (`hand 3. dealer Betty`, `hand 3 dealer: Betty`), or the number left out
(`hand dealer Betty`: the hand due)."""


_HAND_START = re.compile(r"[ \t]*([^\W\d_]+)[ \t]*([0-9]{1,9})(?![0-9])")
"""The start of a `hand` line whose rest cannot be read (`hand 2 dealer Adam Betty`): the word and the number."""


def _keyword_slip(word: str, keyword: str) -> bool:
    """`word` is `keyword`, or one keystroke from it (letter case aside)."""
    from imptools.slips import one_keystroke

    return word.casefold() == keyword or one_keystroke(word.casefold(), [keyword]) == keyword


def hand_line_slip(text: str, due: int, first_line: int) -> Hand | None:
    """The hand a line that does not parse opens, where it is plainly the `hand` line of hand `due` with a slip in
    a keyword; else None.

    A hand line skipped would put every line of its hand into the hand before (each card dealt twice, every trick
    out of order): the one slip is reported where it stands (its `syntax` finding), and the hand still opens here,
    with its dealer where one is written (docs/decisions.md)."""
    m = _HAND_SLIP.fullmatch(text.rstrip("\r\n"))
    if m is None or (m.group(2) is not None and int(m.group(2)) != due) or not _keyword_slip(m.group(1), "hand"):
        start = _HAND_START.match(text)  # the rest of the line past reading: the hand opens, the rotation's dealer
        if start is not None and int(start.group(2)) == due and _keyword_slip(start.group(1), "hand"):
            return Hand(due, first_line, start.start(1) + 1, None)
        return None
    word, name, at = m.group(3), m.group(4), m.start(4) + 1
    if m.group(2) is None and (word is None or name is None or not _keyword_slip(word, "dealer")):
        return None  # no number: only `hand dealer Betty` is plainly a hand line (`hand two` is not)
    if name is None and word is not None:
        if _keyword_slip(word, "dealer"):
            word = None  # `hand 3 dealer`: the dealer's name left out, the rotation gives him
        else:
            word, name, at = None, word, m.start(3) + 1  # `hand 3 Betty`: the dealer without its keyword
    elif word is not None and not _keyword_slip(word, "dealer"):
        return None
    dealer = NameRef(name, first_line, at) if name is not None else None
    return Hand(due, first_line, m.start(1) + 1, dealer)


_CARD_LINE = re.compile(r"[ \t]*(?:(?:deal|discard|pass|bid)[ \t]|[0-9]+\.)")
"""The lines whose cards may be written with commas between them (the fourth repair of section 8).

A trick's number needs no space after it (`1.24, 15`): its first card is still a card, not `24,`."""


def _has_comma(text: str) -> bool:
    """A comma outside `{...}` annotations and before a `;` remark.

    >>> _has_comma("0.,"), _has_comma("1. 24 {a, b}"), _has_comma("1. 24 ; a, b")
    (True, False, False)
    """
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == ";" and not depth:
            return False
        elif ch == "," and not depth:
            return True
    return False


def without_commas(text: str) -> tuple[str, int] | None:
    """`text` with each comma between cards made a space (columns kept), and the first comma's column.

    Only for a `deal`, `discard`, `pass`, `bid` or trick line, and only commas
    outside `{...}` annotations and before a `;` remark; None when there are none.

    >>> without_commas("1. Adam:24, 15, 17, 32 {a, b}")
    ('1. Adam:24  15  17  32 {a, b}', 11)
    >>> without_commas("score Adam 1, Betty 2") is None
    True
    """
    if "," not in text or _CARD_LINE.match(text) is None:
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


def slip_hint(text: str, players: tuple[str, ...], next_trick: int) -> tuple[str, int] | None:
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
