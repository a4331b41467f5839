"""`imp record` at the terminal: the status shown above each prompt, completion, and the prompt loop.

Everything the session knows comes from `imptools.recorder.Recorder`; this
module only shows it and asks (prompt_toolkit for the line editor and its
completion, Rich for the status and the score sheet).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from rich.console import Console, Group, RenderableType
from rich.text import Text

from imptools.present.score_sheet import score_sheet
from imptools.recorder import LINE_KEYWORDS, REFUSED, Recorder, Status, format_finding

COMMANDS = ("undo", "save", "quit", "help")
"""Words the prompt takes that are not entries of the record."""

_NAMED = frozenset({"deal", "discard", "pass", "open", "trump", "contro", "recontro", "sant-vicenc", "bid"})
_NAMED |= {"declare", "reveal", "score", "total"}

HELP = (
    "Type a card for the player named in the prompt (Tab offers the cards he may hold), "
    "or any line of the notation as written: hand 2 dealer Adam, deal Adam 2 4 6 ..., "
    "discard, pass A > B 7, trump, contro, bid, declare, score, {a comment}, ; a remark.\n"
    "undo takes the last entry back; save writes the record again after the disk refused it; "
    "quit or Ctrl-D stops (every entry is saved as it is accepted)."
)


class RecordCompleter(Completer):
    """Tab completion: cards the player to move may hold, the notation's keywords, the players' names."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        words = before.split()
        current = "" if before.endswith(" ") or not words else words[-1]
        done = words if current == "" else words[:-1]
        for option in self.options(done):
            if option.lower().startswith(current.lower()):
                yield Completion(option, start_position=-len(current))

    def options(self, done: list[str]) -> list[str]:
        """What may come after the words `done` of the line."""
        rec = self.recorder
        game = rec.game
        players = list(game.players) if game is not None else []
        if not done:
            return [*rec.choices(), *COMMANDS, *sorted(LINE_KEYWORDS)]
        first = done[0].lower()
        if first in _NAMED and len(done) == 1:
            return players
        if first in ("deal", "discard", "bid") and len(done) >= 2:
            player = done[1].split(".")[0]
            return [c for c in rec.choices(player) if c not in done] if first != "deal" else rec.choices(None)
        if first == "pass" and len(done) == 2:
            return [">"]
        if first == "pass" and len(done) == 3:
            return players
        if first == "pass" and len(done) == 4:
            return rec.choices(done[1])
        if first in ("score", "total"):
            return players if len(done) % 2 == 1 else []
        return []


def status_view(rec: Recorder, sheet: bool = False) -> RenderableType:
    """The status printed above each prompt: the running totals (with `sheet`, the whole score sheet),
    the hand's state, the last trick and the trick so far."""
    st = rec.status()
    parts: list[RenderableType] = []
    if sheet:
        game, result = rec.whole()
        if game is not None and result is not None and game.hands:
            parts.append(score_sheet(game, result))
    if st.hand is not None:
        head = Text(f"hand {st.hand}", style="bold")
        if st.dealer:
            head.append(f" · dealer {st.dealer}", style="")
        if st.totals and not st.complete:
            head.append("  ·  totals " + ", ".join(f"{p} {v}" for p, v in st.totals.items()), style="")
        parts.append(head)
    for label, value in st.detail:
        parts.append(Text.assemble((f"  {label}: ", "cyan"), value))
    for player, cards in st.holdings.items():
        parts.append(Text.assemble((f"  {player} holds: ", "dim"), " ".join(cards) or "-"))
    if st.last_trick is not None:
        number, winner, plays = st.last_trick
        won = f" → {winner}" if winner else ""
        parts.append(Text(f"  trick {number}: " + "  ".join(f"{p} {c}" for p, c in plays) + won, style="dim"))
    if st.trick_so_far:
        parts.append(Text("  on the table: " + "  ".join(f"{p} {c}" for p, c in st.trick_so_far), style="bold"))
    if st.complete:
        parts.append(end_view(st))
    return Group(*parts)


def end_view(st: Status) -> RenderableType:
    """The end of a hand: what it turned up (the imp's trick ...), its scores and the running totals."""
    out = Text()
    if st.end_text:
        out.append(f"  {st.end_text}: {' '.join(st.end_cards)}\n")
    if st.scores is not None:
        out.append("  scores: " + ", ".join(f"{p} {v}" for p, v in st.scores.items()) + "\n", style="bold")
    else:
        out.append("  this hand cannot be scored as recorded\n", style="yellow")
    if st.totals:
        out.append("  totals: " + ", ".join(f"{p} {v}" for p, v in st.totals.items()))
    return out


def toolbar(rec: Recorder) -> Callable[[], str]:
    """The bottom toolbar: where the record stands and the game's state in one line."""

    def text() -> str:
        st = rec.status()
        bits = [f"{rec.path}"]
        if st.hand is not None:
            bits.append(f"hand {st.hand}")
        bits += [f"{label} {value}" for label, value in st.detail]
        bits.append("Tab: cards · undo · quit")
        return " │ ".join(bits)

    return text


def _yes(session: PromptSession[str], question: str, default: bool) -> bool:
    try:
        answer = session.prompt(question, completer=None).strip().lower()
    except (EOFError, KeyboardInterrupt):
        return False
    return default if not answer else answer.startswith("y")


def _news(rec: Recorder, console: Console) -> None:
    """What happened to the file (a fault of the disk, a change by another program), in yellow."""
    for said in rec.news():
        console.print(Text(f"  {said}", style="yellow"))


def run_recording(rec: Recorder, console: Console | None = None) -> bool:
    """Ask for entries until quit or end of input; True when every accepted entry is in the file at the end.

    Every accepted entry is on disk before the next prompt when the disk allows; when it
    does not, the entries are kept (and copied to a side file) and written with the next
    entry or `save`; at the end, a record that could be written nowhere is printed.
    """
    console = console or Console(highlight=False)
    session: PromptSession[str] = PromptSession(
        completer=RecordCompleter(rec), bottom_toolbar=toolbar(rec), complete_while_typing=False
    )
    _, whole = rec.whole()
    old = [f for f in whole.all_findings() if f.code not in ("incomplete", "not-scored")] if whole is not None else []
    if old:
        console.print(f"[yellow]{len(old)} finding(s) in the record so far (imp validate shows them)[/]")
    console.print(status_view(rec, sheet=True))
    try:
        _loop(rec, session, console)
    except Exception:  # a fault of imptools itself: the record still goes somewhere before the error is told
        _finish(rec, console)
        raise
    return _finish(rec, console)


def _loop(rec: Recorder, session: PromptSession[str], console: Console) -> None:
    while True:
        if rec.refresh():
            _news(rec, console)
            console.print(status_view(rec))
        _news(rec, console)
        try:
            entry = session.prompt(rec.status().prompt()).strip()
        except EOFError:
            break
        except KeyboardInterrupt:
            continue
        if entry in ("quit", "exit"):
            break
        if entry == "help":
            console.print(HELP)
            continue
        if entry == "save":
            saved = rec.save()
            _news(rec, console)
            console.print(f"saved {rec.path}" if saved else "not written yet: the entries are kept")
            continue
        if entry == "undo":
            taken = rec.undo()
            _news(rec, console)
            console.print(f"taken back: {taken}" if taken else "nothing taken back")
            console.print(status_view(rec))
            continue
        proposal = rec.propose(entry)
        if proposal is None:
            continue
        if proposal.refusal is not None:
            unread = [format_finding(f) for f in proposal.findings if f.code in REFUSED]
            for words in unread or [proposal.refusal]:
                console.print(Text(f"  {words}", style="red"))
            players = " ".join(rec.status().players)
            if any(f.code == "unknown-player" for f in proposal.findings) and players:
                console.print(f"not recorded: enter it again (the players are {players})")
            else:
                console.print("not recorded: enter it again")
            continue
        if proposal.findings:
            for f in proposal.findings:
                console.print(Text(f"  {format_finding(f)}", style="red" if f.is_error else "yellow"))
            if not _yes(session, "record it as played? [y/N] ", False):
                console.print("not recorded: enter it again")
                continue
        rec.accept(proposal)
        _news(rec, console)
        st = rec.status()
        if st.complete and proposal.kind == "play":
            console.print(status_view(rec, sheet=True))
            line = rec.score_line()
            if line is not None and _yes(session, f"write `{line}`? [Y/n] ", True):
                rec.enter(line)
                _news(rec, console)
                console.print(f"written: {line}")
            continue
        console.print(status_view(rec))


def _finish(rec: Recorder, console: Console) -> bool:
    """The last word: saved, or where the entries the file could not take are (printed when nowhere)."""
    if rec.unwritten:
        rec.save()
        _news(rec, console)
    if not rec.unwritten:
        console.print(f"saved {rec.path}")
        return True
    n = len(rec.unwritten)
    lacks = f"{rec.path} lacks the last {'entry' if n == 1 else f'{n} entries'}"
    if rec.side is not None:
        console.print(Text(f"{lacks}: the whole record is in {rec.side}", style="red"))
    else:
        console.print(Text(f"{lacks}, and no copy could be written: here is the whole record", style="red"))
        console.print(Text(rec.text), soft_wrap=True)
    return False
