"""Every `--json` document names its format and version, and real outputs meet the schemas the package ships."""

from __future__ import annotations

import copy
import importlib.resources
import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import imptools.cli.app
import imptools.cli.main
from imptools.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.imp"))
CONFORMANCE = ROOT / "tests" / "conformance"
RULEBOOK = CONFORMANCE / "bottle-imp" / "rulebook-example.imp"
# a selection of conformance records for the replay: the first clean and the first broken case of each folder
REPLAYED = [
    next(p for p in sorted((CONFORMANCE / folder).glob(f"*{kind}*.imp")))
    for folder in ("bottle-imp", "botifarra", "ninety-nine")
    for kind in ("clean", "record-")
] + sorted((CONFORMANCE / "slips").glob("*-bad-players-1.imp"))
FORMATS = ("imp-validate", "imp-score", "imp-export", "imp-replay", "imp-analyse")


def schema(fmt: str) -> dict[str, Any]:
    """The schema of `fmt` as the installed package ships it."""
    text = (importlib.resources.files("imptools") / "schemas" / f"{fmt}.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def problems(doc: Any) -> list[str]:
    """Where `doc` breaks the schema its `format` names (every document of imptools names one)."""
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt not in FORMATS:
        return [f"format {fmt!r}"]
    validator = jsonschema.Draft202012Validator(schema(fmt))
    return [f"{e.json_path}: {e.message[:160]}" for e in validator.iter_errors(doc)]


def imp(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, check=False
    )


def document(*args: str) -> Any:
    run = imp(*args)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def in_process(*args: str) -> Any:
    out = CliRunner().invoke(app, list(args))
    assert out.exit_code in (0, 1), out.output
    return json.loads(out.output)


# --------------------------------------------------------------------------- the schemas themselves


def test_the_shipped_schemas_are_what_the_script_writes() -> None:
    spec = importlib.util.spec_from_file_location("json_schemas", ROOT / "scripts" / "json_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files: dict[str, str] = module.rendered()
    assert sorted(files) == sorted(f"{fmt}.json" for fmt in FORMATS)
    for name, text in files.items():
        assert (ROOT / "imptools" / "schemas" / name).read_text("utf-8") == text, (
            f"{name}: run python scripts/json_schemas.py"
        )


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_schema_is_a_draft_2020_12_schema_of_its_format(fmt: str) -> None:
    s = schema(fmt)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(s)
    assert s["properties"]["format"] == {"const": fmt} and s["properties"]["version"] == {"const": 1}
    assert {"format", "version"} <= set(s["required"]) and s["additionalProperties"] is False


# --------------------------------------------------------------------------- real outputs


def test_validate_score_and_export_of_every_sample_and_conformance_record() -> None:
    records = [str(p) for p in SAMPLES + sorted(CONFORMANCE.rglob("*.imp"))]
    for command, fmt in (("validate", "imp-validate"), ("score", "imp-score")):
        doc = document(command, "--json", *records)
        assert (doc["format"], doc["version"]) == (fmt, 1)
        assert problems(doc) == [], command
        assert len(doc["games"] if command == "score" else doc["findings"]) > 200  # the records were all there
    # the record model is long to check: the samples and every fifth conformance record (slips among them)
    chosen = [str(p) for p in SAMPLES] + records[len(SAMPLES) :: 5]
    doc = document("export", "--json", *chosen)
    assert (doc["format"], doc["version"]) == ("imp-export", 1)
    assert problems(doc) == [] and len(doc["games"]) >= len(chosen)
    one = document("validate", "--json", str(SAMPLES[0]))
    assert list(one)[:2] == ["format", "version"] and one["summary"]["files"] == 1


@pytest.mark.parametrize("path", SAMPLES + REPLAYED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replay_json_of_samples_and_conformance_records(path: Path) -> None:
    doc = in_process("replay", "--json", str(path))
    assert (doc["format"], doc["version"]) == ("imp-replay", 1)
    assert problems(doc) == []
    assert doc["games"]
    if "bad-players" not in path.name:  # a game whose players are wrong has no hand to step through
        assert any(h["steps"] for g in doc["games"] for h in g["hands"])


def test_analyse_of_a_late_endgame_and_its_replay() -> None:
    doc = in_process("analyse", str(RULEBOOK), "--from-trick", "7", "--json", "--jobs", "1")
    assert (doc["format"], doc["version"]) == ("imp-analyse", 1)
    assert problems(doc) == []
    (hand,) = doc["analyses"]
    assert hand["from_trick"] == 7 and {p["trick"] for p in hand["plays"]} == {7, 8}
    replayed = in_process("replay", str(RULEBOOK), "--analyse", "--from-trick", "8", "--json", "-j", "1")
    assert problems(replayed) == []
    assert any("analysis" in step for step in replayed["games"][0]["hands"][0]["steps"])
    knew = in_process("analyse", str(RULEBOOK), "--from-trick", "8", "--json", "-j", "1", "--knowing")
    assert problems(knew) == []
    assert all(p["knowing"]["worlds"] >= 1 for p in knew["analyses"][0]["plays"])
    knew["analyses"][0]["plays"][0]["knowing"]["cost"] = -1
    assert problems(knew) != []  # a cost on what the player knew is never negative


def test_analyse_of_a_hand_that_cannot_be_analysed_says_why() -> None:
    text = '[Game "bottle-imp"]\n[Players "Adam Betty Christian Doris"]\nhand 1\n1. 24 15 17 32\n'
    out = CliRunner().invoke(app, ["analyse", "-", "--json", "--jobs", "1"], input=text)
    doc = json.loads(out.output)
    assert problems(doc) == []
    assert "not all known" in doc["analyses"][0]["skipped"]


@pytest.mark.parametrize(("game", "players"), [("bottle-imp", "4"), ("botifarra", "4"), ("ninety-nine", "3")])
def test_simulated_records_through_every_json_command(game: str, players: str, tmp_path: Path) -> None:
    sim = imp("simulate", "-g", game, "-p", players, "-n", "3", "--seed", "11")
    assert sim.returncode == 0, sim.stderr
    record = tmp_path / f"{game}.imp"
    record.write_text(sim.stdout, encoding="utf-8")
    for command in ("validate", "score", "export", "replay"):
        doc = document(command, "--json", str(record))
        assert doc["format"] == f"imp-{command}"
        assert problems(doc) == [], command
    assert document("validate", "--json", str(record))["summary"]["errors"] == 0
    exported = imp("export", "--json", str(record))
    back = imp("import", "-", stdin=exported.stdout)
    assert back.returncode == 0 and back.stdout == imp("fmt", str(record)).stdout


def test_the_documents_written_when_imptools_fails_meet_their_schemas(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("planted")

    for argv, target in (
        (["imp", "validate", "--json", "x.imp"], (imptools.cli.main, "plain_validate")),
        (["imp", "score", "--json", "x.imp"], (imptools.cli.app, "app")),
    ):
        with monkeypatch.context() as m:
            m.setattr(*target, broken)
            m.setattr(sys, "argv", argv)
            with pytest.raises(SystemExit) as exit_:
                imptools.cli.main.main()
        assert exit_.value.code == 3
        doc = json.loads(capsysbinary.readouterr().out)
        assert doc["format"] == f"imp-{argv[1]}" and problems(doc) == []
        assert "planted" in json.dumps(doc)


# --------------------------------------------------------------------------- the schemas refuse a wrong document


def _tamperings(fmt: str) -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
    def drop(path: list[Any], key: str) -> Callable[[dict[str, Any]], None]:
        return lambda d: _at(d, path).pop(key)

    def put(path: list[Any], key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: _at(d, path).__setitem__(key, value)

    common = [
        ("no format", drop([], "format")),
        ("another format", put([], "format", "imp-other")),
        ("version 2", put([], "version", 2)),
        ("a key no format has", put([], "extra", True)),
    ]
    specific = {
        "imp-validate": [
            ("a finding without its code", drop(["findings", 0], "code")),
            ("a severity that is neither", put(["findings", 0], "severity", "fatal")),
            ("a line number as text", put(["findings", 0], "line", "12")),
            ("a summary count below zero", put(["summary"], "errors", -1)),
        ],
        "imp-score": [
            ("a score as text", put(["games", 0, "hands", 0, "scores"], "Adam", "15")),
            ("a hand without complete", drop(["games", 0, "hands", 0], "complete")),
            ("players as one string", put(["games", 0], "players", "Adam Betty")),
        ],
        "imp-export": [
            ("an element of an unknown type", put(["games", 0, "hands", 0], "type", "Round")),
            ("a hand number as text", put(["games", 0, "hands", 0], "number", "1")),
            ("a game without its line", drop(["games", 0], "line")),
        ],
        "imp-replay": [
            ("an event of an unknown kind", put(["games", 0, "hands", 0, "steps", 0, "event"], "kind", "shuffle")),
            ("a state without holdings", drop(["games", 0, "hands", 0, "steps", 0, "state"], "holdings")),
            ("a step with an unknown key", put(["games", 0, "hands", 0, "steps", 0], "comment", "x")),
        ],
        "imp-analyse": [
            ("a negative cost", put(["analyses", 0, "plays", 0], "cost", -3)),
            ("a mark that is no mark", put(["analyses", 0, "plays", 0], "mark", "!")),
            ("a play without its card", drop(["analyses", 0, "plays", 0], "card")),
        ],
    }
    return common + specific[fmt]


def _at(doc: Any, path: list[Any]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _real(fmt: str) -> dict[str, Any]:
    thursday = str(ROOT / "samples" / "thursday-club.imp")
    if fmt == "imp-analyse":
        doc: dict[str, Any] = in_process("analyse", str(RULEBOOK), "--from-trick", "8", "--json", "-j", "1")
    elif fmt == "imp-replay":
        doc = in_process("replay", "--json", thursday)
    else:
        doc = document(fmt.removeprefix("imp-"), "--json", str(ROOT / "samples" / "with-mistakes.imp"), thursday)
    return doc


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_tampered_document_fails_its_schema(fmt: str) -> None:
    real = _real(fmt)
    assert problems(real) == []
    for what, tamper in _tamperings(fmt):
        doc = copy.deepcopy(real)
        tamper(doc)
        validator = jsonschema.Draft202012Validator(schema(fmt))
        assert not validator.is_valid(doc), what


def test_json_is_one_document_on_stdout() -> None:
    """The format keys come first, so a reader can tell the document from its first lines."""
    head = io.StringIO(imp("score", "--json", str(SAMPLES[0])).stdout).readlines()[:3]
    assert [line.strip() for line in head] == ["{", '"format": "imp-score",', '"version": 1,']
