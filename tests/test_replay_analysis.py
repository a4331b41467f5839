"""The analysis layer of `imp replay`: each play's cost beside it in the text, the JSON and the page data."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from imptools.analyse import analyse_hand
from imptools.check import judge_game
from imptools.cli.app import app
from imptools.present.replay_page import page_data
from imptools.reader import read_games
from imptools.replay import replay_game, with_analyses

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"


def rulebook_analysis(from_trick: int) -> tuple[object, object]:
    (game,) = read_games(RULEBOOK)
    return game, analyse_hand(game, 1, from_trick)


def test_text_replay_shows_each_plays_cost_from_the_trick_asked() -> None:
    _, analysis = rulebook_analysis(6)
    out = CliRunner().invoke(app, ["replay", str(RULEBOOK), "--analyse", "--from-trick", "6", "--jobs", "1"])
    assert out.exit_code == 0, out.output
    before, after = out.output.split("Trick 6", 1)
    assert not re.search(r"\bcost \d", before)  # nothing valued before trick 6
    for p in analysis.plays:  # type: ignore[attr-defined]
        row = re.search(rf"^\s+{p.player}\s+{p.card}\S*\s+cost (\d+)", after, re.M)
        assert row is not None, (p, after)
        assert int(row.group(1)) == p.cost
    costly = [p for p in analysis.plays if p.cost]  # type: ignore[attr-defined]
    for p in costly:
        assert f"cost {p.cost}{p.mark} (value {p.value_before} -> {p.value_after}; {' '.join(p.best)} kept" in after
    assert "Analysis (every card visible, from trick 6): total cost" in after


def test_json_replay_puts_the_cost_on_each_play_step() -> None:
    _, analysis = rulebook_analysis(7)
    out = CliRunner().invoke(app, ["replay", str(RULEBOOK), "--analyse", "--from-trick", "7", "--json", "-j", "1"])
    assert out.exit_code == 0, out.output
    (hand,) = json.loads(out.output)["games"][0]["hands"]
    assert hand["analysis"] == {"from_trick": 7, "choices": []}  # no choice valued from trick 7
    plays = [s for s in hand["steps"] if s["event"]["kind"] == "play"]
    valued = [s["analysis"] for s in plays if "analysis" in s]
    assert [s["event"]["trick"] for s in plays if "analysis" in s] == [7] * 4 + [8] * 4
    assert valued == [p.to_dict() for p in analysis.plays]  # type: ignore[attr-defined]
    assert all("analysis" not in s for s in hand["steps"] if s["event"]["kind"] != "play")


def test_the_page_data_carries_the_costs() -> None:
    game, analysis = rulebook_analysis(8)
    replayed = with_analyses(replay_game(game, judge_game(game)), [analysis])  # type: ignore[arg-type,list-item]
    steps = page_data([replayed])["games"][0]["hands"][0]["steps"]
    costs = [s["a"] for s in steps if "a" in s]
    assert len(costs) == 4 and all(c[0] == c[2] - c[3] for c in costs)
    plain = page_data([replay_game(game, judge_game(game))])["games"][0]["hands"][0]["steps"]  # type: ignore[arg-type]
    assert not any("a" in s for s in plain)


def test_a_skipped_hand_says_why_at_its_end(tmp_path: Path) -> None:
    record = tmp_path / "short.imp"
    record.write_text('[Game "bottle-imp"]\n[Players "A B C D"]\nhand 1\n1. 24 15 17 32\n', encoding="utf-8")
    out = CliRunner().invoke(app, ["replay", str(record), "--analyse", "-j", "1"])
    assert "Analysis: not analysed, the cards still to be played are not all known" in out.output.replace("\n", " ")
