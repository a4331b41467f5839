"""`imp archive site OUT/`: the archive as a static site for the club, to open from disk or put on any web server.

Pages (all self-contained: no script, font or style from the network):

- `index.html`: the standings per game, over all seasons and season by season
  (a season is the year of the `Date` tag), each number as `queries.standings` gives it;
- `games.html`: every game kept, copies included, each linked to its replay page;
- `players.html` and `players/NAME.html`: a page per player with his record
  (`queries.player`), two charts drawn as SVG (his points over time, his finishing
  positions) and his games;
- `games/NAME.html`: each distinct game's replay page, the one `imp replay --html` writes;
- `site.css`: the stylesheet of every page but the replay pages (they carry their own).
"""

from __future__ import annotations

import hashlib
import html
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from imptools.archive.db import Db
from imptools.archive.queries import Filters, GameRow, fact_text, game_kinds, games, player, season, standings, won


@dataclass(slots=True)
class SiteSummary:
    """What a build wrote."""

    pages: int = 0
    players: int = 0
    games: int = 0
    replays_failed: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "players": self.players,
            "games": self.games,
            "replays_failed": self.replays_failed,
        }


def slug(text: str) -> str:
    """A file name for `text`: lower-case letters, digits and hyphens (empty when none of them is left).

    >>> slug("Anna-Maria Puig i Ferrer"), slug("Ørjan"), slug("autumn 1.imp")
    ('anna-maria-puig-i-ferrer', 'rjan', 'autumn-1-imp')
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def unique_names(texts: Iterable[str], prefix: str) -> dict[str, str]:
    """A distinct file name (no extension) for each of `texts`: its slug, with a short hash where two would meet
    or the slug is empty, so that a name never depends on which other texts there are but for such clashes."""
    texts = list(dict.fromkeys(texts))
    plain = Counter(slug(t) for t in texts)
    out: dict[str, str] = {}
    for t in texts:
        s = slug(t)
        if not s or plain[s] > 1:
            s = f"{s or prefix}-{hashlib.sha1(t.encode('utf-8')).hexdigest()[:8]}"
        out[t] = s
    return out


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


# --------------------------------------------------------------------------- what a player did, game by game


@dataclass(frozen=True, slots=True)
class Outing:
    """One distinct game of a player: its date, points, finishing position among the sides, and the row."""

    row: GameRow
    points: int | None
    position: int | None
    sides: int


def position(row: GameRow, name: str) -> tuple[int | None, int]:
    """Where `name` finished in `row` (1 for first; a tie shares the better place) among how many sides.

    Sides are the partnerships where the rules fix them, else each player; a side's
    score is its best total. None when the game has no total for him.
    """
    if row.sides:
        by: dict[int, list[str]] = defaultdict(list)
        for p in row.players:
            by[row.sides.get(p, -1 - row.players.index(p))].append(p)
        groups = list(by.values())
    else:
        groups = [[p] for p in row.players]
    scores = [max((row.totals[p] for p in g if p in row.totals), default=None) for g in groups]
    mine = next((s for g, s in zip(groups, scores) if name in g), None)
    if mine is None:
        return None, len(groups)
    return 1 + sum(1 for s in scores if s is not None and s > mine), len(groups)


def outings(rows: Sequence[GameRow], name: str) -> list[Outing]:
    out = []
    for row in rows:
        if name not in row.players:
            continue
        where, sides = position(row, name)
        out.append(Outing(row, row.totals.get(name), where, sides))
    return out


# --------------------------------------------------------------------------- charts (SVG by hand)

WIDTH, HEIGHT = 480, 230
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 22, 30


def _ticks(low: float, high: float) -> list[int]:
    """Round values for the y axis between `low` and `high` (three to six of them)."""
    span = max(high - low, 1)
    step = 1
    for base in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000):
        step = base
        if span / base <= 5:
            break
    first = int(-(-low // step)) * step
    return list(range(first, int(high) + 1, step)) or [int(low)]


def points_chart(name: str, kind: str, seen: Sequence[Outing]) -> str:
    """His running total of points over his games of `kind`, in date order: a line with a dot per game."""
    scored = [o for o in seen if o.points is not None]
    running: list[int] = []
    total = 0
    for o in scored:
        total += o.points or 0
        running.append(total)
    low, high = min([0, *running]), max([0, *running])
    if low == high:
        high = low + 1
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        """Game i's place on the time axis; -1 is the start, before his first game, at 0 points."""
        return LEFT + inner_w * (i + 1) / max(len(running), 1)

    def y(v: float) -> float:
        return TOP + inner_h * (high - v) / (high - low)

    parts = [
        f'<svg class="chart points" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{_e(name)}: running total of points over {len(running)} games of {_e(kind)}">',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>',
    ]
    for t in _ticks(low, high):
        parts.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>')
        if t == 0:
            parts.append(f'<line class="zero" x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}"/>')
    if running:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate([0, *running], -1))
        parts.append(f'<polyline class="line" points="{points}"/>')
        for i, (o, v) in enumerate(zip(scored, running)):
            when = o.row.date or "undated"
            parts.append(
                f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3.5">'
                f"<title>{_e(when)}: {o.points:+d}, total {v}</title></circle>"
            )
        first, last = scored[0].row.date or "undated", scored[-1].row.date or "undated"
        if len(scored) > 1:
            parts.append(f'<text x="{LEFT}" y="{HEIGHT - 10}" text-anchor="start">{_e(first)}</text>')
        parts.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 10}" text-anchor="end">{_e(last)}</text>')
    else:
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">no scored game</text>')
    parts.append("</svg>")
    return "".join(parts)


def positions_chart(name: str, kind: str, seen: Sequence[Outing]) -> str:
    """How often he finished first, second, ... in his games of `kind`: a bar per place."""
    places = Counter(o.position for o in seen if o.position is not None)
    most = max([o.sides for o in seen] + list(places))
    top = max(places.values(), default=0) or 1
    tallest = HEIGHT - TOP - BOTTOM - 6  # room above the tallest bar for its count
    inner_w = WIDTH - LEFT - RIGHT
    slot = inner_w / max(most, 1)
    parts = [
        f'<svg class="chart positions" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{_e(name)}: finishing positions in {sum(places.values())} games of {_e(kind)}">',
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>',
    ]
    for place in range(1, most + 1):
        count = places.get(place, 0)
        h = tallest * count / top
        x0 = LEFT + slot * (place - 1) + slot * 0.15
        cls = "bar first" if place == 1 else "bar"
        if count:
            parts.append(
                f'<rect class="{cls}" x="{x0:.1f}" y="{HEIGHT - BOTTOM - h:.1f}" width="{slot * 0.7:.1f}" '
                f'height="{h:.1f}"><title>{_ordinal(place)}: {count} game{"s" if count != 1 else ""}</title></rect>'
            )
            parts.append(
                f'<text x="{x0 + slot * 0.35:.1f}" y="{HEIGHT - BOTTOM - h - 5:.1f}" '
                f'text-anchor="middle">{count}</text>'
            )
        parts.append(
            f'<text x="{x0 + slot * 0.35:.1f}" y="{HEIGHT - 10}" text-anchor="middle">{_ordinal(place)}</text>'
        )
    if not places:
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">no scored game</text>')
    parts.append("</svg>")
    return "".join(parts)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# --------------------------------------------------------------------------- pages


@dataclass(frozen=True, slots=True)
class Links:
    """Where every page is, relative to the site's root."""

    players: dict[str, str]
    games: dict[int, str]
    """Each game's replay page by game id; a copy points to its original's page."""

    def player(self, name: str, up: str = "") -> str:
        return f'<a href="{up}players/{self.players[name]}.html">{_e(name)}</a>'


def _page(title: str, body: str, up: str, club: str) -> str:
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)} · {_e(club)}</title>"
        '<link rel="icon" href="data:,">'
        f'<link rel="stylesheet" href="{up}site.css"></head>\n<body>'
        f'<header><span class="club">{_e(club)}</span><nav>'
        f'<a href="{up}index.html">Standings</a><a href="{up}games.html">Games</a>'
        f'<a href="{up}players.html">Players</a></nav></header>\n'
        f"<main>\n{body}\n</main>\n"
        "<footer>Made by imp archive site from the club's records.</footer>\n</body></html>\n"
    )


def _table(head: Sequence[tuple[str, str]], rows: Iterable[str], attrs: str = "") -> str:
    cells = "".join(f'<th class="{cls}" scope="col">{_e(text)}</th>' for text, cls in head)
    return (
        f'<div class="scroll"><table{attrs}><thead><tr>{cells}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
    )


_NUM = (("games", ""), ("hands", ""), ("wins", ""), ("points", ""), ("per hand", ""))


def _rating(line: dict[str, Any]) -> str:
    return "" if line.get("rating") is None else f"{line['rating']:.2f}"


def standings_table(table: dict[str, Any], links: Links, kind: str, when: str) -> str:
    """One standings table (players, then pairs), each number in a cell named after its key."""
    rows = []
    for i, r in enumerate(table["rows"], 1):
        rows.append(
            f'<tr data-player="{_e(r["player"])}"><td>{i}</td><td class="text">{links.player(r["player"])}</td>'
            + "".join(f'<td data-key="{k}">{r[k]}</td>' for k in ("games", "hands", "wins", "points"))
            + f'<td data-key="average">{r["average"]:.2f}</td><td data-key="rating">{_rating(r)}</td></tr>'
        )
    out = _table(
        [("#", ""), ("player", "text"), *_NUM, ("rating", "")],
        rows,
        f' class="standings" data-game="{_e(kind)}" data-season="{_e(when)}"',
    )
    if table["pairs"]:
        pairs = []
        for i, r in enumerate(table["pairs"], 1):
            who = " + ".join(links.player(p) for p in r["pair"])
            pairs.append(
                f'<tr data-pair="{_e(r["player"])}"><td>{i}</td><td class="text">{who}</td>'
                + "".join(f'<td data-key="{k}">{r[k]}</td>' for k in ("games", "hands", "wins", "points"))
                + f'<td data-key="average">{r["average"]:.2f}</td><td data-key="rating">{_rating(r)}</td></tr>'
            )
        out += "<h4>Pairs</h4>" + _table(
            [("#", ""), ("pair", "text"), *_NUM, ("rating", "")],
            pairs,
            f' class="pairs" data-game="{_e(kind)}" data-season="{_e(when)}"',
        )
    return out


def index_page(conn: Db, rows: Sequence[GameRow], links: Links, club: str) -> str:
    parts = [f'<h1>Standings</h1><p class="facts">{len(rows)} distinct games kept in the archive.</p>']
    kinds = game_kinds(conn)
    if kinds:
        parts.append(
            '<ul class="plain">' + "".join(f'<li><a href="#{slug(k)}">{_e(k)}</a></li>' for k in kinds) + "</ul>"
        )
    for kind in kinds:
        parts.append(f'<h2 id="{slug(kind)}">{_e(kind)}</h2>')
        overall = standings(conn, Filters(game=kind))
        parts.append(f'<h3>All seasons</h3><p class="facts">{_count(overall["games"], "game")}</p>')
        parts.append(standings_table(overall, links, kind, "all"))
        years = sorted({s for r in rows if r.game == kind and (s := season(r.date)) is not None}, reverse=True)
        for year in years:
            table = standings(conn, Filters(game=kind, since=f"{year}-01-01", until=f"{year}-12-31"))
            parts.append(f'<h3>Season {_e(year)}</h3><p class="facts">{_count(table["games"], "game")}</p>')
            parts.append(standings_table(table, links, kind, year))
    if not kinds:
        parts.append('<p class="note">The archive holds no game yet (imp archive add adds some).</p>')
    return _page("Standings", "\n".join(parts), "", club)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _totals(row: GameRow, links: Links, up: str) -> str:
    return ", ".join(
        f"{links.player(p, up)} {row.totals[p]}" if p in row.totals else links.player(p, up) for p in row.players
    )


def games_page(every: Sequence[GameRow], links: Links, club: str) -> str:
    body = []
    for r in every:
        where = f"{Path(r.path).name}:{r.index}"
        note = "" if r.original else " (a copy)"
        body.append(
            f'<tr class="{"game" if r.original else "copy"}"><td class="text">{_e(r.date or "undated")}</td>'
            f'<td class="text">{_e(r.event or "")}</td><td class="text">{_e(r.game or "?")}'
            f'{_e(" · " + r.variant) if r.variant else ""}</td><td class="text players">{_totals(r, links, "")}</td>'
            f'<td>{r.hands}</td><td class="text"><a href="{links.games[r.id]}">{_e(where)}</a>{note}</td></tr>'
        )
    table = _table(
        [
            ("date", "text"),
            ("event", "text"),
            ("game", "text"),
            ("players and totals", "text"),
            ("hands", ""),
            ("replay", "text"),
        ],
        body,
        ' class="games"',
    )
    distinct = sum(1 for r in every if r.original)
    facts = (
        f'<p class="facts">{_count(len(every), "game")} kept, {distinct} distinct; a copy links to its original.</p>'
    )
    return _page("Games", f"<h1>Games</h1>{facts}{table}", "", club)


def players_page(names: Sequence[str], rows: Sequence[GameRow], links: Links, club: str) -> str:
    played = Counter(p for r in rows for p in r.players)
    items = "".join(f"<li>{links.player(n)} · {_count(played[n], 'game')}</li>" for n in names)
    return _page("Players", f'<h1>Players</h1><ul class="plain players">{items}</ul>', "", club)


def player_page(conn: Db, name: str, rows: Sequence[GameRow], links: Links, club: str) -> str:
    record = player(conn, name, Filters()) or {
        "games": [],
        "seasons": [],
        "partners": [],
        "opponents": [],
        "findings": [],
    }
    seen = outings(rows, name)
    parts = [f"<h1>{_e(name)}</h1>"]
    by_kind: dict[str, list[Outing]] = defaultdict(list)
    for o in seen:
        by_kind[o.row.game or "?"].append(o)
    for kind, mine in sorted(by_kind.items()):
        parts.append(f'<h2 id="{slug(kind)}">{_e(kind)}</h2><div class="charts">')
        parts.append(
            "<figure><figcaption>Points over time (running total)</figcaption>"
            f"{points_chart(name, kind, mine)}</figure>"
        )
        parts.append(
            f"<figure><figcaption>Finishing positions</figcaption>{positions_chart(name, kind, mine)}</figure></div>"
        )
    record_rows = [
        f'<tr><td class="text">{_e(r["game"])}</td><td class="text">{_e(_season_label(r))}</td>'
        + "".join(f"<td>{r[k]}</td>" for k in ("games", "hands", "wins", "points"))
        + f"<td>{r['average']:.2f}</td></tr>"
        for r in [*record["games"], *record["seasons"]]
    ]
    parts.append(
        "<h2>Record</h2>" + _table([("game", "text"), ("season", "text"), *_NUM], record_rows, ' class="record"')
    )
    for r in record["games"]:
        if r["facts"]:
            parts.append(
                f"<h3>{_e(r['game'])}: facts of the game</h3>"
                f'<p class="facts">over {_count(r["scored_hands"], "scored hand")}</p>'
                + _table(
                    [("fact", "text"), ("", "")],
                    [
                        f'<tr data-fact="{_e(f["fact"])}"><td class="text">{_e(f["label"])}</td>'
                        f'<td data-key="value">{fact_text(f)}</td></tr>'
                        for f in r["facts"]
                    ],
                    f' class="game-facts" data-game="{_e(r["game"])}"',
                )
            )
    if record["partners"]:
        parts.append(
            "<h3>Partners</h3>"
            + _table(
                [("partner", "text"), ("games", ""), ("won", "")],
                [
                    f'<tr><td class="text">{links.player(p["player"], "../")}</td>'
                    f"<td>{p['games']}</td><td>{p['wins']}</td></tr>"
                    for p in record["partners"]
                ],
            )
        )
    if record["opponents"]:
        parts.append(
            "<h3>Opponents</h3>"
            + _table(
                [("opponent", "text"), ("games", ""), ("ahead", ""), ("behind", "")],
                [
                    f'<tr><td class="text">{links.player(o["player"], "../")}</td><td>{o["games"]}</td>'
                    f"<td>{o['ahead']}</td><td>{o['behind']}</td></tr>"
                    for o in record["opponents"]
                ],
            )
        )
    if record["findings"]:
        parts.append(
            "<h3>Findings about him</h3>"
            + _table(
                [("finding", "text"), ("count", ""), ("per 100 hands", "")],
                [
                    f'<tr><td class="text">{_e(f["code"])}</td><td>{f["count"]}</td>'
                    f"<td>{f['per_100_hands']:.2f}</td></tr>"
                    for f in record["findings"]
                ],
            )
        )
    game_rows = []
    for o in reversed(seen):
        r = o.row
        place = f"{_ordinal(o.position)} of {o.sides}" if o.position is not None else ""
        points = "" if o.points is None else str(o.points)
        game_rows.append(
            f'<tr><td class="text">{_e(r.date or "undated")}</td><td class="text">{_e(r.game or "?")}</td>'
            f'<td class="text">{_e(r.event or "")}</td><td>{points}</td><td>{place}</td>'
            f'<td class="text">{"won" if won(r, (name,)) else ""}</td>'
            f'<td class="text"><a href="../{links.games[r.id]}">replay</a></td></tr>'
        )
    parts.append(
        "<h2>Games</h2>"
        + _table(
            [
                ("date", "text"),
                ("game", "text"),
                ("event", "text"),
                ("points", ""),
                ("place", ""),
                ("", "text"),
                ("", "text"),
            ],
            game_rows,
            ' class="player-games"',
        )
    )
    return _page(name, "\n".join(parts), "../", club)


def _season_label(entry: dict[str, Any]) -> str:
    """A line of a player's record: `all` for a game's whole record, else its season (`undated` for none)."""
    if "season" not in entry:
        return "all"
    return str(entry["season"] or "undated")


def _fallback_page(row: GameRow, why: str) -> str:
    """A game the replay page cannot show: its text as written, and why."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{_e(row.path)}:{row.index}</title><link rel="icon" href="data:,">'
        '<link rel="stylesheet" href="../site.css"></head><body><main>'
        f'<h1>{_e(Path(row.path).name)}:{row.index}</h1><p class="note">{_e(why)}</p>'
        f'<div class="scroll"><pre>{_e(row.text)}</pre></div></main></body></html>\n'
    )


def replay_html(row: GameRow) -> tuple[str, str | None]:
    """The replay page of one archived game (from its text as kept), or a page of its text and why there is none."""
    from imptools.check import judge_game
    from imptools.present.replay_page import replay_page
    from imptools.reader import read_games
    from imptools.replay import replay_game

    text = row.text.removeprefix("\ufeff")
    try:
        records = list(read_games(text if "\n" in text else text + "\n", path=row.path))
        replays = [replay_game(g, judge_game(g)) for g in records]
        return replay_page(replays), None
    except Exception as exc:  # a bug in imptools must not stop the site: the game is shown as written
        why = f"imptools could not replay this game ({type(exc).__name__}: {exc}); its record as written:"
        return _fallback_page(row, why), why


# --------------------------------------------------------------------------- the build


def _originals(conn: Db, every: Sequence[GameRow]) -> dict[int, int]:
    """Each game's original (itself for an original): the copy of its canonical text first by path and position."""
    digest = dict(conn.execute("SELECT id, canonical_sha256 FROM games").fetchall())
    first: dict[str, int] = {}
    for r in sorted(every, key=lambda r: (r.path, r.index)):
        first.setdefault(digest[r.id], r.id)
    return {r.id: first[digest[r.id]] for r in every}


def _relative(path: str, every: Sequence[GameRow]) -> str:
    """`path` below the folder that holds every file of the archive (a game page's name comes from it)."""
    try:
        root = os.path.commonpath([os.path.dirname(r.path) for r in every])
        return os.path.relpath(path, root) if root else path
    except ValueError:  # paths on several drives, or relative and absolute mixed
        return path


def count_pages(conn: Db) -> int:
    """How many pages `build` will write (for a progress bar)."""
    row = conn.execute(
        "SELECT (SELECT count(DISTINCT canonical_sha256) FROM games), (SELECT count(DISTINCT name) FROM players)"
    ).fetchone()
    return 3 + int(row[0]) + int(row[1])


def build(conn: Db, out: Path, club: str = "Club archive", done: Callable[[str], None] | None = None) -> SiteSummary:
    """Write the site into `out` (made if missing; files of the same names are replaced, others left alone);
    `done` is told each page's path, relative to `out`, once it is written."""
    every = games(conn, Filters())
    rows = [r for r in every if r.original]
    names = sorted({p for r in every for p in r.players}, key=lambda n: (n.casefold(), n))
    player_files = unique_names(names, "player")
    keys = {r.id: f"{_relative(r.path, every)}:{r.index}" for r in rows}
    game_files = unique_names(keys.values(), "game")
    by_key = {gid: game_files[key] for gid, key in keys.items()}
    originals = _originals(conn, every)
    links = Links(player_files, {r.id: f"games/{by_key[originals[r.id]]}.html" for r in every})
    summary = SiteSummary(players=len(names), games=len(rows))
    (out / "players").mkdir(parents=True, exist_ok=True)
    (out / "games").mkdir(exist_ok=True)

    def write(relative: str, text: str) -> None:
        (out / relative).write_text(text, encoding="utf-8")
        if relative.endswith(".html"):
            summary.pages += 1
            if done is not None:
                done(relative)

    write("site.css", resources.files(__package__).joinpath("site.css").read_text(encoding="utf-8"))
    write("index.html", index_page(conn, rows, links, club))
    write("games.html", games_page(every, links, club))
    write("players.html", players_page(names, rows, links, club))
    for name in names:
        write(f"players/{player_files[name]}.html", player_page(conn, name, rows, links, club))
    for r in rows:
        page, why = replay_html(r)
        if why is not None:
            summary.replays_failed.append(f"{r.path}:{r.index}")
        write(links.games[r.id], page)
    return summary
