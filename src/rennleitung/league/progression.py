"""Points after each race per driver: the data behind the standings chart.

Each point on a driver's line is his counted total in the table as it stood after that race,
drops applied as they were in effect then (``drops.py``).
"""

from __future__ import annotations

from dataclasses import replace

from rennleitung.league.driver_standings import driver_standings
from rennleitung.league.season import League


def points_after_each_race(league: League) -> tuple[tuple[int, dict[str, int]], ...]:
    """(race number, {driver: counted points}) after every held race, in race order."""
    steps = []
    for count, result in enumerate(league.races, start=1):
        so_far = replace(league, races=league.races[:count])
        totals = {line.driver: line.points for line in driver_standings(so_far)}
        steps.append((result.race, totals))
    return tuple(steps)
