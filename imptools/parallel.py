"""Judging on several cores: a process pool over files, and over the games of one big file.

A big file is cut into pieces of about `CHUNK` bytes, only where a new game
starts for certain: at a tag line (read by the fast path) beginning with `[`
after a `hand` line of the same game, outside any `{...}` annotation; the comment and blank lines just before
it go with the new game, as the reader gives them to its header. Each piece is
read with its line numbers offset and judged in a worker; the results come back
in file order and the games are renumbered, so the output is the same as with
one process. A file that is not valid UTF-8 is not cut (its findings name byte
offsets in the whole file). Small batches never start a pool (`worth_a_pool`).
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING

from imptools.findings import Finding
from imptools.record import Game, Hand, Tag

if TYPE_CHECKING:
    from concurrent.futures import Future

    from imptools.rules.base import GameResult

CHUNK = 256 * 1024
"""About how many bytes of a big file one worker reads at a time, at most."""
LAST_CHUNK = 24 * 1024
"""The least a piece is cut to near the end of a file (pieces shrink there so the workers finish together)."""
POOL_FROM = 1024 * 1024
"""Inputs smaller than this in all are judged in the one process: a pool would cost more than it saves."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worth_a_pool(paths: list[str], jobs: int) -> bool:
    """Whether judging `paths` with `jobs` processes can pay: more than one job, files only, enough bytes."""
    if jobs <= 1 or "-" in paths:
        return False
    total = 0
    for p in paths:
        try:
            total += os.path.getsize(p)
        except OSError:
            continue
    return total >= POOL_FROM


@dataclass(frozen=True, slots=True)
class Task:
    """A whole file (`data` None) or a piece of one: its bytes and the number of physical lines before it."""

    path: str
    data: bytes | None = None
    lines_before: int = 0
    whole_games: bool = True
    name: str = ""
    """The path as findings show it."""


Judged = tuple[Game, "GameResult"]


def _judge(task: Task) -> tuple[list[Judged], str | None]:
    """Read and judge one task (in a worker); games reduced to their place unless whole ones are wanted.

    A failure of the reader itself (a bug) ends the task: the games read before it
    are returned with what went wrong.
    """
    from pathlib import Path

    from imptools.check import judge_game
    from imptools.reader import _decode_lines, _Physical, _read_lines, read_games

    name = task.name or task.path
    if task.data is None:
        games = read_games(Path(task.path), path=name)
    else:
        findings: list[Finding] = []
        offset = task.lines_before
        physical = (
            _Physical(
                p.number + offset, p.text, p.problem.at(line=(p.problem.line or 0) + offset) if p.problem else None
            )
            for p in _decode_lines(io.BytesIO(task.data))
        )
        games = _read_lines(physical, name, findings)
    out: list[Judged] = []
    try:
        for game in games:
            result = judge_game(game)
            out.append((game if task.whole_games else _place(game), result))
    except Exception as exc:  # a bug in the reader must not stop the batch
        return out, f"{type(exc).__name__}: {exc}"
    return out, None


def _place(game: Game) -> Game:
    """A game reduced to its place, and to whether it holds a game at all (`Game.holds_game`)."""
    return Game(game.index, game.line, game.column, game.tags[:1], () if game.tags else game.hands[:1], path=game.path)


def _renumber(game: Game, result: GameResult, offset: int) -> Judged:
    """A piece's game numbered as in its whole file."""

    def move(fs: tuple[Finding, ...]) -> tuple[Finding, ...]:
        return tuple(f.at(game=f.game + offset) if f.game is not None else f for f in fs)

    hands = tuple(replace(h, findings=move(h.findings)) if h.findings else h for h in result.hands)
    return (
        replace(game, index=game.index + offset, findings=move(game.findings)),
        replace(result, index=result.index + offset, hands=hands, findings=move(result.findings)),
    )


def _valid_utf8(path: str) -> bool:
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                decoder.decode(block)
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _is_tag(raw: bytes, fast_line: Callable[[str, int], object]) -> bool:
    """Whether a line is a whole, valid tag line (the reader starts a new game there, fresh or not)."""
    text = raw.rstrip(b"\n").rstrip(b"\r")
    return b"\r" not in text and isinstance(fast_line(text.decode("utf-8", errors="replace"), 1), Tag)


_SPECIAL = re.compile(rb"^(?:[^\x21-\x7e]|[\[h;{])", re.MULTILINE)
"""The start of a line `pieces` looks at closely: blank, or starting with a space, another byte than printable ASCII,
`[`, `h`, `;` or `{`. Any other line (a trick, a deal ...) cannot be blank, a comment, a tag or a hand line."""
_BLOCK = 1 << 20


def _split_lines(data: bytes) -> list[bytes]:
    """The lines of `data`, each with its newline (the last may have none), as iterating a binary file gives them."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _units(f: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
    """A file as runs of common lines (`True`) and single lines to look at closely (`False`), in order.

    A block holding `{` or a CR is given line by line: an annotation or an old Mac line end needs the close look.
    """
    while block := f.read(_BLOCK):
        if not block.endswith(b"\n"):
            block += f.readline()
        if b"{" in block or b"\r" in block:
            for line in _split_lines(block):
                yield line, False
            continue
        pos = 0
        for m in _SPECIAL.finditer(block):
            start = m.start()
            if start > pos:
                yield block[pos:start], True
            end = block.find(b"\n", start) + 1 or len(block)
            yield block[start:end], False
            pos = end
        if pos < len(block):
            yield block[pos:], True


def piece_size(left: int, jobs: int) -> int:
    """How big the next piece is when `left` bytes remain for `jobs` workers: `CHUNK`, shrinking near the end.

    Each piece is at most a share of what is left (`left / 2 jobs`), never under `LAST_CHUNK`,
    so the last pieces are small and no worker is left judging a big one alone.
    """
    return max(min(CHUNK, LAST_CHUNK), min(CHUNK, left // (2 * max(jobs, 1))))


def pieces(path: str, jobs: int = 1) -> Iterator[tuple[bytes, int]]:
    """Cut a file where a new game surely starts, every `piece_size` bytes or so: (bytes, lines before), in order."""
    left = os.path.getsize(path)
    size = piece_size(left, jobs)
    from imptools.fastpath import fast_line
    from imptools.reader import _scan

    buf: list[bytes] = []
    held = 0  # bytes in buf
    tail: int | None = None  # where the blank and comment lines before the next line start in buf
    before = 0  # physical lines before buf
    count = 0  # physical lines in buf
    counts: list[int] = []
    in_note = False
    seen_hand = False
    hand_lines: dict[str, bool] = {}  # a file repeats its few hand lines ("hand 1 dealer Doris") over and over
    with open(path, "rb") as f:
        for unit, plain in _units(f):
            if plain and not in_note:
                # common lines (tricks, deals ...): none blank, a comment, a tag, a hand line or an annotation
                lines = unit.count(b"\n") + (not unit.endswith(b"\n"))
                buf.append(unit)
                held += len(unit)
                counts.append(lines)
                count += lines
                tail = None
                continue
            for raw in _split_lines(unit) if plain else (unit,):
                if raw.startswith(b"[") and seen_hand and not in_note and held >= size and _is_tag(raw, fast_line):
                    cut = len(buf) if tail is None else tail
                    done = b"".join(buf[:cut])
                    yield done, before
                    left -= len(done)
                    size = piece_size(left, jobs)
                    moved = sum(counts[:cut])
                    before += moved
                    count -= moved
                    buf, counts = buf[cut:], counts[cut:]
                    held = sum(len(b) for b in buf)
                    tail = None if not buf else 0
                body = raw[:-1] if raw.endswith(b"\n") else raw
                if body.endswith(b"\r"):
                    body = body[:-1]
                text = body.decode("utf-8", errors="replace")
                parts = text.split("\r") if "\r" in text else [text]
                buf.append(raw)
                held += len(raw)
                counts.append(len(parts))
                count += len(parts)
                for piece in parts:
                    if in_note:
                        in_note, _ = _scan(piece, True)
                        tail = None
                        continue
                    stripped = piece.strip()
                    if not stripped or stripped.startswith(";"):
                        if tail is None:
                            tail = len(buf) - 1
                        if len(parts) > 1:
                            tail = None
                        continue
                    tail = None
                    if piece.lstrip().startswith("["):
                        seen_hand = False
                    in_note, _ = _scan(piece, False)
                    if not in_note and stripped.startswith("hand"):
                        known = hand_lines.get(piece)
                        if known is None:
                            known = hand_lines[piece] = isinstance(fast_line(piece, 1), Hand)
                        seen_hand = seen_hand or known
    if buf:
        yield b"".join(buf), before


def _tasks(
    paths: list[str],
    jobs: int,
    whole_games: bool,
    unreadable: Callable[[str, OSError], None],
    shown: Callable[[str], str],
) -> Iterator[tuple[Task, bool]]:
    """Every task in order, each with whether it is the first piece of its file."""
    for path in paths:
        try:
            size = os.path.getsize(path)
            with open(path, "rb"):
                pass
        except OSError as exc:
            unreadable(path, exc)
            continue
        if size < 2 * CHUNK or not _valid_utf8(path):
            yield Task(path, None, 0, whole_games, shown(path)), True
            continue
        for i, (data, before) in enumerate(pieces(path, jobs)):
            yield Task(path, data, before, whole_games, shown(path)), i == 0


_GAME_TAG = re.compile(rb'^\s*\[\s*Game\s+"([^"]*)"', re.MULTILINE)


def _warm(paths: list[str], files: int = 16, head: int = 1 << 16) -> None:
    """Import, before the workers are forked, the rulesets the first files name, so that no worker imports them."""
    from imptools.check import judge_game  # noqa: F401 - imported for the workers
    from imptools.rules import get_ruleset

    names: set[bytes] = set()
    for path in paths[:files]:
        try:
            with open(path, "rb") as f:
                names.update(_GAME_TAG.findall(f.read(head)))
        except OSError:
            continue
    for name in names:
        get_ruleset(name.decode("utf-8", errors="replace"))


def judged_in_pool(
    paths: list[str],
    jobs: int,
    whole_games: bool,
    unreadable: Callable[[str, OSError], None],
    failed: Callable[[str, int, str], None],
    shown: Callable[[str], str] = str,
) -> Iterator[tuple[str, Game, GameResult]]:
    """Judge the files on `jobs` processes; yields (path, game, result) in the order one process would.

    `unreadable(path, error)` is told of a file that cannot be read, `failed(path,
    last game, what)` of a failure of the reader itself (the rest of that piece is lost).

    `whole_games` False returns each game reduced to its place (path, index, line),
    which is all a JSON report needs and much less to send between processes.
    """
    from concurrent.futures import ProcessPoolExecutor

    _warm(paths)
    window = 2 * jobs + 1
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[tuple[Future[tuple[list[Judged], str | None]], Task, bool]] = deque()
        offset = 0
        tasks = _tasks(paths, jobs, whole_games, unreadable, shown)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                item = next(tasks, None)
                if item is None:
                    exhausted = True
                    break
                task, first = item
                pending.append((pool.submit(_judge, task), task, first))
            if not pending:
                return
            future, task, first = pending.popleft()
            if first:
                offset = 0
            results, failure = future.result()
            count = results[-1][0].index if results else 0
            for game, result in results:
                if offset:
                    game, result = _renumber(game, result, offset)
                yield task.path, game, result
            if failure is not None:
                failed(task.path, offset + count, failure)
            offset += count
