"""The `pimc` bot's choices before the first card (a bid, a trump, a doubling), made by worlds as its cards are.

A simulated deal asks the bot of the player who chooses (`HandSimulator.deal`'s `ask`: a `Choice`, the game's better
bot's option first, then a few the game ranks next). The bot draws worlds consistent with what that player has seen
by then (`Choice.lines`: the deal, and the choices shown to the table before his). Before the first card no card has
been played, so by the rules those are the deals that give him the cards he saw (`HandSimulator.seen_at_deal`: his
own, what the rules show the table, and the cards a choice before his showed: a Ninety-nine declarer's bid cards),
the rest dealt by the simulator's own dealing to conditions (`imptools.rules.dealing.deal_to`, uniform over such
deals). The calls the others were seen to make say more than the rules do (a dealer who names oros is long in oros):
a world is kept only where the game's better bot, holding that world's cards, makes each of them as it was made
(`agrees`), drawn again otherwise (`TRIES` at most), which keeps the draw uniform among the deals that agree.

In each world each option is taken in turn and the deal's choices are made again (`HandSimulator.deal` with every
place given): the choices the player has seen made (his own, and every one shown to the table: a trump, a doubling,
a declaration; and a choice a later one revealed, `Choice.reveals`: the bid a declaration shows, made again with the
cards shown wherever the world's candidates are other bids, `Choice.others`) as they were made, the others (another
player's bid cards not shown, every choice still to come, his own included) by the game's better bot in that world,
on the same random numbers for every option. A revealed choice is not one the better bot must make as it was made
(`agrees`; the choice that revealed it is). The world's record is read and its start position made by the game's
search (`imptools.analyse.played_hand`), then valued for the player by the search cut at a horizon
(`imptools.horizon.horizon_values`: every first card of the player to lead, the best for his side or the worst where
he is against the player), a trick at a time while the option's share of the budget lasts, and turned into what the
hand scores the player less what it scores those against him where the search counts otherwise (`DealtHand.worth`:
Botifarra's points and the multiplier of the calls). Every option is valued on the same worlds; the option with the
best sum is taken, ties to the better bot's, then the first.

The thinking: at most `Thinking.worlds` worlds, and for each option `Thinking.think` seconds' worth of search
positions (`imptools.pimc.RATE`, counted, never timed) shared among them, so that the same seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from imptools.horizon import horizon_values
from imptools.pimc import RATE, Thinking, Told
from imptools.rules.base import Choice, HandSimulator

TRIES = 200
"""Worlds drawn in turn for one that agrees with the choices the others were seen to make (`agrees`); past that
many the last one drawn is taken."""

Made = Sequence[tuple[Choice, int]]
"""The choices made so far in a deal, in order, each with the index of the option taken."""


def record(header: str, dealer: str, lines: Sequence[str]) -> str:
    """A record of one hand: `header`, then the hand dealt by `dealer` with `lines`."""
    return "\n".join([header.rstrip("\n"), f"hand 1 dealer {dealer}", *lines]) + "\n"


def decide(
    sim: HandSimulator,
    choice: Choice,
    made: Made,
    header: str,
    dealer: str,
    rng: Random,
    thinking: Thinking,
    told: Told | None = None,
) -> int:
    """The option the bot takes for `choice` (its index), the choices before it `made` (see the module); 0, the
    better bot's, where no world can be laid out. `header` is the game's tag lines, `dealer` the hand's dealer;
    `told` hears of each valuation (its positions, and the cards it looked ahead)."""
    totals = values(sim, choice, made, header, dealer, rng, thinking, told)
    if not totals:
        return 0
    top = max(totals)
    best = [i for i, t in enumerate(totals) if t == top]
    return 0 if 0 in best else best[0]


def values(
    sim: HandSimulator,
    choice: Choice,
    made: Made,
    header: str,
    dealer: str,
    rng: Random,
    thinking: Thinking,
    told: Told | None = None,
) -> list[int]:
    """The sum over the worlds drawn of each option's value for the player who chooses (empty where no world can be
    laid out, or where there is nothing to choose)."""
    from imptools.reader import read_games
    from imptools.rules.dealing import deal_to

    if len(choice.options) < 2:
        return []
    (game,) = read_games(record(header, dealer, choice.lines))
    seen = sim.seen_at_deal(game.hands[0], dealer, choice.player)
    if isinstance(seen, str):
        return []
    known, shown = seen_made(made, choice.player)
    share = max(int(thinking.think * RATE) // thinking.worlds, 1)
    totals = [0] * len(choice.options)
    count = 0
    for _ in range(thinking.worlds):
        for _ in range(TRIES):
            world = deal_to(sim.places(dealer), sim.pack(), seen, rng)
            seed = rng.getrandbits(64)
            if agrees(sim, world, known, shown, dealer, seed):
                break
        found: list[int] = []
        for option in choice.options:
            v = option_value(sim, world, choice, option, known, header, dealer, seed, share, thinking, told)
            if v is None:
                break
            found.append(v)
        else:
            totals = [t + v for t, v in zip(totals, found, strict=True)]
            count += 1
    return totals if count else []


def taken(choice: Choice, k: int) -> str:
    """The option answer `k` takes (see `Ask`: an index into the options, then the others)."""
    return (*choice.options, *choice.others)[k]


def seen_made(made: Made, player: str) -> tuple[dict[tuple[str, str], str], set[tuple[str, str]]]:
    """What `player` saw of the choices `made`: the option taken at each choice he knows of, by (kind, player) (his
    own, every one shown to the table, and every one a later choice revealed: `Choice.reveals`), and those of them
    the better bot is to make as they were made (see `agrees`): the others' choices shown to the table."""
    options = {(c.kind, c.player): taken(c, k) for c, k in made}
    revealed = {(c.reveals, c.player) for c, k in made if c.reveals and taken(c, k)}
    known = {
        (c.kind, c.player): options[(c.kind, c.player)]
        for c, _ in made
        if c.shown or c.player == player or (c.kind, c.player) in revealed
    }
    shown = {(c.kind, c.player) for c, _ in made if c.shown and c.player != player}
    return known, shown


def agrees(
    sim: HandSimulator,
    world: dict[str, list[int]],
    known: dict[tuple[str, str], str],
    shown: set[tuple[str, str]],
    dealer: str,
    seed: int,
) -> bool:
    """Whether the better bot, holding `world`'s cards, makes each choice of `shown` (made before, by another
    player, seen by all) as `known` says it was made."""
    broken = False

    def script(asked: Choice) -> int:
        nonlocal broken
        key = (asked.kind, asked.player)
        if key in shown and asked.options[0] != known[key]:
            broken = True
        return index(asked, known.get(key))

    sim.deal(dealer, Random(seed), better=True, given=world, ask=script)
    return not broken


def index(asked: Choice, wanted: str | None) -> int:
    """The answer that takes option `wanted` of `asked` (among its options, then its others); 0 where it is none."""
    options = (*asked.options, *asked.others)
    return options.index(wanted) if wanted in options else 0


def option_value(
    sim: HandSimulator,
    world: dict[str, list[int]],
    choice: Choice,
    option: str,
    known: dict[tuple[str, str], str],
    header: str,
    dealer: str,
    seed: int,
    budget: int,
    thinking: Thinking,
    told: Told | None = None,
) -> int | None:
    """What `option` is worth to the player who chooses in `world` (every place's cards), the choices he has seen
    made as `known` says, the others the better bot's (None where the world's hand cannot be searched)."""
    from imptools.analyse import played_hand
    from imptools.reader import read_games

    def script(asked: Choice) -> int:
        if (asked.kind, asked.player) == (choice.kind, choice.player):
            wanted: str | None = option
        else:
            wanted = known.get((asked.kind, asked.player))
        return index(asked, wanted)

    dealt = sim.deal(dealer, Random(seed), better=True, given=world, ask=script)
    (game,) = read_games(record(header, dealer, dealt.lines))
    found = played_hand(game, 1)
    if isinstance(found, str):
        return None
    position = found.position
    player = choice.player
    mine = position.to_move() in position.side(player)
    valued = horizon_values(position, player, budget, 0, thinking.playout)
    if told is not None:
        told(valued.nodes, None if valued.exact else valued.plies)
    if not valued.values:
        return None
    v = max(valued.values.values()) if mine else min(valued.values.values())
    return v if dealt.worth is None else dealt.worth(player, v)
