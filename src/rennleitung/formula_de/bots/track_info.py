"""What a bot needs to know of a track, computed once per track: the room before a stop.

``room(space, corner)`` is the longest run of spaces a car on ``space`` can drive and still end
no later than the last space of ``corner``: the most it may move when it must stop in that
corner. It ignores cars; on straights it stays in its lane (a longer zig-zag is illegal,
Masters 7-2-4), in corners it may follow any arrows (7-1-4).
"""

from __future__ import annotations

import sys

from rennleitung.formula_de.track import SpaceKind, Track

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


class TrackInfo:
    """Per-track tables for bots."""

    def __init__(self, track: Track) -> None:
        self.track = track
        self._room: dict[tuple[int, int], int] = {}
        self.next_corner = tuple(self._next_corner(s) for s in range(len(track.spaces)))
        self.line_next = tuple(self._line_next(s) for s in range(len(track.spaces)))

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
        key = (space, corner)
        found = self._room.get(key)
        if found is None:
            found = self._compute(space, corner)
            self._room[key] = found
        return found

    def _compute(self, space: int, corner: int) -> int:
        track = self.track
        own = track.spaces[space].corner
        best = 0
        for nxt in track.successors[space]:
            there = track.spaces[nxt]
            if there.kind is not SpaceKind.TRACK:
                continue
            if own == corner and there.corner != corner:
                continue  # leaving the corner where the stop is due
            if there.corner and there.corner not in (corner, own):
                continue
            if not there.corner and not own and there.lane != track.spaces[space].lane:
                continue  # Masters 7-2-3, 7-2-4: no zig-zag on a straight, so stay in lane
            best = max(best, 1 + self.room(nxt, corner))
        return best


_INFOS: dict[int, TrackInfo] = {}


def track_info(track: Track) -> TrackInfo:
    """The tables of a track (cached per track object; tracks are immutable)."""
    info = _INFOS.get(id(track))
    if info is None or info.track is not track:
        info = TrackInfo(track)
        _INFOS[id(track)] = info
    return info
