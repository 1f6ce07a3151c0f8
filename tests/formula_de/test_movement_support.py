"""Shared scenery for the movement rule tests (test_movement_*.py): a small synthetic track,
positions built from a few cars, and option helpers.

The track ``T`` (3 lanes, A leftmost, B half a space ahead of A and C on straights):

* straight S0: A1–A6 (joined over the line with the last straight, Masters 7-2)
* corner 1: 1 stop, 2 spaces per lane (A7 A8, B7 B8, C7 C8), lanes kept apart inside (``lanes``)
* straight S1: A9–A14
* corner 2: 2 stops, 6 spaces per lane (A15–A20 …), diagonal arrows (``cross``); the last corner
  before the line (fuel, Dresden "Verschleiß")
* straight S2: A21–A28, then the line
* pit lane on the right beside C23: entered from C22 (into P1) and C23 (into P2); BOX1 from P2,
  BOX2 from P3; P5 leads back to C28.

The track is ``positions/scenario.toml``, shared with the position cases (test_positions.py).
Every helper that lists options also runs the brute-force reference (``reference_moves``) and
asserts that it finds the same options (by cost): the issue asks the two to agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rennleitung.formula_de.car import (
    CarStatus,
    DriverProfile,
    Tyre,
    Wear,
    Weather,
)
from rennleitung.formula_de.movecheck import reference_moves
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.moves import Choices, request_for
from rennleitung.formula_de.position import CarState, Position
from rennleitung.formula_de.ruleset import get_ruleset
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file

POSITIONS = Path(__file__).parent / "positions"
"""The position cases (``positions/*.json``, run by test_positions.py) and their track."""

TRACK_TOML = (POSITIONS / "scenario.toml").read_text(encoding="utf-8")

T = build_track(parse_track_file(TRACK_TOML))

REFERENCE_LIMIT = 12
"""Rolls up to this distance are also enumerated by the brute-force reference."""


def car(
    car_id: str,
    space: str,
    *,
    track: Track = T,
    gear: int = 4,
    tyres: int = 6,
    brakes: int = 3,
    engine: int = 3,
    tyre: Tyre = Tyre.HARD,
    tyre_laps: int = 0,
    profile: DriverProfile = DriverProfile.NORMAL,
    status: CarStatus = CarStatus.RUNNING,
    corner_stops: int = 0,
    laps: int = 1,
    box: int = 0,
    team: str = "",
) -> CarState:
    """A car on ``space`` (a name); built directly, so no parser limits apply."""
    return CarState(
        id=car_id,
        space=track.space(space),
        gear=gear,
        wear=Wear(tyres, brakes, 3, 3, engine, 2, 2),
        tyre=tyre,
        tyre_laps=tyre_laps,
        profile=profile,
        status=status,
        corner_stops=corner_stops,
        laps=laps,
        box=box,
        team=team,
    )


def position(
    *cars: CarState,
    track: Track = T,
    weather: Weather = Weather.SUN,
    ruleset: str = "dresden-2006",
    dangerous: Iterable[str] = (),
    laps: int = 3,
) -> Position:
    """A position on ``track`` with these cars."""
    return Position(
        track=track,
        track_ref=track.name,
        ruleset=get_ruleset(ruleset),
        weather=weather,
        cars=tuple(cars),
        dangerous=frozenset(track.space(d) for d in dangerous),
        to_move=cars[0].id,
        laps=laps,
    )


def moves(pos: Position, car_id: str, roll: int, choices: Choices = Choices()) -> list[MoveOption]:
    """Every option of the fast generator, checked against the brute-force reference."""
    request = request_for(pos, car_id, roll, choices)
    options = generate_moves(pos.track, request)
    if request.distance <= REFERENCE_LIMIT:
        reference = reference_moves(pos.track, request)
        fast = {o.cost_key() for o in options}
        slow = {o.cost_key() for o in reference}
        assert fast == slow, f"generator and reference differ: {fast ^ slow}"
    return options


def name(pos: Position, space: int) -> str:
    return pos.track.name_of(space)


def end(pos: Position, option: MoveOption) -> str:
    """The name of the option's end space."""
    return pos.track.name_of(option.end)


def path(pos: Position, option: MoveOption) -> tuple[str, ...]:
    return tuple(pos.track.name_of(s) for s in option.path)


def alive(options: Iterable[MoveOption]) -> list[MoveOption]:
    """The options that do not eliminate the car."""
    return [o for o in options if o.eliminated is None]


def ends(pos: Position, options: Iterable[MoveOption]) -> set[str]:
    """End spaces of the options that do not eliminate the car."""
    return {end(pos, o) for o in alive(options)}


def costs(pos: Position, options: Iterable[MoveOption]) -> set[tuple[str, int, int]]:
    """(end, brakes, tyres) of the options that do not eliminate the car."""
    return {(end(pos, o), o.brakes, o.tyres) for o in alive(options)}


def lane_of(space_name: str) -> str:
    return space_name[0]
