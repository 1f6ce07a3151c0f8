"""A race at the table (issue 29): the dice are entered, everything else is the engine's."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rennleitung.cli.main import app
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.events import EventKind
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    AskKind,
    Decision,
    DecisionError,
    RollEntry,
    TakeBack,
    TurnChoice,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_questions import RollQuestion
from rennleitung.formula_de.race_setup import Entry, RaceConfig
from rennleitung.formula_de.record import parse_record, record_of, record_to_json
from rennleitung.formula_de.replay import TABLE_NOTE, verify

CONFIG = RaceConfig(
    track="short", ruleset="dresden-2006", entries=tuple(Entry(c) for c in "abcd"), laps=1
)


def server_race() -> tuple[Race, list[tuple[str, Decision]]]:
    """The same field with the server's dice, each driver taking the first legal answer."""
    race = Race(CONFIG, Dice.from_seed("s1"), commitment=commit("s1"))
    decisions = []
    while not race.finished:
        ask = race.pending
        assert ask is not None
        decision = race.legal_decisions(ask.car)[0]
        decisions.append((ask.car, decision))
        race.apply(decision, car=ask.car)
    return race, decisions


def table_race() -> Race:
    config = dataclasses.replace(CONFIG, table=True)
    race = Race(config, Dice.from_seed("t"), commitment=commit("t"))
    race.keep_boundaries = True
    return race


def to_first_roll(race: Race, decisions: list[tuple[str, Decision]]) -> int:
    """Answer the race's own questions until it asks for a die; the decisions used."""
    used = 0
    while not isinstance(race.pending, RollQuestion):
        car, decision = decisions[used]
        race.apply(decision, car=car)
        used += 1
    return used


def test_the_table_race_plays_the_server_race_from_the_entered_numbers() -> None:
    server, decisions = server_race()
    rolls = iter(server.dice.history)
    race = table_race()
    moves = iter(decisions)
    while not race.finished:
        ask = race.pending
        assert ask is not None
        if isinstance(ask, RollQuestion):
            roll = next(rolls)
            assert (ask.die, ask.purpose, ask.car) == (roll.die, roll.purpose, roll.car)
            race.apply(RollEntry(roll.result))
        else:
            car, decision = next(moves)
            race.apply(decision, car=car)
    assert [(e.kind, e.car, e.data) for e in race.events[1:]] == [
        (e.kind, e.car, e.data) for e in server.events[1:]
    ]
    assert [p.car for p in race.classification()] == [p.car for p in server.classification()]
    assert len(race.take_boundaries()) == server.round + 1


def test_an_entered_gear_roll_is_the_roll_the_move_is_made_with() -> None:
    _, decisions = server_race()
    race = table_race()
    to_first_roll(race, decisions)
    while race.pending is not None and race.pending.kind is not AskKind.TURN:
        ask = race.pending
        race.apply(RollEntry(ask.faces[race.version * 7 % len(ask.faces)])
                   if isinstance(ask, RollQuestion)
                   else race.legal_decisions(ask.car)[0], car=ask.car)
    turn = race.pending
    assert turn is not None
    race.apply(TurnChoice(gear=1), car=turn.car)
    ask = race.pending
    assert isinstance(ask, RollQuestion) and (ask.die, ask.purpose) == ("gear1", "gear")
    assert ask.faces == (1, 2)
    race.apply(RollEntry(2))
    move = race.pending
    assert move is not None and move.kind is AskKind.MOVE and move.roll == 2


def test_a_number_no_face_of_the_die_shows_is_refused_naming_the_die() -> None:
    _, decisions = server_race()
    race = table_race()
    to_first_roll(race, decisions)
    ask = race.pending
    assert isinstance(ask, RollQuestion) and ask.die == "black"
    version = race.version
    with pytest.raises(DecisionError) as refused:
        race.apply(RollEntry(21))
    assert "black" in refused.value.de and "black" in refused.value.en
    assert "keine Seite 21" in refused.value.de and "no face 21" in refused.value.en
    assert race.version == version and race.pending == ask


def test_the_last_entry_is_taken_back_and_the_log_keeps_it() -> None:
    server, decisions = server_race()
    race = table_race()
    used = to_first_roll(race, decisions)
    first = race.pending
    right = server.dice.history[0].result
    wrong = 20 if right != 20 else 19
    race.apply(RollEntry(wrong))
    assert race.pending != first
    race.apply(TakeBack())
    assert race.pending == first
    race.apply(RollEntry(right))
    assert race.decisions[used:] == [
        (first.car, RollEntry(wrong)), (first.car, TakeBack()), (first.car, RollEntry(right))
    ]
    (taken,) = [e for e in race.events if e.kind is EventKind.TAKEN_BACK]
    assert taken.car == first.car and taken.get("value") == wrong
    assert taken.get("decision") == used + 1


def test_nothing_to_take_back_and_no_table_race_refuse() -> None:
    race = table_race()
    with pytest.raises(DecisionError) as refused:
        race.apply(TakeBack())
    assert refused.value.where == "table.take_back"
    server = Race(CONFIG, Dice.from_seed("s1"))
    with pytest.raises(DecisionError) as refused:
        server.apply(RollEntry(3))
    assert refused.value.where == "table"


def test_the_record_of_a_table_race_verifies_and_says_the_dice_were_entered() -> None:
    server, decisions = server_race()
    rolls = iter(server.dice.history)
    race = table_race()
    moves = iter(decisions)
    while not race.finished:
        ask = race.pending
        if isinstance(ask, RollQuestion):
            result = next(rolls).result
            if race.version == 40:
                race.apply(RollEntry(ask.faces[0] if ask.faces[0] != result else ask.faces[-1]))
                race.apply(TakeBack())
            race.apply(RollEntry(result))
        else:
            car, decision = next(moves)
            race.apply(decision, car=car)
    text = record_to_json(record_of(race, "t"))
    record = parse_record(text)
    assert record.config.table
    verdict = verify(record)
    assert verdict.honest, verdict.problems
    assert TABLE_NOTE in verdict.notes
    data = json.loads(text)
    first = next(d for d in data["decisions"] if _roll_of(d) is not None)
    _roll_of(first)["result"] = 0  # type: ignore[index]
    assert not verify(parse_record(json.dumps(data))).honest


def _roll_of(item: object) -> dict[str, object] | None:
    """The roll entry inside a record's decision item, wherever the layout puts it."""
    if isinstance(item, dict):
        if item.get("kind") == "roll":
            return item
        for value in item.values():
            found = _roll_of(value)
            if found is not None:
                return found
    return None


def test_a_table_race_resumes_from_a_round_boundary() -> None:
    server, decisions = server_race()
    rolls = iter(server.dice.history)
    race = table_race()
    moves = iter(decisions)
    while race.round < 3:
        ask = race.pending
        if isinstance(ask, RollQuestion):
            race.apply(RollEntry(next(rolls).result))
        else:
            car, decision = next(moves)
            race.apply(decision, car=car)
    state = race.take_boundaries()[-1]
    resumed = Race.resume(state, decisions=race.decisions[: state.version],
                          events=race.events[: state.events],
                          rolls=list(race.dice.history[: state.rolls]))
    for car, decision in race.decisions[state.version :]:
        resumed.apply(decision, car=car)
    assert resumed.pending == race.pending and resumed.events == race.events


def test_roll_entries_have_a_json_form() -> None:
    track = table_race().track
    for decision in (RollEntry(7), TakeBack()):
        assert decision_from_data(track, decision_to_data(track, decision)) == decision


def test_race_verify_says_the_dice_were_entered_at_the_table(tmp_path: Path) -> None:
    server, decisions = server_race()
    rolls = iter(server.dice.history)
    race = table_race()
    moves = iter(decisions)
    while not race.finished:
        if isinstance(race.pending, RollQuestion):
            race.apply(RollEntry(next(rolls).result))
        else:
            car, decision = next(moves)
            race.apply(decision, car=car)
    path = tmp_path / "table.json"
    path.write_text(record_to_json(record_of(race, "t")), encoding="utf-8")
    verify_cli = ["race", "verify", str(path)]
    english = CliRunner().invoke(app, verify_cli, env={"RENNLEITUNG_LANG": "en"})
    assert english.exit_code == 0, english.output
    assert "honest" in english.output and "not drawn by the server" in english.output
    german = CliRunner().invoke(app, verify_cli, env={"RENNLEITUNG_LANG": "de"})
    assert "nicht vom Server gezogen" in german.output and "not drawn" not in german.output


def test_the_entry_that_ended_a_round_is_taken_back_across_the_boundary() -> None:
    """The last entry of a round moves the race over a round boundary; while the new round
    has no entry of its own it is still the last entry, so it is taken back: the race goes
    back to the round before, asks that question again, and tells the store which boundary
    it went back to (its later snapshots no longer hold)."""
    server, decisions = server_race()
    rolls = iter(server.dice.history)
    race = table_race()
    moves = iter(decisions)
    crossed = 0
    while not race.finished:
        ask = race.pending
        assert ask is not None
        round_before = race.round
        if isinstance(ask, RollQuestion):
            race.apply(RollEntry(next(rolls).result))
        else:
            car, decision = next(moves)
            race.apply(decision, car=car)
        if race.round > round_before and crossed < 2 and not race.finished:
            crossed += 1
            passed = race.take_boundaries()
            assert passed and passed[-1].round == round_before
            race.apply(TakeBack())
            assert race.round == round_before and race.pending == ask
            rewound = race.take_rewind()
            assert rewound is not None and rewound[0] < passed[-1].version
            assert race.take_rewind() is None
            # a second take-back stays in the round now under way
            race.apply(TakeBack())
            assert race.round == round_before and race.take_rewind() is None
            again = race.pending
            assert again is not None
            for _ in range(2):  # the two entries again, as they were
                assert not race.finished
                race.apply(race.decisions[-4][1], car=race.decisions[-4][0])
            assert race.round > round_before
    assert crossed == 2
    kept = [(e.kind, e.car, e.data) for e in race.events[1:] if e.kind is not EventKind.TAKEN_BACK]
    assert kept == [(e.kind, e.car, e.data) for e in server.events[1:]]
    assert verify(parse_record(record_to_json(record_of(race, "t")))).honest
