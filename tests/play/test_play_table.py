"""A race at the table through the race service (issue 29): the organiser enters every die,
takes a mistyped one back, and the finished race goes into the league as any other does. On
SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses

import pytest

from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import DecisionError, RollEntry, TakeBack
from rennleitung.formula_de.race_questions import RollQuestion
from rennleitung.formula_de.record import parse_record, record_to_json
from rennleitung.formula_de.replay import TABLE_NOTE, verify
from rennleitung.league.race_run import race_config, race_result
from rennleitung.play import Actor, PlayError, RaceService, RaceState
from rennleitung.play.league_races import enter_finished, league_race_spec
from rennleitung.store.race_store import latest_snapshot
from tests.play.test_play_league import LEAGUE, season


def number_for(ask: RollQuestion, step: int) -> int:
    """What the table's die shows: a face chosen by the step, the same in both races."""
    return ask.faces[step * 7 % len(ask.faces)]


def test_a_table_race_is_entered_taken_back_and_goes_into_the_league(
    service: RaceService,
) -> None:
    leagues = season(service)
    spec = league_race_spec(leagues, LEAGUE, 1, "short", laps=1, table=True)
    assert spec.table and all(s.kind.value == "person" for s in spec.seats)
    race_id = service.create_race(spec, seed="table-seed")
    service.start(race_id)
    race = service.race(race_id)
    assert race.config.table
    by_hand = Race(dataclasses.replace(race_config(leagues.load(LEAGUE), 1, "short", laps=1),
                                       table=True), Dice.from_seed("x"), commitment=commit("x"))
    step = 0
    taken = False
    while service.info(race_id).state is RaceState.RUNNING:
        race = service.race(race_id)
        ask = race.pending
        assert ask is not None and ask == by_hand.pending
        version = service.version(race_id)
        if isinstance(ask, RollQuestion):
            with pytest.raises(PlayError):  # a player does not enter the table's dice
                service.apply(race_id, ask.car, RollEntry(ask.faces[0]), version)
            with pytest.raises(DecisionError) as refused:
                service.apply(race_id, ask.car, RollEntry(99), version, Actor.ORGANISER)
            assert ask.die in refused.value.en and ask.die in refused.value.de
            if step >= 10 and not taken:
                wrong = ask.faces[0] if number_for(ask, step) != ask.faces[0] else ask.faces[-1]
                service.apply(race_id, ask.car, RollEntry(wrong), version, Actor.ORGANISER)
                service.apply(race_id, ask.car, TakeBack(), version + 1, Actor.ORGANISER)
                assert service.race(race_id).pending == ask
                taken = True
                continue
            result = number_for(ask, step)
            service.apply(race_id, ask.car, {"kind": "roll", "result": result},
                          service.version(race_id), Actor.ORGANISER)
            by_hand.apply(RollEntry(result))
        else:
            decision = by_hand.legal_decisions(ask.car)[0]
            service.apply(race_id, ask.car, decision, version, Actor.ORGANISER)
            by_hand.apply(decision, car=ask.car)
        step += 1
    assert taken and by_hand.finished
    stored = service.decisions(race_id)
    kinds = [d.decision["kind"] for d in stored]
    assert "take_back" in kinds and kinds.count("roll") > 20
    assert all(d.actor is Actor.ORGANISER for d in stored)
    service.forget(race_id)  # rebuilt from the store: snapshots and decisions agree
    rebuilt = service.race(race_id).events
    assert len(rebuilt) == len(by_hand.events) + 1  # and the take-back told
    assert [e.kind.value for e in rebuilt].count("taken_back") == 1

    record = parse_record(record_to_json(service.record(race_id)))
    verdict = verify(record)
    assert verdict.honest, verdict.problems
    assert TABLE_NOTE in verdict.notes

    entered = enter_finished(service, leagues)
    assert [(e.number, e.refusal) for e in entered] == [(1, "")]
    assert leagues.load(LEAGUE).race(1) == race_result(by_hand, 1, by_hand.track.title or "short")


def test_a_table_race_has_no_clock_per_decision(service: RaceService) -> None:
    leagues = season(service)
    spec = dataclasses.replace(
        league_race_spec(leagues, LEAGUE, 1, "short", laps=1, table=True), decision_seconds=60
    )
    with pytest.raises(PlayError) as refused:
        service.create_race(spec)
    assert refused.value.where == "decision_seconds"


def test_the_entry_that_ended_a_round_is_taken_back_and_its_snapshot_dropped(
    service: RaceService,
) -> None:
    """The entry that moved the race over a round boundary stored that boundary's snapshot;
    taken back, the race is in the round before again, the snapshot is gone with the same
    write, and the race rebuilt from the store is the race in memory."""
    leagues = season(service)
    spec = league_race_spec(leagues, LEAGUE, 1, "short", laps=1, table=True)
    race_id = service.create_race(spec, seed="table-seed")
    service.start(race_id)
    step = 0
    while True:
        race = service.race(race_id)
        ask = race.pending
        assert ask is not None
        before = race.round
        version = service.version(race_id)
        decision = (RollEntry(number_for(ask, step)) if isinstance(ask, RollQuestion)
                    else race.legal_decisions(ask.car)[0])
        service.apply(race_id, ask.car, decision, version, Actor.ORGANISER)
        step += 1
        if service.race(race_id).round > before and before >= 1:
            break
    boundary = service.record(race_id)
    with service.store.read() as connection:
        assert latest_snapshot(connection, race_id, version + 1) is not None
        crossed = latest_snapshot(connection, race_id, version + 1)
    assert crossed is not None and crossed[1] == version + 1
    service.apply(race_id, ask.car, TakeBack(), version + 1, Actor.ORGANISER)
    race = service.race(race_id)
    assert race.round == before and race.pending == ask
    with service.store.read() as connection:
        left = latest_snapshot(connection, race_id, version + 2)
    assert left is not None and left[1] < crossed[1]
    events = [e.to_data() for e in race.events]
    service.forget(race_id)
    assert [e.to_data() for e in service.race(race_id).events] == events
    service.apply(race_id, ask.car, decision, version + 2, Actor.ORGANISER)  # entered again
    assert service.race(race_id).round > before
    service.forget(race_id)
    assert service.race(race_id).round > before
    assert boundary["decisions"] != service.record(race_id)["decisions"]
