"""From a position and a roll to a ``MoveRequest``: every modifier the driver and the rules add.

This is where the car's state meets the driving rules: the profile's ±1 (Dresden
"Fahrerprofile"), the soft-tyre +1 and −1 (Dresden "Reifen"), the engine boost (Dresden
"Verschleiß": + gear number, not the last engine point), the tyre points per overshot space, the
rain slide and the profiles' corner-stop adjustments (rule decision "Rain sliding"), the cars
that block and the cars that may be slipstreamed (Masters 18-1-7), and whether the pit lane is
open to this car (Masters 19-1-7, 19-2-4; Dresden "Boxenstopp": at most 4th gear).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import CarStatus, WearArea, Weather
from rennleitung.formula_de.dice import gear_range
from rennleitung.formula_de.movecheck import check_move
from rennleitung.formula_de.movegen import generate_moves
from rennleitung.formula_de.movement import Elimination, MoveOption, MoveRequest
from rennleitung.formula_de.position import Position
from rennleitung.formula_de.track import SpaceKind, Track

SLIPSTREAMABLE = frozenset({CarStatus.RUNNING, CarStatus.IN_PIT})
"""Cars that can be slipstreamed; spun cars and cars in inertia cannot (Masters 18-1-7). A car
rolling out is added where the ruleset says so (``slipstream_behind_rolling_out``: Dresden
"Fahrregeln" only asks for a car in at least 4th gear)."""


@dataclass(frozen=True, slots=True)
class Choices:
    """What the driver decides before rolling (Masters 6-3): the gear (default: the car's),
    the engine boost, the optional soft-tyre +1, and extra spaces the race grants (launch
    bonus of a profile at the start, out of the box or after a spin)."""

    gear: int | None = None
    boost: bool = False
    soft_bonus: bool = False
    extra: int = 0
    pit_open: bool = True


MOVING = (CarStatus.RUNNING, CarStatus.ROLLING_OUT)
"""Cars that may be asked for a move; spun, stalled, boxed, retired and finished cars wait."""


def check_request(position: Position, car_id: str, roll: int, choices: Choices = Choices()) -> None:
    """Refuse a question about a position that the race could never ask: a gear that does not
    exist, a roll the chosen gear's die cannot show (Masters 6-1-1: gear dice 1–2, 2–4, 4–8,
    7–12, 11–20, 21–30), a car that cannot move, has finished its laps (Masters 21) or whose
    body, engine or road holding is at 0 (Dresden Verschleiß, Masters 5-1: out with the last
    point). For untrusted requests (command line, web); the race and the bots ask
    ``legal_moves`` directly."""
    car = position.car(car_id)
    status = car.status
    gear = car.gear if choices.gear is None else choices.gear
    if status not in MOVING:
        raise RennleitungError(
            f"dieses Auto zieht nicht ({status.label_de})",
            f"this car does not move ({status.label_en})",
            "car",
        )
    gear_range(gear)  # refuses a gear that does not exist
    low, high = gear_range(1)[0], gear_range(6)[1]
    if not low <= roll <= high:
        raise RennleitungError(
            f"Wurf {roll} zeigt kein Gangwürfel ({low}–{high})",
            f"no gear die shows a roll of {roll} ({low}–{high})",
            "--roll (Masters 6-1-1)",
        )
    low, high = gear_range(gear)
    if not low <= roll <= high:
        raise RennleitungError(
            f"Wurf {roll} zeigt der Würfel des {gear}. Gangs nicht ({low}–{high})",
            f"the die of gear {gear} cannot show a roll of {roll} ({low}–{high})",
            "--roll (Masters 6-1-1)",
        )
    if car.laps >= position.laps:
        raise RennleitungError(
            f"dieses Auto hat seine {position.laps} Runden schon beendet ({car.laps} gefahren)",
            f"this car has already finished its {position.laps} laps ({car.laps} done)",
            f"{car_id}.laps (Masters 21)",
        )
    for area in OUT_AT_ZERO:
        if car.wear[area] == 0 and not (area is WearArea.ENGINE
                                        and status is CarStatus.ROLLING_OUT):
            raise RennleitungError(
                f"{area.label_de} 0: mit dem letzten Punkt ist das Auto ausgeschieden",
                f"{area.label_en} 0: losing the last point puts the car out",
                f"{car_id}.wear.{area.value} (Dresden Verschleiß; Masters 5-1)",
            )


OUT_AT_ZERO = (WearArea.BODY, WearArea.ENGINE, WearArea.ROAD_HOLDING)
"""Areas whose last point crossed out retires the car (``car.LAST_POINT_EFFECT``); a car
rolling out after its engine failed still moves with engine 0 (Masters 16-0-6)."""


def request_for(
    position: Position, car_id: str, roll: int, choices: Choices = Choices()
) -> MoveRequest:
    """The move request of ``car_id`` for a die result ``roll`` under ``choices``."""
    car = position.car(car_id)
    track = position.track
    ruleset = position.ruleset
    gear = car.gear if choices.gear is None else choices.gear
    in_pit = track.spaces[car.space].kind is not SpaceKind.TRACK
    effects = car.profile.effects_at(in_pit_lane=in_pit)
    tyre = ruleset.tyre(car.tyre)
    distance = roll + effects.movement + tyre.movement_malus(car.set_lap) + choices.extra
    if choices.soft_bonus:
        bonus = tyre.movement_bonus(position.weather, car.set_lap)
        if not bonus:
            raise RennleitungError(
                "der Weichreifen-Bonus gilt nur in der ersten Runde des Satzes bei Sonne",
                "the soft-tyre bonus only applies on the set's first lap in sunshine",
                "Dresden Reifen",
            )
        distance += bonus
    if choices.boost:
        if not ruleset.engine_boost or car.wear[WearArea.ENGINE] <= 1:
            raise RennleitungError(
                "Motor-Boost nicht erlaubt (nicht mit dem letzten Motorpunkt)",
                "engine boost not allowed (not with the last engine point)",
                "Dresden Verschleiß",
            )
        distance += gear
    if position.weather is Weather.RAIN:
        slide = tyre.rain_slide + effects.rain_slide
    else:
        slide = effects.corner_stop_sun
    occupants = {c.space: c.id for c in position.cars if c.id != car.id and c.status.on_track}
    slipstreamable = (
        SLIPSTREAMABLE | {CarStatus.ROLLING_OUT}
        if ruleset.slipstream_behind_rolling_out
        else SLIPSTREAMABLE
    )
    slipstream = {
        c.space: c.gear for c in position.cars if c.id != car.id and c.status in slipstreamable
    }
    max_gear = ruleset.pit_lane_max_gear
    pit_allowed = (
        choices.pit_open
        and track.pit is not None
        and car.box > 0
        and (max_gear is None or gear <= max_gear)
        and ruleset.pit_lane_open(car.laps, position.laps)
    )
    return MoveRequest(
        start=car.space,
        distance=distance,
        gear=gear,
        brakes=car.wear[WearArea.BRAKES],
        tyres=car.wear[WearArea.TYRES],
        overshoot_factor=tyre.overshoot_per_space(position.weather, car.set_lap),
        slide=slide,
        corner_stops=car.corner_stops,
        occupants=occupants,
        dangerous=position.dangerous,
        slipstream_gears=slipstream,
        pit_allowed=pit_allowed,
        box=track.boxes[car.box - 1] if car.box else -1,
        blocked_table=ruleset.blocked_table,
        slipstream_min_gear=ruleset.slipstream_min_gear,
        slipstream_spaces=ruleset.slipstream_spaces,
        slipstream_corner_brakes=ruleset.slipstream_corner_brakes,
        zero_tyres_spin=ruleset.zero_tyres_spin_again,
        blocked_plays_first=ruleset.blocked_end_plays_first,
        soft_bonus=choices.soft_bonus,  # Masters 18-3-1: also after or between slipstreams
        blocked_unpaid=(
            Elimination.BLOCKED_UNPAID_MASTERS
            if ruleset.blocking_cites_masters
            else Elimination.BLOCKED_UNPAID
        ),
    )


def legal_moves(
    position: Position, car_id: str, roll: int, choices: Choices = Choices()
) -> list[MoveOption]:
    """Every legal way for ``car_id`` to end its move after rolling ``roll``."""
    return generate_moves(position.track, request_for(position, car_id, roll, choices))


def check_path(
    position: Position, car_id: str, roll: int, path: Sequence[str], choices: Choices = Choices()
) -> list[MoveOption]:
    """The options with exactly this path (space names), or ``IllegalMove`` naming the rule."""
    track = position.track
    indices = []
    for n, name in enumerate(path):
        try:
            indices.append(track.space(name))
        except RennleitungError as error:
            raise RennleitungError(error.de, error.en, f"path[{n}]") from None
    return check_move(track, request_for(position, car_id, roll, choices), indices)


def option_to_data(position: Position, option: MoveOption) -> dict[str, object]:
    """The JSON form of an option (``moves --json``): spaces by name, colliding cars by id."""
    occupants = {c.space: c.id for c in reversed(position.cars) if c.status.on_track}
    return option_data(position.track, option, occupants, position.ruleset.fuel_per_lap)


def option_data(
    track: Track, option: MoveOption, occupants: Mapping[int, str], fuel_per_lap: int
) -> dict[str, object]:
    """The JSON form of one move option: spaces by name, everything it costs and the tests it
    triggers (``moves --json`` and the move question)."""
    name = track.name_of
    eliminated = option.eliminated
    return {
        "end": name(option.end),
        "path": [name(s) for s in option.path],
        "spaces": option.spaces_moved,
        "brakes": option.brakes,
        "tyres": option.tyres,
        # fuel points spent: the preset's fuel_per_lap per last corner left (Dresden
        # Verschleiß: 1; masters-2002 spends none per lap)
        "fuel": option.fuel * fuel_per_lap,
        "lane_changes": option.lane_changes,
        "stop_corner": option.stop_corner,
        "corner_stops": option.corner_stops,
        "overshoot": option.overshoot,
        "dangerous": [name(s) for s in option.dangerous],
        "wall_tests": option.wall_tests,
        "collisions": [occupants.get(s, name(s)) for s in option.contacts],
        "slipstreams": option.slipstreams,
        "blocked": option.blocked,
        "laps": option.laps,
        "spin": option.spin,
        "pit": option.pit,
        "leftover": option.leftover,
        "body_loss": name(option.body_loss) if option.body_loss >= 0 else None,
        "eliminated": eliminated is not None,
        "elimination_rule": eliminated.rule if eliminated else None,
        "elimination_reason_de": eliminated.text_de if eliminated else None,
        "elimination_reason_en": eliminated.text_en if eliminated else None,
    }
