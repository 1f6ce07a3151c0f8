"""Qualifying scores ("Qualifizierung"): one timed solo lap per driver, lowest score first.

Score = the number of gear rolls ("Wurfzahl") + penalty points (leaving a corner early) + 10
per error + whole minutes of the lap time, then the profile adjustment (Theoretiker −1,
Praktiker +1).
The lap time breaks ties. A lap run on the server has no errors (a move the server refuses is
not an error, decisions file); a lap driven on a real table is entered by the organiser.
"""

from __future__ import annotations

from dataclasses import dataclass

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.qualifying import qualifying_score as engine_score
from rennleitung.formula_de.ruleset import DRESDEN_2006, Ruleset
from rennleitung.league.profiles import DriverProfile

POINTS_PER_ERROR = DRESDEN_2006.qualifying_error_points
"""Dresden "Qualifizierung": each error costs 10 points (ruleset ``qualifying_error_points``)."""

# Bounds far beyond any real lap, so nonsense is refused the same way on every database.
MAX_ROLLS = 10_000
MAX_ERRORS = 1_000
MAX_LAP_TIME_MS = 24 * 60 * 60 * 1000


@dataclass(frozen=True)
class QualifyingLap:
    """One qualifying lap of one driver in one run (``run`` 1 or, in the Open, 2)."""

    driver: str
    rolls: int
    """How many times the gear die was rolled in the lap (Dresden "Wurfzahl")."""
    penalty_points: int
    lap_time_ms: int
    errors: int = 0
    run: int = 1
    driven_by: str | None = None
    """The team-mate who drove the lap for an absent driver ("Rennen")."""


def qualifying_score(
    lap: QualifyingLap, profile: DriverProfile, ruleset: Ruleset = DRESDEN_2006
) -> int:
    """The score of a lap (lower is better), before the lap time breaks ties: the race
    engine's one formula with the ruleset's points per error and per minute (Dresden
    "Qualifizierung"; ``formula_de.qualifying.qualifying_score``)."""
    return engine_score(
        lap.rolls, lap.penalty_points, lap.lap_time_ms, profile, ruleset, errors=lap.errors
    )


def check_lap(lap: QualifyingLap, max_runs: int) -> None:
    """Refuse impossible numbers, naming the field."""
    where = f"qualifying, {lap.driver}"
    for field, value, least, most, label_de, label_en in (
        ("rolls", lap.rolls, 1, MAX_ROLLS, "Würfe", "rolls"),
        ("penalty_points", lap.penalty_points, 0, MAX_ROLLS, "Strafpunkte", "penalty points"),
        ("errors", lap.errors, 0, MAX_ERRORS, "Fehler", "errors"),
        ("lap_time", lap.lap_time_ms, 1, MAX_LAP_TIME_MS, "Rundenzeit (ms)", "lap time (ms)"),
    ):
        if not least <= value <= most:
            raise RennleitungError(
                f"{label_de} muss zwischen {least} und {most} liegen, nicht {value}",
                f"{label_en} must be between {least} and {most}, not {value}",
                f"{where}, {field}",
            )
    if not 1 <= lap.run <= max_runs:
        raise RennleitungError(
            f"Lauf {lap.run} gibt es nicht (1 bis {max_runs})",
            f"there is no run {lap.run} (1 to {max_runs})",
            f"{where}, run",
        )


MAX_LAP_TIME_MS = 24 * 60 * 60 * 1000
"""A lap time beyond a day is a typing error, not a qualifying lap."""


def parse_lap_time(text: str, where: str = "lap_time") -> int:
    """Read ``m:ss``, ``m:ss.f`` or plain seconds into milliseconds."""
    clean = text.strip().replace(",", ".")
    try:
        if ":" in clean:
            minutes_text, seconds_text = clean.split(":", 1)
            minutes, seconds = int(minutes_text), float(seconds_text)
            if not 0 <= seconds < 60:
                raise ValueError(clean)
        else:
            minutes, seconds = 0, float(clean)
        total = round((minutes * 60 + seconds) * 1000)
    except (ValueError, OverflowError):  # not a number, NaN, or an infinity ("1e999")
        total = -1
    if not 0 < total <= MAX_LAP_TIME_MS:
        raise RennleitungError(
            f"Rundenzeit {text!r} nicht lesbar; Beispiel 3:25.4",
            f"cannot read lap time {text!r}; example 3:25.4",
            where,
        )
    return total


def format_lap_time(lap_time_ms: int) -> str:
    """Milliseconds as ``m:ss.mmm``."""
    minutes, rest = divmod(lap_time_ms, 60_000)
    return f"{minutes}:{rest // 1000:02d}.{rest % 1000:03d}"
