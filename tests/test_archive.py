"""`imp archive` on a folder of simulated club nights, run as a user runs it: subprocesses, real files, and a real
database: SQLite, and PostgreSQL (a server the tests start, see the `postgres` fixture in conftest.py).

The tests that take `archive` or `new_db` run on both databases.

The folder holds three games over two seasons, several dates and events, a file
of two games, a copy of a night with comments added, and a night with mistakes.
What each command answers is checked against what `imp score --json` says of the
same files and against the nights as they were made.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from imptools.archive.schema import SCHEMA_VERSION, connect
from imptools.archive.store import content
from imptools.parallel import POOL_FROM


def imp(*args: str, cwd: Path | None = None, stdin: str | None = None, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def simulate(game: str, players: str, hands: int, seed: int, date: str, event: str, variant: str | None = None) -> str:
    args = ["simulate", "-g", game, "-p", players, "-n", str(hands), "--seed", str(seed)]
    args += ["--tag", f"Date={date}", "--tag", f"Event={event}"] + (["-v", variant] if variant else [])
    out = imp(*args)
    assert out.returncode == 0, out.stderr
    return str(out.stdout)


@dataclass(frozen=True)
class Night:
    """One game of the folder as it was made."""

    file: str
    index: int
    kind: str
    date: str
    event: str
    players: tuple[str, ...]
    variant: str | None = None


@dataclass(frozen=True)
class Club:
    root: Path
    nights: tuple[Night, ...]
    copy: str
    """The file that copies another night (with comments added)."""
    copied: str
    mistakes: str

    def path(self, night: Night) -> str:
        return os.path.abspath(self.root / night.file)

    def distinct(self) -> list[Night]:
        return [n for n in self.nights if n.file != self.copy]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    root = tmp_path_factory.mktemp("club") / "seasons"
    (root / "2025").mkdir(parents=True)
    (root / "2026").mkdir()
    four = "Adam Betty Christian Doris"
    nights: list[Night] = []

    def night(file: str, kind: str, players: str, hands: int, seed: int, date: str, event: str, **kw: Any) -> str:
        text = simulate(kind, players, hands, seed, date, event, kw.get("variant"))
        index = sum(1 for n in nights if n.file == file) + 1
        nights.append(Night(file, index, kind, date, event, tuple(players.split()), kw.get("variant")))
        return text

    (root / "2025/autumn-1.imp").write_text(
        night("2025/autumn-1.imp", "bottle-imp", four, 4, 1, "2025-10-02", "Thursday club"), encoding="utf-8"
    )
    (root / "2025/autumn-2.imp").write_text(
        night("2025/autumn-2.imp", "botifarra", four, 3, 2, "2025-11-06", "Café league"), encoding="utf-8"
    )
    two = night("2026/spring-1.imp", "ninety-nine", "Adam Betty Emil", 3, 3, "2026-03-05", "Thursday club")
    two += "\n; the second table\n"
    two += night("2026/spring-1.imp", "bottle-imp", "Betty Doris Emil Fiona", 3, 4, "2026-03-05", "Thursday club")
    (root / "2026/spring-1.imp").write_text(two, encoding="utf-8")
    (root / "2026/spring-2.imp").write_text(
        night("2026/spring-2.imp", "botifarra", four, 2, 5, "2026-04-02", "Café league", variant="lliure"),
        encoding="utf-8",
    )
    # the copy: autumn-1 again, kept by another scorekeeper, with a comment and an annotation of his own
    original = (root / "2025/autumn-1.imp").read_text(encoding="utf-8")
    copied = "; copied from Betty's notebook\n" + re.sub(r"(?m)^(hand 2 .*)$", r"\1 {after the break}", original)
    copied = re.sub(r"(?m)^(1\. .*)$", r"\1 {a slow start}", copied, count=1)
    assert copied != original
    (root / "2026/copy.imp").write_text(copied, encoding="utf-8")
    nights.append(Night("2026/copy.imp", 1, "bottle-imp", "2025-10-02", "Thursday club", tuple(four.split())))
    # the night with mistakes: a recorded score that the rules do not give, and a line that is not notation
    bad = night("2026/mistakes.imp", "bottle-imp", four, 3, 6, "2026-05-07", "Thursday club")
    lines = bad.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("score "))
    words = lines[at].split()
    words[2] = str(int(words[2]) + 5)
    lines[at] = " ".join(words)
    lines.insert(at - 1, "@@ the coffee break")
    (root / "2026/mistakes.imp").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Club(root, tuple(nights), "2026/copy.imp", "2025/autumn-1.imp", "2026/mistakes.imp")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """The database the archive is kept in."""
    return str(request.param)


def make_db(backend: str, request: pytest.FixtureRequest, folder: Path, name: str) -> str:
    """A new, empty archive on `backend`: an SQLite file in `folder`, or a database on the test server."""
    if backend == "sqlite":
        return str(folder / f"{name}.sqlite")
    return str(request.getfixturevalue("postgres").database())


@pytest.fixture
def new_db(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    return lambda name: make_db(backend, request, tmp_path, name)


@pytest.fixture(scope="module")
def archive(club: Club, backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    db = make_db(backend, request, tmp_path_factory.mktemp("db"), "club")
    out = imp("archive", "add", "--db", db, "--json", str(club.root))
    assert out.returncode == 0, out.stderr
    return db


def run_json(*args: str) -> Any:
    out = imp(*args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# --------------------------------------------------------------------------- add


def test_add_keeps_every_game_and_adding_again_adds_nothing(club: Club, new_db: Callable[[str], str]) -> None:
    db = new_db("a")
    first = run_json("archive", "add", "--db", str(db), "--json", str(club.root))
    assert first["format"] == "imp-archive-add" and first["version"] == 1
    assert (first["added"], first["updated"], first["unchanged"]) == (len(club.nights), 0, 0)
    assert first["files"] == 6
    assert first["duplicates"] == 1  # the copy of autumn-1 (whichever of the two came second)
    again = run_json("archive", "add", "--db", str(db), "--json", str(club.root))
    assert (again["added"], again["updated"], again["unchanged"], again["duplicates"]) == (0, 0, len(club.nights), 0)
    conn = connect(db, create=False)
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == len(club.nights)
    conn.close()


def test_each_game_keeps_its_source_text_tags_scores_and_findings(club: Club, archive: str) -> None:
    scored = run_json("score", "--json", str(club.root))
    conn = connect(archive, create=False)
    noted = 0
    for g in scored["games"]:
        path = os.path.abspath(g["path"])
        game_id, text, digest = conn.execute(
            "SELECT g.id, g.text, g.text_sha256 FROM games g JOIN files f ON f.id = g.file_id "
            "WHERE f.path = ? AND g.game_index = ?",
            (path, g["game"]),
        ).fetchone()
        assert digest == __import__("hashlib").sha256(text.encode("utf-8")).hexdigest()
        totals = dict(conn.execute("SELECT name, total FROM players WHERE game_id = ?", (game_id,)).fetchall())
        assert totals == g["totals"]
        for hand in g["hands"]:
            scores = dict(
                conn.execute(
                    "SELECT player, points FROM scores WHERE game_id = ? AND hand = ?", (game_id, hand["hand"])
                )
            )
            assert scores == (hand["scores"] or {})
            notes = conn.execute(
                "SELECT player, label, text FROM notes WHERE game_id = ? AND hand = ? ORDER BY position",
                (game_id, hand["hand"]),
            ).fetchall()
            assert {label: text for player, label, text in notes if player is None} == hand.get("notes", {})
            assert {player: text for player, _l, text in notes if player} == hand.get("player_notes", {})
            noted += len(notes)
    assert noted > 20  # trump and calls, turn-ups, bids: the score sheet's facts are kept
    # the texts of a file's games, one after another, are the file itself
    for file in ("2026/spring-1.imp", "2025/autumn-2.imp"):
        texts = conn.execute(
            "SELECT g.text FROM games g JOIN files f ON f.id = g.file_id WHERE f.path = ? ORDER BY g.game_index",
            (os.path.abspath(club.root / file),),
        ).fetchall()
        assert "".join(t for (t,) in texts) == (club.root / file).read_text(encoding="utf-8")
    # every finding imp validate reports is kept, on its game
    out = imp("validate", "--json", str(club.root / club.mistakes))
    found = json.loads(out.stdout)["findings"]
    assert {f["code"] for f in found} >= {"syntax", "score-mismatch"}
    kept = conn.execute(
        "SELECT x.code, x.line, x.col, x.hand, x.message FROM findings x JOIN files f ON f.id = x.file_id "
        "WHERE f.path = ?",
        (os.path.abspath(club.root / club.mistakes),),
    ).fetchall()
    assert Counter(kept) == Counter((f["code"], f["line"], f["column"], f["hand"], f["message"]) for f in found)
    tags = conn.execute(
        "SELECT t.name, t.value FROM tags t JOIN games g ON g.id = t.game_id JOIN files f ON f.id = g.file_id "
        "WHERE f.path = ? ORDER BY t.position",
        (os.path.abspath(club.root / "2026/spring-2.imp"),),
    ).fetchall()
    assert ("Variant", "lliure") in tags and ("Event", "Café league") in tags
    conn.close()


def test_a_changed_file_is_updated_game_by_game_and_removed_files_are_pruned(
    club: Club, tmp_path: Path, new_db: Callable[[str], str]
) -> None:
    root = tmp_path / "seasons"
    shutil.copytree(club.root, root)
    db = new_db("a")
    run_json("archive", "add", "--db", db, "--json", str(root))
    # a comment added to the second game of spring-1: that game is updated, the first is unchanged
    spring = root / "2026/spring-1.imp"
    spring.write_text(spring.read_text(encoding="utf-8") + "; Fiona left early\n", encoding="utf-8")
    (root / "2025/autumn-2.imp").unlink()
    again = run_json("archive", "add", "--db", db, "--json", str(root))
    assert (again["added"], again["updated"], again["unchanged"]) == (0, 1, len(club.nights) - 2)
    assert again["missing"] == [os.path.abspath(root / "2025/autumn-2.imp")] and again["pruned"] == []
    found = run_json("archive", "find", "--db", db, "--json")
    assert len(found["games"]) == len(club.nights)  # not pruned yet
    pruned = run_json("archive", "add", "--db", db, "--json", "--prune", str(root))
    assert pruned["pruned"] == [os.path.abspath(root / "2025/autumn-2.imp")]
    found = run_json("archive", "find", "--db", db, "--json")
    assert len(found["games"]) == len(club.nights) - 1
    assert all(not g["path"].endswith("autumn-2.imp") for g in found["games"])
    conn = connect(db, create=False)  # nothing of the file is left behind
    assert conn.execute("SELECT count(*) FROM findings WHERE game_id NOT IN (SELECT id FROM games)").fetchone() == (0,)
    assert conn.execute("SELECT count(*) FROM hands WHERE game_id NOT IN (SELECT id FROM games)").fetchone() == (0,)
    conn.close()


def test_standard_input_and_broken_inputs_never_stop_the_batch(club: Club, tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    (tmp_path / "notes.imp").write_bytes(b"\xff\xfe not a record at all\n")
    out = imp(
        "archive",
        "add",
        "--db",
        db,
        "--json",
        "-",
        str(tmp_path / "notes.imp"),
        str(tmp_path / "missing.imp"),
        stdin=(club.root / club.mistakes).read_text(encoding="utf-8"),
    )
    assert out.returncode == 2, out.stderr  # a file could not be read
    assert "Traceback" not in out.stderr and "missing.imp" in out.stderr
    doc = json.loads(out.stdout)
    assert doc["added"] == 2 and doc["files"] == 2
    assert [u["path"] for u in doc["unreadable"]] == [str(tmp_path / "missing.imp")]
    found = run_json("archive", "find", "--db", db, "--json", "--finding", "score-mismatch")
    assert [g["path"] for g in found["games"]] == ["<stdin>"]


def test_what_is_not_an_archive_is_refused_without_a_traceback(tmp_path: Path) -> None:
    text = tmp_path / "night.txt"
    text.write_text("not a database\n" * 100, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    for db in (text, other):
        out = imp("archive", "standings", "--db", str(db))
        assert out.returncode == 2 and "Traceback" not in out.stderr and "archive" in out.stderr
    assert text.read_text(encoding="utf-8") == "not a database\n" * 100
    out = imp("archive", "find", "--db", str(tmp_path / "none.sqlite"))
    assert out.returncode == 2 and "no archive" in out.stderr
    assert not (tmp_path / "none.sqlite").exists()
    out = imp("archive", "find", "--db", str(other), "--since", "last spring")
    assert out.returncode == 2 and "YYYY-MM-DD" in out.stderr


def test_a_postgresql_database_that_is_no_archive_or_no_server_is_refused_without_a_traceback(
    postgres: Any, club: Club
) -> None:
    import psycopg

    other = postgres.database()
    with psycopg.connect(other, autocommit=True) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    out = imp("archive", "add", "--db", other, str(club.root / club.copied))
    assert out.returncode == 2 and "Traceback" not in out.stderr and "not an imp archive" in out.stderr
    with psycopg.connect(other) as conn:  # not touched
        tables = conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
        assert [r[0] for r in tables] == ["accounts"]
    empty = postgres.database()
    out = imp("archive", "find", "--db", empty)
    assert out.returncode == 2 and "no archive" in out.stderr
    # a server that is not there, and a password that is never printed
    nowhere = f"postgresql://club:secret@127.0.0.1:{free_port()}/imp"
    out = imp("archive", "standings", "--db", nowhere)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "cannot open the archive" in out.stderr
    assert "secret" not in out.stderr and "club:***@127.0.0.1" in out.stderr
    added = run_json("archive", "add", "--db", empty, "--json", str(club.root / club.copied))
    assert added["added"] == 1
    out = imp("archive", "add", "--db", empty.replace("imp@", "imp:hidden@"), str(club.root / club.copied))
    assert out.returncode == 0 and "hidden" not in out.stdout and "1 unchanged" in out.stdout


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_schema_is_versioned_and_a_newer_archive_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite"
    conn = connect(db)
    assert conn.execute("SELECT max(version) FROM migrations").fetchone()[0] == SCHEMA_VERSION
    conn.execute("INSERT INTO migrations VALUES (?, 'from the future', '2099-01-01T00:00:00Z')", (SCHEMA_VERSION + 1,))
    conn.close()
    out = imp("archive", "dupes", "--db", str(db))
    assert out.returncode == 2 and "newer" in out.stderr


def test_the_archive_env_names_the_database(club: Club, tmp_path: Path) -> None:
    db = tmp_path / "env.sqlite"
    out = imp("archive", "add", str(club.root / "2025"), env={"IMP_ARCHIVE": str(db)}, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "2 added" in out.stdout and db.exists() and not (tmp_path / "imp-archive.sqlite").exists()
    out = imp("archive", "add", str(club.root / "2025"), cwd=tmp_path)
    assert (tmp_path / "imp-archive.sqlite").exists()


def test_imp_validate_does_not_import_the_archive(club: Club) -> None:
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "imptools", "validate", str(club.root / club.copied)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0
    assert "imptools.check" in out.stderr  # the import log is there
    assert "imptools.archive" not in out.stderr and "sqlite3" not in out.stderr
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "imptools", "score", str(club.root / club.copied)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "imptools.archive" not in out.stderr


# --------------------------------------------------------------------------- interrupted


def files_written(db: str) -> int:
    """How many files an `add` under way has committed, read without taking any lock (0 before the tables exist)."""
    if db.startswith("postgresql://"):
        import psycopg

        try:
            with psycopg.connect(db, connect_timeout=5) as conn:
                return int(conn.execute("SELECT count(*) FROM files").fetchone()[0])  # type: ignore[index]
        except psycopg.Error:
            return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as lite:
            return int(lite.execute("SELECT count(*) FROM files").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_an_add_killed_midway_is_completed_by_the_next_one(
    club: Club, tmp_path: Path, new_db: Callable[[str], str]
) -> None:
    """SIGKILL to the whole `add` (a power cut) mid-way, then `add` again: the archive of a clean build (made
    in one process, where the interrupted one judged in a pool)."""
    root = tmp_path / "many"
    root.mkdir()
    bases = [(club.root / n.file).read_text(encoding="utf-8") for n in club.distinct() if n.index == 1]
    for k in range(500):
        text = bases[k % len(bases)].replace('[Date "', f'[Round "{k}"]\n[Date "', 1)
        (root / f"night-{k:03d}.imp").write_text(text, encoding="utf-8")
    assert sum(p.stat().st_size for p in root.iterdir()) >= POOL_FROM  # judged in a pool, written in order
    db = new_db("killed")
    proc = subprocess.Popen(
        [sys.executable, "-m", "imptools", "archive", "add", "--jobs", "2", "--db", db, str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    done_at_kill = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        done_at_kill = files_written(db)
        if done_at_kill >= 20:
            os.killpg(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.01)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the add finished before it could be interrupted"
    assert 20 <= done_at_kill < 500
    conn = connect(db, create=False)  # what was committed is whole: every file has all its games
    files = conn.execute("SELECT count(*) FROM files").fetchone()[0]
    assert files < 500
    assert conn.execute(
        "SELECT count(*) FROM files f WHERE f.games != (SELECT count(*) FROM games g WHERE g.file_id = f.id)"
    ).fetchone() == (0,)
    kept = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    conn.close()
    resumed = run_json("archive", "add", "--jobs", "2", "--db", db, "--json", str(root))
    clean = new_db("clean")
    built = run_json("archive", "add", "--jobs", "1", "--db", clean, "--json", str(root))
    assert resumed["unchanged"] == kept and resumed["added"] > 0
    assert resumed["added"] + resumed["unchanged"] == built["added"] and resumed["files"] == 500
    a, b = connect(db), connect(clean)
    assert content(a) == content(b)
    assert len(content(a)) > 500 * 10
    a.close()
    b.close()


# --------------------------------------------------------------------------- standings


@pytest.mark.parametrize("kind", ["bottle-imp", "botifarra", "ninety-nine"])
def test_standings_are_the_sums_of_imp_score_over_distinct_games(club: Club, archive: str, kind: str) -> None:
    scored = run_json("score", "--json", str(club.root))
    kinds = {(club.path(n), n.index): n for n in club.nights}
    expected: dict[str, dict[str, int]] = {}
    for g in scored["games"]:
        night = kinds[(os.path.abspath(g["path"]), g["game"])]
        if night.kind != kind or night.file == club.copy:
            continue
        for p in g["players"]:
            row = expected.setdefault(p, {"games": 0, "hands": 0, "points": 0})
            row["games"] += 1
            row["hands"] += len(g["hands"])
            row["points"] += g["totals"].get(p, 0)
    doc = run_json("archive", "standings", "--db", str(archive), "--game", kind, "--json")
    assert doc["format"] == "imp-archive-standings" and doc["version"] == 1 and doc["game"] == kind
    got = {r["player"]: {k: r[k] for k in ("games", "hands", "points")} for r in doc["rows"]}
    assert got == expected
    for r in doc["rows"]:
        assert r["average"] == round(r["points"] / r["hands"], 2)
        assert isinstance(r["rating"], float) and 0 <= r["wins"] <= r["games"]
    assert [r["points"] for r in doc["rows"]] == sorted((r["points"] for r in doc["rows"]), reverse=True)


def test_standings_per_pair_in_partnerships_and_filters(club: Club, archive: str) -> None:
    scored = run_json("score", "--json", str(club.root / "2025/autumn-2.imp"), str(club.root / "2026/spring-2.imp"))
    doc = run_json("archive", "standings", "--db", str(archive), "--game", "botifarra", "--json")
    pairs = {r["player"]: r for r in doc["pairs"]}
    assert set(pairs) == {"Adam+Christian", "Betty+Doris"}  # seats 1 and 3 against 2 and 4
    assert pairs["Adam+Christian"]["points"] == sum(g["totals"]["Adam"] for g in scored["games"])
    assert pairs["Betty+Doris"]["games"] == 2
    wins = sum(r["wins"] for r in doc["pairs"])
    assert wins >= 2  # each game has a winning side (both, on a tie)
    spring = run_json(
        "archive", "standings", "--db", str(archive), "--game", "botifarra", "--since", "2026-01-01", "--json"
    )
    assert spring["games"] == 1 and all(r["hands"] == 2 for r in spring["rows"])
    cafe = run_json("archive", "standings", "--db", str(archive), "--game", "bottle-imp", "--event", "café", "--json")
    assert cafe["games"] == 0 and cafe["rows"] == []
    thursday = run_json(
        "archive", "standings", "--db", str(archive), "--game", "bottle-imp", "--event", "THURSDAY", "--json"
    )
    players = {r["player"] for r in thursday["rows"]}
    assert players == {"Adam", "Betty", "Christian", "Doris", "Emil", "Fiona"}
    out = imp("archive", "standings", "--db", str(archive), "--json")
    assert out.returncode == 2 and "--game" in out.stderr
    text = imp("archive", "standings", "--db", str(archive))
    assert text.returncode == 0 and "Adam+Christian" in text.stdout and "ninety-nine" in text.stdout


# --------------------------------------------------------------------------- find


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["--player", "Emil"], lambda n: "Emil" in n.players),
        (["--player", "Betty", "--player", "Fiona"], lambda n: {"Betty", "Fiona"} <= set(n.players)),
        (["--game", "bottle-imp"], lambda n: n.kind == "bottle-imp"),
        (["--variant", "lliure"], lambda n: n.variant == "lliure"),
        (["--since", "2026-01-01"], lambda n: n.date >= "2026-01-01"),
        (["--since", "2025-11-01", "--until", "2026.03.05"], lambda n: "2025-11-01" <= n.date <= "2026-03-05"),
        (["--event", "café"], lambda n: n.event == "Café league"),
        (
            ["--game", "bottle-imp", "--event", "thursday", "--player", "Adam"],
            lambda n: n.kind == "bottle-imp" and n.event == "Thursday club" and "Adam" in n.players,
        ),
        (["--finding", "score-mismatch"], lambda n: n.file == "2026/mistakes.imp"),
        (["--player", "Zoe"], lambda n: False),
    ],
)
def test_find_returns_exactly_the_matching_games(club: Club, archive: str, args: list[str], wanted: Any) -> None:
    doc = run_json("archive", "find", "--db", str(archive), "--json", *args)
    assert doc["format"] == "imp-archive-find" and doc["version"] == 1
    got = sorted((g["path"], g["game"]) for g in doc["games"])
    assert got == sorted((club.path(n), n.index) for n in club.nights if wanted(n))
    for g in doc["games"]:
        assert set(g) >= {"path", "game", "date", "event", "players", "totals"}


def test_find_writes_the_matching_games_as_one_record_file(club: Club, archive: str, tmp_path: Path) -> None:
    out_file = tmp_path / "thursday.imp"
    out = imp(
        "archive", "find", "--db", str(archive), "--event", "Thursday", "--game", "bottle-imp", "-o", str(out_file)
    )
    assert out.returncode == 0, out.stderr
    text = out_file.read_text(encoding="utf-8")
    assert "; copied from Betty's notebook" in text and "{after the break}" in text  # comments kept verbatim
    assert "; the second table" in text
    written = run_json("score", "--json", str(out_file))
    found = run_json("archive", "find", "--db", str(archive), "--json", "--event", "Thursday", "--game", "bottle-imp")
    assert [g["totals"] for g in written["games"]] == [g["totals"] for g in found["games"]]
    assert len(written["games"]) == 4
    # the games from whole files come back byte for byte
    assert (club.root / club.copy).read_text(encoding="utf-8") in text
    assert (club.root / club.copied).read_text(encoding="utf-8") in text
    bad = imp("archive", "find", "--db", str(archive), "--json", "-o", str(out_file))
    assert bad.returncode == 2


# --------------------------------------------------------------------------- dupes


def test_dupes_finds_exactly_the_copy_whatever_its_comments(club: Club, archive: str) -> None:
    doc = run_json("archive", "dupes", "--db", str(archive), "--json")
    assert doc["format"] == "imp-archive-dupes" and doc["version"] == 1
    assert doc["duplicates"] == [
        {
            "original": {"path": os.path.abspath(club.root / club.copied), "game": 1},
            "copies": [{"path": os.path.abspath(club.root / club.copy), "game": 1}],
        }
    ]
    text = imp("archive", "dupes", "--db", str(archive))
    assert text.returncode == 0 and "copy " in text.stdout


def test_a_game_with_one_card_changed_is_not_a_copy(club: Club, tmp_path: Path, new_db: Callable[[str], str]) -> None:
    original = (club.root / club.copied).read_text(encoding="utf-8")
    lines = original.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    first, rest = lines[at].split(" ", 1)
    cards = rest.split()
    lines[at] = f"{first} {' '.join([cards[0], cards[2], cards[1], *cards[3:]])}\n"  # two plays swapped
    (tmp_path / "a.imp").write_text(original, encoding="utf-8")
    (tmp_path / "b.imp").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "c.imp").write_text(original.replace("Thursday club", "Friday club"), encoding="utf-8")
    db = new_db("a")
    run_json("archive", "add", "--db", db, "--json", str(tmp_path))
    doc = run_json("archive", "dupes", "--db", db, "--json")
    assert doc["duplicates"] == [
        {
            "original": {"path": os.path.abspath(tmp_path / "a.imp"), "game": 1},
            "copies": [{"path": os.path.abspath(tmp_path / "c.imp"), "game": 1}],
        }
    ]


def test_help_has_examples_for_every_subcommand_and_nothing_of_the_python_behind() -> None:
    from test_help import PYTHONISMS

    for sub in ("add", "standings", "find", "dupes", "player"):
        out = imp("archive", sub, "--help", env={"COLUMNS": "100", "NO_COLOR": "1"})
        assert out.returncode == 0 and out.stderr == ""
        assert f"Usage: imp archive {sub} [OPTIONS]" in out.stdout
        _, found, examples = out.stdout.partition("Examples:")
        assert found and f"imp archive {sub} " in examples.split("╭")[0]
        assert [m.group(0) for pattern, _what in PYTHONISMS for m in pattern.finditer(out.stdout)] == []
    out = imp("--help")
    assert "archive" in out.stdout


# --------------------------------------------------------------------------- player


def test_a_players_record_by_game_season_partners_opponents_and_findings(club: Club, archive: str) -> None:
    scored = run_json("score", "--json", str(club.root))
    nights = {(club.path(n), n.index): n for n in club.nights}
    by_game: dict[str, dict[str, int]] = {}
    by_season: dict[tuple[str, str], int] = {}
    ahead: dict[str, list[int]] = {}
    hands = 0
    for g in scored["games"]:
        night = nights[(os.path.abspath(g["path"]), g["game"])]
        if night.file == club.copy or "Adam" not in g["players"]:
            continue
        row = by_game.setdefault(night.kind, {"games": 0, "hands": 0, "points": 0})
        row["games"] += 1
        row["hands"] += len(g["hands"])
        row["points"] += g["totals"]["Adam"]
        by_season[(night.kind, night.date[:4])] = by_season.get((night.kind, night.date[:4]), 0) + 1
        hands += len(g["hands"])
        partner = "Christian" if night.kind == "botifarra" else None
        for p in g["players"]:
            if p not in ("Adam", partner):
                pair = ahead.setdefault(p, [0, 0, 0])
                pair[0] += 1
                pair[1] += int(g["totals"]["Adam"] > g["totals"][p])
                pair[2] += int(g["totals"]["Adam"] < g["totals"][p])
    doc = run_json("archive", "player", "Adam", "--db", str(archive), "--json")
    assert doc["format"] == "imp-archive-player" and doc["version"] == 1 and doc["player"] == "Adam"
    assert {r["game"]: {k: r[k] for k in ("games", "hands", "points")} for r in doc["games"]} == by_game
    assert {(r["game"], r["season"]): r["games"] for r in doc["seasons"]} == by_season
    assert ("bottle-imp", "2025") in by_season and ("bottle-imp", "2026") in by_season
    assert doc["partners"] == [{"player": "Christian", "games": 2, "wins": doc["partners"][0]["wins"]}]
    assert {o["player"]: [o["games"], o["ahead"], o["behind"]] for o in doc["opponents"]} == ahead
    assert doc["findings"] == [{"code": "score-mismatch", "count": 1, "per_100_hands": round(100 / hands, 2)}]
    spring = run_json("archive", "player", "Adam", "--db", str(archive), "--json", "--since", "2026-01-01")
    assert {r["game"] for r in spring["games"]} == {"bottle-imp", "botifarra", "ninety-nine"}
    assert sum(r["games"] for r in spring["games"]) == 3
    out = imp("archive", "player", "Zoe", "--db", str(archive))
    assert out.returncode == 1 and "Zoe" in out.stderr and "Traceback" not in out.stderr
    text = imp("archive", "player", "Adam", "--db", str(archive))
    assert text.returncode == 0 and "Christian" in text.stdout and "score-mismatch" in text.stdout


def test_a_date_that_is_no_date_matches_no_date_filter(tmp_path: Path) -> None:
    (tmp_path / "a.imp").write_text(simulate("bottle-imp", "4", 1, 7, "spring 2025", "Club"), encoding="utf-8")
    (tmp_path / "b.imp").write_text(simulate("bottle-imp", "4", 1, 8, "2025.4.3", "Club"), encoding="utf-8")
    db = str(tmp_path / "a.sqlite")
    run_json("archive", "add", "--db", db, "--json", str(tmp_path))
    found = run_json("archive", "find", "--db", db, "--json", "--since", "2025-01-01")
    assert [(Path(g["path"]).name, g["date"]) for g in found["games"]] == [("b.imp", "2025-04-03")]
    found = run_json("archive", "find", "--db", db, "--json")
    assert {g["date"] for g in found["games"]} == {"spring 2025", "2025-04-03"}
    doc = run_json("archive", "player", "Adam", "--db", db, "--json")
    assert {r["season"] for r in doc["seasons"]} == {"2025", None}


def test_a_progress_bar_on_a_terminal_only_and_without_colour_under_no_color(club: Club, tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    root = tmp_path / "nights"
    root.mkdir()
    text = (club.root / club.copied).read_text(encoding="utf-8")
    for k in range(30):
        (root / f"night-{k:02d}.imp").write_text(text.replace("Thursday club", f"Thursday club {k}"), encoding="utf-8")

    def on_terminal(db: str, **env: str) -> str:
        child = pexpect.spawn(
            sys.executable,
            ["-m", "imptools", "archive", "add", "--db", db, str(root)],
            env={**os.environ, "TERM": "xterm-256color", **env},
            dimensions=(24, 100),
            encoding="utf-8",
            timeout=120,
        )
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        return str(child.before)

    plain = on_terminal(str(tmp_path / "a.sqlite"), NO_COLOR="1")
    assert "archiving" in plain or "night-" in plain  # the bar, with the file being read
    assert "30 added, 0 updated, 0 unchanged, 29 duplicates (30 files)" in plain
    assert re.search(r"\x1b\[[0-9;]*(3[0-9]|9[0-7])(;[0-9]+)*m", plain) is None  # no colour
    coloured = on_terminal(str(tmp_path / "b.sqlite"))
    assert re.search(r"\x1b\[[0-9;]*(3[0-9]|9[0-7])(;[0-9]+)*m", coloured) is not None
    piped = imp("archive", "add", "--db", str(tmp_path / "c.sqlite"), str(root))
    assert "\x1b[" not in piped.stdout + piped.stderr and "30 added" in piped.stdout


# --------------------------------------------------------------------------- the JSON documents' schemas


def test_the_archive_schemas_are_shipped_and_real_documents_meet_them(club: Club, archive: str) -> None:
    import importlib.resources
    import importlib.util

    import jsonschema

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("archive_schemas", root / "scripts" / "archive_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = importlib.resources.files("imptools") / "schemas"
    for name, text in module.rendered().items():
        assert (shipped / name).read_text(encoding="utf-8") == text, f"{name}: run python scripts/archive_schemas.py"
    db = str(archive)
    documents = [
        run_json("archive", "add", "--db", db, "--json", str(club.root)),
        run_json("archive", "standings", "--db", db, "--json", "--game", "botifarra"),
        run_json("archive", "find", "--db", db, "--json"),
        run_json("archive", "dupes", "--db", db, "--json"),
        run_json("archive", "player", "Adam", "--db", db, "--json"),
    ]
    for doc in documents:
        assert list(doc)[:2] == ["format", "version"]
        schema = json.loads((shipped / f"{doc['format']}.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        assert [e.message for e in validator.iter_errors(doc)] == [], doc["format"]
        assert not validator.is_valid({**doc, "surprise": 1})  # closed: a key it does not know fails
        first = next(k for k in doc if k not in ("format", "version"))
        assert not validator.is_valid({k: v for k, v in doc.items() if k != first})  # every key is required


def test_find_writes_back_games_of_crlf_and_bom_files(club: Club, tmp_path: Path) -> None:
    night = (club.root / "2025/autumn-2.imp").read_text(encoding="utf-8")
    (tmp_path / "windows.imp").write_bytes(b"\xef\xbb\xbf" + night.replace("\n", "\r\n").encode("utf-8"))
    (tmp_path / "unix.imp").write_text((club.root / club.mistakes).read_text(encoding="utf-8"), encoding="utf-8")
    db = str(tmp_path / "a.sqlite")
    out = imp("archive", "add", "--db", db, "--json", ".", cwd=tmp_path)  # a relative path
    assert out.returncode == 0, out.stderr
    with sqlite3.connect(db) as conn:  # a relative path is kept absolute
        paths = conn.execute("SELECT path FROM files ORDER BY path").fetchall()
        assert paths == [(str(tmp_path / "unix.imp"),), (str(tmp_path / "windows.imp"),)]
    written = tmp_path / "out" / "both.imp"
    written.parent.mkdir()
    assert imp("archive", "find", "--db", db, "-o", str(written)).returncode == 0
    data = written.read_bytes()
    assert b"\xef\xbb\xbf" not in data and night.replace("\n", "\r\n").encode("utf-8") in data
    scored = run_json("score", "--json", str(written))
    separate = run_json("score", "--json", str(tmp_path / "unix.imp"), str(tmp_path / "windows.imp"))
    assert sorted(str(g["totals"]) for g in scored["games"]) == sorted(str(g["totals"]) for g in separate["games"])
