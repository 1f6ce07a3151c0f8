"""Shared setup for the storage contract: a small season, typed once."""

from __future__ import annotations

from sqlalchemy import func, select

from rennleitung.league.formats import LeagueKind
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.race_result import (
    DriverRaceResult,
    FinishStatus,
    InRaceKarma,
    InRaceKarmaKind,
    RaceResult,
)
from rennleitung.league.roster import Driver
from rennleitung.store.league_store import LeagueStore
from rennleitung.store.models import Base

SEASON = "Dresden 2006"
TEAMS = {"Rot": ["Anna", "Ben"], "Blau": ["Clara", "Dirk"]}


def build_season(store: LeagueStore, name: str = SEASON) -> None:
    store.create_league(name, LeagueKind.SEASON)
    for team, members in TEAMS.items():
        store.add_team(name, team)
        for member in members:
            profile = DriverProfile.THEORIST if member == "Ben" else DriverProfile.NORMAL
            store.add_driver(name, Driver(member, team, profile, "Dresden"))


def simple_race(number: int, order: list[str]) -> RaceResult:
    """Everybody finishes in ``order`` from a grid in the same order."""
    entries = tuple(
        DriverRaceResult(name, place, place, 3, FinishStatus.FINISHED)
        for place, name in enumerate(order, start=1)
    )
    return RaceResult(number, entries)


def karma_race() -> RaceResult:
    """Anna from 4th to 1st with two 20s and a +1; Dirk out after one lap."""
    return RaceResult(
        1,
        (
            DriverRaceResult("Anna", 4, 1, 3, FinishStatus.FINISHED, laps_most_led=2,
                             karma=(InRaceKarma(InRaceKarmaKind.TWENTY_ROLLED),
                                    InRaceKarma(InRaceKarmaKind.PLUS_ONE),
                                    InRaceKarma(InRaceKarmaKind.TWENTY_ROLLED))),
            DriverRaceResult("Ben", 1, 2, 3, FinishStatus.FINISHED, laps_most_led=1,
                             driven_by="Anna"),
            DriverRaceResult("Clara", 2, 3, 3, FinishStatus.FINISHED),
            DriverRaceResult("Dirk", 3, 4, 1, FinishStatus.RETIRED),
        ),
    )


def row_counts(store: LeagueStore) -> dict[str, int]:
    """Rows per table: proof that a refused input wrote nothing."""
    with store.engine.connect() as connection:
        return {
            table.name: connection.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables
        }
