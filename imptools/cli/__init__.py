"""The `imp` command line: the entry point (`main`), the Typer app (`app`) and what they share.

Imports go one way: `main` (the entry point, with `imp validate`'s fast path) and `app` (every
command, with Typer) use `inputs`, `output` and `judging`; nothing here imports `main` or `app`
but `main`, which hands every command line but the fast one to `app` when it runs.
"""
