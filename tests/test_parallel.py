"""`--jobs`: the pool's results are the one process's, in the same order, however a file is cut."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import imptools.parallel as parallel
from imptools.check import judge_game
from imptools.reader import read_games

ROOT = Path(__file__).resolve().parents[1]

ODD = """; a comment before the next game's tags
;   and another

[Game "bottle-imp"]
[Players "Adam Betty Christian Doris"]
hand 1
1. 24 15 {a note
[that runs over a line starting with a bracket]
} 17 32
2. 8 4 6 7
[Event "a tag after a hand: a new game"]
[Players "Adam Betty Christian"]
[Game "bottle-imp"]
hand 1
hand x
[Game "bottle-imp"]
hand 1 dealer Doris
deal Adam 2 4\r[Game "bottle-imp"]\rhand 1
  [Game "indented"]
[Game "bottle-imp"]
hand 3
1. Zed:99 ?? 4!?
[Game "not a tag
[Game "bottle-imp"] {never closed
hand 1
[Game "bottle-imp"]
[Players "Adam Betty Christian Doris"]
hand 1
1. 2 3 4 5 } closed at last
[Game "bottle-imp"]
hand 1
1. 2 3 4 5
\u00a0; a comment behind a no-break space belongs to the next game
\u3000
[Game "bottle-imp"]
hand 1
"""


def _corpus(hands: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_corpus", ROOT / "bench" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text: str = module.corpus("bottle-imp", hands, seed=3)
    return text


def _sequential(path: Path) -> list[object]:
    return [(str(path), g, g.findings, judge_game(g)) for g in read_games(path, path=str(path))]


@pytest.mark.parametrize(("size", "block"), [(1, 1 << 20), (200, 1 << 20), (5000, 1 << 20), (1, 97), (300, 40)])
def test_pieces_judge_like_one_process(tmp_path: Path, size: int, block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus(24)
    games = corpus.split("\n\n[")
    text = ODD + ("\n\n[".join(games[:3])) + "\n" + ODD + "\n\n[" + "\n\n[".join(games[3:]) + ODD.replace("\n", "\r\n")
    path = tmp_path / "big.imp"
    path.write_text(text, encoding="utf-8")
    other = tmp_path / "small.imp"
    other.write_text(corpus, encoding="utf-8")
    monkeypatch.setattr(parallel, "CHUNK", size)
    monkeypatch.setattr(parallel, "_BLOCK", block)  # small blocks: runs of common lines between the odd ones
    assert len(list(parallel.pieces(str(path)))) > (3 if size < 5000 else 1)
    missing: list[str] = []
    failed: list[str] = []
    pooled = [
        (p, g, g.findings, r)
        for p, g, r in parallel.judged_in_pool(
            [str(path), str(tmp_path / "missing.imp"), str(other)],
            2,
            True,
            lambda p, e: missing.append(p),
            lambda p, last, what: failed.append(p),
        )
    ]
    assert pooled == _sequential(path) + _sequential(other)
    assert missing == [str(tmp_path / "missing.imp")] and failed == []
    assert b"".join(piece for piece, _ in parallel.pieces(str(path))) == path.read_bytes()


def test_not_utf8_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "latin.imp"
    path.write_bytes((_corpus(8) + "; caf\xe9\n").encode("latin-1") + _corpus(8).encode())
    monkeypatch.setattr(parallel, "CHUNK", 100)
    pooled = [(p, g, g.findings, r) for p, g, r in parallel.judged_in_pool([str(path)], 2, True, print, print)]
    assert pooled == _sequential(path)


def test_small_batches_stay_in_one_process(tmp_path: Path) -> None:
    path = tmp_path / "a.imp"
    path.write_text(_corpus(4), encoding="utf-8")
    assert not parallel.worth_a_pool([str(path)], 8)
    assert not parallel.worth_a_pool(["-"], 8)
    assert parallel.default_jobs() >= 1


def test_cli_jobs_output_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from imptools.cli.app import app

    path = tmp_path / "night.imp"
    path.write_text(ODD + _corpus(16) + ODD, encoding="utf-8")
    monkeypatch.setattr(parallel, "POOL_FROM", 1)
    monkeypatch.setattr(parallel, "CHUNK", 500)
    outputs = []
    for command in ("validate", "score"):
        for jobs in ("1", "2"):
            with pytest.raises(SystemExit):
                app([command, "--json", "--jobs", jobs, str(path)])
            outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and outputs[2] == outputs[3]
    assert '"errors": 0' not in outputs[0]


def test_a_reader_failure_in_a_worker_is_told_and_the_other_files_are_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the failure is planted in the parent, which only forked workers inherit")
    import imptools.reader as reader

    good, bad = tmp_path / "good.imp", tmp_path / "bad.imp"
    good.write_text(_corpus(3), encoding="utf-8")
    bad.write_text(_corpus(3) + "\n" + _corpus(2), encoding="utf-8")  # two games: the second fails
    real = reader.read_games

    def breaks_on_bad(source, path=None):  # type: ignore[no-untyped-def]
        for n, game in enumerate(real(source, path=path)):
            if "bad" in str(path) and n == 1:
                raise RuntimeError("planted")
            yield game

    monkeypatch.setattr(reader, "read_games", breaks_on_bad)
    failed: list[tuple[str, int, str]] = []
    pooled = list(parallel.judged_in_pool([str(bad), str(good)], 2, True, print, lambda *f: failed.append(f)))
    assert [p for p, _, _ in pooled].count(str(good)) == len(_sequential(good))
    assert [p for p, _, _ in pooled].count(str(bad)) == 1
    assert failed == [(str(bad), 1, "RuntimeError: planted")]
