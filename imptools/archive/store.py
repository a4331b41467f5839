"""Adding records to the archive: idempotent, one transaction per file, judged in a pool where that pays.

A file whose bytes hash as the archive has them is not read again. A changed
file is read and judged whole, and its games compared one by one: a game whose
text is unchanged keeps its rows, a changed one is replaced, a game the file no
longer holds is removed. Each file is written in one transaction (`BEGIN
IMMEDIATE` ... `COMMIT` on SQLite), so an `add` stopped at any point (killed, power cut)
leaves every file either as it was or as it is now, and the next `add` does the rest.
"""

from __future__ import annotations

import os
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from imptools.archive.db import Db
from imptools.archive.extract import FileRecord, GameRecord, extract, sha256
from imptools.archive.schema import FACTS_INSERT
from imptools.files import shown
from imptools.findings import INTERNAL

if TYPE_CHECKING:
    from concurrent.futures import Future

_DATE = re.compile(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})")
STDIN = "-"
STDIN_KEY = "<stdin>"


def archive_key(path: str) -> str:
    """How the archive names an input: its absolute path (so adding from another folder finds it), `<stdin>`."""
    return STDIN_KEY if path == STDIN else shown(os.path.abspath(path))


@dataclass
class AddSummary:
    """What one `add` did, in games (`files`: the inputs read or found unchanged)."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    duplicates: int = 0
    removed: int = 0
    """Games gone from a changed file."""
    files: int = 0
    internal: int = 0
    """`internal` findings (imptools itself failed on a game or a file: a bug) among the games written."""
    pruned: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Archived files under the given paths that are gone from disk (removed with `--prune`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "duplicates": self.duplicates,
            "removed": self.removed,
            "files": self.files,
            "internal": self.internal,
            "pruned": self.pruned,
            "missing": self.missing,
        }


@dataclass(frozen=True, slots=True)
class _Work:
    key: str
    data: bytes
    name: str


def _extract(work: _Work) -> FileRecord:
    return extract(work.key, work.data, work.name)


def iso_date(value: str | None) -> str | None:
    """A `Date` tag as YYYY-MM-DD where it reads as a date (`2026.11.19`, `2026/11/9`), else as written.

    >>> iso_date("2026.11.9"), iso_date("spring 2025"), iso_date(None)
    ('2026-11-09', 'spring 2025', None)
    """
    if value is None:
        return None
    m = _DATE.fullmatch(value.strip())
    return f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}" if m else value


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def add(
    conn: Db,
    paths: list[str],
    jobs: int = 1,
    unreadable: Callable[[str, str], None] | None = None,
    done: Callable[[str], None] | None = None,
) -> AddSummary:
    """Add the files `paths` (already expanded; `-` is standard input) to the archive.

    `unreadable(path, reason)` is told of each file that cannot be read; `done(path)`
    of each file finished (read, or found unchanged). A broken game never stops the
    batch: it is stored with its findings, like any other.
    """
    summary = AddSummary()
    known = dict(conn.execute("SELECT path, sha256 FROM files").fetchall())

    def todo() -> Iterator[_Work]:
        for path in paths:
            key = archive_key(path)
            try:
                data = sys.stdin.buffer.read() if path == STDIN else Path(path).read_bytes()
            except OSError as exc:
                if unreadable:
                    unreadable(path, exc.strerror or str(exc))
                if done:
                    done(path)
                continue
            summary.files += 1
            if known.get(key) == sha256(data):
                row = conn.execute("SELECT games FROM files WHERE path = ?", (key,)).fetchone()
                summary.unchanged += int(row[0])
                if done:
                    done(path)
                continue
            yield _Work(key, data, STDIN_KEY if path == STDIN else shown(path))

    from imptools.parallel import worth_a_pool

    records = _in_pool(todo(), jobs) if worth_a_pool(paths, jobs) else map(_extract, todo())
    names = {archive_key(p): p for p in paths}
    for record in records:
        write_file(conn, record, summary)
        if done:
            done(names.get(record.path, record.path))
    return summary


def _in_pool(work: Iterator[_Work], jobs: int) -> Iterator[FileRecord]:
    """`_extract` of each piece of work on `jobs` processes, in order, with a bounded number under way."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        pending: deque[Future[FileRecord]] = deque()
        for item in work:
            pending.append(pool.submit(_extract, item))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def write_file(conn: Db, record: FileRecord, summary: AddSummary) -> None:
    """Store one file's games in one transaction, counting into `summary`."""
    conn.begin()
    try:
        row = conn.execute("SELECT id FROM files WHERE path = ?", (record.path,)).fetchone()
        if row is None:
            file_id = conn.insert(
                "INSERT INTO files (path, sha256, size, games, added_at) VALUES (?, ?, ?, ?, ?)",
                (record.path, record.sha256, record.size, len(record.games), _now()),
            )
            old: dict[int, tuple[int, str]] = {}
        else:
            file_id = row[0]
            conn.execute(
                "UPDATE files SET sha256 = ?, size = ?, games = ?, added_at = ? WHERE id = ?",
                (record.sha256, record.size, len(record.games), _now(), file_id),
            )
            old = {
                index: (gid, digest)
                for gid, index, digest in conn.execute(
                    "SELECT id, game_index, text_sha256 FROM games WHERE file_id = ?", (file_id,)
                )
            }
        for game in record.games:
            before = old.pop(game.index, None)
            if before is not None and before[1] == game.text_sha256:
                summary.unchanged += 1
                continue
            if before is not None:
                conn.execute("DELETE FROM games WHERE id = ?", (before[0],))
                summary.updated += 1
            else:
                summary.added += 1
            game_id = _insert_game(conn, file_id, game)
            summary.internal += sum(1 for f in game.findings if f["code"] == INTERNAL)
            copy = conn.execute(
                "SELECT 1 FROM games WHERE canonical_sha256 = ? AND id != ? LIMIT 1", (game.canonical_sha256, game_id)
            ).fetchone()
            if copy:
                summary.duplicates += 1
        for gid, _digest in old.values():
            conn.execute("DELETE FROM games WHERE id = ?", (gid,))
            summary.removed += 1
        conn.execute("DELETE FROM findings WHERE file_id = ? AND game_id IS NULL", (file_id,))
        for f in record.internal:
            _insert_finding(conn, file_id, None, f)
        summary.internal += len(record.internal)
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


def _insert_game(conn: Db, file_id: int, game: GameRecord) -> int:
    errors = sum(1 for f in game.findings if f["severity"] == "error")
    game_id = conn.insert(
        "INSERT INTO games (file_id, game_index, line, text, text_sha256, canonical_sha256, game, variant, date, "
        "event, rules_checked, over, errors, warnings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            file_id,
            game.index,
            game.line,
            game.text,
            game.text_sha256,
            game.canonical_sha256,
            game.tag("Game"),
            game.tag("Variant"),
            iso_date(game.tag("Date")),
            game.tag("Event"),
            int(game.rules_checked),
            int(game.over),
            errors,
            len(game.findings) - errors,
        ),
    )
    conn.executemany("INSERT INTO tags VALUES (?, ?, ?, ?)", [(game_id, i, n, v) for i, (n, v) in enumerate(game.tags)])
    side_of = {p: k for k, side in enumerate(game.sides) for p in side}
    conn.executemany(
        "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?)",
        [
            (game_id, seat, name, side_of.get(name), game.totals.get(name), int(name in game.winners))
            for seat, name in enumerate(game.players)
        ],
    )
    conn.executemany(
        "INSERT INTO hands VALUES (?, ?, ?, ?, ?)",
        [(game_id, n, dealer, int(complete), int(scores is not None)) for n, dealer, complete, scores in game.hands],
    )
    conn.executemany(
        "INSERT INTO scores VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id, hand, player) DO UPDATE SET points = excluded.points",
        [(game_id, n, p, v) for n, _d, _c, scores in game.hands for p, v in (scores or {}).items()],
    )
    conn.executemany(
        "INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, hand, k, player, label, text) for k, (hand, player, label, text) in enumerate(game.notes)],
    )
    conn.executemany(
        FACTS_INSERT,
        [(game_id, hand, player, key, value) for hand, player, key, value in game.facts],
    )
    for f in game.findings:
        _insert_finding(conn, file_id, game_id, f)
    return game_id


def _insert_finding(conn: Db, file_id: int, game_id: int | None, f: dict[str, Any]) -> None:
    conn.execute(
        "INSERT INTO findings (file_id, game_id, code, severity, line, col, hand, trick, player, message) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            file_id,
            game_id,
            f["code"],
            f["severity"] or "error",
            f["line"],
            f["column"],
            f["hand"],
            f["trick"],
            f["player"],
            f["message"],
        ),
    )


def prune(conn: Db, roots: list[str], remove: bool) -> list[str]:
    """Archived files under `roots` (files or folders given to `add`) that are gone from disk; removed if `remove`."""
    keys = [archive_key(r) for r in roots if r != STDIN]
    gone = []
    for (path,) in conn.execute("SELECT path FROM files ORDER BY path").fetchall():
        if path == STDIN_KEY or os.path.exists(path):
            continue
        if any(path == k or path.startswith(k.rstrip(os.sep) + os.sep) for k in keys):
            gone.append(path)
    if remove and gone:
        conn.begin()
        try:
            conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in gone])
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
    return gone


def content(conn: Db) -> list[tuple[Any, ...]]:
    """Everything the archive holds about the records, without row ids or times, in a fixed order.

    Two archives built from the same files, in whatever way, have the same content.
    """
    out: list[tuple[Any, ...]] = []
    out += conn.execute("SELECT 'file', path, sha256, size, games FROM files ORDER BY path").fetchall()
    game_cols = (
        "g.game_index, g.line, g.text, g.text_sha256, g.canonical_sha256, g.game, g.variant, g.date, g.event, "
        "g.rules_checked, g.over, g.errors, g.warnings"
    )
    order = "ORDER BY f.path, g.game_index"
    join = "FROM games g JOIN files f ON f.id = g.file_id"
    out += conn.execute(f"SELECT 'game', f.path, {game_cols} {join} {order}").fetchall()
    out += conn.execute(
        f"SELECT 'tag', f.path, g.game_index, t.position, t.name, t.value {join} "
        f"JOIN tags t ON t.game_id = g.id {order}, t.position"
    ).fetchall()
    out += conn.execute(
        f"SELECT 'player', f.path, g.game_index, p.seat, p.name, p.side, p.total, p.winner {join} "
        f"JOIN players p ON p.game_id = g.id {order}, p.seat"
    ).fetchall()
    out += conn.execute(
        f"SELECT 'hand', f.path, g.game_index, h.number, h.dealer, h.complete, h.scored {join} "
        f"JOIN hands h ON h.game_id = g.id {order}, h.number"
    ).fetchall()
    out += conn.execute(
        f"SELECT 'score', f.path, g.game_index, s.hand, s.player, s.points {join} "
        f"JOIN scores s ON s.game_id = g.id {order}, s.hand, s.player"
    ).fetchall()
    out += conn.execute(
        f"SELECT 'note', f.path, g.game_index, n.hand, n.position, n.player, n.label, n.text {join} "
        f"JOIN notes n ON n.game_id = g.id {order}, n.hand, n.position"
    ).fetchall()
    out += conn.execute(
        f"SELECT 'fact', f.path, g.game_index, x.hand, x.player, x.fact, x.value {join} "
        f"JOIN facts x ON x.game_id = g.id {order}, x.hand, x.player, x.fact"
    ).fetchall()
    out += conn.execute(
        "SELECT 'finding', f.path, g.game_index, x.code, x.severity, x.line, x.col, x.hand, x.trick, x.player, "
        "x.message FROM findings x JOIN files f ON f.id = x.file_id LEFT JOIN games g ON g.id = x.game_id "
        "ORDER BY f.path, g.game_index, x.line, x.col, x.code, x.message"
    ).fetchall()
    return out
