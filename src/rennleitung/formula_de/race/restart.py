"""The restart after a blockage (Dresden "Neustart"): wrecks that make the track impassable stop
the race; it goes on from the grid or in a tight field ahead of the leader.

Two of its questions are geometry, answered without the race (``track_cut``,
``restart_spots``): do the wrecks cut the track (no way round them for the cars behind), and
where does the field line up again: in the middle of the next straight ahead of the leader, two
abreast in the outer lanes, one empty row between rows ("in einem engen Feld, ein Feld Abstand
nach hinten").
"""

from __future__ import annotations

from collections.abc import Iterable

from rennleitung.formula_de.car import CarStatus
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race.core import RACING, Flow, RaceCore
from rennleitung.formula_de.race_order import order_of_play
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_state import CornerPass
from rennleitung.formula_de.track import SpaceKind, Track


class RestartPhase(RaceCore):
    """Dresden "Neustart"."""

    def _blocked(self) -> bool:
        """Dresden Neustart: wrecks make the track impassable for the cars still racing."""
        if not self.ruleset.restart_after_blockage:
            return False
        wrecks = frozenset(s.space for s in self.cars.values() if s.status is CarStatus.WRECK)
        if not wrecks:
            return False
        cut = self._cuts.get(wrecks)
        if cut is None:  # asked after every move; the wrecks rarely change between two moves
            cut = self._cuts[wrecks] = track_cut(self.track, wrecks)
        return cut

    def _restart(self) -> Flow:
        """Dresden Neustart: the race is stopped and restarted with every car still racing:
        from the grid if the leader has not reached the ``full_restart_before_corner``-th
        corner, else in a tight field in the middle of the next straight ahead of the leader,
        each driver free to pick a gear up to ``restart_max_gear``. Cars in the pit lane stay
        where they are; wrecks and cars rolling out with a failed engine are removed. A complete
        restart offers every driver already out a T-car on his original grid slot ("T-Cars
        dürfen auf die ursprüngliche Position der Fahrer gestellt werden"), one per team."""
        rules = self.ruleset
        for car, state in self.cars.items():
            if state.status is CarStatus.WRECK or (
                state.status in RACING and self.info[car].rolling_out is Retirement.ENGINE
            ):
                self.info[car].rolling_out = None
                if self.info[car].retirement is None:  # Masters 16-0-6 roll to the flag
                    self._retire(car, Retirement.ENGINE, wreck=False)
                else:
                    self._remove_wreck(car)
        order = [
            c
            for c in order_of_play(self.track, self._order_items())
            if self.cars[c].status in RACING and not self._in_pit_lane(c)
        ]
        if not order:
            return
        leader = order[0]
        full = self.laps_done(leader) == 0 and not self._reached(
            leader, rules.full_restart_before_corner
        )
        self._emit(EventKind.RESTART, full=full)
        # rule decision "Order after a restart" (Dresden Neustart, Fahrregeln): the first round
        # is played in race order, the leader first, so level cars tie by that order now
        self._restart_round = self.round + 1
        for car in order:
            self._seq += 1
            self.info[car].arrived = self._seq
        if full:
            for car in order:
                info = self.info[car]
                self._set(
                    car,
                    space=self._grid[info.grid - 1],
                    gear=0,
                    status=CarStatus.RUNNING,
                    corner_stops=0,
                    laps=0,
                )
                info.crossings = 0
                info.passes = []
                info.needs_start = True
                info.launch_pending = True
                info.next_gears = ()
            for car in self.grid_order:
                if self.info[car].retirement is not None and self._t_car_left(car):
                    yield from self._t_car(car, self._grid[self.info[car].grid - 1])
            return
        spots = restart_spots(self.track, self.cars[leader].space, len(order))
        gears = tuple(range(1, rules.restart_max_gear + 1))
        for car, spot in zip(order, spots, strict=False):
            info = self.info[car]
            old = self.cars[car].space
            self._neutral_passes(car, old, spot)
            if self.track.spaces[spot].height < self.track.spaces[old].height:
                info.crossings += 1
            self._set(
                car,
                space=spot,
                gear=0,
                status=CarStatus.RUNNING,
                corner_stops=0,
                laps=self.laps_done(car),
            )
            info.needs_start = False
            info.next_gears = gears
        for car in order[len(spots) :]:
            self._retire(car, Retirement.BLOCKED, wreck=False)  # no room left in the field

    def _reached(self, car: str, corner: int) -> bool:
        here = self.track.spaces[self.cars[car].space].corner
        return here >= corner or any(p.corner >= corner for p in self.info[car].passes)

    def _neutral_passes(self, car: str, old: int, new: int) -> None:
        """Corners a restart carries the car past count as passed (not as missed stops)."""
        track = self.track
        start = track.spaces[old].height
        end = track.spaces[new].height
        if end < start:
            end += track.lap_rows
        lap = self.laps_done(car)
        for corner in track.corners:
            begin = min(track.spaces[s].height for s in corner.spaces)
            if track.spaces[old].corner == corner.number or start < begin <= end:
                lap_of = lap
            elif start < begin + track.lap_rows <= end:
                lap_of = lap + 1  # beyond the line
            else:
                continue
            self.info[car].passes.append(
                CornerPass(lap_of, corner.number, 0, corner.stops, penalty=False, neutral=True)
            )


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
