"""Position notation ``rennleitung-position/1``: every kind of malformed document is rejected with
an error that names the field, in German and English; the example positions round-trip."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rennleitung.cli.common import read_position
from rennleitung.formula_de.car import CarStatus, DriverProfile, Tyre, Weather
from rennleitung.formula_de.position import (
    POSITION_FORMAT,
    PositionError,
    parse_position,
    position_from_data,
    position_to_data,
    position_to_json,
)

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "positions").glob("*.json"))

WEAR = {
    "tyres": 6,
    "brakes": 4,
    "fuel": 3,
    "body": 3,
    "engine": 3,
    "road_holding": 1,
    "box": 2,
}


def good() -> dict[str, Any]:
    """A valid position on monaco with two cars (A12 straight, B24 in a 1-stop corner)."""
    return {
        "format": POSITION_FORMAT,
        "track": "monaco",
        "ruleset": "dresden-2006",
        "weather": "rain",
        "laps": 3,
        "round": 7,
        "to_move": "alonso",
        "dangerous": ["B30"],
        "cars": [
            {
                "id": "alonso",
                "space": "A12",
                "gear": 4,
                "tyre": "soft",
                "tyre_laps": 1,
                "wear": dict(WEAR),
                "profile": "light_sprinter",
                "status": "running",
                "corner_stops": 0,
                "laps": 1,
                "box": 2,
                "name": "Fernando",
                "team": "blue",
            },
            {
                "id": "schumacher",
                "space": "B24",
                "gear": 3,
                "wear": dict(WEAR),
                "corner_stops": 1,
            },
        ],
    }


def test_the_good_position_parses() -> None:
    pos = position_from_data(good())
    assert pos.weather is Weather.RAIN
    assert pos.laps == 3 and pos.round == 7 and pos.to_move == "alonso"
    alonso = pos.car("alonso")
    assert pos.track.name_of(alonso.space) == "A12"
    assert (alonso.tyre, alonso.profile, alonso.status) == (
        Tyre.SOFT,
        DriverProfile.LIGHT_SPRINTER,
        CarStatus.RUNNING,
    )
    assert alonso.set_lap == 2
    schumacher = pos.car("schumacher")
    assert (schumacher.tyre, schumacher.corner_stops, schumacher.box) == (Tyre.HARD, 1, 0)
    assert {pos.track.name_of(s) for s in pos.dangerous} == {"B30"}


Edit = Callable[[dict[str, Any]], None]


def _set(*keys: str | int, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return edit


def _drop(*keys: str | int) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return edit


def _second_car_on(space: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["cars"][1]["space"] = space
        data["cars"][1]["corner_stops"] = 0

    return edit


MALFORMED: list[tuple[str, Edit, str]] = [
    ("format", _set("format", value="rennleitung-position/2"), "format"),
    ("track missing", _drop("track"), "track"),
    ("track type", _set("track", value=7), "track"),
    ("track unknown", _set("track", value="nürburgring"), "track"),
    ("ruleset unknown", _set("ruleset", value="formula-1"), "ruleset"),
    ("ruleset type", _set("ruleset", value=["dresden-2006"]), "ruleset"),
    ("weather", _set("weather", value="snow"), "weather"),
    ("cars missing", _drop("cars"), "cars"),
    ("cars type", _set("cars", value={"alonso": {}}), "cars"),
    ("car type", _set("cars", 0, value="alonso"), "cars[0]"),
    ("car unknown field", _set("cars", 0, "colour", value="red"), "cars[0].colour"),
    ("id missing", _drop("cars", 1, "id"), "cars[1].id"),
    ("id type", _set("cars", 1, "id", value=5), "cars[1].id"),
    ("id duplicate", _set("cars", 1, "id", value="alonso"), "cars[1].id"),
    ("space missing", _drop("cars", 0, "space"), "cars[0].space"),
    ("space unknown", _set("cars", 0, "space", value="Z99"), "cars[0].space"),
    ("space type", _set("cars", 0, "space", value=12), "cars[0].space"),
    ("space shared", _second_car_on("A12"), "cars[1].space"),
    ("gear too high", _set("cars", 0, "gear", value=7), "cars[0].gear"),
    ("gear negative", _set("cars", 0, "gear", value=-1), "cars[0].gear"),
    ("gear text", _set("cars", 0, "gear", value="4"), "cars[0].gear"),
    ("gear bool", _set("cars", 0, "gear", value=True), "cars[0].gear"),
    ("wear missing", _drop("cars", 0, "wear"), "cars[0].wear"),
    ("wear type", _set("cars", 0, "wear", value=[6, 4, 3]), "cars[0].wear"),
    ("wear area missing", _drop("cars", 0, "wear", "brakes"), "cars[0].wear"),
    ("wear area unknown", _set("cars", 0, "wear", "wings", value=1), "cars[0].wear"),
    ("wear negative", _set("cars", 0, "wear", "tyres", value=-1), "cars[0].wear"),
    ("wear text", _set("cars", 0, "wear", "body", value="3"), "cars[0].wear"),
    ("tyre", _set("cars", 0, "tyre", value="slick"), "cars[0].tyre"),
    ("tyre_laps negative", _set("cars", 0, "tyre_laps", value=-1), "cars[0].tyre_laps"),
    ("tyre_laps type", _set("cars", 0, "tyre_laps", value=1.5), "cars[0].tyre_laps"),
    ("profile", _set("cars", 0, "profile", value="Rennsau"), "cars[0].profile"),
    ("status", _set("cars", 0, "status", value="flying"), "cars[0].status"),
    ("laps negative", _set("cars", 0, "laps", value=-2), "cars[0].laps"),
    ("box negative", _set("cars", 0, "box", value=-1), "cars[0].box"),
    ("box beyond the pit", _set("cars", 0, "box", value=99), "cars[0].box"),
    ("corner_stops negative", _set("cars", 1, "corner_stops", value=-1), "cars[1].corner_stops"),
    (
        "corner_stops on a straight",
        _set("cars", 0, "corner_stops", value=1),
        "cars[0].corner_stops",
    ),
    (
        "corner_stops above the flag",
        _set("cars", 1, "corner_stops", value=2),
        "cars[1].corner_stops",
    ),
    ("name type", _set("cars", 0, "name", value=3), "cars[0].name"),
    ("team type", _set("cars", 0, "team", value=None), "cars[0].team"),
    ("dangerous type", _set("dangerous", value="B30"), "dangerous"),
    ("dangerous unknown", _set("dangerous", value=["B30", "Q1"]), "dangerous[1]"),
    ("dangerous not a name", _set("dangerous", value=[30]), "dangerous[0]"),
    ("to_move unknown", _set("to_move", value="senna"), "to_move"),
    ("to_move type", _set("to_move", value=1), "to_move"),
    ("laps zero", _set("laps", value=0), "laps"),
    ("laps type", _set("laps", value="3"), "laps"),
    ("round type", _set("round", value=None), "round"),
    ("unknown top-level field", _set("date", value="2006-05-01"), "date"),
]


@pytest.mark.parametrize(("case", "edit", "field"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_position_names_the_field(case: str, edit: Edit, field: str) -> None:
    data = copy.deepcopy(good())
    edit(data)
    with pytest.raises(PositionError) as error:
        parse_position(json.dumps(data))
    assert error.value.where == field, case
    assert error.value.de and error.value.en
    assert error.value.de != error.value.en  # one German, one English text
    assert field in error.value.message_de and field in error.value.message_en


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("{", "Zeile/line 1"),
        ('{"track": "monaco",\n "cars": [}', "Zeile/line 2"),
        ("[]", "position"),
        ('"monaco"', "position"),
    ],
)
def test_not_a_json_object(text: str, where: str) -> None:
    with pytest.raises(PositionError) as error:
        parse_position(text)
    assert error.value.where == where


def test_german_and_english_texts() -> None:
    data = good()
    data["cars"][0]["gear"] = 9
    with pytest.raises(PositionError) as error:
        parse_position(json.dumps(data))
    assert error.value.de == "Gang muss 0 bis 6 sein"
    assert error.value.en == "gear must be 0 to 6"
    data = good()
    del data["cars"]
    with pytest.raises(PositionError) as error:
        parse_position(json.dumps(data))
    assert (error.value.de, error.value.en) == ("Angabe fehlt", "missing field")


def test_cars_out_of_the_race_may_share_a_space() -> None:
    data = good()
    _second_car_on("A12")(data)
    data["cars"][1]["status"] = "out"
    assert len(position_from_data(data).cars) == 2


def test_corner_stops_equal_to_flag_is_accepted() -> None:
    # a car that has made every stop of its corner and stands in it (Masters 7-1-1)
    data = good()
    data["cars"][1]["corner_stops"] = 1  # B24 is in a 1-stop corner
    assert position_from_data(data).car("schumacher").corner_stops == 1


def test_defaults_for_optional_fields() -> None:
    data = {
        "track": "monaco",
        "cars": [{"id": "x", "space": "A12", "wear": dict(WEAR)}],
    }
    pos = position_from_data(data)
    assert pos.ruleset.name == "dresden-2006"
    assert pos.weather is Weather.SUN
    assert pos.laps == pos.ruleset.laps
    assert pos.dangerous == frozenset()
    x = pos.car("x")
    assert (x.gear, x.tyre, x.tyre_laps, x.profile, x.status) == (
        0,
        Tyre.HARD,
        0,
        DriverProfile.NORMAL,
        CarStatus.RUNNING,
    )


def test_unknown_car_is_a_bilingual_error() -> None:
    pos = position_from_data(good())
    with pytest.raises(PositionError) as error:
        pos.car("senna")
    assert error.value.where == "car"
    assert "senna" in error.value.de and "senna" in error.value.en


def test_built_position_round_trips() -> None:
    pos = position_from_data(good())
    text = position_to_json(pos)
    again = parse_position(text)
    assert again == pos
    assert position_to_json(again) == text


def test_there_are_example_positions() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_positions_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    pos = read_position(path)
    assert position_to_data(pos) == json.loads(text)
    again = parse_position(position_to_json(pos), lambda _ref: pos.track)
    assert again == pos
    assert position_to_json(again) == position_to_json(pos)
