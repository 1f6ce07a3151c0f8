"""What a bot needs to know of a track, computed once per track: the room before a stop.

``room(space, corner)`` is the longest run of spaces a car on ``space`` can drive and still end
no later than the last space of ``corner``: the most it may move when it must stop in that
corner. It ignores cars; on straights it stays in its lane (a longer zig-zag is illegal,
Masters 7-2-4), in corners it may follow any arrows (7-1-4).
"""

from __future__ import annotations

from rennleitung.formula_de.track import SpaceKind, Track
from rennleitung.formula_de.track_cache import per_track

NO_CORNER = 99
"""Room when no corner lies ahead (a track without corners)."""


class TrackInfo:
    """Per-track tables for bots."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self._room: dict[tuple[int, int], int] = {}
        self.next_corner = tuple(self._next_corner(s) for s in range(len(track.spaces)))
        self.line_next = tuple(self._line_next(s) for s in range(len(track.spaces)))
        spaces = range(len(track.spaces))
        self.room_next = tuple(
            self.room(s, self.next_corner[s]) if self.next_corner[s] else NO_CORNER for s in spaces
        )
        """Room before the end of the next corner (a car whose stops here are made)."""
        self.room_here = tuple(
            self.room(s, track.spaces[s].corner) if track.spaces[s].corner else self.room_next[s]
            for s in spaces
        )
        """Room before the end of the own corner (a car that still owes a stop here)."""

    def _line_next(self, space: int) -> int:
        """The next space of a bot's sketch of a move: the one that leaves the most room
        before the stop that is due (the outside of a corner), else the own lane."""
        track = self.track
        options = [s for s in track.successors[space] if track.spaces[s].kind is SpaceKind.TRACK]
        if not options:
            return space
        corner = track.spaces[space].corner or self._next_corner(space)
        lane = track.spaces[space].lane
        ahead = track.ahead_in_lane[space]
        if not track.spaces[space].corner and ahead in options:
            return ahead
        return max(
            options,
            key=lambda s: (
                self.room(s, corner) if corner else 0,
                s == ahead,
                track.spaces[s].lane == lane,
                -s,
            ),
        )

    def _next_corner(self, space: int) -> int:
        """The first corner ahead that the car is not already in (0 if none)."""
        track = self.track
        own = track.spaces[space].corner
        here = space
        for _ in range(len(track.spaces)):
            nxt = [s for s in track.successors[here] if track.spaces[s].kind is SpaceKind.TRACK]
            if not nxt:
                return 0
            here = nxt[0]
            corner = track.spaces[here].corner
            if corner and corner != own:
                return corner
        return 0

    def room(self, space: int, corner: int) -> int:
        """Longest drive from ``space`` that ends in or before ``corner``."""
        found = self._room.get((space, corner))
        if found is None:
            found = self._fill(space, corner)
        return found

    def _fill(self, space: int, corner: int) -> int:
        """Fill the room table for ``corner`` from ``space`` onwards, deepest spaces first.

        An explicit stack instead of recursion: a straight of a hundred spaces would otherwise
        need a raised recursion limit for the whole process."""
        table = self._room
        stack = [space]  # the drive being explored, one space per level
        on_stack = {space}
        while stack:
            here = stack[-1]
            ways = self._ways(here, corner)
            todo = next((n for n in ways if (n, corner) not in table and n not in on_stack), None)
            if todo is not None:
                stack.append(todo)
                on_stack.add(todo)
                continue
            stack.pop()
            on_stack.discard(here)
            table[(here, corner)] = max((1 + table.get((n, corner), 0) for n in ways), default=0)
        return table[(space, corner)]

    def _ways(self, space: int, corner: int) -> list[int]:
        """The next spaces a drive that must end in or before ``corner`` may enter."""
        track = self.track
        own = track.spaces[space].corner
        lane = track.spaces[space].lane
        ways = []
        for nxt in track.successors[space]:
            there = track.spaces[nxt]
            if there.kind is not SpaceKind.TRACK:
                continue
            if own == corner and there.corner != corner:
                continue  # leaving the corner where the stop is due
            if there.corner and there.corner not in (corner, own):
                continue
            if not there.corner and not own and there.lane != lane:
                continue  # Masters 7-2-3, 7-2-4: no zig-zag on a straight, so stay in lane
            ways.append(nxt)
        return ways


@per_track
def track_info(track: Track) -> TrackInfo:
    """The tables of a track, built once per track."""
    return TrackInfo(track)
