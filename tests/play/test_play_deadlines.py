"""Deadlines: when a person's time runs out, the seat's bot decides, recorded as such."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rennleitung.play import Actor, RaceService, RaceState
from rennleitung.play.model import MAX_DECISION_SECONDS, PlayError
from rennleitung.play.views import Reader
from tests.play.support import START, Clock, play_on, play_until_turns, small_spec, started


def test_a_passed_deadline_lets_the_bot_decide_as_timeout_bot(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60))
    play_until_turns(service, race_id)
    clock.advance(100)
    play_on(service, race_id, steps=1)
    info = service.info(race_id)
    asked = [s for s in info.seats if s.deadline_at is not None]
    assert len(asked) == 1 and asked[0].deadline_at == clock.now + timedelta(seconds=60)
    car = asked[0].car
    version = info.version
    assert service.run_due_deadlines(clock.now + timedelta(seconds=59)) == []
    assert service.version(race_id) == version
    clock.advance(61)
    timed_out = service.run_due_deadlines()
    assert [(t.race_id, t.car) for t in timed_out] == [(race_id, car)]
    stored = service.decisions(race_id)
    first = stored[version]
    assert (first.seq, first.car, first.actor) == (version + 1, car, Actor.TIMEOUT_BOT)
    assert first.made_at == clock.now
    assert {d.actor for d in stored[version + 1:]} <= {Actor.BOT}
    assert service.run_due_deadlines() == []  # nothing is due twice
    again = [s for s in service.info(race_id).seats if s.deadline_at is not None]
    assert len(again) == 1 and again[0].deadline_at == clock.now + timedelta(seconds=60)
    # every reader's view tells that the bot decided for him (the table sees a missed turn)
    seen = service.view(race_id, Reader.spectator())
    assert seen.timed_out == ((version + 1, car),)
    told = seen.to_json()["timed_out"]
    assert told == [{"seq": version + 1, "car": car, "driver": seen.driver(car)}]
    assert service.view(race_id, Reader.seat(car)).timed_out == seen.timed_out


def test_a_race_without_a_clock_reads_no_timeouts(service: RaceService, clock: Clock) -> None:
    race_id = started(service, small_spec())
    play_until_turns(service, race_id)
    seen = service.view(race_id, Reader.spectator())
    assert seen.timed_out == () and seen.to_json()["timed_out"] == []


def test_setups_asked_of_all_at_once_are_all_due_at_once(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60))
    due = {s.car: s.deadline_at for s in service.info(race_id).seats if s.deadline_at}
    assert due == {"car1": START + timedelta(seconds=60), "car2": START + timedelta(seconds=60)}
    clock.advance(30)
    play_on(service, race_id, steps=1)  # one driver's setup in time
    clock.advance(40)  # 70 s after the question
    timed_out = service.run_due_deadlines()
    stored = [d for d in service.decisions(race_id) if d.actor is not Actor.BOT]
    answered = stored[0].car
    assert [t.car for t in timed_out] == [c for c in due if c != answered]
    actors = [(d.car, d.actor) for d in stored[:2]]
    assert actors == [(answered, Actor.PERSON), (timed_out[0].car, Actor.TIMEOUT_BOT)]


def test_an_answer_in_time_leaves_nothing_for_the_deadline(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(decision_seconds=60))
    play_until_turns(service, race_id)
    clock.advance(30)
    play_on(service, race_id, steps=1)
    clock.advance(40)  # 70 s after the first gear question, 40 s after the next
    assert service.run_due_deadlines() == []
    assert Actor.TIMEOUT_BOT not in {d.actor for d in service.decisions(race_id)}


def test_deadlines_alone_finish_a_race(service: RaceService, clock: Clock) -> None:
    race_id = started(service, small_spec(persons=1, bots=1, decision_seconds=5))
    for _ in range(500):
        if service.info(race_id).state is not RaceState.RUNNING:
            break
        clock.advance(5)
        assert len(service.run_due_deadlines()) == 1
    assert service.info(race_id).state is RaceState.FINISHED
    actors = {d.car: d.actor for d in service.decisions(race_id)}
    assert actors == {"car1": Actor.TIMEOUT_BOT, "car2": Actor.BOT}


def test_a_time_per_decision_beyond_a_week_or_below_one_second_is_refused(
    service: RaceService,
) -> None:
    for seconds in (0, -5, MAX_DECISION_SECONDS + 1, 10**18):
        with pytest.raises(PlayError) as refused:
            service.create_race(small_spec(decision_seconds=seconds))
        assert refused.value.where == "decision_seconds", seconds
    assert service.create_race(small_spec(decision_seconds=MAX_DECISION_SECONDS)) > 0
