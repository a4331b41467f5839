"""did_you_mean: the one known word a slip stands for, or nothing."""

from __future__ import annotations

import pytest

from imptools.suggest import did_you_mean

KEYWORDS = ["hand", "deal", "discard", "pass", "open", "imp", "trump", "score", "total", "bid", "declare", "reveal"]
PLAYERS = ["Adam", "Betty", "Christian", "Doris"]


@pytest.mark.parametrize(
    ("word", "candidates", "meant"),
    [
        ("dael", KEYWORDS, "deal"),
        ("scroe", KEYWORDS, "score"),
        ("discrad", KEYWORDS, "discard"),
        ("Hand", KEYWORDS, "hand"),
        ("Adma", PLAYERS, "Adam"),
        ("Chrstian", PLAYERS, "Christian"),
        ("doris", PLAYERS, "Doris"),
        ("botifara", ["bottle-imp", "botifarra", "ninety-nine"], "botifarra"),
        ("bottle_imp", ["bottle-imp", "botifarra", "ninety-nine"], "bottle-imp"),
        ("clasic", ("classic", "teams", "second-bottle", "lopaka"), "classic"),
    ],
)
def test_a_slip_names_the_word_meant(word: str, candidates: list[str], meant: str) -> None:
    assert did_you_mean(word, candidates) == meant


@pytest.mark.parametrize(
    ("word", "candidates"),
    [
        ("milk", KEYWORDS),  # nothing close
        ("Adam", PLAYERS),  # no slip at all
        ("", PLAYERS),
        ("Zoe", PLAYERS),
        ("Anx", ["Ana", "Ann"]),  # two equally close: no guess
        ("x", []),
    ],
)
def test_no_guess_when_nothing_or_several_fit(word: str, candidates: list[str]) -> None:
    assert did_you_mean(word, candidates) is None


def test_cutoff_and_any_iterable() -> None:
    assert did_you_mean("Bety", iter(PLAYERS)) == "Betty"
    assert did_you_mean("Bxxy", PLAYERS) is None
    assert did_you_mean("Bxxy", PLAYERS, cutoff=0.4) == "Betty"
