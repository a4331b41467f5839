"""One record file as the archive keeps it: each game's text, tags, hands, scores and findings, as plain data.

`extract` reads a file with the same reader and judge as `imp validate`
(`imptools.reader.read_games`, `imptools.check.judge_game`) and returns values
that cross a process boundary, so a pool can judge files while the archive is
written in order. Nothing here touches the database.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from imptools.findings import INTERNAL, Finding
from imptools.record import CardText, CommentLine, Deal, Game, NameRef, Trick

if TYPE_CHECKING:
    from imptools.rules.base import GameResult

RULE_TAGS = ("Game", "Variant", "Players", "Deck", "Teams", "Target", "Hands")
"""The tags the rules read: part of what makes two records the same game (the notation's section 2)."""

_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a file, judged: everything the archive stores about it."""

    index: int
    line: int
    text: str
    text_sha256: str
    canonical_sha256: str
    tags: tuple[tuple[str, str], ...]
    players: tuple[str, ...]
    rules_checked: bool
    over: bool
    winners: tuple[str, ...]
    sides: tuple[tuple[str, ...], ...]
    totals: dict[str, int]
    hands: tuple[tuple[int, str | None, bool, dict[str, int] | None], ...]
    """`(number, dealer, complete, scores or None)` of each hand."""
    findings: tuple[dict[str, Any], ...]
    notes: tuple[tuple[int, str | None, str | None, str], ...] = ()
    """`(hand, player, label, text)`: the facts of each hand the score sheet shows (a hand's, label set; how a
    player's score is made up, player set)."""
    facts: tuple[tuple[int, str, str, int], ...] = ()
    """`(hand, player, key, value)`: the game's own facts of each scored hand, as its ruleset counts them."""

    def tag(self, name: str) -> str | None:
        return next((v for n, v in self.tags if n == name), None)


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One input: its path (as the archive keys it), the hash of its bytes, its games, what went wrong reading it."""

    path: str
    sha256: str
    size: int
    games: tuple[GameRecord, ...] = ()
    internal: tuple[dict[str, Any], ...] = ()
    """`internal` findings of the reader itself on this file (a bug); the games read before stay."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_SKIP = frozenset({"line", "column", "annotations", "remark", "mark", "written", "findings", "path"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(kind: type) -> tuple[str, ...]:
    """The fields of a record-model class that say what happened (not where it was written, nor comments)."""
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.name not in _SKIP)
    return names


def canonical_text(game: Game) -> str:
    """The game without comments, annotations, marks and descriptive tags (Date, Event ...), as one text.

    Two records of the same deals and plays under the same rules give the same
    text whatever was written around them; cards are spelled canonically by the
    game's ruleset, names as the player meant.
    """
    from imptools.rules import get_ruleset

    ruleset = get_ruleset(game.game_name)
    spelt: dict[str, str] = {}

    def card(c: CardText) -> str:
        text = spelt.get(c.text)
        if text is None:
            canonical = None if ruleset is None or c.unknown else ruleset.check_card(c.text, game).canonical
            text = spelt[c.text] = canonical or c.text
        return text

    def value(v: Any) -> str:
        if isinstance(v, CardText):
            return card(v)
        if isinstance(v, NameRef):
            return v.name if v.pack is None else f"{v.name}.{v.pack}"
        if isinstance(v, tuple):
            return "(" + " ".join(value(x) for x in v if not isinstance(x, CommentLine)) + ")"
        if dataclasses.is_dataclass(v):
            return type(v).__name__ + "(" + " ".join(value(getattr(v, f)) for f in _fields(type(v))) + ")"
        return repr(v)

    lines = [f"{t.name}={t.value!r}" for t in game.tags if t.name in RULE_TAGS]
    lines.sort()
    for hand in game.hands:
        lines.append(f"hand {hand.number} {value(hand.dealer)}")
        for line in hand.lines:
            if isinstance(line, Trick):  # the lines most of a record is made of, written out directly
                plays = (f"{p.player.name}:{card(p.card)}" if p.player else card(p.card) for p in line.plays)
                lines.append(f"{line.number}. " + " ".join(plays))
            elif isinstance(line, Deal):
                lines.append(f"deal {value(line.player)} " + " ".join(card(c) for c in line.cards))
            elif not isinstance(line, CommentLine):
                lines.append(value(line))
    return "\n".join(lines) + "\n"


def _spans(data: bytes, starts: list[int]) -> list[bytes]:
    """The file's bytes cut at the given first lines (1-based) of its games: pieces that join back into the file."""
    lines = _LINES.findall(data)
    cuts = [0, *[s - 1 for s in starts[1:]], len(lines)]
    return [b"".join(lines[a:b]) for a, b in itertools.pairwise(cuts)]


def _first_line(game: Game) -> int:
    return min([game.line, *(h.line for h in game.header)])


def extract(path: str, data: bytes, name: str | None = None) -> FileRecord:
    """Read and judge the bytes of one file; `name` is the path the findings show (default `path`)."""
    from imptools.check import internal_finding, judge_game
    from imptools.reader import read_games

    shown = name or path
    games: list[Game] = []
    internal: list[dict[str, Any]] = []
    try:
        for game in read_games(io.BytesIO(data), path=shown):
            games.append(game)
    except Exception as exc:  # a bug in the reader must not stop the batch
        last = games[-1].index if games else 0
        internal.append(
            Finding(
                INTERNAL,
                f"imptools failed while reading this file after game {last} ({type(exc).__name__}: {exc}); "
                "the rest of the file is not read. This is a bug in imptools: please report it with this record",
                None,
                None,
                shown,
                last + 1,
            ).to_dict()
        )
    starts = [1] + [_first_line(g) for g in games[1:]]
    if any(b <= a for a, b in itertools.pairwise(starts)):  # never expected; keep every game's text whole then
        starts = [1] * len(games)
        texts = [data] * len(games)
    else:
        texts = _spans(data, starts)
    out: list[GameRecord] = []
    for game, raw in zip(games, texts):
        result = judge_game(game)
        try:
            canon = canonical_text(game)
        except Exception as exc:  # the duplicate key is a courtesy; the game is still kept
            canon = raw.decode("utf-8", "replace")
            result = dataclasses.replace(
                result, findings=(*result.findings, internal_finding(game, exc, "writing the canonical form of"))
            )
        out.append(
            GameRecord(
                index=game.index,
                line=game.line,
                text=raw.decode("utf-8", "replace"),
                text_sha256=sha256(raw),
                # a game without hands (a file with no notation) is the same as nothing else
                canonical_sha256=sha256(canon.encode("utf-8")) if game.hands else sha256(b"no hands\n" + raw),
                tags=tuple((t.name, t.value) for t in game.tags),
                players=tuple(result.players or game.players),
                rules_checked=result.rules_checked,
                over=result.over,
                winners=tuple(result.winners),
                sides=tuple(tuple(s) for s in result.sides),
                totals=dict(result.totals),
                hands=tuple(
                    (h.number, h.dealer, h.complete, dict(h.scores) if h.scores is not None else None)
                    for h in result.hands
                ),
                findings=tuple(f.to_dict() for f in result.all_findings()),
                notes=tuple(
                    [(h.number, None, label, text) for h in result.hands for label, text in h.notes]
                    + [(h.number, player, None, text) for h in result.hands for player, text in h.player_notes]
                ),
                facts=hand_facts(result),
            )
        )
    return FileRecord(path, sha256(data), len(data), tuple(out), tuple(internal))


def hand_facts(result: GameResult) -> tuple[tuple[int, str, str, int], ...]:
    """`(hand, player, key, value)` of every fact the ruleset counted in the judged game's hands."""
    return tuple((h.number, p, key, value) for h in result.hands for p, key, value in h.facts)


def facts_of_text(text: str, index: int) -> tuple[tuple[int, str, str, int], ...]:
    """The facts of a game kept in the archive (`games.text`, its `game_index` in its file), read and judged again
    as `extract` does; none where the text no longer reads as that game."""
    from imptools.check import judge_game
    from imptools.reader import read_games

    try:
        games = list(read_games(io.BytesIO(text.encode("utf-8")), path="<archive>"))
        # a game's own text holds that game alone; where a file was kept whole for each game, pick it by position
        found = games if len(games) == 1 else [g for g in games if g.index == index]
        return hand_facts(judge_game(found[0])) if found else ()
    except Exception:  # a bug in the reader must not stop an upgrade; the game keeps its other rows
        return ()
