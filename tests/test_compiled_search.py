"""The search as installed: compiled with mypyc where the build could compile it (hatch_build.py), else the source.

The suite runs on the source tree (`python -m pytest` puts it first on the path). These tests run the installed
package in a process of its own, outside the tree, and check that it is compiled wherever the build had what it
needs, and that it gives every value and cost the source gives.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from imptools.analyse import analyse_hand
from imptools.parallel import POOL_FROM
from imptools.reader import read_games
from imptools.simulate import Options, simulate

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "thursday-club.imp"
NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")


def installed(args: list[str], cwd: Path) -> str:
    """What the installed package prints, run outside the source tree (`-c` or `-m` put `cwd` first on the path)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout


def can_compile() -> bool:
    """Whether the build hook had a C compiler and the Python headers (mypyc and setuptools come with the build)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.exists()


def native_origin(module: str, cwd: Path) -> tuple[bool, str]:
    """Whether the installed package is the source tree (editable), and the file of its C module `module` ('' where
    it has none: hatch_build.py `NATIVE`)."""
    printed = installed(
        ["-c", f"import imptools, importlib.util as u; s = u.find_spec({module!r}); "
         "print(imptools.__file__); print(s.origin if s else '')"],
        cwd,
    ).splitlines()  # fmt: skip
    editable = Path(printed[0]).resolve().parent == ROOT / "imptools"
    return editable, printed[1] if len(printed) > 1 else ""


def build_native(source: Path, target: Path, extra: tuple[str, ...] = ()) -> Path:
    """The C module of `source` built on its own into `target`, as the build hook builds it (`-O3`, the interpreter's
    compiler, flags and headers; `extra` for the processor's, which change no position)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    flags = (sysconfig.get_config_var("CCSHARED") or "-fPIC").split()
    out = target / (source.stem + str(sysconfig.get_config_var("EXT_SUFFIX")))
    include = sysconfig.get_paths()["include"]
    run = subprocess.run(
        [*cc, *flags, "-O3", *extra, "-shared", f"-I{include}", str(source), "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    return out


def test_the_installed_search_is_compiled_where_the_build_could_compile_it(tmp_path: Path) -> None:
    package, search, escape = installed(
        [
            "-c",
            "import imptools, imptools.rules.bottle_imp.search as s, imptools.rules.bottle_imp.escape as e; "
            "print(imptools.__file__); print(s.__file__); print(e.__file__)",
        ],
        tmp_path,
    ).split()
    editable = Path(package).resolve().parent == ROOT / "imptools"  # the source tree itself, never compiled
    if os.environ.get("CI") and not can_compile():
        # Elsewhere the plain Python search is checked instead; CI must check the compiled one.
        pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
    if editable or os.environ.get("IMPTOOLS_PURE") or not can_compile():
        assert search.endswith("bottle_imp/search.py"), search
        assert escape.endswith("bottle_imp/escape.py"), escape
    else:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        assert search.endswith("bottle_imp/search" + suffix), f"the build could compile the search: {search}"
        assert escape.endswith("bottle_imp/escape" + suffix), f"the build could compile the search: {escape}"


@pytest.mark.parametrize(
    "module",
    [
        "imptools.rules.botifarra.position",
        "imptools.rules.botifarra.solver",
        "imptools.rules.botifarra.duel",
        "imptools.rules.ninety_nine.search",
    ],
)
def test_the_installed_solver_is_compiled_where_the_build_could_compile_it(tmp_path: Path, module: str) -> None:
    """Every game's search is compiled: Botifarra's solvers (four players and two) and Ninety-nine's position."""
    package, solver = installed(
        ["-c", f"import imptools, {module} as m; print(imptools.__file__); print(m.__file__)"], tmp_path
    ).split()
    editable = Path(package).resolve().parent == ROOT / "imptools"  # the source tree itself, never compiled
    name = module.rpartition(".")[2]
    if editable or os.environ.get("IMPTOOLS_PURE") or not can_compile():
        assert solver.endswith(f"{name}.py"), solver
    else:
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        assert solver.endswith(name + suffix), f"the build could compile the solver: {solver}"


NATIVE = ("imptools.rules.botifarra.csolver", "imptools.rules.botifarra.cduel", "imptools.rules.bottle_imp.cescape")
"""The C modules (hatch_build.py `NATIVE`)."""


def native_source(module: str) -> Path:
    """The C source of the C module `module`, beside where its Python module would be."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".c")


def processor_info() -> dict[str, str] | None:
    """The first processor's fields in Linux's `/proc/cpuinfo` (`flags`, `vendor_id`, `cpu family`); None where
    there is no such file."""
    try:
        lines = Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
    except OSError:
        return None
    fields = [line.partition(":") for line in itertools.takewhile(str.strip, lines)]
    return {name.strip(): value.strip() for name, _, value in fields}


def processor_counts_bits() -> bool | None:
    """Whether this processor counts a word's bits in one instruction the build targets (hatch_build.py
    `processor_flags`): every ARM64 one, an x86-64 one whose Linux flags say `popcnt`; None where it cannot tell."""
    machine = platform.machine().lower()
    if machine in ("aarch64", "arm64"):
        return True
    if machine not in ("x86_64", "amd64"):
        return False
    info = processor_info()
    if info is None or "flags" not in info:
        return None
    return "popcnt" in info["flags"].split()


def says(flag: str, module: str, path: str, cwd: Path) -> bool:
    """The boolean `flag` (`POPCNT`, `PEXT`) of the C module `module` loaded from `path`, in a process of its own."""
    code = (
        "import importlib.util as u, sys; s = u.spec_from_file_location(sys.argv[1], sys.argv[2]); "
        "m = u.module_from_spec(s); s.loader.exec_module(m); print(getattr(m, sys.argv[3]))"
    )
    printed = installed(["-c", code, module, path, flag], cwd).strip()
    assert printed in ("True", "False"), printed
    return printed == "True"


def says_popcnt(module: str, path: str, cwd: Path) -> bool:
    """`POPCNT` of the C module `module` loaded from `path`, in a process of its own."""
    return says("POPCNT", module, path, cwd)


@pytest.mark.parametrize("module", NATIVE)
def test_the_c_modules_count_bits_in_one_instruction_where_the_build_targets_one(tmp_path: Path, module: str) -> None:
    """Built for an x86-64 processor with `popcnt` (`-mpopcnt`), a C module counts bits by the instruction and says
    so (`POPCNT`); built for any x86-64 processor, by halves. Installed, it is built for the processor that built it,
    unless `IMPTOOLS_PORTABLE` asked for any (hatch_build.py): Botifarra's solver is about a sixth slower without."""
    if not can_compile():
        if os.environ.get("CI"):
            pytest.fail("needs a C compiler and the Python headers (Debian packages gcc python3-dev); CI installs them")
        pytest.skip("no compiler to build the C modules")
    has = processor_counts_bits()
    x86 = platform.machine().lower() in ("x86_64", "amd64")
    (tmp_path / "plain").mkdir()
    plain = build_native(native_source(module), tmp_path / "plain")
    assert says_popcnt(module, str(plain), tmp_path) is (not x86)
    if x86:
        (tmp_path / "targeted").mkdir()
        targeted = build_native(native_source(module), tmp_path / "targeted", ("-mpopcnt",))
        assert says_popcnt(module, str(targeted), tmp_path) is True
    editable, origin = native_origin(module, tmp_path)
    if origin and not editable and has is not None:
        assert says_popcnt(module, origin, tmp_path) is (has and not os.environ.get("IMPTOOLS_PORTABLE"))


def simulated(
    tmp_path: Path, name: str, players: int, variant: str | None, seed: int, hands: int, deck: str = ""
) -> Path:
    names = ("Keawe", "Kokua", "Lopaka") if variant == "lopaka" else NAMES[:players]
    tags = (("Deck", deck),) if deck else ()
    path = tmp_path / f"{name}.imp"
    path.write_text("".join(simulate(Options("bottle-imp", names, variant, hands=hands, seed=seed, tags=tags))))
    return path


def ninety_nine(tmp_path: Path, seed: int) -> Path:
    path = tmp_path / f"ninety-nine-{seed}.imp"
    path.write_text("".join(simulate(Options("ninety-nine", NAMES[:3], hands=2, seed=seed))))
    return path


def botifarra(tmp_path: Path, name: str, players: int, variant: str, seed: int, teams: bool = True) -> Path:
    tags = () if teams else (("Teams", "none"),)
    path = tmp_path / f"{name}.imp"
    path.write_text("".join(simulate(Options("botifarra", NAMES[:players], variant, hands=2, seed=seed, tags=tags))))
    return path


def test_the_installed_search_gives_the_values_of_the_source(tmp_path: Path) -> None:
    records = [
        (SAMPLE, 5),
        (simulated(tmp_path, "four", 4, None, 1, 3), 3),
        (simulated(tmp_path, "deck1995", 4, None, 4, 2, deck="1995"), 4),
        (simulated(tmp_path, "three", 3, None, 2, 2), 5),
        (simulated(tmp_path, "lopaka", 3, "lopaka", 3, 2), 6),
        (simulated(tmp_path, "five", 5, "second-bottle", 5, 2), 7),
        (simulated(tmp_path, "six", 6, None, 6, 1), 6),
        (botifarra(tmp_path, "obligada", 4, "obligada", 1), 8),
        (botifarra(tmp_path, "lliure", 4, "lliure", 2), 9),
        (botifarra(tmp_path, "carregar", 4, "carregar", 3), 8),
        (botifarra(tmp_path, "individual", 4, "obligada", 4, teams=False), 8),
        (botifarra(tmp_path, "three", 3, "obligada", 5), 11),
        (botifarra(tmp_path, "rector-vicar", 2, "rector-vicar", 6), 10),
        (botifarra(tmp_path, "piles-and-hand", 2, "piles-and-hand", 7), 10),
        (ninety_nine(tmp_path, 7), 1),
    ]
    for path, from_trick in records:
        out = installed(
            ["-m", "imptools", "analyse", str(path), "--json", "--jobs", "1", "--from-trick", str(from_trick)], tmp_path
        )
        got = [dict(a, path=None) for a in json.loads(out)["analyses"]]
        games = list(read_games(path.read_text()))
        want = [dict(analyse_hand(g, h.number, from_trick).to_dict(), path=None) for g in games for h in g.hands]
        assert got == want, path.name
        assert sum(len(a["plays"]) for a in got) > 0, path.name


# --------------------------------------------------------------------------- the reader and the rules, compiled

CONFORMANCE = ROOT.parent / "shared" / "conformance"


def records() -> list[Path]:
    """Every conformance case and every sample: the records the compiled reader and rules must read alike."""
    cases = sorted(CONFORMANCE.glob("*/*.imp")) if CONFORMANCE.is_dir() else []
    return cases + sorted((ROOT / "samples").glob("*.imp"))


def imp(args: list[str], cwd: Path, source: bool) -> tuple[int, bytes]:
    """Exit status and stdout of `imp ARGS`: the installed package's (from outside the tree) or the source's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if source:
        env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run([sys.executable, "-m", "imptools", *args], cwd=cwd, env=env, capture_output=True, timeout=900)
    assert run.returncode in (0, 1, 2), run.stderr.decode()
    return run.returncode, run.stdout


def test_the_installed_reader_and_rules_are_compiled_where_the_build_could_compile_them(tmp_path: Path) -> None:
    modules = ["imptools.fastpath", "imptools.record", "imptools.reader", "imptools.rules.template"]
    modules += ["imptools.rules.bottle_imp.ruleset"]
    printed = installed(["-c", f"import imptools, {', '.join(modules)}; print(imptools.__file__)"
                         + "".join(f"; print({m}.__file__)" for m in modules)], tmp_path).split()  # fmt: skip
    package, files = printed[0], printed[1:]
    editable = Path(package).resolve().parent == ROOT / "imptools"
    compiled = not (editable or os.environ.get("IMPTOOLS_PURE") or not can_compile())
    suffix = sysconfig.get_config_var("EXT_SUFFIX") if compiled else ".py"
    assert all(f.endswith(suffix) for f in files), files


@pytest.mark.parametrize("command", ["score", "validate"])
def test_the_installed_package_judges_every_record_as_the_source_does(tmp_path: Path, command: str) -> None:
    paths = [str(p) for p in records()]
    assert len(paths) > 20 if CONFORMANCE.is_dir() else len(paths) > 10
    args = [command, "--json", "--jobs", "1", *paths]
    installed_status, installed_out = imp(args, tmp_path, source=False)
    source_status, source_out = imp(args, tmp_path, source=True)
    assert installed_status == source_status
    assert installed_out == source_out
    document = json.loads(source_out)
    if command == "score":
        assert sum(len(g["hands"]) for g in document["games"]) > 100 and not document["internal"]
    else:
        assert len(document["findings"]) > 100 and document["summary"]["internal"] == 0


def test_the_installed_package_judges_on_two_processes_as_the_source_on_one(tmp_path: Path) -> None:
    """Games judged in worker processes come back pickled: the compiled model must cross as the pure one does."""
    big = tmp_path / "season.imp"
    games = [simulated(tmp_path, f"night{i}", 4, None, 10 + i, 4).read_text() for i in range(4)]
    big.write_text("\n".join(games * 120))  # over the size from which a file is cut into pieces for the workers
    assert big.stat().st_size > POOL_FROM
    _, two = imp(["score", "--json", "--jobs", "2", str(big)], tmp_path, source=False)
    _, one = imp(["score", "--json", "--jobs", "1", str(big)], tmp_path, source=True)
    assert two == one
    assert sum(len(g["hands"]) for g in json.loads(one)["games"]) == 4 * 4 * 120
