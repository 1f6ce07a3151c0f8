"""League formats as data: the Dresden season 2006 and the Dresden Open.

Every difference between the two is a field here, never an ``if open:`` elsewhere. Each field
names the Dresden section it comes from; the figures the race rules also know (points, drops,
karma, qualifying, team size) are read from the format's ruleset, their one home.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.ruleset import Ruleset, get_ruleset


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
    """The rules of one kind of league: the race ruleset it plays under, which is the one home
    of every league figure (points, laps for points, drops, races, team size, qualifying runs
    and pole points, karma), and what only a league has (issue 12: one home per rule)."""

    kind: LeagueKind
    ruleset: Ruleset
    """The race engine's preset; the figures below read it (``rennleitung rules show``)."""
    min_team_size: int
    """Drivers per team, at least ("Saison": up to two; "Open": one or two)."""
    city_ranking: bool
    """The Open ranks cities ("Open": "Städtewertung")."""
    team_mate_may_drive: bool
    """A team-mate may drive an absent driver's car ("Saison" "Rennen"; the Open's rules leave
    this out and place only drivers who are present, so the Open does not allow it)."""

    @property
    def races(self) -> int:
        """Number of races (Dresden Saison: 10; Open: 3): ruleset ``season_races``."""
        return self.ruleset.season_races

    @property
    def max_team_size(self) -> int:
        """Drivers per team, at most (Dresden Saison, Open): ruleset ``team_size``."""
        return self.ruleset.team_size

    @property
    def race_points(self) -> tuple[int, ...]:
        """Points for places 1..8 (Dresden Rennen): ruleset ``points_table``."""
        return self.ruleset.points_table

    @property
    def min_laps_for_points(self) -> int:
        """Complete laps needed to score (Dresden Rennen: two): ruleset ``points_min_laps``."""
        return self.ruleset.points_min_laps

    @property
    def drop_results(self) -> int:
        """Results each driver drops (Dresden Rennen): ruleset ``drop_results``."""
        return self.ruleset.drop_results

    @property
    def pole_qualifying_points(self) -> int:
        """Points for pole, one less per place behind (Open Qualifizierung; 0 = none): ruleset
        ``qualifying_pole_points``."""
        return self.ruleset.qualifying_pole_points

    @property
    def max_qualifying_runs(self) -> int:
        """Qualifying runs per race (Open Qualifizierung: one or two): ruleset
        ``qualifying_runs``."""
        return self.ruleset.qualifying_runs

    @property
    def karma_start(self) -> int:
        """Karma at the start (Dresden Karmapool: 30): ruleset ``karma_start``."""
        return self.ruleset.karma_start

    @property
    def race_points_per_karma(self) -> int:
        """Championship points that earn one karma point (Karmapool: 1, Open 100): ruleset
        ``karma_points_per_karma``."""
        return self.ruleset.karma_points_per_karma

    @property
    def box_choice_by(self) -> BoxChoiceBy:
        """Season: teams choose, best-placed driver first; Open: drivers choose (Dresden Rennen,
        Open Rennen): ruleset ``box_per_driver``."""
        return BoxChoiceBy.DRIVER if self.ruleset.box_per_driver else BoxChoiceBy.TEAM


DRESDEN_SEASON_2006 = LeagueFormat(
    kind=LeagueKind.SEASON,
    ruleset=get_ruleset("dresden-2006"),
    min_team_size=1,
    city_ranking=False,
    team_mate_may_drive=True,
)

DRESDEN_OPEN = LeagueFormat(
    kind=LeagueKind.OPEN,
    ruleset=get_ruleset("dresden-open"),
    min_team_size=1,
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
