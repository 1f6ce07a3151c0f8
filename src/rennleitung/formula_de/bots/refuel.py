"""The refuelling stop of a car that runs dry (Dresden "Verschleiß", "Boxenstopp").

A car without fuel leaving the last corner rolls out one gear lower each round and is saved
only by its box or the flag. In FD Blitz (one fuel point, three laps) this is the plan: lap 1
spends the point, and at the end of lap 2 the car leaves the last corner dry and rolls into its
box, the only lap whose pit lane is open (Masters 19-2-4, 19-1-7). Whether it gets there is a
matter of distance and dice: the exit move in some gear, then one roll in each lower gear down
to 1st, entering the pit lane only at most in its gear limit (Dresden "Boxenstopp"). These
helpers give the distance to the box and the odds of covering it.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from rennleitung.formula_de.dice import GEAR_PROBABILITIES
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.ruleset import PitSystem
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.track_cache import per_track

DRY = 900.0
"""Running dry where no box can help, in spaces: as bad as an elimination (1000), a little
better, as the car still rolls on a few spaces."""

FAR = 999
"""Distance to a box that cannot be reached."""


def _distances_back(track: Track, first: dict[int, int]) -> list[int]:
    """Spaces from every space to the nearest of ``first`` (space → its own distance), walking
    the track's arrows backwards; FAR where there is no way."""
    dist = [FAR] * len(track.spaces)
    for space, value in first.items():
        dist[space] = value
    todo = deque(first)
    while todo:
        here = todo.popleft()
        for prev in track.predecessors[here]:
            if dist[prev] == FAR:
                dist[prev] = dist[here] + 1
                todo.append(prev)
    return dist


@per_track
def box_distance(track: Track, box: int) -> tuple[int, ...]:
    """Spaces from every space to ``box`` along the track's arrows, pit entries included (past
    the last entry: a lap round; FAR where there is no way at all)."""
    return tuple(_distances_back(track, {box: 0}))


@per_track
def flag_distance(track: Track) -> int:
    """The fewest spaces from leaving the last corner to crossing the line: what a car that
    runs dry there on the last lap must roll out (Dresden "Verschleiß")."""
    dist = _distances_back(track, {before: 1 for before, _after in track.line_edges})
    last = track.last_corner.spaces
    exits = [s for s in last if any(n not in last for n in track.successors[s])]
    return min((dist[s] for s in exits), default=FAR)


@lru_cache(maxsize=4096)
def reach_odds(distance: int, gears: tuple[int, ...]) -> float:
    """The chance that one roll of each gear in ``gears``, in turn, covers ``distance``."""
    if distance <= 0:
        return 1.0
    if not gears:
        return 0.0
    return sum(
        float(p) * reach_odds(distance - face, gears[1:])
        for face, p in GEAR_PROBABILITIES[gears[0]].items()
    )


def rollout_gears(gear: int) -> tuple[int, ...]:
    """The gears of the rolls after leaving the last corner dry in ``gear``: one lower each
    round, the last in 1st (Dresden "Verschleiß")."""
    return tuple(range(gear - 1, 0, -1))


def pit_open_after_lap(race: Race, lap: int) -> bool:
    """Whether the pit lane is open to a car leaving the last corner of ``lap`` (1-based):
    after ``pit_min_laps`` full laps and not on the last (Masters 19-2-4, 19-1-7)."""
    rules = race.ruleset
    if race.track.pit is None or rules.pit_system is not PitSystem.POINTS:
        return False
    return rules.pit_lane_open(lap - 1, race.laps)


def refuel_box(race: Race, car: str, fuel: int | None = None) -> int | None:
    """The box of a car that will leave (or has left) this lap's last corner without the fuel
    it owes there (with ``fuel`` points, if given: after skipping gears) and whose pit lane is
    open then: it must roll into that box. None otherwise."""
    state = race.cars[car]
    rules = race.ruleset
    if not rules.fuel_per_lap or not state.box or race.track.pit is None:
        return None
    rolling = race.info[car].rolling_out
    left = state.wear.fuel if fuel is None else fuel
    if rolling is Retirement.ENGINE or (left >= rules.fuel_per_lap and rolling is None):
        return None
    if not pit_open_after_lap(race, race.laps_done(car) + 1):
        return None
    return race.track.boxes[state.box - 1]
