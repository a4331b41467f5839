"""What each card cost, with every card visible: a recorded hand's plays valued by the game-tree search.

The value of a position for a player P is the result P is guaranteed from
there, every card visible, P's side making it as high as possible and everyone
else as low (the "paranoid" value, `imptools.search.Search`). The cost of a play
is the value for its player just before it minus the value just after it.
docs/ANALYSIS.md says it in full. Nothing here knows a game: the registry finds
a game's search (`imptools.rules.get_search`), which starts a hand from what its
ruleset sets up (`imptools.rules.base.StartPosition`).

Before the first card, the choices a player made (Botifarra's trump, a Ninety-nine
bid: `PlayedHand.decisions`, from the game's search) are valued the same way, each
option's start position searched for the choosing player (`imptools.choices`).

`analyse_hand(game, hand_number, from_trick)` is the function the replay and the
stepper call; `Runner` runs many hands in a process pool or on a Dask cluster, or
(fewer hands than workers) the hands here and their worlds (`--knowing`) and their
choices' other options there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from imptools.choices import ChoiceValue, value_choices
from imptools.record import Game
from imptools.rules import get_known_deal, get_search
from imptools.rules.base import KnownDeal, PlayedHand, SearchPosition
from imptools.search import Search
from imptools.worlds import TooMany, World, Worlds

# --------------------------------------------------------------------------- analysing a recorded hand


@dataclass(frozen=True, slots=True)
class PlayCost:
    """One play as the search values it: values for its player before and after, its cost, the cards that keep
    the value (canonical spelling) and the mark a reader would give it (`""`, `"?"` or `"??"`)."""

    trick: int
    player: str
    card: str
    value_before: int
    value_after: int
    cost: int
    best: tuple[str, ...]
    mark: str = ""
    knowing: Knowing | None = None
    """The play valued on what its player knew (`imp analyse --knowing`), where asked."""

    def to_dict(self) -> dict[str, Any]:
        out = {
            "trick": self.trick,
            "player": self.player,
            "card": self.card,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "cost": self.cost,
            "best": list(self.best),
            "mark": self.mark,
        }
        if self.knowing is not None:
            out["knowing"] = self.knowing.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Knowing:
    """A play valued on what its player knew: each legal card's mean value over the consistent worlds averaged
    (`imptools.worlds`), the cost of the card played (the best mean less its mean), the cards with the best mean,
    and how many worlds were averaged. `totals` are the sums the means come from (exact)."""

    totals: dict[str, int]
    cost_total: int
    best: tuple[str, ...]
    worlds: int

    @property
    def values(self) -> dict[str, float]:
        return {c: t / self.worlds for c, t in self.totals.items()}

    @property
    def cost(self) -> float:
        return self.cost_total / self.worlds

    def to_dict(self) -> dict[str, Any]:
        return {"values": self.values, "cost": self.cost, "best": list(self.best), "worlds": self.worlds}


@dataclass(frozen=True, slots=True)
class KnowingAsk:
    """What `--knowing` asks: `samples` worlds a play (None: every consistent world) drawn from `seed`."""

    samples: int | None = None
    seed: int = 0


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """The analysis of one hand: each play from `from_trick` on, or `skipped` saying why there is none.

    `note` says why the plays stop before the record's end, where they do; `nodes`
    counts the positions the search visited; `marks` are the game's thresholds for
    `?` and `??`; `choices` the options of the choices made before the first card
    (valued when the analysis starts at trick 1).
    """

    path: str | None
    game: int
    hand: int
    from_trick: int
    plays: tuple[PlayCost, ...] = ()
    skipped: str | None = None
    note: str | None = None
    nodes: int = 0
    marks: tuple[int, int] = (1, 1)
    choices: tuple[ChoiceValue, ...] = ()

    def cost_of(self, trick: int | None, player: str | None) -> PlayCost | None:
        """The valued play of `player` in trick `trick`, if the analysis has one."""
        for p in self.plays:
            if p.trick == trick and p.player == player:
                return p
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "game": self.game,
            "hand": self.hand,
            "from_trick": self.from_trick,
            "plays": [p.to_dict() for p in self.plays],
            "choices": [c.to_dict() for c in self.choices],
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
        if self.note is not None:
            out["note"] = self.note
        return out


def played_hand(game: Game, hand_number: int) -> PlayedHand | str:
    """The start position and plays of a hand from its game's ruleset, or why the hand cannot be analysed."""
    search = get_search(game.game_name)
    if search is None:
        return f"imptools cannot analyse {game.game_name or 'this game'} yet"
    return search(game, hand_number)


def mark(cost: int, marks: tuple[int, int]) -> str:
    """`??` from the second threshold on, `?` from the first, else nothing.

    >>> mark(0, (3, 10)), mark(3, (3, 10)), mark(12, (3, 10))
    ('', '?', '??')
    """
    return "??" if cost >= marks[1] else "?" if cost >= marks[0] else ""


OnPlay = Callable[[int, int, str], None]
"""Told how many steps of a stage are done, how many there are, and the stage: before each option's search of a
choice made before the first card (`trump option`, `bid option`: `value_choices`), then `play`, before the first
play from the trick asked and after each play from there."""


def analyse_hand(
    game: Game,
    hand_number: int,
    from_trick: int = 1,
    on_play: OnPlay | None = None,
    knowing: KnowingAsk | None = None,
    jobs: int = 1,
    costly: bool = False,
    pool: Executor | None = None,
    choices: bool = True,
) -> HandAnalysis:
    """The cost of every play of hand `hand_number` of `game` from trick `from_trick` on; with `knowing`, each play
    valued on what its player knew as well; from trick 1 and where `choices` asks, the choices made before it too
    (`value_choices`; `costly` values the options of the costly ones as well).

    With `knowing`, each play's worlds are valued in `jobs` shares on `pool` (any `Executor`: a process pool, a Dask
    cluster's), or on a process pool of `jobs` made for the hand where `pool` is None and `jobs` > 1, while this
    process values the play with every card visible; the figures do not depend on where the worlds ran. Where
    `jobs` > 1 the options of a choice shown whole (Botifarra's trump table) other than the one taken go to the same
    pool (`send_option`) while this process values the one taken: the same values and positions, sooner on more
    cores, each process with its own search tables."""
    head = (game.path, game.index, hand_number, from_trick)
    deal: KnownDeal | None = None
    if knowing is None:
        found = played_hand(game, hand_number)
    else:
        known = get_known_deal(game.game_name)
        laid = (
            f"imptools cannot analyse {game.game_name or 'this game'} yet"
            if known is None
            else known(game, hand_number)
        )
        if isinstance(laid, str):
            return HandAnalysis(*head, skipped=laid)
        deal = laid
        found = laid.played
    if isinstance(found, str):
        return HandAnalysis(*head, skipped=found)
    pos = found.position
    search = Search(pos)
    told = None if on_play is None else (lambda stage, done, total: on_play(done, total, stage))
    asked = from_trick <= 1 and choices
    sending = asked and jobs > 1 and any(d.every and len(d.options) > 1 for d in found.decisions)
    own = ProcessPoolExecutor(max_workers=jobs) if (deal is not None or sending) and jobs > 1 and pool is None else None
    pool = pool if pool is not None else own
    try:
        sent = None if not sending or pool is None else partial(send_option, pool, game, hand_number, deal is not None)
        valued, nodes = value_choices(found.decisions, search, Search, costly, told, sent) if asked else ((), 0)
        out: list[PlayCost] = []
        note = found.note
        total = sum(1 for trick, _, _ in found.plays if trick >= from_trick)
        done = 0
        if on_play is not None:
            on_play(done, total, "play")
        for made, (trick, player, card) in enumerate(found.plays):
            if pos.done() or pos.to_move() != player or card not in pos.legal():
                note = (
                    f"trick {trick}: {player}'s {pos.spell(card)} is not a legal card there "
                    "(the record breaks a rule); the analysis stops before it"
                )
                break
            if trick >= from_trick and pos.forced() is None:
                later = None
                if deal is not None and knowing is not None:
                    try:  # the worlds sent off first, valued while this process searches with every card visible
                        later = knowing_later(game, hand_number, deal, made, knowing, pool, jobs)
                    except TooMany as exc:
                        note = f"trick {trick}: {exc}; the analysis stops before {player}'s play there"
                        break
                before, keep = search.choices(player)
                after = before if card in keep else search.after(player, card)
                cost = before - after
                best = tuple(pos.spell(c) for c in keep)
                knew = None if later is None else later()
                out.append(
                    PlayCost(trick, player, pos.spell(card), before, after, cost, best, mark(cost, found.marks), knew)
                )
            pos.play(card)
            if trick >= from_trick and on_play is not None:
                done += 1
                on_play(done, total, "play")
    finally:
        if own is not None:
            own.shutdown()
    return HandAnalysis(*head, tuple(out), None, note, search.positions() + nodes, found.marks, valued)


def send_option(
    pool: Executor, game: Game, hand_number: int, knowing: bool, decision: int, option: int
) -> Callable[[], tuple[int, int]]:
    """An option of a choice made before the first card sent to `pool` to be valued there (`option_value`); the
    function that waits for its value and positions (`imptools.choices.Elsewhere`)."""
    return pool.submit(option_value, (game, hand_number, knowing, decision, option)).result


def option_value(task: tuple[Game, int, bool, int, int]) -> tuple[int, int]:
    """One option of a choice made before the first card valued on a worker, as `value_choices` values it in the
    hand's own process: the hand laid out again there (as `analyse_hand` lays it out, `knowing` or not), the
    option's start searched afresh for the choosing player; its value and the positions visited."""
    game, hand_number, knowing, decision, option = task
    if knowing:
        known = get_known_deal(game.game_name)
        assert known is not None
        deal = known(game, hand_number)
        assert not isinstance(deal, str)
        found: PlayedHand | str = deal.played
    else:
        found = played_hand(game, hand_number)
    assert not isinstance(found, str)
    d = found.decisions[decision]
    start = d.options[option].start
    assert start is not None
    search = Search(start())
    try:
        return search.value(d.player), search.positions()
    finally:
        search.close()


# --------------------------------------------------------------------------- on what the player knew


def world_values(position: SearchPosition, player: str, search: Search | None = None) -> dict[int, int]:
    """The paranoid value for `player`, who is to move, after each of his legal cards, every card visible (found by
    `search`, a search of `position`, where the caller wants its count of positions)."""
    search = Search(position) if search is None else search
    out: dict[int, int] = {}
    for group in position.groups():
        v = search.after(player, group[0])
        for c in group:
            out[c] = v
    return out


def knowing_play(
    game: Game,
    hand_number: int,
    deal: KnownDeal,
    made: int,
    ask: KnowingAsk,
    pool: Executor | None = None,
    shares: int = 1,
) -> Knowing:
    """The play after the first `made` plays of the hand valued over the worlds its player could be in (their
    values found on `pool`, in `shares`, where there is one)."""
    return knowing_later(game, hand_number, deal, made, ask, pool, shares)()


def knowing_later(
    game: Game,
    hand_number: int,
    deal: KnownDeal,
    made: int,
    ask: KnowingAsk,
    pool: Executor | None = None,
    shares: int = 1,
) -> Callable[[], Knowing]:
    """`knowing_play` in two steps: the worlds are chosen now (`TooMany` is raised here) and, where there is a
    `pool`, sent to it at once in `shares` runs of the chosen list; the function returned waits for them and sums.

    The worlds depend only on the seed, the game and hand and `made`, never on the shares, and the sums are of
    integers: the figures are the same however the worlds are split and wherever they run.
    """
    _, player, card = deal.played.plays[made]
    worlds = Worlds(deal, made, player)
    chosen = worlds.choose(ask.samples, f"{ask.seed}/{game.index}/{hand_number}")
    futures: list[Future[dict[int, int]]] = []
    if pool is not None and shares > 1 and len(chosen) > 1:
        share = -(-len(chosen) // shares)
        pieces = [chosen[i : i + share] for i in range(0, len(chosen), share)]
        futures = [pool.submit(world_share, (game, hand_number, made, player, p)) for p in pieces]

    def collect() -> Knowing:
        totals: dict[int, int] = {}
        for part in [f.result() for f in futures] if futures else [world_totals(worlds, chosen)]:
            for c, v in part.items():
                totals[c] = totals.get(c, 0) + v
        spell = deal.played.position.spell
        top = max(totals.values())
        best = tuple(spell(c) for c in sorted(totals) if totals[c] == top)
        return Knowing({spell(c): totals[c] for c in sorted(totals)}, top - totals[card], best, len(chosen))

    return collect


def world_totals(worlds: Worlds, chosen: Sequence[World]) -> dict[int, int]:
    """For each legal card of the viewer, the sum over `chosen` worlds of its value there."""
    totals: dict[int, int] = {}
    for w in chosen:
        pos = worlds.position(w)
        if pos is None:  # pragma: no cover - `Worlds` chooses consistent worlds only
            raise ValueError("an inconsistent world was chosen")
        for c, v in world_values(pos, worlds.player).items():
            totals[c] = totals.get(c, 0) + v
    return totals


def world_share(task: tuple[Game, int, int, str, Sequence[World]]) -> dict[int, int]:
    """`world_totals` of some worlds of one play, on a worker process (the hand laid out again there)."""
    game, hand_number, made, player, chosen = task
    known = get_known_deal(game.game_name)
    assert known is not None
    deal = known(game, hand_number)
    assert not isinstance(deal, str)
    return world_totals(Worlds(deal, made, player), chosen)


# --------------------------------------------------------------------------- many hands


@dataclass(frozen=True, slots=True)
class Task:
    """One hand to analyse (a game travels whole: it is small and pickles)."""

    game: Game
    hand: int
    from_trick: int = 1
    knowing: KnowingAsk | None = None
    costly: bool = False
    """Value the options of the costly choices too (`analyse_hand`)."""
    choices: bool = True
    """Value the choices made before the first card at all (`analyse_hand`)."""


def run_task(task: Task) -> HandAnalysis:
    """Analyse one task (the function the pool's and the cluster's workers run)."""
    return analyse_hand(
        task.game, task.hand, task.from_trick, knowing=task.knowing, costly=task.costly, choices=task.choices
    )


def tasks_for(
    games: Iterable[Game],
    game: int | None = None,
    hand: int | None = None,
    from_trick: int = 1,
    knowing: KnowingAsk | None = None,
    costly: bool = False,
    choices: bool = True,
) -> list[Task]:
    """The hands of `games` to analyse: all of them, or the game and hand asked for (numbers from 1)."""
    return [
        Task(g, h.number, from_trick, knowing, costly, choices)
        for g in games
        if game is None or g.index == game
        for h in g.hands
        if hand is None or h.number == hand
    ]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def work_spread(tasks: Sequence[Task], slots: int) -> bool:
    """Whether `slots` workers take the work of hands analysed here rather than whole hands: for fewer hands than
    workers, where a hand has work to share out, each play's worlds (a knowing analysis) or its choices' options
    (from trick 1, the choices asked); with as many hands as workers, whole hands keep every worker busy and
    nothing is sent off a hand."""
    return len(tasks) < slots and any(t.knowing is not None or (t.choices and t.from_trick <= 1) for t in tasks)


def one_by_one(
    tasks: Sequence[Task],
    on_play: Callable[[Task, int, int, str], None] | None,
    shares: int = 1,
    pool: Executor | None = None,
) -> Iterator[HandAnalysis]:
    """The hands analysed here one after another, each play's worlds in `shares` on `pool` where there is one."""
    for t in tasks:
        told = None if on_play is None else partial(on_play, t)
        yield analyse_hand(t.game, t.hand, t.from_trick, told, t.knowing, shares, t.costly, pool, t.choices)


@dataclass
class Runner:
    """Where the hands are analysed: in this process, a process pool of `jobs`, or a Dask cluster (`scheduler`).

    With fewer hands than workers (`work_spread`), the hands are analysed here one after another and their work
    is shared out to the workers (the pool's processes or the cluster's threads): with `--knowing`, each play's
    worlds; from trick 1, the options of a choice shown whole other than the one taken (Botifarra's trump table);
    otherwise whole hands go to the workers.
    """

    jobs: int = field(default_factory=cores)
    scheduler: str | None = None
    lost: list[str] = field(default_factory=list)
    """The hands whose work the cluster lost (`on_cluster`), each with the reason: reported not analysed."""

    def run(self, tasks: Sequence[Task]) -> list[HandAnalysis]:
        """The analyses of `tasks`, in their order."""
        return list(self.results(tasks))

    def in_process(self, tasks: Sequence[Task]) -> bool:
        """Whether `results` analyses the hands here, one after another, without a cluster (and so can tell of each
        play; with a cluster, that depends on its size: `results` tells of each play wherever it can)."""
        return self.scheduler is None and (self.jobs <= 1 or len(tasks) <= 1 or work_spread(tasks, self.jobs))

    def results(
        self, tasks: Sequence[Task], on_play: Callable[[Task, int, int, str], None] | None = None
    ) -> Iterator[HandAnalysis]:
        """The analyses of `tasks`, in their order, each as soon as it and those before it are done; where the
        hands are analysed in this process, `on_play` hears of each play (`OnPlay`).

        Raises `imptools.cluster.ClusterUnavailable` when the cluster asked for cannot run the work."""
        if self.scheduler is not None:
            yield from on_cluster(tasks, self.scheduler, on_play, self.lost)
        elif self.jobs <= 1 or (len(tasks) <= 1 and not work_spread(tasks, self.jobs)):
            yield from one_by_one(tasks, on_play)
        elif work_spread(tasks, self.jobs):
            with ProcessPoolExecutor(max_workers=self.jobs) as pool:
                yield from one_by_one(tasks, on_play, self.jobs, pool)
        else:
            with ProcessPoolExecutor(max_workers=min(self.jobs, len(tasks))) as pool:
                yield from pool.map(run_task, tasks)


def on_cluster(
    tasks: Sequence[Task],
    address: str,
    on_play: Callable[[Task, int, int, str], None] | None = None,
    lost: list[str] | None = None,
) -> Iterator[HandAnalysis]:
    """Analyse `tasks` on the Dask distributed cluster whose scheduler listens at `address`, each result in
    their order as soon as it is done: whole hands on its workers, or (`work_spread` over the cluster's threads)
    the hands here, each play's worlds in as many shares as the cluster has threads and their choices' options
    there.

    A hand whose work the cluster lost (`WorkLost`: its worker died) is not analysed, with the reason, and told to
    `lost`; the others go on. Raises `ClusterUnavailable` where the cluster cannot run the work at all
    (`imptools.cluster`, the only module that imports Dask)."""
    from imptools.cluster import WorkLost, connect

    with connect(address) as cluster:
        spread = work_spread(tasks, cluster.workers())
        futures = [] if spread else cluster.map(run_task, tasks)
        for i, t in enumerate(tasks):
            try:
                if spread:
                    told = None if on_play is None else partial(on_play, t)
                    shares, pool = cluster.workers(), cluster.executor()
                    yield analyse_hand(t.game, t.hand, t.from_trick, told, t.knowing, shares, t.costly, pool, t.choices)
                else:
                    result: HandAnalysis = cluster.outcome(futures[i])
                    yield result
            except WorkLost as exc:
                why = f"the cluster lost its work: {exc}"
                if lost is not None:
                    lost.append(f"game {t.game.index}, hand {t.hand}: {why}")
                yield HandAnalysis(t.game.path, t.game.index, t.hand, t.from_trick, skipped=why)
