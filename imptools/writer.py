"""The writer: record model -> canonical notation (`imp fmt`) and JSON (`imp export`/`imp import`).

Canonical text: the header's tags with `Game`, `Variant`, `Players` first and the
rest as written (comment lines at the top stay there; others stay before the tag they preceded), a blank line,
then each hand with one element per line and a blank line between hands; a
blank line between games. Cards are spelled canonically by the game's ruleset
(as written when the ruleset does not know them), annotations follow their
element on its line, `; remarks` end their line; a line the reader could not
read (`UnreadLine`) is written back verbatim where it stood. Formatting is a
fixed point.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from imptools import record
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
    Tag,
    Trick,
    Trump,
    TurnUp,
    UnreadLine,
)
from imptools.rules import get_ruleset

_FIRST_TAGS = ("Game", "Variant", "Players")


class RecordJSONError(ValueError):
    """A JSON document that is not an imp export; the message names the place inside it."""


# --------------------------------------------------------------------------- notation


def _notes(annotations: tuple[Annotation, ...]) -> str:
    return "".join(f" {{{a.text}}}" for a in annotations)


def _end(element: Any) -> str:
    out = _notes(element.annotations)
    if element.remark is not None:
        out += f" ;{element.remark}"
    return out


class _Spelling:
    """Canonical card spelling for one game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.ruleset = get_ruleset(game.game_name)

    def __call__(self, card: CardText) -> str:
        if card.unknown or self.ruleset is None:
            return card.text
        return self.ruleset.check_card(card.text, self.game).canonical or card.text


def _play(play: Play, spell: _Spelling) -> str:
    who = f"{play.player.as_written}:" if play.player is not None else ""
    return f"{who}{spell(play.card)}{play.mark or ''}{_notes(play.annotations)}"


def _line(line: HandLine, spell: _Spelling) -> str:
    def cards(cs: tuple[CardText, ...]) -> str:
        return " ".join(spell(c) for c in cs)

    if isinstance(line, CommentLine):
        return f";{line.text}"
    if isinstance(line, UnreadLine):
        return line.text  # verbatim, never respelt
    if isinstance(line, Deal):
        body = f"deal {line.player.as_written} {cards(line.cards)}".rstrip()
    elif isinstance(line, Discard):
        body = f"discard {line.player.as_written} {cards(line.cards)}"
    elif isinstance(line, Pass):
        body = f"pass {line.giver.as_written} > {line.receiver.as_written} {spell(line.card)}"
    elif isinstance(line, Open):
        body = f"open {line.player.as_written} {line.pack}"
    elif isinstance(line, ImpTrick):
        body = f"imp {cards(line.cards)}"
    elif isinstance(line, Trump):
        body = f"trump {line.player.as_written} {line.suit}"
    elif isinstance(line, (Call, Declare)):
        body = f"{line.kind} {line.player.as_written}"
    elif isinstance(line, TurnUp):
        body = f"turnup {spell(line.card)}"
    elif isinstance(line, Bid):
        body = f"bid {line.player.as_written}" + (
            f" {line.number}" if line.number is not None else f" {cards(line.cards)}" if line.cards else ""
        )
    elif isinstance(line, Trick):
        body = f"{line.number}.{_notes(line.annotations)} " + " ".join(_play(p, spell) for p in line.plays)
        return body + (f" ;{line.remark}" if line.remark is not None else "")
    else:
        body = f"{line.kind} " + " ".join(f"{e.player.as_written} {e.value}" for e in line.entries)
    return body + _end(line)


def _loose(item: CommentLine | UnreadLine) -> str:
    """A comment line, or a line not read (verbatim)."""
    return f";{item.text}" if isinstance(item, CommentLine) else item.text


def _header(header: tuple[HeaderLine, ...]) -> list[str]:
    """Tags in canonical order; comments (and lines not read) before the first tag stay on top, others travel with
    the tag after them."""
    groups: list[tuple[Tag | None, list[CommentLine | UnreadLine]]] = []
    pending: list[CommentLine | UnreadLine] = []
    leading = 0
    while leading < len(header) and not isinstance(header[leading], Tag):
        leading += 1
    top = [_loose(c) for c in header[:leading] if not isinstance(c, Tag)]
    for item in header[leading:]:
        if not isinstance(item, Tag):
            pending.append(item)
        else:
            groups.append((item, pending))
            pending = []
    first = [g for name in _FIRST_TAGS for g in groups if g[0] is not None and g[0].name == name]
    rest = [g for g in groups if g not in first]
    out: list[str] = top
    for tag, comments in first + rest:
        out.extend(_loose(c) for c in comments)
        if tag is not None:
            value = tag.value.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'[{tag.name} "{value}"]' + _end(tag))
    out.extend(_loose(c) for c in pending)
    return out


def _hand(hand: Hand, spell: _Spelling) -> list[str]:
    number = hand.written if hand.written is not None else hand.number  # as written, a wrong number too
    head = f"hand {number}" + (f" dealer {hand.dealer.as_written}" if hand.dealer is not None else "") + _end(hand)
    return [head] + [_line(line, spell) for line in hand.lines]


def format_element(game: Game, element: Hand | HandLine) -> str:
    """One line of `game` as `format_game` writes it: a hand's `hand` line, or one element of a hand."""
    spell = _Spelling(game)
    return _hand(element, spell)[0] if isinstance(element, Hand) else _line(element, spell)


def format_game(game: Game) -> str:
    """One game in canonical notation, ending with a newline."""
    spell = _Spelling(game)
    blocks = [_header(game.header)] + [_hand(h, spell) for h in game.hands]
    return "\n\n".join("\n".join(b) for b in blocks if b) + "\n"


def format_games(games: Iterable[Game]) -> str:
    """Games in canonical notation, a blank line between them."""
    return "\n".join(format_game(g) for g in games)


# --------------------------------------------------------------------------- JSON

_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in vars(record).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == record.__name__
}


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            if f.name in ("findings",):
                continue
            out[f.name] = _to_plain(getattr(value, f.name))
        return out
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


EXPORT_FORMAT = "imp-export"
EXPORT_VERSION = 1
_EARLIER_FORMATS = ("imp-record",)  # the name exports carried before every command's JSON was named after it


def games_to_json(games: Iterable[Game], sources: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """One JSON document holding the record model of `games` (reader findings are not exported).

    `sources` are the files the games were read from, each as its path (as the games' `path` names it) and its
    bytes: each UTF-8 one is kept in the document (`"sources"`), so that `document_text` writes it back byte for
    byte, its slips, spacing and spelling as written, while its games are as it reads."""
    doc: dict[str, Any] = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "games": [_to_plain(g) for g in games]}
    kept = []
    for path, data in sources:
        try:
            kept.append({"path": path, "text": data.decode("utf-8")})
        except UnicodeDecodeError:
            continue  # not UTF-8 (the notation's encoding): written back from its model, as read
    if kept:
        doc["sources"] = kept
    return orjson.dumps(doc)


def _from_plain(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        if isinstance(value, dict):
            return _object(value, where, {o.__name__ for o in options if isinstance(o, type)})
        for option in options:
            if option is not type(None):
                return _from_plain(value, option, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise RecordJSONError(f"{where}: expected a list")
        (item,) = typing.get_args(hint)[:1]
        return tuple(_from_plain(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _object(value, where, {hint.__name__})
    expected = {int: int, str: str}.get(hint)
    if expected is not None and (not isinstance(value, expected) or isinstance(value, bool)):
        raise RecordJSONError(f"{where}: expected {'a number' if expected is int else 'a string'}")
    return value


_HINTS_KEPT = (record.__file__ or "").endswith(".py")
"""Whether the record classes keep their fields' types (pure Python). Compiled by mypyc (hatch_build.py), a field's
hint is its outer class alone (`tuple` for `tuple[Play, ...]`, `type` for `str | None`): the fields are then read by
their shape (`_untyped`) and checked by the compiled classes as they are made."""


def _untyped(value: Any, where: str) -> Any:
    """A field's value read by its shape: a record object by its `type`, a list as a tuple, a number or string as is."""
    if isinstance(value, dict):
        return _object(value, where, set())
    if isinstance(value, list):
        return tuple(_untyped(v, f"{where}[{i}]") for i, v in enumerate(value))
    return value


def _object(value: Any, where: str, allowed: set[str]) -> Any:
    if not isinstance(value, dict):
        raise RecordJSONError(f"{where}: expected an object")
    name = value.get("type")
    cls = _CLASSES.get(name) if isinstance(name, str) else None
    if cls is None or (allowed and name not in allowed):
        raise RecordJSONError(f"{where}: `type` is {name!r}, expected one of {', '.join(sorted(allowed))}")
    hints = typing.get_type_hints(cls, vars(record))
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name == "findings":
            continue
        if f.name not in value:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise RecordJSONError(f"{where}: `{f.name}` is missing")
            continue
        field = f"{where}.{f.name}"
        kwargs[f.name] = (
            _from_plain(value[f.name], hints[f.name], field) if _HINTS_KEPT else _untyped(value[f.name], field)
        )
    try:
        return cls(**kwargs)
    except TypeError as exc:  # a compiled class refuses a field of the wrong type
        raise RecordJSONError(f"{where}: {exc}") from None


def games_from_json(data: bytes | str) -> list[Game]:
    """The games of a document made by `games_to_json`; raises `RecordJSONError` naming the place at fault."""
    return _games_of(_document(data))


def _document(data: bytes | str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise RecordJSONError(f"not JSON: {exc}") from None


def document_text(data: bytes | str) -> str:
    """The notation of a document made by `games_to_json`, as `imp import` writes it.

    The games of a file whose text the document keeps (`"sources"`) and which still read exactly as that text does
    are written as that text, byte for byte: the round trip is exact for any file, its slips and repaired lines
    included. Games changed since (or with no text kept) are written in canonical notation."""
    doc = _document(data)
    games = _games_of(doc)
    texts: dict[str, str] = {}
    for i, source in enumerate(doc.get("sources") or []):
        if (
            not isinstance(source, dict)
            or not isinstance(source.get("path"), str)
            or not isinstance(source.get("text"), str)
        ):
            raise RecordJSONError(f'sources[{i}]: expected an object with a "path" and a "text"')
        texts.setdefault(source["path"], source["text"])
    chunks: list[str] = []
    at = 0
    while at < len(games):
        path = games[at].path
        end = at + 1
        while end < len(games) and games[end].path == path:
            end += 1
        group = games[at:end]
        text = texts.get(path) if path is not None else None
        if text is not None and _reads_as(text, path, group):
            chunks.append(text)
        else:
            chunks.append(format_games(group))
        at = end
    return "\n".join(c if c.endswith("\n") or i == len(chunks) - 1 else c + "\n" for i, c in enumerate(chunks))


def _reads_as(text: str, path: str | None, games: Sequence[Game]) -> bool:
    """Whether `text` reads as exactly `games` (positions included, findings aside)."""
    import io

    from imptools.reader import read_games

    read = list(read_games(io.BytesIO(text.encode("utf-8")), path=path))
    return len(read) == len(games) and all(_to_plain(a) == _to_plain(b) for a, b in zip(read, games))


def _games_of(doc: Any) -> list[Game]:
    if not isinstance(doc, dict) or not isinstance(doc.get("games"), list):
        raise RecordJSONError(f'expected an object with "format": "{EXPORT_FORMAT}" and a list "games"')
    form = doc.get("format", EXPORT_FORMAT)  # an export made before documents carried their format has none
    if form != EXPORT_FORMAT and form not in _EARLIER_FORMATS:
        raise RecordJSONError(f'"format" is {form!r}, expected "{EXPORT_FORMAT}" (a document made by imp export)')
    version = doc.get("version", EXPORT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordJSONError(f'"version" is {version!r}, expected a whole number from 1')
    if version > EXPORT_VERSION:
        raise RecordJSONError(
            f"version {version} of the export format is newer than this imptools reads ({EXPORT_VERSION}): upgrade it"
        )
    return [_object(g, f"games[{i}]", {"Game"}) for i, g in enumerate(doc["games"])]


__all__ = ["RecordJSONError", "document_text", "format_game", "format_games", "games_from_json", "games_to_json"]
_ = NameRef  # re-exported names used in type hints of the model
