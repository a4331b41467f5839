"""The Bottle Imp in play: a position to play from, and the simulator's deals and bots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from imptools.record import Hand, NameRef
from imptools.rules.base import Ask, Choice, DealtHand, Position
from imptools.rules.bottle_imp.bottles import Bottle, automaton_choice, settle_trick
from imptools.rules.bottle_imp.cards import START_PRICE, spell
from imptools.rules.bottle_imp.setup import Setup
from imptools.rules.dealing import deal_to, recorded
from imptools.rules.tricks import follow

REACH = {2: 16, 3: 21, 4: 36}
"""The most cards still to play, by the number of players, from which the `pimc` bot solves worlds to the end of the
hand (four players' whole hand solves in a fraction of a second, three players' from trick 5; the two-pack games'
last four tricks; five and six players from 20 cards): before that it values them by the search cut at a horizon."""

TEAMS_REACH = {4: 24}
"""`REACH` where partners play together (a side's search is slower: four players from trick 4)."""


class BottlePosition:
    """A Bottle Imp hand being played, every card visible (see `imptools.rules.base.Position`).

    Each player's cards are kept by pack (one pack in the one-pack variants).
    The legal cards, the trick's judging and Lopaka's automaton are the same
    functions the checker uses; `undo` restores the bottles, the piles and the leader.
    """

    def __init__(self, setup: Setup, dealer: str, packs: dict[str, list[set[int]]], opened: dict[str, int]) -> None:
        self.setup = setup
        self.order = setup.order(dealer)
        self.per_trick = setup.per_trick
        self.packs = packs
        self.opened = opened
        self.bottles = [Bottle() for _ in range(setup.bottles)]
        self.piles: dict[str, list[int]] = {p: [] for p in setup.players}
        self.leader = 0
        self.trick: list[int] = []
        self._undo: list[tuple[str, int, int, int, list[int], list[tuple[int, str | None]], dict[str, int]]] = []

    @property
    def hands(self) -> dict[str, set[int]]:
        """Each player's cards, all packs together."""
        return {p: set().union(*packs) for p, packs in self.packs.items()}

    def to_move(self) -> str:
        return self.order[(self.leader + len(self.trick)) % len(self.order)]

    def _slots(self, player: str) -> list[int]:
        """The packs the next card may come from: Bright House plays the open pack first, then the hidden one."""
        if self.setup.rules.open_pack:
            first = self.opened.get(player, 0)
            return [first if len(self.trick) < 2 else 1 - first]
        return list(range(len(self.packs[player])))

    def legal(self) -> list[int]:
        player = self.to_move()
        led = self.setup.colour(self.trick[0]) if self.trick else None
        out: list[int] = []
        for k in self._slots(player):
            out += follow(self.packs[player][k], led, self.setup.colour)
        return sorted(out)

    def forced(self) -> int | None:
        automaton = self.setup.automaton
        if automaton is not None and self.to_move() == automaton:
            return automaton_choice(self.packs[automaton][0], self.trick, self.bottles, self.setup.colour)
        return None

    def play(self, card: int) -> None:
        player = self.to_move()
        k = next(k for k in self._slots(player) if card in self.packs[player][k])
        piles = {p: len(v) for p, v in self.piles.items()}
        bottles = [(b.price, b.owner) for b in self.bottles]
        self._undo.append((player, card, k, self.leader, list(self.trick), bottles, piles))
        self.packs[player][k].remove(card)
        self.trick.append(card)
        if len(self.trick) == self.per_trick:
            n = len(self.order)
            who = [self.order[(self.leader + i) % n] for i in range(self.per_trick)]
            win = settle_trick(self.trick, who, self.bottles, self.piles)
            self.leader = (self.leader + win) % n
            self.trick = []

    def undo(self) -> None:
        player, card, k, self.leader, self.trick, bottles, piles = self._undo.pop()
        self.packs[player][k].add(card)
        for b, (price, owner) in zip(self.bottles, bottles):
            b.price, b.owner = price, owner
        for p, size in piles.items():
            del self.piles[p][size:]

    def done(self) -> bool:
        return not self.trick and not any(any(packs) for packs in self.packs.values())

    def spell(self, card: int) -> str:
        return spell(card)


Exchange = tuple["int | None", int, int]
"""One player's exchange at a one-pack table: the card he discards (None where he discards none), the card he passes
to his left and the one to his right."""


def plain_picks(held: Sequence[int], k: int) -> list[tuple[int, ...]]:
    """The first `k` cards of each plain order of `held` that has `k`: the cards just below the bottle's price (those
    that take it dear) high to low, the highest, the lowest.

    >>> plain_picks([4, 10, 18, 34, 36, 40, 60], 2)  # engine cards: 2, 5, 9, 17, 18, 20, 30
    [(36, 34), (60, 40), (4, 10)]
    """
    below = sorted((c for c in held if c < START_PRICE), reverse=True)
    ranked = [below, sorted(held, reverse=True), sorted(held)]
    return [tuple(order[:k]) for order in ranked if len(order) >= k]


def exchanges(held: Sequence[int], first: Exchange) -> list[Exchange]:
    """The exchanges a bot that reasons over worlds is offered: `first` (the random one), then plain ones
    (`plain_picks`): the card discarded first, then the passes to the left and to the right (no discard where `first`
    has none).

    >>> exchanges([4, 10, 18, 34, 36, 40, 60], (18, 4, 60))  # engine cards: 2, 5, 9, 17, 18, 20, 30
    [(18, 4, 60), (36, 34, 18), (60, 40, 36), (4, 10, 18)]
    """
    out = [first]
    for a, b, c in plain_picks(held, 3):
        picked: Exchange = (a, b, c) if first[0] is not None else (None, a, b)
        if picked not in out:
            out.append(picked)
    return out


def offered(packs: Sequence[Sequence[int]], first: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], ...]]:
    """The exchanges of several packs (or of one card, Lopaka's table's pass) a bot that reasons over worlds is
    offered: `first` (the random one: from each pack, the cards in the order the exchange uses them), then for each
    plain order (`plain_picks`) the same number of cards from each pack in that order.

    >>> offered([[4, 10, 40], [18, 34, 60]], [[40, 10], [18, 60]])  # engine cards: 2, 5, 20 and 9, 17, 30
    [((40, 10), (18, 60)), ((10, 4), (34, 18)), ((40, 10), (60, 34)), ((4, 10), (18, 34))]
    """
    out = [tuple(tuple(cards) for cards in first)]
    picks = [plain_picks(held, len(cards)) if cards else [()] * 3 for held, cards in zip(packs, first, strict=True)]
    for i in range(3):
        if all(len(p) > i for p in picks):
            picked = tuple(p[i] for p in picks)
            if picked not in out:
                out.append(picked)
    return out


def exchange_text(player: str, left: str, right: str, exchange: Exchange) -> str:
    """An exchange as the record writes it (its lines, one under the other)."""
    gone, to_left, to_right = exchange
    lines = [] if gone is None else [f"discard {player} {spell(gone)}"]
    lines += [f"pass {player} > {left} {spell(to_left)}", f"pass {player} > {right} {spell(to_right)}"]
    return "\n".join(lines)


Layout = tuple[tuple[int, tuple[int, ...]], ...]
"""How a table's exchange other than the one-pack tables' is made, for each of the giver's packs: how many of its
cards he discards, then into which of the receiver's packs each card he passes from it goes (Lopaka's table: one
card passed; Bright House: from each pack one discarded and one passed into the same pack; the Eye of the Demon: from
pack 2, two discarded, one passed into each pack)."""


def pack_exchange_text(
    player: str, receiver: str, option: Sequence[Sequence[int]], layout: Layout, two_pack: bool
) -> str:
    """An exchange laid out by `layout` (`option`: the cards from each pack, the discards first) as the record writes
    it: the discard line, then the passes.

    >>> pack_exchange_text("Keawe", "Kokua", [[], [4, 10, 40, 60]], ((0, ()), (2, (0, 1))), True)
    'discard Keawe 2 5\\npass Keawe > Kokua.1 20\\npass Keawe > Kokua.2 30'
    """
    gone = [c for cards, (k, _) in zip(option, layout, strict=True) for c in cards[:k]]
    lines = [f"discard {player} " + " ".join(spell(c) for c in gone)] if gone else []
    for cards, (k, into) in zip(option, layout, strict=True):
        for to, card in zip(into, cards[k:], strict=True):
            lines.append(f"pass {player} > {receiver}{f'.{to + 1}' if two_pack else ''} {spell(card)}")
    return "\n".join(lines)


class BottleSimulator:
    """Deals random Bottle Imp hands: the deal, discards, passes and opened packs as the variant says."""

    choices_by_worlds = True
    """The exchange by worlds: far better than the better bot's, measured."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def places(self, dealer: str) -> list[tuple[str, int]]:
        setup = self.setup
        sizes = range(1, len(setup.rules.packs) + 1) if setup.two_pack else (1,)
        out = []
        for p in setup.order(dealer):
            for number in sizes:
                size = setup.dealt(NameRef(p, 0, 0, number if setup.two_pack else None), dealer) or 0
                out.append((f"{p}.{number}" if setup.two_pack else p, size))
        return out

    def seen_at_deal(self, hand: Hand, dealer: str, seat: str) -> dict[str, list[int]] | str:
        """The seat's packs, Lopaka's hand (open to all) and every pack open from the deal (`face_up`). Bright
        House's open packs are opened after the exchange, the bots' choice: not seen at the deal."""
        shown = {seat, self.setup.automaton}
        wanted = []
        for place, size in self.places(dealer):
            player, _, pack = place.partition(".")
            if player in shown or (pack and int(pack) == self.setup.rules.face_up):
                wanted.append((place, size, size))
        return recorded(hand, wanted, self.card)

    def card(self, text: str) -> int | None:
        return self.setup.resolve(text)

    def pack(self) -> list[int]:
        return sorted(self.setup.cards)

    def spell(self, card: int) -> str:
        return spell(card)

    def deal(
        self,
        dealer: str,
        rng: Random,
        better: bool = False,
        given: Mapping[str, Sequence[int]] | None = None,
        ask: Ask | None = None,
    ) -> DealtHand:
        """The deal (to `given`, the rest at random) and the exchange; the exchange is random for either bot. With
        `ask` (and `better`), each player's discard and passes are asked among the random one and a few plain others
        (`exchanges`; `offered` at Lopaka's and the two-pack tables, each player choosing the whole of his exchange from
        the cards dealt him), and which pack each player opens at Bright House (the random one first)."""
        setup = self.setup
        dealt_to = deal_to(self.places(dealer), self.pack(), given, rng)
        packs: dict[str, list[set[int]]] = {}
        for place, cards in dealt_to.items():
            packs.setdefault(place.partition(".")[0] if setup.two_pack else place, []).append(set(cards))
        lines: list[str] = []
        for p in setup.players:
            for k, dealt in enumerate(packs[p]):
                name = f"{p}.{k + 1}" if setup.two_pack else p
                lines.append(f"deal {name} " + " ".join(spell(c) for c in sorted(dealt)))
        discards, moves = self._exchange(dealer, packs, rng, ask if better else None, tuple(lines))
        lines += [f"discard {p} " + " ".join(spell(c) for c in discards[p]) for p in setup.players if p in discards]
        for giver, _, _, card in moves:
            for held in packs[giver]:
                held.discard(card)
        for giver, receiver, k, card in moves:
            packs[receiver][k].add(card)
            into = f"{receiver}.{k + 1}" if setup.two_pack else receiver
            lines.append(f"pass {giver} > {into} {spell(card)}")
        opened: dict[str, int] = {}
        if setup.rules.open_pack:
            for p in setup.players:
                opened[p] = rng.randrange(2)
                if ask is not None and better:
                    ways = (opened[p], 1 - opened[p])
                    texts = tuple(f"open {p} {k + 1}" for k in ways)
                    opened[p] = ways[ask(Choice("open", p, texts, shown=False, lines=tuple(lines)))]
                lines.append(f"open {p} {opened[p] + 1}")
        return DealtHand(lines, BottlePosition(setup, dealer, packs, opened))

    def _exchange(
        self,
        dealer: str,
        packs: dict[str, list[set[int]]],
        rng: Random,
        ask: Ask | None = None,
        seen: tuple[str, ...] = (),
    ) -> tuple[dict[str, list[int]], list[tuple[str, str, int, int]]]:
        """Discard (taken from `packs` at once) and choose the passes: (giver, receiver, receiving pack, card)."""
        setup = self.setup
        players, n = setup.players, len(setup.players)
        moves: list[tuple[str, str, int, int]] = []
        discards: dict[str, list[int]] = {}
        if setup.automaton is not None:
            humans = [p for p in players if p != setup.automaton]
            givers = [(p, next(q for q in humans if q != p)) for p in humans]
            layout: Layout = ((0, (0,)),)
        else:
            givers = [(p, players[(players.index(p) + 1) % n]) for p in players]
            layout = ((1, (0,)), (1, (1,))) if setup.rules.open_pack else ((0, ()), (2, (0, 1)))
        for p, other in givers:
            if setup.automaton is not None or setup.two_pack:
                first = [
                    rng.sample(sorted(held), gone + len(into)) if gone + len(into) else []
                    for held, (gone, into) in zip(packs[p], layout, strict=True)
                ]
                if ask is not None:
                    offers = offered([sorted(held) for held in packs[p]], first)
                    written = tuple(pack_exchange_text(p, other, o, layout, setup.two_pack) for o in offers)
                    first = [list(c) for c in offers[ask(Choice("exchange", p, written, shown=False, lines=seen))]]
                for k, (cards, (gone, into)) in enumerate(zip(first, layout, strict=True)):
                    packs[p][k].difference_update(cards[:gone])
                    if gone:
                        discards.setdefault(p, []).extend(cards[:gone])
                    moves += [(p, other, to, card) for to, card in zip(into, cards[gone:], strict=True)]
            else:
                keeps = n == 5 and p == dealer
                held = sorted(packs[p][0])
                thrown = None if keeps else rng.choice(held)
                i = players.index(p)
                left, right = players[(i + 1) % n], players[(i - 1) % n]
                to_left, to_right = rng.sample([c for c in held if c != thrown], 2)
                if ask is not None:
                    options = exchanges(held, (thrown, to_left, to_right))
                    texts = tuple(exchange_text(p, left, right, o) for o in options)
                    thrown, to_left, to_right = options[ask(Choice("exchange", p, texts, shown=False, lines=seen))]
                if thrown is not None:
                    packs[p][0].discard(thrown)
                    discards[p] = [thrown]
                moves += [(p, left, 0, to_left), (p, right, 0, to_right)]
        return discards, moves

    def better_bot(self, position: Position, rng: Random) -> int:
        """Keep away from the bottle: the highest card that cannot take it, else the lowest card."""
        assert isinstance(position, BottlePosition)
        legal = position.legal()
        price = max(b.price for b in position.bottles)
        safe = [c for c in legal if c > price]
        return max(safe) if safe else min(legal)

    def within_reach(self, position: Position) -> bool:
        """Whether few enough cards are left for the search to solve a world quickly (`REACH`): in every pack."""
        assert isinstance(position, BottlePosition)
        left = sum(len(pack) for packs in position.packs.values() for pack in packs)
        n = len(position.order)
        reach = TEAMS_REACH.get(n) if self.setup.rules.teams else None
        return left <= (reach or REACH.get(n, 20))
