"""`imp record` in a real terminal: the rulebook example typed in tmux, a crash in trick 5, the same command again;
and through pexpect: a refused card confirmed or re-entered, Ctrl-D."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.record import Game

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"
PLAYERS = "Adam Betty Christian Doris"


def _game(text: str) -> Game:
    return list(read_games(text))[-1]


def _tricks(game: Game) -> list[list[str]]:
    return [[p.card.text for p in t.plays] for h in game.hands for t in h.tricks]


def _rulebook_entries() -> list[str]:
    text = RULEBOOK.read_text()
    out = [line for line in text.splitlines() if line.startswith(("hand", "deal", "discard", "pass"))]
    return out + [c for t in _tricks(_game(text)) for c in t]


def _command(path: Path) -> str:
    return (
        f"{sys.executable} -m imptools record {path} --game bottle-imp --players '{PLAYERS}' "
        f"--variant classic --tag 'Event=Thursday club'"
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_rulebook_example_typed_in_tmux_killed_in_trick_5_and_resumed(tmp_path: Path) -> None:
    session = f"imp-record-{os.getpid()}"
    tmux = ["tmux", "-L", session]
    path = tmp_path / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}

    def start() -> None:
        subprocess.run(
            [*tmux, "new-session", "-d", "-s", session, "-x", "120", "-y", "50", _command(path)], check=True, env=env
        )

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

    def wait_for(test: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if test():
                return
            time.sleep(0.05)
        raise AssertionError(f"{what} never happened:\n{screen()}\n--- file:\n{path.read_text()}")

    def on_disk() -> str:
        return path.read_text() if path.exists() else ""

    def send(entry: str) -> None:
        before = on_disk()
        subprocess.run([*tmux, "send-keys", "-t", session, "-l", entry], check=True)
        subprocess.run([*tmux, "send-keys", "-t", session, "Enter"], check=True)
        wait_for(lambda: on_disk() != before, f"the entry {entry!r} reaching the disk")

    entries = _rulebook_entries()
    first_play = entries.index("24")
    crash = entries.index("11") + 2  # trick 5: Betty 11, Christian 35, then the terminal dies
    try:
        start()
        wait_for(lambda: "hand 1:" in screen(), "the first prompt")
        for e in entries[:first_play]:
            send(e)
        wait_for(lambda: "trick 1, Adam:" in screen(), "the prompt for Adam's lead")
        for e in entries[first_play : first_play + 4]:
            send(e)
        wait_for(lambda: "bottle: 17, held by Christian" in screen(), "the bottle going to Christian at 17")
        wait_for(lambda: "trick 2, Christian:" in screen(), "the prompt for trick 2")
        for e in entries[first_play + 4 : crash]:
            send(e)
        assert on_disk().splitlines()[-1] == "5. Betty:11 35"
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        time.sleep(0.3)
        assert _game(on_disk()).hands[0].tricks[-1].number == 5

        start()
        wait_for(lambda: "trick 5, Doris:" in screen(), "the resumed prompt at the next play of trick 5")
        assert "Betty 11  Christian 35" in screen()
        for e in entries[crash:-1]:
            send(e)
        subprocess.run([*tmux, "send-keys", "-t", session, "-l", entries[-1]], check=True)
        subprocess.run([*tmux, "send-keys", "-t", session, "Enter"], check=True)
        wait_for(lambda: "write `score Adam 15 Betty -10 Christian 68 Doris 0`?" in screen(), "the score offered")
        send("y")
        assert on_disk().splitlines()[-1] == "score Adam 15 Betty -10 Christian 68 Doris 0"
        subprocess.run([*tmux, "send-keys", "-t", session, "-l", "quit"], check=True)
        subprocess.run([*tmux, "send-keys", "-t", session, "Enter"], check=True)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    game = _game(on_disk())
    assert _tricks(game) == _tricks(_game(RULEBOOK.read_text()))
    assert judge_game(game).all_findings() == []
    assert game.tag("Event") == "Thursday club"


def test_a_refused_card_asked_about_through_a_pty(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    child = pexpect.spawn(
        "/bin/sh", ["-c", _command(path)], env=env, encoding="utf-8", timeout=60, dimensions=(50, 120)
    )
    try:
        child.expect("hand 1:")
        entries = _rulebook_entries()
        for e in entries[: entries.index("24")]:
            child.sendline(e)
        child.expect("trick 1, Adam:")
        child.sendline("25")  # Doris holds 25
        child.expect("not-held")
        child.expect(r"record it as played\? \[y/N\]")
        child.sendline("n")
        child.expect("trick 1, Adam:")
        assert "25" not in path.read_text().splitlines()[-1]
        child.sendline("24")
        child.expect("trick 1, Betty:")
        child.sendline("22")  # Betty does not hold 22 (Christian does)
        child.expect(r"record it as played\? \[y/N\]")
        child.sendline("y")  # a confirmed mistake is recorded as played
        child.expect("trick 1, Christian:")
        assert path.read_text().splitlines()[-1] == "1. Adam:24 22"
        child.sendline("undo")
        child.expect("taken back: 22")
        child.expect("trick 1, Betty:")
        time.sleep(0.5)
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert path.read_text().splitlines()[-1] == "1. Adam:24"


CLEAN = {
    "botifarra": ROOT / "tests" / "conformance" / "botifarra" / "carregar-clean-2001.imp",
    "ninety-nine": ROOT / "tests" / "conformance" / "ninety-nine" / "clean-5001.imp",
}


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_first_hand_of_each_game_typed_through_a_pty(name: str, tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    source = CLEAN[name]
    text = source.read_text()
    game = _game(text)
    hand = game.hands[0]
    lines = text.splitlines()
    entries = [lines[hand.line - 1].strip()]
    for element in hand.lines:
        if hasattr(element, "plays"):
            entries += [p.card.text for p in element.plays]  # type: ignore[attr-defined]
        elif not lines[element.line - 1].startswith(("score", "total")):
            entries.append(lines[element.line - 1].strip())
    path = tmp_path / "r.imp"
    options = f"--game {name} --players '{game.tag('Players')}'"
    if game.tag("Variant"):
        options += f" --variant {game.tag('Variant')}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    command = f"{sys.executable} -m imptools record {path} {options}"
    child = pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=60, dimensions=(50, 120))

    def drain_until(test: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 60
        while not test():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never happened")
            with contextlib.suppress(pexpect.TIMEOUT):
                child.read_nonblocking(100000, timeout=0.05)

    try:
        child.expect("hand 1:")
        for e in entries[:-1]:
            before = path.read_text()
            child.sendline(e)
            drain_until(lambda before=before: path.read_text() != before, f"{e!r} on disk")  # type: ignore[misc]
        child.sendline(entries[-1])
        child.expect("write `score ")
        child.sendline("y")
        drain_until(lambda: path.read_text().rstrip().splitlines()[-1].startswith("score "), "the score line")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    recorded = _game(path.read_text())
    assert _tricks(recorded) == [[p.card.text for p in t.plays] for t in hand.tricks]
    assert [f for f in judge_game(recorded).all_findings() if f.is_error] == []


def test_kill_9_in_trick_5_then_the_same_command_resumes(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    import signal

    path = tmp_path / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    entries = _rulebook_entries()
    crash = entries.index("11") + 2

    def spawn() -> Any:
        return pexpect.spawn(
            "/bin/sh", ["-c", f"exec {_command(path)}"], env=env, encoding="utf-8", timeout=60, dimensions=(50, 120)
        )

    child = spawn()
    try:
        child.expect("hand 1:")
        for e in entries[:crash]:
            child.sendline(e)
        child.expect("trick 5, Doris:")
        child.kill(signal.SIGKILL)
    finally:
        child.close(force=True)
    assert path.read_text().splitlines()[-1] == "5. Betty:11 35"
    child = spawn()
    try:
        child.expect("Betty 11  Christian 35")
        child.expect("trick 5, Doris:")
        child.sendline("31")
        child.expect("trick 5, Adam:")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert path.read_text().splitlines()[-1] == "5. Betty:11 35 31"


def _spawn(command: str) -> Any:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    return pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=60, dimensions=(50, 120))


def test_a_misspelt_dealer_and_a_line_that_does_not_read_are_refused_through_a_pty(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "night.imp"
    child = _spawn(_command(path))
    try:
        child.expect("hand 1:")
        child.sendline("hand 1 dealer Dorsi")
        child.expect(r"error unknown-player: `Dorsi` is not a player\S* [^\r\n]*`Doris`")
        i = child.expect([r"record it as played", "not recorded: enter it again"])
        assert i == 1  # refused: not asked about
        child.expect("hand 1:")
        assert "Dorsi" not in path.read_text()
        child.sendline("hand 1 dealer Doris")
        child.expect("trick 1, Adam:")
        child.sendline("dael Adam 2 4 6 7 13 14 20 24 26")
        child.expect(r"error syntax: `dael`: did you mean `deal`\?")
        assert child.expect([r"record it as played", "not recorded: enter it again"]) == 1
        child.expect("trick 1, Adam:")
        child.sendline("24")
        child.expect("trick 1, Betty:")
        child.sendline("15")
        child.expect("trick 1, Christian:")
        child.sendline("quit")
        child.expect(f"saved {path}")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert path.read_text().splitlines()[-3:] == ["", "hand 1 dealer Doris", "1. Adam:24 15"]


def test_the_trump_line_and_the_bids_are_asked_for_before_trick_1_through_a_pty(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    tute = tmp_path / "tute.imp"
    child = _spawn(f"{sys.executable} -m imptools record {tute} --game botifarra --players 'Ana Bernat Carles Dolors'")
    try:
        child.expect("hand 1:")
        child.sendline("hand 1 dealer Dolors")
        child.expect("hand 1, trump by Dolors:")
        child.sendline("5o")
        child.expect(r"hand 1 has no trump yet: its `trump Dolors \.\.\.` line comes before trick 1")
        child.expect("hand 1, trump by Dolors:")
        child.sendline("oros")
        child.expect("trick 1, Ana:")
        child.sendline("5o")
        child.expect("trick 1, Bernat:")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert tute.read_text().splitlines()[-2:] == ["trump Dolors oros", "1. Ana:5o"]
    pub = tmp_path / "pub.imp"
    child = _spawn(f"{sys.executable} -m imptools record {pub} --game ninety-nine --players 'Al Bo Cy'")
    try:
        child.expect("hand 1:")
        child.sendline("hand 1 dealer Cy")
        child.expect("hand 1, bid Al:")
        child.sendline("KD 9S 7H")
        child.expect("hand 1, bid Bo:")
        child.sendline("3")
        child.expect("hand 1, bid Cy:")
        child.sendline("?")
        child.expect("trick 1, Al:")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert pub.read_text().splitlines()[-3:] == ["bid Al KD 9S 7H", "bid Bo 3", "bid Cy ? ? ?"]
