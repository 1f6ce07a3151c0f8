"""Shared setup for the race service tests: a small race, a clock that moves only when told,
and persons who answer as the simple bot would (so a race is the same every time)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from rennleitung.formula_de.bots import make_bot
from rennleitung.play import Applied, RaceService, RaceSpec, RaceState, SeatKind, SeatSpec
from rennleitung.play.engine import decision_to_json, questions

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SEED = "5eed-for-the-play-tests"


@dataclass
class Clock:
    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def small_spec(persons: int = 2, bots: int = 1, **changes: Any) -> RaceSpec:
    """A one-lap Monaco race under Dresden 2006 rules: persons first, then bots."""
    seats = tuple(
        SeatSpec(car=f"car{n}", driver=f"Fahrer {n}",
                 kind=SeatKind.PERSON if n <= persons else SeatKind.BOT)
        for n in range(1, persons + bots + 1)
    )
    fields: dict[str, Any] = {"track": "monaco", "ruleset": "dresden-2006", "laps": 1,
                              "seats": seats}
    fields.update(changes)
    return RaceSpec(**fields)


def started(service: RaceService, spec: RaceSpec | None = None, seed: str = SEED) -> int:
    """A race created, every person's seat held (account ``acc-<car>``), started."""
    chosen = spec or small_spec()
    race_id = service.create_race(chosen, seed=seed)
    for seat in chosen.seats:
        if seat.kind is SeatKind.PERSON:
            service.join(race_id, f"acc-{seat.car}", car=seat.car)
    service.start(race_id)
    return race_id


def person_answer(service: RaceService, race_id: int) -> tuple[str, dict[str, Any], int]:
    """The first open question's car, the simple bot's answer as JSON, and the version."""
    race = service.race(race_id)
    ask = questions(race)[0]
    decision = make_bot("simple").decide(race, ask)
    return ask.car, decision_to_json(race, decision), service.version(race_id)


def play_on(service: RaceService, race_id: int, steps: int | None = None) -> Applied | None:
    """Persons answer ``steps`` questions (None: until the race is over)."""
    last = None
    done = 0
    while service.info(race_id).state is RaceState.RUNNING and (steps is None or done < steps):
        car, answer, version = person_answer(service, race_id)
        last = service.apply(race_id, car, answer, version, holder=f"acc-{car}")
        done += 1
    return last


def play_until_turns(service: RaceService, race_id: int) -> None:
    """Persons answer until the first gear question (past the setups asked of all at once and
    the box choice)."""
    while questions(service.race(race_id))[0].kind.value != "turn":
        play_on(service, race_id, steps=1)
