"""Findings: what is wrong with a record, as values (never exceptions)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class Severity(str, Enum):
    """`error`: the rules were broken or the record contradicts itself; `warning`: suspicious or unverifiable."""

    ERROR = "error"
    WARNING = "warning"


# Every code of the notation's section 8, with its severity, and `internal`: imptools itself
# failed on a game (a bug); the game is reported with it and the rest of the batch goes on.
CODES: dict[str, Severity] = {
    "syntax": Severity.ERROR,
    "unknown-player": Severity.ERROR,
    "unknown-card": Severity.ERROR,
    "colour-mismatch": Severity.ERROR,
    "duplicate-card": Severity.ERROR,
    "hand-size": Severity.ERROR,
    "not-held": Severity.ERROR,
    "out-of-turn": Severity.ERROR,
    "wrong-count": Severity.ERROR,
    "revoke": Severity.ERROR,
    "bad-exchange": Severity.ERROR,
    "automaton": Severity.ERROR,
    "must-beat": Severity.ERROR,
    "must-trump": Severity.ERROR,
    "must-play-low": Severity.ERROR,
    "not-visible": Severity.ERROR,
    "bad-call": Severity.ERROR,
    "bad-bid": Severity.ERROR,
    "score-mismatch": Severity.ERROR,
    "incomplete": Severity.WARNING,
    "bad-players": Severity.ERROR,
    "not-scored": Severity.WARNING,
    "internal": Severity.ERROR,
}

INTERNAL = "internal"
"""The code of a finding that says imptools failed on a game (a bug to report), not the record."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a record, with where it is and the evidence in `message`.

    `game`, `hand` and `trick` count from 1 and are None where they do not apply;
    `player` is the player the finding is about (see the notation's section 8).
    """

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    path: str | None = None
    game: int | None = None
    hand: int | None = None
    trick: int | None = None
    player: str | None = None
    severity: Severity | None = None

    def __post_init__(self) -> None:
        if self.severity is None:
            object.__setattr__(self, "severity", CODES.get(self.code, Severity.ERROR))

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def at(self, **where: Any) -> Finding:
        """A copy with some location fields replaced (`path`, `game`, `hand`, ...)."""
        return replace(self, **where)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of `imp validate --json` (keys of the notation's section 8)."""
        return {
            "code": self.code,
            "severity": self.severity.value if self.severity else None,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "game": self.game,
            "hand": self.hand,
            "trick": self.trick,
            "player": self.player,
            "message": self.message,
        }
