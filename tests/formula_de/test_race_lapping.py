"""Masters 6-2-6: the order of play when cars are lapped, on the rulebook's four-car example.

A round is a sweep from the leader back round the lap to the car just in front of him. The
leader passing a lapped car ends the sweep before it (it plays once less); a lapped car passing
the leader again is reached a second time (it plays twice in the round). Monaco: the lap is
165.3 rows, A1 is 0.5 rows past the line, A150 147.8 rows.
"""

from __future__ import annotations

from rennleitung.formula_de.event_text import render
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import AskKind, MoveChoice, TurnChoice
from rennleitung.formula_de.race_order import OrderItem, round_order

from .test_race_rules import MONACO, SUN, go, place, sp, start


def drive(race: Race, car: str, gear: int, end: str | None = None) -> None:
    """``car`` is asked; it shifts to ``gear`` and, when asked, moves to ``end`` (or the first
    option)."""
    ask = race.pending
    assert ask is not None and ask.car == car and ask.kind is AskKind.TURN, ask
    race.apply(TurnChoice(gear))
    ask = race.pending
    if ask is not None and ask.kind is AskKind.MOVE:
        options = [o for o in ask.moves if end is None or o.end == sp(end)]
        race.apply(MoveChoice(options[0].path))


def rolled(race: Race, round_: int) -> list[str]:
    return [e.car for e in race.events if e.kind is EventKind.ROLL and e.round == round_]


def test_the_round_order_goes_by_the_places_on_the_track_not_by_laps() -> None:
    """Example line 3, "1 - 2 - 4 - 3": car 4, a lap down, stands ahead of car 3 on the track
    and plays before it; counting laps first would put it last."""
    items = [
        OrderItem("1", sp("A8"), laps_base=1, gear=3, arrived=1),
        OrderItem("2", sp("A2"), laps_base=1, gear=3, arrived=2),
        OrderItem("3", sp("A150"), laps_base=0, gear=3, arrived=3),
        OrderItem("4", sp("C154"), laps_base=-1, gear=3, arrived=4),
    ]
    order, top = round_order(MONACO, items)
    assert order == ["1", "2", "4", "3"]
    assert top == MONACO.lap_rows + MONACO.spaces[sp("A8")].height


def test_a_car_the_leader_laps_misses_the_rest_of_the_round() -> None:
    """Example line 2, "1 (passes 4) - 2 - 3": the leader passes the car just in front of him,
    whose turn in this round is lost."""
    race = start([SUN, 6, 3], cars=("lead", "second", "lapped"))
    place(race, "lead", "A1", gear=2, crossings=2)  # lap 1 done
    place(race, "second", "A150", gear=2, crossings=1)  # on lap 1, 18 rows behind
    place(race, "lapped", "C4", gear=2, crossings=1)  # on lap 1, 3 rows ahead on the track
    race = go(race)
    drive(race, "lead", 3, "A7")  # 6 spaces: past C4
    drive(race, "second", 2)
    assert rolled(race, 1) == ["lead", "second"]
    skipped = [e for e in race.events if e.kind is EventKind.ROUND_SKIPPED]
    assert [(e.car, e.round) for e in skipped] == [("lapped", 1)]
    assert skipped[0].get("rule") == "Masters 6-2-6"
    assert "überrundet" in render(skipped[0], "de") and "lapped" in render(skipped[0], "en")
    ask = race.pending
    assert ask is not None and ask.car == "lead" and race.round == 2
    order = next(e for e in race.events if e.kind is EventKind.ROUND and e.round == 2)
    assert order.get("order") == ["lead", "lapped", "second"]  # now behind the leader on the track


def test_a_lapped_car_that_passes_the_leader_again_plays_twice() -> None:
    """Example line 4, "1 - 4 (passes 1) - 2 - 3 - 4": the lapped car, just behind the leader,
    passes him and recovers its lost move at the end of the round."""
    race = start([SUN, 1, 5, 3, 2], cars=("lead", "mid", "lapped"))
    place(race, "lead", "A4", gear=1, crossings=2)
    place(race, "mid", "A150", gear=2, crossings=1)
    place(race, "lapped", "C2", gear=3, crossings=1)  # a lap down, right behind the leader
    race = go(race)
    round_one = next(e for e in race.events if e.kind is EventKind.ROUND and e.round == 1)
    assert round_one.get("order") == ["lead", "lapped", "mid"]
    drive(race, "lead", 1, "A5")
    drive(race, "lapped", 3, "C7")  # 5 spaces: past the leader on A5
    drive(race, "mid", 2)
    drive(race, "lapped", 2)  # the sweep reaches it a second time
    assert rolled(race, 1) == ["lead", "lapped", "mid", "lapped"]
    again = [e for e in race.events if e.kind is EventKind.ROUND_AGAIN]
    assert [(e.car, e.round) for e in again] == [("lapped", 1)]
    ask = race.pending
    assert ask is not None and ask.car == "lead" and race.round == 2
