"""Simulated games: random deals played by bots through the rules engine, written as records.

The ruleset deals (`Ruleset.simulator`; to conditions where `--deal` gives some places their
cards) and says which cards are legal (`Position.legal`); the bots only choose among them
(`random`, the game's `greedy`, or `pimc`, `imptools.pimc`, one bot per seat), and the `score`
lines are what the checker itself computes for the hand. The same seed gives the same bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from random import Random
from typing import TYPE_CHECKING

from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.base import Ask, Choice, HandSimulator, Position
from imptools.suggest import did_you_mean

if TYPE_CHECKING:
    from imptools.record import Game, Hand

BOTS = ("random", "greedy", "pimc")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_OWN_TAGS = ("Game", "Variant", "Players")
_PLAYER = re.compile(r"[^\W\d_][\w'\-]*")
"""A player name (notation section 2): a letter of any alphabet, then letters, digits, `_`, `'` or `-`."""


class SimulationError(ValueError):
    """The options do not describe a game imptools can simulate; the message says why."""


@dataclass(frozen=True, slots=True)
class Options:
    """What to simulate and how to write it."""

    game: str
    players: tuple[str, ...]
    variant: str | None = None
    hands: int = 1
    seed: int = 0
    bot: str = "random"
    """One bot for every seat, or a comma list, one per player in `Players` order (`pimc,greedy,greedy`)."""
    deals: bool = True
    scores: bool = True
    tags: tuple[tuple[str, str], ...] = ()
    deal: tuple[str, ...] = ()
    """Cards given to places of the deal, as written: `Adam: 2 4 6 7`; the rest are dealt at random."""
    think: float = 0.2
    """The `pimc` bot's thinking at a decision, in seconds' worth of search positions (`imptools.pimc.RATE`)."""
    worlds: int = 12
    """The most worlds the `pimc` bot solves at a decision."""
    dealer: str | None = None
    """Who deals every hand (`--like`: the recorded hand's dealer); None: hand 1's default dealer, then in turn."""
    choices: bool | None = None
    """Whether the `pimc` bot makes its choices before the first card (bids, trump, doublings) by worlds too
    (`imptools.pimc_deal`); else they are the better bot's, as every other bot's are. None: where the game's
    simulator says they were measured to play better (`HandSimulator.choices_by_worlds`)."""


def _header(opts: Options) -> str:
    lines = [f'[Game "{opts.game}"]']
    if opts.variant:
        lines.append(f'[Variant "{opts.variant}"]')
    lines.append(f'[Players "{" ".join(opts.players)}"]')
    lines += [f'[{name} "{_quoted(value)}"]' for name, value in opts.tags]
    return "\n".join(lines) + "\n"


def _quoted(value: str) -> str:
    """A tag value with `\\` and `"` escaped, as the notation writes it."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


Plays = list[list[tuple[str, int]]]
"""A hand's tricks so far, each as (player, card) plays (the last one perhaps not full)."""


def _play(position: Position, choose: Callable[[Position, Plays], int]) -> Plays:
    """Play a position to its end; the tricks as (player, card) plays. `choose` sees the tricks so far."""
    tricks: Plays = [[]]
    while not position.done():
        player = position.to_move()
        forced = position.forced()
        card = forced if forced is not None else choose(position, tricks)
        position.play(card)
        tricks[-1].append((player, card))
        if len(tricks[-1]) == position.per_trick:
            tricks.append([])
    return tricks[:-1]


def _trick_lines(tricks: Plays, spell: Callable[[int], str]) -> list[str]:
    """The tricks as the notation writes them, the leader named."""
    out = []
    for t, plays in enumerate(tricks, 1):
        if plays:
            first, *rest = plays
            out.append(" ".join([f"{t}. {first[0]}:{spell(first[1])}", *(spell(c) for _, c in rest)]))
    return out


NAMES = ("Adam", "Betty", "Christian", "Doris", "Emil", "Fiona")
"""The names `--players N` makes up."""


def seats(game: str, players: str, variant: str | None) -> tuple[str, ...]:
    """The players `--players` asks for: a number (names made up; Lopaka sits under his own name), or the names."""
    if not players.isdigit():
        return tuple(players.split())
    ruleset = get_ruleset(game)
    named = ruleset.named_seats(variant) if ruleset is not None else ()
    humans = int(players) - len(named)
    if humans > len(NAMES):
        raise SimulationError(f"--players {players}: give the players' names for more than {len(NAMES)} players")
    return (*NAMES[: max(humans, 0)], *named)


def tag_pairs(items: list[str]) -> tuple[tuple[str, str], ...]:
    """`--tag NAME=VALUE` options as (name, value)."""
    tags: list[tuple[str, str]] = []
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise SimulationError(f"--tag {item}: write NAME=VALUE, e.g. --tag Teams=none")
        tags.append((name.strip(), value))
    return tuple(tags)


def _bots(opts: Options) -> dict[str, str]:
    """Each player's bot, from `--bot` (one name, or one per player in `Players` order)."""
    names = [b.strip() for b in opts.bot.split(",")]
    for name in names:
        if name not in BOTS:
            near = did_you_mean(name, BOTS)
            hint = f"did you mean `{near}`? " if near else ""
            raise SimulationError(f"`{name}` is not a bot ({hint}the bots: {', '.join(BOTS)})")
    if len(names) == 1:
        names *= len(opts.players)
    if len(names) != len(opts.players):
        raise SimulationError(
            f"--bot names {len(names)} bots for {len(opts.players)} players: give one bot for every seat,"
            f" or one per player in order ({', '.join(opts.players)})"
        )
    return dict(zip(opts.players, names, strict=True))


def _given(opts: Options, sim: HandSimulator, dealer: str) -> dict[str, list[int]]:
    """The cards `--deal` gives to places of the deal, read and checked."""
    from imptools.rules.dealing import BadConditions, check_given

    places = sim.places(dealer)
    names = {p.casefold(): p for p, _ in places}
    given: dict[str, list[int]] = {}
    for item in opts.deal:
        place, colon, text = item.partition(":")
        place = place.strip()
        if not colon:
            raise SimulationError(f'--deal {item}: write "NAME: CARDS", e.g. --deal "Adam: 2 4 6"')
        name = names.get(place.casefold(), place)
        cards = []
        for token in text.replace(",", " ").split():
            card = sim.card(token)
            if card is None:
                raise SimulationError(f"--deal {place}: `{token}` is not a card of this pack")
            cards.append(card)
        if name in given:
            raise SimulationError(f"--deal gives {name}'s cards twice: give them in one --deal")
        given[name] = cards
    try:
        check_given(places, sim.pack(), given, sim.spell)
    except BadConditions as exc:
        raise SimulationError(f"--deal: {exc}") from None
    return given


def _prepare(opts: Options) -> tuple[str, HandSimulator, list[str]]:
    """Check the options; the header, the game's simulator and each hand's dealer."""
    _check_players(opts.players)
    for name, value in opts.tags:
        if not _TAG_NAME.fullmatch(name) or name in _OWN_TAGS or "\n" in value:
            raise SimulationError(
                f"`{name}` cannot be a tag here: a tag name is a letter then letters, digits or _,"
                f" the value one line, and {', '.join(_OWN_TAGS)} have options of their own"
            )
    header = _header(opts)
    (game,) = read_games(header + "".join(f"hand {i}\n" for i in range(1, opts.hands + 1)))
    ruleset = get_ruleset(game.game_name)
    if ruleset is None:
        raise SimulationError(f"`{opts.game}` is not a game imptools knows")
    if opts.variant is not None and opts.variant not in ruleset.variants:
        raise SimulationError(f"`{opts.variant}` is not a variant of {opts.game} ({', '.join(ruleset.variants)})")
    sim: HandSimulator | None = ruleset.simulator(game)
    if sim is None:
        raise SimulationError(f"{opts.game} with {len(opts.players)} players and these tags cannot be simulated")
    _bots(opts)
    dealers = [opts.dealer] * opts.hands if opts.dealer else [h.dealer or "" for h in ruleset.judge(game).hands]
    if opts.deal:
        _given(opts, sim, dealers[0])
    return header, sim, dealers


def _check_players(players: tuple[str, ...]) -> None:
    """Refuse names a record cannot hold: what is written must validate."""
    if not players:
        raise SimulationError("no players: give how many, or their names")
    for name in players:
        if not _PLAYER.fullmatch(name):
            raise SimulationError(
                f"`{name}` is not a player name: a letter, then letters, digits, _ ' or - (e.g. Ana, Bo_2)"
            )
    twice = sorted({n for n in players if players.count(n) > 1})
    if twice:
        raise SimulationError(f"`{twice[0]}` is named twice: the players of a game have different names")


def _chooser(opts: Options, sim: HandSimulator, rng: Random, before: str) -> Callable[[Position, Plays], int]:
    """How the players choose their cards: each by his own bot. `before` is the hand's record up to trick 1 (the
    `pimc` bot reads the hand so far as a record)."""
    bots = _bots(opts)
    thinking = None
    if "pimc" in bots.values():
        from imptools.pimc import Thinking, choose

        thinking = Thinking(opts.worlds, opts.think)

    def chosen(pos: Position, tricks: Plays) -> int:
        bot = bots[pos.to_move()]
        if bot == "greedy":
            return sim.better_bot(pos, rng)
        if bot == "pimc" and thinking is not None:

            def record() -> tuple[str, int]:
                text = "\n".join([before, *_trick_lines(tricks, pos.spell)]) + "\n"
                return text, sum(len(t) for t in tricks)

            return choose(sim, pos, rng, thinking, record)
        return rng.choice(pos.legal())

    return chosen


def _asker(opts: Options, sim: HandSimulator, header: str, dealer: str, number: int) -> Ask:
    """How the players make the choices a deal asks before the first card: the `pimc` bot's by worlds
    (`imptools.pimc_deal`, on random numbers of its own, so that the deal's other choices draw theirs as without
    it), every other bot's the better bot's."""
    from imptools.pimc import Thinking
    from imptools.pimc_deal import decide

    bots = _bots(opts)
    thinking = Thinking(opts.worlds, opts.think)
    rng = Random(f"{opts.seed}/{number}/choices")
    made: list[tuple[Choice, int]] = []

    def ask(choice: Choice) -> int:
        k = 0
        if bots.get(choice.player) == "pimc":
            k = decide(sim, choice, made, header, dealer, rng, thinking)
        made.append((choice, k))
        return k

    return ask


def _hand(opts: Options, header: str, sim: HandSimulator, number: int, dealer: str) -> str:
    """One hand's text. Its random choices come from the seed and the hand's number alone, so that
    hands can be played in any order, on any process, and give the same bytes."""
    rng = Random(f"{opts.seed}/{number}")
    given = _given(opts, sim, dealer) if opts.deal else None
    bots = _bots(opts)
    better = any(b != "random" for b in bots.values())
    by_worlds = sim.choices_by_worlds if opts.choices is None else opts.choices
    ask = _asker(opts, sim, header, dealer, number) if by_worlds and "pimc" in bots.values() else None
    dealt = sim.deal(dealer, rng, better=better, given=given, ask=ask)
    before = "\n".join([header, f"hand 1 dealer {dealer}", *dealt.lines])
    tricks = _play(dealt.position, _chooser(opts, sim, rng, before))
    body = [f"hand {number} dealer {dealer}", *(dealt.lines if opts.deals else dealt.play_only)]
    body += _trick_lines(tricks, dealt.position.spell)
    if opts.scores:
        body.append(_score_line(header, body, number))
    return "\n" + "\n".join(body) + "\n"


@functools.lru_cache(maxsize=1)
def _table(opts: Options) -> tuple[str, HandSimulator]:
    """The header and the simulator, worked out once per worker process for the simulation it serves."""
    header, sim, _ = _prepare(replace(opts, hands=1))
    return header, sim


def _hands(opts: Options, first: int, dealers: list[str]) -> str:
    """Hands `first` on, one per dealer given (a worker's share)."""
    header, sim = _table(opts)
    return "".join(_hand(opts, header, sim, first + i, dealer) for i, dealer in enumerate(dealers))


def simulate(opts: Options, jobs: int = 1) -> Iterator[str]:
    """The record of one simulated game, the header first, then the hands in order.

    With `jobs` above 1 the hands are played on that many processes; the bytes are the same.
    """
    header, sim, dealers = _prepare(opts)
    yield header
    if jobs <= 1 or opts.hands < 4 * jobs:
        for number, dealer in enumerate(dealers, 1):
            yield _hand(opts, header, sim, number, dealer)
        return
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    size = max(1, min(200, opts.hands // (4 * jobs)))
    shares = [(n, min(n + size - 1, opts.hands)) for n in range(1, opts.hands + 1, size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: deque[Future[str]] = deque()
        for first, last in shares:
            pending.append(pool.submit(_hands, opts, first, dealers[first - 1 : last]))
            if len(pending) > 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _score_line(header: str, body: list[str], number: int) -> str:
    """The hand's `score` line, as the checker computes it."""
    (game,) = read_games(header + "\n".join([body[0].replace(f"hand {number}", "hand 1", 1), *body[1:]]) + "\n")
    ruleset = get_ruleset(game.game_name)
    assert ruleset is not None
    scores = ruleset.judge(game).hands[0].scores or {}
    return "score " + " ".join(f"{p} {v}" for p, v in scores.items())


_NOT_COPIED = ("Result",)
"""Tags of a recorded game that `--like` leaves out of the new game: how the recorded game ended is not this one's."""


def like(
    games: Sequence[Game],
    hand: str,
    seat: str,
    opts: Options,
    game: str | None = None,
    players: str | None = None,
    variant: str | None = None,
) -> Options:
    """`opts` (hands, seed, bots, what to write) made to deal hand `hand` of `games` again as `seat` saw it.

    The new game has the recorded game's game, variant, players and tags (not `Result`; a `--tag` of the same name
    replaces one), every hand the recorded hand's dealer, and the cards `seat` saw when the deal was complete (his
    own, what the rules show the table then, and the cards a choice before the first card shows the table, such as
    a declarer's bid cards: `HandSimulator.seen_at_deal`) given as `--deal` gives them; the
    other cards are dealt at random and everything after the deal is the bots'. `hand` is `N`, the hand numbered N
    (in the one game that has one), or `GAME:N`. `game`, `players` and `variant` are those options as given beside
    `--like` (None where not given): refused where they contradict the record, as is `--deal`.
    """
    from imptools.rules.dealing import BadConditions, check_given

    if opts.deal:
        raise SimulationError("--deal cannot be added to --like: the cards dealt to order are what the seat saw")
    record, played, where = _recorded_hand(games, hand)
    name = record.game_name or ""
    ruleset = get_ruleset(name)
    if ruleset is None:
        raise SimulationError(f"game {record.index} is not a game imptools knows (Game `{name}`)")
    if not record.players:
        raise SimulationError(f"game {record.index} has no Players tag")
    _agrees(record, game, players, variant)
    sim = ruleset.simulator(record)
    if sim is None:
        raise SimulationError(
            f"{name} with {len(record.players)} players and the tags of game {record.index} cannot be simulated"
        )
    who = _seat(record, seat)
    judged = ruleset.judge(record).hands
    dealer = next((r.dealer for h, r in zip(record.hands, judged) if h is played), None)
    if not dealer:
        raise SimulationError(f"{where}: who dealt it is not known")
    seen = sim.seen_at_deal(played, dealer, who)
    if isinstance(seen, str):
        game_of = where.rpartition("hand")[0]  # "game 2, " in a file of several games
        raise SimulationError(f"{game_of}{seen}: what {who} saw at the deal cannot be dealt again")
    try:
        check_given(sim.places(dealer), sim.pack(), seen, sim.spell)
    except BadConditions as exc:
        raise SimulationError(f"{where}: {exc}") from None
    deal = tuple(f"{place}: {' '.join(sim.spell(c) for c in cards)}" for place, cards in seen.items())
    asked = dict(opts.tags)
    tags = [(t.name, asked.pop(t.name, t.value)) for t in record.tags if t.name not in (*_OWN_TAGS, *_NOT_COPIED)]
    tags += asked.items()
    return replace(
        opts,
        game=name,
        players=record.players,
        variant=record.tag("Variant"),
        tags=tuple(tags),
        deal=deal,
        dealer=dealer,
    )


def _recorded_hand(games: Sequence[Game], hand: str) -> tuple[Game, Hand, str]:
    """The game and hand `--hand` names (`N`, or `GAME:N`), and how to name it in a message."""
    first, colon, last = hand.strip().rpartition(":")
    if not last.isdigit() or int(last) < 1 or (colon and not (first.isdigit() and int(first) >= 1)):
        raise SimulationError(
            f"--hand {hand}: give the hand's number (--hand 3), or in a file of several games the game's and the"
            " hand's (--hand 2:3)"
        )
    held = [g for g in games if g.holds_game]
    if not held:
        why = "; ".join(f.message for g in games for f in g.findings[:1])
        raise SimulationError("the file holds no game" + (f" ({why})" if why else ""))
    number = int(last)
    chosen = [g for g in held if not colon or g.index == int(first)]
    if not chosen:
        raise SimulationError(f"no game {first}: the file holds {_counted(len(held), 'game')}")
    found = [(g, h) for g in chosen for h in g.hands if h.number == number]
    if not found:
        most = max(len(g.hands) for g in chosen)
        if len(chosen) == 1:
            owner = f"game {first}" if colon else "the game"
            raise SimulationError(f"no hand {number}: {owner} has {_counted(most, 'hand')}")
        raise SimulationError(f"no hand {number}: the games of the file have at most {_counted(most, 'hand')}")
    indexes = sorted({g.index for g, _ in found})
    if len(indexes) > 1:
        listed = ", ".join(str(i) for i in indexes)
        raise SimulationError(
            f"games {listed} of the file have a hand {number}: say which, e.g. --hand {indexes[0]}:{number}"
        )
    if len(found) > 1:
        raise SimulationError(f"game {indexes[0]} has {len(found)} hands numbered {number}: the record is ambiguous")
    record, played = found[0]
    return record, played, f"game {record.index}, hand {number}" if len(held) > 1 else f"hand {number}"


def _counted(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _agrees(record: Game, game: str | None, players: str | None, variant: str | None) -> None:
    """Refuse `--game`, `--players` or `--variant` given with `--like` where they say other than the record."""
    name, names, kept = record.game_name, record.players, record.tag("Variant")
    if game is not None and game != name:
        raise SimulationError(f"--game {game}: the recorded game is {name}; leave --game out with --like")
    if players is not None and (len(names) != int(players) if players.isdigit() else tuple(players.split()) != names):
        raise SimulationError(f"--players {players}: the recorded game is played by {' '.join(names)}")
    if variant is not None and variant != kept:
        says = f"is {kept}" if kept else "has no Variant tag (its game's default)"
        raise SimulationError(f"--variant {variant}: the recorded game {says}; leave --variant out with --like")


def _seat(record: Game, seat: str) -> str:
    """The player `--seat` names (the case of a name forgiven), or a refusal naming the close one."""
    if seat in record.players:
        return seat
    for p in record.players:
        if p.casefold() == seat.strip().casefold():
            return p
    near = did_you_mean(seat, record.players)
    hint = f"did you mean `{near}`? " if near else ""
    raise SimulationError(
        f"`{seat}` does not play game {record.index} ({hint}the players: {', '.join(record.players)})"
    )
