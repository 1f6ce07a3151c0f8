"""Race results and qualifying laps from the organiser's CSV and the JSON contract."""

from __future__ import annotations

import json

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.league.race_result import FinishStatus, InRaceKarma, InRaceKarmaKind
from rennleitung.league.race_result_codec import (
    qualifying_laps_from_csv,
    race_result_from_csv,
    race_result_from_json,
    race_result_to_json,
)

RACE_CSV = """driver,grid,position,laps,status,driven_by,laps_most_led,karma
Anna,3,1,,,,2,twenty plus-one twenty
Ben,1,2,3,ziel,Anna,1,head-to-head:5
Clara,2,3,1,ausfall,,,
"""


def test_race_csv() -> None:
    result = race_result_from_csv(RACE_CSV, race=4, laps=3, track="Monaco")
    anna, ben, clara = result.drivers
    assert (result.race, result.laps, result.track) == (4, 3, "Monaco")
    assert (anna.grid, anna.position, anna.laps_completed, anna.status) == (
        3, 1, 3, FinishStatus.FINISHED
    )
    assert [k.kind for k in anna.karma] == [
        InRaceKarmaKind.TWENTY_ROLLED, InRaceKarmaKind.PLUS_ONE, InRaceKarmaKind.TWENTY_ROLLED
    ]
    assert ben.driven_by == "Anna"
    assert ben.karma == (InRaceKarma(InRaceKarmaKind.HEAD_TO_HEAD, 5),)
    assert (clara.status, clara.laps_completed, clara.laps_most_led) == (
        FinishStatus.RETIRED, 1, 0
    )


def test_json_round_trip_through_text() -> None:
    result = race_result_from_csv(RACE_CSV, race=4)
    text = json.dumps(race_result_to_json(result))
    assert race_result_from_json(json.loads(text)) == result


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("driver,grid\nAnna,1\n", "line 1"),
        ("driver,grid,position\n", "line 2"),
        ("driver,grid,position\nAnna,x,1\n", "line 2, grid"),
        ("driver,grid,position,status\nAnna,1,1,crashed\n", "line 2, status"),
        ("driver,grid,position,karma\nAnna,1,1,lucky\n", "line 2, karma"),
        ("driver,grid,position,karma\nAnna,1,1,head-to-head:x\n", "line 2, karma"),
    ],
)
def test_bad_race_csv(text: str, where: str) -> None:
    with pytest.raises(RennleitungError) as error:
        race_result_from_csv(text, race=1)
    assert error.value.where == where
    assert error.value.de != error.value.en


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"drivers": []}, "json"),
        ({"race": 1}, "json"),
        ({"race": 1, "drivers": [{"driver": "A"}]}, "drivers[1]"),
        ({"race": 1, "source": "dream", "drivers": []}, "source"),
    ],
)
def test_bad_json(data: dict[str, object], where: str) -> None:
    with pytest.raises(RennleitungError) as error:
        race_result_from_json(data)
    assert error.value.where == where


def test_qualifying_csv() -> None:
    laps = qualifying_laps_from_csv(
        "driver,rolls,penalty_points,errors,lap_time,run,driven_by\n"
        "Anna,41,2,1,3:05.5,1,\n"
        "Ben,39,,,2:59,2,Anna\n"
    )
    assert [(lap.driver, lap.rolls, lap.penalty_points, lap.errors, lap.lap_time_ms, lap.run,
             lap.driven_by) for lap in laps] == [
        ("Anna", 41, 2, 1, 185_500, 1, None),
        ("Ben", 39, 0, 0, 179_000, 2, "Anna"),
    ]
    with pytest.raises(RennleitungError) as error:
        qualifying_laps_from_csv("driver,rolls,lap_time\nAnna,41,soon\n")
    assert error.value.where == "line 2, lap_time"


def test_spreadsheet_csv_with_semicolons_and_byte_order_mark() -> None:
    text = "\ufeffdriver;grid;position;laps;status\r\nAnna;2;1;;\r\nBen;1;2;1;ausfall\r\n"
    result = race_result_from_csv(text, race=1)
    assert [(e.driver, e.grid, e.position, e.laps_completed, e.status) for e in result.drivers] == [
        ("Anna", 2, 1, 3, FinishStatus.FINISHED), ("Ben", 1, 2, 1, FinishStatus.RETIRED)
    ]
    laps = qualifying_laps_from_csv("\ufeffdriver;rolls;lap_time\nAnna;40;3:05,5\n")
    assert laps[0].lap_time_ms == 185_500
