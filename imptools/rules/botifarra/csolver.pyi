"""Botifarra's double-dummy solver for three and four players, written in C (csolver.c): a line-by-line port of
`solver.Solver` (partition search too) that visits the very positions it visits and gives the same values. Built
where the wheel is compiled (hatch_build.py `NATIVE`); `position.new_solver` uses it where it was built."""

POPCNT: bool
"""Whether it was built to count bits in one instruction of the processor (hatch_build.py `processor_flags`)."""
PEXT: bool
"""Whether it was built to make its table's keys with the processor's instruction that gathers bits by a mask
(hatch_build.py `processor_flags`): the same keys for the same positions as without it."""

class Solver:
    """`solver.Solver` in C: the same constructor, `gain`, `nodes` and `phits`."""

    nodes: int
    """The positions visited."""

    @property
    def turns(self) -> int:
        """Times a table's newer generation became the older (its older's entries dropped), all sides together."""

    @property
    def phits(self) -> int:
        """Partition entries that narrowed a window."""

    @property
    def partition(self) -> bool:
        """Whether partition entries are kept."""

    @property
    def cap(self) -> int:
        """Entries a table's generation holds before it becomes the older (`cap // n` a player without partners)."""

    def __init__(self, rules: str, trump: int, partner: list[int], cap: int = ..., partition: bool = ...) -> None: ...
    def gain(
        self,
        hands: list[int],
        live: int,
        live_points: int,
        leader: int,
        trick: list[int],
        winning: int,
        wins_at: int,
        seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The points `seat`'s side wins from here on: exact inside (alpha, beta), else a bound on the side that
        fails (fail-soft)."""

    def sizes(self) -> dict[int, tuple[int, int]]:
        """Each side's table, by the side kept (a mask of seats): the entries of its newer and older generations."""

    def psizes(self) -> dict[int, tuple[int, int]]:
        """Each side's partition table, by the side kept: the buckets of its newer and older generations."""

def tables() -> dict[str, object]:
    """The tables the port is written with (`POINTS_OF`, `PACK`, `SUIT_MASK`, `POINT_MASK`, `LOW_ALL`, `INF`,
    `SOLVER_CAP`, `LOOKAHEAD_TRICKS`), to compare with the Python ones."""

def legal_coded(cells: int, trump: int, led: int, winning: int, partner_master: bool, held: int) -> int:
    """`masks.legal_coded` as the port has it."""

def beats(card: int, winning: int, trump: int) -> bool:
    """`masks.beats` as the port has it."""

def cannot_be_taken(hands: list[int], n: int, trump: int, lead: int, k: int, win: int, led: int) -> bool:
    """`masks.cannot_be_taken` as the port has it."""

def least_points(cards: int, r: int) -> int:
    """`solver.least_points` as the port has it."""
