"""Who takes part: teams and their drivers, each with a profile and a city, and who changed
team from which race on.

Dresden "Saison" and "Open": teams of up to two drivers; each driver keeps the profile chosen at
the start ("Fahrerprofile"); in the Open every driver belongs to a city ("Städtewertung").
A driver's ``team`` is the team he joined; transfers (``transfers.py``) say where he drives
from a later race on. The roster refuses anything that would break these rules, so no store
ever holds such a league.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rennleitung.errors import RennleitungError
from rennleitung.league.formats import LeagueFormat
from rennleitung.league.profiles import DriverProfile
from rennleitung.league.transfers import Transfer, team_in_race


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
    transfers: tuple[Transfer, ...] = ()
    """Team changes, ordered by race (``transfers.py``)."""

    def with_team(self, name: str) -> Roster:
        """A roster with one more team; names must be new and not empty."""
        clean = _required_name(name, "team", "Teamname", "team name")
        if clean in self.teams:
            raise RennleitungError(
                f"Team {clean!r} gibt es schon", f"team {clean!r} already exists", "team"
            )
        return replace(self, teams=(*self.teams, clean))

    def with_driver(self, driver: Driver, check_size: bool = True) -> Roster:
        """A roster with one more driver; checks team, team size (the team as it stands after
        every transfer; ``check_size=False`` leaves that to ``check_team_sizes`` once the
        transfers are in, as an import does), name and city."""
        name = _required_name(driver.name, "driver", "Fahrername", "driver name")
        if any(d.name == name for d in self.drivers):
            raise RennleitungError(
                f"Fahrer {name!r} gibt es schon", f"driver {name!r} already exists", "driver"
            )
        team = self.team(driver.team)
        members = self.members(team)
        if check_size and len(members) >= self.format.max_team_size:
            raise _team_full(team, members, self.format.max_team_size, "team")
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

    def team_in_race(self, name: str, race: int) -> str:
        """The team the driver drives for in ``race`` (his own team until a transfer)."""
        return team_in_race(self.driver(name).team, self.transfers, name, race)

    def current_team(self, name: str) -> str:
        """The driver's team after every transfer entered (the last race's team)."""
        return self.team_in_race(name, self.format.races)

    def members(self, team: str, race: int | None = None) -> tuple[str, ...]:
        """Names of the drivers of a team in ``race`` (None: after every transfer), in the
        order they joined the league."""
        return tuple(
            d.name for d in self.drivers
            if (self.current_team(d.name) if race is None else self.team_in_race(d.name, race))
            == team
        )

    def ever_members(self, team: str) -> tuple[str, ...]:
        """Every driver who drives for the team in some race of the season."""
        return tuple(
            d.name for d in self.drivers
            if any(self.team_in_race(d.name, race) == team
                   for race in range(1, self.format.races + 1))
        )

    def team_mates(self, name: str, race: int | None = None) -> tuple[str, ...]:
        """The other drivers of this driver's team (in ``race``; None: as it stands now)."""
        team = self.current_team(name) if race is None else self.team_in_race(name, race)
        return tuple(n for n in self.members(team, race) if n != name)

    def with_transfer(self, transfer: Transfer) -> Roster:
        """A roster where ``transfer.driver`` drives for ``transfer.team`` from
        ``transfer.from_race`` on; the team must have room in each of those races."""
        self.driver(transfer.driver, "driver")
        team = self.team(transfer.team)
        races = self.format.races
        if not 1 <= transfer.from_race <= races:
            raise RennleitungError(
                f"Wechsel ab Rennen {transfer.from_race}: die Saison hat die Rennen 1 bis "
                f"{races}", f"transfer from race {transfer.from_race}: the season has races 1 "
                f"to {races}", "from_race")
        if any(t.driver == transfer.driver and t.from_race == transfer.from_race
               for t in self.transfers):
            raise RennleitungError(
                f"{transfer.driver} hat schon einen Wechsel ab Rennen {transfer.from_race}",
                f"{transfer.driver} already has a transfer from race {transfer.from_race}",
                "from_race")
        if self.team_in_race(transfer.driver, transfer.from_race) == team:
            raise RennleitungError(
                f"{transfer.driver} fährt in Rennen {transfer.from_race} schon für {team}",
                f"{transfer.driver} already drives for {team} in race {transfer.from_race}",
                "team")
        ordered = sorted((*self.transfers, replace(transfer, team=team)),
                         key=lambda t: (t.from_race, t.driver))
        moved = replace(self, transfers=tuple(ordered))
        moved.check_team_sizes(transfer.from_race)
        return moved

    def without_transfer(self, driver: str, from_race: int) -> Roster:
        """A roster without the driver's transfer from that race (one typed by mistake)."""
        self.driver(driver, "driver")
        kept = tuple(t for t in self.transfers
                     if not (t.driver == driver and t.from_race == from_race))
        if len(kept) == len(self.transfers):
            raise RennleitungError(
                f"{driver} hat keinen Wechsel ab Rennen {from_race}",
                f"{driver} has no transfer from race {from_race}", "from_race")
        back = replace(self, transfers=kept)
        back.check_team_sizes(from_race)
        return back

    def check_team_sizes(self, from_race: int = 1) -> None:
        """Refuse a team with more than ``team_size`` drivers in any race from ``from_race``."""
        for race in range(from_race, self.format.races + 1):
            for team in self.teams:
                members = self.members(team, race)
                if len(members) > self.format.max_team_size:
                    raise _team_full(team, members, self.format.max_team_size,
                                     f"race {race}, team")

    def check_stand_in(
        self, driver: str, driven_by: str, where: str, race: int | None = None
    ) -> None:
        """Refuse a stand-in who is no team-mate, or any stand-in where the format has none."""
        if not self.format.team_mate_may_drive:
            raise RennleitungError(
                "in diesem Wettbewerb darf niemand das Auto eines abwesenden Fahrers fahren",
                "in this competition nobody may drive an absent driver's car",
                where,
            )
        if driven_by not in self.team_mates(driver, race):
            raise RennleitungError(
                f"{driven_by!r} ist kein Teamkollege von {driver} und darf das Auto nicht fahren",
                f"{driven_by!r} is not a team-mate of {driver} and may not drive this car",
                where,
            )

    def cities(self) -> tuple[str, ...]:
        """Every city that has a driver, in order of first appearance."""
        return tuple(dict.fromkeys(d.city for d in self.drivers if d.city))


def _team_full(team: str, members: tuple[str, ...], most: int, where: str) -> RennleitungError:
    """A team that already has ``most`` drivers (``members``), or more after a transfer."""
    names = ", ".join(members)
    if len(members) <= most:
        return RennleitungError(
            f"Team {team!r} hat schon {len(members)} Fahrer ({names}); erlaubt sind höchstens "
            f"{most}", f"team {team!r} already has {len(members)} drivers ({names}); at most "
            f"{most} are allowed", where)
    return RennleitungError(
        f"Team {team!r} hätte {len(members)} Fahrer ({names}); erlaubt sind höchstens {most}",
        f"team {team!r} would have {len(members)} drivers ({names}); at most {most} are "
        "allowed", where)


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
