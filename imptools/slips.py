"""One slip, one finding: a player's name one keystroke from exactly one player's is read as that player.

A scorekeeper who writes `Dorris` for `Doris` has made one slip, not thrown the
hand away. `read_as_meant` finds every such name in a game (the dealer, the
names on `deal`, `discard`, `pass`, `open`, call and bid lines, a trick's named
plays, each name on a `score` or `total` line), reports each once as
`unknown-player` naming the player meant, and gives back the game with those
names read as the player meant. The name as written stays on the `NameRef`
(`written`), so the writer puts back what the scorekeeper wrote.

A name close to no player, or to two, is left as it is: the rules report it and
keep their own order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from imptools.findings import Finding
from imptools.record import (
    Bid,
    Call,
    Deal,
    Declare,
    Discard,
    Game,
    Hand,
    HandLine,
    NameRef,
    Open,
    Pass,
    Play,
    ScoreEntry,
    ScoreLine,
    Trick,
    Trump,
)

__all__ = ["RULES_TAGS", "one_keystroke", "read_as_meant", "tag_meant"]


def _one_edit(a: str, b: str) -> bool:
    """True when `a` becomes `b` by one letter added, dropped or changed, or two neighbouring letters swapped.

    >>> _one_edit("Dorris", "Doris"), _one_edit("Bety", "Betty"), _one_edit("Btety", "Betty")
    (True, True, True)
    >>> _one_edit("Doris", "Doris"), _one_edit("Dolors", "Ana")
    (False, False)
    """
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def one_keystroke(name: str, players: Sequence[str]) -> str | None:
    """The one player `name` stands for when it differs from that player's name by one slip, else None.

    One slip: letter case alone, or one edit (`_one_edit`). None when `name` is a
    player, or is one slip from no player or from two.

    >>> one_keystroke("Dorris", ["Adam", "Betty", "Christian", "Doris"])
    'Doris'
    >>> one_keystroke("betty", ["Adam", "Betty"])
    'Betty'
    >>> one_keystroke("Al", ["Al", "Bo", "Cy"]) is None, one_keystroke("Bp", ["Bo", "Be"]) is None
    (True, True)
    """
    if name in players:
        return None
    folded = name.casefold()
    close = [p for p in players if p.casefold() == folded or _one_edit(name, p)]
    return close[0] if len(close) == 1 else None


RULES_TAGS = ("Game", "Players", "Variant", "Deck", "Teams", "Target", "Hands")
"""The tags whose values the rules read (NOTATION section 2); any other tag is kept and not checked."""


def tag_meant(name: str, written: Collection[str]) -> str | None:
    """The rules tag a tag called `name` stands for: one slip from exactly one of them (as `one_keystroke` has it)
    and not written itself in the game (`written`: the names of its tags), else None.

    >>> tag_meant("Playres", ["Game", "Playres"]), tag_meant("variant", ["Game", "Players", "variant"])
    ('Players', 'Variant')
    >>> tag_meant("Event", ["Event"]), tag_meant("Player", ["Players", "Player"])
    (None, None)
    """
    meant = one_keystroke(name, RULES_TAGS)
    return meant if meant is not None and meant not in written else None


_ONE_NAME = (Deal, Discard, Open, Trump, Call, Bid, Declare)


def _names_known(hand: Hand, players: frozenset[str]) -> bool:
    """True when every name in `hand` is a player's (a tight loop: most records have no slip at all)."""
    if hand.dealer is not None and hand.dealer.name not in players:
        return False
    for line in hand.lines:
        if isinstance(line, Trick):
            for play in line.plays:
                if play.player is not None and play.player.name not in players:
                    return False
        elif isinstance(line, _ONE_NAME):
            if line.player.name not in players:
                return False
        elif isinstance(line, Pass):
            if line.giver.name not in players or line.receiver.name not in players:
                return False
        elif isinstance(line, ScoreLine):
            for entry in line.entries:
                if entry.player.name not in players:
                    return False
    return True


class _Reader:
    """Walks one game's names, rewriting the slips and collecting one finding for each."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.findings: list[Finding] = []
        self.hand = 0
        self.tag_slips = _tag_slips(game)
        self.told: set[str] = set()

    def name(self, ref: NameRef, trick: int | None = None) -> NameRef:
        meant = one_keystroke(ref.name, self.players)
        if meant is None:
            return ref
        if ref.name in self.told:
            return replace(ref, name=meant, written=ref.written or ref.name)
        message = f"`{ref.name}` is not a player: read as `{meant}`, one keystroke away"
        if ref.name in self.tag_slips:
            # the slip is in the Players tag: the record spells this player one way throughout
            self.told.add(ref.name)
            message += (
                f" (the record writes `{ref.name}` {self.tag_slips[ref.name]} times and never `{meant}`:"
                " the one slip is in the Players tag, read as the same player everywhere)"
            )
        self.findings.append(
            Finding(
                "unknown-player",
                message,
                ref.line,
                ref.column,
                self.game.path,
                self.game.index,
                self.hand,
                trick,
                meant,
            )
        )
        return replace(ref, name=meant, written=ref.written or ref.name)

    def line(self, line: HandLine) -> HandLine:
        if isinstance(line, (Deal, Discard, Open, Trump, Call, Bid, Declare)):
            player = self.name(line.player)
            return line if player is line.player else replace(line, player=player)
        if isinstance(line, Pass):
            giver, receiver = self.name(line.giver), self.name(line.receiver)
            if giver is line.giver and receiver is line.receiver:
                return line
            return replace(line, giver=giver, receiver=receiver)
        if isinstance(line, Trick):
            plays = tuple(self.play(p, line.number) for p in line.plays)
            return line if all(a is b for a, b in zip(plays, line.plays)) else replace(line, plays=plays)
        if isinstance(line, ScoreLine):
            entries = tuple(self.entry(e) for e in line.entries)
            return line if all(a is b for a, b in zip(entries, line.entries)) else replace(line, entries=entries)
        return line

    def play(self, play: Play, trick: int) -> Play:
        if play.player is None:
            return play
        player = self.name(play.player, trick)
        return play if player is play.player else replace(play, player=player)

    def entry(self, entry: ScoreEntry) -> ScoreEntry:
        player = self.name(entry.player)
        return entry if player is entry.player else replace(entry, player=player)

    def read_hand(self, hand: Hand) -> Hand:
        self.hand = hand.number
        dealer = self.name(hand.dealer) if hand.dealer is not None else None
        lines = tuple(self.line(x) for x in hand.lines)
        if dealer is hand.dealer and all(a is b for a, b in zip(lines, hand.lines)):
            return hand
        return replace(hand, dealer=dealer, lines=lines)


def _written_names(hand: Hand) -> list[str]:
    """Every name `hand` writes (dealer, lines, named plays, score and total entries)."""
    out = [hand.dealer.name] if hand.dealer is not None else []
    for line in hand.lines:
        if isinstance(line, _ONE_NAME):
            out.append(line.player.name)
        elif isinstance(line, Pass):
            out += [line.giver.name, line.receiver.name]
        elif isinstance(line, Trick):
            out += [p.player.name for p in line.plays if p.player is not None]
        elif isinstance(line, ScoreLine):
            out += [e.player.name for e in line.entries]
    return out


def _tag_slips(game: Game) -> dict[str, int]:
    """The names the record writes at least twice, one keystroke from a player whose own spelling it never
    writes: the slip is the Players tag's, made once (name -> how many times the record writes it)."""
    counts: dict[str, int] = {}
    for hand in game.hands:
        for name in _written_names(hand):
            counts[name] = counts.get(name, 0) + 1
    out: dict[str, int] = {}
    for name, n in counts.items():
        meant = one_keystroke(name, game.players) if n >= 2 else None
        if (
            meant is not None
            and meant not in counts
            and sum(one_keystroke(w, game.players) == meant for w in counts) == 1
        ):
            out[name] = n
    return out


def read_as_meant(game: Game) -> Game:
    """`game` with every name one keystroke from exactly one player read as that player, and a finding for each.

    The findings are added to `game.findings`; a game with no such name comes back as it was.
    """
    if not game.players or not game.hands:
        return game
    players = frozenset(game.players)
    if all(_names_known(h, players) for h in game.hands):
        return game  # the common case, checked without building anything
    reader = _Reader(game)
    hands = tuple(reader.read_hand(h) if not _names_known(h, players) else h for h in game.hands)
    if not reader.findings:
        return game
    return replace(game, hands=hands, findings=(*game.findings, *reader.findings))
