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
    Elimination.BLOCKED_UNPAID_MASTERS: Retirement.BLOCKED,
}
"""A move's elimination as a retirement reason."""

BLOCKED_RULE_MASTERS = "Masters 12-1-1, 20-2"
"""What a retirement for blocking cites under a ruleset that cites the Masters rules only
(``Ruleset.blocking_cites_masters``; issue 22)."""


def rule_of(reason: Retirement, masters_blocking: bool) -> str:
    """The rule a retirement cites: ``reason.rule``, or the Masters rule for a blocking."""
    if masters_blocking and reason is Retirement.BLOCKED:
        return BLOCKED_RULE_MASTERS
    return reason.rule


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
    r: r in (Retirement.BLOCKED, Retirement.BODY, Retirement.ENGINE) for r in Retirement
}
"""Whether the retirement puts a dangerous-space sticker under the car. A car that runs dry
does not: it "bleibt als normales Wrack liegen" (Dresden Verschleiß; decision "A car that runs
dry", issue 22); the wreck still counts for collision tests."""
