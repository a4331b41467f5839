"""What the record proves each player held at each play, and the revokes it proves."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from imptools.rules.report import Reporter
from imptools.rules.tricks import Played, Walk

_DEALT_EVIDENCE = "dealt to them and not played before"


class Holdings:
    """What the record proves each player held just before each of their plays.

    A player holds, at any moment, every card they play from then on; when their
    deal is recorded, also every card dealt to them (after the exchange) that they
    have not played yet. `key` splits a player's cards further where a game keeps
    them apart (the packs of the two-pack Bottle Imp variants); cards known from the
    deal are used only where no such split is asked for. `hidden` counts, per
    player, the cards of `dealt` that left the hand face down unseen (a bid put
    away without its cards recorded): a card known from the deal alone proves
    nothing then, unless more such cards qualify than could have gone.
    """

    def __init__(
        self,
        walk: Walk,
        dealt: Mapping[str, set[int]],
        key: Callable[[int, int, str, int], object] | None = None,
        hidden: Mapping[str, int] | None = None,
    ) -> None:
        self._key = key
        self._dealt = dealt if key is None else {}
        self._hidden = dict(hidden or {})
        self._seq: dict[object, list[tuple[int, int, int]]] = {}
        self._trick_no = [t.trick.number for t in walk.tricks]
        plays = list(walk.plays())
        if walk.unfinished is not None:
            u = len(walk.tricks)
            self._trick_no.append(walk.unfinished.trick.number)
            plays += [(u, i, p, c) for i, (p, c) in enumerate(zip(walk.unfinished.who, walk.unfinished.cards))]
        self._owner: dict[tuple[int, int], object] = {}
        for t, i, p, c in plays:
            k = p if key is None else (p, key(t, i, p, c))
            self._seq.setdefault(k, []).append((t, i, c))
            self._owner[(t, i)] = k
        self._player = {(t, i): p for t, i, p, _ in plays}
        self._evidence = [f"played in trick {n}" for n in self._trick_no]

    def before(self, t: int, i: int) -> dict[int, str]:
        """The cards the player of play `i` of trick index `t` is known to hold just before it, with the evidence.

        The evidence is "played in trick N" or "dealt to them and not played before";
        the card played at (t, i) itself is included.
        """
        k = self._owner[(t, i)]
        seq = self._seq[k]
        out: dict[int, str] = {}
        player = self._player[(t, i)]
        gone: set[int] = set()
        evidence = self._evidence
        for tt, ii, c in seq:
            if tt > t or (tt == t and ii >= i):
                out[c] = evidence[tt]
            else:
                gone.add(c)
        for c in self._dealt.get(player, ()):
            if c not in gone and c not in out:
                out[c] = _DEALT_EVIDENCE
        return out

    def proof(self, t: int, i: int, wanted: Callable[[int], bool]) -> tuple[tuple[int, ...], str] | None:
        """What the player of (t, i) provably held just before that play among the cards `wanted` accepts.

        Returns (cards, evidence): one card, or several of which at least one was
        held, when the deal shows more such cards than could have been put away
        unseen. A card shown by a later play is preferred over one known from the
        deal; among those, the one played soonest.
        """
        held = self.before(t, i)
        later = [c for c, why in held.items() if why.startswith("played") and wanted(c)]
        if later:
            return (later[0],), held[later[0]]
        dealt = sorted(c for c, why in held.items() if wanted(c))
        hidden = self._hidden.get(self._player[(t, i)], 0)
        if len(dealt) <= hidden:
            return None
        if hidden:
            return tuple(dealt), f"dealt to them and not played before, and at most {hidden} were put away"
        return (dealt[0],), held[dealt[0]]


def revoke_findings(
    walk: Walk,
    holdings: Holdings,
    suit_of: Callable[[int], str | None],
    spell: Callable[[int], str],
    suit_name: Callable[[str], str],
    report: Reporter,
    led_index: Callable[[Played, int], int] | None = None,
) -> None:
    """Report each play that did not follow the suit led although the player provably held it.

    `led_index(trick, i)` says which play of the trick sets the suit play `i` must
    follow (the first, by default). A card whose suit the record leaves open
    (`suit_of` gives None) is not judged, nor is a play to it.
    """
    tricks = [*walk.tricks, *([walk.unfinished] if walk.unfinished is not None else [])]
    for t, played in enumerate(tricks):
        for i in range(1, len(played.cards)):
            first = played.cards[led_index(played, i) if led_index else 0]
            led = suit_of(first)
            p, c = played.who[i], played.cards[i]
            own = suit_of(c)
            if led is None or own is None or own == led:
                continue
            found = holdings.proof(t, i, lambda x, led=led: suit_of(x) == led)  # type: ignore[misc]
            if found is None:
                continue
            card = played.trick.plays[i].card
            cards = found[0]
            held = spell(cards[0]) if len(cards) == 1 else "one of " + ", ".join(spell(x) for x in cards)
            report.add(
                "revoke",
                f"{p} did not follow {suit_name(led)} in trick {played.trick.number} (played {spell(c)}) "
                f"although {p} held {held}, {found[1]}",
                card.line,
                card.column,
                played.trick.number,
                p,
            )
