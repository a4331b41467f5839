"""The canonical writer (`imp fmt`) and the JSON export/import round trip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from imptools.reader import read_games
from imptools.writer import RecordJSONError, format_games, games_from_json, games_to_json

CONFORMANCE = Path(__file__).resolve().parent / "conformance"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"

MESSY = """; club night
[Event "Club \\"night\\""]   ; the event
[Players "Adam Betty Christian Doris"]
; which game
[Game "bottle-imp"]
hand 1 dealer Doris {cut twice}
; deal as written
deal   Adam 24B 07 13  ; sloppy
1.   Adam:24b!  15?? {a long
thought}   17 ? {unknown}
score Adam 15 Betty -10
"""


def records() -> list[Path]:
    found = sorted(SAMPLES.glob("*.imp"))
    found += sorted(CONFORMANCE.rglob("*.imp"))
    return found


def test_canonical_form_of_a_messy_record() -> None:
    text = format_games(read_games(MESSY))
    assert text == (
        "; club night\n"
        "; which game\n"
        '[Game "bottle-imp"]\n'
        '[Players "Adam Betty Christian Doris"]\n'
        '[Event "Club \\"night\\""] ; the event\n'
        "\n"
        "hand 1 dealer Doris {cut twice}\n"
        "; deal as written\n"
        "deal Adam 24b 7 13 ; sloppy\n"
        "1. Adam:24b! 15?? {a long\nthought} 17 ? {unknown}\n"
        "score Adam 15 Betty -10\n"
    )


@pytest.mark.parametrize("path", records(), ids=lambda p: p.name)
def test_fmt_is_a_fixed_point_and_json_round_trip_is_exact(path: Path) -> None:
    """The JSON round trip is exact for every record; `fmt` is a fixed point for every record without syntax
    errors (`imp fmt` refuses the others: `test_fmt_refuses_a_file_with_syntax_errors`)."""
    games = list(read_games(path))
    back = games_from_json(games_to_json(games))
    assert back == games
    if any(f.code == "syntax" for g in games for f in g.findings):
        return
    once = format_games(games)
    assert format_games(read_games(once)) == once
    assert format_games(back) == once


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        (b"not json", "not JSON"),
        (b"[]", '"format": "imp-export"'),
        (b'{"format": "imp-validate", "version": 1, "findings": []}', '"format": "imp-export"'),
        (b'{"format": "imp-validate", "version": 1, "games": []}', "'imp-validate', expected \"imp-export\""),
        (b'{"format": "imp-export", "version": 2, "games": []}', "version 2 of the export format is newer"),
        (b'{"format": "imp-export", "version": "1", "games": []}', "\"version\" is '1'"),
        (b'{"format": "imp-record", "games": [{"type": "Hand"}]}', "games[0]"),
        (b'{"format": "imp-record", "games": [{"type": "Game", "index": 1, "line": 1}]}', "games[0]: `column`"),
        (
            b'{"format": "imp-record", "games": [{"type": "Game", "index": "1", "line": 1, "column": 1}]}',
            "games[0].index: expected a number",
        ),
    ],
)
def test_import_errors_name_the_place(doc: bytes, where: str) -> None:
    with pytest.raises(RecordJSONError, match=None) as info:
        games_from_json(doc)
    assert where in str(info.value)


def imp(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "imptools", *args], input=stdin, capture_output=True, text=True, env=dict(os.environ)
    )


def test_fmt_check_write_and_stdin(tmp_path: Path) -> None:
    p = tmp_path / "messy.imp"
    p.write_text(MESSY, encoding="utf-8")
    check = imp("fmt", "--check", str(p))
    assert check.returncode == 1 and f"would reformat {p}" in check.stdout
    assert p.read_text(encoding="utf-8") == MESSY
    assert imp("fmt", "--write", str(p)).returncode == 0
    formatted = p.read_text(encoding="utf-8")
    assert formatted == format_games(read_games(MESSY))
    assert "; sloppy" in formatted and "{a long\nthought}" in formatted
    assert imp("fmt", "--check", str(p)).returncode == 0
    assert imp("fmt", "-", stdin=MESSY).stdout == formatted
    assert [x.name for x in tmp_path.iterdir()] == ["messy.imp"]  # no temporary file left behind


def test_fmt_refuses_a_file_with_syntax_errors(tmp_path: Path) -> None:
    p = tmp_path / "bad.imp"
    p.write_text(MESSY + "@@ coffee\n", encoding="utf-8")
    out = imp("fmt", "--write", str(p))
    assert out.returncode == 1 and "syntax" in out.stderr
    assert p.read_text(encoding="utf-8") == MESSY + "@@ coffee\n"


def test_export_import_commands(tmp_path: Path) -> None:
    p = tmp_path / "r.imp"
    p.write_text(MESSY, encoding="utf-8")
    exported = imp("export", "--json", str(p))
    assert exported.returncode == 0
    j = tmp_path / "r.json"
    j.write_text(exported.stdout)
    back = imp("import", str(j))
    assert back.returncode == 0 and back.stdout == MESSY  # the file as written, byte for byte
    doc = json.loads(exported.stdout)
    assert doc["sources"] == [{"path": str(p), "text": MESSY}]
    (game,) = doc["games"]
    game["header"] = [t for t in game["header"] if t.get("name") != "Event"]  # an edit: written from the model
    j.write_text(json.dumps(doc))
    edited = imp("import", str(j))
    assert edited.returncode == 0 and "Event" not in edited.stdout
    assert edited.stdout == format_games(games_from_json(json.dumps(doc)))
    j.write_text("{}")
    bad = imp("import", str(j))
    assert bad.returncode == 1 and "not an imp export" in bad.stderr


def test_import_reads_exports_with_and_without_their_format_keys(tmp_path: Path) -> None:
    """An export names its format and version; one made before they were written (or under the earlier name
    `imp-record`) imports the same."""
    doc = json.loads(games_to_json(read_games(MESSY)))
    assert (doc["format"], doc["version"]) == ("imp-export", 1)
    canonical = format_games(read_games(MESSY))
    bare = {k: v for k, v in doc.items() if k not in ("format", "version")}
    earlier = {**doc, "format": "imp-record"}
    for variant in (doc, bare, earlier):
        j = tmp_path / "old.json"
        j.write_text(json.dumps(variant), encoding="utf-8")
        back = imp("import", str(j))
        assert back.returncode == 0, back.stderr
        assert back.stdout == canonical
    j.write_text(json.dumps({**doc, "format": "imp-score"}), encoding="utf-8")
    wrong = imp("import", str(j))
    assert wrong.returncode == 1 and "imp-score" in wrong.stderr and "imp export" in wrong.stderr
