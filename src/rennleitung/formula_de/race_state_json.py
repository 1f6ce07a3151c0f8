"""The JSON form of a ``RaceState`` (format ``rennleitung-race-state/1``, documented in
``docs/formula_de/state.md``): what the store keeps at every round boundary.

Spaces are written by name, cars in the position notation's car form (``position.py``) with
their bookkeeping beside them, the dice by the generator's state. ``state_from_data`` reads
what ``state_to_data`` wrote, and names the field of anything it cannot read; a field added in a
later version of the form is optional with the value a race had before it existed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import Wear, Weather, WeatherRoll, WeatherState
from rennleitung.formula_de.position import car_from_data, car_to_data
from rennleitung.formula_de.race_decisions import plan_from_data, plan_to_data
from rennleitung.formula_de.race_retirement import Retirement
from rennleitung.formula_de.race_state import CarInfo, CornerPass, RaceState
from rennleitung.formula_de.record import config_from_data, config_to_data
from rennleitung.formula_de.track import Track

STATE_FORMAT = "rennleitung-race-state/1"


class StateError(RennleitungError):
    """A state document that cannot be read; ``where`` names the field."""


def state_to_data(state: RaceState, track: Track) -> dict[str, Any]:
    """The JSON-ready form of ``state``."""
    name = track.name_of
    weather = state.weather
    return {
        "format": STATE_FORMAT,
        "rules": [{"from_round": r, "rules_version": v} for r, v in state.rules],
        "config": config_to_data(state.config),
        "commitment": state.commitment,
        "round": state.round,
        "version": state.version,
        "events": state.events,
        "rolls": state.rolls,
        "dice": [state.rng[0], list(state.rng[1]), state.rng[2]],
        "weather": {
            "current": weather.current.value,
            "settled": weather.settled,
            "last_roll": weather.last_roll.value if weather.last_roll else None,
            "streak": weather.streak,
        },
        "dangerous": sorted(name(s) for s in state.dangerous),
        "finish_order": list(state.finish_order),
        "halted": sorted(state.halted),
        "stopped": state.stopped,
        "turns": state.turns,
        "arrivals": state.arrivals,
        "t_cars_used": sorted(state.t_cars_used),
        "restart_round": state.restart_round,
        "cars": [
            {**car_to_data(track, car), "info": _info_to_data(info)}
            for car, info in zip(state.cars, state.info, strict=True)
        ],
    }


def _info_to_data(info: CarInfo) -> dict[str, Any]:
    return {
        "grid": info.grid,
        "crossings": info.crossings,
        "karma": info.karma,
        "arrived": info.arrived,
        "retirement": info.retirement.name.lower() if info.retirement else None,
        "retired_laps": info.retired_laps,
        "final_progress": info.final_progress,
        "needs_start": info.needs_start,
        "launch_pending": info.launch_pending,
        "next_gears": list(info.next_gears),
        "rolling_out": info.rolling_out.name.lower() if info.rolling_out else None,
        "inertia": info.inertia,
        "pit_points": info.pit_points,
        "pit_plan": plan_to_data(info.pit_plan) if info.pit_plan else None,
        "start_wear": info.start_wear.as_dict(),
        "passes": [
            [p.lap, p.corner, p.made, p.required, p.penalty, p.eliminated, p.neutral]
            for p in info.passes
        ],
        "led": {str(lap): rounds for lap, rounds in sorted(info.led.items())},
        "t_car_pending": info.t_car_pending,
        "fresh_tyres": info.fresh_tyres,
    }


def state_from_data(data: Any, track: Track) -> RaceState:
    """Read the JSON form of a state against its track; errors name the field."""
    try:
        return _state(data, track)
    except StateError:
        raise
    except RennleitungError as error:
        raise StateError(error.de, error.en, error.where) from None
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise StateError(
            f"ungültiger Rennstand: {error}", f"invalid race state: {error}", "state"
        ) from None


def _state(data: Any, track: Track) -> RaceState:
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise StateError(
            f"kein Rennstand ({STATE_FORMAT})", f"not a race state ({STATE_FORMAT})", "format"
        )
    dice = data["dice"]
    weather = data["weather"]
    last = weather.get("last_roll")
    cars = []
    infos = []
    for n, item in enumerate(_list(data, "cars")):
        cars.append(car_from_data(track, {k: v for k, v in item.items() if k != "info"},
                                  f"cars[{n}]"))
        infos.append(_info(item["info"]))
    return RaceState(
        config=config_from_data(data["config"]),
        commitment=str(data["commitment"]),
        round=_int(data, "round"),
        version=_int(data, "version"),
        events=_int(data, "events"),
        rolls=_int(data, "rolls"),
        rng=(int(dice[0]), tuple(int(x) for x in dice[1]), dice[2]),
        weather=WeatherState(
            current=Weather(weather["current"]),
            settled=bool(weather["settled"]),
            last_roll=None if last is None else WeatherRoll(last),
            streak=int(weather.get("streak", 0)),
        ),
        cars=tuple(cars),
        info=tuple(infos),
        finish_order=tuple(str(c) for c in _list(data, "finish_order")),
        dangerous=frozenset(track.space(str(s)) for s in _list(data, "dangerous")),
        halted=frozenset(str(c) for c in _list(data, "halted")),
        stopped=bool(data.get("stopped", False)),
        turns=_int(data, "turns"),
        arrivals=_int(data, "arrivals"),
        t_cars_used=frozenset(str(t) for t in _list(data, "t_cars_used")),
        restart_round=int(data.get("restart_round", 0)),
        rules=tuple(
            (int(r["from_round"]), int(r["rules_version"])) for r in _list(data, "rules")
        ),
    )


def _info(data: Mapping[str, Any]) -> CarInfo:
    plan = data.get("pit_plan")
    return CarInfo(
        grid=int(data["grid"]),
        crossings=int(data["crossings"]),
        karma=int(data["karma"]),
        arrived=int(data["arrived"]),
        retirement=_retirement(data.get("retirement")),
        retired_laps=int(data.get("retired_laps", 0)),
        final_progress=float(data.get("final_progress", 0.0)),
        needs_start=bool(data["needs_start"]),
        launch_pending=bool(data["launch_pending"]),
        next_gears=tuple(int(g) for g in data.get("next_gears", [])),
        rolling_out=_retirement(data.get("rolling_out")),
        inertia=bool(data.get("inertia", False)),
        pit_points=int(data.get("pit_points", 0)),
        pit_plan=None if plan is None else plan_from_data(plan, "pit_plan"),
        start_wear=Wear.from_mapping(data["start_wear"]),
        passes=[
            CornerPass(int(p[0]), int(p[1]), int(p[2]), int(p[3]), *map(bool, p[4:7]))
            for p in data.get("passes", [])
        ],
        led={int(lap): int(rounds) for lap, rounds in data.get("led", {}).items()},
        t_car_pending=bool(data.get("t_car_pending", False)),
        fresh_tyres=bool(data.get("fresh_tyres", False)),
    )


def _retirement(value: Any) -> Retirement | None:
    return None if value is None else Retirement[str(value).upper()]


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise StateError(
            "eine ganze Zahl ab 0 erwartet", "a whole number from 0 on expected", key
        )
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise StateError("Liste erwartet", "list expected", key)
    return value
