"""The choices made before the first card (Botifarra's trump, a Ninety-nine bid), valued with every card visible.

A game's search offers them (`PlayedHand.decisions`: `Decision`, `Option` in
`imptools.rules.base`); `value_choices` values each option as the choosing
player's value of the position play would start from had he taken it, with the
analysis's search (`imptools.search.Search`, handed in: this module never
imports it), and `ChoiceValue` is one option valued, as `imp analyse` shows it.
docs/ANALYSIS.md says what is valued in each game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from imptools.rules.base import Decision, SearchPosition

if TYPE_CHECKING:
    from imptools.search import Entry, Search


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One option of a choice made before the first card, as the search values it: the decision (`trump`,
    `bid`), the choosing player, the option as the record writes it, the player's value had he taken it, whether he
    did, and what the text says beside it (`note`: the scoring of the option taken, or that no option did better)."""

    decision: str
    player: str
    option: str
    value: int
    made: bool
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "decision": self.decision,
            "player": self.player,
            "option": self.option,
            "value": self.value,
            "made": self.made,
        }
        if self.note:
            out["note"] = self.note
        return out


Told = Callable[[str, int, int], None]
"""Told before each option's search: the stage (`trump option`, `bid option`), how many of the decision's options
are valued so far and how many it has."""


@dataclass
class _Steps:
    """Tells `told` of each of a decision's `total` option searches as it starts."""

    told: Told | None
    stage: str
    total: int
    done: int = 0

    def next(self) -> None:
        if self.told is not None:
            self.told(self.stage, self.done, self.total)
        self.done += 1


Elsewhere = Callable[[int, int], Callable[[], tuple[int, int]]]
"""Sends option `o` of decision `d` (indices in `PlayedHand.decisions` and its `options`) to be valued elsewhere, as
`value_choices` values it here (a fresh search of its start); returns the function that waits for its value and the
positions its search visited."""


def value_choices(
    decisions: Sequence[Decision],
    search: Search,
    new_search: Callable[[SearchPosition], Search],
    costly: bool = False,
    told: Told | None = None,
    elsewhere: Elsewhere | None = None,
) -> tuple[tuple[ChoiceValue, ...], int]:
    """The options of `decisions` valued for their players, and the positions the other options' searches visited:
    `search` stands at the hand's start (the option taken is valued there, sharing its tables with the plays'
    values), `new_search` starts a search of another option's start (`search.Search`); `told` hears of each
    option as its search starts (a progress bar's words: a partnership hand spends most of its time here).

    Where every option is shown (`Decision.every`), each is valued exactly; else
    the one taken, and, where the decision is not `costly` or `costly` asks for it,
    the best option when it does better (each option asked only whether it beats
    the best so far: a null window). With `elsewhere`, the options of a decision
    shown whole other than the one taken are sent off first (other processes), the
    one taken is valued here meanwhile, and then their values are waited for: the
    same values and positions as here, each option's search being a fresh one.
    """
    out: list[ChoiceValue] = []
    nodes = 0
    for index, d in enumerate(decisions):
        made = next((o for o in d.options if o.start is None), None)
        only_made = not d.every and d.costly and not costly
        tell = _Steps(told, f"{d.kind} option", (1 if made is not None else 0) if only_made else len(d.options))
        if d.every and elsewhere is not None:
            sent = {i: elsewhere(index, i) for i, o in enumerate(d.options) if o.start is not None}
            found: dict[int, int] = {}
            for i, o in enumerate(d.options):
                if o.start is None:
                    tell.next()
                    found[i] = search.value(d.player)
            for i, wait in sent.items():
                tell.next()
                found[i], visited = wait()
                nodes += visited
            for i, o in enumerate(d.options):
                v = found[i]
                note = d.note(v) if o.start is None and d.note is not None else ""
                out.append(ChoiceValue(d.kind, d.player, o.text, v, o.start is None, note))
            continue
        if d.every:
            # the other options first: each search's tables are gone before the hand's own grow
            values: dict[int, int] = {}
            for i, o in enumerate(d.options):
                if o.start is not None:
                    tell.next()
                    s = new_search(o.start())
                    values[i] = s.value(d.player)
                    nodes += s.positions()
                    s.close()  # its tables freed now, not at the collector's next full pass
            for i, o in enumerate(d.options):
                if o.start is None:
                    tell.next()
                    v = search.value(d.player)
                    note = d.note(v) if d.note is not None else ""
                    out.append(ChoiceValue(d.kind, d.player, o.text, v, True, note))
                else:
                    out.append(ChoiceValue(d.kind, d.player, o.text, values[i], False))
            continue
        if made is not None:
            tell.next()
        made_value = search.value(d.player) if made is not None else None
        note = d.note(made_value) if d.note is not None and made_value is not None else ""
        if d.costly and not costly:
            if made is not None and made_value is not None:
                out.append(ChoiceValue(d.kind, d.player, made.text, made_value, True, note))
            continue
        best, best_value = made, made_value
        tables: dict[str, list[dict[object, Entry]]] = {}
        history: dict[str, dict[int, int]] = {}
        stores: dict[str, object] = {}  # the positions' own tables, where they keep them (`share`)
        for o in d.options:
            if o.start is None:
                continue
            tell.next()
            s = new_search(o.start())
            if d.shared:
                s.tables, s.history = tables, history
                share: Callable[[dict[str, object]], None] | None = getattr(s.position, "share", None)
                if share is not None:
                    share(stores)
            if best_value is None:
                v = s.value(d.player)
            elif (v := s.value(d.player, best_value, best_value + 1)) > best_value:
                v = s.value(d.player, guess=v)
            else:
                nodes += s.positions()
                continue
            nodes += s.positions()
            best, best_value = o, v
        if made is not None and made_value is not None:
            better = best is not made
            note = note if better else "; ".join(x for x in (note, "no option did better") if x)
            out.append(ChoiceValue(d.kind, d.player, made.text, made_value, True, note))
        if best is not None and best is not made and best_value is not None:
            out.append(ChoiceValue(d.kind, d.player, best.text, best_value, False))
    return tuple(out), nodes
