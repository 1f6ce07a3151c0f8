"""The one place where ``play/`` touches the race engine's API.

The engine's person-facing API (issue 12): ``Race.version``, ``Race.questions()`` (every open
question, each naming its car; setups and secret bids are asked of all drivers at once),
``Race.apply(decision, car=, expected_version=)`` raising ``StaleVersion``, questions and views
with ``to_json()``, decisions parsed from JSON. Everything the service needs from the engine goes
through these functions, so following the engine is a change in this file only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rennleitung.formula_de.builtin_tracks import builtin_track
from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice, DiceRoll
from rennleitung.formula_de.events import Event, event_from_data
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    Decision,
    Halt,
    RollEntry,
    StaleVersion,
    TakeBack,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_questions import Question, RollQuestion
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.race_state_json import state_from_data, state_to_data
from rennleitung.formula_de.record import rolls_data
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackcheck import checked_track
from rennleitung.formula_de.trackfile import parse_track_file

__all__ = ["StaleVersion"]  # the engine's, re-exported: web and mail catch it from here


def stale(expected: int, current: int) -> StaleVersion:
    """The refusal of a decision made against version ``expected``."""
    return StaleVersion(expected, current)


def uploaded_track(name: str, text: str, *, stored: bool = False) -> Track:
    """A track from a track file's content: refused with the errors ``track check`` reports
    (each names its line). ``stored``: a track accepted when its race was created, read back
    from the database; it is only parsed, so a later, stricter check does not stop that race."""
    if stored:
        return replace(build_track(parse_track_file(text, default_name=name)), source=text)
    return checked_track(text, name, "track_file")


def new_race(config: RaceConfig, seed: str, track: Track | None = None) -> Race:
    """A race at version 0, its dice seeded by ``seed`` and committed to it; it keeps its round
    boundaries for ``snapshots``."""
    race = Race(config, Dice.from_seed(seed), track=track, commitment=commit(seed))
    race.keep_boundaries = True
    return race


@dataclass(frozen=True)
class Snapshot:
    """A round boundary as the store keeps it: the state's JSON text and the events and rolls
    since the boundary before (JSON texts)."""

    round: int
    version: int
    rules_version: int
    state: str
    events: str
    rolls: str


def snapshots(race: Race, logged: tuple[int, int]) -> tuple[list[Snapshot], tuple[int, int]]:
    """The round boundaries ``race`` passed since the last call, each with the events and rolls
    after ``logged`` (the lengths of the logs at the boundary stored before); returns them and
    the lengths at the last one."""
    taken = race.take_boundaries()
    if not taken:
        return [], logged
    events = race.events_since(logged[0])
    rolls = race.dice.since(logged[1])
    found = []
    for state in taken:
        found.append(
            Snapshot(
                round=state.round,
                version=state.version,
                rules_version=state.rules_version,
                state=json.dumps(state_to_data(state, race.track), ensure_ascii=False),
                events=json.dumps(
                    [e.to_data() for e in events[: state.events - logged[0]]],
                    ensure_ascii=False,
                ),
                rolls=json.dumps(
                    rolls_data(tuple(rolls[: state.rolls - logged[1]])), ensure_ascii=False
                ),
            )
        )
        events = events[state.events - logged[0] :]
        rolls = rolls[state.rolls - logged[1] :]
        logged = (state.events, state.rolls)
    return found, logged


def passed(race: Race, logged: tuple[int, int]) -> tuple[int, int]:
    """Forget the boundaries ``race`` passed (another process stored them); the lengths of the
    logs at the last one."""
    taken = race.take_boundaries()
    return (taken[-1].events, taken[-1].rolls) if taken else logged


def resumed_race(
    state_text: str,
    track: Track | None,
    config: RaceConfig,
    decisions: Callable[[], Sequence[tuple[str, str]]],
    logs: Sequence[tuple[str, str]],
) -> tuple[Race, tuple[int, int]]:
    """The race from a stored snapshot, and the lengths of its event and roll logs there:
    ``decisions`` reads the (car, JSON) of the decisions up to it, ``logs`` are the snapshots'
    (events, rolls) texts; both are read only when someone reads the race's older decisions,
    events or rolls (``race_log.Log``)."""
    board = track if track is not None else builtin_track(config.track)
    state = state_from_data(json.loads(state_text), board)

    def earlier_decisions() -> list[tuple[str, Decision]]:
        return [
            (car, decision_from_data(board, json.loads(text), f"decisions[{n}]"))
            for n, (car, text) in enumerate(decisions(), start=1)
        ]

    def earlier_events() -> list[Event]:
        return [event_from_data(e) for events, _ in logs for e in json.loads(events)]

    def earlier_rolls() -> list[DiceRoll]:
        return [DiceRoll(*r) for _, rolls in logs for r in json.loads(rolls)]

    race = Race.resume(
        state,
        track=track,
        decisions=earlier_decisions,
        events=earlier_events,
        rolls=earlier_rolls,
        keep_boundaries=True,
    )
    return race, (state.events, state.rolls)


def version(race: Race) -> int:
    """The number of decisions applied (halts included)."""
    return race.version


def questions(race: Race) -> tuple[Question, ...]:
    """Every open question not yet answered, in the rules' order; each names its car."""
    return tuple(race.questions())


def current_for(race: Race, car: str, expected: int) -> bool:
    """Whether an answer of ``car`` made against version ``expected`` still answers the
    question open now. Between one driver's questions the version moves only by his own
    answers, so only the current version qualifies; but questions asked of all drivers at once
    (setups, secret bids) stay the same while the others answer theirs, so an answer made
    before the others' answers in the same round is still current."""
    now = race.version
    if expected == now:
        return True
    others = race.open_answers()
    if question_of(race, car) is None or car in others or not others:
        return False
    opened = opened_at(race)
    return opened <= expected < now and all(c in others for c, _ in race.decisions[opened:])


def opened_at(race: Race) -> int:
    """The version the open questions were opened at: questions asked of all drivers at once
    (setups, secret bids) keep it while the others answer, each answer moving the version by
    one; the mail names it in its subject, a view keeps it with each question."""
    return race.version - len(race.open_answers())


def asked_cars(race: Race) -> frozenset[str]:
    """The cars that have a question to answer."""
    return frozenset(ask.car for ask in questions(race))


def question_of(race: Race, car: str) -> Question | None:
    """The open question of ``car``, if any."""
    return next((ask for ask in questions(race) if ask.car == car), None)


def apply(race: Race, car: str, decision: Decision) -> None:
    """Apply ``car``'s decision; a ``Halt`` stops ``car`` (Dresden "FD Blitz"). Anything the
    race refuses raises ``DecisionError`` naming the rule and leaves the race unchanged."""
    if isinstance(decision, Halt):
        race.halt(car)
        return
    race.apply(decision, car=car)


def replay(race: Race, decisions: Iterable[tuple[str, Decision]]) -> Race:
    """``race`` with ``decisions`` applied in order."""
    for car, decision in decisions:
        apply(race, car, decision)
    return race


def decision_to_json(race: Race, decision: Decision) -> dict[str, Any]:
    """The JSON form of a decision (moves by space names)."""
    return decision_to_data(race.track, decision)


def decision_from_json(race: Race, data: Mapping[str, Any], where: str = "decision") -> Decision:
    """Parse the JSON form of a decision; errors name the field."""
    return decision_from_data(race.track, dict(data), where)


def question_to_json(race: Race, ask: Question) -> dict[str, Any]:
    """The JSON form of a question (``docs/formula_de/questions.md``) plus ``options``: the
    answers it offers in the decision JSON form, which the web's ``question.json`` has promised
    since it first landed (scripted clients and the load generator pick from it)."""
    data = ask.to_json()
    data["options"] = [decision_to_data(race.track, d) for d in race.legal_decisions(ask.car)]
    return data


def at_table(race: Race) -> bool:
    """Whether the race's dice are the table's (issue 29)."""
    return race.at_table


def is_roll(ask: Question) -> bool:
    """Whether ``ask`` asks for the number a real die showed (a race at the table)."""
    return isinstance(ask, RollQuestion)


def is_table_entry(decision: Decision) -> bool:
    """A number read off a die or a take-back: entered by the organiser at the table."""
    return isinstance(decision, RollEntry | TakeBack)


def entry_car(race: Race, car: str, decision: Decision) -> str:
    """The car a decision is stored under: a roll under the car it was asked of, a take-back
    under the car of the entry it takes back (what the race logs, so replays agree)."""
    if isinstance(decision, TakeBack):
        return race.take_back_car()
    if isinstance(decision, RollEntry):
        ask = race.pending
        return ask.car if ask is not None else car
    return car
