"""Botifarra's seating and calls: who names trump, delegations and doublings, judged from the call lines."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from imptools.rules.base import FactKind
from imptools.rules.botifarra.cards import BOTIFARRA, SUIT_NAMES, TRUMP_WORDS
from imptools.slips import one_keystroke

PARTNERSHIP, INDIVIDUAL, TWO_PLAYER = "partnership", "individual", "two-player"
"""How the players score: two sides of two, each for themselves, or two players with piles."""


@dataclass(frozen=True, slots=True)
class Seating:
    """The players in turn order and how they score (`PARTNERSHIP`, `INDIVIDUAL` or `TWO_PLAYER`)."""

    players: tuple[str, ...]
    mode: str

    def partners(self, player: str) -> frozenset[str]:
        """The player's partners: the player two seats on in a partnership game, nobody otherwise."""
        if self.mode != PARTNERSHIP or player not in self.players:
            return frozenset()
        i = self.players.index(player)
        return frozenset({self.players[(i + 2) % 4]})

    def side(self, player: str) -> tuple[str, ...]:
        """The side a player scores with, in seating order."""
        mates = self.partners(player) | {player}
        return tuple(p for p in self.players if p in mates)

    def sides(self) -> tuple[tuple[str, ...], ...]:
        """Every side, in seating order of their first player."""
        return _sides(self)


@functools.lru_cache(maxsize=64)
def _sides(seating: Seating) -> tuple[tuple[str, ...], ...]:
    """`Seating.sides`, worked out once per seating (a game asks for every hand)."""
    out: list[tuple[str, ...]] = []
    for p in seating.players:
        side = seating.side(p)
        if side not in out:
            out.append(side)
    return tuple(out)


def side_name(side: Sequence[str]) -> str:
    """A side for a message or a column: `Ana+Carles`."""
    return "+".join(side)


DOUBLINGS = ("contro", "recontro", "sant-vicenc")
"""The doubling calls, in the order they may come."""
DELEGATE = "delegate"
"""The word of `trump DEALER delegate`."""


@dataclass(frozen=True, slots=True)
class CallLine:
    """One call line of a hand: `kind` is `trump` (with `word`, a suit word or `delegate`) or a doubling."""

    kind: str
    player: str
    word: str | None = None


@dataclass(frozen=True, slots=True)
class BadCall:
    """A call line the rules do not allow: its index among the lines judged, and why."""

    index: int
    reason: str
    code: str = "bad-call"
    """`bad-call`, or `syntax` for a word one keystroke from a suit (a slip of the pen, read as the suit meant)."""


@dataclass(frozen=True, slots=True)
class Calls:
    """What a hand's call lines come to.

    `named` says whether a `trump` line named a suit (the first that did is the
    trump played, `trump` its index, None for botifarra); `chooser` is who named
    it; `delegated_by` the dealer who passed the choice to the partner;
    `doubles` the doubling calls that stand, as (kind, player); `bad` the lines
    that break the rules (each ignored for the multiplier).
    """

    named: bool = False
    trump: int | None = None
    chooser: str | None = None
    delegated_by: str | None = None
    doubles: tuple[tuple[str, str], ...] = ()
    bad: tuple[BadCall, ...] = ()

    @property
    def botifarra(self) -> bool:
        """True when trump was named and is botifarra (no trump)."""
        return self.named and self.trump is None

    @property
    def multiplier(self) -> int:
        """1; contro 2; recontro 4; sant-vicenc 8; doubled again on botifarra."""
        return (1 << len(self.doubles)) * (2 if self.botifarra else 1)

    @property
    def trump_word(self) -> str | None:
        """The trump as a `trump` line writes it (`copes`, `botifarra`), None when no line named one."""
        if not self.named:
            return None
        return BOTIFARRA if self.trump is None else SUIT_NAMES[self.trump]


def unreadable(word: str | None) -> bool:
    """A trump line's word that is no suit, not `delegate`, and not one keystroke from either (reported already)."""
    return word not in TRUMP_WORDS and word != DELEGATE and trump_word_meant(word) is None


def trump_word_meant(word: str | None) -> str | None:
    """The suit word (or `delegate`) a trump line's word is one keystroke from, when it is not one itself.

    >>> trump_word_meant("copas"), trump_word_meant("Oros"), trump_word_meant("copes"), trump_word_meant("pal")
    ('copes', 'oros', None, None)
    """
    if word is None or word in TRUMP_WORDS or word == DELEGATE:
        return None
    return one_keystroke(word, [*TRUMP_WORDS, DELEGATE])


def judge_calls(lines: Sequence[CallLine], dealer: str, seating: Seating) -> Calls:
    """Judge a hand's call lines, in the order they were written.

    The dealer names trump, or in a partnership game delegates with `trump
    DEALER delegate` and the partner must then name it; a second line naming a
    suit is bad. `contro` comes from the side that did not choose, `recontro`
    then from the choosing side, `sant-vicenc` then from the contro side and not
    on botifarra; each at most once, in that order. Individual games allow only
    `contro`, by anyone but the chooser (the dealer), and not on botifarra.
    Trump is judged from every `trump` line before the doublings, so a doubling
    written above the `trump` line is judged against it. Of two lines that
    clash, the later one is bad.

    >>> s = Seating(("Ana", "Bernat", "Carles", "Dolors"), PARTNERSHIP)
    >>> c = judge_calls([CallLine("trump", "Ana", "delegate"), CallLine("trump", "Carles", "copes"),
    ...                  CallLine("contro", "Bernat"), CallLine("recontro", "Ana")], "Ana", s)
    >>> c.chooser, c.multiplier, c.bad
    ('Carles', 4, ())
    """
    bad: list[BadCall] = []
    choosing = set(seating.side(dealer))
    mode = seating.mode
    delegated_to: str | None = None
    delegated_by: str | None = None
    named: int | None = None
    trump: int | None = None
    chooser: str | None = None
    for i, line in enumerate(lines):
        if line.kind != "trump":
            continue
        p = line.player
        meant = trump_word_meant(line.word)
        if meant is not None:  # one slip, one finding: the word is read as the one meant
            bad.append(BadCall(i, f"`{line.word}` is not a suit: read as `{meant}`, one keystroke away", "syntax"))
            line = replace(line, word=meant)
        if line.word == DELEGATE:
            if mode != PARTNERSHIP:
                bad.append(BadCall(i, f"{p} delegates the choice of trump, but only partners may delegate"))
            elif p != dealer:
                bad.append(BadCall(i, f"{p} delegates the choice of trump, but only the dealer ({dealer}) may"))
            elif named is not None:
                bad.append(BadCall(i, f"{p} delegates the choice of trump after trump was named"))
            elif delegated_to is not None:
                bad.append(BadCall(i, f"{p} delegates the choice of trump a second time"))
            else:
                delegated_to = next(iter(seating.partners(dealer)))
                delegated_by = dealer
            continue
        if line.word not in TRUMP_WORDS:
            bad.append(BadCall(i, f"{p} names `{line.word}`: trump is oros, copes, espases, bastos or botifarra"))
            continue
        if named is not None:
            first = lines[named]
            bad.append(BadCall(i, f"{p} names {line.word}, but {first.player} already named {first.word}"))
            continue
        named, chooser = i, p
        trump = TRUMP_WORDS.get(line.word or "")
        due = delegated_to or dealer
        if p != due:
            if delegated_to is not None and p == dealer:
                reason = f"{p} names {line.word} after delegating the choice to {delegated_to}"
            elif p in choosing and mode == PARTNERSHIP:
                reason = f"{p} names {line.word}, but only the dealer {dealer} may delegate the choice to {p}"
            else:
                reason = f"{p} names {line.word}, but it is {due}'s choice"
            bad.append(BadCall(i, reason))
    botifarra = named is not None and trump is None
    doubles: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        if line.kind not in DOUBLINGS:
            continue
        p, kind = line.player, line.kind
        k = DOUBLINGS.index(kind)
        done = dict(doubles)
        why: str | None = None
        if mode == INDIVIDUAL and k > 0:
            why = f"{kind} {p}: individual games allow only contro"
        elif kind in done:
            why = f"{kind} {p}: {done[kind]} already called {kind}"
        elif k != len(doubles):
            why = f"{kind} {p} comes before any {DOUBLINGS[len(doubles)]}"
        elif mode == INDIVIDUAL:
            if p == dealer:
                why = f"contro {p}: the player who chooses trump may not double"
            elif botifarra:
                why = f"contro {p}: individual games allow no contro on botifarra"
        elif k == 1 and p not in choosing:
            why = f"recontro {p}: only the side that chose trump ({side_name(seating.side(dealer))}) may redouble"
        elif k != 1 and p in choosing:
            why = f"{kind} {p}: {p} is on the side that chose trump"
        elif k == 2 and botifarra:
            why = f"sant-vicenc {p}: there is no sant-vicenc on botifarra"
        if why is None:
            doubles.append((kind, p))
        else:
            bad.append(BadCall(i, why))
    return Calls(
        named is not None,
        trump,
        chooser,
        delegated_by,
        tuple(doubles),
        tuple(sorted(bad, key=lambda b: b.index)),
    )


_SHOWN = {"contro": "contros", "recontro": "recontros", "sant-vicenc": "sant-vicenç"}
"""How a doubling is shown, counted."""

FACTS = (
    *(FactKind(f"trump-{word}", f"trump chosen: {word}") for word in TRUMP_WORDS),
    FactKind("delegated", "choices of trump delegated"),
    *(
        fact
        for kind in DOUBLINGS
        for fact in (
            FactKind(kind, f"{_SHOWN[kind]} called by his side"),
            FactKind(f"{kind}-won", f"{_SHOWN[kind]} called and won"),
        )
    ),
)
"""A player's facts of a scored hand: the trump he named (the partner who names it after a delegation, not the
dealer, who counts a delegation); each doubling his side called (by him or his partner), and those of them after
which his side scored."""


def call_facts(calls: Calls, seating: Seating, scores: Mapping[str, int]) -> tuple[tuple[str, str, int], ...]:
    """`(player, key, 1)` for each of `FACTS` a scored hand gives a player, from its calls and its scores."""
    out: list[tuple[str, str, int]] = []
    if calls.named and calls.chooser is not None:
        out.append((calls.chooser, f"trump-{calls.trump_word}", 1))
    if calls.delegated_by is not None:
        out.append((calls.delegated_by, "delegated", 1))
    for kind, caller in calls.doubles:
        for p in seating.side(caller):
            out.append((p, kind, 1))
            if scores.get(p, 0) > 0:
                out.append((p, f"{kind}-won", 1))
    return tuple(out)
