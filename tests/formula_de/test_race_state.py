"""The race at a round boundary is a value (``race_state.py``): its JSON form reads back to the
same value, and a race resumed from any boundary goes on bit for bit as the race it was taken
from (same events, same rolls, same decisions asked and taken)."""

from __future__ import annotations

import json

import pytest

from rennleitung.formula_de.bots import make_bot
from rennleitung.formula_de.race import Race
from rennleitung.formula_de.race_decisions import DecisionError, Halt
from rennleitung.formula_de.race_run import bot_entries
from rennleitung.formula_de.race_setup import RaceConfig
from rennleitung.formula_de.race_state import RaceState
from rennleitung.formula_de.race_state_json import (
    StateError,
    state_from_data,
    state_to_data,
)
from rennleitung.formula_de.rules_version import RULES_VERSION

RACES = [
    ("monaco", "dresden-2006", 6, 2, "state-a", "strong"),
    ("monaco", "masters-2002", 5, 1, "state-b", "simple"),
    ("monaco", "dresden-open", 5, 1, "state-c", "simple"),
    ("monaco", "fd-blitz", 2, 1, "state-d", "strong"),
]


def _played(
    track: str, ruleset: str, cars: int, laps: int, seed: str, bot: str
) -> tuple[Race, list[RaceState]]:
    """A seeded bot race and every round boundary it passed (one car halted on the way)."""
    config = RaceConfig(track=track, ruleset=ruleset, entries=bot_entries(cars), laps=laps)
    race = Race.create(config, seed)
    race.keep_boundaries = True
    driver = make_bot(bot)
    boundaries: list[RaceState] = []
    halted = False
    while (ask := race.pending) is not None:
        if not halted and race.round == 3 and ask.car == "car2" and ask.kind.value == "turn":
            race.halt("car2")  # a halted car is state too (Dresden FD Blitz)
            halted = True
        else:
            race.apply(driver.decide(race, ask))
        boundaries.extend(race.take_boundaries())
    return race, boundaries


@pytest.mark.parametrize(("track", "ruleset", "cars", "laps", "seed", "bot"), RACES)
def test_a_race_resumed_at_every_round_boundary_goes_on_bit_for_bit(
    track: str, ruleset: str, cars: int, laps: int, seed: str, bot: str
) -> None:
    race, boundaries = _played(track, ruleset, cars, laps, seed, bot)
    assert race.finished and race.halted == {"car2"}
    rounds = [b.round for b in boundaries]
    assert rounds == list(range(race.round + 1))  # every boundary, the grid (0) to the flag
    rolls = race.dice.history
    for n, state in enumerate(boundaries):
        decisions = race.decisions[: state.version]
        events = race.events[: state.events]
        if n % 2:  # the logs read only when first needed, as the store gives them
            again = Race.resume(
                state,
                decisions=lambda d=decisions: d,  # type: ignore[misc]
                events=lambda e=events: e,  # type: ignore[misc]
                rolls=lambda r=rolls[: state.rolls]: r,  # type: ignore[misc]
            )
        else:
            again = Race.resume(
                state, decisions=decisions, events=events, rolls=rolls[: state.rolls]
            )
        for car, decision in race.decisions[state.version :]:
            if isinstance(decision, Halt):
                again.halt(car)
            else:
                again.apply(decision, car=car)
        assert again.finished
        assert again.events == race.events, f"round {state.round}"
        assert again.dice.history == rolls
        assert again.decisions == race.decisions
        assert again.classification() == race.classification()
        assert again.rules == [(0, RULES_VERSION)]


@pytest.mark.parametrize(("track", "ruleset", "cars", "laps", "seed", "bot"), RACES[:2])
def test_the_json_form_of_a_state_reads_back_to_the_same_value(
    track: str, ruleset: str, cars: int, laps: int, seed: str, bot: str
) -> None:
    race, boundaries = _played(track, ruleset, cars, laps, seed, bot)
    for state in boundaries:
        data = state_to_data(state, race.track)
        text = json.dumps(data, ensure_ascii=False)
        assert state_from_data(json.loads(text), race.track) == state
        assert data["format"] == "rennleitung-race-state/1"
        assert data["rules"] == [{"from_round": 0, "rules_version": RULES_VERSION}]


def test_a_state_with_a_broken_field_is_refused_naming_it() -> None:
    race, boundaries = _played("monaco", "masters-2002", 3, 1, "state-e", "simple")
    data = state_to_data(boundaries[2], race.track)
    data["round"] = -1
    with pytest.raises(StateError) as refused:
        state_from_data(data, race.track)
    assert refused.value.where == "round"
    data = state_to_data(boundaries[2], race.track)
    data["cars"][0]["space"] = "Q999"
    with pytest.raises(StateError) as refused:
        state_from_data(data, race.track)
    assert refused.value.where == "cars[0].space"
    with pytest.raises(StateError):
        state_from_data({"format": "something else"}, race.track)


def test_resume_refuses_logs_that_do_not_fit_the_state() -> None:
    race, boundaries = _played("monaco", "masters-2002", 3, 1, "state-f", "simple")
    state = boundaries[3]
    with pytest.raises(DecisionError) as refused:
        Race.resume(state, decisions=race.decisions, events=race.events[: state.events])
    assert refused.value.where == "state"


STATE = {
    "cars", "info", "grid_order", "finish_order", "dangerous", "weather", "round", "stopped",
    "halted", "turns", "_seq", "_t_cars_used", "_restart_round", "rules", "_events",
    "_decisions", "dice",
}
"""What a ``RaceState`` holds (with the logs beside it)."""
CONFIGURATION = {
    "config", "track", "ruleset", "_wrecks_stay", "laps", "commitment", "_grid", "entries",
    "_offset",
}
WITHIN_A_ROUND = {
    "turn_car", "_weather_rolls_due", "_requests", "_chosen", "_answers", "_cuts",
    "keep_boundaries", "_boundaries", "_proc", "_open", "_batch",
    "_base", "_replaying", "_after",  # a table race: the boundary itself, a replay's counters
    "_prev_base", "_prev_known", "_rewound",  # ... the boundary before, for a take-back
}
"""Empty or reset at every round boundary (or caches and the flow itself)."""


def test_every_field_of_a_race_is_in_its_state_or_its_configuration_or_within_a_round() -> None:
    """A field added to ``Race`` must be added to ``RaceState`` (and its JSON form), or be
    listed here as configuration or as something that never outlives a round."""
    race, _ = _played("monaco", "masters-2002", 3, 1, "state-g", "simple")
    assert set(vars(race)) == STATE | CONFIGURATION | WITHIN_A_ROUND
