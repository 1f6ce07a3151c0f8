"""The city ranking of the Open ("Open": "Städtewertung").

Dresden names the ranking but not its formula. Decision: a city's score is the average of the
championship totals (race and qualifying points) of its drivers who started at least one Open
race, so a city neither gains by sending many drivers nor loses by sending few, and a
registered driver who never starts does not halve his city. Ties: the city whose best
driver stands higher in the drivers' table, then a shared rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.ranking import ranked
from rennleitung.league.season import League


@dataclass(frozen=True)
class CityStanding:
    """One line of the city table."""

    rank: int
    city: str
    drivers: tuple[str, ...]
    total_points: int
    score: Fraction
    """Average points per driver of this city."""
    best_driver_rank: int


def city_standings(league: League) -> tuple[CityStanding, ...]:
    """The city table, best city first; drivers without a city are not ranked."""
    drivers = driver_standings(league)
    lines = []
    for city in league.roster.cities():
        members = [d for d in drivers if d.city == city]
        total = sum(d.points for d in members)
        started = [d for d in members if d.places]
        lines.append(
            CityStanding(0, city, tuple(d.driver for d in members), total,
                         Fraction(total, len(started)) if started else Fraction(0),
                         min(d.rank for d in members))
        )

    def key(line: CityStanding) -> tuple[int | Fraction, ...]:
        return (-line.score, line.best_driver_rank)

    ordered = ranked(lines, key=key, name=lambda line: line.city)
    return tuple(
        CityStanding(rank, c.city, c.drivers, c.total_points, c.score, c.best_driver_rank)
        for rank, c in ordered
    )

