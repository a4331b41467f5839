"""The `imp` entry point: `imp validate [--json] FILE...` runs here without Typer (its option parsing costs more
than checking a small file); every other command line goes to the Typer app in `imptools.cli.app`."""

from __future__ import annotations

import contextlib
import os
import sys

from imptools.cli.inputs import STDIN
from imptools.cli.judging import score_json, validate_files
from imptools.cli.output import EXIT_FOUND, EXIT_INTERNAL, EXIT_UNREADABLE, error, print_json
from imptools.findings import INTERNAL, Finding


def plain_validate(argv: list[str]) -> int | None:
    """`imp validate [--json] [--jobs N] FILE...` and `imp score --json [--jobs N] FILE...` run without Typer's
    option parsing, which costs more than checking a small file; None for any other command line (Typer parses
    it, and explains a wrong one)."""
    if argv[:1] not in (["validate"], ["score"]):
        return None
    files: list[str] = []
    json = False
    jobs: int | None = None
    args = iter(argv[1:])
    for a in args:
        if a == "--json":
            json = True
        elif a in ("--jobs", "-j") or a.startswith("--jobs="):
            value = a.partition("=")[2] if "=" in a else next(args, "")
            if not value.isdigit() or int(value) < 1:
                return None
            jobs = int(value)
        elif a.startswith("-") and a != STDIN:
            return None
        else:
            files.append(a)
    if not files:
        return None
    if argv[0] == "score":
        return score_json(files, jobs) if json else None
    return validate_files(files, json=json, jobs=jobs)


def main() -> None:
    """Entry point: run the app; no traceback reaches a user."""
    try:
        status = plain_validate(sys.argv[1:])
        if status is not None:
            raise SystemExit(status)
        try:
            from imptools.cli.app import app
        except ModuleNotFoundError as exc:  # run from a checkout whose dependencies were never installed
            if not exc.name or exc.name.split(".")[0] == "imptools":
                raise
            error(f"{exc.name} is not installed: imptools needs its dependencies (`pip install .` in the project)")
            raise SystemExit(EXIT_UNREADABLE) from None
        app(prog_name="imp")
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(EXIT_FOUND) from None
    except Exception as exc:
        error(f"internal error: {type(exc).__name__}: {exc}")
        error("this is a bug in imptools; please report it with the record that caused it")
        if "--json" in sys.argv[1:] and sys.argv[1:2] in (["validate"], ["score"]):
            # the promise of --json holds even here: one whole JSON document, saying what happened
            failure = Finding(INTERNAL, f"imptools failed ({type(exc).__name__}: {exc}); please report it")
            with contextlib.suppress(Exception):
                if sys.argv[1] == "validate":
                    print_json("validate", {"findings": [failure.to_dict()], "unreadable": []})
                else:
                    print_json("score", {"games": [], "unreadable": [], "internal": [failure.to_dict()]})
        raise SystemExit(EXIT_INTERNAL) from None
