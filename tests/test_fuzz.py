"""Property and fuzz tests: records built from the grammar's line shapes survive every round trip,
and damaged records never make the reader, the judge or the writer raise.

Bounded here (a few seconds each); bench/fuzz.py runs the same harness for as long as asked.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from damage import damage, seed_records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imptools.check import judge_game
from imptools.findings import CODES
from imptools.reader import read_games
from imptools.record import Game
from imptools.writer import format_games, games_from_json, games_to_json

SEEDS = seed_records()
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- records from the grammar's line shapes

NAMES = ["Adam", "Betty", "Christian", "Doris", "Núria", "Loïc", "O'Brien", "Ann-Marie", "x_1"]
CARDS = ["1", "2", "7", "17", "24", "24b", "37", "2.5", "36.5", "?"]
MARKS = ["", "!", "!!", "?", "??", "!?", "?!"]
TEXT = st.characters(blacklist_categories=("Cs", "Cc"))
note_text = st.text(alphabet=st.one_of(TEXT.filter(lambda c: c != "}"), st.just("\n")), max_size=20)
remark_text = st.text(alphabet=TEXT, max_size=20)
tag_value = st.text(alphabet=TEXT, max_size=20)


@st.composite
def ends(draw: Any) -> str:
    """What may end a line: annotations, then a `;` comment."""
    notes = "".join(f" {{{t}}}" for t in draw(st.lists(note_text, max_size=2)))
    remark = draw(st.one_of(st.none(), remark_text))
    return notes + ("" if remark is None else f" ;{remark}")


@st.composite
def records(draw: Any) -> str:
    players = draw(st.lists(st.sampled_from(NAMES), min_size=3, max_size=4, unique=True))
    name = st.sampled_from(players)
    card = st.sampled_from(CARDS)
    lines = [f'[Game "bottle-imp"]{draw(ends())}', f'[Players "{" ".join(players)}"]']
    for tag in draw(st.lists(st.sampled_from(["Event", "Site", "Date", "Annotator"]), unique=True, max_size=3)):
        value = draw(tag_value).replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{tag} "{value}"]{draw(ends())}')
    for n in range(1, draw(st.integers(1, 3)) + 1):
        lines.append("")
        dealer = draw(st.one_of(st.just(""), name.map(lambda p: f" dealer {p}")))
        lines.append(f"hand {n}{dealer}{draw(ends())}")
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["deal", "discard", "pass", "imp", "comment"]))
            if kind == "deal":
                cards = " ".join(draw(st.lists(card, max_size=5)))
                lines.append(f"deal {draw(name)} {cards}".rstrip() + draw(ends()))
            elif kind == "discard":
                lines.append(f"discard {draw(name)} {' '.join(draw(st.lists(card, min_size=1, max_size=2)))}")
            elif kind == "pass":
                lines.append(f"pass {draw(name)} > {draw(name)} {draw(card)}{draw(ends())}")
            elif kind == "imp":
                lines.append(f"imp {' '.join(draw(st.lists(card, min_size=1, max_size=3)))}{draw(ends())}")
            else:
                lines.append(f";{draw(remark_text)}")
        for t in range(1, draw(st.integers(0, 3)) + 1):
            plays = []
            for _ in range(draw(st.integers(1, len(players)))):
                who = draw(st.one_of(st.just(""), name.map(lambda p: f"{p}:")))
                notes = "".join(f" {{{x}}}" for x in draw(st.lists(note_text, max_size=1)))
                plays.append(f"{who}{draw(card)}{draw(st.sampled_from(MARKS))}{notes}")
            remark = draw(st.one_of(st.just(""), remark_text.map(lambda r: f" ;{r}")))
            lines.append(f"{t}. " + " ".join(plays) + remark)
        if draw(st.booleans()):
            points = " ".join(f"{p} {draw(st.integers(-99, 99))}" for p in players)
            lines.append(f"{draw(st.sampled_from(['score', 'total']))} {points}{draw(ends())}")
    return "\n".join(lines) + "\n"


def shape(games: list[Game]) -> Any:
    """The record model without positions: what a record says, wherever it says it."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("line", "column")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(games_to_json(games)))


@FAST
@given(records())
def test_generated_records_survive_read_fmt_read_and_json(text: str) -> None:
    games = list(read_games(text, path="g.imp"))
    assert [f.message for g in games for f in g.findings] == []
    formatted = format_games(games)
    again = list(read_games(formatted, path="g.imp"))
    assert [f.message for g in again for f in g.findings] == []
    assert shape(again) == shape(games)
    assert format_games(again) == formatted
    assert games_from_json(games_to_json(games)) == games
    assert games_from_json(games_to_json(again)) == again


# --------------------------------------------------------------------------- damaged records never raise


def exercise(data: bytes) -> None:
    """Everything a user can run on a record: read, judge, and (when it reads cleanly) fmt and the JSON round trip."""
    games = list(read_games(io.BytesIO(data), path="d.imp"))
    assert games, "every input gives at least one game (or the one saying there is no notation)"
    for game in games:
        result = judge_game(game)
        for f in result.all_findings():
            assert f.code in CODES and f.message and f.path == "d.imp"
            assert f.line is None or f.line >= 1
            assert f.game is not None and f.game >= 1 and (f.hand is None or f.hand >= 0)
            if f.code == "internal":
                # only a ruleset may fail (tests/test_robustness.py lists the known ones); never the reader
                assert "while judging" in f.message, f.message
    if not any(f.code == "syntax" for g in games for f in g.findings):
        text = format_games(games)
        assert format_games(read_games(text)) == text
    assert games_from_json(games_to_json(games)) == games


@FAST
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_damaged_records_never_raise(seed: bytes, rnd: random.Random) -> None:
    exercise(damage(seed, rnd, SEEDS))


@FAST
@given(
    st.sampled_from(SEEDS).flatmap(
        lambda s: st.tuples(
            st.just(s), st.lists(st.tuples(st.integers(0, len(s)), st.integers(0, 8), st.binary(max_size=8)))
        )
    )
)
def test_byte_edits_of_real_records_never_raise(edit: tuple[bytes, list[tuple[int, int, bytes]]]) -> None:
    data, edits = edit
    out = bytearray(data)
    for at, cut, new in edits:
        out[at : at + cut] = new
    exercise(bytes(out))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([line for s in SEEDS[:12] for line in s.split(b"\n")]), max_size=60))
def test_lines_shuffled_across_records_never_raise(lines: list[bytes]) -> None:
    exercise(b"\n".join(lines))
