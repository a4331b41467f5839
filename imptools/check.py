"""Judging a whole game: the reader's findings, then its ruleset's, with file names filled in.

Judging never raises: a failure inside a ruleset becomes an `internal` finding
on that game (a bug to report), so one odd record never stops a batch.
"""

from __future__ import annotations

from dataclasses import replace

from imptools.findings import INTERNAL, Finding
from imptools.record import Game, Tag
from imptools.rules import GAMES, GameResult, HandResult, Ruleset, get_ruleset
from imptools.rules.tricks import hand_dealers
from imptools.slips import one_keystroke, read_as_meant, tag_meant
from imptools.suggest import did_you_mean

MAX_PLAYERS = 64
"""More names than this in `Players` and a game is not judged (no game of the notation seats more than 6)."""


def _order(f: Finding) -> tuple[int, int, int]:
    return (f.hand or 0, f.line or 0, f.column or 0)


def internal_finding(game: Game, exc: BaseException, doing: str = "judging") -> Finding:
    """The `internal` finding for a failure of imptools itself on `game`, at the game's first line."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if len(what) > 200:
        what = what[:200] + "..."
    return Finding(
        INTERNAL,
        f"imptools failed while {doing} this game ({what}); the other games are judged as usual. "
        "This is a bug in imptools: please report it with this record",
        game.line,
        1,
        game.path,
        game.index,
    )


def judge_game(game: Game) -> GameResult:
    """Replay `game` through the ruleset its `Game` tag names; every finding carries the game's path.

    A game whose `Game` tag is missing or unknown is not judged: the result holds
    the reader's findings and one more saying so, and no scores. An unexpected
    failure of the ruleset gives the same unjudged result with an `internal` finding.
    """
    try:
        game = as_meant(game)
        ruleset = get_ruleset(game.game_name)
    except Exception as exc:  # a ruleset that cannot even be loaded fails this game, not the batch
        return _unjudged(game, [internal_finding(game, exc, "loading the rules for")])
    if ruleset is None:
        extra: list[Finding] = []
        name = game.game_name
        if name is not None:
            tag = _tag(game, "Game")
            hint = did_you_mean(name, GAMES)
            extra.append(
                Finding(
                    "syntax",
                    f"`{name}`: did you mean `{hint}`?"
                    if hint
                    else f"`{name}` is not a game imptools knows ({', '.join(GAMES)})",
                    tag.line if tag else game.line,
                    tag.column if tag else 1,
                    game.path,
                    game.index,
                )
            )
        return _unjudged(game, extra)
    if len(game.players) > MAX_PLAYERS:
        return _unjudged(game, [])  # the reader has reported the Players tag
    extra = _variant_findings(game, ruleset)
    if extra:
        return _unjudged(game, extra)  # a variant close to none: its rules are not known
    try:
        result = ruleset.judge(game)
    except Exception as exc:  # a bug in a ruleset must not stop the batch
        return _unjudged(game, [*extra, internal_finding(game, exc)])
    reader_findings = game.findings
    if any(f.code == "bad-players" for f in result.findings):
        # the wrong table: its hands are not judged, so nothing about their names is said either
        reader_findings = tuple(f for f in reader_findings if f.code == "syntax")
    by_hand: dict[int | None, list[Finding]] = {}
    for f in (*reader_findings, *extra):
        by_hand.setdefault(f.hand, []).append(f)
    known = {h.number for h in result.hands}
    game_level = list(result.findings) + [f for h, fs in by_hand.items() if h not in known for f in fs]
    hands = tuple(
        replace(
            h, findings=tuple(sorted((_path(f, game) for f in (*by_hand.get(h.number, ()), *h.findings)), key=_order))
        )
        for h in result.hands
    )
    return replace(result, hands=hands, findings=tuple(sorted((_path(f, game) for f in game_level), key=_order)))


def _tag(game: Game, name: str) -> Tag | None:
    return next((t for t in game.tags if t.name == name), None)


def as_meant(game: Game) -> Game:
    """`game` with a rules tag's name, or a `Game` or `Variant` tag's value (or a word of the ruleset's
    `tag_words`), one keystroke from exactly one known word read as that word.

    One slip, one finding (NOTATION section 8, as for players' names): `[Playres "..."]`, `[Game "botifara"]` or
    `[Variant "clasic"]` gets one `syntax` finding naming the word meant, and the game is judged, scored,
    replayed and analysed by the rules meant. A value close to none (or to two) is left as written:
    `judge_game` reports it and does not judge the game. The tags as written stay in the record itself
    (the writer and `imp export` keep them); only what is judged reads them as meant.
    Idempotent: a game already read as meant comes back as it is.
    """
    game = _tags_as_meant(game)
    name = game.game_name
    if name is not None and name not in GAMES and (meant := _close_word(name, list(GAMES))) is not None:
        game = _retagged(game, "Game", meant, "game")
    ruleset = get_ruleset(game.game_name)
    variants = _variants(ruleset)
    variant = game.tag("Variant")
    if variant is not None and variants is not None and variant not in variants:
        meant = _close_word(variant, variants)
        if meant is not None:
            game = _retagged(game, "Variant", meant, "variant")
    for tag, words in getattr(ruleset, "tag_words", ()):
        value = game.tag(tag)
        if value is not None and value not in words and (meant := _close_word(value, list(words))) is not None:
            game = _retagged(game, tag, meant, f"`{tag}` tag")
    return game


def _tags_as_meant(game: Game) -> Game:
    """`game` with each tag whose name is one slip from a rules tag not written (`tag_meant`) read as that tag, with
    one `syntax` finding each: `[Playres "..."]` is the game's `Players`, `[variant "lliure"]` its `Variant`."""
    written = {t.name for t in game.tags}
    fixes = {id(t): meant for t in game.tags if (meant := tag_meant(t.name, written)) is not None}
    if not fixes or len(set(fixes.values())) < len(fixes):
        return game  # none, or two tags that would both be the same one: left as written
    findings = [
        Finding(
            "syntax",
            f"`[{t.name} ...]`: did you mean `[{fixes[id(t)]} ...]`? The tag is read as `{fixes[id(t)]}`",
            t.line,
            t.column,
            game.path,
            game.index,
        )
        for t in game.tags
        if id(t) in fixes
    ]
    header = tuple(replace(x, name=fixes[id(x)]) if isinstance(x, Tag) and id(x) in fixes else x for x in game.header)
    fixed = replace(game, header=header, findings=(*game.findings, *findings))
    return read_as_meant(fixed) if "Players" in fixes.values() else fixed


def _close_word(word: str, known: list[str]) -> str | None:
    """The one known rules word (a game, a variant) `word` stands for, one keystroke away, letter case aside."""
    folded = {k.casefold(): k for k in known}
    meant = one_keystroke(word.casefold(), list(folded))
    if meant is None and word.casefold() in folded:
        meant = word.casefold()
    return folded[meant] if meant is not None else None


def _retagged(game: Game, name: str, meant: str, what: str) -> Game:
    """`game` with its first `name` tag's value read as `meant`, and the one `syntax` finding saying so."""
    tag = _tag(game, name)
    assert tag is not None
    finding = Finding(
        "syntax",
        f"`{tag.value}`: did you mean `{meant}`? The {what} is judged as `{meant}`",
        tag.line,
        tag.column,
        game.path,
        game.index,
    )
    fixed = replace(tag, value=meant)
    header = tuple(fixed if x is tag else x for x in game.header)
    return replace(game, header=header, findings=(*game.findings, finding))


def _variants(ruleset: Ruleset | None) -> list[str] | None:
    """The variants `ruleset` lists, or None where it lists none."""
    variants = getattr(ruleset, "variants", None)
    return [str(v) for v in variants] if isinstance(variants, (tuple, list, frozenset, set)) else None


def _variant_findings(game: Game, ruleset: Ruleset) -> list[Finding]:
    """A `Variant` tag naming a variant the ruleset does not have (when it lists its variants)."""
    names = _variants(ruleset)
    tag = _tag(game, "Variant")
    if tag is None or names is None or tag.value in names:
        return []
    hint = did_you_mean(tag.value, names)
    message = (
        f"`{tag.value}`: did you mean `{hint}`?"
        if hint
        else f"`{tag.value}` is not a variant of {game.game_name} ({', '.join(names)})"
    )
    return [Finding("syntax", message, tag.line, tag.column, game.path, game.index)]


def _unjudged(game: Game, extra: list[Finding]) -> GameResult:
    """The result of a game that is not judged: the reader's findings, `extra`, and no scores."""
    players = game.players
    try:
        dealers = hand_dealers(game, players)
    except Exception:  # the dealers are a courtesy here; never let them fail the batch
        dealers = [None] * len(game.hands)
    hands = tuple(HandResult(h.number, d, False, None) for h, d in zip(game.hands, dealers))
    findings = tuple(_path(f, game) for f in (*game.findings, *extra))
    return GameResult(game.index, players, hands, {}, findings=findings, rules_checked=False)


def _path(f: Finding, game: Game) -> Finding:
    if f.path == game.path and f.game == game.index:
        return f
    return f.at(path=game.path, game=f.game if f.game is not None else game.index)
