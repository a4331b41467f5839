"""Nothing is lost: `imp export` keeps every line it could not read, verbatim and in its place, and `imp import`
writes it back, for any file (notation section 8)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from imptools.reader import read_games
from imptools.record import CardText, Game, UnreadLine
from imptools.rules import get_ruleset
from imptools.writer import format_games, games_from_json, games_to_json

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CONFORMANCE = ROOT / "tests" / "conformance"  # the conformance cases, as in ../shared/conformance


def records() -> list[Path]:
    found = sorted(SAMPLES.glob("*.imp"))
    if CONFORMANCE.is_dir():
        found += sorted(CONFORMANCE.glob("*/*.imp"))
    return found


def positionless(game: Game) -> Any:
    """The model of a game without where things stand in the text, cards spelt as the game's ruleset spells them."""
    ruleset = get_ruleset(game.game_name)

    def spell(card: CardText) -> str:
        if card.unknown or ruleset is None:
            return card.text
        return ruleset.check_card(card.text, game).canonical or card.text

    def plain(value: Any) -> Any:
        if isinstance(value, CardText):
            return ("card", spell(value))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return (
                type(value).__name__,
                {
                    f.name: plain(getattr(value, f.name))
                    for f in dataclasses.fields(value)
                    if f.name not in ("line", "column", "findings")
                },
            )
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    return plain(game)


def unread(games: list[Game]) -> list[str]:
    """Every line kept as not read, in file order."""
    out: list[str] = []
    for game in games:
        out += [x.text for x in game.header if isinstance(x, UnreadLine)]
        for hand in game.hands:
            out += [x.text for x in hand.lines if isinstance(x, UnreadLine)]
    return out


def round_trip(text: str) -> tuple[list[Game], str, list[Game]]:
    """The games of `text`, the notation `imp import` writes from their export, and the games read from that."""
    games = list(read_games(text, path="night.imp"))
    exported = games_to_json(games)
    assert games_from_json(exported) == games  # the JSON itself loses nothing, positions included
    written = format_games(games_from_json(exported))
    return games, written, list(read_games(written, path="night.imp"))


def assert_nothing_lost(text: str) -> tuple[list[Game], str]:
    games, written, again = round_trip(text)
    assert [positionless(g) for g in again] == [positionless(g) for g in games], written
    kept = unread(games)
    assert unread(again) == kept  # read back as lines not read, the same and in the same order
    at = 0
    for line in kept:  # verbatim in the text written, whole lines, in order
        found = ("\n" + written).find("\n" + line + "\n", at)
        assert found >= 0, (line, written)
        at = found + len(line) + 1

    # and what is wrong with the record is still said of it (a repaired line is written repaired, so no longer wrong)
    def said(gs: list[Game]) -> set[tuple[str, str]]:
        return {(f.code, re.sub(r"line \d+", "line N", f.message)) for g in gs for f in g.findings}

    before, after = said(games), said(again)
    assert after <= before, after - before
    # a second round trip changes nothing
    assert round_trip(written)[1] == written
    return games, written


@pytest.mark.parametrize("path", records(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_and_conformance_record_round_trips(path: Path) -> None:
    assert_nothing_lost(path.read_text(encoding="utf-8"))


HEAD = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n'
HAND = (
    "hand 1 dealer Doris\n"
    "deal Adam 2 4 6 7 13 14 20 24 26\n"
    "1. Adam:24 15 17 32 {17 takes the bottle}\n"
    "2. Christian:8 4 6 7\n"
)


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        (HEAD + HAND.replace("2. Christian", "@@ coffee break\n2. Christian"), ["@@ coffee break"]),
        (HEAD + HAND + "3. 37 33 14 23 {the end is lost\n", []),  # read, the `{` closed at its line's end
        (HEAD + HAND + "3. 37 33 zz:: 14 {the end is lost\n", ["3. 37 33 zz:: 14 {the end is lost"]),
        (HEAD + HAND + "2. x {a note\nover two lines} y::\n", ["2. x {a note\nover two lines} y::"]),
        (HEAD + HAND + "\nwhat Betty owes: 3 coins ; remark\n\n" + HEAD + HAND, ["what Betty owes: 3 coins ; remark"]),
        (HEAD + '[Event "Thursday "club" night]\n' + HAND, ['[Event "Thursday "club" night]']),  # (quotes alone: read)
        (HEAD + HAND + '[Event "second game\n' + "hand 1\n1. Adam:24 15 17 32\n", ['[Event "second game']),
        ("shopping: eggs\n" + HEAD + HAND, ["shopping: eggs"]),
        (HEAD + "deal Adam 2 4 6\n" + HAND, ["deal Adam 2 4 6"]),  # read, but before any hand: no place
        (
            HEAD + "1. Adam:24 15 17 32 {never closed\nhand 1 dealer Doris\n1. Adam:24 15 17 32\n",
            ["1. Adam:24 15 17 32 {never closed"],
        ),
        ("{a note about nothing}\n" + HEAD + HAND, ["{a note about nothing}"]),
        ("   indented garbage\t\n" + HEAD + HAND + "score Adam ten\n", ["   indented garbage\t", "score Adam ten"]),
        (HEAD + HAND + "total Adam 1, Betty 2\n", ["total Adam 1, Betty 2"]),
        ("eggs\nmilk 2\n; a list\n1 dozen apples\n", ["eggs", "milk 2", "1 dozen apples"]),  # no notation at all
        ("Núria 24 ¿qué?\n" + HEAD + HAND, ["Núria 24 ¿qué?"]),
    ],
    ids=[
        "garbage-in-a-hand",
        "unclosed-brace-read",
        "unclosed-brace-not-read",
        "bad-line-over-two-lines",
        "line-between-games",
        "bad-tag",
        "bad-tag-starting-a-game",
        "before-any-tag",
        "line-before-any-hand",
        "trick-before-any-hand-brace-never-closed",
        "note-before-anything",
        "spaces-kept",
        "commas-in-a-total",
        "no-notation",
        "not-ascii",
    ],
)
def test_hand_made_broken_files_keep_every_line(text: str, lines: list[str]) -> None:
    games, written = assert_nothing_lost(text)
    assert unread(games) == lines
    for line in lines:
        assert line + "\n" in written


def test_a_line_not_read_stays_in_its_hand_and_between_the_same_lines() -> None:
    text = HEAD + HAND.replace("2. Christian", "@@ coffee break\n2. Christian") + "\nhand 2\n1. Betty:3 5 8 9\n"
    games, written = assert_nothing_lost(text)
    (game,) = games
    hand1 = game.hands[0]
    assert [type(x).__name__ for x in hand1.lines] == ["Deal", "Trick", "UnreadLine", "Trick"]
    assert "1. Adam:24 15 17 32 {17 takes the bottle}\n@@ coffee break\n2. Christian:8 4 6 7\n" in written
    # between two games, it stays with the game before it (a comment line there goes with the next game's tags)
    between = HEAD + HAND + "\nscribbled between games\n; the second game\n\n" + HEAD + HAND
    (first, second), written = assert_nothing_lost(between)
    assert unread([first]) == ["scribbled between games"] and unread([second]) == []
    assert [type(x).__name__ for x in second.header][:1] == ["CommentLine"]
    assert "2. Christian:8 4 6 7\nscribbled between games\n\n; the second game\n[Game" in written


def imp(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )


def test_the_commands_keep_the_lines_and_the_export_names_them(tmp_path: Path) -> None:
    text = HEAD + HAND.replace("2. Christian", "@@ coffee break\n2. Christian") + "3. 37 33 zz:: 14 {lost\n"
    record = tmp_path / "night.imp"
    record.write_text(text, encoding="utf-8")
    exported = imp("export", "--json", str(record))
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(exported.stdout)
    kept = [x for x in doc["games"][0]["hands"][0]["lines"] if x["type"] == "UnreadLine"]
    assert kept == [
        {"type": "UnreadLine", "text": "@@ coffee break", "line": 6, "column": 1},
        {"type": "UnreadLine", "text": "3. 37 33 zz:: 14 {lost", "line": 8, "column": 1},
    ]
    (tmp_path / "night.json").write_text(exported.stdout, encoding="utf-8")
    back = imp("import", str(tmp_path / "night.json"), "-o", str(tmp_path / "back.imp"))
    assert back.returncode == 0, back.stderr
    written = (tmp_path / "back.imp").read_text(encoding="utf-8")
    assert "@@ coffee break\n2. Christian:8 4 6 7\n3. 37 33 zz:: 14 {lost\n" in written
    piped = imp("import", "-", stdin=exported.stdout)
    assert piped.stdout == written

    # the record read back says the same things are wrong with it (the canonical form moves lines: no positions)
    def said(path: Path) -> list[str]:
        return [line.split(" ", 1)[1] for line in imp("validate", str(path)).stdout.splitlines()]

    assert said(tmp_path / "back.imp") == said(record)


def test_fmt_leaves_a_file_with_lines_it_cannot_read_as_it_is(tmp_path: Path) -> None:
    text = HEAD + HAND.replace("2. Christian", "@@ coffee break\n2. Christian")
    record = tmp_path / "night.imp"
    record.write_text(text, encoding="utf-8")
    out = imp("fmt", "--write", str(record))
    assert out.returncode == 1 and "@@" not in out.stdout
    assert record.read_text(encoding="utf-8") == text


# --------------------------------------------------------------------------- random garbage in real records

SAMPLE_TEXTS = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.imp"))]
GARBAGE = (
    st.lists(
        st.sampled_from([*"abcdeXYZ 0123456789.:!?[]\"-;,'>+@#éß\t", "hand ", "deal ", "score ", "1. ", "Adam"]),
        min_size=1,
        max_size=12,
    )
    .map("".join)
    .filter(lambda s: s.strip() != "")
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sample=st.sampled_from(SAMPLE_TEXTS),
    inserts=st.lists(st.tuples(st.floats(0, 1), GARBAGE), min_size=1, max_size=4),
)
@example(sample=SAMPLE_TEXTS[0], inserts=[(1.0, "0.,")])  # once read as trick 0 with a card `,`, written `0. ,`
def test_random_garbage_lines_in_samples_survive_export_and_import(
    sample: str, inserts: list[tuple[float, str]]
) -> None:
    lines = sample.split("\n")
    placed: list[int] = []
    for where, garbage in inserts:
        at = int(where * len(lines))
        lines.insert(at, garbage)
        placed = [p + (p >= at) for p in placed] + [at]
    text = "\n".join(lines)
    games, written = assert_nothing_lost(text)
    # each line inserted is either read (an element starts on it) or kept verbatim
    starts = set()
    for game in games:
        starts |= {x.line for x in game.header} | {h.line for h in game.hands}
        starts |= {x.line for h in game.hands for x in h.lines if not isinstance(x, UnreadLine)}
    for at in placed:
        inserted = lines[at]
        assert at + 1 in starts or "\n" + inserted + "\n" in "\n" + written, (inserted, written)


def test_past_the_limit_lines_not_read_are_counted_in_one_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    import imptools.reader

    monkeypatch.setattr(imptools.reader, "MAX_UNREAD_CHARS", 40)
    scribbles = "".join(f"@@ scribble number {i}\n" for i in range(5))
    text = HEAD + HAND.replace("2. Christian", scribbles + "2. Christian") + "\n" + HEAD + HAND + "@@ again\n"
    first, second = read_games(text)
    assert unread([first]) == ["@@ scribble number 0", "@@ scribble number 1"]  # 20 characters each
    (lost,) = [f for f in first.findings if "not kept" in f.message]
    assert lost.message.startswith("3 more lines of this game that could not be read are not kept (past 40 characters")
    assert unread([second]) == ["@@ again"]  # each game has its own allowance
    assert not any("not kept" in f.message for f in second.findings)


@pytest.mark.parametrize("line", ["0 ,", "1 24, 15", "2 24 {a, b} 15,", "0.,", "0. ,"])
def test_a_line_with_two_slips_is_kept_as_written_not_half_repaired(line: str) -> None:
    from imptools.writer import format_games, games_from_json, games_to_json

    text = f'[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n\nhand 1\n{line}\n'
    games = list(read_games(text))
    again = format_games(games_from_json(games_to_json(games)))
    assert line in again.splitlines()
    assert list(read_games(again)) == games


# --------------------------------------------------------------------------- the file itself, byte for byte


def exact_round_trip(data: bytes, path: str = "night.imp") -> str:
    """What `imp import` writes from the export of a file holding `data`."""
    import io

    from imptools.writer import document_text

    games = list(read_games(io.BytesIO(data), path=path))
    return document_text(games_to_json(games, [(path, data)]))


@pytest.mark.parametrize("path", records(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_record_comes_back_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    assert exact_round_trip(data).encode("utf-8") == data


SLIPS = [
    ("3. 37 33 14 23", "3 37 33 14 23"),  # a trick number without its dot (repaired)
    ("1. Adam:24 15 17 32", "1. Adam:24, 15, 17, 32"),  # commas (repaired)
    ("pass Betty > Christian 10", "pass Betty Christian 10"),  # a pass without `>` (repaired)
    ("5. Betty:11 35 31 9", "5. Betty 11 35 31 9"),  # a leader without his colon (repaired)
    ("hand 2 dealer Adam", "haand 2 dealr Adam"),  # the hand line's keywords (the hand still opens)
    ("3. 37 33 14 23", "3.  37  33 14 23"),  # spacing
    ("deal Adam 2 4 6 7", "deal Adam 4 2 6 7"),  # cards out of order
    ("score Adam 15 Betty -10 Christian 68 Doris 0", "score Adam 15 Betty -10 Christian 68 Dorris 0"),
]


@pytest.mark.parametrize(("right", "slip"), SLIPS)
def test_a_slip_comes_back_as_written_and_is_found_again(right: str, slip: str) -> None:
    clean = (SAMPLES / "thursday-club.imp").read_text(encoding="utf-8")
    text = clean.replace(right, slip, 1).replace("\n", "\r\n") if "Dorris" in slip else clean.replace(right, slip, 1)
    assert text != clean
    back = exact_round_trip(text.encode("utf-8"))
    assert back == text
    before = [(f.code, f.line, f.column) for g in read_games(text) for f in g.findings]
    assert [(f.code, f.line, f.column) for g in read_games(back) for f in g.findings] == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=st.sampled_from(SAMPLE_TEXTS), at=st.floats(0, 1), cut=st.integers(0, 80), typed=st.text(max_size=3))
def test_any_keystroke_anywhere_comes_back_byte_for_byte(sample: str, at: float, cut: int, typed: str) -> None:
    where = int(at * len(sample))
    text = sample[:where] + typed + sample[where + cut % 3 :]
    data = text.encode("utf-8", errors="replace")
    assert exact_round_trip(data).encode("utf-8") == data
