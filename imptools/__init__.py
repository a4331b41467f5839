"""imptools: check, score and replay records of trick-taking card games in Imp notation.

The library API:

- `read_games(source)` yields the games of a file or text as record models;
- `judge(game)` replays a game through its ruleset: findings and scores;
- `replay(game, hand)` steps one hand event by event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from imptools.reader import read_games as read_games

__all__ = ["__version__", "read_games"]


def __getattr__(name: str) -> Any:
    if name == "read_games":
        from imptools.reader import read_games

        return read_games
    raise AttributeError(name)
