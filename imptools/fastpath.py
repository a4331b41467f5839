"""The reader's fast path: the common line shapes read without the Lark parser.

`fast_line(text, line)` builds, for the lines most records are made of (tags,
`hand`, `deal`, `discard`, `pass`, tricks, `score`/`total` and the other
one-keyword lines, each with an optional `;` remark), exactly the model object
the grammar's Transformer builds, and returns None for anything else: a line
with an annotation, a quote outside a tag, whitespace other than spaces, a
name or play that does not read cleanly. Those lines go to Lark, so the
grammar (grammar/imp.lark) stays the one definition of the syntax and every
error message comes from the same place. tests/test_fastpath.py proves the two
equal over every conformance record, every sample, a generated corpus and
mutated lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from imptools.record import (
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

_NAME = re.compile(r"[^\W\d_][\w'\-]*")
_SIGNED = re.compile(r"[+-]?[0-9]{1,9}")
_TAG = re.compile(r' *\[ *([A-Za-z][A-Za-z0-9_]*) *"((?:[^"\\\n]|\\.)*)" *\] *(?:;(.*))?')
_UNESCAPE = re.compile(r"\\(.)")
_NOT_PLAIN = re.compile(r'[\[\]{}"]|[^\S ]')
"""What sends a line (before its `;`) to Lark: brackets, braces, quotes, whitespace other than spaces."""
_WORD = re.compile(r"[^ ]+")
_MARKS = ("!!", "!?", "?!", "??", "!", "?")

Tokens = list[tuple[str, int]]
"""The words of a line with their 1-based columns."""


def _small(text: str) -> bool:
    """ASCII digits, at most nine: a number every reader takes as it is (longer ones go to Lark)."""
    return len(text) <= 9 and text.isascii() and text.isdigit()


_NAMES: dict[str, bool] = {}
"""Whether a word is a name (`_NAME`), for the words seen so far: a record names its few players again and again."""
_NAMES_KEPT = 4096
"""The most words `_NAMES` remembers (a file of ever new names costs the pattern's time, never unbounded memory)."""


def _is_name(text: str) -> bool:
    known = _NAMES.get(text)
    if known is None:
        known = _NAME.fullmatch(text) is not None
        if len(_NAMES) < _NAMES_KEPT:
            _NAMES[text] = known
    return known


def _name(text: str, line: int, col: int) -> NameRef | None:
    """`Adam` or `Keawe.2`, as the Transformer reads it; None when Lark should say what is wrong."""
    pack: int | None = None
    if "." in text:
        base, _, rest = text.rpartition(".")
        if base and rest.isdigit():
            if not _small(rest):
                return None
            text, pack = base, int(rest)
    if not _is_name(text):
        return None
    return NameRef(text, line, col, pack)


def _play(text: str, line: int, col: int) -> Play | None:
    """`[NAME:]CARD[MARK]`, as the Transformer reads it; None when Lark should say what is wrong."""
    if text.isdigit():
        return Play(CardText(text, line, col), line, col)
    name: NameRef | None = None
    if ":" in text:
        who, _, text = text.partition(":")
        if not who or not _is_name(who):
            return None
        name = NameRef(who, line, col)
        col += len(who) + 1
        if text.isdigit():
            return Play(CardText(text, line, col), line, col, name)
    mark: str | None = None
    if text[-1:] in ("!", "?"):
        for m in _MARKS:
            if text.endswith(m) and len(text) > len(m):
                text, mark = text[: -len(m)], m
                break
        else:
            if text in ("??", "?!", "!?", "?!!"):
                text, mark = "?", text[1:]
    if not text or ":" in text or "!" in text:
        return None
    return Play(CardText(text, line, col), line, col, name, mark)


def _cards(words: Tokens, line: int) -> tuple[CardText, ...]:
    return tuple([CardText(w, line, c) for w, c in words])


def _tokens(body: str) -> Tokens:
    """The space-separated words of `body` with their columns."""
    if body.startswith(" ") or "  " in body:
        return [(m.group(), m.start() + 1) for m in _WORD.finditer(body)]
    out: Tokens = []
    col = 1
    for w in body.split(" "):
        if w:
            out.append((w, col))
        col += len(w) + 1
    return out


def _trick(words: Tokens, line: int, remark: str | None) -> Trick | None:
    number, col = words[0]
    digits = number[:-1]
    if not _small(digits) or len(words) < 2:
        return None
    plays = []
    for w, c in words[1:]:
        play = _play(w, line, c)
        if play is None:
            return None
        plays.append(play)
    return Trick(int(digits), tuple(plays), line, col, remark=remark)


def _hand(words: Tokens, line: int, remark: str | None) -> Hand | None:
    if len(words) not in (2, 4):
        return None
    number = words[1][0]
    if not _small(number):
        return None
    dealer: NameRef | None = None
    if len(words) == 4:
        if words[2][0] != "dealer":
            return None
        dealer = _name(words[3][0], line, words[3][1])
        if dealer is None:
            return None
    return Hand(int(number), line, 1, dealer, remark=remark)


def _deal(words: Tokens, line: int, remark: str | None) -> Deal | None:
    if len(words) < 2:
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Deal(player, _cards(words[2:], line), line, 1, remark=remark)


def _discard(words: Tokens, line: int, remark: str | None) -> Discard | None:
    if len(words) < 3:
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Discard(player, _cards(words[2:], line), line, 1, remark=remark)


def _pass(words: Tokens, line: int, remark: str | None) -> Pass | None:
    if len(words) != 5 or words[2][0] != ">":
        return None
    giver = _name(words[1][0], line, words[1][1])
    receiver = _name(words[3][0], line, words[3][1])
    if giver is None or receiver is None:
        return None
    card, col = words[4]
    return Pass(giver, receiver, CardText(card, line, col), line, 1, remark=remark)


def _score(words: Tokens, line: int, remark: str | None) -> ScoreLine | None:
    kind, col = words[0]
    pairs = words[1:]
    if not pairs or len(pairs) % 2:
        return None
    entries = []
    for (who, c), (value, _) in zip(pairs[::2], pairs[1::2]):
        player = _name(who, line, c)
        if player is None or _SIGNED.fullmatch(value) is None:
            return None
        entries.append(ScoreEntry(player, int(value), line, c))
    return ScoreLine(kind, tuple(entries), line, col, remark=remark)


def _open(words: Tokens, line: int, remark: str | None) -> Open | None:
    if len(words) != 3 or not _small(words[2][0]):
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Open(player, int(words[2][0]), line, 1, remark=remark)


def _imp(words: Tokens, line: int, remark: str | None) -> ImpTrick | None:
    if len(words) < 2:
        return None
    return ImpTrick(_cards(words[1:], line), line, 1, remark=remark)


def _trump(words: Tokens, line: int, remark: str | None) -> Trump | None:
    if len(words) != 3:
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Trump(player, words[2][0], line, 1, remark=remark)


def _call(words: Tokens, line: int, remark: str | None) -> Call | None:
    if len(words) != 2:
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Call(call_kind(words[0][0]), player, line, words[0][1], remark=remark)


def _declare(words: Tokens, line: int, remark: str | None) -> Declare | None:
    if len(words) != 2:
        return None
    player = _name(words[1][0], line, words[1][1])
    return None if player is None else Declare(words[0][0], player, line, words[0][1], remark=remark)


def _turnup(words: Tokens, line: int, remark: str | None) -> TurnUp | None:
    if len(words) != 2:
        return None
    card, col = words[1]
    return TurnUp(CardText(card, line, col), line, 1, remark=remark)


def _bid(words: Tokens, line: int, remark: str | None) -> Bid | None:
    if len(words) < 3:
        return None
    player = _name(words[1][0], line, words[1][1])
    if player is None:
        return None
    rest = words[2:]
    if len(rest) == 1 and rest[0][0].isdigit():
        if not _small(rest[0][0]):
            return None
        return Bid(player, (), int(rest[0][0]), line, 1, remark=remark)
    return Bid(player, _cards(rest, line), None, line, 1, remark=remark)


_LINES: dict[str, Callable[[Tokens, int, str | None], Any]] = {
    "hand": _hand,
    "deal": _deal,
    "discard": _discard,
    "pass": _pass,
    "score": _score,
    "total": _score,
    "open": _open,
    "imp": _imp,
    "trump": _trump,
    "contro": _call,
    "recontro": _call,
    "sant-vicenc": _call,
    "sant-vicenç": _call,
    "turnup": _turnup,
    "bid": _bid,
    "declare": _declare,
    "reveal": _declare,
}


def fast_line(text: str, line: int) -> Any:
    """The model object of one logical line starting at `line`, or None to leave the line to Lark.

    >>> fast_line("3. Adam:24! 15", 7).plays[0].mark
    '!'
    >>> fast_line("deal Adam 2 {four}", 1) is None
    True
    """
    if "\n" in text:
        return None
    if "[" in text:
        m = _TAG.fullmatch(text)
        if m is None:
            return None
        raw = m.group(2)
        value = _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw
        return Tag(m.group(1), value, line, m.start(1), remark=m.group(3))
    body, semi, remark = text.partition(";")
    if _NOT_PLAIN.search(body) is not None:
        return None
    words = _tokens(body)
    if not words:
        return None
    if ">" in body and (words[0][0] != "pass" or body.count(">") != 1):
        return None
    first = words[0][0]
    build = _LINES.get(first)
    if build is not None:
        return build(words, line, remark if semi else None)
    if first.endswith("."):
        return _trick(words, line, remark if semi else None)
    return None
