"""Race records: JSON round trip, the seed revealed only at the end, replay, verify catches lies."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.position import parse_position, position_to_json
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import MoveChoice, TurnChoice
from rennleitung.formula_de.race_run import bot_entries, drive, run_bot_race
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.record import (
    RecordError,
    parse_record,
    record_from_data,
    record_of,
    record_to_json,
)
from rennleitung.formula_de.replay import replay, verify
from rennleitung.formula_de.ruleset import PreRaceOrder

SEED = "c0ffee"


@pytest.fixture(scope="module")
def finished() -> tuple[Race, dict[str, Any]]:
    race = run_bot_race("monaco", "dresden-2006", 4, 1, SEED, "simple")
    return race, record_of(race, SEED)


def test_record_round_trips_and_reveals_the_seed(finished: tuple[Race, dict[str, Any]]) -> None:
    race, data = finished
    text = record_to_json(data)
    record = parse_record(text)
    assert record.seed == SEED and record.commitment == commit(SEED)
    assert len(record.decisions) == len(race.decisions)
    assert record.config == race.config


def test_a_running_race_keeps_its_seed_secret() -> None:
    config = RaceConfig(track="monaco", ruleset="dresden-2006", entries=bot_entries(2))
    race = Race.create(config, SEED)
    data = record_of(race, SEED)
    assert data["seed"] is None and data["commitment"] == commit(SEED)
    with pytest.raises(RecordError):
        replay(record_from_data(data))


def test_verify_accepts_an_honest_record(finished: tuple[Race, dict[str, Any]]) -> None:
    _, data = finished
    verdict = verify(record_from_data(data))
    assert verdict.honest and verdict.rolls == len(data["summary"]["rolls"])


def test_verify_finds_a_changed_roll(finished: tuple[Race, dict[str, Any]]) -> None:
    _, data = finished
    forged = json.loads(json.dumps(data))
    roll = forged["summary"]["rolls"][5]
    roll[2] = roll[2] + 1 if roll[2] < 2 else roll[2] - 1
    verdict = verify(record_from_data(forged))
    assert not verdict.honest
    assert any("roll 6" in p for p in verdict.problems)


def test_verify_finds_a_wrong_seed(finished: tuple[Race, dict[str, Any]]) -> None:
    _, data = finished
    forged = dict(data, seed="other")
    verdict = verify(record_from_data(forged))
    assert any("commitment" in p for p in verdict.problems)


def test_verify_finds_an_illegal_decision(finished: tuple[Race, dict[str, Any]]) -> None:
    _, data = finished
    forged = json.loads(json.dumps(data))
    index = next(n for n, d in enumerate(forged["decisions"]) if d["kind"] == "turn")
    forged["decisions"][index]["gear"] = 6
    verdict = verify(record_from_data(forged))
    assert not verdict.honest
    assert any("decisions[" in p for p in verdict.problems)


def test_replay_until_an_event_gives_a_position(finished: tuple[Race, dict[str, Any]]) -> None:
    _, data = finished
    race = replay(record_from_data(data), until=80)
    assert 80 <= len(race.events) < len(data["summary"]["rolls"]) * 10
    position = parse_position(position_to_json(race.to_position()))
    assert {c.id for c in position.cars} == set(race.grid_order)
    assert position.to_move == (race.pending.car if race.pending else "")
    assert position.cars == race.to_position().cars


def test_decisions_are_stored_by_space_names(finished: tuple[Race, dict[str, Any]]) -> None:
    race, data = finished
    moves = [d for d in data["decisions"] if d["kind"] == "move"]
    assert moves and all(isinstance(s, str) for s in moves[0]["path"])
    decisions = [d for _, d in race.decisions]
    assert any(isinstance(d, MoveChoice) for d in decisions)
    assert any(isinstance(d, TurnChoice) for d in decisions)


def test_bad_record_errors_are_bilingual() -> None:
    with pytest.raises(RecordError) as error:
        parse_record("{")
    assert "JSON" in error.value.de and "JSON" in error.value.en
    with pytest.raises(RecordError) as error:
        parse_record('{"format": "x"}')
    assert error.value.where == "format"


def test_a_masters_record_from_before_the_pits_first_order_still_replays() -> None:
    """Records made before ``pre_race_order`` existed asked the setups first in every preset
    (Masters 4-0-1 now asks the pits first): without the field they replay in that order."""
    config = RaceConfig(
        track="monaco",
        ruleset="masters-2002",
        entries=bot_entries(3),
        laps=1,
        pre_race_order=PreRaceOrder.SETUPS_FIRST,
    )
    race = Race.create(config, SEED)
    drive(race, {e.id: make_bot("simple") for e in config.entries})
    data = record_of(race, SEED)
    assert data["config"]["pre_race_order"] == "setups_first"
    del data["config"]["pre_race_order"]  # as written before the field existed
    assert [d["kind"] for d in data["decisions"][:2]] == ["setup", "setup"]
    assert verify(record_from_data(data)).honest
    fresh = record_of(run_bot_race("monaco", "masters-2002", 3, 1, SEED, "simple"), SEED)
    assert fresh["config"]["pre_race_order"] == "boxes_first"
    assert record_from_data(fresh).config.pre_race_order is None  # the ruleset's own order
