"""The karma a driver earns at the end of a race (Dresden Karmapool), and who led most in a lap.

The one home of these figures: the race engine pays them when the flag falls
(``race/finish.py``), and the league's karma ledger books them for every race of a season, also
for races played on a real table (``league/karma.py``, ``league/lap_leaders.py``).

Income at the end of the race: one karma per ``karma_points_per_karma`` championship points,
``karma_per_place_gained`` per place gained from grid to finish (only a car that finished gains
places; a decision where Dresden is silent), and ``karma_most_laps_led`` per lap of the race in
which the car led at the end of the most rounds of play (rule decision "meiste
Führungsrunden in einer Rennrunde"; tied cars all earn it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from rennleitung.formula_de.ruleset import Ruleset


@dataclass(frozen=True)
class EndOfRaceKarma:
    """The three parts of a driver's end-of-race income under one ruleset."""

    points: int
    places: int
    laps_led: int

    @property
    def total(self) -> int:
        return self.points + self.places + self.laps_led


def places_gained(grid: int, position: int, finished: bool) -> int:
    """Places gained from grid to finish; none for a car that did not finish."""
    return max(grid - position, 0) if finished else 0


def end_of_race_karma(rules: Ruleset, points: int, grid: int, position: int, finished: bool,
                      laps_most_led: int) -> EndOfRaceKarma:
    """What a driver earns when the flag falls (Dresden Karmapool)."""
    return EndOfRaceKarma(
        points=points // max(rules.karma_points_per_karma, 1),
        places=places_gained(grid, position, finished) * rules.karma_per_place_gained,
        laps_led=laps_most_led * rules.karma_most_laps_led,
    )


def laps_most_led(rounds_led: Mapping[str, Mapping[int, int]]) -> dict[str, int]:
    """Per car (or driver), the number of race laps in which it led the most rounds of play.

    ``rounds_led[car][lap]`` counts the rounds of play at whose end ``car`` led while on
    ``lap``. In each lap the most rounds led earn the lap; tied cars all earn it. A car that
    earned no lap is left out.
    """
    laps = sorted({lap for by_lap in rounds_led.values() for lap, n in by_lap.items() if n})
    earned: Counter[str] = Counter()
    for lap in laps:
        best = max(by_lap.get(lap, 0) for by_lap in rounds_led.values())
        for car, by_lap in rounds_led.items():
            if by_lap.get(lap, 0) == best:
                earned[car] += 1
    return dict(earned)
