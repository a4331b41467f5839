"""The Bottle Imp's `Escape` and `Gains` written in C (`imptools.rules.bottle_imp.cescape`, hatch_build.py `NATIVE`)
against the Python classes they port (escape.py): built wherever the build could build it, visiting the very positions
the Python classes visit with the same answers (and the same partition entries read with cards in their band), on
150 random positions of every table it ports (classic 3 to 6 players, the 1995 deck, the second bottle, the team
variants, and the two-pack games, Bright House with its open pack and the Eye of the Demon; 0 to 5 cards lying,
every seat, null, narrow and wide windows, tables of a few entries turning over and the usual ones) and on whole
hands from trick 1; and `search.native_lines` choosing it for those tables and the Python classes for Lopaka.

The comparison runs the installed package in a process of its own outside the tree (tests/native_escape_check.py).
Where the installed package is the source (an editable install), the C module is built from the source here, with
the compiler the build would use, so that the comparison still runs wherever there is a compiler.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from imptools.rules.bottle_imp.search import NATIVE_LINES, SearchBottle, native_lines
from tests.test_compiled_search import (
    ROOT,
    build_native,
    can_compile,
    installed,
    native_origin,
    native_source,
    simulated,
)

MODULE = "imptools.rules.bottle_imp.cescape"
SOURCE = native_source(MODULE)
CHECK = ROOT / "tests" / "native_escape_check.py"
PORTED = ["classic 4", "second-bottle 5", "teams 6", "bright-house 2"]
"""Tables `native_lines` gives the C object (the check's `choices`); Lopaka keeps the Python classes."""


def test_the_installed_c_escape_is_built_where_the_build_could_build_it(tmp_path: Path) -> None:
    editable, module = native_origin(MODULE, tmp_path)
    if os.environ.get("CI") and not can_compile():
        pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
    if editable or os.environ.get("IMPTOOLS_PURE") or not can_compile():
        assert module == "", module  # a pure install: the Python classes serve
    else:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        assert module.endswith("bottle_imp/cescape" + suffix), f"the build could build the C escape: {module!r}"
        assert (Path(module).parent / "cescape.pyi").is_file()  # the stub ships beside it, for typed callers


def test_the_c_escape_visits_the_positions_of_the_python_classes(tmp_path: Path) -> None:
    _, module = native_origin(MODULE, tmp_path)
    package = MODULE if module else "None"  # what the installed package's `native_lines` gives the ported tables
    if not module:
        if not can_compile():
            pytest.skip("no C module installed and no compiler to build one")
        module = str(build_native(SOURCE, tmp_path))
    out = json.loads(installed([str(CHECK), "--module", module, "--positions", "150", "--hands", "5"], tmp_path))
    assert out["module"] == module
    assert out["diffs"] == [], out["ndiffs"]
    assert out["compared"] >= 150 * 2 * 7  # every seat (2 to 6), escaping, gaining and six windows
    assert out["nodes"] > 1_000_000  # deep enough searches to tell any difference of order, bound or table
    assert out["shared"] > 1000  # partition entries read with cards in their band (the same number in both)
    covered = out["covered"]
    assert covered["question"] == ["at most one", "escapes", "gain", "gaining"]
    assert covered["table"] == [
        "bright-house 2",
        "classic 3",
        "classic 4",
        "classic 4 bambus-1995",
        "classic 5",
        "classic 6",
        "eye-of-the-demon 2",
        "second-bottle 5",
        "second-bottle 6",
        "teams 4",
        "teams 6",
        "teams-2-2-1-1 6",
    ]
    assert covered["hand"] == ["bright-house 2", "classic 3", "classic 4", "classic 4 bambus-1995", "classic 5"]
    assert covered["lying"] == ["0", "1", "2", "3", "4", "5"]
    assert covered["turned"] == ["False", "True"]  # generations turned over, and not
    chosen = out["chosen"]
    assert {t: chosen[t] for t in PORTED} == {t: package for t in PORTED}
    assert chosen["lopaka 3"] == "None"


def test_the_position_asks_the_c_escape_where_it_was_built() -> None:
    """In this process (the source tree: no C module unless it was built into it) `native_lines` gives the C object
    exactly where the module imports, and the position's answers come from the Python classes otherwise."""
    from imptools.analyse import played_hand
    from imptools.reader import read_games
    from imptools.simulate import Options, simulate

    (game,) = read_games("".join(simulate(Options("bottle-imp", ("Adam", "Betty", "Christian", "Doris"), seed=2))))
    found = played_hand(game, 1)
    assert not isinstance(found, str), found
    pos = found.position
    assert isinstance(pos, SearchBottle)
    lines = native_lines(pos)
    assert (lines is None) == (NATIVE_LINES is None)
    won = pos.answer("Adam", -1, 0)  # does Adam escape? (nothing won yet: 0 or the penalty)
    assert won in (0, -pos.penalty)
    assert pos.answer_nodes > 0


def test_ctrl_c_stops_a_long_analysis_at_once_without_a_traceback(tmp_path: Path) -> None:
    """A five-player hand whose proofs run for minutes (seed 1's hand 4: over 300 s of CPU in C), stopped with Ctrl-C
    once its search is under way: the installed `imp analyse` (its C searches where it has them) exits 130 within
    seconds, saying nothing of a traceback."""
    record = simulated(tmp_path, "five", 5, "classic", seed=1, hands=5)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    child = subprocess.Popen(
        [sys.executable, "-m", "imptools", "analyse", str(record), "--hand", "4", "--jobs", "1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a shell's background job ignores it
    )
    clock = os.sysconf("SC_CLK_TCK")
    cpu = 0.0
    while cpu < 4 and child.poll() is None:  # well into the hand's first proofs (the start-up takes about one)
        time.sleep(0.1)
        fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / clock
    assert child.poll() is None, "the hand ended before it could be interrupted"
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("Ctrl-C did not stop the analysis within 15 s")
    assert child.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"internal error" not in err, err.decode()
