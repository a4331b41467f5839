"""Botifarra's solver in C (`csolver.Solver`) against the Python class (`solver.Solver`): the same values and the same
positions visited, on random endgames and on whole hands from trick 1, each with partition entries off and on (the
same partition hits too).

Run by tests/test_native_solver.py with the installed package, in a process of its own outside the source tree:

    python tests/native_solver_check.py [--module PATH] [--endgames N] [--hands N] [--seed S]

`--module` loads the C module from a file built from the source (where the installed package has none: an editable
install); by default the installed `imptools.rules.botifarra.csolver`. Prints one JSON object: where the module was
loaded from, the positions compared, the nodes they took, what they covered (trumps, play rules, tables, windows,
cards lying in the trick, partition entries off and on and their hits) and every difference found (none expected).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from types import ModuleType
from typing import Any

from imptools.analyse import played_hand
from imptools.reader import read_games
from imptools.rules.botifarra.masks import POINT_MASK, POINTS_OF, SUIT_MASK, beats, cannot_be_taken, coded, legal_coded
from imptools.rules.botifarra.obligations import TABLES
from imptools.rules.botifarra.position import SearchBotifarra
from imptools.rules.botifarra.solver import (
    INF,
    KILLER_SLOTS,
    KILLER_TRICKS,
    LOOKAHEAD_TRICKS,
    LOW_ALL,
    PACK,
    SOLVER_CAP,
    Solver,
    least_points,
)
from imptools.simulate import Options, simulate

SEATINGS = {"partnership": [2, 3, 0, 1], "individual": [-1, -1, -1, -1], "three": [-1, -1, -1]}
"""Each table's partners, seats from the leader of trick 1."""
NAMES = ("Ana", "Bernat", "Carles", "Dolors")
HAND_WINDOWS = [[(0, 30), (1, 30)], [(0, 30), (1, 40)], [(0, 20), (0, 30), (1, 10)]]
"""The null windows asked of each whole hand (seat, "at least"), one solver for them all (the tables warm): some
hundred thousand positions each, where others take billions (the hands are `compare`'s, seeds 1 to 3)."""


def load(path: str | None) -> ModuleType:
    name = "imptools.rules.botifarra.csolver"
    if path is None:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def endgame(rng: random.Random, n: int, tricks: int, rules: str, trump: int) -> dict[str, Any]:
    """A random position `tricks` tricks from the end: `tricks` cards a hand dealt from the whole pack, a random
    leader, and 0 to n-1 legal cards already lying in the trick (the winning card as the rules make it)."""
    cells = coded(rules)
    cards = rng.sample(range(48), n * tricks)
    hands = [sum(1 << c for c in cards[i * tricks : (i + 1) * tricks]) for i in range(n)]
    live = sum(1 << c for c in cards)
    leader = rng.randrange(n)
    trick: list[int] = []
    winning, wins_at = -1, 0
    partner = SEATINGS["partnership"] if n == 4 and rng.random() < 0.5 else [-1] * n
    for k in range(rng.randrange(n)):
        seat = (leader + k) % n
        led = trick[0] // 12 if trick else -1
        mine = partner[seat] == (leader + wins_at) % n if trick else False
        legal = legal_coded(cells, trump, led, winning, mine, hands[seat])
        bits = [b for b in range(48) if legal >> b & 1]
        b = rng.choice(bits)
        hands[seat] ^= 1 << b
        if not trick or beats(b, winning, trump):
            winning, wins_at = b, k
        trick.append(b)
    points = sum(POINTS_OF[b] for b in range(48) if live >> b & 1)
    return {"hands": hands, "live": live, "live_points": points, "leader": leader, "trick": trick,
            "winning": winning, "wins_at": wins_at, "partner": partner}  # fmt: skip


def windows(rng: random.Random, total: int) -> list[tuple[int, int]]:
    """A whole window, one beyond any result, null windows and narrow and wide ones at random."""
    out = [(-1, total + 1), (-(1 << 40), 1 << 40)]
    for _ in range(3):
        b = rng.randrange(0, total + 2)
        out.append((b - 1, b))
    a = rng.randrange(-2, total + 2)
    out.append((a, a + rng.randrange(1, 12)))
    return out


def helpers(module: ModuleType, rng: random.Random) -> list[str]:
    """The C module's tables and its ports of masks.py's `legal_coded`, `beats` and `cannot_be_taken` and of
    `least_points` against the Python ones, on every card pair and on random hands."""
    diffs = []
    want = {"POINTS_OF": POINTS_OF, "PACK": PACK, "SUIT_MASK": SUIT_MASK, "POINT_MASK": POINT_MASK, "LOW_ALL": LOW_ALL,
            "INF": INF, "SOLVER_CAP": SOLVER_CAP, "LOOKAHEAD_TRICKS": LOOKAHEAD_TRICKS, "KILLER_SLOTS": KILLER_SLOTS,
            "KILLER_TRICKS": KILLER_TRICKS}  # fmt: skip
    got = module.tables()
    diffs += [f"table {k}" for k in want if got.get(k) != want[k]]
    for trump in range(-1, 4):
        diffs += [f"beats {b} {w} {trump}" for b in range(48) for w in range(48)
                  if module.beats(b, w, trump) != beats(b, w, trump)]  # fmt: skip
    for i in range(4000):
        trump = rng.randrange(-1, 4)
        held = sum(1 << c for c in rng.sample(range(48), rng.randrange(1, 13)))
        led, winning = rng.randrange(-1, 4), rng.randrange(48)
        cells = coded(sorted(TABLES)[i % len(TABLES)])
        for mine in (False, True):
            if module.legal_coded(cells, trump, led, winning, mine, held) != legal_coded(
                cells, trump, led, winning, mine, held
            ):
                diffs.append(f"legal_coded {cells} {trump} {led} {winning} {mine} {held:#x}")
        if module.least_points(held & SUIT_MASK[i % 4], i % 8) != least_points(held & SUIT_MASK[i % 4], i % 8):
            diffs.append(f"least_points {held & SUIT_MASK[i % 4]:#x} {i % 8}")
        n = 3 + i % 2
        hands = [sum(1 << c for c in rng.sample(range(48), rng.randrange(0, 6))) for _ in range(n)]
        lead, k, win = rng.randrange(n), rng.randrange(n), rng.randrange(48)
        led = rng.choice([win // 12, rng.randrange(4)])
        if module.cannot_be_taken(hands, n, trump, lead, k, win, led) != cannot_be_taken(
            hands, n, trump, lead, k, win, led
        ):
            diffs.append(f"cannot_be_taken {hands} {trump} {lead} {k} {win} {led}")
    return diffs


def compare(module: ModuleType, endgames: int, hands: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    diffs = helpers(module, rng)
    covered: dict[str, set[str]] = {
        "trump": set(),
        "rules": set(),
        "table": set(),
        "lying": set(),
        "side": set(),
        "turned": set(),
        "to move": set(),
        "partition": set(),
        "partition turned": set(),
    }
    compared = nodes = phits = 0
    for g in range(endgames):
        n = 3 if g % 3 == 2 else 4
        rules = sorted(TABLES)[g % len(TABLES)]
        trump = rng.randrange(-1, 4)
        tricks = rng.randrange(1, 7) if n == 4 else rng.randrange(1, 8)
        p = endgame(rng, n, tricks, rules, trump)
        partner = p.pop("partner")
        cap = rng.choice([4, 50, 1_000_000])
        total = p["live_points"] + p["live"].bit_count() // n
        asked = [(seat, window) for seat in rng.sample(range(n), 2) for window in windows(rng, total)]
        for part in (False, True):
            py = Solver(rules, trump, partner, cap=cap, partition=part)
            c = module.Solver(rules, trump, partner, cap=cap, partition=part)
            for seat, (alpha, beta) in asked:  # one solver, its tables warm, for two seats (both sides with partners)
                args = (p["hands"], p["live"], p["live_points"], p["leader"], p["trick"], p["winning"], p["wins_at"])
                want = py.gain(*args, seat, alpha, beta)
                got = c.gain(*args, seat, alpha, beta)
                compared += 1
                if got != want or c.nodes != py.nodes or c.phits != py.phits:
                    diffs.append(f"endgame {g} partition {part} seat {seat} ({alpha}, {beta}): {got} {c.nodes} "
                                 f"{c.phits} for {want} {py.nodes} {py.phits}")  # fmt: skip
                mover = (p["leader"] + len(p["trick"])) % n
                covered["to move"].add("its side" if mover in (seat, partner[seat]) else "the others")
                covered["side"].add(
                    "alone" if partner[seat] < 0 else "the first seat's" if seat % 2 == 0 else "the other"
                )
            nodes += py.nodes
            phits += py.phits
            covered["partition"].add(str(part))
        covered["trump"].add(str(trump))
        covered["rules"].add(rules)
        covered["table"].add("partnership" if partner[0] >= 0 else f"{n} alone")
        covered["lying"].add(str(len(p["trick"])))
    for h in range(hands):
        table = sorted(SEATINGS)[h % len(SEATINGS)]
        players = 3 if table == "three" else 4
        tags = (("Teams", "none"),) if table == "individual" else ()
        rules = sorted(TABLES)[h % len(TABLES)]
        opts = Options("botifarra", NAMES[:players], rules, seed=seed + h, tags=tags)
        (game,) = read_games("".join(simulate(opts)))
        found = played_hand(game, 1)
        assert not isinstance(found, str), found
        pos = found.position
        assert isinstance(pos, SearchBotifarra)
        cap = 20_000  # the generations turn over within a hand's search (the partition ones too, of cap // 4)
        for part in (False, True):
            py = Solver(pos.rules, pos.trump, pos.partner, cap=cap, partition=part)
            c = module.Solver(pos.rules, pos.trump, pos.partner, cap, part)
            args = (pos.hands, pos.live, pos.live_points, pos.leader, pos.trick, pos.winning, pos.wins_at)
            for seat, bound in HAND_WINDOWS[h % len(HAND_WINDOWS)]:
                want = py.gain(*args, seat, bound - 1, bound)
                got = c.gain(*args, seat, bound - 1, bound)
                compared += 1
                if got != want or c.nodes != py.nodes or c.phits != py.phits:
                    diffs.append(f"hand {h} ({table}) partition {part} seat {seat} at least {bound}: {got} {c.nodes} "
                                 f"{c.phits} for {want} {py.nodes} {py.phits}")  # fmt: skip
            nodes += py.nodes
            phits += py.phits
            covered["turned"].add(str(any(old for _, old in c.sizes().values())))  # an older generation in use
            if part:
                covered["partition turned"].add(str(any(old for _, old in c.psizes().values())))
        covered["trump"].add(str(pos.trump))
        covered["table"].add(f"{table} hand")
    return {"module": module.__file__, "compared": compared, "nodes": nodes, "phits": phits, "diffs": diffs[:20],
            "covered": {k: sorted(v) for k, v in covered.items()}}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", help="the C module's file (default: the installed one)")
    parser.add_argument("--endgames", type=int, default=300)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    json.dump(compare(load(args.module), args.endgames, args.hands, args.seed), sys.stdout)
    print()


if __name__ == "__main__":
    main()
