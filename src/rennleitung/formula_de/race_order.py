"""Order of play: the leader first, level cars by gear, then by who got there first.

Dresden "Fahrregeln" and Masters 6-2-2 to 6-2-4: a round of play starts with the leader. Cars
level with each other play in the higher gear first, then the one that reached that height
first; a stalled car plays after the car beside it (Masters 9-1-3). Cars in the pit lane play
after the track cars that have passed the last pit entry and before those that have not
(Dresden; Masters 19-5-2); level with a track car, the pit car plays first. Level cars that
bid karma head to head play in the order of their bids first (Dresden "Kopf an Kopf").

Lapped cars (Masters 6-2-6, Dresden falls back on it): the order goes by the cars' places on the
track, from the leader backwards round the lap to the car just in front of him. A round of play
is a sweep that starts at the leader and runs back one lap; a car plays when the sweep reaches
it (``round_order``, ``coordinate``). When the leader, moving, passes a lapped car, the sweep
ends before it and that car plays once less; when a lapped car passes the leader again, the
sweep reaches it a second time and it plays twice in that round (``Race`` does both).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from rennleitung.formula_de.track import SpaceKind, Track


@dataclass(frozen=True, slots=True)
class OrderItem:
    """What the order needs to know of one car. ``laps_base`` is the number of line crossings
    that count as laps (crossings minus one when the grid lies behind the line)."""

    car: str
    space: int
    laps_base: int
    gear: int
    arrived: int
    stalled: bool = False
    bid: int = 0


def progress(track: Track, space: int, laps_base: int) -> float:
    """Distance along the race in rows: the laps counted from the line crossings and the height
    of the space, in the pit lane too (its crossing of the line counts like the track's)."""
    return laps_base * track.lap_rows + track.spaces[space].height


def order_key(track: Track, item: OrderItem) -> tuple[float, float, int, int, int, int]:
    here = track.spaces[item.space]
    own = progress(track, item.space, item.laps_base)
    major = own
    if here.kind is not SpaceKind.TRACK and track.pit is not None:
        limit = track.spaces[track.pit.entry_limit].height
        lap = math.floor(own / track.lap_rows)
        if here.height < track.lap_rows / 2:
            lap -= 1  # over the line inside the pit lane: it entered in the lap before
        major = lap * track.lap_rows + limit + 0.5  # between the cars past the limit and before
    return (-major, -own, -item.bid, -item.gear, int(item.stalled), item.arrived)


_EPS = 1e-6


def laps_behind(track: Track, item: OrderItem, top: float) -> int:
    """Whole laps that bring the car to within one lap below ``top`` (the leader's measure at
    the start of the round); -1 when the car is ahead of ``top``."""
    major = -order_key(track, item)[0]
    if major > top + _EPS:
        return -1
    return math.floor((top - major) / track.lap_rows + _EPS)


def sweep_key(track: Track, item: OrderItem, top: float) -> tuple[float, float, int, int, int, int]:
    """``order_key`` by the car's place on the track: its measure raised by the laps it is
    behind, so a lapped car sorts by where it stands, not by its laps (Masters 6-2-2, 6-2-6)."""
    key = order_key(track, item)
    shift = max(laps_behind(track, item, top), 0) * track.lap_rows
    return (key[0] - shift, key[1] - shift, *key[2:])


def coordinate(track: Track, item: OrderItem, top: float) -> float:
    """Where the sweep of a round that started at ``top`` finds the car (higher: earlier)."""
    return -sweep_key(track, item, top)[0]


def round_order(track: Track, items: Iterable[OrderItem]) -> tuple[list[str], float]:
    """The order planned at the start of a round (Masters 6-2-2 to 6-2-6) and the leader's
    measure ``top``; without lapped cars this is ``order_of_play``."""
    listed = list(items)
    if not listed:
        return [], 0.0
    top = max(-order_key(track, i)[0] for i in listed)
    return [i.car for i in sorted(listed, key=lambda i: sweep_key(track, i, top))], top


def level_groups(track: Track, items: Iterable[OrderItem]) -> list[list[str]]:
    """Groups of two or more cars on the track at exactly the same height and lap."""
    groups: dict[float, list[str]] = {}
    for item in items:
        if track.spaces[item.space].kind is SpaceKind.TRACK:
            key = round(progress(track, item.space, item.laps_base), 6)
            groups.setdefault(key, []).append(item.car)
    return [cars for _, cars in sorted(groups.items(), reverse=True) if len(cars) > 1]


def order_of_play(track: Track, items: Iterable[OrderItem]) -> list[str]:
    """Car ids in the order they play this round."""
    return [i.car for i in sorted(items, key=lambda i: order_key(track, i))]
