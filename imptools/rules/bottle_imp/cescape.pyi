"""The Bottle Imp's `Escape` (its partition solver) and `Gains` in C (cescape.c): a line-by-line port of escape.py's
searches that visits the very positions they visit and gives the same answers. Built where the wheel is compiled
(hatch_build.py `NATIVE`); `search.native_lines` uses it where it was built and the table is one it handles."""

ESCAPE_CAP: int
GAINS_CAP: int
NO_CARD: int
START_PRICE: int
POPCNT: bool
"""Whether it was built to count bits in one instruction of the processor (hatch_build.py `processor_flags`)."""

class Lines:
    """`Escape` and `Gains` of one position's deal in C: built from its static data, asked with its dynamic state."""

    escape_nodes: int
    """The positions `Escape`'s searches visited."""
    gain_nodes: int
    """The positions `Gains`' searches visited."""
    shared: int
    """Answers read from a partition entry with cards in its band (`Escape.shared`)."""
    escape_cap: int
    gains_cap: int

    @property
    def nodes(self) -> int:
        """The positions both visited."""

    @property
    def counts_tricks(self) -> bool:
        """Every card of the hand is worth a coin (`Escape.counts_tricks`)."""

    def __init__(
        self,
        n: int,
        per_trick: int,
        bottles: int,
        coins: list[int],
        colour: list[int],
        holder: list[int],
        dealt: list[int],
        team: list[int],
        escape_cap: int = ...,
        gains_cap: int = ...,
        packs: int = ...,
        first_pack: list[int] | None = ...,
    ) -> None:
        """`packs`: 0 one pack a seat; 1 two (a card's `holder` twice its seat plus its pack), each judged alone against
        the led colour; 2 two with an open pack, each seat's trick's first card from its `first_pack`, its second
        from the other."""
    def escapes(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        prices: list[int],
        owners: list[int],
        seat: int,
        gaining: bool = ...,
        most: int = ...,
    ) -> bool:
        """`Escape.escapes(seat, gaining, most)` at the position given."""

    def gain(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        prices: list[int],
        owners: list[int],
        seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """`Gains.gain(seat, alpha, beta)` at the position given."""

    def sizes(self) -> dict[tuple[str, int] | tuple[str, int, int], tuple[int, int]]:
        """Each table's entries and its older generation's."""
