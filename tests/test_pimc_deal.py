"""`--bot pimc` before the first card: its bids, trump, `delega` and doublings chosen by worlds, as its cards are."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

import imptools.pimc_deal as pimc_deal
from imptools.check import judge_game
from imptools.reader import read_games
from imptools.rules import get_ruleset
from imptools.rules.base import Choice, HandSimulator
from imptools.simulate import Options, simulate

THINK, WORLDS = 0.02, 4
"""Little thinking: enough for the clear cases below."""

TABLES = [
    ("ninety-nine", "Adam Betty Christian", None),
    ("botifarra", "Adam Betty Christian Doris", None),
    ("botifarra", "Adam Betty Christian", None),
    ("botifarra", "Adam Betty", "rector-vicar"),
    ("bottle-imp", "Adam Betty Christian", None),
    ("bottle-imp", "Adam Betty Christian Doris Emil", None),
    ("bottle-imp", "Keawe Kokua Lopaka", "lopaka"),
    ("bottle-imp", "Keawe Kokua", "bright-house"),
    ("bottle-imp", "Keawe Kokua", "eye-of-the-demon"),
]
NOT_ASKED: set[str] = set()
"""Tables where no bot is asked a choice before the first card (every table asks one now)."""


def simulator(game: str, players: str, variant: str | None) -> tuple[HandSimulator, str, str]:
    """The game's simulator, the header of its record and hand 1's dealer."""
    header = f'[Game "{game}"]\n' + (f'[Variant "{variant}"]\n' if variant else "") + f'[Players "{players}"]\n'
    (g,) = read_games(header + "hand 1\n")
    ruleset = get_ruleset(game)
    assert ruleset is not None
    sim = ruleset.simulator(g)
    assert sim is not None
    dealer = ruleset.judge(g).hands[0].dealer
    assert dealer
    return sim, header, dealer


@pytest.mark.parametrize(("game", "players", "variant"), TABLES)
def test_answering_the_better_bots_option_deals_as_without_asking(game: str, players: str, variant: str | None) -> None:
    """The greedy and random bots' games do not change: a deal that asks each choice and takes option 0 writes what
    the deal without asking writes, on the same random numbers; each choice offers distinct options."""
    sim, _, dealer = simulator(game, players, variant)
    asked: list[Choice] = []

    def first(choice: Choice) -> int:
        asked.append(choice)
        return 0

    for seed in range(12):
        plain = sim.deal(dealer, Random(seed), better=True)
        asking = sim.deal(dealer, Random(seed), better=True, ask=first)
        assert asking.lines == plain.lines
    for choice in asked:
        assert len(choice.options) >= 2 and len(set(choice.options)) == len(choice.options)
        assert choice.player in players.split()
    assert bool(asked) == (variant not in NOT_ASKED)


def played(opts: Options) -> str:
    text = "".join(simulate(opts))
    result = judge_game(next(read_games(text)))
    assert [f.message for f in result.all_findings()] == [], text
    assert "".join(simulate(opts)) == text  # same seed, same game
    return text


SURE_NINE = ("Adam: 6D 7D 8D 9D 10D JD QD KD AD 6C 7C 8C", "turnup: JK")
"""Adam leads trick 1 holding every diamond, no trump: keeping the nine diamonds takes every trick, a bid of nine
(three clubs) made for sure, which the better bot's estimate (about four tricks) never bids."""


@pytest.mark.parametrize("seed", [1, 2])
def test_pimc_bids_and_declares_the_sure_nine_the_better_bot_misses(seed: int) -> None:
    players = ("Adam", "Betty", "Christian")
    base = Options("ninety-nine", players, seed=seed, deal=SURE_NINE, think=THINK, worlds=WORLDS, choices=True)
    greedy = played(replace(base, bot="greedy"))
    pimc = played(replace(base, bot="pimc,greedy,greedy"))
    assert "bid Adam 6C 7C 8C" not in greedy and "declare Adam" not in greedy
    assert "bid Adam 6C 7C 8C" in pimc.splitlines() and "declare Adam" in pimc.splitlines()
    assert scores(pimc)["Adam"] > scores(greedy)["Adam"]
    # the pimc of before (its choices the better bot's) bids as greedy does
    before = played(replace(base, bot="pimc,greedy,greedy", choices=False))
    assert [x for x in before.splitlines() if x.startswith("bid")] == [
        x for x in greedy.splitlines() if x.startswith("bid")
    ]


def scores(text: str) -> dict[str, int]:
    words = next(x for x in text.splitlines() if x.startswith("score")).split()[1:]
    return {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}


LOW_BASTOS = ("Doris: 9o 1o 12o 11o 2b 3b 4b 5b 6b 7b 8b 10b",)
"""Doris deals: four top oros, eight low bastos. The better bot names oros (its count puts the oros' points before
the bastos' length); bastos as trump, eight of the twelve, take far more."""


@pytest.mark.parametrize("seed", [1, 2])
def test_pimc_names_the_trump_its_worlds_value_over_the_better_bots(seed: int) -> None:
    players = ("Adam", "Betty", "Christian", "Doris")
    base = Options("botifarra", players, seed=seed, deal=LOW_BASTOS, think=THINK, worlds=WORLDS)
    greedy = played(replace(base, bot="greedy"))
    pimc = played(replace(base, bot="greedy,greedy,greedy,pimc"))
    assert "trump Doris oros" in greedy.splitlines()
    assert "trump Doris bastos" in pimc.splitlines()


def test_each_choice_is_the_best_sum_over_worlds_that_agree_with_what_was_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Botifarra, a pimc side: every choice its seats were asked (trump, delega, contro and the rest) takes the
    option with the best sum over its worlds (ties to the better bot's); each world gives the player the cards he
    was dealt, and the better bot in that world makes every call the others were seen to make as they made it."""
    sim, header, dealer = simulator("botifarra", "Adam Betty Christian Doris", None)
    real_values, real_option = pimc_deal.values, pimc_deal.option_value
    asked: list[tuple[Choice, list[int]]] = []
    worlds: list[tuple[Choice, dict[str, list[int]], dict[tuple[str, str], str]]] = []

    def hooked_values(*args: object, **kw: object) -> list[int]:
        totals = real_values(*args, **kw)  # type: ignore[arg-type]
        asked.append((args[1], totals))  # type: ignore[arg-type]
        return totals

    def hooked_option(sim_: HandSimulator, world: dict[str, list[int]], choice: Choice, *rest: object) -> int | None:
        worlds.append((choice, world, rest[1]))  # type: ignore[arg-type]
        return real_option(sim_, world, choice, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc_deal, "values", hooked_values)
    monkeypatch.setattr(pimc_deal, "option_value", hooked_option)
    kinds = set()
    for seed in range(4):
        asked.clear()
        text = played(
            Options(
                "botifarra",
                ("Adam", "Betty", "Christian", "Doris"),
                seed=seed,
                bot="pimc,greedy,pimc,greedy" if seed % 2 else "greedy,pimc,greedy,pimc",
                think=THINK,
                worlds=WORLDS,
            )
        )
        lines = text.splitlines()
        for choice, totals in asked:
            kinds.add(choice.kind)
            assert len(totals) == len(choice.options)
            best = [i for i, t in enumerate(totals) if t == max(totals)]
            taken = 0 if 0 in best else best[0]
            option = choice.options[taken]
            assert option == "" or option in lines
            for other in choice.options:
                if other and other != option:
                    assert other not in lines
    assert {"trump", "contro"} <= kinds
    for choice, world, known in worlds:
        (g,) = read_games(pimc_deal.record(header, dealer, choice.lines))
        seen = sim.seen_at_deal(g.hands[0], dealer, choice.player)
        assert not isinstance(seen, str)
        assert set(world[choice.player]) == set(seen[choice.player])
        if choice.kind == "contro":  # the trump was seen named: the better bot names it in the world
            again = sim.deal(dealer, Random(0), better=True, given=world)
            trump = next(x for x in choice.lines if x.startswith("trump") and "delega" not in x)
            assert trump in again.lines
            assert known[("trump", trump.split()[1])] == trump


def heard(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Choice, list[int]]]:
    """Each choice the bot valued by worlds from now on, with its sums (the list fills as the deals ask)."""
    real_values = pimc_deal.values
    asked: list[tuple[Choice, list[int]]] = []

    def hooked_values(*args: object, **kw: object) -> list[int]:
        totals = real_values(*args, **kw)  # type: ignore[arg-type]
        asked.append((args[1], totals))  # type: ignore[arg-type]
        return totals

    monkeypatch.setattr(pimc_deal, "values", hooked_values)
    return asked


@pytest.mark.parametrize(
    ("players", "variant"),
    [
        (("Adam", "Betty", "Christian"), None),
        (("Keawe", "Kokua", "Lopaka"), "lopaka"),
        (("Keawe", "Kokua"), "bright-house"),
        (("Keawe", "Kokua"), "eye-of-the-demon"),
    ],
)
def test_pimc_exchanges_among_the_options_it_was_offered_by_worlds(
    monkeypatch: pytest.MonkeyPatch, players: tuple[str, ...], variant: str | None
) -> None:
    """The Bottle Imp, one pack or two, with Lopaka or not: the pimc seat's discard and passes are one of the
    exchanges offered, the best sum over its worlds (ties to the random one), written as the record writes them; the
    record validates and the same seed gives it again; the greedy seats' exchanges are the random ones of the deal
    without pimc."""
    asked = heard(monkeypatch)
    first = players[0]
    bots = ",".join(["pimc"] + ["greedy"] * (len(players) - 1))
    own = (f"discard {first} ", f"pass {first} ")
    differs = 0
    for seed in range(3):
        asked.clear()
        base = Options("bottle-imp", players, variant=variant, seed=seed, think=THINK, worlds=WORLDS)
        pimc = played(replace(base, bot=bots)).splitlines()
        greedy = played(replace(base, bot="greedy")).splitlines()
        mine = [x for x in pimc if x.startswith(own)]
        assert mine
        assert [x for x in pimc if x.startswith(("discard", "pass")) and x not in mine] == [
            x for x in greedy if x.startswith(("discard", "pass")) and not x.startswith(own)
        ]
        (choice, totals), *_ = asked
        assert choice.kind == "exchange" and choice.player == first and len(totals) == len(choice.options)
        best = [i for i, t in enumerate(totals) if t == max(totals)]
        assert "\n".join(mine) == choice.options[0 if 0 in best else best[0]]
        differs += mine != [x for x in greedy if x.startswith(own)]
    assert differs


def test_pimc_opens_at_bright_house_the_pack_its_worlds_value_most(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bright House: which pack the pimc seat opens is asked after its exchange (the random pack first, greedy's),
    valued over worlds; the record says the pack of the best sum, and the other seat opens as in greedy's game."""
    asked = heard(monkeypatch)
    players = ("Keawe", "Kokua")
    differs = 0
    for seed in range(4):
        asked.clear()
        base = Options("bottle-imp", players, variant="bright-house", seed=seed, think=THINK, worlds=WORLDS)
        pimc = played(replace(base, bot="pimc,greedy")).splitlines()
        greedy = played(replace(base, bot="greedy")).splitlines()
        (choice, totals), *again = [(c, t) for c, t in asked if c.kind == "open"]
        assert again == [(choice, totals)]  # `played` plays the seed twice: the same worlds, the same sums
        assert choice.player == "Keawe" and sorted(choice.options) == ["open Keawe 1", "open Keawe 2"]
        assert [x for x in greedy if x.startswith("open Keawe")] == [choice.options[0]]
        assert [x for x in pimc if x.startswith("open Kokua")] == [x for x in greedy if x.startswith("open Kokua")]
        assert len(totals) == 2
        best = [i for i, t in enumerate(totals) if t == max(totals)]
        opened = [x for x in pimc if x.startswith("open Keawe")]
        assert opened == [choice.options[0 if 0 in best else best[0]]]
        differs += opened != [choice.options[0]]
    assert differs


def test_by_default_pimc_chooses_by_worlds_only_where_that_was_measured_better() -> None:
    """Ninety-nine's bids by worlds lost to the better bot's at 600 hands (docs/PERFORMANCE.md): by default pimc
    bids there as the better bot does, and asked to, by worlds."""
    players = ("Adam", "Betty", "Christian")
    base = Options("ninety-nine", players, seed=3, deal=SURE_NINE, think=THINK, worlds=WORLDS, bot="pimc,greedy,greedy")
    default, greedy, worlds = (played(replace(base, choices=c)) for c in (None, False, True))
    assert default == greedy != worlds
    bottle = Options("bottle-imp", ("Adam", "Betty", "Christian", "Doris"), seed=2, think=THINK, worlds=WORLDS)
    bottle = replace(bottle, bot="pimc,greedy,greedy,greedy")
    assert played(bottle) == played(replace(bottle, choices=True))


# A declarer's bid cards are shown to the table: the later players' worlds give them to him and make his bid of them.


def declared_first(seed: int) -> tuple[HandSimulator, str, str, list[tuple[Choice, int]], Choice]:
    """A Ninety-nine deal (Christian deals, Adam bids first) in which Adam declares the better bot's bid, as a `pimc`
    seat may: the simulator, the header, the dealer, the choices made before Betty's bid (each with the answer
    given) and Betty's bid."""
    sim, header, dealer = simulator("ninety-nine", "Adam Betty Christian", None)
    asked: list[tuple[Choice, int]] = []

    def script(choice: Choice) -> int:
        k = choice.options.index("declare Adam") if choice.player == "Adam" and choice.kind == "declare" else 0
        asked.append((choice, k))
        return k

    dealt = sim.deal(dealer, Random(seed), better=True, ask=script)
    assert "declare Adam" in dealt.lines
    at = next(i for i, (c, _) in enumerate(asked) if (c.kind, c.player) == ("bid", "Betty"))
    return sim, header, dealer, asked[:at], asked[at][0]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_later_bidder_sees_the_declarers_bid_and_his_worlds_give_it_him_as_made(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Betty bids after Adam declared: her choice carries Adam's bid line and declaration; every deal her worlds make
    (those tried for agreement and those valued) gives Adam the three cards he showed, the rest of his twelve at
    random, and writes his bid of exactly those cards; the same seed gives the same figures and choice."""
    from imptools.pimc import Thinking

    sim, header, dealer, made, betty = declared_first(seed)
    adams_bid = next(c.options[k] for c, k in made if (c.kind, c.player) == ("bid", "Adam"))
    shown = {sim.card(t) for t in adams_bid.split()[2:]}
    assert adams_bid in betty.lines and "declare Adam" in betty.lines
    assert not any(x.startswith("bid Adam") for c, _ in made if c.player == "Adam" and c.kind == "bid" for x in c.lines)
    (deal_line,) = (x for x in betty.lines if x.startswith("deal Betty"))
    hers = {sim.card(t) for t in deal_line.split()[2:]}

    deals: list[tuple[dict[str, list[int]], list[str]]] = []
    real_deal = sim.deal

    def recording(*args: object, **kw: object) -> object:
        dealt = real_deal(*args, **kw)  # type: ignore[arg-type]
        deals.append((kw["given"], dealt.lines))  # type: ignore[arg-type]
        return dealt

    monkeypatch.setattr(sim, "deal", recording)
    monkeypatch.setattr(pimc_deal, "TRIES", 6)  # Adam's bid is not one the better bot declares: no world agrees
    thinking = Thinking(WORLDS, THINK)
    totals = pimc_deal.values(sim, betty, made, header, dealer, Random(seed), thinking)
    assert len(totals) == len(betty.options)
    assert len(deals) > WORLDS * len(betty.options)
    others = set()
    for given, lines in deals:
        assert shown <= set(given["Adam"]) and set(given["Betty"]) == hers
        assert adams_bid in lines
        others.add(frozenset(given["Adam"]) - shown)
    assert len(others) > 1, "Adam's other nine are dealt at random"
    deals.clear()
    assert pimc_deal.values(sim, betty, made, header, dealer, Random(seed), thinking) == totals
    again = pimc_deal.decide(sim, betty, made, header, dealer, Random(seed), thinking)
    assert again == pimc_deal.decide(sim, betty, made, header, dealer, Random(seed), thinking)


DECLARED = """[Game "ninety-nine"]
[Players "Al Bo Cy"]

hand 1 dealer Al
deal Bo QH 10C 9S QD AC 7H 6D 9C 7C JC JS 8C
deal Cy KD 9D AD AH 6H JH 8D 10S AS 8S 10D 10H
deal Al KH QS JK 8H QC 7S 6S KS 6C JD 9H 7D
turnup KC
bid Bo QH QD 8C
bid Cy 6H KD 10S
bid Al QC QS KS
declare Al
"""


@pytest.mark.parametrize(
    ("record", "seat", "declarers"),
    [
        (DECLARED, "Bo", ["QC", "QS", "KS"]),
        (DECLARED, "Al", None),  # his own twelve hold them
        (DECLARED.replace("declare", "reveal"), "Cy", ["QC", "QS", "KS"]),  # his other nine are seen from the play on
        (DECLARED.replace("declare Al\n", ""), "Bo", None),
        (DECLARED.replace("bid Al QC QS KS", "bid Al 3"), "Bo", None),  # the cards not recorded: not dealt to order
        (DECLARED.replace("bid Al QC QS KS", "bid Al QC ? KS"), "Bo", None),
    ],
)
def test_what_a_seat_saw_holds_the_declarers_bid_cards(record: str, seat: str, declarers: list[str] | None) -> None:
    sim, _, _ = simulator("ninety-nine", "Al Bo Cy", None)
    (game,) = read_games(record)
    seen = sim.seen_at_deal(game.hands[0], "Al", seat)
    assert not isinstance(seen, str)
    (deal_line,) = (x for x in record.splitlines() if x.startswith(f"deal {seat}"))
    expected = {seat: deal_line.split()[2:], "turnup": ["KC"]}
    if declarers is not None:
        expected["Al"] = declarers
    assert {place: [sim.spell(c) for c in cards] for place, cards in seen.items()} == expected


def test_a_declarers_bid_that_names_no_card_is_why_the_record_cannot_say() -> None:
    sim, _, _ = simulator("ninety-nine", "Al Bo Cy", None)
    (game,) = read_games(DECLARED.replace("bid Al QC QS KS", "bid Al QC QS XX"))
    assert sim.seen_at_deal(game.hands[0], "Al", "Bo") == "hand 1 bids `XX` for Al, not a card of this pack"


def test_a_pimc_bidder_after_a_pimc_declarer_bids_on_the_cards_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole simulation: Adam (pimc) declares the sure nine; Betty (pimc) bids after it, on worlds that give
    Adam his three clubs and his bid of them; the record validates and the same seed gives it again."""
    real_option = pimc_deal.option_value
    worlds: list[tuple[Choice, dict[str, list[int]], dict[tuple[str, str], str]]] = []

    def hooked_option(sim_: HandSimulator, world: dict[str, list[int]], choice: Choice, *rest: object) -> int | None:
        worlds.append((choice, world, rest[1]))  # type: ignore[arg-type]
        return real_option(sim_, world, choice, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc_deal, "option_value", hooked_option)
    monkeypatch.setattr(pimc_deal, "TRIES", 6)
    players = ("Adam", "Betty", "Christian")
    opts = Options("ninety-nine", players, seed=1, deal=SURE_NINE, think=THINK, worlds=WORLDS, choices=True)
    lines = played(replace(opts, bot="pimc,pimc,greedy")).splitlines()
    assert "bid Adam 6C 7C 8C" in lines and "declare Adam" in lines
    sim, _, _ = simulator("ninety-nine", "Adam Betty Christian", None)
    clubs = {sim.card(t) for t in ("6C", "7C", "8C")}
    bettys = [(c, w, k) for c, w, k in worlds if (c.kind, c.player) == ("bid", "Betty")]
    assert bettys
    for choice, world, known in bettys:
        assert "bid Adam 6C 7C 8C" in choice.lines and "declare Adam" in choice.lines
        assert clubs <= set(world["Adam"])
        assert known[("bid", "Adam")] == "bid Adam 6C 7C 8C"
