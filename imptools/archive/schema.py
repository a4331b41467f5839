"""The archive's tables, versioned: each change of the schema is one more migration, applied in order.

The database records which migrations it holds (table `migrations`); opening an
archive applies the missing ones in one transaction each, and refuses an archive
made by a newer imptools (its tables would be misread). docs/archive.md
describes every table and column.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from imptools.archive.db import POSTGRES, SQLITE, Db, is_postgres

SCHEMA_VERSION = 2
"""The version of the schema this imptools writes and reads (the highest migration)."""

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "files, games, tags, players, hands, scores, notes, findings",
        """
        CREATE TABLE files (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE,
            sha256 TEXT NOT NULL,
            size INTEGER NOT NULL,
            games INTEGER NOT NULL,
            added_at TEXT NOT NULL
        );
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            game_index INTEGER NOT NULL,
            line INTEGER NOT NULL,
            text TEXT NOT NULL,
            text_sha256 TEXT NOT NULL,
            canonical_sha256 TEXT NOT NULL,
            game TEXT,
            variant TEXT,
            date TEXT,
            event TEXT,
            rules_checked INTEGER NOT NULL,
            over INTEGER NOT NULL,
            errors INTEGER NOT NULL,
            warnings INTEGER NOT NULL,
            UNIQUE (file_id, game_index)
        );
        CREATE INDEX games_canonical ON games(canonical_sha256);
        CREATE INDEX games_game_date ON games(game, date);
        CREATE TABLE tags (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (game_id, position)
        );
        CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            side INTEGER,
            total INTEGER,
            winner INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX players_name ON players(name);
        CREATE TABLE hands (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            dealer TEXT,
            complete INTEGER NOT NULL,
            scored INTEGER NOT NULL,
            PRIMARY KEY (game_id, number)
        );
        CREATE TABLE scores (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            player TEXT NOT NULL,
            points INTEGER NOT NULL,
            PRIMARY KEY (game_id, hand, player)
        );
        CREATE TABLE notes (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            position INTEGER NOT NULL,
            player TEXT,
            label TEXT,
            text TEXT NOT NULL,
            PRIMARY KEY (game_id, hand, position)
        );
        CREATE TABLE findings (
            id INTEGER PRIMARY KEY,
            file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
            game_id INTEGER REFERENCES games(id) ON DELETE CASCADE,
            code TEXT NOT NULL,
            severity TEXT NOT NULL,
            line INTEGER,
            col INTEGER,
            hand INTEGER,
            trick INTEGER,
            player TEXT,
            message TEXT NOT NULL
        );
        CREATE INDEX findings_game ON findings(game_id);
        CREATE INDEX findings_code ON findings(code);
        """,
    ),
    (
        2,
        "facts: each game's own facts of a scored hand, per player",
        """
        CREATE TABLE facts (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            hand INTEGER NOT NULL,
            player TEXT NOT NULL,
            fact TEXT NOT NULL,
            value INTEGER NOT NULL,
            PRIMARY KEY (game_id, hand, player, fact)
        );
        CREATE INDEX facts_player ON facts(player);
        """,
    ),
)


FACTS_INSERT = (
    "INSERT INTO facts VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (game_id, hand, player, fact) DO UPDATE SET value = facts.value + excluded.value"
)
"""How a fact is stored: two hands written under one number (a slip the findings report) add up."""


def _facts_of_kept_games(conn: Db) -> None:
    """Migration 2's rows: the facts of every game an older archive keeps, from its text read and judged again."""
    from imptools.archive.extract import facts_of_text

    ids = [int(r[0]) for r in conn.execute("SELECT id FROM games ORDER BY id").fetchall()]
    for chunk in range(0, len(ids), 200):
        part = ids[chunk : chunk + 200]
        marks = ",".join("?" * len(part))
        for gid, index, text in conn.execute(
            f"SELECT id, game_index, text FROM games WHERE id IN ({marks})", part
        ).fetchall():
            conn.executemany(
                FACTS_INSERT,
                [(gid, hand, p, key, value) for hand, p, key, value in facts_of_text(text, int(index))],
            )


DATA_MIGRATIONS: dict[int, Callable[[Db], None]] = {2: _facts_of_kept_games}
"""What a migration does besides its script, in the same transaction: rows an older archive lacks, worked out
from what it keeps (a new table's rows from the games' texts)."""


class ArchiveError(Exception):
    """The archive cannot be opened or used (not an archive, made by a newer imptools, unwritable)."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def version(conn: Db) -> int:
    """The schema version of an open database: 0 for one that holds no archive yet."""
    if not conn.has_table("migrations"):
        return 0
    row = conn.execute("SELECT max(version) FROM migrations").fetchone()
    return int(row[0] or 0)


def connect(path: str | Path, create: bool = True) -> Db:
    """Open the archive at `path` (an SQLite file, or a `postgresql://` address), bringing its schema up to
    `SCHEMA_VERSION` (creating it if `create`).

    The connection is in autocommit mode: callers open their transactions with
    `conn.begin()` (see `imptools.archive.store`).
    """
    if is_postgres(str(path)):
        return _connect_postgres(str(path), create)
    if not create and not Path(path).exists():
        raise ArchiveError(f"{path}: no archive there (make one with imp archive add)")
    try:
        raw = sqlite3.connect(path, isolation_level=None, timeout=30)
    except sqlite3.Error as exc:
        raise ArchiveError(f"{path}: cannot open the archive ({exc})") from None
    conn = Db(raw, SQLITE, (sqlite3.Error,))
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        tables = conn.tables()
        if tables and "migrations" not in tables:
            raise ArchiveError(f"{path}: an SQLite database that is not an imp archive; not touched")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        _migrate(conn, str(path))
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ArchiveError(f"{path}: not an imp archive ({exc})") from None
    except ArchiveError:
        conn.close()
        raise
    return conn


def _connect_postgres(url: str, create: bool) -> Db:
    shown = hide_password(url)
    try:
        import psycopg
    except ImportError:
        raise ArchiveError(
            f"{shown}: a PostgreSQL archive needs psycopg (pip install 'imptools-cards[postgres]')"
        ) from None
    try:
        raw = psycopg.connect(url, autocommit=True, connect_timeout=30)
    except (psycopg.Error, ValueError) as exc:
        raise ArchiveError(f"{shown}: cannot open the archive ({str(exc).strip()})") from None
    conn = Db(raw, POSTGRES, (psycopg.Error,))
    try:
        tables = conn.tables()
        if tables and "migrations" not in tables:
            raise ArchiveError(f"{shown}: a PostgreSQL database that is not an imp archive; not touched")
        if not tables and not create:
            raise ArchiveError(f"{shown}: no archive there (make one with imp archive add)")
        _migrate(conn, shown)
    except psycopg.Error as exc:
        conn.close()
        raise ArchiveError(f"{shown}: not an imp archive ({str(exc).strip()})") from None
    except ArchiveError:
        conn.close()
        raise
    return conn


def hide_password(url: str) -> str:
    """A database address as it may be shown: without its password.

    >>> hide_password("postgresql://club:secret@db.example/imp")
    'postgresql://club:***@db.example/imp'
    """
    return re.sub(r"^(\w+://[^:/@]*):[^@]*@", r"\1:***@", url)


def _migrate(conn: Db, path: str) -> None:
    if conn.dialect is POSTGRES:  # two first adds at once: the second waits, then finds the tables made
        conn.begin()
        conn.execute("SELECT pg_advisory_xact_lock(?)", (_LOCK,))
    else:
        conn.begin()
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS migrations ("
            "version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        have = version(conn)
        if have > SCHEMA_VERSION:
            raise ArchiveError(
                f"{path}: archive schema version {have} is newer than this imptools reads ({SCHEMA_VERSION}); "
                "upgrade imptools"
            )
        for number, description, script in MIGRATIONS:
            if number <= have:
                continue
            for statement in conn.dialect.schema(script).split(";"):
                if statement.strip():
                    conn.execute(statement)
            if have and number in DATA_MIGRATIONS:  # a new archive has no rows to work out
                DATA_MIGRATIONS[number](conn)
            conn.execute("INSERT INTO migrations VALUES (?, ?, ?)", (number, description, _now()))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise


_LOCK = 0x696D70  # "imp": the advisory lock that makes migrating an archive one at a time
