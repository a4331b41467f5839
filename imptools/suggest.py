"""Did you mean ...? The one known word a mistyped word most likely stands for.

Used for keywords (`dael` -> `deal`), `Game` and `Variant` tag values and
player names (`Adma` -> `Adam`): a message names the word meant, alone, or
nothing when no known word is close enough or two are equally close.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["did_you_mean"]


def did_you_mean(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The single candidate closest to `word`, or None.

    None when `word` is itself a candidate, when no candidate is at least
    `cutoff` alike (difflib's ratio, 0..1), or when the two closest are
    equally close (a guess between them would mislead). Case is ignored when
    comparing; the candidate is returned as given.

    >>> did_you_mean("dael", ["deal", "discard", "pass"])
    'deal'
    >>> did_you_mean("Adma", ["Adam", "Betty"])
    'Adam'
    >>> did_you_mean("BOTIFARRA", ["bottle-imp", "botifarra"])
    'botifarra'
    >>> did_you_mean("shopping", ["deal", "pass"]) is None
    True
    """
    pool = list(dict.fromkeys(candidates))
    if not word or word in pool:
        return None
    folded = word.casefold()
    same_case = [c for c in pool if c.casefold() == folded]
    if len(same_case) == 1:
        return same_case[0]
    scored = []
    for candidate in pool:
        matcher = difflib.SequenceMatcher(None, folded, candidate.casefold())
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        ratio = matcher.ratio()
        if ratio >= cutoff:
            scored.append((ratio, candidate))
    if not scored:
        return None
    scored.sort(key=lambda rc: rc[0], reverse=True)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return None
    return scored[0][1]
