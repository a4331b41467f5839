"""The reader: Imp notation text -> record model, streaming game by game (the lines assembled into games here).

Data flows: bytes -> decoded physical lines -> logical lines (a physical line,
joined with the next ones while a `{...}` annotation is open: `imptools.reader_lines`)
-> each logical line read by the fast path (`imptools.fastpath`) or parsed by Lark,
with a Transformer that builds the line's model object (`imptools.reader_grammar`,
which also describes, repairs and hints at bad lines) -> the assembler here, which
puts lines into hands and hands into games and yields each game as soon as the
next one starts.

A syntax error is a `Finding` (code `syntax`) on the game it sits in; the
reader skips the bad line and goes on, so one bad line never hides the rest.
The line itself is kept verbatim where it stands (`UnreadLine`), as is a line
read but with no place (before any `hand N`), so that nothing is lost.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import IO, Any, Union

from imptools.fastpath import fast_line
from imptools.findings import Finding
from imptools.reader_grammar import (
    NAME,
    describe_error,
    hand_line_slip,
    keyword_slip_line,
    line_notes,
    parse_line,
    repaired_line,
    slip_hint,
    tag_slip,
    without_commas,
)
from imptools.reader_grammar import RecordSyntaxError as RecordSyntaxError
from imptools.reader_grammar import line_parser as line_parser
from imptools.reader_lines import MAX_LINE as MAX_LINE
from imptools.reader_lines import MAX_NOTE_CHARS as MAX_NOTE_CHARS
from imptools.reader_lines import MAX_NOTE_LINES as MAX_NOTE_LINES
from imptools.reader_lines import NOT_TEXT, Physical, decode_lines, logical_lines, text_lines
from imptools.record import (
    Annotation,
    Bid,
    Call,
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
    ScoreLine,
    Tag,
    Trick,
    Trump,
    TurnUp,
    UnreadLine,
)
from imptools.slips import read_as_meant, tag_meant

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]

MAX_SYNTAX = 100
"""Syntax findings kept per game; past this, one more finding counts the rest."""
MAX_UNREAD_CHARS = 10_000_000
"""Lines that could not be read are kept verbatim (`UnreadLine`) up to this many characters per game; past it they
are counted in one finding (a file of that much text that is not a record is not kept in memory whole)."""
MAX_PLAYERS = 64
"""More names than this in `Players` is reported, and such a game is not judged (no game here seats more than 6)."""


# --------------------------------------------------------------------------- assembling games


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


def _once_a_hand(line: object) -> tuple[tuple[object, ...], str] | None:
    """What a line a hand has once before its tricks is about (a player's deal, discard, pass to another, open pack
    or bid, the turn-up, the trump chosen), with the reason a second one after the tricks ends the hand; None for
    other lines."""
    if isinstance(line, Deal):
        return ("deal", line.player.name, line.player.pack), f"{line.player.name} was dealt before its tricks"
    if isinstance(line, Discard):
        return ("discard", line.player.name), f"{line.player.name} discarded before its tricks"
    if isinstance(line, Pass):
        giver, receiver = line.giver.name, line.receiver.name
        return ("pass", giver, receiver), f"{giver} passed to {receiver} before its tricks"
    if isinstance(line, Open):
        return ("open", line.player.name), f"{line.player.name} opened a pack before its tricks"
    if isinstance(line, Bid):
        return ("bid", line.player.name), f"{line.player.name} bid before its tricks"
    if isinstance(line, TurnUp):
        return ("turnup",), "its card was turned up before its tricks"
    if isinstance(line, Trump):
        return ("trump",), "its trump was chosen before its tricks"
    return None


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

    def next_hand(self) -> int:
        """The number the next hand of the current game should have."""
        last = self.hand if self.hand is not None else (self.hands[-1] if self.hands else None)
        return last.number + 1 if last is not None else 1

    def _current_hand_number(self) -> int | None:
        return self.hand.number if self.hand is not None else None

    def _flush_findings(self) -> None:
        for f in self.findings:
            if f.message.startswith(NOT_TEXT):
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
            self.first_play_or_score = None

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
            if required not in tags and not any(tag_meant(t, tags) == required for t in tags):
                # (a tag one slip from it is read as meant where the game is judged, with its own finding)
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
        bad = next((n for n in names if not NAME.fullmatch(n) and "\ufffd" not in n), None)
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
        self.first_play_or_score = None
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
            if element.name == "Players" and "," in element.value:  # the comma repair, for the names
                names = " ".join(n for n in re.split(r"[\s,]+", element.value) if n)
                self.error(
                    f'Names in Players are separated by spaces, not commas: `[Players "{names}"]`',
                    element.line,
                    element.column,
                )
                element = replace(element, value=names)
            self._place_pending_comments()
            self.header.append(element)
            return
        if not self.started:
            # content before any tag: a game without tags; report it but keep reading
            yield from self._start_game(element.line)
        if isinstance(element, Hand):
            self._place_pending_comments()
            self._close_hand()
            expected = len(self.hands) + 1
            if element.number != expected:
                # read as the hand of its place; reported where the numbers break from the hand before, so that
                # one number written wrongly (1, 3, 3, 4) or hands numbered on from a wrong one (1, 3, 4, 5) is
                # one finding (docs/decisions.md, "Hand numbers")
                before = self.hands[-1] if self.hands else None
                last = (before.written if before.written is not None else before.number) if before else 0
                if element.number != last + 1:
                    self.error(
                        f"`hand {element.number}` where hand {expected} was expected: "
                        f"hands are numbered 1, 2, 3 ... in order; it is read as hand {expected}",
                        element.line,
                        element.column,
                    )
                element = replace(element, number=expected, written=element.number)
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
        ended = self._hand_ended_before(element)
        if ended is not None:  # the next hand's `hand` line left out: one finding, and the hand opens here
            due = len(self.hands) + 2
            if not (self.hand_lines and _unread(self.hand_lines[-1])):  # else the line not read was the slip
                self.error(
                    f"No `hand` line before this {_kind(element)} line: hand {due - 1} has ended ({ended}), so the "
                    f"line opens hand {due}, dealt by the player after hand {due - 1}'s dealer; write `hand {due}` "
                    "above it",
                    element.line,
                    element.column,
                )
            self._close_hand()
            self.hand = Hand(due, element.line, element.column, None)
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
            # reported where the order breaks: the tricks after the first one there follow it (one finding)
            prior = next((x for x in reversed(self.hand_lines) if isinstance(x, (Trick, ScoreLine))), None)
            score = prior if isinstance(prior, ScoreLine) else None
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
        self.hand_lines.append(element)

    def _hand_ended_before(self, element: Any) -> str | None:
        """Why `element` plainly starts the next hand though no `hand` line opened it, or None.

        The hand has ended where its tricks and then its `score` or `total` line came and a line of a hand's start
        (or trick 1) follows, or where a line a hand has once before its tricks comes again after them (a player
        dealt again or discarding again, a second turn-up, a trump chosen again: `_once_a_hand`; docs/decisions.md,
        "A `hand` line left out")."""
        if self.first_play_or_score is None:
            return None
        starts = isinstance(element, _BEFORE_TRICKS) or (isinstance(element, Trick) and element.number == 1)
        if not starts:
            return None
        score = next((x for x in reversed(self.hand_lines) if isinstance(x, ScoreLine)), None)
        if score is not None and any(isinstance(x, Trick) for x in self.hand_lines):
            return f"its {score.kind} line is line {score.line}"
        again = _once_a_hand(element)
        if again is not None:
            # the first trick or score line as it stands in the hand (an annotation may have replaced the element)
            first = next(i for i, x in enumerate(self.hand_lines) if isinstance(x, (Trick, ScoreLine)))
            if any((seen := _once_a_hand(x)) is not None and seen[0] == again[0] for x in self.hand_lines[:first]):
                return again[1]
        return None

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


# --------------------------------------------------------------------------- reading


def read_lines(lines: Iterator[Physical], path: str | None, findings: list[Finding]) -> Iterator[Game]:
    """The games of a file's physical lines (`imptools.reader_lines`), shown as `path` in findings.

    `findings` (empty) gathers the problems of lines until the game they sit in takes them.
    """
    asm = _Assembler(path, findings)
    for logical in logical_lines(lines, findings):
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
        commas = without_commas(text)
        if commas is not None:  # the fourth repair: one finding, then the line read without its commas
            text, column = commas
            shown = " ".join(text.split("\n", 1)[0].split(";", 1)[0].split())
            shown = re.sub(r"^([0-9]+\.)(?=\S)", r"\1 ", shown)  # `3.37, 33` should read `3. 37 33`
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
            element = parse_line(parser, text, logical.first_line)
        except (UnexpectedInput, RecordSyntaxError) as err:
            # the game a bad line sits in: a tag line after a hand starts a new game
            if stripped.startswith("[") and asm.started and (asm.hands or asm.hand is not None):
                yield from asm._start_game(logical.first_line)
            fixed = repaired_line(parser, text, logical.first_line, isinstance(err, UnexpectedInput))
            if fixed is None and stripped.startswith("["):
                fixed = tag_slip(text, logical.first_line)
            if fixed is None and asm.started:
                fixed = keyword_slip_line(parser, text, logical.first_line, asm.players())
            if fixed is None:
                hint = slip_hint(text, asm.players(), asm.next_trick())
                if hint is not None:
                    asm.error(hint[0], logical.first_line, hint[1])
                else:
                    e = err if isinstance(err, RecordSyntaxError) else describe_error(err, text, logical.first_line)
                    asm.error(e.message, e.line, e.column)
                opened = hand_line_slip(text, asm.next_hand(), logical.first_line) if asm.started else None
                if opened is not None:  # the slip reported, the hand still opens here
                    yield from asm.feed(opened, logical.raw)
                    asm._flush_findings()
                    continue
                asm.unread(logical.raw, logical.first_line)
                asm._flush_findings()
                continue
            element, message, column = fixed
            repaired = True
            asm.error(message, logical.first_line, column, element.number if isinstance(element, Trick) else None)
        if isinstance(element, (Tag, Hand)) and not repaired:
            asm.notation_seen = True
        notes, remark = line_notes(logical.first_line)
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
        yield from read_lines(text_lines(io.StringIO(source)), path, findings)
        return
    if isinstance(source, (str, os.PathLike)):
        name = path if path is not None else os.fspath(source)
        with open(source, "rb") as binary:
            yield from read_lines(decode_lines(binary), name, findings)
        return
    if isinstance(source, io.TextIOBase):
        yield from read_lines(text_lines(source), path, findings)
        return
    yield from read_lines(decode_lines(source), path, findings)  # type: ignore[arg-type]
