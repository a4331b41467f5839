"""Benchmark corpora: N full hands of a game, legal and scored, from a seed, made by `imp simulate`.

    python bench/corpus.py --hands 5000 --out /tmp/corpus-5000.imp [--game bottle-imp] [--seed 1]

The corpus is games of four hands each (a `Hands` tag says so), dealt and played
by `imptools.simulate` (the code behind `imp simulate`) with its random bot, the
`score` lines the rules give; every game a seed of its own, so the corpus for N
hands is the first N hands of any longer one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from imptools.simulate import Options, simulate

HANDS_PER_GAME = 4
TABLES = {
    "bottle-imp": ("Adam Betty Christian Doris", None, ()),
    "botifarra": ("Ana Bernat Carles Dolors", None, ()),
    "ninety-nine": ("Al Bo Cy", None, ()),
}
"""The table each game is benchmarked at: players, variant, extra tags."""


def corpus(game: str, hands: int, seed: int = 1) -> str:
    """`hands` simulated hands of `game`, in games of four hands."""
    players, variant, tags = TABLES[game]
    chunks: list[str] = []
    for n, first in enumerate(range(0, hands, HANDS_PER_GAME)):
        count = min(HANDS_PER_GAME, hands - first)
        opts = Options(game, tuple(players.split()), variant, count, seed * 100_003 + n, "random", True, True,
                       (("Hands", str(count)), *tags))  # fmt: skip
        chunks.append("".join(simulate(opts)))
    return "\n".join(chunks)


def write_corpus(path: Path, hands: int, seed: int = 1, game: str = "bottle-imp") -> Path:
    """Write `corpus(game, hands, seed)` to `path` (once: an existing file of that name is reused)."""
    if not path.exists():
        path.write_text(corpus(game, hands, seed), encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", choices=sorted(TABLES), default="bottle-imp")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.write_text(corpus(args.game, args.hands, args.seed), encoding="utf-8")
    print(f"wrote {args.hands} hands to {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
