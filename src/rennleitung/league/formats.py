"""League formats as data: the Dresden season 2006 and the Dresden Open.

Every difference between the two is a field here, never an ``if open:`` elsewhere. Each field
names the Dresden section it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rennleitung.errors import RennleitungError


class LeagueKind(Enum):
    """Which Dresden competition a league follows."""

    SEASON = "season"
    OPEN = "open"


class BoxChoiceBy(Enum):
    """Who chooses a box: a team as a whole, or each driver (Dresden "Rennen")."""

    TEAM = "team"
    DRIVER = "driver"


@dataclass(frozen=True)
class LeagueFormat:
    """The rules of one kind of league."""

    kind: LeagueKind
    races: int
    """Number of races ("Saison": 10; "Open": 3)."""
    min_team_size: int
    max_team_size: int
    """Drivers per team ("Saison": up to two; "Open": one or two)."""
    race_points: tuple[int, ...]
    """Points for places 1..8 ("Rennen": 10-8-6-5-4-3-2-1, in the Open times 100)."""
    min_laps_for_points: int
    """Only drivers with at least this many complete laps score ("Rennen": two)."""
    drop_results: int
    """Results each driver drops ("Rennen": two in the season; the Open has none)."""
    pole_qualifying_points: int
    """Points for pole, one less per place behind ("Open" "Qualifizierung"; 0 = none)."""
    max_qualifying_runs: int
    """Qualifying runs per race ("Open" "Qualifizierung": one or two)."""
    karma_start: int
    """Karma at the start ("Karmapool": 30)."""
    race_points_per_karma: int
    """Championship points that earn one karma point ("Karmapool": 1, Open 100)."""
    box_choice_by: BoxChoiceBy
    """Season: teams choose, best-placed driver first; Open: drivers choose ("Rennen")."""
    city_ranking: bool
    """The Open ranks cities ("Open": "Städtewertung")."""
    team_mate_may_drive: bool
    """A team-mate may drive an absent driver's car ("Saison" "Rennen"; the Open's rules leave
    this out and place only drivers who are present, so the Open does not allow it)."""


DRESDEN_SEASON_2006 = LeagueFormat(
    kind=LeagueKind.SEASON,
    races=10,
    min_team_size=1,
    max_team_size=2,
    race_points=(10, 8, 6, 5, 4, 3, 2, 1),
    min_laps_for_points=2,
    drop_results=2,
    pole_qualifying_points=0,
    max_qualifying_runs=1,
    karma_start=30,
    race_points_per_karma=1,
    box_choice_by=BoxChoiceBy.TEAM,
    city_ranking=False,
    team_mate_may_drive=True,
)

DRESDEN_OPEN = LeagueFormat(
    kind=LeagueKind.OPEN,
    races=3,
    min_team_size=1,
    max_team_size=2,
    race_points=(1000, 800, 600, 500, 400, 300, 200, 100),
    min_laps_for_points=2,
    drop_results=0,
    pole_qualifying_points=100,
    max_qualifying_runs=2,
    karma_start=30,
    race_points_per_karma=100,
    box_choice_by=BoxChoiceBy.DRIVER,
    city_ranking=True,
    team_mate_may_drive=False,
)

FORMATS: dict[LeagueKind, LeagueFormat] = {
    LeagueKind.SEASON: DRESDEN_SEASON_2006,
    LeagueKind.OPEN: DRESDEN_OPEN,
}


def format_for(kind: LeagueKind) -> LeagueFormat:
    """The format preset of a league kind."""
    return FORMATS[kind]


def parse_kind(text: str, where: str = "kind") -> LeagueKind:
    """Read ``season`` or ``open`` (German ``saison`` accepted)."""
    aliases = {"season": LeagueKind.SEASON, "saison": LeagueKind.SEASON, "open": LeagueKind.OPEN}
    kind = aliases.get(text.strip().lower())
    if kind is None:
        raise RennleitungError(
            f"unbekannte Ligaart {text!r}; erlaubt: season (saison), open",
            f"unknown league kind {text!r}; allowed: season (saison), open",
            where,
        )
    return kind
