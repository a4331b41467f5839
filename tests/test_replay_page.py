"""The replay page in a real browser: headless Chromium driven over the DevTools protocol with real key events."""

from __future__ import annotations

import base64
import itertools
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from headless import devtools_page

from imptools.check import judge_game
from imptools.present.replay_page import replay_page
from imptools.reader import read_games
from imptools.replay import replay_game

websocket = pytest.importorskip("websocket")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
pytestmark = pytest.mark.needs("chromium", "chromium-browser", "google-chrome", package="chromium")


class DevToolsError(AssertionError):
    """The browser refused a call."""


NAVIGATING = ("Inspected target navigated or closed", "Execution context was destroyed", "Cannot find context")
"""What the browser says to an evaluation made while the page reloads: ask again."""


class Browser:
    """One headless Chromium page, spoken to over the DevTools protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == n:
                if "error" in reply:
                    raise DevToolsError(reply)
                result: dict[str, Any] = reply["result"]
                return result

    def js(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def wait(self, expression: str, timeout: float = 45) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.js(expression)
            except DevToolsError as exc:
                if not any(m in str(exc) for m in NAVIGATING):
                    raise
                value = None  # the page is reloading
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"never true: {expression}")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    with devtools_page(tmp_path / "profile", "1000,700") as ws:
        yield Browser(ws)


def open_page(browser: Browser, tmp_path: Path, record: Path, where: str = "") -> None:
    games = [replay_game(g, judge_game(g)) for g in read_games(record)]
    page = tmp_path / f"{record.stem}.html"
    page.write_text(replay_page(games), encoding="utf-8")
    browser.call("Page.navigate", url=page.as_uri() + where)
    browser.wait("document.readyState === 'complete' && document.getElementById('pos').textContent !== ''")


def trick(browser: Browser) -> str:
    value: str = browser.js("document.getElementById('felt').dataset.trick")
    return value


def test_right_key_plays_the_next_card(browser: Browser, tmp_path: Path) -> None:
    open_page(browser, tmp_path, SAMPLES / "thursday-club.imp", "#g=1&h=1&s=16")
    assert trick(browser) == ""  # the last pass: nothing on the table yet
    assert browser.js("document.getElementById('say').textContent") == "Doris passes 30b to Christian"
    browser.key("ArrowRight", 39)
    assert trick(browser) == "Adam:24"
    assert browser.js("document.querySelectorAll('.trickcard').length") == 1
    browser.key("ArrowRight", 39)
    assert trick(browser) == "Adam:24 Betty:15"
    browser.key("ArrowDown", 40)  # to the end of the trick: all four cards and the winner
    assert trick(browser) == "Adam:24 Betty:15 Christian:17 Doris:32"
    assert browser.js("document.querySelector('.trickcard.winner').dataset.player") == "Christian"
    seats = "[...document.querySelectorAll('.seat')].map((s) => s.querySelectorAll('.card').length)"
    assert browser.js(seats) == [7, 7, 7, 7]  # nine dealt, one discarded, two passed, two received, one played
    assert "void: b" in browser.js("document.querySelectorAll('.seat')[1].textContent")  # Betty did not follow blue
    detail = browser.js("document.getElementById('detail').textContent")
    assert "bottle17, held by Christian" in detail
    assert browser.js("location.hash") == "#g=1&h=1&s=21"
    browser.key("ArrowLeft", 37)
    assert trick(browser) == "Adam:24 Betty:15 Christian:17 Doris:32"
    assert browser.js("document.querySelector('.trickcard.winner')") is None
    browser.key("PageDown", 34)
    assert browser.js("document.getElementById('hand').value") == "1"  # the second hand (index 1)
    assert browser.js("document.getElementById('pos').textContent").startswith("hand 2 · step 1 of")
    shot = tmp_path / "page.png"
    shot.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 10_000


def test_findings_are_marked_where_they_happen(browser: Browser, tmp_path: Path) -> None:
    open_page(browser, tmp_path, SAMPLES / "with-mistakes.imp")
    assert browser.js("document.querySelectorAll('#timeline i.f').length") == 1  # hand 1: the score at its end
    browser.key("f", 70)
    assert "score-mismatch" in browser.js("document.getElementById('notes').textContent")
    browser.key("f", 70)
    notes = browser.js("document.getElementById('notes').textContent")
    assert re.search(r"revoke\s*Christian did not follow yellow in trick 6", notes)
    assert browser.js("document.querySelector('.trickcard.bad').dataset.player") == "Christian"
    assert browser.js("document.getElementById('pos').textContent").startswith("hand 2 ")
    browser.key("F", 70)
    assert "score-mismatch" in browser.js("document.getElementById('notes').textContent")


CONTRAST = """(() => {
  const rgb = (s) => s.match(/\\d+/g).slice(0, 3).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(lin); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll('.seat .card:not(.back)')].map((c) => {
    const ink = lum(rgb(getComputedStyle(c).color)), card = lum(rgb(getComputedStyle(c).backgroundColor));
    return [c.textContent, (Math.max(ink, card) + 0.05) / (Math.min(ink, card) + 0.05)];
  });
})()"""


@pytest.mark.parametrize("sample", ["ninety-nine-red-lion", "botifarra-obligada-casal", "thursday-club"])
def test_every_card_reads_on_its_face(browser: Browser, tmp_path: Path, sample: str) -> None:
    """Spades and clubs, oros, the Bottle Imp's yellow: every card's ink against its face at least 4.5:1."""
    open_page(browser, tmp_path, SAMPLES / f"{sample}.imp", "#g=1&h=1&s=12")
    inks = browser.js(CONTRAST)
    assert len(inks) > 20
    faint = [(text, round(ratio, 2)) for text, ratio in inks if ratio < 4.5]
    assert not faint
    if sample.startswith("ninety"):
        spades = [ratio for text, ratio in inks if text.endswith("S")]
        assert spades and min(spades) > 10  # nearly black on white, not the felt's white


OVERLAPS = """(() => {
  const what = '.seat .name, .seat .cards, .trickcard, .trickcard .who, #trickno, #centrenote';
  const shown = document.querySelectorAll(what);
  const boxes = [...shown].filter((e) => e.textContent !== '').map((e) => {
    const r = e.getBoundingClientRect(); return [e.className + ' ' + e.textContent.slice(0, 12), r, e];
  });
  const felt = document.getElementById('felt').getBoundingClientRect(), out = [];
  boxes.forEach(([a, r, e], i) => {
    const outside = r.left < felt.left - 1 || r.right > felt.right + 1 || r.top < felt.top - 1;
    if (outside || r.bottom > felt.bottom + 1) out.push(a + ' leaves the felt');
    boxes.slice(i + 1).forEach(([b, q, f]) => {
      if (e.contains(f) || f.contains(e)) return;
      const x = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const y = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (x > 1 && y > 1) out.push(a + ' / ' + b);
    });
  });
  return out;
})()"""


@pytest.mark.parametrize(
    ("sample", "steps"),
    [
        ("thursday-club", (12, 21)),
        ("botifarra-obligada-casal", (12, 16, 19)),
        ("botifarra-rector-vicar", (12, 17, 19)),
        ("botifarra-three-players", (8, 11, 14)),
        ("ninety-nine-red-lion", (12, 14)),
        ("five-players-tricks-only", (2, 6, 7)),
        ("bright-house", (12, 20)),
    ],
)
def test_seats_labels_and_the_trick_never_overlap(
    browser: Browser, tmp_path: Path, sample: str, steps: tuple[int, ...]
) -> None:
    """Names, hands (of up to 24 cards), trick cards and their labels keep apart, inside the felt, at 2 to 5 seats."""
    for k, step in enumerate(steps):
        if k == 0:
            open_page(browser, tmp_path, SAMPLES / f"{sample}.imp", f"#g=1&h=1&s={step}")
        else:
            browser.js(f"location.hash = '#g=1&h=1&s={step}'; location.reload()")
            browser.wait(f"document.getElementById('pos').textContent.includes('step {step} ')")
        assert browser.js(OVERLAPS) == [], (sample, step)
        # each card's corner (its rank) is not hidden by the next card
        hidden = browser.js(
            """[...document.querySelectorAll('.seat .cards .card .r')].filter((r) => {
                 const next = r.parentElement.nextElementSibling; if (!next) return false;
                 return r.getBoundingClientRect().right > next.getBoundingClientRect().left + 1;
               }).map((r) => r.parentElement.textContent)"""
        )
        assert hidden == [], (sample, step)


def test_hands_are_sorted_by_suit_then_rank(browser: Browser, tmp_path: Path) -> None:
    open_page(browser, tmp_path, SAMPLES / "ninety-nine-red-lion.imp", "#g=1&h=1&s=1")
    maud = browser.js("[...document.querySelectorAll('.seat')[0].querySelectorAll('.card')].map((c) => c.textContent)")
    assert maud == ["QD", "8D", "7D", "KS", "10S", "9S", "7S", "AH", "9H", "6H", "JC", "6C"]


def test_piles_show_their_top_card_and_size(browser: Browser, tmp_path: Path) -> None:
    open_page(browser, tmp_path, SAMPLES / "botifarra-piles-and-hand.imp", "#g=1&h=1&s=11")  # Carme names trumps
    piles = browser.js(
        "[...document.querySelectorAll('.seat')].map((s) => [s.querySelectorAll('.cards .card').length,"
        " [...s.querySelectorAll('.pile')].map((p) => p.textContent)])"
    )
    assert [len(tops) for _, tops in piles] == [4, 4]
    assert all(top.endswith("4 cards") for _, tops in piles for top in tops)
    assert [held for held, _ in piles] == [8, 8]  # the cards in hand, apart from the piles
    assert piles[1][1] == ["2o4 cards", "2c4 cards", "11o4 cards", "5b4 cards"]  # each pile's top card


@pytest.mark.parametrize("sample", ["botifarra-obligada-casal", "thursday-club", "ninety-nine-red-lion"])
def test_a_phone_wide_page_keeps_seats_apart(browser: Browser, tmp_path: Path, sample: str) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", width=400, height=860, deviceScaleFactor=1, mobile=True)
    open_page(browser, tmp_path, SAMPLES / f"{sample}.imp", "#g=1&h=1&s=19")
    assert browser.js("document.getElementById('felt').clientWidth") < 400
    assert browser.js(OVERLAPS) == []


def test_the_analysis_layer_shows_each_plays_cost(browser: Browser, tmp_path: Path) -> None:
    from imptools.analyse import analyse_hand
    from imptools.replay import with_analyses

    rulebook = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"
    (game,) = read_games(rulebook)
    analysis = analyse_hand(game, 1, 7)
    page = tmp_path / "analysed.html"
    page.write_text(replay_page([with_analyses(replay_game(game, judge_game(game)), [analysis])]), encoding="utf-8")
    browser.call("Page.navigate", url=page.as_uri())
    browser.wait("document.readyState === 'complete' && document.getElementById('pos').textContent !== ''")
    seen = []
    for _ in range(80):
        say = browser.js("document.getElementById('say').textContent")
        cost = browser.js("(document.querySelector('#notes .cost') || {}).textContent || null")
        if cost is not None:
            seen.append((say, cost))
        browser.key("ArrowRight", 39)
    assert len(seen) == len(analysis.plays) == 8
    for (say, cost), p in zip(seen, analysis.plays):
        assert say.startswith(f"{p.player} plays {p.card}")
        assert cost.startswith(f"cost {p.cost}")


def test_the_analysis_shows_the_choices_before_the_first_card(browser: Browser, tmp_path: Path) -> None:
    """Each player's bid valued, in the Now box from the hand's first step until the first card is played."""
    from imptools.analyse import analyse_hand
    from imptools.present.analysis import choice_lines
    from imptools.replay import with_analyses

    game = next(iter(read_games(SAMPLES / "ninety-nine-red-lion.imp")))
    analysis = analyse_hand(game, 1)
    lines = choice_lines(analysis.choices)
    assert len(lines) == 3 and all(line.startswith("bid, ") for line in lines)
    page = tmp_path / "choices.html"
    page.write_text(replay_page([with_analyses(replay_game(game, judge_game(game)), [analysis])]), encoding="utf-8")
    browser.call("Page.navigate", url=page.as_uri())
    browser.wait("document.readyState === 'complete' && document.getElementById('pos').textContent !== ''")
    shown = "[...document.querySelectorAll('#notes .choice')].map((d) => d.textContent)"
    assert browser.js(shown) == lines
    for _ in range(20):
        if browser.js("document.getElementById('say').textContent").startswith(f"{analysis.plays[0].player} plays"):
            break
        assert browser.js(shown) == lines  # every step before the first card
        browser.key("ArrowRight", 39)
    else:
        raise AssertionError("no first play")
    assert browser.js(shown) == []
