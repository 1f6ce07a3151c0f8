"""The one place where ``play/`` touches the race engine's API.

The engine's person-facing API (issue 12): ``Race.version``, ``Race.questions()`` (every open
question, each naming its car; setups and secret bids are asked of all drivers at once),
``Race.apply(decision, car=, expected_version=)`` raising ``StaleVersion``, questions and views
with ``to_json()``, decisions parsed from JSON. Everything the service needs from the engine goes
through these functions, so following the engine is a change in this file only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    Decision,
    Halt,
    StaleVersion,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_questions import Question
from rennleitung.formula_de.race_setup import RaceConfig
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
    """A race at version 0, its dice seeded by ``seed`` and committed to it."""
    return Race(config, Dice.from_seed(seed), track=track, commitment=commit(seed))


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


def view_json(race: Race, car: str | None) -> dict[str, Any]:
    """What ``car``'s driver may know now (None: the spectators' view), as JSON."""
    return race.view(car).to_json()
