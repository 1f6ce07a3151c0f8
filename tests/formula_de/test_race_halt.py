"""``Race.halt``: a car stops for the rest of the race (Dresden "FD Blitz": the chess clock ran
out, "muß er sofort seinen Zug beenden. Das Auto bleibt dort stehen, wo es gerade steht")."""

from __future__ import annotations

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    BidChoice,
    DecisionError,
    Halt,
    KarmaAction,
    KarmaChoice,
    TurnChoice,
)
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.record import events_digest, parse_record, record_of, record_to_json
from rennleitung.formula_de.replay import replay, verify

from .test_race_rules import go, pick, place, sp, start


def test_halt_at_the_gear_question_ends_the_turn_and_the_car_never_moves_again() -> None:
    race = start([10, 3, 3, 3, 3, 3, 3], cars=("a", "b"))
    place(race, "a", "A20", gear=2)
    place(race, "b", "A10", gear=2)
    race = go(race)
    ask = race.pending
    assert ask is not None and ask.car == "a" and ask.kind is AskKind.TURN
    assert race.turn_car == "a"
    race.halt("a")
    assert race.cars["a"].space == sp("A20")
    assert race.pending is not None and race.pending.car == "b"
    assert [e.car for e in race.events if e.kind is EventKind.HALTED] == ["a"]
    assert not any(e.kind is EventKind.ROLL and e.car == "a" for e in race.events)
    for _ in range(3):  # b drives on, a is never asked again
        ask = race.pending
        assert ask is not None and ask.car == "b"
        if ask.kind is AskKind.TURN:
            race.apply(TurnChoice(2))
        else:
            race.apply(race.legal_decisions()[0])
    assert race.cars["a"].space == sp("A20")
    orders = [e.get("order") for e in race.events if e.kind is EventKind.ROUND and e.round > 1]
    assert orders and all(order == ["b"] for order in orders)


def test_the_race_ends_when_only_halted_cars_are_left() -> None:
    race = start([10, 3], cars=("a",))
    place(race, "a", "A20", gear=2)
    race = go(race)
    race.apply(Halt())  # as an answer: halts the car asked
    assert race.finished and race.halted == {"a"}
    assert race.events[-1].kind is EventKind.END
    (placing,) = race.classification()
    assert placing.status == "running"


def test_halt_after_the_roll_leaves_the_car_where_it_stands() -> None:
    race = start([10, 2], cars=("a",))
    place(race, "a", "A1", gear=1)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    assert race.pending is not None and race.pending.kind is AskKind.MOVE
    race.halt("a")
    assert race.cars["a"].space == sp("A1") and race.finished


def test_halt_is_refused_before_the_start_and_during_a_karma_question() -> None:
    race = start([10, 2, 4], cars=("a",))
    with pytest.raises(DecisionError) as error:
        race.opening().halt("a")  # the box question is still open
    assert "Dresden FD Blitz" in str(error.value)
    place(race, "a", "A1", gear=1)
    race.danger("A3")
    race = go(race)
    race.apply(TurnChoice(2))
    pick(race, lambda o: sp("A3") in o.dangerous)
    assert race.pending is not None and race.pending.kind is AskKind.KARMA
    with pytest.raises(DecisionError) as error:
        race.halt("a")
    assert "answer the pending question first" in str(error.value)
    race.apply(KarmaChoice(KarmaAction.NONE))
    assert race.cars["a"].wear.road_holding == 1  # the lost test still counts
    with pytest.raises(DecisionError):
        race.halt("nobody")


def test_a_car_halted_during_the_bids_is_not_asked_to_bid() -> None:
    race = start([10], cars=("a", "b"))
    place(race, "a", "A20", gear=4)
    place(race, "b", "C22", gear=2)
    race = go(race)
    ask = race.pending
    assert ask is not None and ask.kind is AskKind.BID and ask.car == "a"
    race.halt("b")
    race.apply(BidChoice(0))
    ask = race.pending
    assert ask is not None and ask.car == "a" and ask.kind is AskKind.TURN


def test_a_halt_of_a_car_not_asked_replays_bit_identically() -> None:
    config = RaceConfig(
        track="monaco",
        ruleset="fd-blitz",
        entries=(Entry("a", "A", karma=0), Entry("b", "B", karma=0)),
        laps=1,
        qualifying=("a", "b"),
    )
    race = Race.create(config, "halt-1")
    bot = make_bot("simple")
    halted_at = 0
    while (ask := race.pending) is not None:
        if race.round == 3 and not race.halted and ask.car == "a":
            race.halt("b")  # b is not the car asked: it stops from its next turn
            halted_at = len(race.decisions)
            continue
        race.apply(bot.decide(race, ask))
    assert race.halted == {"b"} and halted_at
    b_rolls = [e.round for e in race.events if e.kind is EventKind.ROLL and e.car == "b"]
    assert max(b_rolls) <= 3
    data = record_of(race, "halt-1")
    assert data["decisions"][halted_at - 1] == {"car": "b", "kind": "halt"}
    record = parse_record(record_to_json(data), builtin_track)
    assert events_digest(replay(record).events) == events_digest(race.events)
    assert verify(record).honest
