"""Small slips of the command line, each as a user met it: the wrong word, a count that lies, a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CLUB = SAMPLES / "thursday-club.imp"  # one game of three hands, eight tricks each


def imp(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args],
        input=stdin if stdin is not None else "",  # never a terminal
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")},
        timeout=120,
    )


# --------------------------------------------------------------------------- validate: what the summary counts


def test_a_missing_file_is_reported_alone_on_stderr(tmp_path: Path) -> None:
    out = imp("validate", str(tmp_path / "missing.imp"))
    assert out.returncode == 2
    assert out.stdout == ""  # no "0 errors, 0 warnings in 1 file" beside the real error
    assert f"cannot read {tmp_path / 'missing.imp'}: No such file or directory" in out.stderr


def test_with_files_read_and_one_missing_the_summary_counts_the_read_ones_and_names_the_missing(
    tmp_path: Path,
) -> None:
    out = imp("validate", str(CLUB), str(tmp_path / "missing.imp"))
    assert out.returncode == 2
    assert out.stdout.splitlines()[-1] == "0 errors, 0 warnings in 1 file (1 game); 1 file could not be read"
    assert "missing.imp" in out.stderr
    doc = json.loads(imp("validate", "--json", str(CLUB), str(tmp_path / "missing.imp")).stdout)
    assert doc["summary"]["files"] == 1 and doc["summary"]["unreadable"] == 1 and doc["summary"]["games"] == 1


@pytest.mark.parametrize("text", ["", "; only a comment\n", "\n\n   \n"])
def test_an_empty_file_holds_no_game(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.imp"
    path.write_text(text, encoding="utf-8")
    out = imp("validate", str(path), str(CLUB))
    assert out.stdout.splitlines()[-1] == "1 error, 0 warnings in 2 files (1 game)"
    assert "no Imp notation found: the file is empty" in out.stdout
    assert json.loads(imp("validate", "--json", str(path)).stdout)["summary"]["games"] == 0


def test_the_games_are_counted_the_same_on_several_processes(tmp_path: Path) -> None:
    (tmp_path / "empty.imp").write_text("", encoding="utf-8")
    (tmp_path / "club.imp").write_text(CLUB.read_text(encoding="utf-8") * 3, encoding="utf-8")
    one = imp("validate", "--jobs", "1", str(tmp_path))
    two = imp("validate", "--jobs", "2", str(tmp_path))
    assert one.stdout.splitlines()[-1].endswith("in 2 files (3 games)")
    assert one.stdout == two.stdout


# --------------------------------------------------------------------------- replay: what is asked for and not there


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--hand", "9"], "no hand 9: the game has 3 hands"),
        (["--game", "2"], "no game 2: the file holds 1 game"),
        (["--trick", "12"], "no trick 12: no hand of the game has more than 8 tricks"),
        (["--hand", "2", "--trick", "9"], "no trick 9: hand 2 has 8 tricks"),
        (["--game", "1", "--hand", "4"], "no hand 4: game 1 has 3 hands"),
        (["--hand", "9", "--json"], "no hand 9"),
        (["--hand", "9", "--step"], "no hand 9"),
    ],
)
def test_a_hand_trick_or_game_out_of_range_is_an_error_naming_how_many_there_are(options: list[str], said: str) -> None:
    out = imp("replay", str(CLUB), *options)
    assert out.returncode == 2
    assert out.stdout == ""  # no header of a game that is then not shown
    assert said in out.stderr


def test_a_hand_and_trick_in_range_are_replayed() -> None:
    out = imp("replay", str(CLUB), "--hand", "3", "--trick", "8")
    assert out.returncode == 0
    assert "Hand 3 " in out.stdout and "Trick 8 " in out.stdout and "Trick 7 " not in out.stdout


def test_the_stepper_without_a_terminal_says_so_instead_of_waiting(tmp_path: Path) -> None:
    out = imp("replay", str(CLUB), "--step")
    assert out.returncode == 2
    assert "--step needs a terminal" in out.stderr and out.stdout == ""
    piped = imp("replay", "-", "--step", stdin=CLUB.read_text(encoding="utf-8"))
    assert piped.returncode == 2 and "--step needs a terminal (standard input is the record)" in piped.stderr


def test_replaying_a_file_with_no_game_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.imp"
    path.write_text("", encoding="utf-8")
    out = imp("replay", str(path))
    assert out.returncode == 1
    assert "the file holds no game (no Imp notation found: the file is empty)" in out.stderr
    assert "cannot step through" not in out.stdout + out.stderr


# --------------------------------------------------------------------------- score: saying what is true


def _first_hands(count: int, cut_last: bool) -> str:
    """The club record's header and first `count` hands; with `cut_last`, the last of them stops after trick 3."""
    text = CLUB.read_text(encoding="utf-8")
    head, *hands = text.split("\nhand ")
    kept = hands[:count]
    if cut_last:
        lines = kept[-1].splitlines()
        cut = next(i for i, line in enumerate(lines) if line.startswith("4. "))
        kept[-1] = "\n".join(lines[:cut]) + "\n"
    return head + "".join("\nhand " + h for h in kept)


def test_the_leader_is_named_after_the_scored_hands_only(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    path.write_text(_first_hands(2, cut_last=True), encoding="utf-8")
    out = imp("score", str(path))
    assert out.returncode == 0
    assert "Leading after 1 scored hand (of 2): Christian (68)" in out.stdout
    assert "1 hands" not in out.stdout
    path.write_text(_first_hands(1, cut_last=True), encoding="utf-8")
    assert "No hand scored yet (of 1)" in imp("score", str(path)).stdout
    path.write_text(_first_hands(2, cut_last=False), encoding="utf-8")
    assert "Leading after 2 hands: " in imp("score", str(path)).stdout


def test_scoring_a_file_with_no_game_says_the_file_holds_no_game(tmp_path: Path) -> None:
    path = tmp_path / "empty.imp"
    path.write_text("; nothing yet\n", encoding="utf-8")
    out = imp("score", str(path))
    assert "empty.imp: the file holds no game (no Imp notation found: the file is empty but for comments)" in (
        out.stdout
    )
    assert "not computed yet" not in out.stdout


# --------------------------------------------------------------------------- a game's name one keystroke away


def test_a_misspelt_game_is_replayed_and_analysed_as_the_game_meant(tmp_path: Path) -> None:
    record = tmp_path / "club.imp"
    record.write_text(CLUB.read_text(encoding="utf-8").replace('[Game "bottle-imp"]', '[Game "Botle-imp"]'))
    clean = imp("replay", str(CLUB), "--hand", "1")
    out = imp("replay", str(record), "--hand", "1")
    assert out.returncode == 0, out.stderr  # a replay shows findings; it does not judge the file by its status
    words = " ".join(out.stdout.split())  # the terminal's width may wrap the message
    assert "`Botle-imp`: did you mean `bottle-imp`? The game is judged as `bottle-imp`" in words
    assert clean.stdout.split("Hand 1")[1] == out.stdout.split("Hand 1")[1]  # the same steps, trick by trick
    analysed = imp("analyse", "--json", str(record), "--hand", "1", "--from-trick", "7")
    assert analysed.returncode == 0, analysed.stderr
    (analysis,) = json.loads(analysed.stdout)["analyses"]
    assert "skipped" not in analysis and analysis["plays"]
