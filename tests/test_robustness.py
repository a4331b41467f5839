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
from imptools.cli.app import app
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


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


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


@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_the_one_record_commands_refuse_a_folder_of_none_or_several_without_a_traceback(
    tmp_path: Path, command: str
) -> None:
    (tmp_path / "empty.imp").mkdir()  # a folder, even named like a record
    (tmp_path / "night").mkdir()
    for name in ("a.imp", "b.imp"):
        (tmp_path / "night" / name).write_text(THURSDAY, encoding="utf-8")
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "a.imp").write_text(THURSDAY, encoding="utf-8")
    none = run(command, str(tmp_path / "empty.imp"))
    assert none.exit_code == 2
    assert "a folder with no .imp file in it" in none.stderr
    several = run(command, str(tmp_path / "night"))
    assert several.exit_code == 2
    assert f"a folder of 2 records; imp {command} takes one record file" in several.stderr
    assert run(command, "--hand", "1", "--from-trick", "8", str(tmp_path / "one")).exit_code == 0


# --------------------------------------------------------------------------- one mistake, one finding


def judged(text: str) -> tuple[list[tuple[str, int | None, int | None]], list[dict[str, int] | None]]:
    (game,) = games_of(text)
    result = judge_game(game)
    return [(f.code, f.hand, f.line) for f in result.all_findings()], [h.scores for h in result.hands]


@pytest.mark.parametrize(
    ("sample", "written", "slip", "meant"),
    [
        ("thursday-club.imp", "[Players ", "[Playres ", "Players"),
        ("thursday-club.imp", "[Players ", "[players ", "Players"),
        ("thursday-club.imp", "[Variant ", "[Varaint ", "Variant"),
        ("botifarra-lliure-cafe.imp", "[Variant ", "[variant ", "Variant"),
        ("botifarra-lliure-cafe.imp", "[Players ", "[Player ", "Players"),
        ("botifarra-individual.imp", "[Teams ", "[Team ", "Teams"),
        ("botifarra-individual.imp", "[Teams ", "[teams ", "Teams"),
        ("botifarra-individual.imp", '[Teams "none"]', '[Teams "nnoe"]', "none"),
        ("botifarra-individual.imp", '[Teams "none"]', '[Teams "None"]', "none"),
    ],
)
def test_a_rules_tag_one_slip_away_is_one_finding_and_the_game_is_judged_by_it(
    sample: str, written: str, slip: str, meant: str
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    assert written in text
    clean_findings, clean_scores = judged(text)
    assert clean_findings == [] and all(s is not None for s in clean_scores)
    (game,) = games_of(text.replace(written, slip, 1))
    result = judge_game(game)
    (finding,) = result.all_findings()
    line = text[: text.index(written)].count("\n") + 1
    assert (finding.code, finding.line, finding.column, finding.hand) == ("syntax", line, 1, None)
    assert f"did you mean `{meant}" in finding.message or f"did you mean `[{meant} ...]`" in finding.message
    assert [h.scores for h in result.hands] == clean_scores
    assert result.rules_checked


@pytest.mark.parametrize(
    ("written", "slip"),
    [
        ("3. 37 33 14 23", "3 37 33 14 23"),
        ("1. Adam:24 15 17 32 {", "1 24 15 17 32 {"),
        ("1. Adam:24 15 17 32 {", "1 Adam:24 15 17 32 {"),
        ("pass Adam > Betty 7", "pass Adam Betty 7"),
        ("pass Doris > Christian 30", "pass Doris\tChristian 30"),
        ("pass Adam > Betty 7", "pass Adam -> Betty 7"),  # another arrow for `>`
        ("pass Doris > Christian 30", "pass Doris => Christian 30"),
        ("pass Adam > Betty 7", "pass Adam \u2192 Betty 7"),
        ("5. Betty:11 35 31 9", "5. Betty 11 35 31 9"),
        ("2. Christian:8 4 6 7 ;", "2. Christian 8 4 6 7 ;"),
    ],
)
def test_a_repaired_line_is_one_finding_and_the_hand_is_scored_as_meant(written: str, slip: str) -> None:
    assert THURSDAY.count(written) == 1
    clean_findings, clean_scores = judged(THURSDAY)
    assert clean_findings == []
    findings, scores = judged(THURSDAY.replace(written, slip))
    line = THURSDAY[: THURSDAY.index(written)].count("\n") + 1
    assert findings == [("syntax", 1, line)]
    assert scores == clean_scores


def test_a_line_that_cannot_be_repaired_is_skipped_with_one_finding() -> None:
    findings, scores = judged(THURSDAY.replace("discard Betty 16\n", "discard Betty 16\n@@ spilled coffee here\n"))
    assert findings == [("syntax", 1, 17)]
    assert scores[0] is not None


def test_a_misspelt_game_names_the_game_meant() -> None:
    (game,) = games_of(THURSDAY.replace('[Game "bottle-imp"]', '[Game "botle-imp"]'))
    result = judge_game(game)
    (f,) = result.all_findings()
    assert (f.code, f.line, f.column) == ("syntax", 2, 1)
    assert f.message == "`botle-imp`: did you mean `bottle-imp`? The game is judged as `bottle-imp`"
    assert result.rules_checked and result.totals == judge_game(games_of(THURSDAY)[0]).totals
    (game,) = games_of(THURSDAY.replace('[Game "bottle-imp"]', '[Game "bottles-imps"]'))
    (f,) = judge_game(game).all_findings()
    assert f.message == "`bottles-imps`: did you mean `bottle-imp`?"  # two keystrokes: named, not judged
    (game,) = games_of(THURSDAY.replace('[Game "bottle-imp"]', '[Game "whist"]'))
    (f,) = judge_game(game).all_findings()
    assert f.message == "`whist` is not a game imptools knows (bottle-imp, botifarra, ninety-nine)"


@dataclass
class WithVariants(Exploding):
    variants: tuple[str, ...] = ("classic", "teams", "teams-2-2-1-1", "second-bottle", "lopaka")


def test_an_unknown_variant_is_reported_when_the_ruleset_lists_its_variants(monkeypatch: pytest.MonkeyPatch) -> None:
    real = get_ruleset("bottle-imp")
    assert real is not None
    text = THURSDAY.replace('[Variant "classic"]', '[Variant "clasic"]')
    (game,) = games_of(text)
    if getattr(real, "variants", None) is None:
        # a ruleset that does not list its variants is not second-guessed
        assert [f for f in judge_game(game).all_findings() if f.line == 3] == []
    monkeypatch.setattr(imptools.check, "get_ruleset", lambda name: WithVariants(real))
    found = [(f.code, f.line, f.column, f.message) for f in judge_game(game).all_findings()]
    assert found == [("syntax", 3, 1, "`clasic`: did you mean `classic`? The variant is judged as `classic`")]
    (game,) = games_of(THURSDAY.replace('[Variant "classic"]', '[Variant "grand"]'))
    result = judge_game(game)
    (f,) = result.all_findings()  # rules not known: the hands are not judged, and nothing more is said
    assert f.message == "`grand` is not a variant of bottle-imp (classic, teams, teams-2-2-1-1, second-bottle, lopaka)"
    assert f.line == 3 and not result.rules_checked and all(h.scores is None for h in result.hands)
    (game,) = games_of(THURSDAY)
    assert judge_game(game).all_findings() == []


# --------------------------------------------------------------------------- files that hold no notation


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"eggs\nmilk 2\n1 dozen apples\ndeal with it\n", "no line is a tag like"),
        (bytes(range(256)) * 40, "this is not a text file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "this is not a text file"),
        (b"", "the file is empty"),
        (b"; just a note\n\n", "the file is empty but for comments"),
    ],
)
def test_a_file_without_notation_is_one_finding_and_exit_1(tmp_path: Path, content: bytes, why: str) -> None:
    p = tmp_path / "list.imp"
    p.write_bytes(content)
    (game,) = read_games(p)
    (f,) = game.findings
    assert f.code == "syntax" and f.message.startswith("no Imp notation found: ") and why in f.message
    out = run("validate", "--json", str(p))
    assert out.exit_code == 1
    (g,) = json.loads(out.stdout)["findings"]
    assert g["message"] == f.message and (g["line"], g["game"]) == (1, 1)
    assert run("fmt", "--check", str(p)).exit_code == 1


def test_junk_before_the_first_tag_is_reported_on_game_1() -> None:
    (game,) = games_of("shopping: eggs\n" + THURSDAY)
    assert [(f.code, f.line, f.game) for f in game.findings] == [("syntax", 1, 1)]


# --------------------------------------------------------------------------- limits: bounded time and memory

HEAD4 = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n'


def peak_while(fn: Any) -> tuple[Any, float]:
    """Run `fn`; its result and the peak of memory traced (MB).

    How long these inputs take at full size is measured by bench/limits.py, not here.
    """
    import tracemalloc

    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def calls_while(fn: Any) -> tuple[Any, int]:
    """Run `fn`; its result and how many functions (Python's and C's) it called: work counted, not timed."""
    import sys

    count = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(None)
    return result, count


def test_a_line_of_megabytes_is_reported_and_skipped_in_bounded_memory(tmp_path: Path) -> None:
    p = tmp_path / "long.imp"
    with p.open("w", encoding="utf-8") as out:
        out.write(HEAD4 + "hand 1\n1. 1 2 3 4\n2. ")
        for _ in range(400):
            out.write("5 " * 10_000)  # one line of 8 MB
        out.write("\n3. 5 6 7 8\n")
    games, peak = peak_while(lambda: list(read_games(p)))
    (game,) = games
    (f,) = game.findings
    assert (f.code, f.line, f.hand) == ("syntax", 5, 1)
    assert f.message == "This line is 8,000,003 bytes long (a record's lines stay under 100,000): not read"
    assert [t.number for t in game.hands[0].tricks] == [1, 3]
    assert peak < 5


def test_a_long_line_in_text_and_crlf_at_chunk_edges() -> None:
    import io

    (game,) = read_games(io.StringIO(HEAD4 + "hand 1\n;" + "x" * 200_000 + "\r\n1. 1 2 3 4\r\n"))
    assert [(f.line, f.message[:27]) for f in game.findings] == [(4, "This line is 200,001 charac")]
    assert game.hands[0].tricks[0].line == 5
    # CRLF split across the reader's chunks still ends one line, never two
    text = HEAD4 + "hand 1\n" + "; pad\r\n" * 20_000 + "1. 1 2 3 4\r\n"
    (game,) = read_games(io.BytesIO(text.encode()))
    assert game.findings == () and game.hands[0].tricks[0].line == 20_004


def test_an_annotation_never_closed_in_a_huge_file_costs_bounded_time_and_memory(tmp_path: Path) -> None:
    p = tmp_path / "brace.imp"
    with p.open("w", encoding="utf-8") as out:
        out.write(HEAD4 + "hand 1\n1. 1 2 3 4 {never closed\n")
        blank = " " * 9_999 + "\n"
        for _ in range(3_000):  # 30 MB with no `}`
            out.write(blank)
        out.write("2. 5 6 7 8\n")
    games, peak = peak_while(lambda: list(read_games(p)))
    (game,) = games
    assert [(f.line, f.column, f.message) for f in game.findings] == [
        (4, 12, "`{` opens an annotation that is never closed with `}`")
    ]
    assert [t.number for t in game.hands[0].tricks] == [1, 2]
    assert peak < 15


def test_every_line_opening_an_annotation_stays_linear() -> None:
    def read(n: int) -> tuple[Any, int]:
        lines = [f"{i}. 1 2 3 4 {{note {i}" for i in range(1, n + 1)]
        return calls_while(lambda: list(read_games(HEAD4 + "hand 1\n" + "\n".join(lines) + "\n")))

    (game,), work = read(3_000)
    assert len(game.hands[0].tricks) == 3_000
    assert len(game.findings) == 101  # 100 listed, then one that counts the rest
    assert game.findings[-1].message.startswith("... and 2,900 more lines")
    _, work_tenth = read(300)
    assert work < 10 * work_tenth * 1.5, (work, work_tenth)  # ten times the lines, about ten times the work


def test_an_annotation_may_span_lines_up_to_the_limit() -> None:
    from imptools.reader import MAX_NOTE_LINES

    inside = "\n".join(f"line {i} of the story" for i in range(MAX_NOTE_LINES - 2))
    (game,) = read_games(HEAD4 + "hand 1\n1. 1 2 3 4 {" + inside + "}\n2. 5 6 7 8\n")
    assert game.findings == ()
    assert game.hands[0].tricks[0].plays[-1].annotations[0].text.count("\n") == MAX_NOTE_LINES - 3


def test_nul_bytes_and_bytes_that_are_not_utf8_cost_their_line_only(tmp_path: Path) -> None:
    p = tmp_path / "mixed.imp"
    p.write_bytes(
        HEAD4.encode() + b"hand 1\n1. 1 2\x003 4\n2. 5 6 7 8\n3. 9 10 \xff 11\n\x00\x00\x00\n4. 12 13 14 15\n"
    )
    (game,) = read_games(p)
    assert [(f.line, f.column, f.message.split(" ")[0]) for f in game.findings] == [
        (4, 7, "Control"),
        (6, 9, "Byte"),
        (7, 1, "Control"),
    ]
    assert "U+0000" in game.findings[0].message
    assert [t.number for t in game.hands[0].tricks] == [2, 3, 4]


def test_many_games_stream_in_memory_that_does_not_grow_with_the_file(tmp_path: Path) -> None:
    def peak_for(games: int) -> float:
        p = tmp_path / f"g{games}.imp"
        p.write_text((HEAD4 + "hand 1\n") * games, encoding="utf-8")

        def count() -> int:
            return sum(1 for _ in read_games(p))

        n, peak = peak_while(count)
        assert n == games
        return peak

    small, large = peak_for(500), peak_for(5_000)
    assert large < small * 1.5 + 0.5


def test_a_thousand_players_is_one_finding_and_the_game_is_not_judged() -> None:
    names = " ".join(f"P{i}" for i in range(1_000))
    text = f'[Game "bottle-imp"]\n[Players "{names}"]\nhand 1\n1. 1 2 3\n'
    (game,) = games_of(text)
    result, work = calls_while(lambda: judge_game(game))
    (f,) = result.all_findings()
    assert (f.code, f.line) == ("syntax", 2)
    assert f.message == "Players names 1,000 players; imptools judges games of at most 64 (this game is not judged)"
    assert not result.rules_checked and work < 100_000, work  # refused, not judged


def test_players_named_twice_or_not_names() -> None:
    (game,) = games_of('[Game "bottle-imp"]\n[Players "Adam Betty Adam 9lives"]\nhand 1\n')
    assert [f.message for f in game.findings] == [
        "`9lives` in Players is not a player name (a letter, then letters, digits, _ ' or -)",
        "`Adam` is named twice in Players: the players of a game have different names",
    ]


# --------------------------------------------------------------------------- writers: atomic, careful, faithful

MESSY = THURSDAY.replace("hand 1 dealer Doris", "hand 1   dealer Doris").replace("3. 37 33", "3.  37  33")


def test_fmt_write_keeps_permissions_and_links(tmp_path: Path) -> None:
    import os
    import stat

    real = tmp_path / "night.imp"
    real.write_text(MESSY, encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.imp"
    link.symlink_to(real)
    out = run("fmt", "--write", str(link))
    assert out.exit_code == 0, out.output
    assert link.is_symlink() and "hand 1 dealer Doris" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.imp", "night.imp"]


def test_fmt_write_refuses_a_file_changed_since_it_was_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import imptools.writer

    p = tmp_path / "night.imp"
    p.write_text(MESSY, encoding="utf-8")
    theirs = MESSY + "\n; added by Betty while imp was formatting\n"
    real_format = imptools.writer.format_games

    def format_while_someone_saves(games: Any) -> str:
        p.write_text(theirs, encoding="utf-8")  # another editor saves the file meanwhile
        return real_format(games)

    monkeypatch.setattr(imptools.writer, "format_games", format_while_someone_saves)
    out = run("fmt", "--write", str(p))
    assert out.exit_code == 1
    assert f"{p} changed since it was read; not rewritten (run imp fmt again)" in out.output
    assert p.read_text(encoding="utf-8") == theirs
    assert [x.name for x in tmp_path.iterdir()] == ["night.imp"]


def test_fmt_never_writes_a_form_that_loses_a_comment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import imptools.writer

    p = tmp_path / "night.imp"
    p.write_text(MESSY, encoding="utf-8")
    real_format = imptools.writer.format_games
    monkeypatch.setattr(
        imptools.writer, "format_games", lambda games: real_format(games).replace(" {the rulebook example", " {x")
    )
    out = run("fmt", "--write", str(p))
    assert out.exit_code == 3 and "would lose a comment" in out.output
    assert p.read_text(encoding="utf-8") == MESSY


def test_fmt_check_reads_standard_input_once() -> None:
    assert run("fmt", "--check", "-", input=MESSY).exit_code == 1
    canonical = run("fmt", "-", input=MESSY).stdout
    assert run("fmt", "--check", "-", input=canonical).exit_code == 0


def test_import_output_is_atomic_and_refuses_a_file_changed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import stat

    import imptools.writer

    exported = tmp_path / "night.json"
    exported.write_bytes(imptools.writer.games_to_json(games_of(THURSDAY)))
    new = tmp_path / "new.imp"
    assert run("import", str(exported), "-o", str(new)).exit_code == 0
    assert new.read_text(encoding="utf-8") == imptools.writer.format_games(games_of(THURSDAY))
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o666 & ~umask

    real_text = imptools.writer.document_text

    def read_while_someone_saves(data: Any) -> Any:
        new.write_text("; Doris's own notes\n", encoding="utf-8")
        return real_text(data)

    monkeypatch.setattr(imptools.writer, "document_text", read_while_someone_saves)
    out = run("import", str(exported), "-o", str(new))
    assert out.exit_code == 1 and "changed while the export was read; not overwritten" in out.output
    assert new.read_text(encoding="utf-8") == "; Doris's own notes\n"


# --------------------------------------------------------------------------- crashes found by fuzzing


def test_regression_an_invisible_separator_in_a_line_is_a_finding() -> None:
    # U+2028 is neither a word nor a space to the grammar: describing it raised IndexError
    (game,) = games_of(HEAD4 + "hand 1\ndeal Adam 1 2\u2028\n1. 1 2 3 4\n")
    (f,) = game.findings
    assert (f.line, f.column) == (4, 14)
    assert f.message == "In this `deal` line, the character U+2028, which does not show, is not understood here"
    assert game.hands[0].tricks[0].number == 1


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("score Adam " + "9" * 400, 12, "`99999999999999999999...` (400 digits) is too large a number"),
        ("hand 12345678901", 6, "`12345678901...` (11 digits) is too large a number"),
        ("1234567890123. 1 2 3 4", 1, "`1234567890123...` (13 digits) is too large a number"),
        ("open Adam 99999999999", 11, "`99999999999...` (11 digits) is too large a number"),
        ("deal Adam.²2 1 2", 6, "`Adam.²2` is not a player name (a letter, then letters, digits, _ ' or -)"),
    ],
)
def test_regression_numbers_too_large_for_a_record(line: str, column: int, message: str) -> None:
    # a 400-digit score made the JSON export raise ("Integer exceeds 64-bit range"); 5,000 digits made int() raise
    from imptools.writer import games_from_json, games_to_json

    games = games_of(HEAD4 + "hand 1\n" + line + "\n")
    (f,) = games[0].findings
    assert (f.line, f.column, f.message) == (4, column, message)
    assert games_from_json(games_to_json(games)) == games


def test_regression_a_bid_of_a_digit_that_is_not_ascii() -> None:
    # `"²".isdigit()` is true but int("²") raises
    (game,) = games_of('[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1\nbid Al ²\n')
    assert game.findings == ()
    assert [c.text for c in game.hands[0].bids[0].cards] == ["²"]


@pytest.mark.parametrize("token", ["27.5", "9" * 400, "1.5"])
def test_rules_judge_a_deal_with_a_token_that_is_not_a_card(token: str) -> None:
    (game,) = games_of(THURSDAY.replace("deal Adam 2 4 6 7 13 14 20 24 26", f"deal Adam 2 4 6 7 13 14 20 24 {token}"))
    codes = [f.code for f in judge_game(game).all_findings()]
    assert "internal" not in codes and "unknown-card" in codes


LOPAKA = (SAMPLES / "lopaka.imp").read_text(encoding="utf-8")


def test_rules_judge_lopaka_with_a_token_that_is_not_a_card() -> None:
    deal = next(line for line in LOPAKA.splitlines() if line.startswith("deal Lopaka "))
    (game, *_) = games_of(LOPAKA.replace(deal, deal + " 532", 1))
    codes = [f.code for f in judge_game(game).all_findings()]
    assert "internal" not in codes and "unknown-card" in codes


@pytest.mark.parametrize("token", ["27.5", "9" * 400])
def test_a_deal_with_a_token_that_is_not_a_card_is_reported_and_the_batch_goes_on(tmp_path: Path, token: str) -> None:
    bad = tmp_path / "a.imp"
    bad.write_text(
        THURSDAY.replace("deal Adam 2 4 6 7 13 14 20 24 26", f"deal Adam 2 4 6 7 13 14 20 24 {token}"), encoding="utf-8"
    )
    good = tmp_path / "b.imp"
    good.write_text(THURSDAY, encoding="utf-8")
    out = run("validate", "--json", str(bad), str(good))
    assert out.exit_code == 1  # the card is reported; no internal failure
    doc = json.loads(out.stdout)
    assert doc["summary"]["games"] == 2
    assert all(f["path"] == str(bad) for f in doc["findings"])


def test_a_card_of_another_game_says_which_game_it_belongs_to() -> None:
    imp_record = (
        '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\nhand 1 dealer Doris\n1. Adam:9o 15 17 32\n'
    )
    nn_record = '[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1\n1. Al:24 9o QS\n'
    messages = [
        f.message
        for text in (imp_record, nn_record)
        for game in games_of(text)
        for f in judge_game(game).all_findings()
        if f.code in ("unknown-card", "colour-mismatch")
    ]
    assert messages == [
        "`9o` is a card of botifarra, not of this game (bottle-imp)",
        "`24` is a card of bottle-imp, not of this game (ninety-nine)",
        "`9o` is a card of botifarra, not of this game (ninety-nine)",
    ]


def test_score_json_lists_no_game_for_a_file_that_holds_none(tmp_path: Path) -> None:
    empty, binary, night = tmp_path / "empty.imp", tmp_path / "binary.imp", tmp_path / "night.imp"
    empty.write_text("", encoding="utf-8")
    binary.write_bytes(bytes(range(256)) * 4)
    night.write_text(THURSDAY, encoding="utf-8")
    doc = json.loads(run("score", "--json", str(empty), str(binary), str(night)).stdout)
    assert [(g["path"], g["game"]) for g in doc["games"]] == [(str(night), 1)]
