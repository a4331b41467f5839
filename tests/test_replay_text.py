"""`imp replay`: the annotated text, its JSON, the SVG and HTML exports, and findings placed at their steps."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.replay import GameReplay, place_findings, replay_game
from imptools.rules import CardFace, get_ruleset
from imptools.rules.steps import Step

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
RULEBOOK = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"


def imp(
    *args: str, env: dict[str, str] | None = None, python: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *python, "-m", "imptools", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def replayed(path: Path) -> list[GameReplay]:
    return [replay_game(g, judge_game(g)) for g in read_games(path)]


def test_rulebook_example_replays_trick_1_and_the_scores() -> None:
    out = imp("replay", str(RULEBOOK))
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "\x1b[" not in text  # plain text into a pipe
    assert all(len(line) <= 80 and line == line.rstrip() for line in text.splitlines())
    trick1 = text[text.index("Trick 1 ") : text.index("Trick 2 ")]
    assert "bottle 19, nobody holds it" in trick1  # the price before
    assert re.search(r"Doris\s+32b \{the rulebook example: 17 takes the bottle\}", trick1)
    assert "→ Christian takes the trick · bottle 17, held by Christian" in trick1  # and after
    assert re.search(r"Adam\s+24b\n", trick1) and re.search(r"Christian\s+17b\n", trick1)
    assert "Hand 1 · dealer Doris" in text
    assert re.search(r"deal\s+Adam\s+2y 4b 6b 7y 13b 14r 20b 24b 26r", text)
    assert re.search(r"pass\s+Adam\s+7y > Betty", text)
    assert "25y!" in text  # the mark
    assert "The imp's trick (the discards), 10 coins: 1y 16r 26r 29r" in text
    assert "Score  Adam 15  Betty -10  Christian 68  Doris 0" in text
    assert "Total  Adam 15  Betty -10  Christian 68  Doris 0" in text


def test_findings_appear_at_the_play_and_at_the_hand_end() -> None:
    out = imp("replay", str(SAMPLES / "with-mistakes.imp"), "--hand", "2", "--trick", "6")
    assert out.returncode == 0, out.stderr
    assert "Hand 1" not in out.stdout and "Trick 5" not in out.stdout and "Trick 7" not in out.stdout
    assert re.search(r"Christian\s+37r ✗ revoke Christian did not follow yellow in trick 6", out.stdout)
    whole = imp("replay", str(SAMPLES / "with-mistakes.imp")).stdout
    hand1 = whole[: whole.index("Hand 2 ")]
    score = hand1.index("Score  Adam 18  Betty 22  Christian -11")
    assert hand1.index("✗ score-mismatch score of Adam is written 23, the rules give 18") > score
    # the bad line between tricks 10 and 11 of hand 3 shows after trick 10
    hand3 = whole[whole.index("Hand 3 ") :]
    assert hand3.index("Trick 10") < hand3.index("✗ syntax `@@`") < hand3.index("Trick 11")
    assert whole.rstrip().endswith("Totals Adam 82  Betty 60  Christian 15")


def test_place_findings_by_trick_line_and_column() -> None:
    (game,) = replayed(SAMPLES / "with-mistakes.imp")
    hand = game.hands[1]
    (revoke,) = [f for fs in hand.findings for f in fs]
    i = hand.findings.index((revoke,))
    event = hand.steps[i].event
    assert (event.kind, event.player, event.cards, event.trick) == ("play", "Christian", ("37",), 6)
    hand1 = game.hands[0]
    assert [f.code for f in hand1.closing] == ["score-mismatch"]
    assert hand1.findings_at(len(hand1.steps) - 1)[-1].code == "score-mismatch"
    assert not any(hand1.findings)


def test_place_findings_without_steps_and_before_the_first_event() -> None:
    (game,) = read_games(SAMPLES / "with-mistakes.imp")
    result = judge_game(game)
    findings = [f for h in result.hands for f in h.findings]
    per_step, opening, closing = place_findings([], findings)
    assert opening == findings and closing == [] and per_step == []
    (replay_,) = replayed(SAMPLES / "with-mistakes.imp")
    steps = replay_.hands[0].steps
    early = replace(findings[0], line=2, trick=None)
    per_step2, opening2, _ = place_findings(steps, [early])
    assert opening2 == [early] and not any(per_step2)


def test_colour_on_a_terminal_and_suit_letters_without() -> None:
    from imptools.present.replay_text import print_replay

    games = replayed(SAMPLES / "thursday-club.imp")
    colour = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=100)
    print_replay(colour, games, hand=1, trick=1)
    text = colour.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[" in text and "24b" not in text and "24" in text
    plain = Console(file=io.StringIO(), force_terminal=True, no_color=True, width=100)
    print_replay(plain, games, hand=1, trick=1)
    assert "24b" in plain.file.getvalue()  # type: ignore[attr-defined]
    assert "24b" in imp("replay", str(SAMPLES / "thursday-club.imp"), env={"NO_COLOR": "1"}).stdout


def test_json_gives_steps_with_detail_lines_and_fields() -> None:
    out = imp("replay", "--json", str(SAMPLES / "thursday-club.imp"), "--game", "1")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    (game,) = doc["games"]
    assert game["players"] == ["Adam", "Betty", "Christian", "Doris"] and len(game["hands"]) == 3
    steps = game["hands"][0]["steps"]
    end1 = next(s for s in steps if s["event"]["kind"] == "trick")
    assert end1["event"]["player"] == "Christian" and end1["event"]["trick"] == 1
    detail = end1["state"]["detail"]
    assert ["bottle", "17, held by Christian"] in detail["lines"]
    assert detail["fields"]["bottles"] == [["17", "Christian"]]
    assert steps[-1]["state"]["scores"] == {"Adam": 15, "Betty": -10, "Christian": 68, "Doris": 0}
    assert sorted(steps[0]["state"]["holdings"]["Adam"], key=int)[:3] == ["2", "4", "6"]


def test_a_game_without_replay_is_said_so_politely(tmp_path: Path) -> None:
    # a game imptools does not know has no steps; the command says so instead of failing
    record = tmp_path / "whist.imp"
    record.write_text('[Game "whist"]\n[Players "A B C D"]\n\nhand 1\n1. A:2 3 4 5\n', encoding="utf-8")
    out = imp("replay", str(record))
    assert out.returncode == 0
    assert "Nothing to replay" in out.stdout and "Traceback" not in out.stderr
    step = imp("replay", str(record), "--step")
    assert step.returncode == 0 and "nothing to replay" in step.stderr


def test_missing_game_and_unreadable_file() -> None:
    assert imp("replay", str(SAMPLES / "thursday-club.imp"), "--game", "9").returncode == 2  # a misuse, as --hand 9
    assert imp("replay", str(SAMPLES / "no-such.imp")).returncode == 2


# --------------------------------------------------------------------------- any game's steps


@dataclass(frozen=True, slots=True)
class Contract:
    """A made-up game's own state, to show the presenters ask nothing but `lines()`."""

    trump: str
    doubled: int

    def lines(self) -> list[tuple[str, str]]:
        return [("trump", self.trump), ("multiplier", f"x{self.doubled}")]


class OtherGame:
    """A stand-in ruleset for a game imptools names nowhere: Bottle Imp steps with another detail and suits."""

    def __init__(self) -> None:
        base = get_ruleset(read_games(SAMPLES / "thursday-club.imp").__next__().game_name)
        assert base is not None
        self.base = base

    def replay(self, game: Any, hand_number: int) -> Iterator[Step]:
        for k, s in enumerate(self.base.replay(game, hand_number)):
            yield replace(s, state=replace(s.state, detail=Contract("swords", 2 if k > 20 else 1)))

    def card_face(self, text: str, game: Any) -> CardFace:
        return CardFace(text + "s", "swords", "magenta")


def test_the_presenters_show_any_games_detail(monkeypatch: pytest.MonkeyPatch) -> None:
    import imptools.replay as replay_module
    from imptools.present.replay_page import replay_page
    from imptools.present.replay_text import print_replay

    (game,) = list(read_games(SAMPLES / "thursday-club.imp"))[:1]
    result = judge_game(game)
    monkeypatch.setattr(replay_module, "get_ruleset", lambda name: OtherGame())
    replayed_ = replay_game(game, result)
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_replay(console, [replayed_], hand=1)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    # the trump never changes during the play: said once before trick 1; the multiplier changes: at each trick
    assert text.count("trump swords") == 1 and text.index("trump swords") < text.index("Trick 1")
    assert "Trick 1 · Adam leads · multiplier x1" in text
    assert "multiplier x2" in text and "24s" in text and "24b" not in text
    page = replay_page([replayed_])
    assert '["multiplier","x2"]' in page and '"24s","swords","#8e24aa"' in page


# --------------------------------------------------------------------------- exports


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.refs += [f"{tag} {k}={v}" for k, v in attrs if k in ("src", "href", "action", "srcset")]


def night(tmp_path: Path) -> Path:
    """A long night: every Bottle Imp sample game, three times over (45 hands)."""
    texts = [
        (SAMPLES / n).read_text(encoding="utf-8")
        for n in ("thursday-club.imp", "with-mistakes.imp", "teams-night.imp", "lopaka.imp", "bright-house.imp")
    ]
    p = tmp_path / "night.imp"
    p.write_text("\n".join(texts * 3), encoding="utf-8")
    return p


def test_html_and_svg_are_self_contained_and_small(tmp_path: Path) -> None:
    record = night(tmp_path)
    page, svg = tmp_path / "night.html", tmp_path / "thursday.svg"
    out = imp("replay", str(record), "--html", str(page))
    assert out.returncode == 0, out.stderr
    out = imp("replay", str(SAMPLES / "thursday-club.imp"), "--svg", str(svg))
    assert out.returncode == 0, out.stderr
    html = page.read_text(encoding="utf-8")
    assert len(page.read_bytes()) < 1_000_000 and len(svg.read_bytes()) < 1_000_000
    assert not re.search(r"https?:", html) and "//cdn" not in html and "@import" not in html
    parser = _Refs()
    parser.feed(html)
    assert parser.refs == [] and parser.tags.count("script") == 2 and "style" in parser.tags
    data = re.search(r'<script id="data" type="application/json">(.*?)</script>', html, re.S)
    assert data is not None
    doc = json.loads(data.group(1))
    hands = [h for g in doc["games"] for h in g["hands"]]
    assert len(doc["games"]) == 15 and len(hands) == 45 and sum(len(h["steps"]) for h in hands) > 2000
    tree = ET.parse(svg)
    assert tree.getroot().tag == "{http://www.w3.org/2000/svg}svg"
    text = svg.read_text(encoding="utf-8")
    assert set(re.findall(r"https?://[^\s\"')]+", text)) == {"http://www.w3.org/2000/svg"}  # the namespace only
    assert "Christian&#160;takes&#160;the&#160;trick" in text or "Christian takes the trick" in text


def test_html_escapes_what_the_record_says(tmp_path: Path) -> None:
    record = tmp_path / "evil.imp"
    text = (SAMPLES / "thursday-club.imp").read_text(encoding="utf-8")
    record.write_text(text.replace("{the rulebook example", "{</script><script>alert(1)</script>"), encoding="utf-8")
    page = tmp_path / "evil.html"
    assert imp("replay", str(record), "--html", str(page)).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert "alert(1)</script>" not in html and html.count("</script>") == 2


# --------------------------------------------------------------------------- the command line around it


def test_shell_completion_of_commands_options_and_records() -> None:
    def complete(words: str) -> list[str]:
        env = {"_IMP_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        out = imp(env=env)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()

    assert complete("imp rep") == ["replay"]
    assert complete("imp replay night.imp --st") == ["--step"]
    assert complete(f"imp replay {SAMPLES}/thu") == [f"{SAMPLES}/thursday-club.imp"]
    assert "--install-completion" in imp("--help").stdout
    # game and variant names: the variants of the game already given
    assert complete("imp simulate --game bot") == ["bottle-imp", "botifarra"]
    assert complete("imp simulate --game bottle-imp --variant teams") == ["teams", "teams-2-2-1-1"]
    assert complete("imp simulate --game botifarra --variant r") == ["rector-vicar"]


def test_validate_does_not_load_the_stepper() -> None:
    out = imp("validate", str(SAMPLES / "thursday-club.imp"), python=("-X", "importtime"))
    modules = [line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")]
    assert "imptools.rules" in modules  # the timing did list the imports ...
    assert not [m for m in modules if m.split(".")[0] == "textual" or "replay" in m]  # ... and no stepper among them


def _text(name: str) -> str:
    from imptools.present.replay_text import print_replay

    games = [replay_game(g, judge_game(g)) for g in read_games(SAMPLES / name)]
    console = Console(file=io.StringIO(), width=100, color_system=None)
    print_replay(console, games, hand=1)
    return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]


def test_calls_bids_and_declarations_read_as_sentences() -> None:
    from imptools.present.cards import describe

    games = [replay_game(g, judge_game(g)) for g in read_games(SAMPLES / "ninety-nine-red-lion.imp")]
    said = [describe(s.event, games[0]) for s in games[0].hands[0].steps]
    assert "Maud declares and reveals their hand" in said
    assert "Maud bids 2, setting aside 7D 8D 6H" in said and "9C is turned up" in said
    text = _text("ninety-nine-red-lion.imp")
    assert "declare Maud reveal" not in " ".join(text.split())
    assert re.search(r"declare +Maud +declares and reveals their hand", text)
    boti = _text("botifarra-rector-vicar.imp")
    assert re.search(r"trump +Vicar +names trumps: bastos", boti) and re.search(r"call +Rector +calls contro", boti)


def test_the_settled_state_is_said_once_and_the_running_state_at_each_trick() -> None:
    text = _text("botifarra-obligada-casal.imp")
    assert text.count("trump oros (named by Jordi)") == 1 and text.count("multiplier x1") == 1
    assert text.index("trump oros (named by Jordi) · multiplier x1") < text.index("Trick 1 ")
    assert "Trick 1 · Núria leads · points Núria+Montse 0, Pau+Jordi 0 · tricks Núria+Montse 0, Pau+Jordi 0" in text
    assert "Trick 2 · Núria leads · points Núria+Montse 8, Pau+Jordi 0" in text
    nn = _text("ninety-nine-red-lion.imp")
    assert nn.count("bids Maud 2, Ivo 2, Tess 3") == 1 and nn.count("turn-up 9C ·") == 1
    assert "Trick 2 · Maud leads · tricks Maud 1 of 2, Ivo 0 of 2, Tess 0 of 3" in nn


def test_cards_in_sentences_keep_their_colour() -> None:
    from imptools.present.replay_text import print_replay

    games = [replay_game(g, judge_game(g)) for g in read_games(SAMPLES / "ninety-nine-red-lion.imp")]
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system="truecolor")
    print_replay(console, games, hand=1)
    bid = next(x for x in console.file.getvalue().splitlines() if "setting aside" in x)  # type: ignore[attr-defined]
    assert "\x1b[1;31m7D\x1b[0m" in bid and "bids 2" in bid  # the diamond red, the number 2 plain
