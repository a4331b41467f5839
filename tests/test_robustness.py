"""Robustness: no bad input stops a batch, and every failure is a finding with a place.

A failure of imptools itself on one game is an `internal` finding on that game;
the other games and files are judged and printed; `--json` is always one whole
document; the exit status says what happened.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import imptools.check
from imptools.check import judge_game
from imptools.cli import app
from imptools.reader import read_games
from imptools.record import Game
from imptools.rules import GameResult, Ruleset, get_ruleset

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
KEYS = {"code", "severity", "path", "line", "column", "game", "hand", "trick", "player", "message"}

THURSDAY = (SAMPLES / "thursday-club.imp").read_text(encoding="utf-8")


def games_of(text: str) -> list[Game]:
    return list(read_games(text, path="night.imp"))


@dataclass
class Exploding:
    """A ruleset that fails on games whose `Event` is "boom" and judges the others like the real one."""

    real: Ruleset
    name: str = "bottle-imp"

    def check_card(self, text: str, game: Game) -> Any:
        return self.real.check_card(text, game)

    def judge(self, game: Game) -> GameResult:
        if game.tag("Event") == "boom":
            raise KeyError(27.5)
        return self.real.judge(game)


@pytest.fixture
def exploding(monkeypatch: pytest.MonkeyPatch) -> None:
    real = get_ruleset("bottle-imp")
    assert real is not None
    monkeypatch.setattr(
        imptools.check, "get_ruleset", lambda name: Exploding(real) if name == "bottle-imp" else get_ruleset(name)
    )


BOOM = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n[Event "boom"]\n\nhand 1\n@@ coffee\n'


def test_a_failing_ruleset_is_an_internal_finding_on_that_game(exploding: None) -> None:
    boom, ok = games_of(BOOM + "\n" + THURSDAY)
    result = judge_game(boom)
    internal = [f for f in result.all_findings() if f.code == "internal"]
    assert len(internal) == 1
    f = internal[0]
    assert (f.path, f.game, f.line, f.column, f.severity and f.severity.value) == ("night.imp", 1, 1, 1, "error")
    assert "KeyError: 27.5" in f.message and "please report" in f.message
    # the reader's own finding on that game is kept, and nothing is scored
    assert any(f.code == "syntax" and f.line == 6 for f in result.all_findings())
    assert all(h.scores is None for h in result.hands) and not result.rules_checked
    # the next game is judged as usual
    assert judge_game(ok).rules_checked and not [f for f in judge_game(ok).all_findings() if f.code == "internal"]


def test_a_ruleset_that_cannot_be_loaded_is_an_internal_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str | None) -> Ruleset | None:
        raise ImportError("cannot import name 'DECKS'")

    monkeypatch.setattr(imptools.check, "get_ruleset", broken)
    (game,) = games_of(THURSDAY)
    (f,) = [f for f in judge_game(game).all_findings() if f.code == "internal"]
    assert "loading the rules" in f.message and "ImportError" in f.message


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_validate_batch_goes_on_after_an_internal_failure(exploding: None, tmp_path: Path) -> None:
    first = tmp_path / "a.imp"
    first.write_text(BOOM + "\n" + THURSDAY.replace("Thursday club", "second game"), encoding="utf-8")
    second = tmp_path / "b.imp"
    second.write_text(THURSDAY.replace("score Adam 15", "score Adam 16"), encoding="utf-8")
    out = run("validate", "--json", str(first), str(tmp_path / "missing.imp"), str(second))
    assert out.exit_code == 3
    doc = json.loads(out.stdout)
    assert all(set(f) >= KEYS for f in doc["findings"])
    internal = [f for f in doc["findings"] if f["code"] == "internal"]
    assert [(f["path"], f["game"]) for f in internal] == [(str(first), 1)]
    assert any(f["code"] == "score-mismatch" and f["path"] == str(second) for f in doc["findings"])
    assert doc["summary"]["games"] == 3 and doc["summary"]["internal"] == 1
    assert doc["unreadable"] == [{"path": str(tmp_path / "missing.imp"), "message": "No such file or directory"}]


def test_score_batch_goes_on_and_exits_3(exploding: None, tmp_path: Path) -> None:
    p = tmp_path / "a.imp"
    p.write_text(BOOM + "\n" + THURSDAY, encoding="utf-8")
    out = run("score", "--json", str(p))
    assert out.exit_code == 3
    doc = json.loads(out.stdout)
    boom, ok = doc["games"]
    assert boom["rules_checked"] is False and ok["rules_checked"] is True
    assert ok["hands"][0]["scores"]["Adam"] == 15
    assert [f["code"] for f in doc["internal"]] == ["internal"]
    text = run("score", str(p))
    assert text.exit_code == 3 and "internal" in text.stdout and "Adam" in text.stdout


def test_exit_statuses_without_internal_failures(tmp_path: Path) -> None:
    ok = tmp_path / "ok.imp"
    ok.write_text(THURSDAY, encoding="utf-8")
    bad = tmp_path / "bad.imp"
    bad.write_text(THURSDAY.replace("score Adam 15", "score Adam 16"), encoding="utf-8")
    assert run("validate", str(ok)).exit_code == 0
    assert run("validate", str(bad)).exit_code == 1
    assert run("validate", str(bad), str(tmp_path / "nope.imp")).exit_code == 2
    assert run("score", str(bad)).exit_code == 0
    assert run("score", "--json", str(ok), str(tmp_path / "nope.imp")).exit_code == 2


def test_a_folder_without_records_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not a record")
    out = run("validate", "--json", str(tmp_path / "empty"))
    assert out.exit_code == 2
    doc = json.loads(out.stdout)
    assert doc["unreadable"] == [{"path": str(tmp_path / "empty"), "message": "a folder with no .imp file in it"}]
    assert doc["findings"] == []
