"""Each driver's score per race: place, race points, qualifying points, dropped or not.

The building block of every table: drivers', constructors' and city standings and the points
chart all read these rows. An absent driver has a row with no place and no points; a car driven
by a team-mate scores for its own driver ("Rennen").
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.league.drops import dropped_races
from rennleitung.league.points import race_points
from rennleitung.league.race_result import FinishStatus
from rennleitung.league.season import League


@dataclass(frozen=True)
class RaceScore:
    """One driver in one held race."""

    race: int
    position: int | None
    """Classified place; None if the car did not start."""
    race_points: int
    qualifying_points: int
    dropped: bool = False
    driven_by: str | None = None
    finished: bool = False
    """The car saw the flag; only then is a first place a win (``docs/league/rules.md``)."""

    @property
    def won(self) -> bool:
        """First place with a classified finish: a retired car placed first has not won."""
        return self.position == 1 and self.finished

    @property
    def points(self) -> int:
        """Race and qualifying points of this race together."""
        return self.race_points + self.qualifying_points


def race_scores(league: League, driver: str) -> tuple[RaceScore, ...]:
    """The driver's row for every held race, drops marked."""
    fmt = league.format
    rows: list[RaceScore] = []
    for result in league.races:
        qualifying = league.qualifying_of(result.race)
        quali = qualifying.points_of(driver) if qualifying is not None else 0
        entry = result.result_of(driver)
        if entry is None:
            # Qualifying points belong to a race the driver started (a non-starter has none).
            rows.append(RaceScore(result.race, None, 0,
                                  0 if driver in result.did_not_start else quali))
            continue
        points = race_points(fmt, entry.position, entry.laps_completed)
        rows.append(RaceScore(result.race, entry.position, points, quali, False, entry.driven_by,
                              entry.status is FinishStatus.FINISHED))
    dropped = dropped_races(
        fmt,
        {row.race: row.points for row in rows},
        league.held_races(),
        league.named_drops.get(driver, ()),
    )
    return tuple(
        RaceScore(r.race, r.position, r.race_points, r.qualifying_points, r.race in dropped,
                  r.driven_by, r.finished)
        for r in rows
    )
