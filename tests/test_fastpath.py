"""The reader's fast path builds exactly what the grammar builds: games and findings, with it on and off."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import imptools.reader
from imptools.fastpath import fast_line
from imptools.reader import read_games

ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = ROOT / "tests" / "conformance"
RECORDS = sorted(CONFORMANCE.rglob("*.imp")) + sorted((ROOT / "samples").glob("*.imp"))


def _corpus(hands: int, game: str = "bottle-imp") -> str:
    spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "bench" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.corpus(game, hands, seed=7)
    return text


def _both(source: str | Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[object], list[object]]:
    """The games (with their findings) read with the fast path, then with Lark alone."""

    def read() -> list[object]:
        try:
            return [(g, g.findings) for g in read_games(source, path="x.imp")]
        except Exception as exc:  # a reader bug must at least be the same bug both ways
            return [type(exc).__name__]

    fast = read()
    with monkeypatch.context() as m:
        m.setattr(imptools.reader, "fast_line", lambda text, line: None)
        slow = read()
    return fast, slow


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_records_read_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(path, monkeypatch)
    assert fast == slow


SIMULATED = ("bottle-imp", "botifarra", "ninety-nine")


@pytest.mark.parametrize("game", SIMULATED)
def test_simulated_corpus_reads_the_same(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _corpus(60, game)
    fast, slow = _both(text, monkeypatch)
    assert fast == slow
    assert sum(len(g.hands) for g, _ in fast) == 60  # type: ignore[attr-defined]


def _lines() -> list[str]:
    out = {line for p in RECORDS for line in p.read_text(encoding="utf-8", errors="replace").splitlines()}
    out |= {line for game in SIMULATED for line in _corpus(4, game).splitlines()}
    return sorted(line for line in out if line.strip())


_NOISE = [" ", "  ", "\t", "\u00a0", ".", ":", ";", "!", "?", ">", "[", "]", "{", "}", '"', "\\", "-", "+", "0", "7"]
_NOISE += ["x", "é", "²", "٣", "_", "'", "dealer", "hand", "\x1c", "\u2028", "9" * 12, "-" + "9" * 10]


def _mutants(seed: int = 11, lines: int = 2000) -> Iterator[str]:
    rng = random.Random(seed)
    every = _lines()
    for line in rng.sample(every, min(lines, len(every))):
        yield line
        for _ in range(4):
            chars = list(line)
            i = rng.randrange(len(chars) + 1)
            kind = rng.randrange(3)
            if kind == 0:
                chars.insert(i, rng.choice(_NOISE))
            elif kind == 1 and chars:
                del chars[min(i, len(chars) - 1)]
            else:
                chars[i:i] = [" ", rng.choice(_NOISE), " "]
            yield "".join(chars)


def test_mutated_lines_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines of the records, as written and with a character added, removed or spaced: same model, same findings."""
    head = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\n\nhand 1\n'
    mutants = list(_mutants())
    assert len(mutants) == 10000
    taken = 0
    for line in mutants:
        if fast_line(line, 5) is not None:
            taken += 1
        fast, slow = _both(head + line + "\n", monkeypatch)
        assert fast == slow, line
    assert taken > len(mutants) // 3  # the fast path does take most lines
