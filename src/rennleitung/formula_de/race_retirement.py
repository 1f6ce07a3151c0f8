"""Why a car leaves the race, with the rule that says so; the classification lists these."""

from __future__ import annotations

from enum import Enum

from rennleitung.formula_de.events import Cause
from rennleitung.formula_de.movement import Elimination


class Retirement(Enum):
    """Every way to retire: value = (rule, German reason, English reason)."""

    MISSED_STOPS = ("Masters 10-1, 20-1", "zwei oder mehr Kurvenstopps fehlen", "missed stops")
    TYRES = ("Dresden Verschleiß; Masters 10-3, 20-1", "Reifenschaden", "tyre failure")
    BLOCKED = ("Dresden Blockierte Spur; Masters 20-2", "blockiert", "blocked")
    BODY = ("Dresden Verschleiß; Masters 14-2, 20-3", "Karosserieschaden", "body damage")
    ENGINE = ("Dresden Verschleiß, Ausfälle; Masters 16, 20-4", "Motorschaden", "engine failure")
    ROAD_HOLDING = ("Dresden Verschleiß; Masters 20-5", "Straßenlage verloren", "road holding")
    FUEL = ("Dresden Verschleiß", "ohne Benzin ausgerollt", "ran out of fuel")

    @property
    def rule(self) -> str:
        return self.value[0]

    @property
    def cause(self) -> Cause:
        """The code the events carry for this retirement."""
        return _CAUSES[self]

    @property
    def text_de(self) -> str:
        return self.value[1]

    @property
    def text_en(self) -> str:
        return self.value[2]


_CAUSES: dict[Retirement, Cause] = {
    Retirement.MISSED_STOPS: Cause.MISSED_STOPS,
    Retirement.TYRES: Cause.TYRE_FAILURE,
    Retirement.BLOCKED: Cause.BLOCKED,
    Retirement.BODY: Cause.BODY_DAMAGE,
    Retirement.ENGINE: Cause.ENGINE_FAILURE,
    Retirement.ROAD_HOLDING: Cause.ROAD_HOLDING_LOST,
    Retirement.FUEL: Cause.OUT_OF_FUEL,
}

FROM_ELIMINATION: dict[Elimination, Retirement] = {
    Elimination.MISSED_STOPS: Retirement.MISSED_STOPS,
    Elimination.TYRES_OVERSHOOT: Retirement.TYRES,
    Elimination.BLOCKED_TOO_FAR: Retirement.BLOCKED,
    Elimination.BLOCKED_UNPAID: Retirement.BLOCKED,
}
"""A move's elimination as a retirement reason."""

LEAVES_WRECK: dict[Retirement, bool] = {
    Retirement.MISSED_STOPS: False,  # Masters 20-1: removed on the spot, no sticker
    Retirement.TYRES: False,
    Retirement.BLOCKED: True,  # Masters 20-2-2
    Retirement.BODY: True,  # Masters 20-3-2
    Retirement.ENGINE: True,  # Masters 20-4-2; Dresden Ausfälle
    Retirement.ROAD_HOLDING: False,  # Masters 20-5-2
    Retirement.FUEL: True,  # Dresden Verschleiß: "bleibt als normales Wrack liegen"
}
"""Whether the car stays on the track as a wreck (with a dangerous space) or is removed, in
``masters-2002``; in the Dresden presets (``wreck_removal`` when_passed) every retired car
stays as a wreck (Dresden "Ausfälle")."""

MARKS_DANGER: dict[Retirement, bool] = {
    r: r in (Retirement.BLOCKED, Retirement.BODY, Retirement.ENGINE, Retirement.FUEL)
    for r in Retirement
}
"""Whether the retirement puts a dangerous-space sticker under the car."""
