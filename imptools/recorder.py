"""Keeping a record at the table, entry by entry: the logic behind `imp record`, with no terminal.

A `Recorder` holds the text of one record file as lines. Each entry typed at the
table (a bare card, or any line of the notation) is first *proposed*: the
recorder works out the text the file would hold with it (a card joins the open
trick's line, or opens the next trick; the first entry after a complete hand
opens the next hand), judges that text as `imp validate` would, and returns the
findings the entry brings that were not there before. The caller shows them and
*accepts* the proposal (or drops it); an entry that does not read at all gets a
`refusal` instead, in `imp validate`'s words. Accepting writes the whole file
atomically (temporary file, fsync, rename), so the file on disk is always valid
notation and always the record as accepted so far. `undo` takes the last entry
back the same way. Reading a file and carrying on is the same as never having
stopped: everything the recorder knows comes from the text.

The file may fail (a full disk, a read-only file system, a move) or change under
the recorder (another program): `Recorder.save` keeps every entry, in memory and
in a side file, writes them when it can, and never overwrites what another
program wrote; `RecordLock` keeps a second recorder off the file. That is the
file's side of a record, `imptools.record_file.RecordFile` (a `Recorder` is one);
the text helpers that write plays and annotations into a line are in
`imptools.record_lines`.

Nothing here names a game: the ruleset of the `Game` tag says which cards there
are (`Ruleset.deck`), who plays next (`Ruleset.to_play`), and, through its
simulator, which lines a hand needs before trick 1 (`Recorder.needs`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from imptools.check import judge_game
from imptools.files import write_atomically
from imptools.findings import Finding
from imptools.reader import read_games
from imptools.record import Game, Hand, Trick
from imptools.record_file import Kept, RecordBusy, RecordFile, RecordLock
from imptools.record_lines import annotate, blank_before, extend, last_note, new_record, remark_at, tag_line
from imptools.replay import replay
from imptools.rules import GameResult, HandResult, Ruleset, get_ruleset
from imptools.rules.steps import KNOWN_FROM_DEAL, Step
from imptools.writer import format_element

__all__ = [
    "LINE_KEYWORDS",
    "REFUSED",
    "Need",
    "Proposal",
    "RecordBusy",
    "RecordLock",
    "Recorder",
    "Status",
    "format_finding",
    "new_record",
    "tag_line",
]
"""The names the CLI, the screen and the tests take from here (the lock and the text helpers live beside it)."""

LINE_KEYWORDS = frozenset(
    {
        *("hand", "deal", "discard", "pass", "open", "imp", "trump", "contro", "recontro", "sant-vicenc"),
        *("turnup", "bid", "declare", "reveal", "score", "total"),
    }
)
"""First words of the notation's lines: an entry starting with one is taken as a whole line."""

_TRICK_LINE = re.compile(r"^\s*\d+\s*\.(\s|$)")
_IGNORED = frozenset({"incomplete", "not-scored"})
"""Codes an entry never shows: a record being kept is incomplete (and not scored) until its hand ends."""
REFUSED = frozenset({"syntax", "unknown-card", "unknown-player", "colour-mismatch"})
"""Codes of an entry that does not read, as `imp validate` words them: refused, never "recorded as played"."""
_PLACES = frozenset({"deal", "discard", "pass", "open", "imp"})
"""Lines that say where cards are: never asked for first."""
_NOTES = re.compile(r"\{[^}]*\}")
_MARK = re.compile(r"[!?]{1,2}$")
_PLAY = re.compile(r"^(?P<who>[^\s:{]+:)?(?P<card>\?|[^\s!?{]+)(?P<mark>[!?]{1,2})?(?P<rest>\s*\{.*)?$")


@dataclass(frozen=True, slots=True)
class Proposal:
    """What an entry would do: the file's lines with it, and the findings it would bring."""

    entry: str
    lines: tuple[str, ...]
    findings: tuple[Finding, ...]
    kind: str
    """`play` (a card for the player to move), or `line` (a line of the notation)."""
    refusal: str | None = None
    """Why the entry is not to be recorded at all (it does not read, or comes too early); None when it may be."""


@dataclass(frozen=True, slots=True)
class Need:
    """A line the open hand needs before trick 1: its first word and the player to write it (None: not known)."""

    kind: str
    player: str | None
    each: bool
    """Every player writes one (a bid), rather than one player for the hand (a trump call)."""


@dataclass(frozen=True, slots=True)
class _First:
    kind: str
    offset: int
    """Who writes the first such line, counted from the dealer (0: the dealer, 1: the next player)."""
    each: bool
    width: int
    """How many words follow the player's name on the line (a bid's three cards)."""


_LEARNT: dict[tuple[str | None, str | None, int], tuple[_First, ...]] = {}


def _asked_first(game: Game) -> tuple[_First, ...]:
    """The lines `game` asks for before trick 1, as its simulator writes a hand (learnt once per table)."""
    key = (game.game_name, game.tag("Variant"), len(game.players))
    if key not in _LEARNT:
        _LEARNT[key] = _learn(game)
    return _LEARNT[key]


def _learn(game: Game) -> tuple[_First, ...]:
    ruleset = get_ruleset(game.game_name)
    players = list(game.players)
    if ruleset is None or not players:
        return ()
    try:
        simulator = ruleset.simulator(game)
        dealt = simulator.deal(players[-1], Random(0)) if simulator is not None else None
    except (ValueError, KeyError, IndexError):  # a table the simulator does not deal: nothing asked first
        return ()
    if dealt is None:
        return ()
    names: dict[str, list[str]] = {}
    widths: dict[str, int] = {}
    for line in dealt.play_only:
        words = line.split()
        if len(words) > 1 and words[0] in LINE_KEYWORDS and words[0] not in _PLACES:
            names.setdefault(words[0], []).append(words[1].split(".")[0])
            widths.setdefault(words[0], len(words) - 2)
    out = []
    for kind, who in names.items():
        offset = (players.index(who[0]) + 1) % len(players) if who[0] in players else 0
        out.append(_First(kind, offset, sorted(who) == sorted(players), widths[kind]))
    return tuple(out)


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
    needs: Need | None = None
    """What the hand needs before trick 1 and has not got (`Recorder.needs`)."""

    def prompt(self) -> str:
        """The prompt's words: `trick 3, Betty: ` while a card is expected, `hand 1, bid Al: ` before."""
        if self.hand is None:
            return "hand 1: "
        if self.complete:
            return f"hand {self.hand} done, next: "
        if self.needs is not None:
            need = self.needs
            if need.each:
                return f"hand {self.hand}, {need.kind} {need.player}: "
            by = f" by {need.player}" if need.player else ""
            return f"hand {self.hand}, {need.kind}{by}: "
        who = f", {self.to_play}" if self.to_play else ""
        return f"trick {self.trick or 1}{who}: "


def format_finding(f: Finding) -> str:
    """A finding as `imp validate` words it: `error not-held: message` (its severity, code and message)."""
    severity = f.severity.value if f.severity is not None else "error"
    return f"{severity} {f.code}: {f.message}"


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
class Recorder(RecordFile):
    """One record being kept: its lines, the game they hold (the last of the file), and its file (`RecordFile`)."""

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
            data = Path(path).read_bytes()
            text = data.decode("utf-8")
            if text.strip() or not (game and players):
                rec = cls.from_text(text, path)
                clash = _contradicted(rec.game, game, players, variant)
                if clash is not None:
                    raise ValueError(f"{clash}; to carry this record on, leave the option out")
                rec.held(data)
                return rec
        if not game or not players:
            raise ValueError("a new record needs --game and --players")
        rec = cls.from_text(new_record(game, players, variant, tags), path)
        write_atomically(path, rec.text)  # a new record that cannot be written is refused: nothing typed yet
        rec.held(rec.text.encode("utf-8"))
        return rec

    def carried(self, text: str, entries: Sequence[Kept]) -> tuple[list[str], list[str]]:
        """`text` with `entries` entered on it in turn, while each brings the findings it brought here (`save`)."""
        theirs = Recorder.from_text(text, self.path)
        added: list[str] = []
        for entry, keys in entries:
            proposal = theirs.propose(entry)
            if proposal is None or tuple(_key(f) for f in proposal.findings) != keys:
                break
            theirs.lines = list(proposal.lines)
            added.append(entry)
        return theirs.lines, added

    # ------------------------------------------------------------------ reading the text

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
            None if complete else self.needs(),
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

    def needs(self) -> Need | None:
        """What the open hand needs before trick 1 and has not got (None once trick 1 is under way).

        What a game asks first is learnt from its own simulator (`_asked_first`): the
        lines a simulated hand writes before trick 1 that its score rests on, other
        than the deal. A line every player writes (a bid) is asked of each player in
        turn, from the one who writes the first; a line of one player (the trump
        call) is asked while the judge reports the hand's call missing (a `bad-call`
        on the `hand` line, naming no player), of the player who writes it, counted from the
        dealer, until a line of that kind is written (then the whole line is asked).
        """
        game, hand, hr = self._last()
        if game is None or hand is None or hr is None or hand.tricks or hr.complete:
            return None
        players = list(game.players)
        view = self._view(self.lines).lines
        written = [line.split() for line in view[hand.line :] if line.strip()]
        dealer = players.index(hr.dealer) if hr.dealer in players else len(players) - 1
        for first in _asked_first(game):
            who = [w[1].split(".")[0] for w in written if len(w) > 1 and w[0] == first.kind]
            if first.each:
                at = (dealer + first.offset) % len(players)
                for p in players[at:] + players[:at]:
                    if p not in who:
                        return Need(first.kind, p, True)
            elif any(f.code == "bad-call" and f.player is None and f.line == hand.line for f in hr.findings):
                return Need(first.kind, None if who else players[(dealer + first.offset) % len(players)], False)
        return None

    def propose(self, entry: str) -> Proposal | None:
        """The file with `entry` and the new findings it brings (None for an empty entry).

        An entry that does not read (a line that is not notation, a card not of the
        deck, a name not in `Players`) or that comes before what the hand needs first
        (Botifarra's trump line) gets a `refusal`: it is not a rule broken at the table,
        and is not to be recorded. Cards and lines are written in canonical spelling.
        """
        entry = entry.strip()
        if not entry:
            return None
        lines = list(self.lines)
        game, hand, hr = self._last()
        view = self._view(self.lines)
        done = hand is None or (hr is not None and hr.complete and self._open_trick(hand, self.steps()) is None)
        first = entry.split()[0].lower()
        opens = first in ("hand", "score", "total") or entry[0] in "[;{"
        if done and not opens and game is not None and _asked_first(game):
            ahead = list(self.lines)  # the next hand's line first, so that what it needs first is asked for
            blank_before(ahead)
            ahead.append(f"hand {(view.number or 0) + 1}")
            return Recorder(ahead, None, _cache=self._cache, _bases=self._bases).propose(entry)
        need = self.needs() if hand is not None else None
        word = entry.split()[0].lower()
        is_line = word in LINE_KEYWORDS or entry[0] in "[;" or bool(_TRICK_LINE.match(entry))
        is_note = entry.startswith("{")
        ruleset = get_ruleset(game.game_name) if game is not None else None
        if not is_line and not is_note and need is not None and need.player is not None:
            if need.each:  # what is typed is that player's line: `KD 9S 7H`, `3`, or `?` for one not known
                width = next((f.width for f in _asked_first(game) if f.kind == need.kind), 1) if game else 1
                entry = f"{need.kind} {need.player} {' '.join(['?'] * width) if entry == '?' else entry}"
                word, is_line = need.kind, True
            elif not self._is_card(entry.split()[0], game, ruleset):  # `oros`: the player's call
                entry = f"{need.kind} {need.player} {entry}"
                word, is_line = need.kind, True
        words = _NOTES.sub(" ", entry).split()
        if not is_line and not is_note and len(words) > 1:
            if all(self._is_card(w, game, ruleset) for w in words):
                why = f"one card an entry: `{entry}` is {len(words)} cards (enter them one by one, or a line `N. ...`)"
                return Proposal(entry, tuple(lines), (), "play", why)
            is_line = True  # not one play: judged as the line it would be (`dael Adam ...`: did you mean `deal`?)
        kind = "line" if is_line or is_note else "play"
        if need is not None and not need.each and (kind == "play" or _TRICK_LINE.match(entry)):
            whose = need.player or "NAME"
            why = f"hand {view.number} has no {need.kind} yet: its `{need.kind} {whose} ...` line comes before trick 1"
            return Proposal(entry, tuple(lines), (), kind, why)
        if kind == "play":
            entry = self._spelt(entry, game, ruleset)
        opens_hand = word == "hand" or entry[0] in "[;" or word == "total" or word == "score"
        if done and not opens_hand and not (is_note and hand is not None):
            blank_before(lines)
            lines.append(f"hand {(view.number or 0) + 1}")
            hand = None
        steps = self.steps() if hand is not None else []
        open_trick = self._open_trick(hand, steps) if hand is not None else None
        written: int | None = None
        if kind == "play" or (is_note and open_trick is not None):
            if open_trick is not None:
                i = open_trick.line - 1 + view.offset
                lines[i] = extend(lines[i], entry, open_trick)
            else:
                number = len(hand.tricks) + 1 if hand is not None else 1
                token = entry
                if ":" not in entry.split()[0] and game is not None and hand is not None:
                    leader = self.to_play()
                    if leader is not None:
                        token = f"{leader}:{entry}"
                lines.append(f"{number}. {token}")
        elif is_note and lines and lines[-1].strip() and not lines[-1].lstrip().startswith(("[", ";")):
            lines[-1] = annotate(lines[-1], entry)  # an annotation follows the element before it, on its line
        else:
            if word == "hand" or (entry[0] == "[" and lines and not lines[-1].lstrip().startswith(("[", ";"))):
                blank_before(lines)
            lines.append(entry)
            written = len(lines) - 1
        if written is not None and kind == "line":
            lines[written] = self._canonical(lines, written)
        new = self._new_findings(lines, whole=word == "total")
        if word == "hand" and written is not None:  # the judged view writes the hand's dealer out: its own line
            new += self._line_findings(lines, written + 1, {(f.code, f.message) for f in new})
        unread = [f for f in new if f.code in REFUSED]
        refusal = "; ".join(format_finding(f) for f in unread) if unread else None
        entry = lines[written].strip() if written is not None else entry
        return Proposal(entry, tuple(lines), tuple(new), kind, refusal)

    def _line_findings(self, lines: Sequence[str], number: int, seen: set[tuple[str, str]]) -> list[Finding]:
        """The findings that do not read on line `number` of the whole file (`unknown-player` for a dealer)."""
        judged = self._read(lines, self._bases)
        found = [
            *(judged.game.findings if judged.game is not None else ()),
            *(judged.result.all_findings() if judged.result is not None else ()),
        ]
        out: list[Finding] = []
        for f in found:
            if f.line == number and f.code in REFUSED and (f.code, f.message) not in seen:
                seen.add((f.code, f.message))
                out.append(f)
        return out

    @staticmethod
    def _is_card(text: str, game: Game | None, ruleset: Ruleset | None) -> bool:
        text = _MARK.sub("", text.split(":")[-1])
        if ruleset is None or game is None:
            return False
        return text == "?" or ruleset.check_card(text, game).canonical is not None

    @staticmethod
    def _spelt(entry: str, game: Game | None, ruleset: Ruleset | None) -> str:
        """A play with its card in canonical spelling (`qh` -> `QH`), as `imp fmt` writes it."""
        match = _PLAY.match(entry)
        if match is None or ruleset is None or game is None or match["card"] == "?":
            return entry
        canonical = ruleset.check_card(match["card"], game).canonical
        if canonical is None:
            return entry
        return f"{match['who'] or ''}{canonical}{match['mark'] or ''}{match['rest'] or ''}"

    def _canonical(self, lines: Sequence[str], i: int) -> str:
        """Line `i` of `lines` as `imp fmt` writes it, when it reads (else as typed)."""
        view = self._view(lines)
        game = self._read(view.lines, self._cache).game
        number = i + 1 - view.offset
        if game is None or any(f.line == number for f in game.findings if f.code == "syntax"):
            return lines[i]
        for h in game.hands:
            if h.line == number:
                if view.number is not None:  # the view's hand is hand 1 with its dealer written out: the file's
                    return lines[i] if "{" in lines[i] or ";" in lines[i] else " ".join(lines[i].split())
                return format_element(game, h)
            for element in h.lines:
                if getattr(element, "line", None) == number:
                    return format_element(game, element)
        return lines[i]

    def accept(self, proposal: Proposal) -> bool:
        """Make `proposal` the record, on disk before this returns when the disk allows (see `save`)."""
        self.lines = list(proposal.lines)
        self.unwritten.append((proposal.entry, tuple(_key(f) for f in proposal.findings)))
        return self.save()

    def enter(self, entry: str) -> Proposal | None:
        """Propose `entry` and accept it whatever it brings (a record keeps what happened)."""
        proposal = self.propose(entry)
        if proposal is not None:
            self.accept(proposal)
        return proposal

    def undo(self) -> str | None:
        """Take the last entry back (the last play of a trick, else the last line); what was taken, or None.

        When the file changed on disk since it was last read or written, it is read again
        first and nothing is taken back (the last entry may no longer be this recorder's).
        """
        if self.refresh():
            return None
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
        elif _HAND_LINE.match(line) and (at := last_note(line)) is not None:  # the file's own hand line
            mark = remark_at(line)
            end = len(line) if mark is None else mark
            taken = line[at:end].strip()
            self.lines[i] = f"{line[:at].rstrip()} {line[end:].strip()}".rstrip()
        elif (own := self._notes_at(hand, i + 1 - offset)) and line.rfind(own[-1]) > 0:
            cut = line.rfind(own[-1])  # an annotation added to a line is an entry of its own
            taken = own[-1]
            self.lines[i] = f"{line[:cut].rstrip()} {line[cut + len(taken) :].strip()}".rstrip()
        else:
            taken = line.strip()
            del self.lines[i:]
            while self.lines and not self.lines[-1].strip():  # the blank line before a hand goes with it
                self.lines.pop()
        if self.unwritten:
            self.unwritten.pop()
        self.save()
        return taken

    @staticmethod
    def _notes_at(hand: Hand, number: int) -> list[str]:
        """The annotations (as written, braces and all) of the element on line `number` of the hand, not a trick."""
        for element in hand.lines:
            if getattr(element, "line", None) == number and not isinstance(element, Trick):
                return [f"{{{a.text}}}" for a in getattr(element, "annotations", ())]
        return []


def _key(f: Finding) -> tuple[object, ...]:
    return (f.code, f.trick, f.player, f.message)
