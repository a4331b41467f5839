"""Write the JSON Schemas (draft 2020-12) of the `imp archive ... --json` documents into imptools/schemas/.

    python scripts/archive_schemas.py           # write imptools/schemas/imp-archive-*.json
    python scripts/archive_schemas.py --check   # exit 1 if a shipped schema differs from what this script writes

The same conventions as scripts/json_schemas.py (whose helpers it uses): one
closed schema per document, named after its `"format"`. tests/test_archive.py
checks the shipped files are what this script writes and validates real outputs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location("json_schemas", Path(__file__).resolve().parent / "json_schemas.py")
assert _spec is not None and _spec.loader is not None
js = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(js)

OUT: Path = js.OUT
COUNT, FROM_ONE, INT, STR, NAMES = js.COUNT, js.FROM_ONE, js.INT, js.STR, js.NAMES
NUMBER = {"type": "number"}
PLACE = js.obj({"path": STR, "game": FROM_ONE}, description="A game: its file (absolute path, or <stdin>) and index.")
TALLY = {"games": COUNT, "hands": COUNT, "wins": COUNT, "points": INT, "average": NUMBER}
RATING = {"rating": js.nullable(NUMBER), "mu": js.nullable(NUMBER), "sigma": js.nullable(NUMBER)}


def add_schema() -> dict[str, Any]:
    return js.document(
        "imp-archive-add",
        "imp archive add --json",
        "What one add did: games added, updated, unchanged, duplicated, removed; files read, pruned, missing.",
        {
            "added": COUNT,
            "updated": COUNT,
            "unchanged": COUNT,
            "duplicates": COUNT,
            "removed": COUNT,
            "files": COUNT,
            "internal": COUNT,
            "pruned": NAMES,
            "missing": NAMES,
            "unreadable": {"type": "array", "items": {"$ref": "#/$defs/unreadable"}},
        },
        {"unreadable": js.UNREADABLE},
    )


def standings_schema() -> dict[str, Any]:
    row = js.obj(
        {
            "player": STR,
            **TALLY,
            **RATING,
        },
        description="A player's line; the rating is null without the optional openskill.",
    )
    pair = js.obj(
        {"pair": NAMES, "player": STR, **TALLY, **RATING},
        description="A partnership's line (`player`: A+B), the pair rated as one entity over its games together.",
    )
    return js.document(
        "imp-archive-standings",
        "imp archive standings --json",
        "Per player and per fixed pair, over the distinct games of one game that match the filters.",
        {
            "game": js.nullable(STR),
            "games": COUNT,
            "rows": {"type": "array", "items": {"$ref": "#/$defs/row"}},
            "pairs": {"type": "array", "items": {"$ref": "#/$defs/pair"}},
        },
        {"row": row, "pair": pair},
    )


def find_schema() -> dict[str, Any]:
    game = js.obj(
        {
            "path": STR,
            "game": FROM_ONE,
            "name": js.nullable(STR),
            "variant": js.nullable(STR),
            "date": js.nullable(STR),
            "event": js.nullable(STR),
            "players": NAMES,
            "totals": js.by_player(INT),
        },
        description="A game found: where it is, its Game, Variant, Date and Event tags, players and totals.",
    )
    return js.document(
        "imp-archive-find",
        "imp archive find --json",
        "Every game matching all the filters, by date, path and position.",
        {"games": {"type": "array", "items": {"$ref": "#/$defs/game"}}},
        {"game": game},
    )


def dupes_schema() -> dict[str, Any]:
    group = js.obj(
        {"original": {"$ref": "#/$defs/place"}, "copies": {"type": "array", "items": {"$ref": "#/$defs/place"}}},
        description="A game kept more than once: its first copy by path and position, and the others.",
    )
    return js.document(
        "imp-archive-dupes",
        "imp archive dupes --json",
        "The games kept more than once.",
        {"duplicates": {"type": "array", "items": {"$ref": "#/$defs/group"}}},
        {"group": group, "place": PLACE},
    )


def player_schema() -> dict[str, Any]:
    fact = js.obj(
        {"fact": STR, "label": STR, "per_hand": {"type": "boolean"}, "value": NUMBER},
        description=(
            "One of the game's own facts, as its rules count them over the player's scored hands: a count, "
            "or with per_hand its average per scored hand."
        ),
    )
    by_game = js.obj(
        {"game": STR, **TALLY, "scored_hands": COUNT, "facts": {"type": "array", "items": {"$ref": "#/$defs/fact"}}},
        description="The player's record in one game, with the game's own facts (none without a scored hand).",
    )
    season = js.obj({"game": STR, "season": js.nullable(STR), **TALLY})
    partner = js.obj({"player": STR, "games": COUNT, "wins": COUNT})
    opponent = js.obj({"player": STR, "games": COUNT, "ahead": COUNT, "behind": COUNT})
    finding = js.obj({"code": STR, "count": COUNT, "per_100_hands": NUMBER})

    def items(ref: str) -> dict[str, Any]:
        return {"type": "array", "items": {"$ref": f"#/$defs/{ref}"}}

    return js.document(
        "imp-archive-player",
        "imp archive player NAME --json",
        "A player's record over the distinct games he played.",
        {
            "player": STR,
            "games": items("by_game"),
            "seasons": items("season"),
            "partners": items("partner"),
            "opponents": items("opponent"),
            "findings": items("finding"),
        },
        {
            "by_game": by_game,
            "fact": fact,
            "season": season,
            "partner": partner,
            "opponent": opponent,
            "finding": finding,
        },
    )


SCHEMAS = {
    "imp-archive-add": add_schema,
    "imp-archive-standings": standings_schema,
    "imp-archive-find": find_schema,
    "imp-archive-dupes": dupes_schema,
    "imp-archive-player": player_schema,
}


def rendered() -> dict[str, str]:
    """Each schema's file name and text, as shipped."""
    return dict(js.rendered_of(SCHEMAS))


def main(argv: list[str]) -> int:
    return int(js.write_or_check(rendered(), "scripts/archive_schemas.py", argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
