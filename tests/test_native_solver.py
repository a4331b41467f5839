"""Botifarra's solver written in C (`imptools.rules.botifarra.csolver`, hatch_build.py `NATIVE`) against the Python
class it ports (`solver.Solver`): built wherever the build could build it, and visiting the very positions the Python
class visits, with the same values, on hundreds of random endgames (every trump and botifarra, every play rule,
partners and none, three and four players, both sides, null, narrow and wide windows, 0-3 cards in the trick, tables
of 4 entries and more) and on whole hands from trick 1 (generations turning over), each with partition entries off
and on (the same partition hits, buckets and their generations turning over too), and the same tables and helpers.

The comparison runs the installed package in a process of its own outside the tree (tests/native_solver_check.py).
Where the installed package is the source (an editable install), the C module is built from the source here, with
the compiler the build would use, so that the comparison still runs wherever there is a compiler.
"""

from __future__ import annotations

import json
import os
import platform
import sysconfig
from pathlib import Path

import pytest

from tests.test_compiled_search import (
    ROOT,
    build_native,
    can_compile,
    installed,
    native_origin,
    native_source,
    processor_info,
    says,
)

MODULE = "imptools.rules.botifarra.csolver"
SOURCE = native_source(MODULE)
CHECK = ROOT / "tests" / "native_solver_check.py"


def test_the_installed_c_solver_is_built_where_the_build_could_build_it(tmp_path: Path) -> None:
    editable, module = native_origin(MODULE, tmp_path)
    if os.environ.get("CI") and not can_compile():
        pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
    if editable or os.environ.get("IMPTOOLS_PURE") or not can_compile():
        assert module == "", module  # a pure install: the Python class serves
    else:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        assert module.endswith("botifarra/csolver" + suffix), f"the build could build the C solver: {module!r}"
        assert (Path(module).parent / "csolver.pyi").is_file()  # the stub ships beside it, for typed callers


def test_the_c_solver_visits_the_positions_of_the_python_class(tmp_path: Path) -> None:
    _, module = native_origin(MODULE, tmp_path)
    if not module:
        if not can_compile():
            pytest.skip("no C module installed and no compiler to build one")
        module = str(build_native(SOURCE, tmp_path))
    out = json.loads(installed([str(CHECK), "--module", module, "--endgames", "300", "--hands", "3"], tmp_path))
    assert out["module"] == module
    assert out["diffs"] == []
    assert out["compared"] >= 2 * 300 * 12  # partition entries off and on
    assert out["phits"] > 1000  # partition entries found and used (the same number in both)
    assert out["nodes"] > 500_000  # deep enough searches to tell any difference of order, bound or table
    covered = out["covered"]
    assert covered["trump"] == ["-1", "0", "1", "2", "3"]
    assert covered["rules"] == ["carregar", "lliure", "obligada"]
    assert covered["table"] == [
        "3 alone",
        "4 alone",
        "individual hand",
        "partnership",
        "partnership hand",
        "three hand",
    ]
    assert covered["lying"] == ["0", "1", "2", "3"]
    assert covered["side"] == ["alone", "the first seat's", "the other"]
    assert covered["to move"] == ["its side", "the others"]
    assert "True" in covered["turned"]
    assert covered["partition"] == ["False", "True"]
    assert "True" in covered["partition turned"]


def test_the_position_asks_the_c_solver_where_it_was_built(tmp_path: Path) -> None:
    """`position.new_solver` (what `answer` asks) gives the C class where the installed package has it, the Python
    class else."""
    _, module = native_origin(MODULE, tmp_path)
    printed = installed(
        ["-c", "from imptools.rules.botifarra.position import new_solver; "
         "s = new_solver('obligada', 0, [2, 3, 0, 1]); print(type(s).__module__, s.nodes)"],
        tmp_path,
    ).split()  # fmt: skip
    assert printed == ([MODULE, "0"] if module else ["imptools.rules.botifarra.solver", "0"])


def quick_pext(info: dict[str, str]) -> bool:
    """Whether the processor runs `pext` in hardware (hatch_build.py `fast_pext`): `bmi2`, and not an AMD one before
    Zen 3 (family 0x19) nor a Hygon one, whose microcode takes tens of times longer."""
    amd = info.get("vendor_id") in ("AuthenticAMD", "HygonGenuine")
    return "bmi2" in info.get("flags", "").split() and (not amd or int(info.get("cpu family", "0")) >= 0x19)


def says_pext(module: str, cwd: Path) -> bool:
    """`PEXT` of the C solver loaded from `module`, in a process of its own."""
    return says("PEXT", MODULE, module, cwd)


def test_keys_made_by_pext_visit_the_positions_of_the_python_class(tmp_path: Path) -> None:
    """Built with `-mbmi2` (hatch_build.py passes it where the processor's `pext` is quick), the C solver keys its
    table a hand a word with `pext` (`PEXT`) where it keys it a suit a word without: the positions sharing a key are
    the same, so both builds visit the very positions of the Python class (partition entries, which keep the suits'
    words, as well). Installed, it was built with it where the processor's `pext` is quick."""
    info = processor_info() or {}
    if platform.machine().lower() not in ("x86_64", "amd64") or "bmi2" not in info.get("flags", "").split():
        pytest.skip("not an x86-64 processor with bmi2: the solver is built without pext here")
    if not can_compile():
        if os.environ.get("CI"):
            pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
        pytest.skip("no compiler to build the C solver")
    for name, flags, pext in (("plain", (), False), ("pext", ("-mpopcnt", "-mbmi2"), True)):
        (tmp_path / name).mkdir()
        module = str(build_native(SOURCE, tmp_path / name, flags))
        assert says_pext(module, tmp_path) is pext
        out = json.loads(installed([str(CHECK), "--module", module, "--endgames", "150", "--hands", "3"], tmp_path))
        assert out["module"] == module and out["diffs"] == [], name
        assert out["nodes"] > 300_000 and out["covered"]["partition"] == ["False", "True"]
        assert "True" in out["covered"]["turned"]  # whole hands: the table's generations turned over
    editable, origin = native_origin(MODULE, tmp_path)
    if origin and not editable:
        assert says_pext(origin, tmp_path) is (quick_pext(info) and not os.environ.get("IMPTOOLS_PORTABLE"))
