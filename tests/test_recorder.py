"""`imp record`'s logic (imptools.recorder) driven directly: entries, checks, undo, resume, the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.record import Game, Trick, UnreadLine
from imptools.recorder import Recorder, new_record

CONFORMANCE = Path(__file__).resolve().parent / "conformance"
RULEBOOK = CONFORMANCE / "bottle-imp" / "rulebook-example.imp"
CLEAN = {
    "bottle-imp": CONFORMANCE / "bottle-imp" / "classic-4p-clean-1001.imp",
    "botifarra": CONFORMANCE / "botifarra" / "carregar-clean-2001.imp",
    "ninety-nine": CONFORMANCE / "ninety-nine" / "clean-5001.imp",
}


def _game(text: str) -> Game:
    return list(read_games(text))[-1]


def _entries(text: str, keep_hand_lines: bool = False) -> tuple[str, list[str]]:
    """The tags of a record, and its entries as typed at the table: lines as written, plays as bare cards."""
    game = _game(text)
    tags = "".join(f"{line}\n" for line in text.splitlines() if line.startswith("["))
    lines = text.splitlines()
    out: list[str] = []
    for hand in game.hands:
        header = lines[hand.line - 1].split(";")[0].strip()
        if keep_hand_lines or hand.dealer is not None:
            out.append(header)
        for element in hand.lines:
            if isinstance(element, Trick):
                out += [p.card.text for p in element.plays]
            elif element.line and not isinstance(element, UnreadLine):  # (a line the reader refused is not typed)
                source = lines[element.line - 1].split(";")[0].split("{")[0].strip()
                if source:
                    out.append(source)
    return tags, out


def _tricks(game: Game) -> list[list[list[str]]]:
    return [[[p.card.text for p in t.plays] for t in h.tricks] for h in game.hands]


def _record(tags: str, entries: list[str], path: str | None = None) -> Recorder:
    rec = Recorder.from_text(tags, path)
    for e in entries:
        proposal = rec.propose(e)
        assert proposal is not None
        assert not [f for f in proposal.findings if f.is_error], (e, proposal.findings)
        rec.accept(proposal)
    return rec


def test_rulebook_example_typed_card_by_card(tmp_path: Path) -> None:
    text = RULEBOOK.read_text()
    _tags, entries = _entries(text)
    entries = [e for e in entries if not e.startswith("score")]
    path = tmp_path / "night.imp"
    rec = Recorder.open(str(path), "bottle-imp", "Adam Betty Christian Doris", "classic", [("Event", "Thursday club")])
    before_first_trick = entries.index("24")
    for e in entries[:before_first_trick]:
        rec.enter(e)
    for i, e in enumerate(entries[before_first_trick:]):
        st = rec.status()
        if i == 0:
            assert st.prompt() == "trick 1, Adam: "
            assert "24" in rec.choices()
        proposal = rec.propose(e)
        assert proposal is not None and not proposal.findings, (e, proposal)
        rec.accept(proposal)
        if i == 3:
            st = rec.status()
            assert ("bottle", "17, held by Christian") in st.detail
            assert st.prompt() == "trick 2, Christian: "
    st = rec.status()
    assert st.complete
    assert st.scores == {"Adam": 15, "Betty": -10, "Christian": 68, "Doris": 0}
    assert rec.score_line() == "score Adam 15 Betty -10 Christian 68 Doris 0"
    rec.enter(rec.score_line() or "")
    on_disk = path.read_text()
    game = _game(on_disk)
    assert _tricks(game) == _tricks(_game(text))
    assert [f for f in judge_game(game).all_findings()] == []


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_each_game_recorded_entry_by_entry(name: str, tmp_path: Path) -> None:
    text = CLEAN[name].read_text()
    tags, entries = _entries(text)
    rec = _record(tags, entries, str(tmp_path / "r.imp"))
    game = _game((tmp_path / "r.imp").read_text())
    assert _tricks(game) == _tricks(_game(text))
    assert [f for f in judge_game(game).all_findings() if f.is_error] == []
    assert rec.status().complete


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_hand_lines_are_written_for_you(name: str) -> None:
    text = CLEAN[name].read_text()
    tags, entries = _entries(text)
    entries = [e for e in entries if not e.startswith("hand ") or e.startswith("hand 1 ")]
    rec = _record(tags, entries)
    game = _game(rec.text)
    assert [h.number for h in game.hands] == [h.number for h in _game(text).hands]


def test_resume_in_the_middle_of_a_trick(tmp_path: Path) -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    path = tmp_path / "r.imp"
    path.write_text(tags)
    stop = entries.index("11") + 2  # trick 5: Betty 11, Christian 35, then the crash
    rec = Recorder.open(str(path))
    for e in entries[:stop]:
        rec.enter(e)
    del rec
    again = Recorder.open(str(path))
    st = again.status()
    assert st.prompt() == "trick 5, Doris: "
    assert st.trick_so_far == (("Betty", "11"), ("Christian", "35"))
    for e in entries[stop:]:
        assert not again.enter(e).findings  # type: ignore[union-attr]
    assert _tricks(_game(path.read_text())) == _tricks(_game(RULEBOOK.read_text()))


def test_undo_takes_back_plays_and_lines(tmp_path: Path) -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    path = tmp_path / "r.imp"
    rec = _record(tags, entries[: entries.index("24") + 2], str(path))
    assert path.read_text().splitlines()[-1] == "1. Adam:24 15"
    rec.enter("{a fine lead}")
    assert path.read_text().splitlines()[-1] == "1. Adam:24 15 {a fine lead}"
    assert rec.undo() == "{a fine lead}"
    assert rec.undo() == "15"
    assert path.read_text().splitlines()[-1] == "1. Adam:24"
    assert rec.undo() == "1. Adam:24"
    assert path.read_text().splitlines()[-1] == "pass Doris > Christian 30"
    assert rec.status().prompt() == "trick 1, Adam: "


def test_undo_keeps_the_tricks_remark(tmp_path: Path) -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    path = tmp_path / "r.imp"
    _record(tags, entries[: entries.index("24") + 1], str(path))
    path.write_text(path.read_text().rstrip("\n") + " ; Adam leads at once\n")  # a remark written by hand
    rec = Recorder.open(str(path))
    rec.enter("15")
    assert path.read_text().splitlines()[-1] == "1. Adam:24 15 ; Adam leads at once"
    assert rec.undo() == "15"
    assert path.read_text().splitlines()[-1] == "1. Adam:24 ; Adam leads at once"
    rec.enter("15")
    rec.enter("17")
    assert path.read_text().splitlines()[-1] == "1. Adam:24 15 17 ; Adam leads at once"


def test_a_card_not_held_is_flagged_at_once() -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    rec = _record(tags, entries[: entries.index("24")])
    proposal = rec.propose("25")  # Adam does not hold 25 (Doris does)
    assert proposal is not None
    assert [f.code for f in proposal.findings] == ["not-held"]
    assert "25" not in rec.choices() and "24" in rec.choices()
    assert rec.status().trick_so_far == ()  # nothing recorded until confirmed
    rec.accept(proposal)  # a confirmed mistake is recorded as played
    assert rec.lines[-1] == "1. Adam:25"


def test_a_revoke_is_flagged_the_moment_it_is_proven() -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    rec = _record(tags, entries[: entries.index("24") + 2])  # Adam led blue 24, Betty 15
    proposal = rec.propose("22")  # Christian holds blue 8 10 17 30 34 and plays yellow 22
    assert proposal is not None
    assert [f.code for f in proposal.findings] == ["revoke"]
    assert proposal.findings[0].player == "Christian" and proposal.findings[0].trick == 1


def test_revoke_proven_later_without_deals() -> None:
    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    for card in ["24", "21", "17", "32", "8", "5", "2"]:  # Betty plays red 21 on blue 24: nothing proven yet
        proposal = rec.enter(card)
        assert proposal is not None and proposal.findings == (), card
    proposal = rec.propose("27")  # Betty plays blue 27: she held it in trick 1
    assert proposal is not None
    assert [(f.code, f.trick, f.player) for f in proposal.findings] == [("revoke", 1, "Betty")]


def test_a_call_the_rules_refuse() -> None:
    tags = new_record("botifarra", "Ana Bernat Carles Dolors")
    rec = Recorder.from_text(tags)
    rec.enter("hand 1 dealer Dolors")
    proposal = rec.propose("trump Ana oros")  # only the dealer (or partner after delegate) names trump
    assert proposal is not None
    assert "bad-call" in [f.code for f in proposal.findings]


def test_bid_and_turnup_shown_for_ninety_nine() -> None:
    text = CLEAN["ninety-nine"].read_text()
    tags, entries = _entries(text)
    first_play = next(i for i, e in enumerate(entries) if not e.split()[0].isalpha() or e[0].isdigit())
    rec = _record(tags, entries[:first_play])
    labels = [label for label, _ in rec.status().detail]
    assert labels
    assert rec.status().holdings


def test_an_entry_late_in_a_long_game_judges_only_the_hand_being_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the hand being recorded is judged per entry: the hands before it are judged once.

    (How long an entry takes is measured by bench/bench_record.py, not here.)
    """
    import imptools.recorder as recorder_module

    text = (Path(__file__).resolve().parents[1] / "samples" / "ninety-nine-red-lion.imp").read_text()
    lines = text.splitlines()
    last = _game(text).hands[-1]
    tags = "".join(f"{line}\n" for line in lines if line.startswith("["))
    _, entries = _entries(tags + "\n".join(lines[last.line - 1 :]) + "\n", keep_hand_lines=True)
    rec = Recorder.from_text("\n".join(lines[: last.line - 1]) + "\n")
    judged: list[int] = []  # the number of hands of each game judged, entry by entry

    def counting(game: Game) -> object:
        judged.append(len(game.hands))
        return judge_game(game)

    monkeypatch.setattr(recorder_module, "judge_game", counting)
    per_entry: list[list[int]] = []
    for e in entries:
        if e.startswith(("score", "total")):
            continue
        judged.clear()
        proposal = rec.propose(e)
        assert proposal is not None
        rec.accept(proposal)
        rec.status()
        rec.choices()
        per_entry.append(list(judged))
    assert rec.status().hand == last.number and rec.status().complete
    assert len(per_entry) > 30
    first, rest = per_entry[0], per_entry[1:]
    assert max(first) == last.number  # the hands before, with the new one's `hand` line: judged once
    assert all(n == 1 for counts in rest for n in counts), rest  # then the last hand alone
    assert sum(len(counts) for counts in rest) <= 3 * len(rest)  # and a few times an entry at most
    whole, result = rec.whole()
    assert whole is not None and result is not None and len(result.hands) == last.number


SAMPLES = sorted((Path(__file__).resolve().parents[1] / "samples").glob("*.imp"))


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_sample_recorded_again_gives_the_same_tricks_and_scores(sample: Path) -> None:
    """Every game and variant of the samples (Lopaka, two packs, piles, half cards ...), typed as at the table."""
    text = sample.read_text()
    games = list(read_games(text))
    if len(games) != 1:
        pytest.skip("one game per file here")
    tags, entries = _entries(text)
    rec = Recorder.from_text(tags)
    for e in entries:
        rec.enter(e)
    again = _game(rec.text)
    assert _tricks(again) == _tricks(games[0])
    source, result = judge_game(games[0]), judge_game(again)
    assert result.totals == source.totals
    ignored = {"out-of-turn", "syntax"}  # names on plays are not typed again; nor are lines the reader refused
    assert sorted(f.code for f in result.all_findings() if f.code not in ignored) == sorted(
        f.code for f in source.all_findings() if f.code not in ignored
    )


def test_tab_offers_the_cards_the_player_may_hold() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from imptools.present.recording import RecordCompleter

    tags, entries = _entries(RULEBOOK.read_text())
    rec = _record(tags, entries[: entries.index("24")])
    completer = RecordCompleter(rec)

    def offered(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]

    assert offered("2") == ["2", "20", "24", "27"]  # Adam's cards after the exchange
    assert offered("pass B") == ["Betty"]
    rec.enter("24")
    assert offered("3") == ["3", "36"]  # Betty's
    fresh = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    fresh.enter("24")
    assert "24" not in offered_by(fresh, "2") and "25" in offered_by(fresh, "2")


def offered_by(rec: Recorder, text: str) -> list[str]:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from imptools.present.recording import RecordCompleter

    return [c.text for c in RecordCompleter(rec).get_completions(Document(text), CompleteEvent())]


def test_record_command_help_and_a_new_file_without_its_tags(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from imptools.cli.app import app

    runner = CliRunner()
    shown = runner.invoke(app, ["record", "--help"], terminal_width=200)
    assert shown.exit_code == 0
    assert "Examples" in shown.output and "imp record night.imp --game" in shown.output
    missing = runner.invoke(app, ["record", str(tmp_path / "new.imp")])
    assert missing.exit_code == 2
    assert "needs --game and --players" in missing.output
    assert not (tmp_path / "new.imp").exists()
    bad = runner.invoke(
        app, ["record", str(tmp_path / "new.imp"), "--game", "bottle-imp", "--players", "A B C", "--tag", "x"]
    )
    assert bad.exit_code == 2 and "Name=Value" in bad.output


def test_new_record_gets_the_tags_from_the_options(tmp_path: Path) -> None:
    path = tmp_path / "new.imp"
    Recorder.open(str(path), "botifarra", "Ana Bernat Carles Dolors", "lliure", [("Event", 'Festa "major"')])
    game = _game(path.read_text())
    assert (game.game_name, game.players, game.tag("Variant"), game.tag("Event")) == (
        "botifarra",
        ("Ana", "Bernat", "Carles", "Dolors"),
        "lliure",
        'Festa "major"',
    )
    again = Recorder.open(str(path))  # an existing record keeps its tags
    assert again.game is not None and again.game.game_name == "botifarra"
    same = Recorder.open(str(path), "botifarra", "Ana Bernat Carles Dolors", "lliure")  # the same command again
    assert same.lines == again.lines
    before = path.read_bytes()
    for options, said in (
        (("bottle-imp", None, None), "this is a record of botifarra, not bottle-imp"),
        ((None, "X Y Z", None), "this record's players are Ana Bernat Carles Dolors, not X Y Z"),
        ((None, None, "obligada"), "this record's variant is lliure, not obligada"),
    ):
        with pytest.raises(ValueError, match=said):
            Recorder.open(str(path), *options)
    assert path.read_bytes() == before
    from typer.testing import CliRunner

    from imptools.cli.app import app

    out = CliRunner().invoke(app, ["record", str(path), "--game", "bottle-imp", "--players", "X Y Z"])
    assert out.exit_code == 2 and "this is a record of botifarra, not bottle-imp" in out.output


def test_a_card_not_in_the_deck_or_already_played_is_flagged() -> None:
    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    unknown = rec.propose("19")  # the start price is no card
    assert unknown is not None and [f.code for f in unknown.findings] == ["unknown-card"]
    rec.enter("24")
    again = rec.propose("24")
    assert again is not None and "duplicate-card" in [f.code for f in again.findings]
    rec.enter("21")
    assert rec.propose("{a fine play}").findings == ()  # type: ignore[union-attr]


def test_a_misspelt_dealer_is_refused_with_the_name_meant_and_the_turn_is_not_lost() -> None:
    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    proposal = rec.propose("hand 1 dealer Dorsi")
    assert proposal is not None
    said = proposal.refusal  # the reader's words: "did you mean `Doris`?" (or "read as `Doris`")
    assert said is not None and said.startswith("error unknown-player: `Dorsi` is not a player") and "`Doris`" in said
    assert rec.status().prompt() == "hand 1: "  # nothing recorded: the same prompt
    rec.enter("hand 1 dealer Doris")
    rec.enter("24")
    rec.enter("15")
    assert rec.lines[-1] == "1. Adam:24 15"  # the cards join trick 1, its leader seated


@pytest.mark.parametrize(
    ("entry", "meant"),
    [
        ("dael Adam 2 4 6 7 13 14 20 24 26", "did you mean `deal`?"),
        ("deal Adma 2 4 6 7 13 14 20 24 26", "`Adam`"),
        ("Adm:24", "`Adam`"),
        ("19", "`19` is not a card of this deck"),
    ],
)
def test_an_entry_that_does_not_read_is_refused_in_validates_words(entry: str, meant: str) -> None:
    from imptools.recorder import format_finding

    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    rec.enter("hand 1 dealer Doris")
    before = list(rec.lines)
    proposal = rec.propose(entry)
    assert proposal is not None and proposal.refusal is not None and meant in proposal.refusal
    assert rec.lines == before  # nothing recorded
    game = _game("\n".join(proposal.lines) + "\n")  # the file with the entry, as imp validate judges it
    said = [f for f in [*game.findings, *judge_game(game).all_findings()] if f.line == len(proposal.lines)]
    unread = ("syntax", "unknown-card", "unknown-player")
    words = list(dict.fromkeys(format_finding(f) for f in said if f.code in unread))
    assert proposal.refusal == "; ".join(words)


def test_several_cards_in_one_entry_are_refused() -> None:
    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    proposal = rec.propose("24 15")
    assert proposal is not None
    assert proposal.refusal == "one card an entry: `24 15` is 2 cards (enter them one by one, or a line `N. ...`)"


def test_a_rule_broken_at_the_table_is_no_refusal() -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    rec = _record(tags, entries[: entries.index("24")])
    proposal = rec.propose("25")
    assert proposal is not None and proposal.refusal is None and [f.code for f in proposal.findings] == ["not-held"]


def test_botifarra_asks_for_the_trump_line_before_trick_1() -> None:
    rec = Recorder.from_text(new_record("botifarra", "Ana Bernat Carles Dolors"))
    rec.enter("hand 1 dealer Dolors")
    assert rec.status().prompt() == "hand 1, trump by Dolors: "
    for card in ("5o", "1. 5o"):
        proposal = rec.propose(card)
        assert proposal is not None
        assert proposal.refusal == "hand 1 has no trump yet: its `trump Dolors ...` line comes before trick 1"
    rec.enter("delegate")  # a bare word at that prompt is the dealer's trump line
    assert rec.lines[-1] == "trump Dolors delegate"
    assert rec.status().prompt() == "hand 1, trump: "
    assert rec.propose("5o").refusal is not None  # type: ignore[union-attr]
    proposal = rec.propose("trump Bernat copes")
    assert proposal is not None and proposal.findings == () and proposal.refusal is None
    rec.accept(proposal)
    assert rec.status().prompt() == "trick 1, Ana: "
    assert rec.propose("5o").refusal is None  # type: ignore[union-attr]


def test_ninety_nine_asks_for_each_bid_before_trick_1() -> None:
    rec = Recorder.from_text(new_record("ninety-nine", "Al Bo Cy"))
    rec.enter("hand 1 dealer Cy")
    rec.enter("turnup 5C")
    prompts = []
    for bid in ("kd 9s 7h", "3", "?"):
        prompts.append(rec.status().prompt())
        proposal = rec.enter(bid)
        assert proposal is not None and proposal.refusal is None
    assert prompts == ["hand 1, bid Al: ", "hand 1, bid Bo: ", "hand 1, bid Cy: "]
    assert rec.lines[-3:] == ["bid Al KD 9S 7H", "bid Bo 3", "bid Cy ? ? ?"]
    assert rec.status().prompt() == "trick 1, Al: "
    assert ("bids", "Al 3, Bo 3, Cy ?") in rec.status().detail
    rec.enter("turnup 6C")  # a second turn-up is a mistake of its own: it does not hold the hand up
    assert rec.status().prompt() == "trick 1, Al: "


def test_what_each_game_asks_first_is_learnt_from_its_simulator() -> None:
    from imptools.recorder import _asked_first

    def asked(game: str, players: str, variant: str | None = None) -> list[tuple[str, int, bool]]:
        rec = Recorder.from_text(new_record(game, players, variant))
        assert rec.game is not None
        return [(f.kind, f.offset, f.each) for f in _asked_first(rec.game)]

    assert asked("bottle-imp", "Adam Betty Christian Doris") == []
    assert ("trump", 0, False) in asked("botifarra", "Ana Bernat Carles Dolors")  # the dealer names trump
    assert asked("botifarra", "Ana Bernat", "rector-vicar")[0] == ("trump", 0, False)
    assert ("bid", 1, True) in asked("ninety-nine", "Al Bo Cy")  # everyone bids, from the player after the dealer


def test_a_recorded_file_is_canonical_as_imp_fmt_writes_it(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from imptools.cli.app import app
    from imptools.writer import format_games

    text = CLEAN["ninety-nine"].read_text()
    _tags, entries = _entries(text)
    path = tmp_path / "r.imp"
    rec = Recorder.open(str(path), "ninety-nine", "Al Bo Cy", tags=[("Event", "the Red Lion")])
    for e in entries:  # typed carelessly: lower-case cards, doubled spaces, an annotation on its own
        typed = "  ".join(t.lower() if t.isupper() else t for t in e.split())
        proposal = rec.propose(typed)
        assert proposal is not None and proposal.refusal is None, (typed, proposal)
        rec.accept(proposal)
        if e == entries[10]:
            rec.enter("{a fine hand}")
    on_disk = path.read_text()
    assert "{a fine hand}" in on_disk and " QH" in on_disk and " qh" not in on_disk
    assert on_disk == format_games(read_games(on_disk))
    assert CliRunner().invoke(app, ["fmt", "--check", str(path)]).exit_code == 0
    assert _tricks(_game(on_disk)) == _tricks(_game(text))


def test_the_samples_are_canonical() -> None:
    """Every sample `imp fmt` can format is as it writes it (`with-mistakes.imp` keeps a line that does not read)."""
    from imptools.writer import format_games

    for sample in SAMPLES:
        text = sample.read_text(encoding="utf-8")
        games = list(read_games(text))
        if any(f.code == "syntax" for g in games for f in g.findings):
            continue
        assert format_games(games) == text, sample.name


def test_an_annotation_after_a_line_goes_on_its_line_and_comes_back_alone() -> None:
    tags, entries = _entries(RULEBOOK.read_text())
    rec = _record(tags, entries[:3])
    last = rec.lines[-1]
    rec.enter("{dealt in a hurry}")
    assert rec.lines[-1] == f"{last} {{dealt in a hurry}}"
    assert rec.undo() == "{dealt in a hurry}"
    assert rec.lines[-1] == last


def test_the_next_hand_asks_first_for_its_trump_line_too() -> None:
    text = CLEAN["botifarra"].read_text()
    tags, entries = _entries(text)
    second = next(i for i, e in enumerate(entries) if e.startswith("hand 2"))
    rec = _record(tags, [e for e in entries[:second] if not e.startswith(("score", "total"))])
    assert rec.status().complete
    proposal = rec.propose("5o")  # a card typed for hand 2 before its trump line
    assert proposal is not None and proposal.refusal is not None and "hand 2 has no trump yet" in proposal.refusal
    proposal = rec.propose("oros")  # the dealer by rotation names it
    assert proposal is not None and proposal.refusal is None
    rec.accept(proposal)
    assert rec.lines[-3:] == ["", "hand 2", "trump Ana oros"]
    assert rec.status().prompt() == "trick 1, Bernat: "


def test_an_annotation_after_a_hand_line_goes_on_it_and_undo_leaves_the_file_canonical() -> None:
    from imptools.writer import format_games

    rec = Recorder.from_text(new_record("bottle-imp", "Adam Betty Christian Doris"))
    rec.enter("hand 1 dealer Doris")
    rec.enter("{a late start}")
    assert rec.lines[-1] == "hand 1 dealer Doris {a late start}"
    assert format_games(read_games(rec.text)) == rec.text
    assert rec.undo() == "{a late start}"
    assert rec.undo() == "hand 1 dealer Doris"
    assert rec.text == new_record("bottle-imp", "Adam Betty Christian Doris")  # no blank line left behind
    assert format_games(read_games(rec.text)) == rec.text


@pytest.mark.parametrize("entry", ["orso", "trump Dolors orso"])
def test_a_misspelt_trump_word_is_refused_with_the_suit_meant(entry: str) -> None:
    rec = Recorder.from_text(new_record("botifarra", "Ana Bernat Carles Dolors"))
    rec.enter("hand 1 dealer Dolors")
    before = list(rec.lines)
    proposal = rec.propose(entry)
    assert proposal is not None and proposal.refusal is not None and "read as `oros`" in proposal.refusal
    assert rec.lines == before
    rec.enter("oros")
    assert rec.lines[-1] == "trump Dolors oros"
