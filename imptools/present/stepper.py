"""`imp replay --step`: a full-screen stepper through the hands of a record (Textual).

The keys (also shown by `?`):

    Right / l        next play (next event)        Left / h         previous one
    Down / j / n     end of the next trick         Up / k / p       end of the previous trick
    PgDn / ]         next hand                     PgUp / [         previous hand
    Home / End       start / end of this hand
    f / F            next / previous finding       a                analysis layer on / off
    ?                these keys                    q / Esc          quit

Panels: the table (the trick being played, its leader marked), each player's
cards as far as the record shows them, the game's own state, the score sheet,
and the comments, marks and findings at this step. It needs no mouse and fits
an 80x24 terminal.

The analysis layer (`a`, or `imp replay --step --analyse`) adds what each card
cost (`imptools.analyse`): a hand not analysed yet is analysed from the trick on
screen, in a separate process so that the keys stay live and `q` never waits.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult, Pool
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from imptools.analyse import HandAnalysis, KnowingAsk, Task, run_task
from imptools.present.analysis import analysis_summary, choice_lines, cost_note
from imptools.present.cards import card_text, describe, finding_text, sort_cards, table_at
from imptools.record import Game
from imptools.replay import GameReplay, HandReplay
from imptools.rules.steps import KNOWN_FROM_DEAL

KEYS = """\
Right / l       next play            Left / h        previous play
Down / j / n    next trick           Up / k / p      previous trick
PgDn / ]        next hand            PgUp / [        previous hand
Home / End      start / end of the hand
f / F           next / previous finding
a               analysis: what each card cost, with every card visible
?               these keys           q / Esc         quit

Cards known from the deal are shown bright; cards known only
because the player plays them later are dim; `?` stands for
cards the record does not show. Press any key to go back."""


@dataclass(frozen=True, slots=True)
class Position:
    """One step of the record: game, hand and step indices into the replayed games."""

    game: int
    hand: int
    step: int


def positions(games: Sequence[GameReplay]) -> list[Position]:
    """Every step of every replayable hand, in record order."""
    return [
        Position(g, h, s)
        for g, game in enumerate(games)
        for h, hand in enumerate(game.hands)
        for s in range(len(hand.steps))
    ]


class HelpScreen(ModalScreen[None]):
    """The keys, over the stepper; any key goes back to the stepper (and only that: Esc or q does not quit)."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: 76; height: auto; border: round $accent; padding: 0 1; background: $panel; }
    """

    def compose(self) -> ComposeResult:
        yield Static(KEYS, id="keys")

    def on_key(self, event: events.Key) -> None:
        # The key closes the keys and does nothing else: Esc and q here must not reach the stepper's quit.
        event.stop()
        event.prevent_default()
        self.dismiss()


class Stepper(App[None]):
    """Step through the replayed hands of a record."""

    TITLE = "imp replay"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 42; }
    #right { width: 1fr; }
    .panel { border: round $primary 60%; border-title-color: $text-accent; padding: 0 1; height: auto; }
    #sheet { height: 1fr; }
    #handsbox { height: 1fr; }
    #hands { padding: 0; border: none; }
    #notes { height: auto; max-height: 10; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "move(1)", "Play", key_display="→"),
        Binding("left,h", "move(-1)", "Back", key_display="←", show=False),
        Binding("down,j,n", "trick(1)", "Trick", key_display="↓"),
        Binding("up,k,p", "trick(-1)", "Trick back", key_display="↑", show=False),
        Binding("pagedown,right_square_bracket", "hand(1)", "Hand", key_display="PgDn"),
        Binding("pageup,left_square_bracket", "hand(-1)", "Hand back", key_display="PgUp", show=False),
        Binding("home", "edge(0)", "Start", show=False),
        Binding("end", "edge(1)", "End", show=False),
        Binding("f", "finding(1)", "Finding"),
        Binding("F,shift+f", "finding(-1)", "Finding back", show=False),
        Binding("a", "analysis", "Analysis"),
        Binding("question_mark", "keys", "Keys", key_display="?"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(
        self,
        games: Sequence[GameReplay],
        start: int = 0,
        records: Sequence[Game] = (),
        knowing: KnowingAsk | None = None,
        choices: bool = True,
    ) -> None:
        super().__init__()
        self.knowing = knowing
        """What the analyses made here ask of the knowing analysis (`imp replay --step --analyse --knowing`)."""
        self.choices = choices
        """Whether the analyses made here from trick 1 value the choices before the first card (`--no-choices`)."""
        self.games = list(games)
        self.positions = positions(self.games)
        self.index = max(0, min(start, len(self.positions) - 1))
        self.records = {g.index: g for g in records}
        self.analyses: dict[tuple[int, int], HandAnalysis] = {
            (g, h): hand.analysis
            for g, game in enumerate(self.games)
            for h, hand in enumerate(game.hands)
            if hand.analysis is not None
        }
        self.layer = bool(self.analyses)
        self.pending: dict[tuple[int, int], tuple[int, AsyncResult[HandAnalysis]]] = {}
        self._pool: Pool | None = None

    # ----------------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table", classes="panel")
                yield Static(id="state", classes="panel")
                yield Static(id="sheet", classes="panel")
            with Vertical(id="right"):
                with VerticalScroll(id="handsbox", classes="panel"):
                    yield Static(id="hands")
                yield Static(id="notes", classes="panel")
        yield Footer()

    def on_mount(self) -> None:
        for name, label in (
            ("table", "Table"),
            ("state", "Game"),
            ("sheet", "Scores"),
            ("notes", "Notes"),
        ):
            self.query_one(f"#{name}", Static).border_title = label
        self.query_one("#handsbox", VerticalScroll).border_title = "Hands"
        self.set_interval(0.2, self._collect)
        self.show()

    def on_unmount(self) -> None:
        if self._pool is not None:
            self._pool.terminate()

    # ----------------------------------------------------------------------- where we are

    @property
    def position(self) -> Position:
        return self.positions[self.index]

    def _game(self) -> GameReplay:
        return self.games[self.position.game]

    def _hand(self) -> HandReplay:
        return self._game().hands[self.position.hand]

    def _go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.positions) - 1))
        self.show()

    def _where(self, wanted: int, step: int, test: object) -> None:
        """Move to the next (`step` 1) or previous (-1) position satisfying `test`, else to the last one tried."""
        assert callable(test)
        i = self.index + step
        while 0 <= i < len(self.positions):
            if test(self.positions[i]):
                self._go(i)
                return
            i += step
        self._go(wanted)

    def _same_hand(self, p: Position) -> bool:
        return (p.game, p.hand) == (self.position.game, self.position.hand)

    # ----------------------------------------------------------------------- keys

    def action_move(self, step: int) -> None:
        """Next or previous event."""
        self._go(self.index + step)

    def action_trick(self, step: int) -> None:
        """The end of the next or previous trick (or the hand's edge)."""

        def trick_end(p: Position) -> bool:
            hand = self.games[p.game].hands[p.hand]
            return hand.steps[p.step].event.kind == "trick"

        edge = len(self.positions) - 1 if step > 0 else 0
        self._where(edge, step, trick_end)

    def action_hand(self, step: int) -> None:
        """The first step of the next or previous hand."""
        here = (self.position.game, self.position.hand)
        if step > 0:
            nxt = next((i for i, p in enumerate(self.positions) if (p.game, p.hand) > here), self.index)
        else:
            start = next(i for i, p in enumerate(self.positions) if (p.game, p.hand) == here)
            before = [i for i, p in enumerate(self.positions[:start]) if p.step == 0]
            nxt = before[-1] if before else start
        self._go(nxt)

    def action_edge(self, end: int) -> None:
        """The first or last step of this hand."""
        same = [i for i, p in enumerate(self.positions) if self._same_hand(p)]
        self._go(same[-1] if end else same[0])

    def action_finding(self, step: int) -> None:
        """The next or previous step with a finding."""

        def has_finding(p: Position) -> bool:
            return bool(self.games[p.game].hands[p.hand].findings_at(p.step))

        i = self.index + step
        while 0 <= i < len(self.positions):
            if has_finding(self.positions[i]):
                self._go(i)
                return
            i += step
        self.notify("No more findings that way.", timeout=2)

    def action_analysis(self) -> None:
        """Show or hide what each card cost."""
        self.layer = not self.layer
        self.show()

    # ----------------------------------------------------------------------- the analysis layer

    def _analysis(self) -> HandAnalysis | None:
        return self.analyses.get((self.position.game, self.position.hand))

    def _want_analysis(self) -> None:
        """With the layer on, analyse this hand from the trick on screen when no analysis covers that trick yet."""
        key = (self.position.game, self.position.hand)
        record = self.records.get(self._game().index)
        trick = table_at(self._hand(), self.position.step).trick or 1
        done = self.analyses.get(key)
        if not self.layer or record is None or key in self.pending:
            return
        if done is not None and (done.skipped is not None or done.from_trick <= trick):
            return
        if self._pool is None:
            # the worker starts with the real stderr: Textual's stand-in for it has no file descriptor
            with contextlib.redirect_stderr(sys.__stderr__):
                self._pool = multiprocessing.get_context("spawn").Pool(1)
        task = Task(record, self._hand().number, trick, self.knowing, choices=self.choices)
        self.pending[key] = (trick, self._pool.apply_async(run_task, (task,)))

    def _collect(self) -> None:
        """Take in the analyses that have finished."""
        finished = [k for k, (_, r) in self.pending.items() if r.ready()]
        for key in finished:
            _, result = self.pending.pop(key)
            try:
                self.analyses[key] = result.get()
            except Exception as exc:  # the search failed: say so rather than wait for ever
                self.notify(f"The analysis failed: {exc}", severity="error", timeout=5)
        if finished:
            self.show()

    def analysis_text(self) -> Text | None:
        """The layer's line for this step: the play's cost, or why there is none (None with the layer off)."""
        if not self.layer:
            return None
        key = (self.position.game, self.position.hand)
        hand, i = self._hand(), self.position.step
        if key in self.pending:
            return Text(f"analysing from trick {self.pending[key][0]}…", style="dim italic")
        a = self._analysis()
        if a is None:
            if self._game().index not in self.records:
                return Text("no analysis for this hand", style="dim")
            return Text("analysis: step to a play", style="dim")
        if a.skipped is not None:
            return Text(f"not analysed: {a.skipped}", style="dim")
        event = hand.steps[i].event
        cost = a.cost_of(event.trick, event.player) if event.kind == "play" else None
        if cost is not None:
            return cost_note(cost)
        if i == len(hand.steps) - 1:
            return analysis_summary(a)
        if a.choices and not any(s.event.kind == "play" for s in hand.steps[: i + 1]):
            return Text("\n".join(choice_lines(a.choices)), style="magenta")
        return None

    def action_keys(self) -> None:
        """Show the keys."""
        self.push_screen(HelpScreen())

    # ----------------------------------------------------------------------- drawing

    def show(self) -> None:
        """Fill every panel for the current step (and, with the analysis layer on, ask for this hand's analysis)."""
        self._want_analysis()
        game, hand, i = self._game(), self._hand(), self.position.step
        step = hand.steps[i]
        trick = table_at(hand, i)
        status = Text.assemble(
            (f"Game {game.index} · hand {hand.number}", "bold"),
            f" · dealer {hand.dealer or '?'}",
            f" · trick {trick.trick}" if trick.trick else "",
            f" · step {i + 1}/{len(hand.steps)} · ",
            (describe(step.event, game), "bold"),
        )
        if self.layer:
            status.append(" · analysis", style="magenta")
        self.query_one("#status", Static).update(status)
        self.query_one("#table", Static).update(self.table_panel())
        self.query_one("#state", Static).update(self.state_panel())
        self.query_one("#sheet", Static).update(self.sheet_panel())
        self.query_one("#hands", Static).update(self.hands_panel())
        self.query_one("#notes", Static).update(self.notes_panel())
        self.query_one("#table", Static).border_title = f"Trick {trick.trick}" if trick.trick else "Table"

    def table_panel(self) -> RenderableType:
        """The trick on the table: each player's card in seat order, the leader marked ▸ and the winner ★."""
        game, hand, i = self._game(), self._hand(), self.position.step
        view = table_at(hand, i)
        played = dict(view.plays)
        out = Text()
        width = max(len(p) for p in game.players)
        for p in game.players:
            mark = "★" if p == view.winner else "▸" if p == view.leader else " "
            out.append(f"{mark} ", style="bold yellow")
            out.append(f"{p:<{width}}  ", style="bold" if p in played else "dim")
            if p in played:
                out.append_text(card_text(played[p], game))
            out.append("\n")
        if view.winner:
            out.append(f"{view.winner} takes the trick", style="bold")
        elif not view.plays:
            out.append("no trick on the table", style="dim")
        return out

    def state_panel(self) -> RenderableType:
        """The game's own state (its detail lines) and the tricks won so far."""
        state = self._hand().steps[self.position.step].state
        out = Text()
        for label, text in state.detail.lines():
            out.append(f"{label} ", style="bold green")
            out.append(f"{text}\n")
        if state.tricks_won:
            won = "  ".join(f"{p} {n}" for p, n in state.tricks_won.items())
            out.append("tricks ", style="bold")
            out.append(won)
        return out

    def sheet_panel(self) -> RenderableType:
        """The score sheet of this game so far: each hand's scores, the running totals below."""
        game, hand, i = self._game(), self._hand(), self.position.step
        if not game.rules_checked:
            return Text("scores are not computed for this game yet", style="dim")
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("#", justify="right", style="dim")
        for p in game.players:
            table.add_column(p[:6], justify="right")
        totals: dict[str, int] | None = None
        for h in game.hands[: self.position.hand + 1]:
            done = h is not hand or i == len(hand.steps) - 1
            if h.scores is not None and done:
                table.add_row(str(h.number), *(f"{h.scores.get(p, 0):+d}" for p in game.players))
                totals = dict(h.totals) if h.totals is not None else totals
            else:
                table.add_row(str(h.number), *("…" if h is hand else "-" for _ in game.players))
        if totals is None:
            before = [h for h in game.hands[: self.position.hand] if h.totals is not None]
            totals = dict(before[-1].totals) if before and before[-1].totals is not None else None
        if totals is not None:
            table.add_row("Σ", *(Text(str(totals.get(p, 0)), style="bold") for p in game.players))
        return table

    def hands_panel(self) -> RenderableType:
        """Each player's cards as far as the record shows them, and the suits they have shown they lack.

        Piles laid out on the table show as their top cards, each with how many cards it
        holds. With more than four players each player's cards follow the name on the same line, so
        that six hands fit an 80x24 terminal; the panel scrolls where they still do not.
        """
        game, hand, i = self._game(), self._hand(), self.position.step
        state = hand.steps[i].state
        known = state.known_from or {}
        compact = len(game.players) > 4
        stacks = state.stacks or {}
        parts: list[RenderableType] = []
        for p in game.players:
            line = Text(f"{p}", style="bold")
            from_deal = known.get(p) == KNOWN_FROM_DEAL
            piles = stacks.get(p, ())
            stacked = {c for pile in piles for c in pile}
            cards = sort_cards(set(state.holdings.get(p, ())) - stacked, game)
            held = len(cards) + len(stacked)
            line.append(f"  ({held}{'' if from_deal or hand.complete else '+?'})", style="dim")
            voids = sorted(state.voids.get(p, ()))
            if voids:
                line.append("  void " + " ".join(voids), style="red")
            if compact:
                line.append("  ")
            else:
                parts.append(line)
                line = Text()
            suit: str | None = None
            for c in cards:
                if game.face(c).suit != suit and suit is not None:
                    line.append(" ")
                suit = game.face(c).suit
                face = card_text(c, game)
                if not from_deal:
                    face.stylize("dim italic")
                line.append_text(face)
                line.append(" ")
            if not cards and not piles:
                line.append("none" if from_deal or hand.complete else "?", style="dim")
            if cards or not piles or compact:
                parts.append(line if compact else Padding(line, (0, 0, 0, 2)))
            if piles:
                # piles on the table: each top card, and how many cards the pile holds
                tops = Text("piles ", style="dim")
                for pile in piles:
                    tops.append_text(card_text(pile[0], game))
                    tops.append(f"/{len(pile)} ", style="dim")
                parts.append(Padding(tops, (0, 0, 0, 2)))
        return Group(*parts)

    def notes_panel(self) -> RenderableType:
        """What happened at this step, its comments and mark, and the findings about it."""
        game, hand, i = self._game(), self._hand(), self.position.step
        event = hand.steps[i].event
        out = Text(describe(event, game), style="bold")
        if event.mark:
            out.append(f"  mark {event.mark}", style="magenta")
        notes = list(event.notes) + (list(hand.notes) if i == 0 else [])
        for n in notes:
            out.append("\n{" + n + "}", style="italic cyan")
        for f in hand.findings_at(i):
            out.append("\n")
            out.append_text(finding_text(f))
        if i == len(hand.steps) - 1 and hand.scores is not None:
            out.append("\nscore  " + "  ".join(f"{p} {v}" for p, v in hand.scores.items()))
        layer = self.analysis_text()
        if layer is not None:
            out.append("\n")
            out.append_text(layer)
        return out


def start_index(games: Sequence[GameReplay], hand: int | None, trick: int | None) -> int:
    """Where the stepper opens: the first step of hand `hand` (of trick `trick`), else the very first step."""
    for k, p in enumerate(positions(games)):
        h = games[p.game].hands[p.hand]
        if hand is not None and h.number != hand:
            continue
        if trick is None or h.steps[p.step].event.trick == trick:
            return k
    return 0


def run_stepper(
    games: Sequence[GameReplay],
    hand: int | None = None,
    trick: int | None = None,
    records: Sequence[Game] = (),
    knowing: KnowingAsk | None = None,
    choices: bool = True,
) -> None:
    """Run the stepper full-screen until the player quits (`records`: the games as read, for the analysis layer;
    `knowing`: what its analyses ask of the knowing analysis; `choices`: whether they value the choices before the
    first card)."""
    Stepper(games, start_index(games, hand, trick), records, knowing, choices).run()
