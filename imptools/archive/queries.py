"""Questions put to the archive: standings, games matching filters, duplicates, a player's record.

A game kept twice (the same deals and plays under the same rules, whatever the
comments: the same `canonical_sha256`) counts once; its original is the copy
first by path and position in the file, so the answer does not depend on the
order the files were added in.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from imptools.archive.db import SQLITE, Db, Dialect

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Filters:
    """What `standings`, `find` and `player` narrow the games down to; None or empty means any."""

    game: str | None = None
    variant: str | None = None
    since: str | None = None
    until: str | None = None
    event: str | None = None
    players: tuple[str, ...] = ()
    finding: str | None = None

    def where(self, dialect: Dialect = SQLITE) -> tuple[str, list[Any]]:
        """The SQL condition on `games g` (and its parameters), in `dialect`."""
        parts: list[str] = []
        args: list[Any] = []
        if self.game is not None:
            parts.append("g.game = ?")
            args.append(self.game)
        if self.variant is not None:
            parts.append("g.variant = ?")
            args.append(self.variant)
        if self.since is not None or self.until is not None:  # a Date that is no date matches no date filter
            parts.append(dialect.iso_date.format(col="g.date"))
        if self.since is not None:
            parts.append("g.date >= ?")
            args.append(self.since)
        if self.until is not None:
            parts.append("g.date <= ?")
            args.append(self.until)
        if self.event is not None:
            parts.append(dialect.contains.format(hay="lower(g.event)"))
            args.append(self.event)
        for name in self.players:
            parts.append("EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.name = ?)")
            args.append(name)
        if self.finding is not None:
            parts.append("EXISTS (SELECT 1 FROM findings x WHERE x.game_id = g.id AND x.code = ?)")
            args.append(self.finding)
        return (" AND ".join(parts) or "1 = 1"), args


_GAMES = """
    SELECT g.id, f.path, g.game_index, g.game, g.variant, g.date, g.event, g.over, g.text,
           ROW_NUMBER() OVER (PARTITION BY g.canonical_sha256 ORDER BY f.path, g.game_index) AS copy
    FROM games g JOIN files f ON f.id = g.file_id
"""


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as the queries see it."""

    id: int
    path: str
    index: int
    game: str | None
    variant: str | None
    date: str | None
    event: str | None
    over: bool
    text: str
    original: bool
    players: tuple[str, ...] = ()
    totals: dict[str, int] = field(default_factory=dict)
    sides: dict[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    hands: int = 0


def games(conn: Db, filters: Filters, distinct: bool = False) -> list[GameRow]:
    """The games matching `filters` by date, path and position (only originals when `distinct`)."""
    where, args = filters.where(conn.dialect)
    # the copies are numbered among all games, then filtered, so the original stays the original
    sql = f"SELECT * FROM ({_GAMES}) AS a WHERE a.id IN (SELECT g.id FROM games g WHERE {where})"
    if distinct:
        sql += " AND a.copy = 1"
    sql += " ORDER BY a.date IS NULL, a.date, a.path, a.game_index"
    rows = conn.execute(sql, args).fetchall()
    ids = [r[0] for r in rows]
    seats: dict[int, list[tuple[str, int | None, int | None, int]]] = defaultdict(list)
    hands: dict[int, int] = {}
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        for gid, name, side, total, winner in conn.execute(
            f"SELECT game_id, name, side, total, winner FROM players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            part,
        ):
            seats[gid].append((name, side, total, winner))
        for gid, count in conn.execute(
            f"SELECT game_id, count(*) FROM hands WHERE game_id IN ({marks}) GROUP BY game_id", part
        ):
            hands[gid] = count
    out = []
    for gid, path, index, game, variant, date, event, over, text, copy in rows:
        ps = seats.get(gid, [])
        out.append(
            GameRow(
                gid,
                path,
                index,
                game,
                variant,
                date,
                event,
                bool(over),
                text,
                copy == 1,
                tuple(p[0] for p in ps),
                {p[0]: p[2] for p in ps if p[2] is not None},
                {p[0]: p[1] for p in ps if p[1] is not None},
                tuple(p[0] for p in ps if p[3]),
                hands.get(gid, 0),
            )
        )
    return out


def game_kinds(conn: Db) -> list[str]:
    """The games (`Game` tags) the archive holds, in order."""
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM games WHERE game IS NOT NULL ORDER BY game")]


def won(row: GameRow, players: tuple[str, ...]) -> bool:
    """Whether `players` (one, or a side) won the game: the winners of a game played out, else the leaders where
    the record stops (a club night ends with whoever leads); a game with no scores has no winner."""
    if row.over:
        return any(p in row.winners for p in players)
    if not row.totals:
        return False
    best = max(row.totals.values())
    return any(row.totals.get(p) == best for p in players)


def _sides(row: GameRow) -> list[tuple[str, ...]]:
    """The sides of a game: its partnerships where the rules fix them, else each player alone."""
    if not row.sides:
        return [(p,) for p in row.players]
    by: dict[int, list[str]] = defaultdict(list)
    for p in row.players:
        if p in row.sides:
            by[row.sides[p]].append(p)
    return [tuple(v) for _k, v in sorted(by.items())]


def standings(conn: Db, filters: Filters) -> dict[str, Any]:
    """Per player (and per pair where partnerships are fixed): games, hands, wins, points, average, rating.

    Points are the sum of the player's totals (as `imp score` gives them) over the
    distinct games; the rating is openskill's Plackett-Luce model run over the games
    in date order, each game ranked by its final totals (sides as teams).
    """
    rows = games(conn, filters, distinct=True)
    people: dict[str, dict[str, Any]] = {}
    pairs: dict[tuple[str, ...], dict[str, Any]] = {}

    def line(table: dict[Any, dict[str, Any]], key: Any) -> dict[str, Any]:
        return table.setdefault(key, {"games": 0, "hands": 0, "wins": 0, "points": 0})

    for row in rows:
        for p in row.players:
            entry = line(people, p)
            entry["games"] += 1
            entry["hands"] += row.hands
            entry["points"] += row.totals.get(p, 0)
            entry["wins"] += int(won(row, (p,)))
        if row.sides:
            for side in _sides(row):
                if len(side) < 2:
                    continue
                entry = line(pairs, tuple(sorted(side)))
                entry["games"] += 1
                entry["hands"] += row.hands
                entry["points"] += max((row.totals.get(p, 0) for p in side), default=0)
                entry["wins"] += int(won(row, side))
    ratings, pair_ratings = _ratings(rows)

    def finish(entry: dict[str, Any]) -> dict[str, Any]:
        entry["average"] = round(entry["points"] / entry["hands"], 2) if entry["hands"] else 0.0
        return entry

    out_rows = []
    for name, entry in people.items():
        out_rows.append({"player": name, **finish(entry), **_shown_rating(ratings.get(name))})
    out_rows.sort(key=lambda r: (-r["points"], -(r["rating"] or 0.0), r["player"]))
    out_pairs = [
        {"pair": list(k), "player": "+".join(k), **finish(v), **_shown_rating(pair_ratings.get(k))}
        for k, v in pairs.items()
    ]
    out_pairs.sort(key=lambda r: (-r["points"], -(r["rating"] or 0.0), r["player"]))
    return {
        "game": filters.game,
        "games": len(rows),
        "rows": out_rows,
        "pairs": out_pairs,
    }


def _shown_rating(rating: tuple[float, float] | None) -> dict[str, float | None]:
    """A rating as a standings line shows it: mu - 3 sigma (a cautious estimate), mu and sigma; None when unrated."""
    if rating is None:
        return {"rating": None, "mu": None, "sigma": None}
    mu, sigma = rating
    return {"rating": round(mu - 3 * sigma, 2), "mu": round(mu, 2), "sigma": round(sigma, 2)}


Rating = tuple[float, float]


def _ratings(rows: list[GameRow]) -> tuple[dict[str, Rating], dict[tuple[str, ...], Rating]]:
    """Each player's openskill rating (mu, sigma) after the games `rows`, in their order, and each fixed pair's.

    A pair is rated as one entity over the games it played together: a game whose
    sides are all pairs is, for the pairs' ratings, a game of those entities alone.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:  # the optional extra `archive` is not installed: no ratings
        return {}, {}
    model = PlackettLuce()
    current: dict[str, Any] = {}
    pairs: dict[tuple[str, ...], Any] = {}
    for row in rows:
        if not row.totals:
            continue
        teams = [side for side in _sides(row) if all(p in row.totals for p in side)]
        if len(teams) < 2:
            continue
        scores = [float(max(row.totals[p] for p in side)) for side in teams]
        ratings = [[current.get(p) or model.rating(name=p) for p in side] for side in teams]
        rated = model.rate(ratings, scores=scores)
        for side, team in zip(teams, rated):
            for p, r in zip(side, team):
                current[p] = r
        if row.sides and all(len(side) >= 2 for side in teams):
            keys = [tuple(sorted(side)) for side in teams]
            entities = [[pairs.get(k) or model.rating(name="+".join(k))] for k in keys]
            for k, team in zip(keys, model.rate(entities, scores=scores)):
                pairs[k] = team[0]
    return (
        {p: (float(r.mu), float(r.sigma)) for p, r in current.items()},
        {k: (float(r.mu), float(r.sigma)) for k, r in pairs.items()},
    )


def find(conn: Db, filters: Filters) -> list[GameRow]:
    """Every game matching `filters` (copies included: each is a record of its own)."""
    return games(conn, filters)


def find_to_dict(rows: list[GameRow]) -> dict[str, Any]:
    return {
        "games": [
            {
                "path": r.path,
                "game": r.index,
                "name": r.game,
                "variant": r.variant,
                "date": r.date,
                "event": r.event,
                "players": list(r.players),
                "totals": r.totals,
            }
            for r in rows
        ],
    }


def records_text(rows: list[GameRow]) -> str:
    """The games' own texts, as written (comments kept), one after another: one record file."""
    parts: list[str] = []
    for r in rows:
        text = r.text.removeprefix("\ufeff")  # a file's byte order mark is not part of its first game
        text = text if text.endswith(("\n", "\r")) else text + "\n"
        if parts and not text.startswith(("\n", "\r\n", "\r")):
            text = "\n" + text
        parts.append(text)
    return "".join(parts)


def dupes(conn: Db) -> dict[str, Any]:
    """Each game kept more than once: its original (first by path and position) and its copies."""
    groups: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for digest, path, index in conn.execute(
        "SELECT g.canonical_sha256, f.path, g.game_index FROM games g JOIN files f ON f.id = g.file_id "
        "WHERE g.canonical_sha256 IN (SELECT canonical_sha256 FROM games GROUP BY canonical_sha256 "
        "HAVING count(*) > 1) ORDER BY f.path, g.game_index"
    ):
        groups[digest].append((path, index))
    found = sorted(groups.values())
    return {
        "duplicates": [
            {
                "original": {"path": g[0][0], "game": g[0][1]},
                "copies": [{"path": p, "game": i} for p, i in g[1:]],
            }
            for g in found
        ],
    }


def player(conn: Db, name: str, filters: Filters) -> dict[str, Any] | None:
    """A player's record over the distinct games he played: by game and by season (the year of the `Date`),
    his partners and opponents, and the findings about him per 100 of his hands; None if he played no game."""
    rows = [r for r in games(conn, Filters(**{**_fields(filters), "players": (name,)}), distinct=True)]
    if not rows:
        return None
    by_game: dict[str, dict[str, Any]] = {}
    by_season: dict[tuple[str, str | None], dict[str, Any]] = {}
    partners: dict[str, dict[str, int]] = {}
    opponents: dict[str, dict[str, int]] = {}

    def tally(entry: dict[str, Any], row: GameRow, side: tuple[str, ...]) -> None:
        entry["games"] += 1
        entry["hands"] += row.hands
        entry["points"] += row.totals.get(name, 0)
        entry["wins"] += int(won(row, side))

    def blank() -> dict[str, Any]:
        return {"games": 0, "hands": 0, "wins": 0, "points": 0}

    for row in rows:
        side = next((s for s in _sides(row) if name in s), (name,))
        kind = row.game or "?"
        tally(by_game.setdefault(kind, blank()), row, side)
        tally(by_season.setdefault((kind, season(row.date)), blank()), row, side)
        mine = row.totals.get(name)
        for other in row.players:
            if other == name:
                continue
            if other in side:
                p = partners.setdefault(other, {"games": 0, "wins": 0})
                p["games"] += 1
                p["wins"] += int(won(row, side))
            else:
                o = opponents.setdefault(other, {"games": 0, "ahead": 0, "behind": 0})
                o["games"] += 1
                theirs = row.totals.get(other)
                if mine is not None and theirs is not None:
                    o["ahead"] += int(mine > theirs)
                    o["behind"] += int(mine < theirs)
    hands = sum(r.hands for r in rows)
    ids = [r.id for r in rows]
    counts: dict[str, int] = defaultdict(int)
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        for code, count in conn.execute(
            f"SELECT code, count(*) FROM findings WHERE player = ? AND game_id IN ({marks}) GROUP BY code",
            [name, *part],
        ):
            counts[code] += count

    def average(entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, "average": round(entry["points"] / entry["hands"], 2) if entry["hands"] else 0.0}

    facts = game_facts(conn, name, rows)
    return {
        "player": name,
        "games": [{"game": k, **average(v), **facts[k]} for k, v in sorted(by_game.items())],
        "seasons": [
            {"game": k, "season": s, **average(v)}
            for (k, s), v in sorted(by_season.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))
        ],
        "partners": [{"player": p, **v} for p, v in sorted(partners.items(), key=lambda kv: (-kv[1]["games"], kv[0]))],
        "opponents": [
            {"player": p, **v} for p, v in sorted(opponents.items(), key=lambda kv: (-kv[1]["games"], kv[0]))
        ],
        "findings": [
            {"code": c, "count": n, "per_100_hands": round(100 * n / hands, 2) if hands else 0.0}
            for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
    }


def game_facts(conn: Db, name: str, rows: list[GameRow]) -> dict[str, dict[str, Any]]:
    """Per game (`Game` tag) of `rows`: the scored hands `name` played, and each fact the game's ruleset counts
    (its key, label and value: a count, or with `per_hand` the average over those hands); no facts without a
    scored hand, nor for a game imptools does not know."""
    from imptools.rules import get_ruleset

    kind_of = {r.id: r.game or "?" for r in rows}
    scored: dict[str, int] = dict.fromkeys(kind_of.values(), 0)
    sums: dict[str, dict[str, int]] = {k: defaultdict(int) for k in kind_of.values()}
    ids = list(kind_of)
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        for gid, count in conn.execute(
            f"SELECT game_id, count(*) FROM hands WHERE scored = 1 AND game_id IN ({marks}) GROUP BY game_id", part
        ):
            scored[kind_of[gid]] += int(count)
        for gid, fact, total in conn.execute(
            f"SELECT game_id, fact, sum(value) FROM facts WHERE player = ? AND game_id IN ({marks}) "
            "GROUP BY game_id, fact",
            [name, *part],
        ):
            sums[kind_of[gid]][fact] += int(total)
    out: dict[str, dict[str, Any]] = {}
    for kind, hands in scored.items():
        ruleset = get_ruleset(kind)
        kinds = ruleset.facts if ruleset is not None and hands else ()
        out[kind] = {
            "scored_hands": hands,
            "facts": [
                {
                    "fact": f.key,
                    "label": f.label,
                    "per_hand": f.per_hand,
                    "value": round(sums[kind][f.key] / hands, 2) if f.per_hand else sums[kind][f.key],
                }
                for f in kinds
            ],
        }
    return out


def fact_text(fact: dict[str, Any]) -> str:
    """A fact of `game_facts` as a record shows it: a count, or an average to two places.

    >>> fact_text({"value": 3, "per_hand": False}), fact_text({"value": 2.5, "per_hand": True})
    ('3', '2.50')
    """
    return f"{fact['value']:.2f}" if fact["per_hand"] else str(fact["value"])


def season(date: str | None) -> str | None:
    """The season of a game: the year of its date (None when it has none, or one that is no date).

    >>> season("2026-03-05"), season("spring 2025"), season(None)
    ('2026', None, None)
    """
    return date[:4] if date and _ISO.fullmatch(date) else None


def _fields(filters: Filters) -> dict[str, Any]:
    return {f: getattr(filters, f) for f in Filters.__dataclass_fields__}
