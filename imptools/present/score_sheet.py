"""The score sheet of `imp score`: hands as rows, players (or sides) as columns, running totals.

What a game adds of its own (trump and calls, a multiplier, a race to a target)
comes from the ruleset as labelled notes, shown as they come: one column per
label of the hands' notes, one line per note of the game.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from imptools.record import Game
from imptools.rules.base import GameResult


def _recorded(game: Game) -> dict[int, tuple[dict[str, int], dict[str, int]]]:
    """Per hand, the `score` and `total` values written in the record."""
    out: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    for hand in game.hands:
        scores = {e.player.name: e.value for line in hand.scores for e in line.entries}
        totals = {e.player.name: e.value for line in hand.totals for e in line.entries}
        out[hand.number] = (scores, totals)
    return out


def score_sheet(game: Game, result: GameResult) -> RenderableType:
    """A Rich table of one game; recorded values that disagree are marked in red with the recorded number.

    What the ruleset says of each hand is shown as it comes: a player's note (how
    the score is made up) under the score, the hand's notes in a column each, before the scores.
    """
    title_bits = [b for b in (game.tag("Event"), game.tag("Date")) if b]
    title = f"{game.path or '<text>'} · game {game.index} · {game.game_name or '?'}"
    if game.tag("Variant"):
        title += f" ({game.tag('Variant')})"
    if title_bits:
        title += " · " + ", ".join(title_bits)
    if not game.tags and not game.hands:
        # an empty file, or text with no notation in it: the reader's one finding says which
        why = f" ({game.findings[0].message})" if game.findings else ""
        return Text(f"{game.path or '<text>'}: the file holds no game{why}", style="yellow")
    if not result.rules_checked:
        table_problem = next((f.message for f in result.findings if f.code == "bad-players"), None)
        if table_problem is not None:
            return Text(f"{title}: not scored: {table_problem}", style="yellow")
        return Text(f"{title}: scores for this game are not computed yet", style="yellow")
    table = Table(title=title, title_justify="left", show_footer=True)
    table.add_column("hand", footer="total", justify="right")
    table.add_column("dealer")
    labels = list(dict.fromkeys(label for hand in result.hands for label, _ in hand.notes))
    for label in labels:
        table.add_column(label, style="cyan")
    players = result.players
    columns = _columns(result)
    sides = {side[0]: side for side in result.sides if side}
    for name, heading in columns:
        total = result.totals.get(name)
        table.add_column(heading, justify="right", footer=str(total) if total is not None else "")
    recorded = _recorded(game)
    running = dict.fromkeys(players, 0)
    for hand in result.hands:
        rec_scores, rec_totals = recorded.get(hand.number, ({}, {}))
        detail = dict(hand.player_notes)
        cells: list[Text] = []
        notes = dict(hand.notes)
        if hand.scores is None:
            for _ in columns:
                cells.append(Text("incomplete" if not hand.complete else "unscorable", style="dim"))
        else:
            for name in players:
                running[name] += hand.scores.get(name, 0)
            for name, _ in columns:
                value = hand.scores.get(name, 0)
                cell = Text(f"{value:+d}", style="bold")
                cell.append(f"  {running[name]}", style="dim")
                side = sides.get(name, (name,))
                for member in side:  # a side's column marks a wrong value written for any of its players
                    who = f" ({member})" if len(side) > 1 else ""
                    if member in rec_scores and rec_scores[member] != hand.scores.get(member, 0):
                        cell.append(f"  ✗ score {rec_scores[member]}{who}", style="red")
                    if member in rec_totals and rec_totals[member] != running[member]:
                        cell.append(f"  ✗ total {rec_totals[member]}{who}", style="red")
                if name in detail:
                    cell.append(f"\n{detail[name]}", style="dim")
                cells.append(cell)
        table.add_row(str(hand.number), hand.dealer or "?", *(notes.get(label, "") for label in labels), *cells)
    parts: list[RenderableType] = [table]
    for label, text in result.notes:
        parts.append(Text(f"{label}: {text}"))
    if result.over and result.winners:
        parts.append(Text(f"Winner: {' and '.join(result.winners)}", style="bold green"))
    elif result.totals:
        parts.append(Text(_leading(result)))
    return Group(*parts)


def _hands(n: int, what: str = "hand") -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _leading(result: GameResult) -> str:
    """Who leads, after the hands that count: the totals are the sum of the scored hands only."""
    scored = sum(1 for hand in result.hands if hand.scores is not None)
    if not scored:
        return f"No hand scored yet (of {len(result.hands)})"
    best = max(result.totals.values())
    leaders = " and ".join(n for n in result.players if result.totals.get(n) == best)
    if scored == len(result.hands):
        return f"Leading after {_hands(scored)}: {leaders} ({best})"
    return f"Leading after {_hands(scored, 'scored hand')} (of {len(result.hands)}): {leaders} ({best})"


def _columns(result: GameResult) -> list[tuple[str, str]]:
    """The score columns as (player whose score it shows, heading): one per side when the rules fix sides."""
    if not result.sides:
        return [(name, name) for name in result.players]
    return [(side[0], "+".join(side)) for side in result.sides if side]
