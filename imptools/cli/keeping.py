"""What a rewrite of a record must keep: every comment, annotation and line the reader could not read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from imptools.record import Game


def kept_texts(games: list[Game]) -> list[str]:
    """Every comment, annotation and line not read of `games`, in a stable order: what a rewrite must keep."""
    from imptools.record import CommentLine, Trick, UnreadLine

    found: list[str] = []

    def element(x: Any) -> None:
        found.extend(a.text for a in getattr(x, "annotations", ()))
        remark = getattr(x, "remark", None)
        if remark is not None:
            found.append(remark)
        if isinstance(x, (CommentLine, UnreadLine)):
            found.append(x.text)
        if isinstance(x, Trick):
            for play in x.plays:
                found.extend(a.text for a in play.annotations)

    for game in games:
        for item in game.header:
            element(item)
        for hand in game.hands:
            element(hand)
            for line in hand.lines:
                element(line)
    return sorted(found)
