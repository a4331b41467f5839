"""Write the JSON Schemas (draft 2020-12) of the commands' `--json` documents into imptools/schemas/.

    python scripts/json_schemas.py           # write imptools/schemas/imp-*.json
    python scripts/json_schemas.py --check   # exit 1 if a shipped schema differs from what this script writes

One schema per document, named after its `"format"`: imp-validate, imp-score,
imp-export (the record model, made from the classes of imptools.record, which
`imp import` reads back), imp-replay and imp-analyse. A change to the shape of a
document changes its schema here (and its `"version"` where the change is not an
addition); tests/test_json_schemas.py checks the shipped files are what this
script writes, and validates real outputs against them.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "imptools" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
VERSION = 1

INT = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
FROM_ONE = {"type": "integer", "minimum": 1}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NAMES = {"type": "array", "items": STR}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` or null."""
    if set(schema) <= {"type", "minimum"} and isinstance(schema.get("type"), str):
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """An object with exactly these keys: `required` ones always, `optional` ones where they apply."""
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional or {})},
        "additionalProperties": False,
        **extra,
    }


def by_player(value: dict[str, Any]) -> dict[str, Any]:
    """An object keyed by player name."""
    return {"type": "object", "additionalProperties": value}


def pair(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "prefixItems": [first, second], "items": False, "minItems": 2}


def document(
    fmt: str,
    title: str,
    description: str,
    body: dict[str, Any],
    defs: dict[str, Any],
    optional: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A whole document: `format` and `version` first, then `body`'s keys (all required), and `optional` ones."""
    schema = {
        "$schema": DRAFT,
        "title": title,
        "description": description,
        **obj({"format": {"const": fmt}, "version": {"const": VERSION}, **body}, optional),
    }
    if defs:
        schema["$defs"] = defs
    return schema


FINDING_FIELDS = {
    "code": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$"},
    "severity": {"enum": ["error", "warning"]},
    "path": nullable(STR),
    "line": nullable(FROM_ONE),
    "column": nullable(FROM_ONE),
    "game": nullable(FROM_ONE),
    "hand": nullable(FROM_ONE),
    "trick": nullable(FROM_ONE),
    "player": nullable(STR),
    "message": STR,
}
FINDING = obj(FINDING_FIELDS, description="One finding, with the keys of the notation's section 8.")
UNREADABLE = obj({"path": STR, "message": STR}, description="A file that could not be read, and why.")
SCORES = by_player(INT)


def validate_schema() -> dict[str, Any]:
    summary = obj(
        {
            "files": COUNT,
            "games": COUNT,
            "errors": COUNT,
            "warnings": COUNT,
            "unreadable": COUNT,
            "internal": COUNT,
        },
        description="The counts under the findings; absent only when imptools failed before judging anything.",
    )
    schema = document(
        "imp-validate",
        "imp validate --json",
        "Every finding of the records given, the files that could not be read, and a summary.",
        {
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "unreadable": {"type": "array", "items": {"$ref": "#/$defs/unreadable"}},
        },
        {"finding": FINDING, "unreadable": UNREADABLE},
    )
    schema["properties"]["summary"] = summary
    return schema


def score_schema() -> dict[str, Any]:
    hand = obj(
        {"hand": FROM_ONE, "dealer": nullable(STR), "complete": BOOL, "scores": nullable(SCORES)},
        {
            "notes": {"type": "object", "additionalProperties": STR},
            "player_notes": by_player(STR),
        },
        description="A hand: its scores (null when it is not scored); notes where the rules say more of it.",
    )
    game = obj(
        {
            "path": nullable(STR),
            "game": FROM_ONE,
            "players": NAMES,
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}},
            "totals": nullable(SCORES),
            "over": BOOL,
            "winners": NAMES,
            "rules_checked": BOOL,
        },
        description="A game: its index in its file, its players, its hands and the totals over the scored hands.",
    )
    return document(
        "imp-score",
        "imp score --json",
        "Every game's hands, scores and totals as the rules compute them.",
        {
            "games": {"type": "array", "items": {"$ref": "#/$defs/game"}},
            "unreadable": {"type": "array", "items": {"$ref": "#/$defs/unreadable"}},
            "internal": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
        },
        {"game": game, "hand": hand, "finding": FINDING, "unreadable": UNREADABLE},
    )


def play_cost() -> dict[str, Any]:
    return obj(
        {
            "trick": FROM_ONE,
            "player": STR,
            "card": STR,
            "value_before": INT,
            "value_after": INT,
            "cost": COUNT,
            "best": NAMES,
            "mark": {"enum": ["", "?", "??"]},
        },
        {"knowing": knowing()},
        description="One play valued: its player's best result before and after it, and what it cost.",
    )


def knowing() -> dict[str, Any]:
    number = {"type": "number"}
    return obj(
        {
            "values": {"type": "object", "additionalProperties": number},
            "cost": {"type": "number", "minimum": 0},
            "best": NAMES,
            "worlds": FROM_ONE,
        },
        description="The play valued on what its player knew (`--knowing`): each legal card's mean value over the"
        " worlds averaged, the cost of the card played, the cards with the best mean, and how many worlds.",
    )


def choice() -> dict[str, Any]:
    return obj(
        {
            "decision": {"enum": ["trump", "bid"]},
            "player": STR,
            "option": STR,
            "value": INT,
            "made": BOOL,
        },
        {"note": STR},
        description=(
            "One option of a choice made before the first card: the choosing player's best result had he taken it"
            " (`made`: he did), and what the text says beside it."
        ),
    )


def analyse_schema() -> dict[str, Any]:
    analysis = obj(
        {
            "path": nullable(STR),
            "game": FROM_ONE,
            "hand": FROM_ONE,
            "from_trick": FROM_ONE,
            "plays": {"type": "array", "items": {"$ref": "#/$defs/play"}},
            "choices": {"type": "array", "items": {"$ref": "#/$defs/choice"}},
        },
        {"skipped": STR, "note": STR},
        description="One hand: each play from `from_trick` on, or `skipped` saying why there is none.",
    )
    return document(
        "imp-analyse",
        "imp analyse --json",
        "What each card cost, hand by hand, with every card visible.",
        {"analyses": {"type": "array", "items": {"$ref": "#/$defs/analysis"}}},
        {"analysis": analysis, "play": play_cost(), "choice": choice()},
    )


def replay_schema() -> dict[str, Any]:
    from imptools.rules.steps import KNOWN_FROM_DEAL, KNOWN_FROM_PLAYS, WRITTEN_UNKNOWN

    cards = NAMES
    event = obj(
        {
            "kind": {
                "enum": [
                    "deal",
                    "discard",
                    "pass",
                    "open",
                    "imp",
                    "trump",
                    "call",
                    "turnup",
                    "bid",
                    "declare",
                    "play",
                    "trick",
                    "end",
                ]
            },
            "player": nullable(STR),
            "cards": cards,
            "trick": nullable(FROM_ONE),
            "line": nullable(FROM_ONE),
            "column": nullable(FROM_ONE),
            "notes": NAMES,
            "mark": nullable(STR),
            "text": nullable(STR),
        },
        description=(
            "What just happened (`trick`: a trick's end, `player` its winner; `end`: the hand's end). A play's"
            f" `text` is `{WRITTEN_UNKNOWN}` where the record wrote `?` for the card the deal settles."
        ),
    )
    state = obj(
        {
            "holdings": by_player(cards),
            "known_from": nullable(by_player({"enum": [KNOWN_FROM_DEAL, KNOWN_FROM_PLAYS]})),
            "trick": {"type": "array", "items": pair(STR, STR)},
            "leader": nullable(STR),
            "piles": by_player(cards),
            "tricks_won": nullable(by_player(COUNT)),
            "voids": by_player(NAMES),
            "stacks": nullable(by_player({"type": "array", "items": cards})),
            "scores": nullable(SCORES),
            "detail": obj(
                {
                    "lines": {"type": "array", "items": pair(STR, STR)},
                    "fields": {"type": "object", "description": "The game's own part of the state, as it has it."},
                }
            ),
        },
        description="What is known after the event.",
    )
    finding = obj({k: v for k, v in FINDING_FIELDS.items() if k not in ("path", "game")})
    findings = {"type": "array", "items": {"$ref": "#/$defs/finding"}}
    step = obj(
        {"event": {"$ref": "#/$defs/event"}, "state": {"$ref": "#/$defs/state"}, "findings": findings},
        {"analysis": {"$ref": "#/$defs/play"}},
    )
    hand = obj(
        {
            "hand": FROM_ONE,
            "dealer": nullable(STR),
            "complete": BOOL,
            "scores": nullable(SCORES),
            "totals": nullable(SCORES),
            "notes": NAMES,
            "facts": {"type": "array", "items": pair(STR, STR)},
            "opening": findings,
            "closing": findings,
            "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
        },
        {
            "analysis": obj(
                {"from_trick": FROM_ONE},
                {"skipped": STR, "note": STR, "choices": {"type": "array", "items": {"$ref": "#/$defs/choice"}}},
            )
        },
    )
    game = obj(
        {
            "game": FROM_ONE,
            "name": nullable(STR),
            "tags": {"type": "object", "additionalProperties": STR},
            "players": NAMES,
            "findings": findings,
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}},
            "totals": nullable(SCORES),
            "over": BOOL,
            "winners": NAMES,
            "rules_checked": BOOL,
        }
    )
    return document(
        "imp-replay",
        "imp replay --json",
        "A record replayed: each hand's steps (event and state) with the findings at each.",
        {"path": STR, "games": {"type": "array", "items": {"$ref": "#/$defs/game"}}},
        {
            "game": game,
            "hand": hand,
            "step": step,
            "event": event,
            "state": state,
            "finding": finding,
            "play": play_cost(),
            "choice": choice(),
        },
    )


def export_schema() -> dict[str, Any]:
    """The record model as `imp export` writes it: each element `{"type": CLASS, FIELD: ...}`, from the classes."""
    from imptools import record

    classes = {
        cls.__name__: cls
        for cls in vars(record).values()
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == record.__name__
    }

    def of(hint: Any) -> dict[str, Any]:
        origin = typing.get_origin(hint)
        if origin in (typing.Union, types.UnionType):
            options = [o for o in typing.get_args(hint) if o is not type(None)]
            inner = of(options[0]) if len(options) == 1 else one_of(options)
            return nullable(inner) if type(None) in typing.get_args(hint) else inner
        if origin is tuple:
            return {"type": "array", "items": of(typing.get_args(hint)[0])}
        if isinstance(hint, type) and hint.__name__ in classes:
            return {"$ref": f"#/$defs/{hint.__name__}"}
        simple = {int: INT, str: STR, bool: BOOL}.get(hint)
        if simple is None:
            raise TypeError(f"no schema for {hint!r}")
        return simple

    def one_of(options: list[Any]) -> dict[str, Any]:
        """One of several elements, told apart by `type` (one full check, not one per element kind)."""
        names = [o.__name__ for o in options]
        return {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": names}},
            "allOf": [{"if": {"properties": {"type": {"const": n}}}, "then": {"$ref": f"#/$defs/{n}"}} for n in names],
        }

    defs: dict[str, Any] = {}
    for name, cls in sorted(classes.items()):
        hints = typing.get_type_hints(cls, vars(record))
        fields = [f for f in dataclasses.fields(cls) if f.name != "findings"]
        required = ["type"] + [
            f.name for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        defs[name] = {
            "type": "object",
            "description": doc,
            "required": required,
            "properties": {"type": {"const": name}, **{f.name: of(hints[f.name]) for f in fields}},
            "additionalProperties": False,
        }
    return document(
        "imp-export",
        "imp export --json",
        "The record model of the files, element by element with positions, as `imp import` reads it back.",
        {"games": {"type": "array", "items": {"$ref": "#/$defs/Game"}}},
        defs,
        {
            "sources": {
                "type": "array",
                "description": "Each UTF-8 file exported, as written: `imp import` writes it back byte for byte while "
                "its games still read as it does.",
                "items": obj({"path": STR, "text": STR}),
            }
        },
    )


SCHEMAS = {
    "imp-validate": validate_schema,
    "imp-score": score_schema,
    "imp-export": export_schema,
    "imp-replay": replay_schema,
    "imp-analyse": analyse_schema,
}


def rendered_of(schemas: dict[str, Any]) -> dict[str, str]:
    """Each schema's file name and text, as shipped, for a table of schema makers."""
    return {f"{name}.json": json.dumps(make(), indent=2, ensure_ascii=False) + "\n" for name, make in schemas.items()}


def rendered() -> dict[str, str]:
    """Each schema's file name and text, as shipped."""
    return rendered_of(SCHEMAS)


def write_or_check(files: dict[str, str], script: str, argv: list[str]) -> int:
    """Write `files` into imptools/schemas, or with `--check` list those that differ (exit status 1)."""
    if argv[1:] == ["--check"]:
        stale = [n for n, text in files.items() if not (OUT / n).exists() or (OUT / n).read_text("utf-8") != text]
        for n in stale:
            print(f"imptools/schemas/{n} is not what {script} writes")
        return 1 if stale else 0
    OUT.mkdir(exist_ok=True)
    for n, text in files.items():
        (OUT / n).write_text(text, encoding="utf-8")
    return 0


def main(argv: list[str]) -> int:
    return write_or_check(rendered(), "scripts/json_schemas.py", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
