"""The rules of the house (docs/architecture.md), checked over the package's source with `ast`.

Every import counts, the lazy ones inside functions too; only imports under `if TYPE_CHECKING:` do not (they never
run). The allow-lists name today's known offenders, modules this reorganisation could not touch yet: they may only
shrink. A test below fails when an entry is no longer needed, so that it is struck off.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "imptools"

MAX_LINES = 800
"""No module is longer than this."""

LONG_MODULES: set[str] = set()
"""Modules over `MAX_LINES` today, outside `imptools/rules/`, to be split by job: none (the reader was split into
`reader_lines`, `reader_grammar` and `reader`)."""

CYCLES_ALLOWED: set[frozenset[str]] = set()
"""Import circles known today: none (the CLI is a package whose entry point hands over to the app, one way)."""

PRIVATE_IMPORTS_ALLOWED: set[tuple[str, str]] = set()
"""(importer, imported) pairs where a `_private` name crosses modules today: none."""

GAME_NAMES = ("bottle-imp", "botifarra", "ninety-nine")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = modules()


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under `if TYPE_CHECKING:`."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def imports(name: str) -> Iterator[tuple[str, list[str]]]:
    """Each imptools module `name` imports (the module a `from` names, or the submodule a name is), with the names."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    yield a.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            if base not in MODULES:
                continue
            plain = []
            for a in node.names:
                if f"{base}.{a.name}" in MODULES:
                    yield f"{base}.{a.name}", []
                else:
                    plain.append(a.name)
            if plain:
                yield base, plain


GRAPH = {name: {target for target, _ in imports(name)} for name in MODULES}


def cycles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), and modules importing
    themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1 or v in GRAPH[v]:
                out.append(frozenset(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_the_imports() -> None:
    """The checker itself: it reads plain, `from` and lazy imports, and resolves submodules."""
    assert "imptools.rules.registry" in GRAPH["imptools.rules"]
    assert "imptools.rules.base" in GRAPH["imptools.rules.bottle_imp.ruleset"]
    assert "imptools.rules.bottle_imp.search" not in GRAPH["imptools.rules.bottle_imp.escape"]  # TYPE_CHECKING
    assert any(GRAPH[m] for m in MODULES if m.startswith("imptools.present"))


def test_no_import_circles() -> None:
    found = set(cycles())
    assert found - CYCLES_ALLOWED == set(), "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)
    assert CYCLES_ALLOWED - found == set(), "a circle allowed is gone: strike it off CYCLES_ALLOWED"


def test_nothing_imported_upward() -> None:
    """No module imports the package it lives in, nor one above it (a package's `__init__` may import its own
    modules)."""
    offenders = []
    for name, targets in GRAPH.items():
        package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
        ancestors = {".".join(package.split(".")[:k]) for k in range(1, len(package.split(".")) + 1)}
        ancestors.discard("imptools")  # `imptools/__init__.py` holds only the version
        offenders += [f"{name} imports {t}" for t in targets if t in ancestors and t != name]
    assert offenders == []


def test_the_rules_never_import_the_layers_above() -> None:
    """Data flows one way: the rulesets know the record model, the findings and each other's machinery, never the
    reader, the checks, the replay, the analysis, the CLI or the presenters."""
    allowed = ("imptools.rules", "imptools.record", "imptools.findings", "imptools.suggest", "imptools.slips")
    offenders = [
        f"{name} imports {t}"
        for name, targets in GRAPH.items()
        if name.startswith("imptools.rules")
        for t in targets
        if not t.startswith(allowed)
    ]
    assert offenders == []


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def test_no_private_name_imported_across_modules() -> None:
    offenders = set()
    for name in MODULES:
        for target, names in imports(name):
            private = [n for n in names if is_private(n)]
            if private and (name, target) not in PRIVATE_IMPORTS_ALLOWED:
                offenders.add(f"{name} imports {private} from {target}")
    assert offenders == set()
    still = {(name, target) for name in MODULES for target, names in imports(name) if any(map(is_private, names))}
    assert PRIVATE_IMPORTS_ALLOWED - still == set(), "an allowed private import is gone: strike it off"


def test_no_module_over_the_line_limit() -> None:
    long = {name for name, path in MODULES.items() if len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES}
    assert long - LONG_MODULES == set()
    assert LONG_MODULES - long == set(), "a long module was split: strike it off LONG_MODULES"
    assert not any(name.startswith("imptools.rules") for name in LONG_MODULES)


def test_every_module_says_its_job_in_a_docstring() -> None:
    missing = [name for name, path in MODULES.items() if not ast.get_docstring(ast.parse(path.read_text("utf-8")))]
    assert missing == []


def test_no_module_outside_the_rules_names_a_game() -> None:
    """Code outside `imptools/rules/` asks the registry; a game's tag value is written only inside the rules."""
    offenders = []
    for name, path in MODULES.items():
        if name.startswith("imptools.rules"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        named = {
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and n.value in GAME_NAMES and id(n) not in docstrings
        }
        if named:
            offenders.append(f"{name}: {sorted(named)}")
    assert offenders == []


VARIANT_NAMES_WRITTEN = {
    "imptools.rules.bottle_imp.variants": "the Bottle Imp's variant records",
    "imptools.rules.botifarra.obligations": "the obligation tables, each named as the variant that plays it",
    "imptools.rules.botifarra.setup": "the two-player variants and their piles",
}
"""The modules where a variant's name may be written: the records themselves, and today's known offenders."""


def test_code_tests_a_rules_fact_not_a_variants_name() -> None:
    """A variant's name is written where its record is, and the code reads the record's facts (`two_pack`,
    `automaton`, an obligation table's cells) rather than comparing names."""
    from imptools.rules.botifarra.setup import VARIANTS as BOTIFARRA
    from imptools.rules.bottle_imp.variants import VARIANTS as BOTTLE_IMP

    names = {*BOTTLE_IMP, *BOTIFARRA}
    writing = set()
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        if any(isinstance(n, ast.Constant) and n.value in names and id(n) not in docstrings for n in ast.walk(tree)):
            writing.add(name)
    assert writing - set(VARIANT_NAMES_WRITTEN) == set()
    assert set(VARIANT_NAMES_WRITTEN) - writing == set(), "a module no longer names a variant: strike it off"
