"""Build hook: compile the hot modules with mypyc where a C compiler is at hand.

mypyc compiles the very same typed Python source into a C extension (about three times
faster for `imp analyse`, about twice for `imp score`: docs/PERFORMANCE.md). It is optional: where there is no compiler,
no Python headers, or mypyc fails for any other reason, the wheel holds the Python
modules alone and everything works the same, only slower. `IMPTOOLS_PURE=1` asks for
the pure wheel; an editable install is always pure. The build's mypy is held to the minor release
the compiled search was tested with (`[build-system]` in pyproject.toml), so that a new mypy cannot
quietly turn the install into the pure one.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = [
    "imptools/rules/bottle_imp/search.py",
    "imptools/rules/bottle_imp/escape.py",
    "imptools/rules/bottle_imp/order.py",
    "imptools/rules/hashing.py",
    "imptools/rules/botifarra/masks.py",
    "imptools/rules/botifarra/solver.py",
    "imptools/rules/botifarra/duel.py",
    "imptools/rules/botifarra/position.py",
    "imptools/fastpath.py",
    "imptools/record.py",
    "imptools/reader.py",
    "imptools/slips.py",
    "imptools/rules/template.py",
    "imptools/rules/readings.py",
    "imptools/rules/tricks.py",
    "imptools/rules/holdings.py",
    "imptools/rules/checks.py",
    "imptools/rules/report.py",
    "imptools/rules/exchange.py",
    "imptools/rules/bottle_imp/ruleset.py",
    "imptools/rules/bottle_imp/setup.py",
    "imptools/rules/bottle_imp/cards.py",
    "imptools/rules/bottle_imp/bottles.py",
    "imptools/rules/botifarra/judging.py",
    "imptools/rules/ninety_nine/judging.py",
    "imptools/rules/ninety_nine/cards.py",
    "imptools/rules/ninety_nine/search.py",
]
"""The modules compiled: the Bottle Imp's search position, its escape and coin searches, Botifarra's solvers and
Ninety-nine's search position, where nearly all of a hand's analysis runs (every game's search); the reader's fast
path, the record model, the slips' pass, the shared judging walk with The Bottle Imp's ruleset, and Botifarra's and
Ninety-nine's judging walks, where `imp validate` and `imp score` spend their time (docs/PERFORMANCE.md)."""

NATIVE: list[tuple[str, str]] = [
    ("imptools.rules.botifarra.csolver", "imptools/rules/botifarra/csolver.c"),
    ("imptools.rules.botifarra.cduel", "imptools/rules/botifarra/cduel.c"),
    ("imptools.rules.bottle_imp.cescape", "imptools/rules/bottle_imp/cescape.c"),
]
"""The search cores written in C, as (module, source): each is a line-by-line port of a compiled module's search, built
beside the mypyc modules (the same compiler, the same all-or-nothing wheel) and chosen by its Python module where it was
built (it visits the very positions the Python search visits, in the same order, and gives the same values)."""

GROUP = "imptools.rules.bottle_imp.compiled"
"""The compiled modules' shared library, `compiled__mypyc` beside them (mypyc names one after the modules' hash, at the
top of site-packages, unless told)."""

SETUP = f"""
import json
import sys
from setuptools import Extension, setup
from mypyc.build import mypycify

GROUP = {GROUP!r}

(native, flags), modules, target = json.loads(sys.argv[1]), sys.argv[2:-1], sys.argv[-1]
setup(
    name="imptools-compiled",
    packages=[],
    py_modules=[],
    ext_modules=mypycify(
        ["--ignore-missing-imports", *modules], target_dir=target + "/c", opt_level="3", group_name=GROUP
    )
    + [Extension(name, [source], extra_compile_args=["-O3", *flags]) for name, source in native],
    script_args=["build_ext", "--build-lib", target + "/lib", "--build-temp", target + "/tmp"],
)
"""


def processor_flags() -> list[str]:
    """The C modules' flags for the processor that builds them: `-mpopcnt` on an x86-64 processor that has the
    instruction (the C searches count cards with it; without it, by halves: Botifarra's solver is about a sixth
    slower, docs/PERFORMANCE.md), and `-mbmi2` on one whose `pext` is quick (`fast_pext`: Botifarra's solver makes
    its table's keys with it, an eighth fewer of its instructions); none where `IMPTOOLS_PORTABLE` asks for a
    wheel that runs on every x86-64 processor, nor where the processor cannot be told. An ARM processor counts bits
    in one instruction anyway."""
    if os.environ.get("IMPTOOLS_PORTABLE") or sys.platform == "win32":  # MSVC takes no such flag
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    info = processor_info()
    features = set(info.get("flags", "").lower().split())
    return ["-mpopcnt"] * ("popcnt" in features) + ["-mbmi2"] * fast_pext(info, features)


def fast_pext(info: dict[str, str], features: set[str]) -> bool:
    """Whether the processor runs `pext` (`bmi2`) in hardware: every one that has it but AMD's before Zen 3
    (family 0x19) and Hygon's (built on Zen 1), which run it in microcode, tens of times slower than the table
    look-ups it replaces."""
    if "bmi2" not in features:
        return False
    if info.get("vendor_id") not in ("AuthenticAMD", "HygonGenuine"):
        return True
    try:
        return int(info.get("cpu family", "0")) >= 0x19
    except ValueError:
        return False


def processor_info() -> dict[str, str]:
    """What the first processor says of itself: Linux's `/proc/cpuinfo` fields (`flags`, `vendor_id`, `cpu
    family`), or on macOS its `machdep.cpu.features` as `flags` (empty where neither answers)."""
    try:
        lines = Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
    except OSError:
        lines = []
    info: dict[str, str] = {}
    for line in lines:
        if not line.strip():
            break  # the first processor's fields end at the first blank line
        name, _, value = line.partition(":")
        info[name.strip()] = value.strip()
    if info or sys.platform != "darwin":
        return info
    try:
        run = subprocess.run(["sysctl", "-n", "machdep.cpu.features"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return {}
    return {"flags": run.stdout}


class CompileSearch(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled modules to a standard wheel, or says why the wheel stays pure Python."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or os.environ.get("IMPTOOLS_PURE"):
            return
        why = self._missing()
        if why is None:
            work = Path(tempfile.mkdtemp(prefix="imptools-mypyc-"))
            self._work = work
            flags = processor_flags()
            run = subprocess.run(
                [sys.executable, "-c", SETUP, json.dumps([NATIVE, flags]), *COMPILED, str(work)],
                cwd=self.root,
                capture_output=True,
                text=True,
            )
            built = sorted((work / "lib").rglob("*.so")) + sorted((work / "lib").rglob("*.pyd"))
            if run.returncode == 0 and built:
                for path in built:
                    build_data["force_include"][str(path)] = path.relative_to(work / "lib").as_posix()
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                self.app.display_info(f"imptools: compiled {', '.join(COMPILED)} with mypyc")
                if NATIVE:
                    built_with = " ".join(["-O3", *flags])
                    self.app.display_info(f"imptools: compiled {', '.join(s for _, s in NATIVE)} ({built_with})")
                return
            why = "mypyc failed: " + (run.stderr.strip().splitlines() or ["no output"])[-1]
        slower = "`imp analyse`, `imp validate` and `imp score` are slower"
        self.app.display_warning(f"imptools: installing the pure Python modules ({why}); {slower}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    @staticmethod
    def _missing() -> str | None:
        """Why mypyc cannot run here, or None."""
        compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
        if shutil.which(compiler) is None:
            return f"no C compiler ({compiler})"
        if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
            return "no Python headers (Python.h)"
        try:
            import mypyc  # noqa: F401
            import setuptools  # noqa: F401
        except ImportError as e:
            return f"{e.name} is not installed"
        return None
