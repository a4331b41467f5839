"""The `bench/` scripts that reach into the search still run against it: each on its smallest hand, its figures
adding up. A script that wraps a function the analysis calls breaks silently when that function's signature or
home moves; docs/PERFORMANCE.md quotes their commands, so they are run here as a reader would run them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _run(*args: str) -> str:
    """The script's output, run from `bench/` (as its docstring says: the installed imptools, not the tree's)."""
    done = subprocess.run([sys.executable, *args], cwd=BENCH, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def test_trump_options_add_up_to_the_trump_table() -> None:
    out = _run("bench_trump_options.py", "--table", "three", "--hand", "1")
    options = re.findall(r"^  (\w+): value (\d+), (\d+) positions, [\d.]+ s CPU( \(taken\))?", out, re.M)
    assert [o[0] for o in options] == ["oros", "copes", "espases", "bastos", "botifarra"], out
    assert sum(1 for o in options if o[3]) == 1, out  # one option is the one the hand was played in
    table = re.search(r"the trump table: (\d+) positions", out)
    whole = re.search(r"the whole hand: (\d+) plays, (\d+) positions", out)
    assert table is not None and whole is not None, out
    assert int(table[1]) == sum(int(o[2]) for o in options)
    assert int(whole[1]) == 36 and int(whole[2]) >= int(table[1])  # three players: twelve tricks of three cards


@pytest.mark.parametrize(("table", "hand"), [("three", "1"), ("rector-vicar", "3")])
def test_each_trump_option_is_its_windows(table: str, hand: str) -> None:
    out = _run("bench_trump_options.py", "--table", table, "--hand", hand, "--windows")
    options = re.findall(r"^  (\w+): value (\d+), (\d+) positions.*\n    windows: (.*)$", out, re.M)
    assert len(options) == 5, out
    for _, value, positions, shown in options:
        windows = [(int(b), int(got), _count(n)) for b, got, n in re.findall(r"(-?\d+): (-?\d+) \(([\d,]+)\)", shown)]
        assert windows, shown
        # each window is one question of the search (the positions of its root besides): together the option's
        assert 0 <= int(positions) - sum(n for _, _, n in windows) <= len(windows) + 1, shown
        holds = [got for b, got, _ in windows if got >= b]  # "at least b?" held: the value is at least what came back
        fails = [got for b, got, _ in windows if got < b]
        if table == "rector-vicar":  # `Duel`'s windows ask of a sum the two-player count rises with: they meet there
            assert max(holds) <= min(fails), shown
        else:
            assert max(holds) == int(value) and min(fails) >= int(value), shown


def test_each_value_is_its_probes() -> None:
    out = _run("probes.py", "4-classic", "1", "--min", "1000")
    head = re.match(r"4-classic hand 1: ([\d,]+) positions", out)
    assert head is not None, out
    values = re.findall(r"^\d+ \w+ \(before [-\w]+\) (-?\d+), ([\d,]+) positions: (.*)$", out, re.M)
    assert values, out
    for value, positions, shown in values:
        probes = re.findall(r"(-?\d+): (-?\d+) \(([\d,]+)\)", shown)
        assert sum(_count(p[2]) for p in probes) == _count(positions), shown
        assert int(probes[-1][1]) == int(value), shown  # the last probe's bound is the value found
    assert sum(_count(p) for _, p, _ in values) <= _count(head[1])


def test_each_plays_positions_are_split_three_ways() -> None:
    """`probes.py --plays` (docs/PERFORMANCE.md, where a hand's positions go play by play) walks the hand as
    `analyse_hand` does: the same positions in all, each play's split into its values and its cards' checks."""
    whole = _run("probes.py", "4-classic", "1", "--min", "1000")
    out = _run("probes.py", "4-classic", "1", "--plays", "--min", "1000")
    total = re.search(
        r"hand 1: ([\d,]+) positions, .*; values ([\d,]+), the cards played ([\d,]+), the other cards ([\d,]+)$",
        out,
        re.M,
    )
    assert total is not None, out
    assert _count(total[1]) == sum(_count(t) for t in total.groups()[1:]), out
    assert _count(total[1]) == _count(re.match(r"4-classic hand 1: ([\d,]+) positions", whole)[1]), (out, whole)  # type: ignore[index]
    rows = re.findall(r"^trick \d+ \w+ \S+: values ([\d,]+), its card ([\d,]+), the others ([\d,]+)$", out, re.M)
    assert rows and all(sum(_count(k) for k in row) >= 1000 for row in rows), out


def test_first_value() -> None:
    out = _run("bench_first_value.py", "--table", "three", "--hands", "1")
    assert re.match(r"three hand 1: value \d+, \d+ positions, \d+ partition hits", out), out


def test_escape_builds_alternates_two_builds_of_the_bottle_imps_c_search() -> None:
    """`escape_builds.py` (docs/PERFORMANCE.md's counts of `cescape.c`'s copies) compiles two builds of the tree's
    `cescape.c` and values a four-player hand with each: the same positions, and no build valuing it otherwise."""
    source = str(BENCH.parent / "imptools" / "rules" / "bottle_imp" / "cescape.c")
    out = _run("escape_builds.py", f"a={source}:", f"b={source}:-mpopcnt", "--table", "4-classic", "--hands", "1")
    counts = {m[1]: _count(m[2]) for m in re.finditer(r"hand 1: (\w+) ([\d,]+) positions", out)}
    assert set(counts) == {"a", "b"} and counts["a"] == counts["b"] > 1000, out
    assert "values differ" not in out, out


def test_tree_shape_counts_every_position_of_botifarras_solver() -> None:
    """`tree_shape.py` (docs/PERFORMANCE.md's shape of the trees) compiles `csolver.c` with its counts and values a
    three-player hand: every trick start it counts ended one of the four ways, and each place's positions with more
    than one card to try are among that place's positions."""
    out = _run("tree_shape.py", "--table", "three", "--hand", "1")
    total = _count(re.search(r"^positions in all: ([\d,]+)$", out, re.M)[1])  # type: ignore[index]
    assert total <= _count(re.search(r"hands 1: ([\d,]+) positions$", out, re.M)[1])  # type: ignore[index]
    blocks = re.findall(r"^ ?(\d+) tricks left: ([\d,]+) positions .*? place (.*)\n((?:    .*\n?)*)", out, re.M)
    assert len(blocks) >= 10, out
    assert sum(_count(b[1]) for b in blocks) == total, out
    for tricks, here, places, rest in blocks:
        by_place = [_count(p) for p in places.split(" / ")]
        assert sum(by_place) == _count(here), out
        starts = re.search(r"trick starts: .*", rest)
        if int(tricks) >= 2:
            assert starts is not None, out
            assert sum(_count(c) for c in re.findall(r" ([\d,]+)(?:,|$)", starts[0])) == by_place[0], out
        for place, tried in re.findall(r"card (\d) of the trick: ([\d,]+) positions", rest):
            assert _count(tried) <= by_place[int(place) - 1], out


def test_tree_shape_counts_the_cut_offs_of_the_bottle_imps_searches() -> None:
    """`tree_shape.py` on a four-player Bottle Imp hand: `Escape` and `Gains` counted for both sides, each row's
    shares adding up to the whole, and the side asked about cutting off with its first card most of the time."""
    out = _run("tree_shape.py", "--table", "4-classic", "--hand", "1")
    rows = re.findall(
        r"^(Escape \(escape\)|Gains), (.*?): ([\d,]+) positions: cut by card 1-4, later: (.*); none: "
        r"([\d.]+)%$",
        out,
        re.M,
    )
    assert {(r[0], r[1]) for r in rows} >= {
        (search, side)
        for search in ("Escape (escape)", "Gains")
        for side in ("the side asked about", "the players against him")
    }, out
    for _, side, _, cuts, none in rows:
        shares = [float(s.rstrip("%")) for s in cuts.split(", ")]
        assert abs(sum(shares) + float(none) - 100) < 0.5, out
        if side == "the side asked about":
            assert shares[0] > 50, out
