"""Golden traces: whole seeded bot races must replay to exactly these events.

A change in the rules, the move generator or the bots changes these numbers; that is the point.
When a change is intended, run this file, read the new figures in the failure and update them.
"""

from __future__ import annotations

import pytest

from rennleitung.formula_de.race_run import run_bot_race
from rennleitung.formula_de.record import events_digest

GOLDEN = [
    (
        ("dresden-2006", "golden-1", 6, 2, ("simple",)),
        671,
        305,
        "a30620f7dfb4c5d09aa14def85aa41f0e95a42440cfea765480037ddcbf3c388",
        [
            ("car1", "retired", 1),
            ("car2", "retired", 1),
            ("car5", "retired", 1),
            ("car4", "retired", 1),
            ("car6", "retired", 1),
            ("car3", "retired", 1),
        ],
    ),
    (
        ("masters-2002", "golden-2", 4, 1, ("strong",)),
        318,
        138,
        "50057e1f99e489cba96bae8b96184b4886d5d5fbd66bb6f2d67df9e580ffa1cb",
        [
            ("car1", "finished", 1),
            ("car4", "finished", 1),
            ("car2", "finished", 1),
            ("car3", "finished", 1),
        ],
    ),
    (
        ("dresden-open", "golden-3", 5, 1, ("strong", "simple")),
        385,
        165,
        "6347b697b7cc65fa76d515207f7e0412e06c7eb6c4c9a37e7019564c2c2e1f92",
        [
            ("car4", "finished", 1),
            ("car2", "finished", 1),
            ("car3", "finished", 1),
            ("car5", "finished", 1),
            ("car1", "finished", 1),
        ],
    ),
]

MASTERS_OPENING = [
    "Round 1: order of play: Montoya, Alonso, Räikkönen, Schumacher",
    "Round 1: Montoya makes the start roll: 2 (normal)",
    "Round 1: Montoya shifts into gear 1 and rolls 2",
    "Round 1: Montoya moves 2 spaces to A2",
    "Round 1: Alonso makes the start roll: 8 (normal)",
    "Round 1: Alonso shifts into gear 1 and rolls 2",
]


@pytest.mark.parametrize(("race_args", "events", "rolls", "digest", "placings"), GOLDEN)
def test_golden_race(
    race_args: tuple[str, str, int, int, tuple[str, ...]],
    events: int,
    rolls: int,
    digest: str,
    placings: list[tuple[str, str, int]],
) -> None:
    ruleset, seed, cars, laps, bots = race_args
    race = run_bot_race("monaco", ruleset, cars, laps, seed, bots)
    found = (
        len(race.events),
        len(race.dice.history),
        events_digest(race.events),
        [(p.car, p.status, p.laps) for p in race.classification()],
    )
    assert found == (events, rolls, digest, placings)


def test_golden_opening_reads_like_a_race_report() -> None:
    race = run_bot_race("monaco", "masters-2002", 4, 1, "golden-2", "strong")
    assert [e.en for e in race.events[14:20]] == MASTERS_OPENING
    assert race.events[16].de == "Runde 1: Montoya schaltet in den 1. Gang und würfelt 2"
