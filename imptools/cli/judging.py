"""Judging what the inputs hold, on one process or a pool, and `imp validate` itself."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from imptools.cli.inputs import Inputs, expand, jobs_to_use, read, reader_failure, unreadable
from imptools.cli.output import print_json, progress, rich_console
from imptools.files import shown
from imptools.findings import INTERNAL, Finding

if TYPE_CHECKING:
    from imptools.record import Game
    from imptools.rules.base import GameResult


def judged(inputs: Inputs, jobs: int = 1, whole_games: bool = True) -> Iterator[tuple[str, Game, GameResult]]:
    """Every game of the inputs with its judgement, in input order; on a pool of `jobs` processes where worth it."""
    from imptools.check import judge_game
    from imptools.parallel import judged_in_pool, worth_a_pool

    if worth_a_pool(inputs.paths, jobs):

        def cannot_read(path: str, exc: OSError) -> None:
            unreadable(inputs, path, exc.strerror or str(exc))

        def failed(path: str, last: int, what: str) -> None:
            inputs.internal.append(reader_failure(shown(path), last, what))

        yield from judged_in_pool(inputs.paths, jobs, whole_games, cannot_read, failed, shown)
        return

    with progress(len(inputs.paths)) as bar:
        task = bar.add_task("reading", total=len(inputs.paths)) if bar else None
        for path in inputs.paths:
            for game in read(path, inputs):
                yield path, game, judge_game(game)
            if bar:
                bar.update(task, advance=1, description=Path(path).name)


def internal_findings(result: GameResult) -> list[Finding]:
    """The `internal` findings of a judged game: where imptools itself failed."""
    return [f for f in result.all_findings() if f.code == INTERNAL]


def score_json(files: list[str], jobs: int | None) -> int:
    """`imp score --json`: every game's scores and totals as one JSON document; the exit status."""
    inputs = expand(files)
    out: list[dict[str, object]] = []
    for _path, game, result in judged(inputs, jobs_to_use(jobs), whole_games=False):
        inputs.internal.extend(internal_findings(result))
        if not game.holds_game:
            continue  # an empty file, or one with no notation: no game to score (`imp validate` says why)
        out.append(
            {
                "path": game.path,
                "game": game.index,
                "players": list(result.players),
                "hands": [
                    {
                        "hand": h.number,
                        "dealer": h.dealer,
                        "complete": h.complete,
                        "scores": h.scores,
                        **({"notes": dict(h.notes)} if h.notes else {}),
                        **({"player_notes": dict(h.player_notes)} if h.player_notes else {}),
                    }
                    for h in result.hands
                ],
                "totals": result.totals,
                "over": result.over,
                "winners": list(result.winners),
                "rules_checked": result.rules_checked,
            }
        )
    print_json(
        "score",
        {"games": out, "unreadable": inputs.unreadable_list(), "internal": [f.to_dict() for f in inputs.internal]},
    )
    return inputs.status(False)


def validate_files(files: list[str], json: bool, jobs: int | None) -> int:
    """`imp validate`: judge the files, print the findings (or JSON), and return the exit status."""
    inputs = expand(files)
    findings: list[Finding] = []
    games = 0
    judged_internal: list[Finding] = []
    for _path, game, result in judged(inputs, jobs_to_use(jobs), whole_games=False):
        games += game.holds_game  # an empty file, or one with no notation, is read but holds no game
        findings.extend(result.all_findings())
        judged_internal.extend(internal_findings(result))
    findings.extend(inputs.internal)  # so far, the reader's own failures
    inputs.internal.extend(judged_internal)
    errors = sum(1 for f in findings if f.is_error)
    warnings = len(findings) - errors
    read_files = len(inputs.paths) - sum(1 for p in inputs.paths if p in inputs.unreadable)
    if json:
        print_json(
            "validate",
            {
                "findings": [f.to_dict() for f in findings],
                "unreadable": inputs.unreadable_list(),
                "summary": {
                    "files": read_files,
                    "games": games,
                    "errors": errors,
                    "warnings": warnings,
                    "unreadable": len(inputs.unreadable),
                    "internal": len(inputs.internal),
                },
            },
        )
    elif read_files or findings:
        # (when no file could be read, the reasons on stderr are the whole report: no summary of nothing)
        from imptools.present.report import plain_output, print_findings, write_findings

        missing = len(inputs.unreadable)
        if plain_output(sys.stdout):
            write_findings(sys.stdout, findings, files=read_files, games=games, unreadable=missing)
        else:
            print_findings(rich_console(), findings, files=read_files, games=games, unreadable=missing)
    return inputs.status(errors > 0)
