"""Every field ``rennleitung rules show`` prints is read by the code that applies its rule
(issue 12: "`rules show` must print exactly what the engine uses").

``CONSUMERS`` names, for every ``Ruleset`` field, a function that reads it; the test finds that
function and checks its source for the read, so a field nobody reads any more, a consumer that
stops reading it, or a new field without a consumer all fail. Where a field is read through a
``Ruleset`` helper (``tyre``, ``collision_limit`` …), the entry is a chain: the helper reads the
field, and the consumer calls the helper. Behaviour tests below show, for the fields wired by
issue 12, that changing the field changes the outcome.
"""

from __future__ import annotations

import importlib
import inspect
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from rennleitung.errors import RennleitungError
from rennleitung.formula_de.car import CarStatus, Weather, WeatherRoll, WeatherState
from rennleitung.formula_de.race_decisions import KarmaAction, KarmaChoice, TurnChoice
from rennleitung.formula_de.ruleset import Qualifying, field_docs, get_ruleset
from rennleitung.league.blitz_match import BlitzMatch
from rennleitung.league.formats import DRESDEN_SEASON_2006, BoxChoiceBy
from rennleitung.league.points import race_points

R = "rennleitung.formula_de.ruleset:Ruleset."
RACE = "rennleitung.formula_de.race:Race."
FORMAT = "rennleitung.league.formats:LeagueFormat."
REQUEST = "rennleitung.formula_de.moves:request_for"
PIT_POINTS = "rennleitung.formula_de.race_pit:plan_points@.pit_stop_points("

INCOME = "rennleitung.formula_de.karma_income:end_of_race_karma"
INCOME_READERS = (RACE + "_karma_income@end_of_race_karma",
                  "rennleitung.league.karma:karma_ledger@end_of_race_karma")
"""The end-of-race karma has one home (issue 20): the race and the league's ledger call it."""

CONSUMERS: dict[str, tuple[str, ...]] = {
    "name": ("rennleitung.league.race_run:ruleset_for",),
    "title_de": ("rennleitung.cli.rules:list_rulesets",),
    "title_en": ("rennleitung.cli.rules:list_rulesets",),
    "laps": (RACE + "__init__",),
    "setup_points": (RACE + "_choose_setups",),
    "box_max": (RACE + "_choose_setups",),
    "area_minimum": (RACE + "_choose_setups",),
    "fixed_setup": (RACE + "_choose_setups",),
    "pre_race_order": (RACE + "_setup",),
    "t_car_points": (RACE + "_t_car",),
    "start_roll": (R + "start_outcome", RACE + "_turn@.start_outcome("),
    "super_start_spaces": (RACE + "_super_start",),
    "super_start_next_gears": (RACE + "_super_start",),
    "skip_gear_costs": ("rennleitung.formula_de.race_gears:legal_gears",),
    "skip_three_marks_danger": (RACE + "_gear_turn",),
    "fuel_per_lap": ("rennleitung.formula_de.moves:option_to_data",),
    "blocked_table": (REQUEST,),
    "blocked_out_body_ahead": (RACE + "_apply_option",),
    "blocked_end_plays_first": (REQUEST,),
    "slipstream_behind_rolling_out": (REQUEST,),
    "blocking_cites_masters": (REQUEST, RACE + "_retire", RACE + "classification"),
    "zero_tyres_spin_again": (REQUEST,),
    "tyre_table": (R + "tyre", REQUEST + "@.tyre("),
    "pit_system": (RACE + "_pit_arrival",),
    "pit_refuel_points": (R + "pit_stop_points", PIT_POINTS),
    "pit_tyre_points": (R + "pit_stop_points", PIT_POINTS),
    "pit_repair_points": ("rennleitung.formula_de.race_pit:max_repairs",),
    "pit_unannounced_penalty": (
        R + "pit_stop_points",
        PIT_POINTS,
    ),
    "pit_work_gear": (RACE + "_pit_arrival",),
    "quick_stop_success_max": (RACE + "_pit_arrival",),
    "pit_exit_max_gear": (RACE + "_pit_arrival",),
    "pit_lane_max_gear": (REQUEST,),
    "pit_min_laps": (R + "pit_lane_open", REQUEST + "@.pit_lane_open("),
    "pit_closed_last_lap": (R + "pit_lane_open", REQUEST + "@.pit_lane_open("),
    "weather_reroll_trigger": (RACE + "_gear_roll",),
    "weather_reroll_at_once": (RACE + "_gear_roll",),
    "weather_settles_after": (RACE + "_weather_roll",),
    "slipstream_min_gear": (REQUEST,),
    "slipstream_spaces": (REQUEST,),
    "slipstream_corner_brakes": (REQUEST,),
    "engine_test_trigger": (R + "is_engine_trigger", RACE + "_gear_turn@.is_engine_trigger("),
    "engine_test_threshold": (R + "engine_limit", RACE + "_engine_tests@.engine_limit("),
    "engine_test_rain": (R + "engine_limit", RACE + "_engine_tests@.engine_limit("),
    "road_holding_threshold": (
        R + "road_holding_limit",
        RACE + "_apply_option@.road_holding_limit(",
    ),
    "road_holding_rain": (R + "road_holding_limit", RACE + "_apply_option@.road_holding_limit("),
    "collision_threshold": (R + "collision_limit", RACE + "_collisions@.collision_limit("),
    "collision_rain": (R + "collision_limit", RACE + "_collisions@.collision_limit("),
    "collision_aggravated": (R + "collision_limit", RACE + "_collisions@.collision_limit("),
    "collision_aggravated_by": (RACE + "_collisions",),
    "engine_boost": (REQUEST,),
    "engine_failure": (RACE + "_engine_failed",),
    "wreck_removal": (RACE + "__init__",),
    "inertia_gear": (RACE + "_engine_failed",),
    "profiles_allowed": ("rennleitung.formula_de.race_setup:check_config",),
    "karma": (RACE + "_check",),
    "karma_start": (RACE + "_setup", FORMAT + "karma_start"),
    "karma_reroll_cost": (RACE + "_check", "rennleitung.league.karma:in_race_karma"),
    "karma_plus_one_cost": (RACE + "_check", "rennleitung.league.karma:in_race_karma"),
    "karma_per_natural_twenty": (RACE + "_check", "rennleitung.league.karma:in_race_karma"),
    "karma_points_per_karma": (INCOME, *INCOME_READERS, FORMAT + "race_points_per_karma"),
    "karma_per_place_gained": (INCOME, *INCOME_READERS),
    "karma_most_laps_led": (INCOME, *INCOME_READERS),
    "head_to_head": (RACE + "_head_to_head",),
    "qualifying": (
        "rennleitung.league.grid:build_qualifying",
        "rennleitung.league.blitz_match:BlitzMatch.next_start",
    ),
    "qualifying_runs": (FORMAT + "max_qualifying_runs",),
    "qualifying_error_points": ("rennleitung.formula_de.qualifying:qualifying_score",),
    "qualifying_minute_points": ("rennleitung.formula_de.qualifying:qualifying_score",),
    "qualifying_pole_points": (FORMAT + "pole_qualifying_points",),
    "points_table": (RACE + "classification", FORMAT + "race_points"),
    "points_min_laps": (RACE + "classification", FORMAT + "min_laps_for_points"),
    "season_races": (FORMAT + "races",),
    "drop_results": (FORMAT + "drop_results",),
    "box_per_driver": (RACE + "_choose_boxes", FORMAT + "box_choice_by"),
    "team_size": (FORMAT + "max_team_size",),
    "restart_after_blockage": (RACE + "_blocked",),
    "restart_max_gear": (RACE + "_restart",),
    "full_restart_before_corner": (RACE + "_restart",),
    "players": ("rennleitung.formula_de.race_setup:check_config",),
    "heats_to_win": ("rennleitung.league.blitz_match:BlitzMatch.winner",),
    "chess_clock": ("rennleitung.league.blitz_run:run_blitz",),
}
"""Field -> the functions that read it. An entry ``module:qualname@token`` reads the field
through a helper (``token`` is the call); every other entry reads ``.field`` itself."""


def _source(path: str) -> str:
    module_name, qualname = path.split(":")
    target: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if isinstance(target, property):
        target = target.fget
    return inspect.getsource(target)


def test_every_field_rules_show_prints_has_a_consumer() -> None:
    shown = {doc.name for doc in field_docs()}
    assert shown == set(CONSUMERS), f"fields without consumer: {shown ^ set(CONSUMERS)}"


@pytest.mark.parametrize("field", sorted(CONSUMERS))
def test_the_consumers_read_the_field(field: str) -> None:
    for entry in CONSUMERS[field]:
        path, _, token = entry.partition("@")
        source = _source(path)
        if token:
            assert token in source, f"{path} does not call {token} (for {field})"
        else:
            assert re.search(rf"\.{field}\b", source), f"{path} does not read {field}"


# --- the fields wired by issue 12, each changing an outcome ---------------------------------


def test_weather_settles_after_so_many_equal_results() -> None:
    """Masters 3-2-6 (``weather_settles_after``): two equal results settle it by default;
    with three, the second sun keeps the weather changeable; changeable breaks a streak."""
    state = WeatherState(current=Weather.SUN, settled=False)
    twice = state.after_roll(WeatherRoll.SUN).after_roll(WeatherRoll.SUN)
    assert twice.settled
    three = state.after_roll(WeatherRoll.SUN, 3).after_roll(WeatherRoll.SUN, 3)
    assert not three.settled and three.after_roll(WeatherRoll.SUN, 3).settled
    broken = state.after_roll(WeatherRoll.SUN).after_roll(WeatherRoll.CHANGEABLE)
    assert not broken.after_roll(WeatherRoll.SUN).settled


@pytest.mark.parametrize(("lost", "body"), [(0, 3), (1, 2), (2, 1)])
def test_the_car_in_front_of_a_car_out_by_blocking_loses_the_set_body_points(
    lost: int, body: int
) -> None:
    """Dresden "Blockierte Spur", Masters 12-1-1 (``blocked_out_body_ahead``): m, blocked
    without brakes on A3, is out; f in front (3 body points) loses ``lost`` of them."""
    from .test_race_rules import SETUP, SUN, go, place, start

    race = start([SUN, 1, 1, 4, 2], cars=("m", "f", "s"))
    race.ruleset = replace(race.ruleset, blocked_out_body_ahead=lost)
    for car, space in (("f", "A4"), ("s", "B3")):
        place(race, car, space, gear=0, crossings=2, status=CarStatus.SPUN)
        race.set(car, needs_start=True)
    place(race, "m", "A3", gear=1, crossings=2, wear=replace(SETUP, brakes=0))
    race = go(race)
    race.apply(TurnChoice(2))
    if race.pending is not None and race.pending.kind.value == "karma":
        race.apply(KarmaChoice(KarmaAction.NONE))
    assert race.cars["f"].wear.body == body


def test_heats_to_win_decides_the_blitz_match() -> None:
    """Dresden FD Blitz (``heats_to_win``): best of three by default, one run with 1."""
    match = BlitzMatch(("Ann", "Bob"))
    start = match.next_start(random.Random(1))
    once = match.with_run(start, {"Ann": 5, "Bob": 3})
    assert once.winner is None
    quick = BlitzMatch(("Ann", "Bob"), rules=replace(get_ruleset("fd-blitz"), heats_to_win=1))
    assert quick.with_run(start, {"Ann": 5, "Bob": 3}).winner == "Ann"


def test_the_grid_method_is_the_rulesets() -> None:
    """``qualifying``: a Blitz match alternates pole only under ``alternate`` (Dresden FD
    Blitz), a league grid comes from timed laps only under ``timed_lap``."""
    timed = replace(get_ruleset("fd-blitz"), qualifying=Qualifying.TIMED_LAP)
    with pytest.raises(RennleitungError) as error:
        BlitzMatch(("Ann", "Bob"), rules=timed).next_start(random.Random(1))
    assert error.value.where == "fd-blitz.qualifying"
    from rennleitung.league.grid import build_qualifying
    from rennleitung.league.roster import Roster

    fmt = replace(
        DRESDEN_SEASON_2006,
        ruleset=replace(get_ruleset("dresden-2006"), qualifying=Qualifying.ALTERNATE),
    )
    with pytest.raises(RennleitungError) as grid_error:
        build_qualifying(1, (), (), Roster(fmt), random.Random(1))
    assert grid_error.value.where == "dresden-2006.qualifying"


def test_the_league_figures_come_from_the_ruleset() -> None:
    """Points, laps for points, races, team size, drops, qualifying runs and pole points,
    karma and the box choice of a league are the ruleset's (issue 12: one home per rule)."""
    rules = replace(
        get_ruleset("dresden-2006"),
        points_table=(25, 18),
        points_min_laps=1,
        season_races=4,
        team_size=3,
        drop_results=1,
        qualifying_runs=2,
        qualifying_pole_points=50,
        karma_start=12,
        karma_points_per_karma=5,
        box_per_driver=True,
    )
    fmt = replace(DRESDEN_SEASON_2006, ruleset=rules)
    figures: dict[str, Callable[[], object]] = {
        "race_points": lambda: race_points(fmt, 1, 1),
        "races": lambda: fmt.races,
        "team": lambda: fmt.max_team_size,
        "drops": lambda: fmt.drop_results,
        "runs": lambda: fmt.max_qualifying_runs,
        "pole": lambda: fmt.pole_qualifying_points,
        "karma": lambda: fmt.karma_start,
        "per_karma": lambda: fmt.race_points_per_karma,
        "box": lambda: fmt.box_choice_by,
    }
    assert {k: f() for k, f in figures.items()} == {
        "race_points": 25,
        "races": 4,
        "team": 3,
        "drops": 1,
        "runs": 2,
        "pole": 50,
        "karma": 12,
        "per_karma": 5,
        "box": BoxChoiceBy.DRIVER,
    }
    assert race_points(DRESDEN_SEASON_2006, 1, 1) == 0  # two laps needed under Dresden


def test_one_profile_enum_and_one_weather_roll_enum() -> None:
    """Issue 12: the league and the track use the engine's enums; league files keep their
    German profile names and read the engine's English ones."""
    from rennleitung.formula_de import car, track
    from rennleitung.league import profiles, qualifying_weather

    assert profiles.DriverProfile is car.DriverProfile
    assert qualifying_weather.Weather is car.WeatherRoll
    assert not hasattr(track, "WeatherKind")  # the alias is gone (issue 20)
    for profile in car.DriverProfile:
        assert profiles.parse_profile(profiles.league_name(profile)) is profile
        assert profiles.parse_profile(profile.value) is profile
        assert profiles.parse_profile(profile.label_de) is profile
    assert profiles.league_name(car.DriverProfile.THEORIST) == "theoretiker"
