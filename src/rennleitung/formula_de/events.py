"""Race events: every change of a race is one event of a kind with typed data, never a sentence.

A race is its configuration, its seed and its decisions; the event log is what happened, as
values (car ids, space names, numbers, enum codes). Events are frozen values with plain JSON
data, so two replays of one record can be compared event by event, and the comparison does not
depend on wording. Sentences for people are rendered from the data in one language at a time by
``event_text.render`` ("Spielrunde 12: Alonso schaltet in den 5. Gang und würfelt 17"); the data
forms of every kind are listed in ``docs/formula_de/events.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

JsonValue = str | int | bool | None | list[Any] | dict[str, Any]


class EventKind(StrEnum):
    """What happened; one row of ``event_text.TEMPLATES`` each."""

    CREATED = "created"
    GRID = "grid"
    WEATHER = "weather"
    SETUP = "setup"
    BOX = "box"
    ROUND = "round"
    START_ROLL = "start_roll"
    STALLED = "stalled"
    SUPER_START = "super_start"
    SHIFT = "shift"
    SKIP_COST = "skip_cost"
    BOOST = "boost"
    ROLL = "roll"
    MOVE = "move"
    NO_MOVE = "no_move"
    WEAR = "wear"
    SLIPSTREAM = "slipstream"
    LAP = "lap"
    SPIN = "spin"
    TEST = "test"
    KARMA = "karma"
    DANGEROUS = "dangerous"
    PIT_ANNOUNCE = "pit_announce"
    PIT_IN = "pit_in"
    PIT_WORK = "pit_work"
    QUICK_STOP = "quick_stop"
    PIT_OUT = "pit_out"
    ROLLING_OUT = "rolling_out"
    RETIRED = "retired"
    WRECK_REMOVED = "wreck_removed"
    FINISHED = "finished"
    STOPPED = "stopped"
    HEAD_TO_HEAD = "head_to_head"
    RESTART = "restart"
    T_CAR = "t_car"
    HALTED = "halted"
    ROUND_SKIPPED = "round_skipped"
    ROUND_AGAIN = "round_again"
    END = "end"
    TAKEN_BACK = "taken_back"  # an entry at the table taken back (issue 29)


class Cause(StrEnum):
    """Why a car lost a wear point, a space became dangerous, a car rolls out or retires: the
    ``reason`` of ``wear``, ``dangerous``, ``rolling_out`` and ``retired`` events."""

    BRAKING = "braking"
    OVERSHOOTING = "overshooting"
    LAP = "lap"
    REAR_HIT = "rear_hit"
    ROAD_HOLDING = "road_holding"
    WALL = "wall"
    COLLISION = "collision"
    CAUSED_RETIREMENT = "caused_retirement"
    ENGINE_TEST = "engine_test"
    THREE_GEARS_SKIPPED = "three_gears_skipped"
    ENGINE_BOOST = "engine_boost"
    BLOCKING = "blocking"
    ENGINE = "engine"
    ROLLING_OUT = "rolling_out"
    ENGINE_TO_FLAG = "engine_to_flag"
    # the retirements (``race_retirement.Retirement.cause``)
    MISSED_STOPS = "missed_stops"
    TYRE_FAILURE = "tyre_failure"
    BLOCKED = "blocked"
    BODY_DAMAGE = "body_damage"
    ENGINE_FAILURE = "engine_failure"
    ROAD_HOLDING_LOST = "road_holding_lost"
    OUT_OF_FUEL = "out_of_fuel"


@dataclass(frozen=True, slots=True)
class Event:
    """One change of the race: its number, the round of play, kind, car and data."""

    seq: int
    round: int
    kind: EventKind
    car: str
    data: tuple[tuple[str, JsonValue], ...]

    def get(self, key: str) -> JsonValue:
        """One data value (None when absent)."""
        for name, value in self.data:
            if name == key:
                return value
        return None

    def to_data(self) -> dict[str, Any]:
        """The event as plain JSON data."""
        return {
            "seq": self.seq,
            "round": self.round,
            "kind": self.kind.value,
            "car": self.car,
            "data": dict(self.data),
        }


def make_event(
    seq: int, round_: int, kind: EventKind, car: str, data: dict[str, JsonValue]
) -> Event:
    """Build an event from its data."""
    return Event(seq=seq, round=round_, kind=kind, car=car, data=tuple(data.items()))


_KINDS = {kind.value: kind for kind in EventKind}


def event_from_data(data: dict[str, Any]) -> Event:
    """An event from its JSON form (``Event.to_data``), as the store keeps a round's events."""
    return Event(
        seq=data["seq"],
        round=data["round"],
        kind=_KINDS[data["kind"]],
        car=data["car"],
        data=tuple(data["data"].items()),
    )
