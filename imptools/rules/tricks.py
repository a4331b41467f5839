"""The trick-taking machinery every ruleset shares.

A ruleset resolves its card tokens to small integers and says how a trick is
won; everything else a trick-taking record needs is here, once:

- `walk_tricks`: seats every play of a hand (the leader of trick 1 is the
  player after the dealer, the winner of a trick leads the next) and judges
  each trick through the ruleset's own `settle` callback;
- `Holdings`: what the record proves each player held at each play, from the
  `deal` lines after the exchange and from the cards the player plays later
  ("in a complete hand a player's hand at any moment is exactly the cards he
  plays from then on");
- `revoke_findings`: a failure to follow suit proven by a later play or by the deal;
- the record checks of section 8 that every game makes the same way
  (`Reporter` and the `*_findings` functions);
- `StepLog`: builds the replay steps (holdings, trick, piles, voids) as a hand is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from imptools.findings import Finding
from imptools.record import CardText, Deal, Discard, Game, Hand, NameRef, Pass, ScoreLine, Trick
from imptools.rules.steps import KNOWN_FROM_DEAL, KNOWN_FROM_PLAYS, Detail, Event, NoDetail, State, Step
from imptools.suggest import did_you_mean

Resolve = Callable[[str], "int | None"]
"""A card token -> the engine's card number, or None when it is not a card of the deck."""


# --------------------------------------------------------------------------- findings


@dataclass(slots=True)
class Reporter:
    """Collects the findings of one hand, filling in the game's path, index and the hand number."""

    game: Game
    hand: Hand
    findings: list[Finding] = field(default_factory=list)

    def add(
        self, code: str, message: str, line: int | None, column: int | None, trick: int | None, player: str | None
    ) -> None:
        """Report one finding of this hand."""
        self.findings.append(
            Finding(code, message, line, column, self.game.path, self.game.index, self.hand.number, trick, player)
        )

    def codes(self) -> set[str]:
        """The codes reported so far."""
        return {f.code for f in self.findings}


# --------------------------------------------------------------------------- seating and judging tricks


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

    def numbered_plays(self) -> list[tuple[int, str, int]]:
        """Every play the walk seated, the unfinished trick's too, as (trick number, player, card) in play order."""
        out = [(self.tricks[t].trick.number, p, c) for t, _, p, c in self.plays()]
        if self.unfinished is not None:
            number = self.unfinished.trick.number
            out += [(number, p, c) for p, c in zip(self.unfinished.who, self.unfinished.cards)]
        return out

    def stop_note(self, hand: Hand) -> str | None:
        """Why the seated plays end before the record's tricks do (a trick with an unknown card, or short), or None."""
        if self.whole or self.unfinished is not None or len(self.tricks) >= len(hand.tricks):
            return None
        number = hand.tricks[len(self.tricks)].number
        return f"trick {number} holds an unknown card or is short: the analysis stops before it"

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
    fill: Callable[[Trick, int, str], int | None] | None = None,
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
        if len(known) != len(cards) or len(cards) > per_trick:
            return Walk(out, False, stopped=(trick, who))
        played = Played(trick, who, known)
        if len(cards) < per_trick:
            last = k == len(tricks) - 1
            after = order[(leader + len(cards)) % n] if last else None
            return Walk(out, False, played if last else None, None if last else (trick, who), after)
        winner = settle(played)
        if winner is None:
            return Walk(out, False, stopped=(trick, who))
        played.winner = winner
        out.append(played)
        leader = seats[winner]
    return Walk(out, True, next=order[leader] if n else None)


def turn_order(players: Sequence[str], dealer: str) -> list[str]:
    """The seating for a hand, starting with the player after the dealer (who leads trick 1)."""
    i = list(players).index(dealer)
    return [*players[i + 1 :], *players[: i + 1]]


def hand_dealers(game: Game, players: tuple[str, ...]) -> list[str | None]:
    """Each hand's dealer: as written, else hand 1's is the last player and each later one the next in turn order.

    A dealer's name that is not a player's is the mistake (it is reported): the rotation stands.
    """
    dealers: list[str | None] = []
    previous: str | None = None
    for hand in game.hands:
        if hand.dealer is not None and hand.dealer.name in players:
            dealer: str | None = hand.dealer.name
        elif previous is None:
            dealer = players[-1] if players else None
        else:
            dealer = players[(players.index(previous) + 1) % len(players)] if previous in players else None
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


# --------------------------------------------------------------------------- what the record proves was held


def cards_of(cards: Iterable[CardText], resolve: Resolve) -> list[int]:
    """The known cards among tokens (unknown `?` and tokens that are not cards left out)."""
    out: list[int] = []
    for c in cards:
        if not c.unknown:
            n = resolve(c.text)
            if n is not None:
                out.append(n)
    return out


def after_exchange(hand: Hand, resolve: Resolve) -> dict[str, set[int]]:
    """Each player's cards after the deal, discards and passes, for the players whose deal is recorded.

    Pack and pile deals (`deal NAME.2 ...`) are merged into the player's cards.
    """
    final: dict[str, set[int]] = {}
    for deal in hand.deals:
        final.setdefault(deal.player.name, set()).update(cards_of(deal.cards, resolve))
    for d in hand.discards:
        if d.player.name in final:
            final[d.player.name].difference_update(cards_of(d.cards, resolve))
    for ps in hand.passes:
        for c in cards_of((ps.card,), resolve):
            if ps.giver.name in final:
                final[ps.giver.name].discard(c)
            if ps.receiver.name in final:
                final[ps.receiver.name].add(c)
    return final


def dealt_twice(hand: Hand, resolve: Resolve) -> set[int]:
    """Cards the `deal` lines give to more than one place: the record cannot say who held them."""
    seen: set[int] = set()
    twice: set[int] = set()
    for deal in hand.deals:
        for c in cards_of(deal.cards, resolve):
            (twice if c in seen else seen).add(c)
    return twice


_DEALT_EVIDENCE = "dealt to them and not played before"


class Holdings:
    """What the record proves each player held just before each of their plays.

    A player holds, at any moment, every card they play from then on; when their
    deal is recorded, also every card dealt to them (after the exchange) that they
    have not played yet. `key` splits a player's cards further where a game keeps
    them apart (the packs of the two-pack Bottle Imp variants); cards known from the
    deal are used only where no such split is asked for. `hidden` counts, per
    player, the cards of `dealt` that left the hand face down unseen (a bid put
    away without its cards recorded): a card known from the deal alone proves
    nothing then, unless more such cards qualify than could have gone.
    """

    def __init__(
        self,
        walk: Walk,
        dealt: Mapping[str, set[int]],
        key: Callable[[int, int, str, int], object] | None = None,
        hidden: Mapping[str, int] | None = None,
    ) -> None:
        self._key = key
        self._dealt = dealt if key is None else {}
        self._hidden = dict(hidden or {})
        self._seq: dict[object, list[tuple[int, int, int]]] = {}
        self._trick_no = [t.trick.number for t in walk.tricks]
        plays = list(walk.plays())
        if walk.unfinished is not None:
            u = len(walk.tricks)
            self._trick_no.append(walk.unfinished.trick.number)
            plays += [(u, i, p, c) for i, (p, c) in enumerate(zip(walk.unfinished.who, walk.unfinished.cards))]
        self._owner: dict[tuple[int, int], object] = {}
        for t, i, p, c in plays:
            k = p if key is None else (p, key(t, i, p, c))
            self._seq.setdefault(k, []).append((t, i, c))
            self._owner[(t, i)] = k
        self._player = {(t, i): p for t, i, p, _ in plays}
        self._evidence = [f"played in trick {n}" for n in self._trick_no]

    def before(self, t: int, i: int) -> dict[int, str]:
        """The cards the player of play `i` of trick index `t` is known to hold just before it, with the evidence.

        The evidence is "played in trick N" or "dealt to them and not played before";
        the card played at (t, i) itself is included.
        """
        k = self._owner[(t, i)]
        seq = self._seq[k]
        out: dict[int, str] = {}
        player = self._player[(t, i)]
        gone: set[int] = set()
        evidence = self._evidence
        for tt, ii, c in seq:
            if tt > t or (tt == t and ii >= i):
                out[c] = evidence[tt]
            else:
                gone.add(c)
        for c in self._dealt.get(player, ()):
            if c not in gone and c not in out:
                out[c] = _DEALT_EVIDENCE
        return out

    def proof(self, t: int, i: int, wanted: Callable[[int], bool]) -> tuple[tuple[int, ...], str] | None:
        """What the player of (t, i) provably held just before that play among the cards `wanted` accepts.

        Returns (cards, evidence): one card, or several of which at least one was
        held, when the deal shows more such cards than could have been put away
        unseen. A card shown by a later play is preferred over one known from the
        deal; among those, the one played soonest.
        """
        held = self.before(t, i)
        later = [c for c, why in held.items() if why.startswith("played") and wanted(c)]
        if later:
            return (later[0],), held[later[0]]
        dealt = sorted(c for c, why in held.items() if wanted(c))
        hidden = self._hidden.get(self._player[(t, i)], 0)
        if len(dealt) <= hidden:
            return None
        if hidden:
            return tuple(dealt), f"dealt to them and not played before, and at most {hidden} were put away"
        return (dealt[0],), held[dealt[0]]


def revoke_findings(
    walk: Walk,
    holdings: Holdings,
    suit_of: Callable[[int], str | None],
    spell: Callable[[int], str],
    suit_name: Callable[[str], str],
    report: Reporter,
    led_index: Callable[[Played, int], int] | None = None,
) -> None:
    """Report each play that did not follow the suit led although the player provably held it.

    `led_index(trick, i)` says which play of the trick sets the suit play `i` must
    follow (the first, by default). A card whose suit the record leaves open
    (`suit_of` gives None) is not judged, nor is a play to it.
    """
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for t, played in enumerate(tricks):
        for i in range(1, len(played.cards)):
            first = played.cards[led_index(played, i) if led_index else 0]
            led = suit_of(first)
            p, c = played.who[i], played.cards[i]
            own = suit_of(c)
            if led is None or own is None or own == led:
                continue
            found = holdings.proof(t, i, lambda x, led=led: suit_of(x) == led)  # type: ignore[misc]
            if found is None:
                continue
            card = played.trick.plays[i].card
            cards = found[0]
            held = spell(cards[0]) if len(cards) == 1 else "one of " + ", ".join(spell(x) for x in cards)
            report.add(
                "revoke",
                f"{p} did not follow {suit_name(led)} in trick {played.trick.number} (played {spell(c)}) "
                f"although {p} held {held}, {found[1]}",
                card.line,
                card.column,
                played.trick.number,
                p,
            )


# --------------------------------------------------------------------------- record checks every game makes


def trick_count_findings(hand: Hand, per_trick: int, report: Reporter) -> None:
    """`wrong-count`: trick numbers out of order, and tricks with too many plays or short before the last."""
    tricks = hand.tricks
    for k, trick in enumerate(tricks):
        if trick.number != k + 1:
            report.add(
                "wrong-count",
                f"trick {trick.number} where trick {k + 1} was expected",
                trick.line,
                trick.column,
                trick.number,
                None,
            )
        if len(trick.plays) > per_trick or (len(trick.plays) < per_trick and k < len(tricks) - 1):
            report.add(
                "wrong-count",
                f"trick {trick.number} has {len(trick.plays)} plays; every trick has {per_trick}",
                trick.line,
                trick.column,
                trick.number,
                None,
            )


def name_findings(walk: Walk, players: Sequence[str], report: Reporter) -> None:
    """`unknown-player` and `out-of-turn` for named plays; both name the player whose turn it was."""
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for played in tricks:
        trick = played.trick
        for play, turn in zip(trick.plays, played.who):
            if play.player is None:
                continue
            if play.player.name not in players:
                report.add(
                    "unknown-player",
                    f"`{play.player.name}` is not a player"
                    + (f" (did you mean `{hint}`?)" if (hint := did_you_mean(play.player.name, players)) else "")
                    + f"; it was {turn}'s turn",
                    play.player.line,
                    play.player.column,
                    trick.number,
                    turn,
                )
            elif play.player.name != turn:
                report.add(
                    "out-of-turn",
                    f"{play.player.name} is named in trick {trick.number}, but it was {turn}'s turn",
                    play.player.line,
                    play.player.column,
                    trick.number,
                    turn,
                )


def duplicate_findings(
    hand: Hand,
    walk: Walk,
    resolve: Resolve,
    spell: Callable[[int], str],
    report: Reporter,
    deals: bool = True,
) -> None:
    """`duplicate-card`: a card on two `deal` lines, or played twice; the second place is reported."""
    if deals:
        dealt: dict[int, str] = {}
        for deal in hand.deals:
            for x in deal.cards:
                c = None if x.unknown else resolve(x.text)
                if c is None:
                    continue
                if c in dealt:
                    report.add(
                        "duplicate-card",
                        f"{spell(c)} is dealt to {deal.player} and already to {dealt[c]}",
                        x.line,
                        x.column,
                        None,
                        deal.player.name,
                    )
                else:
                    dealt[c] = str(deal.player)
    seen: dict[int, str] = {}
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for played in tricks:
        for play, p, c in zip(played.trick.plays, played.who, played.cards):
            if c in seen:
                report.add(
                    "duplicate-card",
                    f"{p} plays {spell(c)} in trick {played.trick.number}, already {seen[c]}",
                    play.card.line,
                    play.card.column,
                    played.trick.number,
                    p,
                )
            else:
                seen[c] = f"played in trick {played.trick.number}"


def deal_size_findings(
    hand: Hand, players: Sequence[str], expected: Callable[[NameRef], int | None], what: str, report: Reporter
) -> None:
    """`hand-size`: a `deal` line with other than the expected number of cards (None: anything goes)."""
    for deal in hand.deals:
        if deal.player.name not in players:
            continue
        want = expected(deal.player)
        if want is not None and len(deal.cards) != want:
            report.add(
                "hand-size",
                f"{deal.player} is dealt {len(deal.cards)} cards; {what} {want}",
                deal.line,
                deal.column,
                None,
                deal.player.name,
            )


def exchange_not_held_findings(hand: Hand, resolve: Resolve, report: Reporter) -> None:
    """`not-held`: a card discarded or passed that its player was not dealt (when the deal is recorded)."""
    dealt: dict[str, set[int]] = {}
    partly: set[str] = set()  # a deal with a `?` or a token that is no card proves nothing missing from it
    for deal in hand.deals:
        known = cards_of(deal.cards, resolve)
        dealt.setdefault(deal.player.name, set()).update(known)
        if len(known) < len(deal.cards):
            partly.add(deal.player.name)
    for name in partly:
        dealt.pop(name, None)
    lines: list[tuple[str, str, CardText]] = []
    for line in hand.lines:
        if isinstance(line, Discard):
            lines += [(line.player.name, "discards", x) for x in line.cards]
        elif isinstance(line, Pass):
            lines.append((line.giver.name, "passes", line.card))
    for p, verb, x in lines:
        c = None if x.unknown else resolve(x.text)
        if p in dealt and c is not None and c not in dealt[p]:
            report.add("not-held", f"{p} {verb} {x.text}, which {p} was not dealt", x.line, x.column, None, p)


def play_not_held_findings(
    walk: Walk,
    final: Mapping[str, set[int]],
    spell: Callable[[int], str],
    report: Reporter,
    when: str,
    elsewhere: Mapping[int, tuple[str | None, str]] | None = None,
) -> None:
    """`not-held`: a card played that the deal (and the exchange) show its player did not hold.

    `elsewhere` maps cards the record puts out of some hands to (the only player
    who may hold it, or None for nobody; where it is): it proves a card not held
    by a player whose own deal is not recorded (`{48: ("Adam", "dealt to Adam")}`,
    a card put away face down: `(None, "in Betty's bid")`).
    """
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for played in tricks:
        for play, p, c in zip(played.trick.plays, played.who, played.cards):
            where = (elsewhere or {}).get(c)
            if p in final and c not in final[p]:
                why = f"did not hold it {when}"
            elif p not in final and where is not None and where[0] != p:
                why = f"it was {where[1]}"
            else:
                continue
            report.add(
                "not-held",
                f"{p} plays {spell(c)} in trick {played.trick.number} but {why}",
                play.card.line,
                play.card.column,
                played.trick.number,
                p,
            )


def score_mismatches(hand: Hand, scores: Mapping[str, int], totals: Mapping[str, int], report: Reporter) -> None:
    """`score-mismatch`: each recorded `score` or `total` value that differs from the recomputed one."""
    lines: list[ScoreLine] = [*hand.scores, *hand.totals]
    for line in lines:
        want = scores if line.kind == "score" else totals
        for e in line.entries:
            if e.player.name in want and want[e.player.name] != e.value:
                report.add(
                    "score-mismatch",
                    f"{line.kind} of {e.player.name} is written {e.value}, the rules give {want[e.player.name]}",
                    e.line,
                    e.column,
                    None,
                    e.player.name,
                )


def incomplete_finding(hand: Hand, tricks: int, report: Reporter) -> None:
    """`incomplete` (a warning): the hand stops before its last trick, or inside it."""
    written = len(hand.tricks)
    where = f"after {written} of {tricks} tricks" if written < tricks else f"inside trick {written} of {tricks}"
    report.add(
        "incomplete",
        f"hand {hand.number} stops {where}; it is not scored",
        hand.line,
        hand.column,
        None,
        None,
    )


def not_scored_finding(hand: Hand, reason: str, report: Reporter) -> None:
    """`not-scored` (a warning): a hand that is not incomplete, but whose score cannot be computed, and why."""
    report.add("not-scored", f"hand {hand.number} is not scored: {reason}", hand.line, hand.column, None, None)


def game_over(
    game: Game,
    hands: int,
    totals: Mapping[str, int],
    default_hands: int | None = None,
    default_target: int | None = None,
) -> bool:
    """Whether the game has ended: after `Hands` hands (or the game's default), or when a total reaches `Target`.

    `default_target` is the game's own target when neither `Target` nor `Hands` is given.
    """
    target = game.tag("Target")
    if default_target is not None and not target and not game.tag("Hands"):
        return any(v >= default_target for v in totals.values())
    limit = game.tag("Hands")
    if limit and limit.isdigit():
        if hands >= int(limit):
            return True
    elif default_hands is not None and hands >= default_hands and not target:
        return True
    return bool(target and target.lstrip("-").isdigit() and any(v >= int(target) for v in totals.values()))


# --------------------------------------------------------------------------- replay steps


class StepLog:
    """Builds a hand's replay steps as the ruleset plays it.

    Holdings shown are the deal (after discards and passes) for the players whose
    deal is recorded, else the cards the player will still play. The ruleset sets
    `detail` (its own per-game state) before each event it logs.
    """

    def __init__(
        self,
        players: Sequence[str],
        spell: Callable[[int], str],
        walk: Walk,
        suit_of: Callable[[int], str | None] | None,
    ) -> None:
        self.players = list(players)
        self.spell = spell
        self.suit_of = suit_of
        self.steps: list[Step] = []
        self.detail: Detail = NoDetail()
        self.held: dict[str, set[int]] = {}
        self.future: dict[str, list[int]] = {p: [] for p in players}
        tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
        for played in tricks:
            for p, c in zip(played.who, played.cards):
                self.future.setdefault(p, []).append(c)
        self.trick: list[tuple[str, int]] = []
        self.leader: str | None = None
        self.piles: dict[str, list[int]] = {p: [] for p in players}
        self.won: dict[str, int] = dict.fromkeys(players, 0)
        self.voids: dict[str, set[str]] = {p: set() for p in players}
        self.stacks: dict[str, list[list[int]]] | None = None

    def state(self, scores: Mapping[str, int] | None = None) -> State:
        sp = self.spell
        holdings = {
            p: frozenset(sp(c) for c in (self.held[p] if p in self.held else self.future.get(p, [])))
            for p in self.players
        }
        return State(
            holdings,
            tuple((p, sp(c)) for p, c in self.trick),
            {p: tuple(sp(c) for c in pile) for p, pile in self.piles.items()},
            {p: frozenset(v) for p, v in self.voids.items()},
            scores,
            {p: KNOWN_FROM_DEAL if p in self.held else KNOWN_FROM_PLAYS for p in self.players},
            self.leader,
            dict(self.won),
            self.detail,
            None
            if self.stacks is None
            else {p: tuple(tuple(sp(c) for c in pile) for pile in piles) for p, piles in self.stacks.items()},
        )

    def log(self, event: Event, scores: Mapping[str, int] | None = None) -> None:
        """Record `event` with the state as it is now."""
        self.steps.append(Step(event, self.state(scores)))

    def line(
        self, kind: str, player: str | None, cards: Iterable[CardText], line: Any, text: str | None = None
    ) -> None:
        """Log a line of the hand before the tricks (`deal`, `trump`, `bid` ...)."""
        self.log(
            Event(
                kind,
                player,
                tuple(c.text for c in cards),
                None,
                line.line,
                line.column,
                tuple(a.text for a in getattr(line, "annotations", ())),
                text=text,
            )
        )

    def deal(self, deal: Deal, resolve: Resolve) -> None:
        """A `deal` line: the player's cards become known."""
        self.held.setdefault(deal.player.name, set()).update(cards_of(deal.cards, resolve))
        self.line("deal", str(deal.player), deal.cards, deal)

    def discard(self, line: Discard, resolve: Resolve) -> None:
        """A `discard` line: the cards leave the player's hand."""
        self.set_aside("discard", line.player.name, line.cards, line, resolve)

    def set_aside(
        self, kind: str, player: str, cards: Iterable[CardText], line: Any, resolve: Resolve, text: str | None = None
    ) -> None:
        """A line that puts cards of a player's hand away face down (a discard, a bid): they leave the hand."""
        cards = tuple(cards)
        self.held.get(player, set()).difference_update(cards_of(cards, resolve))
        self.line(kind, player, cards, line, text)

    def pass_card(self, line: Pass, resolve: Resolve) -> None:
        """A `pass` line: the card moves from giver to receiver."""
        for c in cards_of((line.card,), resolve):
            self.held.get(line.giver.name, set()).discard(c)
            if line.receiver.name in self.held:
                self.held[line.receiver.name].add(c)
        self.line("pass", line.giver.name, (line.card,), line, text=str(line.receiver))

    def play(self, played: Played, i: int, led: int | None = 0) -> None:
        """Play `i` of a trick; `led` is the index of the card whose suit it must follow (None: no void shown)."""
        p, c = played.who[i], played.cards[i]
        if i == 0:
            self.trick = []
            self.leader = p
        self.trick.append((p, c))
        if self.suit_of is not None and led is not None and i > 0:
            suit = self.suit_of(played.cards[led])
            own = self.suit_of(c)
            if suit is not None and own is not None and own != suit:
                self.voids[p].add(suit)
        if c in self.future.get(p, []):
            self.future[p].remove(c)
        self.held.get(p, set()).discard(c)
        play = played.trick.plays[i]
        self.log(
            Event(
                "play",
                p,
                (self.spell(c),),
                played.trick.number,
                play.card.line,
                play.card.column,
                tuple(a.text for a in play.annotations),
                play.mark,
            )
        )

    def trick_end(self, played: Played, piles: Mapping[str, Iterable[int]] | None = None) -> None:
        """The end of a trick: the winner counts it and takes the cards, unless the game says what the piles are now."""
        winner = played.winner_name
        if winner is not None:
            self.won[winner] = self.won.get(winner, 0) + 1
            if piles is None:
                self.piles.setdefault(winner, []).extend(played.cards)
            else:
                self.piles = {p: list(cards) for p, cards in piles.items()}
        self.trick = []
        t = played.trick
        self.log(Event("trick", winner, (), t.number, t.line, t.column, tuple(a.text for a in t.annotations)))

    def end(
        self, hand: Hand, scores: Mapping[str, int] | None, shown: Iterable[int] = (), text: str | None = None
    ) -> None:
        """The end of the hand, with its scores (None when it cannot be scored).

        `shown` are the cards turned face up at the end (the Bottle Imp's imp's trick),
        `text` says what they are.
        """
        self.trick = []
        self.log(Event("end", None, tuple(self.spell(c) for c in shown), None, None, None, text=text), scores)
