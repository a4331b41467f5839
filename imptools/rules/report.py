"""`Reporter`: collects one hand's findings with the game's path, index and hand number."""

from __future__ import annotations

from dataclasses import dataclass, field

from imptools.findings import Finding
from imptools.record import Game, Hand


@dataclass(slots=True)
class Reporter:
    """Collects the findings of one hand, filling in the game's path, index and the hand number."""

    game: Game
    hand: Hand
    findings: list[Finding] = field(default_factory=list)

    def add(
        self, code: str, message: str, line: int | None, column: int | None, trick: int | None, player: str | None
    ) -> None:
        """Report one finding of this hand."""
        self.findings.append(
            Finding(code, message, line, column, self.game.path, self.game.index, self.hand.number, trick, player)
        )

    def codes(self) -> set[str]:
        """The codes reported so far."""
        return {f.code for f in self.findings}
