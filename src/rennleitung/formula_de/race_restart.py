"""Interruption and restart when wrecks block the track (Dresden "Neustart").

Two questions of geometry, answered without the race: do the wrecks cut the track (no way round
them for the cars behind), and where does the field line up again — in the middle of the next
straight ahead of the leader, two abreast in the outer lanes, one empty row between rows
("in einem engen Feld, ein Feld Abstand nach hinten").
"""

from __future__ import annotations

from collections.abc import Iterable

from rennleitung.formula_de.track import SpaceKind, Track


def track_cut(track: Track, wrecks: Iterable[int]) -> bool:
    """Whether the wrecks close every way round the lap: starting behind the line, no path
    avoiding them reaches the line again. The pit lane does not count: it is only open to some
    cars, and only towards their box."""
    blocked = frozenset(wrecks)
    if not blocked:
        return False
    starts = [s for s in track.first_after_line if s not in blocked]
    reached = set(starts)
    todo = list(starts)
    while todo:
        here = todo.pop()
        for nxt in track.successors[here]:
            if (here, nxt) in track.line_edges:
                if nxt not in blocked:
                    return False  # a whole lap round the wrecks
                continue
            if nxt in reached or nxt in blocked or track.spaces[nxt].kind is not SpaceKind.TRACK:
                continue
            reached.add(nxt)
            todo.append(nxt)
    return True


def next_straight(track: Track, space: int) -> int:
    """The id of the first straight ahead of ``space`` that it is not already on."""
    own = track.straight_of[space]
    here = space
    for _ in range(len(track.spaces)):
        ahead = [s for s in track.successors[here] if track.spaces[s].kind is SpaceKind.TRACK]
        if not ahead:
            break
        here = ahead[0]
        straight = track.straight_of[here]
        if straight >= 0 and straight != own:
            return straight
    return own


def restart_spots(track: Track, leader: int, count: int) -> list[int]:
    """``count`` spaces for the field: the first at the middle of the next straight ahead of
    the leader in lane A, its neighbour level with it in the outermost lane, then row by row
    backwards with one empty row between rows."""
    straight = next_straight(track, leader)
    outer = track.lanes - 1
    lane_a = sorted(
        (
            s
            for s in track.track_spaces()
            if track.straight_of[s] == straight and not track.spaces[s].lane
        ),
        key=lambda s: track.spaces[s].height,
    )
    column: list[int] = []
    here = lane_a[len(lane_a) // 2] if lane_a else leader
    while len(column) < count and here >= 0:
        column.append(here)
        for _ in range(2):
            here = track.behind_in_lane[here] if here >= 0 else -1
    spots: list[int] = []
    for space in column:
        spots.append(space)
        partner = next(
            (
                s
                for s in track.beside[space] + _level(track, space)
                if track.spaces[s].lane == outer and track.same_height(s, space)
            ),
            -1,
        )
        if partner >= 0:
            spots.append(partner)
    return spots[:count]


def _level(track: Track, space: int) -> tuple[int, ...]:
    """Track spaces at exactly the same height as ``space`` (the outer lane of its row)."""
    height = track.spaces[space].height
    return tuple(
        s
        for s in track.track_spaces()
        if abs(track.spaces[s].height - height) < 1e-9 and s != space
    )
