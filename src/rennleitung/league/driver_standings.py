"""The drivers' championship ("Saison", "Open"): counted points, then countback.

Counted points are every held race's race and qualifying points except the driver's drop
results (``drops.py``). Ties: more wins, then more second places, … over all races held
(``countback.py``); still equal means a shared rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.league.countback import countback_key
from rennleitung.league.race_scores import RaceScore, race_scores
from rennleitung.league.ranking import ranked
from rennleitung.league.season import League


@dataclass(frozen=True)
class DriverStanding:
    """One line of the drivers' table."""

    rank: int
    driver: str
    team: str
    """The team after every transfer (``transfers.py``)."""
    city: str
    points: int
    """Counted points (after drops)."""
    gross_points: int
    """All points, drops included."""
    races: tuple[RaceScore, ...]

    @property
    def places(self) -> tuple[int, ...]:
        """Classified places of the races started."""
        return tuple(r.position for r in self.races if r.position is not None)


def deepest_place(league: League) -> int:
    """The largest field of any race held: how far countback has to look."""
    return max((len(r.drivers) for r in league.races), default=0)


def driver_standings(league: League) -> tuple[DriverStanding, ...]:
    """The drivers' table, leader first."""
    lines = []
    for driver in league.roster.drivers:
        scores = race_scores(league, driver.name)
        counted = sum(r.points for r in scores if not r.dropped)
        gross = sum(r.points for r in scores)
        lines.append(
            DriverStanding(0, driver.name, league.roster.current_team(driver.name), driver.city,
                           counted, gross, scores)
        )
    depth = deepest_place(league)
    ordered = ranked(
        lines,
        key=lambda line: (-line.points, *countback_key(line.places, depth)),
        name=lambda line: line.driver,
    )
    return tuple(
        DriverStanding(rank, s.driver, s.team, s.city, s.points, s.gross_points, s.races)
        for rank, s in ordered
    )
