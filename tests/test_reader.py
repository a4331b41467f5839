"""The reader: every kind of line, every syntax-error path, recovery, encodings, streaming."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from imptools.reader import read_games
from imptools.record import (
    Bid,
    Call,
    CommentLine,
    Deal,
    Declare,
    Discard,
    Game,
    ImpTrick,
    Open,
    Pass,
    ScoreLine,
    Tag,
    Trick,
    Trump,
    TurnUp,
)

ROOT = Path(__file__).resolve().parents[1]
HEAD = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n'


def one(text: str) -> Game:
    games = list(read_games(text, path="t.imp"))
    assert len(games) == 1, games
    return games[0]


def syntax(game: Game) -> list[tuple[int | None, int | None, str]]:
    return [(f.line, f.column, f.message) for f in game.findings if f.code == "syntax"]


# --------------------------------------------------------------------------- every kind of line


def test_tags_keep_order_escapes_and_position() -> None:
    g = one('[Game "bottle-imp"]\n[Players "Adam Betty"]\n[Event "The \\"Imp\\" cup ; {not a comment}"]\nhand 1\n')
    assert [t.name for t in g.tags] == ["Game", "Players", "Event"]
    assert g.tag("Event") == 'The "Imp" cup ; {not a comment}'
    assert g.players == ("Adam", "Betty")
    assert (g.tags[2].line, g.tags[2].column) == (3, 1)
    assert syntax(g) == []


def test_hand_header_with_and_without_dealer() -> None:
    g = one(HEAD + "hand 1 dealer Doris {cut by Adam}\nhand 2\n")
    h1, h2 = g.hands
    assert (h1.number, h1.dealer and h1.dealer.name, h1.line) == (1, "Doris", 3)
    assert h1.annotations[0].text == "cut by Adam"
    assert (h2.number, h2.dealer) == (2, None)


def test_deal_discard_pass_open_imp_lines() -> None:
    g = one(
        '[Game "bottle-imp"]\n[Variant "bright-house"]\n[Players "Keawe Kokua"]\nhand 1\n'
        "deal Keawe.1 3 9 11\ndeal Kokua 2.5 24B\ndiscard Keawe 3 33\n"
        "pass Keawe > Kokua.2 13\nopen Keawe 1\nimp 5 8 ?\n"
    )
    deal1, deal2, disc, pas, opn, imp = g.hands[0].lines
    assert isinstance(deal1, Deal) and deal1.player.name == "Keawe" and deal1.player.pack == 1
    assert [c.text for c in deal1.cards] == ["3", "9", "11"]
    assert isinstance(deal2, Deal) and deal2.player.pack is None and [c.text for c in deal2.cards] == ["2.5", "24B"]
    assert (deal2.cards[1].line, deal2.cards[1].column) == (6, 16)
    assert isinstance(disc, Discard) and [c.text for c in disc.cards] == ["3", "33"]
    assert isinstance(pas, Pass) and (pas.giver.name, pas.receiver.name, pas.receiver.pack, pas.card.text) == (
        "Keawe",
        "Kokua",
        2,
        "13",
    )
    assert isinstance(opn, Open) and (opn.player.name, opn.pack) == ("Keawe", 1)
    assert isinstance(imp, ImpTrick) and imp.cards[2].unknown


def test_botifarra_calls() -> None:
    g = one(
        '[Game "botifarra"]\n[Players "Ana Bernat Carles Dolors"]\nhand 1\n'
        "trump Dolors delegate\ntrump Bernat oros\ncontro Ana\nrecontro Bernat\nsant-vicenc Carles\n"
    )
    t1, t2, c1, c2, c3 = g.hands[0].lines
    assert isinstance(t1, Trump) and t1.suit == "delegate"
    assert isinstance(t2, Trump) and (t2.player.name, t2.suit) == ("Bernat", "oros")
    assert [(c.kind, c.player.name) for c in (c1, c2, c3) if isinstance(c, Call)] == [
        ("contro", "Ana"),
        ("recontro", "Bernat"),
        ("sant-vicenc", "Carles"),
    ]


def test_ninety_nine_lines() -> None:
    g = one(
        '[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1\nturnup AD\n'
        "bid Al AS AH JK\nbid Bo 3\nbid Cy ? ? 9D\ndeclare Al\nreveal Bo\n"
    )
    turn, b1, b2, b3, d1, d2 = g.hands[0].lines
    assert isinstance(turn, TurnUp) and turn.card.text == "AD"
    assert isinstance(b1, Bid) and [c.text for c in b1.cards] == ["AS", "AH", "JK"] and b1.number is None
    assert isinstance(b2, Bid) and b2.cards == () and b2.number == 3
    assert isinstance(b3, Bid) and [c.unknown for c in b3.cards] == [True, True, False]
    assert isinstance(d1, Declare) and (d1.kind, d1.player.name) == ("declare", "Al")
    assert isinstance(d2, Declare) and d2.kind == "reveal"


def test_a_bid_line_without_cards_reads_and_is_left_to_the_rules() -> None:
    g = one('[Game "ninety-nine"]\n[Players "Al Bo Cy"]\nhand 1\nbid Al\n')
    assert g.findings == ()
    (bid,) = g.hands[0].lines
    assert isinstance(bid, Bid) and bid.cards == () and bid.number is None


def test_trick_plays_names_marks_and_annotations() -> None:
    g = one(HEAD + "hand 1\n1. Adam:24! 15?? {a long\nthought} ? Doris:17!? {end}\n2. 3 4 5 6\n")
    t1, t2 = g.hands[0].tricks
    assert t1.number == 1 and t2.number == 2
    p = t1.plays
    assert [x.card.text for x in p] == ["24", "15", "?", "17"]
    assert [x.mark for x in p] == ["!", "??", None, "!?"]
    assert [x.player.name if x.player else None for x in p] == ["Adam", None, None, "Doris"]
    assert p[1].annotations[0].text == "a long\nthought"
    assert (p[2].line, p[2].column) == (5, 10)
    assert p[3].annotations[0].text == "end"
    assert syntax(g) == []


def test_unknown_card_with_mark() -> None:
    g = one(HEAD + "hand 1\n1. ?! ?? ?\n")
    plays = g.hands[0].tricks[0].plays
    assert [(x.card.text, x.mark) for x in plays] == [("?", "!"), ("?", "?"), ("?", None)]


def test_score_and_total_lines() -> None:
    g = one(HEAD + "hand 1\nscore Adam 15 Betty -10 Christian +68\ntotal Adam 15\n")
    s, t = g.hands[0].lines
    assert isinstance(s, ScoreLine) and s.kind == "score"
    assert [(e.player.name, e.value) for e in s.entries] == [("Adam", 15), ("Betty", -10), ("Christian", 68)]
    assert isinstance(t, ScoreLine) and t.kind == "total" and g.hands[0].totals == (t,)


def test_comments_are_kept_where_they_were() -> None:
    g = one(
        "; before the game\n" + HEAD + "; among the tags? no: after them\nhand 1\n; in the hand\ndeal Adam 1 ; why\n"
    )
    assert isinstance(g.header[0], CommentLine) and g.header[0].text == " before the game"
    assert isinstance(g.header[-1], CommentLine)
    comment, deal = g.hands[0].lines
    assert isinstance(comment, CommentLine) and comment.text == " in the hand"
    assert isinstance(deal, Deal) and deal.remark == " why"


def test_annotation_on_its_own_line_belongs_to_the_element_before() -> None:
    g = one(HEAD + "hand 1\ndeal Adam 1 2\n{dealt badly}\n1. 3 4 5 6\n{well played}\n")
    deal, trick = g.hands[0].lines
    assert isinstance(deal, Deal) and deal.annotations[0].text == "dealt badly"
    assert isinstance(trick, Trick) and trick.plays[-1].annotations[0].text == "well played"


def test_player_names_of_any_alphabet() -> None:
    g = one('[Game "botifarra"]\n[Players "Núria Loïc O\'Neil Jean-Luc"]\nhand 1\n1. Núria:9o Loïc:1o\n')
    assert g.players == ("Núria", "Loïc", "O'Neil", "Jean-Luc")
    assert g.hands[0].tricks[0].plays[1].player is not None
    assert syntax(g) == []


# --------------------------------------------------------------------------- games and hands


def test_a_tag_after_a_hand_starts_a_new_game() -> None:
    text = HEAD + "hand 1\n1. 1 2 3 4\n; next table\n" + HEAD + "hand 1\n"
    g1, g2 = read_games(text)
    assert (g1.index, g2.index) == (1, 2)
    assert len(g1.hands) == 1 and len(g1.hands[0].tricks) == 1
    assert isinstance(g2.header[0], CommentLine) and g2.header[0].text == " next table"


def test_missing_required_tags() -> None:
    g = one('[Event "x"]\nhand 1\n')
    messages = [m for _, _, m in syntax(g)]
    assert any("[Game" in m for m in messages) and any("[Players" in m for m in messages)


def test_lines_out_of_place_are_reported() -> None:
    g = one(HEAD + "deal Adam 1\nhand 1\n1. 1 2 3 4\ndeal Betty 5\nscore Adam 1\n2. 5 6 7 8\nhand 3\n")
    messages = [m for _, _, m in syntax(g)]
    assert any("before any `hand N`" in m for m in messages)
    assert any("comes after trick 1" in m for m in messages)
    assert any("Trick 2 comes after the score line" in m for m in messages)
    assert any("`hand 3` where hand 2 was expected" in m for m in messages)


# --------------------------------------------------------------------------- syntax errors and recovery


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        ("pass Adam - Betty 7", 11, "a pass is written `pass Adam > Betty 7`"),
        ("total Adam", 11, "ends too soon"),
        ("@@ spilled coffee", 1, "expected a line such as"),
        ("hand two", 6, "`two` is not expected here: expected a number"),
        ("1. :3 4 5 6", 4, "nothing before `:` names a player"),
        ("1. Adam:!! 4 5 6", 4, "is not a play"),
        ("deal 7up 1 2", 6, "is not a player name"),
        ("score Adam ten", 12, "a number of points"),
        ("open Keawe one", 12, "a number"),
        ("discard Adam", 13, "ends too soon"),
    ],
)
def test_syntax_error_paths(line: str, column: int, words: str) -> None:
    g = one(HEAD + "hand 1\n" + line + "\n1. 1 2 3 4\n")
    found = syntax(g)
    assert len(found) == 1, found
    ln, col, message = found[0]
    assert (ln, col) == (4, column)
    assert words in message
    # recovery: the line after the bad one is read
    assert [t.number for t in g.hands[0].tricks] == [1]
    assert g.findings[0].hand == 1 and g.findings[0].game == 1


def test_the_three_repairs_read_the_line_as_meant_after_one_finding() -> None:
    g = one(
        HEAD + "hand 1 dealer Doris\npass Adam  Betty 7\n1 24 15 17 32\n2. Christian 8 4 6 7 {led low}\n3. 1 2 3 4\n"
    )
    assert syntax(g) == [
        (4, 12, "In this `pass` line, `>` goes between the giver and the receiver: `pass Adam > Betty 7`"),
        (5, 1, "`1` at the start of a line: a trick number is written with a dot, `1.`"),
        (6, 4, "`Christian` is a player: the leader is written `Christian:8`"),
    ]
    assert [(f.hand, f.trick) for f in g.findings] == [(1, None), (1, 1), (1, 2)]
    (p,) = g.hands[0].passes
    assert (p.giver.name, p.receiver.name, p.card.text) == ("Adam", "Betty", "7")
    t1, t2, t3 = g.hands[0].tricks
    assert (t1.number, [x.card.text for x in t1.plays], t1.plays[1].column) == (1, ["24", "15", "17", "32"], 6)
    lead = t2.plays[0]
    assert (lead.player and lead.player.name, lead.card.text, lead.column, len(t2.plays)) == ("Christian", "8", 4, 4)
    assert t2.plays[-1].annotations[0].text == "led low"
    assert t3.number == 3


def test_more_slips_of_a_trick_line_are_read_as_meant_after_one_finding() -> None:
    g = one(HEAD + "hand 1\n1. Adam : 24 15 17 32\n2) Christian:8 4 6 7\n3. Betty: 1 2 Doris :3 4\n")
    assert syntax(g) == [
        (4, 4, "`Adam : 24`: a play's name, colon and card are written together, `Adam:24`"),
        (5, 1, "`2)`: a trick number is written with a dot, `2.`"),
        (6, 4, "`Betty: 1`: a play's name, colon and card are written together, `Betty:1`"),
    ]
    t1, t2, t3 = g.hands[0].tricks
    lead = t1.plays[0]
    assert (lead.player and lead.player.name, lead.card.text, lead.column) == ("Adam", "24", 11)
    assert [p.column for p in t1.plays[1:]] == [14, 17, 20]  # the rest of the line where it was written
    assert (t2.number, t2.plays[0].player and t2.plays[0].player.name) == (2, "Christian")
    assert [(p.player and p.player.name, p.card.text) for p in t3.plays] == [
        ("Betty", "1"),
        (None, "2"),
        ("Doris", "3"),
        (None, "4"),
    ]


@pytest.mark.parametrize(
    ("line", "kind", "column"),
    [
        ("dal Adam 1 2 99", "deal", 14),  # a letter left out: the columns after it as written
        ("deall Adam 1 2 99", "deal", 16),
        ("Discard Adam 99", "discard", 14),
        ("pas Adam > Betty 99", "pass", 18),
    ],
)
def test_a_keyword_one_keystroke_away_reads_its_line(line: str, kind: str, column: int) -> None:
    g = one(HEAD + "hand 1\n" + line + "\n1. 1 2 3 4\n")
    ((ln, col, message),) = syntax(g)
    assert (ln, col) == (4, 1) and message.endswith(f"The line is read as a `{kind}` line")
    element = g.hands[0].lines[0]
    cards = element.cards if hasattr(element, "cards") else (element.card,)
    assert (type(element).__name__.lower(), cards[-1].text, cards[-1].column) == (kind, "99", column)


def test_a_misspelt_score_keyword_reads_the_score_line() -> None:
    g = one(HEAD + "hand 1\n1. 1 2 3 4\nscor Adam 99 Betty 0\n")
    assert [m for _, _, m in syntax(g)] == ["`scor`: did you mean `score`? The line is read as a `score` line"]
    (score,) = g.hands[0].scores
    assert score.kind == "score"


@pytest.mark.parametrize("line", ["Adm 1 2 3", "dea", "bdi", "econtro Betty"])
def test_a_first_word_near_a_name_or_near_no_single_keyword_stays_a_bad_line(line: str) -> None:
    g = one(HEAD + "hand 1\n" + line + "\n1. 1 2 3 4\n")
    assert len(syntax(g)) == 1
    assert [type(x).__name__ for x in g.hands[0].lines] == ["UnreadLine", "Trick"]


def test_a_hand_line_left_out_after_a_score_line_is_one_finding() -> None:
    text = HEAD + "hand 1\n1. 1 2 3 4\nscore Adam 0\ndeal Adam 5 6\n1. 5 6 7 8\nhand 3\n1. 9 10 11 12\n"
    g = one(text)
    ((ln, col, message),) = syntax(g)
    assert (ln, col) == (6, 1)
    assert message.startswith("No `hand` line before this `deal` line: hand 1 has ended (its score line is line 5)")
    assert [(h.number, h.line, len(h.tricks)) for h in g.hands] == [(1, 3, 1), (2, 6, 1), (3, 8, 1)]
    assert g.hands[1].dealer is None  # the rotation's dealer


def test_a_hand_line_left_out_where_a_player_is_dealt_again_opens_the_hand() -> None:
    g = one(HEAD + "hand 1\ndeal Adam 1 2\n1. 1 2 3 4\n2. 5 6 7 8\ndeal Adam 3 4\ndeal Betty 9\n1. 3 9 10 11\n")
    ((ln, _, message),) = syntax(g)
    assert ln == 7 and "(Adam was dealt before its tricks), so the line opens hand 2" in message
    assert [(h.number, [type(x).__name__ for x in h.lines]) for h in g.hands] == [
        (1, ["Deal", "Trick", "Trick"]),
        (2, ["Deal", "Deal", "Trick"]),
    ]


def test_a_deal_line_out_of_place_alone_does_not_open_a_hand() -> None:
    g = one(HEAD + "hand 1\ndeal Adam 1 2\n1. 1 2 3 4\ndeal Betty 9\n2. 5 6 7 8\n")
    ((_, _, message),) = syntax(g)
    assert message.startswith("This `deal` line comes after trick 1")
    assert len(g.hands) == 1


def test_a_card_that_is_not_a_player_is_left_to_the_rules() -> None:
    g = one(HEAD + "hand 1\n1. Zoe 8 4 6 7\n2. AS 1 2 3\n")
    assert syntax(g) == []
    assert [p.card.text for p in g.hands[0].tricks[0].plays] == ["Zoe", "8", "4", "6", "7"]


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("dael Adam 1 2 3", 1, "`dael`: did you mean `deal`? The line is read as a `deal` line"),
        ("Deal Adam 1 2 3", 1, "`Deal`: did you mean `deal`? The line is read as a `deal` line"),
        ("scroe Adam 1", 1, "`scroe`: did you mean `score`? The line is read as a `score` line"),
        ("deall Adam 1 2 3", 1, "`deall`: did you mean `deal`? The line is read as a `deal` line"),
        ("contros Betty", 1, "`contros`: did you mean `contro`? The line is read as a `contro` line"),
        ("score Adam15 Betty -10", 7, "`Adam15`: a name and points need a space, `Adam 15`"),
        ("score Adam 15 Betty-10", 15, "`Betty-10`: a name and points need a space, `Betty -10`"),
        ("score Adam 15, Betty -10", 14, "A `score` line has no commas: `score Adam 15 Betty -10`"),
        ("total Adam 15,Betty -10", 14, "A `total` line has no commas: `total Adam 15 Betty -10`"),
        (
            "Betty 11 35 31 9",
            1,
            "`Betty` at the start of a line: a trick starts with its number, `1. Betty:11 35 31 9`",
        ),
        ("1) 24 15 17 32", 1, "`1)`: a trick number is written with a dot, `1.`"),
        ("pass Adam to Betty 7", 11, "`to`: a pass is written `pass Adam > Betty 7`"),
        ('Event "club night"', 1, 'A tag is written in brackets: `[Event "club night"]`'),
    ],
)
def test_messages_for_the_slips_players_make(line: str, column: int, message: str) -> None:
    g = one(HEAD + "hand 1\n" + line + "\n")
    assert syntax(g) == [(4, column, message)]


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        ("[Event unquoted]", 8, "a quoted value"),
        ('[Event "x"', 11, "`]` to close the tag"),
        ('[1st "x"]', 2, "tag name"),
    ],
)
def test_syntax_errors_in_tags(line: str, column: int, words: str) -> None:
    g = one(HEAD + line + "\nhand 1\n1. 1 2 3 4\n")
    ((ln, col, message),) = syntax(g)
    assert (ln, col) == (3, column) and words in message
    assert g.hands[0].tricks[0].number == 1


def test_unclosed_annotation_ends_at_the_end_of_its_line() -> None:
    g = one(HEAD + "hand 1\n1. 1 2 {oops 3 4\n2. 5 6 7 8\n")
    assert syntax(g) == [(4, 8, "`{` opens an annotation that is never closed with `}`")]
    t1, t2 = g.hands[0].tricks
    assert [p.card.text for p in t1.plays] == ["1", "2"]
    assert t1.plays[-1].annotations[0].text == "oops 3 4"
    assert [p.card.text for p in t2.plays] == ["5", "6", "7", "8"]


def test_one_bad_line_never_hides_the_rest() -> None:
    lines = [HEAD.strip(), "hand 1"] + [f"{n}. 1 2 3 4" if n % 2 else "garbage here" for n in range(1, 21)]
    g = one("\n".join(lines) + "\n")
    assert len(syntax(g)) == 10
    assert [t.number for t in g.hands[0].tricks] == list(range(1, 21, 2))


def test_syntax_finding_names_the_game_and_hand_it_sits_in() -> None:
    text = HEAD + "hand 1\n1. 1 2 3 4\n" + HEAD + "hand 1\nhand 2\n1. 1 2 3 !!!\n"
    g1, g2 = read_games(text, path="x.imp")
    assert g1.findings == ()
    (f,) = g2.findings
    assert (f.path, f.game, f.hand, f.line) == ("x.imp", 2, 2, 9)


# --------------------------------------------------------------------------- files and encodings


def test_bom_crlf_tabs_and_cr(tmp_path: Path) -> None:
    p = tmp_path / "w.imp"
    p.write_bytes(b'\xef\xbb\xbf[Game "bottle-imp"]\r\n[Players "A B C"]\r\nhand 1\r\n1.\t1\t2 3\r')
    (g,) = read_games(p)
    assert g.game_name == "bottle-imp" and syntax(g) == []
    assert [c.card.text for c in g.hands[0].tricks[0].plays] == ["1", "2", "3"]
    assert g.path == str(p)


def test_old_mac_line_endings(tmp_path: Path) -> None:
    p = tmp_path / "m.imp"
    p.write_bytes(b'[Game "bottle-imp"]\r[Players "A B C"]\rhand 1\r1. 1 2 3\r')
    (g,) = read_games(p)
    assert g.hands[0].tricks[0].line == 4


def test_not_utf8_is_a_finding_with_the_byte_position(tmp_path: Path) -> None:
    p = tmp_path / "latin1.imp"
    p.write_bytes('[Game "botifarra"]\n[Players "N\u00faria Pau Joan Marta"]\n'.encode("latin-1"))
    (g,) = read_games(p)
    (f,) = g.findings
    assert f.code == "syntax" and (f.line, f.column) == (2, 12)
    assert "0xFA" in f.message and "byte offset 30" in f.message


def test_file_objects_binary_and_text() -> None:
    text = HEAD + "hand 1\n1. 1 2 3 4\n"
    (a,) = read_games(io.BytesIO(text.encode()), path="b")
    (b,) = read_games(io.StringIO(text), path="s")
    assert a.hands == b.hands


def test_missing_file_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        list(read_games(tmp_path / "nope.imp"))


def test_streaming_yields_a_game_before_reading_the_rest() -> None:
    consumed: list[int] = []

    def lines() -> io.BytesIO:
        return io.BytesIO()

    class Tracking(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            chunk = self.inner.read(min(len(b), 64))
            consumed.append(len(chunk))
            b[: len(chunk)] = chunk
            return len(chunk)

    game = HEAD + "hand 1\n1. 1 2 3 4\n"
    data = (game * 2000).encode()
    it = read_games(io.BufferedReader(Tracking(data), buffer_size=64))
    first = next(it)
    assert first.index == 1
    assert sum(consumed) < len(data) // 100
    assert sum(1 for _ in it) == 1999
    del lines


# --------------------------------------------------------------------------- never raises


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list('[]{}"\\;:.>?! \t\n\r-+0123456789abAdhlprsty.\u00e9')), max_size=300))
def test_reader_never_raises_on_arbitrary_text(text: str) -> None:
    for game in read_games("\n" + text):
        for f in game.findings:
            assert f.code == "syntax" and f.line is not None and f.column is not None and f.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_reader_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    for game in read_games(io.BytesIO(data)):
        assert all(f.line is not None for f in game.findings)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(HEAD.splitlines() + ["hand 1", "1. 1 2 3 4", "deal Adam 1 2", "junk", "{x"]), max_size=30)
)
def test_reader_never_raises_on_shuffled_lines(lines: list[str]) -> None:
    games = list(read_games("\n".join(lines) + "\n"))
    assert all(isinstance(g, Game) for g in games)


def test_every_tag_kind_is_a_tag() -> None:
    g = one(HEAD)
    assert all(isinstance(t, Tag) for t in g.tags)


CONFORMANCE = Path(__file__).resolve().parent / "conformance"
CONFORMANCE_RECORDS = sorted(CONFORMANCE.rglob("*.imp"))


def test_the_conformance_records_are_all_here() -> None:
    assert len(CONFORMANCE_RECORDS) > 200
    assert {p.parent.name for p in CONFORMANCE_RECORDS} == {"bottle-imp", "botifarra", "ninety-nine", "slips"}


@pytest.mark.parametrize("path", CONFORMANCE_RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_conformance_record_reads_and_only_the_syntax_cases_have_syntax_findings(path: Path) -> None:
    syntax_findings = [f for g in read_games(path) for f in g.findings if f.code == "syntax"]
    if "-slip-commas-" in path.name:
        # commas between cards: one `syntax` finding by design, in hand 2 (test_conformance holds the reader to it)
        assert len(syntax_findings) == 1, syntax_findings
        assert all(f.game == 1 and f.hand == 2 for f in syntax_findings), syntax_findings
        return
    expected = 1 if "-record-syntax-" in path.name else 0
    assert len(syntax_findings) == expected, syntax_findings
    if expected:
        assert syntax_findings[0].game == 1 and syntax_findings[0].hand == 2


# --------------------------------------------------------------------------- blocks of lines


def _both_ways(data: bytes) -> tuple[list[object], list[object]]:
    from imptools.reader_lines import decode_each, decode_lines

    return list(decode_lines(io.BytesIO(data))), list(decode_each(io.BytesIO(data).read))


@pytest.mark.parametrize(
    "late",
    [
        b"",
        b"4. 12 \r\n5. 7\r",
        b"deal Adam \xff 3\n",
        b"1. 2\x00 3\n",
        b"x" * 150_000 + b"\n",
        b'\xef\xbb\xbf[A "b"]\n',
    ],
)
def test_blocks_read_as_line_by_line(late: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file read a block of lines at a time gives the lines (numbers, text, problems) of the exact reader."""
    import imptools.reader_lines as reader

    record = (ROOT / "samples" / "thursday-club.imp").read_bytes()
    for chunk in (61, 65_536):
        monkeypatch.setattr(reader, "_CHUNK", chunk)
        for data in (record + late + record, late + record, record + late, b"\xef\xbb\xbf" + record + late):
            fast, exact = _both_ways(data)
            assert fast == exact


@given(st.lists(st.sampled_from([b"1. 2 3\n", b"\r\n", b"\r", b"\n", b"\xc3", b"\xa9", b"\x01", b"deal A 4", b" "])))
@settings(max_examples=300, deadline=None)
def test_any_bytes_read_as_line_by_line(pieces: list[bytes]) -> None:
    import imptools.reader_lines as reader

    saved = reader._CHUNK
    reader._CHUNK = 5  # blocks end anywhere: in a character, between CR and LF
    try:
        fast, exact = _both_ways(b"".join(pieces))
    finally:
        reader._CHUNK = saved
    assert fast == exact


@pytest.mark.parametrize(
    ("first", "again", "why"),
    [
        ("discard Adam 1", "discard Adam 2", "Adam discarded before its tricks"),
        ("pass Adam > Betty 1", "pass Adam > Betty 2", "Adam passed to Betty before its tricks"),
        ("deal Adam 1 2", "deal Adam 3 4", "Adam was dealt before its tricks"),
    ],
)
def test_a_line_a_hand_has_once_coming_again_after_the_tricks_opens_the_next_hand(
    first: str, again: str, why: str
) -> None:
    g = one(HEAD + f"hand 1\n{first}\n1. 1 2 3 4\n2. 5 6 7 8\n{again}\n1. 9 10 11 12\nhand 3\n1. 13 14 15 16\n")
    ((ln, col, message),) = syntax(g)
    assert (ln, col) == (7, 1) and f"({why}), so the line opens hand 2" in message
    assert [(h.number, len(h.tricks)) for h in g.hands] == [(1, 2), (2, 1), (3, 1)]


def test_a_second_discard_before_the_tricks_is_the_same_hand() -> None:
    g = one(HEAD + "hand 1\ndiscard Adam 1\ndiscard Adam 2\n1. 1 2 3 4\n")
    assert syntax(g) == [] and len(g.hands) == 1


def test_a_line_after_an_annotated_trick_is_read_without_fault() -> None:
    """The trick an annotation on its own line is attached to is replaced in the hand (found by the fuzz test)."""
    g = one(HEAD + "hand 1\n1. 1 2 3 4\n{x}\ndeal Adam 1 2\n")
    assert [m for _, _, m in syntax(g)] == [
        "This `deal` line comes after trick 1 (line 4): every line other than tricks, score and total comes before "
        "trick 1"
    ]
    g = one(HEAD + "hand 1\ndeal Adam 1 2\n1. 1 2 3 4\n{x}\ndeal Adam 3 4\n1. 5 6 7 8\n")
    assert [h.number for h in g.hands] == [1, 2]
    g = one(HEAD + "hand 1\n1. 1 2 3 4\n{x\ndeal Adam 1 2\n")  # an annotation never closed
    assert len(g.hands) == 1
