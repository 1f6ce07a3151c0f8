"""Every bad roster or race input is refused with a German and English message naming the field."""

from __future__ import annotations

from dataclasses import replace

import pytest
from league_builders import race, roster

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import DRESDEN_OPEN, DRESDEN_SEASON_2006, parse_kind
from rennleitung.league.profiles import DriverProfile, engine_name, parse_profile
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
)
from rennleitung.league.roster import Driver, Roster
from rennleitung.league.season import League


def teams() -> Roster:
    return roster(DRESDEN_SEASON_2006, {"Rot": ["Anna", "Ben"], "Blau": ["Clara"]})


def assert_refused(error: RennleitungError, where: str, *words: str) -> None:
    assert error.where == where
    assert error.de != error.en
    for word in words:
        assert word in error.de and word in error.en


def test_third_team_member() -> None:
    with pytest.raises(RennleitungError) as error:
        teams().with_driver(Driver("Dirk", "Rot"))
    assert_refused(error.value, "team", "Rot", "Anna", "Ben")


def test_duplicate_and_unknown_names() -> None:
    with pytest.raises(RennleitungError) as error:
        teams().with_driver(Driver("Anna", "Blau"))
    assert_refused(error.value, "driver", "Anna")
    with pytest.raises(RennleitungError) as error:
        teams().with_team("Rot")
    assert_refused(error.value, "team", "Rot")
    with pytest.raises(RennleitungError) as error:
        teams().with_driver(Driver("Dirk", "Grün"))
    assert_refused(error.value, "team", "Grün")
    with pytest.raises(RennleitungError) as error:
        teams().with_driver(Driver("  ", "Blau"))
    assert_refused(error.value, "driver")


def test_open_driver_needs_a_city() -> None:
    base = Roster(DRESDEN_OPEN).with_team("T")
    with pytest.raises(RennleitungError) as error:
        base.with_driver(Driver("Anna", "T"))
    assert_refused(error.value, "city")
    assert base.with_driver(Driver("Anna", "T", city=" Dresden ")).drivers[0].city == "Dresden"


def test_profile_and_kind_names() -> None:
    assert parse_profile("Schönwetterfahrer") is DriverProfile.FAIR_WEATHER
    assert parse_profile("leichter flitzer") is DriverProfile.LIGHT_SPRINTER
    assert parse_profile("rain_god") is DriverProfile.RAIN_GOD
    assert parse_profile("Theorist") is DriverProfile.THEORIST
    for profile in DriverProfile:
        assert parse_profile(engine_name(profile)) is profile
    assert engine_name(DriverProfile.LIGHT_SPRINTER) == "light_sprinter"
    with pytest.raises(RennleitungError) as error:
        parse_profile("Raser")
    assert_refused(error.value, "profile", "Raser")
    with pytest.raises(RennleitungError) as error:
        parse_kind("cup")
    assert_refused(error.value, "kind", "cup")


def test_race_entered_twice() -> None:
    league = League("s", teams()).with_race(race(1, ["Anna", "Ben"]))
    with pytest.raises(RennleitungError) as error:
        league.with_race(race(1, ["Ben", "Anna"]))
    assert_refused(error.value, "race", "1")
    assert len(league.races) == 1


def entry(driver: str, grid: int, position: int, **changes: object) -> DriverRaceResult:
    base = DriverRaceResult(driver, grid, position, 3, FinishStatus.FINISHED)
    return replace(base, **changes)  # type: ignore[arg-type]


BAD_RACES = [
    (RaceResult(11, (entry("Anna", 1, 1),)), "race"),
    (RaceResult(1, ()), "race 1"),
    (RaceResult(1, (entry("Anna", 1, 1),), laps=0), "race 1, laps"),
    (RaceResult(1, (entry("Zoe", 1, 1),)), "race 1, driver"),
    (RaceResult(1, (entry("Anna", 1, 1), entry("Anna", 2, 2))), "race 1, Anna"),
    (RaceResult(1, (entry("Anna", 1, 1), entry("Ben", 1, 2))), "race 1, grid"),
    (RaceResult(1, (entry("Anna", 1, 1), entry("Ben", 2, 3))), "race 1, position"),
    (RaceResult(1, (entry("Anna", 1, 1, laps_completed=2),)), "race 1, Anna, laps_completed"),
    (
        RaceResult(1, (entry("Anna", 1, 1, status=FinishStatus.RETIRED),)),
        "race 1, Anna, laps_completed",
    ),
    (
        RaceResult(1, (entry("Anna", 1, 1, status=FinishStatus.RETIRED, laps_completed=2),
                       entry("Ben", 2, 2))),
        "race 1, position",
    ),
    (
        RaceResult(1, (entry("Anna", 1, 1, status=FinishStatus.RETIRED, laps_completed=1),
                       entry("Ben", 2, 2, status=FinishStatus.RETIRED, laps_completed=2))),
        "race 1, position",
    ),
    (RaceResult(1, (entry("Anna", 1, 1, driven_by="Clara"),)), "race 1, Anna, driven_by"),
    (RaceResult(1, (entry("Anna", 1, 1, driven_by="Anna"),)), "race 1, Anna, driven_by"),
    (RaceResult(1, (entry("Anna", 1, 1, laps_most_led=4),)), "race 1, Anna, laps_most_led"),
    (
        RaceResult(1, (entry("Anna", 1, 1, karma=(InRaceKarma(InRaceKarmaKind.HEAD_TO_HEAD),)),)),
        "race 1, Anna, karma",
    ),
    (
        RaceResult(1, (entry("Anna", 1, 1,
                             karma=(InRaceKarma(InRaceKarmaKind.REROLL, amount=5),)),)),
        "race 1, Anna, karma",
    ),
]


@pytest.mark.parametrize(("result", "where"), BAD_RACES)
def test_bad_race_result(result: RaceResult, where: str) -> None:
    league = League("s", teams())
    with pytest.raises(RennleitungError) as error:
        league.with_race(result)
    assert_refused(error.value, where)
    assert str(error.value) == f"{where}: {error.value.de} / {error.value.en}"


def test_bad_named_drops() -> None:
    league = League("s", teams())
    for races, word in (((1, 2, 3), "2"), ((4, 4), "4"), ((11,), "11")):
        with pytest.raises(RennleitungError) as error:
            league.with_named_drops("Anna", races)
        assert_refused(error.value, "drops", word)
    with pytest.raises(RennleitungError) as error:
        league.with_named_drops("Zoe", (1,))
    assert_refused(error.value, "drops, driver", "Zoe")


def test_races_are_entered_in_order() -> None:
    league = League("s", teams()).with_race(race(1, ["Anna", "Ben"]))
    with pytest.raises(RennleitungError) as error:
        league.with_race(race(3, ["Ben", "Anna"]))
    assert_refused(error.value, "race", "2")


def test_open_has_no_stand_in_drivers() -> None:
    open_teams = roster(DRESDEN_OPEN, {"T": ["Anna", "Ben"]}, cities={"Anna": "D", "Ben": "D"})
    result = race(1, ["Anna", "Ben"], driven_by={"Anna": "Ben"})
    with pytest.raises(RennleitungError) as error:
        League("o", open_teams).with_race(result)
    assert_refused(error.value, "race 1, Anna, driven_by")
    assert "abwesend" in error.value.de and "absent" in error.value.en
