"""The Bottle Imp's `Escape` and `Gains` in C (`cescape.Lines`) against the Python classes (escape.py): the same
answers and the same positions visited (`nodes`, and `shared`: partition entries read with cards in their band), on
random positions of simulated hands (every table the C core ports: classic 3 to 6 players, the 1995 deck, the second
bottle, the team variants, and the two-pack games, Bright House and the Eye of the Demon; mid-trick too, every seat
asked (with two bottles, whether he ends with at most one), null, narrow and wide windows, tables of a few entries
and the usual ones) and on whole hands from trick 1 (a Bright House hand among them), and `search.native_lines`'
choice.

Run by tests/test_native_escape.py with the installed package, in a process of its own outside the source tree:

    python tests/native_escape_check.py [--module PATH] [--positions N] [--hands N] [--seed S]

`--module` loads the C module from a file built from the source (where the installed package has none: an editable
install); by default the installed `imptools.rules.bottle_imp.cescape`. Prints one JSON object: where the module was
loaded from, the questions compared, the nodes they took, what they covered and every difference found (none
expected).
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
from imptools.rules.bottle_imp import search
from imptools.rules.bottle_imp.escape import ESCAPE_CAP, GAINS_CAP, Escape, Gains
from imptools.rules.bottle_imp.search import SearchBottle
from imptools.simulate import Options, simulate

NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")
TABLES = [
    ("classic", 3, ""),
    ("classic", 4, ""),
    ("classic", 4, "bambus-1995"),
    ("classic", 5, ""),
    ("classic", 6, ""),
    ("second-bottle", 5, ""),
    ("second-bottle", 6, ""),
    ("teams", 4, ""),
    ("teams", 6, ""),
    ("teams-2-2-1-1", 6, ""),
    ("bright-house", 2, ""),
    ("eye-of-the-demon", 2, ""),
]
"""The tables the C core ports: (variant, players, deck)."""


ASKED: set[str] = set()
"""The kinds of question compared (escapes, gaining, at most one, gain)."""


def load(path: str | None) -> ModuleType:
    name = "imptools.rules.bottle_imp.cescape"
    if path is None:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dealt(variant: str, players: int, deck: str, seed: int) -> SearchBottle:
    """Hand 1's start position of a simulated game."""
    tags = (("Deck", deck),) if deck else ()
    opts = Options("bottle-imp", NAMES[:players], variant, seed=seed, tags=tags)
    (game,) = read_games("".join(simulate(opts)))
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    pos = found.position
    assert isinstance(pos, SearchBottle)
    return pos


def lines(module: ModuleType, pos: SearchBottle, escape_cap: int, gains_cap: int) -> Any:
    """The C object for `pos`'s deal, as `search.native_lines` builds it, with these caps."""
    return module.Lines(*search.native_args(pos, escape_cap, gains_cap))


def windows(rng: random.Random, total: int) -> list[tuple[int, int]]:
    """Null windows (at nothing gained, just above, at random), a narrow one, a wide one and the whole."""
    out = [(-1, 0), (0, 1), (-5, total + 5)]
    for _ in range(2):
        b = rng.randrange(0, total + 2)
        out.append((b - 1, b))
    a = rng.randrange(-1, total + 1)
    out.append((a, a + rng.randrange(1, 6)))
    return out


def ask(
    module: ModuleType,
    pos: SearchBottle,
    rng: random.Random,
    caps: tuple[int, int],
    seats: list[int],
    where: str,
    whole: bool = True,
    gains: bool = True,
) -> tuple[list[str], int, int, Any]:
    """Every question of `seats` at `pos`, of one Python `Escape` and `Gains` (sharing the escape's tables, as the
    position's) and one C object: the differences, the questions, the nodes and the C object."""
    escape = Escape(pos, table_cap=caps[0])
    gainer = Gains(pos, escape, table_cap=caps[1])
    c = lines(module, pos, *caps)
    state = (pos.hands, pos.trick, pos.leader, pos.prices, pos.owners)
    diffs: list[str] = []
    asked = 0
    for seat in seats:
        questions: list[tuple[str, int, int]] = [("escapes", 0, 0)]
        if escape.counts_tricks and gains:
            questions.append(("gaining", 0, 0))
        if len(pos.prices) == 2:
            questions.append(("at most one", 0, 0))
        if not gains:
            pass
        elif whole:
            questions += [("gain", a, b) for a, b in windows(rng, pos.live_coins + 12)]
        else:  # from trick 1: null windows low down (a whole window there takes the Python classes minutes)
            questions += [("gain", -1, 0), ("gain", 0, 1), ("gain", 1, 2), ("gain", 2, 3)]
        rng.shuffle(questions)
        for what, a, b in questions:
            ASKED.add(what)
            if what == "gain":
                want: object = gainer.gain(seat, a, b)
                got: object = c.gain(*state, seat, a, b)
            elif what == "at most one":
                want = escape.escapes(seat, most=1)
                got = c.escapes(*state, seat, False, 1)
            else:
                want = escape.escapes(seat, gaining=what == "gaining") == 1
                got = c.escapes(*state, seat, what == "gaining")
            asked += 1
            py_nodes = escape.nodes + gainer.nodes
            if got != want or c.nodes != py_nodes or c.shared != escape.shared:
                diffs.append(f"{where} seat {seat} {what} ({a}, {b}): {got} {c.nodes} {c.shared} "
                             f"for {want} {py_nodes} {escape.shared}")  # fmt: skip
    return diffs, asked, escape.nodes + gainer.nodes, c


def compare(module: ModuleType, positions: int, hands: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    diffs: list[str] = []
    covered: dict[str, set[str]] = {"table": set(), "lying": set(), "caps": set(), "turned": set(), "hand": set()}
    compared = nodes = shared = 0
    for i in range(positions):
        variant, players, deck = TABLES[i % len(TABLES)]
        pos = dealt(variant, players, deck, seed * 1000 + i)
        left = rng.randrange(2, 5)  # tricks left (and some cards of the next lying), the Python classes' time kept low
        plays = pos.live.bit_count() - left * pos.per_trick - rng.randrange(pos.per_trick)
        for _ in range(plays):
            pos.play(rng.choice(pos.legal()))
        caps = rng.choice([(2, 8), (50, 200), (ESCAPE_CAP, GAINS_CAP)])
        found, asked, used, c = ask(module, pos, rng, caps, list(range(pos.n)), f"position {i} ({variant} {players})")
        diffs += found
        compared += asked
        nodes += used
        shared += c.shared
        covered["table"].add(f"{variant} {players}{' ' + deck if deck else ''}")
        covered["lying"].add(str(len(pos.trick)))
        covered["caps"].add(str(caps[0]))
        covered["turned"].add(str(any(old for _, old in c.sizes().values())))
    for h in range(hands):
        # three, four (and the 1995 deck) and five players, then Bright House
        variant, players, deck = TABLES[h % 4] if h < 4 or h % 2 else TABLES[-2]
        pos = dealt(variant, players, deck, seed * 1000 + 500 + h)
        # Whether each seat escapes, from trick 1 (one object, warm), and with four players whether he gains a coin
        # and two (elsewhere those can take the Python classes minutes).
        found, asked, used, c = ask(
            module, pos, rng, (20_000, 40_000), list(range(pos.n)), f"hand {h}", False, players in (2, 4)
        )
        diffs += found
        compared += asked
        nodes += used
        covered["hand"].add(f"{variant} {players}{' ' + deck if deck else ''}")
        covered["turned"].add(str(any(old for _, old in c.sizes().values())))
    covered["question"] = ASKED
    return {"module": module.__file__, "compared": compared, "nodes": nodes, "shared": shared, "diffs": diffs[:20],
            "ndiffs": len(diffs), "covered": {k: sorted(v) for k, v in covered.items()},
            "chosen": choices()}  # fmt: skip


def choices() -> dict[str, str]:
    """What `search.native_lines` gives each table: the C object's module, or the Python classes (None)."""
    out = {}
    for variant, players, name in [("classic", 4, ""), ("second-bottle", 5, ""), ("lopaka", 3, ""),
                                   ("bright-house", 2, ""), ("teams", 6, "")]:  # fmt: skip
        names = ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else NAMES[:players]
        opts = Options("bottle-imp", names, variant, hands=2, seed=3)
        (game,) = read_games("".join(simulate(opts)))
        found = played_hand(game, 1)
        if isinstance(found, str):  # Lopaka never deals
            found = played_hand(game, 2)
        assert not isinstance(found, str), found
        pos = found.position
        assert isinstance(pos, SearchBottle)
        chosen = search.native_lines(pos)
        out[f"{variant} {players}{name}"] = type(chosen).__module__ if chosen is not None else "None"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", help="the C module's file (default: the installed one)")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    json.dump(compare(load(args.module), args.positions, args.hands, args.seed), sys.stdout)
    print()


if __name__ == "__main__":
    main()
