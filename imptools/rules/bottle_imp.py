"""The Bottle Imp (the notation's section 5): decks and card tokens.

The deck tables live here and nowhere else. The play rules and scoring land
with the Bottle Imp engine; until then `judge` reports what the card tokens
and names alone show, and scores nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from imptools.findings import Finding
from imptools.record import CardText, Deal, Discard, Game, Hand, Open, Pass, Trick
from imptools.rules.base import CardCheck, GameResult, HandResult, TokenRuleset, hand_dealers, token_findings

if TYPE_CHECKING:
    from imptools.replay import Step

COLOURS = {"y": "yellow", "r": "red", "b": "blue", "g": "green"}

_BAMBUS = """
1 y 1   2 y 1   3 y 2   4 b 1   5 y 2   6 b 1   7 y 3   8 b 2   9 y 3
10 b 2  11 r 1  12 y 4  13 b 3  14 r 1  15 y 4  16 r 2  17 b 3  18 y 5
20 b 4  21 r 2  22 y 5  23 r 3  24 b 4  25 y 6  26 r 3  27 b 5  28 y 6
29 r 4  30 b 5  31 r 4  32 b 6  33 r 5  34 b 6  35 r 5  36 r 6  37 r 6
"""


def _table(text: str) -> dict[float, tuple[str, int]]:
    words = text.split()
    return {float(words[i]): (words[i + 1], int(words[i + 2])) for i in range(0, len(words), 3)}


BAMBUS = _table(_BAMBUS)
"""number -> (colour letter, coins) of the bambus deck."""

BAMBUS_1995 = {n: (c, 0 if n in (1, 2, 3) else v) for n, (c, v) in BAMBUS.items()}
"""The 1995 edition: cards 1, 2 and 3 are worth 0 coins."""

MATAGOT = {
    **{n: ({"y": "r", "r": "g"}.get(c, c), v) for n, (c, v) in BAMBUS.items()},
    **_table("3 b 1  4 r 2  17 b 4  23 b 4  24 g 3  34 g 5  35 b 6"),
}
"""The 2-6 player edition: red (low), blue, green (high)."""

DECKS = {"bambus": BAMBUS, "bambus-1995": BAMBUS_1995, "matagot": MATAGOT}
_MATAGOT_VARIANTS = {"teams", "teams-2-2-1-1", "second-bottle", "eye-of-the-demon"}


def deck_name(game: Game) -> str:
    """The `Deck` tag, or the spec's default for the variant and the number of players."""
    named = game.tag("Deck")
    if named in DECKS:
        return named
    if game.tag("Variant") in _MATAGOT_VARIANTS or len(game.players) in (5, 6):
        return "matagot"
    return "bambus"


def deck(game: Game) -> dict[float, tuple[str, int]]:
    """The cards of `game`: its deck, with the half cards 2.5, 4.5 ... 36.5 in 5-6 player games (54 cards)."""
    table = DECKS[deck_name(game)]
    if len(game.players) in (5, 6):
        table = {**table, **{n + 0.5: table[n] for n in table if n % 2 == 0}}
    return table


_CARD = re.compile(r"0*([0-9]+(?:\.5)?)([a-zA-Z]?)")


class BottleImp(TokenRuleset):
    """Cards `1`..`37` without 19 (and the half cards with 5-6 players), an optional colour letter."""

    name = "bottle-imp"

    def check_card(self, text: str, game: Game) -> CardCheck:
        m = _CARD.fullmatch(text)
        cards = deck(game)
        number = float(m.group(1)) if m else None
        if m is None or number not in cards:
            return CardCheck(None, "unknown-card", f"`{text}` is not a card of this deck ({deck_name(game)})")
        assert number is not None
        spelled = m.group(1)
        letter = m.group(2).lower()
        colour = cards[number][0]
        if letter and letter != colour:
            return CardCheck(
                None,
                "colour-mismatch",
                f"`{text}`: card {spelled} is {COLOURS[colour]} in the {deck_name(game)} deck, "
                f"not {COLOURS.get(letter, letter)}",
            )
        return CardCheck(spelled + letter)


# --------------------------------------------------------------------------- tricks and scores

START_PRICE = 19.0


@dataclasses.dataclass(slots=True)
class Bottle:
    """One bottle: its price (the card under it, 19 at the start) and its owner."""

    price: float = START_PRICE
    owner: str | None = None


def judge_trick(cards: list[float], bottles: list[Bottle]) -> tuple[int, int | None]:
    """The index of the winning card and of the bottle it takes (None when no card is below the price).

    With two bottles the trick is judged against the higher price and takes that bottle
    (the first when both are at the same price).

    >>> judge_trick([24, 15, 17, 32], [Bottle()])
    (2, 0)
    >>> judge_trick([24, 25, 30], [Bottle(12.0)])
    (2, None)
    """
    top = max(range(len(bottles)), key=lambda i: (bottles[i].price, -i))
    price = bottles[top].price
    below = [i for i, c in enumerate(cards) if c < price]
    if below:
        return max(below, key=lambda i: cards[i]), top
    return max(range(len(cards)), key=lambda i: cards[i]), None


def settle_trick(cards: list[float], who: list[str], bottles: list[Bottle], piles: dict[str, list[float]]) -> int:
    """Judge a trick, move the bottle and its old price card, fill the winner's pile; the winning card's index.

    The card that took the bottle lies under it; the old price card goes to the
    bottle's previous owner (the start card 19 to nobody); the rest to the winner.
    """
    win, taken = judge_trick(cards, bottles)
    winner = who[win]
    if taken is not None:
        bottle = bottles[taken]
        if bottle.price != START_PRICE and bottle.owner is not None:
            piles[bottle.owner].append(bottle.price)
        bottle.price, bottle.owner = cards[win], winner
    piles[winner].extend(c for i, c in enumerate(cards) if i != win or taken is None)
    return win


def team_of(seat: int, players: int, variant: str) -> tuple[int, ...]:
    """The seats (counted from the dealer, seat 0) that score together with `seat`."""
    if variant == "teams-2-2-1-1":
        groups: list[tuple[int, ...]] = [(1, 4), (2, 5), (0,), (3,)]
    elif players == 4:
        groups = [(1, 3), (0,), (2,)]
    elif players == 5:
        groups = [(1, 3), (2, 4), (0,)]
    else:
        groups = [(0, 3), (1, 4), (2, 5)]
    return next(g for g in groups if seat in g)


_TRICKS = {2: 8, 3: 11, 4: 8, 5: 10, 6: 8}
"""Tricks in a hand of the one-pack variants, by number of players."""


def _after_exchange(hand: Hand) -> dict[str, set[float]]:
    """Each player's cards after the deal, discards and passes, for the players whose deal is recorded."""
    final: dict[str, set[float]] = {}
    for deal in hand.deals:
        final.setdefault(deal.player.name, set()).update(
            c for c in (_number(x.text) for x in deal.cards) if c is not None
        )
    for d in hand.discards:
        for x in d.cards:
            num = _number(x.text)
            if num is not None and d.player.name in final:
                final[d.player.name].discard(num)
    for ps in hand.passes:
        num = _number(ps.card.text)
        if num is None:
            continue
        if ps.giver.name in final:
            final[ps.giver.name].discard(num)
        if ps.receiver.name in final:
            final[ps.receiver.name].add(num)
    return final


def _spell(card: float) -> str:
    return str(int(card)) if card == int(card) else str(card)


def _number(text: str) -> float | None:
    m = _CARD.fullmatch(text)
    return float(m.group(1)) if m else None


class _HandScorer:
    """Plays one hand of a one-pack variant (classic, teams, second-bottle) from its tricks and scores it."""

    def __init__(self, game: Game, variant: str, cards: dict[float, tuple[str, int]]) -> None:
        self.players = game.players
        self.variant = variant
        self.coins = {n: v for n, (_, v) in cards.items()}
        self.deck = cards

    def order(self, dealer: str) -> list[str]:
        """Turn order for a hand, starting with the player who leads trick 1."""
        players = list(self.players)
        if self.variant == "lopaka":
            other = next(p for p in players if p not in (dealer, LOPAKA))
            return [other, LOPAKA, dealer]
        i = players.index(dealer)
        return players[i + 1 :] + players[: i + 1]

    def automaton(self, game: Game, hand: Hand, dealer: str) -> list[Finding]:
        """Each play of Lopaka's that is not the card his rules demand, when his whole hand is known."""
        if self.variant != "lopaka":
            return []
        seated, _, _, whole = self.walk(hand, dealer)
        dealt = next((d for d in hand.deals if d.player.name == LOPAKA), None)
        if dealt is not None:
            held = {c for c in (_number(x.text) for x in dealt.cards) if c is not None}
        elif whole and len(seated) == _TRICKS[len(self.players)]:
            held = {c for _, who, cards in seated for p, c in zip(who, cards) if p == LOPAKA}
        else:
            return []
        out: list[Finding] = []
        bottles = [Bottle()]
        for trick, who, cards in seated:
            if LOPAKA in who:
                i = who.index(LOPAKA)
                lying = cards[:i]
                legal = sorted(held)
                if lying:
                    led = self.deck[lying[0]][0]
                    legal = [c for c in legal if self.deck[c][0] == led] or legal
                if not legal:
                    want: float | None = None
                elif not lying:
                    want = max(legal)
                else:
                    winning = [c for c in legal if judge_trick([*lying, c], bottles)[0] == len(lying)]
                    want = max(winning) if winning else min(legal)
                if want is not None and cards[i] != want:
                    play = trick.plays[i]
                    out.append(
                        Finding(
                            "automaton",
                            f"Lopaka plays {_spell(cards[i])} in trick {trick.number}; his rules demand {_spell(want)}",
                            play.card.line,
                            play.card.column,
                            game.path,
                            game.index,
                            hand.number,
                            trick.number,
                            LOPAKA,
                        )
                    )
                held.discard(cards[i])
            win, taken = judge_trick(cards, bottles)
            if taken is not None:
                bottles[taken].price = cards[win]
        return out

    def walk(
        self, hand: Hand, dealer: str
    ) -> tuple[list[tuple[Trick, list[str], list[float]]], list[Bottle], dict[str, list[float]], bool]:
        """Play the tricks in order as far as the record allows: who played what, the bottles, the won piles.

        The last value says whether every trick was full and every card known.
        """
        players = self.players
        n = len(players)
        bottles = [Bottle(), Bottle()] if self.variant == "second-bottle" else [Bottle()]
        piles: dict[str, list[float]] = {p: [] for p in players}
        order = self.order(dealer)
        leader = 0
        seated: list[tuple[Trick, list[str], list[float]]] = []
        for trick in hand.tricks:
            cards = [_number(p.card.text) for p in trick.plays]
            if len(cards) != self.per_trick or any(c is None or c not in self.deck for c in cards):
                return seated, bottles, piles, False
            known = [c for c in cards if c is not None]
            seats = [(leader + i) % n for i in range(self.per_trick)]
            who = [order[s] for s in seats]
            seated.append((trick, who, known))
            leader = seats[settle_trick(known, who, bottles, piles)]
        return seated, bottles, piles, True

    @property
    def per_trick(self) -> int:
        """Cards in a trick: one each, or four in the two-player variants."""
        return 4 if self.variant in TWO_PACK else len(self.players)

    def packs(self, hand: Hand) -> Callable[[int, str, float], int] | None:
        """Which pack (0 for one-pack variants) the i-th card of a trick came from, or None when unknowable."""
        if self.variant == "bright-house":
            return lambda i, p, c: i // 2
        if self.variant != "eye-of-the-demon":
            return lambda i, p, c: 0
        where: dict[tuple[str, float], int] = {}
        for deal in hand.deals:
            for x in deal.cards:
                num = _number(x.text)
                if num is not None and deal.player.pack is not None:
                    where[(deal.player.name, num)] = deal.player.pack
        if not where:
            return None
        for ps in hand.passes:
            num = _number(ps.card.text)
            if num is not None and ps.receiver.pack is not None:
                where[(ps.receiver.name, num)] = ps.receiver.pack
        return lambda i, p, c: where.get((p, c), -1)

    def revokes(self, game: Game, hand: Hand, dealer: str) -> list[Finding]:
        """Each play that did not follow the colour led although a later play shows the player held it."""
        seated, _, _, _ = self.walk(hand, dealer)
        packs = self.packs(hand)
        if packs is None:
            return []
        later: dict[tuple[str, int], list[tuple[int, float]]] = {}
        for trick, who, cards in seated:
            for i, (p, c) in enumerate(zip(who, cards)):
                later.setdefault((p, packs(i, p, c)), []).append((trick.number, c))
        out: list[Finding] = []
        dealt = _after_exchange(hand)
        gone: dict[str, set[float]] = {p: set() for p in self.players}
        for trick, who, cards in seated:
            for p, c in zip(who, cards):
                gone[p].add(c)
            led = self.deck[cards[0]][0]
            for i in range(1, len(cards)):
                p, c = who[i], cards[i]
                if self.deck[c][0] == led:
                    continue
                key = (p, packs(i, p, c))
                proof = next(
                    ((t, x) for t, x in later.get(key, []) if t > trick.number and self.deck[x][0] == led), None
                )
                evidence = f"played in trick {proof[0]}" if proof else ""
                if proof is None and p in dealt and self.variant not in TWO_PACK:
                    unplayed = sorted(x for x in dealt[p] - gone[p] if self.deck[x][0] == led)
                    if unplayed:
                        proof = (0, unplayed[0])
                        evidence = "dealt to them and not played before"
                if proof is None:
                    continue
                play = trick.plays[i]
                out.append(
                    Finding(
                        "revoke",
                        f"{p} did not follow {COLOURS[led]} in trick {trick.number} (played {_spell(c)}) "
                        f"although {p} held {_spell(proof[1])}, {evidence}",
                        play.card.line,
                        play.card.column,
                        game.path,
                        game.index,
                        hand.number,
                        trick.number,
                        p,
                    )
                )
        return out

    def record_checks(self, game: Game, hand: Hand, dealer: str) -> list[Finding]:
        """Turn order and names in tricks, trick counts, repeated cards, deal sizes, exchanges, cards not held."""
        players = self.players
        n = len(players)
        out: list[Finding] = []

        def add(code: str, msg: str, line: int, col: int, trick: int | None, player: str | None) -> None:
            out.append(Finding(code, msg, line, col, game.path, game.index, hand.number, trick, player))

        seated, _, _, _ = self.walk(hand, dealer)
        tricks = hand.tricks
        for i, trick in enumerate(tricks):
            if trick.number != i + 1:
                add(
                    "wrong-count",
                    f"trick {trick.number} where trick {i + 1} was expected",
                    trick.line,
                    trick.column,
                    trick.number,
                    None,
                )
            if len(trick.plays) > self.per_trick or (len(trick.plays) < self.per_trick and i < len(tricks) - 1):
                add(
                    "wrong-count",
                    f"trick {trick.number} has {len(trick.plays)} plays; every trick has {self.per_trick}",
                    trick.line,
                    trick.column,
                    trick.number,
                    None,
                )
        for trick, who, _cards in seated:
            for play, turn in zip(trick.plays, who):
                if play.player is None:
                    continue
                if play.player.name not in players:
                    add(
                        "unknown-player",
                        f"`{play.player.name}` is not one of the players; it was {turn}'s turn",
                        play.player.line,
                        play.player.column,
                        trick.number,
                        turn,
                    )
                elif play.player.name != turn:
                    add(
                        "out-of-turn",
                        f"{play.player.name} is named in trick {trick.number}, but it was {turn}'s turn",
                        play.player.line,
                        play.player.column,
                        trick.number,
                        turn,
                    )
        # every card at most once among the plays
        seen: dict[float, str] = {}
        for trick, who, cards in seated:
            for play, p, c in zip(trick.plays, who, cards):
                if c in seen:
                    add(
                        "duplicate-card",
                        f"{p} plays {_spell(c)} in trick {trick.number}, already {seen[c]}",
                        play.card.line,
                        play.card.column,
                        trick.number,
                        p,
                    )
                else:
                    seen[c] = f"played in trick {trick.number}"
        # deal sizes, discards and exchanges
        lopaka = self.variant == "lopaka"
        size = {
            p: (11 if lopaka else 10 if n == 5 and p == dealer else {3: 12, 4: 9, 5: 11, 6: 9}.get(n, 0))
            for p in players
        }
        holding: dict[str, set[float]] = {}
        for deal in hand.deals:
            p = deal.player.name
            if p not in players:
                continue
            want_size = PACK_SIZES[self.variant][deal.player.pack or 1] if self.variant in TWO_PACK else size[p]
            if len(deal.cards) != want_size:
                add(
                    "hand-size",
                    f"{p} is dealt {len(deal.cards)} cards; the deal gives {size[p]}",
                    deal.line,
                    deal.column,
                    None,
                    p,
                )
            holding.setdefault(p, set()).update(c for c in (_number(x.text) for x in deal.cards) if c is not None)
        discarded: dict[str, int] = {}
        for d in hand.discards:
            p = d.player.name
            discarded[p] = discarded.get(p, 0) + len(d.cards)
            for x in d.cards:
                num = _number(x.text)
                if p in holding and num is not None and num not in holding[p]:
                    add("not-held", f"{p} discards {x.text}, which {p} was not dealt", x.line, x.column, None, p)
        for d in hand.discards:
            p = d.player.name
            want = 2 if self.variant in TWO_PACK else 0 if n == 5 and p == dealer else 1
            if lopaka:
                add("bad-exchange", f"{p} discards, but with Lopaka nobody discards", d.line, d.column, None, p)
            elif p in players and discarded.get(p) != want:
                add(
                    "hand-size",
                    f"{p} discards {discarded.get(p)} cards; the rules say {want}",
                    d.line,
                    d.column,
                    None,
                    p,
                )
                discarded[p] = want
        for ps in hand.passes:
            g, r = ps.giver.name, ps.receiver.name
            if g not in players or r not in players:
                continue
            i = players.index(g)
            if lopaka:
                if LOPAKA in (g, r) or g == r:
                    add(
                        "bad-exchange",
                        f"{g} passes to {r}: only the two players swap a card",
                        ps.line,
                        ps.column,
                        None,
                        g,
                    )
            elif r not in (players[(i + 1) % n], players[(i - 1) % n]):
                add(
                    "bad-exchange",
                    f"{g} passes to {r}, who sits neither after nor before {g}",
                    ps.line,
                    ps.column,
                    None,
                    g,
                )
            num = _number(ps.card.text)
            if g in holding and num is not None and num not in holding[g]:
                add(
                    "not-held",
                    f"{g} passes {ps.card.text}, which {g} was not dealt",
                    ps.card.line,
                    ps.card.column,
                    None,
                    g,
                )
        # cards played that the deal and the exchange show were not held
        if holding:
            final = _after_exchange(hand)
            for trick, who, cards in seated:
                for play, p, c in zip(trick.plays, who, cards):
                    if p in final and c not in final[p]:
                        add(
                            "not-held",
                            f"{p} plays {_spell(c)} in trick {trick.number} but did not hold it after "
                            "the deal and the exchange",
                            play.card.line,
                            play.card.column,
                            trick.number,
                            p,
                        )
        return out

    def score(self, hand: Hand, dealer: str) -> dict[str, int] | None:
        """The hand's scores, or None when the record does not let it be scored (incomplete, unknown cards)."""
        players = self.players
        n = len(players)
        if len(hand.tricks) != _TRICKS.get(n):
            return None
        seated, bottles, piles, whole = self.walk(hand, dealer)
        if not whole:
            return None
        played = {c for _, _, cards in seated for c in cards}
        imp = self._imp_trick(hand, played)
        if imp is None:
            return None
        penalty = sum(self.coins[c] for c in imp)
        own = {p: sum(self.coins[c] for c in piles[p]) for p in players}
        owners = [b.owner for b in bottles if b.owner is not None]
        for p in players:
            if p in owners:
                own[p] = -penalty * owners.count(p)
        if self.variant not in ("teams", "teams-2-2-1-1"):
            return own
        seat = {p: (players.index(p) - players.index(dealer)) % n for p in players}
        by_seat = {s: p for p, s in seat.items()}
        out: dict[str, int] = {}
        for p in players:
            team = [by_seat[s] for s in team_of(seat[p], n, self.variant)]
            if len(team) == 1:
                out[p] = 2 * own[p]
            elif any(m in owners for m in team):
                out[p] = -penalty
            else:
                out[p] = sum(own[m] for m in team)
        return out

    def _imp_trick(self, hand: Hand, played: set[float]) -> list[float] | None:
        discards = [c for d in hand.discards for c in d.cards]
        if discards and not any(c.unknown for c in discards):
            nums = [_number(c.text) for c in discards]
            return [c for c in nums if c is not None]
        for imp in hand.imps:
            if not any(c.unknown for c in imp.cards):
                return [c for c in (_number(x.text) for x in imp.cards) if c is not None]
        return [c for c in self.deck if c not in played]


_SCORED_VARIANTS = {"classic", "teams", "teams-2-2-1-1", "second-bottle", "lopaka", "bright-house", "eye-of-the-demon"}
TWO_PACK = {"bright-house", "eye-of-the-demon"}
PACK_SIZES = {"bright-house": {1: 9, 2: 9}, "eye-of-the-demon": {1: 6, 2: 12}}
LOPAKA = "Lopaka"


def _dealers(game: Game, variant: str) -> list[str | None]:
    """Each hand's dealer; with Lopaka the two players alternate, hand 1's the player listed last."""
    if variant != "lopaka":
        return hand_dealers(game, game.players)
    humans = [p for p in game.players if p != LOPAKA]
    out: list[str | None] = []
    previous: str | None = None
    for hand in game.hands:
        if hand.dealer is not None:
            dealer: str | None = hand.dealer.name
        elif previous is None:
            dealer = humans[-1] if humans else None
        else:
            dealer = next((p for p in humans if p != previous), previous)
        out.append(dealer)
        previous = dealer
    return out


def _default_variant(game: Game) -> str:
    return game.tag("Variant") or ("bright-house" if len(game.players) == 2 else "classic")


class BottleImpScoring(BottleImp):
    """Scores the one-pack variants from their tricks; the rule checks land with the full engine."""

    def judge(self, game: Game) -> GameResult:
        variant = _default_variant(game)
        if variant not in _SCORED_VARIANTS or len(game.players) not in _TRICKS:
            return super().judge(game)
        scorer = _HandScorer(game, variant, deck(game))
        by_hand: dict[int, list[Finding]] = {}
        for f in token_findings(game, self, play_names=False):
            by_hand.setdefault(f.hand or 0, []).append(f)
        totals = dict.fromkeys(game.players, 0)
        hands: list[HandResult] = []
        if variant == "lopaka" and (LOPAKA not in game.players or len(game.players) != 3):
            return super().judge(game)
        for hand, dealer in zip(game.hands, _dealers(game, variant)):
            findings = by_hand.get(hand.number, [])
            scores = scorer.score(hand, dealer) if dealer in game.players and not findings else None
            if dealer in game.players:
                findings = (
                    findings
                    + scorer.revokes(game, hand, dealer)
                    + scorer.record_checks(game, hand, dealer)
                    + scorer.automaton(game, hand, dealer)
                )
            complete = len(hand.tricks) == _TRICKS[len(game.players)]
            if scores is not None:
                for p, v in scores.items():
                    totals[p] += v
                findings = findings + _mismatches(game, hand, scores, totals)
            elif not complete:
                findings = findings + [
                    Finding(
                        "incomplete",
                        f"hand {hand.number} stops after {len(hand.tricks)} of {_TRICKS[len(game.players)]} tricks; "
                        "it is not scored",
                        hand.line,
                        hand.column,
                        game.path,
                        game.index,
                        hand.number,
                    )
                ]
            hands.append(HandResult(hand.number, dealer, complete, scores, tuple(findings)))
        target = game.tag("Target")
        limit = game.tag("Hands")
        over = bool(limit and limit.isdigit() and len(hands) >= int(limit)) or bool(
            target and target.lstrip("-").isdigit() and any(v >= int(target) for v in totals.values())
        )
        best = max(totals.values()) if totals else 0
        winners = tuple(p for p in game.players if totals[p] == best) if over else ()
        return GameResult(game.index, game.players, tuple(hands), totals, winners, over)


def _mismatches(game: Game, hand: Hand, scores: dict[str, int], totals: dict[str, int]) -> list[Finding]:
    out: list[Finding] = []
    for line in hand.scores + hand.totals:
        want = scores if line.kind == "score" else totals
        for e in line.entries:
            if e.player.name in want and want[e.player.name] != e.value:
                out.append(
                    Finding(
                        "score-mismatch",
                        f"{line.kind} of {e.player.name} is written {e.value}, the rules give {want[e.player.name]}",
                        e.line,
                        e.column,
                        game.path,
                        game.index,
                        hand.number,
                        None,
                        e.player.name,
                    )
                )
    return out


RULESET = BottleImpScoring()


def replay_hand(game: Game, hand: Hand) -> Iterator[Step]:
    """Step one hand of `game` through its events (see `imptools.replay`)."""
    from imptools.replay import Event, State, Step

    variant = _default_variant(game)
    if variant not in _SCORED_VARIANTS or len(game.players) not in _TRICKS:
        return
    dealers = dict(zip((h.number for h in game.hands), _dealers(game, variant)))
    dealer = dealers.get(hand.number)
    if dealer not in game.players:
        return
    scorer = _HandScorer(game, variant, deck(game))
    future: dict[str, list[float]] = {p: [] for p in game.players}
    seated, _, _, _ = scorer.walk(hand, dealer)
    for _, who, cards in seated:
        for p, c in zip(who, cards):
            future[p].append(c)
    held: dict[str, set[float]] = {}
    bottles = [Bottle(), Bottle()] if variant == "second-bottle" else [Bottle()]
    piles: dict[str, list[float]] = {p: [] for p in game.players}
    current: list[tuple[str, float]] = []
    voids: dict[str, set[str]] = {p: set() for p in game.players}

    def state(scores: dict[str, int] | None = None) -> State:
        holdings = {p: frozenset(_spell(c) for c in (held[p] if p in held else set(future[p]))) for p in game.players}
        return State(
            holdings,
            tuple((_spell(b.price), b.owner) for b in bottles),
            tuple((p, _spell(c)) for p, c in current),
            {p: tuple(_spell(c) for c in pile) for p, pile in piles.items()},
            {p: frozenset(v) for p, v in voids.items()},
            scores,
        )

    def nums(cards: tuple[CardText, ...]) -> list[float]:
        return [c for c in (_number(x.text) for x in cards) if c is not None]

    for line in hand.lines:
        if isinstance(line, Deal):
            held.setdefault(line.player.name, set()).update(nums(line.cards))
            yield Step(Event("deal", line.player.name, tuple(c.text for c in line.cards), None, line.line), state())
        elif isinstance(line, Discard):
            held.get(line.player.name, set()).difference_update(nums(line.cards))
            yield Step(Event("discard", line.player.name, tuple(c.text for c in line.cards), None, line.line), state())
        elif isinstance(line, Pass):
            for c in nums((line.card,)):
                held.get(line.giver.name, set()).discard(c)
                if line.receiver.name in held:
                    held[line.receiver.name].add(c)
            yield Step(Event("pass", line.giver.name, (line.card.text,), None, line.line), state())
        elif isinstance(line, Open):
            yield Step(Event("open", line.player.name, (str(line.pack),), None, line.line), state())
    for trick, who, cards in seated:
        current = []
        for play, p, c in zip(trick.plays, who, cards):
            current.append((p, c))
            led = scorer.deck[cards[0]][0]
            if scorer.deck[c][0] != led and variant not in TWO_PACK:
                voids[p].add(led)
            if future[p]:
                future[p].remove(c)
            held.get(p, set()).discard(c)
            yield Step(Event("play", p, (_spell(c),), trick.number, play.card.line, play.card.column), state())
        winner = who[settle_trick(cards, who, bottles, piles)]
        current = []
        yield Step(Event("trick", winner, (), trick.number, trick.line, trick.column), state())
    yield Step(Event("end", None, (), None, None), state(scorer.score(hand, dealer)))
