"""The worlds a player could be in: every way to lay the cards he has not seen that agrees with what he saw.

API (stable; `imp analyse --knowing` and the bots that play by what they know use it):

- `Worlds.of(game, hand_number, made, player=None) -> Worlds | str`: the worlds of hand `hand_number` of `game`
  after its first `made` plays (the record's plays, `KnownDeal.played.plays`, in order), as seen by `player`
  (default: the player to move then), or why there are none to deal (a record whose deal lines, discards or bid
  cards are not all there; a game the registry cannot lay out). `Worlds(deal, made, player)` does the same from a
  `KnownDeal` (`imptools.rules.get_known_deal(tag)(game, hand_number)`), to make many views of one hand cheaply.
- A world (`World`) gives each place `player` has not seen (`Worlds.places`: another player's hand as it is now,
  or the pack of his two he keeps face down, his discards, his bid cards, the imp's trick of nobody, a face-down
  pile card not yet turned up, his own too) a set of cards of its exact size, from the cards he has not seen
  (`Worlds.pool`). It is **consistent** when (1) a card he passed is in its receiver's hand unless the receiver has
  played it since, and (2) every play made so far by every player is legal with the cards the world gives that
  player at that moment (his hand now plus every card he has played since, that play's card included; with two
  packs, each pack so, a card judged in the pack it came from): voids, following, Botifarra's obligations,
  Lopaka's automaton. A player may play from several places only where all but one are shown (the Bottle Imp's
  open pack, a pile's top card), so everyone knows which place each card he played came from.
- `Worlds.position(world) -> SearchPosition | None`: the position after the `made` plays, every card of that world
  visible (a game-tree search values it: `imptools.search.Search`), or None when the world is not consistent.
- `Worlds.all(limit=ENUMERATE_CAP) -> list[World]`: every consistent world, in a fixed order (`TooMany` past
  `limit` candidates).
- `Worlds.sample(n, rng) -> list[World]`: `n` worlds drawn independently and uniformly from the consistent ones
  (with replacement).
- `Worlds.choose(samples, seed) -> list[World]`: what the knowing analysis averages: every consistent world for
  `samples=None`; else every one where there are at most `samples`, otherwise `samples` uniform draws, the random
  numbers from `seed` alone.
- `Worlds.actual() -> World`: the record's own world (always consistent for a record that breaks no rule).
- To value a world: `imptools.analyse.world_values(position, player) -> {card: value}`, the paranoid value (every
  card visible) after each legal card of the player to move; `imptools.analyse.knowing_play` averages them.
- Attributes: `player` (the viewer), `places` and `sizes` (the unseen places and how many cards each holds now),
  `spent` (the cards each of those places' owner has played from it),
  `pool` (the unseen cards), `history` (the plays made), `deal` (the `KnownDeal`).

How a draw stays uniform: each card of the pool may go to the places the record allows it (a passed card to its
receiver; a card that would have made a past play illegal, added alone to what that player is known to have held
then, not to his hand: a void, a card that must have beaten; with two packs, what he held then in the pack the
card came from, to that pack). Places every card may go to alike form a class (`kinds`: two-player Botifarra's
face-down pile cards, one a place). The number of ways to deal the pool to the classes, exact sizes and those
allowances kept, is counted exactly (a count per card and classes' room left), and a deal is drawn card by card
with each class's chance equal to the share of the ways that put the card there, then each class's cards are
shuffled and cut at its places' sizes (every deal to the classes shares out in the same number of ways): every
allowed deal is equally likely. The allowances only ever rule out worlds that break rule (2) (a play's legality
never returns when cards are added to a hand), so the consistent worlds are all among the allowed deals; a drawn
deal is then checked play by play against rule (2) and drawn again when it breaks it (rejection), which keeps the
draw uniform over the consistent worlds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import factorial, prod
from random import Random

from imptools.record import Game
from imptools.rules import get_known_deal
from imptools.rules.base import KnownDeal, Place, SearchPosition

ENUMERATE_CAP = 2_000_000
"""`all` refuses to look at more candidate deals than this (the caller asked for an endgame's every world)."""

SMALL = 4
"""`choose` enumerates the consistent worlds where there are at most this many candidate deals per sample asked:
drawing from the list is the same uniform draw, and it tells when all of them are fewer than the samples asked."""

TRIES = 2_000
"""Candidate deals drawn per world asked before `sample` gives up on a world (it returns the ones it found)."""


class TooMany(ValueError):
    """More candidate deals than asked to enumerate (or, drawing, none consistent found); the message says so."""


@dataclass(frozen=True, slots=True)
class World:
    """One way to lay the unseen cards: a set of cards for each of `Worlds.places`, in their order."""

    cards: tuple[frozenset[int], ...]


class Worlds:
    """The consistent worlds of one hand after its first `made` plays, as `player` saw it (see the module's API)."""

    def __init__(self, deal: KnownDeal, made: int, player: str | None = None) -> None:
        self.deal = deal
        plays = deal.played.plays
        if not 0 <= made <= len(plays):
            raise ValueError(f"the hand has {len(plays)} plays, not {made}")
        self.made = made
        self.history = plays[:made]
        if player is None:
            probe = self._replay(deal.start([p.cards for p in deal.places]))
            player = "" if probe is None or probe.done() else probe.to_move()
        self.player = player
        played_by: dict[str, set[int]] = {}
        for _, who, card in self.history:
            played_by.setdefault(who, set()).add(card)
        self.played_by = played_by
        played = {card for _, _, card in self.history}
        seen: list[int] = []
        hidden: list[int] = []
        for i, place in enumerate(deal.places):
            if place.under is not None:  # a face-down pile card: seen by all once the card on it is played
                if place.under in played:
                    seen.append(i)
                else:
                    hidden.append(i)
            elif place.owner == player or place.shown:
                seen.append(i)
            else:
                hidden.append(i)
        self.seen = tuple(seen)
        self.hidden = tuple(hidden)
        self.places: tuple[Place, ...] = tuple(deal.places[i] for i in hidden)
        """The places `player` has not seen, as a world fills them."""
        self.spent: tuple[frozenset[int], ...] = tuple(self._spent(deal.places[i]) for i in hidden)
        """For each of `places`, the cards its owner has played from it since play started."""
        owners = [p.owner for p in self.places if p.plays]
        if len(owners) != len(set(owners)):
            raise ValueError("a player plays from two places another cannot see: which one a card came from is unknown")
        now = [self._now(deal.places[i]) for i in hidden]
        self.sizes = tuple(len(c) for c in now)
        self.pool: tuple[int, ...] = tuple(sorted(set().union(*now))) if now else ()
        """The cards `player` has not seen, low to high."""
        self._actual = World(tuple(now))
        self.allowed = self._allowances()
        """For each card of the pool, the indexes of the places (in `places`) it may lie in."""
        self.kinds = self._kinds()
        """The places in classes every card may lie in alike (each class's places, in `places`' order): the count
        and the draw deal the pool to the classes, then share each class's cards out among its places."""
        kind_of = {k: t for t, kind in enumerate(self.kinds) for k in kind}
        self._kind_allowed = tuple(tuple(sorted({kind_of[k] for k in a})) for a in self.allowed)
        self._kind_sizes = tuple(sum(self.sizes[k] for k in kind) for kind in self.kinds)
        self._shares = prod(
            factorial(self._kind_sizes[t]) // prod(factorial(self.sizes[k]) for k in kind)
            for t, kind in enumerate(self.kinds)
        )
        """The ways to share out each class's cards among its places, once the classes' cards are dealt."""
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}

    # ----------------------------------------------------------------------- construction

    @classmethod
    def of(cls, game: Game, hand_number: int, made: int, player: str | None = None) -> Worlds | str:
        """The worlds of a recorded hand (see the module's API), or why there are none to deal."""
        known = get_known_deal(game.game_name)
        if known is None:
            return f"imptools cannot deal worlds for {game.game_name or 'this game'}"
        deal = known(game, hand_number)
        if isinstance(deal, str):
            return deal
        return cls(deal, made, player)

    def _spent(self, place: Place) -> frozenset[int]:
        """The cards played from a place since play started (none but from a hand or pack). A player who plays from
        two places (the Bottle Imp's packs) has all but one of them seen by everyone, so which one a card he played
        came from is known to all: the shown one where it lay there, else the other."""
        if place.plays and place.owner is not None:
            return place.cards & frozenset(self.played_by.get(place.owner, ()))
        return frozenset()

    def _now(self, place: Place) -> frozenset[int]:
        """A place's cards after the plays made: a hand less what its owner has played from it."""
        return place.cards - self._spent(place)

    def _kinds(self) -> tuple[tuple[int, ...], ...]:
        """The places every card of the pool may lie in alike (the same allowances), in classes, each class in
        `places`' order and the classes in the order of their first place."""
        columns: dict[tuple[int, ...], list[int]] = {}
        for k in range(len(self.places)):
            column = tuple(i for i, where in enumerate(self.allowed) if k in where)
            columns.setdefault(column, []).append(k)
        return tuple(sorted((tuple(kind) for kind in columns.values()), key=lambda kind: kind[0]))

    def _allowances(self) -> tuple[tuple[int, ...], ...]:
        """Where each card of the pool may lie: rule (1), and the cards a past play proves its player did not hold
        (each tried alone, added to the cards he is known to have held then: that play's card and the cards he
        played from his hand after it, and where the position says what he could play besides his hand
        (`playable`: a pile's top cards), those too)."""
        places = self.places
        hand_of = {p.owner: k for k, p in enumerate(places) if p.plays and p.owner is not None}
        every = tuple(range(len(places)))
        allowed: dict[int, set[int]] = {c: set(every) for c in self.pool}
        for giver, receiver, card in self.deal.passed:
            if giver == self.player and card in allowed and receiver in hand_of:
                allowed[card] = {hand_of[receiver]}
        pos = self.deal.start([p.cards for p in self.deal.places])
        legal_from = getattr(pos, "legal_from", None)
        playable = getattr(pos, "playable", None)
        for j, (_, who, card) in enumerate(self.history):
            k = hand_of.get(who)
            if k is not None and legal_from is not None and pos.forced() is None:
                if playable is not None:  # what he could play then, less his hand now: every card of it seen
                    known: set[int] | None = set(playable()) - self._actual.cards[k]
                elif card in self.spent[k]:
                    # Judged within the place the card came from (a pack is judged alone; a play from a shown
                    # pack proves nothing about the hidden one).
                    spent = self.spent[k]
                    known = {card} | {c for _, w, c in self.history[j + 1 :] if w == who and c in spent}
                else:
                    known = None
                if known is not None:
                    for u in self.pool:
                        if k in allowed[u] and card not in legal_from(sorted(known | {u})):
                            allowed[u].discard(k)
            pos.play(card)
        return tuple(tuple(sorted(allowed[c])) for c in self.pool)

    # ----------------------------------------------------------------------- worlds

    def actual(self) -> World:
        """The record's own world."""
        return self._actual

    def start_cards(self, world: World) -> list[frozenset[int]]:
        """Every place's cards where play starts in `world` (hands with the cards their owners have played since)."""
        out = [p.cards for p in self.deal.places]
        for i, cards, spent in zip(self.hidden, world.cards, self.spent):
            out[i] = cards | spent
        return out

    def _replay(self, pos: SearchPosition) -> SearchPosition | None:
        for _, who, card in self.history:
            if pos.done() or pos.to_move() != who:
                return None
            forced = pos.forced()
            if (forced is not None and forced != card) or card not in pos.legal():
                return None
            pos.play(card)
        return pos

    def position(self, world: World) -> SearchPosition | None:
        """The position after the plays made, every card of `world` visible; None where `world` breaks rule (1) or
        (2)."""
        passed = {c: r for g, r, c in self.deal.passed if g == self.player}
        for k, cards in enumerate(world.cards):
            place = self.places[k]
            for c in cards:
                if c in passed and (not place.plays or place.owner != passed[c]):
                    return None
        return self._replay(self.deal.start(self.start_cards(world)))

    def candidates(self) -> int:
        """How many deals of the pool to the places keep their sizes and the allowances (at least as many as the
        consistent worlds)."""
        return self._count(0, self._kind_sizes) * self._shares

    def _count(self, i: int, room: tuple[int, ...]) -> int:
        """The ways to deal the pool's cards from the `i`th on to the classes of places (`kinds`) with `room` left
        in each, the allowances kept."""
        if i == len(self.pool):
            return 1
        key = (i, room)
        found = self._counts.get(key)
        if found is None:
            found = 0
            for k in self._kind_allowed[i]:
                if room[k]:
                    found += self._count(i + 1, room[:k] + (room[k] - 1,) + room[k + 1 :])
            self._counts[key] = found
        return found

    def _deals(self) -> Iterator[World]:
        """Every allowed deal, in a fixed order."""
        pool, allowed = self.pool, self.allowed
        chosen: list[list[int]] = [[] for _ in self.places]
        room = list(self.sizes)

        def walk(i: int) -> Iterator[World]:
            if i == len(pool):
                yield World(tuple(frozenset(c) for c in chosen))
                return
            for k in allowed[i]:
                if room[k]:
                    room[k] -= 1
                    chosen[k].append(pool[i])
                    yield from walk(i + 1)
                    chosen[k].pop()
                    room[k] += 1

        yield from walk(0)

    def all(self, limit: int = ENUMERATE_CAP) -> list[World]:
        """Every consistent world, in a fixed order."""
        total = self.candidates()
        if total > limit:
            raise TooMany(
                f"{total:,} ways to lay the {len(self.pool)} cards {self.player} has not seen: too many to try "
                "every one (ask for a number of samples)"
            )
        return [w for w in self._deals() if self.position(w) is not None]

    def draw(self, rng: Random) -> World:
        """One allowed deal, uniformly: each class of places' chance for a card is its share of the ways left, then
        each class's cards are shuffled and cut at its places' sizes (every share alike)."""
        room = self._kind_sizes
        chosen: list[list[int]] = [[] for _ in self.kinds]
        for i, card in enumerate(self.pool):
            r = rng.randrange(self._count(i, room))
            for k in self._kind_allowed[i]:
                if not room[k]:
                    continue
                after = room[:k] + (room[k] - 1,) + room[k + 1 :]
                ways = self._count(i + 1, after)
                if r < ways:
                    chosen[k].append(card)
                    room = after
                    break
                r -= ways
        out: list[frozenset[int]] = [frozenset()] * len(self.places)
        for kind, cards in zip(self.kinds, chosen):
            if len(kind) > 1:
                rng.shuffle(cards)
            at = 0
            for k in kind:
                out[k] = frozenset(cards[at : at + self.sizes[k]])
                at += self.sizes[k]
        return World(tuple(out))

    def sample(self, n: int, rng: Random) -> list[World]:
        """`n` consistent worlds, each drawn uniformly and independently (fewer only where `TRIES` draws a world
        found none)."""
        out: list[World] = []
        if not self.candidates():  # no deal fits what the player saw (a record the rules break, a layout not made)
            return out
        for _ in range(n):
            for _ in range(TRIES):
                w = self.draw(rng)
                if self.position(w) is not None:
                    out.append(w)
                    break
        return out

    def choose(self, samples: int | None, seed: object = 0) -> list[World]:
        """The worlds the knowing analysis averages: all of them (`samples` None), or every one where they are at
        most `samples` (known where the candidate deals are few: `SMALL`), else `samples` uniform draws; the random
        numbers come from `seed`, the plays made and the viewer."""
        if samples is None:
            return self.all()
        rng = Random(f"{seed}/{self.made}/{self.player}")
        if self.candidates() <= SMALL * samples:
            every = self.all()
            if len(every) <= samples:
                return every
            return [every[rng.randrange(len(every))] for _ in range(samples)]
        drawn = self.sample(samples, rng)
        if not drawn:
            raise TooMany(
                f"no deal of the {len(self.pool)} cards {self.player} has not seen agreed with every play in "
                f"{TRIES * samples:,} tries"
            )
        return drawn
