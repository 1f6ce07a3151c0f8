"""``moves check`` against the generator: the checker accepts exactly the generator's moves.

Issue 11 items 10 and 17: the checker accepted a rain corner stop without its slide (or with a
shortened one) and a blocked move that stopped short of the farthest reach. The scenes show
both; the differential test compares checker and generator on random positions built through
``request_for`` with every preset, both weathers, every car status and blocked cars.
"""

from __future__ import annotations

import random

import pytest

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import CarStatus, DriverProfile, Tyre, Wear, Weather
from rennleitung.formula_de.movecheck import IllegalMove, check_move, reference_moves
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import MoveOption, MoveRequest
from rennleitung.formula_de.moves import Choices, check_path, option_to_data, request_for
from rennleitung.formula_de.position import CarState, Position
from rennleitung.formula_de.ruleset import get_ruleset, preset_names
from rennleitung.formula_de.track import SpaceKind, Track

from .test_movement_support import car, moves, path, position


def _refused(pos: Position, roll: int, names: tuple[str, ...]) -> bool:
    try:
        check_path(pos, "x", roll, names)
    except IllegalMove:
        return True
    return False


def test_a_rain_corner_stop_must_slide_its_full_three_spaces() -> None:
    """Dresden "Reifen" (in the rain a corner stop slides 3 on), Masters 8-1-2, 8-5-1 (the slide
    is mandatory): 6 from A1 stops in corner 1 on A7 and slides on to A10."""
    pos = position(car("x", "A1", brakes=0), weather=Weather.RAIN)
    straight = ("A2", "A3", "A4", "A5", "A6", "A7")
    assert _refused(pos, 6, straight)  # no slide
    assert _refused(pos, 6, (*straight, "A8"))  # a shortened slide
    (slid,) = check_path(pos, "x", 6, (*straight, "A8", "A9", "A10"))
    assert path(pos, slid)[-1] == "A10"


def test_a_blocked_car_stops_only_at_its_farthest_reach() -> None:
    """Dresden "Blockierte Spur" ("so weit wie möglich"), Masters 12-0-1: with cars on A4, B3
    and C3 the farthest x gets is two spaces; one space is no legal blocked move."""
    pos = position(car("x", "A1", brakes=3), car("a", "A4"), car("b", "B3"), car("c", "C3"))
    assert _refused(pos, 5, ("A2",))
    farthest = check_path(pos, "x", 5, ("A2", "A3"))  # blocked, or braking 3 of the 5
    assert {(o.blocked, o.brakes) for o in farthest} == {(3, 3), (0, 3)}


# --- the differential test ---------------------------------------------------------------------

TRACKS = ("monaco", "monza", "oval", "short")
STATUSES = tuple(CarStatus)


def _random_position(seed: int) -> tuple[Position, int, Choices]:
    """A position with cars of every status around the mover, a preset, a weather, a roll."""
    rng = random.Random(seed)
    track = builtin_track(rng.choice(TRACKS))
    ruleset = get_ruleset(rng.choice(preset_names()))
    spaces = [s for s in range(len(track.spaces)) if track.spaces[s].kind is SpaceKind.TRACK]
    start = rng.choice(range(len(track.spaces)))
    if track.spaces[start].kind is SpaceKind.BOX and rng.random() < 0.7:
        start = rng.choice(spaces)
    taken = rng.sample([s for s in spaces if s != start], rng.randint(0, 30))
    boxes = len(track.boxes)
    corner = track.corner_of(start)
    box = track.boxes.index(start) + 1 if track.spaces[start].kind is SpaceKind.BOX else 0
    if not box and boxes and rng.random() < 0.6:
        box = rng.randint(1, boxes)
    profiles = sorted(ruleset.profiles_allowed)
    mover = CarState(
        id="x",
        space=start,
        gear=rng.randint(1, 6),
        wear=Wear(rng.randint(0, 6), rng.randint(0, 4), 3, 3, rng.randint(1, 3), 2, 1),
        tyre=rng.choice(list(Tyre)),
        tyre_laps=rng.randint(0, 3),
        profile=rng.choice(profiles) if profiles else DriverProfile.NORMAL,
        status=rng.choice((CarStatus.RUNNING, CarStatus.ROLLING_OUT)),
        corner_stops=rng.randint(0, corner.stops - 1) if corner else 0,
        laps=rng.randint(0, 3),
        box=box,
    )
    others = tuple(
        CarState(id=f"c{n}", space=s, gear=rng.randint(0, 6), status=rng.choice(STATUSES))
        for n, s in enumerate(taken)
    )
    pos = Position(
        track=track,
        track_ref=track.name,
        ruleset=ruleset,
        weather=rng.choice((Weather.SUN, Weather.RAIN)),
        cars=(mover, *others),
        dangerous=frozenset(rng.sample(spaces, rng.randint(0, 12))) - {start},
        to_move="x",
        laps=3,
    )
    roll = rng.randint(0, 7)
    return pos, roll, Choices(pit_open=rng.random() < 0.7)


def _candidates(track: Track, start: int, options: list[MoveOption]) -> set[tuple[int, ...]]:
    """Every option's path, its shorter prefixes and its one-step extensions."""
    found: set[tuple[int, ...]] = set()
    for option in options:
        steps = option.path
        for cut in range(len(steps) + 1):
            found.add(steps[:cut])
        here = steps[-1] if steps else start
        for nxt in track.successors[here]:
            found.add((*steps, nxt))
    return found


def _accepted(track: Track, request: MoveRequest, steps: tuple[int, ...]) -> list[MoveOption]:
    try:
        return check_move(track, request, steps)
    except IllegalMove:
        return []


@pytest.mark.parametrize("block", range(4))
def test_checker_and_generator_agree_on_every_preset_weather_and_status(block: int) -> None:
    """For 200 random positions: the generator equals the brute-force reference (moves up to 7
    spaces, the reference's cost grows fast); every path the generator offers passes ``moves
    check``; every path ``moves check`` accepts (options' paths, their prefixes, one step more)
    has the cost of an option the generator offers."""
    seen_presets: set[str] = set()
    for seed in range(block * 50, block * 50 + 50):
        pos, roll, choices = _random_position(seed)
        seen_presets.add(pos.ruleset.name)
        request = request_for(pos, "x", roll, choices)
        generated = generate_moves(pos.track, request)
        keys = {o.cost_key() for o in generated}
        if request.distance <= 7:
            assert keys == {o.cost_key() for o in reference_moves(pos.track, request)}, seed
        for option in generated:
            if option.eliminated is None:
                assert _accepted(pos.track, request, option.path), (seed, option.path)
        for steps in _candidates(pos.track, request.start, generated):
            for option in _accepted(pos.track, request, steps):
                assert option.cost_key() in keys, (seed, steps)
    assert len(seen_presets) >= 3


@pytest.mark.parametrize(("ruleset", "fuel"), [("dresden-2006", 1), ("masters-2002", 0)])
def test_moves_json_reports_the_fuel_the_preset_spends(ruleset: str, fuel: int) -> None:
    """Dresden "Verschleiß": one fuel point on leaving the last corner; ``masters-2002`` spends
    no fuel per lap, so ``moves --json`` says 0 there (issue 11 item 18)."""
    monaco = builtin_track("monaco")
    x = car("x", "C147", track=monaco, gear=2, corner_stops=1)
    pos = position(x, track=monaco, ruleset=ruleset)
    options = generate_moves(monaco, request_for(pos, "x", 2))
    unbraked = [o for o in options if not o.brakes]  # each leaves corner 10, the last
    assert unbraked and {option_to_data(pos, o)["fuel"] for o in unbraked} == {fuel}


def test_a_slipstream_may_carry_the_car_into_the_pit_lane() -> None:
    """Masters 19-1-3 (slipstream rules apply in the pit lane) and annex 3 (2002); Dresden is
    silent (issue 11 item 15): x, its stop in corner 10 made, rolls 7 to C151 behind y (4th
    gear, C152) and slipstreams P1, P2, P3 into the pit lane towards its box."""
    monaco = builtin_track("monaco")
    x = car("x", "A147", track=monaco, gear=4, box=1, laps=1, corner_stops=1)
    pos = position(x, car("y", "C152", track=monaco, gear=4), track=monaco)
    options = generate_moves(monaco, request_for(pos, "x", 7))
    into_pit = [
        o for o in options if o.slipstreams and path(pos, o)[-4:] == ("C151", "P1", "P2", "P3")
    ]
    assert into_pit
    assert check_path(pos, "x", 7, path(pos, into_pit[0]))


@pytest.mark.parametrize(
    ("ruleset", "expected"), [("masters-2002", {"A3"}), ("dresden-2006", {"A3", "B2", "C2"})]
)
def test_a_blocked_car_stops_where_it_would_play_first_under_masters(
    ruleset: str, expected: set[str]
) -> None:
    """Masters 12-1-3: of the farthest ends of a blocked car (A3, B2, C2 with cars on A4, B3,
    C3) only the one that would play first next round (A3, the farthest along the lap) is
    allowed; Dresden "Blockierte Spur" lets the driver choose ("kann er wählen")."""
    pos = position(
        car("x", "A1", brakes=3), car("a", "A4"), car("b", "B3"), car("c", "C3"), ruleset=ruleset
    )
    blocked = [o for o in moves(pos, "x", 6) if o.blocked]
    assert {path(pos, o)[-1] for o in blocked} == expected
    assert _refused(pos, 6, ("A2", "B2")) is (ruleset == "masters-2002")
