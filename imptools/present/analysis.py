"""`imp analyse` as text: each trick's plays, the costly ones on lines of their own with the cards that kept the
value."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from rich.console import Console
from rich.text import Text

from imptools.analyse import HandAnalysis, PlayCost

_STYLE = {"?": "yellow", "??": "bold red"}


def _where(a: HandAnalysis) -> str:
    return f"{a.path or ''} game {a.game}, hand {a.hand}"


def figure(x: float) -> str:
    """A mean as the text shows it: at most two decimals, none where it is whole.

    >>> figure(0.4), figure(9.0), figure(1 / 3), figure(-2.5), figure(10.0), figure(-0.001)
    ('0.4', '9', '0.33', '-2.5', '10', '0')
    """
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def knew_text(p: PlayCost) -> str:
    """`; 0.4 on what Betty knew (27 best, 100 worlds)`, or nothing where the play was not valued so."""
    k = p.knowing
    if k is None:
        return ""
    worlds = f"{k.worlds} world{'s' if k.worlds != 1 else ''}"
    return f"; {figure(k.cost)} on what {p.player} knew ({' '.join(k.best)} best, {worlds})"


def _visible(p: PlayCost) -> str:
    return " with every card visible" if p.knowing is not None else ""


def costly_line(p: PlayCost) -> Text:
    """`trick 6, Betty 27??: cost 9 (28 kept the value)`; valued on what the player knew too: `cost 9 with every
    card visible (...); 0.4 on what Betty knew (28 best, 100 worlds)`."""
    keep = " ".join(p.best)
    line = Text(f"  trick {p.trick}, {p.player} {p.card}")
    line.append(p.mark, style=_STYLE.get(p.mark))
    line.append(f": cost {p.cost}{_visible(p)} (value {p.value_before} -> {p.value_after}; {keep} kept the value)")
    line.append(knew_text(p))
    return line


def cost_note(p: PlayCost) -> Text:
    """A play's cost as the replay shows it beside the card: `cost 9?? (value 17 -> 8; 28 kept the value)`, or a
    dim `cost 0`; and what it cost on what its player knew, where it was valued so."""
    costly = p.cost > 0 or (p.knowing is not None and p.knowing.cost_total > 0)
    if not costly:
        return Text(f"cost 0{_visible(p)}{knew_text(p)}", style="dim")
    if p.cost == 0:
        out = Text(f"cost 0{_visible(p)}", style="dim")
    else:
        out = Text(f"cost {p.cost}{p.mark}", style=_STYLE.get(p.mark, "yellow"))
        out.append(f"{_visible(p)} (value {p.value_before} -> {p.value_after}; {' '.join(p.best)} kept the value)")
    out.append(knew_text(p), style="yellow" if p.knowing is not None and p.knowing.cost_total > 0 else "")
    return out


def _totals(a: HandAnalysis) -> str:
    totals: dict[str, int] = {}
    knew: dict[str, float] = {}
    for p in a.plays:
        totals[p.player] = totals.get(p.player, 0) + p.cost
        if p.knowing is not None:
            knew[p.player] = knew.get(p.player, 0.0) + p.knowing.cost
    out = ", ".join(f"{k} {v}" for k, v in totals.items())
    if knew:
        out += "; on what each knew " + ", ".join(f"{k} {figure(v)}" for k, v in knew.items())
    return out


def _knowing(a: HandAnalysis) -> bool:
    return any(p.knowing is not None for p in a.plays)


def _costless(p: PlayCost) -> bool:
    return p.cost == 0 and (p.knowing is None or p.knowing.cost_total == 0)


def analysis_summary(a: HandAnalysis) -> Text:
    """One line for the end of a replayed hand: what the analysis covered and each player's total cost."""
    out = Text("Analysis", style="bold")
    if a.skipped is not None:
        return out.append(f": not analysed, {a.skipped}")
    seen = "every card visible" + (" and on what each player knew" if _knowing(a) else "")
    out.append(f" ({seen}, from trick {a.from_trick}): ")
    out.append(f"total cost {_totals(a)}" if a.plays else "no play valued")
    if a.note is not None:
        out.append(f"; {a.note}", style="italic")
    return out


def analysis_lines(a: HandAnalysis) -> list[Text]:
    """The lines for one hand: a heading, then each trick (plays that cost nothing compactly, on one line)."""
    head = Text(_where(a), style="bold")
    if a.skipped is not None:
        return [head + Text(f": skipped, {a.skipped}")]
    seen = "every card visible" + (" and on what each player knew" if _knowing(a) else "")
    head.append(f" ({seen}, from trick {a.from_trick}; {a.nodes} positions searched)", style="")
    out = [head]
    for trick, plays in groupby(a.plays, key=lambda p: p.trick):
        group = list(plays)
        free = [p for p in group if _costless(p)]
        if free:
            out.append(Text(f"  trick {trick}: " + ", ".join(f"{p.player} {p.card}" for p in free) + " cost nothing"))
        out.extend(costly_line(p) for p in group if not _costless(p))
    if a.plays:
        out.append(Text("  total cost: " + _totals(a)))
    if a.note is not None:
        out.append(Text(f"  note: {a.note}", style="italic"))
    return out


def print_analyses(console: Console, analyses: Sequence[HandAnalysis]) -> None:
    """Print every hand's analysis."""
    for a in analyses:
        for line in analysis_lines(a):
            console.print(line)
