"""Position notation: one race moment as a JSON document that people can read, write and share.

Format ``rennleitung-position/1`` (documented in docs/formula_de/position.md):

```
{"format": "rennleitung-position/1", "track": "monaco", "ruleset": "dresden-2006",
 "weather": "sun", "laps": 3, "round": 12, "to_move": "alonso",
 "dangerous": ["B40", "C41"],
 "cars": [{"id": "alonso", "space": "A12", "gear": 4, "tyre": "soft", "tyre_laps": 0,
           "wear": {"tyres": 6, "brakes": 3, "fuel": 3, "body": 3, "engine": 3,
                    "road_holding": 2, "box": 2},
           "profile": "normal", "status": "running", "corner_stops": 0, "laps": 1, "box": 3}]}
```

Spaces are written in the track notation (``A12``, ``P3``, ``BOX3``). Parsing validates every
field and names it in the error (``cars[2].gear``) in German and English; ``position_to_json``
and ``parse_position`` round-trip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.car import CarStatus, DriverProfile, Tyre, Wear, WearArea, Weather
from rennleitung.formula_de.ruleset import Ruleset, get_ruleset
from rennleitung.formula_de.track import Track
from rennleitung.textinput import clip, load_json

POSITION_FORMAT = "rennleitung-position/1"


class PositionError(RennleitungError):
    """A position document that cannot be read; ``where`` names the field."""


@dataclass(frozen=True, slots=True)
class CarState:
    """One car at one moment. ``space`` is a space index of the track; ``box`` the number of the
    car's box (1-based; 0 = none chosen); ``tyre_laps`` the laps completed on the current set
    (the set's lap is ``tyre_laps + 1``); ``corner_stops`` the stops made in the corner the car
    stands in (Masters 7-1-1)."""

    id: str
    space: int
    gear: int = 0
    wear: Wear = field(default_factory=lambda: Wear(4, 3, 3, 3, 3, 2, 2))
    tyre: Tyre = Tyre.HARD
    tyre_laps: int = 0
    profile: DriverProfile = DriverProfile.NORMAL
    status: CarStatus = CarStatus.RUNNING
    corner_stops: int = 0
    laps: int = 0
    box: int = 0
    name: str = ""
    team: str = ""

    @property
    def set_lap(self) -> int:
        """The lap of the current tyre set, 1-based (Dresden "Reifen")."""
        return self.tyre_laps + 1


@dataclass(frozen=True)
class Position:
    """A race moment: track, ruleset, weather, cars, dangerous spaces and whose move it is."""

    track: Track
    track_ref: str
    ruleset: Ruleset
    weather: Weather
    cars: tuple[CarState, ...]
    dangerous: frozenset[int] = frozenset()
    to_move: str = ""
    laps: int = 3
    round: int = 0

    def car(self, car_id: str) -> CarState:
        """The car with this id, or a bilingual error naming it."""
        for car in self.cars:
            if car.id == car_id:
                return car
        known = clip(", ".join(c.id for c in self.cars), 400)
        raise PositionError(
            f"kein Auto {clip(car_id)!r} (vorhanden: {known})",
            f"no car {clip(car_id)!r} (present: {known})",
            "car",
        )

    def with_car(self, car: CarState) -> Position:
        """The same position with one car replaced (by id)."""
        return replace(self, cars=tuple(car if c.id == car.id else c for c in self.cars))


TrackLoader = Callable[[str], Track]


MAX_CARS = 40
"""Cars in one position (a race has at most the grid's slots; the boards have 10)."""
MAX_NAME = 60
"""Characters of a car id, driver name or team name."""
MAX_LAPS = 100
MAX_ROUND = 100_000


def _fail(where: str, de: str, en: str) -> PositionError:
    return PositionError(de, en, where)


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise _fail(f"{where}{key}", "Angabe fehlt", "missing field")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise _fail(
            f"{where}{key}", f"falscher Typ, erwartet {names}", f"wrong type, {names} expected"
        )
    return value


def _opt(data: Mapping[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
    return _get(data, key, kind, where) if key in data else default


def _enum(enum: Any, value: Any, where: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in enum)
        raise _fail(
            where,
            f"unbekannter Wert {clip(value)!r} (möglich: {allowed})",
            f"unknown value {clip(value)!r} (allowed: {allowed})",
        ) from None


def _space(track: Track, value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise _fail(where, "Feldname erwartet (z.B. B12)", "space name expected (e.g. B12)")
    try:
        return track.space(value)
    except RennleitungError as error:
        raise _fail(where, error.de, error.en) from None


def _car(track: Track, data: Any, where: str) -> CarState:
    if not isinstance(data, dict):
        raise _fail(where, "Objekt erwartet", "object expected")
    prefix = f"{where}."
    known = {
        "id",
        "space",
        "gear",
        "wear",
        "tyre",
        "tyre_laps",
        "profile",
        "status",
        "corner_stops",
        "laps",
        "box",
        "name",
        "team",
    }
    for key in data:
        if key not in known:
            raise _fail(f"{prefix}{clip(key, 40)}", "unbekanntes Feld", "unknown field")
    wear_data = _get(data, "wear", dict, prefix)
    try:
        wear = Wear.from_mapping(wear_data)
    except RennleitungError as error:
        raise _fail(f"{prefix}wear", error.de, error.en) from None
    gear = _opt(data, "gear", int, 0, prefix)
    if not 0 <= gear <= 6:
        raise _fail(f"{prefix}gear", "Gang muss 0 bis 6 sein", "gear must be 0 to 6")
    for key in ("tyre_laps", "corner_stops", "laps", "box"):
        if _opt(data, key, int, 0, prefix) < 0:
            raise _fail(f"{prefix}{key}", "darf nicht negativ sein", "must not be negative")
        if _opt(data, key, int, 0, prefix) > MAX_LAPS:
            raise _fail(f"{prefix}{key}", f"höchstens {MAX_LAPS}", f"at most {MAX_LAPS}")
    for key in ("id", "name", "team"):
        text = _opt(data, key, str, "", prefix)
        if len(text) > MAX_NAME:
            raise _fail(
                f"{prefix}{key}", f"höchstens {MAX_NAME} Zeichen", f"at most {MAX_NAME} characters"
            )
    if "id" in data and not _get(data, "id", str, prefix).strip():
        raise _fail(f"{prefix}id", "leere Auto-Id", "empty car id")
    box = _opt(data, "box", int, 0, prefix)
    if box > len(track.boxes):
        raise _fail(
            f"{prefix}box",
            f"die Strecke hat nur {len(track.boxes)} Boxen",
            f"the track has only {len(track.boxes)} boxes",
        )
    space = _space(track, _get(data, "space", str, prefix), f"{prefix}space")
    corner = track.corner_of(space)
    stops = _opt(data, "corner_stops", int, 0, prefix)
    if stops and (corner is None or stops > corner.stops):
        raise _fail(
            f"{prefix}corner_stops",
            "mehr Stopps als die Kurve verlangt (oder keine Kurve)",
            "more stops than the corner asks for (or not in a corner)",
        )
    return CarState(
        id=_get(data, "id", str, prefix),
        space=space,
        gear=gear,
        wear=wear,
        tyre=_enum(Tyre, _opt(data, "tyre", str, "hard", prefix), f"{prefix}tyre"),
        tyre_laps=_opt(data, "tyre_laps", int, 0, prefix),
        profile=_enum(
            DriverProfile, _opt(data, "profile", str, "normal", prefix), f"{prefix}profile"
        ),
        status=_enum(CarStatus, _opt(data, "status", str, "running", prefix), f"{prefix}status"),
        corner_stops=stops,
        laps=_opt(data, "laps", int, 0, prefix),
        box=box,
        name=_opt(data, "name", str, "", prefix),
        team=_opt(data, "team", str, "", prefix),
    )


def position_from_data(data: Any, load_track: TrackLoader = builtin_track) -> Position:
    """Build a ``Position`` from parsed JSON, validating every field."""
    if not isinstance(data, dict):
        raise _fail("position", "JSON-Objekt erwartet", "JSON object expected")
    fmt = data.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise _fail("format", f"unbekanntes Format {clip(fmt)!r}", f"unknown format {clip(fmt)!r}")
    track_ref = _get(data, "track", str, "")
    try:
        track = load_track(track_ref)
    except RennleitungError as error:
        raise _fail("track", error.de, error.en) from None
    try:
        ruleset = get_ruleset(_opt(data, "ruleset", str, "dresden-2006", ""))
    except RennleitungError as error:
        raise _fail("ruleset", error.de, error.en) from None
    weather = _enum(Weather, _opt(data, "weather", str, "sun", ""), "weather")
    cars_data = _get(data, "cars", list, "")
    if len(cars_data) > MAX_CARS:
        raise _fail("cars", f"höchstens {MAX_CARS} Autos", f"at most {MAX_CARS} cars")
    cars = tuple(_car(track, c, f"cars[{n}]") for n, c in enumerate(cars_data))
    seen: dict[str, int] = {}
    spaces: dict[int, int] = {}
    for n, car in enumerate(cars):
        if car.id in seen:
            raise _fail(
                f"cars[{n}].id", f"doppelte Auto-Id {car.id!r}", f"duplicate car id {car.id!r}"
            )
        seen[car.id] = n
        if car.status.on_track:
            if car.space in spaces:
                raise _fail(
                    f"cars[{n}].space",
                    f"Feld schon von cars[{spaces[car.space]}] besetzt",
                    f"space already taken by cars[{spaces[car.space]}]",
                )
            spaces[car.space] = n
    dangerous_data = _opt(data, "dangerous", list, [], "")
    dangerous = frozenset(
        _space(track, name, f"dangerous[{n}]") for n, name in enumerate(dangerous_data)
    )
    to_move = _opt(data, "to_move", str, "", "")
    if to_move and to_move not in seen:
        raise _fail("to_move", f"kein Auto {clip(to_move)!r}", f"no car {clip(to_move)!r}")
    laps = _opt(data, "laps", int, ruleset.laps, "")
    if not 1 <= laps <= MAX_LAPS:
        raise _fail("laps", f"1 bis {MAX_LAPS} Runden", f"1 to {MAX_LAPS} laps")
    if not 0 <= _opt(data, "round", int, 0, "") <= MAX_ROUND:
        raise _fail("round", f"0 bis {MAX_ROUND}", f"0 to {MAX_ROUND}")
    known = {
        "format",
        "track",
        "ruleset",
        "weather",
        "cars",
        "dangerous",
        "to_move",
        "laps",
        "round",
    }
    for key in data:
        if key not in known:
            raise _fail(clip(key, 40), "unbekanntes Feld", "unknown field")
    return Position(
        track=track,
        track_ref=track_ref,
        ruleset=ruleset,
        weather=weather,
        cars=cars,
        dangerous=dangerous,
        to_move=to_move,
        laps=laps,
        round=_opt(data, "round", int, 0, ""),
    )


def parse_position(text: str, load_track: TrackLoader = builtin_track) -> Position:
    """Parse the JSON text of a position."""
    try:
        data = load_json(text, "")
    except RennleitungError as error:
        raise PositionError(error.de, error.en, error.where) from None
    return position_from_data(data, load_track)


def position_to_data(position: Position) -> dict[str, Any]:
    """The JSON-ready form of a position (spaces by name, sorted where order is free)."""
    name = position.track.name_of
    return {
        "format": POSITION_FORMAT,
        "track": position.track_ref,
        "ruleset": position.ruleset.name,
        "weather": position.weather.value,
        "laps": position.laps,
        "round": position.round,
        "to_move": position.to_move,
        "dangerous": sorted(name(s) for s in position.dangerous),
        "cars": [car_to_data(position.track, car) for car in position.cars],
    }


def car_to_data(track: Track, car: CarState) -> dict[str, Any]:
    """One car in the JSON form of ``cars`` (also the race state's, ``race_state_json``)."""
    return {
        "id": car.id,
        "space": track.name_of(car.space),
        "gear": car.gear,
        "tyre": car.tyre.value,
        "tyre_laps": car.tyre_laps,
        "wear": {area.value: car.wear[area] for area in WearArea} | {"box": car.wear.box},
        "profile": car.profile.value,
        "status": car.status.value,
        "corner_stops": car.corner_stops,
        "laps": car.laps,
        "box": car.box,
        **({"name": car.name} if car.name else {}),
        **({"team": car.team} if car.team else {}),
    }


def car_from_data(track: Track, data: Any, where: str) -> CarState:
    """One car from the JSON form of ``cars``, every field checked; errors name ``where``."""
    return _car(track, data, where)


def position_to_json(position: Position) -> str:
    """The position as indented JSON text."""
    return json.dumps(position_to_data(position), indent=2, ensure_ascii=False) + "\n"
