"""The annotated replay of `imp replay`: hand by hand, trick by trick, as Rich renderables.

Each hand shows its dealer, the lines before the play (deal, discards, passes,
calls), then every trick play by play with marks, `{}` comments and the findings
about each play, the game's own state before and after the trick (its
`detail.lines()`), and at the end the cards turned over, the scores and the
running totals. With `colour` False the cards carry their suit letter instead of
their colour, for pipes and `NO_COLOR`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from imptools.findings import Finding
from imptools.present.analysis import analysis_summary, choice_lines, cost_note
from imptools.present.cards import card_label, card_text, describe, finding_text, plain_card, title
from imptools.replay import GameReplay, HandReplay
from imptools.rules.steps import Step

_BEFORE_PLAY = ("play", "trick", "end")
_CARD_LINES = ("deal", "discard", "pass")
"""Lines before the play shown as their cards; any other (calls, bids ...) is shown in words."""


def _detail(step: Step) -> list[tuple[str, str]]:
    return step.state.detail.lines()


def _running(steps: Sequence[Step]) -> set[str]:
    """The labels of the detail lines that change during the play (points, tricks, bottle); the rest are settled."""
    seen: dict[str, set[str]] = {}
    plays = [s for s in steps if s.event.kind in ("play", "trick")]
    for step in plays:
        lines = dict(_detail(step))
        for label in {*lines, *seen}:
            seen.setdefault(label, set()).add(lines.get(label, ""))
    return {label for label, texts in seen.items() if len(texts) > 1}


def _joined(lines: Sequence[tuple[str, str]]) -> str:
    return " · ".join(f"{label} {text}" for label, text in lines)


def _notes_and_findings(notes: Sequence[str], findings: Sequence[Finding]) -> Text:
    out = Text()
    for n in notes:
        out.append(("\n" if out else "") + "{" + n + "}", style="italic cyan")
    for f in findings:
        if out:
            out.append("\n")
        out.append_text(finding_text(f))
    return out


def _scores_line(label: str, scores: dict[str, int], players: Sequence[str]) -> Text:
    out = Text(f"{label:<7}", style="bold")
    out.append("  ".join(f"{p} {scores[p]}" for p in players if p in scores))
    return out


def _grid() -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    return grid


def hand_renderable(game: GameReplay, hand: HandReplay, colour: bool, trick: int | None = None) -> RenderableType:
    """One hand, or only its trick `trick`, annotated."""
    parts: list[RenderableType] = [
        Rule(Text(f"Hand {hand.number} · dealer {hand.dealer or '?'}", style="bold"), align="left", style="dim")
    ]
    if hand.notes or hand.opening:
        parts.append(Padding(_notes_and_findings(hand.notes, hand.opening), (0, 0, 0, 2)))
    if hand.analysis is not None and hand.analysis.choices and trick is None:
        lines = choice_lines(hand.analysis.choices)
        parts.append(Padding(Text("\n".join(lines), style="magenta"), (0, 0, 0, 2)))
    if not hand.steps:
        parts.append(Padding(Text("This hand cannot be replayed.", style="dim"), (0, 0, 0, 2)))
        return Group(*parts)
    steps = hand.steps
    before = _grid()
    for i, step in enumerate(steps):
        e = step.event
        if e.kind in _BEFORE_PLAY:
            continue
        cards = Text(" ").join(card_label(c, game, colour) for c in e.cards)
        if e.kind not in _CARD_LINES:
            # a call, a bid, a declaration ... in words: `Maud | declares and reveals their hand`
            said = describe(e, game)
            cards = Text(said[len(e.player) + 1 :] if e.player and said.startswith(e.player + " ") else said)
            for c in e.cards if colour else ():
                word = re.escape(plain_card(c, game))
                cards.highlight_regex(rf"(?<![\w.]){word}(?![\w.])", card_text(c, game).style)
        elif e.kind == "pass":
            cards = Text.assemble(cards, f" > {e.text}")
        elif e.text:
            cards = Text.assemble(cards, " " if cards else "", e.text)
        extra = _notes_and_findings(e.notes, hand.findings[i])
        before.add_row(Text(e.kind, style="dim"), e.player or "", Text.assemble(cards, "\n" if extra else "", extra))
    if trick is None and before.row_count:
        parts.append(Padding(before, (0, 0, 0, 2)))
    running = _running(steps)
    shown: dict[str, str] = {}
    for number, indices in _tricks(steps):
        settled = [x for x in _detail(steps[indices[0]]) if x[0] not in running]
        if trick is None or number == trick:
            new = [x for x in settled if shown.get(x[0]) != x[1]] if trick is None else settled
            if new:
                parts.append(Padding(Text(_joined(new), style="green"), (1, 0, 0, 2)))
            parts.append(_trick_block(game, hand, number, indices, colour, running))
        shown.update(settled)
    if trick is None:
        parts.append(_hand_end(game, hand, colour))
    return Group(*parts)


def _tricks(steps: Sequence[Step]) -> Iterator[tuple[int, list[int]]]:
    """Each trick's number and the indices of its plays and its end, in order."""
    current: int | None = None
    indices: list[int] = []
    for i, s in enumerate(steps):
        if s.event.kind not in ("play", "trick") or s.event.trick is None:
            continue
        if s.event.trick != current and indices:
            assert current is not None
            yield current, indices
            indices = []
        current = s.event.trick
        indices.append(i)
    if indices and current is not None:
        yield current, indices


def _trick_block(
    game: GameReplay, hand: HandReplay, number: int, indices: list[int], colour: bool, running: set[str]
) -> RenderableType:
    """A trick: its header with the detail lines that change trick by trick, its plays, who takes it, what changed."""
    steps = hand.steps
    first = steps[indices[0]]
    head = Text(f"Trick {number}", style="bold")
    if first.event.kind == "play":
        head.append(f" · {first.event.player} leads", style="dim")
    now = [x for x in _detail(first) if x[0] in running]
    if now:
        head.append(" · " + _joined(now), style="green")
    grid = _grid()
    end: RenderableType | None = None
    for i in indices:
        e = steps[i].event
        if e.kind == "play":
            card = card_label(e.cards[0], game, colour, e.mark) if e.cards else Text("?")
            if e.text:  # the record wrote `?` for it
                card = Text.assemble(card, (f" ({e.text})", "dim"))
            extra = _notes_and_findings(e.notes, hand.findings[i])
            cost = hand.cost_at(i)
            if cost is not None:
                extra = Text.assemble(cost_note(cost), "\n" if extra else "", extra)
            grid.add_row(e.player or "?", card, extra)
        else:
            line = Text(f"{e.player} takes the trick" if e.player else "the trick ends", style="bold")
            changed = [x for x in _detail(steps[i]) if x not in _detail(first)]
            if changed:
                line.append(" · " + _joined(changed), style="green")
            extra = _notes_and_findings(e.notes, hand.findings[i])
            end = Table.grid(padding=(0, 1))
            end.add_column(no_wrap=True)
            end.add_column()
            end.add_row(Text("→", style="bold"), Group(line, extra) if extra else line)
    body: list[RenderableType] = [head, Padding(grid, (0, 0, 0, 2))]
    if end is not None:
        body.append(Padding(end, (0, 0, 0, 2)))
    return Padding(Group(*body), (1, 0, 0, 2))


def _hand_end(game: GameReplay, hand: HandReplay, colour: bool) -> RenderableType:
    last = hand.steps[-1]
    e = last.event
    parts: list[RenderableType] = []
    if e.kind == "end" and e.cards:
        what = e.text or "turned over"
        shown = Text(" ").join(card_label(c, game, colour) for c in e.cards)
        parts.append(Text.assemble((what[:1].upper() + what[1:], "bold"), ": ", shown))
    for label, text in hand.facts:
        parts.append(Text.assemble((label, "bold"), " ", text))
    if hand.scores is not None:
        parts.append(_scores_line("Score", dict(hand.scores), game.players))
    elif game.rules_checked:
        parts.append(Text("Not scored: " + ("the hand is incomplete" if not hand.complete else "it cannot be scored")))
    if hand.totals is not None:
        parts.append(_scores_line("Total", dict(hand.totals), game.players))
    if hand.analysis is not None:
        parts.append(analysis_summary(hand.analysis))
    if e.kind != "end" and hand.findings[-1]:
        parts.append(_notes_and_findings((), hand.findings[-1]))
    if hand.closing:
        parts.append(_notes_and_findings((), hand.closing))
    return Padding(Group(*parts), (1, 0, 0, 2))


def game_renderable(
    game: GameReplay, colour: bool, hand: int | None = None, trick: int | None = None
) -> RenderableType:
    """A game's title, players and findings, then its hands (or only hand `hand`, trick `trick`)."""
    parts: list[RenderableType] = [Text(title(game), style="bold"), Text("Players: " + ", ".join(game.players))]
    if game.findings:
        parts.append(_notes_and_findings((), game.findings))
    if not game.replayable:
        name = game.game_name or "this game"
        parts.append(Text(f"Nothing to replay: imptools cannot step through {name} hands yet."))
        return Group(*parts)
    for h in game.hands:
        if hand is None or h.number == hand:
            parts.append(Text())
            parts.append(hand_renderable(game, h, colour, trick))
    if hand is None and trick is None and game.rules_checked and (len(game.hands) > 1 or game.over):
        parts.append(Text())
        if game.over and game.winners:
            parts.append(Text(f"Winner: {' and '.join(game.winners)}", style="bold green"))
        elif game.totals:
            parts.append(_scores_line("Totals", dict(game.totals), game.players))
    return Group(*parts)


def print_replay(
    console: Console, games: Sequence[GameReplay], hand: int | None = None, trick: int | None = None
) -> None:
    """Print the annotated replay of `games`, in colour when the console shows colour."""
    colour = console.color_system is not None and not console.no_color
    for k, game in enumerate(games):
        if k:
            console.print()
        if colour:
            console.print(game_renderable(game, colour, hand, trick))
            continue
        with console.capture() as captured:
            console.print(game_renderable(game, colour, hand, trick))
        console.file.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def replay_svg(games: Sequence[GameReplay], hand: int | None = None, trick: int | None = None) -> str:
    """The annotated replay in colour as an SVG picture (Rich's terminal export), 100 columns wide."""
    import io

    console = Console(record=True, width=100, force_terminal=True, color_system="truecolor", file=io.StringIO())
    print_replay(console, games, hand, trick)
    name = games[0].path if games else None
    svg = console.export_svg(title=f"imp replay {name or ''}".strip())
    # self-contained: the web fonts Rich names fall back to the reader's local monospace font
    svg = re.sub(r',\s*url\("https?://[^"]*"\) format\("[^"]*"\)', "", svg)
    return re.sub(r"<!--[^>]*https?://[^>]*-->", "", svg)


__all__ = ["game_renderable", "hand_renderable", "plain_card", "print_replay", "replay_svg"]
