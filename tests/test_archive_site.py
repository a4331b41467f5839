"""`imp archive site OUT/` on simulated club nights: every link resolves, the standings are the archive's, and in
headless Chromium the pages load without errors, the charts are drawn and nothing overflows at phone width."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from headless import devtools_page

from imptools.archive.queries import Filters, GameRow, games, player, standings
from imptools.archive.schema import connect
from imptools.archive.site import position, slug, unique_names


def imp(*args: str, cwd: Path | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def simulate(game: str, players: str, hands: int, seed: int, date: str, event: str, variant: str | None = None) -> str:
    args = ["simulate", "-g", game, "-p", players, "-n", str(hands), "--seed", str(seed)]
    args += ["--tag", f"Date={date}", "--tag", f"Event={event}"] + (["-v", variant] if variant else [])
    out = imp(*args)
    assert out.returncode == 0, out.stderr
    return str(out.stdout)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three games over two seasons, a file of two games, a copy of a night with a comment added, a night with
    mistakes, and players whose names are no plain ASCII."""
    root = tmp_path_factory.mktemp("club") / "seasons"
    (root / "2025").mkdir(parents=True)
    (root / "2026").mkdir()
    four = "Adam Betty Christian Doris"
    (root / "2025/autumn-1.imp").write_text(
        simulate("bottle-imp", four, 4, 1, "2025-10-02", "Thursday club"), encoding="utf-8"
    )
    (root / "2025/autumn-2.imp").write_text(
        simulate("botifarra", four, 3, 2, "2025-11-06", "Café league"), encoding="utf-8"
    )
    two = simulate("ninety-nine", "Adam Betty Ørjan", 3, 3, "2026-03-05", "Thursday club")
    two += "\n; the second table\n" + simulate(
        "bottle-imp", "Betty Doris Ørjan Zoë", 3, 4, "2026-03-05", "Thursday club"
    )
    (root / "2026/spring-1.imp").write_text(two, encoding="utf-8")
    (root / "2026/spring-2.imp").write_text(
        simulate("botifarra", four, 2, 5, "2026-04-02", "Café league", variant="lliure"), encoding="utf-8"
    )
    (root / "2026/spring-3.imp").write_text(
        simulate("bottle-imp", four, 3, 7, "2026-04-16", "Thursday club"), encoding="utf-8"
    )
    original = (root / "2025/autumn-1.imp").read_text(encoding="utf-8")
    (root / "2026/copy.imp").write_text("; copied from Betty's notebook\n" + original, encoding="utf-8")
    bad = simulate("bottle-imp", four, 3, 6, "2026-05-07", "Thursday club").splitlines()
    at = next(i for i, line in enumerate(bad) if line.startswith("score "))
    words = bad[at].split()
    words[2] = str(int(words[2]) + 5)
    bad[at] = " ".join(words)
    bad.insert(at - 1, "@@ the coffee break")
    (root / "2026/mistakes.imp").write_text("\n".join(bad) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def archive(club: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("db") / "club.sqlite"
    out = imp("archive", "add", "--db", str(db), str(club))
    assert out.returncode == 0, out.stderr
    return db


@pytest.fixture(scope="module")
def site(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "club-site"
    done = imp("archive", "site", "--db", str(archive), "--title", "Thursday club", str(out))
    assert done.returncode == 0, done.stderr
    assert "written to" in done.stdout and "Traceback" not in done.stderr
    return out


def rows(archive: Path, distinct: bool = True) -> list[GameRow]:
    conn = connect(archive, create=False)
    try:
        return games(conn, Filters(), distinct=distinct)
    finally:
        conn.close()


class Page(HTMLParser):
    """What the tests read of a page: its links, ids, and the standings tables' cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.tables: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
        """The standings tables' cells: (game, season) -> player -> key -> text."""
        self.pairs: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
        """The pairs tables' cells: (game, season) -> pair (A+B) -> key -> text."""
        self.facts: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
        """A player's facts tables: (game, "") -> fact -> {"value": text}."""
        self._cells = self.tables
        self._table: tuple[str, str] | None = None
        self._row: str | None = None
        self._key: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for name in ("href", "src"):
            if name in a:
                self.links.append(a[name])
        if "id" in a:
            self.ids.add(a["id"])
        kinds = {"standings": self.tables, "pairs": self.pairs, "game-facts": self.facts}
        if tag == "table" and a.get("class") in kinds:
            self._cells = kinds[a["class"]]
            self._table = (a["data-game"], a.get("data-season", ""))
            self._cells[self._table] = {}
        elif tag == "tr" and self._table and ("data-player" in a or "data-pair" in a or "data-fact" in a):
            self._row = a.get("data-player") or a.get("data-pair") or a["data-fact"]
            self._cells[self._table][self._row] = {}
        elif tag == "td" and self._row and "data-key" in a:
            self._key = a["data-key"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag == "tr":
            self._row = None
        elif tag == "td":
            self._key = None

    def handle_data(self, data: str) -> None:
        if self._table and self._row and self._key:
            cell = self._cells[self._table][self._row]
            cell[self._key] = cell.get(self._key, "") + data


def read_page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


# --------------------------------------------------------------------------- the files, read in Python


def test_every_link_of_every_page_resolves_to_a_file_of_the_site(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    checked = 0
    for path in pages:
        page = read_page(path)
        for link in page.links:
            parts = urlsplit(link)
            assert not parts.scheme or parts.scheme == "data", f"{path.name}: {link} leaves the site"
            if parts.scheme == "data":
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.is_file(), f"{path.relative_to(site)}: {link} is no file of the site"
            assert site.resolve() in target.parents, f"{path.relative_to(site)}: {link} is outside the site"
            if parts.fragment:
                assert parts.fragment in read_page(target).ids, f"{path.relative_to(site)}: {link} has no anchor"
            checked += 1
    assert checked > 100
    assert {p.relative_to(site).as_posix() for p in pages} >= {"index.html", "games.html", "players.html"}


def test_every_game_has_its_replay_page_and_copies_lead_to_the_original(site: Path, archive: Path) -> None:
    distinct = rows(archive)
    every = rows(archive, distinct=False)
    assert len(every) == len(distinct) + 1  # the copy of autumn-1
    replays = sorted((site / "games").glob("*.html"))
    assert len(replays) == len(distinct) == 7
    linked = [link for link in read_page(site / "games.html").links if link.startswith("games/")]
    assert len(linked) == len(every)
    assert set(linked) == {f"games/{p.name}" for p in replays}
    copy = [link for link in linked if linked.count(link) == 2]
    assert copy and copy[0] == "games/2025-autumn-1-imp-1.html"
    for path in replays:
        text = path.read_text(encoding="utf-8")
        assert "<script" in text and '"players"' in text  # the replay page with its game embedded
        assert "http://" not in text and "https://" not in text


def test_the_standings_page_shows_the_numbers_of_the_standings_query(site: Path, archive: Path) -> None:
    tables = read_page(site / "index.html").tables
    conn = connect(archive, create=False)
    try:
        expected: dict[tuple[str, str], dict[str, Any]] = {}
        for kind in ("bottle-imp", "botifarra", "ninety-nine"):
            expected[(kind, "all")] = standings(conn, Filters(game=kind))
            for year in ("2025", "2026"):
                table = standings(conn, Filters(game=kind, since=f"{year}-01-01", until=f"{year}-12-31"))
                if table["games"]:
                    expected[(kind, year)] = table
    finally:
        conn.close()
    assert set(tables) == set(expected)
    assert ("ninety-nine", "2025") not in tables and ("botifarra", "2026") in tables
    for key, table in expected.items():
        shown = tables[key]
        assert list(shown) == [r["player"] for r in table["rows"]], key  # the same players in the same order
        for r in table["rows"]:
            cells = shown[r["player"]]
            for k in ("games", "hands", "wins", "points"):
                assert int(cells[k]) == r[k], (key, r["player"], k)
            assert float(cells["average"]) == pytest.approx(r["average"])
            assert (cells.get("rating") or None) == (None if r["rating"] is None else f"{r['rating']:.2f}")
    # a copy counts once: Adam's bottle-imp games are autumn-1, spring-3 and the night with mistakes
    assert tables[("bottle-imp", "all")]["Adam"]["games"] == "3"
    pairs = read_page(site / "index.html").pairs
    assert set(pairs) == {k for k, t in expected.items() if t["pairs"]} and ("botifarra", "all") in pairs
    for key in pairs:
        assert list(pairs[key]) == [r["player"] for r in expected[key]["pairs"]], key
        for r in expected[key]["pairs"]:
            assert r["rating"] is not None and pairs[key][r["player"]]["rating"] == f"{r['rating']:.2f}", key
            assert int(pairs[key][r["player"]]["points"]) == r["points"]


def test_a_player_page_holds_his_record_his_charts_and_his_games(site: Path, archive: Path) -> None:
    name = "Ørjan"
    path = site / "players" / f"{unique_names([name], 'player')[name]}.html"
    text = path.read_text(encoding="utf-8")
    assert "<h1>Ørjan</h1>" in text
    assert text.count('<svg class="chart points"') == 2 and text.count('<svg class="chart positions"') == 2
    mine = [r for r in rows(archive) if name in r.players]
    replays = [link for link in read_page(path).links if link.startswith("../games/")]
    assert len(replays) == len(mine) == 2


def test_a_player_page_shows_each_games_own_facts_as_his_record_does(site: Path, archive: Path) -> None:
    conn = connect(archive, create=False)
    try:
        record = player(conn, "Adam", Filters())
    finally:
        conn.close()
    assert record is not None
    facts = read_page(site / "players" / "adam.html").facts
    assert (
        set(facts)
        == {(g["game"], "") for g in record["games"]}
        == {
            ("bottle-imp", ""),
            ("botifarra", ""),
            ("ninety-nine", ""),
        }
    )
    for g in record["games"]:
        shown = facts[(g["game"], "")]
        assert list(shown) == [f["fact"] for f in g["facts"]] and g["facts"]
        for f in g["facts"]:
            assert shown[f["fact"]]["value"] == (f"{f['value']:.2f}" if f["per_hand"] else str(f["value"]))
    text = (site / "players" / "adam.html").read_text(encoding="utf-8")
    assert "hands ending with the bottle" in text and "bids made (exactly)" in text  # the rules' own labels


def test_finishing_positions_count_sides_and_share_ties() -> None:
    row = GameRow(
        1,
        "x.imp",
        1,
        "botifarra",
        None,
        None,
        None,
        True,
        "",
        True,
        ("A", "B", "C", "D"),
        {"A": 12, "B": 0, "C": 12, "D": 0},
        {"A": 1, "B": 2, "C": 1, "D": 2},
    )
    assert position(row, "A") == (1, 2) and position(row, "D") == (2, 2)
    row = GameRow(
        2, "x.imp", 2, "bottle-imp", None, None, None, True, "", True, ("A", "B", "C"), {"A": 40, "B": 40, "C": -3}
    )
    assert position(row, "B") == (1, 3) and position(row, "C") == (3, 3)
    assert position(GameRow(3, "x", 3, None, None, None, None, False, "", True, ("A",)), "A") == (None, 1)


def test_page_names_are_plain_and_distinct() -> None:
    names = unique_names(["Adam", "adam", "Ørjan", "Zoë", "---"], "player")
    assert names["Zoë"] == "zo" and names["Ørjan"] == "rjan"
    assert names["Adam"] != names["adam"] and names["Adam"].startswith("adam-")
    assert names["---"].startswith("player-") and len(set(names.values())) == 5
    assert slug("2025/autumn 1.imp:1") == "2025-autumn-1-imp-1"


def test_the_command_explains_itself_and_refuses_a_missing_archive(tmp_path: Path) -> None:
    helped = imp("archive", "site", "--help")
    assert helped.returncode == 0 and "imp archive site club-site/" in helped.stdout
    missing = imp("archive", "site", "--db", str(tmp_path / "none.sqlite"), str(tmp_path / "out"))
    assert missing.returncode == 2 and "no archive there" in missing.stderr and "Traceback" not in missing.stderr
    assert not (tmp_path / "out").exists()
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    empty = tmp_path / "empty.sqlite"
    assert imp("archive", "add", "--db", str(empty), str(tmp_path / "nothing-here")).returncode == 2
    blocked = imp("archive", "site", "--db", str(empty), str(tmp_path / "file"))
    assert blocked.returncode == 1 and "cannot write the site" in blocked.stderr and "Traceback" not in blocked.stderr


# --------------------------------------------------------------------------- in a browser


class Browser:
    """One headless Chromium page over the DevTools protocol, keeping every console error and exception."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.errors: list[str] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == n:
                assert "error" not in reply, reply
                result: dict[str, Any] = reply["result"]
                return result
            self.note(reply)

    def note(self, event: dict[str, Any]) -> None:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            self.errors.append(str(params["exceptionDetails"]))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append(str(params.get("args")))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.errors.append(f"{params['entry'].get('text')} {params['entry'].get('url', '')}")

    def js(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def open(self, path: Path) -> None:
        self.call("Page.navigate", url=path.as_uri())
        deadline = time.monotonic() + 45
        while self.js("document.readyState") != "complete":
            assert time.monotonic() < deadline, f"{path} never loaded"
            time.sleep(0.05)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    pytest.importorskip("websocket")
    with devtools_page(tmp_path / "profile", "1200,800") as ws:
        b = Browser(ws)
        b.call("Runtime.enable")
        b.call("Log.enable")
        yield b


OVERFLOW = "window.innerWidth === 390 && document.documentElement.scrollWidth <= window.innerWidth"
"""Nothing wider than the phone; a phone's browser widens the layout to show content that is wider (so the width
is checked too)."""


def phone(browser: Browser) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)


@pytest.mark.needs("chromium", "chromium-browser", "google-chrome", package="chromium")
def test_the_pages_load_cleanly_and_fit_a_phone(browser: Browser, site: Path) -> None:
    adam = site / "players" / "adam.html"
    replay = site / "games" / "2026-spring-1-imp-2.html"
    for path in (site / "index.html", site / "games.html", site / "players.html", adam, replay):
        browser.call("Emulation.clearDeviceMetricsOverride")
        browser.open(path)
        assert browser.js("document.body.innerText.length") > 100, path
        phone(browser)
        browser.open(path)
        assert browser.js(OVERFLOW), f"{path.relative_to(site)} overflows at 390 px"
        # each cell of a wide table stays readable: tables scroll in their own box, text is not squeezed
        assert (
            browser.js(
                "Math.min(...[...document.querySelectorAll('td,th')].map((c) => "
                "parseFloat(getComputedStyle(c).fontSize)), 99)"
            )
            >= 12
        )
    assert browser.errors == []
    assert "Betty" in browser.js("document.body.innerText")  # the replay page shows the game's players


@pytest.mark.needs("chromium", "chromium-browser", "google-chrome", package="chromium")
def test_the_charts_are_drawn(browser: Browser, site: Path) -> None:
    browser.open(site / "players" / "adam.html")
    charts = browser.js(
        "[...document.querySelectorAll('svg.chart')].map((s) => { const b = s.getBoundingClientRect();"
        " return [s.classList[1], b.width, b.height,"
        " s.querySelectorAll('polyline, rect, circle').length,"
        " [...s.querySelectorAll('polyline, rect')].map((e) => e.getBBox()).filter((r) => r.width * r.height > 0"
        " || r.width + r.height > 20).length] })"
    )
    kinds = {c[0] for c in charts}
    assert kinds == {"points", "positions"} and len(charts) == 6  # bottle-imp, botifarra, ninety-nine: two each
    for kind, width, height, shapes, drawn in charts:
        assert width > 200 and height > 80, kind
        assert shapes >= 1 and drawn >= 1, kind
    bottle = browser.js(
        "(() => { const s = document.querySelector('#bottle-imp ~ .charts svg.points');"
        " return s.querySelector('polyline').getAttribute('points').trim().split(/\\s+/).length })()"
    )
    assert bottle == 1 + 3  # the start and his three distinct bottle-imp games
    assert browser.errors == []
