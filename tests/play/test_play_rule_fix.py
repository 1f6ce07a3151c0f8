"""A rule fix never strands a race and never rewrites its past silently
(``docs/formula_de/records.md``, "A rule fix in a running race"): after an upgrade a running
race goes on from its latest snapshot under the new rules; a stored decision after it that no
longer applies is dropped with all after it, that question is asked again, and the race's
notices say why, naming the rule change. Here the fix is a fake one: a new rules version under
which the engine boost (Dresden Verschleiß) is no longer allowed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sqlalchemy import func, select, update

from rennleitung.formula_de import rules_version
from rennleitung.formula_de.race_decisions import TurnChoice
from rennleitung.formula_de.race_questions import TurnQuestion
from rennleitung.formula_de.record import record_from_data
from rennleitung.formula_de.replay import verify
from rennleitung.formula_de.rules_version import RuleChange
from rennleitung.formula_de.ruleset import PRESETS
from rennleitung.play import RaceService, RaceState
from rennleitung.play import engine as eng
from rennleitung.store.race_tables import PlayDecisionRow, PlaySnapshotRow
from tests.play.support import Clock, play_on, play_until_turns, small_spec, started

OLD = rules_version.RULES_VERSION
NEW = OLD + 1


def _fix(monkeypatch: pytest.MonkeyPatch, boost: bool = False) -> None:
    """Upgrade the program to rules version NEW; unless ``boost``, the boost is gone."""
    change = RuleChange(NEW, "Test 1-1", "kein Motor-Boost mehr", "no engine boost any more")
    monkeypatch.setattr(rules_version, "RULES_VERSION", NEW)
    monkeypatch.setattr(rules_version, "CHANGES", (*rules_version.CHANGES, change))
    dresden = PRESETS["dresden-2006"]
    monkeypatch.setitem(PRESETS, "dresden-2006", replace(dresden, engine_boost=boost))  # type: ignore[index]


def _boosted(service: RaceService, race_id: int) -> tuple[str, int]:
    """Play on to a person's gear question in round 2 or later where a boost is allowed, and
    answer it with a boost; the car and the decision's number."""
    play_until_turns(service, race_id)
    while True:
        race = service.race(race_id)
        ask = eng.questions(race)[0]
        if isinstance(ask, TurnQuestion) and ask.boost and race.round >= 2:
            break
        play_on(service, race_id, steps=1)
    choice = TurnChoice(gear=ask.gears[-1], boost=True)
    applied = service.apply(
        race_id, ask.car, eng.decision_to_json(race, choice), eng.version(race),
        holder=f"acc-{ask.car}",
    )
    return ask.car, applied.stored[0].seq


def _count(service: RaceService, table: type, race_id: int) -> int:
    with service.engine.connect() as connection:
        return int(
            connection.scalar(
                select(func.count()).select_from(table).where(table.race_id == race_id)  # type: ignore[attr-defined]
            )
        )


def test_a_decision_the_fix_makes_illegal_is_asked_again_and_everyone_is_told(
    service: RaceService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    race_id = started(service, small_spec(persons=2, bots=1))
    car, seq = _boosted(service, race_id)
    played = service.race(race_id)
    rounds_before = played.round
    events_before = [e for e in played.events if e.round < rounds_before]
    _fix(monkeypatch)
    upgraded = RaceService(service.engine, clock)
    heard: list[object] = []
    upgraded.subscribe(heard.append)
    race = upgraded.race(race_id)
    info = upgraded.info(race_id)
    assert eng.version(race) == info.version == seq - 1  # back before the boost
    assert _count(upgraded, PlayDecisionRow, race_id) == seq - 1
    ask = eng.question_of(race, car)
    assert isinstance(ask, TurnQuestion) and not ask.boost  # the question asked again
    assert info.rules_version == NEW
    (notice,) = info.notices
    assert (notice.rules_from, notice.rules_to, notice.version) == (OLD, NEW, seq - 1)
    assert notice.round == rounds_before - 1
    assert notice.dropped[0].seq == seq and notice.dropped[0].car == car
    assert notice.dropped[0].decision["boost"] is True
    assert "Test 1-1" in notice.text("en") and "Test 1-1" in notice.text("de")
    assert f"rules version {NEW}" in notice.text("en") and car in notice.text("en")
    assert json.loads(json.dumps(notice.to_json())) == notice.to_json()
    seat = info.seat(car)
    assert seat.asked_at is not None  # asked anew, with the listeners told
    assert any(getattr(n, "car", None) == car for n in heard)
    # the past before the snapshot stands as it was played
    assert [e for e in race.events if e.round < rounds_before] == events_before
    assert race.rules == [(0, OLD), (rounds_before, NEW)]
    # a boost is now refused naming the rule, and the race plays on to the flag
    play_on(upgraded, race_id)
    assert upgraded.info(race_id).state is RaceState.FINISHED
    record = upgraded.record(race_id)
    assert [(r["from_round"], r["rules_version"]) for r in record["rules"]] == [
        (0, OLD), (rounds_before, NEW)
    ]
    assert record["rules"][1]["state"]["round"] == rounds_before - 1
    assert record["rules_version"] == NEW
    verdict = verify(record_from_data(json.loads(json.dumps(record))))
    assert verdict.honest, verdict.problems
    assert any(f"rules version {OLD}" in line for line in verdict.checked)
    again = RaceService(service.engine, clock).race(race_id)  # rebuilt: no second notice
    assert len(RaceService(service.engine, clock).info(race_id).notices) == 1
    assert again.events == upgraded.race(race_id).events


def test_a_fix_every_stored_decision_still_meets_keeps_them_and_says_so(
    service: RaceService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    race_id = started(service, small_spec(persons=2, bots=1))
    _car, seq = _boosted(service, race_id)
    _fix(monkeypatch, boost=True)
    upgraded = RaceService(service.engine, clock)
    info = upgraded.info(race_id)
    race = upgraded.race(race_id)
    assert eng.version(race) == seq
    (notice,) = upgraded.info(race_id).notices
    assert notice.dropped == () and notice.version == seq
    assert "every decision still applies" in notice.text("en")
    assert info.rules_version == OLD  # read before the race was rebuilt
    assert upgraded.info(race_id).rules_version == NEW


def test_closing_always_works_even_when_the_race_no_longer_rebuilds(
    service: RaceService, clock: Clock
) -> None:
    race_id = started(service, small_spec(persons=2, bots=1))
    play_on(service, race_id, steps=25)
    with service.engine.begin() as connection:
        connection.execute(
            update(PlaySnapshotRow)
            .where(PlaySnapshotRow.race_id == race_id)
            .values(state="{}")
        )
        connection.execute(
            update(PlayDecisionRow)
            .where(PlayDecisionRow.race_id == race_id, PlayDecisionRow.seq == 2)
            .values(decision=json.dumps({"kind": "box", "box": 99}))
        )
    fresh = RaceService(service.engine, clock)
    applied = fresh.close(race_id)
    assert applied.state is RaceState.CLOSED
    assert fresh.info(race_id).state is RaceState.CLOSED
