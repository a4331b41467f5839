"""Judging a whole game: the reader's findings, then its ruleset's, with file names filled in."""

from __future__ import annotations

from dataclasses import replace

from imptools.findings import Finding
from imptools.record import Game
from imptools.rules import GAMES, GameResult, HandResult, get_ruleset
from imptools.rules.tricks import hand_dealers


def _order(f: Finding) -> tuple[int, int, int]:
    return (f.hand or 0, f.line or 0, f.column or 0)


def judge_game(game: Game) -> GameResult:
    """Replay `game` through the ruleset its `Game` tag names; every finding carries the game's path.

    A game whose `Game` tag is missing or unknown is not judged: the result holds
    the reader's findings and one more saying so, and no scores.
    """
    ruleset = get_ruleset(game.game_name)
    if ruleset is None:
        extra: list[Finding] = []
        name = game.game_name
        if name is not None:
            tag = next(t for t in game.tags if t.name == "Game")
            extra.append(
                Finding(
                    "syntax",
                    f"`{name}` is not a game imptools knows ({', '.join(GAMES)})",
                    tag.line,
                    tag.column,
                    game.path,
                    game.index,
                )
            )
        players = game.players
        hands = tuple(HandResult(h.number, d, False, None) for h, d in zip(game.hands, hand_dealers(game, players)))
        return GameResult(
            game.index, players, hands, {}, findings=tuple(game.findings) + tuple(extra), rules_checked=False
        )
    result = ruleset.judge(game)
    by_hand: dict[int | None, list[Finding]] = {}
    for f in game.findings:
        by_hand.setdefault(f.hand, []).append(f)
    known = {h.number for h in result.hands}
    game_level = list(result.findings) + [f for h, fs in by_hand.items() if h not in known for f in fs]
    hands = tuple(
        replace(
            h, findings=tuple(sorted((_path(f, game) for f in (*by_hand.get(h.number, ()), *h.findings)), key=_order))
        )
        for h in result.hands
    )
    return replace(result, hands=hands, findings=tuple(sorted((_path(f, game) for f in game_level), key=_order)))


def _path(f: Finding, game: Game) -> Finding:
    if f.path == game.path and f.game == game.index:
        return f
    return f.at(path=game.path, game=f.game if f.game is not None else game.index)
