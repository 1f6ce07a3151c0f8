"""Qualifying run here: one timed solo lap per driver on the board, as league ``QualifyingLap``s.

The weather of each run is rolled with the black die against the track's weather table
(Dresden "Qualifizierung": "Zu Beginn der Qualifizierung ermittelt ein Spieler mit dem
schwarzen Würfel das Wetter"); changeable counts as sun, in the Open's second run as the first
run's weather (``qualifying_weather.py``). Each driver's lap is driven on
``formula_de.qualifying.TimedLap`` with dice of its own, derived from the qualifying seed, so
one driver's lap never changes another's.

Lap times: the engines never read a clock. A person's lap is timed by the caller. A bot has no
honest lap time, so it is given ``seconds_per_roll`` for every roll (**decision**: 5 seconds,
a brisk pace at a real table); its whole minutes then count like anyone's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import DriverProfile as EngineProfile
from rennleitung.formula_de.car import Tyre
from rennleitung.formula_de.dice import BLACK_DIE, Dice
from rennleitung.formula_de.qualifying import QualifyingConfig, TimedLap
from rennleitung.formula_de.qualifying_bot import QualifyingBot, drive_lap
from rennleitung.formula_de.track import Track
from rennleitung.league.profiles import engine_name
from rennleitung.league.qualifying import QualifyingLap
from rennleitung.league.qualifying_weather import Weather
from rennleitung.league.race_run import engine_weather
from rennleitung.league.roster import Driver

SECONDS_PER_ROLL = 5.0
"""Simulated time a bot takes per roll (see the module docstring)."""

@dataclass(frozen=True)
class DriverLap:
    """One driver's lap in one run: the lap as driven, and what the league stores (None when
    the lap was aborted: the driver then takes part in the black-die draw)."""

    driver: str
    run: int
    lap: TimedLap
    result: QualifyingLap | None


def roll_weather(track: Track, dice: random.Random) -> tuple[int, Weather]:
    """One black-die weather roll against the track's table (Masters 3-1; Dresden "Wetter")."""
    roll = BLACK_DIE.faces[dice.randrange(len(BLACK_DIE.faces))]
    return roll, track.weather.weather_for(roll)


def tyre_for(weather: Weather) -> Tyre:
    """The bots' tyres: rain tyres in the rain, else hard (soft tyres double the penalties)."""
    return Tyre.RAIN if weather is Weather.RAIN else Tyre.HARD


def lap_seed(seed: int, race: int, run: int, driver: str) -> str:
    """The dice seed of one driver's lap, derived from the qualifying seed."""
    return f"{seed}:qualifying:{race}:{run}:{driver}"


def to_qualifying_lap(
    lap: TimedLap, driver: str, lap_time_ms: int, run: int = 1, driven_by: str | None = None
) -> QualifyingLap | None:
    """The league's record of a lap driven here; None for an aborted lap. Errors are 0: a move
    the server refuses is not an error (decisions file, "Qualifying online")."""
    if not lap.finished:
        raise RennleitungError(
            "die Runde ist noch nicht beendet", "the lap is not over yet", f"qualifying, {driver}"
        )
    if not lap.completed:
        return None
    if lap_time_ms < 1:
        raise RennleitungError(
            f"Rundenzeit muss mindestens 1 ms sein, nicht {lap_time_ms}",
            f"lap time must be at least 1 ms, not {lap_time_ms}",
            f"qualifying, {driver}, lap_time",
        )
    return QualifyingLap(
        driver=driver,
        rolls=lap.rolls,
        penalty_points=lap.penalty_points,
        lap_time_ms=lap_time_ms,
        errors=0,
        run=run,
        driven_by=driven_by,
    )


def new_lap(
    track: str, ruleset: str, driver: Driver, weather: Weather, seed: str, tyre: Tyre | None = None,
    track_data: Track | None = None,
) -> TimedLap:
    """A fresh timed lap for a league driver (his profile; tyres by default as the bots).

    ``track`` names the track; ``track_data`` is the track itself when it comes from a track
    file rather than the built-in ones (FD Blitz and the league allow any board)."""
    config = QualifyingConfig(
        track=track,
        ruleset=ruleset,
        profile=EngineProfile(engine_name(driver.profile)),
        tyre=tyre if tyre is not None else tyre_for(weather),
        weather=engine_weather(weather),
    )
    return TimedLap(config, Dice.from_seed(seed), track=track_data)


def run_bot_qualifying(
    drivers: Sequence[Driver],
    track: str,
    ruleset: str,
    weather: Sequence[Weather],
    seed: int,
    race: int,
    seconds_per_roll: float = SECONDS_PER_ROLL,
    track_data: Track | None = None,
) -> list[DriverLap]:
    """Every driver's bot lap in every run; ``weather`` is the applied weather per run."""
    if seconds_per_roll <= 0:
        raise RennleitungError(
            "Sekunden je Wurf müssen größer als 0 sein",
            "seconds per roll must be above 0",
            "--seconds-per-roll",
        )
    bot = QualifyingBot()
    laps: list[DriverLap] = []
    for run, run_weather in enumerate(weather, start=1):
        for driver in drivers:
            lap = drive_lap(
                new_lap(track, ruleset, driver, run_weather,
                        lap_seed(seed, race, run, driver.name), track_data=track_data),
                bot,
            )
            time_ms = round(lap.rolls * seconds_per_roll * 1000)
            laps.append(
                DriverLap(driver.name, run, lap, to_qualifying_lap(lap, driver.name, time_ms, run))
            )
    return laps
