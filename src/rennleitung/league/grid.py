"""From qualifying laps to the starting grid ("Qualifizierung").

Drivers with a lap line up by score, then lap time; with two runs (Open) a driver's better lap
counts. Laps equal in score and time to the millisecond are separated by the black die. Every
starter without a lap gets one of the remaining slots by the black-die draw. In the Open the
qualified drivers also score qualifying points (pole 100, one less per place).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.ruleset import Qualifying
from rennleitung.league.black_die import black_die_order
from rennleitung.league.points import qualifying_points
from rennleitung.league.qualifying import QualifyingLap, check_lap, qualifying_score
from rennleitung.league.qualifying_weather import Weather, applied_weather
from rennleitung.league.roster import Roster


@dataclass(frozen=True)
class GridSlot:
    """One place on the grid and how the driver got it."""

    position: int
    driver: str
    score: int | None
    """Qualifying score of the counted lap; None if the slot came from the draw."""
    lap_time_ms: int | None
    qualifying_points: int
    draw_rolls: tuple[int, ...] = ()
    """Black-die rolls made for this slot (draw, or a tie to the millisecond)."""


@dataclass(frozen=True)
class QualifyingResult:
    """The laps entered for one race and the grid they produced."""

    race: int
    laps: tuple[QualifyingLap, ...]
    grid: tuple[GridSlot, ...]
    weather: tuple[Weather, ...] = ()
    """The weather that applied in each run (never changeable), if it was recorded."""
    starters: tuple[str, ...] = ()
    """The starters in the order given: with the laps and the dice seed, the draw can be re-run
    and checked."""

    def race_start_weather_if_changeable(self) -> Weather | None:
        """What changeable weather at the race start means for now: the weather of the last
        qualifying run ("Wetter"; in the Open "der letzten Qualifizierung")."""
        return self.weather[-1] if self.weather else None

    def grid_order(self) -> tuple[str, ...]:
        """Driver names from pole backwards."""
        return tuple(slot.driver for slot in self.grid)

    def points_of(self, driver: str) -> int:
        """Qualifying points of a driver in this race (0 if none)."""
        return next((s.qualifying_points for s in self.grid if s.driver == driver), 0)


def build_qualifying(
    race: int,
    laps: Sequence[QualifyingLap],
    starters: Sequence[str],
    roster: Roster,
    dice: random.Random,
    rolled_weather: Sequence[Weather] = (),
) -> QualifyingResult:
    """Check the laps, rank them and draw the rest: the grid of one race.

    ``rolled_weather`` is the black-die weather result of each run, if recorded; it becomes
    the weather that applied (``qualifying_weather.py``).
    """
    fmt = roster.format
    if fmt.ruleset.qualifying is not Qualifying.TIMED_LAP:
        raise RennleitungError(
            f"{fmt.ruleset.name} stellt das Feld nicht nach Zeitrunden auf",
            f"{fmt.ruleset.name} does not make the grid from timed laps",
            f"{fmt.ruleset.name}.qualifying",
        )
    weather = _run_weather(rolled_weather, fmt.max_qualifying_runs)
    if not 1 <= race <= fmt.races:
        raise RennleitungError(
            f"Rennnummer {race} liegt nicht zwischen 1 und {fmt.races}",
            f"race number {race} is not between 1 and {fmt.races}",
            "race",
        )
    _check_starters(starters, roster)
    best: dict[str, tuple[int, int]] = {}
    seen_runs: set[tuple[str, int]] = set()
    for lap in laps:
        driver = roster.driver(lap.driver, "qualifying, driver")
        check_lap(lap, fmt.max_qualifying_runs)
        where = f"qualifying, {lap.driver}"
        if weather and lap.run > len(weather):
            raise RennleitungError(
                f"für Lauf {lap.run} fehlt das Wetter", f"run {lap.run} has no weather",
                f"{where}, run",
            )
        if lap.driver not in starters:
            raise RennleitungError(
                "Fahrer hat eine Runde, steht aber nicht in der Starterliste",
                "driver has a lap but is not in the list of starters",
                where,
            )
        if (lap.driver, lap.run) in seen_runs:
            raise RennleitungError(
                f"zweite Runde im selben Lauf {lap.run}",
                f"second lap in the same run {lap.run}",
                where,
            )
        seen_runs.add((lap.driver, lap.run))
        if lap.driven_by is not None:
            roster.check_stand_in(lap.driver, lap.driven_by, f"{where}, driven_by", race)
        key = (qualifying_score(lap, driver.profile, fmt.ruleset), lap.lap_time_ms)
        best[lap.driver] = min(best.get(lap.driver, key), key)

    slots: list[GridSlot] = []
    ranked = sorted(best, key=lambda name: (best[name], starters.index(name)))
    for key, group in groupby(ranked, key=lambda name: best[name]):
        tied = list(group)
        drawn = black_die_order(tied, dice) if len(tied) > 1 else ()
        order = [(d.driver, d.rolls) for d in drawn] or [(tied[0], ())]
        for name, rolls in order:
            place = len(slots) + 1
            slots.append(
                GridSlot(place, name, key[0], key[1], qualifying_points(fmt, place), rolls)
            )
    for drawn_slot in black_die_order([s for s in starters if s not in best], dice):
        slots.append(
            GridSlot(len(slots) + 1, drawn_slot.driver, None, None, 0, drawn_slot.rolls)
        )
    return QualifyingResult(race, tuple(laps), tuple(slots), weather, tuple(starters))


def _run_weather(rolled: Sequence[Weather], max_runs: int) -> tuple[Weather, ...]:
    if len(rolled) > max_runs:
        raise RennleitungError(
            f"höchstens {max_runs} Qualifizierungsläufe, Wetter für {len(rolled)} angegeben",
            f"at most {max_runs} qualifying runs, weather given for {len(rolled)}",
            "qualifying, weather",
        )
    return applied_weather(rolled)


def _check_starters(starters: Sequence[str], roster: Roster) -> None:
    if not starters:
        raise RennleitungError(
            "keine Starter angegeben", "no starters given", "qualifying, starters"
        )
    for name in starters:
        roster.driver(name, "qualifying, starters")
    if len(set(starters)) != len(starters):
        raise RennleitungError(
            "ein Fahrer steht zweimal in der Starterliste",
            "a driver is listed twice among the starters",
            "qualifying, starters",
        )
