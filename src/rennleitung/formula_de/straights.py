"""Shortest ways inside one straight: the measure behind Masters 7-2-3 to 7-2-5.

The rule decision "Straights, exactly" reduces the shortest-path rule, the zig-zag ban and the
free choice of obstacles to one test: a straight run of a path is legal if no shorter way inside
that straight joins its first and last space while avoiding the cars, the wrecks and every
dangerous or wall space the run itself does not cross. This module answers "how short is the
shortest way" with breadth-first search restricted to one straight; the straights' members
are computed once per track (movegen.TrackTables), distances once per query.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rennleitung.formula_de.track import Track

Distances = dict[int, int]


def straight_members(track: Track) -> dict[int, frozenset[int]]:
    """The spaces of every straight, by straight number."""
    members: dict[int, set[int]] = {}
    for index, straight in enumerate(track.straight_of):
        if straight >= 0:
            members.setdefault(straight, set()).add(index)
    return {k: frozenset(v) for k, v in members.items()}


def distances_within(
    track: Track, source: int, members: frozenset[int], blocked: Iterable[int] = ()
) -> Distances:
    """Steps from ``source`` to every space of the same straight reachable without leaving it
    and without entering a ``blocked`` space."""
    avoid = set(blocked)
    avoid.discard(source)
    result = {source: 0}
    queue = deque([source])
    successors = track.successors
    while queue:
        here = queue.popleft()
        step = result[here] + 1
        for nxt in successors[here]:
            if nxt in members and nxt not in result and nxt not in avoid:
                result[nxt] = step
                queue.append(nxt)
    return result


SharedDistances = dict[tuple[int, frozenset[int]], Distances]
"""Distance tables by (source, obstacles inside its straight): valid for any query, since a
search inside one straight sees nothing else. Kept per track by the generator's tables."""

SHARED_LIMIT = 50_000
"""Tables kept per track before the shared store starts afresh (a bound on memory)."""


class StraightOracle:
    """Answers shortest-way questions for one query (one set of obstacles).

    ``hazards`` are the spaces a driver may choose to treat as obstacles (dangerous spaces and
    the wall lane); ``occupied`` are cars and wrecks, always obstacles. ``shared`` holds tables
    found by earlier queries on the same track: most obstacles of a query stand on other
    straights, so the same few tables answer query after query.
    """

    def __init__(
        self,
        track: Track,
        members: dict[int, frozenset[int]],
        occupied: frozenset[int],
        hazards: frozenset[int],
        shared: SharedDistances | None = None,
    ) -> None:
        self.track = track
        self.members = members
        self.occupied = occupied
        self.hazards = hazards
        self.shared: SharedDistances = {} if shared is None else shared
        self._cache: dict[tuple[int, frozenset[int]], Distances] = {}

    def shortest(self, source: int, target: int, crossed: frozenset[int]) -> int:
        """Fewest steps from ``source`` to ``target`` inside their straight, avoiding cars and the
        hazards not in ``crossed``; a large number if there is no such way."""
        key = (source, crossed)
        table = self._cache.get(key)
        if table is None:
            members = self.members[self.track.straight_of[source]]
            blocked = ((self.occupied | self.hazards) - crossed) & members - {source}
            shared_key = (source, blocked)
            table = self.shared.get(shared_key)
            if table is None:
                if len(self.shared) >= SHARED_LIMIT:
                    self.shared.clear()
                table = distances_within(self.track, source, members, blocked)
                self.shared[shared_key] = table
            self._cache[key] = table
        return table.get(target, 1 << 20)
