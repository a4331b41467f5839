"""The Bottle Imp's variants as data: one frozen record per variant, whose facts the rest of the game reads."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Variant:
    """What one variant's rules say, as facts: the code asks these, never the variant's name.

    `packs` are the cards dealt to each of a player's packs in a two-pack variant (empty: one pack, dealt by the
    number of players). `open_pack`: each player opens one of his two packs (`open` lines) and a trick takes two
    cards from each player, the open pack's first; elsewhere a two-pack record says which pack a card came from.
    `automaton` is the player the rules play (Lopaka), who never deals, discards or passes. `teams`: partners
    score together; `team_seats` are fixed teams by seat from the dealer (empty: by the number of players).
    `face_up`: the pack of every player that lies open from the deal on (the Eye of the Demon's pack 1; 0: none).
    """

    name: str
    seats: tuple[int, ...]
    """How many players (the automaton included) the variant seats."""
    matagot: bool = False
    """Whether the Matagot deck is the default whatever the number of players."""
    packs: tuple[int, ...] = ()
    bottles: int = 1
    teams: bool = False
    team_seats: tuple[tuple[int, ...], ...] = ()
    automaton: str | None = None
    open_pack: bool = False
    face_up: int = 0
    """In a two-pack variant whose players do not choose (no `open` lines), the pack (1 or 2) each lays face up."""

    @property
    def two_pack(self) -> bool:
        """Each player holds two packs and a trick is four cards."""
        return len(self.packs) == 2


LOPAKA = "Lopaka"
"""The automaton of the `lopaka` variant, named so in `Players`."""

RECORDS = (
    Variant("classic", (3, 4, 5, 6)),
    Variant("teams", (4, 5, 6), matagot=True, teams=True),
    Variant("teams-2-2-1-1", (6,), matagot=True, teams=True, team_seats=((1, 4), (2, 5), (0,), (3,))),
    Variant("second-bottle", (5, 6), matagot=True, bottles=2),
    Variant("lopaka", (3,), automaton=LOPAKA),
    Variant("bright-house", (2,), packs=(9, 9), open_pack=True),
    Variant("eye-of-the-demon", (2,), matagot=True, packs=(6, 12), face_up=1),
)

BY_NAME = {v.name: v for v in RECORDS}
"""Each variant's record by its `Variant` tag value."""

VARIANTS = tuple(BY_NAME)
"""Every `Variant` of the game."""

SEATS: dict[str, tuple[int, ...]] = {v.name: v.seats for v in RECORDS}
"""How many players (Lopaka included) each variant seats."""

DEFAULT, TWO_PLAYER_DEFAULT = BY_NAME["classic"], BY_NAME["bright-house"]
"""The variant a game without a `Variant` tag plays: with two players Bright House, else the classic game."""
