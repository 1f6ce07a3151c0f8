"""Who takes part: teams and their drivers, each with a profile and a city.

Dresden "Saison" and "Open": teams of up to two drivers; each driver keeps the profile chosen at
the start ("Fahrerprofile"); in the Open every driver belongs to a city ("Städtewertung").
The roster refuses anything that would break these rules, so no store ever holds such a league.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueFormat
from rennleitung.league.profiles import DriverProfile


@dataclass(frozen=True)
class Driver:
    """A driver of the league: name (unique in the league), team, profile, city."""

    name: str
    team: str
    profile: DriverProfile = DriverProfile.NORMAL
    city: str = ""


@dataclass(frozen=True)
class Roster:
    """The teams and drivers of one league, always valid for its format."""

    format: LeagueFormat
    teams: tuple[str, ...] = ()
    drivers: tuple[Driver, ...] = ()

    def with_team(self, name: str) -> Roster:
        """A roster with one more team; names must be new and not empty."""
        clean = _required_name(name, "team", "Teamname", "team name")
        if clean in self.teams:
            raise RennleitungError(
                f"Team {clean!r} gibt es schon", f"team {clean!r} already exists", "team"
            )
        return replace(self, teams=(*self.teams, clean))

    def with_driver(self, driver: Driver) -> Roster:
        """A roster with one more driver; checks team, team size, name and city."""
        name = _required_name(driver.name, "driver", "Fahrername", "driver name")
        if any(d.name == name for d in self.drivers):
            raise RennleitungError(
                f"Fahrer {name!r} gibt es schon", f"driver {name!r} already exists", "driver"
            )
        team = self.team(driver.team)
        members = self.members(team)
        if len(members) >= self.format.max_team_size:
            raise RennleitungError(
                f"Team {team!r} hat schon {len(members)} Fahrer ({', '.join(members)}); "
                f"erlaubt sind höchstens {self.format.max_team_size}",
                f"team {team!r} already has {len(members)} drivers ({', '.join(members)}); "
                f"at most {self.format.max_team_size} are allowed",
                "team",
            )
        city = driver.city.strip()
        check_length(city, "city", "Stadtname", "city name")
        if self.format.city_ranking and not city:
            raise RennleitungError(
                "im Open gehört jeder Fahrer zu einer Stadt; bitte die Stadt angeben",
                "in the Open every driver belongs to a city; please give the city",
                "city",
            )
        return replace(self, drivers=(*self.drivers, replace(driver, name=name, city=city)))

    def team(self, name: str) -> str:
        """The team of that name, or a clear error."""
        if name not in self.teams:
            known = ", ".join(self.teams) or "-"
            raise RennleitungError(
                f"unbekanntes Team {name!r} (bekannt: {known})",
                f"unknown team {name!r} (known: {known})",
                "team",
            )
        return name

    def driver(self, name: str, where: str = "driver") -> Driver:
        """The driver of that name, or a clear error naming the field."""
        for driver in self.drivers:
            if driver.name == name:
                return driver
        raise RennleitungError(
            f"unbekannter Fahrer {name!r}", f"unknown driver {name!r}", where
        )

    def members(self, team: str) -> tuple[str, ...]:
        """Names of the drivers of a team, in the order they joined."""
        return tuple(d.name for d in self.drivers if d.team == team)

    def team_mates(self, name: str) -> tuple[str, ...]:
        """The other drivers of this driver's team."""
        team = self.driver(name).team
        return tuple(n for n in self.members(team) if n != name)

    def check_stand_in(self, driver: str, driven_by: str, where: str) -> None:
        """Refuse a stand-in who is no team-mate, or any stand-in where the format has none."""
        if not self.format.team_mate_may_drive:
            raise RennleitungError(
                "in diesem Wettbewerb darf niemand das Auto eines abwesenden Fahrers fahren",
                "in this competition nobody may drive an absent driver's car",
                where,
            )
        if driven_by not in self.team_mates(driver):
            raise RennleitungError(
                f"{driven_by!r} ist kein Teamkollege von {driver} und darf das Auto nicht fahren",
                f"{driven_by!r} is not a team-mate of {driver} and may not drive this car",
                where,
            )

    def cities(self) -> tuple[str, ...]:
        """Every city that has a driver, in order of first appearance."""
        return tuple(dict.fromkeys(d.city for d in self.drivers if d.city))


MAX_NAME_LENGTH = 100
"""Longest team, driver or city name (the store's columns are sized for it)."""


def _required_name(text: str, where: str, label_de: str, label_en: str) -> str:
    clean = text.strip()
    if not clean:
        raise RennleitungError(f"{label_de} fehlt", f"{label_en} is missing", where)
    check_length(clean, where, label_de, label_en)
    return clean


def check_length(text: str, where: str, label_de: str, label_en: str) -> None:
    """Refuse a name longer than ``MAX_NAME_LENGTH`` characters."""
    if len(text) > MAX_NAME_LENGTH:
        raise RennleitungError(
            f"{label_de} ist länger als {MAX_NAME_LENGTH} Zeichen",
            f"{label_en} is longer than {MAX_NAME_LENGTH} characters",
            where,
        )
