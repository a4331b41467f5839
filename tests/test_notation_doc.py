"""docs/notation.md says what imptools does: its codes, keywords, tags, variants and decks, and examples that
validate exactly as the page shows.

The page's convention (its section 14): a fenced block marked `imp` is a whole record; the block right after it
is marked `console`, starts with `$ imp validate example.imp` and holds that command's exact output. Fragments
that are not whole records are marked `text`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from imptools.findings import CODES

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "notation.md"
TEXT = PAGE.read_text(encoding="utf-8")
COMMAND = "$ imp validate example.imp"


@dataclass(frozen=True)
class Block:
    info: str
    body: str
    line: int  # of the opening fence, from 1


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, indented ones (inside list items) included, their bodies dedented."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^( *)```(\S*)\s*$", lines[i])
        if not opening:
            i += 1
            continue
        indent, info = len(opening.group(1)), opening.group(2)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        assert j < len(lines), f"docs/notation.md:{i + 1}: a fenced block that is never closed"
        found.append(Block(info, "\n".join(body) + "\n", i + 1))
        i = j + 1
    return found


def examples() -> list[tuple[Block, Block]]:
    """Each `imp` block with the `console` block that follows it."""
    all_blocks = blocks(TEXT)
    pairs = []
    for k, b in enumerate(all_blocks):
        if b.info != "imp":
            continue
        shown = all_blocks[k + 1] if k + 1 < len(all_blocks) else None
        assert shown is not None and shown.info == "console" and shown.body.startswith(COMMAND + "\n"), (
            f"docs/notation.md:{b.line}: a record example must be followed by a `console` block "
            f"starting with `{COMMAND}` and its output"
        )
        pairs.append((b, shown))
    return pairs


EXAMPLES = examples()


def in_backticks(word: str) -> bool:
    """`word` appears on the page in code: `word`, or starting a code span such as `word NAME ...`."""
    return re.search(r"`" + re.escape(word) + r"[` .:]", TEXT) is not None


def test_the_page_has_record_examples_for_every_game() -> None:
    games = {re.search(r'\[Game "([^"]+)"\]', b.body).group(1) for b, _ in EXAMPLES}  # type: ignore[union-attr]
    assert games == {"bottle-imp", "botifarra", "ninety-nine"}


@pytest.mark.parametrize(("record", "shown"), EXAMPLES, ids=[f"line-{b.line}" for b, _ in EXAMPLES])
def test_each_record_example_validates_as_the_page_shows(record: Block, shown: Block, tmp_path: Path) -> None:
    expected = shown.body.splitlines()[1:]
    codes = {m.group(1) for line in expected if (m := re.match(r"example\.imp:\d+:\d+: (\S+) ", line))}
    ahead = sorted(codes - set(CODES))
    if ahead:
        pytest.skip(f"the example shows {', '.join(ahead)}, which imptools does not declare yet (findings.CODES)")
    (tmp_path / "example.imp").write_text(record.body, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "imptools", "validate", "example.imp"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=120,
    )
    assert out.stdout.splitlines() == expected, f"docs/notation.md:{record.line}: the output shown is not imptools'"
    assert out.returncode == (0 if expected[-1].startswith("0 errors") else 1)


def test_the_findings_table_has_a_row_for_every_code() -> None:
    rows = set(re.findall(r"^\| `([a-z-]+)` \| (?:error|warning) \|", TEXT, flags=re.MULTILINE))
    missing = sorted(set(CODES) - rows)
    assert not missing, f"codes without a row in the findings table of docs/notation.md: {missing}"


def test_the_severities_in_the_findings_table_are_imptools_own() -> None:
    for code, severity in re.findall(r"^\| `([a-z-]+)` \| (error|warning) \|", TEXT, flags=re.MULTILINE):
        if code in CODES:
            assert CODES[code].value == severity, code


def grammar_keywords() -> list[str]:
    """The keywords of grammar/imp.lark: the quoted words of its rules and terminals (comments left out)."""
    path = ROOT / "grammar" / "imp.lark"
    text = "\n".join(line.split("//")[0] for line in path.read_text(encoding="utf-8").splitlines())
    return sorted(set(re.findall(r'"([a-z][a-z-]*)"', text)))


def test_every_keyword_of_the_grammar_is_on_the_page() -> None:
    words = grammar_keywords()
    assert {"hand", "deal", "pass", "trump", "sant-vicenc", "turnup", "reveal", "total"} <= set(words)
    missing = [w for w in words if not in_backticks(w)]
    assert not missing, f"grammar keywords docs/notation.md does not show: {missing}"


def test_every_tag_imptools_reads_is_on_the_page() -> None:
    tags = {"Game", "Players"}
    for source in (ROOT / "imptools").rglob("*.py"):
        tags |= set(re.findall(r'\btag\("([A-Za-z]+)"\)', source.read_text(encoding="utf-8")))
    assert {"Variant", "Deck", "Teams", "Target", "Hands"} <= tags
    missing = sorted(t for t in tags if f"| `{t}` |" not in TEXT and f"`{t}`," not in TEXT)
    assert not missing, f"tags imptools reads that docs/notation.md does not list: {missing}"


def test_every_variant_and_deck_is_on_the_page() -> None:
    from imptools.rules import GAMES, get_ruleset
    from imptools.rules.bottle_imp.cards import DECKS

    names = [str(d) for d in DECKS]
    for game in GAMES:
        ruleset = get_ruleset(game)
        names += list(ruleset.variants) if ruleset else []
        assert f"`{game}`" in TEXT
    missing = [n for n in names if not in_backticks(n)]
    assert not missing, f"variants or decks docs/notation.md does not name: {missing}"


def test_the_page_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/notation.md)" in readme
    assert "maintained beside" not in readme


# Maps from players, cards, tag names or labels to values: their keys are data, not keys of the format.
DATA_MAPS = {"scores", "totals", "holdings", "known_from", "piles", "tricks_won", "voids", "tags", "notes"}
DATA_MAPS |= {"player_notes", "fields", "values"}


def keys_of(doc: object, found: set[str] | None = None) -> set[str]:
    """Every key of a JSON document, and every element `type` of an export, except inside the maps of data."""
    found = set() if found is None else found
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.add(key)
            if key == "type" and isinstance(value, str):
                found.add(value)
            if key not in DATA_MAPS:
                keys_of(value, found)
    elif isinstance(doc, list):
        for value in doc:
            keys_of(value, found)
    return found


def test_every_key_of_the_json_documents_is_on_the_page(tmp_path: Path) -> None:
    files = []
    for k, (record, _) in enumerate(EXAMPLES):
        files.append(tmp_path / f"example-{k}.imp")
        files[-1].write_text(record.body, encoding="utf-8")
    files.append(ROOT / "samples" / "with-mistakes.imp")  # a line the reader cannot read, a revoke, a bad score
    first = str(files[0])  # the first record of the page: every card is known, so it can be analysed

    def run(*args: str) -> object:
        out = subprocess.run(
            [sys.executable, "-m", "imptools", *args], capture_output=True, text=True, timeout=300, check=False
        )
        assert out.returncode in (0, 1), out.stderr
        return json.loads(out.stdout)

    names = [str(f) for f in files]
    documents = {
        "validate": run("validate", "--json", *names),
        "score": run("score", "--json", *names),
        "export": run("export", "--json", *names),
        "analyse": run("analyse", "--json", "--from-trick", "7", first),
    }
    for f in names:
        documents[f"replay {Path(f).name}"] = run("replay", "--json", f)
    documents["replay --analyse"] = run("replay", "--json", "--analyse", "--from-trick", "7", first)
    documents["analyse --knowing"] = run("analyse", "--json", "--from-trick", "8", "--knowing", first)
    seen = set().union(*(keys_of(doc) for doc in documents.values()))
    deep = {"summary", "rules_checked", "Trick", "ScoreEntry", "steps", "known_from", "value_before"}
    assert deep | {"analysis", "worlds"} <= seen  # the documents were walked to the bottom
    for what, doc in documents.items():
        missing = sorted(k for k in keys_of(doc) if f"`{k}`" not in TEXT)
        assert not missing, f"keys of `imp {what} --json` that docs/notation.md does not explain: {missing}"


def slugs(markdown: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings of a page (lower case, punctuation dropped)."""
    heads = re.findall(r"^#+ (.+)$", markdown, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_the_links_of_the_page_lead_somewhere() -> None:
    links = re.findall(r"\]\(([^)]+)\)", TEXT)
    assert links
    for link in links:
        target, _, anchor = link.partition("#")
        page = TEXT if not target else (PAGE.parent / target).read_text(encoding="utf-8")
        if anchor:
            assert anchor in slugs(page), f"docs/notation.md links to {link}, which has no such heading"
