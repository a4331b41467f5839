"""Where a record's plays cannot be followed, the analysis stops before that trick and its note says why, with the
evidence: the token that is not a card, the count of plays, the trick's line; the tricks before it are analysed."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from imptools.analyse import played_hand
from imptools.check import judge_game
from imptools.reader import read_games
from imptools.simulate import Options, simulate

GAMES = {"bottle-imp": 4, "botifarra": 4, "ninety-nine": 3}  # each game's plays a trick at these tables
NAMES = ("Adam", "Betty", "Christian", "Doris")


def _record(game: str, deals: bool = True) -> str:
    players = NAMES[: GAMES[game]]
    return "".join(simulate(Options(game, players, None, seed=3, scores=False, deals=deals)))


def _damaged(text: str, change: Callable[[list[str]], list[str]]) -> tuple[str, int]:
    """`text` with trick 4's cards changed by `change`, and the line trick 4 is on."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("4. "))
    head, cards = lines[at].split(":", 1)
    lines[at] = f"{head}:{' '.join(change(cards.split()))}"
    return "\n".join(lines), at + 1


CHANGES: dict[str, tuple[Callable[[list[str]], list[str]], Callable[[int, list[str]], str]]] = {
    "a play too many": (lambda c: [*c, c[0]], lambda n, c: f"has {n + 1} plays; every trick has {n}"),
    "a play too few": (lambda c: c[:-1], lambda n, c: f"has {n - 1} plays of {n} and is not the last trick"),
    "a token that is not a card": (
        lambda c: [c[0], "zz", *c[2:]],
        lambda n, c: "holds `zz` (column {column}), not a card of this deck",
    ),
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("slip", list(CHANGES))
def test_the_note_names_the_trick_and_what_stopped_it(game: str, slip: str) -> None:
    change, why = CHANGES[slip]
    original = _record(game)
    text, line = _damaged(original, change)
    n = GAMES[game]
    cards = next(row for row in original.split("\n") if row.startswith("4. ")).split(":", 1)[1].split()
    played = played_hand(next(read_games(text, path="night.imp")), 1)
    assert not isinstance(played, str), played
    expected = why(n, cards)
    if "{column}" in expected:  # the trick's second card, the one changed
        row = text.split("\n")[line - 1]
        expected = expected.format(column=row.index(" ", row.index(":")) + 2)
    assert played.note == f"trick 4 (line {line}) {expected}: the analysis stops before it"
    assert played.plays and {t for t, _, _ in played.plays} == {1, 2, 3}  # the three tricks before it, each play
    assert len(played.plays) == 3 * n


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_record_has_no_note(game: str) -> None:
    text = _record(game)
    played = played_hand(next(read_games(text, path="night.imp")), 1)
    assert not isinstance(played, str), played
    assert played.note is None
    tricks = re.findall(r"^(\d+)\. ", text, re.M)
    assert len(played.plays) == GAMES[game] * len(tricks)
    assert {t for t, _, _ in played.plays} == {int(t) for t in tricks}


def _unknown(cards: list[str]) -> list[str]:
    return [cards[0], "?", *cards[2:]]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_question_mark_the_deal_settles_is_read_as_that_card(game: str) -> None:
    """The player's deal (and exchange) recorded, and every other card of his in the tricks: the `?` can be one
    card only, and the hand is judged and analysed as if it were written."""
    original = _record(game)
    text, _ = _damaged(original, _unknown)
    meant, written = (next(read_games(t, path="night.imp")) for t in (text, original))
    assert [h.scores for h in judge_game(meant).hands] == [h.scores for h in judge_game(written).hands]
    assert [(f.code, f.line) for f in judge_game(meant).all_findings()] == [
        (f.code, f.line) for f in judge_game(written).all_findings()
    ]
    assert judge_game(meant).hands[0].scores  # judged and scored, not left without a score
    played, whole = played_hand(meant, 1), played_hand(written, 1)
    assert not isinstance(played, str) and not isinstance(whole, str)
    assert played.note is None and played.plays == whole.plays


@pytest.mark.parametrize("game", list(GAMES))
def test_two_question_marks_of_one_player_stop_the_hand(game: str) -> None:
    """Two `?` of the same player, his deal recorded: either could be either of his two cards not shown, so the
    first is not known: the hand is left unscored from that trick, and the analysis stops before it."""
    original = _record(game)
    whole = played_hand(next(read_games(original, path="night.imp")), 1)
    assert not isinstance(whole, str), whole
    player = [p for t, p, _ in whole.plays if t == 4][1]  # who played trick 4's second card
    later = next(c for t, p, c in whole.plays if t == 5 and p == player)
    text, line = _damaged(original, _unknown)
    lines = text.split("\n")
    at = next(i for i, row in enumerate(lines) if row.startswith("5. "))
    head, cards = lines[at].split(":", 1)
    tokens = cards.split()
    index = next(i for i, tok in enumerate(tokens) if whole.position.spell(later).lower() == tok.lower())
    lines[at] = f"{head}:{' '.join([*tokens[:index], '?', *tokens[index + 1 :]])}"
    text = "\n".join(lines)
    judged = judge_game(next(read_games(text, path="night.imp")))
    assert judged.hands[0].scores is None
    assert [f.code for f in judged.all_findings()] == ["not-scored"]
    played = played_hand(next(read_games(text, path="night.imp")), 1)
    assert not isinstance(played, str), played
    row = text.split("\n")[line - 1]
    column = row.index(" ", row.index(":")) + 2
    why = f"holds a `?` (column {column}), and the record does not say which card it was"
    assert played.note == f"trick 4 (line {line}) {why}: the analysis stops before it"
    assert {t for t, _, _ in played.plays} == {1, 2, 3}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_question_mark_the_deal_settles_is_shown_as_written(game: str) -> None:
    """The replay shows the card the deal leaves, and that the record wrote `?` for it: in its event (`text`, the
    JSON's), in the sentence the stepper and the page say, and in the text replay's row; no other play says so."""
    import io

    from rich.console import Console

    from imptools.present.cards import describe
    from imptools.present.replay_text import print_replay
    from imptools.replay import replay_game
    from imptools.rules.steps import WRITTEN_UNKNOWN

    original = _record(game)
    text, _ = _damaged(original, _unknown)
    meant, written = (next(read_games(t, path="night.imp")) for t in (text, original))
    shown, plain = (replay_game(g, judge_game(g)) for g in (meant, written))
    plays = [s.event for s in shown.hands[0].steps if s.event.kind == "play"]
    as_written = [s.event for s in plain.hands[0].steps if s.event.kind == "play"]
    assert [e.cards for e in plays] == [e.cards for e in as_written]  # the card the deal leaves, as if written
    marked = [e for e in plays if e.text is not None]
    assert len(marked) == 1 and marked[0].text == WRITTEN_UNKNOWN
    assert (marked[0].trick, marked[0].player) == (4, [e.player for e in plays if e.trick == 4][1])
    assert not any(e.text for e in as_written)
    card = marked[0].cards[0]
    said = describe(marked[0], shown)
    assert said.startswith(f"{marked[0].player} plays ") and said.endswith(f" ({WRITTEN_UNKNOWN})"), said
    console = Console(file=io.StringIO(), width=100, color_system=None)
    print_replay(console, [shown], hand=1)
    rows = [r for r in console.file.getvalue().split("\n") if f"({WRITTEN_UNKNOWN})" in r]  # type: ignore[attr-defined]
    assert len(rows) == 1 and rows[0].split()[0] == marked[0].player, rows
    assert rows[0].split()[1].startswith(card), rows  # the card's label (a Bottle Imp card with its suit's letter)
