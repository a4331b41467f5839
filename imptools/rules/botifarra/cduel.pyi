"""Botifarra's two-player solver written in C (cduel.c): `duel.Duel`, visiting the very positions it visits."""

DUEL_SLOTS: int
FIRST_SLOTS: int
POINTS_OF: tuple[int, ...]
SUIT_MASK: tuple[int, ...]
POINT_MASK: int
POPCNT: bool
"""Whether it was built to count bits in one instruction of the processor (hatch_build.py `processor_flags`)."""

def beats(card: int, winning: int, trump: int, /) -> bool: ...
def legal_coded(cells: int, trump: int, led: int, winning: int, partner_master: bool, held: int, /) -> int: ...
def slot_of(key: int, mask: int, /) -> int: ...

class Duel:
    """`duel.Duel` in C: a player's sum (twice the card points and a point per trick) from a two-player position."""

    nodes: int
    def __init__(
        self,
        rules: str,
        trump: int,
        under: list[int],
        slots: int = ...,
        first: int = ...,
        exact: int = ...,
        exact_after: int = ...,
    ) -> None: ...
    def gain(
        self,
        hands: list[int],
        free: list[int],
        live: int,
        live_points: int,
        leader: int,
        trick: list[int],
        seat: int,
        alpha: int,
        beta: int,
    ) -> int: ...
    def masters(self, lead: int, /) -> tuple[int, int]: ...
    def order(self, legal: int, k: int, win: int, /) -> list[int]: ...
    def find(self, key: int, /) -> int: ...
    def store(self, key: int, entry: int, /) -> None: ...
    def grow(self) -> None: ...
    @property
    def slots(self) -> int: ...
    @property
    def taken(self) -> int: ...
    @property
    def most(self) -> int: ...
    @property
    def exact(self) -> int:
        """The exact values worked out for the trick starts (0 where none were)."""
