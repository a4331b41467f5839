"""What `imp replay` can be asked for: a game, hand or trick the file holds, or why not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from imptools.cli.output import EXIT_FOUND, EXIT_UNREADABLE

if TYPE_CHECKING:
    from imptools.record import Game


def _counted(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def out_of_range(
    everything: list[Game], records: list[Game], game: int | None, hand: int | None, trick: int | None
) -> tuple[str, int] | None:
    """Why `imp replay` cannot show what it is asked for, and its exit status: a file that holds no game (1), or a
    `--game`, `--hand` or `--trick` the file does not hold (2, a misuse; the message names how many there are)."""
    if not any(g.holds_game for g in everything):
        # an empty file, or one with no notation in it: say so and why, rather than replay nothing
        why = "; ".join(f.message for g in everything for f in g.findings[:1])
        return "the file holds no game" + (f" ({why})" if why else ""), EXIT_FOUND
    if game is not None and not records:
        return f"no game {game}: the file holds {_counted(len(everything), 'game')}", EXIT_UNREADABLE
    where = f"game {game}" if game is not None else "the game" if len(records) == 1 else "the games"
    if hand is not None and not any(h.number == hand for g in records for h in g.hands):
        most = max((len(g.hands) for g in records), default=0)
        held = _counted(most, "hand") if len(records) == 1 else f"at most {_counted(most, 'hand')}"
        return f"no hand {hand}: {where} {'has' if len(records) == 1 else 'have'} {held}", EXIT_UNREADABLE
    chosen = [h for g in records for h in g.hands if hand is None or h.number == hand]
    if trick is not None and chosen and not any(t.number == trick for h in chosen for t in h.tricks):
        most = max(len(h.tricks) for h in chosen)
        if hand is not None and len(chosen) == 1:
            return f"no trick {trick}: hand {hand} has {_counted(most, 'trick')}", EXIT_UNREADABLE
        return f"no trick {trick}: no hand of {where} has more than {_counted(most, 'trick')}", EXIT_UNREADABLE
    return None
