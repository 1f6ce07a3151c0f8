"""Small builders so a hand-computed season reads like the organiser's paper sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rennleitung.league.formats import LeagueFormat
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    RaceResult,
)
from rennleitung.league.roster import Driver, Roster
from rennleitung.league.season import League


def roster(
    fmt: LeagueFormat,
    teams: Mapping[str, Sequence[str]],
    profiles: Mapping[str, DriverProfile] | None = None,
    cities: Mapping[str, str] | None = None,
) -> Roster:
    """A roster from {team: [drivers]}."""
    built = Roster(fmt)
    for team, members in teams.items():
        built = built.with_team(team)
        for name in members:
            built = built.with_driver(
                Driver(
                    name,
                    team,
                    (profiles or {}).get(name, DriverProfile.NORMAL),
                    (cities or {}).get(name, ""),
                )
            )
    return built


def race(
    number: int,
    finish_order: Sequence[str],
    grid: Sequence[str] | None = None,
    retired: Mapping[str, int] | None = None,
    driven_by: Mapping[str, str] | None = None,
    laps_most_led: Mapping[str, int] | None = None,
    karma: Mapping[str, Sequence[InRaceKarma]] | None = None,
    laps: int = 3,
) -> RaceResult:
    """A race from its classification; ``retired`` maps a driver to his completed laps."""
    start = list(grid or finish_order)
    retired = retired or {}
    entries = []
    for place, name in enumerate(finish_order, start=1):
        status = FinishStatus.RETIRED if name in retired else FinishStatus.FINISHED
        entries.append(
            DriverRaceResult(
                driver=name,
                grid=start.index(name) + 1,
                position=place,
                laps_completed=retired.get(name, laps),
                status=status,
                driven_by=(driven_by or {}).get(name),
                laps_most_led=(laps_most_led or {}).get(name, 0),
                karma=tuple((karma or {}).get(name, ())),
            )
        )
    return RaceResult(number, tuple(entries), laps=laps)


def league_with(roster_: Roster, races: Sequence[RaceResult], name: str = "test") -> League:
    """A league with the races entered one by one (each checked)."""
    built = League(name, roster_)
    for result in races:
        built = built.with_race(result)
    return built
