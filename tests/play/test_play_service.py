"""The race service on SQLite and PostgreSQL: decisions stored with who made them, stale
versions refused, races rebuilt after a restart, seeds kept secret until the flag."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.race_decisions import DecisionError, MoveChoice
from rennleitung.formula_de.record import events_digest
from rennleitung.play import (
    Actor,
    Notice,
    NotYourSeat,
    PlayError,
    QuestionFor,
    RaceChanged,
    RaceService,
    RaceState,
    SeatKind,
    StaleVersion,
    UnknownRace,
)
from rennleitung.play.engine import decision_to_json, questions
from rennleitung.store.race_tables import PlayDecisionRow
from tests.play.support import (
    SEED,
    person_answer,
    play_on,
    play_until_turns,
    small_spec,
    started,
)


def stored_count(service: RaceService, race_id: int) -> int:
    with service.engine.connect() as connection:
        query = select(func.count()).where(PlayDecisionRow.race_id == race_id)
        return connection.scalar(query) or 0


def test_a_race_is_created_open_with_a_public_commitment_only(service: RaceService) -> None:
    race_id = service.create_race(small_spec(), seed=SEED)
    info = service.info(race_id)
    assert info.state is RaceState.OPEN and info.version == 0
    assert info.commitment == commit(SEED) and info.seed is None
    assert [s.kind for s in info.seats] == [SeatKind.PERSON, SeatKind.PERSON, SeatKind.BOT]
    seat = service.join(race_id, "acc-a", driver="Anna")
    assert (seat.car, seat.holder, seat.driver) == ("car1", "acc-a", "Anna")
    with pytest.raises(PlayError) as refused:
        service.join(race_id, "acc-a")
    assert refused.value.where == "holder"


def test_start_gives_free_seats_their_bot_and_stores_every_decision(
    service: RaceService,
) -> None:
    race_id = service.create_race(small_spec(persons=2, bots=1), seed=SEED)
    service.join(race_id, "acc-car1", car="car1")
    service.start(race_id)
    info = service.info(race_id)
    assert [s.kind for s in info.seats] == [SeatKind.PERSON, SeatKind.BOT, SeatKind.BOT]
    play_on(service, race_id)
    info = service.info(race_id)
    assert info.state is RaceState.FINISHED and info.seed == SEED
    stored = service.decisions(race_id)
    assert [d.seq for d in stored] == list(range(1, info.version + 1))
    assert stored_count(service, race_id) == info.version
    assert {d.actor for d in stored if d.car == "car1"} == {Actor.PERSON}
    assert {d.actor for d in stored if d.car != "car1"} == {Actor.BOT}
    assert all(d.holder == "acc-car1" for d in stored if d.car == "car1")
    record = service.record(race_id)
    assert record["seed"] == SEED and len(record["decisions"]) == info.version


def test_a_stale_or_repeated_decision_is_refused_and_the_race_unchanged(
    service: RaceService,
) -> None:
    race_id = started(service)
    play_until_turns(service, race_id)
    car, answer, version = person_answer(service, race_id)
    service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    after = service.version(race_id)
    digest = events_digest(service.race(race_id).events)
    with pytest.raises(StaleVersion):  # the same answer sent twice
        service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    next_car, next_answer, _ = person_answer(service, race_id)
    with pytest.raises(StaleVersion) as stale:
        service.apply(race_id, next_car, next_answer, after - 1)
    assert isinstance(stale.value, DecisionError) and "version" in stale.value.where
    assert service.version(race_id) == after and stored_count(service, race_id) == after
    assert events_digest(service.race(race_id).events) == digest
    fresh = RaceService(service.engine)
    assert events_digest(fresh.race(race_id).events) == digest


def test_an_illegal_decision_names_the_rule_and_changes_nothing(service: RaceService) -> None:
    race_id = started(service)
    play_on(service, race_id, steps=12)
    before = service.version(race_id)
    car, answer, version = person_answer(service, race_id)
    with pytest.raises(RennleitungError) as refused:
        service.apply(race_id, car, {"kind": "box", "box": 99}, version)
    assert refused.value.where
    with pytest.raises(RennleitungError):
        service.apply(race_id, car, MoveChoice((0, 1, 2, 3)), version)
    with pytest.raises(PlayError):  # someone else's seat
        service.apply(race_id, car, answer, version, holder="acc-intruder")
    assert service.version(race_id) == before == stored_count(service, race_id)
    service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    assert service.version(race_id) > before


def test_an_answer_for_a_seat_not_held_is_refused_before_anything_else(
    service: RaceService,
) -> None:
    race_id = started(service)
    play_on(service, race_id, steps=6)
    before = service.version(race_id)
    car, answer, version = person_answer(service, race_id)
    bot_car = next(s.car for s in service.info(race_id).seats if s.kind is SeatKind.BOT)
    refused = [  # each would also be refused for another reason, named later
        (car, answer, version - 1, "acc-intruder"),  # stale too
        (car, {"kind": "box", "box": 99}, version, "acc-intruder"),  # illegal too
        (bot_car, answer, version, f"acc-{car}"),  # a bot drives it
        ("car9", answer, version, f"acc-{car}"),  # no such car
    ]
    for refused_car, decision, seen, holder in refused:
        with pytest.raises(NotYourSeat) as error:
            service.apply(race_id, refused_car, decision, seen, holder=holder)
        assert error.value.where == f"car {refused_car}"
    with pytest.raises(UnknownRace):
        service.apply(race_id + 1000, car, answer, version, holder=f"acc-{car}")
    assert service.version(race_id) == before == stored_count(service, race_id)
    with pytest.raises(StaleVersion):  # his own seat: now the version is what is wrong
        service.apply(race_id, car, answer, version - 1, holder=f"acc-{car}")


def test_look_at_reads_the_race_in_memory_only_at_the_version_asked(
    service: RaceService,
) -> None:
    race_id = started(service)
    car, answer, version = person_answer(service, race_id)
    applied = service.apply(race_id, car, answer, version, holder=f"acc-{car}")
    seen = service.look_at(race_id, applied.version, lambda race: race.version)
    assert seen == applied.version > version
    assert service.look_at(race_id, version, lambda race: race.version) is None
    service.forget(race_id)  # another process may have moved it: only the store can say
    assert service.look_at(race_id, applied.version, lambda race: race.version) is None
    assert service.race(race_id).version == applied.version


def test_a_race_rebuilt_after_a_restart_plays_on_to_the_same_record(database_url: str) -> None:
    spec = small_spec(persons=2, bots=1)
    first = RaceService.open(database_url)
    try:
        straight = started(first, spec)
        play_on(first, straight)
        interrupted = started(first, spec)
        play_on(first, interrupted, steps=20)
        assert first.info(interrupted).state is RaceState.RUNNING
    finally:
        first.engine.dispose()
    second = RaceService.open(database_url)  # a new process: nothing in memory
    try:
        play_on(second, interrupted)
        a, b = second.record(straight), second.record(interrupted)
        assert a["summary"]["digest"] == b["summary"]["digest"]
        assert a["decisions"] == b["decisions"] and b["seed"] == SEED
        actors = [(d.car, d.actor) for d in second.decisions(interrupted)]
        assert actors == [(d.car, d.actor) for d in second.decisions(straight)]
    finally:
        second.engine.dispose()


def test_listeners_hear_of_changes_and_of_questions_to_persons(service: RaceService) -> None:
    heard: list[Notice] = []
    unsubscribe = service.subscribe(heard.append)
    race_id = started(service)
    questions = [n for n in heard if isinstance(n, QuestionFor)]
    assert questions and questions[-1].car in {"car1", "car2"}
    assert questions[-1].holder == f"acc-{questions[-1].car}"
    assert isinstance(heard[-1], QuestionFor | RaceChanged)
    heard.clear()
    play_on(service, race_id, steps=1)
    changed = [n for n in heard if isinstance(n, RaceChanged)]
    assert changed == [RaceChanged(race_id, service.version(race_id), RaceState.RUNNING)]
    unsubscribe()
    heard.clear()
    play_on(service, race_id, steps=1)
    assert heard == []


def test_halt_and_close_by_the_organiser(service: RaceService) -> None:
    race_id = started(service)
    play_on(service, race_id, steps=12)
    version = service.version(race_id)
    with pytest.raises(StaleVersion):
        service.halt(race_id, "car2", expected_version=version - 1)
    applied = service.halt(race_id, "car2", expected_version=version)
    assert applied.stored[0].actor is Actor.ORGANISER
    assert applied.stored[0].decision == {"kind": "halt"}
    assert "car2" in service.race(race_id).halted
    closed = service.close(race_id)
    assert closed.state is RaceState.CLOSED
    info = service.info(race_id)
    assert info.seed == SEED and all(s.deadline_at is None for s in info.seats)
    car, answer, now = person_answer(service, race_id)
    with pytest.raises(PlayError):
        service.apply(race_id, car, answer, now)
    fresh = RaceService(service.engine)
    assert "car2" in fresh.race(race_id).halted


def test_the_seed_stays_out_of_views_until_the_flag(service: RaceService) -> None:
    race_id = started(service)
    play_on(service, race_id, steps=5)
    info = service.info(race_id)
    assert info.seed is None and SEED not in repr(info)
    assert SEED not in json.dumps(service.record(race_id))
    assert all(SEED not in repr(d) for d in service.decisions(race_id))


def test_answers_to_questions_asked_of_all_at_once_are_not_stale_for_each_other(
    service: RaceService,
) -> None:
    race_id = started(service)
    race = service.race(race_id)
    version = service.version(race_id)
    setups = {q.car: q for q in questions(race)}
    assert set(setups) == {"car1", "car2"}  # Dresden "Rennen": setups at once
    answers = {car: decision_to_json(race, make_bot("simple").decide(race, q))
               for car, q in setups.items()}
    service.apply(race_id, "car2", answers["car2"], version, holder="acc-car2")
    with pytest.raises(StaleVersion):  # the same answer twice
        service.apply(race_id, "car2", answers["car2"], version, holder="acc-car2")
    applied = service.apply(race_id, "car1", answers["car1"], version, holder="acc-car1")
    assert [d.car for d in applied.stored][:1] == ["car1"]
    persons = [d.car for d in service.decisions(race_id) if d.actor is Actor.PERSON]
    assert persons[:2] == ["car2", "car1"]
