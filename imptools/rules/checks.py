"""The record checks of section 8 that every game makes the same way (the `*_findings` functions)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from imptools.record import CardText, Discard, Game, Hand, NameRef, Pass, ScoreLine
from imptools.rules.exchange import Resolve, cards_of
from imptools.rules.report import Reporter
from imptools.rules.tricks import Walk
from imptools.suggest import did_you_mean


def trick_count_findings(hand: Hand, per_trick: int, report: Reporter, resolve: Resolve) -> None:
    """`wrong-count`: trick numbers out of order, and tricks with too many plays or short before the last.

    A number out of order is found once, where it breaks from the trick before: tricks numbered on from a wrong
    number (`4.`, `6.`, `7.`, `8.`) are one slip, not one finding a trick.

    A trick whose plays are too many only by tokens that are no card of the deck (`resolve` gives None; each has
    its `unknown-card`) is not miscounted as well: one stray token is one slip, and its finding is the one it gets.
    Nor is a trick short only by two cards written together (`10b7b`, `glued_cut`), a token that is no card either.
    """
    tricks = hand.tricks
    for k, trick in enumerate(tricks):
        if trick.number != k + 1 and (k == 0 or trick.number != tricks[k - 1].number + 1):
            report.add(
                "wrong-count",
                f"trick {trick.number} where trick {k + 1} was expected",
                trick.line,
                trick.column,
                trick.number,
                None,
            )
        n = len(trick.plays)
        if n > per_trick:  # too many, unless only by tokens that are no card
            n -= sum(1 for p in trick.plays if not p.card.unknown and resolve(p.card.text) is None)
        written = len(trick.plays) + sum(
            1 for p in trick.plays if not p.card.unknown and glued_cut(p.card.text, resolve) is not None
        )
        if n > per_trick or (written < per_trick and k < len(tricks) - 1):
            report.add(
                "wrong-count",
                f"trick {trick.number} has {len(trick.plays)} plays; every trick has {per_trick}",
                trick.line,
                trick.column,
                trick.number,
                None,
            )


def glued_cut(text: str, resolve: Callable[[str], object]) -> int | None:
    """Where `text`, no card, cuts into two cards written together, where it does in exactly one place (`10b7b`: 3;
    `2415`: 2); else None. `resolve` gives None for a token that is no card."""
    if resolve(text) is not None:
        return None
    cuts = [i for i in range(1, len(text)) if resolve(text[:i]) is not None and resolve(text[i:]) is not None]
    return cuts[0] if len(cuts) == 1 else None


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


def exchange_card_findings(hand: Hand, resolve: Resolve, report: Reporter) -> None:
    """`not-held`: a card discarded or passed that its player was not dealt (when the deal is recorded); and
    `duplicate-card`: a card its player puts away twice (discarded and passed, or passed twice), at the second place:
    nobody hands on one card twice."""
    dealt: dict[str, set[int]] = {}
    for deal in hand.deals:
        dealt.setdefault(deal.player.name, set()).update(cards_of(deal.cards, resolve))
    for name in partly_dealt(hand, resolve):
        dealt.pop(name, None)
    lines: list[tuple[str, str, CardText]] = []
    for line in hand.lines:
        if isinstance(line, Discard):
            lines += [(line.player.name, "discards", x) for x in line.cards]
        elif isinstance(line, Pass):
            lines.append((line.giver.name, "passes", line.card))
    put: dict[tuple[str, int], str] = {}
    for p, verb, x in lines:
        c = None if x.unknown else resolve(x.text)
        if p in dealt and c is not None and c not in dealt[p]:
            report.add("not-held", f"{p} {verb} {x.text}, which {p} was not dealt", x.line, x.column, None, p)
        elif c is not None and (p, c) in put:
            msg = f"{p} {verb} {x.text}, which {p} already {put[(p, c)]}"
            report.add("duplicate-card", msg, x.line, x.column, None, p)
        elif c is not None:
            put[(p, c)] = verb


def partly_dealt(hand: Hand, resolve: Resolve) -> set[str]:
    """The players whose `deal` line holds a `?` or a token that is no card (`63` for `36`): such a deal proves
    nothing missing from its player's hand."""
    return {d.player.name for d in hand.deals if len(cards_of(d.cards, resolve)) < len(d.cards)}


def play_not_held_findings(
    walk: Walk,
    final: Mapping[str, set[int]],
    spell: Callable[[int], str],
    report: Reporter,
    when: str,
    elsewhere: Mapping[int, tuple[str | None, str]] | None = None,
    partly: Collection[str] = frozenset(),
) -> None:
    """`not-held`: a card played that the deal (and the exchange) show its player did not hold.

    `elsewhere` maps cards the record puts out of some hands to (the only player
    who may hold it, or None for nobody; where it is): it proves a card not held
    by a player whose own deal is not recorded (`{48: ("Adam", "dealt to Adam")}`,
    a card put away face down: `(None, "in Betty's bid")`). The hands of `partly` (`partly_dealt`) prove nothing
    by themselves.
    """
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for played in tricks:
        for play, p, c in zip(played.trick.plays, played.who, played.cards):
            where = (elsewhere or {}).get(c)
            known = p in final and p not in partly
            if known and c not in final[p]:
                why = f"did not hold it {when}"
            elif not known and where is not None and where[0] != p:
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


class WrittenTotals:
    """What the `total` lines written so far say, so that one slip on the score sheet costs one finding.

    A written total is checked against the recomputed running total (NOTATION section 8). Where it differs, it is
    still right by the sheet's own arithmetic when it equals the total written before it (for that player) plus the
    scores of the hands since: a total miswritten once and carried forward is one finding, on the line where it went
    wrong, not one on every later line. And where a hand that is not scored (incomplete, or not scorable) lies between
    the last total written and this one, the difference cannot be known: a total that differs from the recomputed
    one is not reported there, and becomes the base the later totals are checked against. A total that equals the
    recomputed one is never reported, so this only ever takes findings away from the plain check.
    """

    def __init__(self) -> None:
        self.base: dict[str, int] = {}
        self.since: dict[str, int] = {}
        self.gap: set[str] = set()
        self.unscored_before = False

    def scored(self, scores: Mapping[str, int]) -> None:
        """A scored hand: its scores join every player's run since his last written total."""
        for p, v in scores.items():
            self.since[p] = self.since.get(p, 0) + v

    def unscored(self, hand: Hand) -> None:
        """A hand with no score: every player's run since his last written total is unknown, until a total is
        written again (this hand's own `total` line, not checked, is the new base)."""
        self.unscored_before = True
        self.gap.update(self.since)
        self.gap.update(self.base)
        for line in hand.totals:
            for e in line.entries:
                self.rebase(e.player.name, e.value)

    def agrees(self, player: str, value: int) -> bool:
        """Whether `value`, a total that differs from the recomputed one, is right by the sheet's arithmetic (or
        cannot be judged, a hand with no score lying since the last total written for `player`)."""
        if player in self.gap or (self.unscored_before and player not in self.base):
            return True
        return player in self.base and self.base[player] + self.since.get(player, 0) == value

    def rebase(self, player: str, value: int) -> None:
        """`value` written as `player`'s total: the later totals are measured from it."""
        self.base[player] = value
        self.since[player] = 0
        self.gap.discard(player)


def score_mismatches(
    hand: Hand,
    scores: Mapping[str, int],
    totals: Mapping[str, int],
    report: Reporter,
    written: WrittenTotals | None = None,
) -> None:
    """`score-mismatch`: each recorded `score` or `total` value that differs from the recomputed one (a total that
    `written`, the totals written before, shows to be carried forward from an earlier slip is not one)."""
    lines: list[ScoreLine] = [*hand.scores, *hand.totals]
    if written is not None:
        written.scored(scores)
    for line in lines:
        want = scores if line.kind == "score" else totals
        for e in line.entries:
            name = e.player.name
            carried = line.kind == "total" and written is not None and written.agrees(name, e.value)
            if name in want and want[name] != e.value and not carried:
                report.add(
                    "score-mismatch",
                    f"{line.kind} of {name} is written {e.value}, the rules give {want[name]}",
                    e.line,
                    e.column,
                    None,
                    name,
                )
            if line.kind == "total" and written is not None and name in want:
                written.rebase(name, e.value)


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
