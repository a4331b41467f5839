"""`imp replay --step`: the stepper driven headless by Textual's Pilot, and once in a real terminal (tmux)."""

from __future__ import annotations

import asyncio
import io
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from imptools.check import judge_game
from imptools.present.stepper import Stepper, start_index
from imptools.reader import read_games
from imptools.replay import GameReplay, replay_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
RULEBOOK = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"


def replayed(path: Path) -> list[GameReplay]:
    return [replay_game(g, judge_game(g)) for g in read_games(path)]


def panel(app: Stepper, name: str) -> str:
    """A panel's content as plain text."""
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(app.query_one(f"#{name}", Static).content)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def notes(app: Stepper) -> str:
    """The Notes panel's words on one line (a choice line may wrap)."""
    return " ".join(panel(app, "notes").split())


async def analyses_done(app: Stepper, pilot: Any, tenths: int) -> None:
    """Wait until the analyses the stepper asked for are in, for at most `tenths` tenths of a second."""
    for _ in range(tenths):
        if not app.pending:
            break
        await pilot.pause(0.1)


def drive(games: list[GameReplay], script: Callable[[Stepper, Pilot[None]], Awaitable[None]], start: int = 0) -> None:
    async def main() -> None:
        app = Stepper(games, start)
        async with app.run_test(size=(80, 24)) as pilot:
            await script(app, pilot)

    asyncio.run(main())


def test_after_trick_1_the_bottle_is_at_17_held_by_christian() -> None:
    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        assert panel(app, "notes").startswith("Adam is dealt 2y 4b 6b")
        await pilot.press("down")  # the end of trick 1
        assert "Christian takes trick 1" in panel(app, "notes")
        table = panel(app, "table")
        assert "▸ Adam       24" in table and "★ Christian  17" in table and "Doris      32" in table
        assert "Christian takes the trick" in table
        state = panel(app, "state")
        assert "bottle 17, held by Christian" in state and "prices 19 > 17" in state
        hands = panel(app, "hands")
        assert "Betty  (7)  void b" in hands and "24" not in hands.split("Betty")[0]
        await pilot.press("left")  # Doris's 32, the trick still on the table
        assert "bottle 19, nobody holds it" in panel(app, "state")
        assert "{the rulebook example: 17 takes the bottle}" in panel(app, "notes")
        await pilot.press("end")
        notes, sheet = panel(app, "notes"), panel(app, "sheet")
        assert "the imp's trick (the discards), 10 coins: 1y 16r 26r 29r" in notes
        assert "+15" in sheet and "-10" in sheet and "+68" in sheet
        await pilot.press("home", "right")
        assert panel(app, "notes").startswith("Betty is dealt")

    drive(replayed(RULEBOOK), script)


def test_navigation_by_play_trick_and_hand() -> None:
    games = replayed(SAMPLES / "thursday-club.imp")

    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        def where() -> tuple[int, int, str]:
            hand = app.games[app.position.game].hands[app.position.hand]
            step = hand.steps[app.position.step]
            return hand.number, step.event.trick or 0, step.event.kind

        assert where() == (1, 0, "deal")
        await pilot.press("right", "right")
        assert app.position.step == 2
        await pilot.press("n", "n", "n")
        assert where() == (1, 3, "trick")
        await pilot.press("up")
        assert where() == (1, 2, "trick")
        await pilot.press("pagedown")
        assert where()[0] == 2 and app.position.step == 0
        await pilot.press("pagedown", "pagedown")  # there are three hands: stays on the last
        assert where()[0] == 3
        await pilot.press("pageup")
        assert where() == (2, 0, "deal")
        await pilot.press("end")
        assert where() == (2, 0, "end")
        await pilot.press("right")
        assert where() == (3, 0, "deal")
        await pilot.press("left", "left")
        assert where() == (2, 8, "trick")
        await pilot.press("question_mark")
        assert "next / previous finding" in str(app.screen.query_one("#keys", Static).content)
        await pilot.press("x")  # any key closes the keys
        assert app.screen is app.screen_stack[0]
        await pilot.press("q")
        assert not app.is_running

    drive(games, script)


@pytest.mark.parametrize("key", ["escape", "q", "x"])
def test_a_key_that_closes_the_keys_closes_only_them(key: str) -> None:
    games = replayed(SAMPLES / "thursday-club.imp")

    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        await pilot.press("right", "right")
        await pilot.press("question_mark")
        assert app.screen is not app.screen_stack[0]
        await pilot.press(key)
        assert app.is_running and app.screen is app.screen_stack[0]
        assert app.position.step == 2  # and the key did nothing else
        await pilot.press("escape")  # Esc on the stepper itself quits
        assert not app.is_running

    drive(games, script)


def test_jump_to_the_findings() -> None:
    games = replayed(SAMPLES / "with-mistakes.imp")

    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        await pilot.press("f")
        assert "score-mismatch score of Adam is written 23" in panel(app, "notes")
        assert app.position.hand == 0 and app.position.step == len(app.games[0].hands[0].steps) - 1
        await pilot.press("f")
        notes = panel(app, "notes")
        assert notes.startswith("Christian plays 37r") and "revoke Christian did not follow yellow" in notes
        assert "Christian  37" in panel(app, "table")
        await pilot.press("f")
        assert "syntax `@@`" in panel(app, "notes")
        await pilot.press("F")
        assert "revoke" in panel(app, "notes")

    drive(games, script)


def test_start_at_a_hand_and_trick() -> None:
    games = replayed(SAMPLES / "thursday-club.imp")
    k = start_index(games, hand=2, trick=5)

    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        assert "trick 5" in str(app.query_one("#status", Static).content)
        hands = panel(app, "hands")
        assert hands.count("(") == 4  # a line per player, with a card count

    drive(games, script, k)


@pytest.mark.needs("tmux", package="tmux")
def test_the_stepper_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"imp-test-{os.getpid()}"
    tmux = ["tmux", "-L", session]
    status = tmp_path / "status"
    # The shell records the stepper's exit status itself: tmux has been seen to leave a dead pane unreaped, with
    # no status, on a busy machine.
    stepper = shlex.join([sys.executable, "-m", "imptools", "replay", str(RULEBOOK), "--step"])
    command = shlex.join(["sh", "-c", f"{stepper}; echo $? > {shlex.quote(str(status))}"])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command], check=True, env=env)
    subprocess.run([*tmux, "set-option", "-t", session, "remain-on-exit", "on"], check=True)

    def screen() -> str:
        out = subprocess.run([*tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True)
        return out.stdout

    def wait_for(test: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            shown = screen()
            if test(shown):
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{what} never showed:\n{screen()}")

    try:
        first = wait_for(lambda s: "step 1/57" in s and "Hands" in s, "the stepper")
        subprocess.run([*tmux, "send-keys", "-t", session, "Right"], check=True)
        second = wait_for(lambda s: "step 2/57" in s, "the second step")
        assert second != first and "Betty is dealt" in second
        subprocess.run([*tmux, "send-keys", "-t", session, "Down"], check=True)
        wait_for(lambda s: "bottle 17, held by Christian" in s, "the bottle after trick 1")
        subprocess.run([*tmux, "send-keys", "-t", session, "q"], check=True)
        deadline = time.monotonic() + 90
        while not (status.exists() and status.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.2)
        code = status.read_text().strip() if status.exists() else "none"
        assert code == "0", f"the stepper did not quit cleanly on q: exit status {code}\n{screen()}"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def test_hands_sort_by_suit_then_the_games_rank() -> None:
    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        hands = panel(app, "hands")
        assert "QD 8D 7D  KS 10S 9S 7S  AH 9H 6H  JC 6C" in hands  # Maud's deal: A K Q J 10 ... 6 in each suit
        status = panel(app, "status")
        assert "Maud is dealt 7D 8D QD 7S 9S 10S KS 6H 9H AH 6C JC" in " ".join(status.split())

    drive(replayed(SAMPLES / "ninety-nine-red-lion.imp"), script)

    async def botifarra(app: Stepper, pilot: Pilot[None]) -> None:
        hands = panel(app, "hands")
        assert "1o 10o 8o 4o 3o 2o  12c 4c 2c  10e  7b" in hands  # Jordi: 9 1 12 11 10 8 7 ... 2

    drive(replayed(SAMPLES / "botifarra-obligada-casal.imp"), botifarra, start=3)


def test_six_hands_fit_an_80x24_terminal(tmp_path: Path) -> None:
    record = tmp_path / "six.imp"
    subprocess.run(
        [sys.executable, "-m", "imptools", "simulate", "--game", "bottle-imp", "--players", "6", "--hands", "1"]
        + ["--seed", "7", "-o", str(record)],
        check=True,
        cwd=ROOT,
    )

    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        await pilot.press("end")
        await pilot.press("home")
        await pilot.pause()
        hands = panel(app, "hands")
        assert all(p in hands for p in app.games[0].players)
        box = app.query_one("#handsbox")
        # every line of the six hands shows without scrolling: the content is no taller than the box
        assert app.query_one("#hands", Static).size.height <= box.scrollable_content_region.height

    drive(replayed(record), script)


def test_piles_show_their_top_card_and_size() -> None:
    async def script(app: Stepper, pilot: Pilot[None]) -> None:
        hands = panel(app, "hands")
        # after Rector's 4o from pile 2 and Vicar's 9o from pile 6
        assert "Rector  (23)" in hands and "piles 2e/4 11c/3 11o/4 1e/4 10o/4 3o/4" in hands
        assert "piles 5e/4 4e/4 1b/4 6b/4 5b/4 11e/3" in hands

    drive(replayed(SAMPLES / "botifarra-rector-vicar.imp"), script, start=16)


def test_the_analysis_layer_shows_each_plays_cost() -> None:
    from imptools.analyse import analyse_hand

    (record,) = read_games(RULEBOOK)
    expected = analyse_hand(record, 1, 7).plays
    games = [replay_game(record, judge_game(record))]

    async def main() -> None:
        app = Stepper(games, start_index(games, 1, 7), records=[record])
        async with app.run_test(size=(80, 24)) as pilot:
            assert "cost" not in panel(app, "notes")
            await pilot.press("a")  # the hand is analysed from trick 7, in another process
            assert app.pending or app.analyses
            await analyses_done(app, pilot, 600)
            first, second = expected[0], expected[1]
            assert f"cost {first.cost}" in panel(app, "notes") and first.player in panel(app, "notes")
            assert "analysis" in str(app.query_one("#status", Static).content)
            await pilot.press("right")
            assert f"cost {second.cost}" in panel(app, "notes")
            await pilot.press("a")  # off again
            assert "cost" not in panel(app, "notes")

    asyncio.run(main())


def test_quitting_does_not_wait_for_a_long_analysis() -> None:
    """`q` during a whole hand's analysis stops its worker process: the analysis is dropped, not waited for."""
    import multiprocessing

    (record,) = read_games(RULEBOOK)
    games = [replay_game(record, judge_game(record))]
    seen: dict[str, Any] = {}

    async def main() -> None:
        app = Stepper(games, start_index(games, 1, 1), records=[record])
        async with app.run_test(size=(80, 24)) as pilot:
            before = multiprocessing.active_children()
            await pilot.press("a")  # a whole hand: long
            await pilot.pause(0.5)
            assert app.pending and "analysing from trick 1" in panel(app, "notes")
            ((_trick, seen["result"]),) = app.pending.values()
            seen["workers"] = [p for p in multiprocessing.active_children() if p not in before]
            await pilot.press("q")

    asyncio.run(main())
    assert seen["workers"] and not any(p.is_alive() for p in seen["workers"])
    assert not seen["result"].ready()  # the stepper closed while the hand was still being analysed


def test_the_analysis_layer_shows_the_choices_before_the_first_card() -> None:
    """With the layer on at a hand's start, the hand is analysed from trick 1 and each player's bid is shown, valued,
    until the first card is played."""
    from imptools.analyse import analyse_hand
    from imptools.present.analysis import choice_lines

    record = next(iter(read_games(SAMPLES / "ninety-nine-red-lion.imp")))
    lines = choice_lines(analyse_hand(record, 1).choices)
    assert len(lines) == 3
    games = [replay_game(record, judge_game(record))]

    async def main() -> None:
        app = Stepper(games, start_index(games, 1, None), records=[record])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("a")  # the hand is analysed from trick 1, in another process
            await analyses_done(app, pilot, 900)
            assert all(line in notes(app) for line in lines), notes(app)
            for _ in range(30):  # to the first card
                if "plays" in " ".join(notes(app).split()[:3]):
                    break
                assert all(line in notes(app) for line in lines)
                await pilot.press("right")
            assert not any(line in notes(app) for line in lines)

    asyncio.run(main())


def test_the_analysis_layer_leaves_the_choices_out_when_asked() -> None:
    """`imp replay --step --no-choices`: at a hand's start the layer analyses the hand from trick 1 without the bids;
    the first play's cost is shown as with them."""
    from imptools.analyse import analyse_hand
    from imptools.present.analysis import choice_lines

    record = next(iter(read_games(SAMPLES / "ninety-nine-red-lion.imp")))
    whole = analyse_hand(record, 1)
    lines = choice_lines(whole.choices)
    assert len(lines) == 3
    games = [replay_game(record, judge_game(record))]

    async def main() -> None:
        app = Stepper(games, start_index(games, 1, None), records=[record], choices=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("a")  # the hand is analysed from trick 1, in another process
            await analyses_done(app, pilot, 900)
            ((_, done),) = app.analyses.items()
            assert done.choices == () and done.plays == whole.plays
            assert not any(line in notes(app) for line in lines)
            for _ in range(30):  # to the first card
                if "plays" in " ".join(notes(app).split()[:3]):
                    break
                await pilot.press("right")
            assert f"cost {whole.plays[0].cost}" in panel(app, "notes")

    asyncio.run(main())
