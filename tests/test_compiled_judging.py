"""Botifarra's and Ninety-nine's judging as installed: compiled with mypyc where the build could (hatch_build.py),
and judging every record as the source does.

The suite runs on the source tree; these tests run the installed package in a process of its own, outside the
tree (as tests/test_compiled_search.py does for the searches).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from random import Random

from test_compiled_search import ROOT, can_compile, installed

from imptools.check import judge_game
from imptools.reader import read_games
from imptools.simulate import Options, simulate

MODULES = ("botifarra.judging", "ninety_nine.judging", "ninety_nine.cards")


def test_the_installed_judging_is_compiled_where_the_build_could_compile_it(tmp_path: Path) -> None:
    names = ", ".join(f"imptools.rules.{m}" for m in MODULES)
    code = f"import imptools, {names}; print(imptools.__file__); " + "; ".join(
        f"print(imptools.rules.{m}.__file__)" for m in MODULES
    )
    package, *files = installed(["-c", code], tmp_path).split()
    editable = Path(package).resolve().parent == ROOT / "imptools"  # the source tree itself, never compiled
    compiled = not (editable or os.environ.get("IMPTOOLS_PURE") or not can_compile())
    suffix = sysconfig.get_config_var("EXT_SUFFIX") if compiled else ".py"
    for module, file in zip(MODULES, files):
        assert file.endswith(module.replace(".", "/") + suffix), (module, file)


def shuffled_plays(text: str, seed: int) -> str:
    """The record with a few played cards swapped between tricks of a hand: broken play rules, cards not held."""
    rng = Random(seed)
    lines = text.split("\n")
    tricks = [k for k, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    for _ in range(len(tricks) // 6):
        a, b = rng.sample(tricks, 2)
        ta, tb = lines[a].split(), lines[b].split()
        i, j = rng.randrange(1, len(ta)), rng.randrange(1, len(tb))
        ca, cb = ta[i].split(":")[-1], tb[j].split(":")[-1]
        ta[i], tb[j] = ta[i][: len(ta[i]) - len(ca)] + cb, tb[j][: len(tb[j]) - len(cb)] + ca
        lines[a], lines[b] = " ".join(ta), " ".join(tb)
    return "\n".join(lines)


def test_the_installed_judging_finds_what_the_source_finds(tmp_path: Path) -> None:
    tables = [
        ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), "obligada", ()),
        ("botifarra", ("Ana", "Bernat", "Carles", "Dolors"), "carregar", (("Teams", "none"),)),
        ("botifarra", ("Ana", "Bernat", "Carles"), "lliure", ()),
        ("ninety-nine", ("Al", "Bo", "Cy"), None, ()),
    ]
    for n, (game, players, variant, tags) in enumerate(tables):
        text = "".join(simulate(Options(game, players, variant, 8, 40 + n, "random", True, True, tags)))
        path = tmp_path / f"{game}-{n}.imp"
        path.write_text(shuffled_plays(text, n), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        args = [sys.executable, "-m", "imptools", "validate", "--json", "--jobs", "1", str(path)]
        run = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 1, run.stderr  # the records break the rules
        got = [(f["code"], f["line"], f["column"], f["message"]) for f in json.loads(run.stdout)["findings"]]
        want = [(f.code, f.line, f.column, f.message) for g in read_games(path) for f in judge_game(g).all_findings()]
        assert got == want, path.name
        assert any(code in ("revoke", "must-beat", "must-trump", "must-play-low") for code, *_ in got), path.name


def test_the_installed_export_and_import_give_back_every_file_byte_for_byte(tmp_path: Path) -> None:
    """The record classes compiled (mypyc keeps a field's outer class alone as its hint) still read an export back."""
    text = "".join(simulate(Options("bottle-imp", ("Adam", "Betty", "Christian", "Doris"), None, 3, 7, "random", True)))
    lines = shuffled_plays(text, 3).split("\n")
    lines.insert(next(k for k, line in enumerate(lines) if line.startswith("2. ")), "2, 17 24 q33 {unclosed")
    samples = {
        "simulated.imp": text,
        "slips.imp": "\n".join(lines),
        "thursday.imp": (ROOT / "samples" / "thursday-club.imp").read_text(encoding="utf-8"),
    }
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name, content in samples.items():
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8"))
        exported = tmp_path / (name + ".json")
        run = subprocess.run(
            [sys.executable, "-m", "imptools", "export", "--json", str(path)],
            cwd=tmp_path, env=env, capture_output=True, timeout=600,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        exported.write_bytes(run.stdout)
        back = subprocess.run(
            [sys.executable, "-m", "imptools", "import", str(exported)],
            cwd=tmp_path, env=env, capture_output=True, timeout=600,
        )  # fmt: skip
        assert back.returncode == 0, (name, back.stderr.decode())
        assert back.stdout == path.read_bytes(), name
