"""The result of one race as the league needs it: the one input type for table and engine races.

A race played on a real table is typed in by the organiser; a race run by the Formula Dé engine
produces the same type. Nothing here knows which one it was (``source`` only records it).
See ``docs/league/race-result.md`` for the field-by-field contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class FinishStatus(Enum):
    """How a driver's race ended."""

    FINISHED = "finished"
    """Crossed the finish line after the full distance ("Rennen")."""
    RETIRED = "retired"
    """Out of the race before the end ("Ausfälle"); still classified by distance."""


class InRaceKarmaKind(Enum):
    """A karma movement that happens during a race ("Karmapool")."""

    TWENTY_ROLLED = "twenty"
    """A natural 20 on a body, engine or road-holding check: +1."""
    REROLL = "reroll"
    """Re-rolling one's own event roll: −40."""
    PLUS_ONE = "plus-one"
    """Raising one's own event roll by one: −20."""
    HEAD_TO_HEAD = "head-to-head"
    """A secret bid in a head-to-head ("Kopf an Kopf"): −amount."""


class RaceSource(Enum):
    """Where the result comes from."""

    TABLE = "table"
    ENGINE = "engine"
    MAIL = "mail"
    """Run by e-mail and entered from its result (Dresden 2006: one race of the season is run
    by e-mail); counted like any other race, marked so the tables can say so."""


@dataclass(frozen=True)
class InRaceKarma:
    """One in-race karma movement, in the order it happened; ``amount`` only for bids."""

    kind: InRaceKarmaKind
    amount: int = 0
    note: str = ""


@dataclass(frozen=True)
class RoundOrder:
    """The running order at the end of one round of play (races run by the engine).

    ``lap`` is the lap the leader is on; ``order`` lists the cars still in the race, leader
    first. The lap chart is drawn from these, and "laps most led" follows from them.
    """

    lap: int
    order: tuple[str, ...]


@dataclass(frozen=True)
class DriverRaceResult:
    """One car's race.

    ``position`` is the classified place 1..n of every car that started: finishers in the order
    they crossed the line, then retired cars, more laps first. ``driven_by`` names the team-mate
    who drove this driver's car when the driver was absent ("Rennen"); the result, points and
    karma still belong to ``driver``.
    """

    driver: str
    grid: int
    position: int
    laps_completed: int
    status: FinishStatus
    driven_by: str | None = None
    laps_most_led: int = 0
    """Race laps in which this car led the most rounds of play (ties: each tied car)."""
    karma: tuple[InRaceKarma, ...] = ()
    team: str | None = None
    """The team the driver drove for, when the file names it: it must be his team in this race,
    or, for the race being entered, it enters a transfer from this race on (``transfers.py``).
    Not stored: the roster's transfers are the one record of who drove for whom."""


@dataclass(frozen=True)
class RaceResult:
    """A whole race: its number in the league, distance in laps, and every starter's result."""

    race: int
    drivers: tuple[DriverRaceResult, ...]
    laps: int = 3
    track: str = ""
    source: RaceSource = RaceSource.TABLE
    rounds: tuple[RoundOrder, ...] = ()
    """Running order after every round of play; empty for races entered from a table."""
    did_not_start: tuple[str, ...] = ()
    """Drivers on the qualifying grid who did not start: no place, no points, no karma; the
    cars behind them close up on the grid."""

    def result_of(self, driver: str) -> DriverRaceResult | None:
        """The driver's result, or None if the driver did not start."""
        for entry in self.drivers:
            if entry.driver == driver:
                return entry
        return None
