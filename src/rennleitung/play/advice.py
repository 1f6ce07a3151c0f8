"""What each answer of a turn or a move leaves the driver's car facing, shown before he chooses.

A newcomer ran dry on lap 1 because the gear list never said that skipping gears costs fuel, and
drove a "free" destination into certain elimination (the exit of a 3-stop corner after one
stop). These hints are computed from the engine's own costs (``race_gears.skip_cost``, the move
options' brakes, tyres, fuel, corner stops and tests) and the reader's own car; the faces only
show them (``View`` carries them per question, ``docs/play.md`` "Views").

- A gear: the gears it skips and their cost (Dresden Verschleiß; Masters 13-1, 13-2), and in
  plain words what that leaves: an engine without points fails at once (Masters 16-0-3-1), no
  fuel ends skipping and, with Dresden's fuel per lap, too little fuel for the laps to go rolls
  the car out before the flag unless it refuels; no brake points make it move its full roll.
- A destination: its risk (free, costly, a test with the chance of passing it, certain
  elimination), the corner stops made and needed there, and how many more stops the corner still
  has room for: two or more missing when the car must leave is certain elimination
  (Masters 10-1, 20-1), one missing an overshoot next turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rennleitung.formula_de.car import Wear, WearArea
from rennleitung.formula_de.dice import gear_range
from rennleitung.formula_de.event_text import count
from rennleitung.formula_de.movement import MoveOption
from rennleitung.formula_de.race_gears import gears_skipped, skip_cost
from rennleitung.formula_de.ruleset import Ruleset
from rennleitung.formula_de.track import Track

SKIP_RULE = "Dresden Verschleiß; Masters 13-1, 13-2"
MISSED_STOPS_RULE = "Masters 10-1, 20-1"
DIE_FACES = 20
"""The black die of every test (Masters 14-1, 15, 17)."""


class Risk(StrEnum):
    """How a destination is coloured, from the best to the worst."""

    FREE = "free"
    COSTLY = "costly"
    TEST = "test"
    ELIMINATED = "eliminated"


RISK_ORDER = tuple(Risk)


@dataclass(frozen=True, slots=True)
class Warning:
    """One plain-words warning with its rule; ``code`` names it for scripts."""

    code: str
    rule: str
    de: str
    en: str

    def text(self, lang: str) -> str:
        return f"{self.de if lang == 'de' else self.en} ({self.rule})"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "de": self.de, "en": self.en}


@dataclass(frozen=True, slots=True)
class GearHint:
    """One gear of a turn question: its die, the gears it skips, their cost and warnings."""

    gear: int
    low: int
    high: int
    skipped: int
    cost: tuple[tuple[WearArea, int], ...]
    rule: str
    warnings: tuple[Warning, ...]

    def to_json(self) -> dict[str, Any]:
        return {"gear": self.gear, "die": [self.low, self.high], "skipped": self.skipped,
                "cost": {a.value: p for a, p in self.cost}, "rule": self.rule,
                "warnings": [w.to_json() for w in self.warnings]}


@dataclass(frozen=True, slots=True)
class MoveHint:
    """One move option: its risk, its tests and the chance of passing them all, the corner
    stops made there and needed, the corner spaces still reachable from its end."""

    path: tuple[str, ...]
    end: str
    risk: Risk
    tests: int
    passing: float
    corner: int
    stops_made: int
    stops_needed: int
    room: int
    warnings: tuple[Warning, ...]

    def to_json(self) -> dict[str, Any]:
        return {"path": list(self.path), "end": self.end, "risk": self.risk.value,
                "tests": self.tests, "passing": round(self.passing, 4), "corner": self.corner,
                "stops_made": self.stops_made, "stops_needed": self.stops_needed,
                "room": self.room, "warnings": [w.to_json() for w in self.warnings]}


def gear_hints(ruleset: Ruleset, current: int, wear: Wear, gears: Sequence[int],
               laps_to_go: int) -> tuple[GearHint, ...]:
    """Every gear offered, with what its downshift costs and leaves."""
    hints = []
    for gear in gears:
        skipped = gears_skipped(current, gear)
        cost = skip_cost(ruleset, current, gear)
        after = wear
        for area, points in cost.items():
            after = after.spend(area, points)
        low, high = gear_range(gear)
        warnings = _wear_warnings(ruleset, wear, after, laps_to_go) if cost else ()
        hints.append(GearHint(gear, low, high, skipped, tuple(cost.items()),
                              SKIP_RULE if cost else "", warnings))
    return tuple(hints)


def _wear_warnings(ruleset: Ruleset, before: Wear, after: Wear,
                   laps_to_go: int) -> tuple[Warning, ...]:
    """What a wear area spent down to (or below) what the race still needs means."""
    found = []
    if after[WearArea.ENGINE] == 0 < before[WearArea.ENGINE]:
        found.append(Warning(
            "engine_fails", "Masters 16-0-3-1; Dresden Ausfälle",
            "kein Motorpunkt mehr: der Motor geht sofort nach dem Schalten kaputt",
            "no engine point left: the engine fails right after the shift"))
    fuel = after[WearArea.FUEL]
    needed = max(laps_to_go - 1, 0) * ruleset.fuel_per_lap
    if fuel < before[WearArea.FUEL] and fuel < needed:
        found.append(Warning(
            "fuel_short", "Dresden Verschleiß",
            f"danach {count(fuel, 'Verbrauchspunkt', 'Verbrauchspunkte')} für noch "
            f"{count(laps_to_go, 'Runde', 'Runden')}: ohne Tanken in der Box rollt das Auto "
            "vor der Zielflagge aus",
            f"leaves {count(fuel, 'fuel point', 'fuel points')} for "
            f"{count(laps_to_go, 'lap', 'laps')} to go: without refuelling in the pits the car "
            "rolls out before the flag"))
    if fuel == 0 < before[WearArea.FUEL]:
        found.append(Warning(
            "fuel_empty", SKIP_RULE,
            "kein Verbrauchspunkt mehr: danach kein Gang mehr überspringen",
            "no fuel left: no more skipping gears after this"))
    if after[WearArea.BRAKES] == 0 < before[WearArea.BRAKES]:
        found.append(Warning(
            "brakes_empty", "Masters 10-0-2",
            "kein Bremspunkt mehr: das Auto muss jeden Wurf ganz fahren, zu weit in einer "
            "Kurve kostet dann Reifen",
            "no brake point left: the car must move its whole roll, too far in a corner then "
            "costs tyres"))
    if after[WearArea.TYRES] == 0 < before[WearArea.TYRES]:
        found.append(Warning(
            "tyres_empty", "Dresden Verschleiß; Masters 10-3",
            "kein Reifenpunkt mehr: das nächste Überschießen einer Kurve beendet das Rennen",
            "no tyre point left: the next corner overshot ends the race"))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class TestOdds:
    """The limits of the car's tests now (a test is lost when the die plus ``modifier`` is at
    most the limit, rule decision "Check modifiers"): road holding, wall, and the collision
    limit for a contact on a space (aggravated by the car there, Masters 14-3)."""

    modifier: int
    road_holding: int
    wall: int
    collision: Callable[[int], int]

    def losing(self, limit: int) -> float:
        return min(max(limit - self.modifier, 0), DIE_FACES) / DIE_FACES


def move_hints(track: Track, ruleset: Ruleset, moves: Sequence[MoveOption], wear: Wear,
               odds: TestOdds, laps_to_go: int) -> tuple[MoveHint, ...]:
    """Every move option offered, in the question's order."""
    return tuple(_move_hint(track, ruleset, o, wear, odds, laps_to_go) for o in moves)


def _move_hint(track: Track, ruleset: Ruleset, option: MoveOption, wear: Wear, odds: TestOdds,
               laps_to_go: int) -> MoveHint:
    limits = ([odds.road_holding] * len(option.dangerous) + [odds.wall] * option.wall_tests
              + [odds.collision(s) for s in option.contacts])
    passing = 1.0
    for limit in limits:
        passing *= 1.0 - odds.losing(limit)
    warnings: list[Warning] = []
    after = wear.spend(WearArea.BRAKES, min(option.brakes, wear[WearArea.BRAKES]))
    after = after.spend(WearArea.TYRES, min(option.tyres, wear[WearArea.TYRES]))
    finishing = option.laps >= laps_to_go > 0
    fuel_due = option.fuel * ruleset.fuel_per_lap
    if fuel_due and not finishing:
        after = after.spend(WearArea.FUEL, min(fuel_due, wear[WearArea.FUEL]))
        if fuel_due > wear[WearArea.FUEL]:
            warnings.append(Warning(
                "fuel_out", "Dresden Verschleiß",
                "kein Verbrauchspunkt für diese Runde: das Auto rollt aus",
                "no fuel for this lap: the car rolls out"))
    if option.eliminated is None:
        warnings += _wear_warnings(ruleset, wear, after, laps_to_go - option.laps)
        if (option.contacts or option.wall_tests) and wear[WearArea.BODY] == 1:
            warnings.append(Warning(
                "test_retires", "Masters 14-2, 20-3",
                "ein verlorener Test kostet den letzten Karosseriepunkt: das Auto scheidet aus",
                "a lost test costs the last body point: the car is out"))
        if option.dangerous and wear[WearArea.ROAD_HOLDING] == 1:
            warnings.append(Warning(
                "test_retires", "Masters 17, 20-5",
                "ein verlorener Test kostet den letzten Straßenlagepunkt: das Auto scheidet aus",
                "a lost test costs the last road-holding point: the car is out"))
    corner = track.corner_of(option.end) if not option.pit else None
    made = option.corner_stops if corner is not None else 0
    needed = corner.stops if corner is not None else 0
    room = _room(track, corner.number, option.end) if corner is not None else 0
    doomed = False
    if corner is not None and option.eliminated is None and made < needed:
        missing = needed - made
        if missing - room >= 2:
            doomed = True
            warnings.append(Warning(
                "stops_doomed", MISSED_STOPS_RULE,
                f"Kurve {corner.number}: {made} von {needed} Stopps, und die Kurve hat "
                f"höchstens für {count(room, 'weiteren', 'weitere')} Platz: das Auto scheidet "
                "sicher aus",
                f"corner {corner.number}: {made} of {needed} stops, and the corner has room "
                f"for at most {room} more: the car is certain to be eliminated"))
        elif missing - room == 1:
            warnings.append(Warning(
                "stops_short", MISSED_STOPS_RULE,
                f"Kurve {corner.number}: {made} von {needed} Stopps, danach höchstens "
                f"{count(room, 'weiterer', 'weitere')}: ein Stopp fehlt, das kostet Reifen "
                "beim Verlassen",
                f"corner {corner.number}: {made} of {needed} stops and room for at most {room} "
                "more: one stop short, which costs tyres on leaving"))
    risk = _risk(option, bool(limits), doomed, warnings)
    return MoveHint(tuple(track.name_of(s) for s in option.path), track.name_of(option.end),
                    risk, len(limits), passing, corner.number if corner is not None else 0,
                    made, needed, room, tuple(warnings))


def _risk(option: MoveOption, tests: bool, doomed: bool, warnings: Sequence[Warning]) -> Risk:
    if option.eliminated is not None or doomed:
        return Risk.ELIMINATED
    if tests:
        return Risk.TEST
    if (option.brakes or option.tyres or option.overshoot or option.blocked or option.spin
            or warnings):
        return Risk.COSTLY
    return Risk.FREE


_ROOMS: dict[tuple[int, int], tuple[Track, Mapping[int, int]]] = {}
"""Per track (by identity, kept alive here: tracks are few and built once) and corner."""


def _room(track: Track, corner: int, end: int) -> int:
    """How many more stops the corner has room for after ``end``: the longest way forward
    through its spaces, one space at least per move."""
    kept = _ROOMS.get((id(track), corner))
    if kept is None or kept[0] is not track:
        kept = (track, _room_table(track, corner))
        _ROOMS[(id(track), corner)] = kept
    return kept[1].get(end, 0)


def _room_table(track: Track, corner: int) -> Mapping[int, int]:
    spaces = track.corners[corner - 1].spaces
    longest: dict[int, int] = {}

    def reach(space: int) -> int:
        if space not in longest:
            longest[space] = max((1 + reach(s) for s in track.successors[space] if s in spaces),
                                 default=0)
        return longest[space]

    for space in sorted(spaces, key=lambda s: -track.spaces[s].height):
        reach(space)
    return longest
