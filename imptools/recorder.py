"""Keeping a record at the table, entry by entry: the logic behind `imp record`, with no terminal.

A `Recorder` holds the text of one record file as lines. Each entry typed at the
table (a bare card, or any line of the notation) is first *proposed*: the
recorder works out the text the file would hold with it (a card joins the open
trick's line, or opens the next trick; the first entry after a complete hand
opens the next hand), judges that text as `imp validate` would, and returns the
findings the entry brings that were not there before. The caller shows them and
*accepts* the proposal (or drops it); accepting writes the whole file atomically
(temporary file, fsync, rename), so the file on disk is always valid notation
and always the record as accepted so far. `undo` takes the last entry back the
same way. Reading a file and carrying on is the same as never having stopped:
everything the recorder knows comes from the text.

Nothing here names a game: the ruleset of the `Game` tag says which cards there
are (`Ruleset.deck`) and who plays next (`Ruleset.to_play`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from imptools.check import judge_game
from imptools.files import write_atomically
from imptools.findings import Finding
from imptools.reader import read_games
from imptools.record import Game, Hand, Trick
from imptools.replay import replay
from imptools.rules import GameResult, HandResult, get_ruleset
from imptools.rules.steps import KNOWN_FROM_DEAL, Step

LINE_KEYWORDS = frozenset(
    {
        *("hand", "deal", "discard", "pass", "open", "imp", "trump", "contro", "recontro", "sant-vicenc"),
        *("turnup", "bid", "declare", "reveal", "score", "total"),
    }
)
"""First words of the notation's lines: an entry starting with one is taken as a whole line."""

_TRICK_LINE = re.compile(r"^\s*\d+\s*\.(\s|$)")
_IGNORED = frozenset({"incomplete"})
"""Codes an entry never shows: a record being kept is incomplete until its hand ends."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """What an entry would do: the file's lines with it, and the findings it would bring."""

    entry: str
    lines: tuple[str, ...]
    findings: tuple[Finding, ...]
    kind: str
    """`play` (a card for the player to move), or `line` (a line of the notation)."""


@dataclass(frozen=True, slots=True)
class Status:
    """What is known now, for the screen: where the record stands and the state of the open hand."""

    hand: int | None
    dealer: str | None
    trick: int | None
    to_play: str | None
    complete: bool
    trick_so_far: tuple[tuple[str, str], ...]
    detail: tuple[tuple[str, str], ...]
    holdings: Mapping[str, tuple[str, ...]]
    """The cards each player holds now, for the players whose deal was entered."""
    scores: Mapping[str, int] | None
    totals: Mapping[str, int]
    end_text: str | None = None
    """What the end of the hand turned up (the imp's trick ...), when the hand is complete."""
    end_cards: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    score_written: bool = False
    last_trick: tuple[int, str | None, tuple[tuple[str, str], ...]] | None = None
    """The last full trick: its number, its winner and its plays."""

    def prompt(self) -> str:
        """The prompt's words: `trick 3, Betty: ` while a card is expected."""
        if self.hand is None:
            return "hand 1: "
        if self.complete:
            return f"hand {self.hand} done, next: "
        who = f", {self.to_play}" if self.to_play else ""
        return f"trick {self.trick or 1}{who}: "


def format_finding(f: Finding) -> str:
    """A finding as `imp validate` words it: `error not-held: message` (its severity, code and message)."""
    severity = f.severity.value if f.severity is not None else "error"
    return f"{severity} {f.code}: {f.message}"


def tag_line(name: str, value: str) -> str:
    """`[Name "value"]` with the notation's escapes."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def new_record(game: str, players: str, variant: str | None = None, tags: Sequence[tuple[str, str]] = ()) -> str:
    """The text of a new record: the `Game`, `Players` and `Variant` tags, then any others."""
    out = [tag_line("Game", game), tag_line("Players", players)]
    if variant:
        out.append(tag_line("Variant", variant))
    out += [tag_line(n, v) for n, v in tags]
    return "\n".join(out) + "\n"


def _contradicted(last: Game | None, game: str | None, players: str | None, variant: str | None) -> str | None:
    """What the tags of the game carried on say against the options given (None when nothing)."""
    if last is None:
        return None
    if game and last.game_name and game != last.game_name:
        return f"this is a record of {last.game_name}, not {game}"
    if players and last.players and players.split() != list(last.players):
        return f"this record's players are {' '.join(last.players)}, not {' '.join(players.split())}"
    recorded = last.tag("Variant")
    if variant and recorded and variant != recorded:
        return f"this record's variant is {recorded}, not {variant}"
    return None


@dataclass(slots=True)
class _Judged:
    game: Game | None
    result: GameResult | None
    steps: list[Step] | None = None
    to_play: str | None = None
    status: Status | None = None


@dataclass(frozen=True, slots=True)
class _View:
    """What is judged for each entry: the game's tags and its last hand alone (renumbered 1, dealer written).

    The hands before it cannot change while it is being recorded, so they are judged
    once (`Recorder._base`) and not again for every card. `offset` turns a line of
    the view into a line of the file; `number` is the last hand's own number.
    """

    lines: tuple[str, ...]
    offset: int
    number: int | None
    upto: tuple[str, ...]
    """The file's lines up to the last hand's `hand` line: what `_base` judges."""


_HAND_LINE = re.compile(r"^\s*hand\s+(\d+)\b")


@dataclass(slots=True)
class Recorder:
    """One record being kept: its lines, the game they hold (the last of the file), and its file."""

    lines: list[str]
    path: str | None = None
    _cache: dict[str, _Judged] = field(default_factory=dict)
    _bases: dict[str, _Judged] = field(default_factory=dict)

    @classmethod
    def from_text(cls, text: str, path: str | None = None) -> Recorder:
        """A recorder carrying on from `text` (a new record's tags, or a record stopped anywhere)."""
        return cls(text.splitlines(), path)

    @classmethod
    def open(
        cls,
        path: str,
        game: str | None = None,
        players: str | None = None,
        variant: str | None = None,
        tags: Sequence[tuple[str, str]] = (),
    ) -> Recorder:
        """Resume `path`, or start it from the tags when it does not exist or is empty (written at once).

        The options only make a new record: an existing one keeps its own tags, and
        an option that contradicts them (another game, other players, another
        variant: the wrong file, most likely) is refused with a `ValueError`.
        """
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if text.strip() or not (game and players):
                rec = cls.from_text(text, path)
                clash = _contradicted(rec.game, game, players, variant)
                if clash is not None:
                    raise ValueError(f"{clash}; to carry this record on, leave the option out")
                return rec
        if not game or not players:
            raise ValueError("a new record needs --game and --players")
        rec = cls.from_text(new_record(game, players, variant, tags), path)
        rec.save()
        return rec

    # ------------------------------------------------------------------ reading the text

    @property
    def text(self) -> str:
        """The file's text: its lines, each ended by a newline."""
        return "".join(line + "\n" for line in self.lines)

    def _read(self, lines: Sequence[str], cache: dict[str, _Judged]) -> _Judged:
        text = "".join(line + "\n" for line in lines)
        hit = cache.get(text)
        if hit is not None:
            return hit
        games = list(read_games(text, self.path)) if text.strip() else []
        game = games[-1] if games else None
        judged = _Judged(game, judge_game(game) if game is not None else None)
        if len(cache) > 8:
            cache.clear()
        cache[text] = judged
        return judged

    def _view(self, lines: Sequence[str]) -> _View:
        """The tags of the last game and its last hand, as judged for each entry."""
        h = next((i for i in range(len(lines) - 1, -1, -1) if _HAND_LINE.match(lines[i])), None)
        if h is None or any(line.lstrip().startswith("[") for line in lines[h + 1 :]):
            return _View(tuple(lines), 0, None, ())
        t = next((i for i in range(h - 1, -1, -1) if lines[i].lstrip().startswith("[")), None)
        header: list[str] = []
        if t is not None:
            start = t
            while start > 0 and (not lines[start - 1].strip() or lines[start - 1].lstrip().startswith(("[", ";"))):
                start -= 1
            header = list(lines[start : t + 1])
        upto = tuple(lines[: h + 1])
        base = self._read(upto, self._bases)
        dealer = base.result.hands[-1].dealer if base.result is not None and base.result.hands else None
        match = _HAND_LINE.match(lines[h])
        assert match is not None
        hand_line = f"hand 1 dealer {dealer}" if dealer else "hand 1"
        return _View((*header, hand_line, *lines[h + 1 :]), h - len(header), int(match.group(1)), upto)

    def _judge(self, lines: Sequence[str]) -> _Judged:
        return self._read(self._view(lines).lines, self._cache)

    @property
    def game(self) -> Game | None:
        """The game being recorded as judged for each entry: its tags and its last hand (as hand 1)."""
        return self._judge(self.lines).game

    @property
    def result(self) -> GameResult | None:
        """The last hand as `imp validate` judges it (as hand 1 of a game of its own)."""
        return self._judge(self.lines).result

    def whole(self) -> tuple[Game | None, GameResult | None]:
        """The whole game being recorded (the file's last) and its judgement: for the score sheet."""
        judged = self._read(self.lines, self._bases)
        return judged.game, judged.result

    def _totals_before(self) -> dict[str, int]:
        view = self._view(self.lines)
        if not view.upto:
            return {}
        base = self._read(view.upto, self._bases)
        return dict(base.result.totals) if base.result is not None else {}

    def _counted(self, lines: Sequence[str], whole: bool) -> list[tuple[tuple[object, ...], Finding]]:
        """The findings of the last hand (of the whole game with `whole`), keyed, `incomplete` aside."""
        view = self._view(lines)
        result = self._read(lines, self._bases).result if whole else self._read(view.lines, self._cache).result
        if result is None:
            return []
        out: list[tuple[tuple[object, ...], Finding]] = []
        for f in result.all_findings():
            if f.code in _IGNORED or (f.code == "bad-call" and f.player is None):
                continue
            if not whole and f.hand is not None and view.number is not None:
                f = f.at(hand=view.number, line=None if f.line is None else f.line + view.offset)
            out.append(((f.code, f.hand, f.trick, f.player, f.message), f))
        return out

    def _new_findings(self, after: Sequence[str], whole: bool) -> list[Finding]:
        before = Counter(k for k, _ in self._counted(self.lines, whole))
        new: list[Finding] = []
        for k, f in self._counted(after, whole):
            if before[k] > 0:
                before[k] -= 1
            else:
                new.append(f)
        return new

    def findings(self) -> list[Finding]:
        """Every finding of the hand being recorded, `incomplete` aside."""
        result = self.result
        return [f for f in result.all_findings() if f.code not in _IGNORED] if result is not None else []

    def _last(self) -> tuple[Game | None, Hand | None, HandResult | None]:
        judged = self._judge(self.lines)
        game, result = judged.game, judged.result
        if game is None or not game.hands or result is None:
            return game, None, None
        hand = game.hands[-1]
        hr = next((h for h in result.hands if h.number == hand.number), None)
        return game, hand, hr

    def steps(self) -> list[Step]:
        """The replay steps of the hand being recorded."""
        judged = self._judge(self.lines)
        if judged.steps is None:
            game = judged.game
            judged.steps = list(replay(game, game.hands[-1].number)) if game is not None and game.hands else []
        return judged.steps

    def to_play(self) -> str | None:
        """Who plays the next card of the hand being recorded, as the rules seat it."""
        judged = self._judge(self.lines)
        game = judged.game
        if judged.to_play is None and game is not None and game.hands:
            ruleset = get_ruleset(game.game_name)
            judged.to_play = ruleset.to_play(game, game.hands[-1].number) if ruleset is not None else None
        return judged.to_play

    def _open_trick(self, hand: Hand, steps: Sequence[Step]) -> Trick | None:
        """The hand's last trick when it is still short (its last step is a play)."""
        tricks = hand.tricks
        played = [s for s in steps if s.event.kind != "end"]
        if not tricks or not played or played[-1].event.kind != "play":
            return None
        return tricks[-1] if played[-1].event.trick == tricks[-1].number else None

    def status(self) -> Status:
        """Where the record stands: the hand, the trick, who plays, and what the screen shows."""
        judged = self._judge(self.lines)
        if judged.status is None:
            judged.status = self._status()
        return judged.status

    def _status(self) -> Status:
        game, hand, hr = self._last()
        players = game.players if game is not None else ()
        totals = self._totals_before()
        if hr is not None and hr.scores is not None:
            totals = {p: totals.get(p, 0) + hr.scores.get(p, 0) for p in dict.fromkeys([*totals, *hr.scores])}
        if game is None or hand is None:
            return Status(None, None, None, None, False, (), (), {}, None, totals, players=players)
        steps = self.steps()
        complete = hr is not None and hr.complete and self._open_trick(hand, steps) is None
        if not complete:
            steps = [s for s in steps if s.event.kind != "end"]
        state = steps[-1].state if steps else None
        ruleset = get_ruleset(game.game_name)
        to_play = None if complete else self.to_play()
        open_trick = self._open_trick(hand, steps)
        trick = open_trick.number if open_trick is not None else len(hand.tricks) + 1
        holdings: dict[str, tuple[str, ...]] = {}
        if state is not None and state.known_from is not None:
            order = {c: i for i, c in enumerate(ruleset.deck(game))} if ruleset is not None else {}
            for p in players:
                if state.known_from.get(p) == KNOWN_FROM_DEAL:
                    held = state.holdings.get(p, frozenset())
                    holdings[p] = tuple(sorted(held, key=lambda c: (order.get(c, len(order)), c)))
        end = steps[-1].event if steps and steps[-1].event.kind == "end" else None
        last_trick = None
        for i in range(len(steps) - 1, 0, -1):
            number = steps[i].event.trick
            if steps[i].event.kind == "trick" and number is not None:
                last_trick = (number, steps[i].event.player, steps[i - 1].state.trick)
                break
        return Status(
            self._view(self.lines).number,
            hr.dealer if hr is not None else None,
            None if complete else trick,
            to_play,
            complete,
            state.trick if state is not None else (),
            tuple(state.detail.lines()) if state is not None else (),
            holdings,
            hr.scores if hr is not None else None,
            totals,
            end.text if end is not None else None,
            end.cards if end is not None else (),
            players,
            bool(hand.scores),
            last_trick,
        )

    def score_line(self) -> str | None:
        """The `score` line of the hand just completed, as computed (None when there is none to write)."""
        _, hand, hr = self._last()
        if hand is None or hr is None or not hr.complete or hr.scores is None or hand.scores:
            return None
        return "score " + " ".join(f"{p} {v}" for p, v in hr.scores.items())

    def choices(self, player: str | None = None) -> list[str]:
        """The cards `player` (default: the one to play) may still hold, in the game's order.

        His cards when his deal was entered; else every card of the deck that the
        hand has not shown played, put away, or in another player's known hand.
        """
        game, hand, _ = self._last()
        if game is None:
            return []
        ruleset = get_ruleset(game.game_name)
        if ruleset is None:
            return []
        deck = ruleset.deck(game)
        if hand is None:
            return deck
        steps = self.steps()
        if player is None and not self.status().complete:
            player = self.to_play()
        if not steps:
            return deck
        state = steps[-1].state
        known = state.known_from or {}
        if player is not None and known.get(player) == KNOWN_FROM_DEAL:
            held = state.holdings.get(player, frozenset())
            return [c for c in deck if c in held]
        gone: set[str] = set()
        for s in steps:
            if s.event.kind in ("play", "discard", "bid", "imp", "turnup"):
                gone.update(s.event.cards)
        for p, held in state.holdings.items():
            if p != player and known.get(p) == KNOWN_FROM_DEAL:
                gone.update(held)
        return [c for c in deck if c not in gone]

    # ------------------------------------------------------------------ entries

    def propose(self, entry: str) -> Proposal | None:
        """The file with `entry` and the new findings it brings (None for an empty entry)."""
        entry = entry.strip()
        if not entry:
            return None
        lines = list(self.lines)
        game, hand, hr = self._last()
        view = self._view(self.lines)
        first = entry.split()[0]
        word = first.lower()
        is_line = word in LINE_KEYWORDS or entry[0] in "[;" or bool(_TRICK_LINE.match(entry))
        is_note = entry.startswith("{")
        kind = "line" if is_line or is_note else "play"
        opens_hand = word == "hand" or entry[0] in "[;" or word == "total" or word == "score"
        done = hand is None or (hr is not None and hr.complete and self._open_trick(hand, self.steps()) is None)
        if done and not opens_hand and not (is_note and hand is not None):
            lines.append(f"hand {(view.number or 0) + 1}")
            hand = None
        steps = self.steps() if hand is not None else []
        open_trick = self._open_trick(hand, steps) if hand is not None else None
        if kind == "play" or (is_note and open_trick is not None):
            if open_trick is not None:
                i = open_trick.line - 1 + view.offset
                lines[i] = _extend(lines[i], entry, open_trick)
            else:
                number = len(hand.tricks) + 1 if hand is not None else 1
                token = entry
                if ":" not in first and game is not None and hand is not None:
                    leader = self.to_play()
                    if leader is not None:
                        token = f"{leader}:{entry}"
                lines.append(f"{number}. {token}")
        else:
            lines.append(entry)
        new = self._new_findings(lines, whole=word == "total")
        return Proposal(entry, tuple(lines), tuple(new), kind)

    def accept(self, proposal: Proposal) -> None:
        """Make `proposal` the record, on disk before this returns."""
        self.lines = list(proposal.lines)
        self.save()

    def enter(self, entry: str) -> Proposal | None:
        """Propose `entry` and accept it whatever it brings (a record keeps what happened)."""
        proposal = self.propose(entry)
        if proposal is not None:
            self.accept(proposal)
        return proposal

    def undo(self) -> str | None:
        """Take the last entry back (the last play of a trick, else the last line); what was taken, or None."""
        _, hand, _ = self._last()
        offset = self._view(self.lines).offset
        i = len(self.lines) - 1
        while i >= 0 and not self.lines[i].strip():
            i -= 1
        if i < 0 or hand is None:
            return None
        line = self.lines[i]
        trick = hand.tricks[-1] if hand.tricks else None
        last = trick.plays[-1] if trick is not None and trick.plays else None
        notes = [a for a in last.annotations if a.line + offset == i + 1] if last is not None else []
        if trick is not None and trick.line + offset == i + 1 and last is not None and (notes or len(trick.plays) > 1):
            cut = last.column - 1
            if last.player is not None:
                cut = min(cut, last.player.column - 1)
            if notes:  # an annotation typed after the play is an entry of its own
                cut = notes[-1].column - 1
            remark = line.index(";") if trick.remark is not None and ";" in line[cut:] else len(line)
            taken = line[cut:remark].strip()
            self.lines[i] = f"{line[:cut].rstrip()} {line[remark:]}".rstrip()  # a `; remark` stays
        else:
            taken = line.strip()
            del self.lines[i:]
        self.save()
        return taken

    def save(self) -> None:
        """Write the record to its file (nothing without one)."""
        if self.path is not None:
            write_atomically(self.path, self.text)


def _extend(line: str, entry: str, trick: Trick) -> str:
    """A trick's line with one more play (or annotation) at its end, before any `;` remark."""
    if trick.remark is not None:
        at = line.rindex(";")
        return f"{line[:at].rstrip()} {entry} {line[at:]}"
    return f"{line.rstrip()} {entry}"
