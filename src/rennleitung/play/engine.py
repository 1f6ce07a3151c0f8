"""The one place where ``play/`` touches the race engine's API.

The engine is growing a person-facing API (``Race.version``, ``Race.questions()``, ``apply`` with
``car`` and ``expected_version``, questions and views as JSON). Everything the service needs from
the engine goes through these functions, so following the engine is a change in this file only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rennleitung.formula_de.commitment import commit
from rennleitung.formula_de.dice import Dice
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import (
    Ask,
    Decision,
    DecisionError,
    Halt,
    decision_from_data,
    decision_to_data,
)
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.track import Track
from rennleitung.formula_de.trackbuild import build_track
from rennleitung.formula_de.trackfile import parse_track_file


class StaleVersion(DecisionError):
    """A decision made against another version of the race than the current one: stale or
    repeated, never applied."""


def stale(car: str, expected: int, current: int) -> StaleVersion:
    """The refusal of a decision made against version ``expected``."""
    return StaleVersion(
        f"Entscheidung für Stand {expected}, das Rennen steht bei {current}: schon beantwortet "
        "oder veraltet, nicht angewendet",
        f"decision made against version {expected}, the race is at {current}: already answered "
        "or stale, not applied",
        f"version ({car})",
    )


def uploaded_track(name: str, text: str) -> Track:
    """A track from a track file's content (errors name the line)."""
    return build_track(parse_track_file(text, default_name=name))


def new_race(config: RaceConfig, seed: str, track: Track | None = None) -> Race:
    """A race at version 0, its dice seeded by ``seed`` and committed to it."""
    return Race(config, Dice.from_seed(seed), track=track, commitment=commit(seed))


def version(race: Race) -> int:
    """The number of decisions applied (halts included)."""
    return len(race.decisions)


def questions(race: Race) -> tuple[Ask, ...]:
    """Every open question; each names its car (``ask.car``)."""
    ask = race.pending
    return () if ask is None else (ask,)


def asked_cars(race: Race) -> frozenset[str]:
    """The cars that have a question to answer."""
    return frozenset(ask.car for ask in questions(race))


def question_of(race: Race, car: str) -> Ask | None:
    """The open question of ``car``, if any."""
    return next((ask for ask in questions(race) if ask.car == car), None)


def apply(race: Race, car: str, decision: Decision) -> None:
    """Apply ``car``'s decision; a ``Halt`` stops ``car`` (Dresden "FD Blitz"). Anything the
    race refuses raises ``DecisionError`` naming the rule and leaves the race unchanged."""
    if isinstance(decision, Halt):
        race.halt(car)
        return
    if question_of(race, car) is None:
        asked = ", ".join(sorted(asked_cars(race))) or "-"
        raise DecisionError(
            f"{car} ist nicht gefragt (gefragt: {asked})",
            f"{car} is not asked (asked: {asked})",
            f"race.{car}",
        )
    race.apply(decision)


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


def question_to_json(race: Race, ask: Ask) -> dict[str, Any]:
    """The JSON form of a question: its kind, its car and the decisions it offers."""
    return {
        "kind": ask.kind.value,
        "car": ask.car,
        "options": [decision_to_data(race.track, d) for d in _legal(race, ask)],
    }


def _legal(race: Race, ask: Ask) -> list[Decision]:
    return race.legal_decisions() if race.pending is ask else []
