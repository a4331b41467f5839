"""Trick walking: seats every play of a hand and judges each trick through the ruleset's `settle` callback."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from imptools.record import Game, Hand, Trick
from imptools.rules.exchange import Resolve, after_exchange

__all__ = [
    "Fill",
    "Played",
    "Resolve",
    "Walk",
    "after_exchange",
    "follow",
    "hand_dealers",
    "held_filler",
    "turn_order",
    "walk_tricks",
]
# `after_exchange` lives in `imptools.rules.exchange`, named here too for the Botifarra search position.

Fill = Callable[[Trick, int, str], int | None]
"""`walk_tricks`' `fill`: the card the `i`-th play of a trick (by a player) must be where it is a `?`, or None."""


@dataclass(slots=True)
class Played:
    """One trick as the record shows it: who made each play, the cards, the winning play.

    `winner` is the index of the winning play, None for an unfinished last trick;
    `after` is the ruleset's per-game state once the trick is settled.
    """

    trick: Trick
    who: list[str]
    cards: list[int]
    winner: int | None = None
    after: Any = None

    @property
    def winner_name(self) -> str | None:
        return None if self.winner is None else self.who[self.winner]


@dataclass(slots=True)
class Walk:
    """A hand's tricks, played in order as far as the record allows.

    `whole` is True when every trick was full and every card known; the walk
    stops at the first trick that is short (before the last), holds an unknown
    card or a token that is not a card. `unfinished` is the record's short last
    trick, seated, when the record stops inside it.
    """

    tricks: list[Played]
    whole: bool
    unfinished: Played | None = None
    stopped: tuple[Trick, list[str]] | None = None
    """The trick the walk stopped at, before the record's end (an unknown card, a token
    that is not a card, a winner the record does not determine), with who made each play
    as turn order tells; None when the walk went through or ended in `unfinished`."""
    next: str | None = None
    """Who plays the next card after the record's last play (None when the walk stopped short)."""
    why: str | None = None
    """What stopped the walk at `stopped`, with its evidence (`stop_note`'s words), else None."""

    def numbered_plays(self) -> list[tuple[int, str, int]]:
        """Every play the walk seated, the unfinished trick's too, as (trick number, player, card) in play order."""
        out = [(self.tricks[t].trick.number, p, c) for t, _, p, c in self.plays()]
        if self.unfinished is not None:
            number = self.unfinished.trick.number
            out += [(number, p, c) for p, c in zip(self.unfinished.who, self.unfinished.cards)]
        return out

    def stop_note(self) -> str | None:
        """Why the seated plays end before the record's tricks do, naming the trick and what stopped the walk there
        (a card not known, too many plays or too few, a winner the record does not determine), or None."""
        if self.stopped is None or self.why is None:
            return None
        trick = self.stopped[0]
        return f"trick {trick.number} (line {trick.line}) {self.why}: the analysis stops before it"

    def seats(self) -> dict[tuple[int, int], str]:
        """Who made each play the walk could seat, by the (line, column) of its card token."""
        seated: list[tuple[Trick, list[str]]] = [(p.trick, p.who) for p in self.tricks]
        if self.unfinished is not None:
            seated.append((self.unfinished.trick, self.unfinished.who))
        if self.stopped is not None:
            seated.append(self.stopped)
        return {(play.card.line, play.card.column): p for trick, who in seated for play, p in zip(trick.plays, who)}

    def plays(self) -> Iterable[tuple[int, int, str, int]]:
        """Every play as (trick index, play index, player, card), in play order."""
        for t, played in enumerate(self.tricks):
            for i, (p, c) in enumerate(zip(played.who, played.cards)):
                yield t, i, p, c


def walk_tricks(
    hand: Hand,
    order: Sequence[str],
    per_trick: int,
    resolve: Resolve,
    settle: Callable[[Played], int | None],
    fill: Fill | None = None,
) -> Walk:
    """Seat and judge the tricks of `hand`.

    `order` is the seating, starting with the player who leads trick 1; play goes
    round it, and each trick is led by the seat of the previous trick's winner.
    `settle` judges a full trick (and moves whatever the game moves: bottles,
    points) and returns the winning play's index, or None when the record does
    not determine it (the walk then stops there, as at an unknown card).
    `fill(trick, i, player)` names the card a `?` play must be when the record
    determines it (None when it does not).
    """
    n = len(order)
    leader = 0
    out: list[Played] = []
    tricks = hand.tricks
    for k, trick in enumerate(tricks):
        cards = [None if p.card.unknown else resolve(p.card.text) for p in trick.plays]
        seats = [(leader + i) % n for i in range(len(cards))]
        who = [order[s] for s in seats]
        if fill is not None:
            cards = [
                fill(trick, i, who[i]) if p.card.unknown else c for i, (p, c) in enumerate(zip(trick.plays, cards))
            ]
        known = [c for c in cards if c is not None]
        if len(known) != len(cards):
            token = trick.plays[cards.index(None)].card
            if token.unknown:
                why = f"holds a `?` (column {token.column}), and the record does not say which card it was"
            else:
                why = f"holds `{token.text}` (column {token.column}), not a card of this deck"
            return Walk(out, False, stopped=(trick, who), why=why)
        if len(cards) > per_trick:
            why = f"has {len(cards)} plays; every trick has {per_trick}"
            return Walk(out, False, stopped=(trick, who), why=why)
        played = Played(trick, who, known)
        if len(cards) < per_trick:
            last = k == len(tricks) - 1
            after = order[(leader + len(cards)) % n] if last else None
            short = None if last else f"has {len(cards)} plays of {per_trick} and is not the last trick"
            return Walk(out, False, played if last else None, None if last else (trick, who), after, short)
        winner = settle(played)
        if winner is None:
            why = "has no winner the record determines"
            return Walk(out, False, stopped=(trick, who), why=why)
        played.winner = winner
        out.append(played)
        leader = seats[winner]
    return Walk(out, True, next=order[leader] if n else None)


def held_filler(hand: Hand, resolve: Resolve) -> Fill:
    """`walk_tricks`' `fill` where every card a player holds is played: a `?` is the one card of the player's
    holding (as the deal and the exchange leave it, where recorded: `after_exchange`) that no trick of the record
    shows; None where his holding is not recorded or leaves more than one card (two `?` of his, a short record).
    Both are worked out at the first `?` only."""
    known: list[tuple[dict[str, set[int]], set[int]]] = []  # the holdings and every card the tricks name

    def fill(trick: Trick, i: int, player: str) -> int | None:
        if not known:
            tokens = (play.card for t in hand.tricks for play in t.plays if not play.card.unknown)
            known.append((after_exchange(hand, resolve), {c for x in tokens if (c := resolve(x.text)) is not None}))
        held, shown = known[0]
        cards = held.get(player)
        if cards is None:
            return None
        left = cards - shown
        return next(iter(left)) if len(left) == 1 else None

    return fill


def turn_order(players: Sequence[str], dealer: str) -> list[str]:
    """The seating for a hand, starting with the player after the dealer (who leads trick 1)."""
    i = list(players).index(dealer)
    return [*players[i + 1 :], *players[: i + 1]]


def hand_dealers(game: Game, players: tuple[str, ...], dealing: Sequence[str] | None = None) -> list[str | None]:
    """Each hand's dealer: as written, else hand 1's is the last of `dealing` and each later one the next in turn.

    `dealing` are the players who deal in turn (all `players` by default; the Bottle Imp's Lopaka never deals). A
    dealer written who is not among them (a name that is nobody's, or Lopaka) is the mistake, reported elsewhere:
    the rotation stands.
    """
    turn = players if dealing is None else tuple(dealing)
    dealers: list[str | None] = []
    previous: str | None = None
    for hand in game.hands:
        if hand.dealer is not None and hand.dealer.name in turn:
            dealer: str | None = hand.dealer.name
        elif previous is None or not turn:
            dealer = turn[-1] if turn else None
        else:
            dealer = turn[(turn.index(previous) + 1) % len(turn)] if previous in turn else turn[0]
        dealers.append(dealer)
        previous = dealer
    return dealers


def follow(held: Iterable[int], led: str | None, suit_of: Callable[[int], str]) -> list[int]:
    """The cards a player may play when the only rule is to follow the suit led: those of that suit, if any.

    >>> follow([3, 14, 15], "b", lambda c: "b" if c > 10 else "y")
    [14, 15]
    """
    cards = sorted(held)
    if led is None:
        return cards
    return [c for c in cards if suit_of(c) == led] or cards
