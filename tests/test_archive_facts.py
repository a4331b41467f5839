"""Each game's own facts in `imp archive player`, and the pairs' rating in `imp archive standings`, on SQLite and on a
real PostgreSQL (the `postgres` fixture in conftest.py), run as a user runs them.

The facts are counted here again, apart from the rules that count them for the
archive: from the records' own lines (trump and doubling calls, bids, declares
and reveals) and from the hand scores `imp score --json` gives (a Bottle Imp
player scores below 0 exactly when he holds a bottle at the end, in the classic
and second-bottle variants, where his coins are his score; a Ninety-nine score is
the tricks taken plus bonuses in tens, so its last digit is the tricks).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_archive import imp, make_db, run_json, simulate

from imptools.archive.schema import SCHEMA_VERSION, connect
from imptools.archive.store import content

FOUR = "Adam Betty Christian Doris"
Facts = dict[str, dict[str, dict[str, float]]]
"""player -> game -> fact -> value, as `imp archive player --json` gives them."""


@dataclass(frozen=True)
class Nights:
    root: Path
    copy: Path
    """A copy of a night with a comment added: counted once."""


def with_calls(text: str, calls: dict[int, str]) -> str:
    """A simulated Ninety-nine record with a `declare` or `reveal` line after the bids of some hands."""
    out: list[str] = []
    hand = 0
    for line in text.splitlines():
        if m := re.match(r"hand (\d+) ", line):
            hand = int(m[1])
        if re.match(r"1\. ", line) and hand in calls:
            out.append(calls[hand])
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory) -> Nights:
    root = tmp_path_factory.mktemp("facts") / "nights"
    root.mkdir()

    def night(name: str, game: str, players: str, hands: int, seed: int, date: str, *extra: str) -> str:
        args = ["simulate", "-g", game, "-p", players, "-n", str(hands), "--seed", str(seed), "--tag", f"Date={date}"]
        out = imp(*args, "--tag", "Event=Thursday club", *extra)
        assert out.returncode == 0, out.stderr
        (root / name).write_text(out.stdout, encoding="utf-8")
        return str(out.stdout)

    bottle = night("bottle-1.imp", "bottle-imp", FOUR, 6, 11, "2026-01-08")
    night("bottle-2.imp", "bottle-imp", "Adam Betty Christian Doris Fiona", 5, 12, "2026-01-15", "-v", "second-bottle")
    night("botifarra-1.imp", "botifarra", FOUR, 14, 13, "2026-01-22")
    night("botifarra-2.imp", "botifarra", "Christian Betty Adam Doris", 14, 14, "2026-01-29")
    night("botifarra-3.imp", "botifarra", FOUR, 10, 15, "2026-02-05", "--tag", "Teams=none")
    nine = night("ninety-1.imp", "ninety-nine", "Adam Betty Emil", 9, 16, "2026-02-12", "--no-scores")
    (root / "ninety-1.imp").write_text(
        with_calls(nine, {2: "declare Adam", 4: "reveal Betty", 5: "declare Emil", 7: "reveal Adam"}), encoding="utf-8"
    )
    # a night whose only hand stops before its end: no scored hand, so no facts
    cut = simulate("bottle-imp", "Gina Hugo Ivan Jack", 1, 17, "2026-02-19", "Thursday club").splitlines()
    tricks = [i for i, line in enumerate(cut) if re.match(r"\d+\. ", line)]
    (root / "cut.imp").write_text("\n".join(cut[: tricks[3]]) + "\n", encoding="utf-8")
    copy = root / "copy.imp"
    copy.write_text("; Betty's notebook\n" + bottle, encoding="utf-8")
    return Nights(root, copy)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def archive(
    nights: Nights, backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    db = make_db(backend, request, tmp_path_factory.mktemp("db"), "facts")
    run_json("archive", "add", "--db", db, "--json", str(nights.root))
    return db


# --------------------------------------------------------------------------- counted again, apart from the rules


def hands_of(text: str) -> dict[int, list[str]]:
    """Each hand's lines, by its number."""
    out: dict[int, list[str]] = {}
    hand = 0
    for line in text.splitlines():
        if m := re.match(r"hand (\d+) ", line):
            hand = int(m[1])
            out[hand] = []
        elif hand:
            out[hand].append(line)
    return out


def tag(text: str, name: str) -> str | None:
    m = re.search(rf'^\[{name} "([^"]*)"\]', text, re.M)
    return m[1] if m else None


def bid_of(words: list[str], turnup: str) -> int:
    """A Ninety-nine bid from its line: a number, or its three cards' suits (D 0, S 1, H 2, C 3; the joker with the
    turned-up card's suit)."""
    if len(words) == 1:
        return int(words[0])
    return sum("DSHC".index((turnup if card == "JK" else card)[-1]) for card in words)


def expected_facts(nights: Nights) -> Facts:
    scored = run_json("score", "--json", str(nights.root))
    facts: Facts = defaultdict(lambda: defaultdict(lambda: defaultdict(float)))
    hands: dict[tuple[str, str], int] = defaultdict(int)
    for g in scored["games"]:
        path = Path(g["path"])
        if path.resolve() == nights.copy.resolve():
            continue  # the same game as bottle-1: counted once
        text = path.read_text(encoding="utf-8")
        game = tag(text, "Game")
        assert game is not None
        players = g["players"]
        lines = hands_of(text)
        for h in g["hands"]:
            scores = h["scores"]
            if scores is None:
                continue
            for p in players:
                hands[(p, game)] += 1
                facts[p][game]  # every player of a scored hand has the game's facts, 0 where he never had one
            mine = lines[h["hand"]]
            if game == "bottle-imp":
                for p, v in scores.items():
                    facts[p][game]["coins"] += v
                    facts[p][game]["bottle"] += v < 0
            elif game == "botifarra":
                partners = tag(text, "Teams") != "none"
                for line in mine:
                    words = line.split()
                    if words[:1] == ["trump"]:
                        facts[words[1]][game]["delegated" if words[2] == "delegate" else f"trump-{words[2]}"] += 1
                    elif words[:1] and words[0] in ("contro", "recontro", "sant-vicenc"):
                        i = players.index(words[1])
                        for p in [words[1], players[(i + 2) % 4]] if partners else [words[1]]:
                            facts[p][game][words[0]] += 1
                            facts[p][game][f"{words[0]}-won"] += scores[p] > 0
            else:
                turnup = next(line.split()[1] for line in mine if line.startswith("turnup "))
                bids = {w[1]: bid_of(w[2:], turnup) for w in (line.split() for line in mine) if w[:1] == ["bid"]}
                made = {p: bids[p] == scores[p] % 10 for p in players}
                for p in players:
                    facts[p][game]["exact"] += made[p]
                for line in mine:
                    words = line.split()
                    if words[:1] and words[0] in ("declare", "reveal"):
                        facts[words[1]][game][words[0]] += 1
                        facts[words[1]][game][f"{words[0]}-made"] += made[words[1]]
    for (p, game), n in hands.items():
        if game == "bottle-imp":
            facts[p][game]["coins"] = round(facts[p][game]["coins"] / n, 2)
    return facts


def archived_facts(db: str, name: str) -> dict[str, dict[str, float]]:
    doc = run_json("archive", "player", name, "--db", db, "--json")
    return {g["game"]: {f["fact"]: f["value"] for f in g["facts"]} for g in doc["games"] if g["facts"]}


# --------------------------------------------------------------------------- the facts


def test_each_players_facts_are_what_the_records_and_their_scores_say(nights: Nights, archive: str) -> None:
    expected = expected_facts(nights)
    assert set(expected) == {"Adam", "Betty", "Christian", "Doris", "Emil", "Fiona"}
    for name, games in expected.items():
        got = archived_facts(archive, name)
        assert set(got) == set(games), name
        for game, facts in games.items():
            # the rules name every fact of the game; those the player never had are 0
            assert {k: v for k, v in got[game].items() if v} == {k: v for k, v in facts.items() if v}, (name, game)
    # the nights hold what the facts are about, so none of the above compares zeros only
    total: dict[str, float] = defaultdict(float)
    for games in expected.values():
        for facts in games.values():
            for k, v in facts.items():
                total[k] += v
    for fact in ("bottle", "delegated", "trump-botifarra", "contro", "contro-won", "recontro", "exact"):
        assert total[fact] > 0, fact
    for fact in ("declare", "reveal", "declare-made", "reveal-made"):
        assert total[fact] > 0 or fact.endswith("-made"), fact
    assert total["declare"] == 2 and total["reveal"] == 2
    # with two bottles one player may hold both: one hand ending with the bottle, twice the minus
    doc = run_json("archive", "player", "Fiona", "--db", archive, "--json")
    assert [g["game"] for g in doc["games"]] == ["bottle-imp"] and doc["games"][0]["scored_hands"] == 5


def test_a_game_without_a_scored_hand_of_his_has_no_facts(nights: Nights, archive: str) -> None:
    emil = run_json("archive", "player", "Emil", "--db", archive, "--json")
    assert [g["game"] for g in emil["games"]] == ["ninety-nine"]  # nothing of the games he never played
    gina = run_json("archive", "player", "Gina", "--db", archive, "--json")
    assert [(g["game"], g["hands"], g["scored_hands"], g["facts"]) for g in gina["games"]] == [("bottle-imp", 1, 0, [])]
    adam = run_json("archive", "player", "Adam", "--db", archive, "--json", "--game", "ninety-nine")
    assert [g["game"] for g in adam["games"]] == ["ninety-nine"]
    assert [f["fact"] for f in adam["games"][0]["facts"]] == [
        "exact",
        "declare",
        "declare-made",
        "reveal",
        "reveal-made",
    ]


def test_the_facts_are_labelled_by_the_rules_in_text_and_json(nights: Nights, archive: str) -> None:
    doc = run_json("archive", "player", "Adam", "--db", archive, "--json")
    labels = {g["game"]: [(f["fact"], f["label"], f["per_hand"]) for f in g["facts"]] for g in doc["games"]}
    assert labels["bottle-imp"] == [
        ("bottle", "hands ending with the bottle", False),
        ("coins", "coins per hand", True),
    ]
    assert ("trump-botifarra", "trump chosen: botifarra", False) in labels["botifarra"]
    assert ("sant-vicenc-won", "sant-vicenç called and won", False) in labels["botifarra"]
    out = imp("archive", "player", "Adam", "--db", archive, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert out.returncode == 0, out.stderr
    coins = next(f for f in doc["games"][1]["facts"] if f["fact"] == "coins")
    assert doc["games"][1]["game"] == "bottle-imp"
    assert re.search(rf"coins per hand\s*│\s*{coins['value']:.2f}", out.stdout)
    assert "bids made (exactly)" in out.stdout and "contros called by his side" in out.stdout
    assert f"bottle-imp · {doc['games'][1]['scored_hands']} scored hands" in out.stdout


# --------------------------------------------------------------------------- the upgrade from schema version 1


def test_an_archive_of_schema_version_1_is_upgraded_with_the_facts_of_the_games_it_keeps(
    nights: Nights, archive: str, backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    old = make_db(backend, request, tmp_path, "old")
    run_json("archive", "add", "--db", old, "--json", str(nights.root))
    conn = connect(old, create=False)
    conn.begin()  # back to what version 1 made: its tables, and no facts
    conn.execute("DROP TABLE facts")
    conn.execute("DELETE FROM migrations WHERE version = 2")
    conn.commit()
    conn.close()
    if backend == "sqlite":
        import sqlite3

        with sqlite3.connect(old) as lite:
            assert lite.execute("SELECT max(version) FROM migrations").fetchone() == (1,)
            assert lite.execute("SELECT count(*) FROM sqlite_master WHERE name = 'facts'").fetchone() == (0,)
    assert SCHEMA_VERSION == 2
    expected = expected_facts(nights)
    for name in ("Adam", "Emil"):  # the first command upgrades it
        got = archived_facts(old, name)
        assert got == archived_facts(archive, name)
        assert {g: {k: v for k, v in f.items() if v} for g, f in got.items()} == {
            g: {k: v for k, v in f.items() if v} for g, f in expected[name].items()
        }
    a, b = connect(old, create=False), connect(archive, create=False)
    try:
        assert a.execute("SELECT version, description FROM migrations ORDER BY version").fetchall()[-1][0] == 2
        assert content(a) == content(b)  # the same rows as an archive made anew
        assert sum(1 for row in content(a) if row[0] == "fact") > 50
    finally:
        a.close()
        b.close()
    again = run_json("archive", "add", "--db", old, "--json", str(nights.root))
    assert (again["added"], again["updated"]) == (0, 0)


# --------------------------------------------------------------------------- the pairs' rating


def test_a_pair_is_rated_as_one_and_the_rating_is_the_same_however_the_games_were_added(
    tmp_path: Path, new_db: Callable[[str], str]
) -> None:
    nights = tmp_path / "café"
    nights.mkdir()
    paths = []
    wins = {"Adam+Christian": 0, "Betty+Doris": 0}
    for k, seed in enumerate((42, 41, 43, 46)):  # ten hands each: Adam and Christian lead three nights of four
        path = nights / f"night-{k}.imp"
        path.write_text(simulate("botifarra", FOUR, 10, seed, f"2026-03-{k + 10:02d}", "Café league"), encoding="utf-8")
        totals = run_json("score", "--json", str(path))["games"][0]["totals"]
        assert totals["Adam"] != totals["Betty"]
        wins["Adam+Christian" if totals["Adam"] > totals["Betty"] else "Betty+Doris"] += 1
        paths.append(path)
    assert wins == {"Adam+Christian": 3, "Betty+Doris": 1}
    db = new_db("pairs")
    run_json("archive", "add", "--db", db, "--json", str(nights))
    doc = run_json("archive", "standings", "--db", db, "--game", "botifarra", "--json")
    pairs = {r["player"]: r for r in doc["pairs"]}
    assert {p: r["wins"] for p, r in pairs.items()} == wins
    for r in doc["pairs"]:
        assert isinstance(r["rating"], float) and r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=0.011)
    winner, loser = pairs["Adam+Christian"], pairs["Betty+Doris"]
    assert winner["rating"] > loser["rating"] and winner["mu"] > loser["mu"]
    assert winner["sigma"] == loser["sigma"]  # the same games, each as sure of the one as of the other
    # a pair is one entity: its rating is not made of its partners' (which the same games move too)
    players = {r["player"]: r for r in doc["rows"]}
    assert (winner["mu"], winner["sigma"]) != (players["Adam"]["mu"], players["Adam"]["sigma"])
    # adding again, or adding the games one by one in another order, gives the same ratings
    run_json("archive", "add", "--db", db, "--json", str(nights))
    assert run_json("archive", "standings", "--db", db, "--game", "botifarra", "--json") == doc
    other = new_db("other")
    for path in reversed(paths):
        run_json("archive", "add", "--db", other, "--json", str(path))
    assert run_json("archive", "standings", "--db", other, "--game", "botifarra", "--json") == doc
    text = imp("archive", "standings", "--db", db, "--game", "botifarra", env={"COLUMNS": "120", "NO_COLOR": "1"})
    row = next(line for line in text.stdout.splitlines() if "Adam+Christian" in line)
    assert row.split()[-2] == f"{winner['rating']:.2f}"


@pytest.fixture
def new_db(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    return lambda name: make_db(backend, request, tmp_path, name)


def test_the_player_document_meets_its_schema_with_the_facts(archive: str) -> None:
    import importlib.resources

    import jsonschema

    shipped = importlib.resources.files("imptools") / "schemas"
    for doc in (
        run_json("archive", "player", "Gina", "--db", archive, "--json"),
        run_json("archive", "player", "Betty", "--db", archive, "--json"),
        run_json("archive", "standings", "--db", archive, "--game", "botifarra", "--json"),
    ):
        schema = json.loads((shipped / f"{doc['format']}.json").read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(schema)
        assert [e.message for e in validator.iter_errors(doc)] == []
    betty = run_json("archive", "player", "Betty", "--db", archive, "--json")
    broken = json.loads(json.dumps(betty))
    del broken["games"][0]["facts"][0]["label"]
    assert not jsonschema.Draft202012Validator(
        json.loads((shipped / "imp-archive-player.json").read_text(encoding="utf-8"))
    ).is_valid(broken)
