"""Benchmark corpora: N full four-player Bottle Imp hands, legal and scored, from a seed.

    python bench/corpus.py --hands 5000 --out /tmp/corpus-5000.imp [--seed 1]

`bottle_imp_corpus` is the one function the other scripts call; it deals at
random, discards and passes as the classic variant says (one card away, one to
each neighbour), plays every trick with a random card that follows colour when
it can, judges tricks with `imptools.rules.bottle_imp.judge_trick` and writes
the `score` and `total` lines the rules give. Swap it for `imp simulate` once
that command exists.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules.bottle_imp import BAMBUS, Bottle, settle_trick, spell

NAMES = ("Adam", "Betty", "Christian", "Doris", "Keawe", "Kokua", "Lopaka", "Makoa", "Rua", "Uma")
HANDS_PER_GAME = 4


def _hand_lines(rng: random.Random, players: list[str], dealer: str) -> list[str]:
    """One hand: deal, exchange and eight tricks (no score lines yet)."""
    n = len(players)
    cards = sorted(BAMBUS)
    rng.shuffle(cards)
    order = players[players.index(dealer) + 1 :] + players[: players.index(dealer) + 1]
    held = {p: sorted(cards[9 * i : 9 * i + 9]) for i, p in enumerate(order)}
    lines = [f"deal {p} " + " ".join(spell(c) for c in held[p]) for p in order]
    discards = {p: rng.choice(held[p]) for p in order}
    lines += [f"discard {p} {spell(discards[p])}" for p in order]
    for p in order:
        held[p].remove(discards[p])
    gifts: dict[str, list[int]] = {}
    for p in order:
        i = players.index(p)
        two = rng.sample(held[p], 2)
        for receiver, card in ((players[(i + 1) % n], two[0]), (players[(i - 1) % n], two[1])):
            lines.append(f"pass {p} > {receiver} {spell(card)}")
            gifts.setdefault(receiver, []).append(card)
        for c in two:
            held[p].remove(c)
    for p in order:
        held[p].extend(gifts.get(p, []))
    bottles = [Bottle()]
    piles: dict[str, list[int]] = {p: [] for p in players}
    leader = 0
    for number in range(1, 9):
        who = [order[(leader + i) % n] for i in range(n)]
        played: list[int] = []
        for p in who:
            choice = held[p]
            if played:
                led = BAMBUS[played[0]][0]
                choice = [c for c in held[p] if BAMBUS[c][0] == led] or held[p]
            card = rng.choice(choice)
            held[p].remove(card)
            played.append(card)
        win = settle_trick(played, who, bottles, piles)
        words = [spell(c) for c in played]
        if rng.random() < 0.5:
            words[0] = f"{who[0]}:{words[0]}"
        lines.append(f"{number}. " + " ".join(words))
        leader = order.index(who[win])
    return lines


def _games(hands: int, seed: int) -> Iterator[tuple[list[str], list[tuple[str, list[str]]]]]:
    rng = random.Random(seed)
    made = 0
    while made < hands:
        players = rng.sample(NAMES, 4)
        count = min(HANDS_PER_GAME, hands - made)
        out = []
        for k in range(count):
            dealer = players[(k - 1) % 4]
            out.append((dealer, _hand_lines(rng, players, dealer)))
        made += count
        yield players, out


def bottle_imp_corpus(hands: int, seed: int = 1) -> str:
    """The text of `hands` full, legal four-player classic Bottle Imp hands, four to a game, scored."""
    chunks: list[str] = []
    for index, (players, game_hands) in enumerate(_games(hands, seed), 1):
        header = [
            '[Game "bottle-imp"]',
            '[Variant "classic"]',
            f'[Players "{" ".join(players)}"]',
            f'[Event "bench corpus {seed}, game {index}"]',
            f'[Hands "{len(game_hands)}"]',
        ]
        body = [f"hand {k} dealer {dealer}\n" + "\n".join(lines) for k, (dealer, lines) in enumerate(game_hands, 1)]
        text = "\n".join(header) + "\n\n" + "\n\n".join(body) + "\n"
        # score and total lines as the rules give them
        (game,) = read_games(text)
        result = judge_game(game)
        assert not result.all_findings(), result.all_findings()[:3]
        scored = []
        totals = dict.fromkeys(players, 0)
        for part, hand in zip(body, result.hands):
            assert hand.scores is not None
            for p, v in hand.scores.items():
                totals[p] += v
            scored.append(
                part
                + "\nscore "
                + " ".join(f"{p} {hand.scores[p]}" for p in players)
                + "\ntotal "
                + " ".join(f"{p} {totals[p]}" for p in players)
            )
        chunks.append("\n".join(header) + "\n\n" + "\n\n".join(scored) + "\n")
    return "\n".join(chunks)


def write_corpus(path: Path, hands: int, seed: int = 1) -> Path:
    """Write `bottle_imp_corpus(hands, seed)` to `path` (once: an existing file of that name is reused)."""
    if not path.exists():
        path.write_text(bottle_imp_corpus(hands, seed), encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.write_text(bottle_imp_corpus(args.hands, args.seed), encoding="utf-8")
    print(f"wrote {args.hands} hands to {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
