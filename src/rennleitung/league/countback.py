"""Tie-breaks by countback (decisions file, "Drop results"): more wins, then more seconds, …

Every classified place of every race held counts, dropped races included (a win stays a win).
Competitors still equal after all places share the rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def countback_key(places: Iterable[int], deepest_place: int) -> tuple[int, ...]:
    """Counts of 1st, 2nd, … places, negated so that a plain ascending sort puts more first."""
    counts = Counter(places)
    return tuple(-counts[place] for place in range(1, deepest_place + 1))
