"""`imp --help` and `imp COMMAND --help`: a user's help, drawn from the commands' own words.

The usage line, the command's description and examples as written in its
docstring, then its arguments and options (each with what it takes: `N`, `FILE`,
`TEXT` or the metavar given, and its default where it has one worth saying), and
for `imp` itself the commands. Nothing of the Python behind it shows: no type
names, no `None` defaults.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand, TyperGroup

__all__ = ["HelpCommand", "HelpGroup"]

# The parameters, context and commands are Click's (Typer's own copy of Click in recent Typer): read through the
# attributes every Click has (`param_type_name`, `opts`, `metavar`, ...), not by class.
Param = Any
Context = Any
Command = Any


def _is_argument(param: Param) -> bool:
    return bool(param.param_type_name == "argument")


def _is_option(param: Param) -> bool:
    return bool(param.param_type_name == "option")


def _takes(param: Param) -> str:
    """What a value option or an argument takes, as a user reads it: `N`, `TEXT`, or its metavar."""
    if param.metavar:
        return str(param.metavar)
    kind = getattr(getattr(param, "type", None), "name", None)  # Click's type; recent Typer keeps its own
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if (kind or "").startswith("integer") or annotation in (int, int | None):
        return "N"
    return param.name.upper() if _is_argument(param) and param.name else "VALUE"


def _is_flag(param: Param) -> bool:
    return _is_option(param) and bool(param.is_flag or param.count)


def _default(param: Param) -> str:
    """` [default: X]` for a value option with a default worth saying; nothing for flags, None or empty."""
    if not _is_option(param) or _is_flag(param) or param.show_default is False:
        return ""
    default = param.default
    if default is None or default == () or default == [] or callable(default):
        return ""
    return f" [default: {default}]"


def _pieces(command: Command, ctx: Context) -> list[str]:
    """The usage line after the command's name: `[OPTIONS] FILE...` (the one usage errors show too)."""
    pieces = []
    if any(_is_option(p) for p in command.get_params(ctx)):
        pieces.append("[OPTIONS]")
    for param in command.get_params(ctx):
        if _is_argument(param):
            name = _takes(param)
            if param.nargs != 1 and not name.endswith("..."):
                name += "..."
            pieces.append(name if param.required else f"[{name}]")
    if hasattr(command, "list_commands"):
        pieces.append("COMMAND [ARGS]...")
    return pieces


def _rows(params: list[Param]) -> list[tuple[str, str, str]]:
    """(names, what it takes, help) for each parameter shown; an option that must be given says so."""
    rows = []
    for param in params:
        if getattr(param, "hidden", False):
            continue
        if _is_argument(param):
            names, takes = _takes(param), ""
        else:
            opts = sorted(param.opts, key=lambda o: (not o.startswith("--"), o))
            names = ", ".join(opts + list(param.secondary_opts))
            takes = "" if _is_flag(param) else _takes(param)
        text = (getattr(param, "help", None) or "") + _default(param)
        if param.required and _is_option(param):
            text += " [required]"
        rows.append((names, takes, text))
    return rows


def _panel(title: str, rows: list[tuple[str, str, str]]) -> Any:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    table = Table(show_header=False, box=None, expand=True, padding=(0, 1), pad_edge=False)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(style="yellow", no_wrap=True)
    table.add_column(ratio=1)
    for names, takes, text in rows:
        table.add_row(Text(names), Text(takes), Text(text))
    return Panel(table, title=title, title_align="left", border_style="dim")


def _print_help(command: Command, ctx: Context) -> None:
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    console = Console(highlight=False)
    usage = " ".join([ctx.command_path, *_pieces(command, ctx)])
    console.print(Padding(Text("Usage: ", style="yellow") + Text(usage, style="bold"), (1, 1)))
    if command.help:
        console.print(Padding(Text(command.help.strip()), (0, 1, 1, 1)))
    params = command.get_params(ctx)
    arguments = [p for p in params if _is_argument(p)]
    options = [p for p in params if _is_option(p)]
    if arguments:
        console.print(_panel("Arguments", _rows(arguments)))
    if options:
        console.print(_panel("Options", _rows(options)))
    if hasattr(command, "list_commands"):
        rows = []
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                rows.append((name, "", sub.get_short_help_str(limit=200)))
        console.print(_panel("Commands", rows))


class HelpCommand(TyperCommand):
    """A command whose `--help` is a user's help (see the module)."""

    def format_help(self, ctx: Context, formatter: Any) -> None:
        _print_help(self, ctx)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        return _pieces(self, ctx)


class HelpGroup(TyperGroup):
    """`imp` itself, with the same help as its commands."""

    def format_help(self, ctx: Context, formatter: Any) -> None:
        _print_help(self, ctx)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        return _pieces(self, ctx)
